//! Arcs to BER: an OBJECT IDENTIFIER's subidentifiers written in base-128 (X.690 8.19.2),
//! eight at a time while they are all below 128. The one writer behind [`super::OidBuf`] and
//! [`super::OidList`].

use std::mem::MaybeUninit;

use super::{OidParseError, MAX_OID_ARCS};

/// Octets of the longest subidentifier (2^32-1 in base 128).
pub(super) const SUBID_MAX: usize = 5;

/// One subidentifier in minimal base-128: the first `len` of `octets`.
#[derive(Clone, Copy)]
pub(super) struct Subid {
    octets: [u8; SUBID_MAX],
    len: usize,
}

impl Subid {
    /// `v` in minimal base-128, high group first, continuation bits on all but the last.
    #[inline(always)]
    pub(super) fn of(v: u32) -> Subid {
        let mut octets = [0; SUBID_MAX];
        let len = put_arc(&mut octets, 0, v);
        Subid { octets, len }
    }

    /// The octets.
    #[inline]
    pub(super) fn as_slice(&self) -> &[u8] {
        &self.octets[..self.len]
    }
}

/// Writes `v` in minimal base-128 at `buf[pos..]`, which has room for [`SUBID_MAX`] octets;
/// returns the position after it.
#[inline(always)]
pub(super) fn put_arc<T: Octet, const N: usize>(buf: &mut [T; N], pos: usize, v: u32) -> usize {
    if v < 0x80 {
        buf[pos] = T::from(v as u8);
        return pos + 1;
    }
    if v < 0x4000 {
        // Two octets: the most common long arc (an IP address octet, an enterprise number).
        store(buf, pos, [0x80 | (v >> 7) as u8, (v & 0x7f) as u8]);
        return pos + 2;
    }
    // All five groups of seven bits, high first, continuation bits on all but the last; then
    // the last `n`, one per started group (three to five here), moved to the front: the five
    // octets are stored at once, those past `n` free space the next arc overwrites.
    let v = v as u64;
    let groups: u64 = ((v >> 28) & 0x7f)
        | ((v >> 21) & 0x7f) << 8
        | ((v >> 14) & 0x7f) << 16
        | ((v >> 7) & 0x7f) << 24
        | (v & 0x7f) << 32
        | 0x80_8080_8080;
    let n = (38 - (v as u32).leading_zeros() as usize) / 7;
    let octets = ((groups & !(0x80 << 32)) >> (8 * (SUBID_MAX - n))).to_le_bytes();
    store(
        buf,
        pos,
        *octets.first_chunk::<SUBID_MAX>().unwrap_or(&[0; SUBID_MAX]),
    );
    pos + n
}

/// An octet a writer stores: a `u8`, or a `MaybeUninit<u8>` of a buffer not yet written.
pub(super) trait Octet: Copy {
    /// The octet `b`.
    fn from(b: u8) -> Self;
}

impl Octet for u8 {
    #[inline(always)]
    fn from(b: u8) -> u8 {
        b
    }
}

impl Octet for MaybeUninit<u8> {
    #[inline(always)]
    fn from(b: u8) -> Self {
        MaybeUninit::new(b)
    }
}

/// The first subidentifier (X*40+Y, X.690 8.19.4) and the arcs after the first two, checked:
/// the common start (0.y or 1.y, one octet) in line, any other and the errors out of line.
#[inline(always)]
fn split_start(arcs: &[u32]) -> Result<(u32, &[u32]), OidParseError> {
    match arcs {
        [x, y, rest @ ..] if *x < 2 && *y < 40 && rest.len() + 2 <= MAX_OID_ARCS => {
            Ok((x * 40 + y, rest))
        }
        _ => split_start_general(arcs),
    }
}

