//! SEQUENCE OF / SET OF without allocation.

use std::fmt;
use std::marker::PhantomData;

use std::cmp::Ordering;

use crate::reader::Frame;
use crate::{Decode, DecodeError, DecodeErrorKind, Encode, EncodeError, Reader, Writer};

/// The order of SET OF elements under DER (X.690 11.6): their encodings compared as octet
/// strings, the shorter padded at its end with zero octets.
pub fn der_set_order(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    match a[..n].cmp(&b[..n]) {
        Ordering::Equal => {
            let rest_nonzero = |r: &[u8]| r.iter().any(|&x| x != 0);
            match a.len().cmp(&b.len()) {
                Ordering::Greater if rest_nonzero(&a[n..]) => Ordering::Greater,
                Ordering::Less if rest_nonzero(&b[n..]) => Ordering::Less,
                _ => Ordering::Equal,
            }
        }
        other => other,
    }
}

/// A list's ASN.1 name (e.g. `&"VarBindList"`), which starts the path of the errors its
/// iterator reports: a thin pointer, to keep lists and their iterators small.
pub type Label = &'static &'static str;

/// A SEQUENCE OF `T`: decoded input, a caller's slice to encode, or a list built from pieces
/// of others ([`SequenceOf::from_pieces`]: another list's elements written back as they were
/// encoded, with elements added, removed or replaced between them).
///
/// Decoding a list only reads its outer TLV: each element is framed, decoded and checked when the
/// iterator reaches it, in one pass over the octets. An element that does not decode (its
/// framing included) is an `Err` item naming its index, never skipped; when its framing is
/// broken it is the last item. [`Decode::from_ber_validated`] (or [`SequenceOf::validate`])
/// checks every element up front instead, at the cost of decoding them twice. A decoded list
/// is not counted until asked: [`SequenceOf::len`] walks the element headers.
#[derive(Clone, Copy)]
pub struct SequenceOf<'a, T> {
    repr: Repr<'a, T>,
}

#[derive(Clone, Copy)]
enum Repr<'a, T> {
    Decoded { reader: Reader<'a>, label: Label },
    Items(&'a [T]),
    Pieces(&'a [Piece<'a, T>]),
}

/// A part of a list built by [`SequenceOf::from_pieces`].
#[derive(Clone)]
pub enum Piece<'a, T> {
    /// The elements of another list: a decoded one (or a part of one, from
    /// [`SequenceOf::split_at`]) is written back as it was encoded, once checked.
    List(SequenceOf<'a, T>),
    /// One element.
    Item(T),
}

impl<'a, T> SequenceOf<'a, T> {
    /// True when every element is known to decode: a caller's slice, or a list decoded by a
    /// validating decode ([`Decode::from_ber_validated`]).
    pub fn is_validated(&self) -> bool {
        match &self.repr {
            // A validating reader decoded every element as it framed them.
            Repr::Decoded { reader, .. } => reader.is_validating(),
            Repr::Items(_) => true,
            Repr::Pieces(pieces) => pieces_validated(pieces),
        }
    }

    /// A list of `items`, for encoding.
    pub const fn from_slice(items: &'a [T]) -> Self {
        SequenceOf {
            repr: Repr::Items(items),
        }
    }

