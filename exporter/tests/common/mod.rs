//! What the exporter's live tests share: processes of our own on 127.0.0.1 (killed by PID
//! when dropped), a bounded HTTP GET, expositions read into samples.

#![allow(dead_code, unused_imports)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub use snmp_test_support::agent::{require_or_skip, start_agent, start_agent_with, tool};

/// exporter/snmp.yml: two modules (system, if_mib) in snmp_exporter 0.30's format.
pub fn fixture() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("snmp.yml"))
        .expect("the fixture")
}

/// The fixture in snmp_exporter 0.21's format: the modules at the top, each with its own
/// `version` and `auth`.
pub fn fixture_as_0_21() -> String {
    as_0_21(&fixture(), "public_v2")
}

/// `yml`'s modules in snmp_exporter 0.21's format, with the credentials of `auth`.
pub fn as_0_21(yml: &str, auth: &str) -> String {
    let options = snmp_exporter::config::LoadOptions::default();
    let config = snmp_exporter::config::Config::from_yaml("snmp.yml", yml, &options).unwrap();
    config.to_0_22_yaml(auth).unwrap()
}

/// A configuration with the `auths` given (YAML lines, indented two spaces) and one module,
/// `system`, of sysUpTime alone.
pub fn system_config(auths: &str) -> String {
    format!(
        "auths:\n{auths}modules:\n  system:\n    walk: [1.3.6.1.2.1.1.3]\n    metrics:\n    \
         - {{name: sysUpTime, oid: 1.3.6.1.2.1.1.3, type: gauge, help: The time since the agent started}}\n"
    )
}

/// A free TCP port of 127.0.0.1 (bound, noted, released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process killed by its PID when dropped.
pub struct Process {
    pub child: Child,
    pub port: u16,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `program args` and waits (at most 20 s) until `http://127.0.0.1:port{ready}`
/// answers 200.
pub fn spawn_http(program: &Path, args: &[String], port: u16, ready: &str) -> Process {
    let child = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts: {e}", program.display()));
    let p = Process { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Some((200, _)) = get(port, ready, &[]) {
            return p;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!(
        "{} did not answer {ready} on port {port} within 20 s",
        program.display()
    );
}

/// Our exporter over the config file `config`.
pub fn ours(config: &Path, extra: &[&str]) -> Process {
    let port = free_port();
    let mut args = vec![
        format!("--config.file={}", config.display()),
        format!("--web.listen-address=127.0.0.1:{port}"),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    spawn_http(
        Path::new(env!("CARGO_BIN_EXE_snmp-exporter")),
        &args,
        port,
        "/-/healthy",
    )
}

/// GET `path` of 127.0.0.1:`port` with `headers`: status and body; `None` when nothing
/// answers (bounded: 30 s).
pub fn get(port: u16, path: &str, headers: &[(&str, &str)]) -> Option<(u16, String)> {
    request("GET", port, path, headers)
}

/// `method` `path` of 127.0.0.1:`port` (see [`get`]).
pub fn request(
    method: &str,
    port: u16,
    path: &str,
    headers: &[(&str, &str)],
) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n"
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).ok()?;
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    Some((
        status,
        if chunked {
            dechunk(body)
        } else {
            body.to_string()
        },
    ))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A sample's identity: its name and its labels as written.
pub type Key = (String, String);

/// An exposition's samples by name and labels; its HELP and TYPE lines by name.
#[derive(Debug, Default)]
pub struct Samples {
    pub values: BTreeMap<Key, String>,
    pub meta: BTreeMap<String, (String, String)>,
}

pub fn samples(text: &str) -> Samples {
    let mut s = Samples::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').unwrap_or((rest, ""));
            s.meta.entry(name.into()).or_default().0 = help.into();
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, ty) = rest.split_once(' ').unwrap_or((rest, ""));
            s.meta.entry(name.into()).or_default().1 = ty.into();
        } else if !line.is_empty() && !line.starts_with('#') {
            let (series, value) = line.rsplit_once(' ').expect("a sample line");
            let (name, labels) = match series.split_once('{') {
                Some((n, l)) => (n.to_string(), l.trim_end_matches('}').to_string()),
                None => (series.to_string(), String::new()),
            };
            s.values.insert((name, labels), value.into());
        }
    }
    s
}
