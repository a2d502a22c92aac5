//! `snmpc translate -Tt` and `-Ta`: snmptranslate's two dumps of the loaded tree, as net-snmp
//! builds it. Both show net-snmp's own bookkeeping, worked out here from the order in which it
//! reads modules ([`Mibs::linked_when`]):
//!
//! - `-Tt`, a line for every node in arc order, two spaces a level, with net-snmp's type
//!   number (`TYPE_OCTETSTR` is 2, `TYPE_MODID` 24), its index of the object's
//!   TEXTUAL-CONVENTION in its table of conventions (filled as it parses them: every type
//!   assignment that is not a SEQUENCE, a CHOICE or a tagged type takes the next place), that
//!   convention's own DISPLAY-HINT and the object's UNITS: `sysDescr(1) type=2 tc=4 hint=255a`.
//! - `-Ta`, the tree below `iso` as OBJECT IDENTIFIER assignments, a node's children together
//!   and then each child's, the children in the order net-snmp links them: module after
//!   module as it reads them, each module's own in the reverse of the order it writes them
//!   (net-snmp files a module's nodes by pushing each on a list), a second name for an arc
//!   before the first.
//!
//! Where net-snmp names an arc no module names `anonymous#N` (its own count), these print
//! the number, as `-Tz` does.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use snmp_smi::asn1::ast::{Type, TypeKind};
use snmp_smi::mib::{MibSet, NodeKind};
use snmp_smi::names::precedence::Step;
use snmp_smi::names::Mibs;

/// The type names net-snmp's parser knows as words of its own, with their type numbers: a
/// SYNTAX that names one is that type, never a convention (`ObjectName` and the other SMI
/// CHOICE names are typed 0, `TYPE_OTHER`).
const TYPE_WORDS: &[(&str, u8)] = &[
    ("INTEGER", 3),
    ("Integer32", 16),
    ("UInteger32", 14),
    ("Unsigned32", 15),
    ("Counter", 6),
    ("Counter32", 6),
    ("Counter64", 11),
    ("Gauge", 7),
    ("Gauge32", 7),
    ("IpAddress", 5),
    ("NetworkAddress", 4),
    ("NsapAddress", 13),
    ("TimeTicks", 8),
    ("Opaque", 9),
    ("OCTET STRING", 2),
    ("OBJECT IDENTIFIER", 1),
    ("BITS", 12),
    ("NULL", 10),
    ("ObjectSyntax", 0),
    ("SimpleSyntax", 0),
    ("ApplicationSyntax", 0),
    ("ObjectName", 0),
    ("NotificationName", 0),
];

/// The type number of `name` when net-snmp reads it as a word of its own.
fn type_word(name: &str) -> Option<u8> {
    TYPE_WORDS.iter().find(|(w, _)| *w == name).map(|&(_, n)| n)
}

/// Where each TEXTUAL-CONVENTION (and plain type assignment) is in net-snmp's table of
/// conventions: (module index, name) to its place.
pub struct Conventions<'m> {
    slots: HashMap<(usize, &'m str), usize>,
}

