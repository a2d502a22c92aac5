//! Facts about the workspace a newcomer relies on: the Rust version it declares is one every
//! locked dependency builds with, every member declares it, and README.md states it; the
//! command line builds without the code generator's dependencies.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `1.89` and `1.89.0` alike, for comparing.
fn version(v: &str) -> [u32; 3] {
    let mut parts = v.split('.').map(|a| a.parse().unwrap_or(0));
    [(); 3].map(|_| parts.next().unwrap_or(0))
}

#[test]
fn the_declared_rust_version_builds_every_locked_dependency() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let declared = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("the workspace declares rust-version")
        .trim_matches('"')
        .to_string();
    // Not `--offline`: the metadata of every platform's dependencies is read, and a fresh
    // machine has downloaded only its own platform's (a Windows-only crate such as
    // anstyle-wincon is then missing); cargo fetches the rest, as the build fetched those.
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    let mut too_new = Vec::new();
    for p in meta["packages"].as_array().unwrap() {
        let name = format!(
            "{}@{}",
            p["name"].as_str().unwrap(),
            p["version"].as_str().unwrap()
        );
        let needs = p["rust_version"].as_str();
        if members.contains(&p["id"].as_str().unwrap()) {
            assert_eq!(
                needs,
                Some(declared.as_str()),
                "{name} declares the workspace's rust-version"
            );
        } else if let Some(needs) = needs {
            if version(needs) > version(&declared) {
                too_new.push(format!("{name} needs {needs}"));
            }
        }
    }
    assert!(
        too_new.is_empty(),
        "the workspace declares rust-version {declared}, but: {too_new:?}"
    );
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust toolchain ({declared} or newer")),
        "README.md states the Rust version {declared}"
    );
}

/// The crates `crate_name` is built with (its normal dependencies, proc-macros left out: they
/// run in the compiler, as clap's derive does), by name.
fn built_with(crate_name: &str, features: &[&str]) -> Vec<String> {
    let mut args = vec!["tree", "-p", crate_name, "-e", "normal,no-proc-macro"];
    args.extend(features);
    args.extend(["--prefix", "none", "--format", "{p}"]);
    let out = Command::new(env!("CARGO"))
        .args(&args)
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn snmpc_builds_without_the_code_generator() {
    // snmpc reads MIBs through snmp-smi, the MIB front-end; generating Rust (syn, quote,
    // prettyplease, snmp-codegen) is a build script's business, not the command line's.
    let deps = built_with("snmpc", &[]);
    assert!(deps.iter().any(|d| d == "snmp-smi"), "{deps:?}");
    for heavy in [
        "snmp-codegen",
        "syn",
        "quote",
        "prettyplease",
        "proc-macro2",
    ] {
        assert!(
            !deps.iter().any(|d| d == heavy),
            "snmpc is built with {heavy}"
        );
    }
}

#[test]
fn the_client_core_builds_without_tokio() {
    // The sans-IO core and the std driver by default; tokio only with the `tokio` feature.
    let core = built_with("snmp-client", &[]);
    assert!(!core.iter().any(|d| d == "tokio"), "{core:?}");
    let with_tokio = built_with("snmp-client", &["--features", "tokio"]);
    assert!(with_tokio.iter().any(|d| d == "tokio"), "{with_tokio:?}");
}
