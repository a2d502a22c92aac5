//! The receivers on 127.0.0.1, fed by our own sessions: traps and informs under v2c and v3
//! (the inform's Response reaching the sender), through the std and the tokio receiver; and
//! a flood of 100,000 datagrams into a small receive queue, where every datagram is accounted
//! for: read and taken, read and dropped by reason, or dropped by the kernel and counted.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::listen::{AsyncReceiver, Dropped, Listener, Receiver};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{AsyncSession, Credentials, Options, Session, UsmUser, Value};

fn oid(s: &str) -> OidBuf {
    s.parse().unwrap()
}

const LINK_DOWN: &str = "1.3.6.1.6.3.1.1.5.3";

fn quick() -> Options {
    Options {
        timeout: Duration::from_secs(2),
        retries: 1,
        ..Options::default()
    }
}

fn user() -> UsmUser {
    UsmUser::new(
        "informer",
        Some((AuthProtocol::Sha256, b"informer-auth")),
        Some((PrivProtocol::Aes256, b"informer-priv")),
    )
    .unwrap()
}

#[test]
fn the_std_receiver_takes_traps_and_answers_informs() {
    let listener = Listener::new(vec![b"public".to_vec()], vec![user()]).with_engine(
        b"\x80\x00\x1f\x88\x04rcv",
        7,
        Instant::now(),
    );
    let mut rx = Receiver::bind("127.0.0.1:0", listener).unwrap();
    let to = rx.local_addr().unwrap();
    let sender = std::thread::spawn(move || {
        let ifindex = (oid("1.3.6.1.2.1.2.2.1.1.3"), Value::Integer(3));
        let mut v2 = Session::new(to, Credentials::V2c(b"public".to_vec()), quick()).unwrap();
        v2.trap(100, &oid(LINK_DOWN), std::slice::from_ref(&ifindex))
            .unwrap();
        let echoed = v2
            .inform(200, &oid(LINK_DOWN), std::slice::from_ref(&ifindex))
            .unwrap();
        let mut v3 = Session::new(to, Credentials::Usm(user()), quick()).unwrap();
        let echoed3 = v3.inform(300, &oid(LINK_DOWN), &[ifindex]).unwrap();
        (echoed.len(), echoed3.len())
    });
    let deadline = Some(Instant::now() + Duration::from_secs(20));
    let mut got = Vec::new();
    while got.len() < 3 {
        match rx.recv_until(deadline).unwrap() {
            Some(n) => got.push(n),
            None => panic!("only {} of 3 notifications in 20 s", got.len()),
        }
    }
    // Each inform's Response carried its three bindings back.
    assert_eq!(sender.join().unwrap(), (3, 3));
    let seen: Vec<_> = got
        .iter()
        .map(|n| (n.version, n.inform, n.uptime))
        .collect();
    assert_eq!(
        seen,
        [
            ("2c", false, Some(100)),
            ("2c", true, Some(200)),
            ("3", true, Some(300))
        ]
    );
    assert!(got.iter().all(|n| n.trap_oid == Some(oid(LINK_DOWN))));
    assert_eq!(got[2].security_name, b"informer");
    assert_eq!(rx.listener().discoveries(), 1);
}

#[tokio::test]
async fn the_tokio_receiver_takes_v3_informs() {
    let listener = Listener::new(Vec::new(), vec![user()]).with_engine(
        b"\x80\x00\x1f\x88\x04arx",
        1,
        Instant::now(),
    );
    let mut rx = AsyncReceiver::bind("127.0.0.1:0", listener).await.unwrap();
    let to = rx.local_addr().unwrap();
    let sender = tokio::spawn(async move {
        let mut s = AsyncSession::new(to, Credentials::Usm(user()), quick())
            .await
            .unwrap();
        for uptime in 1..=3 {
            s.inform(uptime, &oid(LINK_DOWN), &[]).await.unwrap();
        }
    });
    for uptime in 1..=3 {
        let n = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("an inform within 20 s")
            .unwrap();
        assert_eq!((n.version, n.inform, n.uptime), ("3", true, Some(uptime)));
    }
    sender.await.unwrap();
    let (received, notifications, dropped) = rx.listener().counters();
    // One discovery, three informs, nothing dropped.
    assert_eq!((received, notifications, dropped.len()), (4, 3, 0));
}

