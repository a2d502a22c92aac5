//! The encoding cursor: writes backwards from the end of a caller-provided buffer.
//!
//! Writing the last component first means each value's length is known by the time its header is
//! written, so lengths are always minimal and definite and nothing is sized twice.

use std::mem::MaybeUninit;

use crate::{Encode, EncodeError};

/// Writes BER backwards into a borrowed buffer. The encoding is the tail `buf[pos..]`.
///
/// The buffer may start uninitialized ([`Writer::new_uninit`]): the writer only ever stores
/// initialized octets, and every octet of `buf[pos..]` has been stored by it (or was
/// initialized to begin with), which is what makes [`Writer::written`] sound.
///
/// `pos <= buf.len()` always: it starts at `buf.len()` and every write moves it back, by
/// no more than it is (a checked subtraction, or a test of the room before); the hot paths
/// read it through `Writer::end`, which tells the compiler so.
///
/// ```
/// use snmp_ber::Writer;
///
/// // SEQUENCE { INTEGER 5, OCTET STRING "ab" }, written back to front: contents, then headers.
/// let mut buf = [0u8; 16];
/// let mut w = Writer::new(&mut buf);
/// w.put_tlv(0x04, b"ab")?;
/// w.put_tlv(0x02, &[5])?;
/// w.put_header(0x30, 7)?;
/// assert_eq!(w.written(), [0x30, 0x07, 0x02, 0x01, 0x05, 0x04, 0x02, b'a', b'b']);
/// # Ok::<(), snmp_ber::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct Writer<'b> {
    buf: &'b mut [MaybeUninit<u8>],
    pos: usize,
}

