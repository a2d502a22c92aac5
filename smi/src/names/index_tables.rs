//! The lookups of a loaded tree, kept small: the OID tree as its places (each the place above
//! it and one arc, no OID written out), found through a hash table, and every node by
//! descriptor as one sorted list of node numbers. Under `-m ALL` over a few hundred modules
//! these are what a session holds besides the modules themselves.

use std::cmp::Ordering;
use std::sync::OnceLock;

/// A place in the OID tree: the place above it, its last arc, and the node that names it
/// ([`NONE`] for an arc an OID passes through unnamed).
#[derive(Debug, Clone, Copy)]
struct Place {
    parent: u32,
    arc: u32,
    node: u32,
}

/// No node, or no place (the root above the first arcs).
const NONE: u32 = u32::MAX;

/// OID to node: the tree of every place a named OID passes through, each place once, found by
/// (place above, arc) in a hash table of place numbers. About 12 bytes a place and 8 a
/// slot, where every OID written out took 60 (a corpus's OIDs are a megabyte written out);
/// the places in OID order are sorted out when first asked for.
#[derive(Debug, Default)]
pub(super) struct OidTable {
    places: Vec<Place>,
    /// Open addressing, linear probing: place numbers, [`NONE`] for free slots; a power of
    /// two long, at most half full.
    slots: Vec<u32>,
    /// The places' numbers sorted by (place above, arc): each place's children together,
    /// in arc order.
    sorted: OnceLock<Vec<u32>>,
}

impl OidTable {
    /// The table of `nodes` (in the order that decides who names an OID several nodes are
    /// at: the first), `oid_into` writing a node's arcs after what a buffer holds.
    pub(super) fn build(nodes: &[u32], mut oid_into: impl FnMut(usize, &mut Vec<u32>)) -> OidTable {
        let mut table = OidTable {
            // About one place a node: room made once.
            places: Vec::with_capacity(nodes.len() + nodes.len() / 16),
            slots: vec![NONE; (2 * nodes.len()).next_power_of_two().max(16)],
            sorted: OnceLock::new(),
        };
        // Consecutive nodes mostly share all but their last arcs: the places of the last
        // node's OID are kept, and only the arcs after the shared ones are looked up.
        let (mut oid, mut last) = (Vec::new(), Vec::new());
        let mut path: Vec<u32> = Vec::new();
        for &node in nodes {
            oid.clear();
            oid_into(node as usize, &mut oid);
            let shared = oid.iter().zip(&last).take_while(|(a, b)| a == b).count();
            path.truncate(shared);
            for &arc in &oid[shared..] {
                let parent = path.last().copied().unwrap_or(NONE);
                path.push(table.child_or_new(parent, arc));
            }
            if let Some(&place) = path.last() {
                let named = &mut table.places[place as usize].node;
                if *named == NONE {
                    *named = node;
                }
            }
            std::mem::swap(&mut oid, &mut last);
        }
        table
    }

