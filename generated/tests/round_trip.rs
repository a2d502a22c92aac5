//! Property tests: for every generated type, canonical BER built from random values decodes, and
//! re-encodes to exactly the same octets. The strategies below build the encodings from the ASN.1
//! definitions independently of the generated code (tags, lengths and ranges written out here).

mod common;

use common::{int, seq, tlv};
use proptest::collection::vec;
use proptest::prelude::*;
use snmp_ber::{Decode, Encode};

fn check<'a, T: Decode<'a> + Encode + std::fmt::Debug + PartialEq>(
    bytes: &'a [u8],
) -> Result<(), TestCaseError> {
    let value =
        T::from_ber(bytes).map_err(|e| TestCaseError::fail(format!("{}: {e}", T::ASN1_NAME)))?;
    let again = value
        .to_ber()
        .map_err(|e| TestCaseError::fail(format!("{}: {e}", T::ASN1_NAME)))?;
    prop_assert_eq!(
        hex_of(&again),
        hex_of(bytes),
        "{} {:?}",
        T::ASN1_NAME,
        value
    );
    Ok(())
}

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

// ---- primitives --------------------------------------------------------------------------

fn integer(tag: u8, lo: i128, hi: i128) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        3 => lo..=hi,
        1 => Just(lo),
        1 => Just(hi),
    ]
    .prop_map(move |v| int(tag, v))
    .boxed()
}

fn octets(tag: u8, min: usize, max: usize) -> BoxedStrategy<Vec<u8>> {
    vec(any::<u8>(), min..=max)
        .prop_map(move |b| tlv(tag, &b))
        .boxed()
}

fn oid_ber() -> BoxedStrategy<Vec<u8>> {
    (
        0u32..3,
        0u32..40,
        vec(prop_oneof![0u32..128, any::<u32>()], 0..12),
    )
        .prop_map(|(a, b, rest)| {
            let mut arcs = vec![a, b];
            arcs.extend(rest);
            let o = snmp_ber::OidBuf::from_arcs(&arcs).expect("valid arcs");
            tlv(0x06, o.as_oid().as_ber())
        })
        .boxed()
}

fn null(tag: u8) -> BoxedStrategy<Vec<u8>> {
    Just(vec![tag, 0]).boxed()
}

const I32: (i128, i128) = (i32::MIN as i128, i32::MAX as i128);
const U32: (i128, i128) = (0, u32::MAX as i128);
const I64: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);
const U64: (i128, i128) = (0, u64::MAX as i128);
const NON_NEG: (i128, i128) = (0, i32::MAX as i128);

fn with_tag(tag: u8, contents: BoxedStrategy<Vec<u8>>) -> BoxedStrategy<Vec<u8>> {
    contents.prop_map(move |c| tlv(tag, &c)).boxed()
}

fn list(item: BoxedStrategy<Vec<u8>>) -> BoxedStrategy<Vec<u8>> {
    vec(item, 0..6).prop_map(|items| seq(&items)).boxed()
}

// ---- SNMPv2-SMI (RFC 2578) -----------------------------------------------------------------

fn v2_simple() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![integer(0x02, I32.0, I32.1), octets(0x04, 0, 40), oid_ber()].boxed()
}

fn v2_application() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        octets(0x40, 4, 4),
        integer(0x41, U32.0, U32.1),
        integer(0x43, U32.0, U32.1),
        octets(0x44, 0, 16),
        integer(0x46, U64.0, U64.1),
        integer(0x42, U32.0, U32.1),
    ]
    .boxed()
}

fn v2_object_syntax() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![v2_simple(), v2_application()].boxed()
}

// ---- SNMPv2-PDU (RFC 3416) -----------------------------------------------------------------

fn v2_varbind_value() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![4 => v2_object_syntax(), 1 => null(0x05), 1 => null(0x80), 1 => null(0x81), 1 => null(0x82)].boxed()
}

fn v2_varbind() -> BoxedStrategy<Vec<u8>> {
    (oid_ber(), v2_varbind_value())
        .prop_map(|(n, v)| seq(&[n, v]))
        .boxed()
}

fn v2_pdu_contents() -> BoxedStrategy<Vec<u8>> {
    (
        integer(0x02, I32.0, I32.1),
        integer(0x02, I64.0, I64.1),
        integer(0x02, NON_NEG.0, NON_NEG.1),
        list(v2_varbind()),
    )
        .prop_map(|(a, b, c, d)| [a, b, c, d].concat())
        .boxed()
}

