//! Names as net-snmp's tools write and read them with every module of the real-world corpus
//! (`-M ietf -m ALL`): the whole MIB view of our own snmpd walked by both, the names compared
//! line by line (which module names an OID several define, each table's INDEX broken down:
//! strings, enumerations, InetAddresses, IMPLIED), under `-OX`, `-Ob`, `-Of` and `-Os` for the
//! string-indexed tables; then names as the walk printed them given back to `get` by both.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use snmp_test_support::agent as support;

/// `tool`'s stdout, stderr and exit code with `args`, MIBs from the command line only.
fn net_snmp(tool: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let out = std::process::Command::new(tool)
        .args(args)
        .env("MIBS", "")
        .env("MIBDIRS", "")
        .output()
        .expect("net-snmp tool runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

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
    let with = |extra: &[&'static str], root: &'static str| -> Vec<String> {
        let mut args = vec!["-M".to_string(), ietf.clone(), "-m".into(), "ALL".into()];
        args.extend(["-v2c", "-c", "public"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        args.push(target.clone());
        args.push(root.to_string());
        args
    };
    let cases: [(&[&str], &str); 9] = [
        (&[], ".1"),
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
        let args = with(extra, root);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (theirs, _, their_code) = net_snmp(&walk, &args);
        let mut ours_args = vec!["walk"];
        ours_args.extend(&args);
        let (ours, err, code) = snmpc(&ours_args);
        assert_eq!((code, their_code), (0, 0), "walk {args:?}: {err}");
        assert!(names(&theirs).len() >= 2, "walk {args:?}: {theirs}");
        assert_eq!(names(&ours), names(&theirs), "walk {args:?}");
        compared += names(&ours).len();
        if root == ".1" {
            whole_view = ours;
        }
    }
    // snmptable's index column: the instance as the names show it.
    for (extra, root) in [
        (&["-Ci"][..], "vacmAccessTable"),
        (&["-Ci", "-OX"], "ipAddressTable"),
        (&["-Ci", "-Cb"], "usmUserTable"),
    ] {
        let args = with(extra, root);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (theirs, _, their_code) = net_snmp(&table, &args);
        let mut ours_args = vec!["table"];
        ours_args.extend(&args);
        let (ours, err, code) = snmpc(&ours_args);
        assert_eq!((code, their_code), (0, 0), "table {args:?}: {err}");
        assert_eq!(ours, theirs, "table {args:?}");
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
        let args = with(&[], "");
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.pop();
        args.push(name);
        let (theirs, their_err, their_code) = net_snmp(&get, &args);
        let mut ours_args = vec!["get"];
        ours_args.extend(&args);
        let (ours, err, code) = snmpc(&ours_args);
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
    for bad in [
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
        let args = with(&[], "");
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.pop();
        args.push(bad);
        let (_, their_err, their_code) = net_snmp(&get, &args);
        let mut ours_args = vec!["get"];
        ours_args.extend(&args);
        let (_, err, code) = snmpc(&ours_args);
        assert_eq!(
            (code, err.as_str()),
            (their_code, their_err.as_str()),
            "get {bad}"
        );
    }
    println!("{compared} names compared with snmpwalk's");
}
