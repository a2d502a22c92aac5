//! Received SNMPv3 messages through the USM: taken apart, their MAC checked in place with a
//! key of every protocol's length, their scoped PDU decrypted with every privacy protocol.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use snmp_client::usm::{AuthProtocol, Key, PrivProtocol};
use snmp_client::Incoming;

fn keys() -> &'static [(AuthProtocol, Key)] {
    static KEYS: OnceLock<Vec<(AuthProtocol, Key)>> = OnceLock::new();
    KEYS.get_or_init(|| {
        AuthProtocol::ALL
            .iter()
            .map(|&p| (p, Key::localized(p, b"fuzzpassword", b"engine").unwrap()))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(m) = Incoming::parse(data) else { return };
    assert!(m.auth_params_at.end <= data.len());
    assert_eq!(
        &data[m.auth_params_at.clone()],
        m.usm.msg_authentication_parameters
    );
    for (p, key) in keys() {
        let _ = m.verify(*p, key);
        if *p == AuthProtocol::Sha512 {
            for q in PrivProtocol::ALL {
                let _ = m.scoped_pdu_octets(Some((q, key)));
            }
        }
    }
    let _ = m.scoped_pdu_octets(None);
});
