//! Each `snmpc` command that asks an agent against the net-snmp tool it stands in for, on our
//! own snmpd on 127.0.0.1, with the same MIB modules (ours built in; net-snmp given mibs/ and
//! its SMIv2 modules, RFC1213-MIB left out as net-snmp's default MIB list leaves it out: both
//! define `ip`, which net-snmp then names from the last loaded): the whole output compared
//! line by line, under each `-O` option, names,
//! enumeration labels, DISPLAY-HINTs and UNITS included. Only what moves between the two
//! runs is left out: sysUpTime.0, hrSystemUptime.0, hrSystemDate.0 and the interface
//! counters of a walk of ifTable.

#[path = "support/run.rs"]
mod run;

use snmp_test_support::agent as support;

fn mibs() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mibs")
        .display()
        .to_string()
}

/// The modules of mibs/ net-snmp loads for the comparison.
const MODULES: &str =
    "SNMPv2-MIB:IF-MIB:IP-MIB:HOST-RESOURCES-MIB:SNMP-FRAMEWORK-MIB:SNMP-USER-BASED-SM-MIB";

/// snmpc's output with `args` (the command first), reading the MIB modules net-snmp's
/// tools read here ([`MODULES`] from mibs/, as [`net_snmp_all`] gives them).
fn snmpc(args: &[&str]) -> (String, String, i32) {
    let mibs = mibs();
    let mut all = args[..1].to_vec();
    all.extend(["-m", MODULES, "-M", &mibs]);
    all.extend(&args[1..]);
    run::snmpc(&all)
}

/// The output of net-snmp's `tool` with `args`, and its exit code.
fn net_snmp(tool: &std::path::Path, args: &[&str]) -> (String, i32) {
    let (out, _, code) = net_snmp_all(tool, args);
    (out, code)
}

/// [`net_snmp`] with its stderr too: the modules of [`MODULES`] from mibs/, 2 s timeouts
/// and one retry.
fn net_snmp_all(tool: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let mibs = mibs();
    let mut all = vec!["-m", MODULES, "-M", &mibs, "-t", "2", "-r", "1"];
    all.extend(args);
    run::net_snmp_tool(tool, &all)
}

/// net-snmp's `names` (snmpd and its tools), or `None` after skipping the test (a failure
/// under SNMP_REQUIRE_TOOLS).
fn net_snmp_tools<const N: usize>(names: [&str; N]) -> Option<[std::path::PathBuf; N]> {
    let found = names.map(support::tool);
    if found.iter().any(Option::is_none) {
        support::require_or_skip(
            "snmpd or net-snmp's tools not found (apt-get install -y snmpd snmp)",
        );
        return None;
    }
    Some(found.map(Option::unwrap_or_default))
}

/// Lines but those of values that move: sysUpTime.0 and interface counters.
fn steady(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            !(l.contains("sysUpTime.0")
                || l.contains("hrSystemUptime.0")
                || l.contains("hrSystemDate.0")
                || l.contains(".1.3.6.1.2.1.1.3.0")
                || l.contains("Octets.")
                || l.contains("Pkts.")
                || l.contains("Discards.")
                || l.contains("Errors."))
        })
        .map(str::to_string)
        .collect()
}

/// snmptable on `t`: layouts (-Cb brief names, -Cw parts, -Ci, -Cl, -Cf, -CH, -Ch, -Cc
/// fixed widths), requests (-CB GETNEXT, -Cr max-repetitions).
fn table_cases<'a>(
    table: &'a std::path::Path,
    t: &'a str,
) -> Vec<(&'static str, &'a std::path::Path, Vec<&'a str>)> {
    let sys_or_table = [
        vec![],
        vec!["-Cb"],
        vec!["-Ci"],
        vec!["-Cl", "-Ci"],
        vec!["-Cf", ","],
        vec!["-Ci", "-Cf", "|"],
        vec!["-Cw", "40"],
        vec!["-Cb", "-Ci", "-Cw", "60"],
        vec!["-CH"],
        vec!["-CH", "-Cw", "50"],
        vec!["-Cc", "12"],
        vec!["-Cc", "8", "-Cl", "-Cb"],
        vec!["-CB"],
        vec!["-Cr", "2"],
        vec!["-CB", "-Cr", "3", "-Cc", "20"],
        // snmptable prints quickly; -Oq and -OQ turn that over.
        vec!["-Oq"],
        vec!["-OQ", "-Cb"],
    ]
    .map(|opts| (opts, "sysORTable"));
    let others = [
        (vec![], "ipAddrTable"),
        (vec!["-Cb"], "ifStackTable"),
        (vec!["-Ci"], "ifStackTable"),
        (vec!["-Ch"], "ifTable"),
        (vec!["-Ch", "-Cb", "-Ci"], "ifTable"),
    ];
    sys_or_table
        .into_iter()
        .chain(others)
        .map(|(opts, name)| {
            let mut args = vec!["-v2c", "-c", "public"];
            args.extend(opts);
            args.extend([t, name]);
            ("table", table, args)
        })
        .collect()
}

