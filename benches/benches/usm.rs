//! Criterion bench of the USM's cryptography (snmp-client): a key from a password and its
//! localisation, the MAC of a message checked in place, and a scoped PDU encrypted and
//! decrypted, for every protocol. A message here is a 100-octet SNMPv3 GetResponse's size.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use snmp_client::usm::{self, AuthProtocol, Key, PrivProtocol};

const ENGINE: &[u8] = b"\x80\x00\x1f\x88\x04snmp-codegen";

fn keys(c: &mut Criterion) {
    let mut g = c.benchmark_group("usm_key_from_password");
    g.sample_size(10);
    for p in AuthProtocol::ALL {
        g.bench_function(BenchmarkId::from_parameter(p.name()), |b| {
            b.iter(|| Key::localized(p, std::hint::black_box(b"authpassword"), ENGINE))
        });
    }
    g.finish();
}

fn auth(c: &mut Criterion) {
    let mut g = c.benchmark_group("usm_verify_100_octets");
    let mut message: Vec<u8> = (0..100u8).collect();
    for p in AuthProtocol::ALL {
        let key = Key::localized(p, b"authpassword", ENGINE).expect("a long password");
        let at = 40..40 + p.mac_len();
        usm::sign(p, &key, &mut message, at.clone()).expect("in range");
        g.bench_function(BenchmarkId::from_parameter(p.name()), |b| {
            b.iter(|| usm::verify(p, &key, std::hint::black_box(&message), at.clone()))
        });
    }
    g.finish();
}

fn privacy(c: &mut Criterion) {
    let mut g = c.benchmark_group("usm_decrypt_100_octets");
    let key =
        Key::localized(AuthProtocol::Sha512, b"privpassword", ENGINE).expect("a long password");
    let plain = [0x30u8; 100];
    let salt = [1, 2, 3, 4, 5, 6, 7, 8];
    for p in PrivProtocol::ALL {
        let cipher = usm::encrypt(p, &key, 7, 1234, &salt, &plain).expect("a long key");
        g.bench_function(BenchmarkId::from_parameter(p.name()), |b| {
            b.iter(|| usm::decrypt(p, &key, 7, 1234, &salt, std::hint::black_box(&cipher)))
        });
    }
    g.finish();
}

criterion_group!(benches, keys, auth, privacy);
criterion_main!(benches);
