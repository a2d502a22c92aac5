//! `--only exporter`: snmp-exporter against Debian's snmp_exporter, both scraping the same
//! simulated 48-interface device (`snmpc simulate`'s agent, in a child) with the same modules
//! (`exporter/snmp.yml`; the older exporter gets them in its format), one core each
//! (ours on a single-threaded runtime, theirs under GOMAXPROCS=1), scraped in turns by the
//! same closed-loop load generator: exporter CPU per scrape and per sample, peak RSS, latency,
//! failed scrapes.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::process::cpu_of;

/// Interfaces of the simulated device.
const INTERFACES: u32 = 48;

/// One measured row.
#[derive(Debug, Clone)]
pub struct ExporterRow {
    pub exporter: &'static str,
    pub module: &'static str,
    pub targets: usize,
    pub scrapes: usize,
    pub samples: usize,
    /// Datagrams sent per scrape (the exporter's own `snmp_scrape_packets_sent`).
    pub packets_per_scrape: f64,
    pub cpu_us_per_scrape: f64,
    pub peak_rss_kb: Option<u64>,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub failed_scrapes: usize,
}

/// A walk (snmpwalk -On's form) of a device with 48 interfaces: the system group, ifTable and
/// ifXTable, realistic values (names, 64-bit counters in the billions, MAC addresses).
pub fn device() -> String {
    let mut w = String::new();
    let mut line = |oid: String, v: String| w.push_str(&format!(".{oid} = {v}\n"));
    let sys = "1.3.6.1.2.1.1";
    line(
        format!("{sys}.1.0"),
        "STRING: \"Linux edge-router-17 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC x86_64\"".into(),
    );
    line(format!("{sys}.2.0"), "OID: .1.3.6.1.4.1.8072.3.2.10".into());
    line(
        format!("{sys}.3.0"),
        "Timeticks: (123456789) 14 days, 6:56:07.89".into(),
    );
    line(format!("{sys}.4.0"), "STRING: \"noc@example.net\"".into());
    line(format!("{sys}.5.0"), "STRING: \"edge-router-17\"".into());
    line(
        format!("{sys}.6.0"),
        "STRING: \"rack 4, row B, Frankfurt\"".into(),
    );
    line(format!("{sys}.7.0"), "INTEGER: 72".into());
    line(format!("{sys}.8.0"), "Timeticks: (0) 0:00:00.00".into());
    for k in 1..=10u32 {
        line(format!("{sys}.9.1.2.{k}"), format!("OID: .1.3.6.1.6.3.{k}"));
        line(
            format!("{sys}.9.1.3.{k}"),
            format!("STRING: \"The MIB module number {k} of this agent\""),
        );
        line(
            format!("{sys}.9.1.4.{k}"),
            "Timeticks: (1) 0:00:00.01".into(),
        );
    }
    line("1.3.6.1.2.1.2.1.0".into(), format!("INTEGER: {INTERFACES}"));
    let columns: [(u32, &dyn Fn(u32) -> String); 22] = [
        (1, &|i| format!("INTEGER: {i}")),
        (2, &|i| format!("STRING: \"GigabitEthernet0/{i}\"")),
        (3, &|_| "INTEGER: 6".into()),
        (4, &|_| "INTEGER: 1500".into()),
        (5, &|_| "Gauge32: 1000000000".into()),
        (6, &|i| format!("Hex-STRING: 00 1B 21 3C 4D {:02X}", i)),
        (7, &|i| format!("INTEGER: {}", 1 + i % 2)),
        (8, &|i| format!("INTEGER: {}", 1 + i % 2)),
        (9, &|i| format!("Timeticks: ({}) 0:00:00.00", i * 1000)),
        (10, &|i| {
            format!("Counter32: {}", 3_000_000_000u32 - i * 12_345)
        }),
        (11, &|i| format!("Counter32: {}", 1_000_000 + i)),
        (12, &|i| format!("Counter32: {}", 2_000 + i)),
        (13, &|_| "Counter32: 0".into()),
        (14, &|i| format!("Counter32: {}", i % 3)),
        (15, &|_| "Counter32: 0".into()),
        (16, &|i| {
            format!("Counter32: {}", 2_500_000_000u32 - i * 54_321)
        }),
        (17, &|i| format!("Counter32: {}", 900_000 + i)),
        (18, &|i| format!("Counter32: {}", 100 + i)),
        (19, &|_| "Counter32: 0".into()),
        (20, &|_| "Counter32: 0".into()),
        (21, &|_| "Gauge32: 0".into()),
        (22, &|_| "OID: .0.0".into()),
    ];
    for (c, value) in columns {
        for i in 1..=INTERFACES {
            line(format!("1.3.6.1.2.1.2.2.1.{c}.{i}"), value(i));
        }
    }
    let x_columns: [(u32, &dyn Fn(u32) -> String); 19] = [
        (1, &|i| format!("STRING: \"Gi0/{i}\"")),
        (2, &|i| format!("Counter32: {}", i * 7)),
        (3, &|i| format!("Counter32: {}", i * 3)),
        (4, &|i| format!("Counter32: {}", i * 5)),
        (5, &|i| format!("Counter32: {}", i * 2)),
        (6, &|i| {
            format!(
                "Counter64: {}",
                812_345_678_901u64 + u64::from(i) * 1_000_003
            )
        }),
        (7, &|i| {
            format!("Counter64: {}", 9_876_543_210u64 + u64::from(i))
        }),
        (8, &|i| {
            format!("Counter64: {}", 1_234_567u64 * u64::from(i))
        }),
        (9, &|i| {
            format!("Counter64: {}", 7_654_321u64 * u64::from(i))
        }),
        (10, &|i| {
            format!("Counter64: {}", 723_456_789_012u64 + u64::from(i) * 999_983)
        }),
        (11, &|i| {
            format!("Counter64: {}", 8_765_432_109u64 + u64::from(i))
        }),
        (12, &|i| {
            format!("Counter64: {}", 2_345_678u64 * u64::from(i))
        }),
        (13, &|i| {
            format!("Counter64: {}", 8_765_432u64 * u64::from(i))
        }),
        (14, &|_| "INTEGER: 1".into()),
        (15, &|_| "Gauge32: 1000".into()),
        (16, &|_| "INTEGER: 2".into()),
        (17, &|_| "INTEGER: 1".into()),
        (18, &|i| {
            format!("STRING: \"uplink to core-{} port {i}\"", i % 4)
        }),
        (19, &|_| "Timeticks: (0) 0:00:00.00".into()),
    ];
    for (c, value) in x_columns {
        for i in 1..=INTERFACES {
            line(format!("1.3.6.1.2.1.31.1.1.1.{c}.{i}"), value(i));
        }
    }
    w
}