impl<'b> Writer<'b> {
    /// A writer that will fill `buf` from its end towards its start.
    #[inline]
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self::new_uninit(uninit_mut(buf))
    }

    /// A writer over memory not initialized yet (a vector's spare capacity, say): a large
    /// encoding of known length is written without zeroing its buffer first.
    #[inline]
    pub fn new_uninit(buf: &'b mut [MaybeUninit<u8>]) -> Self {
        let pos = buf.len();
        Writer { buf, pos }
    }

    /// Octets written so far.
    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Octets that can still be written in front of what is written.
    #[inline]
    pub fn room(&self) -> usize {
        self.pos
    }

    /// True when nothing has been written.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos == self.buf.len()
    }

    /// What has been written so far.
    #[inline]
    pub fn written(&self) -> &[u8] {
        assume_init(&self.buf[self.pos..])
    }

    /// Ends writing and returns the encoding.
    #[inline]
    pub fn into_written(self) -> &'b [u8] {
        assume_init(&self.buf[self.pos..])
    }

    /// The error for a full buffer. Inlined down to a call of the cold constructor with the
    /// capacity: a writer's address handed to an out-of-line function would keep it in
    /// memory on every hot path that can fail.
    #[inline(always)]
    fn too_small(&self) -> EncodeError {
        buffer_too_small(self.buf.len())
    }

    /// The position, known to be at most the buffer's length: bounds checks of the octets
    /// before it then fold into the test of the room (one comparison an INTEGER, not two).
    #[inline(always)]
    fn end(&self) -> usize {
        let end = self.pos;
        // SAFETY: the invariant documented on `Writer`: `pos` is set to `buf.len()` at
        // creation and only ever moved back by checked amounts (or taken over from a writer
        // over the same buffer, a `locally` copy's or `put_each_at`'s, which keep it too).
        unsafe { std::hint::assert_unchecked(end <= self.buf.len()) };
        end
    }

    /// Writes one octet in front of what is written.
    #[inline(always)]
    pub fn put_u8(&mut self, b: u8) -> Result<(), EncodeError> {
        match self
            .end()
            .checked_sub(1)
            .and_then(|p| self.buf.get_mut(p).map(|slot| (p, slot)))
        {
            Some((p, slot)) => {
                *slot = MaybeUninit::new(b);
                self.pos = p;
                Ok(())
            }
            None => Err(self.too_small()),
        }
    }

    /// Writes octets in front of what is written.
    #[inline(always)]
    pub fn put_slice(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let n = bytes.len();
        let end = self.end();
        let Some(start) = end.checked_sub(n) else {
            return Err(self.too_small());
        };
        let Some(dst) = self.buf.get_mut(start..end) else {
            return Err(self.too_small());
        };
        copy_short(dst, bytes);
        self.pos = start;
        Ok(())
    }

    /// Writes the last `n` (1 to 8) octets of `bytes`. Where there is room, all eight are stored
    /// with one fixed-size copy and the position moves back by `n` only: the octets in front
    /// are free space that later writes overwrite.
    #[inline(always)]
    pub(crate) fn put_be_tail(&mut self, bytes: [u8; 8], n: usize) -> Result<(), EncodeError> {
        let end = self.end();
        if end >= 8 {
            self.buf[end - 8..end].copy_from_slice(as_uninit(&bytes));
            self.pos -= n;
            Ok(())
        } else {
            self.put_slice(&bytes[8 - n..])
        }
    }

    /// Writes the TLV of identifier `tag` and the last `n` (1 to 8) octets of `bytes` as two
    /// stores, the contents' eight octets (those in front of the last `n` are free space the
    /// header overwrites) and the identifier with the length, if there are ten octets of
    /// room; false (nothing written) otherwise.
    #[inline(always)]
    pub(crate) fn put_short_tlv(&mut self, tag: u8, bytes: [u8; 8], n: usize) -> bool {
        // Nine octets (an unsigned value with the top bit set) take the caller's path.
        let end = self.end();
        if end < 10 || !(1..=8).contains(&n) {
            return false;
        }
        self.buf[end - 8..end].copy_from_slice(as_uninit(&bytes));
        let start = end - n;
        self.buf[start - 2..start].copy_from_slice(as_uninit(&[tag, n as u8]));
        self.pos = start - 2;
        true
    }

    /// Writes a minimal definite length.
    #[inline(always)]
    pub fn put_length(&mut self, len: usize) -> Result<(), EncodeError> {
        if len < 0x80 {
            return self.put_u8(len as u8);
        }
        self.pos = put_long_length(self.buf, self.pos, len)?;
        Ok(())
    }

    /// Writes a single-octet identifier and a length in front of `len` contents octets already written.
    #[inline(always)]
    pub fn put_header(&mut self, tag: u8, len: usize) -> Result<(), EncodeError> {
        // The common case, a short-form length, as one two-octet store.
        if len < 0x80 {
            if let Some(start) = self.end().checked_sub(2) {
                if let Some([t, l]) = self.buf.get_mut(start..start + 2) {
                    *t = MaybeUninit::new(tag);
                    *l = MaybeUninit::new(len as u8);
                    self.pos = start;
                    return Ok(());
                }
            }
        } else if tag & 0x20 != 0 && len <= 0xffff {
            // A constructed value's long form of one or two length octets (every message, PDU
            // and binding list over 127 octets; `tag` is a constant where this is inlined) as
            // one four-octet store: `tag 0x81 n` after one free octet that stays free, or
            // `tag 0x82 hi lo`.
            let end = self.end();
            if let Some(at) = end.checked_sub(4) {
                let (word, n) = match u8::try_from(len) {
                    Ok(n) => ([0, tag, 0x81, n], 3),
                    Err(_) => ([tag, 0x82, (len >> 8) as u8, len as u8], 4),
                };
                self.buf[at..end].copy_from_slice(as_uninit(&word));
                self.pos = end - n;
                return Ok(());
            }
        }
        self.put_length(len)?;
        self.put_u8(tag)
    }

    /// Writes identifier octets (one or several) and a length.
    #[inline]
    pub fn put_header_multi(&mut self, tag: &[u8], len: usize) -> Result<(), EncodeError> {
        self.put_length(len)?;
        self.put_slice(tag)
    }

    /// Writes a whole primitive TLV with a single-octet identifier.
    #[inline(always)]
    pub fn put_tlv(&mut self, tag: u8, contents: &[u8]) -> Result<(), EncodeError> {
        self.put_slice(contents)?;
        self.put_header(tag, contents.len())
    }

    /// Runs `f` on a local copy of this cursor, then takes over its position. For loops over
    /// many values: the copy's fields stay in registers, where this writer's, behind a
    /// reference that the octets written might alias, are reloaded after every store.
    #[inline(always)]
    pub fn locally<R>(&mut self, f: impl FnOnce(&mut Writer<'_>) -> R) -> R {
        let mut local = Writer {
            buf: &mut *self.buf,
            pos: self.pos,
        };
        let r = f(&mut local);
        self.pos = local.pos;
        r
    }

    /// Writes `items` last to first, each with its `encode`, in a function of their own
    /// (the loop over a list's elements): the buffer and the position go there by value and
    /// the new position comes back, so no call takes this writer's address and the caller
    /// keeps its fields in registers.
    #[inline(always)]
    pub(crate) fn put_each<T: Encode>(&mut self, items: &[T]) -> Result<(), EncodeError> {
        self.pos = put_each_at(items, &mut *self.buf, self.pos)?;
        Ok(())
    }

    /// A mark to pass to [`Writer::put_header_since`] once a constructed value's contents are written.
    #[inline(always)]
    pub fn mark(&self) -> usize {
        self.pos
    }

    /// Writes the header of a constructed value whose contents were written since `mark`.
    #[inline(always)]
    pub fn put_header_since(&mut self, tag: u8, mark: usize) -> Result<(), EncodeError> {
        let len = mark - self.pos;
        self.put_header(tag, len)
    }

    /// [`Writer::put_header_since`] for identifiers of several octets.
    #[inline]
    pub fn put_header_multi_since(&mut self, tag: &[u8], mark: usize) -> Result<(), EncodeError> {
        let len = mark - self.pos;
        self.put_header_multi(tag, len)
    }

    /// Position of the first written octet, counted from the start of the buffer. After encoding,
    /// `buf[position..]` is the message, so offsets of fields noted during encoding (as
    /// `buf.len() - writer.len()` at the time) stay valid.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }
}

