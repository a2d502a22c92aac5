//! MIB module text: the SMI front-end and the resolver on anything, with the project's base
//! modules beside it (seeded with mibs/). Nothing panics; every diagnostic renders.
#![no_main]
use std::collections::HashSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use snmp_smi::mib::{resolve, MibSet};

/// SNMPv2-SMI, -TC and -CONF, as the modules under test import them.
fn base() -> &'static [(String, String)] {
    static BASE: OnceLock<Vec<(String, String)>> = OnceLock::new();
    BASE.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
        ["SNMPv2-SMI", "SNMPv2-TC", "SNMPv2-CONF"]
            .iter()
            .filter_map(|m| {
                let text = std::fs::read_to_string(dir.join(m)).ok()?;
                Some((m.to_string(), text))
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut set = MibSet::default();
    for (name, t) in base() {
        set.add_text(name.clone(), t.clone());
    }
    set.add_text("fuzz.mib".into(), text);
    let resolved = resolve(&set, &[], &HashSet::new());
    for r in &resolved.reports {
        for d in r.errors.iter().chain(&r.warnings) {
            let _ = d.to_string();
        }
    }
    for n in &resolved.nodes {
        assert!(!resolved.oid(n).is_empty());
    }
});
