//! `snmpc trap` and `snmpc inform` against net-snmp's own receiver: snmptrapd on 127.0.0.1
//! (its configuration in a temporary directory) logs what snmpc sends exactly as it logs what
//! net-snmp's snmptrap and snmpinform send with the same arguments: SNMPv1 and v2c traps,
//! v2c and v3 (authPriv) informs.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use snmp_test_support::agent as support;

/// snmptrapd of our own, stopped by its PID when dropped.
struct Receiver {
    child: Child,
    port: u16,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A persistent directory of its own for one run of a net-snmp tool: net-snmp's tools keep
/// state there on exit (snmpapp.conf), and two of them writing the default one at once can
/// leave it half written for a third.
fn own_state() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("net-snmp-state")
        .join(format!("{}-{}", std::process::id(), free_port()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A UDP port on 127.0.0.1 nothing listens on now.
fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn mibs() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mibs")
        .display()
        .to_string()
}

fn receiver(snmptrapd: &Path) -> Receiver {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("snmptrapd.conf");
    std::fs::write(
        &conf,
        "authCommunity log public\n\
         createUser informuser SHA \"informauthpass\" AES \"informprivpass\"\n\
         createUser -e 0x8000000001020304 informuser SHA \"informauthpass\" AES \"informprivpass\"\n\
         authUser log informuser\n",
    )
    .unwrap();
    let port = free_port();
    let log = dir.path().join("traps.log");
    let child = Command::new(snmptrapd)
        .args(["-f", "-Lf"])
        .arg(&log)
        .args(["-C", "-c"])
        .arg(&conf)
        .arg("-p")
        .arg(dir.path().join("snmptrapd.pid"))
        .arg(format!("udp:127.0.0.1:{port}"))
        .env("SNMP_PERSISTENT_DIR", dir.path())
        .env("MIBS", "SNMPv2-MIB:IF-MIB")
        .env("MIBDIRS", mibs())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmptrapd starts");
    // Ready once it has written its banner.
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until
        && !std::fs::read_to_string(&log).is_ok_and(|l| l.contains("NET-SNMP version"))
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    Receiver {
        child,
        port,
        log,
        _dir: dir,
    }
}

/// What the receiver logged since `from` octets, the source's ports and the times left out
/// and the lines of one notification joined.
fn logged_since(r: &Receiver, from: usize, count: usize) -> (String, usize) {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let text = std::fs::read_to_string(&r.log).unwrap_or_default();
        let new = &text[from.min(text.len())..];
        let notifications = new.matches("UDP: [127.0.0.1]").count();
        if notifications >= count || Instant::now() > until {
            let cleaned = normalized(new);
            return (cleaned, text.len());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// snmptrapd's (or `snmpc listen`'s) log without what varies from run to run: the time a line
/// starts with (`2026-12-01 19:42:45 `) and every port after an address (`[127.0.0.1]:44222`
/// becomes `[127.0.0.1]:P`).
fn normalized(log: &str) -> String {
    let lines: Vec<String> = log
        .lines()
        .map(|l| {
            let l = l.get(20..).filter(|_| l.starts_with("20")).unwrap_or(l);
            let mut out = String::new();
            let mut rest = l;
            while let Some(at) = rest.find("]:") {
                out.push_str(&rest[..at + 2]);
                rest = &rest[at + 2..];
                let digits = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                if digits > 0 {
                    out.push('P');
                }
                rest = &rest[digits..];
            }
            out.push_str(rest);
            out
        })
        .collect();
    lines.join("\n")
}

#[test]
fn traps_and_informs_reach_snmptrapd_as_net_snmps_do() {
    let tools = ["snmptrapd", "snmptrap", "snmpinform"].map(support::tool);
    let [Some(snmptrapd), Some(snmptrap), Some(snmpinform)] = tools else {
        support::require_or_skip(
            "snmptrapd or snmptrap not found (apt-get install -y snmptrapd snmp)",
        );
        return;
    };
    let r = receiver(&snmptrapd);
    let target = format!("127.0.0.1:{}", r.port);
    let t = target.as_str();
    let v3 = [
        "-v",
        "3",
        "-u",
        "informuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "informauthpass",
        "-x",
        "AES",
        "-X",
        "informprivpass",
    ];
    let mut cases: Vec<(&str, &Path, Vec<&str>)> = vec![
        (
            "trap",
            &snmptrap,
            vec![
                "-v",
                "2c",
                "-c",
                "public",
                t,
                "12345",
                "IF-MIB::linkDown",
                "ifIndex.3",
                "i",
                "3",
                "ifAdminStatus.3",
                "i",
                "2",
                // The numbers net-snmp wraps in an Opaque.
                "1.3.6.1.4.1.8072.9999.1",
                "F",
                "1.5",
                "1.3.6.1.4.1.8072.9999.2",
                "D",
                "-2.25",
                "1.3.6.1.4.1.8072.9999.3",
                "I",
                "-5",
                "1.3.6.1.4.1.8072.9999.4",
                "U",
                "18446744073709551615",
            ],
        ),
        (
            "trap",
            &snmptrap,
            vec![
                "-v",
                "1",
                "-c",
                "public",
                t,
                "1.3.6.1.4.1.8072.4",
                "192.0.2.7",
                "6",
                "17",
                "12345",
                "sysLocation.0",
                "s",
                "hello",
            ],
        ),
        // The agent-addr as a host name: its IPv4 address, as snmptrap resolves it.
        (
            "trap",
            &snmptrap,
            vec![
                "-v",
                "1",
                "-c",
                "public",
                t,
                "",
                "localhost",
                "6",
                "17",
                "12345",
            ],
        ),
        (
            "inform",
            &snmpinform,
            vec![
                "-v",
                "2c",
                "-c",
                "public",
                t,
                "42",
                "IF-MIB::linkUp",
                "ifIndex.1",
                "i",
                "1",
            ],
        ),
    ];
    // Values of another type than their objects' SYNTAX (`-Ir`: not checked before
    // sending), said as `Wrong Type (should be INTEGER): Counter32: 5`; a DisplayString that
    // holds a NUL, printed as net-snmp prints it.
    cases.push((
        "trap",
        &snmptrap,
        vec![
            "-Ir",
            "-v",
            "2c",
            "-c",
            "public",
            t,
            "99",
            "IF-MIB::linkDown",
            "ifIndex.1",
            "c",
            "5",
            "ifSpeed.1",
            "c",
            "6",
            "ifHCInOctets.1",
            "u",
            "7",
            "sysObjectID.0",
            "s",
            "not an OID",
            "ifHighSpeed.1",
            "c",
            "1",
            "ifAdminStatus.1",
            "u",
            "1",
            "sysDescr.0",
            "x",
            "00 22 5C 41 7F 09 E9",
        ],
    ));
    let mut informv3 = v3.to_vec();
    informv3.extend([t, "7", "IF-MIB::linkUp", "ifDescr.1", "s", "eth0"]);
    cases.push(("inform", &snmpinform, informv3));
    // snmptrap -Ci: an inform.
    cases.push((
        "trap",
        &snmptrap,
        vec![
            "-Ci",
            "-v",
            "2c",
            "-c",
            "public",
            t,
            "43",
            "IF-MIB::linkDown",
            "ifIndex.2",
            "i",
            "2",
        ],
    ));
    // A v3 trap: its sender is the authoritative engine, named by -e.
    let mut trapv3 = v3.to_vec();
    trapv3.extend([
        "-e",
        "0x8000000001020304",
        t,
        "8",
        "IF-MIB::linkDown",
        "ifIndex.2",
        "i",
        "2",
    ]);
    cases.push(("trap", &snmptrap, trapv3));
    // Past the banner. The v3 trap's engine is claimed by both senders in turn, so each
    // starts as at a first boot (boots 1; snmptrapd refuses a boots that goes back).
    let fresh = tempfile::tempdir().unwrap();
    let mut at = std::fs::read_to_string(&r.log).unwrap_or_default().len();
    let mut logged: Vec<String> = Vec::new();
    for (command, tool, args) in &cases {
        let mut ours_args = vec![*command];
        ours_args.extend(args);
        let (_, err, code) = run::snmpc_keeping_in(fresh.path(), &ours_args);
        assert_eq!(code, 0, "{command} {args:?}: {err}");
        let (ours, end) = logged_since(&r, at, 1);
        let out = Command::new(tool)
            .env("SNMP_PERSISTENT_DIR", fresh.path())
            .args(["-m", "SNMPv2-MIB:IF-MIB", "-M", &mibs()])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{tool:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (theirs, end) = logged_since(&r, end, 1);
        at = end;
        assert!(
            ours.contains("UDP: [127.0.0.1]"),
            "{command} {args:?}: nothing logged: {ours}"
        );
        assert_eq!(ours, theirs, "{command} {args:?}");
        logged.push(theirs);
    }
    listen_prints_what_snmptrapd_logs(&cases, &logged, &snmptrap);
    listen_acknowledges_v3_informs(&snmpinform);
    // A trap under SNMPv3 without -e (no engine of its own to send from): said, exit 1.
    let mut v3trap = vec!["trap"];
    v3trap.extend(v3);
    v3trap.extend([t, "1", "IF-MIB::linkUp"]);
    let (_, err, code) = snmpc(&v3trap);
    assert_eq!(code, 1);
    assert!(
        err.contains("not offered: SNMPv3 traps without this engine's ID"),
        "{err}"
    );
    // Bindings not in triples are refused before anything is sent, as snmptrap refuses them.
    let (_, err, code) = snmpc(&[
        "trap",
        "-v",
        "2c",
        t,
        "1",
        "IF-MIB::linkUp",
        "ifIndex.1",
        "i",
    ]);
    assert_eq!(code, 1);
    assert_eq!(err, "ifIndex.1: Missing type/value for variable\n");
}

/// `snmpc listen` takes the notifications net-snmp's tools send and prints their bindings as
/// snmptrapd logged them (`logged`), acknowledges informs (snmpinform exits 0), decrypts a v3
/// trap from its sender's engine, and counts what it drops.
fn listen_prints_what_snmptrapd_logs(
    cases: &[(&str, &Path, Vec<&str>)],
    logged: &[String],
    snmptrap: &Path,
) {
    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    // The modules the snmptrapd of `receiver` reads.
    let listener = run::mib_environment(&mut Command::new(env!("CARGO_BIN_EXE_snmpc")))
        .env("MIBS", "SNMPv2-MIB:IF-MIB")
        .env("MIBDIRS", mibs())
        .args([
            "listen",
            "-c",
            "public",
            "-u",
            "informuser",
            "-a",
            "SHA",
            "-A",
            "informauthpass",
        ])
        .args([
            "-x",
            "AES",
            "-X",
            "informprivpass",
            "--count",
            "4",
            "--for",
            "20",
            &address,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snmpc listen starts");
    run::wait_until_bound(&address);
    // The v1/v2c cases again, to the listener (the v3 inform is not offered there: skipped).
    for (_, tool, args) in cases.iter().take(3) {
        let args: Vec<&str> = args
            .iter()
            .map(|a| {
                if a.starts_with("127.0.0.1:") {
                    address.as_str()
                } else {
                    a
                }
            })
            .collect();
        let out = Command::new(tool)
            .env("SNMP_PERSISTENT_DIR", own_state())
            .args([
                "-m",
                "SNMPv2-MIB:IF-MIB",
                "-M",
                &mibs(),
                "-t",
                "2",
                "-r",
                "1",
            ])
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{tool:?} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A community it does not take, then a v3 trap from an engine of the sender's own.
    let bad = Command::new(snmptrap)
        .env("SNMP_PERSISTENT_DIR", own_state())
        .args([
            "-v",
            "2c",
            "-c",
            "wrong",
            &address,
            "1",
            "1.3.6.1.6.3.1.1.5.1",
        ])
        .output()
        .unwrap();
    assert!(bad.status.success());
    let v3 = Command::new(snmptrap)
        .env("SNMP_PERSISTENT_DIR", own_state())
        .args(["-m", "SNMPv2-MIB:IF-MIB", "-M", &mibs()])
        .args([
            "-v",
            "3",
            "-e",
            "0x8000000001020304",
            "-u",
            "informuser",
            "-l",
            "authPriv",
        ])
        .args([
            "-a",
            "SHA",
            "-A",
            "informauthpass",
            "-x",
            "AES",
            "-X",
            "informprivpass",
        ])
        .args([&address, "99", "IF-MIB::linkUp", "ifIndex.2", "i", "2"])
        .output()
        .unwrap();
    assert!(v3.status.success());
    let out = listener.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    // The same lines, headers included (but the times and ports), as snmptrapd's; the v3
    // trap after them, decrypted.
    let ours = normalized(&printed);
    let theirs = logged[..3].join("\n");
    assert!(ours.starts_with(&theirs), "{ours}\n---\n{theirs}");
    let v3 = &ours[theirs.len()..];
    assert!(
        v3.contains("localhost [UDP: [127.0.0.1]:P->[127.0.0.1]:P]:")
            || v3.contains("127.0.0.1 [UDP: [127.0.0.1]:P->[127.0.0.1]:P]:"),
        "{v3}"
    );
    assert!(
        v3.contains("IF-MIB::linkUp") && v3.contains("IF-MIB::ifIndex.2 = INTEGER: 2"),
        "{printed}"
    );
    let counters = String::from_utf8_lossy(&out.stderr);
    assert!(
        counters.contains("5 datagrams: 4 notifications, 1 dropped (1 bad community)"),
        "{counters}"
    );
}

/// `snmpc listen -e ENGINE` is the authoritative engine of the v3 informs sent to it: net-snmp's
/// snmpinform and `snmpc inform` discover it and have their informs acknowledged (exit 0).
fn listen_acknowledges_v3_informs(snmpinform: &Path) {
    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    let user = [
        "-u",
        "informuser",
        "-a",
        "SHA",
        "-A",
        "informauthpass",
        "-x",
        "AES",
        "-X",
        "informprivpass",
    ];
    let listener = run::mib_environment(&mut Command::new(env!("CARGO_BIN_EXE_snmpc")))
        .env("SNMP_PERSISTENT_DIR", run::persistent_dir())
        .args(["listen", "-e", "0x80001f8804736e6d7063"])
        .args(user)
        .args(["--count", "2", "--for", "20", &address])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snmpc listen starts");
    run::wait_until_bound(&address);
    let out = Command::new(snmpinform)
        .env("SNMP_PERSISTENT_DIR", own_state())
        .args(["-v", "3", "-l", "authPriv", "-t", "2", "-r", "1"])
        .args(user)
        .args([&address, "7", "1.3.6.1.6.3.1.1.5.4"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "snmpinform: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut ours = vec!["inform", "-v", "3", "-l", "authPriv", "-t", "2", "-r", "1"];
    ours.extend(user);
    ours.extend([address.as_str(), "8", "1.3.6.1.6.3.1.1.5.3"]);
    let (_, err, code) = snmpc(&ours);
    assert_eq!(code, 0, "{err}");
    let out = listener.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        printed.matches("[UDP: [127.0.0.1]:").count(),
        2,
        "{printed}"
    );
    assert!(
        printed.contains("IF-MIB::linkUp") && printed.contains("IF-MIB::linkDown"),
        "{printed}"
    );
    let counters = String::from_utf8_lossy(&out.stderr);
    assert!(
        counters.contains("2 notifications, 2 discovery requests answered, 0 dropped"),
        "{counters}"
    );
}

/// An snmptrapd.conf in `dir` with users of the sender engine `sender` at three levels and
/// protocols, an inform user of any engine, and a directive `snmpc listen` leaves aside.
fn users_conf(dir: &Path, sender: &str) -> std::path::PathBuf {
    let conf = dir.join("snmptrapd.conf");
    std::fs::write(
        &conf,
        format!(
            "authCommunity log public\n\
             createUser -e {sender} nauser\n\
             createUser -e {sender} shaaes SHA shaaespass AES shaaespriv\n\
             createUser -e {sender} sha256user SHA-256 sha256pass AES-256 sha256priv\n\
             createUser informuser SHA \"informauthpass\" AES \"informprivpass\"\n\
             forward default 192.0.2.1\n"
        ),
    )
    .unwrap();
    conf
}

/// `snmpc listen` with snmptrapd's command line (`-f -Lo -n -C -c CONF`) on `address` as an
/// engine of its own, for 4 notifications (30 s at most).
fn listen_with_conf(conf: &Path, address: &str) -> Child {
    run::mib_environment(&mut Command::new(env!("CARGO_BIN_EXE_snmpc")))
        .env("SNMP_PERSISTENT_DIR", run::persistent_dir())
        .args(["listen", "-f", "-Lo", "-n", "-C", "-c"])
        .arg(conf)
        .args([
            "-e",
            "0x80001f8804736e6d7064",
            "--count",
            "4",
            "--for",
            "30",
        ])
        .arg(address)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snmpc listen starts")
}

/// `snmpc listen --config` takes its users from an snmptrapd.conf: net-snmp's snmptrap at
/// noAuthNoPriv, SHA-1/AES-128 and SHA-256/AES-256 from the sender's engine, snmpinform to
/// the listener's own engine (acknowledged); a wrong password, an unknown user, an inform
/// outside the time window and garbage are counted and dropped, and the listener goes on.
#[test]
fn listen_takes_the_users_of_an_snmptrapd_conf() {
    let tools = ["snmptrap", "snmpinform"].map(support::tool);
    let [Some(snmptrap), Some(snmpinform)] = tools else {
        support::require_or_skip("snmptrap not found (apt-get install -y snmp)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sender = "0x8000000001020304";
    let address = format!("127.0.0.1:{}", free_port());
    let listener = listen_with_conf(&users_conf(dir.path(), sender), &address);
    run::wait_until_bound(&address);
    let send = |tool: &Path, args: &[&str]| {
        Command::new(tool)
            .env("SNMP_PERSISTENT_DIR", own_state())
            .args(["-t", "1", "-r", "0"])
            .args(args)
            .output()
            .unwrap()
    };
    let trap = |user: &[&str], uptime: &str| {
        let mut args = vec!["-v", "3", "-e", sender];
        args.extend(user);
        args.extend([address.as_str(), uptime, "1.3.6.1.6.3.1.1.5.3"]);
        send(&snmptrap, &args)
    };
    // Dropped: a wrong password, an unknown user, an inform outside the time window, garbage.
    let wrong = [
        "-u",
        "shaaes",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "not-the-pass",
    ];
    assert!(trap(
        &[&wrong[..], &["-x", "AES", "-X", "shaaespriv"]].concat(),
        "1"
    )
    .status
    .success());
    assert!(trap(&["-u", "nobody", "-l", "noAuthNoPriv"], "2")
        .status
        .success());
    let informer = [
        "-u",
        "informuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "informauthpass",
        "-x",
        "AES",
        "-X",
        "informprivpass",
    ];
    let mut stale = vec!["-v", "3", "-e", "0x80001f8804736e6d7064", "-Z", "1000000,5"];
    stale.extend(informer);
    stale.extend([address.as_str(), "3", "1.3.6.1.6.3.1.1.5.4"]);
    assert!(
        !send(&snmpinform, &stale).status.success(),
        "a stale inform is not answered"
    );
    let garbage = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    garbage.send_to(b"\x30\x03\x02\x01", &address).unwrap();
    // Taken: three levels and protocols of traps, and an acknowledged inform.
    assert!(trap(&["-u", "nauser", "-l", "noAuthNoPriv"], "11")
        .status
        .success());
    let shaaes = [
        "-u",
        "shaaes",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "shaaespass",
    ];
    assert!(trap(
        &[&shaaes[..], &["-x", "AES", "-X", "shaaespriv"]].concat(),
        "12"
    )
    .status
    .success());
    let sha256 = [
        "-u",
        "sha256user",
        "-l",
        "authPriv",
        "-a",
        "SHA-256",
        "-A",
        "sha256pass",
    ];
    assert!(trap(
        &[&sha256[..], &["-x", "AES-256", "-X", "sha256priv"]].concat(),
        "13"
    )
    .status
    .success());
    let mut inform = vec!["-v", "3"];
    inform.extend(informer);
    inform.extend([address.as_str(), "14", "1.3.6.1.6.3.1.1.5.4"]);
    let out = send(&snmpinform, &inform);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = listener.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let counters = String::from_utf8_lossy(&out.stderr);
    // Under -n, each header names the sender by its transport (as snmptrapd 5.9 does); each
    // notification is known by its uptime.
    assert_eq!(
        normalized(&printed)
            .matches("UDP: [127.0.0.1]:P->[127.0.0.1]:P [UDP: [127.0.0.1]:P->[127.0.0.1]:P]:")
            .count(),
        4,
        "{printed}"
    );
    for (who, uptime) in [
        ("trap of nauser", "(11) 0:00:00.11"),
        ("trap of shaaes", "(12) 0:00:00.12"),
        ("trap of sha256user", "(13) 0:00:00.13"),
        ("inform of informuser", "(14) 0:00:00.14"),
    ] {
        assert!(printed.contains(uptime), "{who}: {printed}");
    }
    assert!(
        counters.contains("`forward` is not supported here"),
        "{counters}"
    );
    for dropped in [
        "1 malformed",
        "1 not in time window",
        "1 unknown user",
        "1 wrong digest",
    ] {
        assert!(counters.contains(dropped), "{dropped}: {counters}");
    }
    assert!(counters.contains("4 notifications"), "{counters}");
}

/// As snmptrapd's `-Lf FILE`: notifications appended to the file, nothing on stdout.
#[test]
fn listen_logs_to_a_file_under_lf() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("traps.log");
    std::fs::write(&log, "before\n").unwrap();
    let address = format!("127.0.0.1:{}", free_port());
    let listener = run::mib_environment(&mut Command::new(env!("CARGO_BIN_EXE_snmpc")))
        .args(["listen", "-n", "-c", "public", "-Lf"])
        .arg(&log)
        .args(["--count", "1", "--for", "20", &address])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snmpc listen starts");
    run::wait_until_bound(&address);
    send_link_down(&address);
    let out = listener.wait_with_output().unwrap();
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.starts_with("before\n20"), "{logged}");
    assert!(
        normalized(&logged)
            .contains("UDP: [127.0.0.1]:P->[127.0.0.1]:P [UDP: [127.0.0.1]:P->[127.0.0.1]:P]:\n"),
        "{logged}"
    );
    assert!(logged.contains("IF-MIB::linkDown"), "{logged}");
}

/// snmptrapd's command line: configuration lines as `--TOKEN=VALUE` (`--authCommunity="log
/// public"` takes public's traps and no other's; `--disableAuthorization=yes` everyone's)
/// and `-p FILE` (the process ID written there).
#[test]
fn listen_takes_snmptrapds_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("listen.pid");
    for (directive, accepted) in [
        ("--authCommunity=log public", &["public"][..]),
        ("--disableAuthorization=yes", &["public", "other"]),
        // A configuration line that authorizes no community: none taken, and said.
        ("--createUser=nobody", &[]),
    ] {
        let address = format!("127.0.0.1:{}", free_port());
        // The last listener's, gone: the one read below is this listener's.
        let _ = std::fs::remove_file(&pid_file);
        let listener = run::mib_environment(&mut Command::new(env!("CARGO_BIN_EXE_snmpc")))
            .args(["listen", "-f", "-Lo", "-n", directive, "-p"])
            .arg(&pid_file)
            .args(["--for", "3", &address])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("snmpc listen starts");
        run::wait_until_bound(&address);
        // Written once the socket is bound: a moment later at most.
        let until = Instant::now() + Duration::from_secs(5);
        let mut pid = String::new();
        while pid.trim().is_empty() && Instant::now() < until {
            pid = std::fs::read_to_string(&pid_file).unwrap_or_default();
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(pid.trim(), listener.id().to_string());
        for (community, trap) in [
            ("public", "1.3.6.1.6.3.1.1.5.3"),
            ("other", "1.3.6.1.6.3.1.1.5.4"),
        ] {
            let (_, err, code) = snmpc(&["trap", "-v", "2c", "-c", community, &address, "7", trap]);
            assert_eq!(code, 0, "{err}");
        }
        let out = listener.wait_with_output().unwrap();
        let logged = String::from_utf8_lossy(&out.stdout);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            said.contains("no access control information configured"),
            accepted.is_empty(),
            "{directive}: {said}"
        );
        assert_eq!(
            logged.contains("linkDown"),
            accepted.contains(&"public"),
            "{logged}"
        );
        assert_eq!(
            logged.contains("linkUp"),
            accepted.contains(&"other"),
            "{directive}: {logged}"
        );
    }
}

/// A v2c linkDown trap (community public, uptime 7) sent to `address` by `snmpc trap`.
fn send_link_down(address: &str) {
    let args = [
        "trap",
        "-v",
        "2c",
        "-c",
        "public",
        address,
        "7",
        "1.3.6.1.6.3.1.1.5.3",
    ];
    let (_, err, code) = snmpc(&args);
    assert_eq!(code, 0, "{err}");
}

/// The log at `log`, normalized, without what snmptrapd says of itself (its banner, a
/// directory it made, its farewell).
fn log_of(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            !l.starts_with("NET-SNMP version")
                && !l.starts_with("Created directory")
                && !l.contains("Stopping snmptrapd")
        })
        .collect();
    normalized(&kept.join("\n"))
}

/// net-snmp's snmptrapd and snmptrap, and a directory for their files; ours run as `snmpc
/// listen`, or through a link named `snmptrapd` with snmptrapd's own arguments.
struct Trapd {
    snmptrapd: std::path::PathBuf,
    snmptrap: std::path::PathBuf,
    dir: tempfile::TempDir,
    linked: Option<std::path::PathBuf>,
}

impl Trapd {
    fn new() -> Option<Trapd> {
        let tools = ["snmptrapd", "snmptrap"].map(support::tool);
        let [Some(snmptrapd), Some(snmptrap)] = tools else {
            support::require_or_skip(
                "snmptrapd or snmptrap not found (apt-get install -y snmptrapd snmp)",
            );
            return None;
        };
        Some(Trapd {
            snmptrapd,
            snmptrap,
            dir: tempfile::tempdir().unwrap(),
            linked: None,
        })
    }

    /// [`Trapd::new`], ours run through a link named `snmptrapd`.
    fn linked() -> Option<Trapd> {
        let mut trapd = Trapd::new()?;
        let link = trapd.dir.path().join("snmptrapd");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_snmpc"), &link).unwrap();
        trapd.linked = Some(link);
        Some(trapd)
    }

    /// snmptrapd and `snmpc listen`, each with `args` (and `-On -f -C -c CONF -Lf LOG`), on
    /// `family` (`udp`, `udp6`) of the loopback, sent `traps` (snmptrap's arguments, `@` where
    /// the address goes) by snmptrap: their logs, normalized.
    fn logs(
        &self,
        case: &str,
        family: &str,
        args: &[&str],
        conf: &str,
        traps: &[&[&str]],
    ) -> (String, String) {
        let dir = self
            .dir
            .path()
            .join(case.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
        std::fs::create_dir_all(&dir).unwrap();
        let conf_file = dir.join("snmptrapd.conf");
        std::fs::write(&conf_file, conf).unwrap();
        let host = if family == "udp" {
            "127.0.0.1"
        } else {
            "[::1]"
        };
        let at = |port: u16| format!("{family}:{host}:{port}");
        let (theirs_at, ours_at) = (at(free_port()), at(free_port()));
        let (theirs_log, ours_log) = (dir.join("theirs.log"), dir.join("ours.log"));
        let mut trapd = Command::new(&self.snmptrapd)
            .args(args)
            .args(["-On", "-f", "-C", "-c"])
            .arg(&conf_file)
            .arg("-Lf")
            .arg(&theirs_log)
            .arg("-p")
            .arg(dir.join("snmptrapd.pid"))
            .arg(&theirs_at)
            .env("SNMP_PERSISTENT_DIR", &dir)
            .env("MIBS", "")
            .env("HANDLED", dir.join("theirs-handled.txt"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("snmptrapd starts");
        let mut ours = match &self.linked {
            Some(link) => Command::new(link),
            None => {
                let mut listen = Command::new(env!("CARGO_BIN_EXE_snmpc"));
                listen.arg("listen");
                listen
            }
        };
        let listener = run::mib_environment(&mut ours)
            .args(args)
            .args(["-On", "-f", "-C", "-c"])
            .arg(&conf_file)
            .arg("-Lf")
            .arg(&ours_log)
            .arg("-p")
            .arg(dir.join("ours.pid"))
            .args(["--count", &traps.len().to_string(), "--for", "20", &ours_at])
            .env("SNMP_PERSISTENT_DIR", dir.join("ours"))
            .env("HANDLED", dir.join("ours-handled.txt"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("snmpc listen starts");
        // Both listening: snmptrapd once it has written its banner, ours once it has written
        // its process ID (after binding), within 10 s on a loaded machine.
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until
            && !(std::fs::read_to_string(&theirs_log).is_ok_and(|l| l.contains("NET-SNMP"))
                && dir.join("ours.pid").exists())
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        for to in [&theirs_at, &ours_at] {
            for trap in traps {
                let args = trap.iter().map(|a| if *a == "@" { to.as_str() } else { a });
                let out = Command::new(&self.snmptrap)
                    .env("MIBS", "")
                    .env("SNMP_PERSISTENT_DIR", dir.join("sender"))
                    .args(args)
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{case}: snmptrap {trap:?}: {err}");
            }
        }
        let out = listener.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{case}: {said}");
        let ours = log_of(&ours_log);
        // snmptrapd's log, once it is as long as ours (5 s at most).
        let until = Instant::now() + Duration::from_secs(5);
        let mut theirs = log_of(&theirs_log);
        while theirs.lines().count() < ours.lines().count() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
            theirs = log_of(&theirs_log);
        }
        let _ = trapd.kill();
        let _ = trapd.wait();
        // What `traphandle` commands were given (a handler appends to $HANDLED), after the log.
        let handled = |who: &str| {
            let text = std::fs::read_to_string(dir.join(format!("{who}-handled.txt")));
            text.map(|t| format!("\n--handled--\n{}", normalized(&t)))
                .unwrap_or_default()
        };
        (ours + &handled("ours"), theirs + &handled("theirs"))
    }
}

/// The traps of [`listen_logs_what_snmptrapd_logs_line_for_line`] (`@` for the address): a
/// v2c trap (with net-snmp's Opaque Float), an SNMPv1 enterprise-specific trap with two
/// bindings, a generic one without.
const TRAPS: [&[&str]; 3] = [
    &[
        "-v",
        "2c",
        "-c",
        "public",
        "@",
        "0",
        "1.3.6.1.6.3.1.1.5.1",
        "1.3.6.1.4.1.9.1.1",
        "F",
        "1.5",
    ],
    &[
        "-v",
        "1",
        "-c",
        "public",
        "@",
        "1.3.6.1.4.1.9",
        "127.0.0.1",
        "6",
        "17",
        "12345",
        "1.3.6.1.4.1.9.1.1",
        "s",
        "hello",
        "1.3.6.1.4.1.9.1.2",
        "i",
        "5",
    ],
    &[
        "-v",
        "1",
        "-c",
        "public",
        "@",
        "1.3.6.1.4.1.9",
        "127.0.0.1",
        "2",
        "0",
        "12345",
    ],
];

/// `snmpc listen -f -Lf FILE` in place of `snmptrapd -f -Lf FILE`, with and without `-n`, over
/// IPv4 and (where the host has it) IPv6: the same log, line for line, but the times and
/// ports: each header (the sender by name, `<UNKNOWN>` or, under `-n`, its transport; the
/// address the notification was sent to; an SNMPv1 trap's agent-addr and community) and each
/// binding (net-snmp's Opaque Float among them).
#[test]
fn listen_logs_what_snmptrapd_logs_line_for_line() {
    let Some(trapd) = Trapd::new() else {
        return;
    };
    let ipv6 = std::net::UdpSocket::bind("[::1]:0").is_ok();
    if !ipv6 {
        eprintln!("note: no IPv6 loopback here: IPv4 only");
    }
    let families: &[&str] = if ipv6 { &["udp", "udp6"] } else { &["udp"] };
    for family in families {
        for n in [&[][..], &["-n"]] {
            let case = format!("{family} {n:?}");
            let (ours, theirs) = trapd.logs(&case, family, n, "disableAuthorization yes\n", &TRAPS);
            let headers = ours
                .lines()
                .filter(|l| !l.starts_with('\t') && l.contains("UDP"));
            assert_eq!(headers.count(), 3, "{case}: {ours}");
            assert_eq!(ours, theirs, "{case}");
        }
    }
}

/// A configuration that authorizes no community (no `authCommunity`, no
/// `disableAuthorization yes`; a user only): snmptrapd drops every SNMPv1 and SNMPv2c
/// notification ("No access configuration - dropping trap."), and so does `snmpc listen`.
#[test]
fn listen_takes_no_community_when_its_configuration_authorizes_none() {
    let Some(trapd) = Trapd::new() else {
        return;
    };
    let (ours, theirs) = trapd.logs("no access", "udp", &[], "createUser nobody\n", &TRAPS);
    for (who, log) in [("ours", &ours), ("snmptrapd", &theirs)] {
        let headers = log.lines().filter(|l| l.contains("UDP:")).count();
        assert_eq!(headers, 0, "{who}: {log}");
    }
    assert!(theirs.contains("No access configuration"), "{theirs}");
}

/// snmpc through a link named `snmptrapd`, given snmptrapd's own command line (`-a`, `-t`,
/// `-X`, `-A` among it; `-a` drops SNMPv1 authenticationFailure traps, generic trap 4, and,
/// as snmptrapd, not SNMPv2's snmpTrapOID 1.3.6.1.6.3.1.1.5.5): the same log as snmptrapd's,
/// line for line.
#[test]
fn snmptrapd_through_a_link_logs_what_snmptrapd_logs() {
    let Some(trapd) = Trapd::linked() else {
        return;
    };
    let auth_failures: [&[&str]; 2] = [
        &[
            "-v",
            "1",
            "-c",
            "public",
            "@",
            "1.3.6.1.4.1.9",
            "127.0.0.1",
            "4",
            "0",
            "77",
        ],
        &["-v", "2c", "-c", "public", "@", "0", "1.3.6.1.6.3.1.1.5.5"],
    ];
    let traps: Vec<&[&str]> = TRAPS.iter().copied().chain(auth_failures).collect();
    for args in [&["-t", "-X", "-A"][..], &["-a", "-t", "-X", "-A", "-n"]] {
        let case = format!("link {args:?}");
        let (ours, theirs) = trapd.logs(&case, "udp", args, "disableAuthorization yes\n", &traps);
        let headers = ours.lines().filter(|l| l.contains("UDP:")).count();
        let ignored = args.contains(&"-a");
        assert_eq!(headers, if ignored { 4 } else { 5 }, "{case}: {ours}");
        assert_eq!(ours, theirs, "{case}");
    }
}

/// snmpc through a link named `snmptrapd` reads the snmptrapd.conf of net-snmp's
/// configuration path (`SNMPCONFPATH`) unless `-C` is given, and, as snmptrapd, takes no
/// SNMPv1/SNMPv2c notification without a configuration that authorizes one.
#[test]
fn snmptrapd_through_a_link_reads_its_default_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("snmptrapd");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_snmpc"), &link).unwrap();
    let (configured, empty) = (dir.path().join("conf"), dir.path().join("none"));
    std::fs::create_dir_all(&configured).unwrap();
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(
        configured.join("snmptrapd.conf"),
        "authCommunity log public\n",
    )
    .unwrap();
    for (confpath, extra, taken) in [
        (&configured, &[][..], true),
        (&configured, &["-C"][..], false),
        (&empty, &[][..], false),
    ] {
        let address = format!("127.0.0.1:{}", free_port());
        let listener = run::mib_environment(&mut Command::new(&link))
            .args(["-f", "-Lo"])
            .args(extra)
            .args(["--for", "3", &address])
            .env("SNMPCONFPATH", confpath)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("snmptrapd (snmpc) starts");
        run::wait_until_bound(&address);
        send_link_down(&address);
        let out = listener.wait_with_output().unwrap();
        let (logged, said) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        let case = format!("{} {extra:?}", confpath.display());
        assert_eq!(
            logged.contains("linkDown"),
            taken,
            "{case}: {logged} {said}"
        );
        assert_eq!(said.contains("are dropped"), !taken, "{case}: {said}");
    }
}

/// `-F FORMAT` and snmptrapd.conf's `format1`/`format2`: every `%` conversion (the SNMPv1
/// fields as snmptrapd leaves them for SNMPv2 notifications, `%P` for v1, v2c and a v3 trap
/// with its context), net-snmp's widths and precisions and `%V`, printed as snmptrapd prints
/// them (the times of day and `%t` left out).
#[test]
fn listen_formats_as_snmptrapd_formats() {
    let Some(trapd) = Trapd::new() else {
        return;
    };
    let conf = "disableAuthorization yes\n\
        createUser -e 0x8000000001020304 fmtuser SHA fmtauthpass AES fmtprivpass\n";
    let v3_trap = [
        "-v",
        "3",
        "-e",
        "0x8000000001020304",
        "-u",
        "fmtuser",
        "-l",
        "authPriv",
        "-a",
        "SHA",
        "-A",
        "fmtauthpass",
        "-x",
        "AES",
        "-X",
        "fmtprivpass",
        "-n",
        "ctx",
        "@",
        "777",
        "1.3.6.1.6.3.1.1.5.3",
    ];
    let mut traps: Vec<&[&str]> = TRAPS.to_vec();
    traps.push(&v3_trap);
    let every = r"a=%a|A=%A|b=%b|B=%B|N=%N|w=%w|W=%W|q=%q|P=%P|T=%T|#T=%#T|v=%v\n";
    let widths = r"[%-12B][%12B][%.3B][%05q][%.3w][%5w][%-5w|][%V,%v][%.2T][%#.2T][%3.1a]\n";
    let escapes = r"%.4y-%.2m-%.2l|%V;% A=%a|%v|%%|\tx\\y\n";
    for format in [every, widths, escapes] {
        let (ours, theirs) = trapd.logs(format, "udp", &["-F", format], conf, &traps);
        assert_eq!(ours.lines().count(), 4, "-F {format}: {ours}");
        assert_eq!(ours, theirs, "-F {format}");
    }
    let formats = format!("{conf}format2 v2: %B %P %v\\n\nformat1 \"v1: %A %N %w\"\\n\n");
    let (ours, theirs) = trapd.logs("conf", "udp", &[], &formats, &traps);
    assert!(
        ours.contains("v2: localhost TRAP2, SNMP v3, user fmtuser, context ctx"),
        "{ours}"
    );
    assert_eq!(ours, theirs, "format1/format2");
}

/// snmptrapd.conf's `traphandle`: the command for a notification's OID, else the `default`
/// ones, run by the shell with the notification on its standard input (the sender, the
/// transport, then `OID VALUE` lines, an SNMPv1 trap in its SNMPv2 form): given what
/// snmptrapd gives it, with the same arguments; and not run for a community taken for `log`
/// only.
#[test]
fn traphandle_commands_get_what_snmptrapd_gives_them() {
    let Some(trapd) = Trapd::new() else {
        return;
    };
    let handler = trapd.dir.path().join("handler.sh");
    std::fs::write(
        &handler,
        "#!/bin/sh\necho \"args: $*\" >> \"$HANDLED\"\ncat >> \"$HANDLED\"\n",
    )
    .unwrap();
    let h = handler.display();
    let conf = format!(
        "disableAuthorization yes\n\
         traphandle .1.3.6.1.6.3.1.1.5.1 /bin/sh {h} coldstart \"two words\"\n\
         traphandle default /bin/sh {h} default\n"
    );
    let (ours, theirs) = trapd.logs("traphandle", "udp", &[], &conf, &TRAPS);
    for text in [&ours, &theirs] {
        assert!(text.contains("args: coldstart two words"), "{text}");
        assert_eq!(text.matches("args: default").count(), 2, "{text}");
    }
    assert_eq!(ours, theirs);
    // A community taken for `log` only: logged, no command run.
    let log_only = format!("authCommunity log public\ntraphandle default /bin/sh {h} default\n");
    let (ours, theirs) = trapd.logs("log only", "udp", &[], &log_only, &TRAPS);
    assert!(!ours.contains("--handled--"), "{ours}");
    assert_eq!(ours, theirs);
}
