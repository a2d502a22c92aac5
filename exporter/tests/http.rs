//! The HTTP surface as snmp_exporter's: bad requests refused at once with its status and
//! words, `/config` without secrets, reloads (`/-/reload`, SIGHUP) that keep the
//! configuration in force when the new one is bad, a silent target ended by Prometheus's
//! scrape timeout, and the exporter's own metrics.

mod common;

use std::time::{Duration, Instant};

use common::*;

fn snmp_yml() -> String {
    system_config("  public_v2: {community: public}\n  secret: {community: s3cr3t-community}\n")
}

fn started(config: &str) -> (tempfile::TempDir, std::path::PathBuf, Process) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("snmp.yml");
    std::fs::write(&path, config).unwrap();
    let p = ours(&path, &[]);
    (dir, path, p)
}

#[test]
fn bad_requests_are_refused_at_once_with_upstreams_status_and_words() {
    let (_dir, _path, p) = started(&snmp_yml());
    let cases = [
        ("/snmp", "'target' parameter must be specified once"),
        ("/snmp?target=", "'target' parameter must be specified once"),
        (
            "/snmp?target=a&target=b",
            "'target' parameter must be specified once",
        ),
        (
            "/snmp?target=127.0.0.1&module=nope",
            "Unknown module 'nope'",
        ),
        (
            "/snmp?target=127.0.0.1&module=system&auth=nope",
            "Unknown auth 'nope'",
        ),
        (
            "/snmp?target=127.0.0.1&module=system&auth=a&auth=b",
            "'auth' parameter must only be specified once",
        ),
        (
            "/snmp?target=127.0.0.1&module=,",
            "'module' parameter must contain at least one module name",
        ),
        (
            "/snmp?target=127.0.0.1:99999&module=system",
            "port \"99999\" is not a number from 0 to 65535",
        ),
    ];
    for (path, words) in cases {
        let (status, body) = get(p.port, path, &[]).expect("an answer");
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body.contains(words), "{path}: {body}");
    }
    let (_, metrics) = get(p.port, "/metrics", &[]).unwrap();
    assert!(
        metrics.contains(&format!("snmp_request_errors_total {}", cases.len())),
        "{metrics}"
    );
}

#[test]
fn health_config_and_landing_page() {
    let (_dir, _path, p) = started(&snmp_yml());
    assert_eq!(
        get(p.port, "/-/healthy", &[]).unwrap(),
        (200, "Healthy".to_string())
    );
    let (status, config) = get(p.port, "/config", &[]).unwrap();
    assert_eq!(status, 200);
    assert!(config.contains("community: <secret>"), "{config}");
    assert!(!config.contains("s3cr3t"), "{config}");
    let (status, page) = get(p.port, "/", &[]).unwrap();
    assert_eq!(status, 200);
    assert!(
        page.contains("action=\"/snmp\"") && page.contains("system"),
        "{page}"
    );
}

#[test]
fn a_bad_reload_keeps_the_configuration_in_force() {
    let (_dir, path, p) = started(&snmp_yml());
    assert_eq!(request("GET", p.port, "/-/reload", &[]).unwrap().0, 400);
    std::fs::write(
        &path,
        snmp_yml().replace("[1.3.6.1.2.1.1.3]", "[not-an-oid]"),
    )
    .unwrap();
    let (status, body) = request("POST", p.port, "/-/reload", &[]).unwrap();
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("modules.system.walk[0]"), "{body}");
    let (_, metrics) = get(p.port, "/metrics", &[]).unwrap();
    assert!(
        metrics.contains("snmp_exporter_config_last_reload_successful 0"),
        "{metrics}"
    );
    let (_, config) = get(p.port, "/config", &[]).unwrap();
    assert!(
        config.contains("1.3.6.1.2.1.1.3"),
        "the old configuration stays: {config}"
    );
    // A good file, and SIGHUP: the new module is served.
    std::fs::write(&path, snmp_yml().replace("  system:", "  renamed:")).unwrap();
    let hup = std::process::Command::new("kill")
        .args(["-HUP", &p.child.id().to_string()])
        .status()
        .unwrap();
    assert!(hup.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, config) = get(p.port, "/config", &[]).unwrap();
        if config.contains("renamed:") {
            break;
        }
        assert!(Instant::now() < deadline, "SIGHUP did not reload: {config}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_silent_target_ends_at_prometheus_scrape_timeout() {
    let (_dir, _path, p) = started(&snmp_yml());
    // Bound and never read: requests to it go unanswered.
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let path = format!(
        "/snmp?target={}&module=system",
        silent.local_addr().unwrap()
    );
    let open_fds = || {
        let (_, m) = get(p.port, "/metrics", &[]).unwrap();
        let line = m.lines().find(|l| l.starts_with("process_open_fds "));
        line.expect("process_open_fds").to_string()
    };
    let fds_before = open_fds();
    let start = Instant::now();
    let (status, body) = get(
        p.port,
        &path,
        &[("X-Prometheus-Scrape-Timeout-Seconds", "1.5")],
    )
    .unwrap();
    let took = start.elapsed();
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("scrape cancelled after"), "{body}");
    // The module alone would wait 5 s × 4 attempts; the scrape's budget is 1.5 s less 0.5 s.
    assert!(took < Duration::from_secs(8), "{took:?}");
    // Its worker ended with it: its socket is closed, not waiting out the module's retries.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(open_fds(), fds_before);
    let (_, metrics) = get(p.port, "/metrics", &[]).unwrap();
    assert!(
        metrics.contains("snmp_exporter_scrape_failures_total{module=\"system\",auth=\"public_v2\",reason=\"deadline\"} 1"),
        "{metrics}"
    );
}

