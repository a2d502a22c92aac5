//! Resolving MIB modules: every name followed through the import graph (re-exports, the SMI
//! base modules, successor modules), every OID computed once into one tree of arcs, each
//! module's problems reported with their offsets.

use std::collections::{HashMap, HashSet};

use super::load::*;
use super::*;
use crate::asn1::ast::{Type, TypeKind};
use crate::diag::Diagnostic;
use crate::mib::tree::Name;

/// A resolved node: which node of which module, what defines it, and where it hangs in the
/// OID tree ([`Resolved::oid`]). Its descriptor ([`MibSet::name`]), SYNTAX and the rest are
/// the parsed node's ([`MibSet::node`]). Twenty bytes: a corpus resolves to about 100,000 of them.
#[derive(Debug, Clone, Copy)]
pub struct MibNode {
    module: u32,
    index: u32,
    /// Its parent's position among [`Resolved::nodes`] followed by the ancestors outside
    /// them; [`TOP`] when its own arcs are the whole OID.
    parent: u32,
    /// Where its own arcs start in [`Resolved`]'s arcs.
    arcs: u32,
    /// How many (at most [`MAX_ARCS`] + 1, with a root arc).
    arcs_len: u8,
    kind: NodeKind,
    /// Its base type's code (see [`base_code`]).
    base: u8,
}

/// [`MibNode::parent`] of a node whose own arcs are its whole OID.
const TOP: u32 = u32::MAX;

/// At most this many numbers in one OID value, as in a whole OID (RFC 2578 3.5).
pub const MAX_ARCS: usize = 128;

impl MibNode {
    /// Index of its module in [`MibSet::modules`].
    pub fn module(&self) -> usize {
        self.module as usize
    }

    /// Index in that module's `nodes`.
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// What defines it.
    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    /// Base type of its SYNTAX after TEXTUAL-CONVENTIONs, for OBJECT-TYPEs: one of
    /// [`BASE_TYPES`] or an ASN.1 type's keyword (`SEQUENCE`, `CHOICE`, ...).
    pub fn base_type(&self) -> Option<&'static str> {
        let k = usize::from(self.base).checked_sub(1)?;
        BASE_TYPES.iter().chain(OTHER_BASES).nth(k).copied()
    }
}

/// What [`MibNode::base_type`] can be besides [`BASE_TYPES`]: the keywords of the other ASN.1
/// types a SYNTAX may be written with.
const OTHER_BASES: &[&str] = &["BOOLEAN", "SEQUENCE", "SEQUENCE OF", "CHOICE", "ANY"];

/// [`MibNode::base`]'s code of a base type: its position in [`BASE_TYPES`] followed by
/// [`OTHER_BASES`], plus one; 0 for none.
fn base_code(base: Option<&str>) -> u8 {
    base.and_then(|b| BASE_TYPES.iter().chain(OTHER_BASES).position(|x| *x == b))
        .map_or(0, |k| k as u8 + 1)
}

/// How many nodes an OID may be defined through (`{ a 1 }`, `a OBJECT IDENTIFIER ::= { b 2 }`,
/// ...) before the chain is taken for too deep: SMI OIDs have at most 128 arcs.
pub const MAX_OID_DEPTH: usize = 256;

/// A node, by module and index in its `nodes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Link {
    module: u32,
    index: u32,
}

impl Link {
    /// No parent: the node's arcs are its whole OID.
    const TOP: Link = Link {
        module: u32::MAX,
        index: 0,
    };

    fn new(module: usize, index: usize) -> Link {
        // Module counts and per-file node counts fit: files over 4 GiB are refused.
        Link {
            module: module as u32,
            index: index as u32,
        }
    }
}

/// What a module came to.
#[derive(Debug, Clone)]
pub struct ModuleReport {
    /// Index in [`MibSet::modules`].
    pub module: usize,
    /// Errors (including relaxations made strict).
    pub errors: Vec<Diagnostic>,
    /// Warnings (accepted relaxations).
    pub warnings: Vec<Diagnostic>,
}

impl ModuleReport {
    /// Compiled: no errors.
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// The result of resolving modules.
#[derive(Debug, Default)]
pub struct Resolved {
    /// Nodes of the resolved modules, in module order.
    pub nodes: Vec<MibNode>,
    /// One report per module asked for (and per module they import).
    pub reports: Vec<ModuleReport>,
    /// Nodes outside `nodes` that nodes hang under (those of SMI base modules not asked
    /// for): with `nodes`, the OID tree.
    ancestors: Vec<MibNode>,
    /// The arcs each node adds below its parent, one node's after the other's.
    arcs: Vec<u32>,
    /// The orphans net-snmp links once it has read every module ([`adopt_orphans`]), as
    /// ((module, node), the place in the order it links them), by node.
    late: Vec<((u32, u32), u32)>,
}

impl Resolved {
    /// Where `node` comes among the orphans net-snmp links once it has read every module
    /// (after all the others), or `None` when it is linked as its module is read.
    pub fn linked_late(&self, node: &MibNode) -> Option<u32> {
        let key = (node.module() as u32, node.index() as u32);
        let at = self.late.binary_search_by_key(&key, |&(n, _)| n).ok()?;
        Some(self.late[at].1)
    }

    /// The node at `position` among [`Resolved::nodes`] followed by the ancestors.
    fn at(&self, position: u32) -> Option<&MibNode> {
        let p = position as usize;
        match p.checked_sub(self.nodes.len()) {
            None => self.nodes.get(p),
            Some(a) => self.ancestors.get(a),
        }
    }

    /// The node `node` hangs under, if any: among [`Resolved::nodes`], or an SMI base
    /// module's node not asked for.
    pub fn parent(&self, node: &MibNode) -> Option<&MibNode> {
        self.at(node.parent)
    }

    /// The arcs `node` adds to its parent's OID (all of it when it hangs at the top).
    fn own_arcs_of(&self, node: &MibNode) -> &[u32] {
        let start = node.arcs as usize;
        self.arcs
            .get(start..start + usize::from(node.arcs_len))
            .unwrap_or(&[])
    }

    /// Appends the OID of `node` (a node of this result) to `out`.
    pub fn oid_into(&self, node: &MibNode, out: &mut Vec<u32>) {
        // Up the chain of ancestors twice (at most MAX_OID_DEPTH long: the resolver refuses
        // longer ones), no room of its own: the OID's length first, then each node's arcs
        // written in place from the end.
        let chain = || {
            std::iter::successors(Some(node), |n| self.at(n.parent))
                .take(MAX_OID_DEPTH)
                .map(|n| self.own_arcs_of(n))
        };
        let base = out.len();
        let mut end = base + chain().map(<[u32]>::len).sum::<usize>();
        out.resize(end, 0);
        for arcs in chain() {
            out[end - arcs.len()..end].copy_from_slice(arcs);
            end -= arcs.len();
        }
    }

    /// Appends to `out`, one after another, the OIDs of the nodes of `range` (positions in
    /// [`Resolved::nodes`]) that `keep` keeps, and returns each one's position, where its
    /// OID starts in `out` and its length: as [`Resolved::oid_into`] would write them, but
    /// a node's OID is its parent's, copied from where it was written already, and its own
    /// arcs (the parents of most nodes are nodes of the same range, before them). Positions
    /// past the nodes are not nodes: none is written for them.
    ///
    /// ```
    /// use snmp_smi::mib::{resolve, MibSet};
    ///
    /// let mut set = MibSet::default();
    /// set.add_standard_modules();
    /// let resolved = resolve(&set, &["IF-MIB".into()], &Default::default());
    /// let mut out = Vec::new();
    /// let placed = resolved.oids_into(0..resolved.nodes.len(), |_| true, &mut out);
    /// for &(k, start, len) in &placed {
    ///     let oid = &out[start as usize..(start + len) as usize];
    ///     assert_eq!(oid, resolved.oid(&resolved.nodes[k]));
    /// }
    /// ```
    pub fn oids_into(
        &self,
        range: std::ops::Range<usize>,
        mut keep: impl FnMut(&MibNode) -> bool,
        out: &mut Vec<u32>,
    ) -> Vec<(usize, u32, u32)> {
        // Positions past the nodes name none.
        let range = range.start.min(self.nodes.len())..range.end.min(self.nodes.len());
        let first = range.start;
        // Per position of the range: where its OID was written, once it was.
        let mut written: Vec<Option<(u32, u32)>> = vec![None; range.len()];
        let mut placed = Vec::with_capacity(range.len());
        let mut chain: Vec<&MibNode> = Vec::new();
        for k in range {
            let node = &self.nodes[k];
            if !keep(node) {
                continue;
            }
            // Up from the node to the first ancestor written already, or to the top.
            chain.clear();
            chain.push(node);
            let mut prefix = None;
            let mut up = node.parent;
            while chain.len() < MAX_OID_DEPTH {
                let done = (up as usize)
                    .checked_sub(first)
                    .and_then(|p| written.get(p).copied().flatten());
                if let Some(at) = done {
                    prefix = Some(at);
                    break;
                }
                let Some(n) = self.at(up) else { break };
                chain.push(n);
                up = n.parent;
            }
            let start = out.len();
            if let Some((s, l)) = prefix {
                out.extend_from_within(s as usize..(s + l) as usize);
            }
            for n in chain.iter().rev() {
                out.extend_from_slice(self.own_arcs_of(n));
            }
            // Offsets fit: an outline's arcs are far below 4 G.
            let at = (start as u32, (out.len() - start) as u32);
            written[k - first] = Some(at);
            placed.push((k, at.0, at.1));
        }
        placed
    }

