//! The real-world MIB corpus (../shared/mibs: 757 files, read in place): every IETF module
//! compiles, at least 98% of the vendor modules do, and the name -> OID table agrees with
//! net-snmp's (`snmptranslate -Tz`, and `snmptranslate -On MODULE::name` where a descriptor is
//! defined by more than one module). `snmpc translate` agrees with snmptranslate on 1,000 names.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use snmp_smi::mib::Relaxation;
use snmp_smi::names::IndexStyle;
use snmp_smi::names::Mibs;

/// The corpus, or None after saying why the test skips (a failure under SNMP_REQUIRE_TOOLS=1).
fn corpus_or_skip() -> Option<PathBuf> {
    snmp_test_support::mib_corpus_or_skip()
}

fn dirs(root: &Path) -> Vec<PathBuf> {
    let mut v = vec![root.join("ietf")];
    let mut vendors: Vec<PathBuf> = std::fs::read_dir(root.join("vendor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    vendors.sort();
    v.extend(vendors);
    v
}

fn snmptranslate() -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join("snmptranslate"))
        .find(|p| p.is_file())
}

/// `snmptranslate` on many arguments at once (`-On` for names to OIDs, nothing for OIDs to
/// names): one output line per argument, `None` where net-snmp cannot translate it. net-snmp
/// stops at the first argument it cannot translate, so the run resumes after it.
fn translate_batch(tool: &Path, path: &str, args: &[String], numeric: bool) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::with_capacity(args.len());
    while out.len() < args.len() {
        let rest = &args[out.len()..args.len().min(out.len() + 1000)];
        let mut cmd = Command::new(tool);
        cmd.args(["-M", path, "-m", "ALL"]);
        // -On: numeric OIDs; -Ob: table indexes as numbers, not decoded.
        cmd.arg(if numeric { "-On" } else { "-Ob" });
        let o = cmd
            .args(rest)
            .env("MIBS", "")
            .env("MIBDIRS", "")
            .output()
            .expect("snmptranslate runs");
        let lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        let answered = lines.len().min(rest.len());
        out.extend(lines.into_iter().take(answered).map(Some));
        if answered < rest.len() {
            out.push(None);
        }
    }
    out
}

/// net-snmp's name -> OIDs table, from `-Tz` (for all modules, or for one and its imports).
fn tz(tool: &Path, path: &str, module: &str) -> HashMap<String, HashSet<String>> {
    let o = Command::new(tool)
        .args(["-M", path, "-m", module, "-Tz"])
        .env("MIBS", "")
        .env("MIBDIRS", "")
        .output()
        .unwrap();
    let mut table: HashMap<String, HashSet<String>> = HashMap::new();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let parts: Vec<&str> = line.split('\t').filter(|p| !p.is_empty()).collect();
        if let [name, oid, ..] = parts[..] {
            table
                .entry(name.trim_matches('"').to_string())
                .or_default()
                .insert(oid.trim_matches('"').to_string());
        }
    }
    table
}

#[test]
fn the_mib_corpus_compiles_and_agrees_with_net_snmp() {
    let Some(root) = corpus_or_skip() else {
        return;
    };
    let dirs = dirs(&root);
    let mut mibs = Mibs::load(&dirs, &[], &HashSet::new()).unwrap();
    let compiled = every_ietf_module_compiles(&mibs, &root);
    let Some(tool) = snmptranslate() else {
        snmp_test_support::skip(
            "the net-snmp comparison: snmptranslate not found (apt-get install -y snmp)",
        );
        return;
    };
    let path: String = dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(":");
    let theirs = tz(&tool, &path, "ALL");
    let nodes = names_agree_with_net_snmp(&mibs, &compiled, (&tool, &path), &theirs);
    let names = sample_names(&mibs, &nodes, &theirs);
    translate_agrees_both_ways(&mut mibs, &names, (&tool, &path));
}

/// The corpus's modules counted, IETF and vendor apart (a file that yielded no module counts
/// as one that failed): every IETF module and 98% of the vendors' must compile. The modules
/// that did.
fn every_ietf_module_compiles(mibs: &Mibs, root: &Path) -> HashSet<usize> {
    let ietf_dir = root.join("ietf").display().to_string();
    let (mut ietf, mut ietf_ok, mut vendor, mut vendor_ok) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut compiled = HashSet::new();
    for r in &mibs.resolved.reports {
        let l = &mibs.set.modules[r.module];
        let file = &mibs.set.files[l.file].name;
        let is_ietf = file.starts_with(&ietf_dir);
        if is_ietf {
            ietf += 1;
        } else {
            vendor += 1;
        }
        if r.ok() {
            compiled.insert(r.module);
            if is_ietf {
                ietf_ok += 1;
            } else {
                vendor_ok += 1;
            }
        } else {
            let first = r.errors[0].message.clone();
            failures.push(format!("{}: {first}", l.smi.name));
        }
    }
    // A MIB file that yielded no module counts as one that failed: files are counted, not only
    // the modules that parsed.
    for u in mibs.set.files_without_modules() {
        let file = &mibs.set.files[u.file].name;
        if file.starts_with(&ietf_dir) {
            ietf += 1;
        } else {
            vendor += 1;
        }
        failures.push(format!("{file}: no module: {}", u.diagnostics[0].message));
    }
    failures.sort();
    println!("IETF: {ietf_ok} of {ietf} files compile; vendor: {vendor_ok} of {vendor}");
    for f in &failures {
        println!("  failed: {f}");
    }
    assert_eq!(
        ietf_ok, ietf,
        "every IETF module must compile: {failures:#?}"
    );
    assert!(
        vendor_ok * 100 >= vendor * 98,
        "{vendor_ok} of {vendor} vendor modules compile (98% needed): {failures:#?}"
    );
    assert!(
        ietf >= 229 && vendor >= 520,
        "{ietf} IETF and {vendor} vendor modules found"
    );
    compiled
}

