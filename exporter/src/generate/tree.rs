//! The MIB tree the generator reads, from this project's MIB compiler: every node of every
//! module on the path (and the built-in standard modules), with what snmp_exporter's
//! generator reads of net-snmp's tree: label, OID, base type, TEXTUAL-CONVENTION, its
//! DISPLAY-HINT and fixed size, named numbers, access, INDEX and the first sentence of the
//! DESCRIPTION.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use snmp_smi::mib::ir::{Base, MibIr, Object, Role, Syntax};
use snmp_smi::mib::{lower, resolve, Access, MibSet, Resolved};

/// One node: where it is and its names, and, once read ([`MibTree::detail_nodes`]), what
/// the generator reads of its definition ([`Detail`], its fields reached through the node:
/// `node.ty`).
///
/// An outline holds one for every OID the modules on the path define (100,000 for a large
/// folder of vendor MIBs), so each is small: what few nodes have is kept beside the nodes
/// ([`MibTree::also`]), the module is an index ([`MibTree::module_of`]), and the arcs and
/// label are ranges of buffers the outline's nodes share.
#[derive(Debug, Clone, Default)]
pub struct GNode {
    pub arcs: Arcs,
    pub label: Label,
    /// The module defining it, as an index into the modules loaded.
    pub set_module: u32,
    /// Which of that module's nodes it is.
    pub set_node: u32,
    /// Whether its definition is read; until then the node is its OID, label and module.
    pub detailed: bool,
    /// Its definition as read: none in an outline (kept apart, the outline of 100,000 nodes
    /// stays small).
    pub detail: Option<Box<Detail>>,
}

/// What the generator reads of a node's definition.
#[derive(Debug, Clone, Default)]
pub struct Detail {
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

/// The detail of a node not read: no type, no access.
static UNREAD: Detail = Detail {
    ty: String::new(),
    hint: String::new(),
    tc: String::new(),
    fixed_size: 0,
    access: "unknown",
    enums: BTreeMap::new(),
    indexes: Vec::new(),
    implied: false,
    description: String::new(),
};

/// A node's arcs: a range of a buffer the outline's nodes share (100,000 nodes, one
/// allocation), or a buffer of its own.
#[derive(Debug, Clone, Default)]
pub struct Arcs {
    buffer: Arc<Vec<u32>>,
    start: u32,
    len: u32,
}

impl Arcs {
    /// `len` arcs of `buffer` from `start`.
    fn shared(buffer: &Arc<Vec<u32>>, start: u32, len: u32) -> Arcs {
        Arcs {
            buffer: buffer.clone(),
            start,
            len,
        }
    }

    /// Its first `len` arcs (all when it has fewer).
    fn prefix(&self, len: usize) -> Arcs {
        Arcs {
            len: self.len.min(len as u32),
            ..self.clone()
        }
    }
}

/// A node's label: a range of a buffer the outline's nodes share, or a buffer of its own.
#[derive(Debug, Clone, Default)]
pub struct Label {
    buffer: Arc<str>,
    start: u32,
    len: u32,
}

impl std::ops::Deref for Label {
    type Target = str;

    fn deref(&self) -> &str {
        // The ranges are those of whole labels written into the buffer.
        let end = self.start as usize + self.len as usize;
        self.buffer
            .get(self.start as usize..end)
            .unwrap_or_default()
    }
}

impl From<String> for Label {
    fn from(label: String) -> Label {
        let len = label.len() as u32;
        Label {
            buffer: Arc::from(label),
            start: 0,
            len,
        }
    }
}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        **self == *other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl From<Vec<u32>> for Arcs {
    fn from(arcs: Vec<u32>) -> Arcs {
        let len = arcs.len() as u32;
        Arcs::shared(&Arc::new(arcs), 0, len)
    }
}

impl std::ops::Deref for Arcs {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.buffer[self.start as usize..][..self.len as usize]
    }
}

