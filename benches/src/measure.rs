//! Timing (wall clock, side by side in one process) and instruction counting (callgrind, in a
//! child process running one job a fixed number of times).

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::impls::Job;

/// Samples taken per measurement of a full run; a quick run takes more, shorter ones.
pub const SAMPLES: usize = 15;
/// Samples of a quick run.
pub const QUICK_SAMPLES: usize = 41;

/// Nanoseconds per operation: the fastest sample and the median one.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Fastest sample: the figure the tables and cost lines use (noise on a shared machine
    /// only ever adds time).
    pub ns_min: f64,
    /// Median sample.
    pub ns_median: f64,
}

fn run(job: &mut Job<'_>, iters: u64) -> Duration {
    let start = Instant::now();
    let mut sum = 0usize;
    for _ in 0..iters {
        sum = sum.wrapping_add(job());
    }
    black_box(sum);
    start.elapsed()
}

/// Iterations of `job` that take about `per_sample`: doubled from one until a run takes a
/// tenth of it, then scaled (this also warms the job up).
fn size(job: &mut Job<'_>, per_sample: Duration) -> u64 {
    let mut iters: u64 = 1;
    loop {
        let t = run(job, iters);
        if t * 10 >= per_sample || iters >= 1 << 30 {
            let scale = per_sample.as_secs_f64() / t.as_secs_f64().max(1e-9);
            return ((iters as f64 * scale) as u64).clamp(1, 1 << 32);
        }
        iters *= 2;
    }
}

/// Times every job of one workload side by side: each sized so that its samples together take
/// about `budget`, then sampled in turns (job 1, job 2, ..., job 1, ...) so that a burst of
/// load on the machine falls on every implementation alike.
pub fn time_interleaved(jobs: &mut [Job<'_>], budget: Duration, samples: usize) -> Vec<Timing> {
    let per_sample = budget / samples as u32;
    let iters: Vec<u64> = jobs.iter_mut().map(|j| size(j, per_sample)).collect();
    let mut ns: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); jobs.len()];
    for _ in 0..samples {
        for ((job, &n), out) in jobs.iter_mut().zip(&iters).zip(&mut ns) {
            out.push(run(job, n).as_nanos() as f64 / n as f64);
        }
    }
    ns.into_iter()
        .map(|mut v| {
            v.sort_by(|a, b| a.total_cmp(b));
            Timing {
                ns_min: v[0],
                ns_median: v[v.len() / 2],
            }
        })
        .collect()
}

/// Times one job alone (the corpus workload).
pub fn time(job: &mut Job<'_>, budget: Duration) -> Timing {
    time_interleaved(std::slice::from_mut(job), budget, SAMPLES)[0]
}

/// Whether valgrind can be run.
pub fn valgrind_available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Instructions executed by one child run of `args` under callgrind.
pub fn collected(exe: &Path, args: &[String]) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(args)
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().replace(',', "").parse().ok())
        .ok_or_else(|| format!("no instruction count in callgrind's output: {stderr}"))
}

/// Instructions per operation: the difference between 60 and 10 runs of the job in a child
/// process, divided by 50, so start-up and checking cancel out.
pub fn instructions(
    exe: &Path,
    impl_name: &str,
    layer: &str,
    op: &str,
    n: usize,
) -> Result<f64, String> {
    let args = |iters: u32| {
        vec![
            "--instructions-of".to_string(),
            impl_name.to_string(),
            layer.to_string(),
            op.to_string(),
            n.to_string(),
            iters.to_string(),
        ]
    };
    let a = collected(exe, &args(10))?;
    let b = collected(exe, &args(60))?;
    Ok(b.saturating_sub(a) as f64 / 50.0)
}

/// Fills in the instructions per operation of every row, two callgrind children at a time
/// (after the timing, so that they do not disturb it); a failure is a note.
pub fn count_all(exe: &Path, rows: &mut [crate::Row], notes: &mut Vec<String>) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let counts: Vec<(usize, Result<f64, String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (next, rows) = (&next, &*rows);
                s.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(r) = rows.get(i) else { break };
                        out.push((
                            i,
                            instructions(exe, r.imp, r.layer.as_str(), r.op.as_str(), r.n),
                        ));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    for (i, c) in counts {
        match c {
            Ok(ir) => rows[i].instructions = Some(ir),
            Err(e) => notes.push(format!(
                "{} {} {} {} bindings: instruction count failed: {e}",
                rows[i].imp,
                rows[i].layer.as_str(),
                rows[i].op.as_str(),
                rows[i].n
            )),
        }
    }
}

/// A least-squares line `a + b*n` through the points, with R².
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    /// Per-operation cost.
    pub a: f64,
    /// Per-binding cost.
    pub b: f64,
    /// Goodness of fit.
    pub r2: f64,
}

impl Fit {
    /// A line to present: it explains the points (R² at least 0.95) and does not fall as the
    /// bindings grow. Timings on a busy machine can give neither; the report then says
    /// "unreliable" instead of the numbers.
    pub fn reliable(&self) -> bool {
        self.r2 >= 0.95 && self.b >= 0.0
    }

    /// Why the line is not [`Fit::reliable`], for the report.
    pub fn unreliable_because(&self) -> Option<String> {
        if self.b < 0.0 {
            Some("unreliable: falls as bindings grow".into())
        } else if self.r2 < 0.95 {
            Some(format!("unreliable: R² {:.2}", self.r2))
        } else {
            None
        }
    }
}

/// Fits `y = a + b*x`.
pub fn fit(points: &[(f64, f64)]) -> Option<Fit> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx == 0.0 {
        return None;
    }
    let b = sxy / sxx;
    let a = my - b * mx;
    let ss_tot: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    let ss_res: f64 = points.iter().map(|p| (p.1 - (a + b * p.0)).powi(2)).sum();
    let r2 = if ss_tot == 0.0 {
        1.0
    } else {
        1.0 - ss_res / ss_tot
    };
    Some(Fit { a, b, r2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_line() {
        let f = fit(&[(1.0, 12.0), (10.0, 30.0), (50.0, 110.0)]).unwrap();
        assert!(
            (f.a - 10.0).abs() < 1e-9 && (f.b - 2.0).abs() < 1e-9 && (f.r2 - 1.0).abs() < 1e-12
        );
        assert!(f.reliable());
        let g = fit(&[(1.0, 1.0), (10.0, 30.0), (50.0, 20.0)]).unwrap();
        assert!(g.r2 < 0.9);
        assert_eq!(
            g.unreliable_because().as_deref(),
            Some(format!("unreliable: R² {:.2}", g.r2).as_str())
        );
        let falling = fit(&[(1.0, 30.0), (10.0, 20.0), (50.0, 10.0)]).unwrap();
        assert!(!falling.reliable() && falling.unreliable_because().unwrap().contains("falls"));
        assert!(fit(&[(1.0, 1.0)]).is_none());
    }
}
