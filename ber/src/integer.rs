//! INTEGER contents octets: two's complement, big-endian (X.690 8.3).
//!
//! Decoding tolerates the redundant leading 0x00/0xFF octets that sloppy agents send, as long as
//! the whole encoding fits in 9 octets (the most any 64-bit value, signed or unsigned, needs).
//! Encoding is always minimal.

use crate::error::{DecodeError, DecodeErrorKind};
use crate::reader::Frame;
use crate::{EncodeError, Reader, Writer};

/// The most contents octets accepted for any INTEGER this runtime decodes.
const MAX_INTEGER_OCTETS: usize = 9;

#[inline(always)]
fn bad_length(r: &Reader<'_>, contents: &[u8]) -> DecodeError {
    let kind = if contents.is_empty() {
        DecodeErrorKind::EmptyInteger
    } else {
        DecodeErrorKind::IntegerTooLong {
            found: contents.len(),
            max: MAX_INTEGER_OCTETS - 1,
        }
    };
    r.error_at(contents, kind)
}

#[inline(always)]
fn out_of_range(
    r: &Reader<'_>,
    contents: &[u8],
    found: i128,
    expected: &'static str,
) -> DecodeError {
    r.error_at(
        contents,
        DecodeErrorKind::IntegerOutOfRange { found, expected },
    )
}

/// Decodes INTEGER contents into an `i64`. `r` is the reader the contents came from (for offsets).
#[inline(always)]
pub fn decode_i64(r: &Reader<'_>, contents: &[u8]) -> Result<i64, DecodeError> {
    let n = contents.len();
    if n == 0 || n > 8 {
        return decode_i64_slow(r.frame(), contents);
    }
    Ok(sign_extend(be_bytes(contents), n))
}

/// The big-endian value of one to eight octets, with two or three loads instead of a loop
/// per octet (an INTEGER's contents are one to five octets in SNMP).
#[inline(always)]
pub(crate) fn be_bytes(c: &[u8]) -> u64 {
    let n = c.len();
    debug_assert!((1..=8).contains(&n));
    if n >= 4 {
        // The first four octets and the last four, overlapping when n < 8: an octet seen in
        // both lands on the same bits.
        let four = |at: usize| u32::from_be_bytes(c[at..at + 4].try_into().expect("4")) as u64;
        let (hi, lo) = (four(0), four(n - 4));
        (hi << (8 * (n - 4))) | lo
    } else if n == 1 {
        // SNMP's error-status, error-index, versions and most small values.
        c[0] as u64
    } else {
        // Two or three octets: the first, the middle and the last, the surplus shifted out.
        let v = (c[0] as u64) << 16 | (c[n / 2] as u64) << 8 | c[n - 1] as u64;
        v >> (8 * (3 - n))
    }
}

/// `v`, the value of `n` (1 to 8) two's-complement octets, sign-extended to 64 bits.
#[inline(always)]
pub(crate) fn sign_extend(v: u64, n: usize) -> i64 {
    let unused = 64 - 8 * n as u32;
    ((v << unused) as i64) >> unused
}

#[inline(never)]
fn decode_i64_slow(frame: Frame, contents: &[u8]) -> Result<i64, DecodeError> {
    let r = Reader::in_frame(contents, frame);
    let n = contents.len();
    if n == 0 || n > MAX_INTEGER_OCTETS {
        return Err(bad_length(&r, contents));
    }
    // Nine octets: representable only when the first is a redundant sign octet.
    let v = nine_octets(contents);
    match i64::try_from(v) {
        Ok(v) => Ok(v),
        Err(_) => Err(out_of_range(
            &r,
            contents,
            v,
            "-9223372036854775808..9223372036854775807",
        )),
    }
}

/// The exact value of a nine-octet two's-complement INTEGER.
fn nine_octets(contents: &[u8]) -> i128 {
    let mut v = (contents[0] as i8) as i128;
    for &b in &contents[1..] {
        v = (v << 8) | b as i128;
    }
    v
}