    /// The OID of `node` (a node of this result).
    pub fn oid(&self, node: &MibNode) -> Vec<u32> {
        let mut out = Vec::new();
        self.oid_into(node, &mut out);
        out
    }
}

/// How far the resolver got with a node's OID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not looked at yet.
    Unknown,
    /// Being computed (met again: the OID is defined in terms of itself).
    InProgress,
    /// It could not be resolved (reported once).
    Failed,
    /// Resolved: its own arcs follow the OID of this node ([`Link::TOP`]: they are the whole
    /// OID).
    Done(Link),
}

/// A [`State`] in the eight bytes of a [`Link`] (the resolver keeps one per node): the states
/// other than `Done` are links no node has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OidState(Link);

impl OidState {
    const UNKNOWN: OidState = OidState(Link {
        module: u32::MAX,
        index: 1,
    });
    const IN_PROGRESS: OidState = OidState(Link {
        module: u32::MAX,
        index: 2,
    });
    const FAILED: OidState = OidState(Link {
        module: u32::MAX,
        index: 3,
    });

    fn new(state: State) -> OidState {
        match state {
            State::Unknown => OidState::UNKNOWN,
            State::InProgress => OidState::IN_PROGRESS,
            State::Failed => OidState::FAILED,
            State::Done(link) => OidState(link),
        }
    }

    fn get(self) -> State {
        match self {
            OidState::UNKNOWN => State::Unknown,
            OidState::IN_PROGRESS => State::InProgress,
            OidState::FAILED => State::Failed,
            OidState(link) => State::Done(link),
        }
    }

    /// The link, when resolved.
    fn done(self) -> Option<Link> {
        match self.get() {
            State::Done(link) => Some(link),
            _ => None,
        }
    }
}

/// Resolves the nodes of some modules; one per thread (see [`resolve`]).
struct Resolver<'m> {
    set: &'m MibSet,
    strict: &'m HashSet<Relaxation>,
    /// The OIDs of modules resolved in earlier layers, by module and node index (the modules
    /// this resolver owns are taken out of it while it runs).
    done: &'m [Vec<OidState>],
    /// The OIDs of the modules this resolver owns, by module: computed, memoised, here (read
    /// two or three times a node: hashed with [`NameHasher`], not SipHash).
    own: HashMap<usize, Vec<OidState>, std::hash::BuildHasherDefault<NameHasher>>,
    /// Problems found, as (module, offset, message): made into diagnostics at the end, each
    /// file read once.
    found: Vec<(usize, usize, String)>,
    /// Per item of `found`: an error (else a warning).
    found_error: Vec<bool>,
    warned: HashSet<(usize, String)>,
    /// The last parent looked up ([`Resolver::parent`]).
    last_parent: Option<LastParent>,
    /// Nodes whose OID value names a parent their module neither defines nor imports (from a
    /// module on the path): (module, node, where the parent is written), for
    /// [`adopt_orphans`].
    orphans: Vec<(usize, usize, usize)>,
    /// Whether a name was taken from the SMI's base without an import along the way: net-snmp
    /// finds none, and what hangs under it is linked with the orphans ([`adopt_orphans`]).
    unimported: bool,
}

/// A parent looked up: the module whose OID value names it, its name there, and where it is
/// defined (module, node), if anywhere.
type LastParent = (usize, Name, Option<(usize, usize)>);

/// OID tables handed to or back from a resolver: (module, its nodes' states).
type OidTables = Vec<(usize, Vec<OidState>)>;

/// A finding of a resolution pass: (module, byte offset, message), and whether it is an error.
type Finding = ((usize, usize, String), bool);

/// What one resolver produced: its modules' OID tables, the base types of the nodes of those
/// reported on, and its findings.
struct Part {
    oids: OidTables,
    bases: Vec<(usize, Vec<u8>)>,
    found: Vec<(usize, usize, String)>,
    found_error: Vec<bool>,
    orphans: Vec<(usize, usize, usize)>,
    unimported: bool,
}

/// The fewest nodes a layer of modules has for its resolution to be spread over threads.
/// Measured on 2 CPUs (a VM), a layer's resolution in ms on one thread against two: 3,033
/// nodes 0.39 against 0.55, 5,655 nodes 0.81 against 0.84, 7,550 nodes 1.12 against 1.32;
/// 17,188 nodes 2.6 against 1.6, 33,255 nodes 2.7 against 1.7. Below some 10,000 nodes a
/// worker's start, its move to another CPU and the caches it starts cold on cost more than
/// the half it takes.
const PARALLEL_LAYER_NODES: usize = 10_000;

/// Resolves `wanted` modules (all when empty) and the modules they import. Relaxations in
/// `strict` are errors.
///
/// Modules are resolved in layers of the import graph (modules that import each other are
/// resolved together): a module's imports, and the SMI base modules its unimported names may
/// come from, are resolved in earlier layers, so the modules of a layer are independent: a
/// layer of 10,000 nodes or more (`PARALLEL_LAYER_NODES`) is resolved on every core, a
/// smaller one on the calling thread.
pub fn resolve(set: &MibSet, wanted: &[String], strict: &HashSet<Relaxation>) -> Resolved {
    resolve_in(set, wanted, strict, PARALLEL_LAYER_NODES)
}

