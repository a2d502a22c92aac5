//! Names at run time, as net-snmp's tools give them: a name or `MODULE::name.instance` to its
//! OID, an OID to `IF-MIB::ifDescr.3` (the instance read by its row's INDEX), the tree
//! around an OID, and how an object's values are shown (its SYNTAX through its
//! TEXTUAL-CONVENTIONs, DISPLAY-HINT, enumeration labels, UNITS: [`Presentation`]). Modules
//! are read from MIB directories and the built-in standard modules ([`Mibs::load`],
//! [`Mibs::load_chosen`] with net-snmp's `-M`/`-m`/`MIBDIRS`/`MIBS` rules in
//! [`MibChoice`]); an OID several modules define is named after the module net-snmp reads
//! first ([`precedence`]). snmp-client's `text` module prints bindings with these names.
//!
//! ```
//! use snmp_smi::names::{IndexStyle, Mibs};
//!
//! let mibs = Mibs::standard(); // the built-in modules: SNMPv2-MIB, IF-MIB, ...
//! let oid = mibs.name_to_oid("IF-MIB::ifDescr.3").unwrap();
//! assert_eq!(oid, [1, 3, 6, 1, 2, 1, 2, 2, 1, 2, 3]);
//! assert_eq!(mibs.name_to_oid("sysUpTime.0").unwrap(), [1, 3, 6, 1, 2, 1, 1, 3, 0]);
//! let name = mibs.oid_to_name(&[1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 6, 2], IndexStyle::Components);
//! assert_eq!(name.as_deref(), Some("IF-MIB::ifHCInOctets.2"));
//! let status = mibs.presentation(&[1, 3, 6, 1, 2, 1, 2, 2, 1, 8, 2]).unwrap();
//! assert!(status.enums.contains(&("up".to_string(), 1)));
//! ```

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::mib::ir::IndexPart;
use crate::mib::Presentation;
use crate::mib::{self, MibSet, Resolved};
use crate::mib::{Access, NodeKind, Relaxation};

mod choice;
mod index;
mod index_tables;
pub use crate::mib::precedence;
mod report;
mod to_name;
mod to_oid;
mod tree;

pub use choice::{modules_named, net_snmp_default_dirs, MibChoice};
pub use index::{read_instance, write_instance, IndexStyle};

/// When net-snmp links a node into its tree ([`Mibs::linked_when`]): the orphans it links once
/// it has read every module in the order it links them (0 for the others), the module's place
/// in the reading order, and the node's offset in its file, last written first.
pub type LinkedWhen = (u32, usize, std::cmp::Reverse<u32>);
use index_tables::{Lazy, NameTable, OidTable};

/// How much of each SYNTAX a load keeps ([`Mibs::load_chosen_keeping`]).
pub use crate::mib::Syntaxes;

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
    /// The MIB list that order is for (`None`: net-snmp's default list).
    list: Option<String>,
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

/// Without the input: `Unknown Object Identifier (why)`, or `Cannot find module (M)` with the
/// path searched ([`NameError::say`] puts the input in as net-snmp does).
impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameError::NoModule { module, path } => {
                write!(f, "Cannot find module ({module}) on the MIB path {path}")
            }
            NameError::Unknown(None) => f.write_str("Unknown Object Identifier"),
            NameError::Unknown(Some(why)) => write!(f, "Unknown Object Identifier ({why})"),
        }
    }
}

impl std::error::Error for NameError {}

/// Why modules could not be loaded: a MIB directory that cannot be read, or a module asked for
/// that no directory has (with the files there that yielded no module, which may be why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// Descriptor to nodes, and OID to node.
struct Lookup {
    by_name: NameTable,
    /// In OID order: exact lookups, the prefix lookups of every printed OID, the columns
    /// under an entry.
    by_oid: OidTable,
    /// Each node's presentation, worked out when first asked for (boxed: most nodes are
    /// never asked about).
    presentations: Lazy<Option<Box<Presentation>>>,
    /// Each row's INDEX (through AUGMENTS), worked out when first asked for; `None` for a
    /// node that is not a row or whose INDEX does not resolve.
    rows: Lazy<Option<Box<[IndexPart]>>>,
}

