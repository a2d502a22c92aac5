//! OBJECT IDENTIFIER values kept as their BER contents octets (X.690 8.19).

use std::cmp::Ordering;
use std::fmt;
use std::mem::MaybeUninit;
use std::str::FromStr;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::octets::{OctetBuf, INLINE_OCTETS};
use crate::reader::Frame;
use crate::{EncodeError, Reader, Writer};

mod list;
mod write;

pub use list::{OidList, OidListIter};
use write::Subid;

/// SNMP limits an OBJECT IDENTIFIER to 128 sub-identifiers (RFC 2578, section 3.5).
pub const MAX_OID_ARCS: usize = 128;

/// An OBJECT IDENTIFIER borrowed as BER contents octets: no decoding into a vector, arcs are
/// produced on demand, comparison is arc-wise (numeric), `Display` is dotted decimal.
///
/// Every `Oid` made by decoding or by [`Oid::from_ber`] is valid: non-empty, each subidentifier
/// minimal base-128 and at most 2^32-1, and the last one terminated.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Oid<'a> {
    ber: &'a [u8],
}

impl<'a> Oid<'a> {
    /// Wraps contents octets known to be valid (generated constants). Use [`Oid::from_ber`] for
    /// anything else.
    pub const fn from_ber_unchecked(ber: &'a [u8]) -> Self {
        Oid { ber }
    }

    /// Validates and wraps BER contents octets.
    pub fn from_ber(ber: &'a [u8]) -> Result<Self, DecodeErrorKind> {
        validate(ber)?;
        Ok(Oid { ber })
    }

    /// Validates contents read by `r`; errors carry the absolute offset.
    #[inline]
    pub fn decode_contents(r: &Reader<'a>, contents: &'a [u8]) -> Result<Self, DecodeError> {
        if plainly_valid(contents) {
            return Ok(Oid { ber: contents });
        }
        Self::decode_rare(r.frame(), contents)
    }

    /// [`Oid::decode_contents`] for what the fast test leaves: OIDs under eight octets, and
    /// errors.
    #[inline(never)]
    fn decode_rare(frame: Frame, contents: &'a [u8]) -> Result<Self, DecodeError> {
        // Kept out of the inlined fast path above, which SNMP's long names take.
        if short_and_plain(contents) {
            return Ok(Oid { ber: contents });
        }
        match validate(contents) {
            Ok(()) => Ok(Oid { ber: contents }),
            Err(kind) => Err(Reader::in_frame(contents, frame).error_at(contents, kind)),
        }
    }

    /// The BER contents octets.
    #[inline]
    pub fn as_ber(&self) -> &'a [u8] {
        self.ber
    }

    /// The arcs, first to last.
    #[inline]
    pub fn arcs(&self) -> Arcs<'a> {
        Arcs {
            ber: self.ber,
            pos: 0,
            pending: None,
        }
    }

    /// Number of arcs.
    pub fn len(&self) -> usize {
        // Each subidentifier ends with an octet below 0x80; the first encodes two arcs.
        self.ber.iter().filter(|b| **b < 0x80).count() + 1
    }

    /// Always false: a valid OBJECT IDENTIFIER has at least two arcs.
    pub fn is_empty(&self) -> bool {
        self.ber.is_empty()
    }

    /// True when `prefix`'s arcs are the first arcs of `self` (or all of them).
    #[inline]
    pub fn starts_with(&self, prefix: &Oid<'_>) -> bool {
        // Subidentifiers are self-delimiting, so an octet prefix is an arc prefix.
        self.ber.starts_with(prefix.ber)
    }

    /// Copies into an owned [`OidBuf`] (no heap allocation up to [`INLINE_OCTETS`] octets).
    #[inline]
    pub fn to_owned(&self) -> OidBuf {
        OidBuf {
            ber: OctetBuf::from_slice(self.ber),
        }
    }

    /// Writes the whole TLV with identifier `tag` (0x06 for a plain OBJECT IDENTIFIER).
    #[inline]
    pub fn encode_with_tag(&self, w: &mut Writer<'_>, tag: u8) -> Result<(), EncodeError> {
        w.put_tlv(tag, self.ber)
    }
}

