//! RFC 5280's certificate and CRL structures, generated at build time from the RFC's own ASN.1
//! modules (asn1/pkix/ at the root of the workspace) by snmp-codegen with DER rules: a user's
//! non-SNMP modules compiled through the same `snmp_codegen::Builder` as the SNMP ones.
//!
//! Decoding borrows from the input and allocates nothing: a 9 MiB CRL decodes into a
//! [`CertificateList`](pkix1_explicit88::CertificateList) whose `revokedCertificates` is a lazy
//! list, each entry decoded as the iterator reaches it.
//!
//! ```
//! use pkix::pkix1_explicit88::CertificateList;
//! use pkix::Decode;
//!
//! # fn crl() -> Vec<u8> { pkix::inputs::tiny_crl() }
//! let der = crl();
//! let list = CertificateList::from_der(&der).unwrap();
//! let entries = list.tbs_cert_list.revoked_certificates.unwrap();
//! for entry in entries.iter() {
//!     let entry = entry.unwrap();
//!     let reason = pkix::extension::reason_code(&entry).unwrap();
//!     println!("{:?} revoked at {:?}, reason {:?}", entry.user_certificate, entry.revocation_date, reason);
//! }
//! ```

include!(concat!(env!("OUT_DIR"), "/pkix.rs"));

/// The codec's traits and types the generated ones are used through, so that depending on
/// this crate is enough: `use pkix::{Decode, Encode};`.
pub use snmp_ber::{
    Any, BitString, DateTime, Decode, DecodeError, Encode, EncodeError, GeneralizedTime, Integer,
    Piece, SequenceOf, UtcTime,
};

pub mod extension;
pub mod inputs;