impl Mibs {
    /// Loads every module of `dirs` and resolves `modules` (all when empty).
    pub fn load(
        dirs: &[PathBuf],
        modules: &[String],
        strict: &HashSet<Relaxation>,
    ) -> Result<Mibs, LoadError> {
        Self::load_with_progress(dirs, modules, strict, &mut |_, _| {})
    }

    /// The built-in standard modules alone ([`crate::standard`]: SNMPv2-SMI, -TC, -MIB,
    /// IF-MIB, IP-MIB, HOST-RESOURCES-MIB, ...), resolved.
    pub fn standard() -> Mibs {
        Self::with_builtin(MibSet::default(), &HashSet::new())
    }

    /// Every module of `dirs`, then the built-in standard modules those do not define.
    pub fn load_everything(
        dirs: &[PathBuf],
        strict: &HashSet<Relaxation>,
    ) -> Result<Mibs, LoadError> {
        Self::load_everything_keeping(dirs, strict, Syntaxes::Whole)
    }

    fn load_everything_keeping(
        dirs: &[PathBuf],
        strict: &HashSet<Relaxation>,
        syntaxes: Syntaxes,
    ) -> Result<Mibs, LoadError> {
        let set = MibSet::load_keeping(dirs, syntaxes)
            .map_err(|e| LoadError(format!("reading the MIB directories: {e}")))?;
        Ok(Self::with_builtin(set, strict))
    }

    fn with_builtin(mut set: MibSet, strict: &HashSet<Relaxation>) -> Mibs {
        set.add_standard_modules();
        let resolved = mib::resolve(&set, &[], strict);
        Self::new(set, resolved)
    }

    /// What net-snmp's tools read with the path and list of `choice`,
    /// and the modules of `named` too (those of `MODULE::name` inputs): under `ALL` every
    /// module of the path and the built-in ones; otherwise the list's modules, those named,
    /// and what they import, from the path or else from the built-in modules. Modules that
    /// several define are named as net-snmp names them with this list.
    pub fn load_chosen(
        choice: &MibChoice,
        named: &[String],
        strict: &HashSet<Relaxation>,
    ) -> Result<Mibs, LoadError> {
        Self::load_chosen_keeping(choice, named, strict, Syntaxes::Whole)
    }

    /// [`Mibs::load_chosen`], keeping of each SYNTAX what `syntaxes` says: a tool that shows
    /// values (a walk, a trap) keeps [`Syntaxes::Heads`] and reads the whole SYNTAX of the
    /// objects it shows again, in a fraction of the memory a whole corpus's trees take.
    pub fn load_chosen_keeping(
        choice: &MibChoice,
        named: &[String],
        strict: &HashSet<Relaxation>,
        syntaxes: Syntaxes,
    ) -> Result<Mibs, LoadError> {
        let dirs = choice.dirs();
        let mut m = match choice.all() {
            true => Self::load_everything_keeping(&dirs, strict, syntaxes)?,
            false => {
                let mut wanted = choice.modules();
                wanted.extend(named.iter().cloned());
                let mut set = MibSet::load_needed_keeping(&dirs, &wanted, syntaxes)
                    .map_err(|e| LoadError(format!("reading the MIB directories: {e}")))?;
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
    ) -> Result<Mibs, LoadError> {
        let set = MibSet::load_with_progress(dirs, progress)
            .map_err(|e| LoadError(format!("reading the MIB directories: {e}")))?;
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
                return Err(LoadError(text));
            }
        }
        let resolved = mib::resolve(&set, modules, strict);
        Ok(Self::new(set, resolved))
    }

