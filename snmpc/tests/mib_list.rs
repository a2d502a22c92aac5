//! Which MIB modules the agent tools and `translate` read, against net-snmp's tools given the
//! same command line, environment and snmp.conf: Debian's `mibs :` (no module: OIDs printed
//! as numbers), `-m` lists, `+` and `-` against the default list (the modules of it that are
//! not on the path said in net-snmp's order), `MIBS`, `MIBDIRS`, a directory that is not
//! there, `MODULE::name` reading its module, snmptranslate's bare names and `-TB`.

use std::path::Path;
use std::process::Command;

use snmp_test_support::agent as support;

/// stdout, stderr and exit code of `cmd` run with `args`, snmp.conf from `conf_dir` and
/// exactly the MIB environment variables of `env` (the others removed).
fn run_with(
    cmd: &mut Command,
    args: &[&str],
    conf_dir: &Path,
    env: &[(&str, &str)],
) -> (String, String, i32) {
    cmd.args(args)
        .env("SNMPCONFPATH", conf_dir)
        .env("SNMP_PERSISTENT_DIR", conf_dir)
        .env_remove("MIBS")
        .env_remove("MIBDIRS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the tool runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// One comparison: snmp.conf's text, the MIB environment variables, net-snmp's tool and the
/// arguments both are given.
type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a Path, Vec<String>);

/// Output lines but those of values that move between two walks.
fn steady(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| !l.contains("Timeticks") && !l.contains("Counter32"))
        .collect()
}

/// stderr with the line number of `Cannot find module (X): At line N in (none)` left out:
/// net-snmp's is that of whatever its parser read last (1 for a module of `-m`, another for
/// one of snmp.conf's list).
fn lines_unnumbered(err: &str) -> Vec<String> {
    err.lines()
        .map(
            |l| match (l.split_once(": At line "), l.ends_with(" in (none)")) {
                (Some((head, _)), true) => format!("{head}: At line N in (none)"),
                _ => l.to_string(),
            },
        )
        .collect()
}

