//! A binding's value as a number and as text, the way snmp_exporter's collector reads gosnmp's
//! values, and an index's arcs as a label value.

use std::collections::BTreeMap;
use std::fmt::Write;

use snmp_client::{OpaqueNumber, Value};

use crate::ty::Ty;

/// 2^53: Counter64 values wrap here by default (`--snmp.wrap-large-counters`), so that a
/// float64 sample holds them exactly.
const FLOAT64_MANTISSA: u64 = 1 << 53;

/// The number a binding's value stands for; 0 for a value that is none (text, an address).
pub fn number(v: &Value, wrap_counters: bool) -> f64 {
    match v {
        Value::Integer(i) => *i as f64,
        Value::Counter32(n) | Value::Gauge32(n) | Value::TimeTicks(n) => f64::from(*n),
        Value::Counter64(n) if wrap_counters => (n % FLOAT64_MANTISSA) as f64,
        Value::Counter64(n) => *n as f64,
        Value::Opaque(o) => match OpaqueNumber::from_opaque(o) {
            Some(OpaqueNumber::Float(f)) => f64::from(f),
            Some(OpaqueNumber::Double(d)) => d,
            _ => 0.0,
        },
        _ => 0.0,
    }
}

/// The integer a lookup's value stands for (a chained lookup indexes by it); `None` when the
/// value is no integer an OID arc can hold.
pub fn arc(v: &Value) -> Option<u32> {
    match v {
        Value::Integer(i) => u32::try_from(*i).ok(),
        Value::Counter32(n) | Value::Gauge32(n) | Value::TimeTicks(n) => Some(*n),
        Value::Counter64(n) => u32::try_from(*n).ok(),
        _ => Some(0),
    }
}

/// The value as a label's text (upstream's `pduValueAsString`): numbers in decimal, an
/// address dotted, an OID dotted, octets by `ty` (and `hint`, a DISPLAY-HINT, for plain octet
/// strings); "" for NULL and the exceptions.
pub fn text(v: &Value, ty: Option<Ty>, hint: &str) -> String {
    match v {
        Value::Integer(i) => i.to_string(),
        Value::Counter32(n) | Value::Gauge32(n) | Value::TimeTicks(n) => n.to_string(),
        Value::Counter64(n) => n.to_string(),
        Value::IpAddress(a) => format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3]),
        Value::ObjectIdentifier(o) => o.to_string(),
        Value::OctetString(o) => octets(o.as_slice(), ty, hint),
        Value::Opaque(o) => match OpaqueNumber::from_opaque(o) {
            Some(OpaqueNumber::Float(f)) => f.to_string(),
            Some(OpaqueNumber::Double(d)) => d.to_string(),
            _ => octets(o.as_slice(), ty, hint),
        },
        Value::Null | Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => {
            String::new()
        }
    }
}

/// Octets as text by type: a DISPLAY-HINT first where one is given for an octet string,
/// else the octets read as an index of that type would be.
pub fn octets(data: &[u8], ty: Option<Ty>, hint: &str) -> String {
    if !hint.is_empty() && !data.is_empty() && matches!(ty, None | Some(Ty::OctetString)) {
        if let Ok(s) = snmp_mib::format_octets_upper_hex(hint, data) {
            return valid_utf8(s.as_bytes());
        }
    }
    let ty = match ty {
        None | Some(Ty::Bits) => Ty::OctetString,
        Some(t) => t,
    };
    let mut arcs: Vec<u32> = Vec::with_capacity(data.len() + 1);
    if matches!(ty, Ty::OctetString | Ty::DisplayString) {
        // An index states its length; a value's is implicit.
        arcs.push(data.len() as u32);
    }
    arcs.extend(data.iter().map(|&b| u32::from(b)));
    index(&arcs, ty, 0, false, &BTreeMap::new()).0
}

/// Go's `strings.ToValidUTF8(s, "\u{FFFD}")`: each run of invalid octets one U+FFFD.
pub fn valid_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                if !out.ends_with('\u{FFFD}') || !good.is_empty() {
                    out.push('\u{FFFD}');
                }
                let skip = e.error_len().unwrap_or(bad.len());
                rest = &bad[skip..];
            }
        }
    }
}

/// The longest run of arcs an index part takes: an OID has at most 128 arcs (RFC 2578 3.5),
/// so a length arc past that (a hostile agent's 4,294,967,295) takes no more.
const MAX_ARCS: usize = 128;

