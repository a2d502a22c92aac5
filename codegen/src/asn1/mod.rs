//! The ASN.1 pipeline: X.680 modules to Rust BER/DER codecs.
//!
//! ```text
//! module text ─ parse (nom) ─▶ ast ─ resolve (imports, references, tags, constraints) ─▶ ir
//!             ─ emit (quote, prettyplease; one submodule per construct) ─▶ Rust modules
//! ```
//!
//! The SMI front-end ([`crate::mib`]) reuses this parser for SYNTAX clauses and type
//! assignments; nothing here knows about MIBs.

pub mod ast;
pub mod emit;
pub mod ir;
pub mod parse;
pub mod resolve;
