//! `snmp-bench --only walk`: the seed's parallel walk (../shared/seeds/parallel-getnext.txt):
//! 4 concurrent whole-MIB walks of our own net-snmp snmpd on 127.0.0.1, one session per
//! thread (sync) or task (async), by GETNEXT (one request a binding) and by GETBULK (25 a
//! request), over SNMPv2c and SNMPv3 authPriv (SHA-1/AES-128); side by side with 4 snmpwalk /
//! snmpbulkwalk processes and gufo_snmp (sync, 4 threads; async, 4 tasks) when it can be
//! installed (pip, into a venv of its own; a note when not). Client CPU per request: ours
//! from this process's rusage, snmpwalk's from the children's (their start included), gufo's
//! from Python's process_time around its walks; the agent's from its schedstat. In turns,
//! each case after the other on the same agent. Under SNMPv2c a `udp floor` row sends as many
//! prebuilt requests the same way (one send, one blocking receive each) and decodes nothing:
//! the kernel's and the wake-ups' part of every client's figure, on this machine. The agent
//! runs on CPU 0 and the walkers on CPU 1 (where there are two), and ours against the floor
//! is measured again in interleaved rounds: the median ratio and its range, in a note.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use snmp_client::{AsyncSession, Credentials, Options, Session, WalkWith};
use snmp_test_support::agent as support;

use crate::process::{children_cpu, cpu_of, own_cpu};

/// One measured case.
#[derive(Debug, Clone)]
pub struct WalkRow {
    /// `snmp-client`, `snmpwalk`, `gufo_snmp`, or `udp floor` (prebuilt requests, nothing decoded).
    pub client: &'static str,
    /// `sync` or `async`.
    pub mode: &'static str,
    /// `2c` or `3`.
    pub version: &'static str,
    /// `getnext` or `getbulk`.
    pub op: &'static str,
    /// Requests of the 4 walks together.
    pub requests: u64,
    /// Client CPU seconds.
    pub cpu_s: f64,
    /// The agent's CPU seconds.
    pub agent_cpu_s: f64,
    /// Wall seconds.
    pub wall_s: f64,
}

fn credentials(version: &str) -> Credentials {
    match version {
        "2c" => Credentials::V2c(b"public".to_vec()),
        _ => Credentials::Usm(support::aes_user()),
    }
}

fn options(op: &str) -> Options {
    Options {
        timeout: Duration::from_secs(2),
        max_repetitions: 25,
        walk_with: if op == "getnext" {
            WalkWith::GetNext
        } else {
            WalkWith::GetBulk
        },
        max_walk_requests: 1_000_000,
        ..Options::default()
    }
}

/// 4 walks on 4 threads, each its own session as `credentials` (`Session::new`'s,
/// unconnected): requests made.
fn ours_sync(port: u16, credentials: &Credentials, op: &str, root: &str) -> Result<u64, String> {
    ours_sync_on(port, credentials, (op, root), false)
}

/// [`ours_sync`], each session's socket connected to the agent when `connected`.
fn ours_sync_on(
    port: u16,
    credentials: &Credentials,
    (op, root): (&str, &str),
    connected: bool,
) -> Result<u64, String> {
    let root: snmp_ber::OidBuf = root.parse().map_err(|e| format!("{root}: {e}"))?;
    let addr = ([127, 0, 0, 1], port).into();
    let walks: Vec<_> = (0..4)
        .map(|_| {
            let (c, o, root) = (credentials.clone(), options(op), root.clone());
            std::thread::spawn(move || -> Result<u64, String> {
                let mut s = Session::new(addr, c, o).map_err(|e| e.to_string())?;
                if connected {
                    s.connect_to_agent().map_err(|e| e.to_string())?;
                }
                let n = s.walk(&root, |_| {}).map_err(|e| e.to_string())?;
                Ok(n as u64)
            })
        })
        .collect();
    walks
        .into_iter()
        .map(|w| w.join().map_err(|_| "a walker panicked".to_string())?)
        .sum()
}

