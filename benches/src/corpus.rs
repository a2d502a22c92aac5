//! The corpus workload: decode every captured message in corpus/vectors (v1, v2c and v3).

use std::hint::black_box;
use std::time::Duration;

use snmp_ber::Decode;
use snmp_messages::snmpv3_message_syntax::{ScopedPduData, Snmpv3Message};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;
use snmp_messages::{community_based_snmpv2, rfc1157_snmp, snmpv2_pdu};

use crate::impls::{Codec, Job};
use crate::measure;

/// The captured messages.
pub fn messages() -> Vec<Vec<u8>> {
    include_str!("../../corpus/vectors/netsnmp-5.9.3.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once(' '))
        .map(|(_, hex)| {
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                .collect()
        })
        .collect()
}

/// One implementation's pass over the corpus.
#[derive(Debug, Clone)]
pub struct CorpusResult {
    /// Implementation.
    pub imp: &'static str,
    /// Messages decoded per pass.
    pub messages: usize,
    /// Nanoseconds per pass.
    pub timing: measure::Timing,
}

fn version(bytes: &[u8]) -> Option<i64> {
    let mut r = snmp_ber::Reader::new(bytes);
    let mut seq = r.read_constructed(0x30, "SEQUENCE").ok()?;
    let c = seq.read_tlv(0x02, "INTEGER").ok()?;
    snmp_ber::int_i64(&seq, c).ok()
}

fn bindings_v2(pdus: &snmpv2_pdu::Pdus<'_>) -> usize {
    use snmpv2_pdu::Pdus::*;
    let list = match pdus {
        GetRequest(p) => p.0.variable_bindings,
        GetNextRequest(p) => p.0.variable_bindings,
        Response(p) => p.0.variable_bindings,
        SetRequest(p) => p.0.variable_bindings,
        InformRequest(p) => p.0.variable_bindings,
        SnmpV2Trap(p) => p.0.variable_bindings,
        Report(p) => p.0.variable_bindings,
        GetBulkRequest(p) => p.0.variable_bindings,
    };
    list.0.iter().filter(|vb| black_box(vb).is_ok()).count()
}

/// Decodes one message of any version with the generated codec; the number of bindings read.
fn generated(bytes: &[u8]) -> Option<usize> {
    match version(bytes)? {
        0 => {
            let m = rfc1157_snmp::Message::from_ber(bytes).ok()?;
            use rfc1157_snmp::Pdus::*;
            let list = match m.data {
                GetRequest(p) => p.0.variable_bindings,
                GetNextRequest(p) => p.0.variable_bindings,
                GetResponse(p) => p.0.variable_bindings,
                SetRequest(p) => p.0.variable_bindings,
                Trap(t) => t.variable_bindings,
            };
            Some(list.0.iter().filter(|vb| black_box(vb).is_ok()).count())
        }
        1 => Some(bindings_v2(
            &community_based_snmpv2::Message::from_ber(bytes).ok()?.data,
        )),
        3 => {
            let m = Snmpv3Message::from_ber(bytes).ok()?;
            let usm = UsmSecurityParameters::from_ber(m.msg_security_parameters).ok()?;
            black_box(usm);
            match m.msg_data {
                ScopedPduData::Plaintext(s) => Some(bindings_v2(&s.data)),
                ScopedPduData::EncryptedPdu(e) => {
                    black_box(e);
                    Some(0)
                }
            }
        }
        _ => None,
    }
}

/// A recursive TLV walk (the floor), depth-bounded.
fn walk(mut buf: &[u8], depth: usize) -> Option<usize> {
    let mut n = 0;
    while !buf.is_empty() {
        let mut r = snmp_ber::Reader::new(buf);
        let any = r.read_any().ok()?;
        n += 1;
        if any.is_constructed() && depth < 8 {
            n += walk(any.contents(), depth + 1)?;
        }
        buf = r.remaining();
    }
    Some(n)
}

/// Times a pass over the corpus for the implementations that can decode all of it.
pub fn run(
    impls: &[Box<dyn Codec>],
    budget: Duration,
    notes: &mut Vec<String>,
) -> Vec<CorpusResult> {
    let msgs = messages();
    let mut out = Vec::new();
    let mut add = |name: &'static str, mut job: Job<'_>| {
        let timing = measure::time(&mut job, budget);
        out.push(CorpusResult {
            imp: name,
            messages: msgs.len(),
            timing,
        });
    };
    if msgs.iter().all(|m| generated(m).is_some()) {
        add(
            "snmp-codegen",
            Box::new(|| {
                msgs.iter()
                    .map(|m| generated(black_box(m)).unwrap_or(0))
                    .sum()
            }),
        );
    } else {
        notes.push("corpus: snmp-codegen failed to decode a captured message".into());
    }
    add(
        "floor",
        Box::new(|| {
            msgs.iter()
                .map(|m| walk(black_box(m), 0).unwrap_or(0))
                .sum()
        }),
    );
    if impls.iter().any(|i| i.name() == "snmp-parser") {
        let ok = msgs
            .iter()
            .filter(|m| snmp_parser::parse_snmp_generic_message(m).is_ok())
            .count();
        if ok == msgs.len() {
            add(
                "snmp-parser",
                Box::new(|| {
                    msgs.iter()
                        .map(|m| {
                            snmp_parser::parse_snmp_generic_message(black_box(m))
                                .map(|_| 1)
                                .unwrap_or(0)
                        })
                        .sum()
                }),
            );
        } else {
            notes.push(format!(
                "corpus: snmp-parser decodes {ok} of {} captured messages; not timed",
                msgs.len()
            ));
        }
    }
    out
}
