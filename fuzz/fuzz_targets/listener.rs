//! The notification receiver on arbitrary datagrams: never a panic; a notification it takes
//! has a source, a version and bindings that print; an inform's answer decodes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_client::listen::{Handled, Listener};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::UsmUser;

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static USER: UsmUser = UsmUser::new(
            "fuzzuser",
            Some((AuthProtocol::Sha1, b"fuzzauthpass")),
            Some((PrivProtocol::Aes128, b"fuzzprivpass")),
        )
        .expect("a user");
    }
    let user = USER.with(|u| u.clone());
    let mut l = Listener::new(Vec::new(), vec![user]);
    let from = "127.0.0.1:40000".parse().expect("an address");
    if let Handled::Notification(n, reply) = l.handle(from, data) {
        assert!(matches!(n.version, "1" | "2c" | "3"));
        let _ = format!("{n:?}");
        if let Some(reply) = reply {
            assert!(!reply.is_empty());
        }
    }
    let (received, _, _) = l.counters();
    assert_eq!(received, 1);
});
