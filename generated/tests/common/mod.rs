//! Shared helpers for the snmp-messages tests.
#![allow(dead_code)]

use snmp_ber::{Decode, Encode};

/// The net-snmp known-answer vectors: (name, octets).
pub fn vectors() -> Vec<(String, Vec<u8>)> {
    let text = include_str!("../../../corpus/vectors/netsnmp-5.9.3.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, hex) = l.split_once(' ').expect("name and hex");
            (name.to_string(), hex::decode(hex.trim()).expect("hex"))
        })
        .collect()
}

/// One vector by name, with a 'static lifetime so decoded values can borrow it freely.
pub fn vector(name: &str) -> &'static [u8] {
    let bytes = vectors()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no vector {name}"))
        .1;
    Box::leak(bytes.into_boxed_slice())
}

/// Decodes `bytes` as `T`, re-encodes it and asserts the octets are unchanged.
pub fn assert_round_trip<'a, T: Decode<'a> + Encode + std::fmt::Debug>(bytes: &'a [u8]) -> T {
    let value = T::from_ber_validated(bytes)
        .unwrap_or_else(|e| panic!("{} does not decode: {e}", T::ASN1_NAME));
    let again = value.to_ber().expect("encodes");
    assert_eq!(
        value.encoded_len(),
        again.len(),
        "{}: encoded_len",
        T::ASN1_NAME
    );
    assert_eq!(
        hex::encode(&again),
        hex::encode(bytes),
        "{} re-encodes differently: {value:?}",
        T::ASN1_NAME
    );
    value
}

/// BER helpers to build canonical encodings in tests.
pub fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = contents.len();
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes = (n as u64).to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (8 - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(contents);
    out
}

pub fn int_contents(v: i128) -> Vec<u8> {
    let bytes = v.to_be_bytes();
    let mut k = 0;
    while k < 15 {
        let (a, b) = (bytes[k], bytes[k + 1]);
        if (a == 0x00 && b & 0x80 == 0) || (a == 0xff && b & 0x80 != 0) {
            k += 1;
        } else {
            break;
        }
    }
    bytes[k..].to_vec()
}

pub fn int(tag: u8, v: i128) -> Vec<u8> {
    tlv(tag, &int_contents(v))
}

pub fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

pub fn oid(dotted: &str) -> Vec<u8> {
    let o: snmp_ber::OidBuf = dotted.parse().expect("oid");
    tlv(0x06, o.as_oid().as_ber())
}

/// A v2c Response with `n` bindings cycling through the syntaxes a poll returns, under
/// ifTable/ifXTable OIDs (the benchmark's workload).
pub fn v2c_response(n: usize) -> Vec<u8> {
    let mut vbs = Vec::new();
    for i in 0..n {
        let row = (i / 8 + 1) as i128;
        let (name, value) = match i % 8 {
            0 => (
                format!("1.3.6.1.2.1.2.2.1.10.{row}"),
                int(0x41, 3_000_000_000),
            ),
            1 => (
                format!("1.3.6.1.2.1.2.2.1.5.{row}"),
                int(0x42, 1_000_000_000),
            ),
            2 => (format!("1.3.6.1.2.1.2.2.1.9.{row}"), int(0x43, 123_456)),
            3 => (
                format!("1.3.6.1.2.1.2.2.1.2.{row}"),
                tlv(0x04, b"GigabitEthernet0/1"),
            ),
            4 => (
                format!("1.3.6.1.2.1.4.20.1.1.10.0.0.{row}"),
                tlv(0x40, &[10, 0, 0, row as u8]),
            ),
            5 => (
                format!("1.3.6.1.2.1.2.2.1.22.{row}"),
                oid("1.3.6.1.4.1.9.1.1"),
            ),
            6 => (
                format!("1.3.6.1.2.1.31.1.1.1.6.{row}"),
                int(0x46, (1i128 << 63) + 5),
            ),
            _ => (format!("1.3.6.1.2.1.2.2.1.8.{row}"), int(0x02, 1)),
        };
        vbs.push(seq(&[oid(&name), value]));
    }
    seq(&[
        int(0x02, 1),
        tlv(0x04, b"public"),
        tlv(
            0xa2,
            &[int(0x02, 1_234_567), int(0x02, 0), int(0x02, 0), seq(&vbs)].concat(),
        ),
    ])
}

/// The version field (the first INTEGER inside the outer SEQUENCE) of an SNMP message.
pub fn message_version(bytes: &[u8]) -> i64 {
    let mut r = snmp_ber::Reader::new(bytes);
    let mut seq = r
        .read_constructed(0x30, "SEQUENCE")
        .expect("message SEQUENCE");
    let c = seq.read_tlv(0x02, "INTEGER").expect("version INTEGER");
    snmp_ber::int_i64(&seq, c).expect("version value")
}
