//! snmp-codegen: compiles ASN.1 modules into specialised Rust BER codecs, and MIB modules into
//! typed bindings.
//!
//! ASN.1: parse (nom, snmp-smi's `asn1::parse`) → resolve (imports, references, effective
//! tags, constraints) → IR → emit (quote, prettyplease). MIBs: the `snmp_smi` crate's
//! front-end up to the MIB IR, then this crate's emitter. The generated code calls the
//! `snmp-ber` runtime (and `snmp-mib` for MIB bindings) and nothing else.
//!
//! Use it from `build.rs` through [`Builder`]:
//!
//! ```no_run
//! // build.rs
//! snmp_codegen::Builder::new()
//!     .asn1("asn1/MY-PROTOCOL.asn1")
//!     .compile()
//!     .unwrap();
//! // and in the crate: include!(concat!(env!("OUT_DIR"), "/asn1.rs"));
//! ```
//!
//! MIB modules too: a vendor's module, its imports of the standard modules (SNMPv2-SMI, -TC,
//! IF-MIB...) found among those built in:
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("snmp-codegen-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(
//!     dir.join("ACME-MIB.txt"),
//!     "ACME-MIB DEFINITIONS ::= BEGIN
//!      IMPORTS MODULE-IDENTITY, OBJECT-TYPE, enterprises FROM SNMPv2-SMI
//!              InterfaceIndex FROM IF-MIB;
//!      acme MODULE-IDENTITY LAST-UPDATED \"202612010000Z\" ORGANIZATION \"Acme\"
//!          CONTACT-INFO \"ops\" DESCRIPTION \"widgets\" ::= { enterprises 99999 }
//!      acmeUplink OBJECT-TYPE SYNTAX InterfaceIndex MAX-ACCESS read-only STATUS current
//!          DESCRIPTION \"the uplink\" ::= { acme 1 }
//!      END",
//! )?;
//! // In build.rs: `.compile()` writes OUT_DIR/asn1.rs (or `.file_name(..)`) instead.
//! let generated = snmp_codegen::Builder::new().mib_dir(&dir).mib("ACME-MIB").generate()?;
//! assert!(generated.single_file().contains("ACME_UPLINK"));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This crate is what a build script needs: [`Builder`], its output and its diagnostics. The
//! project's own bindings under `generated/` are written by the `snmp-regen` tool
//! (`cargo run -p snmp-regen -- regen`), which has the command line.

// The pipelines' stages are public for the workspace's own tests and tools (regen, the MIB
// corpus test), not for users: a build script needs `Builder` and what it returns; the MIB
// front-end is documented where it lives, in snmp-smi.
#[doc(hidden)]
pub mod asn1;
pub use snmp_smi::{diag, standard};
#[doc(hidden)]
pub mod mib;
#[doc(hidden)]
pub use snmp_smi::naming;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

pub use asn1::emit::{EmittedModule, GENERATED_HEADER};
pub use asn1::resolve::{OpenTypeBinding, SourceFile};
pub use diag::{Diagnostic, Diagnostics};

/// Errors of [`Builder::compile`].
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The inputs do not parse or resolve.
    #[error("{0}")]
    Diagnostics(#[from] Diagnostics),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// No output directory: neither [`Builder::out_dir`] nor `OUT_DIR` is set.
    #[error("no output directory: call Builder::out_dir or run from build.rs (OUT_DIR)")]
    NoOutDir,
}

/// What [`Builder`] made of its MIB modules: bindings, the files read, warnings.
type MibOutput = (Vec<EmittedModule>, Vec<PathBuf>, Vec<Diagnostic>);

/// Configures and runs the generator, in the shape of prost-build's builder.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    open_types: Vec<OpenTypeBinding>,
    der_modules: Vec<String>,
    registries: Vec<asn1::resolve::OidRegistry>,
    out_dir: Option<PathBuf>,
    file_name: Option<String>,
    display_root: Option<PathBuf>,
    crate_doc: Option<String>,
    support_modules: Vec<String>,
    crate_alias: Option<String>,
    mib_dirs: Vec<PathBuf>,
    mibs: Vec<String>,
    strict: std::collections::HashSet<mib::Relaxation>,
    agent: bool,
}

/// The result of a generation run.
#[derive(Debug, Clone)]
pub struct Generated {
    /// One entry per ASN.1 module, in input order.
    pub modules: Vec<EmittedModule>,
    /// The files that were read (for `cargo:rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
    crate_doc: String,
    support_modules: Vec<String>,
    crate_alias: Option<String>,
    /// Warnings of the MIB compiler (relaxations applied), to show the user.
    pub warnings: Vec<Diagnostic>,
}

