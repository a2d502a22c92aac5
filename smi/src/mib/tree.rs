//! The SMI syntax tree: a parsed module's nodes (OBJECT-TYPE, NOTIFICATION-TYPE, ... with
//! their clauses), type definitions (TEXTUAL-CONVENTIONs and type assignments) and imports,
//! kept small (names interned, rare clauses boxed) because the corpus holds millions of them.

use std::sync::Arc;

use super::relax::Finding;
use crate::asn1::ast::Type;

/// The macro (or construct) that defines a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// `OBJECT IDENTIFIER ::=`.
    Identifier,
    /// MODULE-IDENTITY.
    ModuleIdentity,
    /// OBJECT-IDENTITY.
    ObjectIdentity,
    /// OBJECT-TYPE.
    ObjectType,
    /// NOTIFICATION-TYPE.
    NotificationType,
    /// TRAP-TYPE (SMIv1, RFC 1215).
    TrapType,
    /// OBJECT-GROUP.
    ObjectGroup,
    /// NOTIFICATION-GROUP.
    NotificationGroup,
    /// MODULE-COMPLIANCE.
    ModuleCompliance,
    /// AGENT-CAPABILITIES.
    AgentCapabilities,
    /// A label written inside another node's OID value (`iso8802` in `{ iso std(0)
    /// iso8802(8802) }`): an OBJECT IDENTIFIER the module names only there. A node defined by
    /// an assignment is preferred to it where both name one OID.
    Label,
}

impl NodeKind {
    pub(crate) fn from_macro(w: &str) -> Option<NodeKind> {
        Some(match w {
            "MODULE-IDENTITY" => NodeKind::ModuleIdentity,
            "OBJECT-IDENTITY" => NodeKind::ObjectIdentity,
            "OBJECT-TYPE" => NodeKind::ObjectType,
            "NOTIFICATION-TYPE" => NodeKind::NotificationType,
            "TRAP-TYPE" => NodeKind::TrapType,
            "OBJECT-GROUP" => NodeKind::ObjectGroup,
            "NOTIFICATION-GROUP" => NodeKind::NotificationGroup,
            "MODULE-COMPLIANCE" => NodeKind::ModuleCompliance,
            "AGENT-CAPABILITIES" => NodeKind::AgentCapabilities,
            _ => return None,
        })
    }

    /// As in `snmpc mib dump`.
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Identifier => "identifier",
            NodeKind::ModuleIdentity => "module-identity",
            NodeKind::ObjectIdentity => "object-identity",
            NodeKind::ObjectType => "object-type",
            NodeKind::NotificationType => "notification-type",
            NodeKind::TrapType => "trap-type",
            NodeKind::ObjectGroup => "object-group",
            NodeKind::NotificationGroup => "notification-group",
            NodeKind::ModuleCompliance => "module-compliance",
            NodeKind::AgentCapabilities => "agent-capabilities",
            NodeKind::Label => "label",
        }
    }
}

/// A descriptor in its module's name table ([`SmiModule::name`]): four bytes where a shared
/// string would take sixteen and an allocation of its own (a corpus has about 100,000 nodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name(pub(crate) std::num::NonZeroU32);

/// A module's descriptors (node names and the names its clauses use), one after the other.
#[derive(Debug, Clone, Default)]
pub struct Names {
    text: String,
    /// Where each name ends in `text`; name `k` starts where name `k - 1` ends.
    ends: Vec<u32>,
}

impl Names {
    /// Adds `s` (the parser looks a name up before adding it).
    pub(crate) fn add(&mut self, s: &str) -> Name {
        self.text.push_str(s);
        // Names fit: they are taken from a file, and files over 4 GiB are refused.
        self.ends.push(self.text.len() as u32);
        Name(std::num::NonZeroU32::MIN.saturating_add(self.ends.len() as u32 - 1))
    }

    /// The text of `name`; empty when `name` is not of this table.
    pub fn get(&self, name: Name) -> &str {
        let k = name.0.get() as usize - 1;
        let start = k
            .checked_sub(1)
            .and_then(|p| self.ends.get(p))
            .copied()
            .unwrap_or(0);
        self.ends
            .get(k)
            .and_then(|&end| self.text.get(start as usize..end as usize))
            .unwrap_or("")
    }

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// No names.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// One INDEX item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexItem {
    /// The column (or, in SMIv1, sometimes a type) named.
    pub name: Name,
    /// `IMPLIED`.
    pub implied: bool,
}

/// A byte range in a module's file, in eight bytes (a corpus has hundreds of thousands):
/// files over 4 GiB are refused when read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRange {
    /// First byte.
    pub start: u32,
    /// After the last byte.
    pub end: u32,
}

