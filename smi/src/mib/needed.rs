//! Reading only the modules asked for and those they import, transitively, instead of every
//! file of the search path: what a one-off lookup (`snmpc translate`) needs, as net-snmp reads
//! only its MIB list. A module is looked for first in the files named after it (`IF-MIB`,
//! `IF-MIB.txt`, `if-mib.my`: the name before the first dot, any case), from the last on the
//! path (net-snmp reads a module from the last file that defines it); when none of those
//! defines it, in every file whose text declares it (`NAME DEFINITIONS ::=`), from the last;
//! but a standard module built into the generator ([`crate::standard`]) that no file is named
//! after is left to [`MibSet::add_standard_modules_needed`] rather than searched for in every
//! file. A module found nowhere is left for the resolver to report.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use super::load::{indexed, list_files, read_text, ParsedFile};
use super::{MibSet, Syntaxes, SUCCESSORS};

/// Whether `path`'s file name, before its first dot, is `module` in any case.
fn named_after(path: &Path, module: &str) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.split('.').next().unwrap_or(n))
        .is_some_and(|stem| stem.eq_ignore_ascii_case(module))
}

/// The module names `text` declares: each identifier before `DEFINITIONS` outside comments.
fn declared(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut previous: Option<&str> = None;
    for line in text.lines() {
        let code = line.split("--").next().unwrap_or("");
        for word in code.split_whitespace() {
            if word == "DEFINITIONS" {
                if let Some(p) = previous {
                    out.push(p.to_string());
                }
            }
            previous = Some(word);
        }
    }
    out
}

impl MibSet {
    /// The modules `wanted` and what they import, read from `dirs` (see the module's doc);
    /// each file is read and parsed once at most.
    pub fn load_needed(dirs: &[PathBuf], wanted: &[String]) -> std::io::Result<MibSet> {
        Self::load_needed_keeping(dirs, wanted, Syntaxes::Whole)
    }

    /// [`MibSet::load_needed`], keeping of each SYNTAX what `syntaxes` says.
    pub fn load_needed_keeping(
        dirs: &[PathBuf],
        wanted: &[String],
        syntaxes: Syntaxes,
    ) -> std::io::Result<MibSet> {
        let files: Vec<PathBuf> = list_files(dirs)?.into_iter().map(|(p, _)| p).collect();
        let mut set = MibSet {
            dirs: dirs.to_vec(),
            syntaxes,
            ..Default::default()
        };
        let mut parsed: HashSet<usize> = HashSet::new();
        // Module names each file declares, read when a name match fails.
        let mut declarations: Option<Vec<Vec<String>>> = None;
        let mut queue: VecDeque<String> = wanted.iter().cloned().collect();
        let mut asked: HashSet<String> = HashSet::new();
        while let Some(module) = queue.pop_front() {
            if set.by_name.contains_key(&module) || !asked.insert(module.clone()) {
                continue;
            }
            let by_name = files
                .iter()
                .enumerate()
                .filter(|(_, p)| named_after(p, &module));
            // The last file on the path first: net-snmp reads a module from the last file
            // that defines it.
            let mut candidates: Vec<usize> = by_name.map(|(k, _)| k).collect();
            for k in candidates.drain(..).rev() {
                if parsed.insert(k) {
                    set.parse_needed(&files[k], k, &mut queue)?;
                }
                if set.by_name.contains_key(&module) {
                    break;
                }
            }
            let built_in = crate::standard::MODULES.iter().any(|(n, _)| *n == module);
            if !set.by_name.contains_key(&module) && !built_in {
                let declared_in = declarations.get_or_insert_with(|| {
                    files
                        .iter()
                        .map(|p| read_text(p).map(|t| declared(&t)).unwrap_or_default())
                        .collect()
                });
                let found = (0..files.len())
                    .rev()
                    .find(|&k| declared_in[k].contains(&module));
                if let Some(k) = found.filter(|k| parsed.insert(*k)) {
                    set.parse_needed(&files[k], k, &mut queue)?;
                }
            }
            if !set.by_name.contains_key(&module) {
                // An obsolete name stands for its successor (see `add_successors`).
                if let Some((_, new)) = SUCCESSORS.iter().find(|(old, _)| *old == module) {
                    queue.push_back((*new).to_string());
                }
            }
        }
        set.add_successors();
        Ok(set)
    }

