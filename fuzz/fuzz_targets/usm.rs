//! UsmSecurityParameters.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Decode, Encode};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;

fuzz_target!(|data: &[u8]| {
    if let Ok(u) = UsmSecurityParameters::from_ber(data) {
        let again = u.to_ber().expect("decoded parameters encode");
        assert_eq!(u.encoded_len(), again.len(), "encoded_len counts what is written");
        assert_eq!(UsmSecurityParameters::from_ber(&again).expect("their encoding decodes"), u);
    }
});
