//! INTEGER of any size, borrowed as its contents octets: certificate serial numbers (up to 20
//! octets, RFC 5280 4.1.2.2), CRL numbers, and every unconstrained INTEGER of a module compiled
//! with DER rules.

use std::fmt;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::prim::der_minimal_integer;
use crate::{EncodeError, Reader, Writer};

/// An INTEGER of any size: its two's-complement contents octets, big-endian, borrowed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Integer<'a>(&'a [u8]);

impl<'a> Integer<'a> {
    /// The INTEGER whose contents octets are `octets`, or `None` when there are none.
    pub fn from_contents(octets: &'a [u8]) -> Option<Self> {
        (!octets.is_empty()).then_some(Integer(octets))
    }

    /// Decodes INTEGER contents: at least one octet; under DER, no redundant leading octet.
    #[inline]
    pub fn decode_contents(r: &Reader<'a>, c: &'a [u8]) -> Result<Self, DecodeError> {
        if c.is_empty() {
            return Err(r.error_at(c, DecodeErrorKind::EmptyInteger));
        }
        der_minimal_integer(r, c)?;
        Ok(Integer(c))
    }

    /// The contents octets.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// True for a value below zero.
    pub fn is_negative(&self) -> bool {
        self.0[0] & 0x80 != 0
    }

    /// The value, when it fits an `i64`.
    pub fn to_i64(&self) -> Option<i64> {
        let c = self.significant();
        if c.len() > 8 {
            return None;
        }
        let mut v = if self.is_negative() { -1i64 } else { 0 };
        for &b in c {
            v = (v << 8) | b as i64;
        }
        Some(v)
    }

    /// The value, when it is not negative and fits a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        if self.is_negative() {
            return None;
        }
        let c = self.significant();
        let c = c.strip_prefix(&[0]).unwrap_or(c);
        if c.len() > 8 {
            return None;
        }
        Some(c.iter().fold(0u64, |v, &b| (v << 8) | b as u64))
    }

    /// The octets after any redundant sign octets.
    fn significant(&self) -> &'a [u8] {
        let mut c = self.0;
        while let [a, b, ..] = c {
            if (*a == 0 && b & 0x80 == 0) || (*a == 0xff && b & 0x80 != 0) {
                c = &c[1..];
            } else {
                break;
            }
        }
        c
    }

    /// Writes the contents octets as they are.
    #[inline]
    pub fn encode_contents(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.put_slice(self.0)
    }

    /// Octets [`Integer::encode_contents`] writes.
    #[inline]
    pub fn contents_len(&self) -> usize {
        self.0.len()
    }
}

impl fmt::Debug for Integer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_i64() {
            Some(v) => write!(f, "{v}"),
            None => {
                f.write_str("0x")?;
                for b in self.0 {
                    write!(f, "{b:02x}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn values_and_der_minimality() {
        let ber = |c: &'static [u8]| Integer::decode_contents(&Reader::new(c), c);
        let v = ber(&[0x00, 0x80]).unwrap();
        assert_eq!((v.to_i64(), v.to_u64()), (Some(128), Some(128)));
        let v = ber(&[0xff, 0x7f]).unwrap();
        assert_eq!(v.to_i64(), Some(-129));
        assert_eq!(v.to_u64(), None);
        let v = ber(&[0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).unwrap();
        assert_eq!((v.to_i64(), v.to_u64()), (None, Some(u64::MAX)));
        let padded: &[u8] = &[0x00, 0x01];
        assert!(ber(padded).is_ok(), "BER allows it");
        let der = Reader::with_rules(padded, Rules::Der);
        let e = Integer::decode_contents(&der, padded).unwrap_err();
        assert!(matches!(e.kind(), DecodeErrorKind::NotCanonical { .. }));
        assert!(ber(&[]).is_err());
    }
}