#[test]
fn every_command_prints_what_net_snmps_tool_prints() {
    let Some([snmpd, get, getnext, bulkget, walk, bulkwalk, set, table]) = net_snmp_tools([
        "snmpd",
        "snmpget",
        "snmpgetnext",
        "snmpbulkget",
        "snmpwalk",
        "snmpbulkwalk",
        "snmpset",
        "snmptable",
    ]) else {
        return;
    };
    let agent = support::start_agent_with(
        &snmpd,
        "rwcommunity private 127.0.0.1\n\
         createUser ctxuser SHA \"ctxauthpass\" AES \"ctxprivpass\"\nrouser ctxuser priv\n",
    );
    let target = format!("127.0.0.1:{}", agent.port);
    let t = target.as_str();
    let scalars = [
        "sysDescr.0",
        "SNMPv2-MIB::sysObjectID.0",
        "sysContact.0",
        "sysServices.0",
    ];
    let cases: Vec<(&str, &std::path::Path, Vec<&str>)> = {
        let mut v: Vec<(&str, &std::path::Path, Vec<&str>)> = Vec::new();
        for o in [
            "", "-On", "-Oq", "-Ov", "-Os", "-Of", "-Ou", "-OQ", "-Oqv", "-Ot", "-Ih",
        ] {
            let mut args = vec!["-v2c", "-c", "public"];
            if !o.is_empty() {
                args.push(o);
            }
            args.push(t);
            args.extend(scalars);
            v.push(("get", get.as_path(), args));
        }
        v.push((
            "getnext",
            getnext.as_path(),
            vec!["-v2c", "-c", "public", t, "sysDescr", "sysContact.0"],
        ));
        v.push((
            "getnext",
            getnext.as_path(),
            vec!["-v1", "-c", "public", "-On", t, "1.3.6.1.2.1.1"],
        ));
        // -Oq and -OQ each turn quick printing over.
        for o in ["-OqQ", "-Oqq", "-OQ"] {
            v.push((
                "get",
                get.as_path(),
                vec!["-v2c", "-c", "public", o, t, "sysName.0", "ifAdminStatus.1"],
            ));
        }
        // A lone root, which BER writes as one subidentifier.
        v.push((
            "getnext",
            getnext.as_path(),
            vec!["-v2c", "-c", "public", t, ".1", "iso"],
        ));
        v.push((
            "bulkget",
            bulkget.as_path(),
            vec![
                "-v2c", "-c", "public", "-Cn1", "-Cr3", t, "sysDescr", "sysORID",
            ],
        ));
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v2c", "-c", "public", t, "system"],
        ));
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v1", "-c", "public", "-Oqs", t, "system"],
        ));
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v2c", "-c", "public", "-Cp", "-Cc", t, "sysORTable"],
        ));
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v2c", "-c", "public", "-Ci", t, "sysContact.0"],
        ));
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v2c", "-c", "public", "-On", t, "1.3.6.1.2.1.1.99"],
        ));
        v.push((
            "bulkwalk",
            bulkwalk.as_path(),
            vec!["-v2c", "-c", "public", "-Cr5", t, "system"],
        ));
        // Strings without a DISPLAY-HINT (snmpEngineID: seventeen octets, two lines of hex)
        // under each string option; TimeTicks under -Ot.
        for o in ["", "-Ox", "-Oa", "-OT", "-OqT", "-Oq", "-OQ", "-Ov"] {
            let mut args = vec!["-v2c", "-c", "public", "-Ot", "-On"];
            if !o.is_empty() {
                args.push(o);
            }
            args.extend([t, "snmpEngineID.0", "sysORLastChange.0", "sysORUpTime.1"]);
            v.push(("get", get.as_path(), args));
        }
        // Names as -Of prints them, and after a lone dot (snmpget looks those up anywhere).
        v.push((
            "get",
            get.as_path(),
            vec![
                "-v2c",
                "-c",
                "public",
                t,
                ".iso.org.dod.internet.mgmt.mib-2.system.sysContact.0",
                ".sysName.0",
                ".iso.org.6.internet.mgmt.1.2.2.1.2.1",
            ],
        ));
        // -Is SUFFIX / -IS PREFIX: written around every OID given (numeric ones too).
        v.push((
            "get",
            get.as_path(),
            vec![
                "-v2c",
                "-c",
                "public",
                "-Is",
                ".0",
                t,
                "sysDescr",
                "sysContact",
            ],
        ));
        v.push((
            "get",
            get.as_path(),
            vec![
                "-v2c",
                "-c",
                "public",
                "-IS",
                "SNMPv2-MIB::",
                t,
                "sysName.0",
            ],
        ));
        // The end of the agent's MIB view (the VACM tables are its last objects): the
        // endOfMibView binding snmpwalk prints, "End of MIB" under v1; empty strings (`""`).
        for version in ["-v2c", "-v1"] {
            v.push((
                "walk",
                walk.as_path(),
                vec![version, "-c", "public", "-On", "-Cp", t, ".1.3.6.1.6.3.16"],
            ));
        }
        v.push((
            "bulkwalk",
            bulkwalk.as_path(),
            vec!["-v2c", "-c", "public", "-On", t, ".1.3.6.1.6.3.16"],
        ));
        // Enumerations (ifType, ifAdminStatus), DISPLAY-HINTs (ifPhysAddress), each -O.
        for o in ["-Os", "-Oq", "-Oe", "-On", "-Of", "-Ih"] {
            v.push((
                "bulkwalk",
                bulkwalk.as_path(),
                vec!["-v2c", "-c", "public", o, t, "ifTable"],
            ));
        }
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v2c", "-c", "public", t, "hrSystem"],
        ));
        v.push((
            "walk",
            walk.as_path(),
            vec!["-v2c", "-c", "public", "-OU", t, "hrStorage"],
        ));
        v.extend(table_cases(&table, t));
        v
    };
    for (command, tool, args) in &cases {
        let mut with_command = vec![*command];
        with_command.extend(args);
        let (ours, err, code) = snmpc(&with_command);
        let (theirs, their_code) = net_snmp(tool, args);
        assert_eq!(code, their_code, "{command} {args:?}: {err}");
        assert!(
            !theirs.trim().is_empty(),
            "{command} {args:?}: net-snmp printed nothing"
        );
        assert_eq!(steady(&ours), steady(&theirs), "{command} {args:?}: {err}");
    }
    // A GETBULK of no OIDs: a request of no bindings, answered with none; nothing printed.
    let args = ["-v2c", "-c", "public", t];
    let (ours, err, code) = snmpc(&[&["bulkget"][..], &args].concat());
    let (theirs, their_err, their_code) = net_snmp_all(&bulkget, &args);
    assert_eq!((ours.as_str(), err.as_str(), code), ("", "", 0));
    assert_eq!(
        (theirs.as_str(), their_err.as_str(), their_code),
        ("", "", 0)
    );
    // More non-repeaters than OIDs: refused before anything is sent, exit 1, and the same
    // words (snmpbulkget puts its name first, snmpc its own).
    let args = ["-v2c", "-c", "public", "-Cn3", t, "sysDescr", "sysName"];
    let (ours, err, code) = snmpc(&[&["bulkget"][..], &args].concat());
    let (theirs, their_err, their_code) = net_snmp_all(&bulkget, &args);
    assert_eq!((theirs.as_str(), their_code), ("", 1), "{their_err}");
    assert_eq!((ours.as_str(), code), ("", 1), "{err}");
    assert_eq!(err, "snmpc: need more objects than <nonrep>\n");
    assert_eq!(
        err.split_once(": "),
        their_err.split_once(": ").map(|(_, e)| ("snmpc", e))
    );

    // OIDs that do not translate: each said (snmpbulkget: the first), in net-snmp's words;
    // dotted OIDs that are not plain numbers read as paths through the tree. stdout, stderr
    // and exit code, the same.
    let mut refused: Vec<(&str, &std::path::Path, Vec<&str>)> = Vec::new();
    for (tool, path) in [("get", &get), ("getnext", &getnext), ("bulkget", &bulkget)] {
        refused.push((
            tool,
            path.as_path(),
            vec![
                "-v2c",
                "-c",
                "public",
                t,
                "sysFoo.0",
                "sysName.0",
                "ifBar.1",
            ],
        ));
    }
    for dotted in [
        ".1.3.6.1.2.1.1.99.x.2",
        ".1.3.6.1.2.1.1.5.0.x",
        ".5.x",
        ".1.3.6.1.2.1.2.2.1.2.x",
        ".1.3.6.1.2.1.2.2.1.2.1.x",
        ".1.3.6.1.2.1.1.\"ab\"",
    ] {
        refused.push((
            "get",
            get.as_path(),
            vec!["-v2c", "-c", "public", t, dotted],
        ));
    }
    // GETBULK's max-repetitions 0 sent as given; a walk's GET of its root (-Ci, or when
    // nothing is under it) prints an exception, counted, and nothing for a v1 noSuchName.
    refused.push((
        "bulkget",
        bulkget.as_path(),
        vec![
            "-v2c", "-c", "public", "-Cn1", "-Cr0", t, "sysDescr", "sysORID",
        ],
    ));
    for (version, root) in [
        ("-v1", "1.3.6.1.2.1.1.99"),
        ("-v1", "sysDescr.0"),
        ("-v2c", "sysName"),
        ("-v2c", "1.3.6.1.2.1.1.99"),
    ] {
        refused.push((
            "walk",
            walk.as_path(),
            vec![version, "-c", "public", "-Ci", "-Cp", t, root],
        ));
    }
    for (command, tool, args) in &refused {
        let mut with_command = vec![*command];
        with_command.extend(args);
        assert_eq!(
            snmpc(&with_command),
            net_snmp_all(tool, args),
            "{command} {args:?}"
        );
    }

    // Arguments the tools cannot use: exit 1, as net-snmp's tools (their words differ: clap's
    // usage text against net-snmp's). GETBULK over SNMPv1 is refused, not turned into GETNEXT.
    let usage_errors: [(&str, &std::path::Path, Vec<&str>); 6] = [
        ("get", &get, vec![]),
        ("get", &get, vec!["-v9", "-c", "public", t, "sysDescr.0"]),
        (
            "get",
            &get,
            vec!["-Oz", "-v2c", "-c", "public", t, "sysDescr.0"],
        ),
        ("walk", &walk, vec!["-Cz", "-v2c", "-c", "public", t]),
        (
            "bulkwalk",
            &bulkwalk,
            vec!["-v1", "-c", "public", t, "system"],
        ),
        (
            "bulkget",
            &bulkget,
            vec!["-v1", "-c", "public", t, "sysDescr"],
        ),
    ];
    for (command, tool, args) in &usage_errors {
        let mut with_command = vec![*command];
        with_command.extend(args);
        let (out, err, code) = snmpc(&with_command);
        let (_, _, their_code) = net_snmp_all(tool, args);
        assert_eq!((code, their_code), (1, 1), "{command} {args:?}: {err}");
        assert!(out.is_empty() && !err.is_empty(), "{command} {args:?}");
    }

    context_engine(&get, t, agent.port);
    dumps_as_snmpget(&get, t);

    // --json: decode's fields plus the name and the value as -Oqv prints it.
    let (ours, err, code) = snmpc(&[
        "get",
        "--json",
        t,
        "sysLocation.0",
        "ifType.1",
        "sysServices.0",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = ours
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let (text, _) = net_snmp(
        &get,
        &[
            "-v2c",
            "-c",
            "public",
            "-Oqv",
            t,
            "sysLocation.0",
            "ifType.1",
        ],
    );
    let text: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0]["name"], "SNMPv2-MIB::sysLocation.0");
    assert_eq!(lines[0]["oid"], "1.3.6.1.2.1.1.6.0");
    assert_eq!(lines[0]["type"], "OCTET STRING");
    assert_eq!(lines[0]["text"], text[0]);
    assert_eq!(lines[1]["type"], "INTEGER");
    assert_eq!(lines[1]["text"], text[1]);
    assert_eq!(lines[2]["type"], "noSuchInstance");

    // set: the answer printed as snmpset prints it, and the value read back.
    let (ours, err, code) = snmpc(&[
        "set",
        "-v2c",
        "-c",
        "private",
        t,
        "sysName.0",
        "s",
        "set-by-snmpc",
    ]);
    assert_eq!(code, 0, "{err}");
    let (theirs, _) = net_snmp(
        &set,
        &["-v2c", "-c", "private", t, "sysName.0", "s", "set-by-snmpc"],
    );
    assert_eq!(ours, theirs);
    let (back, _) = net_snmp(&get, &["-v2c", "-c", "public", "-Oqv", t, "sysName.0"]);
    assert_eq!(back.trim(), "set-by-snmpc");
    // Values checked against the MIB before sending, as snmpset checks them: `=` typed by the
    // SYNTAX, enumeration labels, ranges, types that do not fit, values that do not parse,
    // missing values; what the agent then says. stdout, stderr and exit code, the same.
    for case in [
        &["sysName.0", "=", "typed-by-the-mib"][..],
        &["sysName.0", "i", "5"],
        &["sysName.0", "a", "192.0.2.1"],
        &["sysServices.0", "i", "200"],
        &["ifAdminStatus.1", "i", "bogus"],
        &["ifAdminStatus.1", "=", "up"],
        &["ifAdminStatus.1", "s", "up"],
        &["ifMtu.1", "u", "5"],
        &["ifInOctets.1", "i", "5"],
        &["sysName.0", "x", "zz"],
        &["sysName.0", "q", "5"],
        &["sysName.0", "F", "1.5"],
        &["sysName.0", "D", "abc"],
        &["sysName.0", "U", "-1"],
        &["sysName.0", "I", "x"],
        &["sysName.0", "s"],
        &["sysName.0"],
        // Every triple that cannot be used is said, after the shape of all of them is read:
        // a type by its first letter, Counter32 and Counter64 not settable.
        &[
            "sysFoo.0",
            "i",
            "1",
            "sysName.0",
            "s",
            "x",
            "sysBar.0",
            "i",
            "2",
        ],
        &["sysServices.0", "i", "x", "ifMtu.1", "i", "y"],
        &["sysFoo.0", "z", "1", "sysName.0", "i"],
        &["sysName.0", "string", "typed-by-its-first-letter"],
        &["ifInOctets.1", "c", "5"],
        &["sysName.0", "b", "1,x"],
        &["sysObjectID.0", "o", "sysFoo"],
        &["sysObjectID.0", "o", ".1.3.6.1.2.1.1.99.x.2"],
        // -Ir: neither type nor range checked; the agent's answer said.
        &["-Ir", "sysServices.0", "i", "200"],
        &["-Ir", "sysName.0", "i", "5"],
    ] {
        // Options before the agent: net-snmp's tools stop reading options at it.
        let (options, case) = case.split_at(case.iter().take_while(|a| a.starts_with('-')).count());
        let mut args = vec!["-v2c", "-c", "private"];
        args.extend(options);
        args.push(t);
        args.extend(case);
        let theirs = net_snmp_all(&set, &args);
        let mut with_command = vec!["set"];
        with_command.extend(&args);
        let ours = snmpc(&with_command);
        assert_eq!(ours, theirs, "set {case:?}");
    }
    let (ours, _, code) = snmpc(&[
        "set",
        "-v2c",
        "-c",
        "private",
        t,
        "sysName.0",
        "x",
        "61 62",
        "sysContact.0",
        "s",
        "ops",
    ]);
    // An error-status: exit 2, in snmpset's words, as snmpset does.
    assert_eq!(code, 2, "sysContact is set in snmpd.conf: not writable");
    assert!(ours.is_empty());
    let (_, err, code) = snmpc(&["set", "-v2c", "-c", "private", t, "sysDescr.0", "s", "x"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "Error in packet.\nReason: notWritable (That object does not support modification)\n\
         Failed object: SNMPv2-MIB::sysDescr.0\n\n"
    );
    let (_, err, code) = snmpc(&["set", t, "sysName.0", "s", "a", "sysContact.0"]);
    assert_eq!(code, 1);
    assert_eq!(err, "sysContact.0: Needs type and value\n");

    // A v1 noSuchName among three OIDs: said, then the other two asked again; under -Cf said
    // only. GET and GETNEXT, stdout, stderr and exit code as snmpget's and snmpgetnext's.
    for fix in [&[][..], &["-Cf"]] {
        for (command, tool, last) in [
            ("get", &get, "sysName.0"),
            ("getnext", &getnext, "1.3.6.1.9.9"),
        ] {
            let mut args = vec!["-v1", "-c", "public"];
            args.extend(fix);
            args.extend([t, "sysDescr.0", "1.3.6.1.2.1.1.99.0", last]);
            let theirs = net_snmp_all(tool, &args);
            let mut with_command = vec![command];
            with_command.extend(&args);
            assert_eq!(snmpc(&with_command), theirs, "{command} {args:?}");
        }
    }

    // A user the agent lets read only with privacy, asking without it: an authorizationError
    // whose error-index names no binding (0 for GET, GETNEXT and SET; snmpd keeps a GETBULK's
    // max-repetitions there). Each tool's words and exit code: snmpgetnext exits 0, the bulk
    // tools write an empty "Failed object:" line.
    let no_priv = [
        "-v3",
        "-l",
        "authNoPriv",
        "-u",
        "ctxuser",
        "-a",
        "SHA",
        "-A",
        "ctxauthpass",
    ];
    for (command, tool, asked) in [
        ("get", &get, &["sysDescr.0"][..]),
        ("getnext", &getnext, &["system"]),
        ("bulkget", &bulkget, &["system"]),
        ("walk", &walk, &["system"]),
        ("bulkwalk", &bulkwalk, &["system"]),
        ("table", &table, &["IF-MIB::ifTable"]),
        ("set", &set, &["sysName.0", "s", "x"]),
    ] {
        let mut args = no_priv.to_vec();
        args.push(t);
        args.extend(asked);
        let theirs = net_snmp_all(tool, &args);
        assert!(
            theirs.1.contains("authorizationError"),
            "{command}: {theirs:?}"
        );
        let mut with_command = vec![command];
        with_command.extend(&args);
        assert_eq!(snmpc(&with_command), theirs, "{command} {args:?}");
    }
}