#[test]
fn the_modules_read_are_net_snmps() {
    let (Some(snmpd), Some(snmpget), Some(snmpwalk), Some(snmptable), Some(snmptranslate)) = (
        support::tool("snmpd"),
        support::tool("snmpget"),
        support::tool("snmpwalk"),
        support::tool("snmptable"),
        support::tool("snmptranslate"),
    ) else {
        support::require_or_skip(
            "snmpd or net-snmp's tools not found (apt-get install -y snmpd snmp)",
        );
        return;
    };
    let agent = support::start_agent(&snmpd);
    let target = format!("127.0.0.1:{}", agent.port);
    let mibs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    let mibs = mibs.to_str().expect("a UTF-8 path");
    let missing_too = format!("/nonexistent-mib-dir:{mibs}");
    let dir = tempfile::tempdir().unwrap();
    let numbers = [
        "1.3.6.1.2.1.1.1.0",
        "1.3.6.1.2.1.1.2.0",
        "1.3.6.1.2.1.2.2.1.2.1",
        "1.3.6.1.2.1.4.1.0",
        "1.3.6.1.2.1.25.1.4.0",
    ];
    let get = |extra: &[&str]| {
        let mut a: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        a.extend(["-v2c", "-c", "public", &target].map(String::from));
        a.extend(numbers.map(String::from));
        a
    };
    let walk = |extra: &[&str]| {
        let mut a: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        a.extend(["-v2c", "-c", "public", &target, "1.3.6.1.2.1.1"].map(String::from));
        a
    };
    let strings = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<Case> = vec![
        // Debian's snmp.conf: no module, whatever the path.
        ("mibs :\n", vec![("MIBDIRS", mibs)], &snmpget, get(&[])),
        ("mibs :\n", vec![("MIBDIRS", mibs)], &snmpwalk, walk(&[])),
        // -m over snmp.conf; IF-MIB reads what it imports and no more (ip stays numbers).
        (
            "mibs :\n",
            vec![],
            &snmpget,
            get(&["-M", mibs, "-m", "IF-MIB"]),
        ),
        // MIBS over snmp.conf; a directory that is not there passed over.
        (
            "mibs :\n",
            vec![("MIBS", "SNMPv2-MIB:HOST-RESOURCES-MIB")],
            &snmpget,
            get(&["-M", &missing_too]),
        ),
        // snmp.conf's list after the default one: its modules not on the path said, in order.
        ("mibs +IF-MIB\n", vec![], &snmpget, get(&["-M", mibs])),
        // The default list, mibs/ from MIBDIRS.
        ("", vec![("MIBDIRS", mibs)], &snmpwalk, walk(&[])),
        // MODULE::name reads its module even when the list is empty.
        (
            "mibs :\n",
            vec![],
            &snmpget,
            strings(&[
                "-M",
                mibs,
                "-v2c",
                "-c",
                "public",
                &target,
                "IF-MIB::ifDescr.1",
            ]),
        ),
        // snmptranslate: a bare name is a path from the root unless -IR.
        (
            "mibs :\n",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "ALL", "sysDescr"]),
        ),
        (
            "mibs :\n",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-IR", "sysDescr"]),
        ),
        (
            "mibs :\n",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "IF-MIB::ifDescr", ".1.3.6.1.2.1.4.1"]),
        ),
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-To"]),
        ),
        // -P's MIB parsing letters, taken.
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-Pu", "-PeR", "-On", "ifDescr"]),
        ),
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-Tp"]),
        ),
        // What no module read names: -Ou keeps the numbers, -Td describes the root, snmptable
        // asks whether it was a table.
        (
            "mibs :\n",
            vec![],
            &snmpwalk,
            strings(&["-Ou", "-v2c", "-c", "public", &target, "1.3.6.1.2.1.2"]),
        ),
        (
            "mibs :\n",
            vec![],
            &snmptable,
            strings(&["-v2c", "-c", "public", &target, "1.3.6.1.2.1.2.2"]),
        ),
        (
            "mibs :\n",
            vec![],
            &snmptranslate,
            strings(&["-Td", "1.3.6.1.2.1.99"]),
        ),
        // A dotted OID that is not plain numbers, with no module under its root: the rest
        // read as plain arcs (`(x.1)`), quoted strings as their octets.
        (
            "mibs :\n",
            vec![],
            &snmpget,
            strings(&[
                "-v2c",
                "-c",
                "public",
                &target,
                ".1.3.6.x.1",
                ".1.3.6.1.2.1.1.\"ab\"",
            ]),
        ),
        // -TB: the names a regular expression matches, in snmptranslate's order.
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-TB", "sys"]),
        ),
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-On", "-TB", "^ifHC"]),
        ),
        // Names matched past their start: each search stops at a name that starts with a
        // match, so only the one found last of those is listed.
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-TB", "Octets"]),
        ),
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB", "-TB", "Index"]),
        ),
        (
            "",
            vec![],
            &snmptranslate,
            strings(&["-M", mibs, "-m", "IF-MIB:IP-MIB", "-TB", "Pkts"]),
        ),
    ];
    // net-snmp's first run in a persistent directory says it made one: done beforehand.
    run_with(
        &mut Command::new(&snmptranslate),
        &["-On", ".1"],
        dir.path(),
        &[],
    );
    for (conf, env, tool, args) in &cases {
        std::fs::write(dir.path().join("snmp.conf"), conf).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let theirs = run_with(&mut Command::new(tool), &args, dir.path(), env);
        let command = tool
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("snmp"))
            .expect("a net-snmp tool");
        let mut ours_cmd = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        ours_cmd.arg(command);
        let ours = run_with(&mut ours_cmd, &args, dir.path(), env);
        let said = format!("{command} {args:?} with snmp.conf {conf:?} and {env:?}");
        assert!(
            !(theirs.0.is_empty() && theirs.1.is_empty()),
            "{said}: net-snmp printed nothing"
        );
        assert_eq!(steady(&ours.0), steady(&theirs.0), "{said}");
        assert_eq!(
            lines_unnumbered(&ours.1),
            lines_unnumbered(&theirs.1),
            "{said}: stderr"
        );
        assert_eq!(ours.2, theirs.2, "{said}: exit code");
    }
    // A -P letter snmptranslate does not know: refused in its words (its usage after them),
    // exit 1.
    let args = ["-M", mibs, "-Px", "sysDescr"];
    let theirs = run_with(&mut Command::new(&snmptranslate), &args, dir.path(), &[]);
    let mut ours_cmd = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    ours_cmd.arg("translate");
    let ours = run_with(&mut ours_cmd, &args, dir.path(), &[]);
    assert_eq!((ours.2, theirs.2), (1, 1));
    assert_eq!(
        ours.1
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("snmpc: ")),
        theirs.1.lines().next()
    );
}

