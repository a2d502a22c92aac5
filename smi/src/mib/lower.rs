//! Lowering: resolved MIB modules to the [`MibIr`]. Each object's SYNTAX is followed through
//! its TEXTUAL-CONVENTIONs once, here; rows get their INDEX (through AUGMENTS), notifications
//! their objects; descriptions and SYNTAX text are read from the files.

use std::collections::{HashMap, HashSet};

use super::ir::*;
use super::tree::{Node, NodeKind};
use super::{MibSet, Resolved, BASE_TYPES};
use crate::asn1::ast::{Bound, Constraint, RangeItem, Type, TypeKind, Value};
use crate::diag::Diagnostic;
use crate::naming::snake_case;

/// How deep a chain of conventions is followed before it is taken for a cycle.
const MAX_CONVENTION_DEPTH: usize = 32;

/// How an object's values are shown, from its SYNTAX followed through its TEXTUAL-CONVENTIONs:
/// what a tool prints values by (net-snmp's `INTEGER: up(1)`, `STRING: 0:1b:21:3c:4d:5e`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Presentation {
    /// `INTEGER`, `OCTET STRING`, `OBJECT IDENTIFIER`, `BITS`, or an SMI application type.
    pub base: String,
    /// Named numbers of an INTEGER.
    pub enums: Vec<(String, i128)>,
    /// Named bits of BITS.
    pub bits: Vec<(String, i128)>,
    /// DISPLAY-HINT of the nearest TEXTUAL-CONVENTION that has one.
    pub hint: Option<String>,
    /// UNITS.
    pub units: Option<String>,
    /// The value ranges an INTEGER is constrained to (inclusive), when it is.
    pub ranges: Vec<(i128, i128)>,
    /// The sizes an OCTET STRING is constrained to (inclusive ranges), when it is.
    pub sizes: Vec<(i128, i128)>,
}

/// The [`Presentation`] of node `index` of module `module` in `set`, when it has a SYNTAX.
pub fn presentation(set: &MibSet, module: usize, index: usize) -> Option<Presentation> {
    let node = &set.modules[module].smi.nodes[index];
    let ty = set.node_syntax(module, index)?;
    let s = syntax(set, module, ty);
    Some(Presentation {
        base: s.base.as_str().to_string(),
        enums: s.enums,
        bits: s.bits,
        hint: s.hint,
        units: node.units().map(str::to_string),
        ranges: s.ranges.unwrap_or_default(),
        sizes: s.sizes.unwrap_or_default(),
    })
}

