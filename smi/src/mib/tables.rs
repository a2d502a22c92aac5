//! The SMI's fixed tables, shared by the front-end's stages: a leaf module that imports
//! nothing from them.

/// Arcs usable by name at the start of an OID value (X.660).
pub(crate) const ROOTS: &[(&str, u32)] = &[
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
pub(crate) const BUILTIN_MACROS: &[&str] = &[
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