/// [`resolve`], a layer spread over threads from `parallel_from` nodes.
fn resolve_in(
    set: &MibSet,
    wanted: &[String],
    strict: &HashSet<Relaxation>,
    parallel_from: usize,
) -> Resolved {
    // The closure of `wanted` under IMPORTS.
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<usize> = if wanted.is_empty() {
        (0..set.modules.len()).rev().collect()
    } else {
        wanted
            .iter()
            .rev()
            .filter_map(|w| set.by_name.get(w).copied())
            .collect()
    };
    while let Some(m) = stack.pop() {
        if !seen.insert(m) {
            continue;
        }
        order.push(m);
        for imp in &set.modules[m].smi.imports {
            if let Some(&t) = set.by_name.get(&imp.module) {
                stack.push(t);
            }
        }
    }
    let n = set.modules.len();
    let mut reported = vec![false; n];
    for &m in &order {
        reported[m] = true;
    }
    let layers = layers(set, &order);
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .clamp(1, 8);
    let mut oids: Vec<Vec<OidState>> = set
        .modules
        .iter()
        .map(|l| vec![OidState::UNKNOWN; l.smi.nodes.len()])
        .collect();
    let mut bases: Vec<Vec<u8>> = (0..n).map(|_| Vec::new()).collect();
    let mut found = Vec::new();
    let mut found_error = Vec::new();
    let mut orphans = Vec::new();
    let mut unimported = false;
    for layer in layers {
        // Units (a module, or modules importing each other) spread over the threads, the
        // largest first, each to the thread with the fewest nodes so far.
        let mut units = layer;
        let size =
            |u: &Vec<usize>| -> usize { u.iter().map(|&m| set.modules[m].smi.nodes.len()).sum() };
        units.sort_by_key(|u| std::cmp::Reverse(size(u)));
        let nodes: usize = units.iter().map(size).sum();
        let threads = if nodes >= parallel_from { threads } else { 1 };
        let mut buckets: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); threads.min(units.len())];
        for u in units {
            let least = (0..buckets.len())
                .min_by_key(|&b| buckets[b].0)
                .expect("at least one bucket");
            buckets[least].0 += size(&u);
            buckets[least].1.extend(u);
        }
        let owned: Vec<OidTables> = buckets
            .iter()
            .map(|(_, ms)| {
                ms.iter()
                    .map(|&m| (m, std::mem::take(&mut oids[m])))
                    .collect()
            })
            .collect();
        let work: Vec<(Vec<usize>, OidTables)> =
            buckets.into_iter().map(|(_, ms)| ms).zip(owned).collect();
        let done: &[Vec<OidState>] = &oids;
        let reported = &reported;
        let parts: Vec<Part> = if work.len() <= 1 {
            work.into_iter()
                .map(|(ms, own)| resolve_part(set, strict, done, reported, &ms, own))
                .collect()
        } else {
            // The first bucket on this thread, which would otherwise wait: one thread fewer
            // started a layer (a start and a join are tens of microseconds on a VM).
            let mut work = work.into_iter();
            let (first, first_own) = work.next().expect("two buckets or more here");
            std::thread::scope(|scope| {
                let handles: Vec<_> = work
                    .enumerate()
                    .map(|(k, (ms, own))| {
                        super::spread::spawn(scope, k + 1, move || {
                            resolve_part(set, strict, done, reported, &ms, own)
                        })
                    })
                    .collect();
                let mine = resolve_part(set, strict, done, reported, &first, first_own);
                std::iter::once(mine)
                    .chain(
                        handles
                            .into_iter()
                            .map(|h| h.join().expect("a resolver thread does not panic")),
                    )
                    .collect()
            })
        };
        for part in parts {
            for (m, v) in part.oids {
                oids[m] = v;
            }
            for (m, v) in part.bases {
                bases[m] = v;
            }
            found.extend(part.found);
            found_error.extend(part.found_error);
            orphans.extend(part.orphans);
            unimported |= part.unimported;
        }
    }
    let mut late = Vec::new();
    if !orphans.is_empty() || unimported {
        let listed = (!wanted.is_empty()).then_some(wanted);
        let rank = super::precedence::read_order(set, listed);
        let a = adopt_orphans(set, strict, &rank, &reported, &mut oids, &mut bases);
        (found, found_error) = a.merged(found.into_iter().zip(found_error));
        late = a.late;
    }
    refuse_long_oids(set, &mut oids, &mut found, &mut found_error);
    // The nodes with an OID, in module order, and the tree they hang in, made straight from
    // the tables.
    let mut out = Resolved::default();
    build_tree(set, &order, &oids, &bases, &mut out);
    out.late = late
        .into_iter()
        .enumerate()
        .map(|(k, node)| (node, k as u32))
        .collect();
    out.late.sort_unstable();
    drop(bases);
    drop(oids);
    // Findings of the modules reported on (base modules resolved only for their names are
    // not), made into diagnostics.
    let (found, found_error): (Vec<_>, Vec<bool>) = found
        .into_iter()
        .zip(found_error)
        .filter(|(f, _)| reported[f.0])
        .unzip();
    let mut errors: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
    let mut warnings: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
    let modules: Vec<usize> = found.iter().map(|f| f.0).collect();
    let diags = set.diags(found);
    for ((m, d), error) in modules.into_iter().zip(diags).zip(found_error) {
        let to = if error { &mut errors } else { &mut warnings };
        to.entry(m).or_default().push(d);
    }
    for &m in &order {
        out.reports.push(ModuleReport {
            module: m,
            errors: errors.remove(&m).unwrap_or_default(),
            warnings: warnings.remove(&m).unwrap_or_default(),
        });
    }
    out
}

/// Links the orphans as net-snmp does once it has read its modules: a node whose OID value
/// names a parent its module neither defines nor imports (or imports from a module not on
/// the path), or one the module left out itself, hangs under the node of that name its tree
/// holds ([`orphan_links`]); round after round, as long as a round links a node (a trap whose
/// ENTERPRISE is linked may be a parent in turn). Every module with a node that failed is
/// resolved again (what hung under an orphan, in its module or in the modules importing from
/// it).
fn adopt_orphans(
    set: &MibSet,
    strict: &HashSet<Relaxation>,
    rank: &[usize],
    reported: &[bool],
    oids: &mut [Vec<OidState>],
    bases: &mut [Vec<u8>],
) -> Adoption {
    let mut a = Adoption::default();
    // Each round links at least one node more: bounded by the nodes, and in practice by the
    // depth of what hangs under an orphan.
    for round in 0..MAX_OID_DEPTH {
        let (mut links, first_late) = orphan_links(set, rank, oids, round == 0);
        let late: Vec<(u32, u32)> = links[first_late..]
            .iter()
            .map(|&(m, i, _, _)| (m as u32, i as u32))
            .collect();
        // A node placed where net-snmp links it too needs nothing.
        links.retain(|&(m, i, _, link)| oids[m][i].done() != Some(link));
        a.late.extend(late);
        if links.is_empty() {
            break;
        }
        let again: Vec<usize> = (0..oids.len())
            .filter(|&m| oids[m].contains(&OidState::FAILED) || links.iter().any(|l| l.0 == m))
            .collect();
        let mut own: OidTables = again
            .iter()
            .map(|&m| {
                let states = std::mem::take(&mut oids[m]).into_iter();
                let states = states.map(|s| {
                    if s == OidState::FAILED {
                        OidState::UNKNOWN
                    } else {
                        s
                    }
                });
                (m, states.collect())
            })
            .collect();
        for &(m, i, _, link) in &links {
            if let Some((_, states)) = own.iter_mut().find(|(o, _)| *o == m) {
                states[i] = OidState::new(State::Done(link));
            }
        }
        let mut r = Resolver::new(set, strict, oids, own);
        for &(m, i, at, link) in &links {
            let (t, j) = (link.module as usize, link.index as usize);
            let module = &set.modules[t].smi.name;
            let name = set.modules[m].smi.node_name(i);
            let parent = set.modules[t].smi.node_name(j);
            let message = match set.find_via(m, parent, false) {
                // Under the module's own parent, which was linked, or under a name it uses
                // without importing it (said where it is used): nothing more to say.
                Some((o, k, _)) if (o, k) == (t, j) => continue,
                Some((_, _, Via::Unimported(_) | Via::ChainEnd)) => continue,
                Some(_) => format!(
                    "the parent `{parent}` of `{name}` has no OID of its own yet when net-snmp \
                     links `{name}`: linked under {module}::{parent}, the node of that name \
                     its tree holds"
                ),
                None => format!(
                    "unresolved parent `{parent}` in the OID of `{name}`: linked under \
                     {module}::{parent}, the node of that name net-snmp's tree holds"
                ),
            };
            r.report(m, at, Some(Relaxation::OrphanNode), message);
        }
        let mut new_bases = Vec::new();
        for &m in &again {
            new_bases.push((m, r.resolve_module(m, reported[m])));
        }
        a.found.extend(r.found.into_iter().zip(r.found_error));
        for (m, states) in r.own {
            oids[m] = states;
        }
        for (m, b) in new_bases {
            if reported[m] {
                bases[m] = b;
            }
        }
        a.adopted.extend(links.iter().map(|&(m, _, at, _)| (m, at)));
    }
    a
}

impl Adoption {
    /// The first pass's findings with the later passes': an adopted node's warning replaces
    /// the one that left it out, and what a later pass found again is said once.
    fn merged(
        &self,
        first: impl Iterator<Item = Finding>,
    ) -> (Vec<(usize, usize, String)>, Vec<bool>) {
        let mut said: HashSet<(usize, usize, String)> = HashSet::new();
        first
            .chain(self.found.iter().cloned())
            .filter(|((m, at, message), _)| {
                let left_out =
                    message.starts_with("unresolved parent") && message.contains("left out");
                !(left_out && self.adopted.contains(&(*m, *at)))
                    && said.insert((*m, *at, message.clone()))
            })
            .unzip()
    }
}

/// What [`adopt_orphans`] did.
#[derive(Default)]
struct Adoption {
    /// The nodes linked, as (module, where the parent is written).
    adopted: HashSet<(usize, usize)>,
    /// The findings of the later passes, each with whether it is an error.
    found: Vec<Finding>,
    /// The nodes net-snmp links once it has read every module, in the order it links them:
    /// (module, node).
    late: Vec<(u32, u32)>,
}

