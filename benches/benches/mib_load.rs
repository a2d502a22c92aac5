//! Criterion bench of the MIB compiler: read, parse and resolve the whole real-world corpus
//! (../shared/mibs beside the project), side by side with net-snmp loading the same corpus
//! (`snmptranslate -M ... -m ALL -Tz`, a process per iteration, as its load is). The table
//! with peak memory is `cargo run --release -p snmp-bench`.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use criterion::{criterion_group, criterion_main, Criterion};

fn dirs() -> Option<Vec<PathBuf>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/mibs");
    if !root.join("ietf").is_dir() {
        return None;
    }
    let mut v = vec![root.join("ietf")];
    let mut vendors: Vec<PathBuf> = std::fs::read_dir(root.join("vendor"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    vendors.sort();
    v.extend(vendors);
    Some(v)
}

fn mib_corpus(c: &mut Criterion) {
    let Some(dirs) = dirs() else {
        eprintln!("skipped: ../shared/mibs not found beside the project");
        return;
    };
    let mut g = c.benchmark_group("mib_corpus");
    g.sample_size(10);
    // Until the modules are loaded and resolved (freeing them is not timed: the net-snmp
    // process below hands its memory back at exit) ...
    g.bench_function("snmp-codegen", |b| {
        b.iter_with_large_drop(|| {
            let set = snmp_smi::mib::MibSet::load(&dirs).expect("corpus readable");
            let resolved = snmp_smi::mib::resolve(&set, &[], &HashSet::new());
            (set, resolved)
        })
    });
    // ... and with the freeing.
    g.bench_function("snmp-codegen, load and free", |b| {
        b.iter(|| {
            let set = snmp_smi::mib::MibSet::load(&dirs).expect("corpus readable");
            let resolved = snmp_smi::mib::resolve(&set, &[], &HashSet::new());
            resolved.nodes.len()
        })
    });
    let path = std::env::join_paths(&dirs).expect("directories join");
    let snmptranslate = ["/usr/bin/snmptranslate", "/usr/local/bin/snmptranslate"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file());
    match snmptranslate {
        Some(tool) => {
            g.bench_function("net-snmp", |b| {
                b.iter(|| {
                    Command::new(&tool)
                        .arg("-M")
                        .arg(&path)
                        .args(["-m", "ALL", "-Tz"])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .status()
                        .expect("snmptranslate runs")
                })
            });
        }
        None => {
            eprintln!("net-snmp side skipped: snmptranslate not found (apt-get install -y snmp)")
        }
    }
    g.finish();
}

criterion_group!(benches, mib_corpus);
criterion_main!(benches);