/// Every compiled node's name -> OID against snmptranslate's tables (`theirs`, under `-m
/// ALL`; a name it does not confirm, against its module's own): none may disagree and 98%
/// must be confirmed. The nodes compared.
fn names_agree_with_net_snmp<'m>(
    mibs: &'m Mibs,
    compiled: &HashSet<usize>,
    (tool, path): (&Path, &str),
    theirs: &HashMap<String, HashSet<String>>,
) -> Vec<&'m snmp_smi::mib::MibNode> {
    // Names whose OID the all-modules table does not confirm (a descriptor several modules
    // define keeps one OID there) are checked against the module's own table.
    let mut agree = 0;
    let mut pending: HashMap<usize, Vec<&snmp_smi::mib::MibNode>> = HashMap::new();
    let nodes: Vec<_> = mibs
        .resolved
        .nodes
        .iter()
        .filter(|n| compiled.contains(&n.module()))
        .collect();
    for n in &nodes {
        let oid = snmp_smi::mib::dotted(&mibs.resolved.oid(n));
        if theirs
            .get(mibs.set.name(n))
            .is_some_and(|s| s.contains(&oid))
        {
            agree += 1;
        } else {
            pending.entry(n.module()).or_default().push(n);
        }
    }
    let mut disagree = Vec::new();
    let mut unknown_to_net_snmp: HashMap<String, usize> = HashMap::new();
    for (module, list) in &pending {
        let name = &mibs.set.modules[*module].smi.name;
        let own = tz(tool, path, name);
        for n in list {
            let oid = snmp_smi::mib::dotted(&mibs.resolved.oid(n));
            match own.get(mibs.set.name(n)) {
                Some(s) if s.contains(&oid) => agree += 1,
                Some(s) => disagree.push(format!(
                    "{name}::{}: ours {oid}, net-snmp {s:?}",
                    mibs.set.name(n)
                )),
                None => *unknown_to_net_snmp.entry(name.clone()).or_default() += 1,
            }
        }
    }
    let unknown: usize = unknown_to_net_snmp.values().sum();
    println!(
        "name -> OID over {} nodes of compiled modules: {agree} agree with net-snmp, {} disagree, {unknown} unknown to net-snmp",
        nodes.len(),
        disagree.len()
    );
    let mut by_module: Vec<_> = unknown_to_net_snmp.into_iter().collect();
    by_module.sort_by_key(|b| std::cmp::Reverse(b.1));
    for (m, k) in by_module.iter().take(12) {
        println!("  unknown to net-snmp: {m}: {k} nodes");
    }
    assert!(
        disagree.is_empty(),
        "{} disagreements:\n{}",
        disagree.len(),
        disagree.join("\n")
    );
    assert!(
        agree * 100 >= nodes.len() * 98,
        "only {agree} of {} nodes confirmed by net-snmp",
        nodes.len()
    );
    nodes
}

/// 1,000 names spread over `nodes`, half with an instance suffix: descriptors net-snmp
/// (`theirs`) knows at one OID only, as `MODULE::name[.N]`.
fn sample_names(
    mibs: &Mibs,
    nodes: &[&snmp_smi::mib::MibNode],
    theirs: &HashMap<String, HashSet<String>>,
) -> Vec<String> {
    let known: Vec<_> = nodes
        .iter()
        .filter(|n| {
            theirs.get(mibs.set.name(n)).is_some_and(|s| {
                s.len() == 1 && s.contains(&snmp_smi::mib::dotted(&mibs.resolved.oid(n)))
            })
        })
        .collect();
    let step = (known.len() / 1000).max(1);
    let sample: Vec<_> = known.iter().step_by(step).take(1000).collect();
    sample
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let suffix = if k % 2 == 0 {
                format!(".{}", k % 6 + 1)
            } else {
                String::new()
            };
            format!(
                "{}::{}{suffix}",
                mibs.set.modules[n.module()].smi.name,
                mibs.set.name(n)
            )
        })
        .collect()
}

/// snmpc translate on `names`, both ways, against snmptranslate.
fn translate_agrees_both_ways(mibs: &mut Mibs, names: &[String], (tool, path): (&Path, &str)) {
    let oids = translate_batch(tool, path, names, true);
    let mut forward = 0;
    for (name, t) in names.iter().zip(&oids) {
        let Some(t) = t else { continue };
        let ours = format!(
            ".{}",
            snmp_smi::mib::dotted(&mibs.name_to_oid(name).unwrap())
        );
        assert_eq!(&ours, t, "{name}");
        forward += 1;
    }
    let answered: Vec<String> = oids.iter().flatten().cloned().collect();
    let back = translate_batch(tool, path, &answered, false);
    let mut reverse = 0;
    let mut differ = Vec::new();
    mibs.prefer(Some("ALL"));
    for (oid, t) in answered.iter().zip(&back) {
        let Some(t) = t else { continue };
        let arcs: Vec<u32> = oid
            .trim_start_matches('.')
            .split('.')
            .map(|a| a.parse().unwrap())
            .collect();
        // Where two modules define the OID, the one net-snmp reads first under -m ALL.
        let ours = mibs.oid_to_name(&arcs, IndexStyle::Numeric).unwrap();
        if ours == *t {
            reverse += 1;
        } else {
            differ.push(format!("{oid}: ours {ours}, net-snmp's {t}"));
        }
    }
    println!("snmpc translate: of 1,000 names, {forward} -> OID and {reverse} OID -> name agree with snmptranslate; net-snmp refused the rest (index out of range)");
    assert!(
        differ.is_empty(),
        "OID -> name differs:\n{}",
        differ.join("\n")
    );
    assert!(
        forward >= 950 && reverse >= 950,
        "{forward} and {reverse} compared"
    );
    assert_eq!(names.len(), 1000);
}

