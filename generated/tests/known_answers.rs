//! Known-answer tests: packets sent and received by net-snmp's tools decode to the values
//! net-snmp printed for them, and re-encode to the same octets.

mod common;

use common::{assert_round_trip, vector, vectors};
use snmp_ber::Decode;
use snmp_messages::community_based_snmpv2 as v2c;
use snmp_messages::rfc1155_smi as smi1;
use snmp_messages::rfc1157_snmp as v1;
use snmp_messages::snmpv2_pdu::{self as pdu, Pdus, VarBind, VarBindValue};
use snmp_messages::snmpv2_smi::{ApplicationSyntax, ObjectSyntax, SimpleSyntax};
use snmp_messages::snmpv3_message_syntax::{ScopedPduData, Snmpv3Message};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;

fn v2_pdu<'a>(pdus: &Pdus<'a>) -> (u8, pdu::Pdu<'a>) {
    match *pdus {
        Pdus::GetRequest(p) => (0, p.0),
        Pdus::GetNextRequest(p) => (1, p.0),
        Pdus::Response(p) => (2, p.0),
        Pdus::SetRequest(p) => (3, p.0),
        Pdus::InformRequest(p) => (6, p.0),
        Pdus::SnmpV2Trap(p) => (7, p.0),
        Pdus::Report(p) => (8, p.0),
        Pdus::GetBulkRequest(_) => panic!("bulk has no PDU"),
    }
}

fn bindings<'a>(p: &pdu::Pdu<'a>) -> Vec<VarBind<'a>> {
    p.variable_bindings
        .0
        .iter()
        .collect::<Result<_, _>>()
        .expect("bindings decode")
}

fn text(v: &VarBindValue<'_>) -> String {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(s))) => {
            format!("STRING: {}", String::from_utf8_lossy(s))
        }
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(i))) => {
            format!("INTEGER: {i}")
        }
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(o))) => {
            format!("OID: {o}")
        }
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a)) => match a {
            ApplicationSyntax::IpAddressValue(ip) => {
                format!("IpAddress: {}.{}.{}.{}", ip.0[0], ip.0[1], ip.0[2], ip.0[3])
            }
            ApplicationSyntax::CounterValue(c) => format!("Counter32: {}", c.0),
            ApplicationSyntax::TimeticksValue(t) => format!("Timeticks: ({})", t.0),
            ApplicationSyntax::ArbitraryValue(o) => format!("Opaque: {:?}", o.0),
            ApplicationSyntax::BigCounterValue(c) => format!("Counter64: {}", c.0),
            ApplicationSyntax::UnsignedIntegerValue(g) => format!("Gauge32: {}", g.0),
        },
        VarBindValue::UnSpecified => "NULL".into(),
        VarBindValue::NoSuchObject => "No Such Object".into(),
        VarBindValue::NoSuchInstance => "No Such Instance".into(),
        VarBindValue::EndOfMibView => "End of MIB View".into(),
    }
}

#[test]
fn every_vector_decodes_and_re_encodes_byte_exact() {
    let all = vectors();
    assert!(all.len() >= 30, "only {} vectors", all.len());
    for (name, bytes) in &all {
        match common::message_version(bytes) {
            0 => {
                assert_round_trip::<v1::Message>(bytes).validate().unwrap();
            }
            1 => {
                assert_round_trip::<v2c::Message>(bytes).validate().unwrap();
            }
            3 => {
                let m: Snmpv3Message = assert_round_trip(bytes);
                assert_round_trip::<UsmSecurityParameters>(m.msg_security_parameters);
            }
            other => panic!("{name}: version {other}"),
        }
    }
}

#[test]
fn v2c_get_response_values() {
    let m = v2c::Message::from_ber(vector("v2c-counter64-response")).unwrap();
    assert_eq!(m.version.0, 1);
    assert_eq!(m.version.name(), Some("version"));
    assert_eq!(m.community, b"public");
    let (kind, p) = v2_pdu(&m.data);
    assert_eq!(kind, 2);
    assert_eq!(p.request_id, 0x5a9a44db);
    assert_eq!(p.error_status, pdu::PduErrorStatus::NO_ERROR);
    assert_eq!(p.error_index, 0);
    let got: Vec<(String, String)> = bindings(&p)
        .iter()
        .map(|vb| (vb.name.0.to_string(), text(&vb.value)))
        .collect();
    assert_eq!(
        got,
        [
            (
                "1.3.6.1.2.1.31.1.1.1.6.1".to_string(),
                "Counter64: 4554".to_string()
            ),
            (
                "1.3.6.1.2.1.4.20.1.1.127.0.0.1".to_string(),
                "IpAddress: 127.0.0.1".to_string()
            ),
            (
                "1.3.6.1.2.1.1.2.0".to_string(),
                "OID: 1.3.6.1.4.1.8072.3.2.10".to_string()
            ),
        ]
    );
}

