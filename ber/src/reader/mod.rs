//! The decoding cursor.

use crate::error::{DecodeError, DecodeErrorKind, TagByte};
use crate::Any;

mod errors;

/// Constructed values may nest at most this deep below the outermost one.
///
/// SNMP messages nest six deep at most (SNMPv3: message, scopedPDU, PDU, varbind list, varbind,
/// value); the bound only matters for recursive or open types and for diagnostic walks.
pub const MAX_DEPTH: usize = 32;

/// A long-form length may have at most this many significant octets (a length of 2^64 and
/// more runs past the end of any input). Leading zero octets before them are accepted, as many
/// as the long form allows (X.690 8.1.3.5: up to 126 length octets), as net-snmp and tshark
/// accept them.
const MAX_LENGTH_OCTETS: usize = 8;

/// The contents and what follows them, for a long-form length of one or two octets in the
/// fewest (`0x81 n` with n of 128 and more, `0x82 hi lo` with hi not zero) that fits in
/// `rest`; `None` for every other length octet, for the caller's general path.
#[inline(always)]
fn minimal_long_form(l: u8, rest: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = match (l, rest) {
        (0x81, [n, rest @ ..]) if *n >= 0x80 => (*n as usize, rest),
        (0x82, [hi, lo, rest @ ..]) if *hi != 0 => (usize::from(*hi) << 8 | usize::from(*lo), rest),
        _ => return None,
    };
    (len <= rest.len()).then(|| rest.split_at(len))
}

/// A cursor over the contents of one BER value (or over the whole input).
///
/// Borrowing: everything read is a slice of the original input, so decoded values borrow from it
/// with lifetime `'a`. Offsets in errors are absolute: counted from the first octet of the input
/// given to [`Reader::new`], whatever the nesting.
///
/// Nothing out of line takes a reader, by reference or by value (four words, which go through
/// memory): an error constructor takes the offset, and what else runs off the hot path (the
/// long forms of a length, `Oid`'s rare check, the wide INTEGERs) takes the octets and a
/// `Frame`, two pairs of words that travel in registers. The caller's reader then stays in
/// registers, not in memory stored and reloaded at every TLV (message decode 351 -> 298
/// instructions by value; 155.1 -> 143.8 a binding in parts).
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    /// Address of the first octet of the whole input, to turn slices back into offsets.
    origin: usize,
    /// The depth below the outermost value (the low bits, [`DEPTH_BITS`]), the rules
    /// ([`DER`]) and whether lists are decoded element by element as they are framed (a
    /// validating decode, [`EAGER`]): one word, so that a nested reader copies them in one
    /// move and counts its depth with one add.
    mode: u32,
}

/// A reader without its octets: where the input starts and the mode, for the functions off
/// the hot path, which take it with the octets they need (see [`Reader`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    origin: usize,
    mode: u32,
}

impl Frame {
    /// Whether the reader this frame is of reads under [`Rules::BerLenient`].
    #[inline]
    pub(crate) fn is_lenient(self) -> bool {
        self.mode & LENIENT != 0
    }
}

/// The error `kind` at `offset`: the one out-of-line step of every error a reader makes.
#[cold]
#[inline(never)]
fn error_at_offset(offset: usize, kind: DecodeErrorKind) -> DecodeError {
    DecodeError::new(offset, kind)
}

/// The bits of [`Reader::mode`] that count the depth.
const DEPTH_BITS: u32 = 0xff;
/// Set in [`Reader::mode`] under [`Rules::Der`].
const DER: u32 = 0x100;
/// Set in [`Reader::mode`] for a validating reader.
const EAGER: u32 = 0x200;
/// Set in [`Reader::mode`] under [`Rules::BerLenient`].
const LENIENT: u32 = 0x400;

