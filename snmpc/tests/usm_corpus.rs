//! The USM against net-snmp's own messages: every authenticated SNMPv3 message of the pcap
//! corpus (net-snmp 5.9's tools and agent, users and passwords in corpus/pcap/MANIFEST.md)
//! verifies with the user's localized key, in place, and fails with any octet changed; every
//! encrypted scoped PDU decrypts to one that decodes, and encrypts back to the same octets;
//! the capture made with a wrong password fails with the right one.

use std::collections::BTreeMap;
use std::path::PathBuf;

use snmp_ber::{Decode, Encode};
use snmp_client::incoming::{flags, Incoming};
use snmp_client::usm::{self, AuthProtocol, Key, PrivProtocol, UsmError};
use snmp_messages::snmpv3_message_syntax::{ScopedPdu, ScopedPduData};
use snmpc::capture;

/// A user: name, authentication protocol and password, privacy protocol and password.
type User = (
    &'static str,
    AuthProtocol,
    &'static str,
    Option<(PrivProtocol, &'static str)>,
);

/// corpus/pcap/MANIFEST.md's users.
const USERS: &[User] = &[
    ("md5user", AuthProtocol::Md5, "md5password", None),
    ("shauser", AuthProtocol::Sha1, "shapassword", None),
    ("sha224user", AuthProtocol::Sha224, "sha224password", None),
    ("sha256user", AuthProtocol::Sha256, "sha256password", None),
    ("sha384user", AuthProtocol::Sha384, "sha384password", None),
    ("sha512user", AuthProtocol::Sha512, "sha512password", None),
    (
        "desuser",
        AuthProtocol::Sha1,
        "desauthpass",
        Some((PrivProtocol::Des, "desprivpass")),
    ),
    (
        "aesuser",
        AuthProtocol::Sha1,
        "aesauthpass",
        Some((PrivProtocol::Aes128, "aesprivpass")),
    ),
    (
        "aes192user",
        AuthProtocol::Sha256,
        "aes192authpass",
        Some((PrivProtocol::Aes192, "aes192privpass")),
    ),
    (
        "aes256user",
        AuthProtocol::Sha512,
        "aes256authpass",
        Some((PrivProtocol::Aes256, "aes256privpass")),
    ),
];

fn pcaps() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/pcap");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("v3-") && name.ends_with(".pcap")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn net_snmp_messages_verify_and_decrypt() {
    let mut verified: BTreeMap<&str, usize> = BTreeMap::new();
    let mut decrypted: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wrong_password = 0;
    for path in pcaps() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let datagrams = capture::read(std::fs::File::open(&path).unwrap())
            .unwrap()
            .into_datagrams();
        for d in &datagrams {
            let here = format!("{file} frame {}", d.frame);
            let m = Incoming::parse(&d.payload).unwrap_or_else(|e| panic!("{here}: {e}"));
            if m.flags() & flags::AUTH == 0 {
                continue;
            }
            let user = std::str::from_utf8(m.usm.msg_user_name).unwrap();
            let &(_, auth, password, privacy) = USERS
                .iter()
                .find(|u| u.0 == user)
                .unwrap_or_else(|| panic!("{here}: user {user} is not in the manifest"));
            let engine = m.usm.msg_authoritative_engine_id;
            let key = Key::localized(auth, password.as_bytes(), engine).unwrap();
            let result = m.verify(auth, &key);
            if file == "v3-wrong-password.pcap" {
                // The manager used another password: the right key does not verify it.
                assert_eq!(
                    result,
                    Err(UsmError::WrongDigest {
                        protocol: auth.name()
                    }),
                    "{here}"
                );
                wrong_password += 1;
                continue;
            }
            result.unwrap_or_else(|e| panic!("{here}: {e}"));
            *verified.entry(auth.name()).or_default() += 1;
            // Any octet changed, inside the MAC or outside it, fails.
            for k in [0, m.auth_params_at.start, d.payload.len() - 1] {
                let mut bad = d.payload.clone();
                bad[k] ^= 0x80;
                assert!(
                    usm::verify(auth, &key, &bad, m.auth_params_at.clone()).is_err(),
                    "{here}: octet {k} changed still verifies"
                );
            }
            // Signing the message again writes the same MAC.
            let mut again = d.payload.clone();
            again[m.auth_params_at.clone()].fill(0);
            usm::sign(auth, &key, &mut again, m.auth_params_at.clone()).unwrap();
            assert_eq!(again, d.payload, "{here}: signed again");

            let Some((priv_protocol, priv_password)) = privacy else {
                continue;
            };
            // The privacy key is localized with the authentication protocol's hash.
            let pkey = Key::localized(auth, priv_password.as_bytes(), engine).unwrap();
            let ScopedPduData::EncryptedPdu(cipher) = m.message.msg_data else {
                panic!("{here}: privFlag without an encrypted PDU");
            };
            let plain = m
                .scoped_pdu_octets(Some((priv_protocol, &pkey)))
                .unwrap_or_else(|e| panic!("{here}: {e}"));
            let scoped = ScopedPdu::from_ber(&plain).unwrap_or_else(|e| panic!("{here}: {e}"));
            assert_eq!(scoped.to_ber().unwrap(), plain, "{here}: re-encoded");
            // Encrypting the decrypted octets (with the sender's padding) gives the ciphertext.
            let (boots, time) = (
                m.usm.msg_authoritative_engine_boots,
                m.usm.msg_authoritative_engine_time,
            );
            let salt: &[u8; 8] = m.usm.msg_privacy_parameters.try_into().unwrap();
            let padded = usm::decrypt(priv_protocol, &pkey, boots, time, salt, cipher).unwrap();
            let encrypted = usm::encrypt(priv_protocol, &pkey, boots, time, salt, &padded).unwrap();
            assert_eq!(encrypted, cipher, "{here}: encrypted again");
            // Another key gives other octets.
            let wrong = Key::localized(auth, b"not the password", engine).unwrap();
            let other = usm::decrypt(priv_protocol, &wrong, boots, time, salt, cipher).unwrap();
            assert_ne!(other, padded, "{here}: another key");
            *decrypted.entry(priv_protocol.name()).or_default() += 1;
        }
    }
    println!("USM over the corpus: verified {verified:?}, decrypted {decrypted:?}, wrong password refused {wrong_password}");
    // Every protocol is exercised: each authenticates a request and its response.
    for p in AuthProtocol::ALL {
        assert!(
            verified.get(p.name()).copied().unwrap_or(0) >= 2,
            "{} verified {verified:?}",
            p.name()
        );
    }
    // The captures' ciphers; AES192C and AES256C differ from AES-192 and AES-256 only in how a
    // short key is extended (usm_netsnmp.rs and client/tests/live_v3.rs check that).
    let captured = [
        PrivProtocol::Des,
        PrivProtocol::Aes128,
        PrivProtocol::Aes192,
        PrivProtocol::Aes256,
    ];
    for p in captured {
        assert!(
            decrypted.get(p.name()).copied().unwrap_or(0) >= 2,
            "{} decrypted {decrypted:?}",
            p.name()
        );
    }
    assert!(wrong_password >= 1);
}