impl GNode {
    /// Its OID, dotted (made when asked: the outline keeps the arcs only).
    pub fn oid(&self) -> String {
        dotted(&self.arcs)
    }
}

impl std::ops::Deref for GNode {
    type Target = Detail;

    fn deref(&self) -> &Detail {
        self.detail.as_deref().unwrap_or(&UNREAD)
    }
}

impl std::ops::DerefMut for GNode {
    fn deref_mut(&mut self) -> &mut Detail {
        self.detail.get_or_insert_with(|| Box::new(UNREAD.clone()))
    }
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
    /// Every label and shadowed label with its node, sorted by the name's hash
    /// ([`name_hash`]): a lookup is a bisection and a few comparisons, and building it
    /// allocates nothing per node.
    names: Vec<(u64, u32, NameKind)>,
    /// Modules that failed, each with its first error and the objects it would have given.
    pub failed: Vec<FailedModule>,
    /// Files of the folders that yielded no module, each with why.
    pub unread: Vec<String>,
    /// The labels several modules give different nodes (`MODULE::name` picks one).
    pub collisions: HashMap<String, Vec<(String, String)>>,
    /// The other modules' definitions of a node's OID (module, label), by the node's index in
    /// [`MibTree::nodes`]: net-snmp keeps the first it reads, and `MODULE::label` names the
    /// node by any of them.
    also: HashMap<u32, Vec<(String, String)>>,
    /// The modules read, and their resolution: what [`MibTree::detail`] and
    /// [`MibTree::detail_nodes`] lower.
    set: MibSet,
    resolved: snmp_smi::mib::Resolved,
    /// Modules that failed to resolve (indexes into the set's modules).
    broken: HashSet<usize>,
    /// Modules whose nodes are read in full.
    detailed: HashSet<usize>,
}