    /// A list of the elements of `pieces` in order: the way to edit a decoded list without
    /// decoding and encoding again the elements that stay. A decoded list's octets (or those
    /// of a part of it, [`SequenceOf::split_at`]) are copied as they came, once checked, so
    /// that adding an entry to a large list costs a copy of it.
    ///
    /// ```
    /// use snmp_ber::{Any, Encode, Piece, Reader, Rules, SequenceOf};
    ///
    /// // The contents of a SEQUENCE OF INTEGER: 1, 2, 3.
    /// let contents = [0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03];
    /// let list: SequenceOf<'_, Any<'_>> =
    ///     SequenceOf::decode_contents(Reader::with_rules(&contents, Rules::Der), &"Numbers")?;
    /// // Without its second element, and with 4 at the end.
    /// let (head, rest) = list.split_at(1).expect("at least one element");
    /// let (_, tail) = rest.split_at(1).expect("at least two elements");
    /// let four = Any::from_raw(&[0x02, 0x01, 0x04])?;
    /// let pieces = [Piece::List(head), Piece::List(tail), Piece::Item(four)];
    /// let edited = SequenceOf::from_pieces(&pieces);
    /// let numbers: Vec<u8> = edited.iter().map(|n| n.unwrap().contents()[0]).collect();
    /// assert_eq!(numbers, [1, 3, 4]);
    /// assert_eq!(edited.contents_len(), 9);
    /// let mut buf = [0u8; 9];
    /// let mut w = snmp_ber::Writer::new(&mut buf);
    /// edited.encode_contents(&mut w).unwrap();
    /// assert_eq!(buf, [0x02, 0x01, 0x01, 0x02, 0x01, 0x03, 0x02, 0x01, 0x04]);
    /// # Ok::<(), snmp_ber::DecodeError>(())
    /// ```
    pub const fn from_pieces(pieces: &'a [Piece<'a, T>]) -> Self {
        SequenceOf {
            repr: Repr::Pieces(pieces),
        }
    }

    /// The list cut after its first `mid` elements: a decoded list (its element headers
    /// walked, nothing decoded) or a caller's slice. `None` when it has fewer elements, when an
    /// element's framing before `mid` is broken, or for a list built from pieces.
    pub fn split_at(&self, mid: usize) -> Option<(Self, Self)> {
        match &self.repr {
            Repr::Decoded { reader, label } => {
                let mut r = *reader;
                for _ in 0..mid {
                    if r.is_empty() {
                        return None;
                    }
                    r.skip_tlv().ok()?;
                }
                let all = reader.remaining();
                let head = &all[..all.len() - r.remaining().len()];
                let part = |reader: Reader<'a>| SequenceOf {
                    repr: Repr::Decoded { reader, label },
                };
                Some((part(reader.rewound(head)), part(r)))
            }
            Repr::Items(items) => {
                let (head, tail) = items.split_at_checked(mid)?;
                Some((SequenceOf::from_slice(head), SequenceOf::from_slice(tail)))
            }
            Repr::Pieces(_) => None,
        }
    }

    /// Number of elements: the items the iterator yields. A decoded list is counted by walking
    /// its element headers (each complete TLV one element; a broken one counts once and ends
    /// the count, as it ends the iteration).
    #[inline]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Decoded { reader, .. } => count_up_to(*reader, usize::MAX),
            Repr::Items(items) => items.len(),
            Repr::Pieces(pieces) => pieces_len(pieces),
        }
    }

    /// True when there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        match &self.repr {
            Repr::Decoded { reader, .. } => reader.is_empty(),
            Repr::Items(items) => items.is_empty(),
            Repr::Pieces(pieces) => pieces_empty(pieces),
        }
    }

    /// True when the number of elements is within `min..=max` (a SIZE constraint), counting
    /// no more of a decoded list's elements than the answer needs: none when the octets are
    /// too few to hold more than `max` elements of two octets and `min` is 0.
    #[inline]
    pub fn has_len_within(&self, min: usize, max: usize) -> bool {
        match &self.repr {
            Repr::Decoded { reader, .. } => {
                let below_max = reader.remaining().len() / 2 <= max;
                if below_max {
                    // A first element exists when there are octets (a broken one counts).
                    match min {
                        0 => true,
                        1 => !reader.is_empty(),
                        _ => count_up_to(*reader, min) >= min,
                    }
                } else {
                    (min..=max).contains(&count_up_to(*reader, max.saturating_add(1)))
                }
            }
            Repr::Items(items) => (min..=max).contains(&items.len()),
            Repr::Pieces(_) => (min..=max).contains(&self.len()),
        }
    }

    /// The encoded contents octets, when this list was decoded.
    pub fn encoded(&self) -> Option<&'a [u8]> {
        match &self.repr {
            Repr::Decoded { reader, .. } => Some(reader.remaining()),
            Repr::Items(_) | Repr::Pieces(_) => None,
        }
    }
}

/// [`SequenceOf::is_validated`] of a list built from pieces (out of line, as every use of
/// pieces: the decoded lists' paths stay as small as they were).
#[inline(never)]
fn pieces_validated<T>(pieces: &[Piece<'_, T>]) -> bool {
    pieces.iter().all(|p| match p {
        _ if p.is_nested() => false,
        Piece::List(l) => l.is_validated(),
        Piece::Item(_) => true,
    })
}

impl<T> Piece<'_, T> {
    /// A list built from pieces given as a piece: refused (one error when iterated, an
    /// encode that fails), so that iterating pieces needs no stack.
    fn is_nested(&self) -> bool {
        matches!(
            self,
            Piece::List(SequenceOf {
                repr: Repr::Pieces(_)
            })
        )
    }
}