#[test]
fn flags_that_contradict_the_message_are_errors() {
    use snmp_client::incoming::IncomingError;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/pcap/v3-md5.pcap");
    let datagrams = capture::read(std::fs::File::open(path).unwrap())
        .unwrap()
        .into_datagrams();
    // An authNoPriv request (flags 5: auth, reportable).
    let request = datagrams
        .iter()
        .find(|d| Incoming::parse(&d.payload).is_ok_and(|m| m.flags() == 5))
        .expect("an authenticated request");
    let at = request
        .payload
        .windows(3)
        .position(|w| w == [0x04, 0x01, 0x05])
        .expect("msgFlags")
        + 2;
    let with_flags = |f: u8| {
        let mut bytes = request.payload.clone();
        bytes[at] = f;
        bytes
    };
    // Privacy without authentication: invalid (RFC 3412 7.2).
    assert!(matches!(
        Incoming::parse(&with_flags(0x06)),
        Err(IncomingError::PrivWithoutAuth(0x06))
    ));
    // authPriv flags over a plaintext scoped PDU.
    let bytes = with_flags(0x07);
    let m = Incoming::parse(&bytes).unwrap();
    let key = Key::localized(AuthProtocol::Sha1, b"aesprivpass", b"engine").unwrap();
    assert!(matches!(
        m.scoped_pdu_octets(Some((PrivProtocol::Aes128, &key))),
        Err(IncomingError::DataForm {
            found: "plaintext",
            ..
        })
    ));
    // As it was: the plaintext scoped PDU, which decodes whole.
    let m = Incoming::parse(&request.payload).unwrap();
    let plain = m.scoped_pdu_octets(None).unwrap();
    ScopedPdu::from_ber(&plain).unwrap();
    // Not a message at all.
    assert!(matches!(
        Incoming::parse(&request.payload[..20]),
        Err(IncomingError::Message(_))
    ));
}