/// Continuation bits: the high bit of every octet of a little-endian word.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// The low seven bits of every octet.
const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The fast test of valid contents, eight octets at a time: true when there are 8 to 127 octets
/// (fewer than [`MAX_OID_ARCS`], so arcs cannot be too many), the last ends a subidentifier, no
/// subidentifier starts with 0x80 (not minimal) and none is above 2^32-1 (six octets or more,
/// or five whose first is above 0x8F). False leaves the decision to [`validate`].
#[inline(always)]
fn plainly_valid(ber: &[u8]) -> bool {
    let len = ber.len();
    // Fewer than eight octets are left to `validate`, which is quick on so few.
    if !(8..MAX_OID_ARCS).contains(&len) || ber[len - 1] >= 0x80 {
        return false;
    }
    let word = |at: usize| u64::from_le_bytes(ber[at..at + 8].try_into().expect("eight octets"));
    if len <= 16 {
        // Most names: the first eight octets, and the last eight shifted so that only those
        // after the first eight remain (zero octets shifted in end subidentifiers and start
        // none with 0x80); no loop.
        let first = word(0);
        let last = match len {
            8 => 0,
            _ => word(len - 8) >> (8 * (16 - len)),
        };
        if (first | last) & HIGH == 0 {
            return true;
        }
        let mut prev = 0u64;
        return word_faults(first, &mut prev) | word_faults(last, &mut prev) == 0;
    }
    // The word before, for subidentifiers that cross a word boundary.
    let mut prev = 0u64;
    let mut bad = word_faults(word(0), &mut prev);
    let mut at = 8;
    while at + 8 <= len {
        bad |= word_faults(word(at), &mut prev);
        at += 8;
    }
    if at < len {
        // The last eight octets, shifted so only the `len - at` not yet seen remain; the zero
        // octets shifted in end subidentifiers and start none with 0x80.
        bad |= word_faults(word(len - 8) >> (8 * (8 - (len - at))), &mut prev);
    }
    bad == 0
}

/// One to seven octets, each a subidentifier of its own (below 0x80): the short identifiers of
/// X.500 and PKIX (2.5.4.3, 2.5.29.21), valid without further checks.
#[inline(always)]
fn short_and_plain(ber: &[u8]) -> bool {
    !ber.is_empty() && ber.len() < 8 && ber.iter().all(|&b| b < 0x80)
}

/// Bits 4 to 6 of every octet: set in the first octet of a five-octet subidentifier above
/// 2^32-1.
const MID: u64 = 0x7070_7070_7070_7070;

/// The octets of `w` (as their high bit) that start a subidentifier with 0x80, or are the
/// fourth continuation octet in a row of a subidentifier above 2^32-1; `prev` holds the word
/// before and receives `w`.
#[inline(always)]
fn word_faults(w: u64, prev: &mut u64) -> u64 {
    let before = std::mem::replace(prev, w);
    let cont = w & HIGH;
    if cont == 0 {
        // Eight one-octet subidentifiers: nothing to check.
        return 0;
    }
    let pc = before & HIGH;
    // Continuation bits of the octet 1, 2, 3 and 4 places before each octet.
    let c1 = (cont << 8) | (pc >> 56);
    // 0x80 exactly: high bit set, low seven bits zero.
    let low_zero = !((w & LOW) + LOW) & HIGH;
    let starts_0x80 = cont & low_zero & !c1;
    let c2 = (cont << 16) | (pc >> 48);
    let c3 = (cont << 24) | (pc >> 40);
    let run4 = cont & c1 & c2 & c3;
    if run4 == 0 {
        return starts_0x80;
    }
    // Five continuation octets in a row is six octets or more; four after a first octet
    // above 0x8F is a five-octet value above 2^32-1.
    let c4 = (cont << 32) | (pc >> 32);
    let big = ((w & MID) + MID) & HIGH;
    let big_before = ((before & MID) + MID) & HIGH;
    let big3 = (big << 24) | (big_before >> 40);
    starts_0x80 | (run4 & (c4 | big3))
}

fn validate(ber: &[u8]) -> Result<(), DecodeErrorKind> {
    let Some(&last) = ber.last() else {
        return Err(DecodeErrorKind::EmptyOid);
    };
    if last & 0x80 != 0 {
        return Err(DecodeErrorKind::UnterminatedOidArc { found: last });
    }
    let mut subids = 0usize;
    let mut value: u64 = 0;
    let mut at_start = true;
    for &b in ber {
        if at_start && b == 0x80 {
            return Err(DecodeErrorKind::NonMinimalOidArc);
        }
        value = (value << 7) | (b & 0x7f) as u64;
        if value > u32::MAX as u64 {
            return Err(DecodeErrorKind::OidArcTooLarge);
        }
        at_start = b & 0x80 == 0;
        if at_start {
            subids += 1;
            value = 0;
        }
    }
    if subids + 1 > MAX_OID_ARCS {
        return Err(DecodeErrorKind::TooManyOidArcs { found: subids + 1 });
    }
    Ok(())
}

