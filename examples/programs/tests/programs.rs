//! The five programs run as a user runs them, against our own snmpd, net-snmp's tools and 100
//! simulated agents on 127.0.0.1; what they print checked against what net-snmp reads.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use snmp_test_support::agent as support;

/// A program of this crate run to its end with `args`.
fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

fn stdout(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// snmpwalk's `-Oqn` lines under `oid`, as (last arc, value).
fn walked(snmpwalk: &std::path::Path, port: u16, oid: &str) -> Vec<(String, String)> {
    support::snmpwalk_of(snmpwalk, port, oid)
        .lines()
        .filter_map(|l| {
            let (name, value) = l.split_once(' ')?;
            let index = name.rsplit('.').next()?.to_string();
            Some((index, value.trim_matches('"').to_string()))
        })
        .collect()
}

fn tools() -> Option<(PathBuf, PathBuf)> {
    match (support::tool("snmpd"), support::tool("snmpwalk")) {
        (Some(d), Some(w)) => Some((d, w)),
        _ => {
            support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
            None
        }
    }
}

/// typed-poll over v2c and v3 prints each interface with the ifName and ifOperStatus snmpwalk
/// reads, and (UCD-SNMP-MIB compiled) each load average with its laNames.
#[test]
fn typed_poll_over_v2c_and_v3() {
    let Some((snmpd, snmpwalk)) = tools() else {
        return;
    };
    let agent = support::start_agent_with(&snmpd, support::AES_USER_CONF);
    let address = format!("127.0.0.1:{}", agent.port);
    let names = walked(&snmpwalk, agent.port, "1.3.6.1.2.1.31.1.1.1.1");
    let status = walked(&snmpwalk, agent.port, "1.3.6.1.2.1.2.2.1.8");
    assert!(!names.is_empty() && names.len() == status.len());
    let expected: Vec<String> = names
        .iter()
        .zip(&status)
        .map(|((i, name), (_, s))| format!("interface {i} {name} status {s}"))
        .collect();
    let v3 = ["aesuser", "aesauthpass", "aesprivpass"];
    for args in [
        vec![address.as_str(), "public"],
        [&[address.as_str()][..], &v3].concat(),
    ] {
        let out = stdout(&run(env!("CARGO_BIN_EXE_typed-poll"), &args));
        let interfaces: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("interface "))
            .map(|l| l.rsplit_once(" received ").unwrap().0.to_string())
            .collect();
        assert_eq!(interfaces, expected, "{args:?}");
        #[cfg(ucd)]
        {
            let loads: Vec<&str> = out.lines().filter(|l| l.starts_with("load ")).collect();
            let la_names = walked(&snmpwalk, agent.port, "1.3.6.1.4.1.2021.10.1.2");
            assert_eq!(loads.len(), la_names.len(), "{out}");
            for (line, (_, name)) in loads.iter().zip(&la_names) {
                let value = line.strip_prefix(&format!("load {name} ")).unwrap();
                assert!(value.parse::<f32>().is_ok_and(|v| v >= 0.0), "{line}");
            }
        }
    }
}

