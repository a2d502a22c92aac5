//! The USM side by side with net-snmp's own (libnetsnmp's keytools and scapi, loaded at run
//! time): the same keys from the same passwords and engines for every authentication protocol,
//! MACs net-snmp accepts (and refuses once an octet changes), ciphertexts net-snmp decrypts to
//! the same plaintext for every privacy protocol, and the same protocol OIDs.

use snmp_client::usm::{self, AuthProtocol, Key, PrivProtocol};
use snmp_netsnmp::NetSnmp;

/// A small deterministic generator (xorshift), so that a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

fn library() -> Option<NetSnmp> {
    match NetSnmp::load() {
        Ok(l) => Some(l),
        Err(e) => {
            snmp_test_support::skip(&e.to_string());
            None
        }
    }
}

#[test]
fn keys_macs_and_ciphertexts_agree_with_net_snmp() {
    let Some(lib) = library() else { return };
    let theirs = lib.usm().expect("libnetsnmp has its USM functions");
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut checked = (0, 0, 0);
    for auth in AuthProtocol::ALL {
        for round in 0..3 {
            // Printable passwords of 8 to 40 octets, engine IDs of 5 to 32 (RFC 3411).
            let len = 8 + (rng.next() % 33) as usize;
            let password: Vec<u8> = rng.bytes(len).iter().map(|b| b'!' + b % 90).collect();
            let len = 5 + (rng.next() % 28) as usize;
            let engine = rng.bytes(len);
            let here = format!("{} round {round}", auth.name());
            let ku = Key::from_password(auth, &password).unwrap();
            assert_eq!(
                theirs.key_from_password(auth.oid(), &password).unwrap(),
                ku.as_bytes(),
                "{here}: Ku"
            );
            let kul = ku.localize(auth, &engine);
            assert_eq!(
                theirs.localize(auth.oid(), &engine, ku.as_bytes()).unwrap(),
                kul.as_bytes(),
                "{here}: Kul"
            );
            checked.0 += 1;

            // A message signed here checks there, with its MAC field zeroed as the USM hashes
            // it; one octet changed, it does not.
            let len = 60 + (rng.next() % 400) as usize;
            let mut message = rng.bytes(len);
            let at = 20..20 + auth.mac_len();
            usm::sign(auth, &kul, &mut message, at.clone()).unwrap();
            let mac = message[at.clone()].to_vec();
            let mut zeroed = message.clone();
            zeroed[at.clone()].fill(0);
            assert!(
                theirs.check_mac(auth.oid(), kul.as_bytes(), &zeroed, &mac),
                "{here}: net-snmp refuses our MAC"
            );
            zeroed[message.len() - 1] ^= 1;
            assert!(
                !theirs.check_mac(auth.oid(), kul.as_bytes(), &zeroed, &mac),
                "{here}: net-snmp accepts a changed message"
            );
            checked.1 += 1;

            // Privacy keys come from the authentication protocol's hash; AES-192 and -256 need
            // one long enough (SHA-256 and up give 32 octets or more).
            for privacy in PrivProtocol::ALL {
                let pkey = Key::localized(auth, &password, &engine).unwrap();
                if pkey.as_bytes().len() < privacy.key_len() {
                    continue;
                }
                let (boots, time) = (rng.next() as u32 >> 1, rng.next() as u32 >> 1);
                let salt: [u8; 8] = rng.bytes(8).try_into().unwrap();
                let len = 1 + (rng.next() % 300) as usize;
                let plain = rng.bytes(len);
                let cipher = usm::encrypt(privacy, &pkey, boots, time, &salt, &plain).unwrap();
                let k = pkey.as_bytes();
                let iv: Vec<u8> = match privacy {
                    PrivProtocol::Des => (0..8).map(|i| k[8 + i] ^ salt[i]).collect(),
                    _ => [&boots.to_be_bytes()[..], &time.to_be_bytes(), &salt].concat(),
                };
                let key_len = if privacy == PrivProtocol::Des {
                    8
                } else {
                    privacy.key_len()
                };
                let decrypted = theirs
                    .decrypt(privacy.oid(), &k[..key_len], &iv, &cipher)
                    .unwrap_or_else(|rc| panic!("{here} {}: sc_decrypt {rc}", privacy.name()));
                assert_eq!(
                    &decrypted[..plain.len()],
                    &plain[..],
                    "{here} {}",
                    privacy.name()
                );
                checked.2 += 1;
            }
        }
    }
    println!(
        "net-snmp agrees: {} keys (Ku and Kul), {} MACs, {} ciphertexts",
        checked.0, checked.1, checked.2
    );
    assert_eq!(checked.0, 18);
    // Three rounds of: DES and AES-128 for each of the 6 protocols, AES-192 and AES192C for
    // the 4 whose keys have 24 octets or more (SHA-224 up), AES-256 and AES256C for the 3 with
    // 32 or more (shorter keys are extended: `extended_privacy_keys_agree_with_net_snmp`).
    assert_eq!(checked.2, 3 * (6 * 2 + 4 * 2 + 3 * 2));
}

