//! What the enterprise-agent tests share: net-snmp's tools (found, or the test skipped; a
//! failure under SNMP_REQUIRE_TOOLS=1), the example's binary and an snmpd master of our own,
//! each on 127.0.0.1 and stopped by PID when dropped, and the checks every way of serving the
//! MIB must pass.

#![allow(dead_code)]

use std::net::{TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use snmp_test_support::agent::tool;

/// The example MIB's objects.
pub const P: &str = ".1.3.6.1.4.1.8072.9999.7.1";

/// net-snmp's command-line tools and snmpd.
pub struct Tools {
    pub snmpget: PathBuf,
    pub snmpset: PathBuf,
    pub snmpwalk: PathBuf,
    pub snmpbulkwalk: PathBuf,
    pub snmptable: PathBuf,
    pub snmpd: PathBuf,
}

impl Tools {
    /// The tools, or `None` (the test skipped, or failed under SNMP_REQUIRE_TOOLS=1).
    pub fn find() -> Option<Tools> {
        let get = |name: &str| tool(name);
        let found = (|| {
            Some(Tools {
                snmpget: get("snmpget")?,
                snmpset: get("snmpset")?,
                snmpwalk: get("snmpwalk")?,
                snmpbulkwalk: get("snmpbulkwalk")?,
                snmptable: get("snmptable")?,
                snmpd: get("snmpd")?,
            })
        })();
        if found.is_none() {
            snmp_test_support::skip("net-snmp's snmpd and command-line tools are not installed");
        }
        found
    }
}

/// A port of 127.0.0.1 free a moment ago (UDP).
pub fn free_udp_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A port of 127.0.0.1 free a moment ago (TCP).
pub fn free_tcp_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process killed (by its PID) when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The example's binary with `args`, its stderr in `log`.
pub fn enterprise_agent(args: &[&str], log: &Path) -> Process {
    let child = Command::new(env!("CARGO_BIN_EXE_enterprise-agent"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("enterprise-agent starts");
    Process(child)
}

/// The example standalone on a free port of 127.0.0.1 (jobs not run), `extra` flags added:
/// the process, its address, the directory of its log. Without extra flags it is serving
/// `public` when this returns; with them (a configuration), the caller waits as it can.
pub fn standalone(tools: &Tools, extra: &[&str]) -> (Process, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let target = format!("127.0.0.1:{}", free_udp_port());
    let mut args = vec!["--listen", &target, "--run-every", "0"];
    args.extend_from_slice(extra);
    let agent = enterprise_agent(&args, &dir.path().join("agent.log"));
    if extra.is_empty() {
        wait_serving(tools, &target);
    }
    (agent, target, dir)
}

/// An snmpd master agent: UDP on `port`, AgentX on `agentx` (`tcp:127.0.0.1:N` or a socket
/// path), `public` read-only and `private` read-write, configuration in `dir`.
pub fn snmpd_master(tools: &Tools, dir: &Path, port: u16, agentx: &str, extra: &str) -> Process {
    let conf = dir.join("snmpd.conf");
    std::fs::write(
        &conf,
        format!(
            "rocommunity public 127.0.0.1\nrwcommunity private 127.0.0.1\nmaster agentx\n\
             agentXSocket {agentx}\nagentXTimeout 2\nagentXRetries 1\n{extra}"
        ),
    )
    .unwrap();
    let child = Command::new(&tools.snmpd)
        .args(["-f", "-Lf"])
        .arg(dir.join("snmpd.log"))
        .arg("-C")
        .arg("-c")
        .arg(&conf)
        .arg("-p")
        .arg(dir.join("snmpd.pid"))
        .arg(format!("udp:127.0.0.1:{port}"))
        .env("SNMP_PERSISTENT_DIR", dir)
        .env("MIBS", "")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmpd starts");
    Process(child)
}

/// A tool's run: its standard output and error, and whether it succeeded.
pub struct Ran {
    pub out: String,
    pub err: String,
    pub ok: bool,
}

/// `tool` with `args` (numeric OIDs, no MIBs, 1 s timeout, 1 retry).
pub fn run(tool: &Path, args: &[&str]) -> Ran {
    let out = Command::new(tool)
        .args(["-On", "-t", "1", "-r", "1", "-m", ""])
        .args(args)
        .env("MIBS", "")
        .output()
        .expect("the tool runs");
    Ran {
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
        ok: out.status.success(),
    }
}

/// Waits (up to 10 s) until `target` answers a GET of exampleJobCount.0 through `community`.
pub fn wait_serving(tools: &Tools, target: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let oid = format!("{P}.3.0");
    while Instant::now() < deadline {
        let r = run(&tools.snmpget, &["-v2c", "-c", "public", target, &oid]);
        if r.out.contains("INTEGER") {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{target} did not serve exampleJobCount.0 within 10 s");
}

/// The error-status name snmpset reports for `args`, or `None` when the SET succeeded.
pub fn set_error(
    tools: &Tools,
    version: &str,
    community: &str,
    target: &str,
    args: &[&str],
) -> Option<String> {
    let mut all = vec![version, "-c", community, target];
    all.extend_from_slice(args);
    let r = run(&tools.snmpset, &all);
    if r.ok {
        return None;
    }
    // "Reason: wrongLength (The set value ...)" (v2c) or "Reason: (badValue) ..." (v1).
    let reason = r
        .err
        .lines()
        .find_map(|l| l.strip_prefix("Reason: "))
        .unwrap_or_else(|| panic!("snmpset {args:?} failed without a reason: {}", r.err));
    let name = reason.trim_start_matches('(');
    Some(name.split([' ', ')']).next().unwrap_or("").to_string())
}

/// A walk's bindings, without the endOfMibView line net-snmp prints where a view ends.
pub fn values(walk: &str) -> Vec<&str> {
    walk.lines()
        .filter(|l| !l.contains("No more variables left"))
        .collect()
}

/// The checks every way of serving the MIB passes: reads by GET, GETNEXT walk, GETBULK walk
/// and snmptable; each SET error-status the MIB decides, as RFC 3416 4.2.5 names it; a row
/// through its RowStatus life. The agent starts with jobs 1 to 3.
pub fn check_mib(tools: &Tools, target: &str) {
    check_reads(tools, target);
    check_set_errors(tools, target);
    check_row_life(tools, target);
}

/// GET, GETNEXT and GETBULK walks and snmptable of the three jobs the agent starts with.
fn check_reads(tools: &Tools, target: &str) {
    let v2c = |c: &'static str| ["-v2c", "-c", c];
    let get = run(
        &tools.snmpget,
        &[
            &v2c("public")[..],
            &[target, &format!("{P}.3.0"), &format!("{P}.4.1.2.2")],
        ]
        .concat(),
    );
    assert!(
        get.out.contains(&format!("{P}.3.0 = INTEGER: 3")),
        "{}{}",
        get.out,
        get.err
    );
    assert!(
        get.out
            .contains(&format!("{P}.4.1.2.2 = STRING: \"job-2\"")),
        "{}",
        get.out
    );

    let walk = run(
        &tools.snmpwalk,
        &[&v2c("public")[..], &[target, ".1.3.6.1.4.1.8072.9999.7"]].concat(),
    );
    let bulk = run(
        &tools.snmpbulkwalk,
        &[&v2c("public")[..], &[target, ".1.3.6.1.4.1.8072.9999.7"]].concat(),
    );
    let lines = values(&walk.out);
    // 3 scalars and 3 rows of 5 columns, in OID order.
    assert_eq!(lines.len(), 18, "{}", walk.out);
    assert!(
        lines[0].starts_with(&format!("{P}.1.0 = Timeticks:")),
        "{}",
        lines[0]
    );
    assert_eq!(lines[17], format!("{P}.4.1.6.3 = INTEGER: 1"));
    // The same by GETBULK but for the uptime, which moved on.
    assert_eq!(lines[1..], values(&bulk.out)[1..]);

    let mibs = format!(
        "{}/mibs:{}/../../mibs",
        env!("CARGO_MANIFEST_DIR"),
        env!("CARGO_MANIFEST_DIR")
    );
    let table = Command::new(&tools.snmptable)
        .args([
            "-v2c",
            "-c",
            "public",
            "-Cf",
            ",",
            "-t",
            "1",
            "-r",
            "1",
            "-M",
            &mibs,
            "-m",
            "SNMP-CODEGEN-EXAMPLE-MIB",
        ])
        .arg(target)
        .arg("SNMP-CODEGEN-EXAMPLE-MIB::exampleJobTable")
        .env("MIBS", "")
        .output()
        .expect("snmptable runs");
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains(
            "exampleJobName,exampleJobPriority,exampleJobRuns,exampleJobEnabled,exampleJobStatus"
        ),
        "{table}"
    );
    assert!(table.contains("job-3,normal,"), "{table}");
    assert_eq!(
        table.lines().filter(|l| l.starts_with("job-")).count(),
        3,
        "{table}"
    );
}

/// Each error-status of a SET the MIB and RowStatus decide (RFC 3416 4.2.5, RFC 2579), over
/// SNMPv2c and in SNMPv1's words.
fn check_set_errors(tools: &Tools, target: &str) {
    let long = "x".repeat(70);
    let cases: [(&str, &[&str], &str); 8] = [
        ("public", &[&format!("{P}.2.0"), "s", "x"], "noAccess"),
        ("private", &[&format!("{P}.2.0"), "s", &long], "wrongLength"),
        ("private", &[&format!("{P}.2.0"), "i", "3"], "wrongType"),
        ("private", &[&format!("{P}.3.0"), "i", "3"], "notWritable"),
        (
            "private",
            &[&format!("{P}.4.1.3.1"), "i", "7"],
            "wrongValue",
        ),
        ("private", &[&format!("{P}.2.1"), "s", "x"], "noCreation"),
        (
            "private",
            &[&format!("{P}.4.1.2.20"), "s", "abc"],
            "inconsistentName",
        ),
        (
            "private",
            &[&format!("{P}.4.1.6.21"), "i", "4"],
            "inconsistentValue",
        ),
    ];
    for (community, args, want) in cases {
        let got = set_error(tools, "-v2c", community, target, args);
        assert_eq!(got.as_deref(), Some(want), "SET {args:?} as {community}");
    }
    // SNMPv1 says it in its own words (RFC 3584 4.4).
    assert_eq!(
        set_error(
            tools,
            "-v1",
            "private",
            target,
            &[&format!("{P}.2.0"), "i", "3"]
        )
        .as_deref(),
        Some("badValue")
    );
    assert_eq!(
        set_error(
            tools,
            "-v1",
            "private",
            target,
            &[&format!("{P}.3.0"), "i", "3"]
        )
        .as_deref(),
        Some("noSuchName")
    );
}

/// A row's life: createAndWait, notReady until named, notInService, active, destroyed; the
/// example's own rules; a SET of two values, one wrong, that makes neither.
fn check_row_life(tools: &Tools, target: &str) {
    let set = |args: &[&str]| set_error(tools, "-v2c", "private", target, args);
    let status = |k: &str| {
        let r = run(
            &tools.snmpget,
            &["-v2c", "-c", "public", target, &format!("{P}.4.1.6.{k}")],
        );
        r.out.trim().rsplit(' ').next().unwrap_or("").to_string()
    };
    assert_eq!(set(&[&format!("{P}.4.1.6.22"), "i", "5"]), None);
    assert_eq!(status("22"), "3");
    assert_eq!(set(&[&format!("{P}.4.1.2.22"), "s", "named"]), None);
    assert_eq!(status("22"), "2");
    assert_eq!(set(&[&format!("{P}.4.1.6.22"), "i", "1"]), None);
    assert_eq!(status("22"), "1");
    // The example's own rule: an active job keeps its name.
    assert_eq!(
        set(&[&format!("{P}.4.1.2.22"), "s", "renamed"]).as_deref(),
        Some("inconsistentValue")
    );
    assert_eq!(set(&[&format!("{P}.4.1.6.22"), "i", "6"]), None);
    let gone = run(
        &tools.snmpget,
        &["-v2c", "-c", "public", target, &format!("{P}.4.1.2.22")],
    );
    assert!(gone.out.contains("No Such Instance"), "{}", gone.out);
    // createAndGo with its name in the same SET, and the count follows.
    assert_eq!(
        set(&[
            &format!("{P}.4.1.2.10"),
            "s",
            "new-job",
            &format!("{P}.4.1.6.10"),
            "i",
            "4"
        ]),
        None
    );
    assert_eq!(status("10"), "1");
    let count = run(
        &tools.snmpget,
        &["-v2c", "-c", "public", target, &format!("{P}.3.0")],
    );
    assert!(count.out.contains("INTEGER: 4"), "{}", count.out);
    // A SET of two values, one wrong: neither is made.
    assert_eq!(
        set(&[
            &format!("{P}.2.0"),
            "s",
            "changed",
            &format!("{P}.4.1.3.1"),
            "i",
            "9"
        ])
        .as_deref(),
        Some("wrongValue")
    );
    let desc = run(
        &tools.snmpget,
        &["-v2c", "-c", "public", target, &format!("{P}.2.0")],
    );
    assert!(desc.out.contains("\"example\""), "{}", desc.out);
}
