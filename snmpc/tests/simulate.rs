//! `snmpc simulate` serving a recording of our own snmpd on three ports: snmpwalk (v2c) and
//! snmpbulkwalk (v3 authPriv) print from it what was recorded, and each port is an agent with
//! its own engine ID.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, Session, UsmUser};
use snmp_test_support::agent as support;

#[path = "support/run.rs"]
mod run;
use run::Simulator;

/// Three consecutive free UDP ports on 127.0.0.1.
fn free_ports() -> u16 {
    (0..100)
        .map(|_| {
            let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
            s.local_addr().unwrap().port()
        })
        .find(|&p| {
            p < 65_000 && (1..3).all(|k| std::net::UdpSocket::bind(("127.0.0.1", p + k)).is_ok())
        })
        .expect("free ports")
}

#[test]
fn simulated_agents_serve_a_recording() {
    let tools = ["snmpd", "snmpwalk", "snmpbulkwalk"].map(support::tool);
    let [Some(snmpd), Some(snmpwalk), Some(bulkwalk)] = tools else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, "");
    let walk = |tool: &std::path::Path, port: u16, args: &[&str]| {
        support::walk_numeric(tool, port, args, ".1.3.6.1.2.1.1")
    };
    let recorded = walk(&snmpwalk, agent.port, &["-v2c", "-c", "public"]);
    drop(agent);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, &recorded).unwrap();

    let port = free_ports();
    let v3 = [
        "-u",
        "simuser",
        "-a",
        "SHA",
        "-A",
        "simauthpass",
        "-x",
        "AES",
        "-X",
        "simprivpass",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .arg("simulate")
        .arg("--data")
        .arg(&data)
        .args(v3)
        .args(["--threads", "1", "--for", "60"])
        .arg(format!("127.0.0.1:{port}-{}", port + 2))
        // And on other addresses of 127.0.0.0/8.
        .arg(format!("127.0.1.1-127.0.1.2:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmpc simulate starts");
    let _simulator = Simulator(child);
    let until = Instant::now() + Duration::from_secs(10);
    while std::net::UdpSocket::bind(("127.0.0.1", port + 2)).is_ok() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }

    assert_eq!(
        support::without_walk_end(&walk(&snmpwalk, port, &["-v2c", "-c", "public"])),
        recorded
    );
    let mut bulk_v3 = vec!["-v3", "-l", "authPriv"];
    bulk_v3.extend(v3);
    assert_eq!(
        support::without_walk_end(&walk(&bulkwalk, port + 1, &bulk_v3)),
        recorded
    );

    // An engine of its own per agent.
    let user = UsmUser::new(
        "simuser",
        Some((AuthProtocol::Sha1, b"simauthpass")),
        Some((PrivProtocol::Aes128, b"simprivpass")),
    )
    .unwrap();
    let engines: Vec<Vec<u8>> = (port..port + 3)
        .map(|p| {
            let addr = ([127, 0, 0, 1], p).into();
            let mut s =
                Session::new(addr, Credentials::Usm(user.clone()), Options::default()).unwrap();
            s.get(&["1.3.6.1.2.1.1.1.0".parse().unwrap()]).unwrap();
            s.engine().unwrap().id.clone()
        })
        .collect();
    assert!(
        engines[0] != engines[1] && engines[1] != engines[2],
        "{engines:?}"
    );
    assert!(
        engines[2].ends_with(&(port + 2).to_be_bytes()),
        "{engines:?}"
    );
}

