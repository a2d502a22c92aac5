//! Debian's snmp_exporter (0.21) and ours on the same snmpd and the same modules (handed to
//! it in its own format): the expositions compared sample by sample. Needs snmpd and
//! prometheus-snmp-exporter (skipped without them, a failure under SNMP_REQUIRE_TOOLS=1).

mod common;

use common::*;

/// Samples whose values move between two scrapes: compared by name and labels only.
fn moving(name: &str, meta: &std::collections::BTreeMap<String, (String, String)>) -> bool {
    let counter = meta.get(name).is_some_and(|(_, t)| t == "counter");
    // The scrape's own gauges: times, and packets (a retransmission to an agent still
    // starting up is one more).
    counter || name == "sysUpTime" || name.starts_with("snmp_scrape_")
}

/// What 0.21 renders differently from 0.30 by design of upstream's later versions: the
/// `module` label on the scrape's own gauges (added in 0.24).
fn key_as_0_21(key: &Key) -> Key {
    let (name, _) = key;
    if name.starts_with("snmp_scrape_") {
        return (name.clone(), String::new());
    }
    key.clone()
}

/// `exporter/snmp.yml` with an SNMPv3 authPriv auth (SHA, AES) of the agent's user added.
fn with_v3_auth() -> String {
    fixture().replacen(
        "auths:\n",
        "auths:\n  aes:\n    version: 3\n    username: aesuser\n    security_level: authPriv\n    \
         auth_protocol: SHA\n    password: aesauthpass\n    priv_protocol: AES\n    priv_password: aesprivpass\n",
        1,
    )
}

#[test]
fn samples_equal_debian_snmp_exporter() {
    compare_with_debian("public_v2");
}

#[test]
fn samples_equal_debian_snmp_exporter_over_snmpv3_auth_priv() {
    compare_with_debian("aes");
}

/// Both exporters scrape `system` and `if_mib` of one snmpd with the auth `auth`.
fn compare_with_debian(auth: &str) {
    let (Some(snmpd), Some(theirs)) = (tool("snmpd"), tool("prometheus-snmp-exporter")) else {
        require_or_skip("snmpd or prometheus-snmp-exporter not installed");
        return;
    };
    let agent = start_agent_with(&snmpd, snmp_test_support::agent::AES_USER_CONF);
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("snmp.yml");
    let old = dir.path().join("snmp-0.21.yml");
    let yml = with_v3_auth();
    std::fs::write(&new, &yml).unwrap();
    std::fs::write(&old, as_0_21(&yml, auth)).unwrap();
    let port = free_port();
    let args = [
        format!("--config.file={}", old.display()),
        format!("--web.listen-address=127.0.0.1:{port}"),
    ];
    let upstream = spawn_http(&theirs, &args, port, "/-/healthy");
    let ours = ours(&new, &[]);
    for module in ["system", "if_mib"] {
        let path = format!("/snmp?target=127.0.0.1:{}&module={module}", agent.port);
        let (s1, theirs_text) = get(upstream.port, &path, &[]).expect("upstream answers");
        let (s2, ours_text) =
            get(ours.port, &format!("{path}&auth={auth}"), &[]).expect("ours answers");
        assert_eq!((s1, s2), (200, 200), "{theirs_text}\n---\n{ours_text}");
        let (t, o) = (samples(&theirs_text), samples(&ours_text));
        assert!(o.values.len() > 20, "{module}: {} samples", o.values.len());
        assert_eq!(t.meta, o.meta, "{module}: HELP and TYPE lines");
        let ours_keys: Vec<Key> = o.values.keys().map(key_as_0_21).collect();
        let theirs_keys: Vec<Key> = t.values.keys().cloned().collect();
        assert_eq!(theirs_keys, ours_keys, "{module}: names and labels");
        for ((key, tv), (_, ov)) in t.values.iter().zip(o.values.iter()) {
            if !moving(&key.0, &o.meta) {
                assert_eq!(tv, ov, "{module}: {key:?}");
            }
        }
    }
}