    fn new(mut set: MibSet, resolved: Resolved) -> Mibs {
        let read_order = precedence::read_order(&set, precedence::listed(None).as_deref());
        // Values and definitions shown as net-snmp's tools show them.
        set.reading = crate::mib::lower::Reading::NetSnmp;
        Mibs {
            set,
            resolved,
            read_order,
            list: None,
            lookup: std::sync::OnceLock::new(),
            search_path: None,
        }
    }

    /// Names OIDs that several modules define as net-snmp would with the MIB list `list`
    /// (`-m` or `MIBS` as written; `None`: net-snmp's default list).
    pub fn prefer(&mut self, list: Option<&str>) {
        self.read_order = precedence::read_order(&self.set, precedence::listed(list).as_deref());
        self.list = list.map(str::to_string);
        self.lookup = std::sync::OnceLock::new();
    }

    /// What net-snmp's parser does as it reads these modules with the MIB list of
    /// [`Mibs::prefer`], step by step ([`precedence::reading`]).
    pub fn reading(&self, step: impl FnMut(precedence::Step)) {
        let listed = precedence::listed(self.list.as_deref());
        precedence::reading(&self.set, listed.as_deref(), step);
    }

    /// Module `module`'s place (0 first) in the order net-snmp's tools read the modules
    /// ([`precedence::read_order`]): the order in which they parse TEXTUAL-CONVENTIONs and link
    /// nodes into their tree.
    pub fn read_rank(&self, module: usize) -> usize {
        self.read_order[module]
    }

    /// When net-snmp links node `node` (of [`Resolved::nodes`](crate::mib::Resolved)) into
    /// its tree, as a key that sorts the nodes in that order: module by module as it reads
    /// them, a module's last written first (it files a module's nodes by pushing each on a
    /// list), and the orphans it links once it has read every module after all the others.
    pub fn linked_when(&self, node: usize) -> LinkedWhen {
        let n = &self.resolved.nodes[node];
        (
            self.resolved.linked_late(n).map_or(0, |k| k + 1),
            self.read_order[n.module()],
            std::cmp::Reverse(self.set.node(n).offset),
        )
    }

    fn lookup(&self) -> &Lookup {
        self.lookup.get_or_init(|| {
            // Nodes in the order net-snmp links them into its tree. (One list, reversed for
            // the second table: building these is when a session's memory peaks.)
            let mut nodes: Vec<u32> = (0..self.resolved.nodes.len() as u32).collect();
            // An OID several nodes are at is named by the one net-snmp links first: of the
            // module it reads first, the last written (it files a module's nodes by pushing
            // each on a list), a label inside an OID value as much as an assignment; the
            // orphans it links once it has read every module come after all the others.
            nodes.sort_by_key(|&i| self.linked_when(i as usize));
            let by_oid = OidTable::build(&nodes, |i, out| {
                self.resolved.oid_into(&self.resolved.nodes[i], out)
            });
            // A name alone (`-IR`, an INDEX item) is looked up in net-snmp's table of names,
            // which files each node of its tree at the head of its name's list: of the nodes
            // of one name, the one made last (PIM-MIB's pimNeighborAddress under `-m ALL`,
            // not PIM-STD-MIB's, which it reads first). Modules that define one name at one
            // OID share one node, made by the first of them (IF-MIB's ifIndex, not
            // RFC1213-MIB's).
            let mut by_name = NameTable::build(&nodes, |i| self.label(i));
            drop(nodes);
            by_name.reorder_runs(|i| self.label(i), |run| self.last_made_first(run));
            let n = self.resolved.nodes.len();
            Lookup {
                by_name,
                by_oid,
                presentations: Lazy::new(n),
                rows: Lazy::new(n),
            }
        })
    }

