//! `snmpc mib check`, `snmpc mib dump` and `snmpc translate`: the MIB compiler's front-end and
//! resolver as tools.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use snmp_smi::mib::ir::IndexPart;
use snmp_smi::mib::Presentation;
use snmp_smi::mib::{self, MibSet, Resolved};
use snmp_smi::mib::{Access, NodeKind, Relaxation};

use crate::index::{self, IndexStyle};
use crate::precedence;

/// Loaded and resolved modules, with a name and OID registry built on first use (check and
/// dump never look anything up, so they never pay for it).
pub struct Mibs {
    /// What was read.
    pub set: MibSet,
    /// What it resolved to.
    pub resolved: Resolved,
    /// Each module's place in the order net-snmp's tools would read it ([`precedence`]): of
    /// the modules that define an OID, the first read names it.
    read_order: Vec<usize>,
    lookup: std::sync::OnceLock<Lookup>,
    /// The MIB path as configured, for messages (`None`: the directories read).
    search_path: Option<String>,
}

/// The directories of MIB path entries such as `-M a:b` or `MIBDIRS`, each `:`-separated; an
/// empty entry (`a:b:`, as MIBDIRS often has) is no directory. net-snmp's `+` or `-` before
/// an entry (`-M +DIR`: after or before its default directories) is dropped: the standard
/// modules are built in, and the entry's directories are read either way.
pub fn split_dirs<'a>(entries: impl IntoIterator<Item = &'a std::ffi::OsStr>) -> Vec<PathBuf> {
    entries
        .into_iter()
        .map(|e| {
            use std::os::unix::ffi::OsStrExt;
            match e.as_bytes() {
                [b'+' | b'-', rest @ ..] => std::ffi::OsStr::from_bytes(rest),
                _ => e,
            }
        })
        .flat_map(std::env::split_paths)
        .filter(|d| !d.as_os_str().is_empty())
        .collect()
}

/// Whether `input` is a dotted OID (`1.3.6...`, `.1.3.6...`, a lone `.`) rather than a name
/// (`sysDescr.0`, or `.iso.org.dod...` as `-Of` prints names).
pub fn numeric_input(input: &str) -> bool {
    let rest = input.strip_prefix('.').unwrap_or(input);
    rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_digit())
}

/// The OID tree's roots (X.660), by their arcs.
const ROOTS: [&str; 3] = ["ccitt", "iso", "joint-iso-ccitt"];

/// The arc of one of the tree's roots (X.660) by its name (`iso`: 1).
pub fn root_arc(name: &str) -> Option<u32> {
    ROOTS.iter().position(|r| *r == name).map(|a| a as u32)
}

/// Why a name or OID given on the command line does not translate, in net-snmp's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    /// A module no directory of the path has.
    NoModule {
        /// The module.
        module: String,
        /// The MIB path, `:`-separated.
        path: String,
    },
    /// No such object; what net-snmp says about it in parentheses, when it says anything.
    Unknown(Option<String>),
}

impl NameError {
    /// What net-snmp's tools print for `input`: `ifDescr.x: Unknown Object Identifier (Index
    /// out of range: x (ifIndex))`; for a module not found, two lines about the search first.
    pub fn say(&self, input: &str) -> String {
        match self {
            NameError::NoModule { module, path } => format!(
                "MIB search path: {path}\nCannot find module ({module}): At line 1 in (none)\n\
                 {input}: Unknown Object Identifier"
            ),
            NameError::Unknown(None) => format!("{input}: Unknown Object Identifier"),
            NameError::Unknown(Some(why)) => format!("{input}: Unknown Object Identifier ({why})"),
        }
    }
}

/// Descriptor to nodes, and OID to node.
struct Lookup {
    by_name: HashMap<Box<str>, Vec<usize>>,
    /// In OID order, for the columns under an entry.
    by_oid: BTreeMap<Vec<u32>, usize>,
    /// The same, hashed: the prefix lookups of every printed OID.
    at_oid: HashMap<Vec<u32>, usize>,
    /// Each node's presentation, worked out when first asked for.
    presentations: Vec<std::sync::OnceLock<Option<Presentation>>>,
    /// Each row's INDEX (through AUGMENTS), worked out when first asked for; `None` for a
    /// node that is not a row or whose INDEX does not resolve.
    rows: Vec<std::sync::OnceLock<Option<Vec<IndexPart>>>>,
}

