//! The responder serving a recording of our own snmpd: net-snmp's snmpwalk and snmpbulkwalk
//! (v1, v2c, v3 authPriv) print from it exactly what they printed from the agent, and our
//! session walks it over v2c and v3; requests it must refuse are answered as an agent does.

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use snmp_client::respond::{Responder, View};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{ClientError, Credentials, Options, Session, UsmUser, Value};
use snmp_test_support::agent as support;

/// A responder on 127.0.0.1 in a thread, stopped when dropped.
struct Served {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn user() -> UsmUser {
    UsmUser::new(
        "simuser",
        Some((AuthProtocol::Sha1, b"simauthpass")),
        Some((PrivProtocol::Aes128, b"simprivpass")),
    )
    .unwrap()
}

fn serve(view: Arc<View>) -> Served {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let port = socket.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let thread = std::thread::spawn(move || {
        let mut r = Responder::new(
            view,
            vec![b"public".to_vec()],
            vec![user()],
            b"\x80\x00\x1f\x88\x04sim-test",
            1,
            Instant::now(),
        );
        let mut buf = vec![0u8; 65_535];
        while !stopped.load(Ordering::Relaxed) {
            if let Ok((n, from)) = socket.recv_from(&mut buf) {
                if let Some(answer) = r.handle(&buf[..n], Instant::now()) {
                    let _ = socket.send_to(&answer, from);
                }
            }
        }
    });
    Served {
        port,
        stop,
        thread: Some(thread),
    }
}

/// A net-snmp walk tool's output against 127.0.0.1:`port` (no MIBs: numeric and plain).
fn walk(tool: &std::path::Path, port: u16, args: &[&str]) -> String {
    support::walk_numeric(tool, port, args, ".1.3.6.1.2.1")
}

/// `ours` and `theirs` line for line; the first difference shown.
fn same_lines(ours: &str, theirs: &str, what: &str) {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    if let Some(k) = (0..a.len().max(b.len())).find(|&k| a.get(k) != b.get(k)) {
        panic!(
            "{what}: line {}: served {:?}, recorded {:?} ({} lines against {})",
            k + 1,
            a.get(k),
            b.get(k),
            a.len(),
            b.len()
        );
    }
}

#[test]
fn a_recording_is_served_as_the_agent_served_it() {
    let tools = ["snmpd", "snmpwalk", "snmpbulkwalk"].map(support::tool);
    let [Some(snmpd), Some(snmpwalk), Some(bulkwalk)] = tools else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, "");
    let recorded = walk(&bulkwalk, agent.port, &["-v2c", "-c", "public"]);
    drop(agent);
    let (view, unread) = View::from_walk(&recorded);
    assert!(unread.is_empty(), "{unread:?}");
    assert!(view.len() > 100, "{} bindings", view.len());
    let view = Arc::new(view);
    let served = serve(view.clone());
    let v3 = [
        "-v3",
        "-u",
        "simuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "simauthpass",
        "-x",
        "AES",
        "-X",
        "simprivpass",
    ];
    for (tool, args) in [
        (&snmpwalk, vec!["-v1", "-c", "public"]),
        (&snmpwalk, vec!["-v2c", "-c", "public"]),
        (&bulkwalk, vec!["-v2c", "-c", "public", "-Cr50"]),
        (&bulkwalk, v3.to_vec()),
    ] {
        // The recording ends where mib-2 does, and so does the view: the walk ends there with
        // noSuchName (v1: `End of MIB`) or endOfMibView, which the agent never said.
        let replayed = support::without_walk_end(&walk(tool, served.port, &args));
        // SNMPv1 has no Counter64: snmpwalk -v1 sees every other binding.
        let expected: String = if args[0] == "-v1" {
            recorded
                .lines()
                .filter(|l| !l.contains("= Counter64: "))
                .map(|l| format!("{l}\n"))
                .collect()
        } else {
            recorded.clone()
        };
        same_lines(&replayed, &expected, &format!("{tool:?} {args:?}"));
    }

    // Our session, v2c and v3 (discovery of the responder's engine first).
    let addr = ([127, 0, 0, 1], served.port).into();
    let root: snmp_ber::OidBuf = "1.3.6.1.2.1".parse().unwrap();
    for credentials in [
        Credentials::V2c(b"public".to_vec()),
        Credentials::Usm(user()),
    ] {
        let mut s = Session::new(addr, credentials, Options::default()).unwrap();
        let mut n = 0;
        s.walk(&root, |vb| {
            assert_eq!(view.get(&vb.oid), Some(&vb.value));
            n += 1;
        })
        .unwrap();
        assert_eq!(n, view.len());
    }

    // Refused as an agent refuses: a wrong password (a Report of usmStatsWrongDigests), a SET
    // (notWritable), a missing instance and object.
    let wrong = UsmUser::new(
        "simuser",
        Some((AuthProtocol::Sha1, b"not-the-password")),
        Some((PrivProtocol::Aes128, b"simprivpass")),
    )
    .unwrap();
    let quick = Options {
        retries: 0,
        timeout: Duration::from_secs(2),
        ..Options::default()
    };
    let mut s = Session::new(addr, Credentials::Usm(wrong), quick).unwrap();
    let err = s.get(&["1.3.6.1.2.1.1.1.0".parse().unwrap()]).unwrap_err();
    assert!(err.to_string().contains("usmStatsWrongDigests"), "{err}");
    let mut s = Session::new(addr, Credentials::V2c(b"public".to_vec()), quick).unwrap();
    let set = s.set(&[(
        "1.3.6.1.2.1.1.5.0".parse().unwrap(),
        Value::OctetString(b"x".as_slice().into()),
    )]);
    assert!(
        matches!(set, Err(ClientError::ErrorStatus { status: 17, .. })),
        "{set:?}"
    );
    let got = s
        .get(&[
            "1.3.6.1.2.1.1.1.99".parse().unwrap(),
            "1.3.6.1.2.1.200.1.0".parse().unwrap(),
        ])
        .unwrap();
    assert_eq!(got[0].value, Value::NoSuchInstance);
    assert_eq!(got[1].value, Value::NoSuchObject);
}
