//! A binding's value as a number and as text, the way snmp_exporter's collector reads gosnmp's
//! values, and an index's arcs as a label value.

use std::collections::BTreeMap;
use std::fmt::Write;

use snmp_client::{OpaqueNumber, Value};
use snmp_mib::OctetHint;

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

/// Buffers reused from value to value, so that reading values as text allocates only as they
/// grow: the arcs each index part used (a lookup indexes by them), and room for octets.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The arcs of the index parts read, one after another.
    pub used: Vec<u32>,
    bytes: Vec<u8>,
    arcs: Vec<u32>,
}

/// The value as a label's text (upstream's `pduValueAsString`): numbers in decimal, an
/// address dotted, an OID dotted, octets by `ty` (and `hint`, a DISPLAY-HINT, for plain octet
/// strings); "" for NULL and the exceptions.
pub fn text(v: &Value, ty: Option<Ty>, hint: Option<&OctetHint>) -> String {
    let mut out = String::new();
    write_text(v, ty, hint, &mut out, &mut Scratch::default());
    out
}

/// [`text`], appended to `out`.
pub fn write_text(
    v: &Value,
    ty: Option<Ty>,
    hint: Option<&OctetHint>,
    out: &mut String,
    scratch: &mut Scratch,
) {
    let _ = match v {
        Value::Integer(i) => write!(out, "{i}"),
        Value::Counter32(n) | Value::Gauge32(n) | Value::TimeTicks(n) => write!(out, "{n}"),
        Value::Counter64(n) => write!(out, "{n}"),
        Value::IpAddress(a) => write!(out, "{}.{}.{}.{}", a[0], a[1], a[2], a[3]),
        Value::ObjectIdentifier(o) => write!(out, "{o}"),
        Value::OctetString(o) => {
            octets(o.as_slice(), ty, hint, out, scratch);
            Ok(())
        }
        Value::Opaque(o) => match OpaqueNumber::from_opaque(o) {
            Some(OpaqueNumber::Float(f)) => write!(out, "{f}"),
            Some(OpaqueNumber::Double(d)) => write!(out, "{d}"),
            _ => {
                octets(o.as_slice(), ty, hint, out, scratch);
                Ok(())
            }
        },
        Value::Null | Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => Ok(()),
    };
}

/// Octets as text by type: a DISPLAY-HINT first where one is given for an octet string,
/// else the octets read as an index of that type would be.
fn octets(
    data: &[u8],
    ty: Option<Ty>,
    hint: Option<&OctetHint>,
    out: &mut String,
    scratch: &mut Scratch,
) {
    if let Some(hint) = hint {
        if !data.is_empty() && matches!(ty, None | Some(Ty::OctetString)) {
            return hint.write(data, out);
        }
    }
    let ty = match ty {
        None | Some(Ty::Bits) => Ty::OctetString,
        Some(t) => t,
    };
    let mut arcs = std::mem::take(&mut scratch.arcs);
    arcs.clear();
    if matches!(ty, Ty::OctetString | Ty::DisplayString) {
        // An index states its length; a value's is implicit.
        arcs.push(data.len() as u32);
    }
    arcs.extend(data.iter().map(|&b| u32::from(b)));
    let used = scratch.used.len();
    index(&arcs, Part::of(ty), out, scratch);
    scratch.used.truncate(used);
    scratch.arcs = arcs;
}

/// Go's `strings.ToValidUTF8(s, "\u{FFFD}")`, appended to `out`: each run of invalid octets
/// one U+FFFD.
pub fn valid_utf8(bytes: &[u8], out: &mut String) {
    let mut last_replaced = false;
    for part in bytes.utf8_chunks() {
        if !part.valid().is_empty() {
            out.push_str(part.valid());
            last_replaced = false;
        }
        if !part.invalid().is_empty() && !last_replaced {
            out.push('\u{FFFD}');
            last_replaced = true;
        }
    }
}

