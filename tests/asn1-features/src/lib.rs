//! The code generated from asn1/Features.asn1 by build.rs.

include!(concat!(env!("OUT_DIR"), "/asn1.rs"));