    fn slot_of(&self, parent: u32, arc: u32) -> usize {
        let h = (u64::from(parent) << 32 | u64::from(arc)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// The place below `parent` (a place number, or [`NONE`] for the root) at `arc`.
    fn child(&self, parent: u32, arc: u32) -> Option<u32> {
        let mut k = self.slot_of(parent, arc);
        loop {
            let place = *self.slots.get(k)?;
            if place == NONE {
                return None;
            }
            let p = self.places[place as usize];
            if p.parent == parent && p.arc == arc {
                return Some(place);
            }
            k = (k + 1) & (self.slots.len() - 1);
        }
    }

    /// [`OidTable::child`], made when missing.
    fn child_or_new(&mut self, parent: u32, arc: u32) -> u32 {
        if let Some(place) = self.child(parent, arc) {
            return place;
        }
        if 2 * (self.places.len() + 1) > self.slots.len() {
            self.grow();
        }
        let place = self.places.len() as u32;
        self.places.push(Place {
            parent,
            arc,
            node: NONE,
        });
        let k = self.free_slot(parent, arc);
        self.slots[k] = place;
        place
    }

    /// The first free slot from where (`parent`, `arc`) hashes to.
    fn free_slot(&self, parent: u32, arc: u32) -> usize {
        let mut k = self.slot_of(parent, arc);
        while self.slots[k] != NONE {
            k = (k + 1) & (self.slots.len() - 1);
        }
        k
    }

    /// Twice the slots, every place put in again.
    fn grow(&mut self) {
        self.slots = vec![NONE; self.slots.len() * 2];
        for place in 0..self.places.len() {
            let p = self.places[place];
            let k = self.free_slot(p.parent, p.arc);
            self.slots[k] = place as u32;
        }
    }

    /// The place at exactly `oid`.
    fn place(&self, oid: &[u32]) -> Option<u32> {
        oid.iter()
            .try_fold(NONE, |parent, &arc| self.child(parent, arc))
            .filter(|_| !oid.is_empty())
    }

    /// The node at exactly `oid`.
    pub(super) fn get(&self, oid: &[u32]) -> Option<usize> {
        let node = self.places[self.place(oid)? as usize].node;
        (node != NONE).then_some(node as usize)
    }

    fn sorted(&self) -> &[u32] {
        self.sorted.get_or_init(|| {
            let mut sorted: Vec<u32> = (0..self.places.len() as u32).collect();
            let key = |&k: &u32| {
                let p = self.places[k as usize];
                // The root's children first.
                (p.parent.wrapping_add(1), p.arc)
            };
            sorted.sort_unstable_by_key(key);
            sorted
        })
    }

    /// The children of `parent` (a place, or [`NONE`] for the root), in arc order: a range of
    /// [`OidTable::sorted`].
    fn children(&self, parent: u32) -> std::ops::Range<usize> {
        let sorted = self.sorted();
        let up = |k: &u32| self.places[*k as usize].parent.wrapping_add(1);
        let wanted = parent.wrapping_add(1);
        let first = sorted.partition_point(|k| up(k) < wanted);
        let end = first + sorted[first..].partition_point(|k| up(k) == wanted);
        first..end
    }

    /// Every (OID, node) from `oid` on (`oid` itself included when `inclusive`), in OID order.
    pub(super) fn from(&self, oid: &[u32], inclusive: bool) -> InOrder<'_> {
        let mut walk = InOrder {
            table: self,
            stack: Vec::new(),
            oid: Vec::new(),
            pending: None,
        };
        // Down `oid`'s path as far as it goes, at each level from the first child at or
        // after its arc.
        let sorted = self.sorted();
        let mut parent = NONE;
        for &arc in oid {
            let range = self.children(parent);
            let at = range.start
                + sorted[range.clone()].partition_point(|k| self.places[*k as usize].arc < arc);
            let on_path = sorted[at..range.end]
                .first()
                .copied()
                .filter(|&k| self.places[k as usize].arc == arc);
            let Some(k) = on_path else {
                walk.stack.push((at, range.end));
                return walk;
            };
            // The rest of this level comes after the subtree of the place on the path.
            walk.stack.push((at + 1, range.end));
            walk.oid.push(arc);
            parent = k;
        }
        // At `oid` itself (the root when empty): its subtree next, and itself first when
        // inclusive.
        let below = self.children(parent);
        walk.stack.push((below.start, below.end));
        if inclusive && parent != NONE {
            walk.pending = Some(parent);
        }
        walk
    }

    /// Every (OID, node), in OID order.
    pub(super) fn iter(&self) -> InOrder<'_> {
        self.from(&[], true)
    }
}

/// [`OidTable::from`]'s walk: depth first, children in arc order.
pub(super) struct InOrder<'t> {
    table: &'t OidTable,
    /// Per level of `oid`, the range of [`OidTable::sorted`] still to visit.
    stack: Vec<(usize, usize)>,
    /// The arcs down to the place last visited.
    oid: Vec<u32>,
    /// A place to give before going on (the start of an inclusive walk).
    pending: Option<u32>,
}

impl Iterator for InOrder<'_> {
    type Item = (Vec<u32>, usize);

    fn next(&mut self) -> Option<(Vec<u32>, usize)> {
        let places = &self.table.places;
        if let Some(k) = self.pending.take() {
            let node = places[k as usize].node;
            if node != NONE {
                return Some((self.oid.clone(), node as usize));
            }
        }
        let sorted = self.table.sorted();
        loop {
            let level = self.stack.len();
            let top = self.stack.last_mut()?;
            if top.0 >= top.1 {
                // This level is done: on with the one above, at the place after.
                self.stack.pop();
                self.oid.truncate(level.saturating_sub(2));
                continue;
            }
            let k = sorted[top.0];
            top.0 += 1;
            let p = places[k as usize];
            self.oid.truncate(level - 1);
            self.oid.push(p.arc);
            // Its children next (depth first), then its siblings.
            let below = self.table.children(k);
            self.stack.push((below.start, below.end));
            if p.node != NONE {
                return Some((self.oid.clone(), p.node as usize));
            }
        }
    }
}

