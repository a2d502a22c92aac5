//! BER primitives called by the code that `snmp-codegen` generates.
//!
//! The crate knows X.690 Basic Encoding Rules and nothing of SNMP:
//!
//! * [`Reader`] walks definite-length TLVs over a borrowed input without allocating. Every error
//!   it produces carries the absolute byte offset in the original input; generated decoders add
//!   the component path as the error travels outwards (a cold path only).
//! * [`Writer`] encodes backwards into a caller-provided buffer, so every length is known when it
//!   is written and is always the minimal definite form.
//! * [`Oid`] is an OBJECT IDENTIFIER borrowed as its BER contents octets: iteration over arcs,
//!   arc-wise ordering and dotted `Display` without ever decoding into a vector. [`OidBuf`] is the
//!   owned form for building requests.
//! * [`SequenceOf`] is a SEQUENCE OF either borrowed from decoded input (framed when decoded,
//!   each element decoded once as the iterator reaches it) or from a caller's slice (for
//!   encoding).
//!
//! ```
//! use snmp_ber::{Oid, OidBuf, Reader};
//!
//! // An INTEGER and an OBJECT IDENTIFIER, read in place: errors name their byte offset.
//! let input = [0x02, 0x02, 0x01, 0x00, 0x06, 0x03, 0x2b, 0x06, 0x01];
//! let mut r = Reader::new(&input);
//! let contents = r.read_tlv(0x02, "INTEGER")?;
//! assert_eq!(snmp_ber::int_i64(&r, contents)?, 256);
//! let oid = Oid::from_ber(r.read_tlv(0x06, "OBJECT IDENTIFIER")?)?;
//! assert_eq!(oid.to_string(), "1.3.6.1");
//! r.finish()?;
//! let owned: OidBuf = "1.3.6.1.2.1.1.3.0".parse()?;
//! assert!(owned.as_oid().starts_with(&oid));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod any;
mod bigint;
mod error;
mod integer;
mod octets;
mod oid;
mod prim;
mod reader;
mod scratch;
mod seq_of;
mod time;
mod writer;

pub use any::{Any, BitString};
pub use bigint::Integer;
pub use error::{DecodeError, DecodeErrorKind, EncodeError, PathSegment, TagByte};
pub use integer::{decode_i64, decode_u64, encoded_len_i64, encoded_len_u64};
pub use octets::{OctetBuf, INLINE_OCTETS};
pub use oid::{Arcs, Oid, OidBuf, OidList, OidListIter, OidParseError, MAX_OID_ARCS};
pub use prim::{
    boolean, der_minimal_integer, fixed_octets, int_i128, int_i32, int_i64, int_u32, int_u64, null,
    unpadded_within, within, within_alternative, within_path,
};
pub use reader::{Reader, Rules, MAX_DEPTH};
pub use scratch::SCRATCH_OCTETS;
pub use seq_of::{der_set_order, Label, Piece, SequenceOf, SequenceOfIter};
pub use time::{DateTime, GeneralizedTime, UtcTime};
pub use writer::{length_len, tlv_len, Writer};