/// On a socket bound to every interface, each notification says the address it was sent to
/// (Linux: from the kernel's IP_PKTINFO / IPV6_PKTINFO); on one bound to an address, that one.
#[test]
fn a_notification_says_where_it_was_sent() {
    let mut any = Receiver::bind("0.0.0.0:0", Listener::new(Vec::new(), Vec::new())).unwrap();
    let port = any.local_addr().unwrap().port();
    let mut one = Receiver::bind("127.0.0.1:0", Listener::new(Vec::new(), Vec::new())).unwrap();
    let one_at = one.local_addr().unwrap();
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    let datagram = trap_datagram(b"public", 1, LINK_DOWN);
    let to: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    sock.send_to(&datagram, to).unwrap();
    sock.send_to(&datagram, one_at).unwrap();
    let deadline = Some(Instant::now() + Duration::from_secs(10));
    let via_any = any
        .recv_until(deadline)
        .unwrap()
        .expect("a trap within 10 s");
    let via_one = one
        .recv_until(deadline)
        .unwrap()
        .expect("a trap within 10 s");
    assert_eq!(via_one.destination, Some(one_at));
    assert_eq!(via_any.source, sock.local_addr().unwrap());
    if cfg!(target_os = "linux") {
        assert_eq!(via_any.destination, Some(to));
    } else {
        assert_eq!(via_any.destination, None);
    }
}

/// A v2c trap datagram with `uptime`.
fn trap_datagram(community: &[u8], uptime: u32, trap: &str) -> Vec<u8> {
    let vbs = snmp_client::notify::v2_bindings(uptime, &oid(trap), &[]);
    snmp_client::notify::v2c_trap(community, 1, &vbs).unwrap()
}