/// `-E`: a v3 GET naming the agent's engine as the contextEngineID explicitly prints what
/// snmpget prints with the same `-E`; another engine's is refused by the agent as it is
/// refused to snmpget.
fn context_engine(get: &std::path::Path, t: &str, port: u16) {
    use snmp_client::usm::{AuthProtocol, PrivProtocol};
    let user = snmp_client::UsmUser::new(
        "ctxuser",
        Some((AuthProtocol::Sha1, b"ctxauthpass")),
        Some((PrivProtocol::Aes128, b"ctxprivpass")),
    )
    .unwrap();
    let mut s = snmp_client::Session::new(
        ([127, 0, 0, 1], port).into(),
        snmp_client::Credentials::Usm(user),
        snmp_client::Options::default(),
    )
    .unwrap();
    s.get(&["1.3.6.1.2.1.1.4.0".parse().unwrap()]).unwrap();
    let engine: String = s
        .engine()
        .expect("discovered")
        .id
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let v3 = [
        "-v3",
        "-u",
        "ctxuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "ctxauthpass",
        "-x",
        "AES",
        "-X",
        "ctxprivpass",
    ];
    for e in [engine.as_str(), "8000000001020304"] {
        let mut args = v3.to_vec();
        args.extend(["-E", e, t, "sysContact.0"]);
        let mut ours = vec!["get"];
        ours.extend(&args);
        let (out, err, code) = snmpc(&ours);
        let (theirs, their_code) = net_snmp(get, &args);
        assert_eq!(code == 0, their_code == 0, "-E {e}: {err}");
        if code == 0 {
            assert_eq!(out, theirs, "-E {e}");
            assert!(out.contains("sysContact.0 = STRING: nobody"), "{out}");
        }
    }
}

