//! Owned octets that stay off the heap when short: the storage of [`crate::OidBuf`] and of the
//! owned OCTET STRING values a client hands back.

use std::borrow::Borrow;
use std::fmt;
use std::mem::MaybeUninit;
use std::ops::Deref;

use smallvec::SmallVec;

/// Octets an [`OctetBuf`] holds without a heap allocation: enough for the OIDs of table columns
/// with IP-address and short string indexes (ifHCInOctets.436207616 is 15 octets,
/// nsExtendOutput1Line."disk1" 19) and for most table strings; longer values go to the heap.
pub const INLINE_OCTETS: usize = 40;

/// Owned octets: inline up to [`INLINE_OCTETS`], on the heap beyond. Dereferences to `[u8]`;
/// compares, orders and hashes as its octets.
#[derive(Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OctetBuf(SmallVec<[u8; INLINE_OCTETS]>);

impl Clone for OctetBuf {
    /// One copy of the octets (smallvec's own `clone` goes octet by octet: 133 million of a
    /// poll benchmark's 1.6 billion instructions, cloning walked bindings).
    #[inline]
    fn clone(&self) -> Self {
        OctetBuf::from_slice(&self.0)
    }

    /// Written over in the storage `self` has (no allocation when it fits).
    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.assign(&source.0);
    }
}

impl OctetBuf {
    /// No octets.
    pub const fn new() -> Self {
        OctetBuf(SmallVec::new_const())
    }

    /// A copy of `octets` (inline when short enough).
    #[inline]
    pub fn from_slice(octets: &[u8]) -> Self {
        OctetBuf(SmallVec::from_slice(octets))
    }

    /// The first `len` octets of an inline buffer, moved in without a copy loop.
    ///
    /// # Safety
    ///
    /// `len <= INLINE_OCTETS`, and the first `len` octets of `buf` are written.
    #[inline]
    pub(crate) unsafe fn from_written(buf: [MaybeUninit<u8>; INLINE_OCTETS], len: usize) -> Self {
        // SAFETY: an array of `MaybeUninit<u8>` and a `MaybeUninit` of the array have one
        // layout; the caller vouches for `len` and for the octets below it.
        unsafe {
            let buf = std::mem::transmute::<
                [MaybeUninit<u8>; INLINE_OCTETS],
                MaybeUninit<[u8; INLINE_OCTETS]>,
            >(buf);
            OctetBuf(SmallVec::from_buf_and_len_unchecked(buf, len))
        }
    }

    /// The octets.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// True when the octets are on the heap (longer than [`INLINE_OCTETS`]).
    #[inline]
    pub fn spilled(&self) -> bool {
        self.0.spilled()
    }

    /// Appends `octets`.
    #[inline]
    pub fn extend_from_slice(&mut self, octets: &[u8]) {
        self.0.extend_from_slice(octets);
    }

    /// Replaces the octets with `octets`, in the storage it has when that holds them (a
    /// buffer written again answer after answer allocates nothing once large enough).
    /// Always inlined: as a call, saving and restoring registers was a third of its cost
    /// (callgrind, a GETBULK answer written over the one before, two calls a binding).
    #[inline(always)]
    pub fn assign(&mut self, octets: &[u8]) {
        if octets.len() <= self.0.capacity() {
            // SAFETY: the storage holds `capacity()` octets, `octets.len()` of which are
            // written here before the length says so; `octets` is a shared borrow, so it
            // cannot overlap the storage `self` borrows mutably.
            unsafe {
                std::ptr::copy_nonoverlapping(octets.as_ptr(), self.0.as_mut_ptr(), octets.len());
                self.0.set_len(octets.len());
            }
        } else {
            self.0.clear();
            self.0.extend_from_slice(octets);
        }
    }

    /// Appends one octet.
    #[inline]
    pub fn push(&mut self, octet: u8) {
        self.0.push(octet);
    }

    /// No octets, the storage kept (a buffer on the heap stays there, to be written again).
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The octets of heap storage it holds (0 when inline).
    #[inline]
    pub fn heap_capacity(&self) -> usize {
        if self.0.spilled() {
            self.0.capacity()
        } else {
            0
        }
    }

    /// Into a `Vec` (no copy when on the heap already).
    pub fn into_vec(self) -> Vec<u8> {
        self.0.into_vec()
    }
}

