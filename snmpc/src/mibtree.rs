//! `snmpc translate -Tp`: the MIB tree below a node drawn as snmptranslate draws it, line for
//! line. Each node is a `+--` line: an object with a SYNTAX as its access, its type in nine
//! columns and `name(arc)` (`+-- -R-- String    sysDescr(1)`), any other node as `name(arc)`;
//! under an object its convention, sizes or ranges, named values, and a row's INDEX. Children
//! go in arc order, one level three columns in, with `|` down the side while more siblings
//! follow and a `|` line around each node that has children.

use std::fmt::Write as _;

use snmp_smi::mib::ir::{Base, Syntax};
use snmp_smi::mib::tree::Access;
use snmp_smi::mib::NodeKind;

use snmp_smi::names::Mibs;

use crate::netsnmp_dump::{NetTree, TreeNode};

/// The tree below (and including) `root`; the whole tree from `iso(1)` when `root` is empty.
/// The tree is net-snmp's ([`crate::netsnmp_dump::net_tree`]): a second name a module gives
/// an OID is a node of its own, drawn after the first linked.
pub fn tree(mibs: &Mibs, root: &[u32]) -> String {
    let net = crate::netsnmp_dump::net_tree(mibs);
    let start: Vec<u32> = if root.is_empty() {
        vec![1]
    } else {
        root.to_vec()
    };
    let label = crate::netsnmp_dump::label_of(mibs, &start);
    let mut drawer = Drawer {
        mibs,
        net: &net,
        out: String::new(),
        after_typed: true,
    };
    drawer.node(&(start, label), "", false);
    drawer.out
}

/// What a node is to the drawing: net-snmp separates siblings by whether they have a type.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// An object with a SYNTAX: drawn with its access and type.
    Object,
    /// A notification, group, compliance or capabilities statement: typed, drawn by name.
    Typed,
    /// Anything else (an identifier, a table or row, a TRAP-TYPE, an unnamed arc).
    Other,
}

struct Drawer<'m> {
    mibs: &'m Mibs,
    /// net-snmp's tree: every node, named or not, and the definitions of the named.
    net: &'m NetTree,
    out: String,
    /// Whether the node drawn last had a type and no children drawn since: then a typed
    /// sibling follows it without a `|` line between.
    after_typed: bool,
}

impl Drawer<'_> {
    /// `node`'s line, its notes, its children: `indent` before its `+--`, `more` when siblings
    /// follow it.
    fn node(&mut self, node: &TreeNode, indent: &str, more: bool) {
        let defined = self.net.defined.get(node).copied();
        let kind = self.kind(defined);
        let heading = self.heading(node, defined);
        let _ = writeln!(self.out, "{indent}+--{heading}");
        let side = if more { "|" } else { " " };
        for note in self.notes(defined) {
            let _ = match kind {
                Kind::Object => writeln!(self.out, "{indent}{side}        {note}"),
                _ => writeln!(self.out, "{indent}{side}  |  {note}"),
            };
        }
        self.after_typed = kind != Kind::Other;
        let children = self.net.children_by_arc(node, true);
        if children.is_empty() {
            return;
        }
        let inner = format!("{indent}{side}  ");
        for (i, child) in children.iter().enumerate() {
            let child_kind = self.kind(self.net.defined.get(child).copied());
            if !self.after_typed || child_kind == Kind::Other {
                let _ = writeln!(self.out, "{inner}|");
            }
            self.node(child, &inner, i + 1 < children.len());
        }
        self.after_typed = false;
    }

    /// How a node defined by `defined` (none: an arc no module names) is drawn.
    fn kind(&self, defined: Option<usize>) -> Kind {
        let Some(node) = defined else {
            return Kind::Other;
        };
        match self.mibs.written(node).kind {
            NodeKind::ObjectType if self.typed(node).is_some() => Kind::Object,
            NodeKind::NotificationType
            | NodeKind::ObjectGroup
            | NodeKind::NotificationGroup
            | NodeKind::ModuleCompliance
            | NodeKind::AgentCapabilities
            | NodeKind::ModuleIdentity
            | NodeKind::ObjectIdentity => Kind::Typed,
            _ => Kind::Other,
        }
    }

    /// `-R-- String    sysDescr(1)` for an object with a SYNTAX, else `system(1)`.
    fn heading(&self, (oid, label): &TreeNode, defined: Option<usize>) -> String {
        let arc = oid[oid.len() - 1];
        match defined.and_then(|node| self.typed(node)) {
            Some((access, kind)) => format!(" {access} {kind:<9} {label}({arc})"),
            None => format!("{label}({arc})"),
        }
    }

    /// An OBJECT-TYPE's access and type as net-snmp abbreviates them, when it has a SYNTAX
    /// (a table's or a row's has none).
    fn typed(&self, node: usize) -> Option<(&'static str, &'static str)> {
        let written = self.mibs.written(node);
        if written.kind != NodeKind::ObjectType {
            return None;
        }
        let syntax = self.mibs.syntax(node)?;
        let kind = type_name(&syntax)?;
        let access = match written.access {
            Some(Access::ReadOnly) => "-R--",
            Some(Access::ReadWrite) => "-RW-",
            Some(Access::ReadCreate) => "CR--",
            Some(Access::WriteOnly) => "--W-",
            Some(Access::AccessibleForNotify) => "---N",
            Some(Access::NotAccessible) | None => "----",
        };
        Some((access, kind))
    }

    /// What net-snmp notes under a node: an object's convention, sizes or ranges and named
    /// values; a row's INDEX.
    fn notes(&self, defined: Option<usize>) -> Vec<String> {
        let Some(node) = defined else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if self.typed(node).is_some() {
            if let Some(syntax) = self.mibs.syntax(node) {
                notes.extend(syntax_notes(&syntax));
            }
        }
        let written = self.mibs.written(node);
        if !written.index().is_empty() {
            let names: Vec<&str> = written
                .index()
                .iter()
                .map(|i| self.mibs.name_in(node, i.name))
                .collect();
            notes.push(format!("Index: {}", names.join(", ")));
        }
        notes
    }
}