/// Typed bindings for every module of the corpus that compiles: generated without error, and
/// all of them build as one crate against snmp-mib with warnings denied (`cargo check`).
#[test]
fn bindings_generate_and_build_for_the_whole_corpus() {
    let Some(root) = corpus_or_skip() else {
        return;
    };
    let dirs = dirs(&root);
    let mibs = Mibs::load(&dirs, &[], &HashSet::new()).unwrap();
    let ietf_dir = root.join("ietf").display().to_string();
    let compiled: Vec<usize> = mibs
        .resolved
        .reports
        .iter()
        .filter(|r| r.ok())
        .map(|r| r.module)
        .collect();
    let set = &mibs.set;
    let started = std::time::Instant::now();
    // The agent side too: every row's and scalar group's serving code compiles.
    let options = snmp_codegen::mib::EmitOptions { agent: true };
    let name = |f: usize| set.files[f].name.clone();
    let emitted = snmp_codegen::mib::emit_mibs(set, &mibs.resolved, &compiled, &name, &options)
        .unwrap_or_else(|d| panic!("bindings for the corpus: {d}"));
    let types: usize = emitted.iter().map(|m| m.type_count).sum();
    let lines: usize = emitted.iter().map(|m| m.source.lines().count()).sum();
    println!(
        "bindings: {} modules, {types} enums, bit sets and rows, {lines} lines, in {:.1} s",
        emitted.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(emitted.len(), compiled.len());

    // Build every compiling module's bindings as one crate, warnings denied: what users
    // compiling their devices' MIBs from build.rs get.
    let ietf = emitted
        .iter()
        .zip(&compiled)
        .filter(|(_, &m)| set.files[set.modules[m].file].name.starts_with(&ietf_dir))
        .count();
    assert!(ietf >= 229, "{ietf} IETF modules");
    // One crate directory, always the same, so that a second run reuses the first one's
    // build (a new path each run would be a new package to cargo, and fill the disk).
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/corpus-bindings");
    let scratch = target.join("crate");
    let _ = std::fs::remove_dir_all(scratch.join("src"));
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mib");
    std::fs::create_dir_all(scratch.join("src")).unwrap();
    std::fs::write(
        scratch.join("Cargo.toml"),
        format!(
            "[package]\nname = \"corpus-bindings\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\nsnmp-mib = {{ path = {:?} }}\n\n[workspace]\n",
            runtime.display().to_string()
        ),
    )
    .unwrap();
    let mut lib = String::from("#![deny(warnings)]\n");
    let mut mods = HashSet::new();
    for e in &emitted {
        // Module names that make the same Rust name (`A-MIB`, `A_MIB`) get distinct ones
        // from the generator: the modules refer to each other by them.
        let name = e.rust_name.clone();
        assert!(mods.insert(name.clone()), "two modules named `{name}`");
        lib.push_str(&format!("pub mod {name};\n"));
        std::fs::write(scratch.join("src").join(format!("{name}.rs")), &e.source).unwrap();
    }
    std::fs::write(scratch.join("src/lib.rs"), lib).unwrap();
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO"))
        .args(["check", "--offline", "--quiet", "--message-format", "short"])
        .current_dir(&scratch)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("error"))
        .take(40)
        .collect();
    assert!(
        out.status.success(),
        "the corpus's bindings do not build:\n{}",
        first.join("\n")
    );
    println!(
        "the bindings of all {} modules ({ietf} IETF) build under deny(warnings) ({:.0} s)",
        emitted.len(),
        started.elapsed().as_secs_f64()
    );
}