/// The child side of ours: the exporter over `config` on `address`, on one thread.
pub fn child(config: &str, address: &str) -> ExitCode {
    use snmp_exporter::exporter::{Exporter, Settings};
    let settings = Settings {
        config_files: vec![config.to_string()],
        ..Settings::default()
    };
    let exporter = match Exporter::new(settings) {
        Ok(e) => std::sync::Arc::new(e),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(address).await?;
        snmp_exporter::server::serve(listener, exporter).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// A child killed by PID when dropped.
pub(crate) struct Killed(pub(crate) Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// GET `path` of 127.0.0.1:`port`: status and body (bounded: 30 s).
pub(crate) fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let req = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).ok()?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n")?;
    Some((
        head.split_whitespace().nth(1)?.parse().ok()?,
        body.to_string(),
    ))
}

fn wait_ready(port: u16, what: &str) -> Result<(), String> {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if let Some((200, _)) = get(port, "/-/healthy") {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("{what} did not answer on port {port} within 20 s"))
}

fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

fn free_tcp_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(0)
}

/// What one exporter's scrapes of one module gave.
#[derive(Debug, Clone, Default)]
struct Measured {
    latencies: Vec<Duration>,
    cpu_s: f64,
    failed: usize,
    /// Of the last good scrape: its samples, and the datagrams it says it sent.
    samples: usize,
    packets: f64,
}

impl Measured {
    fn read(&mut self, body: &str) {
        let lines = body
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty());
        self.samples = lines.clone().count();
        self.packets = lines
            .filter(|l| l.starts_with("snmp_scrape_packets_sent"))
            .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
            .sum();
    }
}

