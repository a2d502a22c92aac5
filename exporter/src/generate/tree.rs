//! The MIB tree the generator reads, from this project's MIB compiler: every node of every
//! module on the path (and the built-in standard modules), with what snmp_exporter's
//! generator reads of net-snmp's tree: label, OID, base type, TEXTUAL-CONVENTION, its
//! DISPLAY-HINT and fixed size, named numbers, access, INDEX and the first sentence of the
//! DESCRIPTION.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

use snmp_smi::mib::ir::{Base, MibIr, Object, Role, Syntax};
use snmp_smi::mib::{lower, resolve, Access, MibSet};

/// One node.
#[derive(Debug, Clone, Default)]
pub struct GNode {
    pub oid: String,
    pub arcs: Vec<u32>,
    pub label: String,
    pub module: String,
    /// net-snmp's name of the base type (`INTEGER`, `OCTETSTR`, ...), then the exporter's
    /// where a convention or DISPLAY-HINT says more (`DisplayString`, `PhysAddress48`, ...).
    pub ty: String,
    pub hint: String,
    pub tc: String,
    pub fixed_size: usize,
    pub access: &'static str,
    pub enums: BTreeMap<i64, String>,
    pub indexes: Vec<String>,
    pub implied: bool,
    /// The DESCRIPTION's first sentence.
    pub description: String,
}

/// A module that could not be used.
#[derive(Debug, Clone)]
pub struct FailedModule {
    pub name: String,
    /// Its first error (file, line, column, what).
    pub error: String,
    /// The OBJECT-TYPEs it defines, lost with it.
    pub objects: Vec<String>,
}

impl MibTree {
    /// The failed module that defines `name`, if one does (why a walk name is not found).
    pub fn failed_defining(&self, name: &str) -> Option<&FailedModule> {
        let label = name.rsplit("::").next().unwrap_or(name);
        self.failed
            .iter()
            .find(|f| f.objects.iter().any(|o| o == label))
    }
}

/// Every node, in OID order, by label and by OID.
#[derive(Debug, Default)]
pub struct MibTree {
    pub nodes: Vec<GNode>,
    by_name: HashMap<String, usize>,
    /// Modules that failed, each with its first error and the objects it would have given.
    pub failed: Vec<FailedModule>,
    /// Files of the folders that yielded no module, each with why.
    pub unread: Vec<String>,
    /// The labels several modules give different nodes (`MODULE::name` picks one).
    pub collisions: HashMap<String, Vec<(String, String)>>,
}

impl MibTree {
    /// The node a label or a numeric OID names (the last in OID order, as upstream's map
    /// keeps it), or `MODULE::label`.
    pub fn get(&self, name: &str) -> Option<&GNode> {
        if let Some((module, label)) = name.split_once("::") {
            return self
                .nodes
                .iter()
                .find(|n| n.module == module && n.label == label);
        }
        self.by_name.get(name).map(|&k| &self.nodes[k])
    }

    /// The node with the longest OID that `oid` is under (upstream's `searchNodeTree`).
    pub fn longest_prefix(&self, oid: &str) -> Option<&GNode> {
        let with_dot = format!("{oid}.");
        self.nodes
            .iter()
            .filter(|n| with_dot.starts_with(&format!("{}.", n.oid)))
            .max_by_key(|n| n.arcs.len())
    }