/// 4 walks as tasks of `runtime`'s one thread (built before the clock starts, as the sync
/// walks' threads are not: a few hundred requests of GETBULK would otherwise pay for it), each
/// its own session as `credentials`: requests made.
fn ours_async(
    runtime: &tokio::runtime::Runtime,
    port: u16,
    credentials: &Credentials,
    op: &str,
    root: &str,
) -> Result<u64, String> {
    let root: snmp_ber::OidBuf = root.parse().map_err(|e| format!("{root}: {e}"))?;
    let addr = ([127, 0, 0, 1], port).into();
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..4 {
            let (c, o, root) = (credentials.clone(), options(op), root.clone());
            tasks.push(tokio::spawn(async move {
                let mut s = AsyncSession::new(addr, c, o)
                    .await
                    .map_err(|e| e.to_string())?;
                let n = s.walk(&root, |_| {}).await.map_err(|e| e.to_string())?;
                Ok::<u64, String>(n as u64)
            }));
        }
        let mut total = 0;
        for t in tasks {
            total += t.await.map_err(|e| e.to_string())??;
        }
        Ok(total)
    })
}

/// 4 snmpwalk (GETNEXT) or snmpbulkwalk (GETBULK of 25) processes at once, output discarded.
fn net_snmp(port: u16, version: &str, op: &str, root: &str) -> Result<(), String> {
    let tool = if op == "getnext" {
        "snmpwalk"
    } else {
        "snmpbulkwalk"
    };
    let path = support::tool(tool).ok_or_else(|| format!("{tool} not found"))?;
    let security: Vec<&str> = match version {
        "2c" => vec!["-v2c", "-c", "public"],
        _ => ["-v3"].into_iter().chain(support::AES_USER_FLAGS).collect(),
    };
    // snmpwalk takes no -Cr.
    let repetitions: &[&str] = if op == "getnext" { &[] } else { &["-Cr25"] };
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(&path)
                .args(&security)
                .args(["-On", "-Oq", "-t", "2", "-r", "1", "-m", ""])
                .args(repetitions)
                .arg(format!("127.0.0.1:{port}"))
                .arg(format!(".{root}"))
                .env("MIBS", "")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("{tool}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    for mut c in children {
        let status = c.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("{tool} exited with {status}"));
        }
    }
    Ok(())
}

/// A v2c GetNextRequest (`op` getnext) or GetBulkRequest (non-repeaters 0, max-repetitions
/// 25) for sysDescr.0: what the floor sends again and again.
fn floor_request(op: &str) -> Vec<u8> {
    let sys_descr = ["1.3.6.1.2.1.1.1.0".parse().expect("an OID")];
    match op {
        "getnext" => crate::poll::floor::v2c_request(0xa1, (0, 0), &sys_descr),
        _ => crate::poll::floor::v2c_request(0xa5, (0, 25), &sys_descr),
    }
}

/// The floor under every client's CPU per request: 4 threads, together `requests` times
/// sending one prebuilt request to the agent and waiting for its answer (one send, one
/// blocking receive, nothing encoded or decoded): what the kernel and the wake-ups cost this
/// request pattern on this machine. Requests made. Each socket is connected to the agent
/// (`send`, `recv`).
fn udp_floor(port: u16, op: &str, requests: u64) -> Result<u64, String> {
    udp_floor_on(port, op, requests, true)
}

/// [`udp_floor`], its sockets unconnected (`send_to`, `recv_from`) unless `connected`.
fn udp_floor_on(port: u16, op: &str, requests: u64, connected: bool) -> Result<u64, String> {
    let agent = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let request = floor_request(op);
    let threads: Vec<_> = (0..4)
        .map(|k| {
            let request = request.clone();
            // `requests` in all, the remainder spread over the first threads.
            let each = requests / 4 + u64::from(k < requests % 4);
            std::thread::spawn(move || -> Result<u64, String> {
                let socket = std::net::UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
                if connected {
                    socket.connect(agent).map_err(|e| e.to_string())?;
                }
                socket
                    .set_read_timeout(Some(Duration::from_secs(2)))
                    .map_err(|e| e.to_string())?;
                let mut answer = vec![0u8; 65536];
                for _ in 0..each {
                    let sent = match connected {
                        true => socket.send(&request),
                        false => socket.send_to(&request, agent),
                    };
                    sent.map_err(|e| e.to_string())?;
                    let received = match connected {
                        true => socket.recv(&mut answer),
                        false => socket.recv_from(&mut answer).map(|(n, _)| n),
                    };
                    received.map_err(|e| format!("udp floor: no answer: {e}"))?;
                }
                Ok(each)
            })
        })
        .collect();
    threads
        .into_iter()
        .map(|t| {
            t.join()
                .map_err(|_| "a floor thread panicked".to_string())?
        })
        .sum()
}