/// `-d`: every datagram dumped on stderr as snmpget dumps it: the same `Sending N bytes to
/// UDP: [...]:161->[0.0.0.0]:PORT` and `Received N byte packet from ...` lines (our messages
/// are as long as net-snmp's, v3 discovery included), each followed by its octets in
/// net-snmp's hex lines; stdout the same.
fn dumps_as_snmpget(get: &std::path::Path, t: &str) {
    let v3 = [
        "-v3",
        "-u",
        "ctxuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "ctxauthpass",
        "-x",
        "AES",
        "-X",
        "ctxprivpass",
    ];
    for version in [&["-v2c", "-c", "public"][..], &["-v1", "-c", "public"], &v3] {
        let mut args = vec!["-d"];
        args.extend(version);
        args.extend([t, "sysName.0", "sysDescr.0"]);
        let (theirs_out, theirs, _) = net_snmp_all(get, &args);
        let mut ours_args = vec!["get"];
        ours_args.extend(&args);
        let (ours_out, ours, code) = snmpc(&ours_args);
        assert_eq!(code, 0, "{ours}");
        assert_eq!(ours_out, theirs_out, "-d {version:?}");
        // Headers with the local port and the sizes left out, a packet's hex lines as one
        // entry: sizes move by an octet with the request-id, which each side draws at random
        // (one in 256 is three octets long), and with them the count of lines.
        let is_data =
            |l: &str| l.split_once(':').is_some_and(|(o, _)| o.len() == 4) && l.len() > 58;
        let shape = |dump: &str| -> Vec<String> {
            let mut lines: Vec<String> = dump
                .lines()
                .map(|l| match is_data(l) {
                    true => "hex lines".to_string(),
                    false => l
                        .rsplit_once("]:")
                        .map_or(l.to_string(), |(h, _)| h.to_string())
                        .split(' ')
                        .map(|w| match w.bytes().all(|b| b.is_ascii_digit()) {
                            true => "N",
                            false => w,
                        })
                        .collect::<Vec<_>>()
                        .join(" "),
                })
                .collect();
            lines.dedup();
            lines
        };
        // As net-snmp's: sixteen octets a hex line, but for a packet's last.
        let lines: Vec<&str> = ours.lines().collect();
        for pair in lines.windows(2) {
            if is_data(pair[0]) && is_data(pair[1]) {
                assert!(pair[0].len() - 58 >= 16, "{}", pair[0]);
            }
        }
        assert_eq!(shape(&ours), shape(&theirs), "-d {version:?}: {ours}");
        assert!(
            ours.contains("Sending ") && ours.contains("Received "),
            "{ours}"
        );
    }
}