fn v2_bulk_contents() -> BoxedStrategy<Vec<u8>> {
    (
        integer(0x02, I32.0, I32.1),
        integer(0x02, NON_NEG.0, NON_NEG.1),
        integer(0x02, NON_NEG.0, NON_NEG.1),
        list(v2_varbind()),
    )
        .prop_map(|(a, b, c, d)| [a, b, c, d].concat())
        .boxed()
}

fn v2_pdu_with(tag: u8) -> BoxedStrategy<Vec<u8>> {
    with_tag(tag, v2_pdu_contents())
}

fn v2_pdus() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        v2_pdu_with(0xa0),
        v2_pdu_with(0xa1),
        with_tag(0xa5, v2_bulk_contents()),
        v2_pdu_with(0xa2),
        v2_pdu_with(0xa3),
        v2_pdu_with(0xa6),
        v2_pdu_with(0xa7),
        v2_pdu_with(0xa8),
    ]
    .boxed()
}

// ---- RFC1155-SMI and RFC1157-SNMP ----------------------------------------------------------

fn v1_object_syntax() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        integer(0x02, I64.0, I64.1),
        octets(0x04, 0, 40),
        oid_ber(),
        null(0x05),
        octets(0x40, 4, 4),
        integer(0x41, U32.0, U32.1),
        integer(0x42, U32.0, U32.1),
        integer(0x43, U32.0, U32.1),
        octets(0x44, 0, 16),
    ]
    .boxed()
}

fn v1_varbind() -> BoxedStrategy<Vec<u8>> {
    (oid_ber(), v1_object_syntax())
        .prop_map(|(n, v)| seq(&[n, v]))
        .boxed()
}

fn v1_pdu_contents() -> BoxedStrategy<Vec<u8>> {
    (
        integer(0x02, I64.0, I64.1),
        integer(0x02, I64.0, I64.1),
        integer(0x02, I64.0, I64.1),
        list(v1_varbind()),
    )
        .prop_map(|(a, b, c, d)| [a, b, c, d].concat())
        .boxed()
}

fn v1_trap_contents() -> BoxedStrategy<Vec<u8>> {
    (
        oid_ber(),
        octets(0x40, 4, 4),
        integer(0x02, I64.0, I64.1),
        integer(0x02, I64.0, I64.1),
        integer(0x43, U32.0, U32.1),
        list(v1_varbind()),
    )
        .prop_map(|(a, b, c, d, e, f)| [a, b, c, d, e, f].concat())
        .boxed()
}

fn v1_pdus() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        with_tag(0xa0, v1_pdu_contents()),
        with_tag(0xa1, v1_pdu_contents()),
        with_tag(0xa2, v1_pdu_contents()),
        with_tag(0xa3, v1_pdu_contents()),
        with_tag(0xa4, v1_trap_contents()),
    ]
    .boxed()
}

fn message_of(
    version: BoxedStrategy<Vec<u8>>,
    pdus: BoxedStrategy<Vec<u8>>,
) -> BoxedStrategy<Vec<u8>> {
    (version, octets(0x04, 0, 20), pdus)
        .prop_map(|(v, c, d)| seq(&[v, c, d]))
        .boxed()
}

// ---- SNMPv3 (RFC 3412, RFC 3414) -------------------------------------------------------------

fn v3_header() -> BoxedStrategy<Vec<u8>> {
    (
        integer(0x02, NON_NEG.0, NON_NEG.1),
        integer(0x02, 484, NON_NEG.1),
        octets(0x04, 1, 1),
        integer(0x02, 1, NON_NEG.1),
    )
        .prop_map(|(a, b, c, d)| seq(&[a, b, c, d]))
        .boxed()
}

fn v3_scoped_pdu() -> BoxedStrategy<Vec<u8>> {
    (octets(0x04, 0, 32), octets(0x04, 0, 16), v2_pdus())
        .prop_map(|(a, b, c)| seq(&[a, b, c]))
        .boxed()
}

fn v3_scoped_pdu_data() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![v3_scoped_pdu(), octets(0x04, 0, 64)].boxed()
}

