//! The catalogue of malformed input: each case gets a specific error naming the byte offset,
//! the component path and expected versus found. Nothing panics, nothing is silently dropped.

mod common;

use common::{int, oid, seq, tlv, v2c_response};
use snmp_ber::Decode;
use snmp_messages::community_based_snmpv2::Message;
use snmp_messages::snmpv3_message_syntax::Snmpv3Message;
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;

/// A v2c message around `data` (which starts at byte 13 while the message is under 128 octets).
fn msg(data: Vec<u8>) -> Vec<u8> {
    seq(&[int(0x02, 1), tlv(0x04, b"public"), data])
}

/// A Response PDU with the given component encodings (contents start at byte 15).
fn response(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0xa2, &parts.concat())
}

fn ok_header() -> Vec<Vec<u8>> {
    vec![int(0x02, 7), int(0x02, 0), int(0x02, 0)]
}

/// A response whose fourth binding (at byte 71, after three 15-octet ones from byte 26; its
/// name's contents start at 75) is `name` = `value`.
fn with_binding(name: Vec<u8>, value: Vec<u8>) -> Vec<u8> {
    let good = seq(&[oid("1.3.6.1.2.1.1.3.0"), int(0x43, 5)]);
    assert_eq!(good.len(), 15);
    let mut parts = ok_header();
    parts.push(seq(&[
        good.clone(),
        good.clone(),
        good,
        seq(&[name, value]),
    ]));
    msg(response(&parts))
}