/// The nodes [`adopt_orphans`] links in one round, as net-snmp links them. An orphan is a
/// failed node whose parent its module does not place (a name it cannot find, or a node of
/// it that failed). First, as net-snmp reads each module: a name imported from a module that
/// is nowhere is any module's node of that name its tree holds by then (of the modules read
/// before), and the module's orphans under it hang there. Then, once every module is read,
/// net-snmp's `adopt_orphans`: the orphans filed by their parent's name in 128 buckets of the
/// name's hash, the buckets in order; a name's orphans hang under the node of that name the
/// tree holds (made last: of the module read last, by `rank`, or an orphan just linked), and
/// each one linked takes at once every orphan, of any module, that names it as the parent.
/// So an orphan whose parent is another orphan of its module hangs under another module's
/// node of that name when its bucket comes first. Returns (module, node, where the parent is
/// written, the node it hangs under), and where in it the links made once every module is
/// read start.
fn orphan_links(
    set: &MibSet,
    rank: &[usize],
    oids: &[Vec<OidState>],
    unimported: bool,
) -> (Vec<(usize, usize, usize, Link)>, usize) {
    let mut modules: Vec<usize> = (0..oids.len()).collect();
    modules.sort_by_key(|&m| rank.get(m).copied().unwrap_or(0));
    let mut o = Orphanage {
        set,
        rank,
        oids,
        by_parent: HashMap::new(),
        pending: HashSet::new(),
        linked: HashMap::new(),
        links: Vec::new(),
    };
    // The names by bucket, each bucket's in the order their orphans' modules are read.
    let mut buckets: Vec<Vec<&str>> = vec![Vec::new(); 128];
    for &m in &modules {
        for (label, at, i) in o.orphans_of(m, unimported) {
            let list = o.by_parent.entry(label).or_default();
            if list.is_empty() {
                buckets[net_snmp_bucket(label)].push(label);
            }
            list.push((m, i, at));
            o.pending.insert((m, i));
        }
    }
    for &m in &modules {
        let smi = &set.modules[m].smi;
        let missing = smi
            .imports
            .iter()
            .filter(|imp| !set.by_name.contains_key(&imp.module));
        for &s in missing.flat_map(|imp| imp.symbols.iter()) {
            let label = smi.name(s);
            let own = o
                .by_parent
                .get(label)
                .is_some_and(|l| l.iter().any(|x| x.0 == m));
            let now = o.rank_of(m);
            if let Some(under) = own.then(|| o.held(label, now)).flatten() {
                o.link(label, under, Some(m), now);
            }
        }
    }
    let first_late = o.links.len();
    for bucket in &buckets {
        for &label in bucket {
            if o.by_parent.get(label).is_none_or(|l| l.is_empty()) {
                continue;
            }
            if let Some(under) = o.held(label, usize::MAX) {
                o.link(label, under, None, usize::MAX - 1);
            }
        }
    }
    (o.links, first_late)
}

/// The state of [`orphan_links`]: net-snmp's linking of the orphans, on their names.
struct Orphanage<'a> {
    set: &'a MibSet,
    rank: &'a [usize],
    oids: &'a [Vec<OidState>],
    /// The orphans not linked yet, by their parent's name: (module, node, where the parent is
    /// written).
    by_parent: HashMap<&'a str, Vec<(usize, usize, usize)>>,
    /// The orphans not linked yet, placed or not: not in net-snmp's tree, whatever the
    /// resolver made of them.
    pending: HashSet<(usize, usize)>,
    /// Of each name, the orphan of that name linked last, with when: its module's place in
    /// the reading order, or `usize::MAX - 1` once every module is read.
    linked: HashMap<&'a str, (usize, Link)>,
    links: Vec<(usize, usize, usize, Link)>,
}

impl<'a> Orphanage<'a> {
    fn rank_of(&self, m: usize) -> usize {
        self.rank.get(m).copied().unwrap_or(0)
    }