/// Runs the section: `scrapes` scrapes of each module by each exporter, in 5 interleaved turns.
pub fn run(
    exe: &Path,
    scrapes: usize,
    long: Option<Long>,
    notes: &mut Vec<String>,
) -> Vec<ExporterRow> {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!("exporter: not run: {e}"));
            return Vec::new();
        }
    };
    let (data, ours_yml, theirs_yml) = (
        dir.path().join("device.txt"),
        dir.path().join("snmp.yml"),
        dir.path().join("snmp-0.21.yml"),
    );
    let yml = include_str!("../../exporter/snmp.yml");
    let options = snmp_exporter::config::LoadOptions::default();
    let old = snmp_exporter::config::Config::from_yaml("exporter/snmp.yml", yml, &options)
        .map_err(|e| e.to_string())
        .and_then(|c| c.to_0_22_yaml("public_v2"));
    let written = old.and_then(|old| {
        std::fs::write(&data, device())
            .and_then(|()| std::fs::write(&ours_yml, yml))
            .and_then(|()| std::fs::write(&theirs_yml, old))
            .map_err(|e| e.to_string())
    });
    if let Err(e) = written {
        notes.push(format!("exporter: not run: {e}"));
        return Vec::new();
    }
    let agent_port = crate::process::free_port();
    let spawn = |cmd: &mut Command| cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    // Started and listening before the first scrape: a scrape of a port nothing has taken
    // yet is refused, and counted failed.
    let address = format!("127.0.0.1:{agent_port}");
    let _agent = match crate::poll::Simulator::start(exe, &data, &address) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!("exporter: {e}"));
            return Vec::new();
        }
    };
    let mut exporters: Vec<(&'static str, Killed, u16)> = Vec::new();
    let port = free_tcp_port();
    match spawn(
        Command::new(exe)
            .arg("--exporter-child")
            .arg(&ours_yml)
            .arg(format!("127.0.0.1:{port}")),
    ) {
        Ok(c) => exporters.push(("snmp-exporter", Killed(c), port)),
        Err(e) => notes.push(format!("exporter: ours did not start: {e}")),
    }
    match snmp_test_support::agent::tool("prometheus-snmp-exporter") {
        Some(theirs) => {
            let port = free_tcp_port();
            let child = spawn(
                Command::new(theirs)
                    .env("GOMAXPROCS", "1")
                    .arg(format!("--config.file={}", theirs_yml.display()))
                    .arg(format!("--web.listen-address=127.0.0.1:{port}")),
            );
            match child {
                Ok(c) => exporters.push(("snmp_exporter", Killed(c), port)),
                Err(e) => notes.push(format!("exporter: snmp_exporter did not start: {e}")),
            }
        }
        None => notes.push(
            "exporter: snmp_exporter not measured (apt-get install prometheus-snmp-exporter)"
                .into(),
        ),
    }
    for (name, _, port) in &exporters {
        if let Err(e) = wait_ready(*port, name) {
            notes.push(format!("exporter: {e}"));
            return Vec::new();
        }
    }
    let mut rows = Vec::new();
    for module in ["if_mib", "system"] {
        let path = format!("/snmp?target=127.0.0.1:{agent_port}&module={module}");
        for (_, _, port) in &exporters {
            let _ = get(*port, &path); // warm-up
        }
        let mut measured: Vec<Measured> = vec![Measured::default(); exporters.len()];
        for _turn in 0..5 {
            for (k, (_, child, port)) in exporters.iter().enumerate() {
                let pid = child.0.id();
                let cpu0 = cpu_of(pid).unwrap_or(0.0);
                for _ in 0..scrapes.div_ceil(5) {
                    let start = Instant::now();
                    let answer = get(*port, &path);
                    measured[k].latencies.push(start.elapsed());
                    match answer {
                        Some((200, body)) => measured[k].read(&body),
                        _ => measured[k].failed += 1,
                    }
                }
                measured[k].cpu_s += cpu_of(pid).unwrap_or(0.0) - cpu0;
            }
        }
        for ((name, child, _), mut m) in exporters.iter().zip(measured) {
            m.latencies.sort();
            let n = m.latencies.len();
            let q = |f: f64| crate::poll::quantile(&m.latencies, f);
            rows.push(ExporterRow {
                exporter: name,
                module,
                targets: 1,
                scrapes: n,
                samples: m.samples,
                packets_per_scrape: m.packets,
                cpu_us_per_scrape: m.cpu_s * 1e6 / n.max(1) as f64,
                peak_rss_kb: peak_rss_kb(child.0.id()),
                p50_ms: q(0.5),
                p99_ms: q(0.99),
                failed_scrapes: m.failed,
            });
        }
    }
    if let Some(long) = long {
        for (name, child, port) in &exporters {
            let exporter = (name, child.0.id(), *port);
            long_runs(exe, &data, exporter, agent_port, long, &mut rows, notes);
        }
    }
    rows
}

/// What `--exporter-long` asks: targets and interval of the capacity run, scrapes of the soak.
#[derive(Debug, Clone, Copy)]
pub struct Long {
    pub targets: usize,
    pub interval: Duration,
    pub soak_scrapes: usize,
}