fn usm() -> BoxedStrategy<Vec<u8>> {
    (
        octets(0x04, 0, 32),
        integer(0x02, NON_NEG.0, NON_NEG.1),
        integer(0x02, NON_NEG.0, NON_NEG.1),
        octets(0x04, 0, 32),
        octets(0x04, 0, 48),
        octets(0x04, 0, 16),
    )
        .prop_map(|(a, b, c, d, e, f)| seq(&[a, b, c, d, e, f]))
        .boxed()
}

fn v3_message() -> BoxedStrategy<Vec<u8>> {
    (
        integer(0x02, NON_NEG.0, NON_NEG.1),
        v3_header(),
        usm().prop_map(|u| tlv(0x04, &u)),
        v3_scoped_pdu_data(),
    )
        .prop_map(|(a, b, c, d)| seq(&[a, b, c, d]))
        .boxed()
}

/// One property per generated type: `round_trip!(test_name: Type = strategy)`.
macro_rules! round_trip {
    ($($name:ident : $ty:ty = $strategy:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            $(
                #[test]
                fn $name(bytes in $strategy) {
                    check::<$ty>(&bytes)?;
                }
            )*
        }
    };
}

mod v2_smi {
    use super::*;
    use snmp_messages::snmpv2_smi::*;
    round_trip! {
        ext_utc_time: ExtUtcTime = prop_oneof![octets(0x04, 11, 11), octets(0x04, 13, 13)];
        object_name: ObjectName = oid_ber();
        notification_name: NotificationName = oid_ber();
        object_syntax: ObjectSyntax = v2_object_syntax();
        simple_syntax: SimpleSyntax = v2_simple();
        integer32: Integer32 = integer(0x02, I32.0, I32.1);
        application_syntax: ApplicationSyntax = v2_application();
        ip_address: IpAddress = octets(0x40, 4, 4);
        counter32: Counter32 = integer(0x41, U32.0, U32.1);
        gauge32: Gauge32 = integer(0x42, U32.0, U32.1);
        unsigned32: Unsigned32 = integer(0x42, U32.0, U32.1);
        time_ticks: TimeTicks = integer(0x43, U32.0, U32.1);
        opaque: Opaque = octets(0x44, 0, 64);
        counter64: Counter64 = integer(0x46, U64.0, U64.1);
    }
}

mod v2_pdu {
    use super::*;
    use snmp_messages::snmpv2_pdu::*;
    round_trip! {
        pdus: Pdus = v2_pdus();
        get_request: GetRequestPdu = v2_pdu_with(0xa0);
        get_next_request: GetNextRequestPdu = v2_pdu_with(0xa1);
        response: ResponsePdu = v2_pdu_with(0xa2);
        set_request: SetRequestPdu = v2_pdu_with(0xa3);
        get_bulk_request: GetBulkRequestPdu = with_tag(0xa5, v2_bulk_contents());
        inform_request: InformRequestPdu = v2_pdu_with(0xa6);
        trap: Snmpv2TrapPdu = v2_pdu_with(0xa7);
        report: ReportPdu = v2_pdu_with(0xa8);
        pdu: Pdu = with_tag(0x30, v2_pdu_contents());
        bulk_pdu: BulkPdu = with_tag(0x30, v2_bulk_contents());
        var_bind: VarBind = v2_varbind();
        var_bind_list: VarBindList = list(v2_varbind());
        error_status: PduErrorStatus = integer(0x02, I64.0, I64.1);
        var_bind_value: VarBindValue = v2_varbind_value();
    }
}

mod v2c {
    use super::*;
    use snmp_messages::community_based_snmpv2::*;
    round_trip! {
        message: Message = message_of(integer(0x02, I64.0, I64.1), v2_pdus());
        message_version: MessageVersion = integer(0x02, I64.0, I64.1);
    }
}

mod v1_smi {
    use super::*;
    use snmp_messages::rfc1155_smi::*;
    round_trip! {
        object_name: ObjectName = oid_ber();
        object_syntax: ObjectSyntax = v1_object_syntax();
        simple_syntax: SimpleSyntax = prop_oneof![integer(0x02, I64.0, I64.1), octets(0x04, 0, 40), oid_ber(), null(0x05)];
        application_syntax: ApplicationSyntax = prop_oneof![octets(0x40, 4, 4), integer(0x41, U32.0, U32.1), integer(0x42, U32.0, U32.1), integer(0x43, U32.0, U32.1), octets(0x44, 0, 16)];
        network_address: NetworkAddress = octets(0x40, 4, 4);
        ip_address: IpAddress = octets(0x40, 4, 4);
        counter: Counter = integer(0x41, U32.0, U32.1);
        gauge: Gauge = integer(0x42, U32.0, U32.1);
        time_ticks: TimeTicks = integer(0x43, U32.0, U32.1);
        opaque: Opaque = octets(0x44, 0, 64);
    }
}