/// Reads one subidentifier starting at `pos`; returns it and the position after it.
#[inline]
fn read_subid(ber: &[u8], mut pos: usize) -> (u32, usize) {
    let mut v: u32 = 0;
    while let Some(&b) = ber.get(pos) {
        v = (v << 7) | (b & 0x7f) as u32;
        pos += 1;
        if b & 0x80 == 0 {
            break;
        }
    }
    (v, pos)
}

/// Iterator over the arcs of an [`Oid`].
#[derive(Clone, Debug)]
pub struct Arcs<'a> {
    ber: &'a [u8],
    pos: usize,
    pending: Option<u32>,
}

impl Iterator for Arcs<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if let Some(second) = self.pending.take() {
            return Some(second);
        }
        if self.pos >= self.ber.len() {
            return None;
        }
        let first = self.pos == 0;
        let (v, next) = read_subid(self.ber, self.pos);
        self.pos = next;
        if first {
            let (a, b) = match v {
                0..=39 => (0, v),
                40..=79 => (1, v - 40),
                _ => (2, v - 80),
            };
            self.pending = Some(b);
            Some(a)
        } else {
            Some(v)
        }
    }
}

impl Ord for Oid<'_> {
    /// Arc-wise numeric order (so `1.3.6.1.2.1.2.2.1.2.10` sorts after `...2.2.1.2.9`).
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.ber, other.ber);
        let common = common_prefix(a, b);
        if common == a.len() || common == b.len() {
            return a.len().cmp(&b.len());
        }
        // Back up to the start of the subidentifier holding the first difference; the octets
        // before it are equal, so it starts at the same place in both.
        let mut start = common;
        while start > 0 && a[start - 1] & 0x80 != 0 {
            start -= 1;
        }
        let (x, _) = read_subid(a, start);
        let (y, _) = read_subid(b, start);
        // Different subidentifiers at the same place; the first one holds two arcs, but its
        // value orders the pair correctly (X*40+Y is monotone in (X, Y)).
        x.cmp(&y)
    }
}

/// How many octets `a` and `b` share at their start, compared eight at a time (the names of a
/// walk's bindings share most of theirs).
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        if let (Ok(x), Ok(y)) = (
            <[u8; 8]>::try_from(&a[i..i + 8]),
            <[u8; 8]>::try_from(&b[i..i + 8]),
        ) {
            let diff = u64::from_le_bytes(x) ^ u64::from_le_bytes(y);
            if diff != 0 {
                return i + (diff.trailing_zeros() / 8) as usize;
            }
        }
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

impl PartialOrd for Oid<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Oid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, arc) in self.arcs().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{arc}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Oid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Oid({self})")
    }
}

/// An owned OBJECT IDENTIFIER, for building requests and tables at run time: its BER contents
/// octets, inline up to [`INLINE_OCTETS`] (a table column's instance with an IP-address or a
/// short string index), on the heap beyond.
#[derive(PartialEq, Eq, Hash, Default)]
pub struct OidBuf {
    ber: OctetBuf,
}

impl Clone for OidBuf {
    #[inline]
    fn clone(&self) -> Self {
        OidBuf {
            ber: self.ber.clone(),
        }
    }

    /// Written over in the storage `self` has (a walk's last name, moved on each answer).
    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.ber.clone_from(&source.ber);
    }
}

/// Why a dotted OBJECT IDENTIFIER or an arc list is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OidParseError {
    /// An arc that is not a decimal number up to 2^32-1.
    #[error("arc {index} ({text:?}) is not a number up to 4294967295")]
    BadArc {
        /// Position of the arc, from 0.
        index: usize,
        /// The text found.
        text: String,
    },
    /// Fewer than two arcs, a first arc above 2, or a second arc above 39 under 0 or 1.
    #[error("{0}")]
    BadStart(&'static str),
    /// More than 128 arcs.
    #[error("{0} arcs: expected at most 128")]
    TooMany(usize),
}

