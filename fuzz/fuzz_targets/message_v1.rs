//! Whole SNMPv1 messages: decoding never panics; whatever decodes (fully validated) re-encodes
//! to octets that decode to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Decode, Encode};
use snmp_messages::rfc1157_snmp::Message;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = Message::from_ber_validated(data) {
        let again = m.to_ber().expect("a validated message encodes");
        assert_eq!(m.encoded_len(), again.len(), "encoded_len counts what is written");
        let back = Message::from_ber_validated(&again).expect("its encoding decodes");
        assert_eq!(back, m);
    }
});
