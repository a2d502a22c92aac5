//! The agent section's servers: this program again as the standalone agent, as a subagent,
//! or as a UDP echo (the floor); net-snmp's snmpd as AgentX master or alone; each on
//! 127.0.0.1, optionally under callgrind, killed by PID when dropped.

use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::AtomicBool;

use crate::process::free_port;

/// exampleJobName, the column read from our agents.
pub const NAME_COLUMN: [u32; 13] = [1, 3, 6, 1, 4, 1, 8072, 9999, 7, 1, 4, 1, 2];
/// nsExtendOutLine."j" (the token `j` as an index: length 1, then 106), snmpd's own table.
pub const EXTEND_LINES: [u32; 15] = [1, 3, 6, 1, 4, 1, 8072, 1, 3, 2, 4, 1, 2, 1, 106];

/// Who serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    /// snmp-agent's standalone agent.
    Standalone,
    /// snmpd as master, snmp-agent's subagent behind it over AgentX (TCP).
    Subagent,
    /// The same, its handlers on the thread that talks to the master
    /// (`Subagent::guard_timeout(false)`).
    SubagentInline,
    /// snmpd alone, the names in its own table (`extend`).
    Alone,
    /// A UDP echo: what serving one request at a time costs the kernel and the scheduler.
    Echo,
}

impl Server {
    /// Whether snmpd is its master (its first process).
    pub fn has_master(self) -> bool {
        matches!(self, Server::Subagent | Server::SubagentInline)
    }

    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Server::Standalone => "snmp-agent standalone",
            Server::Subagent => "snmpd + snmp-agent subagent",
            Server::SubagentInline => "snmpd + subagent (inline)",
            Server::Alone => "snmpd alone (extend)",
            Server::Echo => "udp echo (floor)",
        }
    }

    /// The column its rows' names are in.
    pub fn column(self) -> &'static [u32] {
        match self {
            Server::Alone => &EXTEND_LINES,
            _ => &NAME_COLUMN,
        }
    }
}

/// A process killed (by its PID) when dropped.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A started server: its processes (the one answering the client first) and UDP port.
pub struct Started {
    pub procs: Vec<Proc>,
    pub port: u16,
}

impl Started {
    /// The processes' IDs.
    pub fn pids(&self) -> Vec<u32> {
        self.procs.iter().map(|p| p.0.id()).collect()
    }
}

/// How to start what: `callgrind` names the output file prefix when under valgrind.
pub struct Launcher<'a> {
    pub exe: &'a Path,
    pub snmpd: Option<PathBuf>,
    pub dir: &'a Path,
    pub rows: usize,
    pub callgrind: Option<String>,
}

impl Launcher<'_> {
    fn command(&self, program: &Path, label: &str) -> Command {
        match &self.callgrind {
            None => Command::new(program),
            Some(prefix) => {
                let mut c = Command::new("valgrind");
                let out = self.dir.join(format!("{prefix}.{label}.%p"));
                c.arg("--tool=callgrind")
                    .arg(format!("--callgrind-out-file={}", out.display()))
                    .arg(program);
                c
            }
        }
    }

    fn ours(&self, mode: &str, address: &str) -> Result<Proc, String> {
        self.command(self.exe, mode)
            .args(["--agent-child", mode, address, &self.rows.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(Proc)
            .map_err(|e| format!("the {mode} agent: {e}"))
    }

    fn snmpd(&self, port: u16, extra: &str) -> Result<Proc, String> {
        let snmpd = self.snmpd.as_ref().ok_or("snmpd not found")?;
        let conf = self.dir.join(format!("snmpd-{port}.conf"));
        std::fs::write(&conf, format!("rocommunity public 127.0.0.1\n{extra}"))
            .map_err(|e| e.to_string())?;
        self.command(snmpd, "snmpd")
            .args(["-f", "-Lf", "/dev/null", "-C", "-c"])
            .arg(&conf)
            .arg("-p")
            .arg(self.dir.join(format!("snmpd-{port}.pid")))
            .arg(format!("udp:127.0.0.1:{port}"))
            .env("SNMP_PERSISTENT_DIR", self.dir)
            .env("MIBS", "")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(Proc)
            .map_err(|e| format!("snmpd: {e}"))
    }

    /// Starts `server`.
    pub fn start(&self, server: Server) -> Result<Started, String> {
        let port = free_port();
        let udp = format!("127.0.0.1:{port}");
        let procs = match server {
            Server::Standalone => vec![self.ours("standalone", &udp)?],
            Server::Echo => vec![self.ours("echo", &udp)?],
            Server::Subagent | Server::SubagentInline => {
                let agentx = format!("tcp:127.0.0.1:{}", free_tcp_port());
                let extra = format!("master agentx\nagentXSocket {agentx}\n");
                let master = self.snmpd(port, &extra)?;
                let mode = match server {
                    Server::Subagent => "subagent",
                    _ => "subagent-inline",
                };
                vec![master, self.ours(mode, &agentx)?]
            }
            Server::Alone => {
                let lines = self.dir.join("names.txt");
                let names: String = (1..=self.rows).map(|k| format!("job-{k}\n")).collect();
                std::fs::write(&lines, names).map_err(|e| e.to_string())?;
                let extra = format!("extend j /bin/cat {}\n", lines.display());
                vec![self.snmpd(port, &extra)?]
            }
        };
        Ok(Started { procs, port })
    }
}

/// A TCP port on 127.0.0.1 nothing listens on now.
fn free_tcp_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_or(0, |a| a.port())
}

/// The child: the example's handlers with `rows` jobs, standalone on `address` or as a
/// subagent of the master at `address`; or a UDP echo on `address`.
pub fn child(mode: &str, address: &str, rows: &str) -> ExitCode {
    let Ok(rows) = rows.parse::<usize>() else {
        eprintln!("error: rows: {rows}");
        return ExitCode::FAILURE;
    };
    let stop = AtomicBool::new(false);
    let result = match mode {
        "echo" => echo(address),
        "standalone" => standalone(address, rows, &stop),
        _ => address
            .parse::<snmp_agent::agentx::Master>()
            .and_then(|master| {
                let app = enterprise_agent::App::new();
                app.add_jobs(rows);
                let sub = snmp_agent::agentx::Subagent::new(app.registry(), master);
                let mut sub = sub.guard_timeout(mode == "subagent");
                sub.run(&stop).map_err(|e| e.to_string())
            }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn standalone(address: &str, rows: usize, stop: &AtomicBool) -> Result<(), String> {
    let app = enterprise_agent::App::new();
    app.add_jobs(rows);
    let socket = UdpSocket::bind(address).map_err(|e| e.to_string())?;
    let everything = snmp_agent::MibView::everything();
    let access = snmp_agent::Access::new().community("public", everything, None);
    let engine = b"\x80\x00\x1f\x88\x04bench";
    let mut agent = snmp_agent::Agent::new(app.registry(), access, engine, 1);
    agent.serve(&socket, stop).map_err(|e| e.to_string())
}

/// Sends every datagram back where it came from, until killed.
fn echo(address: &str) -> Result<(), String> {
    let socket = UdpSocket::bind(address).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 65_535];
    loop {
        let (n, from) = match socket.recv_from(&mut buf) {
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.to_string()),
        };
        socket.send_to(&buf[..n], from).map_err(|e| e.to_string())?;
    }
}