/// A type with a BER decoder generated (or written) for it.
pub trait Decode<'a>: Sized {
    /// The type's name as spelt in its ASN.1 module; the first segment of error paths.
    const ASN1_NAME: &'static str;

    /// Decodes one complete value (its own tag, length and contents) from the reader,
    /// advancing it past the value.
    fn decode(reader: &mut Reader<'a>) -> Result<Self, DecodeError>;

    /// Decodes every SEQUENCE OF element this value holds (which decoding itself leaves to the
    /// lists' iterators), returning the first error with its full component path.
    fn validate(&self) -> Result<(), DecodeError> {
        Ok(())
    }

    /// Decodes exactly one value from `input`; bytes left over after it are an error.
    ///
    /// SEQUENCE OF elements are framed and decoded by their iterators, when reached; use
    /// [`Decode::from_ber_validated`] to have every element checked before this returns.
    fn from_ber(input: &'a [u8]) -> Result<Self, DecodeError> {
        let mut reader = Reader::new(input);
        let value = Self::decode(&mut reader).map_err(|e| e.in_component(Self::ASN1_NAME))?;
        reader.finish()?;
        Ok(value)
    }

    /// Decodes exactly one value from `input` under [`Rules::BerLenient`]: what
    /// [`Decode::from_ber`] accepts, and unsigned values whose leading zero octet the sender
    /// left out.
    ///
    /// ```
    /// use snmp_ber::{Decode, Reader};
    /// // A Counter32-shaped INTEGER (0..4294967295) of 4294967295 without its leading zero.
    /// struct Counter(u32);
    /// impl<'a> Decode<'a> for Counter {
    ///     const ASN1_NAME: &'static str = "Counter";
    ///     fn decode(r: &mut Reader<'a>) -> Result<Self, snmp_ber::DecodeError> {
    ///         let c = r.read_tlv(0x41, "Counter")?;
    ///         snmp_ber::int_u32(r, c).map(Counter)
    ///     }
    /// }
    /// let unpadded = [0x41, 0x04, 0xff, 0xff, 0xff, 0xff];
    /// assert!(Counter::from_ber(&unpadded).is_err());
    /// assert_eq!(Counter::from_ber_lenient(&unpadded).unwrap().0, 4_294_967_295);
    /// ```
    fn from_ber_lenient(input: &'a [u8]) -> Result<Self, DecodeError> {
        let mut reader = Reader::with_rules(input, Rules::BerLenient);
        let value = Self::decode(&mut reader).map_err(|e| e.in_component(Self::ASN1_NAME))?;
        reader.finish()?;
        Ok(value)
    }

    /// Decodes exactly one value from `input` under DER ([`Rules::Der`]): everything
    /// [`Decode::from_ber`] checks, and the one encoding DER allows for each value.
    fn from_der(input: &'a [u8]) -> Result<Self, DecodeError> {
        let mut reader = Reader::with_rules(input, Rules::Der);
        let value = Self::decode(&mut reader).map_err(|e| e.in_component(Self::ASN1_NAME))?;
        reader.finish()?;
        Ok(value)
    }

    /// [`Decode::from_ber`] with every SEQUENCE OF element decoded as its list is framed: every
    /// octet checked before returning, and the lists known good (encoding writes them back
    /// without decoding them again).
    fn from_ber_validated(input: &'a [u8]) -> Result<Self, DecodeError> {
        validated_under(input, Rules::Ber)
    }

    /// [`Decode::from_der`], validating as [`Decode::from_ber_validated`] does.
    fn from_der_validated(input: &'a [u8]) -> Result<Self, DecodeError> {
        validated_under(input, Rules::Der)
    }

    /// `error`, met by the iterator of a list inside a value of this type decoded from
    /// `input` under `rules`, named by its whole path from this type down. A list's iterator
    /// names the path from the type that holds the list (`Extensions[0].extnID` for an entry's
    /// extensions); this decodes `input` again, validating, to name it from the top
    /// (`CertificateList.tbsCertList.revokedCertificates[0].crlEntryExtensions[0].extnID`).
    /// `error` as it was when the validating decode meets another error first (or none).
    fn whole_path(input: &'a [u8], rules: Rules, error: DecodeError) -> DecodeError {
        match validated_under::<Self>(input, rules) {
            Err(found) if found.offset() == error.offset() && found.kind() == error.kind() => found,
            _ => error,
        }
    }

    /// A validating decode ([`Decode::from_ber_validated`]) under any of the [`Rules`].
    fn from_validated_under(input: &'a [u8], rules: Rules) -> Result<Self, DecodeError> {
        validated_under(input, rules)
    }
}

/// A validating decode of one value under `rules`.
fn validated_under<'a, T: Decode<'a>>(input: &'a [u8], rules: Rules) -> Result<T, DecodeError> {
    let mut reader = Reader::with_rules(input, rules).validating();
    let value = T::decode(&mut reader).map_err(|e| e.in_component(T::ASN1_NAME))?;
    reader.finish()?;
    value.validate().map_err(|e| e.in_component(T::ASN1_NAME))?;
    Ok(value)
}

/// A type with a BER encoder generated (or written) for it.
pub trait Encode {
    /// Encodes the whole value (tag, length and contents) in front of what the writer holds.
    fn encode(&self, writer: &mut Writer<'_>) -> Result<(), EncodeError>;

    /// Octets [`Encode::encode`] writes for this value (identifier, length and contents),
    /// counted without writing them: a value too large for the scratch buffer is encoded into
    /// an allocation of exactly its size. For a value `encode` refuses (a constraint broken),
    /// the length it would have had.
    fn encoded_len(&self) -> usize;

    /// Encodes into `buf`, returning the encoding: the tail of `buf` that was written.
    fn encode_to_slice<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8], EncodeError> {
        let n = writer::encode_tail(self, writer::uninit_mut(buf))?;
        Ok(&buf[buf.len() - n..])
    }

    /// Encodes into a freshly allocated vector of exactly the encoding's length: written into
    /// a per-thread scratch buffer of [`SCRATCH_OCTETS`] (zeroed once per thread), then copied
    /// out in one allocation; a value that does not fit there is measured
    /// ([`Encode::encoded_len`]) and written straight into a vector of its size.
    ///
    /// There is no separate `to_der`: the encoders write definite lengths in their fewest
    /// octets, and types of a module built with `.der()` sort SET OF; the encoding is DER
    /// when the value holds nothing DER forbids (a component DEFAULT-valued but present is
    /// written as given).
    #[doc(alias = "to_der")]
    fn to_ber(&self) -> Result<Vec<u8>, EncodeError> {
        scratch::encode_to_vec(|buf| writer::encode_tail(self, buf), || self.encoded_len())
    }

    /// Encodes into `out`, replacing what it held: as [`Encode::to_ber`], but copied into
    /// `out`'s own allocation, so that a sender reusing one vector allocates nothing once it
    /// has room for its largest message.
    fn encode_into_vec(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        scratch::encode_into(
            |buf| writer::encode_tail(self, buf),
            || self.encoded_len(),
            out,
        )
    }
}