/// The AES-192 and AES-256 keys extended from short localized keys (Blumenthal's draft for
/// `AES-192`/`AES-256`, Reeder's for Cisco's `AES192C`/`AES256C`) are net-snmp's.
#[test]
fn extended_privacy_keys_agree_with_net_snmp() {
    use snmp_netsnmp::{PRIV_AES192, PRIV_AES256, PRIV_CISCO_REEDER};
    let Some(lib) = library() else { return };
    let theirs = lib.usm().expect("libnetsnmp has its USM functions");
    let mut rng = Rng(0x5eed_0000_aaaa_5555);
    let mut compared = 0;
    for auth in [AuthProtocol::Md5, AuthProtocol::Sha1, AuthProtocol::Sha224] {
        let password: Vec<u8> = rng.bytes(12).iter().map(|b| b'!' + b % 90).collect();
        let engine = rng.bytes(12);
        let kul = Key::localized(auth, &password, &engine).unwrap();
        for (privacy, priv_type) in [
            (PrivProtocol::Aes192, PRIV_AES192),
            (PrivProtocol::Aes256, PRIV_AES256),
            (PrivProtocol::Aes192C, PRIV_AES192 | PRIV_CISCO_REEDER),
            (PrivProtocol::Aes256C, PRIV_AES256 | PRIV_CISCO_REEDER),
        ] {
            let ours = privacy.extend_key(kul.clone(), auth, &engine);
            let need = privacy.key_len();
            let Some(extended) =
                theirs.extend_kul(auth.oid(), priv_type, &engine, kul.as_bytes(), need)
            else {
                snmp_test_support::skip(
                    "libnetsnmp has no netsnmp_extend_kul (net-snmp before 5.8)",
                );
                return;
            };
            let extended = extended.unwrap_or_else(|rc| panic!("netsnmp_extend_kul: {rc}"));
            let here = format!("{} {}", auth.name(), privacy.name());
            if extended.len() < need {
                snmp_test_support::skip(&format!(
                    "libnetsnmp built without the AES key-extension drafts ({here}: {} octets)",
                    extended.len()
                ));
                return;
            }
            assert_eq!(&ours.as_bytes()[..need], &extended[..need], "{here}");
            compared += 1;
        }
    }
    assert_eq!(compared, 12);
}

#[test]
fn protocol_oids_are_net_snmps() {
    let Some(lib) = library() else { return };
    let theirs = lib.usm().expect("libnetsnmp has its USM functions");
    let names = [
        (AuthProtocol::Md5.oid(), "usmHMACMD5AuthProtocol"),
        (AuthProtocol::Sha1.oid(), "usmHMACSHA1AuthProtocol"),
        (AuthProtocol::Sha224.oid(), "usmHMAC128SHA224AuthProtocol"),
        (AuthProtocol::Sha256.oid(), "usmHMAC192SHA256AuthProtocol"),
        (AuthProtocol::Sha384.oid(), "usmHMAC256SHA384AuthProtocol"),
        (AuthProtocol::Sha512.oid(), "usmHMAC384SHA512AuthProtocol"),
        (PrivProtocol::Des.oid(), "usmDESPrivProtocol"),
        (PrivProtocol::Aes128.oid(), "usmAESPrivProtocol"),
        (PrivProtocol::Aes192.oid(), "usmAES192PrivProtocol"),
        (PrivProtocol::Aes256.oid(), "usmAES256PrivProtocol"),
    ];
    for (ours, name) in names {
        assert_eq!(
            theirs.protocol_oid(name, ours.len()).as_deref(),
            Some(ours),
            "{name}"
        );
    }
}