/// gufo_snmp's walks, by a Python script: its CPU and wall seconds, as it measures them.
const GUFO: &str = r#"
import asyncio, sys, threading, time
from gufo.snmp import Aes128Key, Sha1Key, SnmpVersion, User
from gufo.snmp.sync import SnmpSession
from gufo.snmp.aio import SnmpSession as AioSession

port, version, op, mode, root = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
kw = dict(addr="127.0.0.1", port=port, timeout=2.0)
if version == "3":
    kw.update(version=SnmpVersion.v3, user=User("aesuser", auth_key=Sha1Key(b"aesauthpass"), priv_key=Aes128Key(b"aesprivpass")))
else:
    kw.update(version=SnmpVersion.v2c, community="public")
counts = []

def walk_sync():
    with SnmpSession(**kw) as s:
        it = s.getnext(root) if op == "getnext" else s.getbulk(root, max_repetitions=25)
        counts.append(sum(1 for _ in it))

async def walk_async():
    async with AioSession(**kw) as s:
        it = s.getnext(root) if op == "getnext" else s.getbulk(root, max_repetitions=25)
        n = 0
        async for _ in it:
            n += 1
        counts.append(n)

async def all_async():
    await asyncio.gather(*(walk_async() for _ in range(4)))

c0, w0 = time.process_time(), time.perf_counter()
if mode == "sync":
    ts = [threading.Thread(target=walk_sync) for _ in range(4)]
    [t.start() for t in ts]
    [t.join() for t in ts]
else:
    asyncio.run(all_async())
print(time.process_time() - c0, time.perf_counter() - w0, sum(counts))
"#;

/// Where the benchmarks keep their gufo_snmp venv.
pub(crate) fn gufo_venv() -> PathBuf {
    std::env::temp_dir().join("snmp-bench-gufo-venv")
}

