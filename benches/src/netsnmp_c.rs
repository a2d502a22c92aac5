//! The benches' C programs against net-snmp's library (benches/c/): built here with `cc` and
//! `net-snmp-config --cflags --libs`, and run with net-snmp's configuration and persistent
//! state in a scratch directory and no MIBs loaded (the user's and the system's files are
//! neither read nor written).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `net-snmp-config ARG`, split.
fn config(arg: &str) -> Result<Vec<String>, String> {
    let out = Command::new("net-snmp-config")
        .arg(arg)
        .output()
        .map_err(|e| format!("net-snmp-config: {e} (apt-get install -y libsnmp-dev)"))?;
    if !out.status.success() {
        return Err(format!("net-snmp-config {arg} failed"));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect())
}

/// The C program `source` built in `dir` as `name` (once: an existing one is taken): its
/// path, or why not.
pub fn build(dir: &Path, name: &str, source: &str) -> Result<PathBuf, String> {
    let exe = dir.join(name);
    if exe.exists() {
        return Ok(exe);
    }
    let file = dir.join(format!("{name}.c"));
    std::fs::write(&file, source).map_err(|e| format!("{}: {e}", file.display()))?;
    let out = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&file)
        .args(config("--cflags")?)
        .args(config("--libs")?)
        .output()
        .map_err(|e| format!("cc: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("cc failed: {}", err.lines().next().unwrap_or("")));
    }
    Ok(exe)
}

/// The environment a program built by [`build`] runs in: net-snmp's configuration and state
/// in `dir/netsnmp-conf`, no MIBs.
pub fn environment(dir: &Path) -> Result<Vec<(&'static str, PathBuf)>, String> {
    let conf = dir.join("netsnmp-conf");
    std::fs::create_dir_all(&conf).map_err(|e| format!("{}: {e}", conf.display()))?;
    Ok(vec![
        ("SNMPCONFPATH", conf.clone()),
        ("SNMP_PERSISTENT_DIR", conf.clone()),
        ("MIBDIRS", conf),
        ("MIBS", PathBuf::new()),
    ])
}
