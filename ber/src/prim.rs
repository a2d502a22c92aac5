//! Contents decoders for the primitive types, called by generated code with the reader the
//! contents came from (for error offsets) and the contents octets.

use crate::error::{DecodeError, DecodeErrorKind};
use crate::integer::{be_bytes, decode_i64, decode_u64, sign_extend};
use crate::reader::Frame;
use crate::Reader;

/// Runs `f`, adding `component` to the path of any error it returns. Generated decoders wrap
/// each component in one of these; the happy path costs a branch.
#[inline(always)]
pub fn within<T>(
    component: &'static str,
    f: impl FnOnce() -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    match f() {
        Ok(v) => Ok(v),
        Err(e) => Err(e.in_component(component)),
    }
}

/// [`within`] for a path of several components (outermost first), used where a flattened CHOICE
/// decodes a nested alternative in one step.
#[inline(always)]
pub fn within_path<T>(
    path: &'static [&'static str],
    f: impl FnOnce() -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    match f() {
        Ok(v) => Ok(v),
        Err(e) => Err(path.iter().rev().fold(e, |e, c| e.in_component(c))),
    }
}

/// `decoded` with the name of the alternative that `names` pairs with `tag` added to the path
/// of its error: for the CHOICE alternatives that share one contents decoder (IMPLICIT
/// retaggings of one structured type, as the SNMP PDUs are of `PDU`), where the identifier
/// octet read tells which alternative the value is.
#[inline(always)]
pub fn within_alternative<T>(
    tag: u8,
    names: &'static [(u8, &'static str)],
    decoded: Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    match decoded {
        Ok(v) => Ok(v),
        Err(e) => Err(in_alternative(e, tag, names)),
    }
}

#[cold]
#[inline(never)]
fn in_alternative(e: DecodeError, tag: u8, names: &'static [(u8, &'static str)]) -> DecodeError {
    match names.iter().find(|(t, _)| *t == tag) {
        Some((_, name)) => e.in_component(name),
        None => e,
    }
}

/// Under DER, fails when INTEGER contents start with a redundant sign octet (X.690 8.3.2).
#[inline(always)]
pub fn der_minimal_integer(r: &Reader<'_>, c: &[u8]) -> Result<(), DecodeError> {
    if r.is_der() {
        if let [a, b, ..] = c {
            if (*a == 0 && b & 0x80 == 0) || (*a == 0xff && b & 0x80 != 0) {
                return Err(not_minimal(r, c));
            }
        }
    }
    Ok(())
}

#[inline(always)]
fn not_minimal(r: &Reader<'_>, c: &[u8]) -> DecodeError {
    r.error_at(
        c,
        DecodeErrorKind::NotCanonical {
            what: "INTEGER",
            expected: "no redundant leading 0x00 or 0xff octet",
        },
    )
}

/// INTEGER contents as `i32` (-2147483648..2147483647).
#[inline(always)]
pub fn int_i32(r: &Reader<'_>, c: &[u8]) -> Result<i32, DecodeError> {
    // One octet (versions, error-status, error-index, small values): minimal under any rules.
    if let [b] = c {
        return Ok(*b as i8 as i32);
    }
    der_minimal_integer(r, c)?;
    if (1..=4).contains(&c.len()) {
        return Ok(sign_extend(be_bytes(c), c.len()) as i32);
    }
    int_i32_slow(r.frame(), c)
}

#[inline(never)]
fn int_i32_slow(frame: Frame, c: &[u8]) -> Result<i32, DecodeError> {
    let r = Reader::in_frame(c, frame);
    let v = decode_i64(&r, c)?;
    match i32::try_from(v) {
        Ok(v) => Ok(v),
        Err(_) => Err(r.out_of_range(c, v as i128, "-2147483648..2147483647")),
    }
}

/// INTEGER contents as `u32` (0..4294967295).
#[inline(always)]
pub fn int_u32(r: &Reader<'_>, c: &[u8]) -> Result<u32, DecodeError> {
    if let [b @ 0..=0x7f] = c {
        return Ok(*b as u32);
    }
    der_minimal_integer(r, c)?;
    // One to four octets with the sign bit clear, or five with a leading zero octet: the
    // leading zero shifts out of the 32-bit accumulator.
    let n = c.len();
    let ok = match c.first() {
        Some(&first) => first & 0x80 == 0 && (n < 5 || (n == 5 && first == 0)),
        None => false,
    };
    if ok {
        // Five octets: the leading zero shifts out of the 32 bits.
        return Ok(be_bytes(&c[n.saturating_sub(4)..]) as u32);
    }
    int_u32_slow(r.frame(), c)
}