/// The INDEX of row `entry` (of module `m`), through AUGMENTS when the row extends another,
/// or why it cannot be typed.
pub fn row_index(set: &MibSet, m: usize, entry: &Node) -> Result<Vec<IndexPart>, String> {
    let (im, written) = match entry.augments() {
        Some(base) => {
            let base = set.modules[m].smi.name(base);
            let (bm, b) = set
                .find(m, base, false)
                .ok_or_else(|| format!("AUGMENTS `{base}`, which is not defined"))?;
            (bm, &set.modules[bm].smi.nodes[b])
        }
        None => (m, entry),
    };
    if written.index().is_empty() {
        return Err("the row has no INDEX".into());
    }
    let smi = &set.modules[im].smi;
    let mut parts = written
        .index()
        .iter()
        .map(|item| {
            let name = smi.name(item.name);
            let (om, o) = set
                .find(im, name, false)
                .ok_or_else(|| format!("INDEX object `{name}` is not defined"))?;
            Ok(IndexPart {
                name: name.to_string(),
                implied: item.implied,
                syntax: set
                    .node_syntax(om, o)
                    .map(|t| syntax(set, om, t))
                    .unwrap_or_default(),
                address_typed: false,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    for i in 1..parts.len() {
        parts[i].address_typed = parts[i].syntax.names_convention(INET_ADDRESS)
            && parts[i - 1].syntax.names_convention(INET_ADDRESS_TYPE);
    }
    Ok(parts)
}

/// How [`syntax`] reads what RFC 2579 leaves to the reader or forbids and MIBs write anyway.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Reading {
    /// As the MIB means it: a TEXTUAL-CONVENTION (or type assignment) whose SYNTAX names
    /// another convention (`SYNTAX DisplayString (SIZE (0..32))`, `SYNTAX OtherConvention`;
    /// RFC 2579 wants a base type there) is followed through it, the named numbers, sizes,
    /// ranges and DISPLAY-HINT of the one below applying where the outer one gives none; every
    /// named number kept. The generated bindings.
    #[default]
    AsWritten,
    /// As net-snmp's parser reads it, for the tools that stand in for net-snmp's and for
    /// snmp_exporter's generator (which reads MIBs through net-snmp): a convention named in
    /// another's SYNTAX gives its base type alone (net-snmp's tools print `INTEGER: 1` and
    /// `STRING: "text"` for such objects), and a named number whose label is one of
    /// net-snmp's parser keywords (`current`, `read-only`, `mandatory`, `Counter`, ...; not
    /// `deprecated`, which it takes) is left out, as net-snmp leaves it out.
    NetSnmp,
}

/// The words net-snmp's MIB parser reads as keywords (its `tokens` table, 5.9): as a named
/// number's label, left out of the enumeration, but for `deprecated` ([`Reading::NetSnmp`]).
const NET_SNMP_KEYWORDS: [&str; 91] = [
    "ACCESS",
    "AGENT-CAPABILITIES",
    "AUGMENTS",
    "ApplicationSyntax",
    "BEGIN",
    "BIT",
    "BITS",
    "BITSTRING",
    "CHOICE",
    "CONTACT-INFO",
    "CREATION-REQUIRES",
    "Counter",
    "Counter32",
    "Counter64",
    "DEFINITIONS",
    "DEFVAL",
    "DESCRIPTION",
    "DISPLAY-HINT",
    "END",
    "ENTERPRISE",
    "EXPORTS",
    "FROM",
    "GROUP",
    "Gauge",
    "Gauge32",
    "IDENTIFIER",
    "IMPLICIT",
    "IMPLIED",
    "IMPORTS",
    "INCLUDES",
    "INDEX",
    "INTEGER",
    "Integer32",
    "IpAddress",
    "LAST-UPDATED",
    "MACRO",
    "MANDATORY-GROUPS",
    "MAX-ACCESS",
    "MIN-ACCESS",
    "MODULE",
    "MODULE-COMPLIANCE",
    "MODULE-IDENTITY",
    "NOTIFICATION-GROUP",
    "NOTIFICATION-TYPE",
    "NOTIFICATIONS",
    "NULL",
    "NUM-ENTRIES",
    "NetworkAddress",
    "NotificationName",
    "NsapAddress",
    "OBJECT",
    "OBJECT-GROUP",
    "OBJECT-IDENTITY",
    "OBJECT-TYPE",
    "OBJECTS",
    "OCTET",
    "OCTETSTRING",
    "OF",
    "ORGANIZATION",
    "ObjectName",
    "ObjectSyntax",
    "Opaque",
    "PRODUCT-RELEASE",
    "REFERENCE",
    "REVISION",
    "SEQUENCE",
    "SIZE",
    "STATUS",
    "SUPPORTS",
    "SYNTAX",
    "SimpleSyntax",
    "TEXTUAL-CONVENTION",
    "TRAP-TYPE",
    "TimeTicks",
    "UInteger32",
    "UNITS",
    "Unsigned32",
    "VARIABLES",
    "VARIATION",
    "WRITE-SYNTAX",
    "accessible-for-notify",
    "current",
    "mandatory",
    "not-accessible",
    "not-implemented",
    "obsolete",
    "optional",
    "read-create",
    "read-only",
    "read-write",
    "write-only",
];

/// The type `name`, written in module `m`, as net-snmp's parser finds a convention: defined
/// in `m`, or in the module `m` imports it from, that module's own definition alone (it does
/// not follow that module's imports: RADLAN-MIB's `MacAddress FROM BRIDGE-MIB` names no
/// convention, RFC 4188's BRIDGE-MIB importing MacAddress itself, and the object is left
/// without a SYNTAX); a name not imported, or imported from a module not read, as
/// [`MibSet::find`] finds it.
fn find_type_as_net_snmp(set: &MibSet, m: usize, name: &str) -> Option<(usize, usize)> {
    if let Some(i) = set.type_at(m, name) {
        return Some((m, i));
    }
    let smi = &set.modules[m].smi;
    let from = smi
        .imports
        .iter()
        .find(|imp| imp.symbols.iter().any(|&s| smi.name(s) == name));
    match from.and_then(|imp| set.by_name.get(&imp.module)) {
        Some(&t) => set.type_at(t, name).map(|i| (t, i)),
        None => set.find(m, name, true),
    }
}

/// `ty`, written in module `m`, followed through the conventions it names (read as
/// [`MibSet::reading`] says).
pub fn syntax(set: &MibSet, m: usize, ty: &Type) -> Syntax {
    let mut s = Syntax::default();
    follow(set, m, ty, None, &mut s, 0);
    s
}

/// Follows `ty` (written in module `m`, inside the definition of convention `inside`).
fn follow(
    set: &MibSet,
    m: usize,
    ty: &Type,
    inside: Option<&ConventionRef>,
    s: &mut Syntax,
    depth: usize,
) {
    if depth > MAX_CONVENTION_DEPTH {
        return;
    }
    // Named numbers this reference keeps of its convention's: applied once the convention's
    // own are known, over them (the outermost list wins).
    let mut kept = None;
    for c in &ty.constraints {
        match c {
            Constraint::Value(items, _) if s.ranges.is_none() => s.ranges = ranges(items),
            Constraint::Size(items, _) if s.sizes.is_none() => s.sizes = ranges(items),
            Constraint::Named(named, _) => kept = Some(named),
            _ => {}
        }
    }
    follow_kind(set, m, ty, inside, s, depth);
    if let Some(named) = kept {
        let numbers = numbers(set, named);
        match s.base {
            Base::Bits => s.bits = numbers,
            _ => s.enums = numbers,
        }
        s.values_from = inside.cloned();
    }
}

/// The part of [`follow`] that reads `ty`'s kind.
fn follow_kind(
    set: &MibSet,
    m: usize,
    ty: &Type,
    inside: Option<&ConventionRef>,
    s: &mut Syntax,
    depth: usize,
) {
    match &ty.kind {
        TypeKind::Integer(named) | TypeKind::Enumerated { items: named, .. } => {
            s.base = Base::Integer;
            if s.enums.is_empty() {
                s.enums = numbers(set, named);
                if !s.enums.is_empty() {
                    s.values_from = inside.cloned();
                }
            }
        }
        TypeKind::BitString(named) => {
            s.base = Base::Bits;
            if s.bits.is_empty() {
                s.bits = numbers(set, named);
                s.values_from = inside.cloned();
            }
        }
        TypeKind::OctetString => s.base = Base::OctetString,
        TypeKind::ObjectIdentifier => s.base = Base::ObjectIdentifier,
        TypeKind::Tagged { inner, .. } => follow(set, m, inner, inside, s, depth + 1),
        TypeKind::Reference { name, .. } => {
            if BASE_TYPES.contains(&&**name) {
                s.base = Base::from_name(name).unwrap_or_default();
                return;
            }
            let found = match set.reading {
                Reading::AsWritten => set.find(m, name, true),
                Reading::NetSnmp => find_type_as_net_snmp(set, m, name),
            };
            let Some((t, i)) = found else {
                return;
            };
            if inside.is_some() && set.reading == Reading::NetSnmp {
                // Inside a convention's own SYNTAX: the base type named, nothing else.
                s.base = syntax(set, t, set.type_syntax(t, i)).base;
                return;
            }
            let def = &set.modules[t].smi.types[i];
            let here = ConventionRef {
                module: set.modules[t].smi.name.clone(),
                name: name.to_string(),
            };
            if s.convention.is_none() {
                s.convention = Some(here.clone());
            }
            if s.hint.is_none() {
                s.hint = def.display_hint.clone();
            }
            follow(set, t, set.type_syntax(t, i), Some(&here), s, depth + 1);
        }
        _ => s.base = Base::None,
    }
}

/// The named numbers of `named` (those net-snmp leaves out left out under
/// [`Reading::NetSnmp`]).
fn numbers(set: &MibSet, named: &[crate::asn1::ast::NamedNumber]) -> Vec<(String, i128)> {
    let net_snmp = set.reading == Reading::NetSnmp;
    named
        .iter()
        .filter(|n| !(net_snmp && NET_SNMP_KEYWORDS.binary_search(&&*n.name).is_ok()))
        .filter_map(|n| match n.value {
            Some(Value::Number(v)) => Some((n.name.to_string(), v)),
            _ => None,
        })
        .collect()
}

fn ranges(items: &[RangeItem]) -> Option<Vec<(i128, i128)>> {
    let bound = |b: &Bound, min: bool| match b {
        Bound::Number(n) => Some(*n),
        Bound::Min if min => Some(i128::MIN),
        Bound::Max if !min => Some(i128::MAX),
        _ => None,
    };
    items
        .iter()
        .map(|r| Some((bound(&r.lo, true)?, bound(&r.hi, false)?)))
        .collect()
}

fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `n` is a conceptual row.
fn is_entry(n: &Node) -> bool {
    n.kind == NodeKind::ObjectType && (!n.index().is_empty() || n.augments().is_some())
}

/// Whether `n` is a table.
fn is_table(n: &Node) -> bool {
    n.syntax
        .as_ref()
        .is_some_and(|t| matches!(t.kind, TypeKind::SequenceOf(..)))
}

/// What every module's lowering shares: the set, where each node of the modules reached is
/// in the resolution (its OID worked out when asked: a tool reading a few objects of large
/// modules needs a few OIDs of the many nodes their imports reach), each row's descriptor.
struct Lowering<'s> {
    set: &'s MibSet,
    resolved: &'s Resolved,
    /// (module, index in its nodes) → index in the resolution's nodes (an entry for every
    /// node of the modules reached: hashed with [`super::NameHasher`], not SipHash).
    at: HashMap<(usize, usize), usize, std::hash::BuildHasherDefault<super::NameHasher>>,
    /// The conceptual rows of every module reached, entry OID → descriptor: made when a
    /// notification's members first need them.
    rows: std::sync::OnceLock<HashMap<Vec<u32>, String>>,
}

/// Lowers `modules` (indexes into `set.modules`) of a resolution; `file_name` shows a
/// module's file in doc comments.
pub fn lower(
    set: &MibSet,
    resolved: &Resolved,
    modules: &[usize],
    file_name: &dyn Fn(usize) -> String,
) -> Result<MibIr, Diagnostic> {
    let l = Lowering::new(set, resolved, modules);
    let mut out = MibIr::default();
    for &m in modules {
        out.modules
            .push(l.module(m, file_name(set.modules[m].file), &|_| true)?);
    }
    Ok(out)
}

/// The fewest objects [`lower_nodes`] spreads over two threads. Measured on 2 CPUs (a VM):
/// 334 objects of 13 modules lowered in 1.6 ms on one thread, 1.75-2.0 on two; 1,266
/// objects in 6.9 ms on one, 5.0 on two.
const PARALLEL_OBJECTS: usize = 1_000;

/// Modules of a resolution, each with only some of its objects: `(m, nodes)` keeps of module
/// `m` the objects of `nodes` (indexes into its nodes), each as [`lower`] makes it; for a
/// tool that reads a few objects of large modules. A column is a [`Role::Column`] only when
/// its entry is kept too. Each module's result on its own: one that cannot be read again
/// does not stop the others. The modules are lowered on two threads when they have
/// 1,000 objects or more (`PARALLEL_OBJECTS`: below it a second thread costs more than it
/// saves).
pub fn lower_nodes(
    set: &MibSet,
    resolved: &Resolved,
    wanted: &[(usize, Vec<usize>)],
    file_name: &(dyn Fn(usize) -> String + Sync),
) -> Vec<Result<Module, Diagnostic>> {
    lower_nodes_in(set, resolved, wanted, file_name, PARALLEL_OBJECTS)
}

/// [`lower_nodes`], on two threads from `parallel_from` objects.
fn lower_nodes_in(
    set: &MibSet,
    resolved: &Resolved,
    wanted: &[(usize, Vec<usize>)],
    file_name: &(dyn Fn(usize) -> String + Sync),
    parallel_from: usize,
) -> Vec<Result<Module, Diagnostic>> {
    let modules: Vec<usize> = wanted.iter().map(|(m, _)| *m).collect();
    let l = Lowering::new(set, resolved, &modules);
    let lower_some = |part: &[(usize, Vec<usize>)]| -> Vec<Result<Module, Diagnostic>> {
        part.iter()
            .map(|(m, nodes)| {
                let keep: HashSet<usize> = nodes.iter().copied().collect();
                l.module(*m, file_name(set.modules[*m].file), &|i| keep.contains(&i))
            })
            .collect()
    };
    // Two halves of about as many objects each, one on a thread of its own, when there are
    // enough to be worth a thread (see PARALLEL_OBJECTS).
    let total: usize = wanted.iter().map(|(_, n)| n.len()).sum();
    if total < parallel_from {
        return lower_some(wanted);
    }
    let mut so_far = 0;
    let split = wanted
        .iter()
        .position(|(_, n)| {
            so_far += n.len();
            so_far * 2 >= total
        })
        .map_or(wanted.len(), |k| k + 1);
    let (first, second) = wanted.split_at(split);
    let (mut out, rest) = std::thread::scope(|scope| {
        let other = super::spread::spawn(scope, 1, || lower_some(second));
        let mine = lower_some(first);
        let other = other
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (mine, other)
    });
    out.extend(rest);
    out
}

/// Per module of `set`: whether it is one of `modules`, imported by one (directly or not), or
/// a base module of the SMI.
fn with_imports(set: &MibSet, modules: &[usize]) -> Vec<bool> {
    let mut reach = vec![false; set.modules.len()];
    // The SMI's base modules too: a name a missing module would give is looked up there.
    let base = super::BASE_MODULES
        .iter()
        .filter_map(|b| set.by_name.get(*b).copied());
    let mut todo: Vec<usize> = modules.iter().copied().chain(base).collect();
    while let Some(m) = todo.pop() {
        if m >= reach.len() || reach[m] {
            continue;
        }
        reach[m] = true;
        for import in &set.modules[m].smi.imports {
            if let Some(&k) = set.by_name.get(import.module.as_str()) {
                todo.push(k);
            }
        }
    }
    reach
}

/// One module's file text, and the last line found in it: lines are asked for in the order
/// of the text (conventions, then objects), each counted on from the last.
struct Source<'t> {
    text: std::borrow::Cow<'t, str>,
    /// An offset and the line it is on.
    last: std::cell::Cell<(usize, usize)>,
}

impl Source<'_> {
    fn new(text: std::borrow::Cow<'_, str>) -> Source<'_> {
        Source {
            text,
            last: std::cell::Cell::new((0, 1)),
        }
    }

    /// The line (from 1) of the byte at `offset`.
    fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let (from, line) = match self.last.get() {
            (at, line) if at <= offset => (at, line),
            _ => (0, 1),
        };
        let line = line + memchr::memchr_iter(b'\n', &self.text.as_bytes()[from..offset]).count();
        self.last.set((offset, line));
        line
    }

    /// `node`'s DESCRIPTION to its first sentence ([`Object::first_sentence`]), read no
    /// further than that.
    fn first_sentence(&self, node: &Node) -> String {
        let text = node
            .description()
            .and_then(|span| span.get(&self.text))
            .unwrap_or("");
        let mut out = String::new();
        let mut words = text.split_whitespace().peekable();
        while let Some(word) = words.next() {
            if !out.is_empty() {
                out.push(' ');
            }
            match word.strip_suffix('.') {
                Some(cut) if words.peek().is_some() => {
                    out.push_str(cut);
                    break;
                }
                _ => out.push_str(word),
            }
        }
        out
    }

    /// The first paragraph of `node`'s DESCRIPTION, re-flowed.
    fn description(&self, node: &Node) -> String {
        let Some(span) = node.description() else {
            return String::new();
        };
        let text = span.get(&self.text).unwrap_or("");
        collapse(text.split("\n\n").next().unwrap_or(""))
    }
}