    /// Module `m`'s orphans: (its parent's name, where that is written, the node). With
    /// `unimported`, also the nodes placed under a name the module neither defines nor
    /// imports (taken from the SMI's base, [`Relaxation::MissingImport`]) and the module's
    /// nodes under those: net-snmp finds no such name when it reads the module, and links
    /// them with the orphans.
    fn orphans_of(&self, m: usize, unimported: bool) -> Vec<(&'a str, usize, usize)> {
        let (set, oids) = (self.set, self.oids);
        let smi = &set.modules[m].smi;
        let parent_of = |i: usize| {
            let value = smi.nodes[i].oid.as_ref()?;
            Some((smi.name(value.parent?), value.parent_offset as usize))
        };
        let mut out: Vec<(&'a str, usize, usize)> = Vec::new();
        let mut below: HashSet<&str> = HashSet::new();
        for i in 0..oids[m].len() {
            let Some((label, at)) = parent_of(i) else {
                continue;
            };
            let found = set.find_via(m, label, false);
            let orphan = if oids[m][i] == OidState::FAILED {
                !found
                    .is_some_and(|(t, j, _)| oids[t].get(j).is_some_and(|s| *s != OidState::FAILED))
            } else {
                unimported
                    && matches!(found, Some((_, _, Via::Unimported(_) | Via::ChainEnd)))
                    && !ROOTS.iter().any(|(r, _)| *r == label)
            };
            if orphan {
                out.push((label, at, i));
                below.insert(smi.node_name(i));
            }
        }
        if below.is_empty() || !unimported {
            return out;
        }
        // What hangs under those in the module, however deep (each pass goes one level
        // deeper; a chain is at most as long as the module's nodes).
        let mut taken: HashSet<usize> = out.iter().map(|o| o.2).collect();
        for _ in 0..oids[m].len() {
            let before = taken.len();
            for i in 0..oids[m].len() {
                let Some((label, at)) = parent_of(i) else {
                    continue;
                };
                if !taken.contains(&i) && below.contains(label) && set.node_at(m, label).is_some() {
                    taken.insert(i);
                    out.push((label, at, i));
                    below.insert(smi.node_name(i));
                }
            }
            if taken.len() == before {
                break;
            }
        }
        out
    }

    /// The node of `label` net-snmp's tree holds, made last, once it has read the modules
    /// before place `before` in the reading order.
    fn held(&self, label: &str, before: usize) -> Option<Link> {
        let placed = (0..self.set.modules.len()).filter_map(|t| {
            let r = self.rank_of(t);
            let j = self.set.node_at(t, label).filter(|_| r < before)?;
            if self.below_pending(t, j) {
                return None;
            }
            self.oids[t].get(j)?.done().map(|_| (r, Link::new(t, j)))
        });
        let linked = self.linked.get(label).filter(|(r, _)| *r < before).copied();
        placed.chain(linked).max_by_key(|&(r, _)| r).map(|(_, l)| l)
    }

    /// Whether node `j` of module `t` is an orphan not linked yet or hangs under one (not in
    /// net-snmp's tree either; and linking an orphan there would make a cycle).
    fn below_pending(&self, t: usize, j: usize) -> bool {
        let (mut a, mut b) = (t, j);
        for _ in 0..=MAX_OID_DEPTH {
            if self.pending.contains(&(a, b)) {
                return true;
            }
            match self
                .oids
                .get(a)
                .and_then(|v| v.get(b))
                .and_then(|s| s.done())
            {
                Some(l) if l != Link::TOP => (a, b) = (l.module as usize, l.index as usize),
                _ => return false,
            }
        }
        true
    }

    /// Links the orphans whose parent is `label` (module `only`'s, or all) under `under`, and
    /// depth first what hangs under each, as net-snmp links a node's children right after it.
    fn link(&mut self, label: &'a str, under: Link, only: Option<usize>, now: usize) {
        let mut stack = vec![(label, under)];
        while let Some((label, under)) = stack.pop() {
            let Some(list) = self.by_parent.get_mut(label) else {
                continue;
            };
            let taken: Vec<_> = match only {
                Some(m) => {
                    let (taken, kept) = list.drain(..).partition(|x| x.0 == m);
                    *list = kept;
                    taken
                }
                None => std::mem::take(list),
            };
            for (m, i, at) in taken {
                self.links.push((m, i, at, under));
                self.pending.remove(&(m, i));
                let (name, link) = (self.set.modules[m].smi.node_name(i), Link::new(m, i));
                self.linked.insert(name, (now, link));
                stack.push((name, link));
            }
        }
    }
}

/// The bucket net-snmp files a node by its parent's name in: the sum of the name's
/// lower-cased bytes, modulo 128.
fn net_snmp_bucket(name: &str) -> usize {
    name.bytes().fold(0usize, |h, b| {
        h.wrapping_add(b.to_ascii_lowercase() as usize)
    }) % 128
}

/// How many arcs node `i` of module `m`, resolved to hang under `link`, adds to its parent's
/// OID (as [`TreeBuilder::place`] writes them).
fn own_arcs(set: &MibSet, m: usize, i: usize, link: Link) -> usize {
    let smi = &set.modules[m].smi;
    let n = &smi.nodes[i];
    let Some(value) = &n.oid else {
        // A TRAP-TYPE under its ENTERPRISE's node: `0.N`.
        return if n.kind == NodeKind::TrapType { 2 } else { 0 };
    };
    let root = link == Link::TOP
        && value
            .parent
            .is_some_and(|p| ROOTS.iter().any(|(r, _)| *r == smi.name(p)));
    value.arcs.as_slice().len() + usize::from(root)
}

/// Refuses every resolved node whose whole OID has more than [`MAX_ARCS`] arcs (RFC 2578 3.5)
/// or hangs more than [`MAX_OID_DEPTH`] nodes deep: the first such node of a chain is
/// reported (an error naming its length), it and the nodes under it are taken out.
fn refuse_long_oids(
    set: &MibSet,
    oids: &mut [Vec<OidState>],
    found: &mut Vec<(usize, usize, String)>,
    found_error: &mut Vec<bool>,
) {
    // Per node: (arcs, nodes) of its whole OID once known; (0, 0) not yet; u32::MAX refused.
    let mut len: Vec<Vec<(u32, u32)>> = oids.iter().map(|v| vec![(0, 0); v.len()]).collect();
    let mut chain: Vec<(usize, usize, Link)> = Vec::new();
    for m in 0..oids.len() {
        for i in 0..oids[m].len() {
            // Walk up to a node already measured (or the top), then measure down the chain.
            let (mut at_m, mut at_i) = (m, i);
            let mut above = (0u32, 0u32);
            while let Some(link) = oids[at_m][at_i].done() {
                if len[at_m][at_i] != (0, 0) {
                    above = len[at_m][at_i];
                    break;
                }
                if chain.len() > MAX_OID_DEPTH {
                    // Deeper than any OID may be defined (or a cycle, which the resolver
                    // does not make): the nodes below are refused with the rest of it.
                    above = (u32::MAX, u32::MAX);
                    let smi = &set.modules[m].smi;
                    found.push((
                        m,
                        smi.nodes[i].offset as usize,
                        format!(
                            "the OID of `{}` is defined through more than {MAX_OID_DEPTH} \
                             nodes: it and the nodes under it are left out",
                            smi.node_name(i)
                        ),
                    ));
                    found_error.push(true);
                    break;
                }
                chain.push((at_m, at_i, link));
                if link == Link::TOP {
                    break;
                }
                (at_m, at_i) = (link.module as usize, link.index as usize);
            }
            while let Some((cm, ci, link)) = chain.pop() {
                let here = if above.0 == u32::MAX {
                    (u32::MAX, u32::MAX)
                } else {
                    let arcs = above.0 as usize + own_arcs(set, cm, ci, link);
                    let nodes = above.1 as usize + 1;
                    if arcs > MAX_ARCS || nodes > MAX_OID_DEPTH {
                        let smi = &set.modules[cm].smi;
                        let name = smi.node_name(ci);
                        found.push((
                            cm,
                            smi.nodes[ci].offset as usize,
                            format!(
                                "the OID of `{name}` has {arcs} arcs through {nodes} nodes; an \
                                 OID has at most {MAX_ARCS} arcs (RFC 2578 3.5), defined through \
                                 at most {MAX_OID_DEPTH} nodes: `{name}` and the nodes under it \
                                 are left out"
                            ),
                        ));
                        found_error.push(true);
                        (u32::MAX, u32::MAX)
                    } else {
                        (arcs as u32, nodes as u32)
                    }
                };
                len[cm][ci] = here;
                above = here;
            }
        }
    }
    for (states, lens) in oids.iter_mut().zip(&len) {
        for (s, l) in states.iter_mut().zip(lens) {
            if l.0 == u32::MAX {
                *s = OidState::FAILED;
            }
        }
    }
}

/// What [`build_tree`] keeps while it places nodes.
struct TreeBuilder<'a> {
    set: &'a MibSet,
    oids: &'a [Vec<OidState>],
    bases: &'a [Vec<u8>],
    /// How many nodes go to [`Resolved::nodes`]; those placed after are ancestors.
    total: usize,
    /// Positions of the placed nodes, per module (allocated for the modules placed from).
    position: Vec<Vec<u32>>,
}

impl TreeBuilder<'_> {
    /// Not placed (yet).
    const NONE: u32 = u32::MAX;

    /// Places node `i` of module `m` (resolved) after those placed so far, with its arcs;
    /// its position, or [`TreeBuilder::NONE`] when it has no OID.
    fn place(&mut self, m: usize, i: usize, out: &mut Resolved) -> u32 {
        let Some(link) = self.oids[m].get(i).and_then(|s| s.done()) else {
            return Self::NONE;
        };
        let n = &self.set.modules[m].smi.nodes[i];
        let start = out.arcs.len();
        if n.kind == NodeKind::TrapType && n.oid.is_none() {
            out.arcs.extend([0, n.trap_number().unwrap_or(0)]);
        } else if let Some(value) = &n.oid {
            if link == Link::TOP {
                let smi = &self.set.modules[m].smi;
                let root = value
                    .parent
                    .map(|p| smi.name(p))
                    .and_then(|p| ROOTS.iter().find(|(r, _)| *r == p).map(|(_, v)| *v));
                out.arcs.extend(root);
            }
            out.arcs.extend_from_slice(value.arcs.as_slice());
        }
        let p = out.nodes.len() + out.ancestors.len();
        // Positions and arcs fit in u32 (each takes memory; files over 4 GiB are refused),
        // and a node's arcs in u8 (the resolver refuses more than MAX_ARCS).
        let node = MibNode {
            module: m as u32,
            index: i as u32,
            parent: Self::NONE,
            arcs: start as u32,
            arcs_len: (out.arcs.len() - start).min(usize::from(u8::MAX)) as u8,
            kind: n.kind,
            base: self.bases[m].get(i).copied().unwrap_or(0),
        };
        if self.position[m].is_empty() {
            self.position[m] = vec![Self::NONE; self.oids[m].len()];
        }
        self.position[m][i] = p as u32;
        if out.nodes.len() < self.total {
            out.nodes.push(node);
        } else {
            out.ancestors.push(node);
        }
        p as u32
    }
}

/// Fills `out.nodes` with the nodes of `order` that have an OID, in module order, and links
/// them into a tree: each node's parent (as the resolver linked them, adding the SMI base
/// modules' nodes they hang under as ancestors) and the arcs it adds, written as its OID
/// value's numbers (a root name such as `iso` adds its number first; a TRAP-TYPE adds `0` and
/// its number below its ENTERPRISE).
fn build_tree(
    set: &MibSet,
    order: &[usize],
    oids: &[Vec<OidState>],
    bases: &[Vec<u8>],
    out: &mut Resolved,
) {
    let done = |m: usize| oids[m].iter().filter(|s| s.done().is_some()).count();
    let total: usize = order.iter().map(|&m| done(m)).sum();
    out.nodes.reserve_exact(total);
    out.arcs.reserve_exact(total + total / 8);
    let mut b = TreeBuilder {
        set,
        oids,
        bases,
        total,
        position: oids.iter().map(|_| Vec::new()).collect(),
    };
    for &m in order {
        for i in 0..oids[m].len() {
            b.place(m, i, out);
        }
    }
    // Parents, placing the ancestors outside `order` as they are met (each once).
    let mut k = 0;
    while k < out.nodes.len() + out.ancestors.len() {
        let node = if k < out.nodes.len() {
            &out.nodes[k]
        } else {
            &out.ancestors[k - out.nodes.len()]
        };
        let link = b.oids[node.module()]
            .get(node.index())
            .and_then(|s| s.done())
            .unwrap_or(Link::TOP);
        let parent = if link == Link::TOP {
            TOP
        } else {
            let (m, i) = (link.module as usize, link.index as usize);
            match b.position[m].get(i) {
                Some(&p) if p != TreeBuilder::NONE => p,
                _ => b.place(m, i, out),
            }
        };
        let node = if k < out.nodes.len() {
            &mut out.nodes[k]
        } else {
            &mut out.ancestors[k - out.nodes.len()]
        };
        node.parent = parent;
        k += 1;
    }
    out.ancestors.shrink_to_fit();
    out.arcs.shrink_to_fit();
}