impl MibTree {
    /// The node a label or a numeric OID names (the last in OID order, as upstream's map
    /// keeps it), or `MODULE::label`.
    pub fn get(&self, name: &str) -> Option<&GNode> {
        if let Some((module, label)) = name.split_once("::") {
            // Among the nodes the label's hash gives, the first (in OID order) of that module's.
            return self
                .named(label)
                .map(|(k, _)| k)
                .filter(|&k| {
                    let n = &self.nodes[k as usize];
                    (self.module_of(n) == module && n.label == label)
                        || self.also(k).iter().any(|(m, l)| m == module && l == label)
                })
                .min()
                .map(|k| &self.nodes[k as usize]);
        }
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            let k = self.position(&parse_arcs(name)?)?;
            return Some(&self.nodes[k]).filter(|n| dotted(&n.arcs) == name);
        }
        let (mut label, mut shadowed) = (None, None);
        for (k, kind) in self.named(name) {
            let n = &self.nodes[k as usize];
            match kind {
                // The last node in OID order of a label, as upstream's map keeps it.
                NameKind::Label if n.label == name => label = label.max(Some(k)),
                // A shadowed definition's label, where no node has it as its own: the first.
                NameKind::Shadowed if self.also(k).iter().any(|(_, l)| l == name) => {
                    shadowed = Some(shadowed.map_or(k, |s: u32| s.min(k)));
                }
                _ => {}
            }
        }
        label.or(shadowed).map(|k| &self.nodes[k as usize])
    }

    /// The name of the module defining `node`.
    pub fn module_of(&self, node: &GNode) -> &str {
        self.set
            .modules
            .get(node.set_module as usize)
            .map_or("", |m| m.smi.name.as_str())
    }

    /// The other modules' definitions of node `k`'s OID (module, label), net-snmp's first
    /// kept as the node.
    pub fn also(&self, k: u32) -> &[(String, String)] {
        self.also.get(&k).map_or(&[], Vec::as_slice)
    }

    /// The nodes whose label or shadowed label hashes as `label` does (indexes, and how the
    /// entry names the node; a superset, the caller compares the names).
    fn named(&self, label: &str) -> impl Iterator<Item = (u32, NameKind)> + '_ {
        let h = name_hash(label);
        let start = self.names.partition_point(|e| e.0 < h);
        self.names[start..]
            .iter()
            .take_while(move |e| e.0 == h)
            .map(|e| (e.1, e.2))
    }

    /// The position in [`MibTree::nodes`] of the node with exactly these arcs.
    fn position(&self, arcs: &[u32]) -> Option<usize> {
        self.nodes.binary_search_by(|n| (*n.arcs).cmp(arcs)).ok()
    }

    /// The node with the longest OID that `oid` is under (upstream's `searchNodeTree`).
    pub fn longest_prefix(&self, oid: &str) -> Option<&GNode> {
        let arcs = parse_arcs(oid)?;
        (1..=arcs.len())
            .rev()
            .find_map(|len| Some(&self.nodes[self.position(&arcs[..len])?]))
    }

    /// `node` and every node under it, in OID order.
    pub fn subtree<'a>(&'a self, node: &'a GNode) -> impl Iterator<Item = &'a GNode> + 'a {
        let start = self.nodes.partition_point(|n| *n.arcs < *node.arcs);
        self.nodes[start..]
            .iter()
            .take_while(move |n| n.arcs.starts_with(&node.arcs))
    }

    /// Loads every module of `dirs` and the standard modules they do not define, each node
    /// with everything the generator reads of it (what `dump` prints).
    pub fn load(dirs: &[PathBuf]) -> Result<MibTree, String> {
        let mut tree = MibTree::outline(dirs)?;
        let all: Vec<usize> = (0..tree.set.modules.len())
            .filter(|m| !tree.broken.contains(m))
            .collect();
        tree.detail(&all);
        Ok(tree)
    }

    /// Loads every module of `dirs` and the standard modules they do not define, each node
    /// with its OID, label and module only: [`MibTree::detail_nodes`] reads the definitions
    /// of the nodes a generation reaches (a folder of vendor MIBs is mostly nodes it never
    /// touches), [`MibTree::detail`] those of whole modules.
    pub fn outline(dirs: &[PathBuf]) -> Result<MibTree, String> {
        let mut set =
            MibSet::load(dirs).map_err(|e| format!("reading the MIB directories: {e}"))?;
        set.add_standard_modules();
        // Types and hints as net-snmp's parser gives them to upstream's generator.
        set.reading = snmp_smi::mib::lower::Reading::NetSnmp;
        let resolved = resolve(&set, &[], &HashSet::new());
        let mut tree = MibTree::default();
        for r in resolved.reports.iter().filter(|r| !r.ok()) {
            tree.broken.insert(r.module);
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
        // One node an OID: the definition net-snmp links first, in the order it reads modules.
        let rank = read_order(&set);
        // Every node's arcs in one buffer, sorted by (OID, read order) through small records:
        // the nodes themselves are made once, for the definitions kept. Each half of the
        // nodes on a thread of its own (the records made, then sorted), the halves merged.
        let broken: Vec<bool> = (0..set.modules.len())
            .map(|m| tree.broken.contains(&m))
            .collect();
        let (flat, recs) = sorted_records(&resolved, &broken, &rank);
        // The nodes' arcs are ranges of `flat`, their labels of `labels`.
        let (groups, labels) = groups(&recs, &flat, &set, &resolved);
        let (flat, labels) = (Arc::new(flat), Arc::<str>::from(labels));
        let mut in_order = InOrder {
            // One node a record at most, and the few anonymous ones: no copies as it grows.
            nodes: Vec::with_capacity(groups.len() + groups.len() / 64),
            ..InOrder::default()
        };
        let mut label_at = 0;
        for g in groups {
            let r = &recs[g.recs.start as usize];
            let at = in_order.push(GNode {
                arcs: Arcs::shared(&flat, r.start, r.len),
                label: Label {
                    buffer: labels.clone(),
                    start: label_at,
                    len: g.label_len,
                },
                set_module: g.module,
                set_node: g.node,
                ..GNode::default()
            });
            label_at += g.label_len;
            // The definitions dropped stay names of the node kept (net-snmp's module list).
            if g.recs.len() > 1 {
                let also = recs[g.recs.start as usize + 1..g.recs.end as usize]
                    .iter()
                    .map(|r| {
                        let n = &resolved.nodes[r.node as usize];
                        let smi = &set.modules[n.module()].smi;
                        (smi.name.clone(), smi.node_name(n.index()).to_string())
                    })
                    .collect();
                tree.also.insert(at as u32, also);
            }
        }
        tree.nodes = in_order.nodes;
        tree.set = set;
        tree.resolved = resolved;
        tree.index_names();
        Ok(tree)
    }

    /// Labels to nodes, and the labels several nodes share.
    fn index_names(&mut self) {
        let mut names = Vec::with_capacity(self.nodes.len() * 2);
        for (k, n) in self.nodes.iter().enumerate() {
            let k = k as u32;
            names.push((name_hash(&n.label), k, NameKind::Label));
            for (_, label) in self.also(k) {
                names.push((name_hash(label), k, NameKind::Shadowed));
            }
        }
        names.sort_unstable();
        // Labels of several nodes: within a run of one hash, the nodes of each label.
        let mut start = 0;
        while start < names.len() {
            let h = names[start].0;
            let end = start + names[start..].iter().take_while(|e| e.0 == h).count();
            let is_label = |e: &&(u64, u32, NameKind)| e.2 == NameKind::Label;
            if names[start..end].iter().filter(is_label).count() > 1 {
                let labelled = names[start..end]
                    .iter()
                    .filter(is_label)
                    .map(|e| e.1 as usize);
                let mut by_label: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
                for k in labelled {
                    by_label.entry(&self.nodes[k].label).or_default().push(k);
                }
                for (label, ks) in by_label.into_iter().filter(|(_, ks)| ks.len() > 1) {
                    let found = ks
                        .iter()
                        .map(|&k| {
                            let n = &self.nodes[k];
                            (self.module_of(n).to_string(), n.oid())
                        })
                        .collect();
                    self.collisions.insert(label.to_string(), found);
                }
            }
            start = end;
        }
        self.names = names;
    }

    /// Reads everything the generator reads of the nodes that `modules` (indexes into the
    /// loaded modules) define and the tree keeps: type, convention, hint, access, INDEX,
    /// DESCRIPTION. A module that cannot be read again is reported among the failed.
    pub fn detail(&mut self, modules: &[usize]) {
        let todo: Vec<usize> = modules
            .iter()
            .copied()
            .filter(|&m| m < self.set.modules.len() && self.detailed.insert(m))
            .collect();
        if todo.is_empty() {
            return;
        }
        let no_file = |_: usize| String::new();
        let mut made = Vec::new();
        match lower::lower(&self.set, &self.resolved, &todo, &no_file) {
            Ok(ir) => made.extend(nodes_of(&ir, &todo)),
            // A module that cannot be lowered: the others one at a time, it reported.
            Err(_) => {
                for &m in &todo {
                    match lower::lower(&self.set, &self.resolved, &[m], &no_file) {
                        Ok(ir) => made.extend(nodes_of(&ir, &[m])),
                        Err(e) => self.fail(m, e.to_string()),
                    }
                }
            }
        }
        self.fill(made);
    }

    /// Reads everything the generator reads of the tree's nodes `nodes` (indexes into
    /// [`MibTree::nodes`]) and no others of their modules: a generation reaches a few hundred
    /// objects of a vendor's module of thousands. A column's entry is read with it (its INDEX
    /// is the column's).
    pub fn detail_nodes(&mut self, nodes: &[usize]) {
        let mut by_module: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &k in nodes {
            let Some(n) = self.nodes.get(k).filter(|n| !n.detailed) else {
                continue;
            };
            let wanted = by_module.entry(n.set_module as usize).or_default();
            wanted.push(n.set_node as usize);
            let parent = &n.arcs[..n.arcs.len().saturating_sub(1)];
            if let Some(p) = self.position(parent) {
                if self.nodes[p].set_module == n.set_module {
                    wanted.push(self.nodes[p].set_node as usize);
                }
            }
        }
        let no_file = |_: usize| String::new();
        let wanted: Vec<(usize, Vec<usize>)> = by_module.into_iter().collect();
        let lowered = lower::lower_nodes(&self.set, &self.resolved, &wanted, &no_file);
        let mut made = Vec::new();
        for ((m, _), module) in wanted.iter().zip(lowered) {
            match module {
                Ok(module) => made.extend(nodes_of(
                    &MibIr {
                        modules: vec![module],
                    },
                    &[*m],
                )),
                Err(e) => self.fail(*m, e.to_string()),
            }
        }
        self.fill(made);
        // Read or not (a module that cannot be read again), they are not asked for again.
        for &k in nodes {
            if let Some(n) = self.nodes.get_mut(k) {
                n.detailed = true;
            }
        }
    }

    /// Reports module `m` as failed with `error`, once.
    fn fail(&mut self, m: usize, error: String) {
        let name = &self.set.modules[m].smi.name;
        if !self.failed.iter().any(|f| &f.name == name) {
            self.failed.push(failed(&self.set, m, error));
        }
    }

    /// Puts the nodes read in full in place of their outlines.
    fn fill(&mut self, made: Vec<GNode>) {
        for full in made {
            let Some(k) = self.position(&full.arcs) else {
                continue;
            };
            let kept = &mut self.nodes[k];
            if kept.set_module == full.set_module && !kept.detailed {
                let set_node = kept.set_node;
                *kept = GNode { set_node, ..full };
            }
        }
    }

    /// Of `nodes`, those not read in full yet, as indexes into [`MibTree::nodes`].
    pub fn undetailed<'a>(&self, nodes: impl IntoIterator<Item = &'a GNode>) -> Vec<usize> {
        let mut out: Vec<usize> = nodes
            .into_iter()
            .filter(|n| !n.detailed)
            .filter_map(|n| self.position(&n.arcs))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Arcs as a dotted OID.
fn dotted(arcs: &[u32]) -> String {
    let mut out = Vec::with_capacity(arcs.len() * 4);
    for (k, &a) in arcs.iter().enumerate() {
        if k > 0 {
            out.push(b'.');
        }
        // The digits of `a`, most significant first (a u32 has at most ten).
        let mut digits = [0u8; 10];
        let mut n = a;
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.extend_from_slice(&digits[at..]);
    }
    // Only ASCII digits and dots were written.
    String::from_utf8(out).unwrap_or_default()
}

/// A dotted OID's arcs.
fn parse_arcs(oid: &str) -> Option<Vec<u32>> {
    oid.split('.').map(|a| a.parse().ok()).collect()
}

/// How an entry of [`MibTree`]'s name index names its node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum NameKind {
    Label,
    Shadowed,
}

