//! The benchmark runs end to end (quick mode) and its JSON has the documented shape. Checks
//! structure and agreement, never speed.

use std::process::Command;

#[test]
fn quick_run_writes_json_markdown_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let json_path = dir.path().join("bench.json");
    let md_path = dir.path().join("bench.md");
    let out = Command::new(env!("CARGO_BIN_EXE_snmp-bench"))
        .args(["--quick", "--json"])
        .arg(&json_path)
        .arg("--markdown")
        .arg(&md_path)
        .output()
        .expect("snmp-bench runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Cost lines a + b·n"), "{stdout}");

    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let results = v["results"].as_array().unwrap();
    let has = |imp: &str, layer: &str, op: &str| {
        [1, 10, 50].iter().all(|n| {
            results.iter().any(|r| {
                r["impl"] == imp && r["layer"] == layer && r["op"] == op && r["bindings"] == *n
            })
        })
    };
    for layer in ["pdu", "msg"] {
        for op in ["decode", "decode-owned", "encode", "encode-arcs"] {
            assert!(
                has("snmp-codegen", layer, op),
                "snmp-codegen {layer} {op} missing"
            );
        }
        assert!(has("floor", layer, "decode"));
    }
    for r in results {
        assert!(
            r["ns_median"].as_f64().unwrap() > 0.0
                && r["ns_min"].as_f64().unwrap() <= r["ns_median"].as_f64().unwrap()
        );
    }
    let fits = v["fits"].as_array().unwrap();
    assert!(fits
        .iter()
        .any(|f| f["impl"] == "snmp-codegen" && f["layer"] == "msg" && f["op"] == "decode"));
    // No implementation silently disagreed with the workload.
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(!notes.iter().any(|n| n.contains("disagrees")), "{notes:#?}");

    // rasn's values are owned and hold OIDs as arcs: its decode and encode are shown under
    // decode-owned and encode-arcs as well, with a note saying so.
    assert!(has("rasn-snmp", "msg", "decode-owned") && has("rasn-snmp", "msg", "encode-arcs"));
    assert!(notes
        .iter()
        .any(|n| n.starts_with("rasn-snmp: its decode is already decode-owned")));

    let require = std::env::var_os("SNMP_REQUIRE_TOOLS").is_some_and(|v| v == "1");
    // Instruction counts in quick mode too, wherever valgrind runs.
    let valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if valgrind || require {
        let counted = |imp: &str| {
            results
                .iter()
                .filter(|r| r["impl"] == imp)
                .all(|r| r["instructions"].as_f64().is_some_and(|i| i > 0.0))
        };
        assert!(
            counted("snmp-codegen") && counted("rasn-snmp"),
            "{notes:#?}"
        );
    }
    let netsnmp = has("netsnmp", "pdu", "decode") && has("netsnmp", "pdu", "encode");
    if require {
        assert!(
            netsnmp,
            "net-snmp missing from the table with SNMP_REQUIRE_TOOLS=1: {notes:#?}"
        );
    } else if !netsnmp {
        eprintln!("note: libnetsnmp not loadable here, the net-snmp column was skipped");
    }

    let md = std::fs::read_to_string(&md_path).unwrap();
    assert!(md.contains("| op | bindings | snmp-codegen"), "{md}");
    let svg = std::fs::read_to_string(md_path.with_extension("svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("snmp-codegen"));
}

#[test]
fn require_netsnmp_fails_cleanly_without_the_library() {
    let out = Command::new(env!("CARGO_BIN_EXE_snmp-bench"))
        .args(["--quick", "--require-netsnmp"])
        .env("SNMP_BENCH_NETSNMP_LIB", "/nonexistent/libnetsnmp.so")
        .output()
        .expect("snmp-bench runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("libnetsnmp not loadable"));
}

/// The JSON rows `name` that `snmp-bench --only NAME` with `args` writes, once it exits 0.
fn section(name: &str, args: &[&str]) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("section.json");
    let out = Command::new(env!("CARGO_BIN_EXE_snmp-bench"))
        .args(["--only", name])
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    v[name]
        .as_array()
        .unwrap_or_else(|| panic!("no {name} array: {v}"))
        .clone()
}

/// `--only poll` with a few agents: every row measured (ours, and net-snmp's asynchronous
/// API built against libnetsnmp), no target failed, the JSON written.
#[test]
fn poll_section_runs_small() {
    let rows = section("poll", &["--agents", "20", "--quick", "--no-gufo"]);
    let of = |client: &str| rows.iter().filter(|r| r["client"] == client).count();
    assert_eq!(of("snmp-client"), 4, "{rows:?}");
    if of("net-snmp") == 0 {
        snmp_test_support::agent::require_or_skip(
            "net-snmp's poller not built (needs cc and libsnmp-dev)",
        );
    } else {
        assert_eq!(of("net-snmp"), 4, "{rows:?}");
    }
    // The floor: the GETs as prebuilt datagrams, answers not read.
    assert_eq!(of("udp floor"), 1, "{rows:?}");
    for r in &rows {
        assert_eq!(r["failed"], 0, "{r}");
        assert_eq!(r["agents"], 20, "{r}");
        assert!(r["requests"].as_u64().unwrap() >= 40, "{r}");
        if r["client"] == "udp floor" {
            assert_eq!(
                (&r["op"], &r["requests"]),
                (&"get".into(), &40.into()),
                "{r}"
            );
            continue;
        }
        // Two counted rounds of 20 agents: ten bindings a GET, the 80 of the ifTable a walk.
        let per_agent = if r["op"] == "get" { 10 } else { 80 };
        assert_eq!(r["bindings"], 2 * 20 * per_agent, "{r}");
    }
}

/// `--only der` on a CRL of 2,000 entries: every implementation agreed with ours on what the
/// CRL holds (a disagreement is a note and leaves its rows out), both operations measured.
#[test]
fn der_section_runs_small() {
    if snmp_test_support::agent::tool("openssl").is_none() {
        snmp_test_support::agent::require_or_skip("openssl not found (apt-get install -y openssl)");
        return;
    }
    let rows = section(
        "der",
        &["--crl-entries", "2000", "--quick", "--no-instructions"],
    );
    let has = |imp: &str, op: &str| rows.iter().any(|r| r["impl"] == imp && r["op"] == op);
    for imp in [
        "snmp-codegen",
        "rasn",
        "pyca-asn1",
        "x509-cert",
        "x509-parser",
        "floor",
    ] {
        assert!(has(imp, "decode"), "{imp} decode: {rows:?}");
    }
    for imp in [
        "snmp-codegen",
        "snmp-codegen-view",
        "rasn",
        "pyca-asn1",
        "x509-cert",
    ] {
        assert!(has(imp, "encode"), "{imp} encode: {rows:?}");
    }
    for r in &rows {
        assert!(r["ms_min"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["peak_rss_kb"].as_u64().unwrap() > 0, "{r}");
    }
}

/// `--only notify` with a few notifications, against snmptrapd: every receiver measured.
#[test]
fn notify_section_runs_small() {
    if snmp_test_support::agent::tool("snmptrapd").is_none() {
        snmp_test_support::agent::require_or_skip(
            "snmptrapd not found (apt-get install -y snmptrapd)",
        );
        return;
    }
    let rows = section("notify", &["--notifications", "300"]);
    assert_eq!(rows.len(), 6, "{rows:?}");
    for r in &rows {
        assert_eq!(r["received"], 300, "{r}");
    }
}

/// `--only walk` over the system group, without gufo_snmp: ours (sync, async) and snmpwalk
/// measured for every version and request kind, ours making as many requests sync as async.
#[test]
fn walk_section_runs_small() {
    if snmp_test_support::agent::tool("snmpd").is_none() {
        snmp_test_support::agent::require_or_skip(
            "snmpd not found (apt-get install -y snmpd snmp)",
        );
        return;
    }
    let rows = section("walk", &["--walk-root", "1.3.6.1.2.1.1", "--no-gufo"]);
    // Ours sync and async and snmpwalk in 4 cases, and the floor under v2c's 2.
    assert_eq!(rows.len(), 14, "{rows:?}");
    for r in &rows {
        assert!(r["requests"].as_u64().unwrap() > 4, "{r}");
        assert!(
            ["snmp-client", "snmpwalk", "udp floor"].contains(&r["client"].as_str().unwrap()),
            "{r}"
        );
        assert!(r["client"] != "udp floor" || r["version"] == "2c", "{r}");
        let same_case = |o: &&serde_json::Value| o["version"] == r["version"] && o["op"] == r["op"];
        let ours = rows
            .iter()
            .filter(same_case)
            .find(|o| o["client"] == "snmp-client");
        assert_eq!(ours.map(|o| &o["requests"]), Some(&r["requests"]), "{r}");
    }
}

/// `--only exporter` with a few scrapes: ours and Debian's snmp_exporter measured on both
/// modules, no scrape failed, the same samples and requests from both.
#[test]
fn exporter_section_runs_small() {
    let rows = section("exporter", &["--scrapes", "10"]);
    let ours: Vec<_> = rows
        .iter()
        .filter(|r| r["exporter"] == "snmp-exporter")
        .collect();
    assert_eq!(ours.len(), 2, "{rows:?}");
    if snmp_test_support::agent::tool("prometheus-snmp-exporter").is_none() {
        snmp_test_support::agent::require_or_skip("prometheus-snmp-exporter not installed");
    } else {
        assert_eq!(rows.len(), 4, "{rows:?}");
    }
    for r in &rows {
        assert_eq!(r["failed_scrapes"], 0, "{r}");
        assert_eq!(r["scrapes"], 10, "{r}");
        let mine = ours.iter().find(|o| o["module"] == r["module"]).unwrap();
        assert_eq!(
            (&r["samples"], &r["requests_per_scrape"]),
            (&mine["samples"], &mine["requests_per_scrape"]),
            "{r}"
        );
    }
    let if_mib = ours.iter().find(|o| o["module"] == "if_mib").unwrap();
    // 48 interfaces: 870 samples, a hundred GETBULKs of 20.
    assert_eq!(if_mib["samples"], 870, "{if_mib}");
    assert!(
        if_mib["requests_per_scrape"].as_f64().unwrap() >= 90.0,
        "{if_mib}"
    );
}

/// `--only generate --quick`: ours and Debian's generator each produce exporter/generator.yml's
/// seven modules over the IETF folder, exporter/generator-host.yml's four over it and
/// net-snmp's MIBs, and the twelve of upstream's published generator.yml that the corpus has
/// the MIBs of, no run failing.
#[test]
fn generate_section_runs_small() {
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let corpus = corpus.display().to_string();
    let rows = section("generate", &["--quick", "--mib-corpus", &corpus]);
    if snmp_test_support::agent::tool("prometheus-snmp-generator").is_none() {
        snmp_test_support::agent::require_or_skip("prometheus-snmp-generator not installed");
    } else {
        assert_eq!(rows.len(), 6, "{rows:?}");
    }
    for r in &rows {
        let modules = match r["case"].as_str() {
            Some("exporter/generator.yml, ietf/") => 7,
            Some("generator-host.yml, ietf/ + net-snmp/") => 4,
            _ => 12,
        };
        assert_eq!(
            (&r["failed_runs"], &r["modules"]),
            (&0.into(), &modules.into()),
            "{r}"
        );
    }
}

/// `--only clients --quick` (tiny sizes, without the Python clients): every Rust client and
/// net-snmp's C library measured on every case, no call failed, csnmp only under v2c, the
/// floor under every v2c case but setup, the GETNEXT rounds against the floor, and a graph
/// per case (SVG and PNG) beside the Markdown.
#[test]
fn clients_section_runs_small() {
    if snmp_test_support::agent::tool("snmpd").is_none() {
        snmp_test_support::agent::require_or_skip(
            "snmpd not found (apt-get install -y snmpd snmp)",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (json, md) = (dir.path().join("c.json"), dir.path().join("clients.md"));
    let out = Command::new(env!("CARGO_BIN_EXE_snmp-bench"))
        .args(["--only", "clients", "--quick", "--no-python", "--json"])
        .arg(&json)
        .arg("--markdown")
        .arg(&md)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let rows = v["clients"].as_array().unwrap();
    let clients = [
        "snmp-client-sync",
        "snmp-client-async",
        "async-snmp",
        "snmp2",
        "csnmp",
        "net-snmp",
    ];
    for version in ["2c", "3"] {
        for case in ["setup", "1KB", "10KB", "60KB", "100KB", "1MB"] {
            for client in clients.iter().chain(&["udp floor"]) {
                let row = rows.iter().find(|r| {
                    r["client"] == *client && r["version"] == version && r["case"] == case
                });
                let expected = match *client {
                    "csnmp" => version == "2c",
                    "udp floor" => version == "2c" && case != "setup",
                    _ => true,
                };
                assert_eq!(
                    row.is_some(),
                    expected,
                    "{client} v{version} {case}:\n{stdout}"
                );
                let Some(r) = row else { continue };
                assert_eq!(r["failed"], 0, "{r}");
                assert_eq!(r["runs"], 3, "{r}");
                assert!(r["ms"].as_f64().unwrap() > 0.0, "{r}");
                assert_eq!(r["rps"].is_null(), case == "setup", "{r}");
            }
        }
    }
    let fastest = |version: &str, case: &str| {
        rows.iter()
            .filter(|r| r["version"] == version && r["case"] == case)
            .filter(|r| r["slower"].as_f64().is_some_and(|x| x < 1.0 + 1e-9))
            .count()
    };
    assert_eq!(fastest("2c", "1KB"), 1, "{stdout}");
    // Like for like in each socket mode, and the default session against the connected floor.
    for key in [
        "connected",
        "unconnected",
        "default_against_connected_floor",
    ] {
        let getnext = &v["getnext_against_floor"][key];
        assert_eq!(
            getnext["rounds"].as_array().unwrap().len(),
            3,
            "{key}: {getnext}"
        );
        assert!(
            getnext["median_ratio"].as_f64().unwrap() > 0.0,
            "{key}: {getnext}"
        );
    }
    for case in ["setup", "1KB", "10KB", "60KB", "100KB", "1MB"] {
        for ext in ["svg", "png"] {
            let graph = dir.path().join(format!("clients-{case}.{ext}"));
            assert!(
                graph.metadata().is_ok_and(|m| m.len() > 1000),
                "{}",
                graph.display()
            );
        }
    }
    let markdown = std::fs::read_to_string(&md).unwrap();
    assert!(markdown.contains("![1MB](clients-1MB.png)"), "{markdown}");
}

#[test]
fn agent_section_serves_the_table_without_failures() {
    if snmp_test_support::agent::tool("snmpd").is_none() {
        snmp_test_support::skip("snmpd is not installed");
        return;
    }
    let rows = section("agent", &["--quick", "--no-instructions"]);
    for server in [
        "snmp-agent standalone",
        "snmpd + snmp-agent subagent",
        "snmpd alone (extend)",
    ] {
        for op in ["getnext", "get"] {
            let row = rows
                .iter()
                .find(|r| r["server"] == server && r["op"] == op)
                .unwrap_or_else(|| panic!("{server} {op} missing: {rows:?}"));
            assert_eq!(row["requests"], 1000, "{row}");
            assert_eq!(row["failed"], 0, "{row}");
            assert!(row["agent_cpu_s"].as_f64().unwrap() > 0.0, "{row}");
        }
    }
    assert!(rows.iter().any(|r| r["server"] == "udp echo (floor)"));
}
