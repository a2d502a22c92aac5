//! Loading MIB modules: the files of a search path read and parsed on worker threads, each
//! module registered by name (whatever its file is called), the standard modules built into
//! the generator added where the path has none, and what could not be read reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use crate::asn1::ast::Type;

use super::names::NameTable;
use super::*;
use crate::diag::Diagnostic;

/// A file read from the search path.
///
/// Its text is not kept once parsed (a corpus's text is mostly DESCRIPTION prose, and holding
/// it all would more than double the memory a load takes): diagnostics and descriptions read
/// the file again, through [`MibFile::text`].
#[derive(Debug, Clone)]
pub struct MibFile {
    /// As shown in diagnostics.
    pub name: String,
    /// Where it was read from (the name, for text added by [`MibSet::add_text`]).
    pub path: PathBuf,
    /// The text of files added by [`MibSet::add_text`], which have no file to read again.
    kept: Option<String>,
    /// Its place on the search path (files added as text come after every file).
    rank: usize,
}

impl MibFile {
    /// Whether it was read from a file (not added as text, as the built-in standard modules
    /// are).
    pub fn on_disk(&self) -> bool {
        self.kept.is_none()
    }

    /// The file's text, as it was parsed: read again from `path` (decoded the same way), or
    /// the text given to [`MibSet::add_text`].
    pub fn text(&self) -> std::io::Result<std::borrow::Cow<'_, str>> {
        match &self.kept {
            Some(t) => Ok(std::borrow::Cow::Borrowed(t)),
            None => read_text(&self.path).map(std::borrow::Cow::Owned),
        }
    }
}

/// Modules an RFC made obsolete, and the module that took their place: an import of the old
/// name is read from the new one when only that is on the search path (net-snmp reads them so).
pub const SUCCESSORS: &[(&str, &str)] = &[
    ("RFC1065-SMI", "RFC1155-SMI"),
    ("RFC1066-MIB", "RFC1156-MIB"),
    ("RFC1156-MIB", "RFC1213-MIB"),
    ("RFC1158-MIB", "RFC1213-MIB"),
    ("RFC1271-MIB", "RMON-MIB"),
    ("RFC1286-MIB", "BRIDGE-MIB"),
    ("RFC1315-MIB", "FRAME-RELAY-DTE-MIB"),
];

/// A file of the search path that yielded no module ([`MibSet::files_without_modules`]).
#[derive(Debug, Clone)]
pub struct UnreadFile {
    /// Index in [`MibSet::files`].
    pub file: usize,
    /// No MIB file at all (no `DEFINITIONS`): not a failure.
    pub not_mib: bool,
    /// Why it yielded no module (at least one).
    pub diagnostics: Vec<Diagnostic>,
}

/// A MIB file's text. Some vendor files are Latin-1: those are decoded lossily.
pub(crate) fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The regular files of `dirs` (not recursively; through symlinks), each directory's in name
/// order, with their sizes.
pub(crate) fn list_files(dirs: &[PathBuf]) -> std::io::Result<Vec<(PathBuf, u64)>> {
    let mut all = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| {
            std::io::Error::new(e.kind(), format!("MIB directory {}: {e}", dir.display()))
        })?;
        let mut files: Vec<(PathBuf, u64)> = entries
            .filter_map(|e| {
                let path = e.ok()?.path();
                let meta = std::fs::metadata(&path).ok()?;
                meta.is_file().then_some((path, meta.len()))
            })
            .collect();
        files.sort();
        all.extend(files);
    }
    Ok(all)
}

/// A file read and parsed, not yet registered in a [`MibSet`].
pub(crate) struct ParsedFile {
    pub(crate) name: String,
    pub(crate) path: PathBuf,
    pub(crate) kept: Option<String>,
    /// Its place on the search path: of two files that define one module, the later one's
    /// is read ([`MibSet::register`]).
    pub(crate) rank: usize,
    /// The modules, each with its node and type name tables (built on the parsing thread).
    pub(crate) modules: Vec<(SmiModule, NameTable, NameTable)>,
    pub(crate) rest: Vec<Finding>,
}