/// A name's hash (the index holds hashes, never the names): the MIB compiler's
/// [`snmp_smi::mib::NameHasher`], eight bytes a step.
fn name_hash(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = snmp_smi::mib::NameHasher::default();
    h.write(name.as_bytes());
    h.finish()
}

/// The nodes in OID order as they are made, with the nodes net-snmp makes for the arcs an
/// OID value names without a label (`{ b100 0 1 }` makes `b100.0`, `anonymous#N` to
/// net-snmp): a walk of such an OID (KEMP's `1.3.6.1.4.1.12196.13.0`) is the subtree under
/// it. Made only under a node that exists.
#[derive(Default)]
struct InOrder {
    nodes: Vec<GNode>,
    /// The nodes from the root to the last one made (indexes into `nodes`).
    path: Vec<usize>,
    anonymous: usize,
}

impl InOrder {
    /// Adds `n`, after every node before it in OID order, and the anonymous nodes above it:
    /// its index in the nodes.
    fn push(&mut self, n: GNode) -> usize {
        while let Some(&top) = self.path.last() {
            let t = &self.nodes[top].arcs;
            if t.len() < n.arcs.len() && n.arcs.starts_with(t) {
                break;
            }
            self.path.pop();
        }
        if let Some(&ancestor) = self.path.last() {
            // The arcs between its deepest ancestor and `n` are anonymous.
            for d in self.nodes[ancestor].arcs.len() + 1..n.arcs.len() {
                let arcs = n.arcs.prefix(d);
                self.path.push(self.nodes.len());
                self.nodes.push(GNode {
                    label: format!("anonymous#{}", self.anonymous).into(),
                    set_module: n.set_module,
                    set_node: u32::MAX,
                    // Nothing more to read of a node no module defines.
                    detailed: true,
                    detail: Some(Box::new(Detail {
                        ty: "OTHER".into(),
                        access: "unknown",
                        ..Detail::default()
                    })),
                    arcs,
                });
                self.anonymous += 1;
            }
        }
        let at = self.nodes.len();
        self.path.push(at);
        self.nodes.push(n);
        at
    }
}

