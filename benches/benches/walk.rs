//! Criterion bench of a whole-MIB walk against our own net-snmp snmpd on 127.0.0.1, side by
//! side with net-snmp's `snmpbulkwalk` walking the same agent the same way (GETBULK,
//! max-repetitions 25), over SNMPv2c and SNMPv3 authPriv (SHA + AES-128). snmpbulkwalk is a
//! process per walk: its start (about a millisecond or two) and its printing are in its time.
//! The agent answers both; its own work is in both columns.

#[path = "../../generated/tests/support/agent.rs"]
mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, Session, UsmUser};

const USER: &str =
    "createUser aesuser SHA \"aesauthpass\" AES \"aesprivpass\"\nrouser aesuser priv\n";

fn options() -> Options {
    Options {
        timeout: Duration::from_secs(2),
        max_repetitions: 25,
        ..Options::default()
    }
}

fn walk_count(s: &mut Session) -> usize {
    let mut n = 0;
    s.walk(&"1.3".parse().expect("an OID"), |_| n += 1)
        .expect("the walk ends");
    n
}

fn whole_mib(c: &mut Criterion) {
    let (Some(snmpd), Some(bulkwalk)) = (support::tool("snmpd"), support::tool("snmpbulkwalk"))
    else {
        eprintln!("skipped: snmpd or snmpbulkwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, USER);
    let target = format!("127.0.0.1:{}", agent.port);
    let addr = ([127, 0, 0, 1], agent.port).into();
    let mut v2 =
        Session::new(addr, Credentials::V2c(b"public".to_vec()), options()).expect("a socket");
    // Wait for the agent (bounded), then count what a walk brings.
    let mut requests = 0;
    for _ in 0..50 {
        if let Ok(n) = v2.walk(&"1.3".parse().expect("an OID"), |_| {}) {
            requests = n;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let bindings_v2 = walk_count(&mut v2);
    eprintln!("the agent's MIB view: {bindings_v2} bindings in {requests} requests a walk");
    let user = UsmUser::new(
        "aesuser",
        Some((AuthProtocol::Sha1, b"aesauthpass")),
        Some((PrivProtocol::Aes128, b"aesprivpass")),
    )
    .expect("long passwords");
    let mut v3 = Session::new(addr, Credentials::Usm(user), options()).expect("a socket");
    assert_eq!(walk_count(&mut v3), bindings_v2, "v3 walks the same view");

    let net_snmp = |args: &[&str]| {
        let status = Command::new(&bulkwalk)
            .args(args)
            .args(["-Cr25", "-On", "-Oq", "-t", "2", "-r", "1", "-m", ""])
            .arg(&target)
            .arg(".1.3")
            .env("MIBS", "")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("snmpbulkwalk runs");
        assert!(status.success());
    };
    let mut g = c.benchmark_group("walk_whole_mib");
    g.sample_size(10);
    g.bench_function("snmp-client v2c", |b| b.iter(|| walk_count(&mut v2)));
    g.bench_function("net-snmp v2c", |b| {
        b.iter(|| net_snmp(&["-v2c", "-c", "public"]))
    });
    g.bench_function("snmp-client v3 authPriv", |b| {
        b.iter(|| walk_count(&mut v3))
    });
    g.bench_function("net-snmp v3 authPriv", |b| {
        b.iter(|| {
            net_snmp(&[
                "-v3",
                "-l",
                "authPriv",
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
            ])
        })
    });
    g.finish();
}

criterion_group!(benches, whole_mib);
criterion_main!(benches);