/// `value` written at the end of `buf`: how many octets. The one caller of each type's
/// `encode` for [`Encode::encode_to_slice`] and [`Encode::to_ber`] alike, so that the
/// compiler, seeing a single call, inlines the encoder here with the writer in registers.
pub(crate) fn encode_tail<T: Encode + ?Sized>(
    value: &T,
    buf: &mut [MaybeUninit<u8>],
) -> Result<usize, EncodeError> {
    let mut w = Writer::new_uninit(buf);
    value.encode(&mut w)?;
    Ok(w.len())
}

/// Octets of the minimal definite length of `contents` contents octets, as
/// [`Writer::put_length`] writes it.
#[inline]
pub fn length_len(contents: usize) -> usize {
    if contents < 0x80 {
        1
    } else {
        1 + (8 - (contents as u64).leading_zeros() as usize / 8)
    }
}

/// Octets of a whole TLV: `id_octets` identifier octets, the length, `contents` octets.
#[inline]
pub fn tlv_len(id_octets: usize, contents: usize) -> usize {
    id_octets + length_len(contents) + contents
}

/// `dst.copy_from_slice(src)` (equal lengths), with the short copies of OIDs, names and small
/// strings done as two overlapping fixed-size moves instead of a call to `memcpy`.
#[inline(always)]
fn copy_short(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    let src = as_uninit(src);
    let n = src.len();
    if (8..=16).contains(&n) && dst.len() == n {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    } else if (4..8).contains(&n) && dst.len() == n {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..].copy_from_slice(&src[n - 4..]);
    } else {
        dst.copy_from_slice(src);
    }
}

