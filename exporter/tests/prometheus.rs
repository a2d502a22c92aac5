//! Debian's Prometheus scraping snmp-exporter through the standard relabelling (the target
//! as `__param_target`, the exporter as `__address__`), a series read back from its HTTP
//! API; and two Prometheus servers sharding the targets by `hashmod`, each scraping its own
//! part, together all of them. Needs prometheus and snmpd.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

fn snmp_yml() -> String {
    system_config("  public_v2: {version: 2}\n")
}

/// A scrape config for `targets` through the exporter on `exporter`, keeping the shard
/// `shard` of `shards` (no sharding when `shards` is 1).
fn prometheus_yml(targets: &[String], exporter: u16, shard: u32, shards: u32) -> String {
    let list: Vec<String> = targets.iter().map(|t| format!("'{t}'")).collect();
    let mut yml = format!(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n\
         - job_name: snmp\n  metrics_path: /snmp\n  params:\n    module: [system]\n\
         \x20 static_configs:\n  - targets: [{}]\n  relabel_configs:\n\
         \x20 - source_labels: [__address__]\n    target_label: __param_target\n\
         \x20 - source_labels: [__param_target]\n    target_label: instance\n\
         \x20 - target_label: __address__\n    replacement: 127.0.0.1:{exporter}\n",
        list.join(", ")
    );
    if shards > 1 {
        yml.push_str(&format!(
            "  - source_labels: [instance]\n    modulus: {shards}\n    target_label: __tmp_shard\n    action: hashmod\n\
             \x20 - source_labels: [__tmp_shard]\n    regex: '{shard}'\n    action: keep\n"
        ));
    }
    yml
}

fn start_prometheus(program: &Path, dir: &Path, yml: &str) -> Process {
    let port = free_port();
    std::fs::create_dir_all(dir).unwrap();
    let config = dir.join("prometheus.yml");
    std::fs::write(&config, yml).unwrap();
    let args = [
        format!("--config.file={}", config.display()),
        format!("--storage.tsdb.path={}", dir.join("data").display()),
        format!("--web.listen-address=127.0.0.1:{port}"),
    ];
    spawn_http(program, &args, port, "/-/ready")
}

/// The `instance` labels of the series `query` returns with value `value` (any when None).
fn instances(prometheus: &Process, query: &str, value: Option<&str>) -> BTreeSet<String> {
    let (_, body) = get(
        prometheus.port,
        &format!("/api/v1/query?query={query}"),
        &[],
    )
    .unwrap_or_default();
    let mut found = BTreeSet::new();
    for part in body.split("\"metric\":").skip(1) {
        let Some(i) = part.find("\"instance\":\"") else {
            continue;
        };
        let rest = &part[i + 12..];
        let instance = &rest[..rest.find('"').unwrap_or(0)];
        let v = part
            .split("\"value\":[")
            .nth(1)
            .and_then(|v| v.split(',').nth(1))
            .unwrap_or("");
        if value.is_none_or(|want| v.trim_matches(|c| c == '"' || c == ']' || c == '}') == want) {
            found.insert(instance.to_string());
        }
    }
    found
}

fn tools() -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    match (tool("prometheus"), tool("snmpd")) {
        (Some(p), Some(s)) => Some((p, s)),
        _ => {
            require_or_skip("prometheus or snmpd not installed");
            None
        }
    }
}

#[test]
fn prometheus_scrapes_through_the_exporter_and_has_the_series() {
    let Some((prometheus, snmpd)) = tools() else {
        return;
    };
    let agent = start_agent(&snmpd);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("snmp.yml");
    std::fs::write(&config, snmp_yml()).unwrap();
    let exporter = ours(&config, &[]);
    let target = format!("127.0.0.1:{}", agent.port);
    let yml = prometheus_yml(std::slice::from_ref(&target), exporter.port, 0, 1);
    let p = start_prometheus(&prometheus, &dir.path().join("p"), &yml);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if instances(&p, "sysUpTime", None).contains(&target) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no sysUpTime series for {target} after 60 s"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    assert!(instances(&p, "up", Some("1")).contains(&target));
}

#[test]
fn two_prometheus_servers_shard_the_targets_by_hashmod() {
    let Some((prometheus, snmpd)) = tools() else {
        return;
    };
    let agents: Vec<_> = (0..6).map(|_| start_agent(&snmpd)).collect();
    let targets: Vec<String> = agents
        .iter()
        .map(|a| format!("127.0.0.1:{}", a.port))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("snmp.yml");
    std::fs::write(&config, snmp_yml()).unwrap();
    // Two stateless replicas; each Prometheus uses its own.
    let (e0, e1) = (ours(&config, &[]), ours(&config, &[]));
    let p0 = start_prometheus(
        &prometheus,
        &dir.path().join("p0"),
        &prometheus_yml(&targets, e0.port, 0, 2),
    );
    let p1 = start_prometheus(
        &prometheus,
        &dir.path().join("p1"),
        &prometheus_yml(&targets, e1.port, 1, 2),
    );
    let all: BTreeSet<String> = targets.iter().cloned().collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    let (s0, s1) = loop {
        let (s0, s1) = (
            instances(&p0, "up", Some("1")),
            instances(&p1, "up", Some("1")),
        );
        if s0.union(&s1).cloned().collect::<BTreeSet<_>>() == all {
            break (s0, s1);
        }
        assert!(
            Instant::now() < deadline,
            "after 60 s: {s0:?} and {s1:?} of {all:?}"
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    assert!(s0.is_disjoint(&s1), "both scrape some: {s0:?} {s1:?}");
    // Neither sees a target of the other's shard, up or down.
    assert!(instances(&p0, "up", None).is_disjoint(&s1));
    assert!(instances(&p1, "up", None).is_disjoint(&s0));
}