impl Builder {
    /// A builder with no inputs.
    pub fn new() -> Self {
        Builder::default()
    }

    /// Adds one ASN.1 file (it may hold several modules).
    pub fn asn1(mut self, path: impl Into<PathBuf>) -> Self {
        self.files.push(path.into());
        self
    }

    /// Adds every `*.asn1` and `*.asn` file of a directory, in name order.
    pub fn asn1_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dirs.push(dir.into());
        self
    }

    /// Compiles ASN.1 module `module` with DER rules (X.690 clauses 10 and 11), as certificates
    /// and CRLs need: an INTEGER unbounded above (no constraint, or `..MAX`) becomes
    /// `snmp_ber::Integer`, any size, borrowed; the decoder refuses a component encoded with its
    /// DEFAULT value when reading under DER ([`snmp_ber::Decode::from_der`]); SET OF elements are
    /// encoded in DER order. Modules not named keep the BER conventions of SNMP (INTEGERs as
    /// 64-bit values); every module's types can be read under either rule set.
    pub fn der(mut self, module: &str) -> Self {
        self.der_modules.push(module.to_string());
        self
    }

    /// Generates an OID registry in module `module`: an enum `name` with a variant per
    /// `(value, type)` pair (an OBJECT IDENTIFIER value and the type of the values it
    /// identifies, both named as `module` sees them) and an `Unknown` variant keeping any other
    /// identifier with its octets, never dropped; `name::decode(id, octets)` decodes one whole
    /// encoding (an ANY, or the contents of an OCTET STRING that wraps one, as X.509's
    /// `extnValue` does) as the type `id` names, under the module's rules. For the open types
    /// of 1988 ASN.1 (`ANY DEFINED BY`), whose pairings the modules state only in comments.
    pub fn oid_registry(mut self, module: &str, name: &str, entries: &[(&str, &str)]) -> Self {
        self.registries.push(asn1::resolve::OidRegistry {
            module: module.to_string(),
            name: name.to_string(),
            entries: entries
                .iter()
                .map(|(v, t)| (v.to_string(), t.to_string()))
                .collect(),
        });
        self
    }

    /// Binds an ANY component to a type, e.g. RFC 1157's `Message.data` to `PDUs`: the
    /// component is then decoded and encoded as that type rather than kept as raw octets.
    pub fn open_type(
        mut self,
        module: &str,
        component: &str,
        target_module: &str,
        target: &str,
    ) -> Self {
        self.open_types.push(OpenTypeBinding {
            module: module.into(),
            component: component.into(),
            target_module: target_module.into(),
            target: target.into(),
        });
        self
    }

    /// Where [`Builder::compile`] writes; defaults to `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The file [`Builder::compile`] writes, default `asn1.rs`.
    pub fn file_name(mut self, name: &str) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// File names in diagnostics and doc comments are shown relative to this directory
    /// (default: `CARGO_MANIFEST_DIR` when set).
    pub fn display_root(mut self, dir: impl Into<PathBuf>) -> Self {
        self.display_root = Some(dir.into());
        self
    }

    /// The crate-level doc comment of the generated `lib.rs` ([`Generated::write_crate`]).
    pub fn crate_doc(mut self, doc: &str) -> Self {
        self.crate_doc = Some(doc.into());
        self
    }

    /// Adds a directory to the MIB search path: modules are found there by the name inside
    /// the file, whatever the file is called.
    pub fn mib_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.mib_dirs.push(dir.into());
        self
    }

    /// Generates typed bindings for MIB module `name` (found on the [`Builder::mib_dir`]
    /// search path, with whatever it imports).
    pub fn mib(mut self, name: &str) -> Self {
        self.mibs.push(name.into());
        self
    }

    /// Makes a real-world relaxation of the SMI an error instead of a warning.
    pub fn strict(mut self, relaxation: mib::Relaxation) -> Self {
        self.strict.insert(relaxation);
        self
    }

    /// Makes every relaxation an error: the modules must follow the SMI to the letter.
    pub fn strict_all(mut self) -> Self {
        self.strict.extend(mib::Relaxation::ALL);
        self
    }

    /// Also generates the agent side of the MIB modules' bindings (see `snmp_mib::AgentRow`):
    /// per conceptual row, its columns' values as bindings carry them, a SET's value checked
    /// against the SYNTAX and written, the INDEX written back into arcs and the RowStatus
    /// column; per group of scalars, a struct with a field per scalar. What `snmp-agent`
    /// serves, and what snmp-client's typed SETs (`Session::set_columns`, `create_row`,
    /// `set_scalars`) send.
    ///
    /// ```no_run
    /// // build.rs of a crate that implements its MIB
    /// snmp_codegen::Builder::new()
    ///     .mib_dir("mibs")
    ///     .mib("ACME-WIDGET-MIB")
    ///     .agent(true)
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn agent(mut self, on: bool) -> Self {
        self.agent = on;
        self
    }

    /// Declares a hand-written module `name` (file `name.rs`) beside the generated ones in
    /// [`Generated::write_crate`]'s `lib.rs`; the file itself is left alone.
    pub fn support_module(mut self, name: &str) -> Self {
        self.support_modules.push(name.into());
        self
    }

    /// Makes the crate written by [`Generated::write_crate`] also known to itself as `name`
    /// (`extern crate self as name;`), so that MIB bindings, which name their support
    /// crate, can live inside it.
    pub fn crate_alias(mut self, name: &str) -> Self {
        self.crate_alias = Some(name.into());
        self
    }

    fn input_files(&self) -> Result<Vec<PathBuf>, BuildError> {
        let mut files = self.files.clone();
        for dir in &self.dirs {
            let entries = fs::read_dir(dir).map_err(|source| BuildError::Io {
                path: dir.clone(),
                source,
            })?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("asn1" | "asn")))
                .collect();
            found.sort();
            files.extend(found);
        }
        Ok(files)
    }

    fn display_name(&self, path: &Path) -> String {
        let root = self
            .display_root
            .clone()
            .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from));
        let shown = match root {
            Some(root) => path.strip_prefix(&root).unwrap_or(path),
            None => path,
        };
        shown.to_string_lossy().replace('\\', "/")
    }

    /// Parses, resolves and emits, in memory.
    pub fn generate(&self) -> Result<Generated, BuildError> {
        let inputs = self.input_files()?;
        let mut sources = Vec::new();
        for path in &inputs {
            let text = fs::read_to_string(path).map_err(|source| BuildError::Io {
                path: path.clone(),
                source,
            })?;
            sources.push(SourceFile {
                name: self.display_name(path),
                text,
            });
        }
        let mut modules = if sources.is_empty() {
            Vec::new()
        } else {
            let options = asn1::resolve::ResolveOptions {
                open_types: &self.open_types,
                der_modules: &self.der_modules,
                registries: &self.registries,
            };
            let ir = asn1::resolve::resolve(&sources, &options)?;
            asn1::emit::emit(&ir).map_err(Diagnostics::from)?
        };
        let mut inputs = inputs;
        let mut warnings = Vec::new();
        if !self.mibs.is_empty() {
            let (mib_modules, read, w) = self.generate_mibs()?;
            modules.extend(mib_modules);
            inputs.extend(read);
            warnings = w;
        }
        Ok(Generated {
            modules,
            warnings,
            inputs,
            crate_doc: self.crate_doc.clone().unwrap_or_default(),
            support_modules: self.support_modules.clone(),
            crate_alias: self.crate_alias.clone(),
        })
    }

    /// Loads the MIB search path, resolves the wanted modules and emits their bindings; also
    /// returns the files the modules came from and the warnings.
    fn generate_mibs(&self) -> Result<MibOutput, BuildError> {
        let mut set = mib::MibSet::load(&self.mib_dirs).map_err(|source| BuildError::Io {
            path: self.mib_dirs.first().cloned().unwrap_or_default(),
            source,
        })?;
        for f in &mut set.files {
            f.name = self.display_name(Path::new(&f.name));
        }
        set.add_standard_modules();
        let missing: Vec<Diagnostic> = self
            .mibs
            .iter()
            .filter(|m| !set.by_name.contains_key(*m))
            .map(|m| {
                Diagnostic::file(
                    m,
                    format!(
                        "MIB module `{m}` not found on the search path {}",
                        set.search_path()
                    ),
                )
            })
            .collect();
        if !missing.is_empty() {
            return Err(Diagnostics(missing).into());
        }
        let resolved = mib::resolve(&set, &self.mibs, &self.strict);
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let mut read = Vec::new();
        for r in &resolved.reports {
            errors.extend(r.errors.iter().cloned());
            warnings.extend(r.warnings.iter().cloned());
            let file = &set.files[set.modules[r.module].file];
            // A built-in module has no file for cargo to watch.
            if file.on_disk() {
                read.push(file.path.clone());
            }
        }
        if !errors.is_empty() {
            return Err(Diagnostics(errors).into());
        }
        let wanted: Vec<usize> = self.mibs.iter().map(|m| set.by_name[m]).collect();
        let options = mib::EmitOptions { agent: self.agent };
        let name = |f: usize| set.files[f].name.clone();
        let modules =
            mib::emit_mibs(&set, &resolved, &wanted, &name, &options).map_err(Diagnostics::from)?;
        read.sort();
        read.dedup();
        Ok((modules, read, warnings))
    }

    /// For build.rs: generates into `OUT_DIR/asn1.rs` (or as configured), rewriting the file only
    /// when its contents change, and prints `cargo:rerun-if-changed` for every input read.
    pub fn compile(&self) -> Result<PathBuf, BuildError> {
        let generated = self.generate()?;
        for w in &generated.warnings {
            for line in w.to_string().lines() {
                println!("cargo:warning={line}");
            }
        }
        for dir in &self.mib_dirs {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        for input in &generated.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        for dir in &self.dirs {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        let path = out_dir.join(self.output_file_name());
        write_if_changed(&path, &generated.single_file())?;
        Ok(path)
    }

    /// [`Builder::file_name`], or by default the first MIB's name for a MIB-only build
    /// (`ACME-WIDGET-MIB` → `acme_widget_mib.rs`), `asn1.rs` otherwise.
    pub fn output_file_name(&self) -> String {
        match (
            &self.file_name,
            self.files.is_empty() && self.dirs.is_empty(),
            self.mibs.first(),
        ) {
            (Some(name), _, _) => name.clone(),
            (None, true, Some(mib)) => format!("{}.rs", naming::snake_case(mib)),
            _ => "asn1.rs".into(),
        }
    }
}

fn write_if_changed(path: &Path, contents: &str) -> Result<(), BuildError> {
    if fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|source| BuildError::Io {
            path: parent.into(),
            source,
        })?;
    }
    fs::write(path, contents).map_err(|source| BuildError::Io {
        path: path.into(),
        source,
    })
}

