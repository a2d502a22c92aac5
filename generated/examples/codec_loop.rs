//! Decodes (or encodes) one v2c GetResponse of N bindings `iterations` times: a fixed workload
//! for instruction counting under callgrind, e.g.
//!
//! ```text
//! valgrind --tool=callgrind cargo run --release -p snmp-messages --example codec_loop -- decode 10 1000
//! ```
//!
//! The difference between two iteration counts, divided by their difference, is the cost of one
//! operation with start-up removed.

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let op = args.first().map(String::as_str).unwrap_or("decode");
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let iterations: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);

    let names: Vec<OidBuf> = (0..n)
        .map(|i| {
            format!("1.3.6.1.2.1.2.2.1.{}.{}", 10 + i % 8, i / 8 + 1)
                .parse()
                .unwrap()
        })
        .collect();
    let values = |i: usize| -> ObjectSyntax<'static> {
        match i % 8 {
            0 => ObjectSyntax::ApplicationWide(ApplicationSyntax::CounterValue(Counter32(
                3_000_000_000,
            ))),
            1 => ObjectSyntax::ApplicationWide(ApplicationSyntax::UnsignedIntegerValue(
                Unsigned32(1_000_000_000),
            )),
            2 => {
                ObjectSyntax::ApplicationWide(ApplicationSyntax::TimeticksValue(TimeTicks(123_456)))
            }
            3 => ObjectSyntax::Simple(SimpleSyntax::StringValue(b"GigabitEthernet0/1")),
            4 => ObjectSyntax::ApplicationWide(ApplicationSyntax::IpAddressValue(IpAddress([
                10, 0, 0, 1,
            ]))),
            5 => ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(
                snmp_ber::Oid::from_ber_unchecked(&[0x2b, 6, 1, 4, 1, 9, 1, 1]),
            )),
            6 => ObjectSyntax::ApplicationWide(ApplicationSyntax::BigCounterValue(Counter64(
                (1 << 63) + 5,
            ))),
            _ => ObjectSyntax::Simple(SimpleSyntax::IntegerValue(1)),
        }
    };
    let vbs: Vec<VarBind> = names
        .iter()
        .enumerate()
        .map(|(i, name)| VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::Value(values(i)),
        })
        .collect();
    let msg = Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id: 1_234_567,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    };
    let encoded = msg.to_ber().unwrap();
    let mut buf = vec![0u8; 65536];
    let mut check = 0usize;
    for _ in 0..iterations {
        match op {
            "encode" => {
                let out = std::hint::black_box(&msg)
                    .encode_to_slice(&mut buf)
                    .unwrap();
                check = check.wrapping_add(out.len());
            }
            _ => {
                let m = Message::from_ber(std::hint::black_box(&encoded)).unwrap();
                if let Pdus::Response(r) = m.data {
                    for vb in r.0.variable_bindings.0.iter() {
                        let vb = vb.unwrap();
                        check = check.wrapping_add(vb.name.0.as_ber().len());
                        if let VarBindValue::Value(v) = vb.value {
                            std::hint::black_box(v);
                        }
                    }
                }
            }
        }
    }
    println!(
        "{op} {n} bindings x {iterations}: {} octets, check {check}",
        encoded.len()
    );
}