/// [`split_start`] for 2.y (whose first subidentifier may take several octets) and the errors.
#[cold]
fn split_start_general(arcs: &[u32]) -> Result<(u32, &[u32]), OidParseError> {
    let (x, y, rest) = match arcs {
        [x, y, rest @ ..] if rest.len() + 2 <= MAX_OID_ARCS => (*x, *y, rest),
        [_, _, ..] => return Err(OidParseError::TooMany(arcs.len())),
        _ => return Err(OidParseError::BadStart("expected at least two arcs")),
    };
    let first = match (x, y) {
        (0 | 1, y) if y < 40 => x * 40 + y,
        (2, y) if y <= u32::MAX - 80 => 80 + y,
        (2, y) => {
            return Err(OidParseError::BadArc {
                index: 1,
                text: y.to_string(),
            })
        }
        (0 | 1, _) => {
            return Err(OidParseError::BadStart(
                "second arc above 39 under a first arc of 0 or 1",
            ))
        }
        _ => return Err(OidParseError::BadStart("first arc must be 0, 1 or 2")),
    };
    Ok((first, rest))
}

/// Writes the first subidentifier of `arcs` (checked) at the start of `buf` and the rest after
/// it: eight arcs at a time while all eight are below 128 (one vector test and one store),
/// four or one at a time past a longer one, and the last one to three from the final four
/// arcs when those are all short. Returns the octets written and the arcs that did not fit
/// (none when there was room).
///
/// Every octet of `buf[..end]` is written (each store starts at or before the end so far),
/// which is what lets a caller treat that much of an uninitialised buffer as initialised. The
/// buffer is an array so that the bounds of every store are tested against a constant, and the
/// tests of room are written as `pos <= N - room` (which cannot overflow), so that the
/// compiler sees the stores after them in bounds.
#[inline(always)]
pub(super) fn put_oid<'a, T: Octet, const N: usize>(
    buf: &mut [T; N],
    arcs: &'a [u32],
) -> Result<(usize, &'a [u32]), OidParseError> {
    // Room for the first subidentifier and two runs of eight, or four arcs at their longest.
    const { assert!(N >= 4 * SUBID_MAX + 16) };
    let (first, rest) = split_start(arcs)?;
    let mut pos = put_arc(buf, 0, first);
    // Eight to sixteen arcs, all below 128 (most names): the first eight and the last eight,
    // which overlap unless there are sixteen, one octet each.
    if let (Some(head), Some(tail), 8..=16) =
        (rest.first_chunk::<8>(), rest.last_chunk::<8>(), rest.len())
    {
        if let (Some((head, tail)), true) = (short_arcs16(head, tail), pos <= N - 16) {
            store(buf, pos, head);
            store(buf, pos + rest.len() - 8, tail);
            return Ok((pos + rest.len(), &[]));
        }
    }
    let mut left = rest;
    // While four arcs at their longest still fit.
    while let Some((four, after_four)) = left.split_first_chunk::<4>() {
        if pos > N - 4 * SUBID_MAX {
            break;
        }
        if let Some((eight, after)) = left.split_first_chunk::<8>() {
            if let Some(octets) = short_arcs8(eight) {
                store(buf, pos, octets);
                pos += 8;
                left = after;
                continue;
            }
        }
        match short_arcs(four) {
            Some(octets) => {
                store(buf, pos, octets);
                pos += 4;
            }
            None => {
                for &arc in four {
                    pos = put_arc(buf, pos, arc);
                }
            }
        }
        left = after_four;
    }
    // The last one to three: when the final four arcs are all below 128, those of them
    // already written took one octet each just before `pos`, so the four octets go in at
    // once over them.
    let k = left.len();
    if let (1..=3, Some(last)) = (k, rest.last_chunk::<4>()) {
        if let (Some(octets), true) = (short_arcs(last), pos <= N - k) {
            store(buf, pos + k - 4, octets);
            return Ok((pos + k, &[]));
        }
    }
    for (i, &arc) in left.iter().enumerate() {
        if pos > N - SUBID_MAX {
            return Ok((pos, &left[i..]));
        }
        pos = put_arc(buf, pos, arc);
    }
    Ok((pos, &[]))
}

/// Stores `octets` at `buf[pos..]`.
#[inline(always)]
fn store<T: Octet, const N: usize, const K: usize>(buf: &mut [T; N], pos: usize, octets: [u8; K]) {
    buf[pos..pos + K].copy_from_slice(&octets.map(T::from));
}