/// The encoding rules a [`Reader`] holds its input to.
///
/// BER (X.690 clause 8) is what SNMP agents send and what the SNMP modules are read with;
/// DER (X.690 clause 10 and 11) is BER with one encoding per value, as certificates and CRLs are
/// signed. Under DER a reader also rejects what DER forbids: long-form lengths that are not
/// minimal, INTEGERs with a redundant leading octet, BOOLEANs other than 0x00 and 0xFF, BIT
/// STRINGs whose unused bits are not zero, times not in their one canonical form; and the
/// generated decoders of modules compiled with DER rules add encoded DEFAULT values and
/// unsorted SET OF elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    /// Basic Encoding Rules: every definite-length form a sender may choose.
    #[default]
    Ber,
    /// Distinguished Encoding Rules.
    Der,
    /// BER with the relaxations real SNMP agents need, as net-snmp reads them: an unsigned
    /// INTEGER type (Counter32, Gauge32, TimeTicks, Counter64, ...) whose leading zero octet
    /// the sender left out, e.g. `41 04 ff ff ff ff` for 4294967295 (strict BER reads those
    /// octets as -1, outside the type). Only the error paths of the unsigned decoders look at
    /// the rule: it costs a well-formed message nothing.
    BerLenient,
}

impl<'a> Reader<'a> {
    /// A reader over a whole input.
    #[inline]
    pub fn new(input: &'a [u8]) -> Self {
        Reader {
            buf: input,
            origin: input.as_ptr() as usize,
            mode: 0,
        }
    }

    /// A reader over a whole input held to `rules`.
    #[inline]
    pub fn with_rules(input: &'a [u8], rules: Rules) -> Self {
        Reader::new(input).held_to(rules)
    }

    /// This reader held to `rules` instead: for a reader made by [`Reader::new_within`].
    ///
    /// ```
    /// use snmp_ber::{Reader, Rules};
    /// let message = [0x04, 0x03, 0x02, 0x01, 0xdd];
    /// let r = Reader::new_within(&message, &message[2..]).held_to(Rules::BerLenient);
    /// assert_eq!(r.rules(), Rules::BerLenient);
    /// ```
    pub fn held_to(self, rules: Rules) -> Self {
        let rule = match rules {
            Rules::Ber => 0,
            Rules::Der => DER,
            Rules::BerLenient => LENIENT,
        };
        Reader {
            mode: (self.mode & !(DER | LENIENT)) | rule,
            ..self
        }
    }

    /// The rules this reader holds its input to.
    #[inline]
    pub fn rules(&self) -> Rules {
        if self.is_der() {
            Rules::Der
        } else if self.mode & LENIENT != 0 {
            Rules::BerLenient
        } else {
            Rules::Ber
        }
    }

    /// This reader, with every SEQUENCE OF / SET OF below it decoded element by element as it
    /// is framed ([`crate::Decode::from_ber_validated`]): the lists are then known good, and
    /// encoding writes them back without decoding them again.
    #[inline]
    pub fn validating(self) -> Self {
        Reader {
            mode: self.mode | EAGER,
            ..self
        }
    }

    /// True for a validating reader ([`Reader::validating`]).
    #[inline]
    pub fn is_validating(&self) -> bool {
        self.mode & EAGER != 0
    }

    /// True under [`Rules::Der`].
    #[inline]
    pub fn is_der(&self) -> bool {
        self.mode & DER != 0
    }

    /// A reader over `part`, a slice of `whole`, reporting offsets counted from the start of
    /// `whole`. For values carried inside OCTET STRINGs (SNMPv3's msgSecurityParameters): their
    /// errors then point into the message. When `part` is not inside `whole`, offsets count
    /// from `part`.
    pub fn new_within(whole: &'a [u8], part: &'a [u8]) -> Self {
        let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
        let inside = p >= w && p + part.len() <= w + whole.len();
        Reader {
            buf: part,
            origin: if inside { w } else { p },
            mode: 0,
        }
    }

