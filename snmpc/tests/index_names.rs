//! Names as net-snmp's tools write and read them with every module of the real-world corpus
//! (`-M ietf -m ALL`): the whole MIB view of our own snmpd walked by both, the names compared
//! line by line (which module names an OID several define, each table's INDEX broken down:
//! strings, enumerations, InetAddresses, IMPLIED), under `-OX`, `-Ob`, `-Of` and `-Os` for the
//! string-indexed tables; then names as the walk printed them given back to `get` by both.

#[path = "support/run.rs"]
mod run;
use std::path::Path;

use run::{net_snmp_tool as net_snmp, snmpc};

use snmp_test_support::agent as support;

/// The name of each line (what is before ` = `), but the UDP tables' (the walker's own
/// socket is a row of them, on a port of its own each run).
fn names(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.split(" = ").next())
        .filter(|n| !n.contains("udpLocal") && !n.contains("udpEndpoint"))
        .collect()
}

#[test]
fn table_indexes_and_module_names_as_net_snmp_writes_and_reads_them() {
    let tools = ["snmpd", "snmpwalk", "snmpget", "snmptable"].map(support::tool);
    let [Some(snmpd), Some(walk), Some(get), Some(table)] = tools else {
        support::require_or_skip(
            "snmpd or net-snmp's tools not found (apt-get install -y snmpd snmp)",
        );
        return;
    };
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let agent = support::start_agent_with(
        &snmpd,
        "createUser aesuser SHA \"aesauthpass\" AES \"aesprivpass\"\nrouser aesuser priv\n",
    );
    let target = format!("127.0.0.1:{}", agent.port);
    let ietf = corpus.join("ietf").display().to_string();
    let with = |extra: &[&str], last: &str| -> Vec<String> {
        let mut args = vec!["-M".to_string(), ietf.clone(), "-m".into(), "ALL".into()];
        args.extend(["-v2c", "-c", "public"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        args.push(target.clone());
        args.push(last.to_string());
        args
    };
    // `snmpc COMMAND` and net-snmp's `tool`, each with the corpus, v2c, `extra` and `last`.
    let both = |command: &str, tool: &Path, extra: &[&str], last: &str| {
        let args = with(extra, last);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut ours = vec![command];
        ours.extend(&args);
        (snmpc(&ours), net_snmp(tool, &args))
    };
    let cases: [(&[&str], &str); 13] = [
        (&[], ".1"),
        (&["-OE"], "vacmAccessTable"),
        (&["-OE"], "ipAddressTable"),
        (&["-Ou"], "ipAddressTable"),
        (&["-Ou"], ".1.3.6.1.4.1"),
        (&["-OX"], "vacmAccessTable"),
        (&["-OX"], "ipAddressTable"),
        (&["-OX"], "usmUserTable"),
        (&["-OX"], "ifDescr"),
        (&["-Ob"], "vacmSecurityToGroupTable"),
        (&["-Of"], "vacmAccessTable"),
        (&["-Os"], "ipAddressTable"),
        (&["-Os"], "ipNetToPhysicalTable"),
    ];
    let mut compared = 0;
    let mut whole_view = String::new();
    for (extra, root) in cases {
        let ((ours, err, code), (theirs, _, their_code)) = both("walk", &walk, extra, root);
        assert_eq!((code, their_code), (0, 0), "walk {extra:?} {root}: {err}");
        assert!(names(&theirs).len() >= 2, "walk {extra:?} {root}: {theirs}");
        assert_eq!(names(&ours), names(&theirs), "walk {extra:?} {root}");
        compared += names(&ours).len();
        if root == ".1" {
            whole_view = ours;
        }
    }
    // BITS (DISMAN-EVENT-MIB's mteEventActions, set on snmpd's own monitors): the octets and
    // each bit's label, the labels as numbers under -Oe, the octets alone quoted under -OQ,
    // the text beside the octets under -OT; names and values as snmpwalk prints them.
    for extra in [&[][..], &["-OQ"], &["-Oe"], &["-OT"]] {
        let ((ours, err, code), (theirs, _, _)) = both("walk", &walk, extra, "mteEventActions");
        assert_eq!(code, 0, "{err}");
        assert!(theirs.lines().count() >= 2, "{theirs}");
        assert_eq!(ours, theirs, "walk {extra:?} mteEventActions");
    }
    // snmptable's index column: the instance as the names show it.
    for (extra, root) in [
        (&["-Ci"][..], "vacmAccessTable"),
        (&["-Ci", "-OX"], "ipAddressTable"),
        (&["-Ci", "-Cb"], "usmUserTable"),
    ] {
        let ((ours, err, code), (theirs, _, their_code)) = both("table", &table, extra, root);
        assert_eq!((code, their_code), (0, 0), "table {extra:?} {root}: {err}");
        assert_eq!(ours, theirs, "table {extra:?} {root}");
    }
    // Names with string, enumeration and address indexes read back by both to the same
    // instance (a GET of each prints the same name).
    let indexed: Vec<&str> = names(&whole_view)
        .into_iter()
        .filter(|n| n.contains('"'))
        .step_by(7)
        .take(40)
        .collect();
    assert!(indexed.len() >= 30, "{whole_view}");
    let mut read_back = 0;
    for name in indexed {
        let ((ours, err, code), (theirs, their_err, their_code)) = both("get", &get, &[], name);
        assert_eq!(code, their_code, "get {name}: {err} / {their_err}");
        // (net-snmp cannot read back an OBJECT IDENTIFIER in an index followed by more
        // components, as inetCidrRouteTable's: neither can this, the same way.)
        if their_code == 0 {
            assert_eq!(names(&ours), names(&theirs), "get {name}");
            assert_eq!(names(&ours), [name], "get {name}");
            read_back += 1;
        }
    }
    assert!(read_back >= 20, "{read_back} names read back");
    // What does not translate: net-snmp's words and exit code; and what does, the same.
    for input in [
        "ifDescr.x",
        "vacmGroupName.3.aesuser",
        "vacmAccessContextMatch.\"grpx\".\"\".1.bogus",
        "ipAdEntAddr.1.2.3.256",
        "IF-MIB::nonexistent.0",
        "nonexistent.0",
        ".1.3.x.4",
        "sysDescr.0.",
        "ifDescr.0",
        "vacmGroupName.3.\"\"",
        "ifTable.1.99.x",
        "system.x",
        // and names net-snmp reads that spell the path or the instance another way
        "system.sysDescr.0",
        "ifTable.ifEntry.ifDescr.1",
        "ifTable.1.2.1",
        "ipAddressIfIndex.1.4.127.0.0.1",
    ] {
        let ((ours, err, code), (theirs, their_err, their_code)) = both("get", &get, &[], input);
        assert_eq!((code, &err), (their_code, &their_err), "get {input}");
        assert_eq!(names(&ours), names(&theirs), "get {input}");
    }
    println!("{compared} names compared with snmpwalk's");
}
