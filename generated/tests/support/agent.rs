//! Test support shared by the live tests: finding net-snmp's tools, skipping or failing
//! when they are missing (SNMP_REQUIRE_TOOLS=1), an snmpd of our own on 127.0.0.1, and a
//! bounded request/response exchange.

#![allow(dead_code)]

use std::net::UdpSocket;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

pub fn tool(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"].map(PathBuf::from));
    dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

pub fn require_or_skip(reason: &str) -> bool {
    if std::env::var_os("SNMP_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        panic!("{reason}, and SNMP_REQUIRE_TOOLS=1");
    }
    eprintln!("skipped: {reason}");
    false
}

/// An snmpd of our own; killed (by its PID) when dropped.
pub struct Agent {
    child: Child,
    /// The UDP port it listens on.
    pub port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start_agent(snmpd: &PathBuf) -> Agent {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("snmpd.conf");
    std::fs::write(
        &conf,
        "rocommunity public 127.0.0.1\nsysLocation interop-test\nsysContact nobody\n",
    )
    .unwrap();
    // An ephemeral port: bind, note it, release it for the agent.
    let port = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(snmpd)
        .args(["-f", "-Lf", "/dev/null", "-C", "-c"])
        .arg(&conf)
        .arg("-p")
        .arg(dir.path().join("snmpd.pid"))
        .arg(format!("udp:127.0.0.1:{port}"))
        .env("SNMP_PERSISTENT_DIR", dir.path())
        .env("MIBS", "")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmpd starts");
    Agent {
        child,
        port,
        _dir: dir,
    }
}

/// Sends `request` and returns the response octets; bounded in tries and time.
pub fn exchange(sock: &UdpSocket, port: u16, request: &[u8], deadline: Instant) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; 65536];
    while Instant::now() < deadline {
        sock.send_to(request, ("127.0.0.1", port)).ok()?;
        if let Ok((n, _)) = sock.recv_from(&mut buf) {
            return Some(buf[..n].to_vec());
        }
    }
    None
}
