//! `snmpc get` and `snmpc walk` against our own snmpd on 127.0.0.1, over v1, v2c and v3: the
//! same OIDs as net-snmp's snmpwalk, the configured value, errors said with an exit code.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use snmp_test_support::agent as support;

#[test]
fn get_and_walk_like_net_snmps_tools() {
    let (Some(snmpd), Some(snmpwalk)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(
        &snmpd,
        "createUser aesuser SHA \"aesauthpass\" AES \"aesprivpass\"\nrouser aesuser priv\n",
    );
    let target = format!("127.0.0.1:{}", agent.port);
    let theirs: Vec<String> = support::snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.1")
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(theirs.len() > 10);
    let v3 = [
        "-v",
        "3",
        "-u",
        "aesuser",
        "-a",
        "SHA",
        "-A",
        "aesauthpass",
        "-x",
        "AES",
        "-X",
        "aesprivpass",
    ];
    let versions: [&[&str]; 3] = [&["-v", "1"], &["-v", "2c"], &v3];
    for flags in versions {
        let mut args = vec!["walk", "-On"];
        args.extend_from_slice(flags);
        args.extend([target.as_str(), ".1.3.6.1.2.1.1"]);
        let (out, err, code) = snmpc(&args);
        assert_eq!(code, 0, "{flags:?}: {err}");
        let ours: Vec<String> = out
            .lines()
            .filter_map(|l| l.split(" = ").next())
            .map(str::to_string)
            .collect();
        assert_eq!(ours, theirs, "{flags:?}");
        let mut args = vec!["get", "-On"];
        args.extend_from_slice(flags);
        args.extend([target.as_str(), "1.3.6.1.2.1.1.6.0", "1.3.6.1.2.1.1.3.0"]);
        let (out, err, code) = snmpc(&args);
        assert_eq!(code, 0, "{flags:?}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        // sysLocation is a DisplayString: printed by its DISPLAY-HINT, unquoted, as
        // net-snmp prints it.
        assert_eq!(
            lines[0], ".1.3.6.1.2.1.1.6.0 = STRING: interop-test",
            "{flags:?}"
        );
        assert!(
            lines[1].starts_with(".1.3.6.1.2.1.1.3.0 = Timeticks: ("),
            "{flags:?}"
        );
    }
    // Errors: the agent's, a wrong password's, a bad OID's.
    // In snmpget's words, exit 2 as snmpget's; of several OIDs, the rest are asked again.
    let (out, err, code) = snmpc(&["get", "-v", "1", &target, "1.3.6.1.2.1.1.99.0"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    let said = "Error in packet\n\
        Reason: (noSuchName) There is no such variable name in this MIB.\n\
        Failed object: SNMPv2-MIB::system.99.0\n\n";
    assert_eq!(err, said);
    let (out, err, code) = snmpc(&[
        "get",
        "-v",
        "1",
        "-On",
        &target,
        "1.3.6.1.2.1.1.99.0",
        "1.3.6.1.2.1.1.6.0",
    ]);
    assert_eq!(code, 2);
    assert_eq!(out, ".1.3.6.1.2.1.1.6.0 = STRING: interop-test\n");
    assert!(
        err.contains("Failed object: .1.3.6.1.2.1.1.99.0\n"),
        "{err}"
    );
    let (_, err, code) = snmpc(&[
        "get",
        "-v",
        "3",
        "-u",
        "aesuser",
        "-a",
        "SHA",
        "-A",
        "wrongpassword",
        &target,
        "1.3.6.1.2.1.1.6.0",
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "snmpc: Authentication failure (incorrect password, community or key)\n"
    );
    // An OID that does not parse: net-snmp's words (with its MIBs loaded) and exit code.
    let (_, err, code) = snmpc(&["get", &target, "1.3.x"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "1.3.x: Unknown Object Identifier (Sub-id not found: org -> x)\n"
    );
}

/// `snmpwalk .1` (a root of one arc) over the whole MIB: the same first bindings as
/// snmpwalk's, and the same last line: the endOfMibView binding snmpwalk prints (v2c, by
/// GETNEXT and by GETBULK), or "End of MIB" (v1). (The MIB in between differs by the walkers'
/// own UDP sockets.)
#[test]
fn a_walk_of_the_whole_mib_starts_and_ends_as_snmpwalks() {
    let (Some(snmpd), Some(_)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, "");
    let target = format!("127.0.0.1:{}", agent.port);
    let cases = [
        ("snmpwalk", "walk", "2c"),
        ("snmpbulkwalk", "bulkwalk", "2c"),
        ("snmpwalk", "walk", "1"),
    ];
    for (tool, command, version) in cases {
        let Some(tool_path) = support::tool(tool) else {
            support::require_or_skip(&format!("{tool} not found (apt-get install -y snmp)"));
            return;
        };
        let theirs = std::process::Command::new(tool_path)
            .args(["-v", version, "-c", "public", "-On", "-m", ""])
            .args([target.as_str(), ".1"])
            .env("MIBS", "")
            .output()
            .expect("net-snmp's walk runs");
        let theirs = String::from_utf8_lossy(&theirs.stdout).into_owned();
        let (ours, err, code) = snmpc(&[command, "-v", version, "-On", &target, ".1"]);
        assert_eq!(code, 0, "{command} -v {version}: {err}");
        let oids = |text: &str| -> Vec<String> {
            let names = text.lines().filter_map(|l| l.split(" = ").next());
            names.take(40).map(str::to_string).collect()
        };
        assert_eq!(oids(&ours), oids(&theirs), "{command} -v {version}");
        assert!(oids(&ours)[0].starts_with(".1.3.6.1.2.1.1.1.0"), "{ours}");
        let last = |text: &str| text.lines().last().map(str::to_string);
        assert_eq!(last(&ours), last(&theirs), "{command} -v {version}");
        let end = if version == "1" {
            "End of MIB"
        } else {
            "(It is past the end of the MIB tree)"
        };
        assert!(last(&ours).unwrap_or_default().ends_with(end), "{ours}");
    }
    // A first arc above 2 is no OID at all.
    let (_, err, code) = snmpc(&["walk", &target, ".3"]);
    assert_eq!(code, 1);
    assert!(err.contains("first arc must be 0, 1 or 2"), "{err}");
}

#[test]
fn a_silent_agent_is_a_timeout_not_a_hang() {
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let target = silent.local_addr().unwrap().to_string();
    let (_, err, code) = snmpc(&["get", "-t", "0.1", "-r", "1", &target, "1.3.6.1.2.1.1.1.0"]);
    assert_eq!(code, 1);
    assert_eq!(err, format!("Timeout: No Response from {target}.\n"));
}

/// `-V` prints the version, as net-snmp's tools' `-V` does, whatever else is given; a host
/// that does not resolve, or a port that is no port, is an unknown host in their words.
#[test]
fn version_and_unknown_hosts_as_net_snmps_tools_say_them() {
    for args in [
        &["get", "-V"][..],
        &["walk", "-v2c", "--version", "127.0.0.1"],
    ] {
        let (out, err, code) = snmpc(args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        assert_eq!(
            out,
            format!(
                "snmpc (snmp-codegen) version: {}\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
    let (_, err, code) = snmpc(&[
        "get",
        "-t",
        "0.1",
        "nosuchhost.invalid",
        "1.3.6.1.2.1.1.1.0",
    ]);
    assert_eq!(code, 1);
    assert_eq!(err, "snmpc: Unknown host (nosuchhost.invalid)\n");
    let (_, err, code) = snmpc(&["get", "127.0.0.1:99999", "1.3.6.1.2.1.1.1.0"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("snmpc: Unknown host (127.0.0.1:99999) ("),
        "{err}"
    );
}

#[test]
fn names_in_and_out_like_net_snmps_tools() {
    let (Some(snmpd), Some(snmpwalk)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent(&snmpd);
    let target = format!("127.0.0.1:{}", agent.port);
    // Names in, from the built-in modules (no -M, they are the path's last directory): a
    // bare descriptor and MODULE::name.
    let (out, err, code) = snmpc(&[
        "get",
        "-m",
        "SNMPv2-MIB:IF-MIB",
        &target,
        "sysLocation.0",
        "SNMPv2-MIB::sysContact.0",
        "IF-MIB::ifNumber.0",
    ]);
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = out.lines().filter_map(|l| l.split(" = ").next()).collect();
    assert_eq!(
        names,
        [
            "SNMPv2-MIB::sysLocation.0",
            "SNMPv2-MIB::sysContact.0",
            "IF-MIB::ifNumber.0"
        ]
    );
    assert!(out.contains("STRING: interop-test"), "{out}");
    // Names out, as net-snmp's snmpwalk names them from the same modules.
    let (out, err, code) = snmpc(&["walk", "-m", "SNMPv2-MIB:IF-MIB", &target, "system"]);
    assert_eq!(code, 0, "{err}");
    let ours: Vec<&str> = out.lines().filter_map(|l| l.split(" = ").next()).collect();
    let mibs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    let theirs = std::process::Command::new(snmpwalk)
        .args(["-v2c", "-c", "public", "-m", "SNMPv2-MIB:IF-MIB", "-M"])
        .arg(&mibs)
        .arg(&target)
        .arg("SNMPv2-MIB::system")
        .output()
        .unwrap();
    let theirs = String::from_utf8_lossy(&theirs.stdout);
    let theirs: Vec<&str> = theirs
        .lines()
        .filter_map(|l| l.split(" = ").next())
        .collect();
    assert!(ours.len() > 10, "{out}");
    assert_eq!(ours, theirs);
    // An empty subtree: the root's own value, as snmpwalk prints it.
    let (out, _, code) = snmpc(&["walk", "-On", &target, "1.3.6.1.2.1.1.99"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        ".1.3.6.1.2.1.1.99 = No Such Object available on this agent at this OID"
    );
    // An unknown name, a bad instance: net-snmp's words, exit 1.
    let (_, err, code) = snmpc(&["get", &target, "noSuchThing.0"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "noSuchThing.0: Unknown Object Identifier (Sub-id not found: (top) -> noSuchThing)\n"
    );
    let (_, err, code) = snmpc(&["get", &target, "ifDescr.x", "sysDescr.0"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "ifDescr.x: Unknown Object Identifier (Index out of range: x (ifIndex))\n"
    );
}

#[test]
fn a_context_goes_in_the_scoped_pdu() {
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    let agent = support::start_agent_with(
        &snmpd,
        "createUser ctxuser SHA \"ctxauthpass\" AES \"ctxprivpass\"\nrouser ctxuser priv\n",
    );
    let target = format!("127.0.0.1:{}", agent.port);
    let get = |context: &str| {
        snmpc(&[
            "get",
            "-v",
            "3",
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
            "-n",
            context,
            &target,
            "sysLocation.0",
        ])
    };
    // The default context by name: the agent's values.
    let (out, err, code) = get("");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("interop-test"), "{out}");
    // A context net-snmp's agent does not have: it drops the request (snmpget times out
    // too), which shows the name went in the request.
    let (out, err, code) = get("no-such-context");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.starts_with("Timeout: No Response from "), "{err}");
    let (_, err, code) = snmpc(&["get", "-v", "2c", "-n", "x", &target, "sysLocation.0"]);
    assert_eq!(code, 1);
    assert!(err.contains("-n (a context) applies to SNMPv3"), "{err}");
}

/// The defaults of snmp.conf (from `SNMPCONFPATH`), as net-snmp's tools take them: a v3 user
/// and its keys there, a GET with none on the command line; a flag over the file's value.
#[test]
fn defaults_from_snmp_conf() {
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    let agent = support::start_agent_with(
        &snmpd,
        "createUser aesuser SHA \"aesauthpass\" AES \"aesprivpass\"\nrouser aesuser priv\n",
    );
    let target = format!("127.0.0.1:{}", agent.port);
    let dir = tempfile::tempdir().unwrap();
    let run = |conf: &str, args: &[&str]| {
        std::fs::write(dir.path().join("snmp.conf"), conf).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_snmpc"))
            .args(args)
            .env("SNMPCONFPATH", dir.path())
            .env("SNMP_PERSISTENT_DIR", run::persistent_dir())
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let v3 = "defVersion 3\ndefSecurityName aesuser\ndefSecurityLevel authPriv\n\
              defAuthType SHA\ndefAuthPassphrase aesauthpass\n\
              defPrivType AES\ndefPrivPassphrase aesprivpass\ntimeout 2\nretries 1\n";
    let (out, err, code) = run(v3, &["get", "-Oqv", &target, "sysLocation.0"]);
    assert_eq!((code, out.as_str()), (Some(0), "interop-test\n"), "{err}");
    // v3 it was: a wrong key in the file is the agent's Report.
    let wrong = v3.replace(
        "defAuthPassphrase aesauthpass",
        "defAuthPassphrase wrongpassword",
    );
    let (_, err, code) = run(&wrong, &["get", &target, "sysLocation.0"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("Authentication failure"), "{err}");
    // The command line over the file.
    let (out, err, code) = run(
        &wrong,
        &["get", "-v", "2c", "-Oqv", &target, "sysLocation.0"],
    );
    assert_eq!((code, out.as_str()), (Some(0), "interop-test\n"), "{err}");
}

/// A command line that lacks the agent, the OIDs, the table or the trap's parameters: the
/// first line net-snmp's tool prints (what is missing) and its USAGE line, then exit 1, as
/// net-snmp's tool does; nothing on standard output.
#[test]
fn missing_arguments_said_as_net_snmps_tools_say_them() {
    let cases: [&[&str]; 10] = [
        &["get", "-v2c", "-c", "public"],
        &["getnext", "-v2c", "-c", "public", "127.0.0.1:1"],
        &["bulkget", "-v2c", "-c", "public"],
        &["walk", "-v2c", "-c", "public"],
        &["bulkwalk", "-v1"],
        &["set", "-v2c", "-c", "public", "127.0.0.1:1"],
        &["table", "-v2c", "-c", "public", "127.0.0.1:1"],
        &["table", "-v2c", "-c", "public"],
        &["status", "-v2c", "-c", "public"],
        &["trap", "-v2c", "-c", "public", "127.0.0.1:1"],
    ];
    for args in cases {
        if !refused_as_net_snmp_refuses(args) {
            return;
        }
    }
}

/// An option another one needs is not an argument net-snmp's tools miss: `-a` without its
/// password (`-A`), `-x` without `-X`, are named, not said as a missing object name.
#[test]
fn a_protocol_without_its_password_is_named() {
    for (flag, needed) in [("-a", "--auth-password"), ("-x", "--priv-password")] {
        let proto = if flag == "-a" { "SHA" } else { "AES" };
        let args = [
            "get",
            "-v3",
            "-u",
            "u",
            flag,
            proto,
            "127.0.0.1:1",
            "sysName.0",
        ];
        let (out, err, code) = snmpc(&args);
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains(needed), "{args:?}: {err}");
        assert!(!err.contains("Missing object name"), "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
    }
}

/// `snmpc` with `args` (the command first) and net-snmp's tool of that command with the rest:
/// both print nothing on stdout and exit 1, and the first two lines of stderr (what is wrong,
/// and the USAGE line where the tool prints one) are the same. False, after skipping the test
/// (a failure under SNMP_REQUIRE_TOOLS), when the tool is not there.
fn refused_as_net_snmp_refuses(args: &[&str]) -> bool {
    let Some(tool) = support::tool(&format!("snmp{}", args[0])) else {
        support::require_or_skip("net-snmp's tools not found (apt-get install -y snmp)");
        return false;
    };
    let (their_out, their_err, their_code) = run::net_snmp_tool(&tool, &args[1..]);
    let (out, err, code) = snmpc(args);
    let first_two = |e: &str| e.lines().take(2).collect::<Vec<_>>().join("\n");
    assert!(!err.is_empty(), "{args:?}");
    assert_eq!(first_two(&err), first_two(&their_err), "{args:?}");
    assert_eq!((code, their_code), (1, 1), "{args:?}");
    assert_eq!((out.as_str(), their_out.as_str()), ("", ""), "{args:?}");
    true
}

/// Option values and letters net-snmp's tools do not take (`-v 4`, `-t 0`, `-r x`, `-Ow`,
/// `-Iz`, `-l bogus`, `-a MD6`, `-x DES3`, `-Cz`): said in their words, with their USAGE line
/// where they print it, exit 1; `-v 2C` taken as they take it. No agent is asked.
#[test]
fn option_values_refused_as_net_snmps_tools_refuse_them() {
    let t = "127.0.0.1:1";
    let oid = ".1.3.6.1.2.1.1.5.0";
    let v3 = ["get", "-v3", "-u", "x", "-l", "authPriv"];
    let cases: Vec<Vec<&str>> = vec![
        vec!["get", "-v", "4", "-c", "public", t, oid],
        vec!["get", "-v2c", "-c", "public", "-t", "0", t, oid],
        vec!["get", "-v2c", "-c", "public", "-t", "abc", t, oid],
        vec!["getnext", "-v2c", "-c", "public", "-r", "x", t, oid],
        vec!["get", "-v2c", "-c", "public", "-r", "-1", t, oid],
        vec!["get", "-v2c", "-c", "public", "-Ow", t, oid],
        vec!["walk", "-v2c", "-c", "public", "-Iz", t, oid],
        vec!["get", "-v3", "-u", "x", "-l", "bogus", t, oid],
        [&v3[..], &["-a", "MD6", "-A", "abcdefgh", t, oid]].concat(),
        [
            &v3[..],
            &[
                "-a", "SHA", "-A", "abcdefgh", "-x", "DES3", "-X", "abcdefgh", t, oid,
            ],
        ]
        .concat(),
        vec!["walk", "-v2c", "-c", "public", "-Cz", t, oid],
        vec!["bulkget", "-v2c", "-c", "public", "-Cz", t, oid],
        vec!["table", "-v2c", "-c", "public", "-Cz", t, oid],
    ];
    for args in &cases {
        if !refused_as_net_snmp_refuses(args) {
            return;
        }
    }
    // `2C` is 2c: the request goes out (and times out: nothing answers there).
    let (_, err, code) = snmpc(&[
        "get", "-v", "2C", "-c", "public", "-t", "0.2", "-r", "0", t, oid,
    ]);
    assert_eq!(
        (code, err.as_str()),
        (1, "Timeout: No Response from 127.0.0.1:1.\n")
    );
}