/// Decodes INTEGER contents into a `u64`; negative values are out of range.
#[inline]
pub fn decode_u64(r: &Reader<'_>, contents: &[u8]) -> Result<u64, DecodeError> {
    let n = contents.len();
    if n == 0 || n > MAX_INTEGER_OCTETS {
        return Err(bad_length(r, contents));
    }
    if contents[0] & 0x80 != 0 || (n == MAX_INTEGER_OCTETS && contents[0] != 0) {
        let v = if n == MAX_INTEGER_OCTETS {
            nine_octets(contents)
        } else {
            decode_i64(r, contents)? as i128
        };
        return Err(out_of_range(r, contents, v, "0..18446744073709551615"));
    }
    // Nine octets start with a zero octet here.
    Ok(be_bytes(&contents[n.saturating_sub(8)..]))
}

/// Octets in the minimal two's-complement encoding of `v`.
#[inline]
pub fn encoded_len_i64(v: i64) -> usize {
    // Bits needed beyond the sign: count redundant leading sign bits.
    let redundant = if v < 0 {
        v.leading_ones()
    } else {
        v.leading_zeros()
    } as usize;
    let significant = 64 - redundant + 1; // plus one sign bit
    significant.div_ceil(8)
}

/// Octets in the minimal encoding of the non-negative `v` (a leading 0x00 when the top bit is set).
#[inline]
pub fn encoded_len_u64(v: u64) -> usize {
    let significant = 64 - v.leading_zeros() as usize + 1;
    significant.div_ceil(8)
}