#[test]
fn v2c_exceptions_and_errors() {
    let m = v2c::Message::from_ber(vector("v2c-nosuch-response")).unwrap();
    let (_, p) = v2_pdu(&m.data);
    let v: Vec<String> = bindings(&p).iter().map(|vb| text(&vb.value)).collect();
    assert_eq!(v, ["No Such Object", "No Such Object"]);

    let m = v2c::Message::from_ber(vector("v2c-endofmib-response")).unwrap();
    let (_, p) = v2_pdu(&m.data);
    assert_eq!(text(&bindings(&p)[0].value), "End of MIB View");

    let m = v2c::Message::from_ber(vector("v2c-notwritable-response")).unwrap();
    let (_, p) = v2_pdu(&m.data);
    assert_eq!(p.error_status, pdu::PduErrorStatus::NOT_WRITABLE);
    assert_eq!(format!("{:?}", p.error_status), "notWritable(17)");
    assert_eq!(p.error_index, 1);

    let m = v2c::Message::from_ber(vector("v2c-nosuch-request")).unwrap();
    let (kind, p) = v2_pdu(&m.data);
    assert_eq!(kind, 0);
    assert!(bindings(&p)
        .iter()
        .all(|vb| vb.value == VarBindValue::UnSpecified));
}

#[test]
fn v2c_getbulk_trap_and_inform() {
    let m = v2c::Message::from_ber(vector("v2c-getbulk-request")).unwrap();
    let Pdus::GetBulkRequest(b) = m.data else {
        panic!("{:?}", m.data)
    };
    assert_eq!((b.0.non_repeaters, b.0.max_repetitions), (1, 2));
    assert_eq!(b.0.variable_bindings.0.len(), 2);

    let m = v2c::Message::from_ber(vector("v2c-getbulk-response")).unwrap();
    let (_, p) = v2_pdu(&m.data);
    let got: Vec<String> = bindings(&p)
        .iter()
        .map(|vb| format!("{} = {}", vb.name.0, text(&vb.value)))
        .collect();
    assert_eq!(
        got,
        [
            "1.3.6.1.2.1.1.3.0 = Timeticks: (772)",
            "1.3.6.1.2.1.2.2.1.2.1 = STRING: lo",
            "1.3.6.1.2.1.2.2.1.2.2 = STRING: ifb0",
        ]
    );

    let m = v2c::Message::from_ber(vector("v2c-trap-request")).unwrap();
    let (kind, p) = v2_pdu(&m.data);
    assert_eq!(kind, 7);
    let vbs = bindings(&p);
    assert_eq!(vbs[0].name.0.to_string(), "1.3.6.1.2.1.1.3.0");
    assert_eq!(text(&vbs[0].value), "Timeticks: (123)");
    assert_eq!(vbs[1].name.0.to_string(), "1.3.6.1.6.3.1.1.4.1.0");
    assert_eq!(text(&vbs[1].value), "OID: 1.3.6.1.6.3.1.1.5.1");
    assert_eq!(text(&vbs[2].value), "STRING: trapped");

    let m = v2c::Message::from_ber(vector("v2c-inform-request")).unwrap();
    assert_eq!(v2_pdu(&m.data).0, 6);
}