/// The records of one OID (the first is the definition kept, the others its modules' other
/// names), and the kept node's module, its index among the module's nodes and its label's
/// length.
struct Group {
    recs: std::ops::Range<u32>,
    module: u32,
    node: u32,
    label_len: u32,
}

/// The groups of records of one OID, in order, and the labels of their kept nodes in one
/// buffer, in that order.
fn groups(recs: &[Rec], flat: &[u32], set: &MibSet, resolved: &Resolved) -> (Vec<Group>, String) {
    let arcs_of = |r: &Rec| &flat[r.start as usize..(r.start + r.len) as usize];
    let mut groups = Vec::with_capacity(recs.len());
    let mut labels = String::with_capacity(recs.len() * 16);
    let mut k = 0;
    while k < recs.len() {
        let arcs = arcs_of(&recs[k]);
        let same = recs[k..].iter().take_while(|r| arcs_of(r) == arcs).count();
        let n = &resolved.nodes[recs[k].node as usize];
        let label = set.modules[n.module()].smi.node_name(n.index());
        labels.push_str(label);
        groups.push(Group {
            recs: k as u32..(k + same) as u32,
            module: n.module() as u32,
            node: n.index() as u32,
            label_len: label.len() as u32,
        });
        k += same;
    }
    (groups, labels)
}