/// A recording with what snmpstatus and snmpdf read: the system group, two interfaces (one
/// down, a counter at 2^32 - 1), IP's packet counters, four storage areas (one empty, one of
/// 4096-octet units, one past 2^32 kB) and two UCD-SNMP-MIB disks.
const STATUS_WALK: &str = "\
.1.3.6.1.2.1.1.1.0 = STRING: \"Simulated box 1.0\"
.1.3.6.1.2.1.1.3.0 = Timeticks: (98765432) 11 days, 10:20:54.32
.1.3.6.1.2.1.2.2.1.1.1 = INTEGER: 1
.1.3.6.1.2.1.2.2.1.1.2 = INTEGER: 2
.1.3.6.1.2.1.2.2.1.8.1 = INTEGER: up(1)
.1.3.6.1.2.1.2.2.1.8.2 = INTEGER: down(2)
.1.3.6.1.2.1.2.2.1.11.1 = Counter32: 1000
.1.3.6.1.2.1.2.2.1.11.2 = Counter32: 4294967295
.1.3.6.1.2.1.2.2.1.12.1 = Counter32: 7
.1.3.6.1.2.1.2.2.1.12.2 = Counter32: 3
.1.3.6.1.2.1.2.2.1.17.1 = Counter32: 2000
.1.3.6.1.2.1.2.2.1.17.2 = Counter32: 5
.1.3.6.1.2.1.2.2.1.18.1 = Counter32: 11
.1.3.6.1.2.1.2.2.1.18.2 = Counter32: 0
.1.3.6.1.2.1.4.3.0 = Counter32: 123456
.1.3.6.1.2.1.4.10.0 = Counter32: 654321
.1.3.6.1.2.1.25.2.3.1.1.1 = INTEGER: 1
.1.3.6.1.2.1.25.2.3.1.1.10 = INTEGER: 10
.1.3.6.1.2.1.25.2.3.1.1.36 = INTEGER: 36
.1.3.6.1.2.1.25.2.3.1.1.40 = INTEGER: 40
.1.3.6.1.2.1.25.2.3.1.3.1 = STRING: Physical memory
.1.3.6.1.2.1.25.2.3.1.3.10 = STRING: Swap space
.1.3.6.1.2.1.25.2.3.1.3.36 = STRING: /
.1.3.6.1.2.1.25.2.3.1.3.40 = STRING: /a/mount/point/with/a/long/name
.1.3.6.1.2.1.25.2.3.1.4.1 = INTEGER: 1024 Bytes
.1.3.6.1.2.1.25.2.3.1.4.10 = INTEGER: 1024 Bytes
.1.3.6.1.2.1.25.2.3.1.4.36 = INTEGER: 4096 Bytes
.1.3.6.1.2.1.25.2.3.1.4.40 = INTEGER: 65536 Bytes
.1.3.6.1.2.1.25.2.3.1.5.1 = INTEGER: 24683664
.1.3.6.1.2.1.25.2.3.1.5.10 = INTEGER: 0
.1.3.6.1.2.1.25.2.3.1.5.36 = INTEGER: 66053021
.1.3.6.1.2.1.25.2.3.1.5.40 = INTEGER: 2000000000
.1.3.6.1.2.1.25.2.3.1.6.1 = INTEGER: 21738408
.1.3.6.1.2.1.25.2.3.1.6.10 = INTEGER: 0
.1.3.6.1.2.1.25.2.3.1.6.36 = INTEGER: 10389356
.1.3.6.1.2.1.25.2.3.1.6.40 = INTEGER: 1999999999
.1.3.6.1.4.1.2021.9.1.1.1 = INTEGER: 1
.1.3.6.1.4.1.2021.9.1.1.2 = INTEGER: 2
.1.3.6.1.4.1.2021.9.1.2.1 = STRING: /
.1.3.6.1.4.1.2021.9.1.2.2 = STRING: /var
.1.3.6.1.4.1.2021.9.1.6.1 = INTEGER: 264212084
.1.3.6.1.4.1.2021.9.1.6.2 = INTEGER: 1000
.1.3.6.1.4.1.2021.9.1.7.1 = INTEGER: 222654660
.1.3.6.1.4.1.2021.9.1.7.2 = INTEGER: 0
.1.3.6.1.4.1.2021.9.1.8.1 = INTEGER: 41557424
.1.3.6.1.4.1.2021.9.1.8.2 = INTEGER: 1000
";