impl Mibs {
    /// Loads every module of `dirs` and resolves `modules` (all when empty).
    pub fn load(
        dirs: &[PathBuf],
        modules: &[String],
        strict: &HashSet<Relaxation>,
    ) -> Result<Mibs, String> {
        Self::load_with_progress(dirs, modules, strict, &mut |_, _| {})
    }

    /// Every module of `dirs`, then the built-in standard modules those do not define.
    pub fn load_everything(dirs: &[PathBuf], strict: &HashSet<Relaxation>) -> Result<Mibs, String> {
        let set = MibSet::load(dirs).map_err(|e| format!("reading the MIB directories: {e}"))?;
        Ok(Self::with_builtin(set, strict))
    }

    fn with_builtin(mut set: MibSet, strict: &HashSet<Relaxation>) -> Mibs {
        set.add_standard_modules();
        let resolved = mib::resolve(&set, &[], strict);
        Self::new(set, resolved)
    }

    /// What net-snmp's tools read with the path and list of `choice` ([`crate::miblist`]),
    /// and the modules of `named` too (those of `MODULE::name` inputs): under `ALL` every
    /// module of the path and the built-in ones; otherwise the list's modules, those named,
    /// and what they import, from the path or else from the built-in modules. Modules that
    /// several define are named as net-snmp names them with this list.
    pub fn load_chosen(
        choice: &crate::miblist::MibChoice,
        named: &[String],
        strict: &HashSet<Relaxation>,
    ) -> Result<Mibs, String> {
        let dirs = choice.dirs();
        let mut m = match choice.all() {
            true => Self::load_everything(&dirs, strict)?,
            false => {
                let mut wanted = choice.modules();
                wanted.extend(named.iter().cloned());
                let mut set = MibSet::load_needed(&dirs, &wanted)
                    .map_err(|e| format!("reading the MIB directories: {e}"))?;
                set.add_standard_modules_needed(&wanted);
                let resolved = mib::resolve(&set, &[], strict);
                Self::new(set, resolved)
            }
        };
        m.search_path = Some(choice.path_text());
        m.prefer(Some(&choice.list_text()));
        Ok(m)
    }