/// A venv with gufo_snmp in `dir`, made once: its Python, or why there is none.
pub(crate) fn gufo_python(dir: &Path) -> Result<PathBuf, String> {
    let python = dir.join("bin/python");
    let ok = |p: &Path| {
        Command::new(p)
            .args(["-c", "import gufo.snmp"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if ok(&python) {
        return Ok(python);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("python3 -m venv: {e}"))?;
    if !made.success() {
        return Err("python3 -m venv failed".into());
    }
    let pip = Command::new(dir.join("bin/pip"))
        .args(["install", "-q", "gufo_snmp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("pip: {e}"))?;
    match pip.success() && ok(&python) {
        true => Ok(python),
        false => Err("pip install gufo_snmp failed (offline?)".into()),
    }
}

/// gufo_snmp's 4 walks: (CPU s, wall s, bindings).
fn gufo(
    python: &Path,
    port: u16,
    (version, op, mode, root): (&str, &str, &str, &str),
) -> Result<(f64, f64, u64), String> {
    let out = Command::new(python)
        .args(["-c", GUFO, &port.to_string(), version, op, mode, root])
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<&str> = text.split_whitespace().collect();
    match (out.status.success(), fields.as_slice()) {
        (true, [cpu, wall, n]) => Ok((
            cpu.parse().map_err(|_| "gufo: CPU")?,
            wall.parse().map_err(|_| "gufo: wall")?,
            n.parse().map_err(|_| "gufo: count")?,
        )),
        _ => Err(format!(
            "gufo_snmp {mode} v{version} {op}: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("failed")
        )),
    }
}

/// What a case's work says of itself.
enum Measured {
    /// Ours: the requests it made; its CPU is this process's.
    Requests(u64),
    /// Child processes (snmpwalk): their CPU from rusage; as many requests as ours.
    Children,
    /// gufo_snmp: its own CPU seconds; as many requests as ours.
    Reported(f64),
}

/// One case timed on the agent `agent`; `reference` is our sync walks' request count.
fn timed(
    agent: u32,
    (client, mode, version, op): (&'static str, &'static str, &'static str, &'static str),
    reference: u64,
    work: impl FnOnce() -> Result<Measured, String>,
) -> Result<WalkRow, String> {
    let gone = || "the agent is gone".to_string();
    let (cpu0, kids0, t0) = (own_cpu(), children_cpu(), Instant::now());
    let agent0 = cpu_of(agent).ok_or_else(gone)?;
    let measured = work()?;
    let wall_s = t0.elapsed().as_secs_f64();
    let agent_cpu_s = cpu_of(agent).ok_or_else(gone)? - agent0;
    let (cpu_s, requests) = match measured {
        Measured::Requests(n) => (own_cpu() - cpu0, n),
        Measured::Children => (children_cpu() - kids0, reference),
        Measured::Reported(cpu) => (cpu, reference),
    };
    Ok(WalkRow {
        client,
        mode,
        version,
        op,
        requests,
        cpu_s,
        agent_cpu_s,
        wall_s,
    })
}

/// Our snmpd with the bench user, answering: it and its port, or why not.
fn agent(notes: &mut Vec<String>) -> Option<support::Agent> {
    let Some(snmpd) = support::tool("snmpd") else {
        notes.push("walk: not run: snmpd not found (apt-get install -y snmpd)".into());
        return None;
    };
    let agent = support::start_agent_with(&snmpd, support::AES_USER_CONF);
    let addr = ([127, 0, 0, 1], agent.port).into();
    let sysdescr = ["1.3.6.1.2.1.1.1.0".parse().expect("an OID")];
    for _ in 0..50 {
        let answered = Session::new(addr, credentials("2c"), options("getbulk"))
            .and_then(|mut s| s.get(&sysdescr))
            .is_ok();
        if answered {
            return Some(agent);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    notes.push("walk: not run: our snmpd did not answer".into());
    None
}

/// Runs the section: every case in turn, for each version and request kind.
pub fn run(root: &str, gufo_too: bool, rounds: u32, notes: &mut Vec<String>) -> Vec<WalkRow> {
    let Some(agent) = agent(notes) else {
        return Vec::new();
    };
    let (port, pid) = (agent.port, agent.pid());
    notes.push(format!("walk: {}", crate::process::pin_apart(&[pid])));
    let python = match gufo_too.then(|| gufo_python(&gufo_venv())) {
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            notes.push(format!("walk: gufo_snmp not measured: {e}"));
            None
        }
        None => {
            notes.push("walk: gufo_snmp not measured (--no-gufo)".into());
            None
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            notes.push(format!("walk: not run: no tokio runtime: {e}"));
            return Vec::new();
        }
    };
    let mut rows = Vec::new();
    for version in ["2c", "3"] {
        for op in ["getnext", "getbulk"] {
            let mut results = Vec::new();
            // The user's keys from its passwords once, before the clock starts.
            let who = credentials(version);
            let ours = timed(pid, ("snmp-client", "sync", version, op), 0, || {
                ours_sync(port, &who, op, root).map(Measured::Requests)
            });
            let reference = match &ours {
                Ok(r) => r.requests,
                Err(e) => {
                    notes.push(format!("walk v{version} {op}: {e}"));
                    continue;
                }
            };
            results.push(ours);
            results.push(timed(
                pid,
                ("snmp-client", "async", version, op),
                reference,
                || ours_async(&runtime, port, &who, op, root).map(Measured::Requests),
            ));
            if version == "2c" {
                results.push(timed(pid, ("udp floor", "sync", version, op), 0, || {
                    udp_floor(port, op, reference).map(Measured::Requests)
                }));
            }
            results.push(timed(
                pid,
                ("snmpwalk", "sync", version, op),
                reference,
                || net_snmp(port, version, op, root).map(|()| Measured::Children),
            ));
            for mode in ["sync", "async"] {
                if let Some(py) = &python {
                    let case = ("gufo_snmp", mode, version, op);
                    results.push(timed(pid, case, reference, || {
                        gufo(py, port, (version, op, mode, root))
                            .map(|(cpu, _, _)| Measured::Reported(cpu))
                    }));
                }
            }
            for r in results {
                match r {
                    Ok(r) => rows.push(r),
                    Err(e) => notes.push(format!("walk v{version} {op}: {e}")),
                }
            }
            if version == "2c" {
                notes.push(against_floor(pid, (port, op, root), reference, rounds));
            }
        }
    }
    rows
}

/// Ours (sync) and the floor in `rounds` interleaved rounds, like for like in each socket
/// mode (each round: the connected floor, ours connected, the unconnected floor, ours as
/// `Session::new` makes it; `reference` requests each): for each mode the median of the
/// rounds' ratios of CPU a request and their range, and the same for the default session
/// against the connected floor, as a note.
fn against_floor(
    agent: u32,
    (port, op, root): (u16, &'static str, &str),
    reference: u64,
    rounds: u32,
) -> String {
    let who = credentials("2c");
    let per = |r: &WalkRow| r.cpu_s / r.requests.max(1) as f64;
    // CPU a request: [connected floor, ours connected, unconnected floor, ours default].
    let mut per_round: Vec<[f64; 4]> = Vec::new();
    for _ in 0..rounds {
        let mut round = [0.0; 4];
        for (k, connected) in [true, false].into_iter().enumerate() {
            let floor = timed(agent, ("udp floor", "sync", "2c", op), 0, || {
                udp_floor_on(port, op, reference, connected).map(Measured::Requests)
            });
            let ours = timed(agent, ("snmp-client", "sync", "2c", op), 0, || {
                ours_sync_on(port, &who, (op, root), connected).map(Measured::Requests)
            });
            match (floor, ours) {
                (Ok(f), Ok(o)) => (round[2 * k], round[2 * k + 1]) = (per(&f), per(&o)),
                (Err(e), _) | (_, Err(e)) => {
                    return format!("walk v2c {op}: against the floor: {e}")
                }
            }
        }
        per_round.push(round);
    }
    let comparisons = [
        ("connected", 0, 1),
        ("unconnected", 2, 3),
        ("default session / connected floor", 0, 3),
    ];
    let mut out = format!(
        "walk v2c {op}: snmp-client sync / udp floor, CPU a request, {rounds} interleaved rounds:"
    );
    for (what, floor, ours) in comparisons {
        let ratios: Vec<f64> = per_round
            .iter()
            .map(|r| r[ours] / r[floor].max(1e-12))
            .collect();
        match crate::clients::median_range(&ratios) {
            Some((median, lo, hi)) => out.push_str(&format!(
                " {what} median {median:.2} (range {lo:.2}-{hi:.2});"
            )),
            None => return format!("walk v2c {op}: against the floor: no rounds"),
        }
    }
    out.pop();
    out
}

/// The table, with each row's CPU per request against ours (sync) in the same case.
pub fn table(rows: &[WalkRow]) -> String {
    let mut out = String::from(
        "\n4 concurrent whole-MIB walks of our snmpd (client CPU µs per request; agent's beside):\n\
         client       mode   ver  op       requests  client µs/req  agent µs/req  wall s  vs snmp-client sync\n",
    );
    let per = |r: &WalkRow, s: f64| s * 1e6 / r.requests.max(1) as f64;
    for r in rows {
        let ours = rows.iter().find(|o| {
            o.client == "snmp-client" && o.mode == "sync" && o.version == r.version && o.op == r.op
        });
        let ratio = ours.map_or("-".to_string(), |o| {
            format!("{:.1}x", per(r, r.cpu_s) / per(o, o.cpu_s).max(1e-9))
        });
        out.push_str(&format!(
            "{:<12} {:<6} {:<4} {:<8} {:>8} {:>14.2} {:>13.2} {:>7.2}  {ratio}\n",
            r.client,
            r.mode,
            r.version,
            r.op,
            r.requests,
            per(r, r.cpu_s),
            per(r, r.agent_cpu_s),
            r.wall_s,
        ));
    }
    out
}

/// The JSON `walk` array.
pub fn json(rows: &[WalkRow]) -> serde_json::Value {
    let per = |r: &WalkRow, s: f64| s * 1e6 / r.requests.max(1) as f64;
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "client": r.client,
                    "mode": r.mode,
                    "version": r.version,
                    "op": r.op,
                    "cpu_us_per_request": per(r, r.cpu_s),
                    "agent_cpu_us_per_request": per(r, r.agent_cpu_s),
                    "wall_s": r.wall_s,
                    "requests": r.requests,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use snmp_ber::Decode;
    use snmp_messages::community_based_snmpv2::Message;
    use snmp_messages::snmpv2_pdu::Pdus;

    #[test]
    fn the_floor_sends_the_walks_first_request() {
        let getnext = super::floor_request("getnext");
        let message = Message::from_ber(&getnext).expect("a message");
        assert_eq!(message.community, b"public");
        let Pdus::GetNextRequest(p) = message.data else {
            panic!("not a GetNextRequest: {:?}", message.data);
        };
        let vb = p.0.variable_bindings.0.iter().next().unwrap().unwrap();
        assert_eq!(vb.name.0.to_string(), "1.3.6.1.2.1.1.1.0");
        let getbulk = super::floor_request("getbulk");
        let Pdus::GetBulkRequest(b) = Message::from_ber(&getbulk).expect("a message").data else {
            panic!("not a GetBulkRequest");
        };
        assert_eq!((b.0.non_repeaters, b.0.max_repetitions), (0, 25));
    }
}