impl TextRange {
    /// No range: what [`Node`] holds for a clause it does not have (no real range starts
    /// after it ends).
    pub(crate) const NONE: TextRange = TextRange {
        start: u32::MAX,
        end: 0,
    };

    /// `Some(self)` unless it is [`TextRange::NONE`].
    pub(crate) fn some(self) -> Option<TextRange> {
        (self != TextRange::NONE).then_some(self)
    }

    pub(crate) fn new(start: usize, end: usize) -> TextRange {
        // `parse_file` refuses texts whose offsets do not fit.
        TextRange {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The text in this range of `text`, when it is one.
    pub fn get<'t>(&self, text: &'t str) -> Option<&'t str> {
        text.get(self.start as usize..self.end as usize)
    }
}

/// The numbers of an OID value: up to three kept inline (most values are `{ parent n }`), in
/// 16 bytes.
#[derive(Clone, PartialEq, Eq)]
pub enum Arcs {
    /// Up to three numbers.
    Inline(u8, [u32; 3]),
    /// More. A thin pointer, so that the common inline case stays 16 bytes; values this long
    /// are rare.
    #[allow(clippy::box_collection)]
    Heap(Box<Vec<u32>>),
}

impl Arcs {
    /// The numbers.
    pub fn as_slice(&self) -> &[u32] {
        match self {
            Arcs::Inline(n, a) => &a[..*n as usize],
            Arcs::Heap(v) => v,
        }
    }

    pub(crate) fn from_slice(v: &[u32]) -> Arcs {
        match v.len() {
            0..=3 => {
                let mut a = [0; 3];
                a[..v.len()].copy_from_slice(v);
                Arcs::Inline(v.len() as u8, a)
            }
            _ => Arcs::Heap(Box::new(v.to_vec())),
        }
    }
}

impl Default for Arcs {
    fn default() -> Self {
        Arcs::Inline(0, [0; 3])
    }
}

impl std::fmt::Debug for Arcs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

/// A node's OID value as written: `{ parent 3 }`, `{ iso org(3) 6 }`, `{ 1 3 6 1 }`.
#[derive(Debug, Clone, Default)]
pub struct OidValue {
    /// The leading name (in the module's [`Names`]): the parent node, or a root arc such as
    /// `iso`.
    pub parent: Option<Name>,
    /// Where the leading name is written (a byte offset).
    pub parent_offset: u32,
    /// The numbers after it (`name(n)` counts as `n`).
    pub arcs: Arcs,
}

/// MAX-ACCESS (SMIv2) or ACCESS (SMIv1) of an OBJECT-TYPE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// `not-accessible`.
    NotAccessible,
    /// `accessible-for-notify`.
    AccessibleForNotify,
    /// `read-only`.
    ReadOnly,
    /// `read-write`.
    ReadWrite,
    /// `read-create`.
    ReadCreate,
    /// `write-only` (SMIv1).
    WriteOnly,
}

impl Access {
    /// The keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            Access::NotAccessible => "not-accessible",
            Access::AccessibleForNotify => "accessible-for-notify",
            Access::ReadOnly => "read-only",
            Access::ReadWrite => "read-write",
            Access::ReadCreate => "read-create",
            Access::WriteOnly => "write-only",
        }
    }

    pub(crate) fn from_keyword(w: &str) -> Option<Access> {
        Some(match w {
            "not-accessible" => Access::NotAccessible,
            "accessible-for-notify" => Access::AccessibleForNotify,
            "read-only" => Access::ReadOnly,
            "read-write" => Access::ReadWrite,
            "read-create" => Access::ReadCreate,
            "write-only" => Access::WriteOnly,
            _ => return None,
        })
    }
}

/// STATUS of a definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// `current` (SMIv2).
    Current,
    /// `deprecated`.
    Deprecated,
    /// `obsolete`.
    Obsolete,
    /// `mandatory` (SMIv1).
    Mandatory,
    /// `optional` (SMIv1).
    Optional,
}

impl Status {
    /// The keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Current => "current",
            Status::Deprecated => "deprecated",
            Status::Obsolete => "obsolete",
            Status::Mandatory => "mandatory",
            Status::Optional => "optional",
        }
    }

    pub(crate) fn from_keyword(w: &str) -> Option<Status> {
        Some(match w {
            "current" => Status::Current,
            "deprecated" => Status::Deprecated,
            "obsolete" => Status::Obsolete,
            "mandatory" => Status::Mandatory,
            "optional" => Status::Optional,
            _ => return None,
        })
    }
}

