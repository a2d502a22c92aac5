//! The numbers net-snmp carries inside an Opaque (the encoding of the expired
//! draft-perkins-opaque-01 that net-snmp agents send, e.g. UCD-SNMP-MIB's `laLoadFloat`): the
//! Opaque's octets are themselves a BER TLV whose identifier is two octets, `0x9f` (context
//! class, tag number in the next octet) and the type: `0x78` Float (4 octets, IEEE 754 single,
//! network order), `0x79` Double (8 octets), `0x76` Counter64, `0x7a` Int64 (two's complement),
//! `0x7b` UInt64 (minimal octets, as INTEGER contents). Anything else in an Opaque stays plain
//! octets.

/// A number net-snmp wraps in an Opaque.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OpaqueNumber {
    /// `0x9f 0x78`: IEEE 754 single precision.
    Float(f32),
    /// `0x9f 0x79`: IEEE 754 double precision.
    Double(f64),
    /// `0x9f 0x76`: Counter64.
    Counter64(u64),
    /// `0x9f 0x7a`: a signed 64-bit integer.
    Int64(i64),
    /// `0x9f 0x7b`: an unsigned 64-bit integer.
    UInt64(u64),
}

/// The first identifier octet of every wrapped number.
const EXTENSION: u8 = 0x9f;

impl OpaqueNumber {
    /// The number an Opaque's octets hold, when they are exactly one of the wrapped forms
    /// (identifier, a one-octet length, contents of the size the type allows); `None` for
    /// any other octets, which are a plain Opaque.
    pub fn from_opaque(octets: &[u8]) -> Option<Self> {
        let [EXTENSION, kind, len, contents @ ..] = octets else {
            return None;
        };
        if usize::from(*len) != contents.len() {
            return None;
        }
        Some(match (*kind, contents.len()) {
            (0x78, 4) => OpaqueNumber::Float(f32::from_be_bytes(contents.try_into().ok()?)),
            (0x79, 8) => OpaqueNumber::Double(f64::from_be_bytes(contents.try_into().ok()?)),
            (0x76, 1..=9) => OpaqueNumber::Counter64(unsigned(contents)?),
            (0x7b, 1..=9) => OpaqueNumber::UInt64(unsigned(contents)?),
            (0x7a, 1..=8) => OpaqueNumber::Int64(signed(contents)),
            _ => return None,
        })
    }

    /// The Opaque's octets that carry this number, as net-snmp writes them (integers in their
    /// fewest octets).
    pub fn to_opaque(&self) -> Vec<u8> {
        let (kind, contents): (u8, Vec<u8>) = match *self {
            OpaqueNumber::Float(f) => (0x78, f.to_be_bytes().to_vec()),
            OpaqueNumber::Double(d) => (0x79, d.to_be_bytes().to_vec()),
            OpaqueNumber::Counter64(c) => (0x76, minimal_unsigned(c)),
            OpaqueNumber::UInt64(u) => (0x7b, minimal_unsigned(u)),
            OpaqueNumber::Int64(i) => (0x7a, minimal_signed(i)),
        };
        let mut octets = vec![EXTENSION, kind, contents.len() as u8];
        octets.extend(contents);
        octets
    }
}

/// Unsigned contents: at most 8 octets of value after an optional leading zero.
fn unsigned(contents: &[u8]) -> Option<u64> {
    let value = match contents {
        [0, rest @ ..] if contents.len() == 9 => rest,
        _ if contents.len() <= 8 => contents,
        _ => return None,
    };
    Some(value.iter().fold(0u64, |a, &b| (a << 8) | u64::from(b)))
}

/// Two's complement contents of 1 to 8 octets.
fn signed(contents: &[u8]) -> i64 {
    let negative = contents[0] & 0x80 != 0;
    let start = if negative { -1i64 } else { 0 };
    contents.iter().fold(start, |a, &b| (a << 8) | i64::from(b))
}

/// `value`'s fewest octets, a leading zero when the high bit would read as a sign.
fn minimal_unsigned(value: u64) -> Vec<u8> {
    let bytes = value.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count().min(7);
    let mut out = Vec::with_capacity(9);
    if bytes[skip] & 0x80 != 0 {
        out.push(0);
    }
    out.extend(&bytes[skip..]);
    out
}

/// `value`'s fewest two's complement octets.
fn minimal_signed(value: i64) -> Vec<u8> {
    let bytes = value.to_be_bytes();
    let mut skip = 0;
    while skip < 7 {
        let (first, next) = (bytes[skip], bytes[skip + 1]);
        let redundant = (first == 0 && next & 0x80 == 0) || (first == 0xff && next & 0x80 != 0);
        if !redundant {
            break;
        }
        skip += 1;
    }
    bytes[skip..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_net_snmp_sends_reads_back() {
        // Octets of `snmptrap ... F 1.5 D -2.25 I -5 U 7` (net-snmp 5.9), and a Float NaN.
        let cases: [(&str, OpaqueNumber); 4] = [
            ("9f78043fc00000", OpaqueNumber::Float(1.5)),
            ("9f7908c002000000000000", OpaqueNumber::Double(-2.25)),
            ("9f7a01fb", OpaqueNumber::Int64(-5)),
            ("9f7b0107", OpaqueNumber::UInt64(7)),
        ];
        for (hex, number) in cases {
            let octets: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(OpaqueNumber::from_opaque(&octets), Some(number), "{hex}");
            assert_eq!(number.to_opaque(), octets, "{hex}");
        }
        let nan = OpaqueNumber::from_opaque(&[0x9f, 0x78, 4, 0x7f, 0xc0, 0, 0]);
        assert!(matches!(nan, Some(OpaqueNumber::Float(f)) if f.is_nan()));
    }

    #[test]
    fn integers_round_trip_at_their_edges() {
        for i in [0, 1, -1, 127, 128, -128, -129, i64::MAX, i64::MIN] {
            let n = OpaqueNumber::Int64(i);
            assert_eq!(OpaqueNumber::from_opaque(&n.to_opaque()), Some(n), "{i}");
        }
        for u in [0, 127, 128, 255, 256, u64::MAX] {
            for n in [OpaqueNumber::UInt64(u), OpaqueNumber::Counter64(u)] {
                assert_eq!(OpaqueNumber::from_opaque(&n.to_opaque()), Some(n), "{u}");
            }
        }
        assert_eq!(
            OpaqueNumber::UInt64(128).to_opaque(),
            [0x9f, 0x7b, 2, 0, 128]
        );
        assert_eq!(
            OpaqueNumber::Int64(-129).to_opaque(),
            [0x9f, 0x7a, 2, 0xff, 0x7f]
        );
    }

    #[test]
    fn other_octets_are_a_plain_opaque() {
        for octets in [
            &[][..],
            &[0x9f, 0x78, 3, 0, 0, 0],       // a Float of 3 octets
            &[0x9f, 0x78, 4, 0, 0, 0],       // length says more than there is
            &[0x9f, 0x78, 4, 0, 0, 0, 0, 0], // trailing octets
            &[0x9f, 0x77, 1, 0],             // an unknown type
            &[0x9f, 0x7a, 0],                // no contents
            &[0x9f, 0x7a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0], // an Int64 of 9 octets
            &[0x9f, 0x7b, 9, 1, 0, 0, 0, 0, 0, 0, 0, 0], // 9 octets without the leading zero
            &[0x04, 0x01, 0x41],             // an OCTET STRING
        ] {
            assert_eq!(OpaqueNumber::from_opaque(octets), None, "{octets:02x?}");
        }
    }
}