/// Under [`crate::Rules::BerLenient`], contents of at most `width` octets whose sign bit is
/// set, read as the unsigned number a sender meant when it left out the leading zero octet.
#[inline]
fn unpadded_unsigned(frame: Frame, c: &[u8], width: usize) -> Option<u64> {
    let unpadded = c.first().is_some_and(|b| b & 0x80 != 0) && c.len() <= width;
    (unpadded && frame.is_lenient()).then(|| crate::integer::be_bytes(c))
}

/// A constrained INTEGER whose allowed values are all non-negative (`0..2147483647`, say),
/// found at `v`, outside its constraint: under [`crate::Rules::BerLenient`], the unsigned
/// reading of contents whose sign bit is set (eight octets at most), when `fits` takes it,
/// the number a sender meant when it left out the leading zero octet (an agent that writes
/// msgAuthoritativeEngineBoots 221 as `02 01 dd`); otherwise the out-of-range error.
///
/// ```
/// use snmp_ber::{Reader, Rules};
/// let c = [0xdd];
/// let fits = |u: i128| (0..=2147483647).contains(&u);
/// let lenient = Reader::with_rules(&c, Rules::BerLenient);
/// assert_eq!(snmp_ber::unpadded_within(&lenient, &c, -35, "0..2147483647", fits).unwrap(), 221);
/// let strict = Reader::new(&c);
/// assert!(snmp_ber::unpadded_within(&strict, &c, -35, "0..2147483647", fits).is_err());
/// ```
#[cold]
#[inline(never)]
pub fn unpadded_within(
    r: &Reader<'_>,
    c: &[u8],
    v: i128,
    expected: &'static str,
    fits: impl Fn(i128) -> bool,
) -> Result<i128, DecodeError> {
    match unpadded_unsigned(r.frame(), c, 8) {
        Some(u) if fits(i128::from(u)) => Ok(i128::from(u)),
        _ => Err(r.out_of_range(c, v, expected)),
    }
}

#[inline(never)]
fn int_u32_slow(frame: Frame, c: &[u8]) -> Result<u32, DecodeError> {
    if let Some(v) = unpadded_unsigned(frame, c, 4) {
        return Ok(v as u32);
    }
    let r = Reader::in_frame(c, frame);
    let v = int_i128(&r, c)?;
    match u32::try_from(v) {
        Ok(v) => Ok(v),
        Err(_) => Err(r.out_of_range(c, v, "0..4294967295")),
    }
}

/// INTEGER contents as `i64`.
#[inline(always)]
pub fn int_i64(r: &Reader<'_>, c: &[u8]) -> Result<i64, DecodeError> {
    if let [b] = c {
        return Ok(*b as i8 as i64);
    }
    der_minimal_integer(r, c)?;
    decode_i64(r, c)
}

/// INTEGER contents as `u64` (0..18446744073709551615, nine octets at most).
#[inline(always)]
pub fn int_u64(r: &Reader<'_>, c: &[u8]) -> Result<u64, DecodeError> {
    if let [b @ 0..=0x7f] = c {
        return Ok(*b as u64);
    }
    der_minimal_integer(r, c)?;
    let n = c.len();
    let ok = match c.first() {
        Some(&first) => first & 0x80 == 0 && (n < 9 || (n == 9 && first == 0)),
        None => false,
    };
    if ok {
        // Nine octets: the leading zero left out.
        return Ok(be_bytes(&c[n.saturating_sub(8)..]));
    }
    int_u64_slow(r.frame(), c)
}

#[inline(never)]
fn int_u64_slow(frame: Frame, c: &[u8]) -> Result<u64, DecodeError> {
    if let Some(v) = unpadded_unsigned(frame, c, 8) {
        return Ok(v);
    }
    let r = Reader::in_frame(c, frame);
    decode_u64(&r, c)
}

/// INTEGER contents as `i128`: any value of at most nine octets, for types whose constraint the
/// generated code checks itself (so the error names the constraint, not a Rust type's range).
#[inline(always)]
pub fn int_i128(r: &Reader<'_>, c: &[u8]) -> Result<i128, DecodeError> {
    // One octet (an error-index, a small constrained value): minimal under any rules.
    if let [b] = c {
        return Ok(i128::from(*b as i8));
    }
    der_minimal_integer(r, c)?;
    if (1..=8).contains(&c.len()) {
        return Ok(i128::from(sign_extend(be_bytes(c), c.len())));
    }
    int_i128_wide(r.frame(), c)
}

