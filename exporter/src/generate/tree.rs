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
    /// The other modules' definitions of this OID (module, label): net-snmp keeps the first
    /// it reads, and `MODULE::label` names it by any of them.
    pub also: Vec<(String, String)>,
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
            return self.nodes.iter().find(|n| {
                (n.module == module && n.label == label)
                    || n.also.iter().any(|(m, l)| m == module && l == label)
            });
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
        // One node an OID: the definition net-snmp links first, in the order it reads modules.
        let rank = read_order(&set);
        let rank_of = |module: &str| rank.get(module).copied().unwrap_or(usize::MAX);
        all.sort_by(|a, b| {
            a.1.arcs
                .cmp(&b.1.arcs)
                .then_with(|| rank_of(&a.0).cmp(&rank_of(&b.0)))
                .then_with(|| a.0.cmp(&b.0))
        });
        // The definitions dropped stay names of the node kept (net-snmp's module list).
        all.dedup_by(|later, first| {
            let same = later.1.arcs == first.1.arcs;
            if same {
                first.1.also.push((later.0.clone(), later.1.label.clone()));
            }
            same
        });
        tree.nodes = all.into_iter().map(|(_, n)| n).collect();
        tree.add_anonymous_nodes();
        let mut labels: HashMap<&str, Vec<usize>> = HashMap::new();
        for (k, n) in tree.nodes.iter().enumerate() {
            tree.by_name.insert(n.oid.clone(), k);
            tree.by_name.insert(n.label.clone(), k);
            labels.entry(&n.label).or_default().push(k);
        }
        for (k, n) in tree.nodes.iter().enumerate() {
            for (_, label) in &n.also {
                tree.by_name.entry(label.clone()).or_insert(k);
            }
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

impl MibTree {
    /// The nodes net-snmp makes for the arcs an OID value names without a label (`{ b100 0 1 }`
    /// makes `b100.0`, `anonymous#N` to net-snmp): a walk of such an OID (KEMP's
    /// `1.3.6.1.4.1.12196.13.0`) is the subtree under it. Made only under a node that exists.
    fn add_anonymous_nodes(&mut self) {
        let known: HashSet<Vec<u32>> = self.nodes.iter().map(|n| n.arcs.clone()).collect();
        let mut made: BTreeMap<Vec<u32>, GNode> = BTreeMap::new();
        for n in &self.nodes {
            // The deepest ancestor that exists; the arcs between it and `n` are anonymous.
            let Some(depth) = (1..n.arcs.len())
                .rev()
                .find(|&d| known.contains(&n.arcs[..d]))
            else {
                continue;
            };
            for d in depth + 1..n.arcs.len() {
                let arcs = n.arcs[..d].to_vec();
                let number = made.len();
                made.entry(arcs.clone()).or_insert_with(|| GNode {
                    oid: arcs
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join("."),
                    label: format!("anonymous#{number}"),
                    module: n.module.clone(),
                    ty: "OTHER".into(),
                    access: "unknown",
                    arcs,
                    ..GNode::default()
                });
            }
        }
        if made.is_empty() {
            return;
        }
        self.nodes.extend(made.into_values());
        self.nodes.sort_by(|a, b| a.arcs.cmp(&b.arcs));
    }
}

/// Each module's place in the order net-snmp reads them (`read_all_mibs`): the modules as
/// found (folder by folder, files in name order) taken from the last, each after the modules
/// it imports, in IMPORTS order. Where two modules define one OID, net-snmp keeps the
/// definition it linked first, so a standard module that vendors import wins over a vendor's
/// copy of the same object.
fn read_order(set: &MibSet) -> HashMap<String, usize> {
    let n = set.modules.len();
    let mut rank = HashMap::with_capacity(n);
    let mut seen = vec![false; n];
    // Depth-first without recursion: (module, next import to visit).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in (0..n).rev() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push((start, 0));
        while let Some(&mut (m, ref mut next)) = stack.last_mut() {
            let imports = &set.modules[m].smi.imports;
            if let Some(import) = imports.get(*next) {
                *next += 1;
                if let Some(&k) = set.by_name.get(import.module.as_str()) {
                    if !seen[k] {
                        seen[k] = true;
                        stack.push((k, 0));
                    }
                }
                continue;
            }
            stack.pop();
            let order = rank.len();
            rank.insert(set.modules[m].smi.name.clone(), order);
        }
    }
    rank
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
        also: Vec::new(),
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
