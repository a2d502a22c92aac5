//! Facts about the workspace a newcomer relies on: the Rust version it declares is one every
//! locked dependency builds with, every member declares it, and README.md states it.

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