/// Resident memory of this process, kB (Linux).
fn rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_flood_is_counted_whole_in_bounded_memory() {
    const SENT: u64 = 100_000;
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    // A small receive queue, so that the flood overflows it.
    #[cfg(target_os = "linux")]
    nix::sys::socket::setsockopt(&socket, nix::sys::socket::sockopt::RcvBuf, &4096).unwrap();
    let to: SocketAddr = socket.local_addr().unwrap();
    let mut rx = Receiver::from_socket(socket, Listener::new(vec![b"public".to_vec()], Vec::new()));
    let rss_before = rss_kb();
    let sender = std::thread::spawn(move || {
        let out = UdpSocket::bind("127.0.0.1:0").unwrap();
        // Three in four good traps; then a wrong community, garbage.
        let good = trap_datagram(b"public", 1, LINK_DOWN);
        let stranger = trap_datagram(b"private", 1, LINK_DOWN);
        let garbage = b"\x30\x82\xff\xff\x02\x01\x01".to_vec();
        for i in 0..SENT - 1 {
            let d = match i % 8 {
                6 => &stranger,
                7 => &garbage,
                _ => &good,
            };
            // A full send buffer may refuse one now and then: send it again.
            while out.send_to(d, to).is_err() {
                std::thread::yield_now();
            }
        }
        // The last, once the receiver has had time to drain: it carries the kernel's count
        // of what it dropped since the one before.
        std::thread::sleep(Duration::from_millis(500));
        out.send_to(&trap_datagram(b"public", 2, "1.3.6.1.6.3.1.1.5.4"), to)
            .unwrap();
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut taken = 0u64;
    loop {
        let n = rx
            .recv_until(Some(deadline))
            .unwrap()
            .expect("the last trap within 120 s");
        taken += 1;
        if n.uptime == Some(2) {
            break;
        }
    }
    sender.join().unwrap();
    let (received, notifications, dropped) = rx.listener().counters();
    let dropped_total: u64 = dropped.values().sum();
    eprintln!("{received} datagrams: {notifications} taken, dropped {dropped:?}");
    assert_eq!(notifications, taken);
    assert_eq!(notifications + dropped_total, received);
    assert!(dropped.contains_key(&Dropped::BadCommunity));
    assert!(dropped.contains_key(&Dropped::Malformed));
    if cfg!(target_os = "linux") {
        // Every datagram accounted for: the kernel's drops are counted too.
        assert_eq!(received, SENT);
        assert!(dropped.get(&Dropped::Overflow).is_some_and(|&n| n > 0));
    }
    if let (Some(before), Some(after)) = (rss_before, rss_kb()) {
        assert!(
            after < before + 32 * 1024,
            "resident memory grew from {before} kB to {after} kB"
        );
    }
}

/// IF-MIB's generated `LinkDown`, sent by a session as a trap and as an inform: received with
/// its OBJECTS at the row's instance.
#[test]
fn generated_notifications_are_sent_and_received() {
    use snmp_mibs_std::if_mib::{IfAdminStatus, IfOperStatus, LinkDown};
    let mut rx = Receiver::bind("127.0.0.1:0", Listener::new(Vec::new(), Vec::new())).unwrap();
    let to = rx.local_addr().unwrap();
    let down = LinkDown {
        instance: vec![3],
        if_index: 3,
        if_admin_status: IfAdminStatus::Up,
        if_oper_status: IfOperStatus::Down,
    };
    let sent = down.clone();
    let sender = std::thread::spawn(move || {
        let mut s = Session::new(to, Credentials::V2c(b"public".to_vec()), quick()).unwrap();
        s.notify(500, &down).unwrap();
        s.inform_of(600, &down).unwrap().len()
    });
    let deadline = Some(Instant::now() + Duration::from_secs(20));
    let trap = rx.recv_until(deadline).unwrap().expect("the trap");
    let inform = rx.recv_until(deadline).unwrap().expect("the inform");
    assert_eq!(sender.join().unwrap(), 5);
    for (n, uptime) in [(&trap, 500), (&inform, 600)] {
        assert_eq!(n.trap_oid, Some(oid(LINK_DOWN)));
        assert_eq!(n.uptime, Some(uptime));
        let rest: Vec<(String, Value)> = n.bindings[2..]
            .iter()
            .map(|vb| (vb.oid.to_string(), vb.value.clone()))
            .collect();
        assert_eq!(
            rest,
            [
                ("1.3.6.1.2.1.2.2.1.1.3".to_string(), Value::Integer(3)),
                ("1.3.6.1.2.1.2.2.1.7.3".to_string(), Value::Integer(1)),
                ("1.3.6.1.2.1.2.2.1.8.3".to_string(), Value::Integer(2)),
            ]
        );
        // And back into the generated struct, alone or among the module's notifications.
        assert_eq!(n.typed::<LinkDown>(), Some(Ok(sent.clone())));
        let all = n.with_bindings(snmp_mibs_std::if_mib::Notifications::from_received);
        assert_eq!(
            all,
            Some(Ok(snmp_mibs_std::if_mib::Notifications::LinkDown(
                sent.clone()
            )))
        );
    }
}

/// A linkDown as net-snmp's snmptrap sends it (SNMPv2c, and SNMPv1's generic trap 2 that
/// RFC 3584 translates), read into IF-MIB's generated `LinkDown`; one lacking ifOperStatus is
/// an error naming it.
#[test]
fn net_snmp_traps_read_into_generated_notifications() {
    use snmp_mibs_std::if_mib::{IfAdminStatus, IfOperStatus, LinkDown, LinkUp};
    let Some(snmptrap) = snmp_test_support::agent::tool("snmptrap") else {
        snmp_test_support::skip("net-snmp's snmptrap is not installed");
        return;
    };
    let listener = Listener::new(vec![b"public".to_vec()], Vec::new());
    let mut rx = Receiver::bind("127.0.0.1:0", listener).unwrap();
    let to = format!("127.0.0.1:{}", rx.local_addr().unwrap().port());
    let objects = [
        ".1.3.6.1.2.1.2.2.1.1.9",
        "i",
        "9",
        ".1.3.6.1.2.1.2.2.1.7.9",
        "i",
        "1",
        ".1.3.6.1.2.1.2.2.1.8.9",
        "i",
        "2",
    ];
    let send = |args: &[&str]| {
        let status = std::process::Command::new(&snmptrap)
            .args(args)
            .env("MIBS", "")
            .status()
            .unwrap();
        assert!(status.success());
    };
    let v2 = [
        "-v2c",
        "-c",
        "public",
        "-m",
        "",
        &to,
        "",
        ".1.3.6.1.6.3.1.1.5.3",
    ];
    let v1 = [
        "-v1",
        "-c",
        "public",
        "-m",
        "",
        &to,
        ".1.3.6.1.4.1.8072",
        "127.0.0.1",
        "2",
        "0",
        "",
    ];
    send(&[&v2[..], &objects].concat());
    send(&[&v1[..], &objects].concat());
    // ifIndex only: ifAdminStatus and ifOperStatus missing.
    send(&[&v2[..], &objects[..3]].concat());
    let want = LinkDown {
        instance: vec![9],
        if_index: 9,
        if_admin_status: IfAdminStatus::Up,
        if_oper_status: IfOperStatus::Down,
    };
    let deadline = Some(Instant::now() + Duration::from_secs(10));
    for version in ["2c", "1"] {
        let n = rx.recv_until(deadline).unwrap().expect("a trap");
        assert_eq!(n.version, version);
        assert_eq!(n.typed::<LinkDown>(), Some(Ok(want.clone())), "{n:?}");
        assert!(n.typed::<LinkUp>().is_none());
    }
    let short = rx.recv_until(deadline).unwrap().expect("a trap");
    let e = short.typed::<LinkDown>().unwrap().unwrap_err();
    assert_eq!(
        e.to_string(),
        "IF-MIB::linkDown: no binding of IF-MIB::ifAdminStatus among the notification's"
    );
}
