//! `snmpc simulate` serving a recording of our own snmpd on three ports: snmpwalk (v2c) and
//! snmpbulkwalk (v3 authPriv) print from it what was recorded, and each port is an agent with
//! its own engine ID.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, Session, UsmUser};
use snmp_test_support::agent as support;

/// The simulator, stopped by its PID when dropped.
struct Simulator(Child);

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Three consecutive free UDP ports on 127.0.0.1.
fn free_ports() -> u16 {
    (0..100)
        .map(|_| {
            let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
            s.local_addr().unwrap().port()
        })
        .find(|&p| {
            p < 65_000 && (1..3).all(|k| std::net::UdpSocket::bind(("127.0.0.1", p + k)).is_ok())
        })
        .expect("free ports")
}

#[test]
fn simulated_agents_serve_a_recording() {
    let tools = ["snmpd", "snmpwalk", "snmpbulkwalk"].map(support::tool);
    let [Some(snmpd), Some(snmpwalk), Some(bulkwalk)] = tools else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, "");
    let walk = |tool: &std::path::Path, port: u16, args: &[&str]| {
        support::walk_numeric(tool, port, args, ".1.3.6.1.2.1.1")
    };
    let recorded = walk(&snmpwalk, agent.port, &["-v2c", "-c", "public"]);
    drop(agent);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, &recorded).unwrap();

    let port = free_ports();
    let v3 = [
        "-u",
        "simuser",
        "-a",
        "SHA",
        "-A",
        "simauthpass",
        "-x",
        "AES",
        "-X",
        "simprivpass",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .arg("simulate")
        .arg("--data")
        .arg(&data)
        .args(v3)
        .args(["--threads", "1", "--for", "60"])
        .arg(format!("127.0.0.1:{port}-{}", port + 2))
        // And on other addresses of 127.0.0.0/8.
        .arg(format!("127.0.1.1-127.0.1.2:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmpc simulate starts");
    let _simulator = Simulator(child);
    let until = Instant::now() + Duration::from_secs(10);
    while std::net::UdpSocket::bind(("127.0.0.1", port + 2)).is_ok() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }

    assert_eq!(
        support::without_walk_end(&walk(&snmpwalk, port, &["-v2c", "-c", "public"])),
        recorded
    );
    let mut bulk_v3 = vec!["-v3", "-l", "authPriv"];
    bulk_v3.extend(v3);
    assert_eq!(
        support::without_walk_end(&walk(&bulkwalk, port + 1, &bulk_v3)),
        recorded
    );

    // An engine of its own per agent.
    let user = UsmUser::new(
        "simuser",
        Some((AuthProtocol::Sha1, b"simauthpass")),
        Some((PrivProtocol::Aes128, b"simprivpass")),
    )
    .unwrap();
    let engines: Vec<Vec<u8>> = (port..port + 3)
        .map(|p| {
            let addr = ([127, 0, 0, 1], p).into();
            let mut s =
                Session::new(addr, Credentials::Usm(user.clone()), Options::default()).unwrap();
            s.get(&["1.3.6.1.2.1.1.1.0".parse().unwrap()]).unwrap();
            s.engine().unwrap().id.clone()
        })
        .collect();
    assert!(
        engines[0] != engines[1] && engines[1] != engines[2],
        "{engines:?}"
    );
    assert!(
        engines[2].ends_with(&(port + 2).to_be_bytes()),
        "{engines:?}"
    );
}