    /// `run`, nodes of one name in the order net-snmp links them, reordered as its table of
    /// names lists them: the nodes at one OID as one (in link order), those made last first.
    fn last_made_first(&self, run: &mut [u32]) {
        let oids: Vec<Vec<u32>> = run
            .iter()
            .map(|&n| self.resolved.oid(&self.resolved.nodes[n as usize]))
            .collect();
        // Each node's group: the place of the first node at its OID.
        let group: Vec<usize> = (0..run.len())
            .map(|i| oids.iter().position(|o| *o == oids[i]).unwrap_or(i))
            .collect();
        let mut order: Vec<usize> = (0..run.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(group[i]), i));
        // A node under another of its name (a module that defines the name twice, the second
        // below the first) is made after it, whatever the order the two are written in.
        let below =
            |a: usize, b: usize| oids[a].len() > oids[b].len() && oids[a].starts_with(&oids[b]);
        for _ in 0..run.len() * run.len() {
            let Some((x, y)) = (0..order.len())
                .flat_map(|x| (x + 1..order.len()).map(move |y| (x, y)))
                .find(|&(x, y)| below(order[y], order[x]))
            else {
                break;
            };
            let moved = order.remove(y);
            order.insert(x, moved);
        }
        let nodes: Vec<u32> = order.iter().map(|&i| run[i]).collect();
        run.copy_from_slice(&nodes);
        // Of a module that defines the name twice, the definition its parser links last
        // (`SmiModule::linked`) is filed before the module's others.
        let mut k = 0;
        while k < run.len() {
            let n = self.resolved.nodes[run[k] as usize];
            let smi = &self.set.modules[n.module()].smi;
            let name = smi.nodes[n.index()].name;
            let last = smi
                .linked
                .iter()
                .find(|l| l.0 == name)
                .map(|l| l.2 as usize);
            let at = last.and_then(|last| {
                (k..run.len()).find(|&j| {
                    let x = self.resolved.nodes[run[j] as usize];
                    x.module() == n.module() && x.index() == last
                })
            });
            if let Some(j) = at {
                run[k..=j].rotate_right(1);
            }
            // Past this module's nodes of the name.
            k += 1;
            while k < run.len() && self.resolved.nodes[run[k] as usize].module() == n.module() {
                k += 1;
            }
        }
    }

    /// The name of the module that defines `node`.
    pub fn module_of(&self, node: usize) -> &str {
        self.module_name(node)
    }

    fn module_name(&self, node: usize) -> &str {
        &self.set.modules[self.resolved.nodes[node].module()]
            .smi
            .name
    }

    /// A node's definition as its module writes it.
    pub fn written(&self, node: usize) -> &crate::mib::Node {
        self.set.node(&self.resolved.nodes[node])
    }

    /// The nodes whose descriptor is `name`, in the order net-snmp reads their modules.
    fn named(&self, name: &str) -> impl Iterator<Item = usize> + '_ {
        let nodes = self.lookup().by_name.get(name, |n| self.label(n));
        nodes.iter().map(|&n| n as usize)
    }

    /// A node's descriptor.
    pub fn label(&self, node: usize) -> &str {
        self.set.name(&self.resolved.nodes[node])
    }

    /// The name of the node `oid` (or of its root), as the tree names it.
    pub fn label_at(&self, oid: &[u32]) -> Option<&str> {
        match oid {
            [root] => ROOTS.get(usize::try_from(*root).ok()?).copied(),
            _ => Some(self.label(self.lookup().by_oid.get(oid)?)),
        }
    }

    /// A name written in `node`'s module (an INDEX item, an OBJECTS member).
    pub fn name_in(&self, node: usize, name: crate::mib::tree::Name) -> &str {
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
        for n in self.named(self.label(node)) {
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
    pub fn syntax(&self, node: usize) -> Option<crate::mib::ir::Syntax> {
        let n = &self.resolved.nodes[node];
        let ty = self.set.node_syntax(n.module(), n.index())?;
        Some(crate::mib::lower::syntax(&self.set, n.module(), ty))
    }

    /// What a tool says when it loads its MIBs, as net-snmp's do and then some: nothing is
    /// left out in silence. The path (`MIB search path: ...`), then a line for each module of
    /// `modules` (the MIB list) that is not on it (`Cannot find module (X): At line 1 in
    /// (none)`, net-snmp's words), then a line for each module that was read but cannot be
    /// used (a missing import, a parse error), with its first error and how many more it
    /// has; the tool goes on without them. `None` when every module was read and compiled.
    ///
    /// ```
    /// use snmp_smi::names::{MibChoice, Mibs};
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::write(
    ///     dir.path().join("BROKEN-MIB.txt"),
    ///     "BROKEN-MIB DEFINITIONS ::= BEGIN\nIMPORTS x FROM NOWHERE-MIB;\nEND\n",
    /// )?;
    /// let choice = MibChoice::new(&[dir.path().into()], Some("BROKEN-MIB:ABSENT-MIB"));
    /// let mibs = Mibs::load_chosen(&choice, &[], &Default::default())?;
    /// let said = mibs.load_problems(&choice.modules()).unwrap();
    /// assert!(said.contains("Cannot find module (ABSENT-MIB): At line 1 in (none)"));
    /// assert!(said.contains("BROKEN-MIB: not loaded: "));
    /// assert!(said.contains("NOWHERE-MIB"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_problems(&self, modules: &[String]) -> Option<String> {
        let mut text = format!("MIB search path: {}", self.path());
        let mut any = false;
        for m in modules
            .iter()
            .filter(|m| !self.set.by_name.contains_key(m.as_str()))
        {
            let _ = write!(text, "\nCannot find module ({m}): At line 1 in (none)");
            any = true;
        }
        let mut failed: Vec<_> = self.resolved.reports.iter().filter(|r| !r.ok()).collect();
        failed.sort_by_key(|r| &self.set.modules[r.module].smi.name);
        for r in failed {
            let Some(e) = r.errors.first() else {
                continue;
            };
            let name = &self.set.modules[r.module].smi.name;
            let _ = write!(
                text,
                "\n{name}: not loaded: {}:{}:{}: {}",
                e.file, e.line, e.column, e.message
            );
            if r.errors.len() > 1 {
                let _ = write!(text, " (and {} more errors)", r.errors.len() - 1);
            }
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

    /// How the values of the object `oid` is an instance of are shown (its syntax through
    /// its TEXTUAL-CONVENTIONs, its UNITS): the nearest node above or at `oid`, when it is
    /// an object with a SYNTAX.
    pub fn presentation(&self, oid: &[u32]) -> Option<&Presentation> {
        let node = (1..=oid.len())
            .rev()
            .find_map(|k| self.lookup().by_oid.get(&oid[..k]))?;
        self.lookup()
            .presentations
            .get_or_init(node, || {
                let n = &self.resolved.nodes[node];
                crate::mib::presentation(&self.set, n.module(), n.index()).map(Box::new)
            })
            .as_deref()
    }
}

impl Mibs {
    /// The INDEX an instance of `column` (its OID, no instance) follows: that of the
    /// conceptual row it is a column of, through AUGMENTS (or an object's own INDEX, where a
    /// module gives one to an object with nothing below it); `None` when `column` is no such
    /// object or the INDEX does not resolve.
    ///
    /// ```
    /// let mibs = snmp_smi::names::Mibs::standard();
    /// let if_descr = mibs.name_to_oid("IF-MIB::ifDescr").unwrap();
    /// let index = mibs.column_index(&if_descr).unwrap();
    /// assert_eq!(index[0].name, "ifIndex");
    /// ```
    pub fn column_index(&self, column: &[u32]) -> Option<&[IndexPart]> {
        let node = self.lookup().by_oid.get(column)?;
        self.instance_index(node, column)
            .filter(|(_, row)| !row)
            .map(|(index, _)| index)
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