#[test]
fn a_scrape_counts_in_the_exporters_own_metrics() {
    let Some(snmpd) = tool("snmpd") else {
        require_or_skip("snmpd not installed");
        return;
    };
    let agent = start_agent(&snmpd);
    let (_dir, _path, p) = started(&snmp_yml());
    let path = format!("/snmp?target=127.0.0.1:{}&module=system", agent.port);
    let (status, body) = get(p.port, &path, &[]).unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains("# TYPE sysUpTime gauge\nsysUpTime "),
        "{body}"
    );
    let (_, metrics) = get(p.port, "/metrics", &[]).unwrap();
    for line in [
        "snmp_exporter_scrapes_total{module=\"system\",auth=\"public_v2\"} 1",
        "snmp_packets_total ",
        "snmp_request_in_flight 0",
        "process_resident_memory_bytes ",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
    // OpenMetrics only for a scraper that takes nothing else; Prometheus's Accept (OpenMetrics
    // first, the text format too) gets the text format, as from snmp_exporter.
    let only = [("Accept", "application/openmetrics-text; version=1.0.0")];
    let (status, body) = get(p.port, &path, &only).unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.ends_with("# EOF\n"), "{body}");
    let prometheus = [(
        "Accept",
        "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
    )];
    let (_, body) = get(p.port, &path, &prometheus).unwrap();
    assert!(!body.contains("# EOF"), "{body}");
    // A wrong community: the agent stays silent; the module fails with a timeout.
    let path = format!(
        "/snmp?target=127.0.0.1:{}&module=system&auth=secret",
        agent.port
    );
    let (status, body) = get(
        p.port,
        &path,
        &[("X-Prometheus-Scrape-Timeout-Seconds", "2")],
    )
    .unwrap();
    assert_eq!(status, 500, "{body}");
}