/// `snmpc decode --mib-dir` names bindings and OID values from the corpus's IETF modules.
#[test]
fn decode_names_oids_from_mibs() {
    let Some(root) = corpus_or_skip() else {
        return;
    };
    let pcap = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/pcap/v2c-get.pcap");
    let run = |json: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        cmd.arg("decode")
            .arg("-M")
            .arg(root.join("ietf"))
            .arg("--pcap")
            .arg(&pcap);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().expect("snmpc runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    let text = run(false);
    assert!(
        text.contains("\n    SNMPv2-MIB::sysDescr.0 = OCTET STRING: \"Linux"),
        "{text}"
    );
    assert!(
        text.contains(
            "SNMPv2-MIB::sysObjectID.0 = OBJECT IDENTIFIER: SNMPv2-SMI::enterprises.8072.3.2.10"
        ),
        "{text}"
    );
    let json = run(true);
    let first: serde_json::Value =
        serde_json::from_str(json.lines().nth(1).expect("a response")).unwrap();
    let vb = &first["varbinds"][1];
    assert_eq!(vb["oid"], "1.3.6.1.2.1.1.2.0");
    assert_eq!(vb["name"], "SNMPv2-MIB::sysObjectID.0");
    assert_eq!(vb["value_name"], "SNMPv2-SMI::enterprises.8072.3.2.10");

    // A v1 trap's enterprise is named too, in both forms.
    let trap = Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .arg("decode")
        .arg("-M")
        .arg(root.join("ietf"))
        .arg("--pcap")
        .arg(pcap.with_file_name("v1-trap.pcap"))
        .output()
        .expect("snmpc runs");
    let text = String::from_utf8_lossy(&trap.stdout);
    assert!(
        text.contains(" enterprise=SNMPv2-SMI::enterprises."),
        "{text}"
    );
}

/// A node as the comparison of mibs/ with the corpus sees it.
fn node_facts(mibs: &Mibs, module: &str) -> std::collections::BTreeMap<String, String> {
    use snmp_smi::asn1::ast::{TypeKind, Value};
    let m = mibs.set.by_name[module];
    mibs.resolved
        .nodes
        .iter()
        .filter(|n| n.module() == m)
        .map(|n| {
            let smi = &mibs.set.modules[m].smi;
            let node = &smi.nodes[n.index()];
            let named = match node.syntax.as_ref().map(|t| &t.kind) {
                Some(TypeKind::Integer(nn)) | Some(TypeKind::BitString(nn)) => nn
                    .iter()
                    .map(|x| match &x.value {
                        Some(Value::Number(v)) => format!("{}({v})", x.name),
                        _ => x.name.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(","),
                _ => String::new(),
            };
            let index: Vec<String> = node
                .index()
                .iter()
                .map(|i| {
                    let implied = if i.implied { "IMPLIED " } else { "" };
                    format!("{implied}{}", smi.name(i.name))
                })
                .collect();
            let facts = format!(
                "oid {} | {} | base {:?} | access {:?} | status {:?} | named {named} | index {} | augments {:?}",
                snmp_smi::mib::dotted(&mibs.resolved.oid(n)),
                n.kind().as_str(),
                n.base_type(),
                node.access.map(|a| a.as_str()),
                node.status.map(|s| s.as_str()),
                index.join(","),
                node.augments().map(|a| smi.name(a))
            );
            (mibs.set.name(n).to_string(), facts)
        })
        .collect()
}

/// Every module written out in mibs/ defines what the real-world copy of it in
/// ../shared/mibs/ietf defines: the same names, OIDs, kinds, base syntaxes, access, status,
/// enumerations, INDEX and AUGMENTS.
#[test]
fn project_mibs_match_the_corpus_copies() {
    let Some(root) = corpus_or_skip() else {
        return;
    };
    let ours_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    let ours = Mibs::load(&[ours_dir], &[], &Relaxation::ALL.into_iter().collect()).unwrap();
    for r in &ours.resolved.reports {
        assert!(
            r.ok() && r.warnings.is_empty(),
            "mibs/ must compile with every relaxation an error: {:?} {:?}",
            r.errors,
            r.warnings
        );
    }
    let theirs = Mibs::load(&[root.join("ietf")], &[], &HashSet::new()).unwrap();
    let mut compared = 0;
    for l in &ours.set.modules {
        let name = &l.smi.name;
        let a = node_facts(&ours, name);
        let b = node_facts(&theirs, name);
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "{name}: the same names"
        );
        for (k, v) in &a {
            assert_eq!(Some(v), b.get(k), "{name}::{k}");
        }
        // Textual conventions: the same names, hints and base syntaxes.
        let tcs = |m: &Mibs| -> Vec<(String, Option<String>, String)> {
            let i = m.set.by_name[name];
            let text = m.set.files[m.set.modules[i].file]
                .text()
                .expect("the module's file reads again");
            let mut v: Vec<_> = m.set.modules[i]
                .smi
                .types
                .iter()
                .filter(|t| t.textual_convention)
                .map(|t| {
                    // Compared token by token, without white space or comments:
                    // `SIZE(5..32)` is `SIZE (5..32)`.
                    let written = t.syntax_text(&text).expect("the syntax is in the file");
                    let syntax: String = snmp_smi::mib::lex(written)
                        .expect("a parsed syntax lexes")
                        .iter()
                        .map(|k| &written[k.start()..k.end()])
                        .collect();
                    (t.name.clone(), t.display_hint.clone(), syntax)
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(tcs(&ours), tcs(&theirs), "{name}: textual conventions");
        compared += a.len();
    }
    println!(
        "mibs/: {} modules, {compared} nodes identical to ../shared/mibs/ietf",
        ours.set.modules.len()
    );
    assert!(compared >= 86);
}

/// A MIB path (`-M`) of the corpus's IETF folder and vendor folder `vendor`.
fn ietf_and(corpus: &Path, vendor: &str) -> String {
    format!(
        "{}:{}",
        corpus.join("ietf").display(),
        corpus.join("vendor").join(vendor).display()
    )
}

/// `translate` (snmptranslate, or `snmpc translate`) with every module of `ietf` (`-M DIR -m
/// ALL`, MIBS and MIBDIRS cleared) and `args`: its stdout, stderr and exit code.
fn over_ietf(translate: &mut Command, ietf: &Path, args: &[&str]) -> (String, String, Option<i32>) {
    let out = translate
        .arg("-M")
        .arg(ietf)
        .args(["-m", "ALL"])
        .args(args)
        .env("MIBS", "")
        .env("MIBDIRS", "")
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// Of `theirs`' lines, how many `mine` has the same in a line diff, and how many there are.
fn lines_the_same(theirs: &str, mine: &str) -> (usize, usize) {
    let diff = similar::TextDiff::from_lines(theirs, mine);
    let equal = diff
        .ops()
        .iter()
        .filter(|op| op.tag() == similar::DiffTag::Equal)
        .map(|op| op.old_range().len())
        .sum();
    (equal, theirs.lines().count())
}

/// The real-world corpus and net-snmp's snmptranslate, or `None` after skipping the test.
fn corpus_and_snmptranslate() -> Option<(PathBuf, PathBuf)> {
    let corpus = snmp_test_support::mib_corpus_or_skip()?;
    let tool = snmp_test_support::agent::tool("snmptranslate");
    if tool.is_none() {
        snmp_test_support::agent::require_or_skip(
            "snmptranslate not found (apt-get install -y snmp)",
        );
    }
    Some((corpus, tool?))
}

/// `snmpc translate -Td` against `snmptranslate -Td` (scripts read that output) on every node
/// of the IETF modules, in one run of each: each definition (a block that ends with its
/// `::= { ... }` line) compared. The ones that differ are counted and named; they are the
/// kinds docs/custom-mibs.md lists (two descriptors at one OID, net-snmp's own slips: bounds
/// past 2^31 wrapped, an Opaque's SYNTAX with a module's name in it).
#[test]
fn definitions_as_snmptranslate_prints_them() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf");
    let mibs = Mibs::load(std::slice::from_ref(&ietf), &[], &HashSet::new()).unwrap();
    let mut names: Vec<String> = mibs
        .resolved
        .nodes
        .iter()
        .filter(|n| n.kind() != snmp_smi::mib::NodeKind::Label)
        .map(|n| {
            format!(
                "{}::{}",
                mibs.set.modules[n.module()].smi.name,
                mibs.set.name(n)
            )
        })
        .collect();
    names.sort();
    names.dedup();
    let run = |cmd: &mut Command| {
        let out = cmd
            .args(["-M", &ietf.display().to_string(), "-m", "ALL", "-Td"])
            .args(&names)
            .env("MIBS", "")
            .env("MIBDIRS", "")
            .output()
            .expect("runs");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            out.status.code(),
        )
    };
    let (theirs, their_code) = run(&mut Command::new(&tool));
    let (ours, code) = run(Command::new(env!("CARGO_BIN_EXE_snmpc")).arg("translate"));
    assert_eq!((their_code, code), (Some(0), Some(0)));
    // One definition a block, each ending with its `::= { ... }` line.
    let blocks = |text: &str| -> Vec<String> {
        let mut out = vec![String::new()];
        for line in text.lines() {
            let last = out.last_mut().expect("one block at least");
            last.push_str(line);
            last.push('\n');
            if line.starts_with("::= {") || line == "No description" {
                out.push(String::new());
            }
        }
        out.pop();
        out
    };
    let (theirs, ours) = (blocks(&theirs), blocks(&ours));
    assert_eq!((ours.len(), theirs.len()), (names.len(), names.len()));
    let differ: Vec<&str> = names
        .iter()
        .zip(theirs.iter().zip(&ours))
        .filter(|(_, (a, b))| a.trim() != b.trim())
        .map(|(n, _)| n.as_str())
        .collect();
    println!(
        "{} definitions: {} the same as snmptranslate -Td's, {} not: {differ:?}",
        names.len(),
        names.len() - differ.len(),
        differ.len()
    );
    assert!(names.len() > 15_000, "{} definitions", names.len());
    assert!(differ.len() <= 13, "{} differ: {differ:?}", differ.len());
}

/// `snmpc translate -To` (every node's OID, depth first) against `snmptranslate -To` with
/// every IETF module: the same lines in the same order, an OID that two descriptors name (two
/// nodes of net-snmp's tree) listed twice, each node's subtree after it; and `-Tz` (each
/// node's label and OID) the same but for net-snmp's `anonymous#N` names of arcs no module
/// names (its own count: these print the arc).
#[test]
fn every_oid_as_snmptranslate_lists_them() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf").display().to_string();
    let run = |cmd: &mut Command| {
        let out = cmd
            .args(["-M", &ietf, "-m", "ALL", "-To"])
            .env("MIBS", "")
            .env("MIBDIRS", "")
            .output()
            .expect("runs");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let theirs = run(&mut Command::new(&tool));
    let ours = run(Command::new(env!("CARGO_BIN_EXE_snmpc")).arg("translate"));
    let theirs: Vec<&str> = theirs.lines().collect();
    let ours: Vec<&str> = ours.lines().collect();
    assert_eq!(ours, theirs);
    let mut once = ours.clone();
    once.dedup();
    assert!(once.len() > 14_000, "{} OIDs", once.len());
    assert!(once.len() < ours.len(), "no OID named twice");
    println!(
        "{} lines as snmptranslate -To lists them ({} OIDs, a few named twice)",
        ours.len(),
        once.len()
    );
    // -Tz: each node's label and OID quoted, line for line.
    let quoted = |cmd: &mut Command| {
        let out = cmd
            .args(["-M", &ietf, "-m", "ALL", "-Tz"])
            .env("MIBS", "")
            .env("MIBDIRS", "")
            .output()
            .expect("runs");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let theirs = quoted(&mut Command::new(&tool));
    let mine = quoted(Command::new(env!("CARGO_BIN_EXE_snmpc")).arg("translate"));
    let (theirs, mine): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), mine.lines().collect());
    assert_eq!(mine.len(), theirs.len());
    let mut anonymous = 0;
    for (a, b) in theirs.iter().zip(&mine) {
        // `"anonymous#11"\t\t\t"1.2.840.10036.1.6.0"` against `"0"\t\t\t"1.2.840.10036.1.6.0"`.
        let arc = |line: &str| line.rsplit(['.', '"']).nth(1).map(str::to_string);
        if a != b {
            assert!(a.starts_with("\"anonymous#"), "theirs {a}, ours {b}");
            assert_eq!(b.split('"').nth(1).map(str::to_string), arc(a), "{a} / {b}");
            anonymous += 1;
        }
    }
    println!(
        "-Tz: {} lines the same, {anonymous} anonymous#N",
        theirs.len() - anonymous
    );
    assert!(mine.len() > 14_000);
    assert!(anonymous <= 10, "{anonymous} anonymous arcs");
}

/// `snmpc translate -Tt` and `-Ta`, net-snmp's dumps of its own tree, against snmptranslate's
/// over every IETF module: `-Tt` gives each node net-snmp's type number and the place of its
/// TEXTUAL-CONVENTION in the table net-snmp fills as it parses (so the order it reads modules
/// in, MODULE-COMPLIANCE's `MODULE` clauses included, must be its own), `-Ta` each node's
/// children in the order net-snmp links them. The lines that differ are counted: net-snmp's
/// `anonymous#N` names for arcs no module names (its own count; these print the number), two
/// descriptors at one OID, and a few nodes net-snmp links late as orphans.
#[test]
fn net_snmp_dumps_as_snmptranslate_prints_them() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf");
    // A few modules: output, errors and exit code the same; of -Tp, -Ta and the reports of
    // every node, the last given decides, and with an input -Ta and -Tt translate it.
    for args in [
        &["-m", "IF-MIB:SNMPv2-MIB:HOST-RESOURCES-MIB", "-Tt"][..],
        &["-m", "IF-MIB:SNMPv2-MIB:HOST-RESOURCES-MIB", "-Ta"],
        &["-m", "IF-MIB", "-Tat"],
        &["-m", "IF-MIB", "-Tta"],
        &["-m", "IF-MIB", "-Tpa"],
        &["-m", "IF-MIB", "-Tap"],
        &["-m", "IF-MIB", "-Ta", "ifDescr"],
        &["-m", "IF-MIB", "-Tt", "IF-MIB::ifDescr.3"],
    ] {
        let run = |cmd: &mut Command| {
            let out = cmd
                .arg("-M")
                .arg(&ietf)
                .args(args)
                .env("MIBS", "")
                .env("MIBDIRS", "")
                .output()
                .expect("runs");
            (out.stdout, out.stderr, out.status.code())
        };
        let theirs = run(&mut Command::new(&tool));
        let mine = run(Command::new(env!("CARGO_BIN_EXE_snmpc")).arg("translate"));
        assert_eq!(mine, theirs, "{args:?}");
    }
    // The IETF modules, then with Juniper's, whose IMPORTS name SNMPv2-SMI for nothing but
    // net-snmp's own words (`Integer32, OBJECT-TYPE FROM SNMPv2-SMI`), which net-snmp then
    // does not read there: the order of its table of conventions follows.
    let juniper = ietf_and(&corpus, "juniper");
    let juniper = Path::new(&juniper);
    for (dirs, named, flag, most_differing) in [
        (ietf.as_path(), "ietf", "-Tt", 12),
        (ietf.as_path(), "ietf", "-Ta", 140),
        (juniper, "ietf and juniper", "-Tt", 12),
        (juniper, "ietf and juniper", "-Ta", 140),
    ] {
        let (theirs, _, _) = over_ietf(&mut Command::new(&tool), dirs, &[flag]);
        let mut ours = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        let (mine, err, code) = over_ietf(ours.arg("translate"), dirs, &[flag]);
        assert_eq!(code, Some(0), "{flag}: {err}");
        let (equal, total) = lines_the_same(&theirs, &mine);
        println!(
            "{named} {flag}: {equal} of snmptranslate's {total} lines the same ({} ours)",
            mine.lines().count()
        );
        assert!(total > 14_000, "{flag}: {total} lines");
        assert!(
            total - equal <= most_differing,
            "{flag}: {} of {total} lines differ",
            total - equal
        );
    }
}

/// Every OID of the IETF modules named as snmptranslate names it (`-OS`, one run of each tool
/// over all of them): where several nodes are at an OID, the one net-snmp links first (of the
/// module it reads first, the last written, a label inside an OID value as much as an
/// assignment); through an arc only an OID value's number passes (`{ enterprises 4300 1 }`),
/// as net-snmp names its `anonymous#N` node there (`SFLOW-MIB::enterprises.4300`).
#[test]
fn every_oid_named_as_snmptranslate_names_it() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf");
    let (listed, _, _) = over_ietf(&mut Command::new(&tool), &ietf, &["-To"]);
    let mut oids: Vec<&str> = listed.lines().collect();
    oids.dedup();
    oids.push(".1.3.6.1.4.1.4300.7.5");
    let (theirs, _, _) = over_ietf(&mut Command::new(&tool), &ietf, &oids);
    let mut ours = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    let (mine, err, code) = over_ietf(ours.arg("translate"), &ietf, &oids);
    assert_eq!(code, Some(0), "{err}");
    // (A blank line between outputs, from both.)
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (theirs, mine) = (lines(&theirs), lines(&mine));
    assert_eq!(theirs.len(), oids.len());
    let differ: Vec<(&str, &String, &String)> = oids
        .iter()
        .zip(theirs.iter().zip(&mine))
        .filter(|(_, (a, b))| a != b)
        .map(|(o, (a, b))| (*o, a, b))
        .collect();
    assert!(oids.len() > 14_000);
    assert_eq!(differ, [], "of {} OIDs", oids.len());
}

/// `-Td` of an object whose TEXTUAL-CONVENTION is defined on another convention (Nokia's
/// `TItemDescription`, on DisplayString): net-snmp prints the named convention's own
/// DISPLAY-HINT, none here, not the one below it.
#[test]
fn a_convention_on_a_convention_shows_its_own_hint() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let dirs = ietf_and(&corpus, "aos");
    let args = ["-Td", "TIMETRA-LOG-MIB::tmnxLogFileIdDescription"];
    let (theirs, _, _) = over_ietf(&mut Command::new(&tool), Path::new(&dirs), &args);
    let mut ours = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    let (mine, _, code) = over_ietf(ours.arg("translate"), Path::new(&dirs), &args);
    assert_eq!(code, Some(0));
    assert!(
        theirs.contains("TEXTUAL CONVENTION TItemDescription"),
        "{theirs}"
    );
    assert_eq!(mine, theirs);
}