    /// A reader over `contents`, a slice of the input that `outer` reads, one level deeper.
    #[inline]
    pub fn nested(outer: &Reader<'a>, contents: &'a [u8]) -> Result<Self, DecodeError> {
        if (outer.mode & DEPTH_BITS) as usize >= MAX_DEPTH {
            return Err(outer.error_at(contents, DecodeErrorKind::TooDeep { max: MAX_DEPTH }));
        }
        Ok(Reader {
            buf: contents,
            origin: outer.origin,
            mode: outer.mode + 1,
        })
    }

    /// This reader's frame, to pass out of line with the octets the callee needs.
    #[inline(always)]
    pub(crate) fn frame(&self) -> Frame {
        Frame {
            origin: self.origin,
            mode: self.mode,
        }
    }

    /// A reader over `buf` (a slice of the input) in `frame`.
    #[inline(always)]
    pub(crate) fn in_frame(buf: &'a [u8], frame: Frame) -> Self {
        Reader {
            buf,
            origin: frame.origin,
            mode: frame.mode,
        }
    }

    /// This reader moved to `at` (a slice of its input).
    pub(crate) fn rewound(&self, at: &'a [u8]) -> Self {
        Reader { buf: at, ..*self }
    }

    /// The octets not read yet.
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        self.buf
    }

    /// True when every octet has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Absolute offset of the next octet.
    #[inline]
    pub fn offset(&self) -> usize {
        self.buf.as_ptr() as usize - self.origin
    }

    /// Absolute offset of a slice of the input.
    #[inline]
    pub fn offset_of(&self, slice: &[u8]) -> usize {
        slice.as_ptr() as usize - self.origin
    }

    /// How deep this reader is below the outermost value.
    #[inline]
    pub fn depth(&self) -> usize {
        (self.mode & DEPTH_BITS) as usize
    }

    /// Fails unless everything was read.
    #[inline]
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(self.trailing("input"))
        }
    }

    /// Fails unless everything was read, naming the enclosing construct in the error.
    #[inline]
    pub fn finish_in(&self, what: &'static str) -> Result<(), DecodeError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(self.trailing(what))
        }
    }

    /// The first identifier octet of the next value, if any.
    #[inline]
    pub fn peek_tag(&self) -> Option<u8> {
        self.buf.first().copied()
    }

    /// Reads one TLV whose identifier is the single octet `tag` and returns its contents.
    /// `expected` describes the tag for the error message.
    #[inline(always)]
    pub fn read_tlv(&mut self, tag: u8, expected: &'static str) -> Result<&'a [u8], DecodeError> {
        // Fast path: the expected identifier and a short-form length that fits; for a
        // constructed value (`tag` is a constant where this is inlined), the long form of one
        // or two octets too.
        if let [t, l, rest @ ..] = self.buf {
            if *t == tag {
                let framed = if *l < 0x80 {
                    ((*l as usize) <= rest.len()).then(|| rest.split_at(*l as usize))
                } else if tag & 0x20 != 0 {
                    minimal_long_form(*l, rest)
                } else {
                    None
                };
                if let Some((contents, after)) = framed {
                    self.buf = after;
                    return Ok(contents);
                }
            }
        }
        let (contents, after) = Self::read_tlv_long(self.buf, self.frame(), tag, expected)?;
        self.buf = after;
        Ok(contents)
    }

    /// [`Reader::read_tlv`] past its short form: the long form of one or two octets, in the
    /// fewest (lengths 128 to 65,535: every SNMP message, PDU and binding list over 127
    /// octets), framed here with no stack frame; everything else, including what DER forbids,
    /// goes on to the general path. Given the octets and the frame, returning the contents and
    /// what follows them.
    #[inline(never)]
    fn read_tlv_long(
        buf: &'a [u8],
        frame: Frame,
        tag: u8,
        expected: &'static str,
    ) -> Result<(&'a [u8], &'a [u8]), DecodeError> {
        if let [t, l, rest @ ..] = buf {
            if *t == tag {
                if let Some(framed) = minimal_long_form(*l, rest) {
                    return Ok(framed);
                }
            }
        }
        Reader::in_frame(buf, frame).read_tlv_slow(tag, expected)
    }

    #[inline(never)]
    fn read_tlv_slow(
        mut self,
        tag: u8,
        expected: &'static str,
    ) -> Result<(&'a [u8], &'a [u8]), DecodeError> {
        match self.buf.first() {
            Some(&t) if t == tag => {
                let contents = self.read_after_tag(1)?;
                Ok((contents, self.buf))
            }
            Some(&t) => Err(self.unexpected(t, expected)),
            None => Err(self.truncated("tag", 1, 0)),
        }
    }

    /// Reads one TLV whose identifier octets are `tag` (high tag numbers take several) and
    /// returns its contents.
    #[inline]
    pub fn read_tlv_multi(
        &mut self,
        tag: &[u8],
        expected: &'static str,
    ) -> Result<&'a [u8], DecodeError> {
        if let [one] = tag {
            return self.read_tlv(*one, expected);
        }
        let buf = self.buf;
        if buf.len() < tag.len() || &buf[..tag.len()] != tag {
            return match buf.first() {
                None => Err(self.truncated("tag", tag.len(), 0)),
                Some(&t) if t != tag[0] => Err(self.unexpected(t, expected)),
                Some(_) if buf.len() < tag.len() => {
                    Err(self.truncated("tag", tag.len(), buf.len()))
                }
                Some(&t) => Err(self.unexpected(t, expected)),
            };
        }
        self.read_after_tag(tag.len())
    }

    /// Reads a constructed TLV with tag `tag` and returns a reader over its contents.
    #[inline(always)]
    pub fn read_constructed(
        &mut self,
        tag: u8,
        expected: &'static str,
    ) -> Result<Reader<'a>, DecodeError> {
        let contents = self.read_tlv(tag, expected)?;
        Reader::nested(self, contents)
    }

    /// Like [`Reader::read_constructed`] for identifiers of several octets.
    #[inline]
    pub fn read_constructed_multi(
        &mut self,
        tag: &[u8],
        expected: &'static str,
    ) -> Result<Reader<'a>, DecodeError> {
        let contents = self.read_tlv_multi(tag, expected)?;
        Reader::nested(self, contents)
    }

    /// Steps over one complete TLV, whatever its tag.
    #[inline(always)]
    pub fn skip_tlv(&mut self) -> Result<(), DecodeError> {
        if let [t, l, rest @ ..] = self.buf {
            if *t & 0x1f != 0x1f && *l < 0x80 && (*l as usize) <= rest.len() {
                self.buf = &rest[*l as usize..];
                return Ok(());
            }
        }
        match self.buf.first() {
            Some(&t) if t & 0x1f != 0x1f => self.read_after_tag(1).map(|_| ()),
            _ => self.read_any().map(|_| ()),
        }
    }

    /// Reads any one TLV, whatever its tag. Used for ANY, open types and skipping.
    pub fn read_any(&mut self) -> Result<Any<'a>, DecodeError> {
        let start = self.buf;
        let first = match start.first() {
            Some(&b) => b,
            None => return Err(self.truncated("tag", 1, 0)),
        };
        let mut tag_len = 1;
        if first & 0x1f == 0x1f {
            // High tag number: base-128 continuation octets, bounded so a tag cannot be unbounded.
            loop {
                match start.get(tag_len) {
                    Some(&b) => {
                        tag_len += 1;
                        if b & 0x80 == 0 {
                            break;
                        }
                        if tag_len > 5 {
                            return Err(self.unexpected(first, "a tag number below 2^28"));
                        }
                    }
                    None => return Err(self.truncated("tag", tag_len + 1, start.len())),
                }
            }
        }
        let contents = self.read_after_tag(tag_len)?;
        let header = self.offset_of(contents) - self.offset_of(start);
        let raw = &start[..header + contents.len()];
        Ok(Any::from_parts(&start[..tag_len], contents, raw))
    }

    /// Reads the length after `tag_len` identifier octets, then the contents.
    #[inline(always)]
    fn read_after_tag(&mut self, tag_len: usize) -> Result<&'a [u8], DecodeError> {
        let buf = self.buf;
        let Some(&l0) = buf.get(tag_len) else {
            return Err(self.truncated_at(tag_len, "length", 1, 0));
        };
        let (len, header) = if l0 < 0x80 {
            (l0 as usize, tag_len + 1)
        } else {
            Self::long_length(buf, self.frame(), tag_len, l0)?
        };
        let rest = &buf[header..];
        if len > rest.len() {
            return Err(self.past_end(tag_len, len as u64, rest.len()));
        }
        let (contents, after) = rest.split_at(len);
        self.buf = after;
        Ok(contents)
    }

    /// The long form: 0x81..0xfe followed by that many octets, big-endian.
    #[inline(never)]
    fn long_length(
        buf: &'a [u8],
        frame: Frame,
        tag_len: usize,
        l0: u8,
    ) -> Result<(usize, usize), DecodeError> {
        let this = Reader::in_frame(buf, frame);
        let at = &buf[tag_len..];
        if l0 == 0x80 {
            return Err(this.error_at(at, DecodeErrorKind::IndefiniteLength));
        }
        if l0 == 0xff {
            return Err(this.error_at(at, DecodeErrorKind::ReservedLength));
        }
        let n = (l0 & 0x7f) as usize;
        if at.len() < 1 + n {
            return Err(this.truncated_at(tag_len + 1, "length", n, at.len() - 1));
        }
        let octets = &at[1..1 + n];
        let zeros = octets.iter().take_while(|&&b| b == 0).count();
        let significant = &octets[zeros..];
        if significant.len() > MAX_LENGTH_OCTETS {
            return Err(this.error_at(
                at,
                DecodeErrorKind::LengthTooLong {
                    found: significant.len(),
                    max: MAX_LENGTH_OCTETS,
                },
            ));
        }
        let mut len: u64 = 0;
        for &b in significant {
            len = (len << 8) | b as u64;
        }
        if this.is_der() && (zeros > 0 || len < 0x80) {
            // X.690 10.1: the definite form in the fewest octets.
            return Err(this.error_at(at, DecodeErrorKind::NonMinimalLength { length: len }));
        }
        let available = at.len() - 1 - n;
        if len > available as u64 {
            return Err(this.past_end(tag_len, len, available));
        }
        Ok((len as usize, tag_len + 1 + n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_lengths() {
        let input = [0x04, 0x02, b'a', b'b', 0x04, 0x82, 0x00, 0x01, b'c'];
        let mut r = Reader::new(&input);
        assert_eq!(r.read_tlv(0x04, "OCTET STRING").unwrap(), b"ab");
        // Non-minimal long form is tolerated.
        assert_eq!(r.read_tlv(0x04, "OCTET STRING").unwrap(), b"c");
        r.finish().unwrap();
    }

    /// The long forms the fast path frames (`0x81 n`, `0x82 hi lo`, minimal) and those it
    /// leaves to the general path (non-minimal: BER takes them, DER refuses them), at the
    /// boundaries, fitting exactly and one octet short.
    #[test]
    fn long_forms_of_one_and_two_octets() {
        // A primitive identifier (long forms out of line) and a constructed one (inline).
        for (tag, other) in [(0x04u8, 0x30u8), (0x30, 0x04)] {
            let tlv = |len_octets: &[u8], contents: usize| {
                let mut v = vec![tag];
                v.extend_from_slice(len_octets);
                v.extend((0..contents).map(|i| i as u8));
                v
            };
            for (len_octets, len) in [
                (&[0x81, 0x80][..], 128usize),
                (&[0x81, 0xff], 255),
                (&[0x82, 0x01, 0x00], 256),
                (&[0x82, 0xff, 0xff], 65535),
                (&[0x81, 0x05], 5),
                (&[0x82, 0x00, 0xc8], 200),
            ] {
                let what = format!("{tag:#x} {len_octets:x?}");
                let minimal = len >= 0x80 && len_octets.len() == len_length_octets(len);
                let whole = tlv(len_octets, len);
                for rules in [Rules::Ber, Rules::Der] {
                    let mut r = Reader::with_rules(&whole, rules);
                    let got = r.read_tlv(tag, "the tag");
                    if rules == Rules::Der && !minimal {
                        let e = got.unwrap_err();
                        assert_eq!(
                            e.kind(),
                            &DecodeErrorKind::NonMinimalLength { length: len as u64 },
                            "{what}"
                        );
                        assert_eq!(e.offset(), 1);
                        continue;
                    }
                    assert_eq!(got.unwrap(), &whole[1 + len_octets.len()..], "{what}");
                    r.finish().unwrap();
                }
                let short = &whole[..whole.len() - 1];
                let e = Reader::new(short).read_tlv(tag, "the tag").unwrap_err();
                assert_eq!(
                    e.kind(),
                    &DecodeErrorKind::LengthPastEnd {
                        length: len as u64,
                        available: len - 1
                    },
                    "{what}"
                );
                assert_eq!(e.offset(), 1);
                // The right length behind another identifier is that tag's error.
                let e = Reader::new(&whole).read_tlv(other, "another").unwrap_err();
                assert!(
                    matches!(e.kind(), DecodeErrorKind::UnexpectedTag { .. }),
                    "{what}: {e}"
                );
            }
        }
    }

    /// Length octets after 0x81/0x82 in the fewest form.
    fn len_length_octets(len: usize) -> usize {
        if len < 0x100 {
            2
        } else {
            3
        }
    }

    #[test]
    fn indefinite_and_oversized_lengths_fail_with_offsets() {
        let e = Reader::new(&[0x30, 0x80, 0, 0])
            .read_tlv(0x30, "SEQUENCE")
            .unwrap_err();
        assert_eq!(e.kind(), &DecodeErrorKind::IndefiniteLength);
        assert_eq!(e.offset(), 1);
        // Leading zero length octets, as many as the long form allows, are fine.
        let mut padded = vec![0x30, 0x8a];
        padded.extend([0; 9]);
        padded.extend([1, 0x05]);
        let c = Reader::new(&padded).read_tlv(0x30, "SEQUENCE").unwrap();
        assert_eq!(c, &[0x05]);
        // Nine significant octets: beyond 2^64.
        let e = Reader::new(&[0x30, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
            .read_tlv(0x30, "SEQUENCE")
            .unwrap_err();
        assert_eq!(
            e.kind(),
            &DecodeErrorKind::LengthTooLong { found: 9, max: 8 }
        );
        assert_eq!(e.offset(), 1);
        let e = Reader::new(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff])
            .read_tlv(0x30, "SEQUENCE")
            .unwrap_err();
        assert_eq!(
            e.kind(),
            &DecodeErrorKind::LengthPastEnd {
                length: 0xffff_ffff,
                available: 0
            }
        );
    }

    #[test]
    fn depth_is_bounded() {
        // Build a chain of single-element sequences from the inside out.
        let mut enc = vec![0x05, 0x00];
        for _ in 0..(MAX_DEPTH + 2) {
            let mut outer = vec![0x30, enc.len() as u8];
            if enc.len() > 127 {
                break;
            }
            outer.extend_from_slice(&enc);
            enc = outer;
        }
        let mut r = Reader::new(&enc);
        let mut result = Ok(());
        for _ in 0..(MAX_DEPTH + 2) {
            match r.read_constructed(0x30, "SEQUENCE") {
                Ok(inner) => r = inner,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let e = result.unwrap_err();
        assert_eq!(e.kind(), &DecodeErrorKind::TooDeep { max: MAX_DEPTH });
    }
}