    /// [`Mibs::load`], calling `progress(files read, files in all)` as files are parsed.
    pub fn load_with_progress(
        dirs: &[PathBuf],
        modules: &[String],
        strict: &HashSet<Relaxation>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Mibs, String> {
        let set = MibSet::load_with_progress(dirs, progress)
            .map_err(|e| format!("reading the MIB directories: {e}"))?;
        for m in modules {
            if !set.by_name.contains_key(m) {
                let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                let mut text = format!("module {m} is not on the search path: {}", dirs.join(", "));
                let unread: Vec<_> = set
                    .files_without_modules()
                    .into_iter()
                    .filter(|u| !u.not_mib)
                    .collect();
                if !unread.is_empty() {
                    let _ = write!(text, "; {} file(s) there yielded no module:", unread.len());
                    for u in unread.iter().take(5) {
                        let _ = write!(text, "\n{}", u.diagnostics[0]);
                    }
                }
                return Err(text);
            }
        }
        let resolved = mib::resolve(&set, modules, strict);
        Ok(Self::new(set, resolved))
    }

    fn new(set: MibSet, resolved: Resolved) -> Mibs {
        let read_order = precedence::read_order(&set, precedence::listed(None).as_deref());
        Mibs {
            set,
            resolved,
            read_order,
            lookup: std::sync::OnceLock::new(),
            search_path: None,
        }
    }

    /// Names OIDs that several modules define as net-snmp would with the MIB list `list`
    /// (`-m` or `MIBS` as written; `None`: net-snmp's default list).
    pub fn prefer(&mut self, list: Option<&str>) {
        self.read_order = precedence::read_order(&self.set, precedence::listed(list).as_deref());
        self.lookup = std::sync::OnceLock::new();
    }

    fn lookup(&self) -> &Lookup {
        self.lookup.get_or_init(|| {
            // Nodes in the order net-snmp reads their modules.
            let mut nodes: Vec<usize> = (0..self.resolved.nodes.len()).collect();
            nodes.sort_by_key(|&i| self.read_order[self.resolved.nodes[i].module()]);
            let mut by_name: HashMap<Box<str>, Vec<usize>> = HashMap::new();
            let mut by_oid = BTreeMap::new();
            for &i in &nodes {
                by_name
                    .entry(self.set.name(&self.resolved.nodes[i]).into())
                    .or_default()
                    .push(i);
            }
            // An OID is named by a node an assignment defines before a label inside an OID
            // value that names it too (net-snmp names it so).
            let label = |i: &usize| self.resolved.nodes[*i].kind() == NodeKind::Label;
            let (labels, defined): (Vec<usize>, Vec<usize>) = nodes.into_iter().partition(label);
            for i in defined.into_iter().chain(labels) {
                by_oid
                    .entry(self.resolved.oid(&self.resolved.nodes[i]))
                    .or_insert(i);
            }
            let at_oid = by_oid.iter().map(|(o, &n)| (o.clone(), n)).collect();
            let n = self.resolved.nodes.len();
            Lookup {
                by_name,
                by_oid,
                at_oid,
                presentations: std::iter::repeat_with(Default::default).take(n).collect(),
                rows: std::iter::repeat_with(Default::default).take(n).collect(),
            }
        })
    }

    fn module_name(&self, node: usize) -> &str {
        &self.set.modules[self.resolved.nodes[node].module()]
            .smi
            .name
    }

    /// `IF-MIB::ifDescr.3`, `ifDescr.3`, `vacmGroupName.3."aesuser"` or `ifDescr` to an OID:
    /// the instance after a column read by its row's INDEX ([`index::read_instance`]).
    pub fn name_to_oid(&self, input: &str) -> Result<Vec<u32>, NameError> {
        let (module, rest) = match input.split_once("::") {
            Some((m, r)) => (Some(m), r),
            None => (None, input),
        };
        let (name, suffix) = match rest.split_once('.') {
            Some((n, s)) => (n, Some(s)),
            None => (rest, None),
        };
        if let Some(m) = module.filter(|m| !self.set.by_name.contains_key(*m)) {
            return Err(NameError::NoModule {
                module: m.to_string(),
                path: self.path(),
            });
        }
        let unknown = || match module {
            Some(_) => NameError::Unknown(None),
            None => NameError::Unknown(Some(format!("Sub-id not found: (top) -> {name}"))),
        };
        let Some(candidates) = self.lookup().by_name.get(name) else {
            // The roots no module defines (X.660): ccitt(0), iso(1), joint-iso-ccitt(2).
            let arc = root_arc(name)
                .filter(|_| module.is_none())
                .ok_or_else(unknown)?;
            return self.below_root(name, arc, suffix);
        };
        let node = match module {
            Some(m) => *candidates
                .iter()
                .find(|&&c| self.module_name(c) == m)
                .ok_or_else(unknown)?,
            None => candidates[0],
        };
        let oid = self.resolved.oid(&self.resolved.nodes[node]);
        match suffix {
            Some(suffix) => self.below_node(node, oid, suffix),
            None => Ok(oid),
        }
    }

    /// The OID of `suffix` below a root no module names (`iso.org.dod...`, `iso.3.6.1`):
    /// down through the tree by numbers or labels to the first node a module defines, then on
    /// from that node. As net-snmp reads it: below a point with nothing under it (a root no
    /// loaded module extends) the rest is plain arcs, and a number nothing is under ends the
    /// descent, the rest then plain arcs below the last point.
    fn below_root(
        &self,
        root: &str,
        arc: u32,
        suffix: Option<&str>,
    ) -> Result<Vec<u32>, NameError> {
        let mut oid = vec![arc];
        let mut rest = suffix;
        let mut parent = root.to_string();
        let plain = |oid: &mut Vec<u32>, text: &str, below: Option<&str>| {
            let arcs = index::read_instance(text, &[], below);
            oid.extend(arcs.map_err(|e| NameError::Unknown(Some(e)))?);
            Ok(std::mem::take(oid))
        };
        while let Some(text) = rest {
            if !self.has_children(&oid) {
                return plain(&mut oid, text, None);
            }
            let (token, after) = text
                .split_once('.')
                .map_or((text, None), |(t, a)| (t, Some(a)));
            let arc = match token.parse::<u32>() {
                Ok(arc) if token.starts_with(|c: char| c.is_ascii_digit()) => {
                    let below = [oid.as_slice(), &[arc]].concat();
                    if !self.lookup().at_oid.contains_key(&below) && !self.has_children(&below) {
                        return plain(&mut oid, text, Some(&parent));
                    }
                    arc
                }
                _ if token.starts_with(|c: char| c.is_ascii_digit()) => {
                    return plain(&mut oid, text, Some(&parent));
                }
                _ => self
                    .children(&oid)
                    .find(|&(_, c)| self.set.name(&self.resolved.nodes[c]) == token)
                    .map(|(arc, _)| arc)
                    .ok_or_else(|| {
                        NameError::Unknown(Some(format!("Sub-id not found: {parent} -> {token}")))
                    })?,
            };
            oid.push(arc);
            rest = after;
            if let Some(&node) = self.lookup().at_oid.get(oid.as_slice()) {
                return match rest {
                    Some(rest) => self.below_node(node, oid, rest),
                    None => Ok(oid),
                };
            }
            parent = arc.to_string();
        }
        Ok(oid)
    }

    /// The OID of `suffix` below `node` (at `oid`): the path of labels or numbers through
    /// its children, then the instance (its row's INDEX when it is a column).
    fn below_node(
        &self,
        node: usize,
        mut oid: Vec<u32>,
        suffix: &str,
    ) -> Result<Vec<u32>, NameError> {
        let (node, rest) = self.descend(node, &mut oid, suffix)?;
        let Some(rest) = rest else {
            return Ok(oid);
        };
        // After a leaf, its row's INDEX when it is a column; after a node with children,
        // plain arcs.
        let arcs = match self.has_children(&self.resolved.oid(&self.resolved.nodes[node])) {
            true => {
                index::read_instance(rest, &[], Some(self.set.name(&self.resolved.nodes[node])))
            }
            false => {
                let index = self.instance_index(node, &oid).filter(|(_, row)| !row);
                index::read_instance(rest, index.map_or(&[], |(i, _)| i), None)
            }
        };
        oid.extend(arcs.map_err(|e| NameError::Unknown(Some(e)))?);
        Ok(oid)
    }

    /// A dotted OID that is not plain numbers (`.1.3.6.1.2.1.1."ab"`, or one with a bad arc),
    /// read as net-snmp reads it: a path from the top of the tree, numbers taken as the arcs
    /// of the nodes they reach, then an instance as the node's INDEX or plain arcs. The error
    /// says why as net-snmp does (`.1.3.x.4`: `Sub-id not found: org -> x`;
    /// `.1.3.6.1.2.1.2.2.1.2.x`: `Index out of range: x (ifIndex)`; past a leaf,
    /// `sysName.0.x`'s `(x)`).
    pub fn dotted_to_oid(&self, text: &str) -> Result<Vec<u32>, String> {
        let path = text.trim_start_matches('.');
        // net-snmp keeps the low 32 bits of such an arc; it is refused here.
        let all_digits = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if let Some(digits) = path
            .split('.')
            .find(|p| all_digits(p) && p.parse::<u32>().is_err())
        {
            return Err(format!("{digits}: an arc over 32 bits, at most 4294967295"));
        }
        let (first, rest) = path
            .split_once('.')
            .map_or((path, None), |(f, r)| (f, Some(r)));
        let root = first.parse::<u32>().ok().and_then(|arc| {
            let name = ROOTS.get(usize::try_from(arc).ok()?)?;
            Some((*name, arc))
        });
        let read = match root {
            Some((name, arc)) => self.below_root(name, arc, rest),
            None => index::read_instance(path, &[], Some("(top)"))
                .map_err(|e| NameError::Unknown(Some(e))),
        };
        match read {
            Ok(arcs) if (2..=snmp_ber::MAX_OID_ARCS).contains(&arcs.len()) => Ok(arcs),
            Ok(_) => Err("too many arcs, or a start no OID has".into()),
            Err(NameError::Unknown(Some(why))) => Err(why),
            Err(e) => Err(e.say(text)),
        }
    }

    /// From `node` (at `oid`) down through its children as `text` names them (`system.sysDescr`,
    /// `ifTable.1.2`), as net-snmp reads a name: the deepest node reached and what is left of
    /// the text (`None`: nothing). A number that no child has is taken as an arc, and ends the
    /// descent.
    fn descend<'t>(
        &self,
        mut node: usize,
        oid: &mut Vec<u32>,
        text: &'t str,
    ) -> Result<(usize, Option<&'t str>), NameError> {
        let mut rest = Some(text);
        while let Some(text) = rest.filter(|_| self.has_children(oid)) {
            let (token, after) = text
                .split_once('.')
                .map_or((text, None), |(t, a)| (t, Some(a)));
            let parent = self.set.name(&self.resolved.nodes[node]);
            let refused =
                || NameError::Unknown(Some(format!("Sub-id not found: {parent} -> {token}")));
            let arc = match token.parse::<u32>() {
                Ok(arc) if token.starts_with(|c: char| c.is_ascii_digit()) => arc,
                _ if token.starts_with(|c: char| c.is_ascii_digit()) => return Err(refused()),
                _ => match self
                    .children(oid)
                    .find(|&(_, c)| self.set.name(&self.resolved.nodes[c]) == token)
                {
                    Some((arc, _)) => arc,
                    None => return Err(refused()),
                },
            };
            oid.push(arc);
            rest = after;
            match self.lookup().at_oid.get(oid.as_slice()) {
                Some(&child) => node = child,
                None => return Ok((node, rest)),
            }
        }
        Ok((node, rest))
    }