/// Four arcs as four one-octet subidentifiers, if all are below 128: one load, one test and
/// two packs.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn short_arcs(a: &[u32; 4]) -> Option<[u8; 4]> {
    use std::arch::x86_64::*;
    // SAFETY: these intrinsics only need SSE2, which the `cfg` above guarantees is enabled
    // for this build (it is part of every x86-64 target's baseline); the one load reads the
    // sixteen octets of `a`, through an unaligned load.
    let packed = unsafe {
        let v = _mm_loadu_si128(a.as_ptr().cast());
        let above = _mm_andnot_si128(_mm_set1_epi32(0x7f), v);
        if _mm_movemask_epi8(_mm_cmpeq_epi32(above, _mm_setzero_si128())) != 0xffff {
            return None;
        }
        // Every lane is below 128: the signed and unsigned saturating packs keep each value.
        let words = _mm_packs_epi32(v, v);
        _mm_cvtsi128_si32(_mm_packus_epi16(words, words))
    };
    Some((packed as u32).to_le_bytes())
}

/// Eight arcs as eight one-octet subidentifiers, if all are below 128: two loads, one test
/// and two packs.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn short_arcs8(a: &[u32; 8]) -> Option<[u8; 8]> {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is enabled for this build (the `cfg` above); the two unaligned loads read
    // the thirty-two octets of `a`.
    let packed = unsafe {
        let lo = _mm_loadu_si128(a.as_ptr().cast());
        let hi = _mm_loadu_si128(a.as_ptr().add(4).cast());
        let above = _mm_andnot_si128(_mm_set1_epi32(0x7f), _mm_or_si128(lo, hi));
        if _mm_movemask_epi8(_mm_cmpeq_epi32(above, _mm_setzero_si128())) != 0xffff {
            return None;
        }
        let words = _mm_packs_epi32(lo, hi);
        _mm_cvtsi128_si64(_mm_packus_epi16(words, words))
    };
    Some((packed as u64).to_le_bytes())
}

/// Two runs of eight arcs as eight one-octet subidentifiers each, if all are below 128: four
/// loads, one test and three packs.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn short_arcs16(a: &[u32; 8], b: &[u32; 8]) -> Option<([u8; 8], [u8; 8])> {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is enabled for this build (the `cfg` above); the four unaligned loads read
    // the thirty-two octets of `a` and of `b`.
    let (a, b) = unsafe {
        let a_lo = _mm_loadu_si128(a.as_ptr().cast());
        let a_hi = _mm_loadu_si128(a.as_ptr().add(4).cast());
        let b_lo = _mm_loadu_si128(b.as_ptr().cast());
        let b_hi = _mm_loadu_si128(b.as_ptr().add(4).cast());
        let all = _mm_or_si128(_mm_or_si128(a_lo, a_hi), _mm_or_si128(b_lo, b_hi));
        let above = _mm_andnot_si128(_mm_set1_epi32(0x7f), all);
        if _mm_movemask_epi8(_mm_cmpeq_epi32(above, _mm_setzero_si128())) != 0xffff {
            return None;
        }
        // Both runs' octets in one register: `a`'s in the low half, `b`'s in the high.
        let both = _mm_packus_epi16(_mm_packs_epi32(a_lo, a_hi), _mm_packs_epi32(b_lo, b_hi));
        (
            _mm_cvtsi128_si64(both),
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(both, both)),
        )
    };
    Some(((a as u64).to_le_bytes(), (b as u64).to_le_bytes()))
}

/// Two runs of eight arcs as eight one-octet subidentifiers each, if all are below 128.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn short_arcs16(a: &[u32; 8], b: &[u32; 8]) -> Option<([u8; 8], [u8; 8])> {
    Some((short_arcs8(a)?, short_arcs8(b)?))
}

/// Eight arcs as eight one-octet subidentifiers, if all are below 128.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn short_arcs8(a: &[u32; 8]) -> Option<[u8; 8]> {
    (a.iter().fold(0, |u, x| u | x) < 0x80).then(|| a.map(|x| x as u8))
}

/// Four arcs as four one-octet subidentifiers, if all are below 128.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn short_arcs(a: &[u32; 4]) -> Option<[u8; 4]> {
    ((a[0] | a[1] | a[2] | a[3]) < 0x80).then(|| a.map(|x| x as u8))
}
