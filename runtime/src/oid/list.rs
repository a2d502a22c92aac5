//! Many owned OBJECT IDENTIFIERs in one buffer: a request's names built from arcs without an
//! allocation or a move per OID.

use std::fmt;

use super::write::{self, Subid};
use super::{Oid, OidBuf, OidParseError};

/// Owned OBJECT IDENTIFIERs, their BER contents octets one after another in one buffer, for
/// building messages from arcs: where a `Vec<OidBuf>` moves each OID (48 octets) into place,
/// this writes its subidentifiers straight into the shared buffer. Borrowed back as [`Oid`]s
/// (by index or in order) once built.
///
/// ```
/// use snmp_ber::OidList;
///
/// let mut oids = OidList::new();
/// oids.push_arcs(&[1, 3, 6, 1, 2, 1, 1, 3, 0])?;
/// oids.push_arcs(&[1, 3, 6, 1, 2, 1, 4, 20, 1, 1, 192, 0, 2, 1])?;
/// assert_eq!(oids.len(), 2);
/// assert_eq!(oids.get(1).unwrap().to_string(), "1.3.6.1.2.1.4.20.1.1.192.0.2.1");
/// assert!(oids.push_arcs(&[1, 40]).is_err()); // and the list is as it was
/// assert_eq!(oids.iter().count(), 2);
/// # Ok::<(), snmp_ber::OidParseError>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct OidList {
    /// The OIDs' contents octets, one after another.
    ber: Vec<u8>,
    /// Where each OID ends in `ber`.
    ends: Vec<usize>,
}

/// Room [`OidList::push_arcs`] writes an OID in at once, when the buffer has it to spare: 64
/// octets (a longer OID goes on one arc at a time).
const ROOM: usize = 64;

impl OidList {
    /// No OIDs.
    pub const fn new() -> Self {
        OidList {
            ber: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// No OIDs, with room for `oids` of them taking `octets` contents octets in all: pushing
    /// those allocates nothing more.
    pub fn with_capacity(oids: usize, octets: usize) -> Self {
        OidList {
            // With the room `push_arcs` writes in, whatever the last OID's length.
            ber: Vec::with_capacity(octets.saturating_add(ROOM)),
            ends: Vec::with_capacity(oids),
        }
    }

    /// Appends the OID of `arcs`, written in base-128 straight into the buffer (eight arcs at
    /// a time while they are all below 128). On an error (the reasons of
    /// [`super::OidBuf::from_arcs`]) the list is unchanged.
    #[inline(always)]
    pub fn push_arcs(&mut self, arcs: &[u32]) -> Result<(), OidParseError> {
        let start = self.ber.len();
        let Some(buf) = self.ber.spare_capacity_mut().first_chunk_mut::<ROOM>() else {
            return self.push_arcs_apart(arcs);
        };
        let (len, left) = write::put_oid(buf, arcs)?;
        // SAFETY: `put_oid` wrote every octet of `buf[..len]`, the first `len` octets of the
        // spare capacity (`len` is within `buf`, whose every store is bounds-checked).
        unsafe { self.ber.set_len(start + len) };
        // Longer than `ROOM` octets: the rest one arc at a time.
        for &arc in left {
            self.ber.extend_from_slice(Subid::of(arc).as_slice());
        }
        self.ends.push(self.ber.len());
        Ok(())
    }

    /// [`OidList::push_arcs`] when the buffer has less than [`ROOM`] octets to spare: built
    /// apart and copied in (the buffer grows as a vector does).
    #[cold]
    fn push_arcs_apart(&mut self, arcs: &[u32]) -> Result<(), OidParseError> {
        self.push(OidBuf::from_arcs(arcs)?.as_oid());
        Ok(())
    }

    /// Appends a copy of `oid`.
    pub fn push(&mut self, oid: Oid<'_>) {
        self.ber.extend_from_slice(oid.as_ber());
        self.ends.push(self.ber.len());
    }

    /// How many OIDs.
    #[inline]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th OID, from 0.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Oid<'_>> {
        let end = *self.ends.get(i)?;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1],
        };
        Some(Oid::from_ber_unchecked(&self.ber[start..end]))
    }

    /// The OIDs in the order they were pushed.
    #[inline]
    pub fn iter(&self) -> OidListIter<'_> {
        OidListIter {
            ber: &self.ber,
            start: 0,
            ends: self.ends.iter(),
        }
    }

    /// Removes every OID, keeping the allocations.
    pub fn clear(&mut self) {
        self.ber.clear();
        self.ends.clear();
    }
}