/// [`SequenceOf::len`] of a list built from pieces.
#[inline(never)]
fn pieces_len<T>(pieces: &[Piece<'_, T>]) -> usize {
    pieces.iter().map(piece_len).sum()
}

/// The elements a piece gives (a list built from pieces given as a piece: its one error).
fn piece_len<T>(piece: &Piece<'_, T>) -> usize {
    match piece {
        _ if piece.is_nested() => 1,
        Piece::List(l) => l.len(),
        Piece::Item(_) => 1,
    }
}

/// [`SequenceOf::is_empty`] of a list built from pieces.
#[inline(never)]
fn pieces_empty<T>(pieces: &[Piece<'_, T>]) -> bool {
    pieces.iter().all(|p| match p {
        _ if p.is_nested() => false,
        Piece::List(l) => l.is_empty(),
        Piece::Item(_) => false,
    })
}

impl<'a, T: Decode<'a>> SequenceOf<'a, T> {
    /// Decodes the contents of a SEQUENCE OF: nothing is read until the iterator reads it (under
    /// a validating reader, every element is decoded now). `label` names the list in the
    /// errors the iterator reports.
    #[inline]
    pub fn decode_contents(contents: Reader<'a>, label: Label) -> Result<Self, DecodeError> {
        if contents.is_validating() {
            Self::decode_elements(contents.remaining(), contents.frame())?;
        }
        Ok(SequenceOf {
            repr: Repr::Decoded {
                reader: contents,
                label,
            },
        })
    }

    /// Under a validating reader: every element decoded (and the lists inside them, since
    /// their readers validate too), the first error returned with the element's index.
    #[cold]
    #[inline(never)]
    fn decode_elements(contents: &'a [u8], frame: Frame) -> Result<(), DecodeError> {
        let mut r = Reader::in_frame(contents, frame);
        let mut index = 0;
        while !r.is_empty() {
            T::decode(&mut r).map_err(|e| e.in_element(index))?;
            index += 1;
        }
        Ok(())
    }

    /// Decodes the contents of a SET OF: as [`SequenceOf::decode_contents`], and under DER the
    /// elements must come in ascending order of their encodings (X.690 11.6).
    pub fn decode_set_contents(contents: Reader<'a>, label: Label) -> Result<Self, DecodeError> {
        let list = Self::decode_contents(contents, label)?;
        if contents.is_der() {
            check_set_order(contents)?;
        }
        Ok(list)
    }
}

/// Elements of the list `reader` holds, counted up to `limit`: each complete TLV counts, and
/// so does a broken one, after which counting stops.
fn count_up_to(reader: Reader<'_>, limit: usize) -> usize {
    let mut r = reader;
    let mut n = 0;
    while n < limit && !r.is_empty() {
        n += 1;
        if r.skip_tlv().is_err() {
            break;
        }
    }
    n
}

/// Under DER, SET OF elements in ascending order of their encodings.
fn check_set_order(contents: Reader<'_>) -> Result<(), DecodeError> {
    let mut r = contents;
    let mut previous: &[u8] = &[];
    let mut index = 0usize;
    while !r.is_empty() {
        let start = r.remaining();
        r.skip_tlv().map_err(|e| e.in_element(index))?;
        let element = &start[..start.len() - r.remaining().len()];
        if index > 0 && der_set_order(previous, element) == Ordering::Greater {
            let kind = DecodeErrorKind::UnsortedSetOf { index };
            return Err(contents.error_at(element, kind));
        }
        previous = element;
        index += 1;
    }
    Ok(())
}

impl<'a, T: Decode<'a> + Clone> SequenceOf<'a, T> {
    /// The elements, each decoded as the iterator reaches it.
    #[inline]
    pub fn iter(&self) -> SequenceOfIter<'a, '_, T> {
        let inner = match &self.repr {
            Repr::Decoded { reader, label } => IterRepr::Decoded {
                reader: *reader,
                counted: (reader.remaining(), 0),
                label,
                _t: PhantomData,
            },
            Repr::Items(items) => IterRepr::Items(items.iter()),
            Repr::Pieces(pieces) => IterRepr::Pieces(PiecesAt {
                rest: pieces,
                pos: 0,
                counted: (0, 0),
                index: 0,
            }),
        };
        SequenceOfIter { inner }
    }

    /// Decodes every element (and whatever lists they hold), returning the first error, with
    /// the element's index at the start of its path.
    pub fn validate(&self) -> Result<(), DecodeError> {
        self.validate_from(0).map(|_| ())
    }

    /// [`SequenceOf::validate`], the elements' indexes counted from `first`; the index after
    /// the last element.
    fn validate_from(&self, first: usize) -> Result<usize, DecodeError> {
        match &self.repr {
            Repr::Decoded { reader, label } => {
                if reader.is_validating() {
                    return Ok(first + self.len());
                }
                let mut r = *reader;
                let mut index = first;
                let at = |e: DecodeError, index| e.in_element(index).in_component(label);
                while !r.is_empty() {
                    let item = T::decode(&mut r).map_err(|e| at(e, index))?;
                    item.validate().map_err(|e| at(e, index))?;
                    index += 1;
                }
                Ok(index)
            }
            Repr::Items(items) => Ok(first + items.len()),
            Repr::Pieces(pieces) => pieces.iter().try_fold(first, |index, p| match p {
                _ if p.is_nested() => Err(nested_pieces()),
                Piece::List(l) => l.validate_from(index),
                Piece::Item(_) => Ok(index + 1),
            }),
        }
    }
}

