//! `snmp-bench --only poll`: many agents polled from one socket. `snmpc simulate` (run as a
//! child of this binary) serves a recording of a small device (the system group and ten
//! interfaces) on N ports of 127.0.0.1, each port an agent with its own engine ID; the
//! poller ([`snmp_client::poll::AsyncPoller`], one tokio thread) runs rounds of a GET of ten
//! bindings from every agent, then a walk of each one's ifTable, over v2c and v3 authPriv
//! (SHA-1/AES-128). The first round of each version is a warm-up (v3: engine discovery) and
//! is not counted. Client CPU is this process's run time (schedstat) over the counted
//! rounds; the simulator's is shown beside it; failures are counted in every row. The peer:
//! gufo_snmp's asyncio sessions (a Python script in a venv the benchmark makes) and net-snmp's
//! asynchronous API (benches/c/netsnmp_poll.c, compiled here against libnetsnmp), polling the
//! same agents with the same bound on requests in flight, a session (and a socket) per agent
//! as their APIs have it, kept across rounds; measured by their own process time. The floor
//! ([`floor`]): the same v2c GETs as prebuilt datagrams from one socket in batches, nothing
//! decoded: what the kernel and the wake-ups cost, under every client's figure.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::poll::{AsyncPoller, Job, Outcome, Target};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, UsmUser};

use crate::process::{cpu_of, own_cpu};

pub(crate) mod floor;
mod peers;

/// One measured row.
#[derive(Debug, Clone)]
pub struct PollRow {
    /// `snmp-client`, `gufo_snmp`, `net-snmp` or `udp floor`.
    pub client: &'static str,
    /// `2c` or `3`.
    pub version: &'static str,
    /// `get` or `walk`.
    pub op: &'static str,
    /// Agents polled.
    pub agents: usize,
    /// Requests made in the counted rounds.
    pub requests: u64,
    /// Bindings brought back in the counted rounds.
    pub bindings: u64,
    /// Targets whose result was an error, in the counted rounds.
    pub failed: u64,
    /// Client CPU seconds over the counted rounds.
    pub cpu_s: f64,
    /// The simulator's CPU seconds over them (ours only: the peer's script runs its
    /// warm-up in the same process).
    pub simulator_cpu_s: Option<f64>,
    /// Wall seconds.
    pub wall_s: f64,
    /// Median and 99th-percentile latency of a target's work in a round, ms.
    pub p50_ms: f64,
    /// See `p50_ms`.
    pub p99_ms: f64,
    /// Datagrams per receive system call, and per send call (how full the batches were;
    /// ours only).
    pub per_call: Option<(f64, f64)>,
}

/// A small device's walk: the system group and ten interfaces.
fn recording() -> String {
    let mut text = String::from(
        ".1.3.6.1.2.1.1.1.0 = STRING: \"Simulated device, 10 interfaces\"\n\
         .1.3.6.1.2.1.1.2.0 = OID: .1.3.6.1.4.1.8072.3.2.10\n\
         .1.3.6.1.2.1.1.3.0 = Timeticks: (123456) 0:20:34.56\n\
         .1.3.6.1.2.1.1.4.0 = STRING: \"noc@example.net\"\n\
         .1.3.6.1.2.1.1.5.0 = STRING: \"sim\"\n\
         .1.3.6.1.2.1.1.6.0 = STRING: \"rack 7\"\n\
         .1.3.6.1.2.1.2.1.0 = INTEGER: 10\n",
    );
    for (column, kind) in [
        (1, "INTEGER"),
        (2, "STRING"),
        (3, "INTEGER"),
        (5, "Gauge32"),
        (7, "INTEGER"),
        (8, "INTEGER"),
        (10, "Counter32"),
        (16, "Counter32"),
    ] {
        for i in 1..=10 {
            let value = match kind {
                "STRING" => format!("\"eth{i}\""),
                "Gauge32" => "1000000000".to_string(),
                "Counter32" => format!("{}", 1_000_000 * i),
                _ => format!("{}", if column == 3 { 6 } else { i.min(2) }),
            };
            text.push_str(&format!(
                ".1.3.6.1.2.1.2.2.1.{column}.{i} = {kind}: {value}\n"
            ));
        }
    }
    text
}