impl Writer<'_> {
    /// Writes the contents octets of `v`, minimal, and returns how many were written.
    #[inline(always)]
    pub fn put_i64_contents(&mut self, v: i64) -> Result<usize, EncodeError> {
        let n = encoded_len_i64(v);
        self.put_be_tail(v.to_be_bytes(), n)?;
        Ok(n)
    }

    /// Writes the contents octets of the unsigned `v`, minimal, and returns how many were written.
    #[inline(always)]
    pub fn put_u64_contents(&mut self, v: u64) -> Result<usize, EncodeError> {
        let n = encoded_len_u64(v);
        if n == 9 {
            self.put_be_tail(v.to_be_bytes(), 8)?;
            self.put_u8(0)?;
        } else {
            self.put_be_tail(v.to_be_bytes(), n)?;
        }
        Ok(n)
    }

    /// Writes a whole INTEGER-like TLV with a single-octet identifier: where there is room,
    /// the contents as one eight-octet store and the identifier and length as one more, with
    /// one check of the room.
    #[inline(always)]
    pub fn put_i64(&mut self, tag: u8, v: i64) -> Result<(), EncodeError> {
        let n = encoded_len_i64(v);
        if self.put_short_tlv(tag, v.to_be_bytes(), n) {
            return Ok(());
        }
        self.put_i64_contents(v)?;
        self.put_header(tag, n)
    }

    /// Writes a whole unsigned INTEGER-like TLV with a single-octet identifier (as
    /// [`Writer::put_i64`]).
    #[inline(always)]
    pub fn put_u64(&mut self, tag: u8, v: u64) -> Result<(), EncodeError> {
        let n = encoded_len_u64(v);
        // Tested here as well as inside: a nine-octet value (Counter64 at 2^63 and above)
        // then skips the attempt (0.6 instructions a binding of the benchmark's encode).
        if n <= 8 && self.put_short_tlv(tag, v.to_be_bytes(), n) {
            return Ok(());
        }
        self.put_u64_contents(v)?;
        self.put_header(tag, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn dec_i(c: &[u8]) -> Result<i64, DecodeError> {
        decode_i64(&Reader::new(c), c)
    }
    fn dec_u(c: &[u8]) -> Result<u64, DecodeError> {
        decode_u64(&Reader::new(c), c)
    }

    proptest! {
        #[test]
        fn be_bytes_is_the_octets_big_endian(c in proptest::collection::vec(any::<u8>(), 1..=8)) {
            let want = c.iter().fold(0u64, |v, &b| (v << 8) | b as u64);
            prop_assert_eq!(be_bytes(&c), want);
            let signed = c.iter().skip(1).fold(c[0] as i8 as i64, |v, &b| (v << 8) | b as i64);
            prop_assert_eq!(sign_extend(want, c.len()), signed);
        }
    }

    #[test]
    fn known_values() {
        assert_eq!(dec_i(&[0x00]).unwrap(), 0);
        assert_eq!(dec_i(&[0x7f]).unwrap(), 127);
        assert_eq!(dec_i(&[0x00, 0x80]).unwrap(), 128);
        assert_eq!(dec_i(&[0x80]).unwrap(), -128);
        assert_eq!(dec_i(&[0xff, 0x7f]).unwrap(), -129);
        // Padding tolerated.
        assert_eq!(dec_i(&[0x00, 0x00, 0x05]).unwrap(), 5);
        assert_eq!(dec_i(&[0xff, 0xff, 0xff]).unwrap(), -1);
        // Counter64 >= 2^63 in nine octets.
        assert_eq!(
            dec_u(&[0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]).unwrap(),
            1u64 << 63
        );
        assert_eq!(
            dec_u(&[0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).unwrap(),
            u64::MAX
        );
    }

    #[test]
    fn bad_integers() {
        assert_eq!(
            dec_i(&[]).unwrap_err().kind(),
            &DecodeErrorKind::EmptyInteger
        );
        assert_eq!(
            dec_i(&[0; 10]).unwrap_err().kind(),
            &DecodeErrorKind::IntegerTooLong { found: 10, max: 8 }
        );
        assert!(matches!(
            dec_u(&[0xff]).unwrap_err().kind(),
            DecodeErrorKind::IntegerOutOfRange { found: -1, .. }
        ));
        assert!(matches!(
            dec_u(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap_err().kind(),
            DecodeErrorKind::IntegerOutOfRange { .. }
        ));
    }

    proptest! {
        #[test]
        fn i64_round_trip(v in any::<i64>()) {
            let mut buf = [0u8; 16];
            let mut w = Writer::new(&mut buf);
            w.put_i64(0x02, v).unwrap();
            let out = w.into_written();
            prop_assert_eq!(out.len(), 2 + encoded_len_i64(v));
            let mut r = Reader::new(out);
            let c = r.read_tlv(0x02, "INTEGER").unwrap();
            prop_assert_eq!(decode_i64(&r, c).unwrap(), v);
            // Minimal: the first nine bits are never all equal.
            if c.len() > 1 {
                let top = ((c[0] as u16) << 1) | (c[1] as u16 >> 7);
                prop_assert!(top != 0 && top != 0x1ff);
            }
        }

        /// The one-store TLV equals contents then header, in a buffer of exactly its size
        /// (the store's fallback) and in a larger one.
        #[test]
        fn whole_tlvs_equal_contents_then_header(v in any::<i64>(), tag in any::<u8>()) {
            let reference = |unsigned: bool| {
                let mut buf = [0u8; 16];
                let mut w = Writer::new(&mut buf);
                let n = if unsigned {
                    w.put_u64_contents(v as u64).unwrap()
                } else {
                    w.put_i64_contents(v).unwrap()
                };
                w.put_header(tag, n).unwrap();
                w.written().to_vec()
            };
            for unsigned in [false, true] {
                let want = reference(unsigned);
                for size in [want.len(), 16] {
                    let mut buf = vec![0u8; size];
                    let mut w = Writer::new(&mut buf);
                    if unsigned {
                        w.put_u64(tag, v as u64).unwrap();
                    } else {
                        w.put_i64(tag, v).unwrap();
                    }
                    prop_assert_eq!(w.written(), &want[..], "unsigned {} in {}", unsigned, size);
                }
            }
        }

        #[test]
        fn u64_round_trip(v in any::<u64>()) {
            let mut buf = [0u8; 16];
            let mut w = Writer::new(&mut buf);
            w.put_u64(0x46, v).unwrap();
            let out = w.into_written();
            let mut r = Reader::new(out);
            let c = r.read_tlv(0x46, "Counter64").unwrap();
            prop_assert_eq!(decode_u64(&r, c).unwrap(), v);
        }
    }
}