/// Iterator over a [`SequenceOf`]: `Ok(element)`, or the error that element's octets gave.
pub struct SequenceOfIter<'a, 's, T> {
    inner: IterRepr<'a, 's, T>,
}

enum IterRepr<'a, 's, T> {
    Decoded {
        reader: Reader<'a>,
        /// An element boundary and the index of the element there: the list's start, then the
        /// element after the last error. An error's index is counted from it, on the error
        /// path only (so the loop keeps no count), each element at most once.
        counted: (&'a [u8], usize),
        label: Label,
        _t: PhantomData<T>,
    },
    Items(std::slice::Iter<'s, T>),
    Pieces(PiecesAt<'a, 's, T>),
}

/// Where the iteration of a list built from pieces is. `Copy`, and handed to its function by
/// value: taking its address would keep the whole iterator in memory, and the decoders' loops
/// over decoded lists pay for that (about 20 instructions an element, measured).
struct PiecesAt<'a, 's, T> {
    /// The piece being read, and those after it.
    rest: &'s [Piece<'a, T>],
    /// In the first of them: the octets (a decoded list) or the elements (a slice, an item)
    /// read.
    pos: usize,
    /// An element boundary in it (octets read) and the index of the element there, for an
    /// error's index.
    counted: (usize, usize),
    /// Elements given so far.
    index: usize,
}

impl<T> Clone for PiecesAt<'_, '_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for PiecesAt<'_, '_, T> {}

impl<'a, T: Decode<'a> + Clone> Iterator for SequenceOfIter<'a, '_, T> {
    type Item = Result<T, DecodeError>;

    /// Always inlined: the caller's loop and the element's decoder become one, wherever and
    /// however often a program iterates (left to the inliner, a second loop over the same list
    /// type made it a call per element, about 40 instructions more an SNMP binding).
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            IterRepr::Decoded {
                reader,
                counted,
                label,
                ..
            } => next_decoded(reader, counted, label),
            IterRepr::Items(it) => it.next().cloned().map(Ok),
            IterRepr::Pieces(at) => {
                let (item, next) = next_of_pieces(*at);
                *at = next;
                item
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            // At least two octets an element.
            IterRepr::Decoded { reader, .. } => {
                let octets = reader.remaining().len();
                (usize::from(octets > 0), Some(octets.div_ceil(2)))
            }
            IterRepr::Items(it) => it.size_hint(),
            IterRepr::Pieces(_) => (0, None),
        }
    }
}