fn error_of(bytes: &[u8]) -> String {
    match Message::from_ber_validated(bytes) {
        Ok(m) => panic!("decoded a malformed message: {m:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn catalogue() {
    let base = v2c_response(4);
    let mut trailing = base.clone();
    trailing.push(0);
    let mut set_tag = base.clone();
    set_tag[0] = 0x31;
    let mut indefinite = vec![0x30, 0x80];
    indefinite.extend_from_slice(&base[2..]);
    indefinite.extend_from_slice(&[0, 0]);
    let mut nine_octet_len = vec![0x30, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0x78];
    nine_octet_len.extend_from_slice(&base[2..]);
    let mut huge_len = vec![0x30, 0x84, 0xff, 0xff, 0xff, 0xff];
    huge_len.extend_from_slice(&base[2..]);
    let mut obsolete_pdu = base.clone();
    obsolete_pdu[13] = 0xa4;
    let mut community_int = base.clone();
    community_int[5] = 0x02;
    let counter = |bytes: &[u8]| tlv(0x41, bytes);

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty input", vec![], "at byte 0 in Message: truncated: needed 1 more octet(s) for the tag, found 0"),
        ("tag only", vec![0x30], "at byte 1 in Message: truncated: needed 1 more octet(s) for the length, found 0"),
        ("wrong outer tag", set_tag,
         "at byte 0 in Message: unexpected tag: expected SEQUENCE (0x30), found 0x31 ([UNIVERSAL 17], constructed)"),
        ("indefinite length", indefinite,
         "at byte 1 in Message: indefinite length (0x80) is not allowed: expected a definite length"),
        ("nine significant length octets", nine_octet_len,
         "at byte 1 in Message: length has 9 significant length octets: expected at most 8"),
        ("length past the end", huge_len,
         "at byte 1 in Message: length 4294967295 runs past the end: expected at most 120 octet(s)"),
        ("trailing garbage", trailing, "at byte 122: 1 trailing octet(s): expected the end of the input"),
        ("community is an INTEGER", community_int,
         "at byte 5 in Message.community: unexpected tag: expected OCTET STRING (0x04), found 0x02 ([UNIVERSAL 2], primitive)"),
        ("obsolete [4] PDU in v2c", obsolete_pdu,
         "at byte 13 in Message.data: unexpected tag: expected one of [0] (0xa0), [1] (0xa1), [5] (0xa5), [2] (0xa2), [3] (0xa3), [6] (0xa6), [7] (0xa7), [8] (0xa8), found 0xa4 ([CONTEXT 4], constructed)"),
        ("0-length INTEGER", msg(response(&[tlv(0x02, &[]), int(0x02, 0), int(0x02, 0), seq(&[])])),
         "at byte 17 in Message.data.response.request-id: INTEGER with no contents octets: expected at least 1"),
        ("10-octet INTEGER", msg(response(&[tlv(0x02, &[0; 10]), int(0x02, 0), int(0x02, 0), seq(&[])])),
         "at byte 17 in Message.data.response.request-id: INTEGER of 10 octets: expected at most 8 for this type"),
        ("request-id above Integer32", msg(response(&[int(0x02, 1 << 31), int(0x02, 0), int(0x02, 0), seq(&[])])),
         "at byte 17 in Message.data.response.request-id: INTEGER value 2147483648 out of range: expected -2147483648..2147483647"),
        ("negative error-index", msg(response(&[int(0x02, 1), int(0x02, 0), int(0x02, -1), seq(&[])])),
         "at byte 23 in Message.data.response.error-index: INTEGER value -1 out of range: expected 0..2147483647"),
        ("PDU missing its bindings", msg(response(&[int(0x02, 1), int(0x02, 0), int(0x02, 0)])),
         "at byte 24 in Message.data.response.variable-bindings: truncated: needed 1 more octet(s) for the tag, found 0"),
        ("unterminated OID arc", with_binding(tlv(0x06, &[0x2b, 0x86]), int(0x02, 1)),
         "at byte 75 in Message.data.response.variable-bindings[3].name: OBJECT IDENTIFIER ends inside a subidentifier: expected a last octet below 0x80, found 0x86"),
        ("OID arc above 2^32-1", with_binding(tlv(0x06, &[0x2b, 0x90, 0x80, 0x80, 0x80, 0x00]), int(0x02, 1)),
         "at byte 75 in Message.data.response.variable-bindings[3].name: OBJECT IDENTIFIER arc exceeds 4294967295 (2^32-1)"),
        ("non-minimal OID arc", with_binding(tlv(0x06, &[0x2b, 0x80, 0x06]), int(0x02, 1)),
         "at byte 75 in Message.data.response.variable-bindings[3].name: OBJECT IDENTIFIER subidentifier starts with 0x80: expected minimal base-128"),
        ("empty OID", with_binding(tlv(0x06, &[]), int(0x02, 1)),
         "at byte 75 in Message.data.response.variable-bindings[3].name: OBJECT IDENTIFIER with no contents octets: expected at least 1"),
        ("unknown value tag", with_binding(oid("1.3.6.1"), tlv(0x47, &[0])),
         "at byte 78 in Message.data.response.variable-bindings[3].value: unexpected tag: expected one of INTEGER (0x02), OCTET STRING (0x04), OBJECT IDENTIFIER (0x06), [APPLICATION 0] (0x40), [APPLICATION 1] (0x41), [APPLICATION 3] (0x43), [APPLICATION 4] (0x44), [APPLICATION 6] (0x46), [APPLICATION 2] (0x42), NULL (0x05), [0] (0x80), [1] (0x81), [2] (0x82), found 0x47 ([APPLICATION 7], primitive)"),
        ("Counter32 of 2^32", with_binding(oid("1.3.6.1"), counter(&[1, 0, 0, 0, 0])),
         "at byte 80 in Message.data.response.variable-bindings[3].value.value.application-wide.counter-value: INTEGER value 4294967296 out of range: expected 0..4294967295"),
        ("Counter64 of 2^64", with_binding(oid("1.3.6.1"), tlv(0x46, &[1, 0, 0, 0, 0, 0, 0, 0, 0])),
         "at byte 80 in Message.data.response.variable-bindings[3].value.value.application-wide.big-counter-value: INTEGER value 18446744073709551616 out of range: expected 0..18446744073709551615"),
        ("IpAddress of 3 octets", with_binding(oid("1.3.6.1"), tlv(0x40, &[10, 0, 0])),
         "at byte 80 in Message.data.response.variable-bindings[3].value.value.application-wide.ipAddress-value: size 3 out of range: expected SIZE (4)"),
        ("NULL with contents", with_binding(oid("1.3.6.1"), tlv(0x05, &[0])),
         "at byte 80 in Message.data.response.variable-bindings[3].value.unSpecified: NULL with 1 contents octet(s): expected 0"),
        ("noSuchObject with contents", with_binding(oid("1.3.6.1"), tlv(0x80, &[0])),
         "at byte 80 in Message.data.response.variable-bindings[3].value.noSuchObject: NULL with 1 contents octet(s): expected 0"),
        ("VarBind with a third component", {
            let mut parts = ok_header();
            parts.push(seq(&[seq(&[oid("1.3.6.1"), int(0x02, 1), int(0x02, 2)])]));
            msg(response(&parts))
        }, "at byte 36 in Message.data.response.variable-bindings[0]: 3 trailing octet(s): expected the end of the VarBind"),
        ("binding list cut in the middle", {
            let good = seq(&[oid("1.3.6.1.2.1.1.3.0"), int(0x43, 5)]);
            let mut parts = ok_header();
            parts.push(tlv(0x30, &[good.clone(), good[..5].to_vec()].concat()));
            msg(response(&parts))
        }, "at byte 42 in Message.data.response.variable-bindings[1]: length 13 runs past the end: expected at most 3 octet(s)"),
    ];
    let mut failures = Vec::new();
    for (name, bytes, want) in &cases {
        let got = error_of(bytes);
        if got != *want {
            failures.push(format!("{name}:\n  want {want}\n  got  {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn oversized_string_breaks_its_size_constraint() {
    let big = vec![b'x'; 65536];
    let bytes = with_binding(oid("1.3.6.1"), tlv(0x04, &big));
    let err = Message::from_ber_validated(&bytes).unwrap_err();
    assert_eq!(
        err.path(),
        "Message.data.response.variable-bindings[3].value.value.simple.string-value"
    );
    assert_eq!(
        err.kind(),
        &snmp_ber::DecodeErrorKind::SizeOutOfRange {
            found: 65536,
            expected: "0..65535"
        }
    );
}

#[test]
fn every_truncation_of_every_vector_is_an_error() {
    // Cutting a valid message anywhere leaves an invalid one: every prefix must fail, with an
    // offset inside the input, and never panic.
    let mut count = 0;
    for (name, bytes) in common::vectors() {
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            let err = match common::message_version(&bytes) {
                3 => Snmpv3Message::from_ber_validated(prefix).err(),
                _ => Message::from_ber_validated(prefix).err(),
            };
            let err = err.unwrap_or_else(|| panic!("{name} cut at {cut} decoded"));
            assert!(
                err.offset() <= cut,
                "{name} cut at {cut}: offset {} past the end",
                err.offset()
            );
            count += 1;
        }
    }
    assert!(count > 2000, "{count}");
}

#[test]
fn deep_nesting_is_rejected_without_recursion_trouble() {
    let mut bytes = vec![0x05, 0x00];
    for _ in 0..1000 {
        bytes = tlv(0x30, &bytes);
    }
    let err = Message::from_ber(&bytes).unwrap_err();
    assert_eq!(err.path(), "Message.version");
    // A generic walk over the same octets stops at the depth bound.
    let mut r = snmp_ber::Reader::new(&bytes);
    let mut depth = 0;
    let e = loop {
        match r.read_constructed(0x30, "SEQUENCE") {
            Ok(inner) => {
                r = inner;
                depth += 1;
            }
            Err(e) => break e,
        }
    };
    assert_eq!(depth, snmp_ber::MAX_DEPTH);
    assert_eq!(
        e.kind(),
        &snmp_ber::DecodeErrorKind::TooDeep {
            max: snmp_ber::MAX_DEPTH
        }
    );
}

#[test]
fn sloppy_but_valid_encodings_are_accepted() {
    // Non-minimal length octets on the message, a padded INTEGER request-id and a Counter64
    // above 2^63 in nine octets.
    let vbs = seq(&[seq(&[
        oid("1.3.6.1.2.1.31.1.1.1.6.1"),
        tlv(0x46, &[0x00, 0x80, 0, 0, 0, 0, 0, 0, 1]),
    ])]);
    let canonical = msg(response(&[
        int(0x02, 5),
        int(0x02, 0),
        int(0x02, 0),
        vbs.clone(),
    ]));
    let pdu = tlv(
        0xa2,
        &[
            vec![0x02, 0x03, 0x00, 0x00, 0x05],
            int(0x02, 0),
            int(0x02, 0),
            vbs,
        ]
        .concat(),
    );
    let body = [int(0x02, 1), tlv(0x04, b"public"), pdu].concat();
    let mut sloppy = vec![0x30, 0x82, 0x00, body.len() as u8];
    sloppy.extend_from_slice(&body);
    let m = Message::from_ber(&sloppy).unwrap();
    let snmp_messages::snmpv2_pdu::Pdus::Response(p) = m.data else {
        panic!()
    };
    assert_eq!(p.0.request_id, 5);
    let vb = p.0.variable_bindings.0.iter().next().unwrap().unwrap();
    use snmp_messages::snmpv2_smi::{ApplicationSyntax, Counter64, ObjectSyntax};
    assert_eq!(
        vb.value,
        snmp_messages::snmpv2_pdu::VarBindValue::Value(ObjectSyntax::ApplicationWide(
            ApplicationSyntax::BigCounterValue(Counter64((1 << 63) + 1))
        ))
    );
    // Re-encoding is minimal.
    assert_eq!(snmp_ber::Encode::to_ber(&m).unwrap(), canonical);
    // Long-form lengths padded with zeros, 5, 8 and 126 length octets (X.690 8.1.3.5 allows
    // them; net-snmp and tshark read them), read as the minimal form.
    for n in [5usize, 8, 126] {
        let mut padded = vec![0x30, 0x80 | n as u8];
        padded.extend(std::iter::repeat_n(0, n - 1));
        padded.push(canonical.len() as u8 - 2);
        padded.extend_from_slice(&canonical[2..]);
        let m = Message::from_ber(&padded).unwrap();
        assert_eq!(
            snmp_ber::Encode::to_ber(&m).unwrap(),
            canonical,
            "{n} length octets"
        );
    }
}

#[test]
fn v3_header_and_usm_constraints() {
    let header = |flags: &[u8], max: i128| {
        seq(&[int(0x02, 1), int(0x02, max), tlv(0x04, flags), int(0x02, 3)])
    };
    let pdu = tlv(
        0xa0,
        &[int(0x02, 1), int(0x02, 0), int(0x02, 0), seq(&[])].concat(),
    );
    let scoped = seq(&[tlv(0x04, b""), tlv(0x04, b""), pdu]);
    let v3 = |h: Vec<u8>| seq(&[int(0x02, 3), h, tlv(0x04, &[]), scoped.clone()]);
    let e = Snmpv3Message::from_ber(&v3(header(&[4, 0], 65507))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 17 in SNMPv3Message.msgGlobalData.msgFlags: size 2 out of range: expected SIZE (1)"
    );
    let e = Snmpv3Message::from_ber(&v3(header(&[4], 100))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 12 in SNMPv3Message.msgGlobalData.msgMaxSize: INTEGER value 100 out of range: expected 484..2147483647"
    );
    assert!(Snmpv3Message::from_ber(&v3(header(&[4], 484))).is_ok());

    let usm = |user: &[u8]| {
        seq(&[
            tlv(0x04, b""),
            int(0x02, 0),
            int(0x02, 0),
            tlv(0x04, user),
            tlv(0x04, b""),
            tlv(0x04, b""),
        ])
    };
    assert!(UsmSecurityParameters::from_ber(&usm(&[b'u'; 32])).is_ok());
    let e = UsmSecurityParameters::from_ber(&usm(&[b'u'; 33])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 12 in UsmSecurityParameters.msgUserName: size 33 out of range: expected SIZE (0..32)"
    );
}

#[test]
fn a_bad_binding_is_an_error_item_and_the_rest_still_decode() {
    // Binding 1 of 3 holds a Counter32 of 2^32; the message frames fine, so from_ber succeeds,
    // the iterator yields Ok, Err (with the binding's index and absolute offset), Ok.
    let good = seq(&[oid("1.3.6.1.2.1.1.3.0"), int(0x43, 5)]);
    let bad = seq(&[oid("1.3.6.1.2.1.1.3.0"), tlv(0x41, &[1, 0, 0, 0, 0])]);
    let mut parts = ok_header();
    parts.push(seq(&[good.clone(), bad, good]));
    let bytes = msg(response(&parts));
    let m = Message::from_ber(&bytes).expect("framing is valid");
    let snmp_messages::snmpv2_pdu::Pdus::Response(p) = m.data else {
        panic!()
    };
    let items: Vec<_> = p.0.variable_bindings.0.iter().collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[2].is_ok());
    assert_eq!(
        items[1].as_ref().unwrap_err().to_string(),
        "at byte 55 in VarBindList[1].value.value.application-wide.counter-value: INTEGER value 4294967296 out of range: expected 0..4294967295"
    );
    // Collecting stops at the error; validating gives the full path from the message.
    assert!(p
        .0
        .variable_bindings
        .0
        .iter()
        .collect::<Result<Vec<_>, _>>()
        .is_err());
    assert_eq!(
        Message::from_ber_validated(&bytes).unwrap_err().path(),
        "Message.data.response.variable-bindings[1].value.value.application-wide.counter-value"
    );
    // A decoded list with an invalid element cannot be written back.
    assert!(matches!(
        snmp_ber::Encode::to_ber(&m),
        Err(snmp_ber::EncodeError::InvalidDecoded(_))
    ));
}

#[test]
fn every_bad_binding_names_its_own_index() {
    // Good and bad bindings mixed, bad ones side by side too: each error item names the
    // binding it came from (the index is counted on the error path, from the last error on).
    let good = seq(&[oid("1.3.6.1.2.1.1.3.0"), int(0x43, 5)]);
    let bad = seq(&[oid("1.3.6.1.2.1.1.3.0"), tlv(0x41, &[1, 0, 0, 0, 0])]);
    let is_bad = [false, true, false, true, true, false, false, true];
    let bindings: Vec<Vec<u8>> = is_bad
        .iter()
        .map(|&b| if b { bad.clone() } else { good.clone() })
        .collect();
    let mut parts = ok_header();
    parts.push(seq(&bindings));
    let bytes = msg(response(&parts));
    let m = Message::from_ber(&bytes).expect("framing is valid");
    let snmp_messages::snmpv2_pdu::Pdus::Response(p) = m.data else {
        panic!()
    };
    let paths: Vec<Option<String>> =
        p.0.variable_bindings
            .0
            .iter()
            .map(|item| item.err().map(|e| e.path()))
            .collect();
    let expected: Vec<Option<String>> = is_bad
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            b.then(|| format!("VarBindList[{i}].value.value.application-wide.counter-value"))
        })
        .collect();
    assert_eq!(paths, expected);
}

#[test]
fn a_list_cut_in_the_middle_ends_with_its_error_item() {
    // The list is framed element by element as it is read: from_ber succeeds, the iterator
    // yields the good binding, then the broken one's framing error, then stops; `len` counts
    // what the iterator yields.
    let good = seq(&[oid("1.3.6.1.2.1.1.3.0"), int(0x43, 5)]);
    let mut parts = ok_header();
    parts.push(tlv(0x30, &[good.clone(), good[..5].to_vec()].concat()));
    let bytes = msg(response(&parts));
    let m = Message::from_ber(&bytes).expect("the message's own framing is valid");
    let snmp_messages::snmpv2_pdu::Pdus::Response(p) = m.data else {
        panic!()
    };
    let list = p.0.variable_bindings.0;
    let items: Vec<_> = list.iter().collect();
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    assert_eq!(
        items[1].as_ref().unwrap_err().to_string(),
        "at byte 42 in VarBindList[1]: length 13 runs past the end: expected at most 3 octet(s)"
    );
    assert_eq!(list.len(), 2);
    assert!(!list.is_empty());
    // SIZE checks count only as far as they must.
    assert!(list.has_len_within(0, 2) && list.has_len_within(2, 2));
    assert!(!list.has_len_within(3, 10) && !list.has_len_within(0, 1));
    assert!(Message::from_ber_validated(&bytes).is_err());
}
