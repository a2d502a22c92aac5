//! Whole SNMPv3 messages and the USM parameters inside them.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Decode, Encode};
use snmp_messages::snmpv3_message_syntax::Snmpv3Message;
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = Snmpv3Message::from_ber_validated(data) {
        let _ = UsmSecurityParameters::from_ber(m.msg_security_parameters);
        let again = m.to_ber().expect("a validated message encodes");
        assert_eq!(m.encoded_len(), again.len(), "encoded_len counts what is written");
        assert_eq!(Snmpv3Message::from_ber_validated(&again).expect("its encoding decodes"), m);
    }
});