impl fmt::Debug for OidList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a OidList {
    type Item = Oid<'a>;
    type IntoIter = OidListIter<'a>;

    fn into_iter(self) -> OidListIter<'a> {
        self.iter()
    }
}

/// The OIDs of an [`OidList`], in order.
#[derive(Clone, Debug)]
pub struct OidListIter<'a> {
    ber: &'a [u8],
    start: usize,
    ends: std::slice::Iter<'a, usize>,
}

impl<'a> Iterator for OidListIter<'a> {
    type Item = Oid<'a>;

    #[inline]
    fn next(&mut self) -> Option<Oid<'a>> {
        let end = *self.ends.next()?;
        // SAFETY: an `OidList`'s ends ascend and lie within its octets (its octets only grow,
        // `push_arcs` and `push` record their length after each OID, `clear` empties both),
        // and `start` is 0 or an end before this one.
        let ber = unsafe { self.ber.get_unchecked(self.start..end) };
        self.start = end;
        Some(Oid::from_ber_unchecked(ber))
    }

    /// Skips `n` without reading their octets.
    #[inline]
    fn nth(&mut self, n: usize) -> Option<Oid<'a>> {
        if n > 0 {
            self.start = *self.ends.nth(n - 1)?;
        }
        self.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for OidListIter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every OID pushed from arcs reads back as `OidBuf::from_arcs` writes it, by index
        /// and in order, whatever its arcs and however many came before; an error leaves the
        /// list as it was.
        #[test]
        fn push_arcs_writes_what_oidbuf_writes(
            lists in proptest::collection::vec(
                (
                    prop_oneof![
                        4 => Just(vec![1u32, 3]),
                        1 => (0u32..2, 0u32..40).prop_map(|(x, y)| vec![x, y]),
                        1 => (0u32..3, any::<u32>()).prop_map(|(x, y)| vec![x, y]),
                        1 => proptest::collection::vec(any::<u32>(), 0..3),
                    ],
                    proptest::collection::vec(
                        prop_oneof![8 => 0u32..128, 1 => 128u32..(1 << 14), 1 => any::<u32>()],
                        0..140,
                    ),
                )
                    .prop_map(|(mut start, rest)| {
                        start.extend(rest);
                        start
                    }),
                0..12,
            ),
        ) {
            let mut list = OidList::with_capacity(2, 8);
            let mut want: Vec<OidBuf> = Vec::new();
            for arcs in &lists {
                let before = list.clone();
                match (OidBuf::from_arcs(arcs), list.push_arcs(arcs)) {
                    (Ok(o), Ok(())) => want.push(o),
                    (Err(e), Err(f)) => {
                        prop_assert_eq!(e, f);
                        prop_assert_eq!(&list, &before);
                    }
                    (a, b) => prop_assert!(false, "OidBuf {:?} but OidList {:?}", a, b),
                }
            }
            prop_assert_eq!(list.len(), want.len());
            prop_assert_eq!(list.iter().len(), want.len());
            for (i, o) in want.iter().enumerate() {
                prop_assert_eq!(list.get(i), Some(o.as_oid()));
            }
            prop_assert_eq!(list.get(want.len()), None);
            prop_assert!(list.iter().eq(want.iter().map(|o| o.as_oid())));
        }
    }

    #[test]
    fn copies_and_clears() {
        let a: OidBuf = "1.3.6.1.2.1.1.5.0".parse().unwrap();
        let b: OidBuf = "2.999.1".parse().unwrap();
        let mut list = OidList::new();
        assert!(list.is_empty() && list.get(0).is_none());
        list.push(a.as_oid());
        list.push_arcs(&[2, 999, 1]).unwrap();
        assert_eq!(list.get(0), Some(a.as_oid()));
        assert_eq!(list.get(1), Some(b.as_oid()));
        assert_eq!(
            format!("{list:?}"),
            "[Oid(1.3.6.1.2.1.1.5.0), Oid(2.999.1)]"
        );
        list.clear();
        assert_eq!((list.len(), list.iter().next()), (0, None));
    }
}