/// A node of the OID tree defined by the module.
///
/// A corpus has about a hundred thousand of these, so a node is kept small: what most nodes
/// have is inline, what few have (INDEX, UNITS, DEFVAL, group members, ...) is in
/// [`NodeExtra`], reached through the accessors.
#[derive(Debug, Clone)]
pub struct Node {
    /// Its descriptor, in the module's [`Names`] (see [`SmiModule::node_name`]).
    pub name: Name,
    /// Where the definition starts (a byte offset: files over 4 GiB are refused).
    pub offset: u32,
    /// What defines it.
    pub kind: NodeKind,
    /// MAX-ACCESS or ACCESS.
    pub access: Option<Access>,
    /// STATUS.
    pub status: Option<Status>,
    /// The OID value as written (`{ parent 3 }`); `None` when it is not one (the error is among
    /// the module's findings) and for TRAP-TYPE (see [`Node::trap_number`]).
    pub oid: Option<OidValue>,
    /// SYNTAX (OBJECT-TYPE).
    ///
    /// Nodes of one file whose SYNTAX reads the same, token for token, share one tree (the
    /// spans in it are those of the first); [`Node::syntax_span`] is each node's own.
    pub syntax: Option<Arc<Type>>,
    /// The byte range of the SYNTAX as written, or [`TextRange::NONE`] (see
    /// [`Node::syntax_span`]).
    pub(crate) syntax_at: TextRange,
    /// The byte range of the DESCRIPTION's text, or [`TextRange::NONE`] (see
    /// [`Node::description`]).
    pub(crate) description_at: TextRange,
    /// The clauses few nodes have.
    pub extra: Option<Box<NodeExtra>>,
}

/// The clauses of a node that few nodes have.
#[derive(Debug, Clone, Default)]
pub struct NodeExtra {
    /// UNITS.
    pub units: Option<Box<str>>,
    /// INDEX.
    pub index: Box<[IndexItem]>,
    /// AUGMENTS.
    pub augments: Option<Name>,
    /// DEFVAL, as written inside the braces.
    pub defval: Option<Box<str>>,
    /// TRAP-TYPE's ENTERPRISE.
    pub enterprise: Option<Name>,
    /// TRAP-TYPE's number.
    pub trap_number: Option<u32>,
    /// OBJECTS / VARIABLES / NOTIFICATIONS members.
    pub members: Box<[Name]>,
}

impl Node {
    /// The byte range of the SYNTAX as written (see [`Node::syntax_text`]).
    pub fn syntax_span(&self) -> Option<TextRange> {
        self.syntax_at.some()
    }

    /// The SYNTAX as written, from the file's `text`.
    pub fn syntax_text<'t>(&self, text: &'t str) -> Option<&'t str> {
        self.syntax_span().and_then(|s| s.get(text))
    }

    /// DESCRIPTION, as the byte range of its text (quotes excluded) in the file: descriptions
    /// are most of a MIB corpus's bytes, so they are not copied.
    pub fn description(&self) -> Option<TextRange> {
        self.description_at.some()
    }

    /// UNITS.
    pub fn units(&self) -> Option<&str> {
        self.extra.as_ref()?.units.as_deref()
    }

    /// INDEX.
    pub fn index(&self) -> &[IndexItem] {
        self.extra.as_ref().map_or(&[], |e| &e.index)
    }

    /// AUGMENTS.
    pub fn augments(&self) -> Option<Name> {
        self.extra.as_ref()?.augments
    }

    /// DEFVAL, as written inside the braces.
    pub fn defval(&self) -> Option<&str> {
        self.extra.as_ref()?.defval.as_deref()
    }

    /// TRAP-TYPE's ENTERPRISE.
    pub fn enterprise(&self) -> Option<Name> {
        self.extra.as_ref()?.enterprise
    }

    /// TRAP-TYPE's number.
    pub fn trap_number(&self) -> Option<u32> {
        self.extra.as_ref()?.trap_number
    }

    /// OBJECTS / VARIABLES / NOTIFICATIONS members.
    pub fn members(&self) -> &[Name] {
        self.extra.as_ref().map_or(&[], |e| &e.members)
    }

    pub(crate) fn extra_mut(&mut self) -> &mut NodeExtra {
        self.extra.get_or_insert_with(Default::default)
    }
}

/// A type assignment: a TEXTUAL-CONVENTION or a plain `Name ::= Type`.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// Its name.
    pub name: String,
    /// Where it starts.
    pub offset: usize,
    /// TEXTUAL-CONVENTION.
    pub textual_convention: bool,
    /// DISPLAY-HINT.
    pub display_hint: Option<String>,
    /// STATUS.
    pub status: Option<String>,
    /// The type. A table entry's `SEQUENCE { column Type, ... }` is kept without its
    /// components (an empty list): their names are in `columns`, and their types are the
    /// columns' own SYNTAX clauses.
    pub syntax: Arc<Type>,
    /// The byte range of the type as written (see [`TypeDef::syntax_text`]).
    pub syntax_span: TextRange,
    /// The column names of a `SEQUENCE { ... }`, in order.
    pub columns: Box<[Name]>,
}