/// A file's modules with their name tables: node name -> index, type name -> index.
pub(crate) fn indexed(modules: Vec<SmiModule>) -> Vec<(SmiModule, NameTable, NameTable)> {
    modules
        .into_iter()
        .map(|m| {
            let mut nodes = NameTable::new(m.nodes.iter().map(|n| m.name(n.name)));
            // A descriptor defined twice means, to the modules that import it, the definition
            // net-snmp links last.
            for &(name, _, last) in &m.linked {
                nodes.set(m.name(name), last as usize, |i| m.node_name(i));
            }
            let types = NameTable::new(m.types.iter().map(|t| t.name.as_str()));
            (m, nodes, types)
        })
        .collect()
}

/// A parsed module and the file it came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The module.
    pub smi: SmiModule,
    /// Index into [`MibSet::files`].
    pub file: usize,
    /// Index into [`MibSet::files`] of the first file found to define it: where net-snmp lists
    /// the module among those it reads (a later file's copy, the one read, takes the first's
    /// place in that list).
    pub listed: usize,
}

/// Every module found on a search path, parsed and indexed by name.
#[derive(Debug, Default)]
pub struct MibSet {
    /// The directories searched.
    pub dirs: Vec<PathBuf>,
    /// The files read.
    pub files: Vec<MibFile>,
    /// The modules, in the order found.
    pub modules: Vec<Loaded>,
    /// Module name -> index in `modules`.
    pub by_name: HashMap<String, usize, std::hash::BuildHasherDefault<NameHasher>>,
    /// Problems with files that yielded no module.
    pub file_findings: Vec<(usize, Finding)>,
    /// Per module: node name to index in its `nodes`.
    pub(crate) node_index: Vec<NameTable>,
    /// Per module: type name to index in its `types`.
    pub(crate) type_index: Vec<NameTable>,
    /// How much of each SYNTAX the modules keep.
    pub syntaxes: Syntaxes,
    /// How [`super::lower::syntax`] reads what RFC 2579 leaves open.
    pub reading: super::lower::Reading,
    /// Under [`Syntaxes::Heads`], the whole SYNTAX trees of the modules asked about, read
    /// again from their files.
    pub(crate) whole: WholeSyntaxes,
}

/// The whole SYNTAX trees of one module, read again from its file ([`MibSet::node_syntax`]).
#[derive(Debug)]
pub(crate) struct Whole {
    nodes: Vec<Option<Arc<Type>>>,
    types: Vec<Arc<Type>>,
}

/// A module's [`Whole`] trees once read, or why they could not be.
type ReadAgain = OnceLock<Result<Whole, String>>;

/// Per module, its [`ReadAgain`].
#[derive(Debug, Default)]
pub(crate) struct WholeSyntaxes(OnceLock<Box<[ReadAgain]>>);

impl MibSet {
    /// Reads every regular file of every directory (not recursively), in name order, and parses
    /// the modules in them. Of two files on the path that define one module, the later one's
    /// is read, in the first one's place among the modules, as net-snmp's module list keeps
    /// a name where it was first found with the last file found for it; the other copy is
    /// reported.
    ///
    /// ```no_run
    /// use std::collections::HashSet;
    /// use snmp_smi::mib::{resolve, MibSet};
    ///
    /// # fn main() -> std::io::Result<()> {
    /// let set = MibSet::load(&["/usr/share/snmp/mibs".into()])?;
    /// let resolved = resolve(&set, &["IF-MIB".into()], &HashSet::new());
    /// for report in resolved.reports.iter().filter(|r| !r.ok()) {
    ///     report.errors.iter().for_each(|e| eprintln!("{e}"));
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn load(dirs: &[PathBuf]) -> std::io::Result<MibSet> {
        Self::load_with_progress(dirs, &mut |_, _| {})
    }

    /// [`MibSet::load`], keeping of each SYNTAX what `syntaxes` says.
    pub fn load_keeping(dirs: &[PathBuf], syntaxes: Syntaxes) -> std::io::Result<MibSet> {
        Self::load_with(dirs, syntaxes, &mut |_, _| {})
    }

    /// [`MibSet::load`], calling `progress(files done, files in all)` after each file (for a
    /// progress bar).
    pub fn load_with_progress(
        dirs: &[PathBuf],
        progress: &mut dyn FnMut(usize, usize),
    ) -> std::io::Result<MibSet> {
        Self::load_with(dirs, Syntaxes::Whole, progress)
    }