/// Nodes by descriptor: node numbers sorted by name, those of one name in the order given.
#[derive(Debug, Default)]
pub(super) struct NameTable {
    nodes: Vec<u32>,
}

impl NameTable {
    /// The table of `nodes` (in the order a name's nodes are to be listed), `name` giving a
    /// node's descriptor.
    pub(super) fn build<'n>(nodes: &[u32], name: impl Fn(usize) -> &'n str) -> NameTable {
        let mut nodes = nodes.to_vec();
        nodes.sort_by(|&a, &b| name(a as usize).cmp(name(b as usize)));
        NameTable { nodes }
    }

    /// Each run of two or more nodes of one name put in another order by `reorder`.
    pub(super) fn reorder_runs<'n>(
        &mut self,
        name: impl Fn(usize) -> &'n str,
        mut reorder: impl FnMut(&mut [u32]),
    ) {
        let mut start = 0;
        while start < self.nodes.len() {
            let first = name(self.nodes[start] as usize);
            let len = self.nodes[start..]
                .iter()
                .take_while(|&&n| name(n as usize) == first)
                .count();
            if len > 1 {
                reorder(&mut self.nodes[start..start + len]);
            }
            start += len;
        }
    }

    /// The nodes named `wanted`, in the order given to [`NameTable::build`].
    pub(super) fn get<'n>(&self, wanted: &str, name: impl Fn(usize) -> &'n str) -> &[u32] {
        let first = self
            .nodes
            .partition_point(|&n| name(n as usize).cmp(wanted) == Ordering::Less);
        let rest = &self.nodes[first..];
        let len = rest.partition_point(|&n| name(n as usize) == wanted);
        &rest[..len]
    }
}

/// Values worked out per node when first asked for, kept in chunks allocated on first touch:
/// a walk asks about a few objects of a tree of tens of thousands of nodes.
pub(super) struct Lazy<T> {
    chunks: Box<[OnceLock<Chunk<T>>]>,
}

/// [`CHUNK`] nodes' values, each worked out when first asked for.
type Chunk<T> = Box<[OnceLock<T>]>;

/// Nodes a chunk of [`Lazy`] holds.
const CHUNK: usize = 64;

impl<T> Lazy<T> {
    /// Room for `n` nodes' values, none worked out.
    pub(super) fn new(n: usize) -> Lazy<T> {
        let chunks = std::iter::repeat_with(OnceLock::new);
        Lazy {
            chunks: chunks.take(n.div_ceil(CHUNK)).collect(),
        }
    }

