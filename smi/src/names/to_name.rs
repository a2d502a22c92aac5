//! OIDs to names, as net-snmp prints them (`-On`, `-Os`, `-OS`, `-Of` ...): the deepest node
//! known, its module, and the instance after it read by the row's INDEX.

use super::*;
use crate::mib::ir::{Syntax, INET_ADDRESS, INET_ADDRESS_TYPE};
use crate::mib::MibNode;

impl Mibs {
    /// An OID to `MODULE::name.suffix` by longest prefix, the instance after a column shown
    /// by its row's INDEX as `style` says; under no node of a module, by its root
    /// (`joint-iso-ccitt.25.1234`, as net-snmp names it); `None` under no root either.
    pub fn oid_to_name(&self, oid: &[u32], style: IndexStyle) -> Option<String> {
        self.oid_to_module_name(oid, style).or_else(|| {
            let root = ROOTS.get(usize::try_from(*oid.first()?).ok()?)?;
            let mut s = root.to_string();
            for a in &oid[1..] {
                let _ = write!(s, ".{a}");
            }
            Some(s)
        })
    }

    /// An OID with every arc named down to the last node the modules define, then the
    /// instance as `style` says, as net-snmp's `-Of` prints it:
    /// `.iso.org.dod.internet.mgmt.mib-2.system.sysDescr.0`.
    pub fn full_name(&self, oid: &[u32], style: IndexStyle) -> String {
        let mut s = String::new();
        let Some(root) = oid
            .first()
            .and_then(|&a| ROOTS.get(usize::try_from(a).ok()?))
        else {
            for a in oid {
                let _ = write!(s, ".{a}");
            }
            return s;
        };
        let _ = write!(s, ".{root}");
        let mut k = 1;
        let mut deepest = None;
        while let Some(prefix) = oid.get(..k + 1) {
            if let Some(node) = self.lookup().by_oid.get(prefix) {
                match self.enterprise_arc(prefix) {
                    Some((label, _)) => {
                        let _ = write!(s, ".{label}");
                    }
                    None => {
                        let _ = write!(s, ".{}", self.set.name(&self.resolved.nodes[node]));
                    }
                }
                deepest = Some(node);
            } else if let Some((label, _)) = deepest
                .filter(|&n| self.resolved.nodes[n].kind() != NodeKind::ObjectType)
                .and_then(|_| self.trap_arc(prefix))
            {
                // net-snmp's `enterprise#` above SMIv1 traps.
                let _ = write!(s, ".{label}");
            } else if self.has_children(prefix) {
                // An arc no module names with named nodes below it (sFlow's
                // `{ enterprises 4300 1 }`): net-snmp's anonymous node, shown as its number.
                let _ = write!(s, ".{}", prefix[k]);
            } else {
                break;
            }
            k += 1;
        }
        match deepest {
            Some(node) => self.write_instance(&mut s, node, oid, k, style),
            None => {
                for a in &oid[k..] {
                    let _ = write!(s, ".{a}");
                }
            }
        }
        s
    }

    /// Appends the arcs of `oid` after `k`, where `node` is, as its row's INDEX shows them
    /// (numbers when `node` is neither a row nor a column of one).
    pub(super) fn write_instance(
        &self,
        s: &mut String,
        node: usize,
        oid: &[u32],
        k: usize,
        style: IndexStyle,
    ) {
        let mut rest = &oid[k..];
        let Some((index, row_itself)) = self.instance_index(node, &oid[..k]) else {
            for a in rest {
                let _ = write!(s, ".{a}");
            }
            return;
        };
        if row_itself {
            // The row's own name, then a column arc no module names.
            if let Some((column, after)) = rest.split_first() {
                let _ = write!(s, ".{column}");
                rest = after;
            }
        }
        let name_oid = |arcs: &[u32]| {
            self.oid_to_name(arcs, IndexStyle::Components)
                .unwrap_or_else(|| format!(".{}", mib::dotted(arcs)))
        };
        index::write_instance(s, index, rest, style, &name_oid);
    }

