//! Whole SNMPv2c messages: decode (lazy and validated) never panics; iteration agrees with
//! validation; what decodes re-encodes to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Decode, Encode};
use snmp_messages::community_based_snmpv2::Message;
use snmp_messages::snmpv2_pdu::Pdus;

fuzz_target!(|data: &[u8]| {
    let lazy = Message::from_ber(data);
    let validated = Message::from_ber_validated(data);
    if let Ok(m) = &lazy {
        if let Pdus::Response(r) = m.data {
            let all_ok = r.0.variable_bindings.0.iter().all(|vb| vb.is_ok());
            // Validation fails exactly when some binding does not decode.
            assert_eq!(all_ok, validated.is_ok());
        }
    } else {
        assert!(validated.is_err());
    }
    if let Ok(m) = validated {
        let again = m.to_ber().expect("a validated message encodes");
        assert_eq!(m.encoded_len(), again.len(), "encoded_len counts what is written");
        assert_eq!(Message::from_ber_validated(&again).expect("its encoding decodes"), m);
    }
});
