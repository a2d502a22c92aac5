//! The MIB compiler's speed: reading, parsing and resolving a whole MIB corpus, side by side
//! with net-snmp loading the same corpus (`snmptranslate -M ... -m ALL -Tz`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One side of the comparison.
#[derive(Debug, Clone)]
pub struct Load {
    /// Who.
    pub imp: &'static str,
    /// Fastest and median wall time of the runs, seconds.
    pub s_min: f64,
    /// Median.
    pub s_median: f64,
    /// Peak resident set size in kB, where it could be measured.
    pub peak_kb: Option<u64>,
    /// Median time to free what was loaded, seconds (snmp-codegen's in-process load; the
    /// net-snmp process's time includes its exit).
    pub free_s_median: Option<f64>,
    /// Median wall time of the whole process (start, load, exit), seconds.
    pub process_s_median: f64,
}

/// The corpus result: what was loaded, and both sides.
#[derive(Debug, Clone)]
pub struct MibCorpus {
    /// Files read.
    pub files: usize,
    /// Modules found.
    pub modules: usize,
    /// Nodes resolved.
    pub nodes: usize,
    /// snmp-codegen, then net-snmp when present.
    pub loads: Vec<Load>,
}

/// The corpus's directories: `ietf/` and every `vendor/*/` in the real-world corpus's layout;
/// any other folder of MIB files is one directory by itself.
pub fn dirs(root: &Path) -> Vec<PathBuf> {
    if !root.join("ietf").is_dir() {
        return vec![root.to_path_buf()];
    }
    let mut v = vec![root.join("ietf")];
    if let Ok(entries) = std::fs::read_dir(root.join("vendor")) {
        let mut vendors: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        vendors.sort();
        v.extend(vendors);
    }
    v
}

/// Loads and resolves every module once: what a program using the MIBs holds.
pub fn load(dirs: &[PathBuf]) -> (snmp_smi::mib::MibSet, snmp_smi::mib::Resolved) {
    let set = snmp_smi::mib::MibSet::load(dirs).expect("MIB directories readable");
    let resolved = snmp_smi::mib::resolve(&set, &[], &HashSet::new());
    (set, resolved)
}

/// Loads and resolves once; (files, modules, nodes).
pub fn load_once(dirs: &[PathBuf]) -> (usize, usize, usize) {
    let (set, resolved) = load(dirs);
    (set.files.len(), set.modules.len(), resolved.nodes.len())
}

/// The `--mib-load-child` run, in a fresh process as net-snmp's load is: loads and resolves
/// every module, frees them, and prints the load's seconds, the freeing's seconds and the
/// process's peak RSS in kB.
pub fn child(dirs: &[PathBuf]) -> String {
    let t = Instant::now();
    let loaded = std::hint::black_box(load(dirs));
    let load_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    drop(loaded);
    let free_s = t.elapsed().as_secs_f64();
    format!("{load_s} {free_s} {}", own_peak_kb().unwrap_or(0))
}

/// The peak RSS of this process (Linux), for the `--mib-load-child` run.
pub fn own_peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    (v[0], v[v.len() / 2])
}

/// Peak RSS of a command run under GNU time, where /usr/bin/time exists.
fn peak_kb_of(cmd: &Path, args: &[String]) -> Option<u64> {
    let o = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(cmd)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .ok()?;
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()
}

/// Runs both sides `runs` times each, alternating.
pub fn run(root: &Path, exe: &Path, runs: usize, notes: &mut Vec<String>) -> MibCorpus {
    let dirs = dirs(root);
    let (files, modules, nodes) = load_once(&dirs);
    let path = dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(":");
    let translate = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("snmptranslate"))
            .find(|p| p.is_file())
    });
    // Both sides run as fresh processes, alternating: ours reports its own load and freeing
    // times and peak RSS; the whole process is timed for both.
    let mut child_args: Vec<String> = vec!["--mib-load-child".into()];
    child_args.extend(dirs.iter().map(|d| d.display().to_string()));
    let mut ours = Vec::new();
    let mut freeing = Vec::new();
    let mut our_process = Vec::new();
    let mut our_peak = None;
    let mut theirs = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new(exe).args(&child_args).output();
        let wall = t.elapsed().as_secs_f64();
        let text = out
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let f: Vec<f64> = text
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        if let [load_s, free_s, peak] = f[..] {
            ours.push(load_s);
            freeing.push(free_s);
            our_process.push(wall);
            our_peak = Some(our_peak.unwrap_or(0u64).max(peak as u64));
        }
        if let Some(tool) = &translate {
            let t = Instant::now();
            let ok = Command::new(tool)
                .args(["-M", &path, "-m", "ALL", "-Tz"])
                .env("MIBS", "")
                .env("MIBDIRS", "")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                theirs.push(t.elapsed().as_secs_f64());
            }
        }
    }
    if ours.is_empty() {
        // The child could not run (no such executable): load in this process instead.
        let t = Instant::now();
        let loaded = std::hint::black_box(load(&dirs));
        ours.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        drop(loaded);
        freeing.push(t.elapsed().as_secs_f64());
        our_process.push(ours[0] + freeing[0]);
        notes.push("MIB corpus: the load child did not run; timed in this process".into());
    }
    let (s_min, s_median) = median(ours);
    let mut loads = vec![Load {
        imp: "snmp-codegen",
        s_min,
        s_median,
        peak_kb: our_peak,
        free_s_median: Some(median(freeing).1),
        process_s_median: median(our_process).1,
    }];
    match (&translate, theirs.is_empty()) {
        (Some(tool), false) => {
            let (s_min, s_median) = median(theirs);
            let peak = peak_kb_of(
                tool,
                &["-M".into(), path, "-m".into(), "ALL".into(), "-Tz".into()],
            );
            if peak.is_none() {
                notes.push(
                    "MIB corpus: /usr/bin/time not found, net-snmp's peak memory not measured"
                        .into(),
                );
            }
            loads.push(Load {
                imp: "netsnmp",
                s_min,
                s_median,
                peak_kb: peak,
                free_s_median: None,
                process_s_median: s_median,
            });
        }
        _ => notes.push(
            "MIB corpus: snmptranslate not found (apt-get install -y snmp): no net-snmp comparison"
                .into(),
        ),
    }
    MibCorpus {
        files,
        modules,
        nodes,
        loads,
    }
}
