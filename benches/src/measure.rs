//! Timing (wall clock, side by side in one process) and instruction counting (callgrind, in a
//! child process running one job a fixed number of times).

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::impls::Job;

/// Samples taken per measurement.
pub const SAMPLES: usize = 15;

/// Nanoseconds per operation: the fastest sample and the median one.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Fastest sample.
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

/// Times `job`: sizes the iteration count so the samples together take about `budget`, then
/// takes [`SAMPLES`] samples.
pub fn time(job: &mut Job<'_>, budget: Duration) -> Timing {
    let per_sample = budget / SAMPLES as u32;
    // Warm up and size: double until one run takes a tenth of a sample.
    let mut iters: u64 = 1;
    loop {
        let t = run(job, iters);
        if t * 10 >= per_sample || iters >= 1 << 30 {
            let scale = per_sample.as_secs_f64() / t.as_secs_f64().max(1e-9);
            iters = ((iters as f64 * scale) as u64).clamp(1, 1 << 32);
            break;
        }
        iters *= 2;
    }
    let mut ns: Vec<f64> = (0..SAMPLES)
        .map(|_| run(job, iters).as_nanos() as f64 / iters as f64)
        .collect();
    ns.sort_by(|a, b| a.total_cmp(b));
    Timing {
        ns_min: ns[0],
        ns_median: ns[SAMPLES / 2],
    }
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
fn collected(exe: &Path, args: &[String]) -> Result<u64, String> {
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
        let g = fit(&[(1.0, 1.0), (10.0, 30.0), (50.0, 20.0)]).unwrap();
        assert!(g.r2 < 0.9);
        assert!(fit(&[(1.0, 1.0)]).is_none());
    }
}