    /// The INDEX the arcs after `node` (whose OID is `oid`) follow, and whether a column arc
    /// comes first (`node` a row with nodes below it; else `node` is a column of the row
    /// above it, or an object with an INDEX of its own); `None` when it is none of these.
    pub(super) fn instance_index(&self, node: usize, oid: &[u32]) -> Option<(&[IndexPart], bool)> {
        if let Some(index) = self.row_index(node) {
            // After a row, as after any node with an INDEX that has nodes below it, net-snmp
            // takes the first arc for a column; a node without (JUNIPER-IFOTN-MIB's
            // jnxOtnClearInterfacePMs, an object with an INDEX of its own) has its INDEX
            // read from the first arc on.
            return Some((index, self.has_children(oid)));
        }
        let parent = self
            .lookup()
            .by_oid
            .get(oid.get(..oid.len().checked_sub(1)?)?)?;
        Some((self.row_index(parent)?, false))
    }

    /// The INDEX of `node` when it is a row (through AUGMENTS), worked out once.
    pub(super) fn row_index(&self, node: usize) -> Option<&[IndexPart]> {
        self.lookup()
            .rows
            .get_or_init(node, || {
                let n = &self.resolved.nodes[node];
                let written = self.set.node(n);
                let row = written.kind == NodeKind::ObjectType
                    && (!written.index().is_empty() || written.augments().is_some());
                row.then(|| {
                    self.row_index_by_names(n.module(), written)
                        .or_else(|| mib::row_index(&self.set, n.module(), written).ok())
                })
                .flatten()
                .map(Vec::into_boxed_slice)
            })
            .as_deref()
    }

    /// The INDEX of row `written` (of module `m`) as net-snmp's tools read it: the row that
    /// AUGMENTS names and each INDEX item looked up by the name alone, as a name without its
    /// module is ([`Mibs::name_to_oid`]): where two modules define a name, the one net-snmp
    /// linked last (under `-m ALL` PIM-STD-MIB's pimNeighborTable is indexed by PIM-MIB's
    /// pimNeighborAddress, an IpAddress). `None` when the first item is not in the tree.
    fn row_index_by_names(&self, m: usize, written: &mib::Node) -> Option<Vec<IndexPart>> {
        let by_name = |module: usize, name: mib::tree::Name| {
            let node = self.named(self.set.modules[module].smi.name(name)).next()?;
            Some(&self.resolved.nodes[node])
        };
        let (im, row) = match written.augments() {
            Some(base) => {
                let base = by_name(m, base)?;
                (base.module(), self.set.node(base))
            }
            None => (m, written),
        };
        if row.index().is_empty() {
            return None;
        }
        // An item no module defines ends the INDEX there, as it ends net-snmp's reading of
        // an instance (IEEE8021-MSTP-MIB's ieee8021MstpFidToMstiV2Entry names a
        // `ieee8021MstpFidToMstV2Fid` second: its first component is still read).
        let mut parts = Vec::new();
        for item in row.index() {
            let Some(object) = by_name(im, item.name) else {
                break;
            };
            let syntax = self.syntax_of(object).unwrap_or_default();
            parts.push(IndexPart {
                name: self.set.modules[im].smi.name(item.name).to_string(),
                implied: item.implied,
                address_typed: syntax.names_convention(INET_ADDRESS)
                    && self.lower_sibling_is_address_type(object),
                syntax,
            });
        }
        (!parts.is_empty()).then_some(parts)
    }

    /// The SYNTAX of a resolved node, through its conventions.
    fn syntax_of(&self, node: &MibNode) -> Option<Syntax> {
        let (m, i) = (node.module(), node.index());
        let ty = self.set.node_syntax(m, i)?;
        Some(mib::lower::syntax(&self.set, m, ty))
    }