/// A node's place in the outline's arcs buffer, which node of the resolution it is, and its
/// module's read order.
#[derive(Debug, Clone, Copy, Default)]
struct Rec {
    /// [`sort_key`] of its arcs.
    key: u128,
    start: u32,
    len: u32,
    node: u32,
    rank: u32,
}

/// A key in the order of `arcs` (where two keys differ, the arcs differ the same way; equal
/// keys say nothing): a byte an arc for the first 16, each arc plus one (no arc is 0, so a
/// prefix comes first), up to the first arc past 253, which is 255 with nothing after it.
fn sort_key(arcs: &[u32]) -> u128 {
    let mut key = 0u128;
    for (k, &arc) in arcs.iter().take(16).enumerate() {
        let byte = arc.saturating_add(1).min(255);
        key |= u128::from(byte) << (8 * (15 - k));
        if byte == 255 {
            break;
        }
    }
    key
}

/// The order of records: by OID (their keys first, then their arcs), then by `rank`.
fn rec_order(flat: &[u32], a: &Rec, b: &Rec) -> std::cmp::Ordering {
    let arcs_of = |r: &Rec| &flat[r.start as usize..(r.start + r.len) as usize];
    a.key
        .cmp(&b.key)
        .then_with(|| arcs_of(a).cmp(arcs_of(b)))
        .then(a.rank.cmp(&b.rank))
}

/// The fewest nodes whose records [`sorted_records`] makes on two threads, two halves then
/// merged. Measured on 2 CPUs (a VM): the corpus's ietf/ (about 16,000 nodes) in 1.4-1.5 ms
/// on one thread, 2.0-2.5 on two; the whole corpus (about 100,000) in 15.5 ms on one, 12 on
/// two.
const PARALLEL_RECORDS: usize = 40_000;