/// SMIv1 TRAP-TYPEs as net-snmp names them, with APC's modules (hundreds of traps): net-snmp
/// links a node `enterprise#` at the enterprise's `.0` and names OIDs through it
/// (`PowerNet-MIB::apc#.77`), reads that name back, defines it as a TRAP-TYPE and prints each
/// trap as an OBJECT-TYPE with OBJECTS. Each input the same as snmptranslate's output, errors
/// and exit code; then the definition of every OID below enterprises, compared.
#[test]
fn smiv1_traps_as_snmptranslate_names_them() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let dirs = ietf_and(&corpus, "apc");
    let run = |cmd: &mut Command, args: &[&str]| {
        let out = cmd
            .args(["-M", &dirs, "-m", "ALL"])
            .args(args)
            .env("MIBS", "")
            .env("MIBDIRS", "")
            .output()
            .expect("runs");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let ours = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        c.arg("translate");
        c
    };
    for args in [
        &[".1.3.6.1.4.1.318.0.77"][..],
        &["-Of", ".1.3.6.1.4.1.318.0.1"],
        &["PowerNet-MIB::apc#"],
        &["-On", "PowerNet-MIB::apc#.communicationLost"],
        &["-On", "PowerNet-MIB::apc#.7"],
        &["-Td", ".1.3.6.1.4.1.318.0"],
        &["-Td", ".1.3.6.1.4.1.318.0.999"],
        &["-Td", "PowerNet-MIB::communicationLost"],
    ] {
        assert_eq!(
            run(&mut ours(), args),
            run(&mut Command::new(&tool), args),
            "{args:?}"
        );
    }
    let (listed, _, _) = run(&mut Command::new(&tool), &["-To"]);
    let mut oids: Vec<&str> = listed
        .lines()
        .filter(|o| o.starts_with(".1.3.6.1.4.1."))
        .collect();
    oids.dedup();
    let blocks = |text: &str| -> Vec<String> {
        let mut out = vec![String::new()];
        for line in text.lines() {
            let last = out.last_mut().expect("one block at least");
            last.push_str(line);
            last.push('\n');
            if line.starts_with("::= {") {
                out.push(String::new());
            }
        }
        out.pop();
        out
    };
    let args: Vec<&str> = std::iter::once("-Td").chain(oids.iter().copied()).collect();
    let (theirs, _, _) = run(&mut Command::new(&tool), &args);
    let (mine, _, code) = run(&mut ours(), &args);
    assert_eq!(code, Some(0));
    let (theirs, mine) = (blocks(&theirs), blocks(&mine));
    assert_eq!(theirs.len(), mine.len());
    let differ: Vec<&str> = oids
        .iter()
        .zip(theirs.iter().zip(&mine))
        .filter(|(_, (a, b))| a != b)
        .map(|(o, _)| *o)
        .collect();
    println!(
        "APC: {} of {} definitions below enterprises as snmptranslate prints them; not: {differ:?}",
        oids.len() - differ.len(),
        oids.len()
    );
    assert!(oids.len() > 6_000, "{} OIDs", oids.len());
    // (net-snmp's `anonymous#N` for an arc SFLOW-MIB names by number.)
    assert!(differ.len() <= 1, "{differ:?}");
}