fn user() -> UsmUser {
    UsmUser::new(
        "benchuser",
        Some((AuthProtocol::Sha1, b"benchauthpass")),
        Some((PrivProtocol::Aes128, b"benchprivpass")),
    )
    .expect("a user")
}

/// `snmpc simulate` as a child of this binary (`--simulate-child`), killed when dropped.
pub(crate) struct Simulator(Child);

impl Simulator {
    /// The simulator serving the recording `data` on `addresses` (`127.0.0.1:PORT` or
    /// `127.0.0.1:FIRST-LAST`), once it has taken the last port (30 s at most).
    pub(crate) fn start(exe: &Path, data: &Path, addresses: &str) -> Result<Simulator, String> {
        let last: u16 = addresses
            .rsplit(['-', ':'])
            .next()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("{addresses}: no port"))?;
        let child = Command::new(exe)
            .arg("--simulate-child")
            .arg(data)
            .arg(addresses)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("the simulator did not start: {e}"))?;
        let simulator = Simulator(child);
        crate::process::wait_for_udp_port(last, Duration::from_secs(30))
            .map_err(|e| format!("the simulator did not take its ports: {e}"))?;
        Ok(simulator)
    }

    /// Its process ID.
    pub(crate) fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The latency at quantile `q` of `sorted` (ms).
pub(crate) fn quantile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[k].as_secs_f64() * 1e3
}

/// Counted rounds of `job`: a row.
async fn measure(
    poller: &mut AsyncPoller,
    job: &Job,
    rounds: usize,
    simulator: u32,
    (version, op): (&'static str, &'static str),
) -> Result<PollRow, String> {
    let agents = poller.core().exchanges().len();
    let gone = || "the simulator is gone".to_string();
    let sockets0 = poller.socket_stats();
    let (cpu0, sim0, started) = (
        own_cpu(),
        cpu_of(simulator).ok_or_else(gone)?,
        Instant::now(),
    );
    let mut outcomes: Vec<Outcome> = Vec::new();
    for _ in 0..rounds {
        outcomes.extend(poller.round(job.clone()).await.map_err(|e| e.to_string())?);
    }
    let wall_s = started.elapsed().as_secs_f64();
    let simulator_cpu_s = cpu_of(simulator).ok_or_else(gone)? - sim0;
    let cpu_s = own_cpu() - cpu0;
    let sockets = poller.socket_stats();
    let ratio = |n: u64, d: u64| n as f64 / d.max(1) as f64;
    let per_call = (
        ratio(
            sockets.received - sockets0.received,
            sockets.receive_calls - sockets0.receive_calls,
        ),
        ratio(
            sockets.sent - sockets0.sent,
            sockets.send_calls - sockets0.send_calls,
        ),
    );
    if let Some(e) = outcomes.iter().find_map(|o| o.result.as_ref().err()) {
        eprintln!("poll v{version} {op}: a failure: {e}");
    }
    let mut latencies: Vec<Duration> = outcomes.iter().map(|o| o.latency).collect();
    latencies.sort();
    Ok(PollRow {
        client: "snmp-client",
        version,
        op,
        agents,
        requests: outcomes.iter().map(|o| u64::from(o.requests)).sum(),
        bindings: outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok())
            .map(|b| b.len() as u64)
            .sum(),
        failed: outcomes.iter().filter(|o| o.result.is_err()).count() as u64,
        cpu_s,
        simulator_cpu_s: Some(simulator_cpu_s),
        wall_s,
        p50_ms: quantile(&latencies, 0.5),
        p99_ms: quantile(&latencies, 0.99),
        per_call: Some(per_call),
    })
}