impl<'s> Lowering<'s> {
    /// What lowering `modules` needs: the OIDs of their nodes and of the modules they import,
    /// directly or not (a notification's OBJECTS are found through the imports), not the
    /// whole resolution's; the rows among them.
    fn new(set: &'s MibSet, resolved: &'s Resolved, modules: &[usize]) -> Lowering<'s> {
        let reach = with_imports(set, modules);
        let at = resolved
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| reach[n.module()])
            .map(|(k, n)| ((n.module(), n.index()), k))
            .collect();
        Lowering {
            set,
            resolved,
            at,
            rows: std::sync::OnceLock::new(),
        }
    }

    /// The OID of node `i` of module `m`, when it has one.
    fn oid(&self, m: usize, i: usize) -> Option<Vec<u32>> {
        let &k = self.at.get(&(m, i))?;
        Some(self.resolved.oid(&self.resolved.nodes[k]))
    }

    /// The conceptual rows of every module reached: entry OID → descriptor.
    fn rows(&self) -> &HashMap<Vec<u32>, String> {
        self.rows.get_or_init(|| {
            self.at
                .iter()
                .filter_map(|(&(m, i), &k)| {
                    let smi = &self.set.modules[m].smi;
                    is_entry(&smi.nodes[i]).then(|| {
                        let oid = self.resolved.oid(&self.resolved.nodes[k]);
                        (oid, smi.node_name(i).to_string())
                    })
                })
                .collect()
        })
    }

    /// Module `m`, of its nodes those `keep` keeps (by index in the module's nodes).
    fn module(
        &self,
        m: usize,
        file: String,
        keep: &dyn Fn(usize) -> bool,
    ) -> Result<Module, Diagnostic> {
        let set = self.set;
        let smi = &set.modules[m].smi;
        let f = &set.files[set.modules[m].file];
        let text = f
            .text()
            .map_err(|e| Diagnostic::file(&f.name, format!("cannot read the file again: {e}")))?;
        let src = Source::new(text);
        let conventions = smi
            .types
            .iter()
            .enumerate()
            .filter(|(_, d)| !BASE_TYPES.contains(&d.name.as_str()))
            .filter_map(|(k, d)| {
                let here = ConventionRef {
                    module: smi.name.clone(),
                    name: d.name.clone(),
                };
                let mut syntax = Syntax {
                    convention: Some(here.clone()),
                    hint: d.display_hint.clone(),
                    ..Syntax::default()
                };
                follow(set, m, set.type_syntax(m, k), Some(&here), &mut syntax, 0);
                (syntax.base != Base::None && syntax.base != Base::Null).then(|| Convention {
                    name: d.name.clone(),
                    textual_convention: d.textual_convention,
                    line: src.line_of(d.offset),
                    syntax_text: collapse(d.syntax_text(&src.text).unwrap_or("")),
                    syntax,
                })
            })
            .collect();
        // Nodes with OIDs, in definition order, and where each row is among them.
        let nodes: Vec<(usize, &Node, Vec<u32>)> = smi
            .nodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| keep(i))
            .filter_map(|(i, n)| self.oid(m, i).map(|o| (i, n, o)))
            .collect();
        let entries: HashMap<&[u32], usize> = nodes
            .iter()
            .enumerate()
            .filter(|(_, (_, n, _))| is_entry(n))
            .map(|(k, (_, _, o))| (&o[..], k))
            .collect();
        let objects = nodes
            .iter()
            .map(|(i, node, oid)| self.object(m, &src, (*i, node), oid, &entries))
            .collect();
        Ok(Module {
            name: smi.name.clone(),
            rust_name: snake_case(&smi.name),
            file,
            conventions,
            objects,
        })
    }

    fn object(
        &self,
        m: usize,
        src: &Source<'_>,
        (i, node): (usize, &Node),
        oid: &[u32],
        entries: &HashMap<&[u32], usize>,
    ) -> Object {
        let parent = &oid[..oid.len().saturating_sub(1)];
        let role = match node.kind {
            NodeKind::ObjectType if is_table(node) => Role::Table,
            NodeKind::ObjectType if entries.contains_key(oid) => Role::Entry,
            NodeKind::ObjectType => match entries.get(parent) {
                Some(&entry) => Role::Column {
                    entry,
                    number: *oid.last().unwrap_or(&0),
                },
                None => Role::Scalar,
            },
            NodeKind::NotificationType | NodeKind::TrapType => Role::Notification,
            _ => Role::Node,
        };
        let syntax = match (self.set.node_syntax(m, i), role) {
            (Some(t), Role::Scalar | Role::Column { .. }) => Some(syntax(self.set, m, t)),
            _ => None,
        };
        Object {
            name: self.set.modules[m].smi.name(node.name).to_string(),
            oid: oid.to_vec(),
            kind: node.kind,
            role,
            access: node.access,
            syntax,
            syntax_text: node.syntax_text(&src.text).map(collapse),
            units: node.units().map(str::to_string),
            description: src.description(node),
            first_sentence: src.first_sentence(node),
            line: src.line_of(node.offset as usize),
            index: match role {
                Role::Entry => row_index(self.set, m, node),
                _ => Ok(Vec::new()),
            },
            members: match role {
                Role::Notification => self.members(m, node),
                _ => Ok(Vec::new()),
            },
        }
    }

    /// The objects of notification `node`'s OBJECTS clause, or the first that cannot be a
    /// field and why.
    fn members(&self, m: usize, node: &Node) -> Result<Vec<Member>, String> {
        let set = self.set;
        node.members()
            .iter()
            .map(|&member| {
                let name = set.modules[m].smi.name(member).to_string();
                let (t, object) = set
                    .find(m, &name, false)
                    .ok_or_else(|| format!("`{name}` is not found"))?;
                let target = &set.modules[t].smi.nodes[object];
                let oid = self
                    .oid(t, object)
                    .ok_or_else(|| format!("`{name}` has no OID"))?;
                let ty = set
                    .node_syntax(t, object)
                    .filter(|_| target.kind == NodeKind::ObjectType)
                    .ok_or_else(|| format!("`{name}` is not an OBJECT-TYPE"))?;
                let parent = &oid[..oid.len().saturating_sub(1)];
                let row = self
                    .rows()
                    .get(parent)
                    .map(|entry| (parent.to_vec(), entry.clone()));
                Ok(Member {
                    module: set.modules[t].smi.name.clone(),
                    oid,
                    syntax: syntax(set, t, ty),
                    row,
                    name,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_on_from_the_last_one_asked_for_or_from_the_start() {
        let src = Source::new("a\nbb\n\nccc\n".into());
        // In order, then back, past the end, and on a line's first byte.
        let asked = [0, 2, 6, 1, 99, 7, 3, 2];
        let lines: Vec<usize> = asked.iter().map(|&o| src.line_of(o)).collect();
        assert_eq!(lines, [1, 2, 4, 1, 5, 4, 2, 2]);
    }

    #[test]
    fn objects_lowered_on_two_threads_come_out_as_on_one() {
        let mut set = MibSet::default();
        set.add_standard_modules();
        let resolved = super::super::resolve(&set, &[], &HashSet::new());
        // Every node of every module, in halves a thread each when spread.
        let wanted: Vec<(usize, Vec<usize>)> = (0..set.modules.len())
            .map(|m| (m, (0..set.modules[m].smi.nodes.len()).collect()))
            .collect();
        assert!(wanted.len() > 4, "{}", wanted.len());
        let name = |m: usize| format!("file {m}");
        let one = lower_nodes_in(&set, &resolved, &wanted, &name, usize::MAX);
        let two = lower_nodes_in(&set, &resolved, &wanted, &name, 0);
        assert_eq!(one.len(), wanted.len());
        assert!(one.iter().all(Result::is_ok));
        assert_eq!(format!("{one:?}"), format!("{two:?}"));
    }

    #[test]
    fn net_snmps_keywords_are_in_order_for_their_binary_search() {
        assert!(NET_SNMP_KEYWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(NET_SNMP_KEYWORDS.binary_search(&"read-only").is_ok());
        assert!(NET_SNMP_KEYWORDS.binary_search(&"deprecated").is_err());
    }
}
