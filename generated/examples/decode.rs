//! Decodes SNMP messages given as hex (arguments, or one per line on standard input) and prints
//! them: version, community or v3 header, PDU and bindings.
//!
//! ```text
//! cargo run -p snmp-messages --example decode -- 302902010004067075626c6963a01c...
//! ```

use std::io::BufRead;
use std::process::ExitCode;

use snmp_ber::{Decode, DecodeError};
use snmp_messages::snmpv2_pdu::{Pdus, VarBindValue};
use snmp_messages::snmpv2_smi::{ApplicationSyntax, ObjectSyntax, SimpleSyntax};
use snmp_messages::snmpv3_message_syntax::{ScopedPduData, Snmpv3Message};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;
use snmp_messages::{community_based_snmpv2, rfc1157_snmp};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: Vec<String> = if args.is_empty() {
        std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect()
    } else {
        args
    };
    let mut failed = false;
    for (n, line) in inputs.iter().enumerate() {
        let hex: String = line.chars().filter(|c| c.is_ascii_hexdigit()).collect();
        if hex.is_empty() {
            continue;
        }
        let bytes = match decode_hex(&hex) {
            Some(b) => b,
            None => {
                eprintln!("input {}: odd number of hex digits", n + 1);
                failed = true;
                continue;
            }
        };
        if let Err(e) = print_message(&bytes) {
            eprintln!("input {}: {e}", n + 1);
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

/// The version: the first INTEGER inside the outer SEQUENCE.
fn version(bytes: &[u8]) -> Result<i64, DecodeError> {
    let mut r = snmp_ber::Reader::new(bytes);
    let mut seq = r.read_constructed(0x30, "SEQUENCE (0x30)")?;
    let c = seq.read_tlv(0x02, "INTEGER (0x02)")?;
    snmp_ber::int_i64(&seq, c)
}

fn print_message(bytes: &[u8]) -> Result<(), DecodeError> {
    match version(bytes)? {
        0 => {
            let m = rfc1157_snmp::Message::from_ber(bytes)?;
            println!(
                "SNMPv1 community={:?}",
                String::from_utf8_lossy(m.community)
            );
            println!("  {:?}", m.data);
        }
        3 => {
            let m = Snmpv3Message::from_ber(bytes)?;
            let h = m.msg_global_data;
            println!(
                "SNMPv3 msgID={} maxSize={} flags={:#04x} securityModel={}",
                h.msg_id, h.msg_max_size, h.msg_flags[0], h.msg_security_model
            );
            if let Ok(usm) = UsmSecurityParameters::from_ber(m.msg_security_parameters) {
                println!(
                    "  USM engineID={} boots={} time={} user={:?}",
                    hex(usm.msg_authoritative_engine_id),
                    usm.msg_authoritative_engine_boots,
                    usm.msg_authoritative_engine_time,
                    String::from_utf8_lossy(usm.msg_user_name)
                );
            }
            match m.msg_data {
                ScopedPduData::Plaintext(s) => {
                    println!(
                        "  contextEngineID={} contextName={:?}",
                        hex(s.context_engine_id),
                        String::from_utf8_lossy(s.context_name)
                    );
                    print_pdus(&s.data);
                }
                ScopedPduData::EncryptedPdu(e) => {
                    println!("  encrypted scoped PDU, {} octets", e.len())
                }
            }
        }
        _ => {
            let m = community_based_snmpv2::Message::from_ber(bytes)?;
            println!(
                "SNMPv2c community={:?}",
                String::from_utf8_lossy(m.community)
            );
            print_pdus(&m.data);
        }
    }
    Ok(())
}

fn print_pdus(pdus: &Pdus<'_>) {
    let (kind, pdu) = match pdus {
        Pdus::GetRequest(p) => ("get", p.0),
        Pdus::GetNextRequest(p) => ("getnext", p.0),
        Pdus::Response(p) => ("response", p.0),
        Pdus::SetRequest(p) => ("set", p.0),
        Pdus::InformRequest(p) => ("inform", p.0),
        Pdus::SnmpV2Trap(p) => ("trap", p.0),
        Pdus::Report(p) => ("report", p.0),
        Pdus::GetBulkRequest(b) => {
            let b = b.0;
            println!(
                "  getbulk request-id={} non-repeaters={} max-repetitions={}",
                b.request_id, b.non_repeaters, b.max_repetitions
            );
            print_bindings(b.variable_bindings);
            return;
        }
    };
    println!(
        "  {kind} request-id={} error-status={:?} error-index={}",
        pdu.request_id, pdu.error_status, pdu.error_index
    );
    print_bindings(pdu.variable_bindings);
}

fn print_bindings(list: snmp_messages::snmpv2_pdu::VarBindList<'_>) {
    for vb in list.0.iter() {
        match vb {
            Ok(vb) => println!("    {} = {}", vb.name.0, value(&vb.value)),
            Err(e) => println!("    error: {e}"),
        }
    }
}

fn value(v: &VarBindValue<'_>) -> String {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(s)) => match s {
            SimpleSyntax::IntegerValue(i) => format!("INTEGER: {i}"),
            SimpleSyntax::StringValue(b) => match std::str::from_utf8(b) {
                Ok(t) if t.chars().all(|c| !c.is_control()) => format!("STRING: {t:?}"),
                _ => format!("Hex-STRING: {}", hex(b)),
            },
            SimpleSyntax::ObjectIdValue(o) => format!("OID: {o}"),
        },
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a)) => match a {
            ApplicationSyntax::IpAddressValue(ip) => {
                format!("IpAddress: {}.{}.{}.{}", ip.0[0], ip.0[1], ip.0[2], ip.0[3])
            }
            ApplicationSyntax::CounterValue(c) => format!("Counter32: {}", c.0),
            ApplicationSyntax::TimeticksValue(t) => format!("Timeticks: {}", t.0),
            ApplicationSyntax::ArbitraryValue(o) => format!("Opaque: {}", hex(o.0)),
            ApplicationSyntax::BigCounterValue(c) => format!("Counter64: {}", c.0),
            ApplicationSyntax::UnsignedIntegerValue(g) => format!("Gauge32: {}", g.0),
        },
        VarBindValue::UnSpecified => "NULL".into(),
        VarBindValue::NoSuchObject => "noSuchObject".into(),
        VarBindValue::NoSuchInstance => "noSuchInstance".into(),
        VarBindValue::EndOfMibView => "endOfMibView".into(),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