/// `snmpc translate -Tp` (the tree drawn) against `snmptranslate -Tp`: subtrees named by module
/// and by OID drawn line for line the same (among them subtrees where two descriptors name one
/// OID: each a node of its own, the nodes below either drawn below the first linked), the
/// errors the same; and the whole tree of every IETF module, where the lines that differ are
/// counted: net-snmp's own `anonymous#N` numbering of unnamed arcs, bounds it wraps, and the
/// definition net-snmp keeps for a few descriptors two modules define.
#[test]
fn the_tree_as_snmptranslate_draws_it() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf");
    let run = |cmd: &mut Command, args: &[&str]| over_ietf(cmd.arg("-Tp"), &ietf, args);
    let ours = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        c.arg("translate");
        c
    };
    for args in [
        &["SNMPv2-MIB::system"][..],
        &["SNMPv2-MIB::snmpMIB"],
        &["IF-MIB::ifMIB"],
        &["HOST-RESOURCES-MIB::host"],
        &["ISDN-MIB::isdnMib"],
        &["RIPv2-MIB::rip2"],
        &["OSPF-MIB::ospfGeneralGroup"],
        &[".1.3.6.1.2.1.1.1.0"],
        &["-IR", "sysUpTime"],
        &["-On", "SNMPv2-MIB::sysName", "IF-MIB::ifIndex"],
        &["sysUpTime"],
        &["SNMPv2-MIB::sysName", "sysDescr"],
        &["-IR", "nonexistent"],
        &["IF-MIB::nonexistent"],
    ] {
        let theirs = run(&mut Command::new(&tool), args);
        assert_eq!(run(&mut ours(), args), theirs, "-Tp {args:?}");
    }
    let (theirs, _, _) = run(&mut Command::new(&tool), &[]);
    let (mine, _, code) = run(&mut ours(), &[]);
    assert_eq!(code, Some(0));
    let (equal, total) = lines_the_same(&theirs, &mine);
    println!(
        "-Tp of every IETF module: {equal} of snmptranslate's {total} lines the same ({} ours)",
        mine.lines().count()
    );
    assert!(total > 29_000, "{total} lines");
    assert!(
        total - equal <= 25,
        "{} of {total} lines differ",
        total - equal
    );
}

