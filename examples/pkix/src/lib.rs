//! RFC 5280's certificate and CRL structures, generated from the RFC's own ASN.1 modules.

include!(concat!(env!("OUT_DIR"), "/pkix.rs"));
