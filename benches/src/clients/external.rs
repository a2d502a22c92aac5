//! The clients measured as programs of their own: net-snmp's C library
//! (benches/c/netsnmp_client.c, built here with `cc` against libnetsnmp) and the Python
//! clients (benches/py/clients.py in a venv the benchmark makes). Both take the case on their
//! command line and print a line a run: `run CALLS WALL_MS CPU_S REQUESTS BINDINGS FAILED`
//! (REQUESTS -1 when the client does not say).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::data::Case;
use super::{Driver, Outcome, Plan, Run, Target};

const NETSNMP_CLIENT: &str = include_str!("../../c/netsnmp_client.c");
const PYTHON_CLIENTS: &str = include_str!("../../py/clients.py");

/// The Python clients: the packages each needs (pysnmp ciphers through `cryptography`:
/// without it every authPriv request fails) and a module to import that says they are there.
const PYTHON: [(&str, &[&str], &str); 4] = [
    ("gufo_snmp-sync", &["gufo_snmp"], "gufo.snmp"),
    ("gufo_snmp-async", &["gufo_snmp"], "gufo.snmp"),
    ("ezsnmp", &["ezsnmp"], "ezsnmp"),
    (
        "pysnmp",
        &["pysnmp", "cryptography"],
        "pysnmp.hlapi.v3arch.asyncio, cryptography",
    ),
];

/// A client that is a program: the command before the case's arguments.
pub struct External {
    name: &'static str,
    program: PathBuf,
    /// Arguments before the common ones (the script and the client's name, for Python).
    leading: Vec<String>,
    /// Environment (net-snmp's configuration kept in the scratch directory).
    env: Vec<(String, PathBuf)>,
}

/// The runs a driver printed, or what it said instead (`unsupported WHY`, exit code 3).
fn parse(name: &str, stdout: &str, stderr: &str, code: Option<i32>) -> Outcome {
    if let Some(why) = stdout.lines().find_map(|l| l.strip_prefix("unsupported ")) {
        return Outcome::Unsupported(why.to_string());
    }
    let mut runs = Vec::new();
    for line in stdout.lines().filter(|l| l.starts_with("run ")) {
        let f: Vec<&str> = line.split_whitespace().skip(1).collect();
        let parsed = (|| -> Option<Run> {
            let requests: i64 = f.get(3)?.parse().ok()?;
            Some(Run {
                calls: f.first()?.parse().ok()?,
                wall_ms: f.get(1)?.parse().ok()?,
                cpu_s: f.get(2)?.parse().ok()?,
                requests: u64::try_from(requests).ok(),
                bindings: f.get(4)?.parse().ok()?,
                failed: f.get(5)?.parse().ok()?,
            })
        })();
        match parsed {
            Some(r) => runs.push(r),
            None => return Outcome::Failed(format!("{name} printed `{line}`")),
        }
    }
    if code == Some(0) && !runs.is_empty() {
        return Outcome::Ran(runs);
    }
    let why = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output");
    Outcome::Failed(format!("exit {code:?}: {why}"))
}

impl Driver for External {
    fn name(&self) -> &'static str {
        self.name
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        let (user, auth, privacy) = target.user;
        let mut command = Command::new(&self.program);
        command
            .args(&self.leading)
            .arg(target.port.to_string())
            .arg(target.version)
            .arg(case.kind.as_str())
            .arg(case.repetitions.to_string())
            .arg(case.expected.to_string())
            .arg(plan.runs.to_string())
            .arg(format!("{:.3}", plan.budget.as_secs_f64()));
        if self.leading.is_empty() {
            // The C client: OIDs, then the user after `--`.
            command.args(&case.oids).args(["--", user, auth, privacy]);
        } else {
            command.args([user, auth, privacy]).args(&case.oids);
        }
        for (k, v) in &self.env {
            command.env(k, v);
        }
        match command.stdin(Stdio::null()).output() {
            Ok(out) => parse(
                self.name,
                &String::from_utf8_lossy(&out.stdout),
                &String::from_utf8_lossy(&out.stderr),
                out.status.code(),
            ),
            Err(e) => Outcome::Failed(format!("{}: {e}", self.program.display())),
        }
    }
}

/// net-snmp's C client, built in `dir`.
pub fn netsnmp(dir: &Path) -> Result<External, String> {
    let program = crate::netsnmp_c::build(dir, "netsnmp_client", NETSNMP_CLIENT)?;
    let env = crate::netsnmp_c::environment(dir)?
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    Ok(External {
        name: "net-snmp",
        program,
        leading: Vec::new(),
        env,
    })
}

/// Where the benchmarks keep the Python clients' venv.
fn venv() -> PathBuf {
    std::env::temp_dir().join("snmp-bench-clients-venv")
}

/// The Python clients that can be had (a venv made once, each package installed by pip), and
/// a line for each that cannot.
pub fn python(dir: &Path) -> Result<(Vec<External>, Vec<String>), String> {
    let venv = venv();
    let python = venv.join("bin/python");
    if !python.exists() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("python3 -m venv: {e}"))?;
        if !made.success() {
            return Err("python3 -m venv failed (apt-get install -y python3-venv)".into());
        }
    }
    let script = dir.join("clients.py");
    std::fs::write(&script, PYTHON_CLIENTS).map_err(|e| format!("{}: {e}", script.display()))?;
    let imports = |module: &str| {
        Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    for (name, packages, module) in PYTHON {
        if !imports(module) {
            let _ = Command::new(venv.join("bin/pip"))
                .args(["install", "-q"])
                .args(packages)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        if imports(module) {
            found.push(External {
                name,
                program: python.clone(),
                leading: vec![script.display().to_string(), name.to_string()],
                env: Vec::new(),
            });
        } else {
            missing.push(format!(
                "{name} not measured: pip install {} failed (offline?)",
                packages.join(" ")
            ));
        }
    }
    Ok((found, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drivers_lines_are_runs_or_a_reason() {
        let ran = parse(
            "x",
            "run 100 8.5 0.0026 -1 300 0\nrun 100 7.4 0.0013 100 300 1\n",
            "",
            Some(0),
        );
        let Outcome::Ran(runs) = ran else {
            panic!("{ran:?}");
        };
        assert_eq!(runs.len(), 2);
        assert_eq!(
            (runs[0].requests, runs[1].requests, runs[1].failed),
            (None, Some(100), 1)
        );
        assert!(
            matches!(parse("x", "unsupported no GETBULK\n", "", Some(3)), Outcome::Unsupported(w) if w == "no GETBULK")
        );
        assert!(
            matches!(parse("x", "", "Traceback\nboom\n", Some(1)), Outcome::Failed(w) if w.contains("boom"))
        );
        assert!(matches!(
            parse("x", "run 1 x\n", "", Some(0)),
            Outcome::Failed(_)
        ));
    }
}
