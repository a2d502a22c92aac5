//! Open values: ANY (a whole TLV kept as octets) and BIT STRING.

use std::fmt;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::{Decode, Encode, EncodeError, Reader, Writer};

/// A complete TLV whose type is not known to the decoder (ASN.1 `ANY`, open types).
///
/// Keeps the identifier octets, the contents and the whole encoding, all borrowed; encoding
/// writes the original octets back unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Any<'a> {
    tag: &'a [u8],
    contents: &'a [u8],
    raw: &'a [u8],
}

impl<'a> Any<'a> {
    pub(crate) fn from_parts(tag: &'a [u8], contents: &'a [u8], raw: &'a [u8]) -> Self {
        Any { tag, contents, raw }
    }

    /// Wraps one complete, definite-length TLV, checking that `raw` is exactly that.
    pub fn from_raw(raw: &'a [u8]) -> Result<Self, DecodeError> {
        Any::from_ber(raw)
    }

    /// The identifier octets.
    pub fn tag(&self) -> &'a [u8] {
        self.tag
    }

    /// The contents octets.
    pub fn contents(&self) -> &'a [u8] {
        self.contents
    }

    /// The whole TLV.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// True when the constructed bit of the identifier is set.
    pub fn is_constructed(&self) -> bool {
        self.tag[0] & 0x20 != 0
    }
}

impl fmt::Debug for Any<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Any(")?;
        for b in self.raw {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl<'a> Decode<'a> for Any<'a> {
    const ASN1_NAME: &'static str = "ANY";

    fn decode(reader: &mut Reader<'a>) -> Result<Self, DecodeError> {
        reader.read_any()
    }
}

impl Encode for Any<'_> {
    fn encode(&self, writer: &mut Writer<'_>) -> Result<(), EncodeError> {
        writer.put_slice(self.raw)
    }

    fn encoded_len(&self) -> usize {
        self.raw.len()
    }
}

/// A BIT STRING borrowed from the input: the unused-bit count and the octets holding the bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct BitString<'a> {
    unused_bits: u8,
    bytes: &'a [u8],
}

impl<'a> BitString<'a> {
    /// A bit string of `bytes.len() * 8 - unused_bits` bits, checked like decoding does.
    pub fn new(bytes: &'a [u8], unused_bits: u8) -> Option<Self> {
        if unused_bits > 7 || (bytes.is_empty() && unused_bits != 0) {
            return None;
        }
        Some(BitString { unused_bits, bytes })
    }

    /// Decodes BIT STRING contents (the unused-bits octet, then the bits).
    pub fn decode_contents(r: &Reader<'a>, contents: &'a [u8]) -> Result<Self, DecodeError> {
        let Some((&unused, bytes)) = contents.split_first() else {
            return Err(r.error_at(
                contents,
                DecodeErrorKind::Truncated {
                    what: "BIT STRING unused-bits octet",
                    needed: 1,
                    found: 0,
                },
            ));
        };
        match BitString::new(bytes, unused) {
            Some(b) if r.is_der() && !b.padding_is_zero() => Err(r.error_at(
                contents,
                DecodeErrorKind::NotCanonical {
                    what: "BIT STRING",
                    expected: "unused bits set to zero (X.690 11.2.1)",
                },
            )),
            Some(b) => Ok(b),
            None => Err(r.error_at(
                contents,
                DecodeErrorKind::BadBitString {
                    found: unused,
                    expected: "0..7, and 0 when there are no bits",
                },
            )),
        }
    }

    /// True when the unused bits of the last octet are all zero, as DER requires.
    pub fn padding_is_zero(&self) -> bool {
        match self.bytes.last() {
            Some(&last) => last & ((1u8 << self.unused_bits) - 1) == 0,
            None => true,
        }
    }

    /// Number of bits.
    pub fn bit_len(&self) -> usize {
        self.bytes.len() * 8 - self.unused_bits as usize
    }

    /// Bit `i`, counted from the most significant bit of the first octet (bit 0 is named 0).
    pub fn bit(&self, i: usize) -> bool {
        i < self.bit_len() && self.bytes[i / 8] & (0x80 >> (i % 8)) != 0
    }

    /// The octets holding the bits.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The unused-bits count.
    pub fn unused_bits(&self) -> u8 {
        self.unused_bits
    }

    /// Writes the whole TLV with identifier `tag` (0x03 for a plain BIT STRING).
    pub fn encode_with_tag(&self, w: &mut Writer<'_>, tag: u8) -> Result<(), EncodeError> {
        w.put_slice(self.bytes)?;
        w.put_u8(self.unused_bits)?;
        w.put_header(tag, self.bytes.len() + 1)
    }
}
