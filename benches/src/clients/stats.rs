//! A cell of the table (one client, version and case) and its figures: mean and sample
//! standard deviation over the runs, CPU per request, and the median of per-round ratios.

use super::data::{Case, Kind};
use super::Run;

/// One client's runs of one case under one version.
#[derive(Debug, Clone)]
pub struct Cell {
    pub client: &'static str,
    /// `2c` or `3`.
    pub version: &'static str,
    /// `setup`, `1KB`, ..., or `getnext` (the comparison with the floor).
    pub case: &'static str,
    pub kind: Kind,
    pub runs: Vec<Run>,
    /// It could not run the case at all (the note says why).
    pub broken: bool,
}

/// Mean and sample standard deviation (0 for fewer than two values).
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// The median of `values` (the mean of the middle two for an even count) and their range.
pub fn median_range(values: &[f64]) -> Option<(f64, f64, f64)> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    let median = if v.len().is_multiple_of(2) {
        (v[mid - 1] + v[mid]) / 2.0
    } else {
        v[mid]
    };
    Some((median, v[0], v[v.len() - 1]))
}

impl Cell {
    pub fn new(client: &'static str, version: &'static str, case: &Case, runs: Vec<Run>) -> Cell {
        Cell {
            client,
            version,
            case: case.name,
            kind: case.kind,
            runs,
            broken: false,
        }
    }

    pub fn failed(client: &'static str, version: &'static str, case: &Case) -> Cell {
        Cell {
            broken: true,
            ..Cell::new(client, version, case, Vec::new())
        }
    }

    /// Calls per run (the first run's; every run makes as many).
    pub fn calls(&self) -> u32 {
        self.runs.first().map_or(0, |r| r.calls)
    }

    /// Calls that failed, over all runs (a broken cell counts as one).
    pub fn failed_calls(&self) -> u32 {
        self.runs.iter().map(|r| r.failed).sum::<u32>() + u32::from(self.broken)
    }

    /// ms a run: for setup a session's (the mean of the run's), else the time of 100 calls
    /// (scaled from the run's calls when the budget allowed fewer); mean and sd.
    pub fn ms(&self) -> (f64, f64) {
        let per: Vec<f64> = self
            .runs
            .iter()
            .map(|r| match self.kind {
                Kind::Setup => r.wall_ms / f64::from(r.calls.max(1)),
                _ => r.wall_ms * 100.0 / f64::from(r.calls.max(1)),
            })
            .collect();
        mean_sd(&per)
    }

    /// Calls a second, mean and sd over the runs (none for setup).
    pub fn rps(&self) -> Option<(f64, f64)> {
        if self.kind == Kind::Setup || self.runs.is_empty() {
            return None;
        }
        let per: Vec<f64> = self
            .runs
            .iter()
            .map(|r| f64::from(r.calls) / (r.wall_ms / 1e3).max(1e-9))
            .collect();
        Some(mean_sd(&per))
    }

    /// Requests of one run: the client's count, else `per_call` (another client's requests a
    /// call on the same case) times its calls.
    fn requests(&self, r: &Run, per_call: Option<f64>) -> Option<f64> {
        r.requests
            .map(|n| n as f64)
            .or_else(|| per_call.map(|p| p * f64::from(r.calls)))
    }

    /// Requests a call, when the client counts them.
    pub fn requests_per_call(&self) -> Option<f64> {
        let (mut requests, mut calls) = (0u64, 0u64);
        for r in &self.runs {
            requests += r.requests?;
            calls += u64::from(r.calls);
        }
        (calls > 0).then(|| requests as f64 / calls as f64)
    }

    /// The client's CPU µs a request over all runs (`per_call`: see [`Self::requests`]).
    pub fn cpu_us_per_request(&self, per_call: Option<f64>) -> Option<f64> {
        let requests: Option<f64> = self.runs.iter().map(|r| self.requests(r, per_call)).sum();
        let cpu: f64 = self.runs.iter().map(|r| r.cpu_s).sum();
        requests.filter(|&n| n > 0.0).map(|n| cpu * 1e6 / n)
    }

    /// The CPU µs a request of each run.
    pub fn cpu_us_per_run(&self) -> Vec<f64> {
        self.runs
            .iter()
            .filter_map(|r| {
                let n = self.requests(r, None)?;
                (n > 0.0).then(|| r.cpu_s * 1e6 / n)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(calls: u32, wall_ms: f64, cpu_s: f64, requests: Option<u64>) -> Run {
        Run {
            calls,
            wall_ms,
            cpu_s,
            requests,
            bindings: 0,
            failed: 0,
        }
    }

    #[test]
    fn spread_is_the_sample_standard_deviation() {
        let (m, sd) = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m, 5.0);
        assert!((sd - 2.138).abs() < 1e-3, "{sd}");
        assert_eq!(mean_sd(&[3.0]), (3.0, 0.0));
        assert_eq!(median_range(&[3.0, 1.0, 2.0, 10.0]), Some((2.5, 1.0, 10.0)));
        assert_eq!(median_range(&[f64::NAN]), None);
    }

    #[test]
    fn fewer_calls_a_run_are_scaled_to_a_hundred() {
        let case = super::super::data::cases(super::super::Sizes::TINY)[1].clone();
        let cell = Cell::new(
            "x",
            "2c",
            &case,
            vec![
                run(50, 10.0, 0.001, Some(50)),
                run(50, 30.0, 0.001, Some(50)),
            ],
        );
        assert_eq!(cell.ms().0, 40.0);
        let (rps, _) = cell.rps().unwrap();
        assert!((rps - (5000.0 + 5000.0 / 3.0) / 2.0).abs() < 1e-6, "{rps}");
        assert_eq!(cell.cpu_us_per_request(None), Some(20.0));
        let counted_by_another = Cell::new("y", "2c", &case, vec![run(50, 10.0, 0.002, None)]);
        assert_eq!(counted_by_another.cpu_us_per_request(None), None);
        assert_eq!(counted_by_another.cpu_us_per_request(Some(2.0)), Some(20.0));
    }
}
