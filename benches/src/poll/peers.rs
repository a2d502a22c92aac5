//! The peers of the poll section, polling the same agents after ours: gufo_snmp's asyncio
//! sessions (a Python script in the venv the walk section makes) and net-snmp's asynchronous
//! API (benches/c/netsnmp_poll.c, compiled here against libnetsnmp). Each prints a line per
//! job, which [`peer_rows`] reads and checks against our row for the same job.

use std::path::Path;
use std::process::Command;

use super::PollRow;

/// Runs a peer's poller and reads its report, a line per job: `op outcomes failed bindings
/// [requests] cpu_s wall_s p50_ms p99_ms`. A peer that counts its requests gives them; for
/// one that cannot, ours for the same job are taken, once its bindings are checked equal to
/// ours. Every job must be reported, with one outcome per agent and round.
fn peer_rows(
    client: &'static str,
    mut command: Command,
    version: &'static str,
    rounds: usize,
    ours: &[PollRow],
) -> Result<Vec<PollRow>, String> {
    let out = command.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().last().unwrap_or("failed").to_string());
    }
    let mut rows = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let unreadable = || format!("an unreadable report line: {line}");
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some((op, numbers)) = fields.split_first() else {
            return Err(unreadable());
        };
        let op: &'static str = match *op {
            "get" => "get",
            "walk" => "walk",
            _ => return Err(unreadable()),
        };
        let numbers: Vec<f64> = numbers
            .iter()
            .map(|v| v.parse::<f64>().map_err(|_| format!("not a number: {v}")))
            .collect::<Result<_, _>>()?;
        let (polled, failed, bindings, requests, cpu_s, wall_s, p50_ms, p99_ms) =
            match *numbers.as_slice() {
                [o, f, b, r, c, w, p5, p9] => (o, f, b, Some(r), c, w, p5, p9),
                [o, f, b, c, w, p5, p9] => (o, f, b, None, c, w, p5, p9),
                _ => return Err(unreadable()),
            };
        let ours = ours
            .iter()
            .find(|r| r.version == version && r.op == op)
            .ok_or("no row of ours to compare with")?;
        if bindings as u64 != ours.bindings {
            return Err(format!("{op}: {bindings} bindings, ours {}", ours.bindings));
        }
        if polled as usize != ours.agents * rounds {
            return Err(format!(
                "{op}: {polled} outcomes, not {}",
                ours.agents * rounds
            ));
        }
        rows.push(PollRow {
            client,
            version,
            op,
            agents: ours.agents,
            requests: requests.map_or(ours.requests, |r| r as u64),
            bindings: ours.bindings,
            failed: failed as u64,
            cpu_s,
            simulator_cpu_s: None,
            wall_s,
            p50_ms,
            p99_ms,
            per_call: None,
        });
    }
    if rows.len() != 2 {
        return Err(format!("{} report lines, not 2", rows.len()));
    }
    Ok(rows)
}

/// gufo_snmp polling the agents on ports FIRST..=LAST: a session per agent opened in a
/// warm-up round (v3: its engine discovered, its keys localized) and kept, as our poller keeps
/// its exchanges; then ROUNDS counted rounds of the GET, then of the ifTable walk (GETBULK of
/// 40), at most 256 agents at once. Prints a line per job: op, outcomes, failed, bindings,
/// process seconds, wall seconds, p50 and p99 latency (ms): what [`peer_rows`] reads.
const GUFO_POLL: &str = r#"
import asyncio, resource, sys, time
from gufo.snmp import Aes128Key, Sha1Key, SnmpVersion, User
from gufo.snmp.aio import SnmpSession

first, last, version, rounds = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
kw = dict(addr="127.0.0.1", timeout=2.0)
if version == "3":
    kw.update(version=SnmpVersion.v3, user=User("benchuser", auth_key=Sha1Key(b"benchauthpass"), priv_key=Aes128Key(b"benchprivpass")))
else:
    kw.update(version=SnmpVersion.v2c, community="public")
GET = ["1.3.6.1.2.1.1.%d.0" % k for k in range(1, 7)] + ["1.3.6.1.2.1.2.1.0", "1.3.6.1.2.1.2.2.1.2.1", "1.3.6.1.2.1.2.2.1.8.1", "1.3.6.1.2.1.2.2.1.10.1"]
gate = asyncio.Semaphore(256)
sessions = {}

async def one(port, op):
    async with gate:
        t = time.perf_counter()
        try:
            s = sessions.get(port)
            if s is None:
                s = SnmpSession(port=port, **kw)
                await s.__aenter__()
                sessions[port] = s
            if op == "get":
                n = len(await s.get_many(GET))
            else:
                n = 0
                async for _ in s.getbulk("1.3.6.1.2.1.2.2", max_repetitions=40):
                    n += 1
            return (True, n, time.perf_counter() - t)
        except Exception:
            return (False, 0, time.perf_counter() - t)

async def round_of(op):
    return await asyncio.gather(*(one(p, op) for p in range(first, last + 1)))

async def main():
    await round_of("get")
    for op in ["get", "walk"]:
        c0, w0, done = time.process_time(), time.perf_counter(), []
        for _ in range(rounds):
            done += await round_of(op)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        lat = sorted(d[2] for d in done)
        q = lambda f: lat[round((len(lat) - 1) * f)] * 1e3
        print(op, len(done), sum(1 for d in done if not d[0]), sum(d[1] for d in done), cpu, wall, q(0.5), q(0.99))

asyncio.run(main())
"#;

/// gufo_snmp's rows for `version` (its requests taken as ours: see [`peer_rows`]).
pub(super) fn gufo(
    python: &Path,
    (first, last): (u16, u16),
    version: &'static str,
    rounds: usize,
    ours: &[PollRow],
) -> Result<Vec<PollRow>, String> {
    let mut command = Command::new(python);
    command
        .args(["-c", GUFO_POLL])
        .args([first, last].map(|p| p.to_string()))
        .args([version.to_string(), rounds.to_string()]);
    peer_rows("gufo_snmp", command, version, rounds, ours)
}

/// net-snmp's asynchronous API polling the agents (benches/c/netsnmp_poll.c, built here with
/// `cc` against libnetsnmp: `net-snmp-config --cflags --libs`). It counts its own requests.
const NETSNMP_POLL: &str = include_str!("../../c/netsnmp_poll.c");

/// net-snmp's rows for `version`: a session per agent, its own request count.
pub(super) fn netsnmp(
    dir: &Path,
    (first, last): (u16, u16),
    version: &'static str,
    rounds: usize,
    ours: &[PollRow],
) -> Result<Vec<PollRow>, String> {
    let exe = crate::netsnmp_c::build(dir, "netsnmp_poll", NETSNMP_POLL)?;
    let mut command = Command::new(&exe);
    command
        .args([first, last].map(|p| p.to_string()))
        .args([version.to_string(), rounds.to_string()])
        .envs(crate::netsnmp_c::environment(dir)?);
    peer_rows("net-snmp", command, version, rounds, ours)
}
