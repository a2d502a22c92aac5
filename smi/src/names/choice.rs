//! Which MIB modules net-snmp's tools read, and from which directories, worked out as they
//! work it out, so that the same command names the same OIDs.
//!
//! The MIB list: `-m` (the tools set `MIBS` from it), else the `MIBS` environment variable,
//! else snmp.conf's `mibs` directive, else the list net-snmp was built with
//! ([`NET_SNMP_DEFAULT_MIBS`]). A list starting with `+` comes after the built-in list, one
//! starting with `-` before it; `ALL` reads every module of the path; an entry with a `/` is
//! a file. Only the modules listed and those they import are read: an OID no module read
//! defines is printed with numbers (`iso.3.6.1.2.1.4.1`), as net-snmp prints it. Debian's
//! `/etc/snmp/snmp.conf` says `mibs :`, an empty list: there net-snmp's tools, and these,
//! name nothing until `-m` (or `MIBS`) names modules. A name given as `MODULE::name` reads
//! MODULE as well.
//!
//! The path: `-M`, else `MIBDIRS`, else snmp.conf's `mibdirs`, else net-snmp's directories
//! ([`net_snmp_default_dirs`]), with the same `+` and `-`. Directories that are not there are
//! passed over, as net-snmp passes them over. The standard modules built into the generator
//! ([`crate::standard`]) act as a last directory: one of them is read when the list
//! or an import needs it and no directory has it.

use std::path::{Path, PathBuf};

use super::precedence::NET_SNMP_DEFAULT_MIBS;

/// net-snmp's MIB directories as Debian builds it: `$HOME/.snmp/mibs`, then
/// `/usr/share/snmp/mibs` and its `iana` and `ietf` directories.
pub fn net_snmp_default_dirs() -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    format!(
        "{home}/.snmp/mibs:/usr/share/snmp/mibs:/usr/share/snmp/mibs/iana:/usr/share/snmp/mibs/ietf"
    )
}

/// `value` against `base` as net-snmp reads a list: `+X` is base then X, `-X` is X then
/// base, anything else replaces base.
fn against(value: &str, base: &str) -> String {
    match value.as_bytes().first() {
        Some(b'+') => format!("{base}:{}", &value[1..]),
        Some(b'-') => format!("{}:{base}", &value[1..]),
        _ => value.to_string(),
    }
}

/// The MIB path and list a tool reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MibChoice {
    /// The directories, in order, as configured (those not there included).
    pub path: Vec<PathBuf>,
    /// The list's entries, in order: module names, `ALL`, files (with a `/`).
    pub list: Vec<String>,
}

impl MibChoice {
    /// What net-snmp's tools read given `-M dirs` and `-m modules`, with the environment's
    /// `MIBDIRS` and `MIBS` (snmp.conf not read: see [`MibChoice::from_sources`]).
    ///
    /// ```
    /// use snmp_smi::names::MibChoice;
    ///
    /// let choice = MibChoice::new(&["/opt/mibs".into()], Some("IF-MIB:UCD-SNMP-MIB"));
    /// assert_eq!(choice.path_text(), "/opt/mibs");
    /// assert_eq!(choice.modules(), ["IF-MIB", "UCD-SNMP-MIB"]);
    /// ```
    pub fn new(dirs: &[PathBuf], modules: Option<&str>) -> MibChoice {
        let env = |name: &str| std::env::var(name).ok();
        Self::from_sources(dirs, modules, (env("MIBDIRS"), env("MIBS")), (None, None))
    }

    /// What `-M dirs` and `-m modules` choose over the environment's `MIBDIRS` and `MIBS`
    /// (`env`), over snmp.conf's `mibdirs` and `mibs` directives (`conf`, each its lines
    /// already joined with their `+` and `-`), over net-snmp's defaults.
    pub fn from_sources(
        dirs: &[PathBuf],
        modules: Option<&str>,
        (env_dirs, env_mibs): (Option<String>, Option<String>),
        (conf_dirs, conf_mibs): (Option<&str>, Option<&str>),
    ) -> MibChoice {
        let defaults = net_snmp_default_dirs();
        let base = env_dirs
            .or_else(|| conf_dirs.map(str::to_string))
            .map_or_else(|| defaults.clone(), |d| against(&d, &defaults));
        let mut path = base;
        for (i, d) in dirs.iter().enumerate() {
            let d = d.to_string_lossy();
            path = match i {
                0 => against(&d, &path),
                _ => format!("{path}:{}", d.trim_start_matches(['+', '-'])),
            };
        }
        let default_list = NET_SNMP_DEFAULT_MIBS.join(":");
        let list = modules
            .map(str::to_string)
            .or(env_mibs)
            .or_else(|| conf_mibs.map(str::to_string))
            .map_or_else(|| default_list.clone(), |l| against(&l, &default_list));
        MibChoice {
            path: std::env::split_paths(&path)
                .filter(|d| !d.as_os_str().is_empty())
                .collect(),
            list: list
                .split(':')
                .filter(|m| !m.is_empty())
                .map(str::to_string)
                .collect(),
        }
    }