/// Over TCP (`tcp:HOST:PORT`, RFC 3430): GET, a walk, a GETBULK walk, snmptable, SET, v3
/// authPriv and `-d`'s headers, the same output as net-snmp's tools asking the same agent over
/// TCP; a port nobody listens on said as they say it.
#[test]
fn over_tcp_as_net_snmps_tools() {
    let Some([snmpd, get, walk, bulkwalk, table, set]) = net_snmp_tools([
        "snmpd",
        "snmpget",
        "snmpwalk",
        "snmpbulkwalk",
        "snmptable",
        "snmpset",
    ]) else {
        return;
    };
    let agent = support::start_agent_with_tcp(
        &snmpd,
        "rwcommunity private 127.0.0.1\n\
         createUser tcpuser SHA \"tcpauthpass\" AES \"tcpprivpass\"\nrouser tcpuser priv\n",
    );
    // Up (over UDP, which is asked again until it answers) before TCP connects.
    let udp = format!("127.0.0.1:{}", agent.port);
    let (_, err, code) = snmpc(&["get", "-v2c", "-c", "public", &udp, "sysName.0"]);
    assert_eq!(code, 0, "{err}");
    let target = format!("tcp:127.0.0.1:{}", agent.tcp_port.expect("a TCP port"));
    let t = target.as_str();
    let v3 = [
        "-v3",
        "-u",
        "tcpuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "tcpauthpass",
        "-x",
        "AES",
        "-X",
        "tcpprivpass",
    ];
    let mut cases: Vec<(&str, &std::path::Path, Vec<&str>)> = vec![
        (
            "get",
            &get,
            vec!["-v2c", "-c", "public", t, "sysDescr.0", "sysName.0"],
        ),
        ("walk", &walk, vec!["-v2c", "-c", "public", t, "system"]),
        (
            "bulkwalk",
            &bulkwalk,
            vec!["-v2c", "-c", "public", t, "ifTable"],
        ),
        ("table", &table, vec!["-v2c", "-c", "public", t, "ifTable"]),
        (
            "set",
            &set,
            vec!["-v2c", "-c", "private", t, "sysName.0", "s", "over-tcp"],
        ),
    ];
    let mut secure: Vec<&str> = v3.to_vec();
    secure.extend([t, "system"]);
    cases.push(("walk", &walk, secure));
    for (command, tool, args) in &cases {
        let mut with_command = vec![*command];
        with_command.extend(args);
        let (ours, err, code) = snmpc(&with_command);
        let (theirs, their_code) = net_snmp(tool, args);
        assert_eq!((code, their_code), (0, 0), "{command} {args:?}: {err}");
        assert_eq!(steady(&ours), steady(&theirs), "{command} {args:?}");
    }
    // -d: the transport as net-snmp writes it for TCP.
    let (_, dump, code) = snmpc(&["get", "-d", "-v2c", "-c", "public", t, "sysName.0"]);
    assert_eq!(code, 0, "{dump}");
    let header = format!(
        "Sending 43 bytes to TCP: [127.0.0.1]:{}->[0.0.0.0]:0",
        &t[14..]
    );
    assert!(dump.contains(&header), "{dump}");
    // Nobody there: refused at once, in net-snmp's words (the tool's name aside).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let nobody = format!("tcp:{}", closed.local_addr().unwrap());
    drop(closed);
    let args = ["-v2c", "-c", "public", &nobody, "sysName.0"];
    let (_, theirs, their_code) = net_snmp_all(&get, &args);
    let mut with_command = vec!["get"];
    with_command.extend(args);
    let (_, ours, code) = snmpc(&with_command);
    assert_eq!((code, their_code), (1, 1));
    assert_eq!(
        ours.strip_prefix("snmpc: "),
        theirs.strip_prefix("snmpget: "),
        "{ours} / {theirs}"
    );
}