#[test]
fn upstreams_other_flags_are_taken() {
    let Some(snmpd) = tool("snmpd") else {
        require_or_skip("snmpd not installed");
        return;
    };
    let agent = start_agent(&snmpd);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("snmp.yml");
    std::fs::write(&path, snmp_yml()).unwrap();
    let flags = [
        "--web.telemetry-path=/own",
        "--snmp.source-address=127.0.0.1:",
        "--snmp.debug-packets",
        "--no-snmp.wrap-large-counters",
        "--log.level=debug",
        "--log.format=json",
    ];
    let p = ours(&path, &flags);
    assert_eq!(get(p.port, "/own", &[]).unwrap().0, 200);
    assert_eq!(get(p.port, "/metrics", &[]).unwrap().0, 404);
    let scrape = format!(
        "/snmp?target=127.0.0.1:{}&module=system&snmp_debug_packets=true",
        agent.port
    );
    let (status, body) = get(p.port, &scrape, &[]).unwrap();
    assert_eq!(status, 200, "{body}");
    // What the exporter cannot give is refused, not ignored: a systemd socket, a web config
    // that cannot be read.
    for (refused, said) in [
        ("--web.systemd-socket", "not supported"),
        ("--web.config.file=no-such-web.yml", "no-such-web.yml: "),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
            .arg(format!("--config.file={}", path.display()))
            .arg(refused)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{refused}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{refused}: {stderr}");
    }
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .args(["--snmp.source-address=nowhere", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--snmp.source-address"));
}

/// `--web.config.file` with `basic_auth_users`: every endpoint answers 401 without the right
/// credentials and as usual with them; a TLS configuration asking for what rustls cannot
/// enforce (a cipher suite list) refuses to start.
#[test]
fn basic_auth_from_the_web_config() {
    use base64::Engine as _;
    let dir = tempfile::tempdir().unwrap();
    let snmp = dir.path().join("snmp.yml");
    std::fs::write(&snmp, snmp_yml()).unwrap();
    let hash = bcrypt::hash("s3cret", 4).unwrap();
    let web = dir.path().join("web.yml");
    std::fs::write(&web, format!("basic_auth_users:\n  prometheus: '{hash}'\n")).unwrap();
    let port = free_port();
    let exporter = std::path::Path::new(env!("CARGO_BIN_EXE_snmp-exporter"));
    let args = [
        format!("--config.file={}", snmp.display()),
        format!("--web.listen-address=127.0.0.1:{port}"),
        format!("--web.config.file={}", web.display()),
    ];
    let child = std::process::Command::new(exporter)
        .args(&args)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let _running = Process { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while get(port, "/-/healthy", &[]).is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let basic = |user: &str, password: &str| {
        let encoded =
            base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        format!("Basic {encoded}")
    };
    let good = basic("prometheus", "s3cret");
    for path in [
        "/-/healthy",
        "/metrics",
        "/config",
        "/snmp?target=127.0.0.1",
    ] {
        assert_eq!(get(port, path, &[]).map(|r| r.0), Some(401), "{path}");
        let wrong = basic("prometheus", "s3cre");
        let answered = get(port, path, &[("Authorization", &wrong)]);
        assert_eq!(answered.map(|r| r.0), Some(401), "{path}");
        let unknown = basic("grafana", "s3cret");
        let answered = get(port, path, &[("Authorization", &unknown)]);
        assert_eq!(answered.map(|r| r.0), Some(401), "{path}");
    }
    let ok = |path: &str| get(port, path, &[("Authorization", &good)]).unwrap();
    assert_eq!(ok("/-/healthy"), (200, "Healthy".to_string()));
    assert_eq!(ok("/metrics").0, 200);
    let (status, body) = ok("/snmp?target=127.0.0.1&module=nope");
    assert_eq!(
        (status, body.contains("Unknown module 'nope'")),
        (400, true)
    );

    let tls = dir.path().join("tls.yml");
    std::fs::write(
        &tls,
        "tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  cipher_suites: [x]\n",
    )
    .unwrap();
    let refused = std::process::Command::new(exporter)
        .arg(format!("--config.file={}", snmp.display()))
        .arg(format!("--web.listen-address=127.0.0.1:{}", free_port()))
        .arg(format!("--web.config.file={}", tls.display()))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("tls_server_config.cipher_suites: not supported"),
        "{said}"
    );
}

/// `--web.config.file` with `tls_server_config` (files relative to the web config's folder)
/// and basic authentication: openssl's s_client, trusting the certificate, reads `/-/healthy`
/// over TLS with the credentials; a plain HTTP request to the port gets no HTTP answer.
#[test]
fn tls_from_the_web_config() {
    use base64::Engine as _;
    let Some(openssl) = snmp_test_support::agent::tool("openssl") else {
        snmp_test_support::agent::require_or_skip("openssl not found (apt-get install -y openssl)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let made = std::process::Command::new(&openssl)
        .current_dir(dir.path())
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args([
            "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2",
        ])
        .args([
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let snmp = dir.path().join("snmp.yml");
    std::fs::write(&snmp, snmp_yml()).unwrap();
    let hash = bcrypt::hash("s3cret", 4).unwrap();
    let web = dir.path().join("web.yml");
    let text = format!(
        "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  min_version: TLS12\n\
         basic_auth_users:\n  prometheus: '{hash}'\n"
    );
    std::fs::write(&web, text).unwrap();
    let port = free_port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .arg(format!("--config.file={}", snmp.display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .arg(format!("--web.config.file={}", web.display()))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let _running = Process { child, port };
    let credentials = base64::engine::general_purpose::STANDARD.encode("prometheus:s3cret");
    let over_tls = |path: &str, authorization: &str| {
        let mut client = std::process::Command::new(&openssl)
            .args(["s_client", "-quiet", "-verify_return_error", "-CAfile"])
            .arg(dir.path().join("cert.pem"))
            .arg("-connect")
            .arg(format!("127.0.0.1:{port}"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: localhost\r\n{authorization}Connection: close\r\n\r\n"
        );
        use std::io::Write as _;
        let _ = client.stdin.take().unwrap().write_all(request.as_bytes());
        let out = client.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let authorized = format!("Authorization: Basic {credentials}\r\n");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut answer = String::new();
    while Instant::now() < deadline {
        answer = over_tls("/-/healthy", &authorized);
        if answer.starts_with("HTTP/1.1 ") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("Healthy"), "{answer}");
    let refused = over_tls("/metrics", "");
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    let plain = get(port, "/-/healthy", &[]);
    assert!(
        plain.as_ref().is_none_or(|(status, _)| *status != 200),
        "{plain:?}"
    );
}