    /// Whether the list says `ALL` (in any case, as net-snmp reads it).
    pub fn all(&self) -> bool {
        self.list.iter().any(|m| m.eq_ignore_ascii_case("ALL"))
    }

    /// The modules the list names (not `ALL`; a file entry by the module its name gives).
    pub fn modules(&self) -> Vec<String> {
        self.list
            .iter()
            .filter(|m| !m.eq_ignore_ascii_case("ALL"))
            .map(|m| match m.contains('/') {
                true => module_of_file(Path::new(m)),
                false => m.clone(),
            })
            .collect()
    }

    /// The directories to read: the path's that are there, then those of the list's files.
    pub fn dirs(&self) -> Vec<PathBuf> {
        let files = self.list.iter().filter(|m| m.contains('/'));
        let file_dirs = files.filter_map(|f| Path::new(f).parent().map(Path::to_path_buf));
        let mut dirs: Vec<PathBuf> = Vec::new();
        for d in self.path.iter().cloned().chain(file_dirs) {
            if d.is_dir() && !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        dirs
    }

    /// The path as net-snmp prints it (`MIB search path: ...`).
    pub fn path_text(&self) -> String {
        let path: Vec<String> = self.path.iter().map(|d| d.display().to_string()).collect();
        path.join(":")
    }

    /// The list, `:`-separated, as [`super::precedence::listed`] reads it.
    pub fn list_text(&self) -> String {
        self.list.join(":")
    }
}

/// The modules of the `MODULE::name` among `args` (net-snmp reads a module so named when
/// its list left it out). Only what looks like a module name counts, so that a value such
/// as `fe80::1` is not taken for one.
pub fn modules_named(args: &[String]) -> Vec<String> {
    let module = |m: &&str| {
        m.starts_with(|c: char| c.is_ascii_uppercase())
            && m.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    args.iter()
        .filter_map(|a| a.split_once("::").map(|(m, _)| m))
        .filter(module)
        .map(str::to_string)
        .collect()
}

/// The module a MIB file of the list holds, by its name: `/x/IF-MIB.txt` is IF-MIB.
fn module_of_file(file: &Path) -> String {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    name.split('.').next().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(m: Option<&str>, env: Option<&str>, conf: Option<&str>) -> Vec<String> {
        let sources = (None, env.map(str::to_string));
        MibChoice::from_sources(&[], m, sources, (None, conf)).list
    }

    #[test]
    fn the_list_comes_from_m_then_mibs_then_snmp_conf_then_the_default() {
        let default: Vec<String> = NET_SNMP_DEFAULT_MIBS
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(choice(None, None, None), default);
        // Debian's snmp.conf: nothing.
        assert!(choice(None, None, Some(":")).is_empty());
        assert_eq!(choice(None, Some("IF-MIB"), Some(":")), ["IF-MIB"]);
        assert_eq!(choice(Some("A:B"), Some("IF-MIB"), Some(":")), ["A", "B"]);
        assert!(choice(Some(""), None, None).is_empty());
        let plus = choice(Some("+X"), None, Some(":"));
        assert_eq!(plus.len(), default.len() + 1);
        assert_eq!(plus.last().map(String::as_str), Some("X"));
        assert_eq!(choice(Some("-X"), None, None)[0], "X");
    }

    #[test]
    fn the_path_comes_from_m_then_mibdirs_then_snmp_conf_then_the_default() {
        let path = |dirs: &[&str], env: Option<&str>, conf: Option<&str>| {
            let dirs: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
            let sources = (env.map(str::to_string), None);
            MibChoice::from_sources(&dirs, None, sources, (conf, None)).path_text()
        };
        let defaults = net_snmp_default_dirs();
        assert_eq!(path(&[], None, None), defaults);
        assert_eq!(path(&["/a"], Some("/e"), Some("/c")), "/a");
        assert_eq!(path(&["+/a"], Some("/e"), None), "/e:/a");
        assert_eq!(path(&["-/a", "/b"], None, Some("/c")), "/a:/c:/b");
        assert_eq!(path(&[], None, Some("+/c")), format!("{defaults}:/c"));
        let files = MibChoice {
            path: vec![],
            list: vec!["ALL".into(), "/x/IF-MIB.txt".into()],
        };
        assert!(files.all());
        assert_eq!(files.modules(), ["IF-MIB"]);
    }

    #[test]
    fn modules_are_named_by_module_prefixes_only() {
        let args: Vec<String> = ["IF-MIB::ifDescr.1", "s", "fe80::1", "sysDescr.0", "::x"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        assert_eq!(modules_named(&args), ["IF-MIB"]);
    }
}