/// receive-notification reads linkDown sent by send-notification (as a trap and as an inform)
/// and coldStart sent by net-snmp's snmptrap as their generated types.
#[test]
fn a_notification_sent_and_received_as_its_type() {
    let receiver = Command::new(env!("CARGO_BIN_EXE_receive-notification"))
        .args(["127.0.0.1:0", "public", "3", "10"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut receiver = Child(receiver);
    let mut lines = BufReader::new(receiver.0.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let address = first.strip_prefix("listening on ").unwrap().to_string();
    let sent = stdout(&run(
        env!("CARGO_BIN_EXE_send-notification"),
        &[&address, "public", "3"],
    ));
    assert_eq!(
        sent.trim(),
        format!("linkDown of interface 3 sent to {address}")
    );
    let acknowledged = stdout(&run(
        env!("CARGO_BIN_EXE_send-notification"),
        &[&address, "public", "7", "--inform"],
    ));
    assert!(acknowledged.contains("acknowledged"), "{acknowledged}");
    let mut expected = vec![
        "linkDown ifIndex 3".to_string(),
        "linkDown ifIndex 7".to_string(),
    ];
    match support::tool("snmptrap") {
        Some(snmptrap) => {
            let status = Command::new(snmptrap)
                .args([
                    "-v2c",
                    "-c",
                    "public",
                    &address,
                    "42",
                    "1.3.6.1.6.3.1.1.5.1",
                ])
                .env("MIBS", "")
                .status()
                .unwrap();
            assert!(status.success());
            expected.push("coldStart".into());
        }
        None => {
            support::require_or_skip("snmptrap not found (apt-get install -y snmp)");
            expected.push("linkDown ifIndex 9".into());
            stdout(&run(
                env!("CARGO_BIN_EXE_send-notification"),
                &[&address, "public", "9"],
            ));
        }
    }
    let said: Vec<String> = lines.map_while(Result::ok).collect();
    let described: Vec<&str> = said[..3]
        .iter()
        .map(|l| l.split_once(": ").unwrap().1)
        .collect();
    assert_eq!(described, expected, "{said:?}");
    assert!(
        said[3].starts_with("3 datagrams, 3 notifications"),
        "{said:?}"
    );
}

/// typed-set sets sysName through the generated SystemScalars (snmpget reads it back); a name
/// longer than its SYNTAX allows is refused before anything is sent.
#[test]
fn a_typed_set() {
    let Some((snmpd, _)) = tools() else {
        return;
    };
    let Some(snmpget) = support::tool("snmpget") else {
        support::require_or_skip("snmpget not found (apt-get install -y snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, "rwcommunity private 127.0.0.1\n");
    let address = format!("127.0.0.1:{}", agent.port);
    let out = stdout(&run(
        env!("CARGO_BIN_EXE_typed-set"),
        &[&address, "private", "rack-12"],
    ));
    assert!(out.contains("1.3.6.1.2.1.1.5.0"), "{out}");
    let read = Command::new(snmpget)
        .args([
            "-v2c",
            "-c",
            "public",
            "-Oqv",
            &address,
            "1.3.6.1.2.1.1.5.0",
        ])
        .env("MIBS", "")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&read.stdout).trim(), "\"rack-12\"");
    let long = "x".repeat(256);
    let refused = run(
        env!("CARGO_BIN_EXE_typed-set"),
        &[&address, "private", &long],
    );
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("sysName"), "{said}");
    // sysLocation is snmpd.conf's here: the agent refuses it, and says so.
    let located = run(
        env!("CARGO_BIN_EXE_typed-set"),
        &[&address, "private", "rack-12", "hall-3"],
    );
    assert!(!located.status.success());
    let said = String::from_utf8_lossy(&located.stderr);
    assert!(
        said.starts_with("typed-set: error-status notWritable"),
        "{said}"
    );
}

/// The poller over 100 simulated agents and a silent address, two rounds of a GET and a walk
/// of ifTable each: every agent answers both jobs every round; the silent one fails both.
#[test]
fn a_poller_round_over_100_agents() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let view = Arc::new(agent_view());
    let mut addresses: Vec<String> = (0..100u8)
        .map(|n| runtime.block_on(simulated(view.clone(), n)).to_string())
        .collect();
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    addresses.push(silent.local_addr().unwrap().to_string());
    let mut args = vec!["public", "2", "100"];
    args.extend(addresses.iter().map(String::as_str));
    let started = Instant::now();
    let out = run(env!("CARGO_BIN_EXE_poller"), &args);
    let text = stdout(&out);
    let rounds: Vec<&str> = text.lines().collect();
    assert_eq!(rounds.len(), 2, "{text}");
    // Each round takes the silent agent's 2 s: the 100 ms schedule misses rounds meanwhile,
    // and numbers the next after them.
    for round in &rounds {
        let (_, said) = round.split_once(": ").unwrap();
        assert!(
            said.starts_with("100 agents answered, 400 interfaces, 2 failed, "),
            "{round}"
        );
    }
    assert!(rounds[0].starts_with("round 0: ") && rounds[0].ends_with(" 0 missed"));
    assert!(!rounds[1].ends_with(" 0 missed"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(60));
    drop(runtime);
}

/// What the simulated agents serve: sysUpTime and a 4-interface ifTable.
fn agent_view() -> snmp_client::respond::View {
    let mut text = String::from(".1.3.6.1.2.1.1.3.0 = Timeticks: (42) 0:00:00.42\n");
    for column in [1, 2, 8] {
        for i in 1..=4 {
            let value = match column {
                2 => format!("STRING: \"eth{i}\""),
                _ => format!("INTEGER: {i}"),
            };
            text.push_str(&format!(".1.3.6.1.2.1.2.2.1.{column}.{i} = {value}\n"));
        }
    }
    snmp_client::respond::View::from_walk(&text).0
}

/// An agent answering from `view` on a port of 127.0.0.1, as engine `n`.
async fn simulated(view: Arc<snmp_client::respond::View>, n: u8) -> std::net::SocketAddr {
    let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = socket.local_addr().unwrap();
    let engine = [0x80, 0, 0x1f, 0x88, 4, b'x', n];
    let mut responder = snmp_client::respond::Responder::new(
        view,
        vec![b"public".to_vec()],
        Vec::new(),
        &engine,
        1,
        Instant::now(),
    );
    tokio::spawn(async move {
        let mut buf = vec![0u8; 65_535];
        while let Ok((len, from)) = socket.recv_from(&mut buf).await {
            if let Some(answer) = responder.handle(&buf[..len], Instant::now()) {
                let _ = socket.send_to(&answer, from).await;
            }
        }
    });
    addr
}

/// A child process killed when dropped (a failed assertion leaves none behind).
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