/// Runs the section: `agents` simulated agents from port `base`, `rounds` counted rounds;
/// gufo_snmp and net-snmp on the same agents after ours when `peers` (gufo, net-snmp) say so.
pub fn run(
    exe: &Path,
    agents: usize,
    rounds: usize,
    (gufo_too, netsnmp_too): (bool, bool),
    notes: &mut Vec<String>,
) -> Vec<PollRow> {
    let dir = std::env::temp_dir().join(format!("snmp-bench-poll-{}", std::process::id()));
    let data = dir.join("device.txt");
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&data, recording()))
    {
        notes.push(format!("poll: not run: {}: {e}", data.display()));
        return Vec::new();
    }
    let base = 30_000 + (std::process::id() % 20_000) as u16;
    let last = base.saturating_add(agents.saturating_sub(1) as u16);
    let simulator = match Simulator::start(exe, &data, &format!("127.0.0.1:{base}-{last}")) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!("poll: {e}"));
            return Vec::new();
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            notes.push(format!("poll: no runtime: {e}"));
            return Vec::new();
        }
    };
    let pid = simulator.pid();
    let get = Job::Get(
        [
            "1.3.6.1.2.1.1.1.0",
            "1.3.6.1.2.1.1.2.0",
            "1.3.6.1.2.1.1.3.0",
            "1.3.6.1.2.1.1.4.0",
            "1.3.6.1.2.1.1.5.0",
            "1.3.6.1.2.1.1.6.0",
            "1.3.6.1.2.1.2.1.0",
            "1.3.6.1.2.1.2.2.1.2.1",
            "1.3.6.1.2.1.2.2.1.8.1",
            "1.3.6.1.2.1.2.2.1.10.1",
        ]
        .iter()
        .map(|s| s.parse::<OidBuf>().expect("an OID"))
        .collect(),
    );
    let walk = Job::Walk("1.3.6.1.2.1.2.2".parse().expect("an OID"));
    let mut rows = Vec::new();
    // The user's keys are derived from the passwords once (a megabyte hashed per password),
    // and each target's copy localized to its engine at discovery.
    let user = user();
    for version in ["2c", "3"] {
        let targets: Vec<Target> = (base..=last)
            .map(|port| Target {
                addr: ([127, 0, 0, 1], port).into(),
                credentials: match version {
                    "2c" => Credentials::V2c(b"public".to_vec()),
                    _ => Credentials::Usm(user.clone()),
                },
            })
            .collect();
        let measured = runtime.block_on(async {
            let options = Options {
                timeout: Duration::from_secs(2),
                retries: 2,
                max_repetitions: 40,
                ..Options::default()
            };
            let mut poller = AsyncPoller::new(targets, options, 256)
                .await
                .map_err(|e| e.to_string())?;
            // Warm-up: sockets, v3 discovery.
            poller.round(get.clone()).await.map_err(|e| e.to_string())?;
            let g = measure(&mut poller, &get, rounds, pid, (version, "get")).await?;
            let w = measure(&mut poller, &walk, rounds, pid, (version, "walk")).await?;
            Ok::<_, String>([g, w])
        });
        match measured {
            Ok(r) => rows.extend(r),
            Err(e) => notes.push(format!("poll v{version}: not measured: {e}")),
        }
    }
    let ours = rows.clone();
    // The floor: the same GETs, prebuilt, from one socket in batches; nothing decoded.
    if let Job::Get(oids) = &get {
        let addrs: Vec<std::net::SocketAddr> =
            (base..=last).map(|p| ([127, 0, 0, 1], p).into()).collect();
        match floor::measure(
            &addrs,
            &floor::v2c_request(0xa0, (0, 0), oids),
            (rounds, 256),
            pid,
        ) {
            Ok(r) => rows.push(r),
            Err(e) => notes.push(format!("poll: udp floor not measured: {e}")),
        }
    }
    match gufo_too.then(|| crate::walks::gufo_python(&crate::walks::gufo_venv())) {
        Some(Ok(python)) => {
            for version in ["2c", "3"] {
                match peers::gufo(&python, (base, last), version, rounds, &ours) {
                    Ok(r) => rows.extend(r),
                    Err(e) => notes.push(format!("poll: gufo_snmp v{version}: {e}")),
                }
            }
        }
        Some(Err(e)) => notes.push(format!("poll: gufo_snmp not measured: {e}")),
        None => notes.push("poll: gufo_snmp not measured (--no-gufo)".into()),
    }
    for version in ["2c", "3"].into_iter().filter(|_| netsnmp_too) {
        match peers::netsnmp(&dir, (base, last), version, rounds, &ours) {
            Ok(r) => rows.extend(r),
            Err(e) => notes.push(format!("poll: net-snmp v{version} not measured: {e}")),
        }
    }
    if !netsnmp_too {
        notes.push("poll: net-snmp not measured (--no-netsnmp)".into());
    }
    drop(simulator);
    let _ = std::fs::remove_dir_all(&dir);
    rows
}

