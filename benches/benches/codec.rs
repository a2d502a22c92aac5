//! Criterion benches for the charts and regression history: the same workloads as
//! `snmp-bench`, snmp-codegen only (the side-by-side comparison is `cargo run -p snmp-bench`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::*;

fn message_bytes(n: usize) -> (Vec<OidBuf>, Vec<u8>) {
    let names: Vec<OidBuf> = (0..n)
        .map(|i| format!("1.3.6.1.2.1.2.2.1.10.{}", i + 1).parse().unwrap())
        .collect();
    let vbs: Vec<VarBind> = names
        .iter()
        .enumerate()
        .map(|(i, name)| VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::CounterValue(Counter32(3_000_000_000 + i as u32)),
            )),
        })
        .collect();
    let bytes = build(&vbs).to_ber().unwrap();
    (names, bytes)
}

fn build<'a>(vbs: &'a [VarBind<'a>]) -> Message<'a> {
    Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id: 1,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(vbs)),
        })),
    }
}

fn codec(c: &mut Criterion) {
    let mut group = c.benchmark_group("v2c-response");
    for n in [1usize, 10, 50] {
        let (_names, bytes) = message_bytes(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("decode", n), &bytes, |b, bytes| {
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
        let decoded = Message::from_ber(&bytes).unwrap();
        let Pdus::Response(r) = decoded.data else {
            unreachable!()
        };
        let vbs: Vec<VarBind> =
            r.0.variable_bindings
                .0
                .iter()
                .map(|vb| vb.unwrap())
                .collect();
        let mut buf = vec![0u8; 65536];
        group.bench_with_input(BenchmarkId::new("encode", n), &vbs, |b, vbs| {
            b.iter(|| {
                build(std::hint::black_box(vbs))
                    .encode_to_slice(&mut buf)
                    .map(|o| o.len())
                    .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