impl OidBuf {
    /// Builds from arcs (no heap allocation up to [`INLINE_OCTETS`] octets): the arc writer
    /// (eight or four arcs at a time while they are all below 128, one at a time otherwise)
    /// fills an unzeroed scratch, whose first [`INLINE_OCTETS`] octets are then moved into the
    /// inline storage. Many OIDs built for one message cost less in an [`OidList`], which
    /// moves none.
    #[inline(always)]
    pub fn from_arcs(arcs: &[u32]) -> Result<Self, OidParseError> {
        // Not zeroed first: only the octets written are read.
        let mut buf = [MaybeUninit::<u8>::uninit(); ROOM];
        let (len, left) = write::put_oid(&mut buf, arcs)?;
        let (inline, _) = buf
            .split_first_chunk::<INLINE_OCTETS>()
            .expect("ROOM > INLINE");
        if len > INLINE_OCTETS || !left.is_empty() {
            // SAFETY: `put_oid` wrote `buf[..len]`.
            let head = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), len) };
            return Ok(Self::spilled(head, left));
        }
        // SAFETY: `put_oid` wrote the first `len` octets, all of them within `inline`.
        let ber = unsafe { OctetBuf::from_written(*inline, len) };
        Ok(OidBuf { ber })
    }

    /// `head` (octets already written) followed by `arcs`, through a vector (moved inline when
    /// short).
    #[cold]
    fn spilled(head: &[u8], arcs: &[u32]) -> Self {
        let mut ber = Vec::with_capacity(head.len() + arcs.len() * write::SUBID_MAX);
        ber.extend_from_slice(head);
        for &arc in arcs {
            ber.extend_from_slice(Subid::of(arc).as_slice());
        }
        OidBuf {
            ber: OctetBuf::from(ber),
        }
    }

    /// Borrows as an [`Oid`].
    #[inline]
    pub fn as_oid(&self) -> Oid<'_> {
        Oid {
            ber: self.ber.as_slice(),
        }
    }

    /// Replaces this OID with `oid`, in the storage it has (see [`OctetBuf::assign`]).
    #[inline]
    pub fn set(&mut self, oid: Oid<'_>) {
        self.ber.assign(oid.ber);
    }

    /// Appends one arc (e.g. an instance index).
    pub fn push(&mut self, arc: u32) {
        self.ber.extend_from_slice(Subid::of(arc).as_slice());
    }
}

/// [`OidBuf::from_arcs`]'s scratch: the inline storage and room for a last subidentifier
/// written past it (the result then goes to the heap).
const ROOM: usize = INLINE_OCTETS + 8;

impl FromStr for OidBuf {
    type Err = OidParseError;

    /// Parses dotted decimal, with or without a leading dot: `1.3.6.1.2.1.1.1.0`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.strip_prefix('.').unwrap_or(s);
        let mut arcs = Vec::new();
        for (index, part) in s.split('.').enumerate() {
            if index >= MAX_OID_ARCS {
                return Err(OidParseError::TooMany(s.split('.').count()));
            }
            let ok = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
            match part.parse::<u32>() {
                Ok(v) if ok => arcs.push(v),
                _ => {
                    return Err(OidParseError::BadArc {
                        index,
                        text: part.to_string(),
                    })
                }
            }
        }
        OidBuf::from_arcs(&arcs)
    }
}

impl fmt::Display for OidBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_oid(), f)
    }
}

impl fmt::Debug for OidBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OidBuf({self})")
    }
}

impl Ord for OidBuf {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_oid().cmp(&other.as_oid())
    }
}

impl PartialOrd for OidBuf {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn dotted_round_trip_and_known_encoding() {
        let o: OidBuf = "1.3.6.1.2.1.1.1.0".parse().unwrap();
        assert_eq!(o.as_oid().as_ber(), &[0x2b, 6, 1, 2, 1, 1, 1, 0]);
        assert_eq!(o.to_string(), "1.3.6.1.2.1.1.1.0");
        let big: OidBuf = "1.3.6.1.4.1.2021.4294967295".parse().unwrap();
        assert_eq!(
            big.as_oid().as_ber(),
            &[0x2b, 6, 1, 4, 1, 0x8f, 0x65, 0x8f, 0xff, 0xff, 0xff, 0x7f]
        );
        assert_eq!(big.to_string(), "1.3.6.1.4.1.2021.4294967295");
        assert_eq!("2.999.3".parse::<OidBuf>().unwrap().to_string(), "2.999.3");
    }