/// A long-form length written in front of `buf[pos..]`; returns the new position. Out of line,
/// with the buffer and position by value (see `Writer::too_small`).
#[inline(never)]
fn put_long_length(
    buf: &mut [MaybeUninit<u8>],
    pos: usize,
    len: usize,
) -> Result<usize, EncodeError> {
    // `pos` is a writer's position over `buf` (the invariant `Writer::end` relies on).
    debug_assert!(pos <= buf.len());
    let mut w = Writer { buf, pos };
    let n = length_len(len) - 1;
    if n <= 7 {
        // 0x80 | n and the n length octets: the last n + 1 octets of one word.
        let word = len as u64 | (0x80 | n as u64) << (8 * n);
        w.put_be_tail(word.to_be_bytes(), n + 1)?;
    } else {
        w.put_slice(&(len as u64).to_be_bytes())?;
        w.put_u8(0x88)?;
    }
    Ok(w.pos)
}

/// [`Writer::put_each`]'s loop: `items` written last to first in front of `buf[pos..]`;
/// returns the new position.
#[inline(never)]
fn put_each_at<T: Encode>(
    items: &[T],
    buf: &mut [MaybeUninit<u8>],
    pos: usize,
) -> Result<usize, EncodeError> {
    // `pos` is a writer's position over `buf` (the invariant `Writer::end` relies on).
    debug_assert!(pos <= buf.len());
    let mut w = Writer { buf, pos };
    items
        .iter()
        .rev()
        .try_for_each(|item| item.encode(&mut w))?;
    Ok(w.pos)
}

/// `buf` as a buffer the writer may hold. SAFETY of the cast: `MaybeUninit<u8>` has the
/// layout of `u8`, and the writer stores only initialized octets, so `buf` stays initialized.
#[inline(always)]
pub(crate) fn uninit_mut(buf: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: see above; the length and lifetime are `buf`'s.
    unsafe { &mut *(buf as *mut [u8] as *mut [MaybeUninit<u8>]) }
}

/// Initialized octets seen as possibly uninitialized ones, to be copied into the buffer.
#[inline(always)]
fn as_uninit(src: &[u8]) -> &[MaybeUninit<u8>] {
    // SAFETY: same layout; every initialized octet is a valid `MaybeUninit<u8>`, and the
    // result is shared, so nothing uninitialized can be written through it.
    unsafe { &*(src as *const [u8] as *const [MaybeUninit<u8>]) }
}

/// Octets of the buffer at or after the writer's position: all stored by the writer.
#[inline(always)]
fn assume_init(written: &[MaybeUninit<u8>]) -> &[u8] {
    // SAFETY: called only on `buf[pos..]`, every octet of which the writer has stored (the
    // invariant documented on `Writer`); same layout.
    unsafe { &*(written as *const [MaybeUninit<u8>] as *const [u8]) }
}