/// [`int_i128`] for nine octets (above `i64::MAX` when the first is zero) and errors.
#[inline(never)]
fn int_i128_wide(frame: Frame, c: &[u8]) -> Result<i128, DecodeError> {
    let r = Reader::in_frame(c, frame);
    if c.len() == 9 && c[0] == 0 {
        return int_u64(&r, c).map(i128::from);
    }
    decode_i64(&r, c).map(i128::from)
}

/// NULL contents: must be empty.
#[inline]
pub fn null(r: &Reader<'_>, c: &[u8]) -> Result<(), DecodeError> {
    if c.is_empty() {
        Ok(())
    } else {
        Err(r.error_at(c, DecodeErrorKind::NonEmptyNull { found: c.len() }))
    }
}

/// BOOLEAN contents: one octet, zero for FALSE (under DER, 0xff for TRUE).
#[inline]
pub fn boolean(r: &Reader<'_>, c: &[u8]) -> Result<bool, DecodeError> {
    match c {
        [b] if *b != 0 && *b != 0xff && r.is_der() => Err(r.error_at(
            c,
            DecodeErrorKind::NotCanonical {
                what: "BOOLEAN",
                expected: "0x00 or 0xff",
            },
        )),
        [b] => Ok(*b != 0),
        _ => Err(r.error_at(c, DecodeErrorKind::BadBoolean { found: c.len() })),
    }
}

/// OCTET STRING contents of exactly `N` octets, copied into an array.
#[inline]
pub fn fixed_octets<const N: usize>(
    r: &Reader<'_>,
    c: &[u8],
    expected: &'static str,
) -> Result<[u8; N], DecodeError> {
    match <[u8; N]>::try_from(c) {
        Ok(a) => Ok(a),
        Err(_) => Err(r.size_out_of_range(c, c.len(), expected)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn within_alternative_names_the_alternative_of_the_tag_read() {
        const NAMES: &[(u8, &str)] = &[(0xa0, "get-request"), (0xa2, "response")];
        let failed = || -> Result<u8, DecodeError> {
            Err(DecodeError::new(
                3,
                DecodeErrorKind::NonEmptyNull { found: 1 },
            ))
        };
        let e = within_alternative(0xa2, NAMES, failed()).unwrap_err();
        assert_eq!(e.path(), "response");
        let e = within_alternative(0xa0, NAMES, failed()).unwrap_err();
        assert_eq!(e.path(), "get-request");
        // A tag the table does not name leaves the path as it was.
        let e = within_alternative(0xa9, NAMES, failed()).unwrap_err();
        assert_eq!(e.path(), "");
        assert_eq!(within_alternative(0xa0, NAMES, Ok(5)).unwrap(), 5);
    }

    /// The minimal two's-complement contents of `v`, as an agent sends them.
    fn contents(v: i128) -> Vec<u8> {
        let bytes = v.to_be_bytes();
        let mut skip = 0;
        while skip < 15 {
            let (a, b) = (bytes[skip], bytes[skip + 1]);
            if (a == 0 && b & 0x80 == 0) || (a == 0xff && b & 0x80 != 0) {
                skip += 1;
            } else {
                break;
            }
        }
        bytes[skip..].to_vec()
    }

    proptest! {
        #[test]
        fn integers_decode_in_every_width(a in any::<i32>(), b in any::<u32>(), c in any::<u64>()) {
            let ca = contents(a as i128);
            prop_assert_eq!(int_i32(&Reader::new(&ca), &ca).unwrap(), a);
            let cb = contents(b as i128);
            prop_assert_eq!(int_u32(&Reader::new(&cb), &cb).unwrap(), b);
            let cc = contents(c as i128);
            prop_assert_eq!(int_u64(&Reader::new(&cc), &cc).unwrap(), c);
            prop_assert_eq!(int_i64(&Reader::new(&ca), &ca).unwrap(), a as i64);
            prop_assert_eq!(int_i128(&Reader::new(&cc), &cc).unwrap(), c as i128);
            prop_assert_eq!(int_i128(&Reader::new(&ca), &ca).unwrap(), a as i128);
            // One octet, either sign (the fast path).
            let small = contents(i128::from(a as i8));
            prop_assert_eq!(int_i128(&Reader::new(&small), &small).unwrap(), i128::from(a as i8));
        }

        #[test]
        fn out_of_range_is_an_error(v in (i32::MAX as i64 + 1)..i64::MAX) {
            let c = contents(v as i128);
            prop_assert!(int_i32(&Reader::new(&c), &c).is_err());
            let neg = contents(-(v as i128));
            prop_assert!(int_u32(&Reader::new(&neg), &neg).is_err());
            prop_assert!(int_u64(&Reader::new(&neg), &neg).is_err());
        }
    }
}
