//! `--only generate`: `snmp-exporter generate` against Debian's snmp_exporter generator (over
//! net-snmp's MIB parser) on the same input, in three cases: `exporter/generator.yml` (seven
//! modules) over the MIB corpus's IETF folder, `exporter/generator-host.yml` (a host under
//! snmpd: system, interfaces, host resources, UCD) over it and net-snmp's MIBs, and the
//! generator.yml upstream published with 0.21 (Debian ships it as an example) over the whole
//! corpus, IETF and every vendor folder, less the modules whose MIBs the corpus lacks (named
//! in a note: net-snmp's generator stops at the first of them). Wall and CPU time of each run (measured around the child), its
//! peak RSS (GNU time's), and the modules each produced, in interleaved runs.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian's package puts the generator.yml upstream published with 0.21.
const PUBLISHED: &str = "/usr/share/doc/prometheus-snmp-exporter/examples/generator.yml";

/// One generator's runs in one case.
#[derive(Debug, Clone)]
pub struct GenerateRow {
    pub case: &'static str,
    pub generator: &'static str,
    pub runs: usize,
    pub failed_runs: usize,
    pub modules: usize,
    pub wall_ms_median: f64,
    pub cpu_ms_median: f64,
    pub peak_rss_kb: u64,
}

/// The child side: ours, as `snmp-exporter generate` runs it, in this process.
pub fn child(generator: &str, output: &str, mibs: &[String]) -> std::process::ExitCode {
    use snmp_exporter::generate::{self, config::GeneratorFile};
    let dirs: Vec<PathBuf> = mibs.iter().map(PathBuf::from).collect();
    let made = std::fs::read_to_string(generator)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_yaml::from_str::<GeneratorFile>(&t).map_err(|e| e.to_string()))
        .and_then(|g| {
            let tree = generate::load_tree(&dirs, &g)?;
            let file = generate::generate(&g, &tree, &mut Vec::new()).map_err(|e| e.to_string());
            // As `snmp-exporter generate` ends: the tree left to the OS.
            std::mem::forget(tree);
            file
        })
        .and_then(|f| generate::to_yaml(&f))
        .and_then(|y| generate::write_over(output.as_ref(), &y).map_err(|e| e.to_string()));
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

/// `cmd` (GNU time running a generator) run once: its wall and CPU time measured here, to
/// the microsecond (GNU time gives hundredths: a tenth of a 30 ms run), its peak RSS from
/// GNU time.
fn timed(cmd: &mut Command) -> Timed {
    let cpu = crate::process::children_cpu();
    let start = std::time::Instant::now();
    let out = cmd.output().map_err(|e| e.to_string())?;
    let wall = start.elapsed().as_secs_f64();
    let cpu = crate::process::children_cpu() - cpu;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(stderr.lines().last().unwrap_or("failed").to_string());
    }
    let line = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("GNUTIME "))
        .ok_or("no GNU time line")?;
    let rss = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    Ok((wall, cpu, rss))
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

/// One case: what each generator reads (their generator.yml and ours may spell a name
/// differently) over which MIB folders.
struct Case {
    name: &'static str,
    ours: String,
    theirs: String,
    dirs: Vec<PathBuf>,
}

/// Runs the section over the corpus at `root`, `runs` runs a generator and case.
pub fn run(exe: &Path, root: &Path, runs: usize, notes: &mut Vec<String>) -> Vec<GenerateRow> {
    let time = Path::new("/usr/bin/time");
    if !time.is_file() {
        notes.push("generate: not run: GNU time is not installed (apt-get install time)".into());
        return Vec::new();
    }
    let Ok(dir) = tempfile::tempdir() else {
        notes.push("generate: not run: no temporary folder".into());
        return Vec::new();
    };
    let theirs = snmp_test_support::agent::tool("prometheus-snmp-generator");
    if theirs.is_none() {
        notes.push(
            "generate: Debian's generator not measured (apt-get install prometheus-snmp-exporter)"
                .into(),
        );
    }
    let ours_text = include_str!("../../exporter/generator.yml").to_string();
    let mut cases = vec![Case {
        name: "exporter/generator.yml, ietf/",
        theirs: ours_text.clone(),
        ours: ours_text,
        dirs: vec![root.join("ietf")],
    }];
    let host = include_str!("../../exporter/generator-host.yml").to_string();
    cases.push(Case {
        name: "generator-host.yml, ietf/ + net-snmp/",
        theirs: host.clone(),
        ours: host,
        dirs: vec![root.join("ietf"), root.join("vendor/net-snmp")],
    });
    cases.extend(published_case(root, notes));
    let mut rows = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let case_dir = dir.path().join(k.to_string());
        let written = std::fs::create_dir(&case_dir)
            .and_then(|()| std::fs::write(case_dir.join("ours.generator.yml"), &case.ours))
            .and_then(|()| std::fs::write(case_dir.join("generator.yml"), &case.theirs));
        if let Err(e) = written {
            notes.push(format!("generate: {}: not run: {e}", case.name));
            continue;
        }
        rows.extend(run_case(
            exe,
            case,
            &case_dir,
            theirs.as_deref(),
            runs,
            notes,
        ));
    }
    rows
}

