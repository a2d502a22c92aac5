//! The example served standalone (`enterprise-agent --listen`), checked with net-snmp's
//! tools: reads, SET error-statuses, RowStatus, SNMPv1 and SNMPv3 with a configuration of
//! snmpd.conf lines.

mod common;

use common::*;

#[test]
fn net_snmp_tools_against_the_standalone_agent() {
    let Some(tools) = Tools::find() else { return };
    let (_agent, target, _dir) = standalone(&tools, &[]);
    check_mib(&tools, &target);
    // What no handler serves is notWritable (RFC 3416 4.2.5 step 2).
    let outside = set_error(
        &tools,
        "-v2c",
        "private",
        &target,
        &[".1.3.6.1.4.1.8072.9999.8.0", "i", "1"],
    );
    assert_eq!(outside.as_deref(), Some("notWritable"));
}

#[test]
fn snmpv3_users_and_views_from_a_configuration() {
    let Some(tools) = Tools::find() else { return };
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("agent.conf");
    std::fs::write(
        &conf,
        "createUser admin SHA-256 adminauthpass AES adminprivpass\n\
         createUser reader SHA readerauthpass\n\
         view jobs included .1.3.6.1.4.1.8072.9999.7.1.4\n\
         rwuser admin priv\n\
         rouser reader auth -V jobs\n\
         rocommunity public default -V jobs\n",
    )
    .unwrap();
    let (_agent, target, _log) = standalone(&tools, &["--config", conf.to_str().unwrap()]);
    let admin: Vec<&str> =
        "-v3 -u admin -l authPriv -a SHA-256 -A adminauthpass -x AES -X adminprivpass"
            .split(' ')
            .collect();
    let reader: Vec<&str> = "-v3 -u reader -l authNoPriv -a SHA -A readerauthpass"
        .split(' ')
        .collect();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let desc = format!("{P}.2.0");
    let mut got = run(&tools.snmpget, &[&admin[..], &[&target, &desc]].concat());
    while !got.out.contains("STRING") && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        got = run(&tools.snmpget, &[&admin[..], &[&target, &desc]].concat());
    }
    assert!(got.out.contains("\"example\""), "{}{}", got.out, got.err);
    let set = run(
        &tools.snmpset,
        &[&admin[..], &[&target, &desc, "s", "v3 was here"]].concat(),
    );
    assert!(set.ok, "{}", set.err);
    // The reader sees the table only, and writes nothing.
    let walk = run(
        &tools.snmpwalk,
        &[&reader[..], &[&target, ".1.3.6.1.4.1.8072.9999.7"]].concat(),
    );
    assert_eq!(values(&walk.out).len(), 15, "{}{}", walk.out, walk.err);
    assert!(
        values(&walk.out)
            .iter()
            .all(|l| l.starts_with(&format!("{P}.4.1."))),
        "{}",
        walk.out
    );
    let hidden = run(&tools.snmpget, &[&reader[..], &[&target, &desc]].concat());
    assert!(hidden.out.contains("No Such Object"), "{}", hidden.out);
    let refused = run(
        &tools.snmpset,
        &[&reader[..], &[&target, &format!("{P}.4.1.3.1"), "i", "3"]].concat(),
    );
    assert!(refused.err.contains("noAccess"), "{}", refused.err);
    // A wrong password is a Report, no answer.
    let wrong: Vec<&str> = "-v3 -u reader -l authNoPriv -a SHA -A not-the-password"
        .split(' ')
        .collect();
    let r = run(&tools.snmpget, &[&wrong[..], &[&target, &desc]].concat());
    assert!(
        !r.ok && r.err.contains("Authentication failure"),
        "{}",
        r.err
    );
    // The community sees the view it was given.
    let public = run(
        &tools.snmpget,
        &[
            "-v2c",
            "-c",
            "public",
            &target,
            &desc,
            &format!("{P}.4.1.2.1"),
        ],
    );
    assert!(
        public.out.contains(&format!("{desc} = No Such Object")),
        "{}",
        public.out
    );
    assert!(public.out.contains("\"job-1\""), "{}", public.out);
}