    /// `node` and every node under it, in OID order.
    pub fn subtree<'a>(&'a self, node: &'a GNode) -> impl Iterator<Item = &'a GNode> + 'a {
        let start = self.nodes.partition_point(|n| n.arcs < node.arcs);
        self.nodes[start..]
            .iter()
            .take_while(move |n| n.arcs.starts_with(&node.arcs))
    }

    /// Loads every module of `dirs` and the standard modules they do not define.
    pub fn load(dirs: &[PathBuf]) -> Result<MibTree, String> {
        let mut set =
            MibSet::load(dirs).map_err(|e| format!("reading the MIB directories: {e}"))?;
        set.add_standard_modules();
        let resolved = resolve(&set, &[], &HashSet::new());
        let mut tree = MibTree::default();
        let mut broken = HashSet::new();
        for r in resolved.reports.iter().filter(|r| !r.ok()) {
            broken.insert(r.module);
            tree.failed
                .push(failed(&set, r.module, r.errors[0].to_string()));
        }
        for u in set
            .files_without_modules()
            .into_iter()
            .filter(|u| !u.not_mib)
        {
            let why = u
                .diagnostics
                .first()
                .map_or_else(String::new, |d| d.to_string());
            tree.unread.push(why);
        }
        let good: Vec<usize> = (0..set.modules.len())
            .filter(|m| !broken.contains(m))
            .collect();
        let no_file = |_: usize| String::new();
        let mut all: Vec<(String, GNode)> = Vec::new();
        match lower::lower(&set, &resolved, &good, &no_file) {
            Ok(ir) => all.extend(nodes_of(&ir)),
            // A module that cannot be lowered: the others one at a time, it reported.
            Err(_) => {
                for &m in &good {
                    match lower::lower(&set, &resolved, &[m], &no_file) {
                        Ok(ir) => all.extend(nodes_of(&ir)),
                        Err(e) => tree.failed.push(failed(&set, m, e.to_string())),
                    }
                }
            }
        }
        // One node an OID: net-snmp reads its modules in name order and keeps the first.
        all.sort_by(|a, b| a.1.arcs.cmp(&b.1.arcs).then_with(|| a.0.cmp(&b.0)));
        all.dedup_by(|later, first| later.1.arcs == first.1.arcs);
        tree.nodes = all.into_iter().map(|(_, n)| n).collect();
        let mut labels: HashMap<&str, Vec<usize>> = HashMap::new();
        for (k, n) in tree.nodes.iter().enumerate() {
            tree.by_name.insert(n.oid.clone(), k);
            tree.by_name.insert(n.label.clone(), k);
            labels.entry(&n.label).or_default().push(k);
        }
        for (label, ks) in labels.into_iter().filter(|(_, ks)| ks.len() > 1) {
            let found = ks
                .iter()
                .map(|&k| (tree.nodes[k].module.clone(), tree.nodes[k].oid.clone()))
                .collect();
            tree.collisions.insert(label.to_string(), found);
        }
        Ok(tree)
    }
}

/// Module `m` of `set`, failed with `error`.
fn failed(set: &MibSet, m: usize, error: String) -> FailedModule {
    let smi = &set.modules[m].smi;
    let objects = (0..smi.nodes.len())
        .filter(|&i| smi.nodes[i].kind == snmp_smi::mib::NodeKind::ObjectType)
        .map(|i| smi.node_name(i).to_string())
        .collect();
    FailedModule {
        name: smi.name.clone(),
        error,
        objects,
    }
}

/// The nodes of the lowered modules.
fn nodes_of(ir: &MibIr) -> Vec<(String, GNode)> {
    let mut out = Vec::new();
    for module in &ir.modules {
        let fixed: HashMap<&str, usize> = module
            .conventions
            .iter()
            .filter_map(|c| Some((c.name.as_str(), c.syntax.fixed_size()?)))
            .collect();
        for o in &module.objects {
            let entry = match o.role {
                Role::Column { entry, .. } => module.objects.get(entry),
                Role::Entry => Some(o),
                _ => None,
            };
            let mut n = node(o, &module.name, entry);
            if let Some(c) = o.syntax.as_ref().and_then(|s| s.convention.as_ref()) {
                // The size of the convention itself (upstream reads the TC's own range).
                n.fixed_size = if c.module == module.name {
                    fixed.get(c.name.as_str()).copied().unwrap_or(0)
                } else {
                    convention_size(o)
                };
            }
            tweak(&mut n);
            out.push((module.name.clone(), n));
        }
    }
    out
}