/// A folder with IF-MIB and not RFC1213-MIB (as Cisco's v2 MIB folder) under `-m ALL`: the
/// built-in RFC1213-MIB that snmpc adds for what the folder lacks (a vendor's module imports
/// it) defines ifDescr and the system group at the same OIDs, and must not name them:
/// snmptranslate, which has no built-in modules, says IF-MIB::ifDescr and
/// SNMPv2-MIB::sysDescr.0, and so does snmpc.
#[test]
fn built_in_modules_do_not_name_what_a_file_defines() {
    let Some(snmptranslate) = support::tool("snmptranslate") else {
        support::require_or_skip("snmptranslate not found (apt-get install -y snmp)");
        return;
    };
    let interfaces = snmp_test_support::IF_MIB_WITHOUT_RFC1213;
    let Some((dir, mibs)) = snmp_test_support::corpus_modules_or_skip(&interfaces) else {
        return;
    };
    // A vendor's module that imports from RFC1213-MIB (as 22 of Cisco's do), read before
    // IF-MIB: the built-in RFC1213-MIB is read for it, first.
    std::fs::write(
        mibs.join("VENDOR-MIB.txt"),
        "VENDOR-MIB DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM RFC1155-SMI\n\
         ifIndex FROM RFC1213-MIB;\nvendor OBJECT IDENTIFIER ::= { enterprises 99996 }\nEND\n",
    )
    .unwrap();
    let mibdirs = mibs.to_str().expect("a UTF-8 path");
    let oids = [
        ".1.3.6.1.2.1.2.2.1.2",
        ".1.3.6.1.2.1.1.1.0",
        ".1.3.6.1.2.1.2.2.1.10.3",
    ];
    let env = [("MIBDIRS", mibdirs), ("MIBS", "ALL")];
    let (theirs, _, code) = run_with(&mut Command::new(&snmptranslate), &oids, dir.path(), &env);
    assert_eq!(code, 0);
    let mut snmpc = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    snmpc.arg("translate");
    let (ours, err, code) = run_with(&mut snmpc, &oids, dir.path(), &env);
    assert_eq!(code, 0, "{err}");
    assert_eq!(ours, theirs);
    assert!(ours.contains("IF-MIB::ifDescr\n"), "{ours}");
}

/// A module two files define is read from the later file but takes the first file's place in
/// the order net-snmp reads modules (its list keeps the place a module's name was first seen):
/// Cisco's folder defines DISMAN-EXPRESSION-MIB in DISMAN-EXPRESSION-MIB.my and again in
/// RFC2982-MIB.my, and EXPRESSION-MIB.my defines sysUpTimeInstance too; snmptranslate names it
/// EXPRESSION-MIB's, and so does snmpc.
#[test]
fn a_module_two_files_define_is_read_where_the_first_is() {
    let Some(snmptranslate) = support::tool("snmptranslate") else {
        support::require_or_skip("snmptranslate not found (apt-get install -y snmp)");
        return;
    };
    let Some((dir, mibs)) = snmp_test_support::corpus_modules_or_skip(&["SNMPv2-SMI"]) else {
        return;
    };
    let module = |name: &str| {
        format!(
            "{name} DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n\
             thing OBJECT IDENTIFIER ::= {{ enterprises 99997 }}\nEND\n"
        )
    };
    // SAME-MIB first seen in A.txt, read from Z.txt; MIDDLE-MIB's file between the two.
    std::fs::write(mibs.join("A.txt"), module("SAME-MIB")).unwrap();
    std::fs::write(mibs.join("M.txt"), module("MIDDLE-MIB")).unwrap();
    std::fs::write(mibs.join("Z.txt"), module("SAME-MIB")).unwrap();
    let mibdirs = mibs.to_str().expect("a UTF-8 path");
    let env = [("MIBDIRS", mibdirs), ("MIBS", "ALL")];
    let args = ["-Td", ".1.3.6.1.4.1.99997"];
    let (theirs, _, code) = run_with(&mut Command::new(&snmptranslate), &args, dir.path(), &env);
    assert_eq!(code, 0);
    let mut snmpc = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    snmpc.arg("translate");
    let (ours, err, code) = run_with(&mut snmpc, &args, dir.path(), &env);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        ours.lines().take(3).collect::<Vec<_>>(),
        theirs.lines().take(3).collect::<Vec<_>>()
    );
}

