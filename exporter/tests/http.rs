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
    // Its worker ended with it: its socket is closed within a second, not after the module's
    // retries (20 s).
    let closing = Instant::now();
    while open_fds() != fds_before && closing.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(open_fds(), fds_before);
    let (_, metrics) = get(p.port, "/metrics", &[]).unwrap();
    assert!(
        metrics.contains("snmp_exporter_scrape_failures_total{module=\"system\",auth=\"public_v2\",reason=\"deadline\"} 1"),
        "{metrics}"
    );
}

/// A target with nothing at its port: the connected socket hears the ICMP port unreachable
/// and the scrape fails at once with `Connection refused`, as upstream's does; a module that
/// asks for an unconnected socket waits for answers from anywhere, until the scrape's
/// deadline.
#[test]
fn a_closed_port_fails_the_scrape_at_once_unless_the_socket_is_unconnected() {
    let closed = {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        s.local_addr().unwrap()
    };
    let path = format!("/snmp?target={closed}&module=system");
    let (_dir, _path, p) = started(&snmp_yml());
    let (status, body) = get(p.port, &path, &[]).unwrap();
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("Connection refused"), "{body}");
    let (_, metrics) = get(p.port, "/metrics", &[]).unwrap();
    assert!(
        metrics.contains("snmp_exporter_scrape_failures_total{module=\"system\",auth=\"public_v2\",reason=\"unreachable\"} 1"),
        "{metrics}"
    );
    let unconnected = snmp_yml().replace(
        "    walk: [1.3.6.1.2.1.1.3]\n",
        "    walk: [1.3.6.1.2.1.1.3]\n    use_unconnected_udp_socket: true\n",
    );
    let (_dir, _path, p) = started(&unconnected);
    let (status, body) = get(
        p.port,
        &path,
        &[("X-Prometheus-Scrape-Timeout-Seconds", "1.5")],
    )
    .unwrap();
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("scrape cancelled after"), "{body}");
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

/// `openssl ARGS` in `dir`, which must succeed.
fn openssl(openssl: &std::path::Path, dir: &std::path::Path, args: &str) {
    let out = std::process::Command::new(openssl)
        .current_dir(dir)
        .args(args.split_whitespace())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A self-signed certificate `NAME.pem` with its key `NAME-key.pem` in `dir`.
fn certificate(tool: &std::path::Path, dir: &std::path::Path, name: &str, cn: &str) {
    openssl(
        tool,
        dir,
        &format!(
            "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
             -keyout {name}-key.pem -out {name}.pem -subj /CN={cn} -addext subjectAltName=IP:127.0.0.1"
        ),
    );
}

/// Our exporter with `web.yml` (written into `dir`) and a system-only snmp.yml.
fn with_web_config(dir: &std::path::Path, web: &str) -> Process {
    let snmp = dir.join("snmp.yml");
    std::fs::write(&snmp, snmp_yml()).unwrap();
    std::fs::write(dir.join("web.yml"), web).unwrap();
    let port = free_port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_snmp-exporter"))
        .arg(format!("--config.file={}", snmp.display()))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .arg(format!(
            "--web.config.file={}",
            dir.join("web.yml").display()
        ))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    Process { child, port }
}

/// `GET path` over TLS by openssl's s_client trusting `server.pem` of `dir`, with `headers`
/// (each ending in CRLF) and s_client's `extra` arguments: what came back.
fn over_tls(
    tool: &std::path::Path,
    dir: &std::path::Path,
    port: u16,
    path: &str,
    headers: &str,
    extra: &[&str],
) -> String {
    use std::io::Write as _;
    let mut client = std::process::Command::new(tool)
        .current_dir(dir)
        .args([
            "s_client",
            "-quiet",
            "-verify_return_error",
            "-CAfile",
            "server.pem",
        ])
        .args(extra)
        .arg("-connect")
        .arg(format!("127.0.0.1:{port}"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n{headers}Connection: close\r\n\r\n");
    let _ = client.stdin.take().unwrap().write_all(request.as_bytes());
    let out = client.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`over_tls`] until an HTTP answer comes (the exporter starting), at most 20 s.
fn first_over_tls(
    tool: &std::path::Path,
    dir: &std::path::Path,
    port: u16,
    headers: &str,
    extra: &[&str],
) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let answer = over_tls(tool, dir, port, "/-/healthy", headers, extra);
        if answer.starts_with("HTTP/1.1 ") || Instant::now() > deadline {
            return answer;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `--web.config.file` with `tls_server_config` (files relative to the web config's folder)
/// and basic authentication: openssl's s_client, trusting the certificate, reads `/-/healthy`
/// over TLS with the credentials; a plain HTTP request to the port gets no HTTP answer.
#[test]
fn tls_from_the_web_config() {
    use base64::Engine as _;
    let Some(tool) = snmp_test_support::agent::tool("openssl") else {
        snmp_test_support::agent::require_or_skip("openssl not found (apt-get install -y openssl)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    certificate(&tool, dir.path(), "server", "localhost");
    let hash = bcrypt::hash("s3cret", 4).unwrap();
    let web = format!(
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server-key.pem\n  min_version: TLS12\n\
         basic_auth_users:\n  prometheus: '{hash}'\n"
    );
    let p = with_web_config(dir.path(), &web);
    let credentials = base64::engine::general_purpose::STANDARD.encode("prometheus:s3cret");
    let authorized = format!("Authorization: Basic {credentials}\r\n");
    let answer = first_over_tls(&tool, dir.path(), p.port, &authorized, &[]);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("Healthy"), "{answer}");
    let refused = over_tls(&tool, dir.path(), p.port, "/metrics", "", &[]);
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    let plain = get(p.port, "/-/healthy", &[]);
    assert!(
        plain.as_ref().is_none_or(|(status, _)| *status != 200),
        "{plain:?}"
    );
}

/// `client_auth_type: RequireAndVerifyClientCert`: a client with a certificate the CA of
/// `client_ca_file` signed is served; one without a certificate, or with one of its own
/// making, gets no HTTP answer.
#[test]
fn client_certificates_from_the_web_config() {
    let Some(tool) = snmp_test_support::agent::tool("openssl") else {
        snmp_test_support::agent::require_or_skip("openssl not found (apt-get install -y openssl)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    certificate(&tool, d, "server", "localhost");
    certificate(&tool, d, "ca", "client-ca");
    certificate(&tool, d, "stranger", "stranger");
    openssl(&tool, d, "req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout client-key.pem -out client.csr -subj /CN=prometheus");
    // A version 3 certificate for client authentication (webpki takes no other).
    std::fs::write(
        d.join("client.ext"),
        "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n",
    )
    .unwrap();
    openssl(
        &tool,
        d,
        "x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 \
         -extfile client.ext -out client.pem",
    );
    let web = "tls_server_config:\n  cert_file: server.pem\n  key_file: server-key.pem\n  \
               client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n";
    let p = with_web_config(d, web);
    let signed = ["-cert", "client.pem", "-key", "client-key.pem"];
    let answer = first_over_tls(&tool, d, p.port, "", &signed);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let without = over_tls(&tool, d, p.port, "/-/healthy", "", &[]);
    assert!(!without.contains("HTTP/1.1"), "{without}");
    let stranger = ["-cert", "stranger.pem", "-key", "stranger-key.pem"];
    let unknown = over_tls(&tool, d, p.port, "/-/healthy", "", &stranger);
    assert!(!unknown.contains("HTTP/1.1"), "{unknown}");
}
