//! `snmp-exporter generate` against Debian's snmp_exporter generator (0.21, over net-snmp's
//! MIB parser) on the same generator.yml (`exporter/generator.yml` over the real-world
//! corpus's IETF MIBs, `exporter/generator-host.yml` over those and net-snmp's): every
//! module's walks, gets and metrics equal, field by field, but for
//! the differences listed here with their reasons. Needs prometheus-snmp-generator and the
//! corpus (skipped without them, a failure under SNMP_REQUIRE_TOOLS=1).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_yaml::Value;
use snmp_test_support::agent::{require_or_skip, tool};

/// `snmp-exporter generate -g generator -m mibs... -o output` with `extra` flags: whether it
/// succeeded, and its stderr.
fn generate<P: AsRef<Path>>(
    generator: &Path,
    mibs: &[P],
    output: &Path,
    extra: &[&str],
) -> (bool, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_snmp-exporter"));
    command.arg("generate").args(extra).arg("-g").arg(generator);
    for dir in mibs {
        command.arg("-m").arg(dir.as_ref());
    }
    let out = command.arg("-o").arg(output).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// A temporary folder with a `mibs` folder in it holding `module`'s `text` (as
/// `module.txt`): the folder, and the `mibs` folder's path.
fn mib_folder(module: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let mibs = dir.path().join("mibs");
    std::fs::create_dir(&mibs).unwrap();
    std::fs::write(mibs.join(format!("{module}.txt")), text).unwrap();
    (dir, mibs)
}

/// Differences that are not ours to fix, and why (`metric`: the OID of the metric they are
/// found in).
fn known_difference(key: &str, theirs: &Value, ours: &Value, metric: &str) -> bool {
    match key {
        // A lookup's label several MIBs define (`ifName`: IF-MIB's and Citrix NetScaler's):
        // from 0.24 on the node beside the metric is taken (its table's), 0.21 took the last
        // node of that label in the tree.
        "lookups" if lookup_beside(theirs, ours, metric) => true,
        // An index or a lookup with named numbers is an EnumAsInfo label from snmp_exporter
        // 0.24 on (0.30 is what this generator follows); 0.21 left it a gauge.
        "indexes" | "lookups" => {
            // 0.21's form of ours: gauges, and no enum_values on a lookup.
            let as_0_21 = |v: &Value| {
                let mut v = v.clone();
                for item in v.as_sequence_mut().into_iter().flatten() {
                    if item["type"] == "EnumAsInfo" {
                        item["type"] = "gauge".into();
                        if key == "lookups" {
                            item.as_mapping_mut().unwrap().remove("enum_values");
                        }
                    }
                }
                v
            };
            as_0_21(ours) == *theirs
        }
        _ => false,
    }
}

/// Whether `ours` differs from `theirs` only in lookups that name a node beside `metric` (all
/// arcs but its last shared) where theirs named another of the same label.
fn lookup_beside(theirs: &Value, ours: &Value, metric: &str) -> bool {
    let table = metric.rsplit_once('.').map_or("", |(t, _)| t);
    let (Some(t), Some(o)) = (theirs.as_sequence(), ours.as_sequence()) else {
        return false;
    };
    t.len() == o.len()
        && t.iter().zip(o).all(|(a, b)| {
            a == b
                || (a["labelname"] == b["labelname"]
                    && b["oid"].as_str().is_some_and(|x| x.starts_with(table))
                    && !a["oid"].as_str().is_some_and(|x| x.starts_with(table)))
        })
}

/// Module `name` of Debian's generator (`theirs`, 0.21's layout) against ours: walks, gets
/// and every metric's every key equal but for [`known_difference`]s; the metrics compared.
fn compare_module(name: &str, theirs: &Value, ours: &Value) -> usize {
    assert_eq!(theirs["walk"], ours["walk"], "{name}: walk");
    assert_eq!(theirs["get"], ours["get"], "{name}: get");
    let empty = Vec::new();
    let (tm, om) = (
        theirs["metrics"].as_sequence().unwrap_or(&empty),
        ours["metrics"].as_sequence().unwrap_or(&empty),
    );
    let names = |m: &Vec<Value>| {
        m.iter()
            .map(|x| x["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(tm), names(om), "{name}: the metrics and their order");
    for (a, b) in tm.iter().zip(om) {
        let keys: std::collections::BTreeSet<&str> = a
            .as_mapping()
            .unwrap()
            .keys()
            .chain(b.as_mapping().unwrap().keys())
            .filter_map(Value::as_str)
            .collect();
        for key in keys {
            let (x, y) = (&a[key], &b[key]);
            let metric = a["oid"].as_str().unwrap_or_default();
            if x != y && !known_difference(key, x, y, metric) {
                panic!(
                    "{name}: {}: {key}: theirs {x:?}, ours {y:?}",
                    a["name"].as_str().unwrap()
                );
            }
        }
    }
    tm.len()
}

/// Debian's generator (`theirs`) run in `dir` on its generator.yml, over the MIB folders
/// `dirs`: it writes `dir`/snmp.yml, or the test fails with what it said.
fn debians_generate(theirs: &Path, dir: &Path, dirs: &[PathBuf]) {
    let upstream = Command::new(theirs)
        .arg("generate")
        .current_dir(dir)
        .env("MIBDIRS", std::env::join_paths(dirs).unwrap())
        .output()
        .unwrap();
    assert!(
        upstream.status.success(),
        "{}",
        String::from_utf8_lossy(&upstream.stderr)
    );
}

fn read_yaml(p: &Path) -> Value {
    serde_yaml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn generated_modules_equal_debians_generator() {
    equal_to_debians("generator.yml", &["ietf"], 7, 200);
}

/// Objects whose convention is defined on another (`snmp_test_support::mibs::
/// NESTED_CONVENTIONS`): typed by the base type alone, as net-snmp's parser gives them to
/// upstream's generator (`gauge` without enum values, `OctetString` rather than
/// `DisplayString`), and enumeration labels that are net-snmp keywords left out: equal to
/// Debian's output.
#[test]
fn nested_conventions_generate_as_debians_generator() {
    let Some(theirs) = tool("prometheus-snmp-generator") else {
        require_or_skip(
            "prometheus-snmp-generator not installed (apt-get install prometheus-snmp-exporter)",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mibs = dir.path().join("mibs");
    std::fs::create_dir(&mibs).unwrap();
    std::fs::write(
        mibs.join("NESTED-TC-MIB.txt"),
        snmp_test_support::mibs::NESTED_CONVENTIONS,
    )
    .unwrap();
    let generator = dir.path().join("generator.yml");
    std::fs::write(&generator, "modules:\n  nested:\n    walk: [nestedTc]\n").unwrap();
    // net-snmp reads the project's own SNMPv2-SMI and SNMPv2-TC; ours has them built in.
    let project_mibs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    debians_generate(&theirs, dir.path(), &[mibs.clone(), project_mibs]);
    let ours_path = dir.path().join("ours.yml");
    let (ok, stderr) = generate(&generator, &[&mibs], &ours_path, &[]);
    assert!(ok, "{stderr}");
    let theirs = read_yaml(&dir.path().join("snmp.yml"));
    let ours = read_yaml(&ours_path)["modules"].clone();
    assert_eq!(
        compare_module("nested", &theirs["nested"], &ours["nested"]),
        6
    );
    let types: Vec<&str> = ours["nested"]["metrics"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| m["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "gauge",
            "OctetString",
            "OctetString",
            "gauge",
            "OctetString",
            "gauge"
        ]
    );
    // Of objKeywords' labels, those net-snmp does not take for keywords: up, deprecated, down.
    let labels = &ours["nested"]["metrics"][5]["enum_values"];
    assert_eq!(labels.as_mapping().map(|m| m.len()), Some(3), "{labels:?}");
}

/// `exporter/generator-host.yml` (a Linux host under snmpd: system, interfaces, host
/// resources, UCD) over the IETF MIBs and net-snmp's.
#[test]
fn a_hosts_modules_equal_debians_generator() {
    equal_to_debians("generator-host.yml", &["ietf", "vendor/net-snmp"], 4, 200);
}

/// The generator.yml `file` (in exporter/) over the corpus folders `folders`, by Debian's
/// generator and ours: `modules` modules, equal metric by metric (`compare_module`), more
/// than `metrics` metrics in all.
fn equal_to_debians(file: &str, folders: &[&str], modules: usize, metrics: usize) {
    let Some(theirs) = tool("prometheus-snmp-generator") else {
        require_or_skip(
            "prometheus-snmp-generator not installed (apt-get install prometheus-snmp-exporter)",
        );
        return;
    };
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let dirs: Vec<PathBuf> = folders.iter().map(|f| corpus.join(f)).collect();
    let dir = tempfile::tempdir().unwrap();
    let generator = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::copy(&generator, dir.path().join("generator.yml")).unwrap();
    debians_generate(&theirs, dir.path(), &dirs);
    let ours_path = dir.path().join("ours.yml");
    let (ok, stderr) = generate(
        &generator,
        &dirs,
        &ours_path,
        &["--fail-on-parse-errors=false"],
    );
    assert!(ok, "{stderr}");
    let theirs = read_yaml(&dir.path().join("snmp.yml"));
    let ours = read_yaml(&ours_path)["modules"].clone();
    let theirs = theirs.as_mapping().unwrap();
    assert_eq!(theirs.len(), modules);
    let compared: usize = theirs
        .iter()
        .map(|(name, t)| {
            let name = name.as_str().unwrap();
            compare_module(name, t, &ours[name])
        })
        .sum();
    assert!(compared > metrics, "{compared} metrics compared");
}

/// A folder with IF-MIB and not RFC1213-MIB (as Cisco's v2 MIB folder): the built-in
/// RFC1213-MIB, added for what the folder lacks, defines ifDescr and the other columns at
/// IF-MIB's OIDs, and must not take them over: help texts and types are the file's, equal to
/// Debian's generator, which has no built-in modules.
#[test]
fn a_folder_without_rfc1213_mib_generates_as_debians_generator() {
    let Some(theirs) = tool("prometheus-snmp-generator") else {
        require_or_skip(
            "prometheus-snmp-generator not installed (apt-get install prometheus-snmp-exporter)",
        );
        return;
    };
    let interfaces = snmp_test_support::IF_MIB_WITHOUT_RFC1213;
    let Some((dir, mibs)) = snmp_test_support::corpus_modules_or_skip(&interfaces) else {
        return;
    };
    let generator = dir.path().join("generator.yml");
    std::fs::write(
        &generator,
        "modules:\n  if_mib:\n    walk: [sysUpTime, interfaces]\n",
    )
    .unwrap();
    debians_generate(&theirs, dir.path(), std::slice::from_ref(&mibs));
    let ours_path = dir.path().join("ours.yml");
    let (ok, stderr) = generate(&generator, &[&mibs], &ours_path, &[]);
    assert!(ok, "{stderr}");
    let theirs = read_yaml(&dir.path().join("snmp.yml"));
    let ours = read_yaml(&ours_path)["modules"].clone();
    assert!(compare_module("if_mib", &theirs["if_mib"], &ours["if_mib"]) > 20);
    let text = std::fs::read_to_string(&ours_path).unwrap();
    assert!(
        text.contains("help: A textual string containing information about the interface"),
        "{text}"
    );
}

/// The generator.yml upstream published with 0.21 (Debian ships it as an example), module by
/// module, over the whole corpus (IETF and every vendor folder), against Debian's generator
/// on the same files: the same modules fail for a missing MIB; the others are equal; and the
/// text of each of theirs, read and written again by our YAML writer, is what they wrote
/// (go-yaml's folding and quoting over their help texts).
#[test]
fn upstreams_published_generator_yml_equals_debians_output() {
    let example = Path::new("/usr/share/doc/prometheus-snmp-exporter/examples/generator.yml");
    let (Some(theirs), true) = (tool("prometheus-snmp-generator"), example.is_file()) else {
        require_or_skip(
            "prometheus-snmp-generator or its example generator.yml not installed (apt-get install prometheus-snmp-exporter)",
        );
        return;
    };
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let mut dirs = vec![corpus.join("ietf")];
    let mut vendors: Vec<_> = std::fs::read_dir(corpus.join("vendor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    vendors.sort();
    dirs.extend(vendors);
    let published = read_yaml(example);
    let tmp = tempfile::tempdir().unwrap();
    let (mut equal, mut missing, mut metrics) = (Vec::new(), Vec::new(), 0);
    for (name, module) in published["modules"].as_mapping().unwrap() {
        let name = name.as_str().unwrap();
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        let one = |module: &Value| {
            let mut modules = serde_yaml::Mapping::new();
            modules.insert(name.into(), module.clone());
            let mut file = serde_yaml::Mapping::new();
            file.insert("modules".into(), modules.into());
            serde_yaml::to_string(&file).unwrap()
        };
        std::fs::write(dir.join("generator.yml"), one(module)).unwrap();
        let run = Command::new(&theirs)
            .arg("generate")
            .current_dir(&dir)
            .env("MIBDIRS", std::env::join_paths(&dirs).unwrap())
            .output()
            .unwrap();
        let their_error = String::from_utf8_lossy(&run.stderr).to_string();
        let ours_path = dir.join("ours.yml");
        let mut ours_run = generate(
            &dir.join("generator.yml"),
            &dirs,
            &ours_path,
            &["--fail-on-parse-errors=false"],
        );
        // `memory` is UCD-SNMP-MIB's and two vendors': ours names all three, where net-snmp
        // takes UCD-SNMP-MIB's; the spelling our error gives then generates.
        if ours_run.1.contains("walk name 'memory' names") {
            assert!(
                ours_run
                    .1
                    .contains("UCD-SNMP-MIB::memory (1.3.6.1.4.1.2021.4)"),
                "{}",
                ours_run.1
            );
            let text = one(module).replace("- memory\n", "- UCD-SNMP-MIB::memory\n");
            std::fs::write(dir.join("generator.yml"), text).unwrap();
            ours_run = generate(
                &dir.join("generator.yml"),
                &dirs,
                &ours_path,
                &["--fail-on-parse-errors=false"],
            );
        }
        if !run.status.success() {
            // A MIB the corpus lacks: ours fails on the same walk entry.
            let entry = their_error
                .split("cannot find oid '")
                .nth(1)
                .and_then(|r| r.split('\'').next())
                .unwrap_or_else(|| panic!("{name}: theirs failed: {their_error}"));
            assert!(
                !ours_run.0,
                "{name}: theirs failed ({entry}), ours generated"
            );
            assert!(
                ours_run
                    .1
                    .contains(&format!("cannot find oid '{entry}' to walk")),
                "{name}: {entry}: {}",
                ours_run.1
            );
            missing.push(name.to_string());
            continue;
        }
        assert!(ours_run.0, "{name}: {}", ours_run.1);
        let their_text = std::fs::read_to_string(dir.join("snmp.yml")).unwrap();
        let their_doc: Value = serde_yaml::from_str(&their_text).unwrap();
        let body = their_text.split_once('\n').unwrap().1;
        assert_eq!(
            snmp_exporter::generate::yaml::to_string(&their_doc),
            body,
            "{name}: text"
        );
        metrics += compare_module(
            name,
            &their_doc[name],
            &read_yaml(&ours_path)["modules"][name],
        );
        equal.push(name.to_string());
    }
    eprintln!(
        "published generator.yml: {} modules equal ({metrics} metrics): {}; {} need MIBs the corpus lacks: {}",
        equal.len(),
        equal.join(", "),
        missing.len(),
        missing.join(", ")
    );
    assert!(
        equal.len() >= 12 && metrics > 1_000,
        "{} equal, {metrics} metrics",
        equal.len()
    );
}

#[test]
fn errors_name_what_is_missing() {
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let generator = dir.path().join("generator.yml");
    std::fs::write(
        &generator,
        "modules:\n  m:\n    walk: [noSuchObjectAnywhere]\n",
    )
    .unwrap();
    let output = dir.path().join("snmp.yml");
    let (ok, stderr) = generate(
        &generator,
        &[corpus.join("ietf")],
        &output,
        &["--fail-on-parse-errors=false"],
    );
    assert!(!ok);
    assert!(
        stderr.contains("module m: cannot find oid 'noSuchObjectAnywhere' to walk"),
        "{stderr}"
    );
}

/// Generate, then serve: the generated modules (with an auths file beside them) scrape
/// snmpd.
#[test]
fn a_generated_module_is_served() {
    let (Some(snmpd), Some(corpus)) = (tool("snmpd"), snmp_test_support::mib_corpus_or_skip())
    else {
        require_or_skip("snmpd not installed");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let snmp_yml = dir.path().join("snmp.yml");
    let generator = Path::new(env!("CARGO_MANIFEST_DIR")).join("generator.yml");
    let (ok, stderr) = generate(&generator, &[corpus.join("ietf")], &snmp_yml, &[]);
    assert!(ok, "{stderr}");
    let auths = dir.path().join("auths.yml");
    std::fs::write(&auths, "auths:\n  public_v2:\n    version: 2\n").unwrap();
    let agent = snmp_test_support::agent::start_agent(&snmpd);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut exporter = Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .arg(format!("--config.file={}", snmp_yml.display()))
        .arg(format!("--config.file={}", auths.display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let body = (0..200).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
        s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .ok()?;
        let req = format!(
            "GET /snmp?target=127.0.0.1:{}&module=if_mib HTTP/1.0\r\n\r\n",
            agent.port
        );
        std::io::Write::write_all(&mut s, req.as_bytes()).ok()?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut s, &mut text).ok()?;
        Some(text)
    });
    let _ = exporter.kill();
    let _ = exporter.wait();
    let body = body.expect("the exporter answers");
    assert!(
        body.starts_with("HTTP/1.0 200") || body.starts_with("HTTP/1.1 200"),
        "{body}"
    );
    assert!(body.contains("\nifOperStatus{"), "{body}");
    assert!(body.contains("ifDescr=\"lo\""), "{body}");
}

/// A vendor module whose import is missing: the run says which module failed, why (with the
/// line that imports), how many objects went with it, and that a walked name was one of them.
#[test]
fn a_module_with_a_missing_import_is_named_with_what_it_cost() {
    let (dir, mibs) = mib_folder(
        "TEST-VENDOR-MIB",
        "TEST-VENDOR-MIB DEFINITIONS ::= BEGIN\n\
         IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI\n\
         \x20       VendorName FROM MISSING-TC-MIB;\n\
         testVendor OBJECT IDENTIFIER ::= { enterprises 99999 }\n\
         testName OBJECT-TYPE\n\
         \x20   SYNTAX VendorName\n\
         \x20   MAX-ACCESS read-only\n\
         \x20   STATUS current\n\
         \x20   DESCRIPTION \"A name.\"\n\
         \x20   ::= { testVendor 1 }\n\
         END\n",
    );
    let generator = dir.path().join("generator.yml");
    std::fs::write(&generator, "modules:\n  vendor:\n    walk: [testName]\n").unwrap();
    let output = dir.path().join("snmp.yml");
    let run = |extra: &[&str]| generate(&generator, &[&mibs], &output, extra);
    let (ok, stderr) = run(&[]);
    assert!(!ok);
    assert!(
        stderr.contains("MIB module TEST-VENDOR-MIB not used (1 objects lost)"),
        "{stderr}"
    );
    assert!(stderr.contains("TEST-VENDOR-MIB.txt:3:"), "{stderr}");
    assert!(stderr.contains("MISSING-TC-MIB"), "{stderr}");
    assert!(stderr.contains("1 MIB module(s) failed"), "{stderr}");
    // `parse_errors` lists it, as upstream's generator does net-snmp's.
    let listed = Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .args(["parse_errors", "-m"])
        .arg(&mibs)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&listed.stdout);
    assert!(
        stdout.contains("TEST-VENDOR-MIB (1 objects lost)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 module(s) could not be used, 0 file(s) yielded no module"),
        "{stdout}"
    );
    // Both of upstream's spellings go on without it.
    for go_on in ["--fail-on-parse-errors=false", "--no-fail-on-parse-errors"] {
        let (ok, stderr) = run(&[go_on]);
        assert!(!ok);
        assert!(
            stderr.contains("cannot find oid 'testName' to walk: module TEST-VENDOR-MIB defines it but could not be used"),
            "{go_on}: {stderr}"
        );
    }
}

/// snmp_exporter's generator as its users run it: the MIB folders from MIBDIRS, its global
/// flags before the command (kingpin's), `--log.level`; and what it cannot honour refused.
#[test]
fn the_generator_runs_as_upstreams_is_run() {
    let (dir, mibs) = mib_folder(
        "TEST-UNDER-MIB",
        "TEST-UNDER-MIB DEFINITIONS ::= BEGIN\n\
         IMPORTS OBJECT-TYPE, Integer32, enterprises FROM SNMPv2-SMI;\n\
         testUnder OBJECT IDENTIFIER ::= { enterprises 99998 }\n\
         test_value OBJECT-TYPE\n\
         \x20   SYNTAX Integer32\n\
         \x20   MAX-ACCESS read-only\n\
         \x20   STATUS current\n\
         \x20   DESCRIPTION \"A value.\"\n\
         \x20   ::= { testUnder 1 }\n\
         END\n",
    );
    std::fs::write(
        dir.path().join("generator.yml"),
        "modules:\n  under:\n    walk: [test_value]\n",
    )
    .unwrap();
    // `MIBDIRS=mibs generator --fail-on-parse-errors generate`, in the folder of
    // generator.yml, writing snmp.yml there.
    let run = |args: &[&str], mibdirs: Option<&Path>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_snmp-exporter"));
        command.args(args).current_dir(dir.path());
        match mibdirs {
            Some(d) => command.env("MIBDIRS", d),
            None => command.env_remove("MIBDIRS"),
        };
        let out = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.success(), stderr)
    };
    let (ok, stderr) = run(&["--fail-on-parse-errors", "generate"], Some(&mibs));
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(&format!("loading MIBs from {}", mibs.display())),
        "{stderr}"
    );
    assert!(stderr.contains("module under: 1 metrics"), "{stderr}");
    let yml = std::fs::read_to_string(dir.path().join("snmp.yml")).unwrap();
    assert!(yml.contains("name: test_value"), "{yml}");
    assert!(yml.contains("oid: 1.3.6.1.4.1.99998.1"), "{yml}");
    std::fs::remove_file(dir.path().join("snmp.yml")).unwrap();
    // The same with the folder as a flag before the command, info lines left out.
    let mibs_text = mibs.display().to_string();
    let (ok, stderr) = run(&["-m", &mibs_text, "--log.level=warn", "generate"], None);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("metrics"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("snmp.yml")).unwrap(),
        yml
    );
    // Upstream's default toggles are how MIBs are read; others are refused, not ignored.
    let (ok, stderr) = run(&["generate", "--snmp.mibopts=eu", "-m", &mibs_text], None);
    assert!(ok, "{stderr}");
    let (ok, stderr) = run(&["generate", "--snmp.mibopts=R", "-m", &mibs_text], None);
    assert!(!ok);
    assert!(
        stderr.contains("--snmp.mibopts \"R\": `R` is not supported"),
        "{stderr}"
    );
    // A folder named that is not there is an error naming it; so are the generator's
    // flags without a generator command.
    let missing = dir.path().join("nothing-here");
    let (ok, stderr) = run(&["generate", "-m", &missing.display().to_string()], None);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("MIB directory {}", missing.display())),
        "{stderr}"
    );
    // MIBDIRS's folders that are not there are passed over, and said so.
    let both = format!("{}:{}", missing.display(), mibs.display());
    let (ok, stderr) = run(&["generate", "--log.level=warn"], Some(Path::new(&both)));
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("loading MIBs"), "{stderr}");
    let (ok, stderr) = run(&["generate"], Some(Path::new(&both)));
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(&format!("(not there, passed over: {})", missing.display())),
        "{stderr}"
    );
    let (_, stderr) = run(&["generate", "--log.level=warn"], Some(&missing));
    assert!(
        stderr.contains("none of them is there, only the built-in standard modules are read"),
        "{stderr}"
    );
    // parse_errors and dump say the path too (upstream logs it for every command).
    let (ok, stderr) = run(&["parse_errors"], Some(&mibs));
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "snmp-exporter parse_errors: loading MIBs from {}",
            mibs.display()
        )),
        "{stderr}"
    );
    // A log format that is neither of the two is refused, as the server refuses it.
    let (ok, stderr) = run(&["--log.format=xml", "generate"], Some(&mibs));
    assert!(!ok);
    assert!(
        stderr.contains("--log.format \"xml\": expected logfmt or json"),
        "{stderr}"
    );
    let (ok, stderr) = run(&["-m", &mibs_text, "--dry-run"], None);
    assert!(!ok);
    assert!(stderr.contains("are the generator's"), "{stderr}");
}

