//! Criterion benches for the charts and regression history: the same workloads as
//! `snmp-bench` (its `workload` module: realistic names, 1/10/50 bindings), snmp-codegen only
//! (the side-by-side comparison is `cargo run -p snmp-bench`).

#[path = "../src/workload.rs"]
#[allow(dead_code)]
mod workload;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use snmp_ber::{Decode, Encode};
use snmp_messages::community_based_snmpv2::Message;
use snmp_messages::snmpv2_pdu::Pdus;

fn codec(c: &mut Criterion) {
    let mut group = c.benchmark_group("v2c-response");
    for n in [1usize, 10, 50] {
        let w = workload::build(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("decode", n), &w.msg, |b, bytes| {
            b.iter(|| {
                let m = Message::from_ber(std::hint::black_box(bytes)).unwrap();
                let Pdus::Response(r) = m.data else {
                    unreachable!()
                };
                r.0.variable_bindings
                    .0
                    .iter()
                    .filter(|vb| vb.is_ok())
                    .count()
            })
        });
        group.bench_with_input(BenchmarkId::new("decode-owned", n), &w.msg, |b, bytes| {
            b.iter(|| {
                let m = Message::from_ber(std::hint::black_box(bytes)).unwrap();
                let Pdus::Response(r) = m.data else {
                    unreachable!()
                };
                snmp_client::VarBind::list_from_wire(&r.0.variable_bindings)
                    .unwrap()
                    .len()
            })
        });
        let arcs = workload::arc_bindings(&w.expected);
        let owned = workload::Owned::from_arcs(&arcs).unwrap();
        let vbs = owned.var_binds();
        let mut buf = vec![0u8; 65536];
        group.bench_with_input(BenchmarkId::new("encode", n), &vbs, |b, vbs| {
            b.iter(|| {
                workload::message(workload::response(std::hint::black_box(vbs)))
                    .encode_to_slice(&mut buf)
                    .map(|o| o.len())
                    .unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("encode-arcs", n), &arcs, |b, arcs| {
            b.iter(|| {
                let owned = workload::Owned::from_arcs(std::hint::black_box(arcs)).unwrap();
                workload::message(workload::response(&owned.var_binds()))
                    .to_ber()
                    .unwrap()
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
