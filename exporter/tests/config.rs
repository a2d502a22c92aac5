//! snmp.yml read as snmp_exporter reads it, and its errors: the file, line, column and key.

use snmp_exporter::config::{Config, ConfigError, LoadOptions};

fn load(text: &str) -> Result<Config, ConfigError> {
    Config::from_yaml("snmp.yml", text, &LoadOptions::default())
}

const MODULE: &str = "modules:\n  m:\n    walk: [1.3.6.1.2.1.1]\n";

#[test]
fn errors_name_the_file_line_column_and_key() {
    let e = load("auths:\n  a: {version: 2}\nmodules:\n  m:\n    walkk: [1.3]\n").unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("snmp.yml:5:5: "), "{text}");
    assert!(text.contains("unknown field `walkk`"), "{text}");

    let e = load(&format!(
        "auths:\n  v3:\n    version: 3\n    username: u\n    security_level: authPriv\n{MODULE}"
    ))
    .unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("snmp.yml:"), "{text}");
    assert!(text.contains("priv_password: missing"), "{text}");

    let e = load(&format!("auths:\n  a: {{version: 4}}\n{MODULE}")).unwrap_err();
    assert!(
        e.to_string()
            .contains("SNMP version must be 1, 2 or 3, found 4"),
        "{e}"
    );

    let e = load("auths:\n  a: {}\nmodules:\n  m:\n    walk: [1.3.x]\n").unwrap_err();
    assert!(e.to_string().contains("modules.m.walk[0]"), "{e}");

    let bad_type = "auths:\n  a: {}\nmodules:\n  m:\n    metrics:\n    - {name: x, oid: 1.3.6, type: Gauge32, help: h}\n";
    let e = load(bad_type).unwrap_err().to_string();
    assert!(
        e.starts_with("snmp.yml:6:") && e.contains("invalid metric type \"Gauge32\""),
        "{e}"
    );

    let bad_regex = "auths:\n  a: {}\nmodules:\n  m:\n    metrics:\n    - name: x\n      oid: 1.3.6\n      type: DisplayString\n      help: h\n      regex_extracts:\n        v: [{regex: '(unclosed'}]\n";
    let e = load(bad_regex).unwrap_err().to_string();
    assert!(e.contains("regex"), "{e}");

    let bad_lookup = "auths:\n  a: {}\nmodules:\n  m:\n    metrics:\n    - name: x\n      oid: 1.3.6\n      type: gauge\n      help: h\n      lookups: [{labels: [nope], labelname: y, oid: 1.3}]\n";
    let e = load(bad_lookup).unwrap_err().to_string();
    assert!(
        e.contains("modules.m.metrics[x].lookups[0]") && e.contains("\"nope\""),
        "{e}"
    );

    assert!(load("auths:\n  a: {}\n")
        .unwrap_err()
        .to_string()
        .contains("no modules"));
}

#[test]
fn defaults_as_upstream() {
    let c = load(&format!("auths:\n  public_v2: {{}}\n{MODULE}")).unwrap();
    let auth = &c.file.auths["public_v2"];
    assert_eq!(
        (
            auth.version,
            auth.community.0.as_str(),
            auth.security_level.as_str()
        ),
        (2, "public", "noAuthNoPriv")
    );
    let m = &c.compiled.modules["m"];
    assert_eq!(
        (m.max_repetitions, m.retries, m.timeout.as_secs()),
        (25, 3, 5)
    );
    // Shown without secrets.
    assert!(c.to_yaml().contains("community: <secret>"));
    assert!(!c.to_yaml().contains("public\n"));
}

#[test]
fn files_merge_and_patterns_glob() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.yml"),
        format!("auths:\n  one: {{}}\n{MODULE}"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.yml"),
        "auths:\n  two: {version: 1}\nmodules:\n  n:\n    walk: [1.3.6.1]\n",
    )
    .unwrap();
    let pattern = dir.path().join("*.yml").display().to_string();
    let missing = dir.path().join("none-*.yml").display().to_string();
    let c = Config::load(&[pattern, missing], &LoadOptions::default()).unwrap();
    assert_eq!(c.compiled.auths.keys().collect::<Vec<_>>(), ["one", "two"]);
    assert_eq!(c.compiled.modules.keys().collect::<Vec<_>>(), ["m", "n"]);
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.warnings[0].contains("no file found matching pattern"));
}

#[test]
fn environment_variables_expand_when_asked() {
    std::env::set_var("SNMP_EXPORTER_TEST_PASSWORD", "from-the-environment");
    let text = format!(
        "auths:\n  v3:\n    version: 3\n    username: u\n    security_level: authNoPriv\n    password: ${{SNMP_EXPORTER_TEST_PASSWORD}}\n{MODULE}"
    );
    let expand = LoadOptions { expand_env: true };
    let c = Config::from_yaml("snmp.yml", &text, &expand).unwrap();
    assert_eq!(c.file.auths["v3"].password.0, "from-the-environment");
    let unexpanded = load(&text).unwrap();
    assert_eq!(
        unexpanded.file.auths["v3"].password.0,
        "${SNMP_EXPORTER_TEST_PASSWORD}"
    );
    let missing = text.replace("SNMP_EXPORTER_TEST_PASSWORD", "SNMP_EXPORTER_TEST_UNSET");
    let e = Config::from_yaml("snmp.yml", &missing, &expand)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("SNMP_EXPORTER_TEST_UNSET environment variable not found"),
        "{e}"
    );
}

#[test]
fn the_0_22_format_reads_with_its_auths_named_after_the_modules() {
    let old = "if_mib:\n  walk: [1.3.6.1.2.1.2]\n  version: 1\n  auth:\n    community: private\nsystem:\n  walk: [1.3.6.1.2.1.1]\n";
    let c = load(old).unwrap();
    assert_eq!(c.file.auths["if_mib"].version, 1);
    assert_eq!(c.file.auths["if_mib"].community.0, "private");
    assert_eq!(
        c.file.auths["system"].version, 2,
        "upstream's defaults where none is written"
    );
    assert_eq!(
        c.compiled.modules["if_mib"].legacy_auth.as_deref(),
        Some("if_mib")
    );
    assert_eq!(c.warnings.len(), 1);
}