    /// The nodes right below `oid`: their last arcs and nodes.
    pub fn children<'s>(&'s self, oid: &'s [u32]) -> impl Iterator<Item = (u32, usize)> + 's {
        self.lookup()
            .by_oid
            .range(oid.to_vec()..)
            .take_while(move |(o, _)| o.starts_with(oid))
            .filter(move |(o, _)| o.len() == oid.len() + 1)
            .map(|(o, &n)| (o[oid.len()], n))
    }

    /// Whether some node is below `oid`.
    fn has_children(&self, oid: &[u32]) -> bool {
        use std::ops::Bound::{Excluded, Unbounded};
        self.lookup()
            .by_oid
            .range((Excluded(oid.to_vec()), Unbounded))
            .next()
            .is_some_and(|(o, _)| o.starts_with(oid))
    }

    /// Every node's OID, in OID order.
    pub fn oids(&self) -> impl Iterator<Item = &[u32]> {
        self.lookup().by_oid.keys().map(Vec::as_slice)
    }

    /// The deepest node on `oid`'s path: how many arcs it has, and the node.
    pub fn deepest(&self, oid: &[u32]) -> Option<(usize, usize)> {
        (1..=oid.len())
            .rev()
            .find_map(|k| Some((k, *self.lookup().at_oid.get(&oid[..k])?)))
    }

