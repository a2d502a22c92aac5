//! The OID tree the MIBs make: children, the deepest known node of an OID, table columns.

use super::*;

impl Mibs {
    /// The nodes right below `oid`: their last arcs and nodes.
    pub fn children<'s>(&'s self, oid: &'s [u32]) -> impl Iterator<Item = (u32, usize)> + 's {
        self.lookup()
            .by_oid
            .from(oid, true)
            .take_while(move |(o, _)| o.starts_with(oid))
            .filter(move |(o, _)| o.len() == oid.len() + 1)
            .map(|(o, n)| (o[oid.len()], n))
    }

    /// net-snmp's `enterprise#` at `oid`, an enterprise's `.0` with SMIv1 TRAP-TYPEs below it
    /// that no module names: net-snmp links a node of that name there, in the traps' module,
    /// and names OIDs through it (`PowerNet-MIB::apc#.5`). Its name and the first trap below.
    pub fn trap_arc(&self, oid: &[u32]) -> Option<(String, usize)> {
        let (0, parent) = oid.split_last()? else {
            return None;
        };
        if parent.is_empty() || self.lookup().by_oid.get(oid).is_some() {
            return None;
        }
        let (_, trap) = self
            .children(oid)
            .find(|(_, n)| self.written(*n).kind == NodeKind::TrapType)?;
        Some((format!("{}#", self.label_at(parent)?), trap))
    }

    /// The name net-snmp gives `oid` when it is an enterprise's `.0` with SMIv1 TRAP-TYPEs
    /// below it: its `enterprise#` ([`Mibs::trap_arc`]) where no module names the arc, and
    /// also where one does but net-snmp links its `enterprise#` first. net-snmp makes that
    /// node again at each TRAP-TYPE, and of the nodes at one OID the first linked names it (of
    /// the module read first, the last written): a prefix written before a module's last
    /// TRAP-TYPE is named `X#` (Cisco's SMIv1 conversions, `ciscoUnityExpressMIB#`), one
    /// written after it names the arc itself.
    pub fn enterprise_arc(&self, oid: &[u32]) -> Option<(String, usize)> {
        let Some(named) = self.lookup().by_oid.get(oid) else {
            return self.trap_arc(oid);
        };
        let (0, parent) = oid.split_last()? else {
            return None;
        };
        if parent.is_empty() {
            return None;
        }
        let trap = self
            .children(oid)
            .map(|(_, n)| n)
            .filter(|&n| self.written(n).kind == NodeKind::TrapType)
            .min_by_key(|&n| self.linked_when(n))?;
        if self.linked_when(named) < self.linked_when(trap) {
            return None;
        }
        Some((format!("{}#", self.label_at(parent)?), trap))
    }

    /// Whether some node is below `oid`.
    pub(super) fn has_children(&self, oid: &[u32]) -> bool {
        self.lookup()
            .by_oid
            .from(oid, false)
            .next()
            .is_some_and(|(o, _)| o.starts_with(oid))
    }

    /// Every node's OID, in OID order.
    pub fn oids(&self) -> impl Iterator<Item = Vec<u32>> + '_ {
        self.lookup().by_oid.iter().map(|(o, _)| o)
    }

    /// The deepest node on `oid`'s path: how many arcs it has, and the node.
    pub fn deepest(&self, oid: &[u32]) -> Option<(usize, usize)> {
        (1..=oid.len())
            .rev()
            .find_map(|k| Some((k, self.lookup().by_oid.get(&oid[..k])?)))
    }

    /// The columns of the conceptual table at `table` (its entry's readable columns, in OID
    /// order): each column's last arc and name. `None` when `table` has no entry below it.
    pub fn table_columns(&self, table: &[u32]) -> Option<Vec<(u32, String)>> {
        let mut entry = table.to_vec();
        entry.push(1);
        self.lookup().by_oid.get(&entry)?;
        let mut columns = Vec::new();
        for (oid, node) in self.lookup().by_oid.from(&entry, true) {
            if !oid.starts_with(&entry) {
                break;
            }
            let n = self.set.node(&self.resolved.nodes[node]);
            let readable = !matches!(
                n.access,
                None | Some(Access::NotAccessible) | Some(Access::AccessibleForNotify)
            );
            if oid.len() == entry.len() + 1 && n.syntax.is_some() && readable {
                columns.push((
                    oid[entry.len()],
                    self.set.name(&self.resolved.nodes[node]).to_string(),
                ));
            }
        }
        Some(columns)
    }
}