/// A name two modules give different objects: an error naming both `MODULE::name`
/// spellings; either spelling then generates.
#[test]
fn a_name_two_modules_define_is_an_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let mibs = dir.path().join("mibs");
    std::fs::create_dir(&mibs).unwrap();
    for (module, arc) in [("VENDOR-A-MIB", 1), ("VENDOR-B-MIB", 2)] {
        std::fs::write(
            mibs.join(format!("{module}.txt")),
            format!(
                "{module} DEFINITIONS ::= BEGIN\n\
                 IMPORTS OBJECT-TYPE, Integer32, enterprises FROM SNMPv2-SMI;\n\
                 v{arc} OBJECT IDENTIFIER ::= {{ enterprises 9999{arc} }}\n\
                 temperature OBJECT-TYPE\n\
                 \x20   SYNTAX Integer32\n\
                 \x20   MAX-ACCESS read-only\n\
                 \x20   STATUS current\n\
                 \x20   DESCRIPTION \"Degrees.\"\n\
                 \x20   ::= {{ v{arc} 1 }}\n\
                 END\n"
            ),
        )
        .unwrap();
    }
    let generate_walk = |walk: &str| {
        let generator = dir.path().join("generator.yml");
        std::fs::write(
            &generator,
            format!("modules:\n  m:\n    walk: ['{walk}']\n"),
        )
        .unwrap();
        generate(&generator, &[&mibs], &dir.path().join("snmp.yml"), &[])
    };
    let (ok, stderr) = generate_walk("temperature");
    assert!(!ok);
    assert!(
        stderr.contains("VENDOR-A-MIB::temperature (1.3.6.1.4.1.99991.1)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("VENDOR-B-MIB::temperature (1.3.6.1.4.1.99992.1)"),
        "{stderr}"
    );
    let dump = Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .args(["dump", "-m"])
        .arg(&mibs)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&dump.stdout);
    assert!(
        stdout.contains("1.3.6.1.4.1.99991.1 temperature VENDOR-A-MIB type=INTEGER32 tc= hint=\"\" access=ACCESS_READONLY"),
        "{stdout}"
    );
    let (ok, stderr) = generate_walk("VENDOR-B-MIB::temperature");
    assert!(ok, "{stderr}");
    let yml = std::fs::read_to_string(dir.path().join("snmp.yml")).unwrap();
    assert!(yml.contains("1.3.6.1.4.1.99992.1.0"), "{yml}");
}