#[test]
fn ours_reads_the_0_21_format_with_a_warning_and_renders_the_same_samples() {
    let Some(snmpd) = tool("snmpd") else {
        require_or_skip("snmpd not installed");
        return;
    };
    let agent = start_agent(&snmpd);
    let dir = tempfile::tempdir().unwrap();
    let (new, old) = (dir.path().join("new.yml"), dir.path().join("old.yml"));
    std::fs::write(&new, fixture()).unwrap();
    std::fs::write(&old, fixture_as_0_21()).unwrap();
    let (a, b) = (ours(&new, &[]), ours(&old, &[]));
    let path = format!("/snmp?target=127.0.0.1:{}&module=if_mib", agent.port);
    let (x, y) = (
        get(a.port, &path, &[]).unwrap(),
        get(b.port, &path, &[]).unwrap(),
    );
    assert_eq!((x.0, y.0), (200, 200), "{}", y.1);
    let (x, y) = (samples(&x.1), samples(&y.1));
    assert_eq!(
        x.values.keys().collect::<Vec<_>>(),
        y.values.keys().collect::<Vec<_>>()
    );
    // The old file names no auths: each module's own is used when the request names none.
    let dry = std::process::Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .arg(format!("--config.file={}", old.display()))
        .arg("--dry-run")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&dry.stderr);
    assert!(dry.status.success(), "{stderr}");
    assert!(
        stderr.contains("format of snmp_exporter 0.22 and older"),
        "{stderr}"
    );
}

/// SNMPv3: the second scrape of a target uses the engine the first discovered, one request
/// fewer (snmp_exporter discovers on every scrape).
#[test]
fn a_second_snmpv3_scrape_skips_discovery() {
    let Some(snmpd) = tool("snmpd") else {
        require_or_skip("snmpd not installed");
        return;
    };
    let agent = start_agent_with(&snmpd, snmp_test_support::agent::AES_USER_CONF);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("snmp.yml");
    std::fs::write(&config, with_v3_auth()).unwrap();
    let ours = ours(&config, &[]);
    let path = format!(
        "/snmp?target=127.0.0.1:{}&module=system&auth=aes",
        agent.port
    );
    // Requests a scrape sent, less those sent again after a timeout (a loaded machine's
    // snmpd can be slow to answer the first).
    let sent = || {
        let (status, body) = get(ours.port, &path, &[]).unwrap();
        assert_eq!(status, 200, "{body}");
        let s = samples(&body);
        let count = |name: &str| {
            let key = (name.to_string(), "module=\"system\"".to_string());
            s.values[&key].parse::<u32>().unwrap()
        };
        let retried = count("snmp_scrape_packets_retried");
        (count("snmp_scrape_packets_sent") - retried, retried)
    };
    let ((first, retried_first), (second, retried_second)) = (sent(), sent());
    assert_eq!(
        second + 1,
        first,
        "first {first} ({retried_first} more sent again), second {second} ({retried_second})"
    );
}

/// `--snmp.module-concurrency=2`: both modules of one scrape, each on a socket of its own,
/// render as they do one after the other.
#[test]
fn modules_scraped_concurrently_render_as_in_turn() {
    let Some(snmpd) = tool("snmpd") else {
        require_or_skip("snmpd not installed");
        return;
    };
    let agent = start_agent(&snmpd);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("snmp.yml");
    std::fs::write(&config, fixture()).unwrap();
    let (one, two) = (
        ours(&config, &[]),
        ours(&config, &["--snmp.module-concurrency=2"]),
    );
    let path = format!("/snmp?target=127.0.0.1:{}&module=system,if_mib", agent.port);
    let (a, b) = (
        get(one.port, &path, &[]).unwrap(),
        get(two.port, &path, &[]).unwrap(),
    );
    assert_eq!((a.0, b.0), (200, 200), "{}", b.1);
    let (a, b) = (samples(&a.1), samples(&b.1));
    assert_eq!(
        a.values.keys().collect::<Vec<_>>(),
        b.values.keys().collect::<Vec<_>>()
    );
    for module in ["system", "if_mib"] {
        let key = (
            "snmp_scrape_pdus_returned".to_string(),
            format!("module=\"{module}\""),
        );
        assert_eq!(a.values.get(&key), b.values.get(&key), "{module}");
        assert!(b.values.contains_key(&key), "{module}");
    }
}
