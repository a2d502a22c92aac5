//! `snmp-bench --only agent`: the agent side serving a table of 10,000 rows (1,000 with
//! --quick), the example's exampleJobTable (examples/enterprise-agent: job names `job-K`),
//! read by one client (snmp-client, SNMPv2c, one binding a request) with a GETNEXT walk of
//! the name column and a GET of each row's name, from:
//!
//! 1. the standalone agent (`snmp_agent::Agent` over the example's handlers, a process of its
//!    own: this program started again with `--agent-child standalone`);
//! 2. net-snmp's snmpd as AgentX master, the same handlers in a subagent over TCP (its
//!    handlers on a thread of their own, as by default; and inline, `guard_timeout(false)`);
//! 3. snmpd alone from the same data: `extend j /bin/cat FILE` over a file of the same
//!    names, served as NET-SNMP-EXTEND-MIB's nsExtendOutLine."j".K (snmpd's own table; its
//!    cache reruns `cat` every 5 s, in a process not counted);
//! 4. the floor: a UDP echo sent the same requests (nothing decoded, nothing encoded): what
//!    the kernel and the wake-ups cost any server answering one request at a time.
//!
//! Every answer is checked (the expected name at the expected instance); what is not is
//! counted as failed. The servers run on CPU 0, the client on CPU 1 (where there are two).
//! Agent CPU is the serving processes' (snmpd and the subagent together in case 2, snmpd's
//! share shown apart) from /proc: requests per second per core = requests / agent CPU. Where
//! valgrind is installed, each server is started again under callgrind and walked once more:
//! the instructions per GETNEXT in user space, which the kernel's and the scheduler's share
//! does not blur.

mod servers;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::{Credentials, Options, Session, Value};
use snmp_test_support::agent::tool;

use crate::process::{cpu_of, pin_apart};
pub use servers::child;
use servers::{Launcher, Server, Started};

/// One measured case.
#[derive(Debug, Clone)]
pub struct AgentRow {
    /// Who served.
    pub server: &'static str,
    /// `getnext` (a walk of the column) or `get` (each row's instance).
    pub op: &'static str,
    /// Requests sent.
    pub requests: u64,
    /// Requests whose answer was missing or not the expected binding.
    pub failed: u64,
    /// Wall seconds.
    pub wall_s: f64,
    /// CPU seconds of the serving processes.
    pub agent_cpu_s: f64,
    /// snmpd's share of it, where snmpd is the master of a subagent.
    pub master_cpu_s: Option<f64>,
    /// Instructions per request in the serving processes (callgrind; GETNEXT only), and
    /// snmpd's share where it is a master.
    pub instructions: Option<f64>,
    pub master_instructions: Option<f64>,
}

impl AgentRow {
    /// Requests per second of one core of the serving processes.
    pub fn per_core(&self) -> f64 {
        self.requests as f64 / self.agent_cpu_s.max(1e-9)
    }

    /// Agent CPU microseconds per request.
    pub fn us_per_request(&self) -> f64 {
        self.agent_cpu_s * 1e6 / self.requests.max(1) as f64
    }
}

/// A v2c session with 127.0.0.1:`port`.
fn session(port: u16, timeout: Duration) -> Result<Session, String> {
    let options = Options {
        timeout,
        retries: 1,
        ..Options::default()
    };
    let addr = format!("127.0.0.1:{port}").parse().expect("an address");
    Session::new(addr, Credentials::V2c(b"public".to_vec()), options).map_err(|e| e.to_string())
}