impl Deref for OctetBuf {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for OctetBuf {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Borrow<[u8]> for OctetBuf {
    fn borrow(&self) -> &[u8] {
        &self.0
    }
}

impl From<&[u8]> for OctetBuf {
    fn from(octets: &[u8]) -> Self {
        OctetBuf::from_slice(octets)
    }
}

impl<const N: usize> From<&[u8; N]> for OctetBuf {
    fn from(octets: &[u8; N]) -> Self {
        OctetBuf::from_slice(octets)
    }
}

impl From<&str> for OctetBuf {
    fn from(text: &str) -> Self {
        OctetBuf::from_slice(text.as_bytes())
    }
}

impl From<Vec<u8>> for OctetBuf {
    /// Short vectors move inline (and their allocation is freed); long ones keep theirs.
    fn from(v: Vec<u8>) -> Self {
        if v.len() <= INLINE_OCTETS {
            OctetBuf::from_slice(&v)
        } else {
            OctetBuf(SmallVec::from_vec(v))
        }
    }
}

impl From<OctetBuf> for Vec<u8> {
    fn from(o: OctetBuf) -> Self {
        o.into_vec()
    }
}

impl FromIterator<u8> for OctetBuf {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        OctetBuf(iter.into_iter().collect())
    }
}

impl Extend<u8> for OctetBuf {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl PartialEq<[u8]> for OctetBuf {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<&[u8]> for OctetBuf {
    fn eq(&self, other: &&[u8]) -> bool {
        self.as_slice() == *other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for OctetBuf {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_slice() == other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for OctetBuf {
    fn eq(&self, other: &&[u8; N]) -> bool {
        self.as_slice() == *other
    }
}

impl PartialEq<Vec<u8>> for OctetBuf {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for OctetBuf {
    /// As a byte slice prints: `[71, 105]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_up_to_the_limit_then_heap() {
        let short = OctetBuf::from_slice(&[7; INLINE_OCTETS]);
        assert!(!short.spilled());
        let long = OctetBuf::from_slice(&[7; INLINE_OCTETS + 1]);
        assert!(long.spilled());
        assert_eq!(long.len(), INLINE_OCTETS + 1);
        let mut grown = short.clone();
        grown.push(1);
        assert!(grown.spilled() && grown[INLINE_OCTETS] == 1);
        assert_eq!(OctetBuf::from(vec![1, 2, 3]), [1, 2, 3]);
        assert!(!OctetBuf::from(vec![1, 2, 3]).spilled());
        assert_eq!(OctetBuf::from(vec![9; 100]).into_vec(), vec![9; 100]);
        assert_eq!(format!("{:?}", OctetBuf::from("ab")), "[97, 98]");
        assert!(std::mem::size_of::<OctetBuf>() <= 48);
    }

    #[test]
    fn assigned_octets_replace_in_the_storage_held() {
        let mut b = OctetBuf::from_slice(&[1; 10]);
        b.assign(&[2; 30]);
        assert_eq!((b.as_slice(), b.spilled()), (&[2; 30][..], false));
        b.assign(&[3; 100]);
        assert_eq!((b.as_slice(), b.spilled()), (&[3; 100][..], true));
        let held = b.heap_capacity();
        b.assign(&[4; 5]);
        assert_eq!((b.as_slice(), b.heap_capacity()), (&[4; 5][..], held));
        b.assign(&[]);
        assert!(b.is_empty());
        let mut oid: crate::OidBuf = "1.3.6.1.2.1.1.5.0".parse().unwrap();
        let other: crate::OidBuf = "1.3.6.1.4.1.8072.9999.1.1.2.1000".parse().unwrap();
        oid.set(other.as_oid());
        assert_eq!(oid, other);
    }

    #[test]
    fn cleared_heap_storage_is_kept_for_the_next_octets() {
        let mut b = OctetBuf::from_slice(&[1; 100]);
        let held = b.heap_capacity();
        assert!(held >= 100);
        b.clear();
        assert!(b.is_empty() && b.heap_capacity() == held);
        b.extend_from_slice(&[2; 80]);
        assert_eq!((b.as_slice(), b.heap_capacity()), (&[2; 80][..], held));
        assert_eq!(OctetBuf::from_slice(b"short").heap_capacity(), 0);
    }
}
