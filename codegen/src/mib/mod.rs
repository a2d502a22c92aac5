//! The MIB pipeline: SMIv1/SMIv2 modules to typed Rust bindings.
//!
//! ```text
//! files on a search path ─ lex ─ parse ─▶ tree (SmiModule per module)   [lex, parse, tree, relax]
//!        ─ load (by module name, threads) ─▶ MibSet                       [load, needed, names]
//!        ─ resolve (imports, OIDs) ─▶ Resolved                           [resolve]
//!        ─ lower (syntaxes through their TEXTUAL-CONVENTIONs) ─▶ MIB IR  [ir]
//!        ─ emit (quote, prettyplease) ─▶ Rust modules                    [emit]
//! ```
//!
//! Each stage reads only the one before it: emit reads the IR, never the source text or the
//! syntax tree. Real-world modules are not always valid SMI: what mature compilers accept is
//! accepted with a named warning ([`Relaxation`]).

use std::path::{Path, PathBuf};

pub mod emit;
pub mod ir;
pub mod lex;
pub mod load;
pub mod lower;
mod names;
mod needed;
pub mod parse;
pub mod relax;
pub mod resolve;
pub mod tree;

pub use emit::emit_mibs;
pub use lex::lex;
pub use load::{MibFile, MibSet, UnreadFile, SUCCESSORS};
pub use lower::{presentation, row_index, Presentation};
pub use names::NameHasher;
pub use parse::parse_file;
pub use relax::{Finding, Relaxation};
pub use resolve::{resolve, MibNode, ModuleReport, Resolved, MAX_ARCS, MAX_OID_DEPTH};
pub use tree::{Access, Node, NodeKind, SmiModule, Status};

/// Arcs usable by name at the start of an OID value (X.660).
const ROOTS: &[(&str, u32)] = &[
    ("ccitt", 0),
    ("itu-t", 0),
    ("iso", 1),
    ("joint-iso-ccitt", 2),
    ("joint-iso-itu-t", 2),
];

/// Modules whose names a module may use without importing them (a relaxation, with a warning):
/// the SMI's own, in the order they are searched.
pub(crate) const BASE_MODULES: &[&str] = &[
    "SNMPv2-SMI",
    "SNMPv2-TC",
    "SNMPv2-CONF",
    "RFC1155-SMI",
    "RFC-1212",
    "RFC-1215",
    "RFC1213-MIB",
];

/// How many IMPORTS a name is followed through (re-exports) before the chain is taken for a
/// cycle.
pub const MAX_IMPORT_HOPS: usize = 32;

/// How [`MibSet::find_via`] reached a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Via {
    /// Defined in the module or in one it imports the name from (through re-exports).
    Found,
    /// Not imported by the module that uses it: taken from this SMI base module.
    Unimported(&'static str),
    /// Imported from a module along whose chain nothing defines or imports it (that import is
    /// reported where it is written): taken from an SMI base module.
    ChainEnd,
    /// Imported from a module not on the search path: taken from an SMI base module.
    MissingModule,
}

/// SMI application types and the ASN.1 base types: TEXTUAL-CONVENTION chains stop here.
pub const BASE_TYPES: &[&str] = &[
    "INTEGER",
    "OCTET STRING",
    "OBJECT IDENTIFIER",
    "BITS",
    "Integer32",
    "Unsigned32",
    "Gauge32",
    "Counter32",
    "Counter64",
    "TimeTicks",
    "IpAddress",
    "Opaque",
    "Counter",
    "Gauge",
    "NetworkAddress",
    "NULL",
];

/// The SMI's macros: known to every module whether or not a file defines them (some copies of
/// RFC-1212 comment their MACRO out).
const BUILTIN_MACROS: &[&str] = &[
    "OBJECT-TYPE",
    "MODULE-IDENTITY",
    "OBJECT-IDENTITY",
    "NOTIFICATION-TYPE",
    "TEXTUAL-CONVENTION",
    "OBJECT-GROUP",
    "NOTIFICATION-GROUP",
    "MODULE-COMPLIANCE",
    "AGENT-CAPABILITIES",
    "TRAP-TYPE",
];

/// Dotted text of an OID.
pub fn dotted(oid: &[u32]) -> String {
    oid.iter().map(u32::to_string).collect::<Vec<_>>().join(".")
}

/// The directories of a search path given as `DIR` or `DIR:DIR`.
pub fn split_path(p: &Path) -> Vec<PathBuf> {
    std::env::split_paths(p.as_os_str()).collect()
}