/// Upstream's published generator.yml, less the modules whose MIBs the corpus lacks (found by
/// our generator, whose errors the test suite checks against net-snmp's for this file).
fn published_case(root: &Path, notes: &mut Vec<String>) -> Option<Case> {
    use snmp_exporter::generate::{self, config::GeneratorFile};
    let Ok(text) = std::fs::read_to_string(PUBLISHED) else {
        notes.push(format!(
            "generate: upstream's published generator.yml not measured: no {PUBLISHED} (apt-get install prometheus-snmp-exporter)"
        ));
        return None;
    };
    let mut dirs = vec![root.join("ietf")];
    let mut vendors: Vec<PathBuf> = std::fs::read_dir(root.join("vendor"))
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    vendors.sort();
    dirs.extend(vendors);
    // `memory` is UCD-SNMP-MIB's and two vendors' in the corpus: net-snmp takes UCD-SNMP-MIB's
    // silently, ours asks for the module's name.
    let ours = text.replace("- memory\n", "- UCD-SNMP-MIB::memory\n");
    let failed: Vec<String> = serde_yaml::from_str::<GeneratorFile>(&ours)
        .map_err(|e| e.to_string())
        .and_then(|g| {
            let tree = generate::load_tree(&dirs, &g)?;
            Ok(match generate::generate(&g, &tree, &mut Vec::new()) {
                Ok(_) => Vec::new(),
                Err(e) => e.errors.into_iter().map(|e| e.module).collect(),
            })
        })
        .map_err(|e| notes.push(format!("generate: {PUBLISHED}: {e}")))
        .ok()?;
    let without = |text: &str| -> Option<String> {
        let mut doc: serde_yaml::Value = serde_yaml::from_str(text).ok()?;
        let modules = doc.get_mut("modules")?.as_mapping_mut()?;
        for m in &failed {
            modules.remove(m.as_str());
        }
        serde_yaml::to_string(&doc).ok()
    };
    notes.push(format!(
        "generate: upstream's published generator.yml: {} module(s) left out, their MIBs not in the corpus: {}",
        failed.len(),
        failed.join(", ")
    ));
    Some(Case {
        name: "published generator.yml, whole corpus",
        ours: without(&ours)?,
        theirs: without(&text)?,
        dirs,
    })
}

/// `runs` runs of each generator on `case`, in turns, in `dir`.
fn run_case(
    exe: &Path,
    case: &Case,
    dir: &Path,
    theirs: Option<&Path>,
    runs: usize,
    notes: &mut Vec<String>,
) -> Vec<GenerateRow> {
    let time = Path::new("/usr/bin/time");
    let ours_out = dir.join("ours.yml");
    let format = ["-f", "GNUTIME %M"];
    let mut results: Vec<(&'static str, Vec<Timed>)> = vec![
        ("snmp-exporter", Vec::new()),
        ("snmp_exporter 0.21 (net-snmp)", Vec::new()),
    ];
    let mibdirs = std::env::join_paths(&case.dirs).unwrap_or_default();
    for _ in 0..runs {
        let mut ours = Command::new(time);
        ours.args(format)
            .arg(exe)
            .arg("--generate-child")
            .arg(dir.join("ours.generator.yml"))
            .arg(&ours_out)
            .args(&case.dirs);
        results[0].1.push(timed(&mut ours));
        if let Some(t) = theirs {
            let mut cmd = Command::new(time);
            cmd.args(format)
                .arg(t)
                .arg("generate")
                .current_dir(dir)
                .env("MIBDIRS", &mibdirs);
            results[1].1.push(timed(&mut cmd));
        }
    }
    let outputs = [ours_out, dir.join("snmp.yml")];
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
            notes.push(format!(
                "generate: {}: {name}: a run failed: {e}",
                case.name
            ));
        }
        rows.push(GenerateRow {
            case: case.name,
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

/// The table, with each generator's wall time as a ratio to ours in the same case.
pub fn table(rows: &[GenerateRow]) -> String {
    let mut out = String::from(
        "case                                    generator                      runs failed modules  wall ms  CPU ms  ×ours  peak RSS kB\n",
    );
    for r in rows {
        let ours = rows
            .iter()
            .find(|o| o.case == r.case)
            .map_or(f64::NAN, |o| o.wall_ms_median);
        out.push_str(&format!(
            "{:<39} {:<30} {:>4} {:>6} {:>7} {:>8.1} {:>7.1} {:>6.1} {:>12}\n",
            r.case,
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
                    "case": r.case,
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