/// The table.
pub fn table(rows: &[PollRow]) -> String {
    let mut out = String::from(
        "\nPolling simulated agents (snmp_client::poll: one socket, one tokio thread; gufo_snmp: asyncio sessions; net-snmp: snmp_async_send sessions):\n\
         client       ver  op     agents  requests  failed  client µs/req  vs ours  requests/s  p50 ms  p99 ms  simulator µs/req  datagrams/recv  /send\n",
    );
    for r in rows {
        let per = |s: f64| s * 1e6 / (r.requests.max(1) as f64);
        let ours = rows
            .iter()
            .find(|o| o.client == "snmp-client" && o.version == r.version && o.op == r.op)
            .map(|o| per(r.cpu_s) / (o.cpu_s * 1e6 / o.requests.max(1) as f64));
        let or_dash = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
        out.push_str(&format!(
            "{:<12} {:<4} {:<5} {:>7} {:>9} {:>7} {:>14.2} {:>8} {:>11.0} {:>7.2} {:>7.2} {:>17} {:>15} {:>6}\n",
            r.client,
            r.version,
            r.op,
            r.agents,
            r.requests,
            r.failed,
            per(r.cpu_s),
            ours.map_or("-".to_string(), |x| format!("{x:.1}x")),
            r.requests as f64 / r.wall_s.max(1e-9),
            r.p50_ms,
            r.p99_ms,
            or_dash(r.simulator_cpu_s.map(per)),
            or_dash(r.per_call.map(|c| c.0)),
            or_dash(r.per_call.map(|c| c.1)),
        ));
    }
    out
}

/// The JSON `poll` array.
pub fn json(rows: &[PollRow]) -> serde_json::Value {
    let per = |r: &PollRow, s: f64| s * 1e6 / (r.requests.max(1) as f64);
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "client": r.client,
                    "mode": "async",
                    "version": r.version,
                    "op": r.op,
                    "agents": r.agents,
                    "requests": r.requests,
                    "bindings": r.bindings,
                    "failed": r.failed,
                    "cpu_us_per_request": per(r, r.cpu_s),
                    "requests_per_s": r.requests as f64 / r.wall_s.max(1e-9),
                    "p50_ms": r.p50_ms,
                    "p99_ms": r.p99_ms,
                    "simulator_cpu_us_per_request": r.simulator_cpu_s.map(|s| per(r, s)),
                    "wall_s": r.wall_s,
                    "datagrams_per_receive_call": r.per_call.map(|c| c.0),
                    "datagrams_per_send_call": r.per_call.map(|c| c.1),
                })
            })
            .collect(),
    )
}

/// The child side: `snmpc simulate --data FILE ADDRESS` with the bench user.
pub fn child(data: &str, address: &str) -> std::process::ExitCode {
    use clap::Parser;
    #[derive(Parser)]
    struct Simulate {
        #[command(flatten)]
        opts: snmpc::simulate::SimulateOpts,
    }
    let args = [
        "simulate",
        "--data",
        data,
        "--threads",
        "1",
        "-u",
        "benchuser",
        "-a",
        "SHA",
        "-A",
        "benchauthpass",
        "-x",
        "AES",
        "-X",
        "benchprivpass",
        address,
    ];
    match Simulate::try_parse_from(args) {
        Ok(s) => snmpc::simulate::run(&s.opts),
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}
