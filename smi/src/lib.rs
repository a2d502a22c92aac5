//! snmp-smi: the MIB front-end. SMIv1/SMIv2 modules are lexed, parsed (their SYNTAX clauses
//! and type assignments by an X.680 parser written with nom, [`asn1::parse`]), loaded by
//! module name from a search path ([`mib::MibSet`]), resolved (imports, OIDs: [`mib::resolve()`])
//! and lowered to the MIB IR ([`mib::ir`]), every problem a [`diag::Diagnostic`] that points
//! into its file. snmp-codegen emits Rust from the IR; `snmpc` and the exporter's generator
//! query the resolved tree (names, OIDs, syntaxes, DISPLAY-HINTs). Nothing here generates code.
//!
//! ```
//! use std::collections::HashSet;
//! use snmp_smi::mib::{resolve, MibSet};
//!
//! let mut set = MibSet::default();
//! set.add_standard_modules(); // SNMPv2-SMI, -TC, IF-MIB, ... built in
//! set.add_text(
//!     "ACME-MIB".into(),
//!     "ACME-MIB DEFINITIONS ::= BEGIN
//!      IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;
//!      acmeUplink OBJECT-TYPE SYNTAX INTEGER MAX-ACCESS read-only STATUS current
//!          DESCRIPTION \"the uplink\" ::= { enterprises 99999 1 }
//!      END"
//!         .into(),
//! );
//! let resolved = resolve(&set, &["ACME-MIB".into()], &HashSet::new());
//! assert!(resolved.reports.iter().all(|r| r.ok()));
//! let uplink = resolved.nodes.iter().find(|n| set.name(n) == "acmeUplink").unwrap();
//! assert_eq!(resolved.oid(uplink), [1, 3, 6, 1, 4, 1, 99999, 1]);
//! ```

pub mod asn1 {
    //! The ASN.1 front-end the SMI's SYNTAX clauses and snmp-codegen's ASN.1 pipeline share:
    //! the syntax tree ([`ast`]) and its nom parser ([`parse`]). Nothing here knows about MIBs.
    pub mod ast;
    pub mod parse;
}
pub mod diag;
pub mod mib;
#[cfg(feature = "names")]
pub mod names;
pub mod naming;
pub mod standard;
