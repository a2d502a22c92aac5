//! MIB modules to typed Rust bindings: the front-end (lex, parse, load, resolve, lower to the
//! MIB IR) is snmp-smi's, re-exported here; the emitter over its IR is this crate's.
//!
//! ```text
//! snmp-smi: files ─ lex ─ parse ─ load ─ resolve ─ lower ─▶ MIB IR
//! here:     MIB IR ─ emit (quote, prettyplease) ─▶ Rust modules
//! ```
//!
//! Emit reads the IR, never the source text or the syntax tree.

pub use snmp_smi::mib::*;

pub mod emit;

pub use emit::{emit_mibs, EmitOptions};