/// `set`'s values against their objects' definitions, as snmpset reads them: an `s` value
/// through its object's DISPLAY-HINT (`-Ih` not), an OCTET STRING's length against its
/// SIZE (`-Ir` not), refused in snmpset's words before anything is sent; what is sent for a
/// value a hint reads, octet for octet.
#[test]
fn set_values_are_read_and_checked_as_snmpset_does() {
    let Some([snmpd, set]) = net_snmp_tools(["snmpd", "snmpset"]) else {
        return;
    };
    let agent = support::start_agent_with(&snmpd, "rwcommunity private 127.0.0.1\n");
    let target = format!("127.0.0.1:{}", agent.port);
    let t = target.as_str();
    let long = "x".repeat(300);
    let long_hex = "41".repeat(300);
    let cases: Vec<Vec<&str>> = vec![
        vec!["sysName.0", "s", &long],
        vec!["sysName.0", "x", &long_hex],
        vec!["sysName.0", "=", &long],
        vec!["-Ir", "sysName.0", "s", &long],
        vec!["hrSystemDate.0", "s", "2024"],
        vec!["hrSystemDate.0", "x", "0102"],
        vec!["hrSystemDate.0", "d", "1.2"],
        vec!["-Ih", "hrSystemDate.0", "s", "2024-1-2,3:4:5.6"],
        vec!["hrSystemDate.0", "s", "2024-1-2,3:4:5.6"],
        vec!["SNMP-FRAMEWORK-MIB::snmpEngineID.0", "s", "ab"],
        vec!["sysDescr.0", "s", &long, "sysName.0", "s", &long],
        vec!["ifPhysAddress.1", "s", "00:11:22"],
    ];
    // The octets of the first datagram `-d` dumps.
    let sent = |dump: &str| -> Vec<u8> {
        dump.lines()
            .skip_while(|l| !l.starts_with("Sending"))
            .skip(1)
            .take_while(|l| l.split_once(':').is_some_and(|(o, _)| o.len() == 4))
            .flat_map(|l| {
                l[6..l.len().min(58)]
                    .split_whitespace()
                    .filter_map(|h| u8::from_str_radix(h, 16).ok())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    for case in cases {
        // Options first, as net-snmp's tools read them.
        let options = case.iter().take_while(|a| a.starts_with('-')).count();
        let mut args = case[..options].to_vec();
        args.extend(["-v2c", "-c", "private", t]);
        args.extend(&case[options..]);
        let theirs = net_snmp_all(&set, &args);
        let mut ours = vec!["set"];
        ours.extend(&args);
        assert_eq!(snmpc(&ours), theirs, "set {case:?}");
        // Sent: the same bindings, octet for octet (the request-ids differ, in value and so
        // at times in length: the messages are compared by their binding lists).
        if !theirs.1.contains("Value out of range") {
            args.insert(0, "-d");
            ours.insert(1, "-d");
            let (theirs, ours) = (sent(&net_snmp_all(&set, &args).1), sent(&snmpc(&ours).1));
            assert_eq!(bindings_sent(&ours), bindings_sent(&theirs), "{case:?}");
            assert!(!bindings_sent(&ours).is_empty(), "{case:?}");
        }
    }
}

/// The binding list's octets of a v2c message (empty when it does not decode as one).
fn bindings_sent(message: &[u8]) -> Vec<u8> {
    use snmp_ber::Decode;
    use snmp_messages::community_based_snmpv2::Message;
    use snmp_messages::snmpv2_pdu::Pdus;
    match Message::from_ber(message).map(|m| m.data) {
        Ok(Pdus::SetRequest(p)) => p.0.variable_bindings.0.encoded().unwrap_or(&[]).to_vec(),
        _ => Vec::new(),
    }
}

/// `-C`: each tool takes its own letters and refuses the others as it does (snmpbulkwalk has
/// no `-CI`, snmpwalk no `-Cr`); snmpwalk's `-CE END` walks past the root's subtree to END;
/// `-CT` puts each request's time before its line; snmpset's `-Cq` prints nothing.
#[test]
fn application_options_as_each_tool_takes_them() {
    let Some([snmpd, walk, bulkwalk, get, set]) =
        net_snmp_tools(["snmpd", "snmpwalk", "snmpbulkwalk", "snmpget", "snmpset"])
    else {
        return;
    };
    let agent = support::start_agent_with(&snmpd, "rwcommunity private 127.0.0.1\n");
    let target = format!("127.0.0.1:{}", agent.port);
    let t = target.as_str();
    let v2c = ["-v2c", "-c", "public"];
    let cases: Vec<(&str, &std::path::Path, Vec<&str>)> = vec![
        ("walk", &walk, vec!["-CE", "sysORTable", t, "sysName"]),
        ("walk", &walk, vec!["-CE", "sysDescr", t, "system"]),
        (
            "walk",
            &walk,
            vec!["-CE", "sysContact", "-Ci", t, "sysName.0"],
        ),
        ("walk", &walk, vec!["-Cr5", t, "system"]),
        ("walk", &walk, vec!["-Cn1", t, "system"]),
        ("bulkwalk", &bulkwalk, vec!["-CI", t, "system"]),
        ("bulkwalk", &bulkwalk, vec!["-Ct", t, "system"]),
        (
            "bulkwalk",
            &bulkwalk,
            vec!["-Cn0", "-Cr3", "-Cp", t, "system"],
        ),
        ("get", &get, vec!["-Cr5", t, "sysName.0"]),
        // An option given twice: the last one wins, as getopt leaves it in net-snmp's tools
        // (the first community is refused, SNMPv1 has no GETBULK, -Cr1 would ask one row a
        // request); after the agent too.
        (
            "get",
            &get,
            vec!["-c", "nobody", t, "-c", "public", "sysName.0"],
        ),
        (
            "bulkwalk",
            &bulkwalk,
            vec![
                "-v1", "-v2c", "-Cr1", "-Cr3", "-r", "0", "-r", "1", t, "system",
            ],
        ),
        (
            "walk",
            &walk,
            vec![
                "-On",
                "-Os",
                t,
                "-CE",
                "sysName",
                "-CE",
                "sysORTable",
                "system",
            ],
        ),
        // net-snmp's other common options: -P (MIB parsing), -L with its priority apart or
        // joined (not -LF or -LS: net-snmp's own log file or syslog).
        ("get", &get, vec!["-Pu", "-PewR", t, "sysName.0"]),
        (
            "bulkwalk",
            &bulkwalk,
            vec!["-LE", "3", "-LN", "2-5", t, "system"],
        ),
        ("walk", &walk, vec!["-LE3", "-LO", "7", t, "sysName"]),
    ];
    for (command, tool, rest) in cases {
        let mut args = v2c.to_vec();
        args.extend(&rest);
        let theirs = net_snmp_all(tool, &args);
        let mut ours = vec![command];
        ours.extend(&args);
        let ours = snmpc(&ours);
        assert_eq!(
            (steady(&ours.0), &ours.1, ours.2),
            (steady(&theirs.0), &theirs.1, theirs.2),
            "{command} {rest:?}"
        );
    }
    // snmp.conf lines on the command line, -Y "TOKEN VALUE", -Y TOKEN=VALUE and
    // --TOKEN=VALUE, alone giving the version and the community; a flag over them.
    for args in [
        vec![
            "-Y",
            "defVersion 2c",
            "-Y",
            "defCommunity=public",
            t,
            "sysName.0",
        ],
        vec!["--defVersion=2c", "--defCommunity=public", t, "sysName.0"],
        vec![
            "-v2c",
            "--defCommunity=nobody",
            "-c",
            "public",
            t,
            "sysName.0",
        ],
    ] {
        let theirs = net_snmp_all(&get, &args);
        let ours = snmpc(&[&["get"][..], &args].concat());
        assert_eq!(ours, theirs, "{args:?}");
        assert_eq!(theirs.2, 0, "{args:?}: {}", theirs.1);
    }
    // -P with a letter net-snmp does not know: refused in its words, exit 1.
    let args = ["-v2c", "-c", "public", "-Px", t, "sysName.0"];
    let (_, their_err, their_code) = net_snmp_all(&get, &args);
    let (_, err, code) = snmpc(&[&["get"][..], &args].concat());
    assert_eq!((code, their_code), (1, 1));
    assert_eq!(err.lines().next(), their_err.lines().next());
    // -CT: the same lines, each after a time in seconds.
    let timed = |out: &str| -> Vec<String> {
        out.lines()
            .map(|l| {
                let (time, line) = l.split_once(" s: ").expect("a time first");
                assert!(time.parse::<f64>().is_ok_and(|s| s >= 0.0), "{l}");
                assert_eq!(time.split_once('.').map(|(_, f)| f.len()), Some(6), "{l}");
                line.to_string()
            })
            .collect()
    };
    let mut args = v2c.to_vec();
    args.extend(["-CT", t, "sysORID"]);
    let (theirs, _, code) = net_snmp_all(&walk, &args);
    let mut ours = vec!["walk"];
    ours.extend(&args);
    let (out, err, ours_code) = snmpc(&ours);
    assert_eq!((ours_code, code), (0, 0), "{err}");
    assert_eq!(timed(&out), timed(&theirs));
    // -Cq: set, nothing printed.
    let args = ["-v2c", "-c", "private", "-Cq", t, "sysName.0", "s", "quiet"];
    let theirs = net_snmp_all(&set, &args);
    let mut ours = vec!["set"];
    ours.extend(args);
    assert_eq!(snmpc(&ours), theirs);
    assert_eq!(theirs, (String::new(), String::new(), 0));
}

/// snmpc run under a net-snmp tool's name (a link named `snmpget`, as a user makes one to
/// put snmpc in a script's way) is that tool: the same output as the tool's for the same
/// arguments.
#[test]
fn run_under_a_tools_name_it_is_that_tool() {
    let Some([snmpd, get, walk, table, translate, bulkget]) = net_snmp_tools([
        "snmpd",
        "snmpget",
        "snmpwalk",
        "snmptable",
        "snmptranslate",
        "snmpbulkget",
    ]) else {
        return;
    };
    let agent = support::start_agent(&snmpd);
    let target = format!("127.0.0.1:{}", agent.port);
    let t = target.as_str();
    let links = tempfile::tempdir().unwrap();
    let mibs = mibs();
    let common = ["-m", MODULES, "-M", &mibs];
    for (tool, rest) in [
        (
            &get,
            vec!["-v2c", "-c", "public", t, "sysName.0", "ifDescr.1"],
        ),
        (&walk, vec!["-v2c", "-c", "public", "-On", t, "sysORID"]),
        (&table, vec!["-v2c", "-c", "public", "-Cb", t, "sysORTable"]),
        (&translate, vec!["-IR", "-On", "ifInOctets"]),
        // No agent, too many non-repeaters: said as the tool says it, under its name.
        (&get, vec!["-v2c", "-c", "public"]),
        (&bulkget, vec!["-v2c", "-c", "public", "-Cn2", t, "sysName"]),
    ] {
        let name = tool.file_name().expect("a tool's name");
        let link = links.path().join(name);
        if !link.exists() {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_snmpc"), &link).unwrap();
        }
        let mut args = common.to_vec();
        args.extend(&rest);
        let theirs = run::net_snmp_tool(tool, &args);
        let ours = run::net_snmp_tool(&link, &args);
        assert_eq!(
            (steady(&ours.0), ours.2),
            (steady(&theirs.0), theirs.2),
            "{name:?} {rest:?}: {}",
            ours.1
        );
        assert_eq!(
            ours.1.lines().next(),
            theirs.1.lines().next(),
            "{name:?} {rest:?}"
        );
    }
}