    /// A node's definition as its module writes it.
    pub fn written(&self, node: usize) -> &snmp_smi::mib::Node {
        self.set.node(&self.resolved.nodes[node])
    }

    /// A node's descriptor.
    pub fn label(&self, node: usize) -> &str {
        self.set.name(&self.resolved.nodes[node])
    }

    /// The name of the node `oid` (or of its root), as the tree names it.
    pub fn label_at(&self, oid: &[u32]) -> Option<&str> {
        match oid {
            [root] => ROOTS.get(usize::try_from(*root).ok()?).copied(),
            _ => Some(self.label(*self.lookup().at_oid.get(oid)?)),
        }
    }

    /// A name written in `node`'s module (an INDEX item, an OBJECTS member).
    pub fn name_in(&self, node: usize, name: snmp_smi::mib::tree::Name) -> &str {
        self.set.modules[self.resolved.nodes[node].module()]
            .smi
            .name(name)
    }

    /// The OBJECTS (or VARIABLES) of a notification.
    pub fn members(&self, node: usize) -> Vec<&str> {
        let written = self.written(node);
        written
            .members()
            .iter()
            .map(|&m| self.name_in(node, m))
            .collect()
    }

    /// The modules that define `node`'s descriptor at `oid`, in the order net-snmp reads them.
    pub fn defined_by(&self, node: usize, oid: &[u32]) -> Vec<&str> {
        let mut modules: Vec<&str> = Vec::new();
        for &n in self
            .lookup()
            .by_name
            .get(self.label(node))
            .into_iter()
            .flatten()
        {
            let name = self.module_name(n);
            if self.resolved.oid(&self.resolved.nodes[n]) == oid && modules.last() != Some(&name) {
                modules.push(name);
            }
        }
        modules
    }

