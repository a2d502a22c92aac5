//! The simulated agent on arbitrary datagrams: never a panic, never a loop; an answer it gives
//! is an SNMP message of the request's version.
#![no_main]
use std::sync::Arc;
use std::time::Instant;

use libfuzzer_sys::fuzz_target;
use snmp_client::respond::{Responder, View};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::UsmUser;

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static VIEW: Arc<View> = Arc::new(View::from_walk(
            ".1.3.6.1.2.1.1.1.0 = STRING: \"fuzz\"\n\
             .1.3.6.1.2.1.1.3.0 = Timeticks: (5) 0:00:00.05\n\
             .1.3.6.1.2.1.31.1.1.1.6.1 = Counter64: 7\n\
             .1.3.6.1.2.1.4.20.1.1.192.0.2.1 = IpAddress: 192.0.2.1\n",
        ).0);
        static USER: UsmUser = UsmUser::new(
            "fuzzuser",
            Some((AuthProtocol::Sha1, b"fuzzauthpass")),
            Some((PrivProtocol::Aes128, b"fuzzprivpass")),
        )
        .expect("a user");
    }
    let view = VIEW.with(Arc::clone);
    let user = USER.with(|u| u.clone());
    let now = Instant::now();
    let mut r = Responder::new(
        view,
        vec![b"public".to_vec()],
        vec![user],
        b"\x80\x00\x1f\x88\x04fuzz",
        1,
        now,
    );
    if let Some(answer) = r.handle(data, now) {
        // A SEQUENCE, as every SNMP message is.
        assert_eq!(answer.first(), Some(&0x30));
    }
    assert_eq!(r.served().received, 1);
});
