//! The MIB front-end: SMIv1/SMIv2 modules to the MIB IR that snmp-codegen emits Rust from
//! and that `snmpc` and the exporter's generator query.
//!
//! ```text
//! files on a search path ─ lex ─ parse ─▶ tree (SmiModule per module)   [lex, parse, tree, relax]
//!        ─ load (by module name, threads) ─▶ MibSet                       [load, needed, names]
//!        ─ resolve (imports, OIDs) ─▶ Resolved                           [resolve]
//!        ─ lower (syntaxes through their TEXTUAL-CONVENTIONs) ─▶ MIB IR  [ir, lower]
//! ```
//!
//! The tables every stage shares (root arcs, the SMI base modules and types, the built-in
//! macros) are in [`tables`], a leaf: no stage reaches back up into this module for them.
//!
//! Each stage reads only the one before it: emit reads the IR, never the source text or the
//! syntax tree. Real-world modules are not always valid SMI: what mature compilers accept is
//! accepted with a named warning ([`Relaxation`]).

use std::path::{Path, PathBuf};

pub mod ir;
pub mod lex;
pub mod load;
pub mod lower;
mod names;
mod needed;
pub mod parse;
pub mod precedence;
pub mod relax;
pub mod resolve;
pub mod spread;
pub mod tables;
pub mod tree;

pub use lex::lex;
pub use load::{MibFile, MibSet, UnreadFile, SUCCESSORS};
pub use lower::{presentation, row_index, Presentation};
pub use names::NameHasher;
pub use parse::{parse_file, parse_file_with, Syntaxes};
pub use relax::{Finding, Relaxation};
pub use resolve::{resolve, MibNode, ModuleReport, Resolved, MAX_ARCS, MAX_OID_DEPTH};
pub(crate) use tables::{Via, BASE_MODULES, BUILTIN_MACROS, ROOTS};
pub use tables::{BASE_TYPES, MAX_IMPORT_HOPS};
pub use tree::{Access, Node, NodeKind, SmiModule, Status};

/// Dotted text of an OID.
pub fn dotted(oid: &[u32]) -> String {
    oid.iter().map(u32::to_string).collect::<Vec<_>>().join(".")
}

/// The directories of a search path given as `DIR` or `DIR:DIR`.
pub fn split_path(p: &Path) -> Vec<PathBuf> {
    std::env::split_paths(p.as_os_str()).collect()
}