    /// X.660's name for the root at `arc` (`ccitt`, `iso`, `joint-iso-ccitt`).
    pub fn root_name(&self, arc: u32) -> Option<&'static str> {
        ROOTS.get(usize::try_from(arc).ok()?).copied()
    }

    /// net-snmp's `-Ib`: the node whose name `pattern` (a POSIX extended regular expression,
    /// any case) matches earliest in the name, the first such in OID order; `None` when no
    /// name matches or the pattern is not one. (net-snmp takes the first in its tree's own
    /// order, which is not OID order: where several names match equally early, it may pick
    /// another of them.)
    pub fn best_match(&self, pattern: &str) -> Option<Vec<u32>> {
        let re = regex::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .build()
            .ok()?;
        let mut best: Option<(usize, &Vec<u32>)> = None;
        for (oid, &node) in &self.lookup().by_oid {
            let Some(at) = re.find(self.set.name(&self.resolved.nodes[node])) else {
                continue;
            };
            if best.is_none_or(|(b, _)| at.start() < b) {
                best = Some((at.start(), oid));
                if at.start() == 0 {
                    break;
                }
            }
        }
        best.map(|(_, oid)| oid.clone())
    }

    /// snmptranslate's `-TB`: the OIDs of the nodes `pattern` (a POSIX extended regular
    /// expression, any case) finds, as net-snmp finds them: its search goes down the tree
    /// (each node's children from its highest arc down) over the nodes no earlier search
    /// looked at, stops at the first name the pattern matches at its start and gives that
    /// node, or at the tree's end gives the node whose name it matched earliest; it is asked
    /// again until it gives nothing. So every name that starts with a match is listed, and
    /// after them at most one that matches later on (`-TB Octets` lists ifInOctets alone).
    /// `None` when the pattern is not one.
    pub fn matching(&self, pattern: &str) -> Option<Vec<Vec<u32>>> {
        let re = regex::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .build()
            .ok()?;
        // Every node in the search's order, with where the pattern matches its name.
        let mut order: Vec<(Vec<u32>, Option<usize>)> = Vec::new();
        // Depth first, the highest arc first: the stack takes the lowest first.
        let mut stack: Vec<Vec<u32>> = (0..ROOTS.len() as u32).map(|r| vec![r]).collect();
        while let Some(oid) = stack.pop() {
            let named = self.lookup().at_oid.get(&oid).map(|&n| self.label(n));
            let at = named.and_then(|name| re.find(name)).map(|m| m.start());
            stack.extend(self.children(&oid).map(|(arc, _)| {
                let mut child = oid.clone();
                child.push(arc);
                child
            }));
            order.push((oid, at));
        }
        let mut found = Vec::new();
        let mut next = 0;
        while next < order.len() {
            // (where the pattern matched, which node): the earliest match so far.
            let mut best: Option<(usize, usize)> = None;
            let mut i = next;
            while let Some((_, at)) = order.get(i) {
                if let Some(at) = *at {
                    if best.is_none_or(|(b, _)| at < b) {
                        best = Some((at, i));
                    }
                    if at == 0 {
                        break;
                    }
                }
                i += 1;
            }
            next = i + 1;
            match best {
                Some((_, node)) => found.push(order[node].0.clone()),
                None => break,
            }
        }
        Some(found)
    }

    /// Whether `node`, at an OID of `depth` arcs, is only a label for one of X.660's roots
    /// (`iso(1)` in an OID value): net-snmp names the root itself, from no module.
    pub fn is_root_label(&self, node: usize, depth: usize) -> bool {
        depth == 1 && self.resolved.nodes[node].kind() == NodeKind::Label
    }

    /// A node's DESCRIPTION as its file has it, cut after 4,095 bytes as net-snmp keeps it.
    pub fn description(&self, node: usize) -> Option<String> {
        let range = self.written(node).description()?;
        let file = &self.set.files[self.set.modules[self.resolved.nodes[node].module()].file];
        let text = file.text().ok()?;
        let text = range.get(&text)?;
        let mut end = text.len().min(4095);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Some(text[..end].to_string())
    }

    /// A node's SYNTAX followed through its TEXTUAL-CONVENTIONs.
    pub fn syntax(&self, node: usize) -> Option<snmp_smi::mib::ir::Syntax> {
        let m = self.resolved.nodes[node].module();
        let ty = self.written(node).syntax.as_ref()?;
        Some(snmp_smi::mib::lower::syntax(&self.set, m, ty))
    }

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
        while let Some(&node) = oid.get(..k + 1).and_then(|p| self.lookup().at_oid.get(p)) {
            k += 1;
            let _ = write!(s, ".{}", self.set.name(&self.resolved.nodes[node]));
            deepest = Some(node);
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
    fn write_instance(
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

    /// The INDEX the arcs after `node` (whose OID is `oid`) follow, and whether `node` is the
    /// row itself (else a column of the row above it); `None` when it is neither.
    fn instance_index(&self, node: usize, oid: &[u32]) -> Option<(&[IndexPart], bool)> {
        if let Some(index) = self.row_index(node) {
            return Some((index, true));
        }
        let parent = *self
            .lookup()
            .at_oid
            .get(oid.get(..oid.len().checked_sub(1)?)?)?;
        Some((self.row_index(parent)?, false))
    }

    /// The INDEX of `node` when it is a row (through AUGMENTS), worked out once.
    fn row_index(&self, node: usize) -> Option<&[IndexPart]> {
        self.lookup().rows[node]
            .get_or_init(|| {
                let n = &self.resolved.nodes[node];
                let written = self.set.node(n);
                let row = written.kind == NodeKind::ObjectType
                    && (!written.index().is_empty() || written.augments().is_some());
                row.then(|| mib::row_index(&self.set, n.module(), written).ok())
                    .flatten()
            })
            .as_deref()
    }

    /// What net-snmp's tools say of the `modules` of their MIB list that were not read (they
    /// go on without them): the path, then a line for each; `None` when every one was read.
    pub fn missing(&self, modules: &[String]) -> Option<String> {
        let mut text = format!("MIB search path: {}", self.path());
        let mut any = false;
        for m in modules
            .iter()
            .filter(|m| !self.set.by_name.contains_key(m.as_str()))
        {
            let _ = write!(text, "\nCannot find module ({m}): At line 1 in (none)");
            any = true;
        }
        any.then_some(text)
    }

    /// The MIB path, `:`-separated (`(none)` when empty).
    fn path(&self) -> String {
        if let Some(p) = &self.search_path {
            return p.clone();
        }
        let path: Vec<String> = self
            .set
            .dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        match path.is_empty() {
            true => "(none)".to_string(),
            false => path.join(":"),
        }
    }

    /// Whether every arc of `oid` is named: the deepest node above or at it is `oid` itself or
    /// an object (whose instance the rest of the arcs are), not a node with arcs below it
    /// that no module read names.
    pub fn names_fully(&self, oid: &[u32]) -> bool {
        (1..=oid.len()).rev().find_map(|k| {
            let node = *self.lookup().at_oid.get(&oid[..k])?;
            Some(k == oid.len() || self.resolved.nodes[node].kind() == NodeKind::ObjectType)
        }) == Some(true)
    }

    /// How the values of the object `oid` is an instance of are shown (its syntax through
    /// its TEXTUAL-CONVENTIONs, its UNITS): the nearest node above or at `oid`, when it is
    /// an object with a SYNTAX.
    pub fn presentation(&self, oid: &[u32]) -> Option<&Presentation> {
        let node = *(1..=oid.len())
            .rev()
            .find_map(|k| self.lookup().at_oid.get(&oid[..k]))?;
        self.lookup().presentations[node]
            .get_or_init(|| {
                let n = &self.resolved.nodes[node];
                snmp_smi::mib::presentation(&self.set, n.module(), self.set.node(n))
            })
            .as_ref()
    }

    /// The columns of the conceptual table at `table` (its entry's readable columns, in OID
    /// order): each column's last arc and name. `None` when `table` has no entry below it.
    pub fn table_columns(&self, table: &[u32]) -> Option<Vec<(u32, String)>> {
        let mut entry = table.to_vec();
        entry.push(1);
        self.lookup().by_oid.get(&entry)?;
        let mut columns = Vec::new();
        for (oid, &node) in self.lookup().by_oid.range(entry.clone()..) {
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

    fn oid_to_module_name(&self, oid: &[u32], style: IndexStyle) -> Option<String> {
        (0..=oid.len()).rev().find_map(|k| {
            let node = *self.lookup().at_oid.get(&oid[..k])?;
            if self.is_root_label(node, k) {
                return None;
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

    /// `module<TAB>name<TAB>oid<TAB>kind<TAB>syntax` for every node, written to `out` as it
    /// goes (a whole corpus is never held as text).
    pub fn dump_tsv(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        for n in &self.resolved.nodes {
            writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}",
                self.set.modules[n.module()].smi.name,
                self.set.name(n),
                mib::dotted(&self.resolved.oid(n)),
                n.kind().as_str(),
                n.base_type().unwrap_or("")
            )?;
        }
        Ok(())
    }

    /// What did not compile, a line or more each: modules that failed (with their errors)
    /// and, with `files`, the files of the search path that yielded no module.
    pub fn failures(&self, files: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut reports: Vec<_> = self.resolved.reports.iter().filter(|r| !r.ok()).collect();
        reports.sort_by_key(|r| &self.set.modules[r.module].smi.name);
        for r in reports {
            let name = &self.set.modules[r.module].smi.name;
            let mut text = format!("{name}: FAILED, {} error(s)", r.errors.len());
            for e in &r.errors {
                let _ = write!(text, "\n{e}");
            }
            out.push(text);
        }
        if files {
            for u in self
                .set
                .files_without_modules()
                .into_iter()
                .filter(|u| !u.not_mib)
            {
                let mut text = format!("{}: FAILED, no module read", self.set.files[u.file].name);
                for d in u.diagnostics {
                    let _ = write!(text, "\n{d}");
                }
                out.push(text);
            }
        }
        out
    }

    /// Per-module OK/warnings/errors lines and a summary; whether every module compiled. With
    /// `files` (`--all`), the files that yielded no module are reported and counted too.
    pub fn check_report(&self, verbose: bool, files: bool) -> (String, bool) {
        let mut out = String::new();
        let (mut ok, mut warn, mut failed) = (0, 0, 0);
        let mut reports: Vec<_> = self.resolved.reports.iter().collect();
        reports.sort_by_key(|r| &self.set.modules[r.module].smi.name);
        for r in reports {
            let name = &self.set.modules[r.module].smi.name;
            if !r.ok() {
                failed += 1;
                let _ = writeln!(
                    out,
                    "{name}: FAILED, {} error(s), {} warning(s)",
                    r.errors.len(),
                    r.warnings.len()
                );
                for e in &r.errors {
                    let _ = writeln!(out, "{e}");
                }
            } else if !r.warnings.is_empty() {
                warn += 1;
                let _ = writeln!(out, "{name}: OK, {} warning(s)", r.warnings.len());
                if verbose {
                    for w in &r.warnings {
                        let _ = writeln!(
                            out,
                            "{}",
                            w.to_string().replacen(": error: ", ": warning: ", 1)
                        );
                    }
                }
            } else {
                ok += 1;
                let _ = writeln!(out, "{name}: OK");
            }
        }
        let (not_mib, unread): (Vec<_>, Vec<_>) = if files {
            self.set
                .files_without_modules()
                .into_iter()
                .partition(|u| u.not_mib)
        } else {
            (Vec::new(), Vec::new())
        };
        for u in &unread {
            let _ = writeln!(
                out,
                "{}: FAILED, no module read",
                self.set.files[u.file].name
            );
            for d in &u.diagnostics {
                let _ = writeln!(out, "{d}");
            }
        }
        if verbose {
            for u in &not_mib {
                let _ = writeln!(
                    out,
                    "{}",
                    u.diagnostics[0]
                        .to_string()
                        .replacen(": error: ", ": note: ", 1)
                );
            }
        }
        let files_note = if files {
            format!(
                "{} files ({} not MIB files), {} MIB files without a module; ",
                self.set.files.len(),
                not_mib.len(),
                unread.len()
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{files_note}{} modules: {ok} OK, {warn} OK with warnings, {failed} failed; {} nodes",
            ok + warn + failed,
            self.resolved.nodes.len()
        );
        (out, failed == 0 && unread.is_empty())
    }
}

/// Parses relaxation names for `--strict`.
pub fn relaxations(names: &[String]) -> Result<HashSet<Relaxation>, String> {
    Ok(Relaxation::parse_list(names)?.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-M a:b`, net-snmp's `-M +a` and `-M -a`, MIBDIRS's empty entries.
    #[test]
    fn directories_of_path_entries() {
        let dirs = |entries: &[&str]| {
            split_dirs(entries.iter().map(std::ffi::OsStr::new))
                .into_iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(dirs(&["a:b", "c:"]), ["a", "b", "c"]);
        assert_eq!(dirs(&["+a:b"]), ["a", "b"]);
        assert_eq!(dirs(&["-/x/y", "+"]), ["/x/y"]);
    }
}
