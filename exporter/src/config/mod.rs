//! snmp.yml: read from files (globs, several merged as upstream merges them), checked, and
//! compiled into what a scrape runs ([`Config`]).

mod compile;
pub mod duration;
mod legacy;
pub(crate) use legacy::move_to_auths;
mod types;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use compile::{
    is_label_name, is_metric_name, parse_oid, Compiled, CompiledAuth, CompiledFilter,
    CompiledIndex, CompiledLookup, CompiledMetric, CompiledModule, MetricTree,
};
pub use types::{
    Auth, DynamicFilter, File, Index, LegacyAuth, Lookup, Metric, Module, RegexExtract, Secret,
    INDEX_TYPES, METRIC_TYPES,
};

/// Why a configuration could not be used. Each names the file, and where the YAML parser
/// knows it, the line and column.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// A `--config.file` pattern is not a valid glob.
    #[error("--config.file {pattern:?}: {message}")]
    Pattern { pattern: String, message: String },
    /// YAML that is not snmp.yml (an unknown key, a value of the wrong type, a bad auth).
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// Well-formed YAML whose content cannot be used (an OID that is none, a lookup of an
    /// unknown label); `key` is the path to it.
    #[error("{path}: {key}: {message}")]
    Invalid {
        path: String,
        key: String,
        message: String,
    },
    /// Nothing to serve.
    #[error("{0}")]
    Empty(String),
}

/// The configuration in force: what was read ([`File`], for `/config`), compiled.
#[derive(Debug, Clone)]
pub struct Config {
    /// The merged files, as read (secrets hidden when shown).
    pub file: File,
    /// Auths and modules, ready to scrape with.
    pub compiled: Arc<Compiled>,
    /// What the loader warns of (a file pattern matching nothing, the format of ≤ 0.22).
    pub warnings: Vec<String>,
}

/// How files are read.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--config.expand-environment-variables`: `$VAR` and `${VAR}` in auths' usernames and
    /// passwords taken from the environment (a missing variable is an error).
    pub expand_env: bool,
}

impl Config {
    /// Reads the files `patterns` match (globs, in order; a later file's auth or module
    /// replaces an earlier one of the same name), then checks and compiles them.
    pub fn load(patterns: &[String], options: &LoadOptions) -> Result<Config, ConfigError> {
        let mut warnings = Vec::new();
        let mut merged = File::default();
        let mut origin: BTreeMap<String, String> = BTreeMap::new();
        for pattern in patterns {
            let paths = glob::glob(pattern).map_err(|e| ConfigError::Pattern {
                pattern: pattern.clone(),
                message: e.to_string(),
            })?;
            let mut found = 0;
            for path in paths {
                let path = path.map_err(|e| ConfigError::Read {
                    path: e.path().display().to_string(),
                    source: std::io::Error::other(e.to_string()),
                })?;
                found += 1;
                let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
                    path: path.display().to_string(),
                    source,
                })?;
                let file = parse(&path, &text)?;
                for name in file.modules.keys() {
                    origin.insert(name.clone(), path.display().to_string());
                }
                merged.auths.extend(file.auths);
                merged.modules.extend(file.modules);
                merged.version = file.version.or(merged.version);
            }
            if found == 0 {
                warnings.push(format!("no file found matching pattern {pattern:?}"));
            }
        }
        Config::from_file(merged, &origin, options, warnings)
    }

    /// A configuration from one YAML text (`path` names it in errors).
    pub fn from_yaml(path: &str, text: &str, options: &LoadOptions) -> Result<Config, ConfigError> {
        let file = parse(Path::new(path), text)?;
        let origin = file
            .modules
            .keys()
            .map(|m| (m.clone(), path.to_string()))
            .collect();
        Config::from_file(file, &origin, options, Vec::new())
    }

    fn from_file(
        mut file: File,
        origin: &BTreeMap<String, String>,
        options: &LoadOptions,
        mut warnings: Vec<String>,
    ) -> Result<Config, ConfigError> {
        if let Some(w) = legacy::convert(&mut file)? {
            warnings.push(w);
        }
        if options.expand_env {
            for (name, auth) in &mut file.auths {
                expand_auth(name, auth)?;
            }
        }
        if file.modules.is_empty() {
            return Err(ConfigError::Empty(
                "the configuration has no modules: did you give a configuration file?".into(),
            ));
        }
        if file.auths.is_empty() {
            return Err(ConfigError::Empty(
                "the configuration has no auths (snmp_exporter 0.23 moved credentials from modules to `auths`)".into(),
            ));
        }
        let compiled = compile::compile(&file, origin)?;
        Ok(Config {
            file,
            compiled: Arc::new(compiled),
            warnings,
        })
    }

    /// The modules in the format of snmp_exporter ≤ 0.22, each with the credentials of the
    /// auth `auth` inline (secrets included): for an older exporter run beside this one.
    pub fn to_0_22_yaml(&self, auth: &str) -> Result<String, String> {
        legacy::to_0_22(&self.file, auth)
    }

    /// The merged configuration as YAML, secrets shown as `<secret>` (`/config`).
    pub fn to_yaml(&self) -> String {
        serde_yaml::to_string(&self.file).unwrap_or_else(|e| format!("# {e}\n"))
    }
}