/// Every node of `resolved` but those of `broken` modules (by module index): the arcs of all
/// in one buffer, and their records sorted by OID, then by their modules' `rank` (on two
/// threads from [`PARALLEL_RECORDS`] nodes).
fn sorted_records(
    resolved: &snmp_smi::mib::Resolved,
    broken: &[bool],
    rank: &[usize],
) -> (Vec<u32>, Vec<Rec>) {
    sorted_records_in(resolved, broken, rank, PARALLEL_RECORDS)
}

/// [`sorted_records`], on two threads from `parallel_from` nodes.
fn sorted_records_in(
    resolved: &snmp_smi::mib::Resolved,
    broken: &[bool],
    rank: &[usize],
    parallel_from: usize,
) -> (Vec<u32>, Vec<Rec>) {
    let records = |range: std::ops::Range<usize>| {
        let mut flat: Vec<u32> = Vec::with_capacity(range.len() * 12);
        let placed = resolved.oids_into(range, |n| !broken[n.module()], &mut flat);
        let mut recs: Vec<Rec> = placed
            .into_iter()
            .map(|(k, start, len)| Rec {
                key: sort_key(&flat[start as usize..(start + len) as usize]),
                start,
                len,
                node: k as u32,
                rank: rank[resolved.nodes[k].module()] as u32,
            })
            .collect();
        recs.sort_unstable_by(|a, b| rec_order(&flat, a, b));
        (flat, recs)
    };
    if resolved.nodes.len() < parallel_from {
        return records(0..resolved.nodes.len());
    }
    let mid = resolved.nodes.len() / 2;
    let ((mut flat, first), (flat2, second)) = std::thread::scope(|scope| {
        let other = snmp_smi::mib::spread::spawn(scope, 1, || records(mid..resolved.nodes.len()));
        let mine = records(0..mid);
        let other = other
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (mine, other)
    });
    let offset = flat.len() as u32;
    flat.extend_from_slice(&flat2);
    let mut merged = Vec::with_capacity(first.len() + second.len());
    let mut second = second
        .into_iter()
        .map(|r| Rec {
            start: r.start + offset,
            ..r
        })
        .peekable();
    for r in first {
        while let Some(s) = second.next_if(|s| rec_order(&flat, s, &r).is_lt()) {
            merged.push(s);
        }
        merged.push(r);
    }
    merged.extend(second);
    (flat, merged)
}

