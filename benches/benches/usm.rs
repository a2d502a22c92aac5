//! Criterion bench of the USM's cryptography (snmp-client), side by side with net-snmp's own
//! (libnetsnmp's `generate_Ku` + `generate_kul`, `sc_check_keyed_hash`, `sc_decrypt`, loaded at
//! run time; its column is missing, with a note, where the library is not): a key from a
//! password localized to an engine, the MAC of a 100-octet message checked, and 100 octets of
//! scoped PDU decrypted, for every protocol.

use criterion::{criterion_group, BenchmarkId, Criterion};
use snmp_client::usm::{self, AuthProtocol, Key, PrivProtocol};
use snmp_netsnmp::NetSnmp;

const ENGINE: &[u8] = b"\x80\x00\x1f\x88\x04snmp-codegen";

fn net_snmp() -> Option<NetSnmp> {
    NetSnmp::load()
        .map_err(|e| eprintln!("net-snmp column missing: {e}"))
        .ok()
}

fn keys(c: &mut Criterion) {
    let lib = net_snmp();
    let theirs = lib.as_ref().and_then(|l| l.usm().ok());
    let mut g = c.benchmark_group("usm_localized_key_from_password");
    g.sample_size(10);
    for p in AuthProtocol::ALL {
        g.bench_function(BenchmarkId::new("snmp-client", p.name()), |b| {
            b.iter(|| Key::localized(p, std::hint::black_box(b"authpassword"), ENGINE))
        });
        if let Some(t) = &theirs {
            g.bench_function(BenchmarkId::new("net-snmp", p.name()), |b| {
                b.iter(|| {
                    let ku = t.key_from_password(p.oid(), std::hint::black_box(b"authpassword"));
                    t.localize(p.oid(), ENGINE, &ku.expect("generate_Ku"))
                })
            });
        }
    }
    g.finish();
}

fn auth(c: &mut Criterion) {
    let lib = net_snmp();
    let theirs = lib.as_ref().and_then(|l| l.usm().ok());
    let mut g = c.benchmark_group("usm_check_mac_100_octets");
    for p in AuthProtocol::ALL {
        let key = Key::localized(p, b"authpassword", ENGINE).expect("a long password");
        let mut message: Vec<u8> = (0..100u8).collect();
        let at = 40..40 + p.mac_len();
        usm::sign(p, &key, &mut message, at.clone()).expect("in range");
        g.bench_function(BenchmarkId::new("snmp-client", p.name()), |b| {
            b.iter(|| usm::verify(p, &key, std::hint::black_box(&message), at.clone()))
        });
        if let Some(t) = &theirs {
            // net-snmp hashes a copy of the message with the field zeroed; the copy is made
            // once here, so only the check is timed.
            let mac = message[at.clone()].to_vec();
            let mut zeroed = message.clone();
            zeroed[at.clone()].fill(0);
            g.bench_function(BenchmarkId::new("net-snmp", p.name()), |b| {
                b.iter(|| t.check_mac(p.oid(), key.as_bytes(), std::hint::black_box(&zeroed), &mac))
            });
        }
    }
    g.finish();
}

fn privacy(c: &mut Criterion) {
    let lib = net_snmp();
    let theirs = lib.as_ref().and_then(|l| l.usm().ok());
    let mut g = c.benchmark_group("usm_decrypt_100_octets");
    let key =
        Key::localized(AuthProtocol::Sha512, b"privpassword", ENGINE).expect("a long password");
    let plain = [0x30u8; 100];
    let salt = [1, 2, 3, 4, 5, 6, 7, 8];
    let (boots, time) = (7u32, 1234u32);
    for p in PrivProtocol::ALL {
        let cipher = usm::encrypt(p, &key, boots, time, &salt, &plain).expect("a long key");
        g.bench_function(BenchmarkId::new("snmp-client", p.name()), |b| {
            b.iter(|| usm::decrypt(p, &key, boots, time, &salt, std::hint::black_box(&cipher)))
        });
        if let Some(t) = &theirs {
            let k = key.as_bytes();
            let (iv, key_len): (Vec<u8>, usize) = match p {
                PrivProtocol::Des => ((0..8).map(|i| k[8 + i] ^ salt[i]).collect(), 8),
                _ => (
                    [&boots.to_be_bytes()[..], &time.to_be_bytes(), &salt].concat(),
                    p.key_len(),
                ),
            };
            g.bench_function(BenchmarkId::new("net-snmp", p.name()), |b| {
                b.iter(|| t.decrypt(p.oid(), &k[..key_len], &iv, std::hint::black_box(&cipher)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, keys, auth, privacy);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    side_by_side();
}

/// Where criterion keeps its results: `CRITERION_HOME`, else `criterion/` in the target
/// directory this bench runs from (target/release/deps/usm-...).
fn criterion_home() -> Option<std::path::PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(home.into());
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(std::path::PathBuf::from(target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// The median of one benchmark this run measured, in nanoseconds.
fn median_ns(group: &str, implementation: &str, param: &str) -> Option<f64> {
    let path = criterion_home()?
        .join(group)
        .join(implementation)
        .join(param)
        .join("new/estimates.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

/// The README's table: ours / net-snmp's median per protocol, and the ratio.
fn side_by_side() {
    let cell = |group: &str, param: &str, scale: f64| {
        let ours = median_ns(group, "snmp-client", param);
        let theirs = median_ns(group, "net-snmp", param);
        match (ours, theirs) {
            (Some(o), Some(t)) => format!("{:.0}/{:.0} {:.1}x", o / scale, t / scale, t / o),
            (Some(o), None) => format!("{:.0}/-", o / scale),
            _ => "-".to_string(),
        }
    };
    let auth: Vec<&str> = AuthProtocol::ALL.iter().map(|p| p.name()).collect();
    let privacy: Vec<&str> = PrivProtocol::ALL.iter().map(|p| p.name()).collect();
    println!("\nsnmp-client / net-snmp (medians), and net-snmp's time over ours:");
    let rows: [(&str, &str, f64, &[&str]); 3] = [
        (
            "localized key (µs)",
            "usm_localized_key_from_password",
            1e3,
            &auth,
        ),
        (
            "check a MAC, 100 B (ns)",
            "usm_check_mac_100_octets",
            1.0,
            &auth,
        ),
        (
            "decrypt 100 B (ns)",
            "usm_decrypt_100_octets",
            1.0,
            &privacy,
        ),
    ];
    for (label, group, scale, params) in rows {
        let head: Vec<String> = params.iter().map(|p| format!("{p:>18}")).collect();
        println!("{:<26}{}", "", head.join(""));
        let cells: Vec<String> = params
            .iter()
            .map(|p| format!("{:>18}", cell(group, p, scale)))
            .collect();
        println!("{label:<26}{}", cells.join(""));
    }
}
