//! Running the `snmpc` binary from the tests, from the repository's root (so that
//! `corpus/...` paths work): its standard output, standard error and exit code.

use std::path::PathBuf;
use std::process::Command;

/// Where the tests' snmpc keeps its engines' boots (never the user's home).
pub fn persistent_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("snmpc-persist")
}

pub fn snmpc(args: &[&str]) -> (String, String, i32) {
    snmpc_keeping_in(&persistent_dir(), args)
}

/// The MIB environment of the tests' snmpc, whatever the machine's: no snmp.conf (Debian's
/// says `mibs :`, which reads no module), no MIB directories but `-M`'s, and every module
/// read (`-M`'s and the built-in ones) unless `-m` says otherwise.
pub fn mib_environment(cmd: &mut Command) -> &mut Command {
    cmd.env(
        "SNMPCONFPATH",
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-snmp-conf"),
    )
    .env("MIBDIRS", "")
    .env("MIBS", "ALL")
}

/// [`snmpc`] keeping its engines' boots in `dir`.
pub fn snmpc_keeping_in(dir: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let out = mib_environment(&mut Command::new(env!("CARGO_BIN_EXE_snmpc")))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("SNMP_PERSISTENT_DIR", dir)
        .output()
        .expect("snmpc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A net-snmp tool's standard output, standard error and exit code with `args`, its MIBs
/// from the command line only (`MIBS` and `MIBDIRS` emptied).
#[allow(dead_code)] // (not every test crate that includes this runs net-snmp's tools)
pub fn net_snmp_tool(tool: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(tool)
        .args(args)
        .env("MIBS", "")
        .env("MIBDIRS", "")
        .output()
        .expect("net-snmp tool runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `snmpc simulate`, stopped by its PID when dropped.
#[allow(dead_code)] // (not every test crate that includes this simulates agents)
pub struct Simulator(pub std::process::Child);

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[allow(dead_code)]
impl Simulator {
    /// `snmpc simulate` serving the recording `data` (v2c) on a free port of 127.0.0.1 for at
    /// most `seconds`, once it listens (10 s at most): it and its `HOST:PORT`.
    pub fn serve(data: &std::path::Path, seconds: u32) -> (Simulator, String) {
        let port = std::net::UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .expect("a free port")
            .port();
        let agent = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_snmpc"))
            .args(["simulate", "--data"])
            .arg(data)
            .args(["--threads", "1", "--for", &seconds.to_string(), &agent])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("snmpc simulate starts");
        wait_until_bound(&agent);
        (Simulator(child), agent)
    }
}

/// Returns once something has bound UDP address `address` (`127.0.0.1:PORT`), 10 s at most:
/// a notification or request sent before is refused or dropped unseen.
#[allow(dead_code)]
pub fn wait_until_bound(address: &str) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::net::UdpSocket::bind(address).is_ok() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