/// Waits up to `patience` for the first row's name under `column`.
fn wait_ready(port: u16, column: &[u32], patience: Duration) -> Result<(), String> {
    let mut s = session(port, Duration::from_secs(1))?;
    let first = OidBuf::from_arcs(&[column, &[1]].concat()).expect("an OID");
    let deadline = Instant::now() + patience;
    while Instant::now() < deadline {
        if let Ok(v) = s.get(std::slice::from_ref(&first)) {
            if matches!(v[0].value, Value::OctetString(_)) {
                return Ok(());
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!(
        "127.0.0.1:{port} did not serve {first} within {patience:?}"
    ))
}

/// `rows` requests of `op` against `port`: a GETNEXT walk of `column` or a GET of each
/// row's name; the requests whose answer is not the expected name at the expected instance.
fn requests(s: &mut Session, op: &str, column: &[u32], rows: u64) -> u64 {
    let mut failed = 0u64;
    let mut at = OidBuf::from_arcs(column).expect("an OID");
    let mut in_a_row = 0;
    for k in 1..=rows {
        // A server that stopped answering: the rest are failures, not a long wait each.
        if in_a_row >= 5 {
            return failed + (rows - k + 1);
        }
        let want = OidBuf::from_arcs(&[column, &[k as u32]].concat()).expect("an OID");
        let answer = match op {
            "getnext" => s.get_next(std::slice::from_ref(&at)),
            _ => s.get(std::slice::from_ref(&want)),
        };
        let name = format!("job-{k}");
        let good = answer.is_ok_and(|vbs| {
            vbs.len() == 1
                && vbs[0].oid == want
                && matches!(&vbs[0].value, Value::OctetString(v) if v[..] == *name.as_bytes())
        });
        failed += u64::from(!good);
        in_a_row = if good { 0 } else { in_a_row + 1 };
        // A walk goes on from where it should be, whatever came back.
        at = want;
    }
    failed
}

/// The echo floor: the same GETNEXT requests, sent and waited for one at a time.
fn echoes(port: u16, column: &[u32], rows: u64) -> Result<u64, String> {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    socket
        .set_read_timeout(Some(Duration::from_secs(1)))
        .map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 65_535];
    let mut failed = 0;
    for k in 1..=rows {
        let at = OidBuf::from_arcs(&[column, &[k as u32]].concat()).expect("an OID");
        let request = crate::poll::floor::v2c_request(0xa1, (0, 0), &[at]);
        socket
            .send_to(&request, ("127.0.0.1", port))
            .map_err(|e| e.to_string())?;
        let got = socket.recv(&mut buf).map_or(0, |n| n);
        failed += u64::from(buf[..got] != request[..]);
    }
    Ok(failed)
}

/// The GETNEXT and GET rows of a started server (pinned apart from this thread).
fn measure(
    server: Server,
    started: &Started,
    rows: u64,
    notes: &mut Vec<String>,
) -> Result<Vec<AgentRow>, String> {
    let (column, port, pids) = (server.column(), started.port, started.pids());
    if server != Server::Echo {
        wait_ready(port, column, Duration::from_secs(10))?;
    } else {
        std::thread::sleep(Duration::from_millis(200));
    }
    notes.push(format!("{}: {}", server.name(), pin_apart(&pids)));
    let mut s = session(port, Duration::from_secs(2))?;
    let cpu = |pids: &[u32]| pids.iter().filter_map(|&p| cpu_of(p)).sum::<f64>();
    let ops: &[&'static str] = if server == Server::Echo {
        &["getnext"]
    } else {
        &["getnext", "get"]
    };
    let mut out = Vec::new();
    for &op in ops {
        let (before, master_before) = (cpu(&pids), cpu(&pids[..1]));
        let started_at = Instant::now();
        let failed = match server {
            Server::Echo => echoes(port, column, rows)?,
            _ => requests(&mut s, op, column, rows),
        };
        out.push(AgentRow {
            server: server.name(),
            op,
            requests: rows,
            failed,
            wall_s: started_at.elapsed().as_secs_f64(),
            agent_cpu_s: cpu(&pids) - before,
            master_cpu_s: server.has_master().then(|| cpu(&pids[..1]) - master_before),
            instructions: None,
            master_instructions: None,
        });
    }
    Ok(out)
}

/// Instructions per GETNEXT of each process of `server` under callgrind (the one answering
/// the client first): its counters dumped once it is serving, `walk` requests made, dumped
/// again; the second dumps' totals over `walk`.
fn instructions(launcher: &Launcher<'_>, server: Server, walk: u64) -> Result<Vec<f64>, String> {
    let started = launcher.start(server)?;
    wait_ready(started.port, server.column(), Duration::from_secs(60))?;
    let dump = |pid: u32| {
        Command::new("callgrind_control")
            .args(["-d", &pid.to_string()])
            .output()
            .map_err(|e| format!("callgrind_control: {e}"))
    };
    for pid in started.pids() {
        dump(pid)?;
    }
    let mut s = session(started.port, Duration::from_secs(5))?;
    let failed = requests(&mut s, "getnext", server.column(), walk);
    if failed > 0 {
        return Err(format!(
            "{failed} of {walk} GETNEXTs failed under callgrind"
        ));
    }
    let mut each = Vec::new();
    for pid in started.pids() {
        dump(pid)?;
        each.push(second_dump(launcher.dir, pid)? / walk as f64);
    }
    Ok(each)
}

/// The `summary:` of callgrind's second dump of process `pid` (file `*.PID.2`).
fn second_dump(dir: &Path, pid: u32) -> Result<f64, String> {
    let suffix = format!(".{pid}.2");
    let entries = std::fs::read_dir(dir).map_err(|e| e.to_string())?;
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().ends_with(&suffix) {
            let text = std::fs::read_to_string(e.path()).map_err(|e| e.to_string())?;
            return text
                .lines()
                .find_map(|l| l.strip_prefix("summary: ")?.trim().parse().ok())
                .ok_or_else(|| format!("no summary in {}", e.path().display()));
        }
    }
    Err(format!("callgrind wrote no second dump for process {pid}"))
}

