//! A subagent under net-snmp's snmpd whose handler is slower than the timeout it registered:
//! the master answers its manager once that timeout has passed (genErr), serves its own
//! objects meanwhile, and the subagent's next answer comes through as usual.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use snmp_agent::agentx::Subagent;
use snmp_agent::{Handler, Registry};
use snmp_ber::OidBuf;
use snmp_client::{ClientError, Credentials, Options, Session, Value};

const SLOW: [u32; 10] = [1, 3, 6, 1, 4, 1, 8072, 9999, 42, 1];
const FAST: [u32; 10] = [1, 3, 6, 1, 4, 1, 8072, 9999, 42, 2];

/// `.42.1.0` answered after 3 s, `.42.2.0` at once.
struct Slow;

impl Handler for Slow {
    fn subtrees(&self) -> Vec<Vec<u32>> {
        vec![vec![1, 3, 6, 1, 4, 1, 8072, 9999, 42]]
    }

    fn get(&mut self, name: &[u32]) -> Value {
        if name.starts_with(&SLOW) {
            std::thread::sleep(Duration::from_secs(3));
        }
        Value::Integer(7)
    }

    fn next(&mut self, _: &[u32]) -> Option<(OidBuf, Value)> {
        None
    }
}

/// Whether the fast object answers 7 through the master.
fn fast(s: &mut Session) -> bool {
    let got = s.get(&[oid(&[&FAST[..], &[0]].concat())]);
    got.is_ok_and(|v| v[0].value == Value::Integer(7))
}

fn oid(arcs: &[u32]) -> OidBuf {
    OidBuf::from_arcs(arcs).unwrap()
}

#[test]
fn a_slow_handler_holds_the_master_no_longer_than_the_registered_timeout() {
    let Some(snmpd) = snmp_test_support::agent::tool("snmpd") else {
        snmp_test_support::skip("snmpd is not installed");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let ax = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let conf = dir.path().join("snmpd.conf");
    std::fs::write(
        &conf,
        format!("rocommunity public 127.0.0.1\nmaster agentx\nagentXSocket tcp:127.0.0.1:{ax}\n"),
    )
    .unwrap();
    let mut master = Command::new(snmpd)
        .args(["-f", "-Lf", "/dev/null", "-C", "-c"])
        .arg(&conf)
        .arg("-p")
        .arg(dir.path().join("pid"))
        .arg(format!("udp:127.0.0.1:{port}"))
        .env("SNMP_PERSISTENT_DIR", dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut registry = Registry::new();
    registry.register(Slow).unwrap();
    let sub = {
        let stop = stop.clone();
        let master = format!("tcp:127.0.0.1:{ax}").parse().unwrap();
        std::thread::spawn(move || Subagent::new(registry, master).timeout(1).run(&stop))
    };
    let options = Options {
        timeout: Duration::from_secs(8),
        retries: 0,
        ..Options::default()
    };
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut s = Session::new(addr, Credentials::V2c(b"public".to_vec()), options).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !fast(&mut s) {
        assert!(
            Instant::now() < deadline,
            "the subagent did not register within 10 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let asked = Instant::now();
    let slow = s.get(&[oid(&[&SLOW[..], &[0]].concat())]);
    let waited = asked.elapsed();
    assert!(
        waited < Duration::from_millis(2_500),
        "the master waited {waited:?}"
    );
    assert!(
        matches!(slow, Err(ClientError::ErrorStatus { status: 5, .. })),
        "{slow:?}"
    );
    // The master's own objects meanwhile (sysUpTime.0).
    let own = s.get(&[oid(&[1, 3, 6, 1, 2, 1, 1, 3, 0])]).unwrap();
    assert!(matches!(own[0].value, Value::TimeTicks(_)));
    // Once the handler is done, the subagent answers again.
    std::thread::sleep(Duration::from_millis(2_500));
    let deadline = Instant::now() + Duration::from_secs(10);
    while !fast(&mut s) {
        assert!(
            Instant::now() < deadline,
            "the subagent did not answer again within 10 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    let _ = master.kill();
    let _ = master.wait();
    sub.join().unwrap().unwrap();
}