/// The longest run of arcs an index part takes: an OID has at most 128 arcs (RFC 2578 3.5),
/// so a length arc past that (a hostile agent's 4,294,967,295) takes no more.
const MAX_ARCS: usize = 128;

/// `arcs` split after `count` of them, the head appended to `used` and padded with zeros when
/// `arcs` is shorter (agents that leave trailing zero arcs out): upstream's `splitOid`.
/// Returns where the head starts in `used`, and the rest.
fn split<'a>(arcs: &'a [u32], count: usize, used: &mut Vec<u32>) -> (usize, &'a [u32]) {
    let count = count.min(MAX_ARCS.max(arcs.len()));
    let start = used.len();
    let taken = count.min(arcs.len());
    used.extend_from_slice(&arcs[..taken]);
    used.resize(start + count, 0);
    (start, &arcs[taken..])
}

/// How an index part is read: its type, its fixed size (0: none), whether it is IMPLIED, and
/// the names of its values (an enum index's labels).
#[derive(Debug, Clone, Copy)]
pub struct Part<'e> {
    pub ty: Ty,
    pub fixed_size: usize,
    pub implied: bool,
    pub enums: &'e BTreeMap<i64, String>,
}

/// No names.
static NO_ENUMS: BTreeMap<i64, String> = BTreeMap::new();

impl Part<'static> {
    /// A part of type `ty`, neither fixed-size, implied nor named.
    pub fn of(ty: Ty) -> Part<'static> {
        Part {
            ty,
            fixed_size: 0,
            implied: false,
            enums: &NO_ENUMS,
        }
    }
}

/// One index part read from the front of `arcs`: its label value appended to `out`, the arcs
/// it used appended to `scratch.used` (a lookup indexes by them); returns the arcs left for
/// the next part.
pub fn index<'a>(
    arcs: &'a [u32],
    part: Part<'_>,
    out: &mut String,
    scratch: &mut Scratch,
) -> &'a [u32] {
    if part.ty.is_combined() {
        return combined(arcs, part, out, scratch);
    }
    let used = &mut scratch.used;
    match part.ty {
        Ty::PhysAddress48 => {
            let (start, rest) = split(arcs, 6, used);
            for (k, a) in used[start..].iter().enumerate() {
                if k > 0 {
                    out.push(':');
                }
                let _ = write!(out, "{:02X}", a);
            }
            rest
        }
        Ty::OctetString | Ty::DisplayString => octet_part(arcs, part, out, scratch),
        Ty::InetAddressIPv4 => {
            let (start, rest) = split(arcs, 4, used);
            let h = &used[start..];
            let _ = write!(out, "{}.{}.{}.{}", h[0], h[1], h[2], h[3]);
            rest
        }
        Ty::InetAddressIPv6 => {
            let (start, rest) = split(arcs, 16, used);
            for (k, a) in used[start..].iter().enumerate() {
                if k > 0 && k % 2 == 0 {
                    out.push(':');
                }
                let _ = write!(out, "{:02X}", a);
            }
            rest
        }
        Ty::EnumAsInfo => {
            let (start, rest) = split(arcs, 1, used);
            let n = used[start];
            match part.enums.get(&i64::from(n)) {
                Some(name) => out.push_str(name),
                None => {
                    let _ = write!(out, "{n}");
                }
            }
            rest
        }
        // Integer32, Integer, gauge, counter; and the metric types an index never has.
        _ => {
            let (start, rest) = split(arcs, 1, used);
            let _ = write!(out, "{}", used[start]);
            rest
        }
    }
}