/// One file's YAML read into [`File`]; an error with its line and column.
fn parse(path: &Path, text: &str) -> Result<File, ConfigError> {
    if text.trim().is_empty() {
        return Ok(File::default());
    }
    // snmp_exporter ≤ 0.22: the modules themselves at the top, no `modules:` key.
    let top: Result<BTreeMap<String, serde_yaml::Value>, _> = serde_yaml::from_str(text);
    let legacy = top.is_ok_and(|m| {
        !m.is_empty()
            && !m
                .keys()
                .any(|k| matches!(k.as_str(), "auths" | "modules" | "version"))
    });
    let parsed = if legacy {
        serde_yaml::from_str::<BTreeMap<String, Module>>(text).map(|mut modules| {
            // Each old module has credentials, upstream's defaults where none are written.
            for m in modules.values_mut() {
                m.auth.get_or_insert_with(LegacyAuth::default);
            }
            File {
                modules,
                ..File::default()
            }
        })
    } else {
        serde_yaml::from_str::<File>(text)
    };
    parsed.map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        let message = e.to_string();
        // serde_yaml appends " at line L column C": said once, in front.
        let message = match message.rfind(" at line ") {
            Some(k) => message[..k].to_string(),
            None => message,
        };
        ConfigError::Syntax {
            path: path.display().to_string(),
            line,
            column,
            message,
        }
    })
}

/// `$VAR` and `${VAR}` in an auth's username and passwords, from the environment.
fn expand_auth(name: &str, auth: &mut Auth) -> Result<(), ConfigError> {
    let invalid = |key: &str, message: String| ConfigError::Invalid {
        path: "(environment)".into(),
        key: format!("auths.{name}.{key}"),
        message,
    };
    auth.username = expand(&auth.username).map_err(|m| invalid("username", m))?;
    auth.password.0 = expand(&auth.password.0).map_err(|m| invalid("password", m))?;
    auth.priv_password.0 =
        expand(&auth.priv_password.0).map_err(|m| invalid("priv_password", m))?;
    Ok(())
}

/// Go's `os.Expand` over the environment: `$NAME`, `${NAME}`; a variable that is not set is
/// an error naming it.
pub fn expand(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find('$') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let (name, tail) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end) => (&inner[..end], &inner[end + 1..]),
                None => return Err(format!("unclosed ${{ in {text:?}")),
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        if name.is_empty() {
            out.push('$');
        } else {
            match std::env::var(name) {
                Ok(v) => out.push_str(&v),
                Err(_) => return Err(format!("{name} environment variable not found")),
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}

/// The files a pattern list names, for messages.
pub fn describe(patterns: &[String]) -> String {
    patterns
        .iter()
        .map(|p| PathBuf::from(p).display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