impl<'m> Conventions<'m> {
    /// The table as net-snmp fills it: assignments in the order it parses them; a name a module assigns twice keeps its first place,
    /// and an assignment of a type net-snmp cannot map to one of its own (one naming a
    /// convention it has not read yet, or none) takes no place.
    pub fn new(mibs: &'m Mibs) -> Conventions<'m> {
        let set = &mibs.set;
        let mut table = Conventions {
            slots: HashMap::new(),
        };
        mibs.reading(|step| {
            let Step::Type(m, i) = step else {
                return;
            };
            let def = &set.modules[m].smi.types[i];
            let key = (m, def.name.as_str());
            if !table.slots.contains_key(&key) && table.maps_to_a_type(set, m, &def.syntax) {
                let place = table.slots.len();
                table.slots.insert(key, place);
            }
        });
        table
    }

    /// Whether net-snmp files `ty`, assigned in module `m`, as a convention.
    fn maps_to_a_type(&self, set: &MibSet, m: usize, ty: &Type) -> bool {
        match &ty.kind {
            TypeKind::Sequence(_)
            | TypeKind::Set(_)
            | TypeKind::SequenceOf(..)
            | TypeKind::SetOf(..)
            | TypeKind::Choice(_)
            | TypeKind::Tagged { .. }
            | TypeKind::Any(_)
            | TypeKind::Boolean => false,
            TypeKind::Reference { name, .. } if type_word(name).is_some() => true,
            TypeKind::Reference { name, .. } => self.place(set, m, name).is_some(),
            _ => true,
        }
    }

    /// The place of convention `name` as module `m` uses it, with the module and index of
    /// its definition; `None` when net-snmp has not filed it.
    fn place(&self, set: &MibSet, m: usize, name: &str) -> Option<(usize, usize, usize)> {
        let (t, i) = set.find(m, name, true)?;
        let place = *self
            .slots
            .get(&(t, set.modules[t].smi.types[i].name.as_str()))?;
        Some((place, t, i))
    }
}

/// net-snmp's type number for node `node` (its `TYPE_*`): an object's from its SYNTAX, a
/// macro's from the macro, 0 (`TYPE_OTHER`) for the rest. (net-snmp gives a TRAP-TYPE's number
/// to the `enterprise#` arc above it, and 0 to the trap.)
fn type_number(mibs: &Mibs, conventions: &Conventions, node: usize) -> u8 {
    let written = mibs.written(node);
    let module = mibs.resolved.nodes[node].module();
    match (written.kind, &written.syntax) {
        (NodeKind::ObjectType, Some(ty)) => syntax_number(&mibs.set, conventions, module, ty),
        (NodeKind::ObjectType | NodeKind::TrapType, _) => 0,
        (NodeKind::NotificationType, _) => 21,
        (NodeKind::ObjectGroup, _) => 22,
        (NodeKind::NotificationGroup, _) => 23,
        (NodeKind::ModuleIdentity, _) => 24,
        (NodeKind::AgentCapabilities, _) => 25,
        (NodeKind::ModuleCompliance, _) => 26,
        (NodeKind::ObjectIdentity, _) => 27,
        (NodeKind::Identifier | NodeKind::Label, _) => 0,
    }
}

/// net-snmp's type number for `ty`, written in module `m`: a convention's is the type it is
/// defined as (net-snmp files that with the convention), a convention it has not filed 0.
fn syntax_number(set: &MibSet, conventions: &Conventions, m: usize, ty: &Type) -> u8 {
    let (mut m, mut ty) = (m, ty);
    // Conventions defined as conventions: a chain no longer than the table.
    for _ in 0..=conventions.slots.len() {
        match &ty.kind {
            TypeKind::Reference { name, .. } => {
                if let Some(n) = type_word(name) {
                    return n;
                }
                let Some((_, t, i)) = conventions.place(set, m, name) else {
                    return 0;
                };
                (m, ty) = (t, &set.modules[t].smi.types[i].syntax);
            }
            TypeKind::ObjectIdentifier => return 1,
            TypeKind::OctetString => return 2,
            TypeKind::Integer(_) | TypeKind::Enumerated { .. } => return 3,
            TypeKind::Null => return 10,
            TypeKind::BitString(_) => return 12,
            _ => return 0,
        }
    }
    0
}

/// `-Tt`'s line for the node at `oid` (labelled `label`, defined by `node` of
/// [`Mibs::resolved`] where a module defines it), without its indent:
/// `sysDescr(1) type=2 tc=4 hint=255a`.
pub fn suffix_line(
    mibs: &Mibs,
    conventions: &Conventions,
    (oid, label): (&[u32], &str),
    node: Option<usize>,
) -> String {
    let arc = oid.last().copied().unwrap_or_default();
    let Some(node) = node else {
        let number = if mibs.trap_arc(oid).is_some() { 20 } else { 0 };
        return format!("{label}({arc}) type={number}");
    };
    let number = type_number(mibs, conventions, node);
    let mut line = format!("{label}({arc}) type={number}");
    let written = mibs.written(node);
    let module = mibs.resolved.nodes[node].module();
    let convention = match written.syntax.as_deref().map(|t| &t.kind) {
        Some(TypeKind::Reference { name, .. })
            if written.kind == NodeKind::ObjectType && type_word(name).is_none() =>
        {
            conventions.place(&mibs.set, module, name)
        }
        _ => None,
    };
    if let Some((place, t, i)) = convention {
        let _ = write!(line, " tc={place}");
        if let Some(hint) = &mibs.set.modules[t].smi.types[i].display_hint {
            let _ = write!(line, " hint={hint}");
        }
    }
    if let Some(units) = written.units() {
        let _ = write!(line, " units={units}");
    }
    line
}

/// When net-snmp links a node into its tree, as a sort key: the module's place in its
/// reading order, then the node's position in the module, last written first.
type Linked = snmp_smi::names::LinkedWhen;

/// A node of net-snmp's tree: its OID and its name (an OID two modules name differently is
/// two nodes).
pub type TreeNode = (Vec<u32>, String);

/// `snmptranslate -Ta`: the tree below `iso` as `name OBJECT IDENTIFIER ::= { parent n }`
/// lines between `dump DEFINITIONS ::= BEGIN` and `END`.
pub fn ascii_dump(mibs: &Mibs) -> String {
    let children = net_tree(mibs).children;
    let mut out = String::from("dump DEFINITIONS ::= BEGIN\n");
    let mut stack: Vec<TreeNode> = vec![(vec![1], label_of(mibs, &[1]))];
    // net-snmp writes a node's children, then each child's subtree in turn (an explicit
    // stack, filled in reverse, keeps that order).
    while let Some((oid, label)) = stack.pop() {
        let Some(list) = children.get(&(oid.clone(), label.clone())) else {
            continue;
        };
        for (arc, name) in list {
            let _ = writeln!(out, "{name} OBJECT IDENTIFIER ::= {{ {label} {arc} }}");
        }
        for (arc, name) in list.iter().rev() {
            let mut child = oid.clone();
            child.push(*arc);
            let node = (child, name.clone());
            if children.contains_key(&node) {
                stack.push(node);
            }
        }
    }
    out.push_str("END\n");
    out
}

/// The name the tree gives `oid`; for an arc no module names, its number (or net-snmp's
/// `enterprise#` above SMIv1 traps).
pub(crate) fn label_of(mibs: &Mibs, oid: &[u32]) -> String {
    match mibs.label_at(oid) {
        Some(label) => label.to_string(),
        None => crate::mibtree::unnamed(mibs, oid),
    }
}

/// net-snmp's tree: each node's children, and the definition of each node a module defines.
pub struct NetTree {
    /// Each node's children as (arc, name), in the order net-snmp links them.
    pub children: BTreeMap<TreeNode, Vec<(u32, String)>>,
    /// The definition (a node of [`Mibs::resolved`]) of each node a module names: the one
    /// net-snmp links first.
    pub defined: HashMap<TreeNode, usize>,
}

impl NetTree {
    /// The children of `node` in the order net-snmp's reports list them: lowest arc first,
    /// of one arc the last linked first (`-To`, `-Tz`), or the first linked first (`-Tp`).
    pub fn children_by_arc(&self, node: &TreeNode, first_linked_first: bool) -> Vec<TreeNode> {
        let mut below: Vec<&(u32, String)> =
            self.children.get(node).into_iter().flatten().collect();
        if first_linked_first {
            below.reverse();
        }
        below.sort_by_key(|(arc, _)| *arc);
        below
            .into_iter()
            .map(|(arc, name)| {
                let mut oid = node.0.clone();
                oid.push(*arc);
                (oid, name.clone())
            })
            .collect()
    }
}

/// net-snmp's tree ([`NetTree`]), in the order net-snmp links it: every name a module gives
/// an arc is a node of its own, linked by the first module (in reading order) that gives it;
/// a node is appended to its parent's children, unless a node of another name has its arc,
/// which it then goes just before. Of several names at the parent's OID, a node hangs below
/// the first linked, whichever its OID value names (net-snmp links the children of any of
/// them below the last of their run among the parent's own children, which is the first
/// linked). An arc no module names is linked with the first node below it.
pub fn net_tree(mibs: &Mibs) -> NetTree {
    // Each node: when it was linked, and its definition (none for an arc no module names).
    let mut first: BTreeMap<TreeNode, (Linked, Option<usize>)> = BTreeMap::new();
    let mut link = |node: TreeNode, when: Linked, defined: Option<usize>| {
        let seen = first.entry(node).or_insert((when, defined));
        if when < seen.0 {
            *seen = (when, defined.or(seen.1));
        }
    };
    let mut oid = Vec::new();
    for (i, n) in mibs.resolved.nodes.iter().enumerate() {
        oid.clear();
        mibs.resolved.oid_into(n, &mut oid);
        if oid.len() < 2 {
            continue;
        }
        let when = mibs.linked_when(i);
        link((oid.clone(), mibs.label(i).to_string()), when, Some(i));
        // The arcs above it that no module names are linked no later than it.
        for k in 2..oid.len() {
            if mibs.label_at(&oid[..k]).is_none() {
                let above = oid[..k].to_vec();
                let name = label_of(mibs, &above);
                link((above, name), when, None);
            }
        }
    }
    let mut events: Vec<(Linked, TreeNode)> = Vec::with_capacity(first.len());
    let mut defined = HashMap::new();
    for (node, (when, definition)) in first {
        if let Some(d) = definition {
            defined.insert(node.clone(), d);
        }
        events.push((when, node));
    }
    events.sort_by_key(|e| e.0);
    // Of the names at an OID, the first linked.
    let mut first_at: HashMap<&[u32], &str> = HashMap::new();
    for (_, (oid, name)) in &events {
        first_at.entry(oid.as_slice()).or_insert(name.as_str());
    }
    let mut children: BTreeMap<TreeNode, Vec<(u32, String)>> = BTreeMap::new();
    for (_, (oid, name)) in &events {
        let (arc, above) = oid.split_last().expect("two arcs or more");
        let parent = match first_at.get(above) {
            Some(first) => first.to_string(),
            None => label_of(mibs, above),
        };
        let list = children.entry((above.to_vec(), parent)).or_default();
        match list.iter().position(|(a, _)| a == arc) {
            Some(at) => list.insert(at, (*arc, name.clone())),
            None => list.push((*arc, name.clone())),
        }
    }
    NetTree { children, defined }
}
