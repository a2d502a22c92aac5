//! Objects whose TEXTUAL-CONVENTION is defined on another convention (`StateB ::=
//! TEXTUAL-CONVENTION ... SYNTAX StateA`, a convention `SYNTAX DisplayString (SIZE (0..32))`),
//! which net-snmp reads for the base type alone: `snmpc get` and `walk` print their values as
//! snmpget and snmpwalk do (`INTEGER: 1`, `STRING: "abc"`, no enumeration label or
//! DISPLAY-HINT of the convention below), and `translate -Tp`/`-Td` draw and define them as
//! snmptranslate does, from `snmpc simulate` serving a recording.

use snmp_test_support::agent as support;

#[path = "support/run.rs"]
mod run;

/// The values served, as a recording (`snmpwalk -On` lines).
const RECORDING: &str = "\
.1.3.6.1.4.1.99999.1.0 = INTEGER: 1
.1.3.6.1.4.1.99999.2.0 = STRING: \"abc\"
.1.3.6.1.4.1.99999.3.0 = STRING: \"xyz\"
.1.3.6.1.4.1.99999.4.0 = INTEGER: 2
.1.3.6.1.4.1.99999.5.0 = STRING: \"pq\"
.1.3.6.1.4.1.99999.6.0 = INTEGER: 2
";

#[test]
fn nested_conventions_print_as_net_snmp_prints_them() {
    let tools = ["snmpget", "snmpwalk", "snmptranslate"].map(support::tool);
    let [Some(snmpget), Some(snmpwalk), Some(snmptranslate)] = tools else {
        support::require_or_skip("net-snmp's tools not found (apt-get install -y snmp)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("NESTED-TC-MIB.txt"),
        snmp_test_support::mibs::NESTED_CONVENTIONS,
    )
    .unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, RECORDING).unwrap();
    // The module's folder, then the project's own SNMPv2-SMI and SNMPv2-TC for net-snmp.
    let mibs = format!(
        "{}:{}",
        dir.path().display(),
        concat!(env!("CARGO_MANIFEST_DIR"), "/../mibs")
    );
    let (_simulator, agent) = run::Simulator::serve(&data, 300);
    let objects: Vec<String> = [
        "objB",
        "objNameB",
        "objNameC",
        "objPlainA",
        "objPlainN",
        "objKeywords",
    ]
    .iter()
    .map(|o| format!("NESTED-TC-MIB::{o}"))
    .collect();
    let instances: Vec<String> = objects.iter().map(|o| format!("{o}.0")).collect();
    let module = ["-M", &mibs, "-m", "NESTED-TC-MIB"];
    let community = ["-v2c", "-c", "public", &agent];
    let cases: Vec<(&std::path::Path, &str, Vec<&str>)> = vec![
        (&snmpget, "get", [&module[..], &community].concat()),
        (
            &snmpwalk,
            "walk",
            [&module[..], &community, &["NESTED-TC-MIB::nestedTc"]].concat(),
        ),
        (
            &snmptranslate,
            "translate",
            [&module[..], &["-Tp", "NESTED-TC-MIB::nestedTc"]].concat(),
        ),
    ];
    for (tool, command, args) in cases {
        let mut args = args;
        if command == "get" {
            args.extend(instances.iter().map(String::as_str));
        }
        let theirs = run::net_snmp_tool(tool, &args);
        let mut ours = vec![command];
        ours.extend(&args);
        let mine = run::snmpc(&ours);
        assert_eq!(mine, theirs, "{command} {args:?}");
        if command == "get" {
            assert!(mine.0.contains("objB.0 = INTEGER: 1\n"), "{}", mine.0);
            assert!(
                mine.0.contains("objNameC.0 = STRING: \"xyz\"\n"),
                "{}",
                mine.0
            );
            // `current` is one of net-snmp's keywords: no label.
            assert!(
                mine.0.contains("objKeywords.0 = INTEGER: 2\n"),
                "{}",
                mine.0
            );
        }
    }
    for object in &objects {
        let args = [&module[..], &["-Td", object]].concat();
        let theirs = run::net_snmp_tool(&snmptranslate, &args);
        let mine = run::snmpc(&[&["translate"][..], &args].concat());
        assert_eq!(mine, theirs, "-Td {object}");
    }
}