/// Each module's place in the order net-snmp reads them (`read_all_mibs`): the modules as
/// found (folder by folder, files in name order) taken from the last, each after the modules
/// it imports, in IMPORTS order. Where two modules define one OID, net-snmp keeps the
/// definition it linked first, so a standard module that vendors import wins over a vendor's
/// copy of the same object. The built-in standard modules (added where no file defines them)
/// come after every file's: where a file on the path defines an OID one of them also does
/// (IF-MIB's ifDescr, in a folder without RFC1213-MIB), the file's definition is the one
/// net-snmp would have, as it has no built-in modules.
fn read_order(set: &MibSet) -> Vec<usize> {
    let n = set.modules.len();
    let mut rank = vec![usize::MAX; n];
    let mut order = 0;
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
            rank[m] = order;
            order += 1;
        }
    }
    for (m, r) in rank.iter_mut().enumerate() {
        if snmp_smi::names::precedence::read_late(set, m) {
            *r += n;
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

/// The nodes of the lowered modules, `modules` their indexes among those loaded.
fn nodes_of(ir: &MibIr, modules: &[usize]) -> Vec<GNode> {
    let mut out = Vec::new();
    for (module, &m) in ir.modules.iter().zip(modules) {
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
            let mut n = node(o, entry);
            if let Some(c) = o.syntax.as_ref().and_then(|s| s.convention.as_ref()) {
                // The size of the convention itself (upstream reads the TC's own range).
                n.fixed_size = if c.module == module.name {
                    fixed.get(c.name.as_str()).copied().unwrap_or(0)
                } else {
                    convention_size(o)
                };
            }
            tweak(&mut n);
            n.set_module = m as u32;
            n.detailed = true;
            out.push(n);
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

fn node(o: &Object, entry: Option<&Object>) -> GNode {
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
        arcs: o.oid.clone().into(),
        label: o.name.clone().into(),
        set_module: 0,
        set_node: 0,
        detailed: true,
        detail: Some(Box::new(Detail {
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
        })),
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Arcs as OIDs have them: small mostly, some past a byte, some shared prefixes.
    fn arcs() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::vec(
            prop_oneof![0u32..4, 250u32..260, Just(8072u32), Just(u32::MAX)],
            0..20,
        )
    }

    #[test]
    fn records_made_on_two_threads_are_those_made_on_one() {
        let mut set = MibSet::default();
        set.add_standard_modules();
        let resolved = resolve(&set, &[], &HashSet::new());
        let broken = vec![false; set.modules.len()];
        let rank = read_order(&set);
        let arcs = |(flat, recs): &(Vec<u32>, Vec<Rec>)| -> Vec<(Vec<u32>, u32, u32)> {
            recs.iter()
                .map(|r| {
                    let arcs = flat[r.start as usize..(r.start + r.len) as usize].to_vec();
                    (arcs, r.node, r.rank)
                })
                .collect()
        };
        let one = arcs(&sorted_records_in(&resolved, &broken, &rank, usize::MAX));
        let two = arcs(&sorted_records_in(&resolved, &broken, &rank, 0));
        assert!(one.len() > 500, "{}", one.len());
        assert!(one
            .windows(2)
            .all(|w| (&w[0].0, w[0].2) <= (&w[1].0, w[1].2)));
        assert_eq!(one, two);
    }

    #[test]
    fn labels_are_their_ranges_of_a_shared_buffer() {
        let buffer: Arc<str> = Arc::from("sysDescrifIndex");
        let label = |start, len| Label {
            buffer: buffer.clone(),
            start,
            len,
        };
        assert_eq!(&*label(0, 8), "sysDescr");
        assert_eq!(label(8, 7), "ifIndex");
        assert_eq!(label(8, 7).to_string(), "ifIndex");
        // A range past the buffer is no label, not a panic.
        assert_eq!(&*label(8, 70), "");
        assert_eq!(Label::from("own".to_string()), "own");
        // An outline of 100,000 nodes: each node's arcs and label are ranges, its module
        // an index, what few nodes have kept beside them.
        assert!(
            std::mem::size_of::<GNode>() <= 64,
            "{}",
            std::mem::size_of::<GNode>()
        );
    }

    proptest! {
        #[test]
        fn keys_that_differ_order_arcs_as_the_arcs_do(a in arcs(), b in arcs(), cut in 0usize..20) {
            // Pairs with a common prefix too: b as a's first `cut` arcs and its own rest.
            let b2: Vec<u32> = a.iter().take(cut).chain(&b).copied().collect();
            for b in [b, b2] {
                let (ka, kb) = (sort_key(&a), sort_key(&b));
                if ka != kb {
                    prop_assert_eq!(ka.cmp(&kb), a.cmp(&b), "{:?} {:?}", a, b);
                }
                let recs = |arcs: &[u32]| (sort_key(arcs), arcs.len() as u32);
                let flat: Vec<u32> = a.iter().chain(&b).copied().collect();
                let (ra, rb) = (recs(&a), recs(&b));
                let ra = Rec { key: ra.0, start: 0, len: ra.1, node: 0, rank: 1 };
                let rb = Rec { key: rb.0, start: ra.len, len: rb.1, node: 1, rank: 0 };
                prop_assert_eq!(rec_order(&flat, &ra, &rb), a.cmp(&b).then(1.cmp(&0)));
            }
        }
    }
}