/// `snmpc status` and `snmpc df` print what snmpstatus and snmpdf print (`-Ch`, `-CH`, and
/// `-Cu` where the corpus has UCD-SNMP-MIB for snmpdf), all asking the same simulated agent
/// (the local port snmpstatus names left out): snmpstatus's 32-bit sums, and the first row's
/// packets it adds again at the table's end, included.
#[test]
fn status_and_df_print_what_snmpstatus_and_snmpdf_print() {
    let tools = ["snmpstatus", "snmpdf"].map(support::tool);
    let [Some(snmpstatus), Some(snmpdf)] = tools else {
        support::require_or_skip("snmpstatus or snmpdf not found (apt-get install -y snmp)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, STATUS_WALK).unwrap();
    let port = free_ports();
    let child = Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .arg("simulate")
        .arg("--data")
        .arg(&data)
        .args(["--threads", "1", "--for", "60"])
        .arg(format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("snmpc simulate starts");
    let _simulator = Simulator(child);
    let until = Instant::now() + Duration::from_secs(10);
    while std::net::UdpSocket::bind(("127.0.0.1", port)).is_ok() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut mibs = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mibs")
        .display()
        .to_string();
    let ucd = snmp_test_support::mib_corpus();
    if let Some(corpus) = &ucd {
        let dir = |d: &str| corpus.join(d).display().to_string();
        mibs = format!("{}:{}", dir("ietf"), dir("vendor/net-snmp"));
    } else {
        eprintln!("note: no MIB corpus with UCD-SNMP-MIB: -Cu not compared");
    }
    let target = format!("127.0.0.1:{port}");
    let local_port = |text: &str| -> String {
        match text.split_once("->[0.0.0.0]:") {
            Some((head, tail)) => {
                let rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
                format!("{head}->[0.0.0.0]:P{rest}")
            }
            None => text.to_string(),
        }
    };
    for (tool, ours, c) in [
        (&snmpstatus, "status", None),
        (&snmpdf, "df", None),
        (&snmpdf, "df", Some("-Ch")),
        (&snmpdf, "df", Some("-CH")),
        (&snmpdf, "df", Some("-Cu")),
    ] {
        if c == Some("-Cu") && ucd.is_none() {
            continue;
        }
        let mut args = vec!["-v2c", "-c", "public", "-t", "2", "-r", "1"];
        args.extend(c);
        args.push(&target);
        let out = Command::new(tool)
            .args(["-M", &mibs, "-m", "ALL"])
            .args(&args)
            .env("SNMP_PERSISTENT_DIR", dir.path())
            .output()
            .unwrap();
        let theirs = (
            local_port(&String::from_utf8_lossy(&out.stdout)),
            // (Less what net-snmp says of the state directory it makes.)
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter(|l| !l.starts_with("Created directory"))
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
            out.status.code().unwrap_or(-1),
        );
        let mut with_command = vec![ours];
        with_command.extend(&args);
        let (out, err, code) = run::snmpc(&with_command);
        assert_eq!((local_port(&out), err, code), theirs, "{ours} {c:?}");
    }
    // --json: the same figures, for a program.
    let json = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut all = vec![args[0], "--json", "-v2c", "-c", "public", "-M", &mibs];
        all.extend(&args[1..]);
        all.push(&target);
        let (out, err, code) = run::snmpc(&all);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let status = json(&["status"]);
    assert_eq!(status.len(), 1);
    assert!(status[0]["interfaces"].as_u64().unwrap() > 0, "{status:?}");
    assert!(
        status[0]["uptime"].as_str().unwrap().contains(':'),
        "{status:?}"
    );
    let areas = json(&["df"]);
    let root = areas
        .iter()
        .find(|a| a["description"] == "/")
        .expect("/ in df --json");
    // 66,053,021 units of 4,096 octets; 10,389,356 used (in kB: units times 4).
    assert_eq!(root["size_kb"], 264_212_084u64);
    assert_eq!(root["used_kb"], 41_557_424u64);
    assert_eq!(root["used_percent"], 15);
    let rows: Vec<serde_json::Value> = {
        let mut all = vec![
            "table", "--json", "-v2c", "-c", "public", "-M", &mibs, &target,
        ];
        all.push("HOST-RESOURCES-MIB::hrStorageTable");
        let (out, err, code) = run::snmpc(&all);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert_eq!(rows[2]["index"], "36");
    assert_eq!(rows[2]["hrStorageDescr"], "/");
}