/// Names as `-Of` prints them, read back (`.iso.org.dod...`: a path from the root, the first
/// label a root's unless `-IR`), X.660's roots, which no module names even where an OID value
/// labels them (`{ iso(1) member-body(2) ... }`), and `-Ib`'s regular expressions: stdout,
/// stderr and exit code as snmptranslate's.
#[test]
fn absolute_names_and_the_roots_as_snmptranslate_reads_them() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf");
    let run = |cmd: &mut Command, args: &[&str]| over_ietf(cmd, &ietf, args);
    for args in [
        &[".iso.org.dod.internet.mgmt.mib-2.system.sysDescr.0"][..],
        &[
            "-On",
            ".iso.org.dod.internet.mgmt.mib-2.interfaces.ifTable.ifEntry.ifDescr.7",
        ],
        &["-On", ".iso.org.6.internet.mgmt.1.1.5.0"],
        &[".iso.3.6.bogus"],
        &["-On", ".ccitt.zeroDotZero"],
        &["-On", "iso.org.dod"],
        &[".sysDescr"],
        &["-IR", ".sysDescr"],
        &["-Tp", ".iso.org.dod.internet.mgmt.mib-2.system"],
        &["iso"],
        &[".1"],
        &[".1.99"],
        &["-Td", "iso"],
        &["-Td", "ccitt"],
        &["-Td", ".2"],
        // -Ib: a regular expression over the names, any case, the earliest match; what
        // matches nothing (or is no expression) said, exit 1.
        &["-Ib", "ifdesc"],
        &["-Ib", "-On", "if.*desc"],
        &["-Ib", "sysuptime"],
        &["-Ib", "zzzz"],
        &["-Ib", "["],
    ] {
        let mut ours = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        ours.arg("translate");
        let theirs = run(&mut Command::new(&tool), args);
        assert_eq!(run(&mut ours, args), theirs, "{args:?}");
    }
}