/// `dump` into a pipe its reader closed ends quietly by SIGPIPE (the shell's 141), as
/// upstream's generator does, not with a panic.
#[test]
fn a_closed_pipe_ends_dump_quietly() {
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let script = format!(
        "'{}' dump -m '{}' | head -1 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
        env!("CARGO_BIN_EXE_snmp-exporter"),
        corpus.join("ietf").display()
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "141");
    // The path read, and nothing else: no panic.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .lines()
            .all(|l| l.starts_with("snmp-exporter dump: loading MIBs from ")),
        "{stderr}"
    );
}

/// The tree read for a generator.yml (the modules its walks, indexes and lookups reach
/// lowered, no others) generates what the whole tree generates.
#[test]
fn the_tree_read_for_a_generator_yml_generates_what_the_whole_tree_does() {
    use snmp_exporter::generate::{self, config::GeneratorFile, tree::MibTree};
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let dirs = [corpus.join("ietf")];
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("generator.yml"))
        .unwrap();
    let generator: GeneratorFile = serde_yaml::from_str(&text).unwrap();
    let made = |tree: &MibTree| {
        let file = generate::generate(&generator, tree, &mut Vec::new()).unwrap();
        generate::to_yaml(&file).unwrap()
    };
    let whole = MibTree::load(&dirs).unwrap();
    let read_for = generate::load_tree(&dirs, &generator).unwrap();
    let detailed = |t: &MibTree| t.nodes.iter().filter(|n| n.detailed).count();
    assert!(
        detailed(&read_for) < detailed(&whole) / 2,
        "{} of {} nodes read in full",
        detailed(&read_for),
        detailed(&whole)
    );
    assert_eq!(made(&read_for), made(&whole));
}
