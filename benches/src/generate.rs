//! `--only generate`: `snmp-exporter generate` against Debian's snmp_exporter generator (over
//! net-snmp's MIB parser) on the same generator.yml (`exporter/generator.yml`) and the MIB
//! corpus's IETF folder: wall time, CPU and peak RSS of each run (GNU time's), and the
//! modules each produced, in interleaved runs.

use std::path::Path;
use std::process::Command;

/// One generator's runs.
#[derive(Debug, Clone)]
pub struct GenerateRow {
    pub generator: &'static str,
    pub runs: usize,
    pub failed_runs: usize,
    pub modules: usize,
    pub wall_ms_median: f64,
    pub cpu_ms_median: f64,
    pub peak_rss_kb: u64,
}

/// The child side: ours, as `snmp-exporter generate` runs it, in this process.
pub fn child(generator: &str, mibs: &str, output: &str) -> std::process::ExitCode {
    use snmp_exporter::generate::{self, config::GeneratorFile, tree::MibTree};
    let made = std::fs::read_to_string(generator)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_yaml::from_str::<GeneratorFile>(&t).map_err(|e| e.to_string()))
        .and_then(|g| {
            let tree = MibTree::load(&[mibs.into()])?;
            generate::generate(&g, &tree, &mut Vec::new()).map_err(|e| e.to_string())
        })
        .and_then(|f| generate::to_yaml(&f))
        .and_then(|y| std::fs::write(output, y).map_err(|e| e.to_string()));
    match made {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// One run under GNU time: (wall s, CPU s, peak RSS kB), or why it failed.
type Timed = Result<(f64, f64, u64), String>;

/// `cmd` (GNU time running a generator) run once.
fn timed(cmd: &mut Command) -> Timed {
    let out = cmd.output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(stderr.lines().last().unwrap_or("failed").to_string());
    }
    let line = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("GNUTIME "))
        .ok_or("no GNU time line")?;
    let f: Vec<&str> = line.split_whitespace().skip(1).collect();
    let num = |k: usize| f.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    Ok((num(0), num(1) + num(2), num(3) as u64))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Modules in a generated file: upstream 0.21's at the top level, ours under `modules`.
fn modules_in(path: &Path) -> usize {
    let Ok(text) = std::fs::read_to_string(path) else {
        return 0;
    };
    let Ok(doc) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
        return 0;
    };
    let top = doc.get("modules").unwrap_or(&doc);
    top.as_mapping().map_or(0, |m| m.len())
}

/// Runs the section over `ietf` (the corpus's IETF folder), `runs` runs a generator.
pub fn run(exe: &Path, ietf: &Path, runs: usize, notes: &mut Vec<String>) -> Vec<GenerateRow> {
    let time = Path::new("/usr/bin/time");
    if !time.is_file() {
        notes.push("generate: not run: GNU time is not installed (apt-get install time)".into());
        return Vec::new();
    }
    let Ok(dir) = tempfile::tempdir() else {
        notes.push("generate: not run: no temporary folder".into());
        return Vec::new();
    };
    let generator = dir.path().join("generator.yml");
    if let Err(e) = std::fs::write(&generator, include_str!("../../exporter/generator.yml")) {
        notes.push(format!("generate: not run: {e}"));
        return Vec::new();
    }
    let theirs = snmp_test_support::agent::tool("prometheus-snmp-generator");
    if theirs.is_none() {
        notes.push(
            "generate: Debian's generator not measured (apt-get install prometheus-snmp-exporter)"
                .into(),
        );
    }
    let ours_out = dir.path().join("ours.yml");
    let format = ["-f", "GNUTIME %e %U %S %M"];
    let mut results: Vec<(&'static str, Vec<Timed>)> = vec![
        ("snmp-exporter", Vec::new()),
        ("snmp_exporter 0.21 (net-snmp)", Vec::new()),
    ];
    for _ in 0..runs {
        let mut ours = Command::new(time);
        ours.args(format)
            .arg(exe)
            .arg("--generate-child")
            .arg(&generator)
            .arg(ietf)
            .arg(&ours_out);
        results[0].1.push(timed(&mut ours));
        if let Some(t) = &theirs {
            let mut cmd = Command::new(time);
            cmd.args(format)
                .arg(t)
                .arg("generate")
                .current_dir(dir.path())
                .env("MIBDIRS", ietf);
            results[1].1.push(timed(&mut cmd));
        }
    }
    let outputs = [ours_out, dir.path().join("snmp.yml")];
    let mut rows = Vec::new();
    for ((name, runs), output) in results.into_iter().zip(outputs) {
        if runs.is_empty() {
            continue;
        }
        let ok: Vec<(f64, f64, u64)> = runs
            .iter()
            .filter_map(|r| r.as_ref().ok().copied())
            .collect();
        if let Some(Err(e)) = runs.iter().find(|r| r.is_err()) {
            notes.push(format!("generate: {name}: a run failed: {e}"));
        }
        rows.push(GenerateRow {
            generator: name,
            runs: runs.len(),
            failed_runs: runs.len() - ok.len(),
            modules: modules_in(&output),
            wall_ms_median: median(ok.iter().map(|r| r.0 * 1e3).collect()),
            cpu_ms_median: median(ok.iter().map(|r| r.1 * 1e3).collect()),
            peak_rss_kb: ok.iter().map(|r| r.2).max().unwrap_or(0),
        });
    }
    rows
}

/// The table, with each generator's wall time as a ratio to ours.
pub fn table(rows: &[GenerateRow]) -> String {
    let ours = rows.first().map_or(f64::NAN, |r| r.wall_ms_median);
    let mut out = String::from(
        "generator                      runs failed modules  wall ms  CPU ms  ×ours  peak RSS kB\n",
    );
    for r in rows {
        out.push_str(&format!(
            "{:<30} {:>4} {:>6} {:>7} {:>8.0} {:>7.0} {:>6.1} {:>12}\n",
            r.generator,
            r.runs,
            r.failed_runs,
            r.modules,
            r.wall_ms_median,
            r.cpu_ms_median,
            r.wall_ms_median / ours,
            r.peak_rss_kb
        ));
    }
    out
}

/// The JSON array `generate`.
pub fn json(rows: &[GenerateRow]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "generator": r.generator,
                    "runs": r.runs,
                    "failed_runs": r.failed_runs,
                    "modules": r.modules,
                    "wall_ms": r.wall_ms_median,
                    "cpu_ms": r.cpu_ms_median,
                    "peak_rss_kb": r.peak_rss_kb,
                })
            })
            .collect(),
    )
}
