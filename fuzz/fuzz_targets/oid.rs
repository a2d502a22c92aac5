//! OBJECT IDENTIFIER contents: validation, arcs, dotted text and back.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Oid, OidBuf};

fuzz_target!(|data: &[u8]| {
    if let Ok(o) = Oid::from_ber(data) {
        let arcs: Vec<u32> = o.arcs().collect();
        assert_eq!(arcs.len(), o.len());
        let text = o.to_string();
        let back: OidBuf = text.parse().expect("dotted text parses back");
        assert_eq!(back.as_oid(), o);
        assert_eq!(o.cmp(&back.as_oid()), std::cmp::Ordering::Equal);
    }
});
