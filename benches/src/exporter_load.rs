//! The exporter's long runs (`--only exporter --exporter-long`): how many `if_mib` targets
//! snmp-exporter holds at a scrape interval on one core (each simulated target scraped once
//! in the interval, spread evenly, as Prometheus spreads them), and whether its memory stays
//! flat over many scrapes (resident set after 1,000 and after 100,000).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::exporter::get;
use crate::process::cpu_of;

/// A capacity run's result.
#[derive(Debug, Clone)]
pub struct Capacity {
    pub targets: usize,
    pub interval_s: f64,
    pub scrapes: usize,
    pub failed: usize,
    /// Exporter CPU over the run, in cores.
    pub cores: f64,
    pub cpu_us_per_scrape: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// The simulator's own answer time for the same walks (a client of ours walking ifTable
    /// and ifXTable directly, GETBULK of 20, over the same targets one after another): p50,
    /// p99, and the walks that failed.
    pub direct_p50_ms: f64,
    pub direct_p99_ms: f64,
    pub direct_failed: usize,
}

/// How long the simulator takes to answer an `if_mib` scrape's walks itself: each of `ports`
/// walked once, directly, one after another.
fn direct_walks(ports: impl Iterator<Item = u16>) -> (Vec<Duration>, usize) {
    use snmp_client::{Credentials, Options, Session};
    let roots: [snmp_ber::OidBuf; 2] = [
        snmp_ber::OidBuf::from_arcs(&[1, 3, 6, 1, 2, 1, 2]).expect("an OID"),
        snmp_ber::OidBuf::from_arcs(&[1, 3, 6, 1, 2, 1, 31, 1, 1]).expect("an OID"),
    ];
    let options = Options {
        max_repetitions: 20,
        timeout: Duration::from_secs(2),
        ..Options::default()
    };
    let (mut times, mut failed) = (Vec::new(), 0);
    for port in ports {
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        let t = Instant::now();
        let walked =
            Session::new(addr, Credentials::V2c(b"public".to_vec()), options).and_then(|mut s| {
                roots
                    .iter()
                    .try_for_each(|root| s.walk(root, |_| ()).map(|_| ()))
            });
        match walked {
            Ok(()) => times.push(t.elapsed()),
            Err(_) => failed += 1,
        }
    }
    times.sort();
    (times, failed)
}

/// `targets` simulated devices on consecutive ports from `base`, each scraped once (module
/// `if_mib`) over `interval`, by 16 load-generator threads, through the exporter on `port`
/// (process `pid`).
pub fn capacity(
    exe: &Path,
    data: &Path,
    exporter: (u32, u16),
    targets: usize,
    interval: Duration,
) -> Result<Capacity, String> {
    let base = 20_000u16;
    let last = base
        .checked_add(u16::try_from(targets.saturating_sub(1)).map_err(|_| "too many targets")?)
        .ok_or("too many targets for the port range")?;
    let _simulator = crate::poll::Simulator::start(exe, data, &format!("127.0.0.1:{base}-{last}"))?;
    // The simulator's own time first, over a spread of its targets (every tenth).
    let (direct, direct_failed) = direct_walks((base..=last).step_by(10));
    let (pid, port) = exporter;
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::with_capacity(targets)));
    let start = Instant::now() + Duration::from_millis(200);
    let cpu0 = cpu_of(pid).unwrap_or(0.0);
    let workers: Vec<_> = (0..16)
        .map(|_| {
            let (next, results) = (Arc::clone(&next), Arc::clone(&results));
            std::thread::spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= targets {
                    return;
                }
                let at = start + interval.mul_f64(k as f64 / targets as f64);
                std::thread::sleep(at.saturating_duration_since(Instant::now()));
                let path = format!("/snmp?target=127.0.0.1:{}&module=if_mib", base as usize + k);
                let t = Instant::now();
                let ok = matches!(get(port, &path), Some((200, _)));
                if let Ok(mut r) = results.lock() {
                    r.push((t.elapsed(), ok));
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let wall = start.elapsed().as_secs_f64().max(1e-9);
    let cpu = cpu_of(pid).unwrap_or(0.0) - cpu0;
    let results = results.lock().map_err(|_| "a worker panicked")?.clone();
    let mut latencies: Vec<Duration> = results.iter().map(|r| r.0).collect();
    latencies.sort();
    Ok(Capacity {
        targets,
        interval_s: interval.as_secs_f64(),
        scrapes: results.len(),
        failed: results.iter().filter(|r| !r.1).count(),
        cores: cpu / wall,
        cpu_us_per_scrape: cpu * 1e6 / results.len().max(1) as f64,
        p50_ms: crate::poll::quantile(&latencies, 0.5),
        p99_ms: crate::poll::quantile(&latencies, 0.99),
        direct_p50_ms: crate::poll::quantile(&direct, 0.5),
        direct_p99_ms: crate::poll::quantile(&direct, 0.99),
        direct_failed,
    })
}

/// The exporter's resident set (kB) after 1,000 and after `many` scrapes of `system` from
/// the agent on `agent_port`; the scrapes that failed.
pub fn soak(
    exporter: (u32, u16),
    agent_port: u16,
    many: usize,
) -> (Option<u64>, Option<u64>, usize) {
    let (pid, port) = exporter;
    let path = format!("/snmp?target=127.0.0.1:{agent_port}&module=system");
    let mut failed = 0;
    let mut after_1000 = None;
    for k in 1..=many {
        if !matches!(get(port, &path), Some((200, _))) {
            failed += 1;
        }
        if k == 1_000 {
            after_1000 = rss_kb(pid);
        }
    }
    (after_1000, rss_kb(pid), failed)
}

/// A process's resident set now (VmRSS), kB.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}
