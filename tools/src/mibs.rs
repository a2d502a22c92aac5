//! `snmpc mib check`, `snmpc mib dump` and `snmpc translate`: the MIB compiler's front-end and
//! resolver as tools.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use snmp_codegen::mib::Presentation;
use snmp_codegen::mib::{self, MibSet, Resolved};
use snmp_codegen::mib::{Access, NodeKind, Relaxation};

/// Loaded and resolved modules, with a name and OID registry built on first use (check and
/// dump never look anything up, so they never pay for it).
pub struct Mibs {
    /// What was read.
    pub set: MibSet,
    /// What it resolved to.
    pub resolved: Resolved,
    lookup: std::sync::OnceLock<Lookup>,
}

/// The directories of MIB path entries such as `-M a:b` or `MIBDIRS`, each `:`-separated; an
/// empty entry (`a:b:`, as MIBDIRS often has) is no directory.
pub fn split_dirs<'a>(entries: impl IntoIterator<Item = &'a std::ffi::OsStr>) -> Vec<PathBuf> {
    entries
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|d| !d.as_os_str().is_empty())
        .collect()
}

/// The OID tree's roots (X.660), by their arcs.
const ROOTS: [&str; 3] = ["ccitt", "iso", "joint-iso-ccitt"];

/// The arcs of an instance suffix (`3`, `1.4`), or which is not a number.
fn instance_suffix(suffix: Option<&str>) -> Result<Vec<u32>, String> {
    let Some(s) = suffix else {
        return Ok(Vec::new());
    };
    s.split('.')
        .filter(|a| !a.is_empty())
        .map(|arc| {
            arc.parse()
                .map_err(|_| format!("`{arc}` in the instance suffix is not a number"))
        })
        .collect()
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

    /// Every module of `dirs`, then the standard modules built into the generator
    /// ([`snmp_codegen::standard`]) those do not define, all resolved: what `snmpc get` and
    /// `walk` name OIDs with.
    pub fn load_with_builtin(dirs: &[PathBuf]) -> Result<Mibs, String> {
        Self::load_everything(dirs, &HashSet::new())
    }

    /// The modules `wanted` and what they import, read from `dirs` and nothing more
    /// ([`MibSet::load_needed`]), then the built-in standard modules those do not define, all
    /// resolved (`strict`: relaxations made errors).
    pub fn load_needed(
        dirs: &[PathBuf],
        wanted: &[String],
        strict: &HashSet<Relaxation>,
    ) -> Result<Mibs, String> {
        let set = MibSet::load_needed(dirs, wanted)
            .map_err(|e| format!("reading the MIB directories: {e}"))?;
        Ok(Self::with_builtin(set, strict))
    }

    /// Every module of `dirs`, then the built-in standard modules those do not define.
    pub fn load_everything(dirs: &[PathBuf], strict: &HashSet<Relaxation>) -> Result<Mibs, String> {
        let set = MibSet::load(dirs).map_err(|e| format!("reading the MIB directories: {e}"))?;
        Ok(Self::with_builtin(set, strict))
    }

    fn with_builtin(mut set: MibSet, strict: &HashSet<Relaxation>) -> Mibs {
        set.add_standard_modules();
        let resolved = mib::resolve(&set, &[], strict);
        Mibs {
            set,
            resolved,
            lookup: std::sync::OnceLock::new(),
        }
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
        Ok(Mibs {
            set,
            resolved,
            lookup: std::sync::OnceLock::new(),
        })
    }

    fn lookup(&self) -> &Lookup {
        self.lookup.get_or_init(|| {
            let mut by_name: HashMap<Box<str>, Vec<usize>> = HashMap::new();
            let mut by_oid = BTreeMap::new();
            for (i, n) in self.resolved.nodes.iter().enumerate() {
                by_name.entry(self.set.name(n).into()).or_default().push(i);
            }
            // An OID is named by a node an assignment defines before a label inside an OID
            // value that names it too (net-snmp names it so).
            let label = |i: &usize| self.resolved.nodes[*i].kind() == NodeKind::Label;
            let (labels, defined): (Vec<usize>, Vec<usize>) =
                (0..self.resolved.nodes.len()).partition(label);
            for i in defined.into_iter().chain(labels) {
                by_oid
                    .entry(self.resolved.oid(&self.resolved.nodes[i]))
                    .or_insert(i);
            }
            let at_oid = by_oid.iter().map(|(o, &n)| (o.clone(), n)).collect();
            let presentations = (0..self.resolved.nodes.len())
                .map(|_| std::sync::OnceLock::new())
                .collect();
            Lookup {
                by_name,
                by_oid,
                at_oid,
                presentations,
            }
        })
    }

    fn module_name(&self, node: usize) -> &str {
        &self.set.modules[self.resolved.nodes[node].module()]
            .smi
            .name
    }

    /// `IF-MIB::ifDescr.3`, `ifDescr.3` or `ifDescr` to an OID.
    pub fn name_to_oid(&self, input: &str) -> Result<Vec<u32>, String> {
        let (module, rest) = match input.split_once("::") {
            Some((m, r)) => (Some(m), r),
            None => (None, input),
        };
        let (name, suffix) = match rest.split_once('.') {
            Some((n, s)) => (n, Some(s)),
            None => (rest, None),
        };
        if let Some(m) = module.filter(|m| !self.set.by_name.contains_key(*m)) {
            return Err(self.not_found(m));
        }
        let Some(candidates) = self.lookup().by_name.get(name) else {
            // The roots no module defines (X.660): ccitt(0), iso(1), joint-iso-ccitt(2).
            let root = ROOTS.iter().position(|r| *r == name);
            return match (root, module) {
                (Some(arc), None) => {
                    let mut oid = vec![arc as u32];
                    oid.extend(instance_suffix(suffix)?);
                    Ok(oid)
                }
                _ => Err(format!("unknown object `{name}`")),
            };
        };
        let node = match module {
            Some(m) => *candidates
                .iter()
                .find(|&&c| self.module_name(c) == m)
                .ok_or_else(|| format!("`{name}` is not defined in {m}"))?,
            None => candidates[0],
        };
        let mut oid = self.resolved.oid(&self.resolved.nodes[node]);
        oid.extend(instance_suffix(suffix)?);
        Ok(oid)
    }

    /// An OID to `MODULE::name.suffix` by longest prefix; under no node of a module, by its
    /// root (`joint-iso-ccitt.25.1234`, as net-snmp names it); `None` under no root either.
    pub fn oid_to_name(&self, oid: &[u32]) -> Option<String> {
        self.oid_to_module_name(oid).or_else(|| {
            let root = ROOTS.get(usize::try_from(*oid.first()?).ok()?)?;
            let mut s = root.to_string();
            for a in &oid[1..] {
                let _ = write!(s, ".{a}");
            }
            Some(s)
        })
    }

    /// An OID with every arc named down to the last node the modules define, the rest as
    /// numbers, as net-snmp's `-Of` prints it: `.iso.org.dod.internet.mgmt.mib-2.system.sysDescr.0`.
    pub fn full_name(&self, oid: &[u32]) -> String {
        let mut s = String::new();
        let mut named = true;
        for k in 1..=oid.len() {
            let name = if !named {
                None
            } else if k == 1 {
                usize::try_from(oid[0])
                    .ok()
                    .and_then(|a| ROOTS.get(a))
                    .map(|r| r.to_string())
            } else {
                let node = self.lookup().at_oid.get(&oid[..k]);
                node.map(|&n| self.set.name(&self.resolved.nodes[n]).to_string())
            };
            named = name.is_some();
            match name {
                Some(n) => {
                    let _ = write!(s, ".{n}");
                }
                None => {
                    let _ = write!(s, ".{}", oid[k - 1]);
                }
            }
        }
        s
    }

    /// Fails naming the first of `modules` that was not read, and the path.
    pub fn require(&self, modules: &[String]) -> Result<(), String> {
        match modules
            .iter()
            .find(|m| !self.set.by_name.contains_key(m.as_str()))
        {
            Some(m) => Err(self.not_found(m)),
            None => Ok(()),
        }
    }

    /// `module M not found on the MIB path: ...`.
    fn not_found(&self, module: &str) -> String {
        let path: Vec<String> = self
            .set
            .dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        format!(
            "module {module} not found on the MIB path: {} (nor built in; add -M DIR or MIBDIRS)",
            if path.is_empty() {
                "(none)".to_string()
            } else {
                path.join(":")
            }
        )
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
                snmp_codegen::mib::presentation(&self.set, n.module(), self.set.node(n))
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

    fn oid_to_module_name(&self, oid: &[u32]) -> Option<String> {
        (0..=oid.len()).rev().find_map(|k| {
            let node = *self.lookup().at_oid.get(&oid[..k])?;
            let mut s = format!(
                "{}::{}",
                self.module_name(node),
                self.set.name(&self.resolved.nodes[node])
            );
            for a in &oid[k..] {
                let _ = write!(s, ".{a}");
            }
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