/// An OctetString or DisplayString index part: its length first unless it is fixed-size or
/// IMPLIED (the rest of the arcs).
fn octet_part<'a>(
    arcs: &'a [u32],
    part: Part<'_>,
    out: &mut String,
    scratch: &mut Scratch,
) -> &'a [u32] {
    let used = &mut scratch.used;
    let (length, arcs) = if part.fixed_size == 0 && !part.implied {
        let (start, rest) = split(arcs, 1, used);
        (used[start] as usize, rest)
    } else if part.implied {
        (arcs.len(), arcs)
    } else {
        (part.fixed_size, arcs)
    };
    let (start, rest) = split(arcs, length, used);
    let bytes = &mut scratch.bytes;
    bytes.clear();
    bytes.extend(used[start..].iter().map(|&a| a as u8));
    match part.ty {
        Ty::DisplayString => valid_utf8(bytes, out),
        _ if bytes.is_empty() => {}
        _ => {
            out.push_str("0x");
            for b in bytes.iter() {
                let _ = write!(out, "{b:02X}");
            }
        }
    }
    rest
}

/// An index part whose form its first arc selects (InetAddressType, LldpPortIdSubtype).
fn combined<'a>(
    arcs: &'a [u32],
    part: Part<'_>,
    out: &mut String,
    scratch: &mut Scratch,
) -> &'a [u32] {
    let missing_size = part.ty == Ty::InetAddressMissingSize;
    let start = scratch.used.len();
    let (at, value) = split(arcs, if missing_size { 1 } else { 2 }, &mut scratch.used);
    let selector = scratch.used[at];
    if let Some(t) = part.ty.selected_by(i64::from(selector)) {
        let selected = Part {
            ty: t,
            fixed_size: 0,
            implied: false,
            enums: part.enums,
        };
        return index(value, selected, out, scratch);
    }
    // The second arc is the length of what follows.
    let size = (!missing_size).then(|| (scratch.used[at + 1] as usize).saturating_add(2));
    scratch.used.truncate(start);
    let whole = Part {
        ty: Ty::OctetString,
        fixed_size: size.unwrap_or(0),
        implied: missing_size,
        enums: part.enums,
    };
    index(arcs, whole, out, scratch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_enums() -> BTreeMap<i64, String> {
        BTreeMap::new()
    }

    /// [`super::index`] with what it wrote: the label, the arcs used, the rest.
    fn index<'a>(
        arcs: &'a [u32],
        ty: Ty,
        fixed_size: usize,
        implied: bool,
        enums: &BTreeMap<i64, String>,
    ) -> (String, Vec<u32>, &'a [u32]) {
        let part = Part {
            ty,
            fixed_size,
            implied,
            enums,
        };
        let (mut text, mut scratch) = (String::new(), Scratch::default());
        let rest = super::index(arcs, part, &mut text, &mut scratch);
        (text, scratch.used, rest)
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
        let hint = OctetHint::parse_upper_hex("1x:").unwrap();
        assert_eq!(text(&os(b"eth0"), Some(Ty::DisplayString), None), "eth0");
        assert_eq!(
            text(&os(b"a\xffb"), Some(Ty::DisplayString), None),
            "a\u{FFFD}b"
        );
        assert_eq!(
            text(&os(b"\x00\x1b"), Some(Ty::OctetString), None),
            "0x001B"
        );
        assert_eq!(text(&os(b""), Some(Ty::OctetString), None), "");
        assert_eq!(text(&os(b"\x00\x1b"), None, Some(&hint)), "00:1B");
        assert_eq!(
            text(&os(b"\x0a\x00\x00\x01"), Some(Ty::InetAddressIPv4), None),
            "10.0.0.1"
        );
        assert_eq!(
            text(&os(b"\x01\x02"), Some(Ty::PhysAddress48), None),
            "01:02:00:00:00:00"
        );
        assert_eq!(
            text(&Value::IpAddress([192, 0, 2, 1]), None, None),
            "192.0.2.1"
        );
        assert_eq!(
            text(&Value::Counter64(u64::MAX), None, None),
            "18446744073709551615"
        );
        assert_eq!(text(&Value::NoSuchInstance, None, None), "");
        assert_eq!(
            number(&Value::Counter64(u64::MAX), true),
            ((u64::MAX) % (1 << 53)) as f64
        );
        assert_eq!(number(&Value::Integer(-3), true), -3.0);
    }
}
