//! Many owned OBJECT IDENTIFIERs in one buffer: a request's names built from arcs without an
//! allocation or a move per OID.

use std::fmt;

use super::write::{self, Subid};
use super::{Oid, OidBuf, OidParseError};

/// Owned OBJECT IDENTIFIERs, their BER contents octets one after another in one buffer, for
/// building messages from arcs: where a `Vec<OidBuf>` moves each OID (48 octets) into place,
/// this writes its subidentifiers straight into the shared buffer, each OID after its length
/// (one octet below 128, two above), so that the whole list is one allocation. Borrowed back
/// as [`Oid`]s in order (or by index, walking the lengths) once built.
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
    /// Each OID's length (below 128: one octet; otherwise `0x80 | len >> 8`, then `len & 0xff`)
    /// and its contents octets, one OID after another.
    octets: Vec<u8>,
}

/// Room [`OidList::push_arcs`] writes an OID in at once, its length octet included, when the
/// buffer has it to spare: 64 octets (the arcs of a longer OID after those go on one at a
/// time).
const ROOM: usize = 64;

impl OidList {
    /// No OIDs.
    pub const fn new() -> Self {
        OidList { octets: Vec::new() }
    }

    /// No OIDs, with room for `oids` of them taking `octets` contents octets in all: pushing
    /// those allocates nothing more.
    pub fn with_capacity(oids: usize, octets: usize) -> Self {
        // A length octet for each, and the room `push_arcs` writes in, whatever the last
        // OID's length.
        let room = octets.saturating_add(oids).saturating_add(ROOM);
        OidList {
            octets: Vec::with_capacity(room),
        }
    }

    /// Appends the OID of `arcs`, written in base-128 straight into the buffer (eight arcs at
    /// a time while they are all below 128). On an error (the reasons of
    /// [`super::OidBuf::from_arcs`]) the list is unchanged.
    #[inline(always)]
    pub fn push_arcs(&mut self, arcs: &[u32]) -> Result<(), OidParseError> {
        let start = self.octets.len();
        let Some((length, body)) = self
            .octets
            .spare_capacity_mut()
            .first_chunk_mut::<ROOM>()
            .and_then(|room| room.split_first_mut())
        else {
            return self.push_arcs_apart(arcs);
        };
        let Some(body) = body.first_chunk_mut::<{ ROOM - 1 }>() else {
            return self.push_arcs_apart(arcs);
        };
        let (len, left) = write::put_oid(body, arcs)?;
        // At most 63 octets written here: a one-octet length (`push_rest` rewrites it when the
        // arcs left make the OID longer).
        length.write(len as u8);
        // SAFETY: the length octet and `put_oid`'s `len` octets after it (it writes every
        // octet of `body[..len]`) are the first `1 + len` octets of the spare capacity.
        unsafe { self.octets.set_len(start + 1 + len) };
        if !left.is_empty() {
            self.push_rest(start, left);
        }
        Ok(())
    }

    /// The arcs of the last OID that did not fit in [`ROOM`] (more than 63 octets), appended
    /// one at a time; its length octet at `start` then rewritten (two octets from 128 on).
    #[cold]
    fn push_rest(&mut self, start: usize, left: &[u32]) {
        for &arc in left {
            self.octets.extend_from_slice(Subid::of(arc).as_slice());
        }
        let len = self.octets.len() - start - 1;
        if len < 0x80 {
            self.octets[start] = len as u8;
        } else {
            // At most 128 arcs of five octets: below 2^15.
            self.octets[start] = 0x80 | (len >> 8) as u8;
            self.octets.insert(start + 1, len as u8);
        }
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
        let ber = oid.as_ber();
        // At most 128 arcs of five octets: below 2^15.
        match ber.len() {
            n @ 0..=0x7f => self.octets.push(n as u8),
            n => self
                .octets
                .extend_from_slice(&[0x80 | (n >> 8) as u8, n as u8]),
        }
        self.octets.extend_from_slice(ber);
    }

    /// How many OIDs (their lengths walked).
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// True when there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.octets.is_empty()
    }

    /// The `i`th OID, from 0 (the lengths of those before it walked).
    #[inline]
    pub fn get(&self, i: usize) -> Option<Oid<'_>> {
        self.iter().nth(i)
    }

    /// The OIDs in the order they were pushed.
    #[inline]
    pub fn iter(&self) -> OidListIter<'_> {
        OidListIter { rest: &self.octets }
    }

    /// Removes every OID, keeping the allocation.
    pub fn clear(&mut self) {
        self.octets.clear();
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
    /// The OIDs not yet read, each after its length.
    rest: &'a [u8],
}

impl<'a> Iterator for OidListIter<'a> {
    type Item = Oid<'a>;

    #[inline]
    fn next(&mut self) -> Option<Oid<'a>> {
        let &first = self.rest.first()?;
        if first >= 0x80 {
            return self.next_long();
        }
        let len = first as usize;
        // SAFETY: an `OidList`'s octets are whole entries, each a length and as many octets
        // after it (`push_arcs` and `push` write both, `clear` removes all), and `rest` starts
        // at an entry: this one's length octet is followed by `len` octets.
        let (ber, rest) = unsafe {
            (
                self.rest.get_unchecked(1..1 + len),
                self.rest.get_unchecked(1 + len..),
            )
        };
        self.rest = rest;
        Some(Oid::from_ber_unchecked(ber))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        // Two octets an OID at least: a length and one subidentifier.
        (
            usize::from(!self.rest.is_empty()),
            Some(self.rest.len() / 2),
        )
    }
}

impl<'a> OidListIter<'a> {
    /// [`Iterator::next`] for an OID of 128 octets or more, whose length takes two octets.
    #[cold]
    fn next_long(&mut self) -> Option<Oid<'a>> {
        let [high, low, after @ ..] = self.rest else {
            return None;
        };
        let len = ((high & 0x7f) as usize) << 8 | *low as usize;
        let (ber, rest) = after.split_at_checked(len)?;
        self.rest = rest;
        Some(Oid::from_ber_unchecked(ber))
    }
}

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
            prop_assert_eq!(list.iter().count(), want.len());
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