    /// Node `i`'s value, worked out by `f` the first time.
    pub(super) fn get_or_init(&self, i: usize, f: impl FnOnce() -> T) -> &T {
        let chunk = self.chunks[i / CHUNK]
            .get_or_init(|| std::iter::repeat_with(OnceLock::new).take(CHUNK).collect());
        chunk[i % CHUNK].get_or_init(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oids_in_order_the_first_of_equals_kept() {
        let oids: [&[u32]; 5] = [&[1, 3, 6], &[1, 3], &[1, 3, 6, 1], &[1, 3, 6], &[2]];
        let t = OidTable::build(&(0..oids.len() as u32).collect::<Vec<_>>(), |n, out| {
            out.extend_from_slice(oids[n])
        });
        let all: Vec<(Vec<u32>, usize)> = t.iter().collect();
        let expected = vec![
            (vec![1, 3], 1),
            (vec![1, 3, 6], 0),
            (vec![1, 3, 6, 1], 2),
            (vec![2], 4),
        ];
        assert_eq!(all, expected);
        assert_eq!(t.get(&[1, 3, 6]), Some(0));
        assert_eq!(t.get(&[1, 3, 7]), None);
        // An arc an OID passes through unnamed is no node.
        assert_eq!(t.get(&[1]), None);
        assert_eq!(t.get(&[]), None);
        let from = |oid: &[u32], inclusive| -> Vec<usize> {
            t.from(oid, inclusive).map(|(_, n)| n).collect()
        };
        assert_eq!(from(&[1, 3, 6], false), [2, 4]);
        assert_eq!(from(&[1, 3, 6], true), [0, 2, 4]);
        assert_eq!(from(&[1, 3, 5], true), [0, 2, 4]);
        assert_eq!(from(&[1, 3, 6, 0], true), [2, 4]);
        assert_eq!(from(&[1, 3, 6, 1, 9], false), [4]);
        assert_eq!(from(&[1], true), [1, 0, 2, 4]);
        assert_eq!(from(&[1], false), [1, 0, 2, 4]);
        assert_eq!(from(&[2], false), Vec::<usize>::new());
        assert_eq!(from(&[3], true), Vec::<usize>::new());
        assert_eq!(from(&[0, 7], true), [1, 0, 2, 4]);
    }

    /// A node or two with long OIDs make many more places than nodes: the table grows.
    #[test]
    fn long_oids_grow_the_table() {
        let long: Vec<u32> = (0..128).collect();
        let oids = [long.clone(), long[..64].to_vec()];
        let t = OidTable::build(&[0, 1], |n, out| out.extend_from_slice(&oids[n]));
        assert_eq!(t.places.len(), 128);
        assert!(t.slots.len() >= 256);
        assert_eq!(t.get(&long), Some(0));
        assert_eq!(t.get(&long[..64]), Some(1));
        assert_eq!(t.get(&long[..65]), None);
        let all: Vec<usize> = t.iter().map(|(_, n)| n).collect();
        assert_eq!(all, [1, 0]);
    }

    /// The walk in OID order is the sorted list of OIDs, from wherever it starts, for trees
    /// of many shapes (shared prefixes, arcs passed unnamed, OIDs given twice).
    #[test]
    fn walks_are_oid_order_from_anywhere() {
        let mut oids: Vec<Vec<u32>> = Vec::new();
        let mut x: u32 = 7;
        for _ in 0..400 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let len = 1 + (x >> 8) as usize % 6;
            let oid: Vec<u32> = (0..len).map(|k| (x >> (k * 3)) % 4).collect();
            oids.push(oid);
        }
        let nodes: Vec<u32> = (0..oids.len() as u32).collect();
        let t = OidTable::build(&nodes, |n, out| out.extend_from_slice(&oids[n]));
        // The first given of equal OIDs, in OID order.
        let mut expected: Vec<(Vec<u32>, usize)> = Vec::new();
        let mut order: Vec<usize> = (0..oids.len()).collect();
        order.sort_by(|&a, &b| oids[a].cmp(&oids[b]).then(a.cmp(&b)));
        for k in order {
            if expected.last().is_none_or(|(o, _)| *o != oids[k]) {
                expected.push((oids[k].clone(), k));
            }
        }
        assert_eq!(t.iter().collect::<Vec<_>>(), expected);
        for (oid, node) in &expected {
            assert_eq!(t.get(oid), Some(*node));
        }
        let probes = expected.iter().map(|(o, _)| o.clone()).chain([
            vec![],
            vec![0],
            vec![3, 3, 3, 3, 3, 3, 3],
            vec![1, 2, 9],
        ]);
        for probe in probes {
            for inclusive in [true, false] {
                let want: Vec<(Vec<u32>, usize)> = expected
                    .iter()
                    .filter(|(o, _)| *o > probe || (inclusive && *o == probe))
                    .cloned()
                    .collect();
                let got: Vec<(Vec<u32>, usize)> = t.from(&probe, inclusive).collect();
                assert_eq!(got, want, "from {probe:?}, inclusive {inclusive}");
            }
        }
    }

    #[test]
    fn lazy_values_once_each() {
        let lazy: Lazy<usize> = Lazy::new(200);
        assert_eq!(*lazy.get_or_init(130, || 7), 7);
        assert_eq!(*lazy.get_or_init(130, || 8), 7);
        assert_eq!(*lazy.get_or_init(140, || 9), 9);
        // Nodes 130 and 140 share a chunk of 64: one of the four allocated.
        assert_eq!(lazy.chunks.len(), 4);
        assert_eq!(lazy.chunks.iter().filter(|c| c.get().is_some()).count(), 1);
    }

    #[test]
    fn names_in_the_order_given() {
        let names = ["b", "a", "b", "c", "a"];
        let t = NameTable::build(&[4, 3, 2, 1, 0], |n| names[n]);
        assert_eq!(t.get("a", |n| names[n]), [4, 1]);
        assert_eq!(t.get("b", |n| names[n]), [2, 0]);
        assert!(t.get("d", |n| names[n]).is_empty());
        assert!(t.get("", |n| names[n]).is_empty());
    }
}