    /// Whether the sibling just below `node` in the tree (the highest arc under the same
    /// parent lower than its own: net-snmp's `next_peer`, its children listed from the highest
    /// arc down) is an InetAddressType, as net-snmp asks before it reads an InetAddress INDEX
    /// component as an address (IP-MIB's ipAddressAddr beside ipAddressAddrType).
    fn lower_sibling_is_address_type(&self, node: &MibNode) -> bool {
        let oid = self.resolved.oid(node);
        let Some((&arc, parent)) = oid.split_last() else {
            return false;
        };
        let below = self
            .children(parent)
            .filter(|&(a, _)| a < arc)
            .max_by_key(|&(a, _)| a);
        below.is_some_and(|(_, sibling)| {
            self.syntax_of(&self.resolved.nodes[sibling])
                .is_some_and(|s| s.names_convention(INET_ADDRESS_TYPE))
        })
    }

    /// Whether every arc of `oid` is named: the deepest node above or at it is `oid` itself or
    /// an object (whose instance the rest of the arcs are), not a node with arcs below it
    /// that no module read names.
    pub fn names_fully(&self, oid: &[u32]) -> bool {
        (1..=oid.len()).rev().find_map(|k| {
            let node = self.lookup().by_oid.get(&oid[..k])?;
            Some(k == oid.len() || self.resolved.nodes[node].kind() == NodeKind::ObjectType)
        }) == Some(true)
    }

    pub(super) fn oid_to_module_name(&self, oid: &[u32], style: IndexStyle) -> Option<String> {
        (0..=oid.len()).rev().find_map(|k| {
            let node = self.lookup().by_oid.get(&oid[..k])?;
            if self.is_root_label(node, k) {
                return None;
            }
            // An arc a module names, where net-snmp's `enterprise#` is linked first.
            if let Some((label, trap)) = self.enterprise_arc(&oid[..k]) {
                let mut s = format!("{}::{label}", self.module_name(trap));
                for a in &oid[k..] {
                    let _ = write!(s, ".{a}");
                }
                return Some(s);
            }
            // (An object's `.0` is its instance, never an enterprise's.)
            let object = self.resolved.nodes[node].kind() == NodeKind::ObjectType;
            if let Some((label, trap)) = oid
                .get(..k + 1)
                .filter(|_| !object)
                .and_then(|p| self.trap_arc(p))
            {
                let mut s = format!("{}::{label}", self.module_name(trap));
                for a in &oid[k + 1..] {
                    let _ = write!(s, ".{a}");
                }
                return Some(s);
            }
            if let Some(s) = (!object)
                .then(|| self.name_through_unnamed_arcs(node, oid, k))
                .flatten()
            {
                return Some(s);
            }
            let mut s = format!(
                "{}::{}",
                self.module_name(node),
                self.set.name(&self.resolved.nodes[node])
            );
            self.write_instance(&mut s, node, oid, k, style);
            Some(s)
        })
    }

    /// `oid` named as net-snmp names it when arcs below `node` (the deepest named node on its
    /// path, `k` arcs long) are arcs some module's OID value passes through without naming
    /// (`{ enterprises 4300 1 }`): net-snmp links a node `anonymous#N` there, of that module,
    /// and prints its number: `SFLOW-MIB::enterprises.4300` for the arc itself,
    /// `SFLOW-MIB::4300.7` below it. `None` when no such arc is on the path.
    fn name_through_unnamed_arcs(&self, node: usize, oid: &[u32], k: usize) -> Option<String> {
        let j = (k + 1..=oid.len())
            .rev()
            .find(|&j| self.has_children(&oid[..j]))?;
        let (_, below) = self.lookup().by_oid.from(&oid[..j], false).next()?;
        let mut s = format!("{}::", self.module_name(below));
        let (first, rest) = match j == oid.len() {
            true => (
                self.set.name(&self.resolved.nodes[node]).to_string(),
                &oid[k..],
            ),
            false => (oid[j - 1].to_string(), &oid[j..]),
        };
        s.push_str(&first);
        for a in rest {
            let _ = write!(s, ".{a}");
        }
        Some(s)
    }
}
