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

/// The corpus's directories: `ietf/` and every `vendor/*/`.
pub fn dirs(root: &Path) -> Vec<PathBuf> {
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

/// Loads and resolves once; (files, modules, nodes).
pub fn load_once(dirs: &[PathBuf]) -> (usize, usize, usize) {
    let set = snmp_codegen::mib::MibSet::load(dirs).expect("MIB directories readable");
    let resolved = snmp_codegen::mib::resolve(&set, &[], &HashSet::new());
    (set.files.len(), set.modules.len(), resolved.nodes.len())
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
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(load_once(&dirs));
        ours.push(t.elapsed().as_secs_f64());
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
    let mut child_args: Vec<String> = vec!["--mib-load-child".into()];
    child_args.extend(dirs.iter().map(|d| d.display().to_string()));
    let our_peak = Command::new(exe)
        .args(&child_args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok());
    let (s_min, s_median) = median(ours);
    let mut loads = vec![Load {
        imp: "snmp-codegen",
        s_min,
        s_median,
        peak_kb: our_peak,
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