/// Every case; what cannot run is a note.
pub fn run(exe: &Path, rows: usize, count: bool, notes: &mut Vec<String>) -> Vec<AgentRow> {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!("no temporary directory: {e}"));
            return Vec::new();
        }
    };
    let mut launcher = Launcher {
        exe,
        snmpd: tool("snmpd"),
        dir: dir.path(),
        rows,
        callgrind: None,
    };
    let mut servers = vec![
        Server::Standalone,
        Server::Subagent,
        Server::SubagentInline,
        Server::Alone,
        Server::Echo,
    ];
    if launcher.snmpd.is_none() {
        notes.push(
            "snmpd not found: the cases through snmpd and of snmpd alone are left out".into(),
        );
        servers.retain(|s| !s.has_master() && *s != Server::Alone);
    }
    let mut out = Vec::new();
    for &server in &servers {
        // Each case in a thread of its own, pinned apart from the servers; this thread stays
        // free to pin the next.
        let case = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let mut case_notes = Vec::new();
                    let r = launcher.start(server).and_then(|started| {
                        measure(server, &started, rows as u64, &mut case_notes)
                    });
                    (r, case_notes)
                })
                .join()
                .unwrap_or_else(|_| (Err("the case panicked".into()), Vec::new()))
        });
        notes.extend(case.1);
        match case.0 {
            Ok(r) => out.extend(r),
            Err(e) => notes.push(format!("{} not measured: {e}", server.name())),
        }
    }
    if count {
        launcher.callgrind = Some("cg".into());
        let walk = (rows as u64).min(1_000);
        for &server in servers.iter().filter(|s| **s != Server::Echo) {
            match instructions(&launcher, server, walk) {
                Ok(ir) => {
                    if let Some(r) = out
                        .iter_mut()
                        .find(|r| r.server == server.name() && r.op == "getnext")
                    {
                        r.instructions = Some(ir.iter().sum());
                        if server.has_master() {
                            r.master_instructions = ir.first().copied();
                        }
                    }
                }
                Err(e) => notes.push(format!("{}: no instruction count: {e}", server.name())),
            }
        }
        notes.push(format!(
            "instructions: callgrind, a GETNEXT walk of {walk} rows, every serving process"
        ));
    }
    out
}

/// The table: per server and operation, requests, failures, wall rate, agent CPU per
/// request, requests per second per core and each against snmpd alone, instructions.
pub fn table(rows: &[AgentRow]) -> String {
    let mut t = String::from(
        "Agents serving a table (one client, SNMPv2c, one binding a request)\n\
         server                          op       requests  failed   req/s wall  agent µs/req  req/s/core  vs snmpd alone  instr/req\n",
    );
    for r in rows {
        let reference = rows
            .iter()
            .find(|o| o.server == Server::Alone.name() && o.op == r.op);
        let ratio = reference.map_or("-".to_string(), |x| {
            format!("{:.2}x", r.per_core() / x.per_core())
        });
        let instr = r
            .instructions
            .map_or("-".to_string(), |i| format!("{i:.0}"));
        t.push_str(&format!(
            "{:<31} {:<8} {:>9} {:>7} {:>11.0} {:>13.2} {:>11.0}  {:>14} {:>10}\n",
            r.server,
            r.op,
            r.requests,
            r.failed,
            r.requests as f64 / r.wall_s.max(1e-9),
            r.us_per_request(),
            r.per_core(),
            ratio,
            instr
        ));
        if let Some(m) = r.master_cpu_s {
            let instr = r
                .master_instructions
                .map_or("-".to_string(), |i| format!("{i:.0}"));
            t.push_str(&format!(
                "{:<31} {:<8} {:>9} {:>7} {:>11} {:>13.2} {:>11}  {:>14} {:>10}\n",
                "  of which snmpd (master)",
                r.op,
                "",
                "",
                "",
                m * 1e6 / r.requests.max(1) as f64,
                "",
                "",
                instr
            ));
        }
    }
    t
}

/// The JSON `agent` array.
pub fn json(rows: &[AgentRow]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "server": r.server,
                "op": r.op,
                "requests": r.requests,
                "failed": r.failed,
                "wall_s": r.wall_s,
                "agent_cpu_s": r.agent_cpu_s,
                "master_cpu_s": r.master_cpu_s,
                "agent_us_per_request": r.us_per_request(),
                "requests_per_core_s": r.per_core(),
                "instructions_per_request": r.instructions,
                "master_instructions_per_request": r.master_instructions,
            })
        })
        .collect()
}