/// An arc no module names: `x25#` for an SMIv1 enterprise's `.0` (whose TRAP-TYPEs are
/// below), else its number (net-snmp numbers these `anonymous#N` in its own order).
pub(crate) fn unnamed(mibs: &Mibs, oid: &[u32]) -> String {
    if let Some((label, _)) = mibs.trap_arc(oid) {
        return label;
    }
    match oid.split_last() {
        // A root (X.660) has its name whether or not a module read names it.
        Some((&arc, [])) => mibs.root_name(arc).map_or(arc.to_string(), str::to_string),
        Some((arc, _)) => arc.to_string(),
        None => String::new(),
    }
}

/// A SYNTAX's type as `-Tp` abbreviates it.
fn type_name(y: &Syntax) -> Option<&'static str> {
    Some(match y.base {
        Base::ObjectIdentifier => "ObjID",
        Base::OctetString => "String",
        Base::Integer if !y.enums.is_empty() => "EnumVal",
        Base::Integer => "INTEGER",
        Base::Integer32 => "Integer32",
        Base::NetworkAddress => "NetAddr",
        Base::IpAddress => "IpAddr",
        Base::Counter32 | Base::Counter => "Counter",
        Base::Gauge32 | Base::Gauge => "Gauge",
        Base::TimeTicks => "TimeTicks",
        Base::Opaque => "Opaque",
        Base::Null => "Null",
        Base::Counter64 => "Counter64",
        Base::Bits => "BitString",
        Base::Unsigned32 => "Unsigned",
        Base::None => return None,
    })
}

/// `Textual Convention: X`, `Size: 0..255` or `Range: 1 | 5..9`, `Values: up(1), down(2)`.
fn syntax_notes(y: &Syntax) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(tc) = &y.convention {
        notes.push(format!("Textual Convention: {}", tc.name));
    }
    let bounds = |b: &[(i128, i128)]| -> String {
        let parts: Vec<String> = b
            .iter()
            .map(|(lo, hi)| match lo == hi {
                true => lo.to_string(),
                false => format!("{lo}..{hi}"),
            })
            .collect();
        parts.join(" | ")
    };
    match (&y.sizes, &y.ranges) {
        (Some(s), _) if !s.is_empty() => notes.push(format!("Size: {}", bounds(s))),
        (_, Some(r)) if !r.is_empty() => notes.push(format!("Range: {}", bounds(r))),
        _ => {}
    }
    let named = match y.base {
        Base::Bits => &y.bits,
        _ => &y.enums,
    };
    if !named.is_empty() {
        let parts: Vec<String> = named.iter().map(|(l, v)| format!("{l}({v})")).collect();
        notes.push(format!("Values: {}", parts.join(", ")));
    }
    notes
}
