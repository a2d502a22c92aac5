//! The ASN.1 pipeline: X.680 modules to Rust BER/DER codecs.
//!
//! ```text
//! module text ─ parse (nom) ─▶ ast ─ resolve (imports, references, tags, constraints) ─▶ ir
//!             ─ emit (quote, prettyplease; one submodule per construct) ─▶ Rust modules
//! ```
//!
//! The syntax tree and its parser are snmp-smi's (the MIB front-end parses SYNTAX clauses with
//! them); resolving and emitting are here. Nothing here knows about MIBs.

pub use snmp_smi::asn1::{ast, parse};
pub mod emit;
pub mod ir;
pub mod resolve;