/// A convention defined in another module: its size from the object's resolved syntax when
/// the object adds no constraint of its own.
fn convention_size(o: &Object) -> usize {
    let own_constraint = o.syntax_text.as_deref().is_some_and(|t| t.contains('('));
    match (own_constraint, o.syntax.as_ref()) {
        (false, Some(s)) => s.fixed_size().unwrap_or(0),
        _ => 0,
    }
}

fn node(o: &Object, module: &str, entry: Option<&Object>) -> GNode {
    let syntax = o.syntax.clone().unwrap_or_default();
    let (indexes, implied) = match entry.map(|e| &e.index) {
        Some(Ok(parts)) => (
            parts.iter().map(|p| p.name.clone()).collect(),
            parts.last().is_some_and(|p| p.implied),
        ),
        _ => (Vec::new(), false),
    };
    let enums = syntax
        .enums
        .iter()
        .chain(&syntax.bits)
        .filter_map(|(name, v)| Some((i64::try_from(*v).ok()?, name.clone())))
        .collect();
    GNode {
        oid: o
            .oid
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join("."),
        arcs: o.oid.clone(),
        label: o.name.clone(),
        module: module.to_string(),
        ty: net_snmp_type(&syntax, o).to_string(),
        hint: syntax.hint.clone().unwrap_or_default(),
        tc: syntax
            .convention
            .as_ref()
            .map(|c| c.name.clone())
            .unwrap_or_default(),
        fixed_size: 0,
        access: access(o.access),
        enums,
        indexes,
        implied,
        description: o.first_sentence.clone(),
    }
}

/// net-snmp's name of an object's type.
fn net_snmp_type(s: &Syntax, o: &Object) -> &'static str {
    if o.syntax.is_none() {
        return "OTHER";
    }
    match s.base {
        Base::Integer => "INTEGER",
        Base::Integer32 => "INTEGER32",
        Base::Unsigned32 => "UNSIGNED32",
        Base::Gauge32 | Base::Gauge => "GAUGE",
        Base::Counter32 | Base::Counter => "COUNTER",
        Base::Counter64 => "COUNTER64",
        Base::TimeTicks => "TIMETICKS",
        Base::IpAddress => "IPADDR",
        Base::NetworkAddress => "NETADDR",
        Base::Opaque => "OPAQUE",
        Base::OctetString => "OCTETSTR",
        Base::ObjectIdentifier => "OBJID",
        Base::Bits => "BITSTRING",
        Base::Null => "NULL",
        Base::None => "OTHER",
    }
}

/// net-snmp's access names, as upstream's generator reads them.
fn access(a: Option<Access>) -> &'static str {
    match a {
        Some(Access::ReadOnly) => "ACCESS_READONLY",
        Some(Access::ReadWrite) => "ACCESS_READWRITE",
        Some(Access::ReadCreate) => "ACCESS_CREATE",
        Some(Access::NotAccessible) => "ACCESS_NOACCESS",
        Some(Access::AccessibleForNotify) => "ACCESS_NOTIFY",
        Some(Access::WriteOnly) => "ACCESS_WRITEONLY",
        None => "unknown",
    }
}

/// The types upstream's generator gives strings, addresses, floats and times
/// (`prepareTree`).
fn tweak(n: &mut GNode) {
    if n.hint == "1x:" && (n.fixed_size == 0 || n.fixed_size == 6) {
        n.ty = "PhysAddress48".into();
    }
    let b = n.hint.as_bytes();
    if b.len() > 1
        && matches!(b[b.len() - 1], b'a' | b't')
        && b[..b.len() - 1].iter().all(u8::is_ascii_digit)
    {
        n.ty = "DisplayString".into();
    }
    match n.tc.as_str() {
        "DisplayString" => n.ty = "DisplayString".into(),
        "PhysAddress" => n.ty = "PhysAddress48".into(),
        "Float" | "Double" | "DateAndTime" | "ParseDateAndTime" | "NTPTimeStamp"
        | "InetAddressIPv4" | "InetAddressIPv6" | "InetAddress" | "LldpPortId" => {
            n.ty = n.tc.clone()
        }
        _ => {}
    }
}