/// `arcs` split after `count` of them, the head padded with zeros when `arcs` is shorter
/// (agents that leave trailing zero arcs out): upstream's `splitOid`.
fn split(arcs: &[u32], count: usize) -> (Vec<u32>, &[u32]) {
    let count = count.min(MAX_ARCS.max(arcs.len()));
    let mut head = arcs[..count.min(arcs.len())].to_vec();
    head.resize(count, 0);
    (head, &arcs[count.min(arcs.len())..])
}

/// One index part read from the front of `arcs` as type `ty`: its label value, the arcs it
/// used (a lookup indexes by them) and the arcs left for the next part.
pub fn index<'a>(
    arcs: &'a [u32],
    ty: Ty,
    fixed_size: usize,
    implied: bool,
    enums: &BTreeMap<i64, String>,
) -> (String, Vec<u32>, &'a [u32]) {
    if ty.is_combined() {
        return combined(arcs, ty, enums);
    }
    match ty {
        Ty::PhysAddress48 => {
            let (head, rest) = split(arcs, 6);
            let mut s = String::with_capacity(17);
            for (k, a) in head.iter().enumerate() {
                if k > 0 {
                    s.push(':');
                }
                let _ = write!(s, "{:02X}", a);
            }
            (s, head, rest)
        }
        Ty::OctetString | Ty::DisplayString => {
            let (mut used, arcs) = if fixed_size == 0 && !implied {
                let (len, rest) = split(arcs, 1);
                (len, rest)
            } else {
                (Vec::new(), arcs)
            };
            let length = match (implied, fixed_size, used.first()) {
                (true, _, _) => arcs.len(),
                (false, n, _) if n > 0 => n,
                (false, _, Some(&n)) => n as usize,
                _ => 0,
            };
            let (content, rest) = split(arcs, length);
            let bytes: Vec<u8> = content.iter().map(|&a| a as u8).collect();
            used.extend_from_slice(&content);
            let s = match ty {
                Ty::DisplayString => valid_utf8(&bytes),
                _ if bytes.is_empty() => String::new(),
                _ => {
                    let mut s = String::with_capacity(2 + 2 * bytes.len());
                    s.push_str("0x");
                    for b in &bytes {
                        let _ = write!(s, "{b:02X}");
                    }
                    s
                }
            };
            (s, used, rest)
        }
        Ty::InetAddressIPv4 => {
            let (head, rest) = split(arcs, 4);
            let s = format!("{}.{}.{}.{}", head[0], head[1], head[2], head[3]);
            (s, head, rest)
        }
        Ty::InetAddressIPv6 => {
            let (head, rest) = split(arcs, 16);
            let mut s = String::with_capacity(39);
            for (k, a) in head.iter().enumerate() {
                if k > 0 && k % 2 == 0 {
                    s.push(':');
                }
                let _ = write!(s, "{:02X}", a);
            }
            (s, head, rest)
        }
        Ty::EnumAsInfo => {
            let (head, rest) = split(arcs, 1);
            let s = enums
                .get(&i64::from(head[0]))
                .cloned()
                .unwrap_or_else(|| head[0].to_string());
            (s, head, rest)
        }
        // Integer32, Integer, gauge, counter; and the metric types an index never has.
        _ => {
            let (head, rest) = split(arcs, 1);
            (head[0].to_string(), head, rest)
        }
    }
}