/// The next element of a list built from pieces (the current piece's, else the next piece's
/// first), and where the iteration is then. A list built from pieces is not a piece: one
/// error for it.
#[inline(never)]
fn next_of_pieces<'a, 's, T: Decode<'a> + Clone>(
    mut at: PiecesAt<'a, 's, T>,
) -> (Option<Result<T, DecodeError>>, PiecesAt<'a, 's, T>) {
    loop {
        let Some(piece) = at.rest.first() else {
            return (None, at);
        };
        let item = match piece {
            Piece::Item(item) => (at.pos == 0).then(|| {
                at.pos = 1;
                Ok(item.clone())
            }),
            Piece::List(list) => match &list.repr {
                Repr::Decoded { reader, label } => {
                    let octets = reader.remaining();
                    if at.pos < octets.len() {
                        let mut r = reader.rewound(&octets[at.pos..]);
                        let mut mark = (&octets[at.counted.0..], at.counted.1);
                        let item = next_decoded(&mut r, &mut mark, label);
                        at.pos = octets.len() - r.remaining().len();
                        at.counted = (octets.len() - mark.0.len(), mark.1);
                        item
                    } else {
                        None
                    }
                }
                Repr::Items(items) => items.get(at.pos).map(|item| {
                    at.pos += 1;
                    Ok(item.clone())
                }),
                Repr::Pieces(_) => (at.pos == 0).then(|| {
                    at.pos = 1;
                    Err(nested_pieces())
                }),
            },
        };
        if let Some(item) = item {
            at.index += 1;
            return (Some(item), at);
        }
        // The next piece, its elements counted from those given so far.
        at.rest = &at.rest[1..];
        at.pos = 0;
        at.counted = (0, at.index);
    }
}

/// The next element of a decoded list: decoded, or the error its octets give (the iteration
/// then goes on after the element, or ends when its framing is broken).
#[inline(always)]
fn next_decoded<'a, T: Decode<'a>>(
    reader: &mut Reader<'a>,
    counted: &mut (&'a [u8], usize),
    label: Label,
) -> Option<Result<T, DecodeError>> {
    let start = reader.remaining();
    if start.is_empty() {
        return None;
    }
    match T::decode(reader) {
        Ok(v) => Some(Ok(v)),
        Err(e) => {
            let (e, rest, next) = skip_after_error(reader.frame(), *counted, start, e, label);
            *reader = reader.rewound(rest);
            *counted = (rest, next);
            Some(Err(e))
        }
    }
}

/// The error of a list built from pieces used as a piece of another.
#[cold]
fn nested_pieces() -> DecodeError {
    DecodeError::new(0, DecodeErrorKind::NestedPieces)
}

/// The error of the element at `start`, with its index, and the octets after the element (none
/// when its framing is broken: the iteration ends) with the next element's index. The index
/// is counted from `counted` (an element boundary and the index of the element there).
#[cold]
#[inline(never)]
fn skip_after_error<'a>(
    frame: Frame,
    counted: (&'a [u8], usize),
    start: &'a [u8],
    e: DecodeError,
    label: Label,
) -> (DecodeError, &'a [u8], usize) {
    // The elements since the mark were framed and skipped once already, so they frame again.
    let (mark, mut index) = counted;
    let mut before = Reader::in_frame(mark, frame);
    while before.remaining().len() > start.len() && before.skip_tlv().is_ok() {
        index += 1;
    }
    // The failed decode may have stopped part-way through the element: skip it from its
    // start to the next element, or, when its framing is what failed, end the iteration.
    let mut after = Reader::in_frame(start, frame);
    let rest = match after.skip_tlv() {
        Ok(_) => after.remaining(),
        Err(_) => &start[..0],
    };
    (e.in_element(index).in_component(label), rest, index + 1)
}

impl<'a, T: Decode<'a> + Encode + Clone> SequenceOf<'a, T> {
    /// Writes the contents (the elements, without the outer header). A decoded list is checked
    /// element by element first, then its octets are written back as they came. Always
    /// inlined: the loop over the elements is out of line already (`Writer::put_each`).
    #[inline(always)]
    pub fn encode_contents(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        match &self.repr {
            Repr::Decoded { reader, .. } => {
                // Room first: a buffer too small fails before the elements are checked (a
                // list from a validating decode is known good already).
                if w.room() < reader.remaining().len() {
                    return w.put_slice(reader.remaining());
                }
                self.validate().map_err(EncodeError::InvalidDecoded)?;
                w.put_slice(reader.remaining())
            }
            Repr::Items(items) => w.put_each(items),
            Repr::Pieces(pieces) => self.encode_pieces(pieces, w),
        }
    }

    /// [`SequenceOf::encode_contents`] of a list built from pieces: checked, then written.
    #[inline(never)]
    fn encode_pieces(
        &self,
        pieces: &[Piece<'a, T>],
        w: &mut Writer<'_>,
    ) -> Result<(), EncodeError> {
        self.validate().map_err(EncodeError::InvalidDecoded)?;
        // The writer fills its buffer from the end: the last piece first.
        for p in pieces.iter().rev() {
            match p {
                Piece::List(l) => match l.encoded() {
                    Some(octets) => w.put_slice(octets)?,
                    None => l.encode_contents(w)?,
                },
                Piece::Item(item) => item.encode(w)?,
            }
        }
        Ok(())
    }
}

impl<'a, T: Decode<'a> + Encode + Clone> SequenceOf<'a, T> {
    /// Octets [`SequenceOf::encode_contents`] (and [`SequenceOf::encode_set_contents`]) write:
    /// a decoded list's octets, or the sum of a caller's elements' encodings.
    #[inline]
    pub fn contents_len(&self) -> usize {
        match &self.repr {
            Repr::Decoded { reader, .. } => reader.remaining().len(),
            Repr::Items(items) => items.iter().map(Encode::encoded_len).sum(),
            Repr::Pieces(pieces) => pieces_contents_len(pieces),
        }
    }

    /// Writes the contents of a SET OF in DER order: a caller's elements are encoded one by
    /// one and sorted by their encodings; a decoded list is checked and written back as it came
    /// (under DER its order was checked when it was decoded).
    pub fn encode_set_contents(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        let mut encodings = match &self.repr {
            Repr::Decoded { .. } => return self.encode_contents(w),
            Repr::Items(items) if items.len() < 2 => return self.encode_contents(w),
            Repr::Items(items) => items
                .iter()
                .map(|item| item.to_ber())
                .collect::<Result<Vec<_>, _>>()?,
            // Pieces: every element encoded (the decoded ones checked, then copied) and sorted.
            Repr::Pieces(_) => {
                self.validate().map_err(EncodeError::InvalidDecoded)?;
                self.iter()
                    .map(|item| item.map_err(EncodeError::InvalidDecoded)?.to_ber())
                    .collect::<Result<Vec<_>, _>>()?
            }
        };
        encodings.sort_by(|a, b| der_set_order(a, b));
        for e in encodings.iter().rev() {
            w.put_slice(e)?;
        }
        Ok(())
    }
}

