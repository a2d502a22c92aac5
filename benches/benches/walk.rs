//! Criterion bench of a whole-MIB walk against our own net-snmp snmpd on 127.0.0.1, side by
//! side with net-snmp's `snmpbulkwalk` walking the same agent the same way (GETBULK,
//! max-repetitions 25), over SNMPv2c and SNMPv3 authPriv (SHA + AES-128). snmpbulkwalk is a
//! process per walk: its start (about a millisecond or two) and its printing are in its time.
//! The agent answers both; its own work is in both columns. Last, the same view split into
//! its subtrees and walked at once by tokio tasks (one thread), each with its own session:
//! against one agent on this machine, which answers one request at a time, that buys little
//! (the extra sessions' discoveries and the requests that end each subtree cost about what the
//! overlap saves); against many agents, or distant ones, it is what a poller wants.

use snmp_test_support::agent as support;

use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use snmp_client::{AsyncSession, Credentials, Options, Session};

fn options() -> Options {
    Options {
        timeout: Duration::from_secs(2),
        max_repetitions: 25,
        ..Options::default()
    }
}

fn walk_count(s: &mut Session) -> usize {
    let mut n = 0;
    s.walk("1.3".parse::<snmp_ber::OidBuf>().expect("an OID"), |_| {
        n += 1
    })
    .expect("the walk ends");
    n
}

fn whole_mib(c: &mut Criterion) {
    let (Some(snmpd), Some(bulkwalk)) = (support::tool("snmpd"), support::tool("snmpbulkwalk"))
    else {
        eprintln!("skipped: snmpd or snmpbulkwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, support::AES_USER_CONF);
    let target = format!("127.0.0.1:{}", agent.port);
    let addr = ([127, 0, 0, 1], agent.port).into();
    let mut v2 =
        Session::new(addr, Credentials::V2c(b"public".to_vec()), options()).expect("a socket");
    // Wait for the agent (bounded), then count what a walk brings.
    let mut requests = 0;
    for _ in 0..50 {
        if let Ok(n) = v2.walk("1.3".parse::<snmp_ber::OidBuf>().expect("an OID"), |_| {}) {
            requests = n;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let bindings_v2 = walk_count(&mut v2);
    eprintln!("the agent's MIB view: {bindings_v2} bindings in {requests} requests a walk");
    let user = support::aes_user();
    let mut v3 = Session::new(addr, Credentials::Usm(user.clone()), options()).expect("a socket");
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
            let args: Vec<&str> = ["-v3"].into_iter().chain(support::AES_USER_FLAGS).collect();
            net_snmp(&args)
        })
    });
    // The same view split into its subtrees (the OIDs' first seven arcs: MIB-2's groups, the
    // enterprises, the SNMP modules), walked at once, a tokio task and session each, by one
    // thread.
    let mut roots: Vec<String> = Vec::new();
    v2.walk("1.3".parse::<snmp_ber::OidBuf>().expect("an OID"), |vb| {
        let s = vb.oid.to_string();
        let root = s.split('.').take(7).collect::<Vec<_>>().join(".");
        if roots.last() != Some(&root) {
            roots.push(root);
        }
    })
    .expect("the walk ends");
    roots.dedup();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let parallel = |creds: &Credentials| {
        runtime.block_on(async {
            let mut tasks = tokio::task::JoinSet::new();
            for root in &roots {
                let root: snmp_ber::OidBuf = root.parse().expect("an OID");
                let creds = creds.clone();
                tasks.spawn(async move {
                    let mut s = AsyncSession::new(addr, creds, options())
                        .await
                        .expect("a socket");
                    let mut n = 0usize;
                    s.walk(&root, |_| n += 1).await.expect("the walk ends");
                    n
                });
            }
            let mut total = 0usize;
            while let Some(n) = tasks.join_next().await {
                total += n.expect("the task ends");
            }
            total
        })
    };
    // Keys from passwords once; each session localises them to the engine it discovers.
    let v2c = Credentials::V2c(b"public".to_vec());
    let v3 = Credentials::Usm(user);
    // The view moves a little between walks (processes, and the sessions' own UDP sockets in
    // the agent's tables), so the counts are compared loosely.
    let split = parallel(&v2c);
    eprintln!(
        "{} subtrees walked in parallel: {split} bindings (one walk: {bindings_v2})",
        roots.len()
    );
    assert!(
        split.abs_diff(bindings_v2) * 20 < bindings_v2,
        "the subtrees hold the view"
    );
    g.bench_function("snmp-client v2c, subtrees in parallel", |b| {
        b.iter(|| parallel(&v2c))
    });
    g.bench_function("snmp-client v3 authPriv, subtrees in parallel", |b| {
        b.iter(|| parallel(&v3))
    });
    g.finish();
}

criterion_group!(benches, whole_mib);
criterion_main!(benches);