/// An index part whose form its first arc selects (InetAddressType, LldpPortIdSubtype).
fn combined<'a>(
    arcs: &'a [u32],
    ty: Ty,
    enums: &BTreeMap<i64, String>,
) -> (String, Vec<u32>, &'a [u32]) {
    let missing_size = ty == Ty::InetAddressMissingSize;
    let (selector, value) = split(arcs, if missing_size { 1 } else { 2 });
    if let Some(t) = ty.selected_by(i64::from(selector[0])) {
        let (s, used, rest) = index(value, t, 0, false, enums);
        let mut all = selector;
        all.extend_from_slice(&used);
        return (s, all, rest);
    }
    if missing_size {
        return index(arcs, Ty::OctetString, 0, true, enums);
    }
    // The second arc is the length of what follows.
    let size = (selector[1] as usize).saturating_add(2);
    index(arcs, Ty::OctetString, size, false, enums)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_enums() -> BTreeMap<i64, String> {
        BTreeMap::new()
    }

    #[test]
    fn index_forms() {
        let e = no_enums();
        assert_eq!(index(&[7, 8], Ty::Integer32, 0, false, &e).0, "7");
        let (s, used, rest) = index(&[3, 65, 66, 67, 9], Ty::DisplayString, 0, false, &e);
        assert_eq!(
            (s.as_str(), used, rest),
            ("ABC", vec![3, 65, 66, 67], &[9][..])
        );
        assert_eq!(
            index(&[2, 1, 255], Ty::OctetString, 0, false, &e).0,
            "0x01FF"
        );
        assert_eq!(index(&[1, 255], Ty::OctetString, 2, false, &e).0, "0x01FF");
        assert_eq!(index(&[65, 66], Ty::DisplayString, 0, true, &e).0, "AB");
        assert_eq!(
            index(&[0, 17, 34, 51, 68, 85], Ty::PhysAddress48, 0, false, &e).0,
            "00:11:22:33:44:55"
        );
        // Short: padded with zeros, as agents that drop trailing zeros need.
        assert_eq!(
            index(&[10, 0], Ty::InetAddressIPv4, 0, false, &e).0,
            "10.0.0.0"
        );
        let v6: Vec<u32> = (0..16).collect();
        assert_eq!(
            index(&v6, Ty::InetAddressIPv6, 0, false, &e).0,
            "0001:0203:0405:0607:0809:0A0B:0C0D:0E0F"
        );
        let (s, used, _) = index(&[1, 4, 192, 0, 2, 1], Ty::InetAddress, 0, false, &e);
        assert_eq!((s.as_str(), used.len()), ("192.0.2.1", 6));
        assert_eq!(
            index(&[1, 192, 0, 2, 1], Ty::InetAddressMissingSize, 0, false, &e).0,
            "192.0.2.1"
        );
        // An unknown address type: the octets, length and all.
        assert_eq!(
            index(&[16, 2, 1, 2], Ty::InetAddress, 0, false, &e).0,
            "0x10020102"
        );
        let mut enums = no_enums();
        enums.insert(2, "down".to_string());
        assert_eq!(index(&[2], Ty::EnumAsInfo, 0, false, &enums).0, "down");
        assert_eq!(index(&[3], Ty::EnumAsInfo, 0, false, &enums).0, "3");
    }

    #[test]
    fn hostile_lengths_take_no_more_than_an_oid_can_hold() {
        let (s, used, rest) = index(&[u32::MAX, 65], Ty::DisplayString, 0, false, &no_enums());
        assert_eq!(used.len(), 129);
        assert!(rest.is_empty());
        assert!(s.starts_with('A'));
    }

    #[test]
    fn values_as_text() {
        let os = |b: &[u8]| Value::OctetString(snmp_ber::OctetBuf::from_slice(b));
        assert_eq!(text(&os(b"eth0"), Some(Ty::DisplayString), ""), "eth0");
        assert_eq!(
            text(&os(b"a\xffb"), Some(Ty::DisplayString), ""),
            "a\u{FFFD}b"
        );
        assert_eq!(text(&os(b"\x00\x1b"), Some(Ty::OctetString), ""), "0x001B");
        assert_eq!(text(&os(b""), Some(Ty::OctetString), ""), "");
        assert_eq!(text(&os(b"\x00\x1b"), None, "1x:"), "00:1B");
        assert_eq!(
            text(&os(b"\x0a\x00\x00\x01"), Some(Ty::InetAddressIPv4), ""),
            "10.0.0.1"
        );
        assert_eq!(
            text(&os(b"\x01\x02"), Some(Ty::PhysAddress48), ""),
            "01:02:00:00:00:00"
        );
        assert_eq!(
            text(&Value::IpAddress([192, 0, 2, 1]), None, ""),
            "192.0.2.1"
        );
        assert_eq!(
            text(&Value::Counter64(u64::MAX), None, ""),
            "18446744073709551615"
        );
        assert_eq!(text(&Value::NoSuchInstance, None, ""), "");
        assert_eq!(
            number(&Value::Counter64(u64::MAX), true),
            ((u64::MAX) % (1 << 53)) as f64
        );
        assert_eq!(number(&Value::Integer(-3), true), -3.0);
    }
}