    #[test]
    fn invalid_contents() {
        assert_eq!(Oid::from_ber(&[]), Err(DecodeErrorKind::EmptyOid));
        assert_eq!(
            Oid::from_ber(&[0x2b, 0x86]),
            Err(DecodeErrorKind::UnterminatedOidArc { found: 0x86 })
        );
        assert_eq!(
            Oid::from_ber(&[0x2b, 0x80, 0x01]),
            Err(DecodeErrorKind::NonMinimalOidArc)
        );
        assert_eq!(
            Oid::from_ber(&[0x2b, 0x90, 0x80, 0x80, 0x80, 0x00]),
            Err(DecodeErrorKind::OidArcTooLarge)
        );
        assert_eq!(
            Oid::from_ber(&[0x2b; 128]),
            Err(DecodeErrorKind::TooManyOidArcs { found: 129 })
        );
        assert!("1.3.x".parse::<OidBuf>().is_err());
        assert!("3.1".parse::<OidBuf>().is_err());
        assert!("1.40".parse::<OidBuf>().is_err());
        assert!("1.3.4294967296".parse::<OidBuf>().is_err());
    }

    #[test]
    fn ordering_is_numeric_not_bytewise() {
        let a: OidBuf = "1.3.6.1.256".parse().unwrap(); // 0x82 0x00
        let b: OidBuf = "1.3.6.1.16384".parse().unwrap(); // 0x81 0x80 0x00
        assert!(a < b);
        let c: OidBuf = "1.3.6.1.2.1.2.2.1.2.9".parse().unwrap();
        let d: OidBuf = "1.3.6.1.2.1.2.2.1.2.10".parse().unwrap();
        assert!(c < d);
        let e: OidBuf = "1.3.6.1.2.1.2.2.1.2".parse().unwrap();
        assert!(e < c && e.as_oid().len() == 10);
        assert!(c.as_oid().starts_with(&e.as_oid()));
    }

    #[test]
    fn from_arcs_names_what_is_wrong() {
        use OidParseError::*;
        let bad_start = |m: &'static str| Err(BadStart(m));
        assert_eq!(
            OidBuf::from_arcs(&[1]),
            bad_start("expected at least two arcs")
        );
        assert_eq!(
            OidBuf::from_arcs(&[3, 1]),
            bad_start("first arc must be 0, 1 or 2")
        );
        assert_eq!(
            OidBuf::from_arcs(&[1, 40, 1]),
            bad_start("second arc above 39 under a first arc of 0 or 1")
        );
        let text = (u32::MAX - 79).to_string();
        assert_eq!(
            OidBuf::from_arcs(&[2, u32::MAX - 79]),
            Err(BadArc { index: 1, text })
        );
        assert_eq!(OidBuf::from_arcs(&[1; 129]), Err(TooMany(129)));
        let most = OidBuf::from_arcs(&[1; 128]).unwrap();
        assert_eq!(most.as_oid().arcs().count(), 128);
        let big_start = OidBuf::from_arcs(&[2, 1000, 5]).unwrap();
        assert_eq!(big_start.as_oid().as_ber(), [0x88, 0x38, 5]);
    }

    /// The fast test's two-word path (8 to 16 octets: most names), at its edges: a fault in
    /// the octets only the second word holds, or across the two words, is found.
    #[test]
    fn the_fast_test_reads_both_words_of_a_short_name() {
        let ifdescr = [0x2b, 6, 1, 2, 1, 2, 2, 1, 2, 1];
        assert!(plainly_valid(&ifdescr[..8]) && plainly_valid(&ifdescr));
        let mut sixteen = [0x2b, 6, 1, 4, 1, 0xbf, 0x08, 1, 3, 2, 3, 1, 1, 5, 100, 1];
        assert!(plainly_valid(&sixteen));
        // A subidentifier starting with 0x80 (not minimal) in the last octets.
        sixteen[13] = 0x80;
        assert!(!plainly_valid(&sixteen));
        // Five continuation octets in a row across the words: above 2^32-1.
        let long = [0x2b, 6, 1, 4, 1, 0x81, 0x81, 0x81, 0x81, 0x81, 1];
        assert!(!plainly_valid(&long));
        // A five-octet arc above 2^32-1 ending in the second word.
        let big = [0x2b, 6, 1, 4, 1, 1, 0x90, 0x80, 0x80, 0x80, 0];
        assert!(!plainly_valid(&big) && validate(&big).is_err());
        let top = [0x2b, 6, 1, 4, 1, 1, 0x8f, 0xff, 0xff, 0xff, 0x7f];
        assert!(plainly_valid(&top) && validate(&top).is_ok());
    }