/// An enterprise's `.0` that a module names and SMIv1 TRAP-TYPEs hang under: net-snmp makes
/// its `enterprise#` node at each TRAP-TYPE, and the node linked first names the arc (of the
/// module read first, the last written): a prefix written before the module's last TRAP-TYPE
/// is named `acme#`, one written after them names the arc (Cisco's SMIv1 conversions write
/// theirs first: `CISCO-UNITY-EXPRESS-MIB::ciscoUnityExpressMIB#`).
#[test]
fn an_enterprise_arc_is_named_as_snmptranslate_names_it() {
    let Some(snmptranslate) = support::tool("snmptranslate") else {
        support::require_or_skip("snmptranslate not found (apt-get install -y snmp)");
        return;
    };
    let smiv1 = ["RFC1155-SMI", "RFC-1212", "RFC-1215"];
    let Some((dir, mibs)) = snmp_test_support::corpus_modules_or_skip(&smiv1) else {
        return;
    };
    let module = |name: &str, root: &str, number: u32, body: &str| {
        format!(
            "{name} DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM RFC1155-SMI TRAP-TYPE FROM \
             RFC-1215;\n{root} OBJECT IDENTIFIER ::= {{ enterprises {number} }}\n{body}END\n"
        )
    };
    let trap = |root: &str, n: u32| format!("{root}Trap{n} TRAP-TYPE ENTERPRISE {root} ::= {n}\n");
    let prefix = |root: &str| format!("{root}Notifs OBJECT IDENTIFIER ::= {{ {root} 0 }}\n");
    let files = [
        (
            "A-MIB",
            "acme",
            4242,
            [prefix("acme"), trap("acme", 1)].concat(),
        ),
        (
            "B-MIB",
            "widget",
            4243,
            [trap("widget", 1), prefix("widget")].concat(),
        ),
        (
            "C-MIB",
            "gadget",
            4244,
            [trap("gadget", 1), prefix("gadget"), trap("gadget", 2)].concat(),
        ),
    ];
    for (name, root, number, body) in &files {
        std::fs::write(
            mibs.join(format!("{name}.txt")),
            module(name, root, *number, body),
        )
        .unwrap();
    }
    let mut args = vec![];
    for number in [4242, 4243, 4244] {
        args.push(format!(".1.3.6.1.4.1.{number}.0"));
        args.push(format!(".1.3.6.1.4.1.{number}.0.9"));
        args.push(format!(".1.3.6.1.4.1.{number}.0.1"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let env = [
        ("MIBDIRS", mibs.to_str().expect("a UTF-8 path")),
        ("MIBS", "ALL"),
    ];
    let (theirs, _, code) = run_with(&mut Command::new(&snmptranslate), &args, dir.path(), &env);
    assert_eq!(code, 0);
    assert!(theirs.contains("A-MIB::acme#\n"), "{theirs}");
    for extra in [&[][..], &["-Of"][..]] {
        let mut theirs_cmd = Command::new(&snmptranslate);
        let mut ours_cmd = Command::new(env!("CARGO_BIN_EXE_snmpc"));
        ours_cmd.arg("translate");
        let all: Vec<&str> = extra.iter().chain(&args).copied().collect();
        let (theirs, _, _) = run_with(&mut theirs_cmd, &all, dir.path(), &env);
        let (ours, err, code) = run_with(&mut ours_cmd, &all, dir.path(), &env);
        assert_eq!(code, 0, "{err}");
        assert_eq!(ours, theirs);
    }
}

/// `-Tz`'s lines of the nodes whose labels start with one of `prefixes`, from snmptranslate or
/// snmpc (`tool`: `None` for snmpc) over `mibdirs` under `MIBS=ALL`.
fn tree_lines(tool: Option<&Path>, mibdirs: &str, conf: &Path, prefixes: &[&str]) -> Vec<String> {
    let env = [("MIBDIRS", mibdirs), ("MIBS", "ALL")];
    let (out, err, code) = match tool {
        Some(t) => run_with(&mut Command::new(t), &["-Tz"], conf, &env),
        None => {
            let mut snmpc = Command::new(env!("CARGO_BIN_EXE_snmpc"));
            snmpc.arg("translate");
            run_with(&mut snmpc, &["-Tz"], conf, &env)
        }
    };
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(&format!("\"{p}"))))
        .map(str::to_string)
        .collect()
}

/// A module that defines one descriptor twice (LibreNMS's QUANTA-LB6M-REF-MIB: `lb6m` under
/// Broadcom's arc and again under Netgear's): net-snmp links a module's nodes name by name from
/// the names it imports, the last defined child first, each followed at once by its own; the
/// module's own children of the name hang under the definition it links first, and the
/// modules importing the name see the one it links last. Four orders of the same definitions,
/// each placed as snmptranslate places them.
#[test]
fn a_descriptor_defined_twice_is_linked_as_net_snmp_links_it() {
    let Some((dir, mibs)) = snmp_test_support::corpus_modules_or_skip(&["SNMPv2-SMI"]) else {
        return;
    };
    let importer = "Z-MIB DEFINITIONS ::= BEGIN\nIMPORTS yDup FROM Y-MIB;\n\
                    zOut OBJECT IDENTIFIER ::= { yDup 8 }\nEND\n";
    std::fs::write(mibs.join("Z-MIB"), importer).unwrap();
    let low = "yLow OBJECT IDENTIFIER ::= { enterprises 99994 }\n";
    let high = "yHigh OBJECT IDENTIFIER ::= { enterprises 99995 }\n";
    let dup_low = "yDup OBJECT IDENTIFIER ::= { yLow 1 }\n";
    let dup_high = "yDup OBJECT IDENTIFIER ::= { yHigh 1 }\n";
    // (parents' order, the two yDup's order) -> where yIn (Y-MIB's own) and zOut (Z-MIB's)
    // hang, as net-snmp 5.9 puts them.
    let cases = [
        ([high, low], [dup_high, dup_low], "99994.1.7", "99995.1.8"),
        ([high, low], [dup_low, dup_high], "99994.1.7", "99995.1.8"),
        ([low, high], [dup_low, dup_high], "99995.1.7", "99994.1.8"),
        ([low, high], [dup_high, dup_low], "99995.1.7", "99994.1.8"),
    ];
    let mibdirs = mibs.to_str().expect("a UTF-8 path");
    let snmptranslate = support::tool("snmptranslate");
    if snmptranslate.is_none() {
        support::require_or_skip(
            "snmptranslate not found (apt-get install -y snmp): compared with fixed answers only",
        );
    }
    for (parents, dups, y_in, z_out) in cases {
        let module = format!(
            "Y-MIB DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n{}{}{}{}\
             yIn OBJECT IDENTIFIER ::= {{ yDup 7 }}\nEND\n",
            parents[0], parents[1], dups[0], dups[1]
        );
        std::fs::write(mibs.join("Y-MIB"), &module).unwrap();
        let ours = tree_lines(None, mibdirs, dir.path(), &["yIn", "zOut"]);
        let expected = [
            format!("\"yIn\"\t\t\t\"1.3.6.1.4.1.{y_in}\""),
            format!("\"zOut\"\t\t\t\"1.3.6.1.4.1.{z_out}\""),
        ];
        let mut sorted = ours.clone();
        sorted.sort();
        assert_eq!(sorted, expected, "{module}");
        if let Some(t) = &snmptranslate {
            let theirs = tree_lines(Some(t), mibdirs, dir.path(), &["y", "z"]);
            assert_eq!(
                tree_lines(None, mibdirs, dir.path(), &["y", "z"]),
                theirs,
                "{module}"
            );
        }
    }
}

/// Nodes their module cannot place (a parent it never imports, as LibreNMS's FOUNDRY-LAG-MIB's
/// `snSwitch`; a parent imported from a module not on the path, as netdisco's Avaya modules
/// import from SYNOPTICS-ROOT-MIB): net-snmp links each, once it has read its modules, under
/// the node of that name its tree holds, and what hangs under it follows. The module still
/// fails for the missing module; its warnings say where each node went.
#[test]
fn orphans_hang_under_the_node_of_their_parents_name() {
    let Some((dir, mibs)) = snmp_test_support::corpus_modules_or_skip(&["SNMPv2-SMI"]) else {
        return;
    };
    let w = |name: &str, text: &str| std::fs::write(mibs.join(name), text).unwrap();
    w(
        "HOLDER-MIB",
        "HOLDER-MIB DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n\
         holder OBJECT IDENTIFIER ::= { enterprises 99960 }\n\
         hSwitch OBJECT IDENTIFIER ::= { holder 1 }\n\
         hWlan OBJECT IDENTIFIER ::= { holder 2 }\n\
         hTable OBJECT IDENTIFIER ::= { holder 3 }\n\
         gRoot OBJECT IDENTIFIER ::= { holder 4 }\n\
         zTable OBJECT IDENTIFIER ::= { holder 5 }\n\
         qRoot OBJECT IDENTIFIER ::= { holder 6 }\n\
         hGroup OBJECT IDENTIFIER ::= { holder 7 }\n\
         hSlot OBJECT IDENTIFIER ::= { holder 8 }\nEND\n",
    );
    // Never imports hSwitch.
    w(
        "SLOPPY-MIB",
        "SLOPPY-MIB DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n\
         sloppyLag OBJECT IDENTIFIER ::= { hSwitch 5 }\n\
         sloppyLagTable OBJECT IDENTIFIER ::= { sloppyLag 1 }\nEND\n",
    );
    // Imports from a module that is nowhere: a name no module defines (`lostRoot`) leaves its
    // own hWlan out, and the children of that hang under HOLDER-MIB's hWlan. A name some
    // module defines (`qRoot`) is any module's node of that name net-snmp's tree holds when
    // it reads the importer: HOLDER-MIB's for FAR-MIB (read after it), whose nodes hang as
    // they are written; none yet for LOST-MIB (read before HOLDER-MIB), whose nodes become
    // orphans: lostEntry hangs under the hGroup made last (FAR-MIB's: bucket 21 comes
    // before qRoot's 53).
    w(
        "LOST-MIB",
        "LOST-MIB DEFINITIONS ::= BEGIN\nIMPORTS lostRoot, qRoot FROM NOWHERE-ROOT-MIB;\n\
         hWlan OBJECT IDENTIFIER ::= { lostRoot 1 }\n\
         lostAp OBJECT IDENTIFIER ::= { hWlan 7 }\n\
         lostTop OBJECT IDENTIFIER ::= { qRoot 2 }\n\
         hGroup OBJECT IDENTIFIER ::= { lostTop 5 }\n\
         lostEntry OBJECT IDENTIFIER ::= { hGroup 1 }\nEND\n",
    );
    w(
        "FAR-MIB",
        "FAR-MIB DEFINITIONS ::= BEGIN\nIMPORTS qRoot FROM NOWHERE-ROOT-MIB;\n\
         farTop OBJECT IDENTIFIER ::= { qRoot 3 }\n\
         hGroup OBJECT IDENTIFIER ::= { farTop 5 }\n\
         farEntry OBJECT IDENTIFIER ::= { hGroup 1 }\nEND\n",
    );
    // Two chains of orphans under names imported from a module that has them without OIDs,
    // each chain with a node named as one of HOLDER-MIB's. net-snmp files orphans by their
    // parent's name in 128 buckets (the sum of its lower-cased bytes) and links bucket by
    // bucket, each node at once with what hangs under it: `gRoot` (bucket 43) comes before
    // `hTable` (112), so gEntry hangs under GONE-MIB's own hTable; `zTable` (2) before
    // `qRoot` (53), so qEntry hangs under HOLDER-MIB's zTable.
    w(
        "BROKEN-MIB",
        "BROKEN-MIB DEFINITIONS ::= BEGIN\nIMPORTS brokenBase FROM NOWHERE-ROOT-MIB;\n\
         gRoot OBJECT IDENTIFIER ::= { brokenBase 1 }\n\
         qRoot OBJECT IDENTIFIER ::= { brokenBase 2 }\nEND\n",
    );
    w(
        "GONE-MIB",
        "GONE-MIB DEFINITIONS ::= BEGIN\nIMPORTS gRoot, qRoot FROM BROKEN-MIB;\n\
         gTop OBJECT IDENTIFIER ::= { gRoot 1 }\n\
         hTable OBJECT IDENTIFIER ::= { gTop 3 }\n\
         gEntry OBJECT IDENTIFIER ::= { hTable 1 }\n\
         qTop OBJECT IDENTIFIER ::= { qRoot 1 }\n\
         zTable OBJECT IDENTIFIER ::= { qTop 5 }\n\
         qEntry OBJECT IDENTIFIER ::= { zTable 1 }\nEND\n",
    );
    // A name used without an import (`enterprises`, taken from the SMI's base here with a
    // warning) is none to net-snmp when it reads the module: the module's nodes under it are
    // orphans, and bareEntry hangs under HOLDER-MIB's hSlot (bucket 42, before 52).
    w(
        "BARE-MIB",
        "BARE-MIB DEFINITIONS ::= BEGIN\nIMPORTS OBJECT-TYPE FROM SNMPv2-SMI;\n\
         bareRoot OBJECT IDENTIFIER ::= { enterprises 99961 }\n\
         hSlot OBJECT IDENTIFIER ::= { bareRoot 1 }\n\
         bareEntry OBJECT IDENTIFIER ::= { hSlot 2 }\nEND\n",
    );
    let mibdirs = mibs.to_str().expect("a UTF-8 path");
    let prefixes = ["sloppy", "lost", "hWlan", "gEntry", "qEntry", "far", "bare"];
    let ours = tree_lines(None, mibdirs, dir.path(), &prefixes);
    for line in [
        "\"sloppyLag\"\t\t\t\"1.3.6.1.4.1.99960.1.5\"",
        "\"sloppyLagTable\"\t\t\t\"1.3.6.1.4.1.99960.1.5.1\"",
        "\"lostAp\"\t\t\t\"1.3.6.1.4.1.99960.2.7\"",
        "\"gEntry\"\t\t\t\"1.3.6.1.4.1.99960.4.1.3.1\"",
        "\"qEntry\"\t\t\t\"1.3.6.1.4.1.99960.5.1\"",
        "\"lostEntry\"\t\t\t\"1.3.6.1.4.1.99960.6.3.5.1\"",
        "\"farEntry\"\t\t\t\"1.3.6.1.4.1.99960.6.3.5.1\"",
        "\"bareEntry\"\t\t\t\"1.3.6.1.4.1.99960.8.2\"",
    ] {
        assert!(ours.iter().any(|l| l == line), "{line} in {ours:?}");
    }
    match support::tool("snmptranslate") {
        Some(t) => assert_eq!(ours, tree_lines(Some(&t), mibdirs, dir.path(), &prefixes)),
        None => {
            support::require_or_skip("snmptranslate not found (apt-get install -y snmp)");
        }
    }
    // Every module of the folder, as net-snmp's `MIBS=ALL`: HOLDER-MIB among them.
    let (out, err, code) = snmpc_check(mibdirs, &["--all"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("SLOPPY-MIB: OK, 1 warning(s)"), "{out}");
    assert!(
        out.contains("unresolved parent `hSwitch` in the OID of `sloppyLag`: linked under HOLDER-MIB::hSwitch"),
        "{out}"
    );
    // Its own hWlan left out; lostAp, lostTop and lostEntry linked: four warnings beside the
    // missing module's error.
    assert!(
        out.contains("LOST-MIB: FAILED, 1 error(s), 4 warning(s)"),
        "{out}"
    );
    assert!(
        out.contains("the parent `zTable` of `qEntry` has no OID of its own yet when net-snmp links `qEntry`: linked under HOLDER-MIB::zTable"),
        "{out}"
    );
}

fn snmpc_check(mibdirs: &str, args: &[&str]) -> (String, String, i32) {
    let mut snmpc = Command::new(env!("CARGO_BIN_EXE_snmpc"));
    snmpc.args(["mib", "check", "--verbose", "-M", mibdirs]);
    let out = snmpc.args(args).output().expect("snmpc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}