/// [`SequenceOf::contents_len`] of a list built from pieces.
#[inline(never)]
fn pieces_contents_len<'a, T: Decode<'a> + Encode + Clone>(pieces: &[Piece<'a, T>]) -> usize {
    pieces
        .iter()
        .map(|p| match p {
            Piece::List(l) => l.contents_len(),
            Piece::Item(item) => item.encoded_len(),
        })
        .sum()
}

impl<'a, T: Decode<'a> + Clone + PartialEq> PartialEq for SequenceOf<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<'a, T: Decode<'a> + Clone + fmt::Debug> fmt::Debug for SequenceOf<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for item in self.iter() {
            match item {
                Ok(v) => list.entry(&v),
                Err(e) => list.entry(&e),
            };
        }
        list.finish()
    }
}

impl<'a, T> Default for SequenceOf<'a, T> {
    fn default() -> Self {
        SequenceOf::from_slice(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Any, Rules};

    /// The contents of a SEQUENCE OF INTEGER holding `values` (each below 128).
    fn contents(values: &[u8]) -> Vec<u8> {
        values.iter().flat_map(|&v| [0x02, 0x01, v]).collect()
    }

    fn decoded(octets: &[u8], rules: Rules) -> SequenceOf<'_, Any<'_>> {
        SequenceOf::decode_contents(Reader::with_rules(octets, rules), &"Numbers").unwrap()
    }

    fn values(list: &SequenceOf<'_, Any<'_>>) -> Vec<u8> {
        list.iter().map(|a| a.unwrap().contents()[0]).collect()
    }

    fn encoded(list: &SequenceOf<'_, Any<'_>>) -> Result<Vec<u8>, EncodeError> {
        let mut buf = vec![0u8; list.contents_len()];
        let mut w = Writer::new(&mut buf);
        list.encode_contents(&mut w)?;
        Ok(buf)
    }

    #[test]
    fn pieces_edit_a_decoded_list_and_copy_what_stays() {
        let octets = contents(&[1, 2, 3, 4, 5]);
        let list = decoded(&octets, Rules::Der);
        let (head, rest) = list.split_at(2).unwrap();
        assert_eq!((values(&head), values(&rest)), (vec![1, 2], vec![3, 4, 5]));
        assert!(list.split_at(6).is_none());
        assert_eq!(values(&list.split_at(5).unwrap().1), Vec::<u8>::new());
        let (_, tail) = rest.split_at(1).unwrap();
        let six_raw = [0x02, 0x01, 6];
        let six = Any::from_raw(&six_raw).unwrap();
        let added = [six];
        let pieces = [
            Piece::List(head),
            Piece::Item(six),
            Piece::List(tail),
            Piece::List(SequenceOf::from_slice(&added)),
        ];
        let edited = SequenceOf::from_pieces(&pieces);
        assert_eq!(values(&edited), [1, 2, 6, 4, 5, 6]);
        assert_eq!(edited.len(), 6);
        assert!(!edited.is_empty() && edited.has_len_within(6, 6));
        assert!(edited.is_validated() == head.is_validated());
        assert_eq!(encoded(&edited).unwrap(), contents(&[1, 2, 6, 4, 5, 6]));
        assert!(SequenceOf::<Any<'_>>::from_pieces(&[]).is_empty());
        let none: [Piece<'_, Any<'_>>; 1] = [Piece::List(list.split_at(5).unwrap().1)];
        assert!(SequenceOf::from_pieces(&none).is_empty());
    }

    #[test]
    fn a_bad_element_copied_from_a_piece_is_refused_with_its_place() {
        // The third element's length runs past the list: its framing is broken.
        let mut octets = contents(&[1, 2]);
        octets.extend_from_slice(&[0x02, 0x05, 0x01]);
        let list = decoded(&octets, Rules::Der);
        let (head, _) = list.split_at(1).unwrap();
        let one = Any::from_raw(&[0x02, 0x01, 9]).unwrap();
        let good = [Piece::Item(one), Piece::List(head)];
        assert_eq!(values(&SequenceOf::from_pieces(&good)), [9, 1]);
        // Past its second element the framing breaks: no split there.
        assert!(list.split_at(3).is_none());
        let (_, broken) = list.split_at(2).unwrap();
        let bad = [Piece::Item(one), Piece::List(head), Piece::List(broken)];
        let edited = SequenceOf::from_pieces(&bad);
        let err = edited.validate().unwrap_err();
        assert!(err.to_string().contains("[2]"), "{err}");
        assert!(encoded(&edited).is_err());
        let items: Vec<_> = edited.iter().collect();
        assert_eq!(items.len(), 3);
        let e = items[2].as_ref().unwrap_err().to_string();
        assert!(e.contains("Numbers[2]"), "{e}");
    }

    #[test]
    fn a_list_built_from_pieces_is_not_a_piece() {
        let octets = contents(&[1]);
        let list = decoded(&octets, Rules::Der);
        let inner = [Piece::List(list)];
        let outer = [
            Piece::List(SequenceOf::from_pieces(&inner)),
            Piece::List(list),
        ];
        let nested = SequenceOf::from_pieces(&outer);
        let items: Vec<_> = nested.iter().collect();
        assert_eq!(items.len(), 2);
        assert_eq!(
            items[0].as_ref().unwrap_err().kind(),
            &DecodeErrorKind::NestedPieces
        );
        assert_eq!(items[1].as_ref().unwrap().contents(), [1]);
        assert!(nested.validate().is_err());
        assert!(!nested.is_validated() && nested.len() == 2);
        let empty: [Piece<'_, Any<'_>>; 0] = [];
        let only_nested = [Piece::List(SequenceOf::from_pieces(&empty))];
        let only = SequenceOf::from_pieces(&only_nested);
        assert!(!only.is_empty() && only.len() == 1 && only.iter().count() == 1);
        assert!(encoded(&nested).is_err());
    }

    #[test]
    fn a_set_of_built_from_pieces_is_written_in_der_order() {
        let octets = contents(&[1, 5]);
        let list = decoded(&octets, Rules::Der);
        let three = Any::from_raw(&[0x02, 0x01, 3]).unwrap();
        let pieces = [Piece::List(list), Piece::Item(three)];
        let set = SequenceOf::from_pieces(&pieces);
        let mut buf = vec![0u8; set.contents_len()];
        let mut w = Writer::new(&mut buf);
        set.encode_set_contents(&mut w).unwrap();
        assert_eq!(buf, contents(&[1, 3, 5]));
    }
}
