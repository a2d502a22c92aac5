//! The example served as an AgentX subagent of net-snmp's snmpd (`enterprise-agent
//! --agentx`), over TCP and over a Unix socket: the same checks as standalone, through the
//! master; the master restarted in the middle of a walk; a notification sent through the
//! master to its trap sink.

mod common;

use std::time::{Duration, Instant};

use common::*;
use snmp_client::listen::{Listener, Receiver};
use snmp_client::{Credentials, Options, Session, Value};

#[test]
fn net_snmp_tools_through_snmpd_to_the_subagent_over_tcp() {
    let Some(tools) = Tools::find() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (port, agentx) = (
        free_udp_port(),
        format!("tcp:127.0.0.1:{}", free_tcp_port()),
    );
    let _master = snmpd_master(&tools, dir.path(), port, &agentx, "");
    let _sub = enterprise_agent(
        &["--agentx", &agentx, "--run-every", "0"],
        &dir.path().join("sub.log"),
    );
    let target = format!("127.0.0.1:{port}");
    wait_serving(&tools, &target);
    check_mib(&tools, &target);
}

#[test]
fn through_a_unix_socket_and_a_master_restarted_mid_walk() {
    let Some(tools) = Tools::find() else { return };
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("agentx.sock");
    let agentx = socket.to_str().unwrap().to_string();
    let port = free_udp_port();
    let master = snmpd_master(&tools, dir.path(), port, &agentx, "");
    let _sub = enterprise_agent(
        &[
            "--agentx",
            &format!("unix:{agentx}"),
            "--run-every",
            "0",
            "--jobs",
            "50",
        ],
        &dir.path().join("sub.log"),
    );
    let target = format!("127.0.0.1:{port}");
    wait_serving(&tools, &target);

    // A walk by GETNEXT of exampleJobName, one request at a time: the master goes away
    // after the 10th row and a new one starts; the walk goes on once the subagent is back.
    let addr = target.parse().unwrap();
    let options = Options {
        timeout: Duration::from_millis(500),
        retries: 1,
        ..Options::default()
    };
    let mut session = Session::new(addr, Credentials::V2c(b"public".to_vec()), options).unwrap();
    let column: Vec<u32> = vec![1, 3, 6, 1, 4, 1, 8072, 9999, 7, 1, 4, 1, 2];
    let mut at = snmp_ber::OidBuf::from_arcs(&column).unwrap();
    let mut names = Vec::new();
    let mut master = Some(master);
    let deadline = Instant::now() + Duration::from_secs(30);
    while names.len() < 50 && Instant::now() < deadline {
        if names.len() == 10 && master.is_some() {
            drop(master.take());
            master = Some(snmpd_master(&tools, dir.path(), port, &agentx, ""));
        }
        let Ok(answer) = session.get_next(&[at.clone()]) else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        let vb = &answer[0];
        if !vb
            .oid
            .as_oid()
            .arcs()
            .collect::<Vec<_>>()
            .starts_with(&column)
        {
            // Between the masters' lives the new one may not have the subtree yet.
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let Value::OctetString(name) = &vb.value else {
            panic!("{vb:?}")
        };
        names.push(String::from_utf8_lossy(name).into_owned());
        at = vb.oid.clone();
    }
    let want: Vec<String> = (1..=50).map(|k| format!("job-{k}")).collect();
    assert_eq!(names, want, "the walk across the restart");
}

#[test]
fn a_notification_through_the_master_to_its_trap_sink() {
    let Some(tools) = Tools::find() else { return };
    let dir = tempfile::tempdir().unwrap();
    let receiver_socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let trap_port = receiver_socket.local_addr().unwrap().port();
    let mut receiver = Receiver::from_socket(
        receiver_socket,
        Listener::new(vec![b"public".to_vec()], vec![]),
    );
    let (port, agentx) = (
        free_udp_port(),
        format!("tcp:127.0.0.1:{}", free_tcp_port()),
    );
    let _master = snmpd_master(
        &tools,
        dir.path(),
        port,
        &agentx,
        &format!("trap2sink 127.0.0.1:{trap_port} public\n"),
    );
    let _sub = enterprise_agent(
        &["--agentx", &agentx, "--run-every", "100", "--jobs", "0"],
        &dir.path().join("sub.log"),
    );
    let target = format!("127.0.0.1:{port}");
    wait_serving(&tools, &target);
    // A job whose name starts with `fail` fails each run: exampleJobFailed.
    let created = set_error(
        &tools,
        "-v2c",
        "private",
        &target,
        &[
            &format!("{P}.4.1.2.7"),
            "s",
            "fail-often",
            &format!("{P}.4.1.6.7"),
            "i",
            "4",
        ],
    );
    assert_eq!(created, None);
    let failed: Vec<u32> = vec![1, 3, 6, 1, 4, 1, 8072, 9999, 7, 2, 1];
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let n = receiver
            .recv_until(Some(deadline))
            .unwrap()
            .expect("exampleJobFailed within 10 s");
        if n.trap_oid
            .as_ref()
            .is_some_and(|o| o.as_oid().arcs().eq(failed.iter().copied()))
        {
            let name = n
                .bindings
                .iter()
                .find(|b| b.oid.to_string() == format!("{}.4.1.2.7", &P[1..]));
            assert!(
                matches!(&name.unwrap().value, Value::OctetString(s) if &s[..] == b"fail-often"),
                "{n:?}"
            );
            break;
        }
    }
}