/// The soak and the capacity run against an exporter (name, process, port): a row for the
/// capacity run, notes for both.
fn long_runs(
    exe: &Path,
    data: &Path,
    (name, pid, port): (&&'static str, u32, u16),
    agent_port: u16,
    long: Long,
    rows: &mut Vec<ExporterRow>,
    notes: &mut Vec<String>,
) {
    let exporter = (pid, port);
    let (after_1000, after_all, failed) =
        crate::exporter_load::soak(exporter, agent_port, long.soak_scrapes);
    let kb = |v: Option<u64>| v.map_or("-".to_string(), |k| format!("{k} kB"));
    notes.push(format!(
        "exporter soak: {name}'s resident set after 1,000 system scrapes {}, after {} {} ({failed} failed)",
        kb(after_1000),
        long.soak_scrapes,
        kb(after_all)
    ));
    match crate::exporter_load::capacity(exe, data, exporter, long.targets, long.interval) {
        Ok(c) => {
            notes.push(format!(
                "exporter capacity: {} if_mib targets each scraped once in {} s: {} scrapes, {} failed, {name} used {:.2} cores, p50 {:.2} ms, p99 {:.2} ms; the simulator's own answer to the same walks (every tenth target walked directly before): p50 {:.2} ms, p99 {:.2} ms, {} failed; p99 {:.2}x the simulator's",
                c.targets, c.interval_s, c.scrapes, c.failed, c.cores, c.p50_ms, c.p99_ms,
                c.direct_p50_ms, c.direct_p99_ms, c.direct_failed, c.p99_ms / c.direct_p99_ms.max(1e-9)
            ));
            rows.push(ExporterRow {
                exporter: name,
                module: "if_mib",
                targets: c.targets,
                scrapes: c.scrapes,
                samples: rows
                    .iter()
                    .find(|r| r.module == "if_mib")
                    .map_or(0, |r| r.samples),
                packets_per_scrape: rows
                    .iter()
                    .find(|r| r.module == "if_mib")
                    .map_or(0.0, |r| r.packets_per_scrape),
                cpu_us_per_scrape: c.cpu_us_per_scrape,
                peak_rss_kb: peak_rss_kb(pid),
                p50_ms: c.p50_ms,
                p99_ms: c.p99_ms,
                failed_scrapes: c.failed,
            });
        }
        Err(e) => notes.push(format!("exporter capacity: not run: {e}")),
    }
}

/// The table, with each exporter's CPU as a ratio to ours.
pub fn table(rows: &[ExporterRow]) -> String {
    let mut out = String::from(
        "exporter        module  targets scrapes samples requests  CPU µs/scrape  µs/sample  µs/request  ×ours  peak RSS kB  p50 ms  p99 ms  failed\n",
    );
    for r in rows {
        let ours = rows
            .iter()
            .find(|o| {
                o.module == r.module && o.exporter == "snmp-exporter" && o.targets == r.targets
            })
            .map(|o| o.cpu_us_per_scrape)
            .unwrap_or(f64::NAN);
        out.push_str(&format!(
            "{:<15} {:<7} {:>7} {:>7} {:>7} {:>8} {:>14.0} {:>10.2} {:>11.1} {:>6.1} {:>12} {:>7.2} {:>7.2} {:>7}\n",
            r.exporter,
            r.module,
            r.targets,
            r.scrapes,
            r.samples,
            r.packets_per_scrape,
            r.cpu_us_per_scrape,
            r.cpu_us_per_scrape / r.samples.max(1) as f64,
            r.cpu_us_per_scrape / r.packets_per_scrape.max(1.0),
            r.cpu_us_per_scrape / ours,
            r.peak_rss_kb
                .map(|k| k.to_string())
                .unwrap_or_else(|| "-".into()),
            r.p50_ms,
            r.p99_ms,
            r.failed_scrapes,
        ));
    }
    out
}

/// The JSON array `exporter`.
pub fn json(rows: &[ExporterRow]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "exporter": r.exporter,
                    "module": r.module,
                    "targets": r.targets,
                    "scrapes": r.scrapes,
                    "samples": r.samples,
                    "requests_per_scrape": r.packets_per_scrape,
                    "cpu_us_per_scrape": r.cpu_us_per_scrape,
                    "cpu_us_per_sample": r.cpu_us_per_scrape / r.samples.max(1) as f64,
                    "peak_rss_kb": r.peak_rss_kb,
                    "p50_ms": r.p50_ms,
                    "p99_ms": r.p99_ms,
                    "failed_scrapes": r.failed_scrapes,
                })
            })
            .collect(),
    )
}