/// Resolves every node of modules `ms` (whose OID tables are `own`), reporting on those in
/// `reported` and producing their nodes.
fn resolve_part(
    set: &MibSet,
    strict: &HashSet<Relaxation>,
    done: &[Vec<OidState>],
    reported: &[bool],
    ms: &[usize],
    own: OidTables,
) -> Part {
    let mut r = Resolver::new(set, strict, done, own);
    let mut bases = Vec::new();
    for &m in ms {
        if reported[m] {
            r.check_module(m);
        }
        bases.push((m, r.resolve_module(m, reported[m])));
    }
    Part {
        oids: ms
            .iter()
            .map(|&m| (m, r.own.remove(&m).unwrap_or_default()))
            .collect(),
        bases,
        found: r.found,
        found_error: r.found_error,
        orphans: r.orphans,
        unimported: r.unimported,
    }
}

impl<'m> Resolver<'m> {
    fn new(
        set: &'m MibSet,
        strict: &'m HashSet<Relaxation>,
        done: &'m [Vec<OidState>],
        own: OidTables,
    ) -> Resolver<'m> {
        Resolver {
            set,
            strict,
            done,
            // Keyed by module, not a table of every module: a corpus of a long import chain
            // has as many layers as modules, and a table each would make resolving quadratic.
            own: own.into_iter().collect(),
            found: Vec::new(),
            found_error: Vec::new(),
            warned: HashSet::new(),
            last_parent: None,
            orphans: Vec::new(),
            unimported: false,
        }
    }

    /// Resolves every node of module `m` (one of its own), and returns their base types'
    /// codes when `reported` (else nothing).
    fn resolve_module(&mut self, m: usize, reported: bool) -> Vec<u8> {
        let set: &MibSet = self.set;
        let nodes = &set.modules[m].smi.nodes;
        let mut base = Vec::with_capacity(if reported { nodes.len() } else { 0 });
        // The last SYNTAX's base type: a file's objects of one SYNTAX share its tree, and
        // come in runs (a table's counters, a group's strings).
        let mut last: Option<(*const Type, Option<&'static str>)> = None;
        for (i, n) in nodes.iter().enumerate() {
            let oid = self.oid_at(m, i, n.offset as usize, 0);
            if reported {
                let b = oid.and_then(|_| {
                    let t = n.syntax.as_ref()?;
                    match last {
                        Some((p, b)) if std::ptr::eq(p, &**t) => b,
                        _ => {
                            let b = self.base_type(m, &t.kind, 0);
                            last = Some((&**t, b));
                            b
                        }
                    }
                });
                base.push(base_code(b));
            }
        }
        base
    }
}

/// The modules to resolve (`order`, and the SMI base modules present, whose names modules
/// may use without importing them), grouped into units (modules that import each other,
/// directly or not) and the units into layers: every unit a unit depends on is in an
/// earlier layer. Layers in dependency order; units keep `order`'s order of their modules.
fn layers(set: &MibSet, order: &[usize]) -> Vec<Vec<Vec<usize>>> {
    let n = set.modules.len();
    let base: Vec<usize> = BASE_MODULES
        .iter()
        .filter_map(|b| set.by_name.get(*b).copied())
        .collect();
    let mut chosen: Vec<usize> = order.to_vec();
    for &b in &base {
        if !order.contains(&b) {
            chosen.push(b);
        }
    }
    let mut member = vec![false; n];
    for &m in &chosen {
        member[m] = true;
    }
    // What a module's names can come from: its imports, and the base modules.
    let deps: Vec<Vec<usize>> = (0..n)
        .map(|m| {
            if !member[m] {
                return Vec::new();
            }
            let mut d: Vec<usize> = set.modules[m]
                .smi
                .imports
                .iter()
                .filter_map(|i| set.by_name.get(&i.module).copied())
                .filter(|&t| member[t] && t != m)
                .collect();
            d.extend(base.iter().copied().filter(|&b| b != m));
            d.sort_unstable();
            d.dedup();
            d
        })
        .collect();
    // Strongly connected components (Tarjan's algorithm, without recursion).
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![usize::MAX; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    for &root in &chosen {
        if index[root] != usize::MAX {
            continue;
        }
        // (module, next dependency to look at)
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            if let Some(&w) = deps[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let c = comps.len();
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = c;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                comps.push(members);
            }
        }
    }
    // Tarjan's components come out dependencies first: a component's layer is one more than
    // the deepest of its dependencies'.
    let mut layer_of = vec![0usize; comps.len()];
    for (c, members) in comps.iter().enumerate() {
        let l = members
            .iter()
            .flat_map(|&m| deps[m].iter())
            .map(|&t| comp[t])
            .filter(|&d| d != c)
            .map(|d| layer_of[d] + 1)
            .max()
            .unwrap_or(0);
        layer_of[c] = l;
    }
    let depth = layer_of.iter().copied().max().map_or(0, |d| d + 1);
    let mut out: Vec<Vec<Vec<usize>>> = vec![Vec::new(); depth];
    // A unit's modules in the order they were chosen.
    let mut rank = vec![usize::MAX; n];
    for (k, &m) in chosen.iter().enumerate() {
        rank[m] = k;
    }
    let mut units: Vec<(usize, Vec<usize>)> = comps
        .into_iter()
        .enumerate()
        .map(|(c, mut members)| {
            members.sort_by_key(|&m| rank[m]);
            (c, members)
        })
        .collect();
    units.sort_by_key(|(_, members)| rank[members[0]]);
    for (c, members) in units {
        out[layer_of[c]].push(members);
    }
    out
}