mod v1 {
    use super::*;
    use snmp_messages::rfc1157_snmp::*;
    round_trip! {
        message: Message = message_of(integer(0x02, I64.0, I64.1), v1_pdus());
        pdus: Pdus = v1_pdus();
        get_request: GetRequestPdu = with_tag(0xa0, v1_pdu_contents());
        get_next_request: GetNextRequestPdu = with_tag(0xa1, v1_pdu_contents());
        get_response: GetResponsePdu = with_tag(0xa2, v1_pdu_contents());
        set_request: SetRequestPdu = with_tag(0xa3, v1_pdu_contents());
        pdu: Pdu = with_tag(0x30, v1_pdu_contents());
        trap: TrapPdu = with_tag(0xa4, v1_trap_contents());
        var_bind: VarBind = v1_varbind();
        var_bind_list: VarBindList = list(v1_varbind());
        message_version: MessageVersion = integer(0x02, I64.0, I64.1);
        error_status: PduErrorStatus = integer(0x02, I64.0, I64.1);
        generic_trap: TrapPduGenericTrap = integer(0x02, I64.0, I64.1);
    }
}

mod v3 {
    use super::*;
    use snmp_messages::snmpv3_message_syntax::*;
    use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;
    round_trip! {
        message: Snmpv3Message = v3_message();
        header: HeaderData = v3_header();
        scoped_pdu_data: ScopedPduData = v3_scoped_pdu_data();
        scoped_pdu: ScopedPdu = v3_scoped_pdu();
        usm_security_parameters: UsmSecurityParameters = usm();
    }
}

/// Values built in Rust (not decoded) encode to what the strategies' encoder writes, and decode
/// back to themselves: the encoder is exercised on `SequenceOf::from_slice` lists too.
#[test]
fn built_values_encode_and_decode_back() {
    use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
    use snmp_messages::snmpv2_pdu::*;
    use snmp_messages::snmpv2_smi::{ApplicationSyntax, Counter32, ObjectName, ObjectSyntax};
    let name: snmp_ber::OidBuf = "1.3.6.1.2.1.2.2.1.10.1".parse().unwrap();
    let vbs = [
        VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::CounterValue(Counter32(7)),
            )),
        },
        VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::NoSuchInstance,
        },
    ];
    let msg = Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id: -5,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(snmp_ber::SequenceOf::from_slice(&vbs)),
        })),
    };
    let bytes = msg.to_ber().unwrap();
    let expected = seq(&[
        int(0x02, 1),
        tlv(0x04, b"public"),
        tlv(
            0xa2,
            &[
                int(0x02, -5),
                int(0x02, 0),
                int(0x02, 0),
                seq(&[
                    seq(&[tlv(0x06, name.as_oid().as_ber()), int(0x41, 7)]),
                    seq(&[tlv(0x06, name.as_oid().as_ber()), vec![0x81, 0x00]]),
                ]),
            ]
            .concat(),
        ),
    ]);
    assert_eq!(bytes, expected);
    let back = Message::from_ber(&bytes).unwrap();
    assert_eq!(back, msg);
    // A buffer one octet short is an error, not a panic or a truncated encoding.
    let mut small = vec![0u8; bytes.len() - 1];
    assert!(matches!(
        msg.encode_to_slice(&mut small),
        Err(snmp_ber::EncodeError::BufferTooSmall { .. })
    ));
    // Constraints are checked on encode too.
    let mut bad = msg;
    if let Pdus::Response(ResponsePdu(p)) = &mut bad.data {
        p.error_index = 1 << 31;
    }
    assert_eq!(
        bad.to_ber().unwrap_err(),
        snmp_ber::EncodeError::ConstraintViolation {
            component: "PDU.error-index",
            found: 1 << 31,
            expected: "0..2147483647"
        }
    );
}
