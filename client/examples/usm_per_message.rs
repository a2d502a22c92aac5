//! The USM work one message costs, N times over, for instruction counts: a MAC made and
//! checked (SHA-1) and 100 octets encrypted and decrypted (AES-128) with keys localized once.
//! The difference between two runs is the per-message cost, without the one-off key
//! derivation (a megabyte hashed per password):
//!
//! ```sh
//! cargo build --release -p snmp-client --example usm_per_message
//! valgrind --tool=callgrind target/release/examples/usm_per_message 1000   # I refs: A
//! valgrind --tool=callgrind target/release/examples/usm_per_message 2000   # I refs: B
//! # (B - A) / 1000 instructions a message
//! ```

use snmp_client::usm::{self, AuthProtocol, Key, PrivProtocol};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let engine = b"\x80\x00\x1f\x88\x04snmp-codegen";
    let auth = Key::localized(AuthProtocol::Sha1, b"authpassword", engine).expect("a password");
    let privacy = Key::localized(AuthProtocol::Sha1, b"privpassword", engine).expect("a password");
    let mut message: Vec<u8> = (0..150u8).collect();
    let at = 40..52;
    let mut checked = 0u64;
    for i in 0..n {
        let salt = i.to_be_bytes();
        usm::sign(AuthProtocol::Sha1, &auth, &mut message, at.clone()).expect("in range");
        checked += u64::from(usm::verify(AuthProtocol::Sha1, &auth, &message, at.clone()).is_ok());
        let sealed = usm::encrypt(PrivProtocol::Aes128, &privacy, 1, 2, &salt, &message[..100])
            .expect("a key");
        let opened =
            usm::decrypt(PrivProtocol::Aes128, &privacy, 1, 2, &salt, &sealed).expect("a key");
        assert_eq!(opened, message[..100]);
    }
    println!("{checked} of {n} messages checked");
}