#[cold]
#[inline(never)]
fn buffer_too_small(capacity: usize) -> EncodeError {
    EncodeError::BufferTooSmall { capacity }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_minimal() {
        for (len, want) in [
            (0usize, vec![0x00]),
            (127, vec![0x7f]),
            (128, vec![0x81, 0x80]),
            (255, vec![0x81, 0xff]),
            (256, vec![0x82, 0x01, 0x00]),
            (65535, vec![0x82, 0xff, 0xff]),
            (70000, vec![0x83, 0x01, 0x11, 0x70]),
            (1 << 24, vec![0x84, 0x01, 0x00, 0x00, 0x00]),
        ] {
            let mut buf = [0u8; 8];
            let mut w = Writer::new(&mut buf);
            w.put_length(len).unwrap();
            assert_eq!(w.written(), &want[..], "length {len}");
            assert_eq!(length_len(len), want.len(), "length of length {len}");
            assert_eq!(tlv_len(2, len), 2 + want.len() + len);
        }
    }

    /// Headers of every length form, in buffers from too small by one to roomy: the octets
    /// written are the header, and too small is the error.
    #[test]
    fn headers_of_every_length_form() {
        let short_and_some_long = [0usize, 127, 128, 255, 256, 65535, 65536, 1 << 24];
        let longest = [(1 << 40) + 7, 1 << 47, usize::MAX >> 8, usize::MAX];
        // Constructed and primitive identifiers take different paths for long forms; what
        // was written before the header (the contents' last octets) stays as it was.
        let written = b"xyz";
        for (tag, len) in [0x30u8, 0x04].into_iter().flat_map(|t| {
            short_and_some_long
                .into_iter()
                .chain(longest)
                .map(move |l| (t, l))
        }) {
            // X.690 8.1.3: the short form below 128, else 0x80 | n and n octets, no leading 0.
            let mut want = vec![tag];
            if len < 0x80 {
                want.push(len as u8);
            } else {
                let octets: Vec<u8> = (len as u64)
                    .to_be_bytes()
                    .into_iter()
                    .skip_while(|&b| b == 0)
                    .collect();
                want.push(0x80 | octets.len() as u8);
                want.extend(octets);
            }
            want.extend_from_slice(written);
            for room in want.len() - 1..want.len() + 10 {
                let mut buf = vec![0xaa; room];
                let mut w = Writer::new(&mut buf);
                w.put_slice(written).unwrap();
                let put = w.put_header(tag, len);
                if room < want.len() {
                    assert!(put.is_err(), "{tag:#x} length {len} in {room}");
                    continue;
                }
                put.unwrap();
                assert_eq!(w.written(), &want[..], "{tag:#x} length {len} in {room}");
            }
        }
    }

    #[test]
    fn slices_of_every_short_length_are_copied_whole() {
        for n in 0..40usize {
            let src: Vec<u8> = (1..=n as u8).collect();
            let mut buf = [0u8; 64];
            let mut w = Writer::new(&mut buf);
            w.put_u8(0xee).unwrap();
            w.put_slice(&src).unwrap();
            let mut want = src.clone();
            want.push(0xee);
            assert_eq!(w.written(), &want[..], "length {n}");
        }
    }

    /// Every write the writer has, into a vector's uninitialized capacity and into a zeroed
    /// buffer: the same octets, and only the ones written are read back.
    #[test]
    fn writes_into_uninitialized_memory_equal_writes_into_zeroed() {
        fn all_writes(w: &mut Writer<'_>) -> Result<(), EncodeError> {
            w.put_slice(&[7; 300])?;
            w.put_header(0x04, 300)?;
            w.put_tlv(0x02, &[1, 2, 3])?;
            w.put_be_tail(0x0102_0304_0506_0708u64.to_be_bytes(), 3)?;
            w.put_header_multi(&[0x9f, 0x21], 5)?;
            w.put_u8(0x30)
        }
        let mut zeroed = [0u8; 400];
        let mut w = Writer::new(&mut zeroed);
        all_writes(&mut w).unwrap();
        let want = w.written().to_vec();
        let mut v: Vec<u8> = Vec::with_capacity(want.len());
        let room = &mut v.spare_capacity_mut()[..want.len()];
        let mut w = Writer::new_uninit(room);
        all_writes(&mut w).unwrap();
        assert_eq!((w.room(), w.written()), (0, &want[..]));
        let mut short = Writer::new_uninit(&mut v.spare_capacity_mut()[..want.len() - 1]);
        assert!(all_writes(&mut short).is_err());
    }

    #[test]
    fn full_buffer_is_an_error() {
        let mut buf = [0u8; 2];
        let mut w = Writer::new(&mut buf);
        assert!(w.put_tlv(0x04, b"abc").is_err());
        w.put_tlv(0x04, b"").unwrap();
        assert_eq!(w.written(), &[0x04, 0x00]);
    }
}