impl TypeDef {
    /// The type as written, from the file's `text`.
    pub fn syntax_text<'t>(&self, text: &'t str) -> Option<&'t str> {
        self.syntax_span.get(text)
    }
}

/// `symbols FROM module`.
#[derive(Debug, Clone)]
pub struct Import {
    /// The module.
    pub module: String,
    /// Where its name is.
    pub offset: usize,
    /// The symbols, in the module's [`Names`] ([`SmiModule::name`]).
    pub symbols: Box<[Name]>,
}

/// A parsed MIB module.
#[derive(Debug, Clone)]
pub struct SmiModule {
    /// Its name.
    pub name: String,
    /// Where the name is.
    pub offset: usize,
    /// IMPORTS.
    pub imports: Vec<Import>,
    /// OID-tree nodes, in order.
    pub nodes: Vec<Node>,
    /// Type assignments, in order.
    pub types: Vec<TypeDef>,
    /// Has a MODULE-IDENTITY (SMIv2).
    pub smi_v2: bool,
    /// Names of the MACROs it defines (OBJECT-TYPE in SNMPv2-SMI, ...), which others import.
    pub macros: Vec<String>,
    /// Warnings (relaxations) and errors.
    pub findings: Vec<Finding>,
    /// The descriptors its nodes and clauses name.
    pub names: Names,
    /// The other modules its MODULE-COMPLIANCE `MODULE` and AGENT-CAPABILITIES `SUPPORTS`
    /// clauses name, with where each is named: net-snmp reads them when its parser reaches
    /// the clause, which decides the order it reads modules in
    /// ([`crate::mib::precedence`]).
    pub reads_also: Vec<(String, usize)>,
    /// The descriptors it defines more than once ([`crate::mib::Relaxation::Redefinition`]),
    /// each once.
    pub redefined: Vec<Name>,
    /// Of each descriptor it defines more than once, the definitions net-snmp links into its
    /// tree first and last ([`SmiModule::link_order`]): the module's own OID values that
    /// name it as their parent hang under the first, and the modules that import it see the
    /// last. Empty when it defines none twice.
    pub linked: Vec<(Name, u32, u32)>,
}

impl SmiModule {
    /// The text of `name`, a name of this module.
    pub fn name(&self, name: Name) -> &str {
        self.names.get(name)
    }

    /// The descriptor of node `i`.
    pub fn node_name(&self, i: usize) -> &str {
        self.nodes.get(i).map_or("", |n| self.names.get(n.name))
    }

    /// [`SmiModule::linked`]: of each descriptor in [`SmiModule::redefined`], the definitions
    /// net-snmp's parser links first and last. It links a module's nodes from the names the
    /// module imports (in IMPORTS order), then from the others its OID values name but it does
    /// not define: each name's children, its nodes whose OID value names it as the parent, the
    /// last defined first, each followed at once by its own children. A name's children are
    /// taken by the first node of that name linked; its importers look the name up in a table
    /// where the node linked last comes first.
    pub fn link_order(&self) -> Vec<(Name, u32, u32)> {
        let parent = |i: usize| self.nodes[i].oid.as_ref().and_then(|v| v.parent);
        let mut children: std::collections::HashMap<Name, Vec<u32>> = Default::default();
        for i in 0..self.nodes.len() {
            if let Some(p) = parent(i) {
                children.entry(p).or_default().push(i as u32);
            }
        }
        let defined: std::collections::HashSet<Name> = self.nodes.iter().map(|n| n.name).collect();
        let roots = self
            .imports
            .iter()
            .flat_map(|imp| imp.symbols.iter().copied());
        let named = (0..self.nodes.len()).filter_map(parent);
        let mut rank = vec![u32::MAX; self.nodes.len()];
        let mut next = 0u32;
        for root in roots.chain(named).filter(|r| !defined.contains(r)) {
            // Depth first, without recursion (a chain of OID values may be long): a stack of
            // the children still to link at each level, the last defined popped first.
            let mut stack: Vec<Vec<u32>> = vec![children.remove(&root).unwrap_or_default()];
            while let Some(level) = stack.last_mut() {
                match level.pop() {
                    Some(c) => {
                        rank[c as usize] = next;
                        next += 1;
                        let name = self.nodes[c as usize].name;
                        stack.push(children.remove(&name).unwrap_or_default());
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        }
        let mut out = Vec::new();
        for &name in &self.redefined {
            let linked = (0..self.nodes.len())
                .filter(|&i| self.nodes[i].name == name && rank[i] != u32::MAX);
            let first = linked.clone().min_by_key(|&i| rank[i]);
            let last = linked.max_by_key(|&i| rank[i]);
            if let (Some(first), Some(last)) = (first, last) {
                out.push((name, first as u32, last as u32));
            }
        }
        out
    }
}
