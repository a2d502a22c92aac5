//! Criterion bench of the USM's cryptography (snmp-client), side by side with net-snmp's own
//! (libnetsnmp's `generate_Ku` + `generate_kul`, `sc_check_keyed_hash`, `sc_decrypt`, loaded at
//! run time; its column is missing, with a note, where the library is not): a key from a
//! password localized to an engine, the MAC of a 100-octet message checked, and 100 octets of
//! scoped PDU decrypted, for every protocol.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use snmp_client::usm::{self, AuthProtocol, Key, PrivProtocol};
use snmpc::netsnmp::NetSnmp;

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
criterion_main!(benches);