/// A name that several modules define at different OIDs (PIM-MIB's and PIM-STD-MIB's
/// pimNeighborAddress, RIPv2-MIB's two rip2GlobalGroup), given alone (`-IR`), is the node
/// snmptranslate finds: the one its tree made last, modules that define a name at one OID
/// sharing one node (IF-MIB's ifIndex).
#[test]
fn a_name_several_modules_define_resolves_as_snmptranslate_resolves_it() {
    let Some((corpus, tool)) = corpus_and_snmptranslate() else {
        return;
    };
    let ietf = corpus.join("ietf");
    let mibs = Mibs::load_everything(std::slice::from_ref(&ietf), &HashSet::new()).unwrap();
    let mut oids_of: HashMap<String, HashSet<Vec<u32>>> = HashMap::new();
    for oid in mibs.oids() {
        if let Some(label) = mibs.label_at(&oid) {
            oids_of.entry(label.to_string()).or_default().insert(oid);
        }
    }
    let mut names: Vec<&str> = oids_of
        .iter()
        .filter(|(_, oids)| oids.len() > 1)
        .map(|(name, _)| name.as_str())
        .collect();
    names.sort_unstable();
    names.push("ifIndex");
    assert!(names.len() >= 20, "{names:?}");
    let args = [&["-IR", "-On"][..], &names].concat();
    let mut ours = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    ours.arg("translate");
    let (theirs, _, code) = over_ietf(&mut Command::new(&tool), &ietf, &args);
    assert_eq!(code, Some(0));
    let answers = theirs.lines().filter(|l| !l.is_empty()).count();
    assert_eq!(answers, names.len(), "{theirs}");
    assert_eq!(over_ietf(&mut ours, &ietf, &args).0, theirs, "{names:?}");
}

/// Output into a pipe its reader closed ends snmpc quietly by SIGPIPE, as it ends net-snmp's
/// tools: no panic message, the shell's 141.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let ietf = corpus.join("ietf").display().to_string();
    let script = format!(
        "'{}' translate -M '{ietf}' -m ALL -Tp | head -1 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
        env!("CARGO_BIN_EXE_snmpc")
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "141");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Tools that show values (`snmpc walk`, `get`, `listen`) keep only the head of each SYNTAX
/// (`Syntaxes::Heads`) and read an object's whole SYNTAX again from its file when they show
/// it: every object of ietf/, and with APC's and Cisco's folders, is shown as with every
/// SYNTAX kept whole (its presentation: base, enumeration and bit labels, hint, units,
/// ranges, sizes), and so is an instance below each (its index decoded by the INDEX
/// objects' syntax).
#[test]
fn values_show_the_same_from_syntax_heads() {
    use snmp_smi::asn1::ast::TypeKind;
    use snmp_smi::mib::Syntaxes;
    use snmp_smi::names::MibChoice;
    let Some(root) = corpus_or_skip() else {
        return;
    };
    for vendor in [None, Some("apc"), Some("cisco")] {
        let mut dirs = vec![root.join("ietf")];
        dirs.extend(vendor.map(|v| root.join("vendor").join(v)));
        let choice = MibChoice::new(&dirs, Some("ALL"));
        let load = |keep| Mibs::load_chosen_keeping(&choice, &[], &HashSet::new(), keep).unwrap();
        let (whole, heads) = (load(Syntaxes::Whole), load(Syntaxes::Heads));
        // The heads are what is kept: ifOperStatus's labels (IF-MIB's seven, or RFC1213-MIB's
        // three when a vendor's module that imports it is read first) are read again.
        let if_oper_status = whole.name_to_oid("IF-MIB::ifOperStatus").unwrap();
        let labels = |m: &Mibs| {
            let (_, node) = m.deepest(&if_oper_status).unwrap();
            match m.written(node).syntax.as_ref().map(|t| &t.kind) {
                Some(TypeKind::Integer(labels)) => labels.len(),
                other => panic!("ifOperStatus: {other:?}"),
            }
        };
        assert!(labels(&whole) >= 3 && labels(&heads) == 0);
        let oids: Vec<Vec<u32>> = whole.oids().collect();
        assert_eq!(oids.len(), heads.oids().count());
        let mut shown = 0;
        for oid in &oids {
            let presentation = whole.presentation(oid);
            assert_eq!(
                presentation,
                heads.presentation(oid),
                "{oid:?} in {vendor:?}"
            );
            shown += usize::from(presentation.is_some());
            let mut instance = oid.clone();
            instance.extend([4, 10, 0, 0, 1, 2]);
            for style in [IndexStyle::Components, IndexStyle::Extended] {
                assert_eq!(
                    whole.full_name(&instance, style),
                    heads.full_name(&instance, style),
                    "{instance:?} in {vendor:?}"
                );
            }
        }
        println!(
            "{vendor:?}: {shown} objects of {} OIDs shown the same",
            oids.len()
        );
        assert!(shown > 9_000, "{shown} objects with a presentation");
    }
}
