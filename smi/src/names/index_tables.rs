//! The lookups of a loaded tree, kept small: every named OID once, in OID order, the arcs of
//! all of them in one buffer (no allocation per OID), and every node by descriptor as one
//! sorted list of node numbers. Under `-m ALL` over a few hundred modules these are most of
//! what a session holds besides the modules themselves.

use std::cmp::Ordering;
use std::sync::OnceLock;

/// An OID's place in [`OidTable::arcs`] and the node that names it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: u32,
    len: u32,
    node: u32,
}

/// OID to node, in OID order; lookups by binary search.
#[derive(Debug, Default)]
pub(super) struct OidTable {
    arcs: Vec<u32>,
    entries: Vec<Entry>,
}

impl OidTable {
    /// The table of `nodes` (in the order that decides who names an OID several nodes are
    /// at: the first), `oid_into` writing a node's arcs after what a buffer holds.
    pub(super) fn build(nodes: &[u32], mut oid_into: impl FnMut(usize, &mut Vec<u32>)) -> OidTable {
        // Sized exactly (a corpus's OIDs are a megabyte that doubling would leave a third
        // unused, with the old copy alongside while it grows).
        let mut scratch = Vec::new();
        let total: usize = nodes
            .iter()
            .map(|&n| {
                scratch.clear();
                oid_into(n as usize, &mut scratch);
                scratch.len()
            })
            .sum();
        let mut table = OidTable {
            arcs: Vec::with_capacity(total),
            entries: Vec::with_capacity(nodes.len()),
        };
        for &node in nodes {
            let start = table.arcs.len();
            oid_into(node as usize, &mut table.arcs);
            table.entries.push(Entry {
                start: start as u32,
                len: (table.arcs.len() - start) as u32,
                node,
            });
        }
        // Of equal OIDs the first given (its arcs first written) stays first, and the others
        // go. (An unstable sort needs no room of its own.)
        let arcs = &table.arcs;
        let slice = |e: &Entry| &arcs[e.start as usize..(e.start + e.len) as usize];
        table
            .entries
            .sort_unstable_by(|a, b| slice(a).cmp(slice(b)).then(a.start.cmp(&b.start)));
        // (The few duplicates dropped leave their room: shrinking would copy the list.)
        table.entries.dedup_by(|b, a| slice(a) == slice(b));
        table
    }

    fn oid(&self, e: &Entry) -> &[u32] {
        &self.arcs[e.start as usize..(e.start + e.len) as usize]
    }

    /// Where `oid` is, or would be.
    fn position(&self, oid: &[u32]) -> Result<usize, usize> {
        self.entries.binary_search_by(|e| self.oid(e).cmp(oid))
    }

    /// The node at exactly `oid`.
    pub(super) fn get(&self, oid: &[u32]) -> Option<usize> {
        let at = self.position(oid).ok()?;
        Some(self.entries[at].node as usize)
    }

    /// Every (OID, node) from `oid` on (`oid` itself included when `inclusive`), in OID order.
    pub(super) fn from<'s>(
        &'s self,
        oid: &[u32],
        inclusive: bool,
    ) -> impl Iterator<Item = (&'s [u32], usize)> + 's {
        let first = match self.position(oid) {
            Ok(at) if inclusive => at,
            Ok(at) => at + 1,
            Err(at) => at,
        };
        self.entries[first..]
            .iter()
            .map(|e| (self.oid(e), e.node as usize))
    }

    /// Every (OID, node), in OID order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&[u32], usize)> {
        self.from(&[], true)
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
        let all: Vec<(&[u32], usize)> = t.iter().collect();
        let expected: Vec<(&[u32], usize)> =
            vec![(&[1, 3], 1), (&[1, 3, 6], 0), (&[1, 3, 6, 1], 2), (&[2], 4)];
        assert_eq!(all, expected);
        assert_eq!(t.get(&[1, 3, 6]), Some(0));
        assert_eq!(t.get(&[1, 3, 7]), None);
        let after: Vec<usize> = t.from(&[1, 3, 6], false).map(|(_, n)| n).collect();
        assert_eq!(after, [2, 4]);
        let from: Vec<usize> = t.from(&[1, 3, 5], true).map(|(_, n)| n).collect();
        assert_eq!(from, [0, 2, 4]);
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
