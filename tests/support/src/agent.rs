//! The live tests' agent: finding net-snmp's tools, skipping or failing
//! when they are missing (SNMP_REQUIRE_TOOLS=1), an snmpd of our own on 127.0.0.1, a
//! bounded request/response exchange, a bounded GETBULK walk, and net-snmp's snmpwalk.

use std::net::UdpSocket;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::ObjectName;

pub fn tool(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"].map(PathBuf::from));
    dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

/// Skips the calling test for `reason`: a failure under `SNMP_REQUIRE_TOOLS=1` (as CI runs),
/// otherwise said on stderr and, when `SNMP_SKIP_LOG` names a file, appended to it as
/// `test: reason` (so that a run can count its skips: `.ci/totals`). Always `false`, so that
/// a test writes `return require_or_skip(..)`-style early exits.
pub fn require_or_skip(reason: &str) -> bool {
    crate::skip(reason);
    false
}

/// An snmpd of our own; killed (by its PID) when dropped.
pub struct Agent {
    child: Child,
    /// The UDP port it listens on.
    pub port: u16,
    /// The TCP port it listens on too, when asked to ([`start_agent_with_tcp`]).
    pub tcp_port: Option<u16>,
    _dir: tempfile::TempDir,
}

impl Agent {
    /// Its process ID (for its CPU time in benchmarks).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start_agent(snmpd: &PathBuf) -> Agent {
    start_agent_with(snmpd, "")
}

/// An snmpd of our own whose configuration has `extra` lines too (SNMPv3 users, say).
pub fn start_agent_with(snmpd: &PathBuf, extra: &str) -> Agent {
    spawn_agent(snmpd, extra, false)
}

/// [`start_agent_with`], listening on a TCP port of 127.0.0.1 as well.
pub fn start_agent_with_tcp(snmpd: &PathBuf, extra: &str) -> Agent {
    spawn_agent(snmpd, extra, true)
}

fn spawn_agent(snmpd: &PathBuf, extra: &str, tcp: bool) -> Agent {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("snmpd.conf");
    std::fs::write(
        &conf,
        format!(
            "rocommunity public 127.0.0.1\nsysLocation interop-test\nsysContact nobody\n{extra}"
        ),
    )
    .unwrap();
    // An ephemeral port: bind, note it, release it for the agent.
    let port = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let tcp_port = tcp.then(|| {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    });
    let mut listen = format!("udp:127.0.0.1:{port}");
    if let Some(t) = tcp_port {
        listen.push_str(&format!(",tcp:127.0.0.1:{t}"));
    }
    let child = Command::new(snmpd)
        .args(["-f", "-Lf", "/dev/null", "-C", "-c"])
        .arg(&conf)
        .arg("-p")
        .arg(dir.path().join("snmpd.pid"))
        .arg(listen)
        .env("SNMP_PERSISTENT_DIR", dir.path())
        .env("MIBS", "")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmpd starts");
    let mut agent = Agent {
        child,
        port,
        tcp_port,
        _dir: dir,
    };
    agent.wait_until_it_answers();
    agent
}

impl Agent {
    /// Returns once the agent answers a GET (its sockets bound, its configuration read):
    /// a request sent before is refused (ICMP port unreachable), which a client that does not
    /// retry on a refusal (the exporter's) reports as the scrape's error. Bounded: 10 s, or
    /// a panic naming why, as when snmpd has exited.
    fn wait_until_it_answers(&mut self) {
        let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
        sock.set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let name: OidBuf = "1.3.6.1.2.1.1.3.0".parse().unwrap();
        let vbs = [VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::UnSpecified,
        }];
        let get = Message {
            version: MessageVersion::VERSION,
            community: b"public",
            data: Pdus::GetRequest(GetRequestPdu(Pdu {
                request_id: 1,
                error_status: PduErrorStatus::NO_ERROR,
                error_index: 0,
                variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
            })),
        }
        .to_ber()
        .unwrap();
        let mut buf = [0u8; 1500];
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("snmpd exited before it answered: {status}");
            }
            let _ = sock.send_to(&get, ("127.0.0.1", self.port));
            if sock.recv_from(&mut buf).is_ok() {
                return;
            }
            // A refusal comes back at once: wait a little before the next try.
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("snmpd on port {} did not answer within 10 s", self.port);
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

/// Walks the subtree under `root` of our agent by GETBULK (at most 20 requests, each bounded
/// in time), calling `each(name, value)` for each binding inside it; returns the requests
/// made.
pub fn walk(
    sock: &UdpSocket,
    port: u16,
    root: &str,
    each: &mut dyn FnMut(&[u32], &VarBindValue<'_>),
) -> i32 {
    let prefix: Vec<u32> = root.split('.').map(|a| a.parse().unwrap()).collect();
    let mut next: OidBuf = root.parse().unwrap();
    for request_id in 1..=20 {
        let vbs = [VarBind {
            name: ObjectName(next.as_oid()),
            value: VarBindValue::UnSpecified,
        }];
        let bulk = Message {
            version: MessageVersion::VERSION,
            community: b"public",
            data: Pdus::GetBulkRequest(GetBulkRequestPdu(BulkPdu {
                request_id,
                non_repeaters: 0,
                max_repetitions: 25,
                variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
            })),
        };
        let response = exchange(
            sock,
            port,
            &bulk.to_ber().unwrap(),
            Instant::now() + Duration::from_secs(10),
        )
        .expect("bulk answered");
        let m = Message::from_ber(&response).unwrap();
        let Pdus::Response(r) = m.data else {
            panic!("a Response")
        };
        assert_eq!(r.0.error_status, PduErrorStatus::NO_ERROR);
        for vb in r.0.variable_bindings.0.iter() {
            let vb = vb.unwrap();
            let name: Vec<u32> = vb.name.0.arcs().collect();
            if !name.starts_with(&prefix) || matches!(vb.value, VarBindValue::EndOfMibView) {
                return request_id;
            }
            each(&name, &vb.value);
            next = vb.name.0.to_string().parse().unwrap();
        }
    }
    panic!("the walk of {root} did not end within 20 requests");
}

/// What net-snmp's snmpwalk prints for `oid` (numeric names, values only, no MIBs).
pub fn snmpwalk_of(snmpwalk: &std::path::Path, port: u16, oid: &str) -> String {
    let out = Command::new(snmpwalk)
        .args([
            "-v2c", "-c", "public", "-On", "-Oq", "-Oe", "-t", "2", "-r", "2", "-m", "",
        ])
        .arg(format!("127.0.0.1:{port}"))
        .arg(oid)
        .env("MIBS", "")
        .output()
        .expect("snmpwalk runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The v3 user of the walk benchmarks, as snmpd.conf creates it: SHA-1 authentication,
/// AES-128 privacy.
pub const AES_USER_CONF: &str =
    "createUser aesuser SHA \"aesauthpass\" AES \"aesprivpass\"\nrouser aesuser priv\n";

/// net-snmp's command-line flags for [`AES_USER_CONF`]'s user at authPriv.
pub const AES_USER_FLAGS: [&str; 12] = [
    "-u",
    "aesuser",
    "-l",
    "authPriv",
    "-a",
    "SHA",
    "-A",
    "aesauthpass",
    "-x",
    "AES",
    "-X",
    "aesprivpass",
];

/// [`AES_USER_CONF`]'s user for snmp-client.
pub fn aes_user() -> snmp_client::UsmUser {
    use snmp_client::usm::{AuthProtocol, PrivProtocol};
    snmp_client::UsmUser::new(
        "aesuser",
        Some((AuthProtocol::Sha1, b"aesauthpass")),
        Some((PrivProtocol::Aes128, b"aesprivpass")),
    )
    .expect("long enough passwords")
}

/// A net-snmp walk tool (`snmpwalk`, `snmpbulkwalk`) run with `args` against our address
/// `port` from `root`: numeric OIDs and enumerations (`-On -Oe`), no MIBs, two seconds and one
/// retry; its output, the run required to succeed.
pub fn walk_numeric(tool: &std::path::Path, port: u16, args: &[&str], root: &str) -> String {
    let out = Command::new(tool)
        .args(["-On", "-Oe", "-m", "", "-t", "2", "-r", "1"])
        .args(args)
        .arg(format!("127.0.0.1:{port}"))
        .arg(root)
        .env("MIBS", "")
        .output()
        .expect("the walk tool runs");
    assert!(
        out.status.success(),
        "{tool:?} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A walk's output without the line a walk ends with when the agent's view ends there
/// (`End of MIB` under v1, `= No more variables left` after an endOfMibView), which a
/// recording of the same subtree does not have.
pub fn without_walk_end(walk: &str) -> String {
    walk.lines()
        .filter(|l| *l != "End of MIB" && !l.contains("= No more variables left"))
        .map(|l| format!("{l}\n"))
        .collect()
}