    /// Parses and registers the file at `path` (`rank`: its place on the search path),
    /// queueing the modules its modules import.
    fn parse_needed(
        &mut self,
        path: &Path,
        rank: usize,
        queue: &mut VecDeque<String>,
    ) -> std::io::Result<()> {
        let text = read_text(path)?;
        let (modules, rest) = super::parse_file_with(&text, self.syntaxes);
        for m in &modules {
            queue.extend(m.imports.iter().map(|i| i.module.clone()));
        }
        self.register(ParsedFile {
            name: path.display().to_string(),
            path: path.to_path_buf(),
            kept: None,
            rank,
            modules: indexed(modules),
            rest,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module in two folders of the path: the later folder's copy is read, by the whole
    /// load and by the load of what is needed alike (as net-snmp's module list keeps the
    /// last file it found for a name), and the other copy is said in its own file.
    #[test]
    fn the_last_copy_of_a_module_on_the_path_is_read() {
        let dirs: Vec<tempfile::TempDir> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
        for (k, d) in dirs.iter().enumerate() {
            let text = format!(
                "DUP-MIB DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n\
                 dup OBJECT IDENTIFIER ::= {{ enterprises 99999 {} }}\nEND\n",
                k + 1
            );
            std::fs::write(d.path().join("DUP-MIB.txt"), text).unwrap();
        }
        let path = |order: [usize; 2]| -> Vec<PathBuf> {
            order
                .iter()
                .map(|&k| dirs[k].path().to_path_buf())
                .collect()
        };
        let arc = |mut set: MibSet| {
            set.add_standard_modules();
            let resolved = crate::mib::resolve(&set, &[], &HashSet::new());
            let m = set.by_name["DUP-MIB"];
            let node = resolved
                .nodes
                .iter()
                .find(|n| n.module() == m)
                .expect("dup resolved");
            let oid = resolved.oid(node);
            (oid.last().copied(), set)
        };
        for order in [[0, 1], [1, 0]] {
            let last = order[1] as u32 + 1;
            let (whole, set) = arc(MibSet::load(&path(order)).unwrap());
            assert_eq!(whole, Some(last), "{order:?}");
            let said: Vec<&str> = set
                .file_findings
                .iter()
                .map(|(_, f)| f.message.as_str())
                .collect();
            assert_eq!(said.len(), 1, "{said:?}");
            assert!(said[0].contains("whose copy is read"), "{said:?}");
            let (needed, _) = arc(MibSet::load_needed(&path(order), &["DUP-MIB".into()]).unwrap());
            assert_eq!(needed, Some(last), "{order:?}");
        }
    }

    #[test]
    fn only_what_is_asked_and_imported_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let module = |name: &str, imports: &str| {
            format!(
                "{name} DEFINITIONS ::= BEGIN\nIMPORTS {imports};\n{}Root OBJECT IDENTIFIER ::= {{ iso 3 }}\nEND\n",
                name.to_lowercase().replace('-', "")
            )
        };
        std::fs::write(
            dir.path().join("A-MIB.txt"),
            module("A-MIB", "bRoot FROM B-MIB"),
        )
        .unwrap();
        // B-MIB in a file not named after it; C-MIB never asked for.
        std::fs::write(dir.path().join("other.my"), module("B-MIB", "")).unwrap();
        std::fs::write(dir.path().join("C-MIB"), module("C-MIB", "")).unwrap();
        let set = MibSet::load_needed(&[dir.path().to_path_buf()], &["A-MIB".into()]).unwrap();
        let mut names: Vec<&String> = set.by_name.keys().collect();
        names.sort();
        assert_eq!(names, ["A-MIB", "B-MIB"]);
        assert_eq!(set.files.len(), 2);
        assert_eq!(
            declared("-- X DEFINITIONS\nY-MIB DEFINITIONS ::= BEGIN"),
            ["Y-MIB"]
        );
    }
}