    fn load_with(
        dirs: &[PathBuf],
        syntaxes: Syntaxes,
        progress: &mut dyn FnMut(usize, usize),
    ) -> std::io::Result<MibSet> {
        let mut set = MibSet {
            dirs: dirs.to_vec(),
            syntaxes,
            ..Default::default()
        };
        let (all, sizes): (Vec<PathBuf>, Vec<u64>) = list_files(dirs)?.into_iter().unzip();
        progress(0, all.len());
        // The largest files are parsed first, so that no thread is left with a large one at
        // the end while the others wait.
        let mut queue: Vec<usize> = (0..all.len()).collect();
        queue.sort_by_key(|&k| std::cmp::Reverse(sizes[k]));
        // Files are read and parsed on every core; modules are registered in path order, so
        // the last file's copy of a module is read whatever the threads' timing.
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8)
            .min(all.len().max(1));
        let next = std::sync::atomic::AtomicUsize::new(0);
        let next_file = || queue.get(next.fetch_add(1, Ordering::Relaxed)).copied();
        // Each thread keeps its own scratch (token buffer, SYNTAX heads) from file to file.
        let parse_one = |k: usize, scratch: &mut super::parse::Scratch| {
            let path = &all[k];
            read_text(path).map(|text| {
                let (modules, rest) = super::parse::parse_file_in(&text, syntaxes, scratch);
                ParsedFile {
                    name: path.display().to_string(),
                    path: path.clone(),
                    kept: None,
                    rank: k,
                    modules: indexed(modules),
                    rest,
                }
            })
        };
        let mut pending: Vec<Option<ParsedFile>> = (0..all.len()).map(|_| None).collect();
        let mut registered = 0;
        let mut failure = None;
        // A file parsed (by any thread) is kept until those before it are registered.
        let mut take = |k: usize, parsed: std::io::Result<ParsedFile>| {
            match parsed {
                Ok(p) => pending[k] = Some(p),
                Err(e) => {
                    // Stop the threads at their next file; report the first failure.
                    next.store(all.len(), Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
            }
            while let Some(p) = pending.get_mut(registered).and_then(Option::take) {
                set.register(p);
                registered += 1;
                progress(registered, all.len());
            }
        };
        let (tx, rx) = std::sync::mpsc::channel::<(usize, std::io::Result<ParsedFile>)>();
        std::thread::scope(|scope| {
            // This thread parses too (one thread fewer to start, and what it parses stays
            // with what it builds next), taking in the others' files between its own.
            for worker in 1..threads {
                let tx = tx.clone();
                let (next_file, parse_one) = (&next_file, &parse_one);
                super::spread::spawn(scope, worker, move || {
                    let mut scratch = super::parse::Scratch::default();
                    while let Some(k) = next_file() {
                        if tx.send((k, parse_one(k, &mut scratch))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut scratch = super::parse::Scratch::default();
            while let Some(k) = next_file() {
                take(k, parse_one(k, &mut scratch));
                while let Ok((k, parsed)) = rx.try_recv() {
                    take(k, parsed);
                }
            }
            for (k, parsed) in rx {
                take(k, parsed);
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        set.add_successors();
        Ok(set)
    }

    /// Makes each obsolete module name of [`SUCCESSORS`] that is not on the search path stand
    /// for its successor when that one is (as net-snmp does); importers are warned
    /// ([`Relaxation::SuccessorModule`]).
    pub(crate) fn add_successors(&mut self) {
        for (old, new) in SUCCESSORS {
            if self.by_name.contains_key(*old) {
                continue;
            }
            if let Some(&t) = self.by_name.get(*new) {
                self.by_name.insert((*old).to_string(), t);
            }
        }
    }

    /// Adds the standard modules built into the generator ([`crate::standard::MODULES`]) that
    /// no file on the search path defines, each as the file `(built-in) NAME`.
    pub fn add_standard_modules(&mut self) {
        for (name, text) in crate::standard::MODULES {
            if !self.by_name.contains_key(name) {
                self.add_text(format!("(built-in) {name}"), text.to_string());
            }
        }
    }

    /// Adds the standard modules built into the generator that `wanted` names or that the
    /// modules read so far import, directly or through each other, and no file on the search
    /// path defines: the built-in modules as a last directory of the path, read only when a
    /// module is needed (as [`MibSet::load_needed`] reads files).
    pub fn add_standard_modules_needed(&mut self, wanted: &[String]) {
        loop {
            let imported = self.modules.iter().flat_map(|m| &m.smi.imports);
            let mut needed: Vec<&str> = wanted.iter().map(String::as_str).collect();
            needed.extend(imported.map(|i| i.module.as_str()));
            let missing: Vec<(&str, &str)> = crate::standard::MODULES
                .iter()
                .filter(|(name, _)| !self.by_name.contains_key(*name) && needed.contains(name))
                .copied()
                .collect();
            if missing.is_empty() {
                return;
            }
            for (name, text) in missing {
                self.add_text(format!("(built-in) {name}"), text.to_string());
            }
        }
    }

    /// Adds a file's text (for tests and tools); the text is kept for diagnostics.
    pub fn add_text(&mut self, name: String, text: String) {
        let (modules, rest) = super::parse_file_with(&text, self.syntaxes);
        self.register(ParsedFile {
            path: PathBuf::from(&name),
            name,
            kept: Some(text),
            rank: usize::MAX,
            modules: indexed(modules),
            rest,
        });
    }

    /// Adds a parsed file's modules. A module already read from another file: the copy of
    /// the file later on the search path is kept, where the module was first found (see
    /// [`MibSet::load`]), and the other is reported in its own file.
    pub(crate) fn register(&mut self, parsed: ParsedFile) {
        let ParsedFile {
            name,
            path,
            kept,
            rank,
            modules,
            rest,
        } = parsed;
        let file = self.files.len();
        self.files.push(MibFile {
            name,
            path,
            kept,
            rank,
        });
        // Sized for the modules there were.
        self.whole = WholeSyntaxes::default();
        for f in rest {
            self.file_findings.push((file, f));
        }
        for (m, nodes, types) in modules {
            if let Some(&k) = self.by_name.get(&m.name) {
                let earlier = self.modules[k].file;
                let (kept_file, unread_file, unread_offset) = if rank >= self.files[earlier].rank {
                    let unread_offset = self.modules[k].smi.offset;
                    self.node_index[k] = nodes;
                    self.type_index[k] = types;
                    let listed = self.modules[k].listed;
                    self.modules[k] = Loaded {
                        smi: m,
                        file,
                        listed,
                    };
                    (file, earlier, unread_offset)
                } else {
                    (earlier, file, m.offset)
                };
                let f = Finding {
                    offset: unread_offset,
                    message: format!(
                        "module {} is also defined in {}, later on the search path, whose copy is read (as net-snmp reads the last)",
                        self.modules[k].smi.name, self.files[kept_file].name
                    ),
                    relaxation: Some(Relaxation::DuplicateModule),
                };
                self.file_findings.push((unread_file, f));
                continue;
            }
            self.by_name.insert(m.name.clone(), self.modules.len());
            self.node_index.push(nodes);
            self.type_index.push(types);
            self.modules.push(Loaded {
                smi: m,
                file,
                listed: file,
            });
        }
    }

    /// Where node (`types` false) or type (`types` true) `name`, as used in module `m`, is
    /// defined: `m` itself, the module IMPORTS names (followed through re-exports, at most
    /// [`MAX_IMPORT_HOPS`] of them, so import cycles end), or else the SMI base modules.
    /// Returns (module, index in its `nodes` or `types`).
    pub fn find(&self, m: usize, name: &str, types: bool) -> Option<(usize, usize)> {
        match self.find_via(m, name, types)? {
            (_, _, Via::MissingModule) => None,
            (t, i, _) => Some((t, i)),
        }
    }

    /// [`MibSet::find`], saying how the name was reached: the one walk of the import chain
    /// behind both the generator's lookups and the resolver's (which also takes a missing
    /// module's symbols from the base modules, and warns about unimported ones).
    pub(crate) fn find_via(
        &self,
        m: usize,
        name: &str,
        types: bool,
    ) -> Option<(usize, usize, Via)> {
        let at = |t: usize| {
            if types {
                self.type_at(t, name)
            } else {
                self.node_at(t, name)
            }
        };
        let base = || {
            BASE_MODULES.iter().find_map(|b| {
                let t = *self.by_name.get(*b)?;
                at(t).map(|i| (t, i, *b))
            })
        };
        let mut cur = m;
        for hop in 0..=MAX_IMPORT_HOPS {
            if let Some(i) = at(cur) {
                return Some((cur, i, Via::Found));
            }
            let imp = self.modules[cur].smi.imports.iter().find(|i| {
                let smi = &self.modules[cur].smi;
                i.symbols.iter().any(|&s| smi.name(s) == name)
            });
            match imp {
                Some(imp) => match self.by_name.get(&imp.module) {
                    Some(&t) => cur = t,
                    None => return base().map(|(t, i, _)| (t, i, Via::MissingModule)),
                },
                None if hop == 0 => return base().map(|(t, i, b)| (t, i, Via::Unimported(b))),
                None => return base().map(|(t, i, _)| (t, i, Via::ChainEnd)),
            }
        }
        None
    }

    /// The SYNTAX of node `i` of module `m` as written, whole: under [`Syntaxes::Heads`] read
    /// again from the module's file the first time one of its nodes or types is asked about
    /// (the head, when the file no longer reads the same).
    pub fn node_syntax(&self, m: usize, i: usize) -> Option<&Type> {
        let head = self.modules[m].smi.nodes[i].syntax.as_deref()?;
        match self.whole(m) {
            Some(w) => w.nodes.get(i)?.as_deref().or(Some(head)),
            None => Some(head),
        }
    }

    /// The SYNTAX of type assignment `i` of module `m`, whole ([`MibSet::node_syntax`]).
    pub fn type_syntax(&self, m: usize, i: usize) -> &Type {
        let head = &self.modules[m].smi.types[i].syntax;
        self.whole(m).and_then(|w| w.types.get(i)).unwrap_or(head)
    }

    /// Module `m`'s whole trees under [`Syntaxes::Heads`], read once.
    fn whole(&self, m: usize) -> Option<&Whole> {
        if self.syntaxes == Syntaxes::Whole {
            return None;
        }
        let modules = self.whole.0.get_or_init(|| {
            std::iter::repeat_with(OnceLock::new)
                .take(self.modules.len())
                .collect()
        });
        modules
            .get(m)?
            .get_or_init(|| self.read_whole(m))
            .as_ref()
            .ok()
    }

    /// Module `m` parsed again from its file, whole: its nodes' and types' SYNTAX trees, when
    /// it still defines as many of each.
    fn read_whole(&self, m: usize) -> Result<Whole, String> {
        let loaded = &self.modules[m];
        let file = &self.files[loaded.file];
        let text = file
            .text()
            .map_err(|e| format!("{} cannot be read again: {e}", file.name))?;
        let (modules, _) = super::parse_file_with(&text, Syntaxes::Whole);
        let again = modules
            .into_iter()
            .find(|x| x.name == loaded.smi.name)
            .filter(|again| {
                again.nodes.len() == loaded.smi.nodes.len()
                    && again.types.len() == loaded.smi.types.len()
            })
            .ok_or_else(|| format!("{} changed since it was loaded", file.name))?;
        Ok(Whole {
            nodes: again.nodes.into_iter().map(|n| n.syntax).collect(),
            types: again.types.into_iter().map(|t| t.syntax).collect(),
        })
    }

    /// Under [`Syntaxes::Heads`], the modules whose whole SYNTAX could not be read again when
    /// asked for, and why: their objects' values were shown from the SYNTAX's head alone
    /// (without labels, hints or ranges).
    pub fn syntaxes_unread(&self) -> Vec<String> {
        let Some(modules) = self.whole.0.get() else {
            return Vec::new();
        };
        modules
            .iter()
            .zip(&self.modules)
            .filter_map(|(w, m)| match w.get() {
                Some(Err(why)) => Some(format!(
                    "module {}: {why}; its objects' values are shown without their labels, hints and ranges",
                    m.smi.name
                )),
                _ => None,
            })
            .collect()
    }

    /// The parsed node a resolved node is (its descriptor, SYNTAX, clauses). `node` comes from
    /// resolving this set.
    pub fn node(&self, node: &MibNode) -> &super::Node {
        &self.modules[node.module()].smi.nodes[node.index()]
    }

    /// The descriptor of a resolved node. `node` comes from resolving this set.
    pub fn name(&self, node: &MibNode) -> &str {
        self.modules[node.module()].smi.node_name(node.index())
    }

    /// The index of node `name` among module `m`'s own nodes.
    pub fn node_at(&self, m: usize, name: &str) -> Option<usize> {
        let smi = &self.modules[m].smi;
        self.node_index[m].get(name, |i| smi.node_name(i))
    }

    /// The index of type `name` among module `m`'s own type assignments.
    pub fn type_at(&self, m: usize, name: &str) -> Option<usize> {
        let types = &self.modules[m].smi.types;
        self.type_index[m].get(name, |i| types[i].name.as_str())
    }

    /// The search path for messages: the directories, the first three and a count of the rest.
    pub fn search_path(&self) -> String {
        let dirs: Vec<String> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        if dirs.len() <= 3 {
            dirs.join(", ")
        } else {
            format!(
                "{} and {} more directories",
                dirs[..3].join(", "),
                dirs.len() - 3
            )
        }
    }

    /// The files that yielded no module, each with why: what failed to parse (file, line and
    /// column), or that it is no MIB file at all (no `DEFINITIONS` in it: a README, say); a
    /// file whose only modules are copies of modules found earlier is not among them (its
    /// copies are reported as duplicates).
    pub fn files_without_modules(&self) -> Vec<UnreadFile> {
        let mut has_module = vec![false; self.files.len()];
        for m in &self.modules {
            has_module[m.file] = true;
        }
        let mut findings: Vec<Vec<&Finding>> = vec![Vec::new(); self.files.len()];
        for (file, f) in &self.file_findings {
            findings[*file].push(f);
        }
        let mut out = Vec::new();
        for (file, found) in findings.into_iter().enumerate() {
            let duplicates_only = !found.is_empty()
                && found
                    .iter()
                    .all(|f| f.relaxation == Some(Relaxation::DuplicateModule));
            if has_module[file] || duplicates_only {
                continue;
            }
            let f = &self.files[file];
            let (not_mib, diagnostics) = match f.text() {
                Ok(text) if !text.contains("DEFINITIONS") => (
                    true,
                    vec![Diagnostic::file(
                        &f.name,
                        "not a MIB file: no DEFINITIONS in it",
                    )],
                ),
                Ok(text) => (
                    false,
                    found
                        .iter()
                        .map(|x| Diagnostic::at(&f.name, &text, x.offset, x.message.clone()))
                        .collect(),
                ),
                Err(e) => (
                    false,
                    vec![Diagnostic::file(&f.name, format!("cannot be read: {e}"))],
                ),
            };
            out.push(UnreadFile {
                file,
                not_mib,
                diagnostics,
            });
        }
        out
    }

    /// Why the file named like module `module` (its name, with any extension) yielded no
    /// module, when one did not: its first finding, as `file:line:column: message`. For the
    /// error of an import that no module answers: the file is there, it failed to parse.
    pub fn unread_file_named(&self, module: &str) -> Option<String> {
        let file = self.files.iter().position(|f| {
            f.on_disk() && f.path.file_stem().and_then(|s| s.to_str()) == Some(module)
        })?;
        if self.modules.iter().any(|m| m.file == file) {
            return None;
        }
        let (_, first) = self.file_findings.iter().find(|(f, _)| *f == file)?;
        let f = &self.files[file];
        let text = f.text().ok()?;
        let d = Diagnostic::at(&f.name, &text, first.offset, first.message.clone());
        Some(format!("{}:{}:{}: {}", d.file, d.line, d.column, d.message))
    }

    /// A diagnostic at `offset` of module `m`'s file (which is read again for it).
    pub fn diag(&self, m: usize, offset: usize, message: impl Into<String>) -> Diagnostic {
        let mut one = self.diags(vec![(m, offset, message.into())]);
        one.pop().expect("one diagnostic per item")
    }

    /// Diagnostics for `(module, offset, message)` items, in their order, reading each file
    /// they point into once. A file that cannot be read again gives a diagnostic with the
    /// byte offset instead of line and column.
    pub fn diags(&self, items: Vec<(usize, usize, String)>) -> Vec<Diagnostic> {
        let mut by_file: Vec<usize> = (0..items.len()).collect();
        by_file.sort_by_key(|&k| self.modules[items[k].0].file);
        let mut out: Vec<Option<Diagnostic>> = vec![None; items.len()];
        let mut k = 0;
        while k < by_file.len() {
            let file = self.modules[items[by_file[k]].0].file;
            let f = &self.files[file];
            let text = f.text();
            while let Some(&i) = by_file.get(k) {
                let (m, offset, message) = &items[i];
                if self.modules[*m].file != file {
                    break;
                }
                out[i] = Some(match &text {
                    Ok(t) => Diagnostic::at(&f.name, t, *offset, message.clone()),
                    Err(e) => Diagnostic::file(
                        &f.name,
                        format!(
                            "{message} (at byte {offset}; the file could not be read again: {e})"
                        ),
                    ),
                });
                k += 1;
            }
        }
        out.into_iter().flatten().collect()
    }
}
