//! Times reading, parsing and resolving every module of some MIB directories, with the
//! process's memory after each phase (Linux):
//! `cargo run --release -p snmp-codegen --example mib_load -- DIR...`.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let t0 = Instant::now();
    let set = snmp_codegen::mib::MibSet::load(&dirs).expect("directories readable");
    let t1 = Instant::now();
    let after_load = memory();
    let resolved = snmp_codegen::mib::resolve(&set, &[], &HashSet::new());
    let t2 = Instant::now();
    let after_resolve = memory();
    let (files, modules, nodes) = (set.files.len(), set.modules.len(), resolved.nodes.len());
    drop(resolved);
    drop(set);
    let t3 = Instant::now();
    println!(
        "{files} files, {modules} modules, {nodes} nodes: read+parse {:.1} ms, resolve {:.1} ms, drop {:.1} ms",
        (t1 - t0).as_secs_f64() * 1e3,
        (t2 - t1).as_secs_f64() * 1e3,
        (t3 - t2).as_secs_f64() * 1e3
    );
    println!("memory after the load: {after_load}; after resolving: {after_resolve}");
}

/// Resident and peak resident size, from /proc/self/status.
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map_or("?".to_string(), |v| v.trim().to_string())
    };
    format!("RSS {}, peak {}", field("VmRSS:"), field("VmHWM:"))
}
