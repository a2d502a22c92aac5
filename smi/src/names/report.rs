//! What `snmpc mib check` and `mib dump` print: per-module results, failures, every node.

use super::*;

impl Mibs {
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
