//! The SNMPv2 PDUs CHOICE alone.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Decode, Encode};
use snmp_messages::snmpv2_pdu::Pdus;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Pdus::from_ber_validated(data) {
        let again = p.to_ber().expect("a validated PDU encodes");
        assert_eq!(p.encoded_len(), again.len(), "encoded_len counts what is written");
        assert_eq!(Pdus::from_ber_validated(&again).expect("its encoding decodes"), p);
    }
});