    proptest! {
        #[test]
        fn the_fast_test_never_accepts_what_validate_rejects(
            ber in proptest::collection::vec(
                prop_oneof![any::<u8>(), Just(0x80u8), Just(0x8fu8), Just(0x01u8)],
                0..140,
            ),
        ) {
            if plainly_valid(&ber) {
                prop_assert_eq!(validate(&ber), Ok(()));
            }
        }

        /// Runs of short arcs broken anywhere by long ones (the eight-, four- and one-arc
        /// steps meet at every offset), past the inline storage too, under every kind
        /// of start (0.y and 1.y on the fast path, 2.y with a long first subidentifier on
        /// the general one): the octets are those of one subidentifier after another, on the
        /// heap exactly when they are longer than the inline storage.
        #[test]
        fn from_arcs_writes_each_arc_in_base_128(
            start in prop_oneof![
                4 => Just((1u32, 3u32)),
                1 => (0u32..2, 0u32..40),
                1 => (Just(2u32), 0u32..(u32::MAX - 80)),
            ],
            arcs in proptest::collection::vec(
                prop_oneof![8 => 0u32..128, 1 => 128u32..(1 << 14), 1 => any::<u32>()],
                0..48,
            ),
        ) {
            let mut all = vec![start.0, start.1];
            all.extend(&arcs);
            let mut want = Vec::new();
            for a in std::iter::once(start.0 * 40 + start.1).chain(arcs.iter().copied()) {
                let mut groups = vec![(a & 0x7f) as u8];
                let mut v = a >> 7;
                while v > 0 {
                    groups.push(0x80 | (v & 0x7f) as u8);
                    v >>= 7;
                }
                want.extend(groups.iter().rev());
            }
            let o = OidBuf::from_arcs(&all).unwrap();
            prop_assert_eq!(o.as_oid().as_ber(), &want[..]);
            prop_assert_eq!(o.ber.spilled(), want.len() > INLINE_OCTETS);
            prop_assert_eq!(o.as_oid().arcs().collect::<Vec<_>>(), all);
        }

        #[test]
        fn the_fast_test_accepts_every_valid_oid(
            arcs in proptest::collection::vec(
                prop_oneof![0u32..128, 128u32..(1 << 21), any::<u32>()],
                0..30,
            ),
        ) {
            let mut all = vec![1, 3];
            all.extend(&arcs);
            let o = OidBuf::from_arcs(&all).unwrap();
            let ber = o.as_oid().as_ber();
            prop_assert_eq!(plainly_valid(ber), (8..MAX_OID_ARCS).contains(&ber.len()));
        }

        /// Long shared prefixes, as a walk's names have: the first difference anywhere in
        /// the eight-octet words or the tail of the comparison.
        #[test]
        fn order_of_names_sharing_a_prefix(
            prefix in proptest::collection::vec(any::<u32>(), 0..24),
            a in proptest::collection::vec(0u32..300, 0..4),
            b in proptest::collection::vec(0u32..300, 0..4),
        ) {
            let mut va = vec![1, 3];
            va.extend(&prefix);
            let mut vb = va.clone();
            va.extend(&a);
            vb.extend(&b);
            let oa = OidBuf::from_arcs(&va).unwrap();
            let ob = OidBuf::from_arcs(&vb).unwrap();
            prop_assert_eq!(oa.cmp(&ob), va.cmp(&vb));
            prop_assert_eq!(ob.cmp(&oa), vb.cmp(&va));
        }

        #[test]
        fn order_matches_arc_vectors(
            a in proptest::collection::vec(any::<u32>(), 0..40),
            b in proptest::collection::vec(any::<u32>(), 0..40),
            head in 0u32..3,
            second in 0u32..39,
        ) {
            let mut va = vec![head, second];
            va.extend(&a);
            let mut vb = vec![head, second];
            vb.extend(&b);
            let oa = OidBuf::from_arcs(&va).unwrap();
            let ob = OidBuf::from_arcs(&vb).unwrap();
            prop_assert_eq!(oa.cmp(&ob), va.cmp(&vb));
            prop_assert_eq!(oa.as_oid().arcs().collect::<Vec<_>>(), va.clone());
            prop_assert!(Oid::from_ber(oa.as_oid().as_ber()).is_ok());
            prop_assert_eq!(oa.to_string().parse::<OidBuf>().unwrap(), oa);
        }
    }
}