#[test]
fn v1_messages() {
    let m = v1::Message::from_ber(vector("v1-get-response")).unwrap();
    assert_eq!(m.version, v1::MessageVersion::VERSION_1);
    let v1::Pdus::GetResponse(r) = m.data else {
        panic!()
    };
    let vb: Vec<v1::VarBind> =
        r.0.variable_bindings
            .0
            .iter()
            .collect::<Result<_, _>>()
            .unwrap();
    assert_eq!(vb[0].name.0.to_string(), "1.3.6.1.2.1.1.5.0");
    assert_eq!(
        vb[0].value,
        smi1::ObjectSyntax::Simple(smi1::SimpleSyntax::String(b"vm"))
    );

    let m = v1::Message::from_ber(vector("v1-nosuchname-response")).unwrap();
    let v1::Pdus::GetResponse(r) = m.data else {
        panic!()
    };
    assert_eq!(r.0.error_status, v1::PduErrorStatus::NO_SUCH_NAME);
    assert_eq!(r.0.error_index, 1);

    let m = v1::Message::from_ber(vector("v1-trap-request")).unwrap();
    let v1::Pdus::Trap(t) = m.data else { panic!() };
    assert_eq!(t.enterprise.to_string(), "1.3.6.1.4.1.8072.2.3");
    assert_eq!(
        t.agent_addr,
        smi1::NetworkAddress::Internet(smi1::IpAddress([127, 0, 0, 1]))
    );
    assert_eq!(t.generic_trap, v1::TrapPduGenericTrap::ENTERPRISE_SPECIFIC);
    assert_eq!(t.specific_trap, 17);
    assert_eq!(t.time_stamp.0, 1234);
    assert_eq!(t.variable_bindings.0.len(), 1);

    let m = v1::Message::from_ber(vector("v1-set-request")).unwrap();
    assert_eq!(m.community, b"private");
    assert!(matches!(m.data, v1::Pdus::SetRequest(_)));
    let m = v1::Message::from_ber(vector("v1-getnext-request")).unwrap();
    assert!(matches!(m.data, v1::Pdus::GetNextRequest(_)));
}

#[test]
fn v3_discovery_report_and_authenticated_get() {
    // Discovery: noAuthNoPriv, reportable, empty engine ID and user.
    let m = Snmpv3Message::from_ber(vector("v3-auth-request")).unwrap();
    assert_eq!(m.msg_version, 3);
    assert_eq!(m.msg_global_data.msg_flags, [0x04]);
    assert_eq!(m.msg_global_data.msg_security_model, 3);
    assert_eq!(m.msg_global_data.msg_max_size, 65507);
    let usm = UsmSecurityParameters::from_ber(m.msg_security_parameters).unwrap();
    assert!(usm.msg_authoritative_engine_id.is_empty() && usm.msg_user_name.is_empty());

    // The Report carries the engine ID, boots and time, and usmStatsUnknownEngineIDs.
    let m = Snmpv3Message::from_ber(vector("v3-auth-response")).unwrap();
    let usm = UsmSecurityParameters::from_ber(m.msg_security_parameters).unwrap();
    assert_eq!(
        hex::encode(usm.msg_authoritative_engine_id),
        "80001f880438303030303030303031303230333034"
    );
    let ScopedPduData::Plaintext(scoped) = m.msg_data else {
        panic!()
    };
    let (kind, p) = v2_pdu(&scoped.data);
    assert_eq!(kind, 8);
    assert_eq!(bindings(&p)[0].name.0.to_string(), "1.3.6.1.6.3.15.1.1.4.0");

    // authNoPriv: the HMAC sits in msgAuthenticationParameters, 12 octets for HMAC-SHA-96, and its
    // offset in the message is recoverable from the borrowed slice.
    let bytes = vector("v3-auth-request2");
    let m = Snmpv3Message::from_ber(bytes).unwrap();
    assert_eq!(m.msg_global_data.msg_flags, [0x05]);
    let usm = UsmSecurityParameters::from_ber(m.msg_security_parameters).unwrap();
    assert_eq!(usm.msg_user_name, b"authuser");
    assert_eq!(usm.msg_authentication_parameters.len(), 12);
    let offset = usm.msg_authentication_parameters.as_ptr() as usize - bytes.as_ptr() as usize;
    assert_eq!(
        &bytes[offset..offset + 12],
        usm.msg_authentication_parameters
    );
    let ScopedPduData::Plaintext(scoped) = m.msg_data else {
        panic!()
    };
    assert_eq!(v2_pdu(&scoped.data).0, 0);

    // authPriv: the scoped PDU is an encrypted OCTET STRING; AES's salt is 8 octets.
    let m = Snmpv3Message::from_ber(vector("v3-priv-response2")).unwrap();
    assert_eq!(m.msg_global_data.msg_flags, [0x03]);
    let usm = UsmSecurityParameters::from_ber(m.msg_security_parameters).unwrap();
    assert_eq!(usm.msg_user_name, b"privuser");
    assert_eq!(usm.msg_privacy_parameters.len(), 8);
    assert!(matches!(m.msg_data, ScopedPduData::EncryptedPdu(_)));
}