impl Generated {
    /// Number of Rust types generated, over all modules.
    pub fn type_count(&self) -> usize {
        self.modules.iter().map(|m| m.type_count).sum()
    }

    /// All modules in one file, each as `pub mod name { ... }`, for `include!`.
    pub fn single_file(&self) -> String {
        let mut out = format!(
            "{GENERATED_HEADER}\n// Written by snmp_codegen::Builder (a build script's `compile`, run \
             again by cargo when the modules change, or `snmp-regen compile`): edit the modules.\n"
        );
        for m in &self.modules {
            let body = m.source.strip_prefix(GENERATED_HEADER).unwrap_or(&m.source);
            let _ = write!(
                out,
                "\npub mod {} {{\n{}}}\n",
                m.rust_name,
                body.trim_start_matches('\n')
            );
        }
        out
    }

    /// The files of a crate's `src/`: `lib.rs` declaring one module per ASN.1 module, and the
    /// modules. Returns (file name, contents) pairs.
    pub fn crate_files(&self) -> Vec<(String, String)> {
        let mut lib = format!("{GENERATED_HEADER}\n");
        for line in self.crate_doc.lines() {
            if line.is_empty() {
                lib.push_str("//!\n");
            } else {
                let _ = writeln!(lib, "//! {line}");
            }
        }
        lib.push('\n');
        if let Some(alias) = &self.crate_alias {
            let _ = writeln!(lib, "extern crate self as {alias};\n");
        }
        for m in &self.modules {
            // prettyplease formats the modules; rustfmt must leave them as generated.
            let _ = writeln!(lib, "#[rustfmt::skip]\npub mod {};", m.rust_name);
        }
        for name in &self.support_modules {
            let _ = writeln!(lib, "pub mod {name};");
        }
        let mut files = vec![("lib.rs".to_string(), lib)];
        for m in &self.modules {
            files.push((format!("{}.rs", m.rust_name), m.source.clone()));
        }
        files
    }

    /// Whether file `name` of the crate's `src/` is one of `files` (its
    /// [`Generated::crate_files`]) or a support module.
    pub fn owns(&self, name: &str, files: &[(String, String)]) -> bool {
        files.iter().any(|(n, _)| n == name)
            || self
                .support_modules
                .iter()
                .any(|m| format!("{m}.rs") == name)
    }

    /// Writes [`Generated::crate_files`] into `dir`, only those whose contents changed, and
    /// removes `*.rs` files there that are no longer generated. Returns the files written.
    pub fn write_crate(&self, dir: &Path) -> Result<Vec<PathBuf>, BuildError> {
        let files = self.crate_files();
        let mut written = Vec::new();
        for (name, contents) in &files {
            let path = dir.join(name);
            if fs::read_to_string(&path).ok().as_deref() != Some(contents.as_str()) {
                write_if_changed(&path, contents)?;
                written.push(path);
            }
        }
        if let Ok(entries) = fs::read_dir(dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.ends_with(".rs") && !self.owns(&name, &files) {
                    fs::remove_file(e.path()).map_err(|source| BuildError::Io {
                        path: e.path(),
                        source,
                    })?;
                }
            }
        }
        Ok(written)
    }
}