impl Resolver<'_> {
    fn report(&mut self, m: usize, offset: usize, relaxation: Option<Relaxation>, message: String) {
        let message = match relaxation {
            Some(r) => format!("{message} [{}]", r.name()),
            None => message,
        };
        let strict = relaxation.is_some_and(|r| self.strict.contains(&r));
        self.found.push((m, offset, message));
        self.found_error.push(relaxation.is_none() || strict);
    }

    /// Parse findings and imports of a module.
    fn check_module(&mut self, m: usize) {
        let loaded = &self.set.modules[m];
        for f in loaded.smi.findings.clone() {
            self.report(m, f.offset, f.relaxation, f.message);
        }
        for (file, f) in &self.set.file_findings {
            if *file == loaded.file {
                self.report(m, f.offset, f.relaxation, f.message.clone());
            }
        }
        for imp in loaded.smi.imports.clone() {
            match self.set.by_name.get(&imp.module) {
                None => {
                    let mut message = format!(
                        "module {} (imported by {}) is not on the search path: {}",
                        imp.module,
                        loaded.smi.name,
                        self.set.search_path()
                    );
                    if let Some(why) = self.set.unread_file_named(&imp.module) {
                        message.push_str("; the file named like it yielded no module: ");
                        message.push_str(&why);
                    }
                    // Accepted only when the SMI's base modules, or the importing module itself,
                    // define every symbol asked for.
                    let all_known = imp.symbols.iter().all(|&s| {
                        let s = loaded.smi.name(s);
                        BUILTIN_MACROS.contains(&s)
                            || BASE_TYPES.contains(&s)
                            || self.base_module_of(s).is_some()
                            || self.set.node_at(m, s).is_some()
                            || self.set.type_at(m, s).is_some()
                    });
                    if all_known {
                        self.report(
                            m,
                            imp.offset,
                            Some(Relaxation::MissingModule),
                            format!(
                                "{message}; its symbols are taken from the SMI base modules or \
                                 {} itself, which defines them",
                                loaded.smi.name
                            ),
                        );
                    } else {
                        self.report(m, imp.offset, None, message);
                    }
                }
                Some(&t) => {
                    let target = &self.set.modules[t].smi;
                    if target.name != imp.module {
                        self.report(
                            m,
                            imp.offset,
                            Some(Relaxation::SuccessorModule),
                            format!(
                                "module {} (imported by {}) is not on the search path; its \
                                 successor {} is read instead",
                                imp.module, loaded.smi.name, target.name
                            ),
                        );
                    }
                    for &sym in &imp.symbols {
                        let sym = loaded.smi.name(sym);
                        let known = self.set.node_at(t, sym).is_some()
                            || self.set.type_at(t, sym).is_some()
                            || target.macros.iter().any(|x| x == sym)
                            || target
                                .imports
                                .iter()
                                .any(|i| i.symbols.iter().any(|&s| target.name(s) == sym))
                            || BASE_TYPES.contains(&sym)
                            || BUILTIN_MACROS.contains(&sym);
                        if !known {
                            self.report(
                                m,
                                imp.offset,
                                Some(Relaxation::UnknownImport),
                                format!(
                                    "{} does not define `{sym}`, which {} imports from it",
                                    imp.module, loaded.smi.name
                                ),
                            );
                        }
                    }
                }
            }
        }
    }

    /// The first SMI base module defining node or type `name`.
    fn base_module_of(&self, name: &str) -> Option<usize> {
        BASE_MODULES
            .iter()
            .filter_map(|b| self.set.by_name.get(*b).copied())
            .find(|&t| self.set.node_at(t, name).is_some() || self.set.type_at(t, name).is_some())
    }

    /// The node `name`, used in module `m`, is: (module, index in its nodes).
    fn lookup(&mut self, m: usize, name: &str, offset: usize) -> Option<(usize, usize)> {
        let (t, i, via) = self.set.find_via(m, name, false)?;
        if matches!(via, Via::Unimported(_) | Via::ChainEnd) {
            self.unimported = true;
        }
        // Relaxation: a base name used without being imported (a bad import along a chain is
        // reported by `check_module`, in the module that wrote it).
        if let Via::Unimported(base) = via {
            if self.warned.insert((m, name.to_string())) {
                self.report(
                    m,
                    offset,
                    Some(Relaxation::MissingImport),
                    format!("`{name}` is used without being imported; taken from {base}"),
                );
            }
        }
        Some((t, i))
    }

    /// [`Resolver::lookup`] of the parent `p` named in an OID value of module `m`, written
    /// at `offset`. A module's nodes come in runs under one parent (a table's columns, a
    /// group's scalars): the last one looked up is kept, and a run looks it up once.
    fn parent(&mut self, m: usize, p: Name, offset: usize) -> Option<(usize, usize)> {
        if let Some((lm, lp, found)) = self.last_parent {
            if (lm, lp) == (m, p) {
                return found;
            }
        }
        let set: &MibSet = self.set;
        let found = self.lookup(m, set.modules[m].smi.name(p), offset);
        self.last_parent = Some((m, p, found));
        found
    }

    /// The node `name` means as the parent in the OID value of a node of module `m`, `found`
    /// the one its lookup found (the last of that name): that one, unless the module defines
    /// `name` more than once and `found` hangs under `name` itself; then the first definition
    /// that does not, the one net-snmp links into its tree first (which adopts every node
    /// naming it as parent). TP-Link's `tpPoeRecoveryPort` is a subtree and a column of the
    /// table under it; Netgear's WG302-MIB has `apmode OBJECT-TYPE ::= { apmode 1 }` and
    /// `ptpmode OBJECT IDENTIFIER ::= { apmode 2 }` beside it.
    fn not_below(&self, m: usize, name: Name, found: (usize, usize)) -> (usize, usize) {
        let smi = &self.set.modules[m].smi;
        if found.0 == m {
            // The module's own children of a name it defines twice hang under the definition
            // net-snmp links first.
            if let Some(&(_, first, _)) = smi.linked.iter().find(|l| l.0 == name) {
                return (m, first as usize);
            }
        }
        if found.0 != m || !smi.redefined.contains(&name) || !self.names_above(m, found.1, name) {
            return found;
        }
        (0..smi.nodes.len())
            .find(|&k| smi.nodes[k].name == name && !self.names_above(m, k, name))
            .map_or(found, |k| (m, k))
    }

    /// Whether `name` is a parent in the chain of OID values above node `k` of module `m`,
    /// followed within the module.
    fn names_above(&self, m: usize, mut k: usize, name: Name) -> bool {
        let smi = &self.set.modules[m].smi;
        for _ in 0..MAX_OID_DEPTH {
            let Some(parent) = smi.nodes[k].oid.as_ref().and_then(|v| v.parent) else {
                return false;
            };
            if parent == name {
                return true;
            }
            match self.set.find_via(m, smi.name(parent), false) {
                Some((t, up, _)) if t == m => k = up,
                _ => return false,
            }
        }
        false
    }

    /// Resolves the OID of node `i` of module `m` (`offset`: where it is asked for; `depth`:
    /// how many nodes down the chain of definitions it is): where it hangs in the tree, or
    /// `None` when it has no OID.
    fn oid_at(&mut self, m: usize, i: usize, offset: usize, depth: usize) -> Option<Link> {
        let Some(own) = self.own.get(&m) else {
            // A module of an earlier layer: resolved already.
            return self
                .done
                .get(m)
                .and_then(|v| v.get(i))
                .and_then(|s| s.done());
        };
        match own[i].get() {
            State::Done(v) => return Some(v),
            State::Failed => return None,
            State::InProgress => {
                let set: &MibSet = self.set;
                let name = set.modules[m].smi.node_name(i);
                self.report(
                    m,
                    offset,
                    None,
                    format!("the OID of `{name}` is defined in terms of itself"),
                );
                return None;
            }
            State::Unknown => {}
        }
        if depth >= MAX_OID_DEPTH {
            let set: &MibSet = self.set;
            let name = set.modules[m].smi.node_name(i);
            self.report(
                m,
                offset,
                None,
                format!("the OID of `{name}` is defined through more than {MAX_OID_DEPTH} nodes"),
            );
            return None;
        }
        self.set_state(m, i, State::InProgress);
        let result = self.compute_oid(m, i, depth);
        self.set_state(m, i, result.map_or(State::Failed, State::Done));
        result
    }

    fn set_state(&mut self, m: usize, i: usize, state: State) {
        if let Some(own) = self.own.get_mut(&m) {
            own[i] = OidState::new(state);
        }
    }

    /// Where node `i` of module `m` hangs: its parent's OID resolved (that may recurse).
    fn compute_oid(&mut self, m: usize, i: usize, depth: usize) -> Option<Link> {
        let set: &MibSet = self.set;
        let smi = &set.modules[m].smi;
        let node = &smi.nodes[i];
        let name = smi.name(node.name);
        let (offset, kind) = (node.offset as usize, node.kind);
        if kind == NodeKind::TrapType && node.oid.is_none() {
            // SMIv1 traps: enterprise.0.number (RFC 2576 3.1), as net-snmp and SMIv2 name them
            // (an ENTERPRISE written as an OID value made the trap's own, with `0.N`).
            let (Some(e), Some(_)) = (node.enterprise().map(|e| smi.name(e)), node.trap_number())
            else {
                self.report(
                    m,
                    offset,
                    None,
                    format!("TRAP-TYPE {name} needs ENTERPRISE and a number"),
                );
                return None;
            };
            let Some((t, j)) = self.lookup(m, e, offset) else {
                self.report(
                    m,
                    offset,
                    None,
                    format!("TRAP-TYPE {name}: unresolved ENTERPRISE `{e}`"),
                );
                return None;
            };
            self.oid_at(t, j, offset, depth + 1)?;
            return Some(Link::new(t, j));
        }
        // A value that is not an OID was reported with the module's findings.
        let value = node.oid.as_ref()?;
        if value.arcs.as_slice().len() > MAX_ARCS {
            self.report(
                m,
                offset,
                None,
                format!(
                    "the OID value of `{name}` has {} numbers; an OID has at most {MAX_ARCS}",
                    value.arcs.as_slice().len()
                ),
            );
            return None;
        }
        match value.parent {
            Some(parent) => {
                let p = smi.name(parent);
                let at = value.parent_offset as usize;
                if let Some((t, j)) = self.parent(m, parent, at) {
                    let (t, j) = self.not_below(m, parent, (t, j));
                    self.oid_at(t, j, at, depth + 1)?;
                    Some(Link::new(t, j))
                } else if ROOTS.iter().any(|(r, _)| *r == p) {
                    Some(Link::TOP)
                } else {
                    self.report(
                        m,
                        at,
                        Some(Relaxation::OrphanNode),
                        format!(
                            "unresolved parent `{p}` in the OID of `{name}`: `{name}` and the \
                             nodes under it are left out"
                        ),
                    );
                    self.orphans.push((m, i, at));
                    None
                }
            }
            None if value.arcs.as_slice().is_empty() => {
                self.report(m, offset, None, format!("`{name}` has an empty OID value"));
                None
            }
            None => Some(Link::TOP),
        }
    }

    /// Follows type references through TEXTUAL-CONVENTIONs and type assignments to a base type.
    fn base_type(&mut self, m: usize, kind: &TypeKind, depth: usize) -> Option<&'static str> {
        if depth > 32 {
            return None;
        }
        Some(match kind {
            TypeKind::Integer(_) | TypeKind::Enumerated { .. } => "INTEGER",
            TypeKind::OctetString => "OCTET STRING",
            TypeKind::ObjectIdentifier => "OBJECT IDENTIFIER",
            TypeKind::BitString(_) => "BITS",
            TypeKind::Null => "NULL",
            TypeKind::Boolean => "BOOLEAN",
            TypeKind::Sequence(_) | TypeKind::Set(_) => "SEQUENCE",
            TypeKind::SequenceOf(..) | TypeKind::SetOf(..) => "SEQUENCE OF",
            TypeKind::Choice(_) => "CHOICE",
            TypeKind::Any(_) => "ANY",
            TypeKind::Tagged { inner, .. } => return self.base_type(m, &inner.kind, depth + 1),
            TypeKind::Reference { name, .. } => {
                if let Some(b) = BASE_TYPES.iter().find(|b| **b == &**name) {
                    return Some(b);
                }
                let (t, i) = self.set.find(m, name, true)?;
                // `set` outlives the resolver's borrow of itself: no copy of the type.
                let set: &MibSet = self.set;
                return self.base_type(t, &set.modules[t].smi.types[i].syntax.kind, depth + 1);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node's module, index and OID, and every module's findings, in order.
    fn summary(set: &MibSet, r: &Resolved) -> Vec<String> {
        let nodes = r.nodes.iter().map(|n| {
            let name = set.modules[n.module()].smi.node_name(n.index());
            format!("{} {} {name} {:?}", n.module(), n.index(), r.oid(n))
        });
        let reports = r.reports.iter().map(|rep| {
            let errors: Vec<String> = rep.errors.iter().map(|d| d.to_string()).collect();
            let warnings: Vec<String> = rep.warnings.iter().map(|d| d.to_string()).collect();
            format!("{} {errors:?} {warnings:?}", rep.module)
        });
        nodes.chain(reports).collect()
    }

    /// `text`, module T-MIB, resolved with the standard modules: its index, and its nodes'
    /// `name OID` lines, sorted.
    fn t_mib_oids(text: &str) -> (Resolved, usize, Vec<String>) {
        let mut set = MibSet::default();
        set.add_standard_modules();
        set.add_text("t.mib".into(), text.into());
        let r = resolve_in(&set, &[], &HashSet::new(), usize::MAX);
        let t = set
            .modules
            .iter()
            .position(|m| m.smi.name == "T-MIB")
            .unwrap();
        let mut oids: Vec<String> = r
            .nodes
            .iter()
            .filter(|n| n.module() == t)
            .map(|n| {
                let name = set.modules[t].smi.node_name(n.index());
                format!("{name} {}", crate::mib::dotted(&r.oid(n)))
            })
            .collect();
        oids.sort();
        (r, t, oids)
    }

    /// A name a module defines twice means, as an OID value's parent, the definition that
    /// does not hang under that name, so that a second definition under the first resolves
    /// (no cycle), as net-snmp links them: TP-Link's subtree that is also a column of the
    /// table under it, Netgear's `apmode OBJECT-TYPE ::= { apmode 1 }`.
    #[test]
    fn a_name_defined_twice_hangs_its_second_under_its_first() {
        let (r, t, oids) = t_mib_oids(
            "T-MIB DEFINITIONS ::= BEGIN
IMPORTS enterprises, OBJECT-TYPE, Integer32 FROM SNMPv2-SMI;
acme OBJECT IDENTIFIER ::= { enterprises 4242 }
port OBJECT IDENTIFIER ::= { acme 2 }
portTable OBJECT-TYPE SYNTAX SEQUENCE OF PortEntry MAX-ACCESS not-accessible
    STATUS current DESCRIPTION \"t\" ::= { port 1 }
portEntry OBJECT-TYPE SYNTAX PortEntry MAX-ACCESS not-accessible
    STATUS current DESCRIPTION \"e\" INDEX { port } ::= { portTable 1 }
PortEntry ::= SEQUENCE { port Integer32 }
port OBJECT-TYPE SYNTAX Integer32 MAX-ACCESS read-only
    STATUS current DESCRIPTION \"c\" ::= { portEntry 1 }
mode OBJECT IDENTIFIER ::= { acme 7 }
mode OBJECT-TYPE SYNTAX Integer32 MAX-ACCESS read-only
    STATUS current DESCRIPTION \"m\" ::= { mode 1 }
other OBJECT IDENTIFIER ::= { mode 2 }
END
",
        );
        assert!(r.reports.iter().all(|rep| rep.module != t || rep.ok()));
        let acme = "1.3.6.1.4.1.4242";
        let want = [
            format!("acme {acme}"),
            format!("mode {acme}.7"),
            format!("mode {acme}.7.1"),
            format!("other {acme}.7.2"),
            format!("port {acme}.2"),
            format!("port {acme}.2.1.1.1"),
            format!("portEntry {acme}.2.1.1"),
            format!("portTable {acme}.2.1"),
        ];
        assert_eq!(oids, want);
    }

    /// RFC 1215's ENTERPRISE is an OBJECT IDENTIFIER value: written as one in braces (as
    /// Cisco's SMIv1 conversions write it), the trap is that OID's `0.N`; its labels name no
    /// nodes of the module. (net-snmp 5.9 links such a trap at `.1.0.N`.)
    #[test]
    fn a_trap_whose_enterprise_is_an_oid_value_hangs_under_it() {
        let (r, t, oids) = t_mib_oids(
            "T-MIB DEFINITIONS ::= BEGIN
IMPORTS TRAP-TYPE FROM RFC-1215 enterprises FROM RFC1155-SMI;
acme OBJECT IDENTIFIER ::= { enterprises 4242 }
byName TRAP-TYPE ENTERPRISE acme ::= 1
byValue TRAP-TYPE
    ENTERPRISE { iso(1) org(3) dod(6) internet(1) private(4) enterprises(1) widget(4243) }
    DESCRIPTION \"d\"
    ::= 2
unnumbered TRAP-TYPE ENTERPRISE { iso(1) org(3) 5 } ::= x
END
",
        );
        let want = [
            "acme 1.3.6.1.4.1.4242",
            "byName 1.3.6.1.4.1.4242.0.1",
            "byValue 1.3.6.1.4.1.4243.0.2",
        ];
        assert_eq!(oids, want);
        // The one without a number is an error, not the enterprise's own OID.
        let report = r.reports.iter().find(|rep| rep.module == t).unwrap();
        assert!(!report.ok());
    }

    #[test]
    fn layers_spread_over_threads_resolve_as_on_one() {
        let mut set = MibSet::default();
        set.add_standard_modules();
        set.add_text(
            "t.mib".into(),
            "T-MIB DEFINITIONS ::= BEGIN
IMPORTS enterprises FROM SNMPv2-SMI DisplayString FROM SNMPv2-TC;
acme OBJECT IDENTIFIER ::= { enterprises 4242 }
leaf OBJECT IDENTIFIER ::= { acme 7 }
orphan OBJECT IDENTIFIER ::= { nowhere 1 }
END
"
            .into(),
        );
        let strict = HashSet::new();
        let one = resolve_in(&set, &[], &strict, usize::MAX);
        let spread = resolve_in(&set, &[], &strict, 0);
        assert!(one.nodes.len() > 500, "{}", one.nodes.len());
        assert_eq!(summary(&set, &one), summary(&set, &spread));
    }
}
