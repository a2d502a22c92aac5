//! The User-based Security Model's cryptography: keys (RFC 3414 2.6 and A.2), authentication
//! (HMAC-MD5-96 and HMAC-SHA-96, RFC 3414 6 and 7; HMAC-SHA-2, RFC 7860) and privacy (DES-CBC,
//! RFC 3414 8; AES-CFB128, RFC 3826, with 192- and 256-bit keys as net-snmp offers them).
//!
//! Messages are authenticated in place: [`sign`] writes the MAC into the encoded message's
//! `msgAuthenticationParameters` and [`verify`] checks it there, hashing the octets around the
//! field and zeros for it, with no copy of the message.

use std::ops::Range;

use aes::cipher::{AsyncStreamCipher, BlockDecryptMut, BlockEncryptMut};
use hmac::Hmac;
use sha2::Digest;

/// Why a USM operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UsmError {
    /// The authentication protocol's name is not one this crate knows.
    #[error("unknown authentication protocol `{0}`: expected MD5, SHA, SHA-224, SHA-256, SHA-384 or SHA-512")]
    UnknownAuthProtocol(String),
    /// The privacy protocol's name is not one this crate knows.
    #[error("unknown privacy protocol `{0}`: expected DES, AES, AES-192 or AES-256")]
    UnknownPrivProtocol(String),
    /// A password shorter than RFC 3414 11.2 allows (net-snmp refuses them too).
    #[error("a USM password needs at least {MIN_PASSWORD} octets, found {0}")]
    ShortPassword(usize),
    /// A key of the wrong length for what it is used for.
    #[error("{what}: expected a key of at least {expected} octets, found {found}")]
    KeyLength {
        /// What the key was for.
        what: &'static str,
        /// The length needed.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// `msgAuthenticationParameters` is not as long as the protocol's MAC.
    #[error(
        "msgAuthenticationParameters: expected {expected} octets for {protocol}, found {found}"
    )]
    AuthParametersLength {
        /// The protocol.
        protocol: &'static str,
        /// Its MAC's length.
        expected: usize,
        /// The field's length.
        found: usize,
    },
    /// The field lies outside the message.
    #[error("msgAuthenticationParameters at {start}..{end} is outside the {len}-octet message")]
    AuthParametersOutside {
        /// Where the field starts.
        start: usize,
        /// Where it ends.
        end: usize,
        /// The message's length.
        len: usize,
    },
    /// The MAC in the message is not the one its key gives.
    #[error("the message's {protocol} MAC does not match")]
    WrongDigest {
        /// The protocol.
        protocol: &'static str,
    },
    /// A privacy protocol without an authentication protocol (RFC 3414 3.1.1: not a
    /// security level).
    #[error("privacy needs authentication too")]
    PrivacyWithoutAuth,
    /// `msgPrivacyParameters` is not the eight octets of salt every privacy protocol sends.
    #[error("msgPrivacyParameters: expected 8 octets of salt, found {0}")]
    PrivParametersLength(usize),
    /// DES-CBC ciphertext that is not whole blocks.
    #[error("encryptedPDU: DES-CBC ciphertext must be a multiple of 8 octets, found {0}")]
    CiphertextLength(usize),
}

/// The shortest password RFC 3414 11.2 allows.
pub const MIN_PASSWORD: usize = 8;

/// How many octets of the password are hashed into a key (RFC 3414 A.2).
const PASSWORD_STREAM: usize = 1 << 20;

/// An authentication protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AuthProtocol {
    /// usmHMACMD5AuthProtocol (RFC 3414 6).
    Md5,
    /// usmHMACSHAAuthProtocol (RFC 3414 7).
    Sha1,
    /// usmHMAC128SHA224AuthProtocol (RFC 7860).
    Sha224,
    /// usmHMAC192SHA256AuthProtocol (RFC 7860).
    Sha256,
    /// usmHMAC256SHA384AuthProtocol (RFC 7860).
    Sha384,
    /// usmHMAC384SHA512AuthProtocol (RFC 7860).
    Sha512,
}

impl AuthProtocol {
    /// Every protocol.
    pub const ALL: [AuthProtocol; 6] = [
        AuthProtocol::Md5,
        AuthProtocol::Sha1,
        AuthProtocol::Sha224,
        AuthProtocol::Sha256,
        AuthProtocol::Sha384,
        AuthProtocol::Sha512,
    ];

    /// The name net-snmp's `-a` takes.
    pub fn name(self) -> &'static str {
        match self {
            AuthProtocol::Md5 => "MD5",
            AuthProtocol::Sha1 => "SHA",
            AuthProtocol::Sha224 => "SHA-224",
            AuthProtocol::Sha256 => "SHA-256",
            AuthProtocol::Sha384 => "SHA-384",
            AuthProtocol::Sha512 => "SHA-512",
        }
    }

    /// The protocol a name (as net-snmp's `-a` takes it, any case; `SHA1` for SHA) stands for.
    pub fn from_name(name: &str) -> Result<AuthProtocol, UsmError> {
        let upper = name.to_ascii_uppercase();
        Ok(match upper.as_str() {
            "MD5" => AuthProtocol::Md5,
            "SHA" | "SHA1" | "SHA-1" => AuthProtocol::Sha1,
            "SHA-224" | "SHA224" => AuthProtocol::Sha224,
            "SHA-256" | "SHA256" => AuthProtocol::Sha256,
            "SHA-384" | "SHA384" => AuthProtocol::Sha384,
            "SHA-512" | "SHA512" => AuthProtocol::Sha512,
            _ => return Err(UsmError::UnknownAuthProtocol(name.to_string())),
        })
    }

    /// The protocol's OBJECT IDENTIFIER (SNMP-USER-BASED-SM-MIB and RFC 7860).
    pub fn oid(self) -> &'static [u32] {
        match self {
            AuthProtocol::Md5 => &[1, 3, 6, 1, 6, 3, 10, 1, 1, 2],
            AuthProtocol::Sha1 => &[1, 3, 6, 1, 6, 3, 10, 1, 1, 3],
            AuthProtocol::Sha224 => &[1, 3, 6, 1, 6, 3, 10, 1, 1, 4],
            AuthProtocol::Sha256 => &[1, 3, 6, 1, 6, 3, 10, 1, 1, 5],
            AuthProtocol::Sha384 => &[1, 3, 6, 1, 6, 3, 10, 1, 1, 6],
            AuthProtocol::Sha512 => &[1, 3, 6, 1, 6, 3, 10, 1, 1, 7],
        }
    }

    /// The length of its keys: the hash's output.
    pub fn key_len(self) -> usize {
        match self {
            AuthProtocol::Md5 => 16,
            AuthProtocol::Sha1 => 20,
            AuthProtocol::Sha224 => 28,
            AuthProtocol::Sha256 => 32,
            AuthProtocol::Sha384 => 48,
            AuthProtocol::Sha512 => 64,
        }
    }

    /// The length of the MAC in `msgAuthenticationParameters` (the HMAC truncated).
    pub fn mac_len(self) -> usize {
        match self {
            AuthProtocol::Md5 | AuthProtocol::Sha1 => 12,
            AuthProtocol::Sha224 => 16,
            AuthProtocol::Sha256 => 24,
            AuthProtocol::Sha384 => 32,
            AuthProtocol::Sha512 => 48,
        }
    }

    /// The hash of `parts`, one after the other.
    fn hash(self, parts: &[&[u8]]) -> Vec<u8> {
        fn run<D: Digest>(parts: &[&[u8]]) -> Vec<u8> {
            let mut d = D::new();
            for p in parts {
                d.update(p);
            }
            d.finalize().to_vec()
        }
        match self {
            AuthProtocol::Md5 => run::<md5::Md5>(parts),
            AuthProtocol::Sha1 => run::<sha1::Sha1>(parts),
            AuthProtocol::Sha224 => run::<sha2::Sha224>(parts),
            AuthProtocol::Sha256 => run::<sha2::Sha256>(parts),
            AuthProtocol::Sha384 => run::<sha2::Sha384>(parts),
            AuthProtocol::Sha512 => run::<sha2::Sha512>(parts),
        }
    }
}

/// A privacy protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrivProtocol {
    /// usmDESPrivProtocol: DES-CBC (RFC 3414 8).
    Des,
    /// usmAesCfb128Protocol: AES-128 in CFB mode (RFC 3826).
    Aes128,
    /// AES-192 in CFB mode, as RFC 3826 with a 24-octet key (net-snmp's `AES-192`); a
    /// localized key shorter than that is extended as draft-blumenthal-aes-usm-04 says.
    Aes192,
    /// AES-256 in CFB mode, as RFC 3826 with a 32-octet key (net-snmp's `AES-256`); a short
    /// key extended as draft-blumenthal-aes-usm-04 says.
    Aes256,
    /// AES-192 with a short key extended as Cisco does (draft-reeder-snmpv3-usm-3desede;
    /// net-snmp's `AES192C`).
    Aes192C,
    /// AES-256 with a short key extended as Cisco does (net-snmp's `AES256C`).
    Aes256C,
}

impl PrivProtocol {
    /// Every protocol.
    pub const ALL: [PrivProtocol; 6] = [
        PrivProtocol::Des,
        PrivProtocol::Aes128,
        PrivProtocol::Aes192,
        PrivProtocol::Aes256,
        PrivProtocol::Aes192C,
        PrivProtocol::Aes256C,
    ];

    /// The name net-snmp's `-x` takes.
    pub fn name(self) -> &'static str {
        match self {
            PrivProtocol::Des => "DES",
            PrivProtocol::Aes128 => "AES",
            PrivProtocol::Aes192 => "AES-192",
            PrivProtocol::Aes256 => "AES-256",
            PrivProtocol::Aes192C => "AES192C",
            PrivProtocol::Aes256C => "AES256C",
        }
    }

    /// The protocol a name (as net-snmp's `-x` takes it, any case; `AES-128` for AES) stands
    /// for.
    pub fn from_name(name: &str) -> Result<PrivProtocol, UsmError> {
        let upper = name.to_ascii_uppercase();
        Ok(match upper.as_str() {
            "DES" => PrivProtocol::Des,
            "AES" | "AES128" | "AES-128" => PrivProtocol::Aes128,
            "AES192" | "AES-192" => PrivProtocol::Aes192,
            "AES256" | "AES-256" => PrivProtocol::Aes256,
            "AES192C" | "AES-192-C" | "AES-192C" => PrivProtocol::Aes192C,
            "AES256C" | "AES-256-C" | "AES-256C" => PrivProtocol::Aes256C,
            _ => return Err(UsmError::UnknownPrivProtocol(name.to_string())),
        })
    }

    /// The protocol's OBJECT IDENTIFIER: SNMP-USER-BASED-SM-MIB's for DES, RFC 3826's for
    /// AES-128, for AES-192 and AES-256 those of draft-blumenthal-aes-usm-04, which net-snmp
    /// uses, and Cisco's (CISCO-SNMP-USM-OIDS-MIB) for their key extension.
    pub fn oid(self) -> &'static [u32] {
        match self {
            PrivProtocol::Des => &[1, 3, 6, 1, 6, 3, 10, 1, 2, 2],
            PrivProtocol::Aes128 => &[1, 3, 6, 1, 6, 3, 10, 1, 2, 4],
            PrivProtocol::Aes192 => &[1, 3, 6, 1, 4, 1, 14832, 1, 3],
            PrivProtocol::Aes256 => &[1, 3, 6, 1, 4, 1, 14832, 1, 4],
            PrivProtocol::Aes192C => &[1, 3, 6, 1, 4, 1, 9, 12, 6, 1, 1],
            PrivProtocol::Aes256C => &[1, 3, 6, 1, 4, 1, 9, 12, 6, 1, 2],
        }
    }

    /// The localized privacy key `kul` long enough for this protocol: extended, when the
    /// authentication protocol's hash is shorter than the key, by draft-blumenthal-aes-usm-04
    /// (AES-192, AES-256) or Cisco's draft-reeder scheme (AES192C, AES256C); unchanged
    /// otherwise (DES and AES-128 keys are never longer than a hash).
    pub fn extend_key(self, kul: Key, auth: AuthProtocol, engine_id: &[u8]) -> Key {
        let len = self.key_len();
        if kul.0.len() >= len {
            return kul;
        }
        match self {
            PrivProtocol::Aes192 | PrivProtocol::Aes256 => kul.extend_blumenthal(auth, len),
            PrivProtocol::Aes192C | PrivProtocol::Aes256C => {
                kul.extend_reeder(auth, engine_id, len)
            }
            PrivProtocol::Des | PrivProtocol::Aes128 => kul,
        }
    }

    /// How many octets of the localized privacy key it uses: DES's key and pre-IV, or the
    /// AES key.
    pub fn key_len(self) -> usize {
        match self {
            PrivProtocol::Des => 16,
            PrivProtocol::Aes128 => 16,
            PrivProtocol::Aes192 | PrivProtocol::Aes192C => 24,
            PrivProtocol::Aes256 | PrivProtocol::Aes256C => 32,
        }
    }
}

/// Key material: a user's key from a password, or one localized to an engine. Its `Debug`
/// shows the length only, and it is zeroed when dropped. A localized key keeps what every
/// message would otherwise redo with it: the HMAC keyed once (its padded key hashed) and the
/// cipher's key schedule (zeroed when dropped too), each made when first used.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(Vec<u8>, Keyed);

/// The keyed states of a [`Key`], for the protocol each was first made for.
#[derive(Clone, Default)]
struct Keyed {
    mac: std::sync::OnceLock<Box<(AuthProtocol, MacState)>>,
    cipher: std::sync::OnceLock<Box<(PrivProtocol, CipherState)>>,
}

/// Keyed states follow from the key's octets: they never make two keys differ.
impl PartialEq for Keyed {
    fn eq(&self, _: &Keyed) -> bool {
        true
    }
}

impl Eq for Keyed {}

/// An HMAC keyed once (RFC 2104's inner and outer pads hashed), cloned for each message.
#[derive(Clone)]
enum MacState {
    Md5(Hmac<md5::Md5>),
    Sha1(Hmac<sha1::Sha1>),
    Sha224(Hmac<sha2::Sha224>),
    Sha256(Hmac<sha2::Sha256>),
    Sha384(Hmac<sha2::Sha384>),
    Sha512(Hmac<sha2::Sha512>),
}

impl MacState {
    fn new(protocol: AuthProtocol, key: &[u8]) -> Option<MacState> {
        use hmac::Mac;
        Some(match protocol {
            AuthProtocol::Md5 => MacState::Md5(Hmac::new_from_slice(key).ok()?),
            AuthProtocol::Sha1 => MacState::Sha1(Hmac::new_from_slice(key).ok()?),
            AuthProtocol::Sha224 => MacState::Sha224(Hmac::new_from_slice(key).ok()?),
            AuthProtocol::Sha256 => MacState::Sha256(Hmac::new_from_slice(key).ok()?),
            AuthProtocol::Sha384 => MacState::Sha384(Hmac::new_from_slice(key).ok()?),
            AuthProtocol::Sha512 => MacState::Sha512(Hmac::new_from_slice(key).ok()?),
        })
    }

    /// The MAC of `parts` written into `out` (truncated to its length); or, with `expected`,
    /// whether it equals that (compared in constant time; `out` untouched).
    fn run(&self, parts: &[&[u8]], out: &mut [u8], expected: Option<&[u8]>) -> bool {
        fn go<M: hmac::Mac + Clone>(
            m: &M,
            parts: &[&[u8]],
            out: &mut [u8],
            expected: Option<&[u8]>,
        ) -> bool {
            let mut m = m.clone();
            for p in parts {
                m.update(p);
            }
            match expected {
                Some(e) => m.verify_truncated_left(e).is_ok(),
                None => {
                    let full = m.finalize().into_bytes();
                    let n = out.len().min(full.len());
                    out[..n].copy_from_slice(&full[..n]);
                    true
                }
            }
        }
        match self {
            MacState::Md5(m) => go(m, parts, out, expected),
            MacState::Sha1(m) => go(m, parts, out, expected),
            MacState::Sha224(m) => go(m, parts, out, expected),
            MacState::Sha256(m) => go(m, parts, out, expected),
            MacState::Sha384(m) => go(m, parts, out, expected),
            MacState::Sha512(m) => go(m, parts, out, expected),
        }
    }
}

/// A block cipher with its key schedule made once, for CFB (AES) or CBC (DES).
#[derive(Clone)]
enum CipherState {
    Des(des::Des),
    Aes128(aes::Aes128),
    Aes192(aes::Aes192),
    Aes256(aes::Aes256),
}

impl CipherState {
    fn new(protocol: PrivProtocol, key: &[u8]) -> Option<CipherState> {
        use aes::cipher::KeyInit;
        Some(match protocol {
            PrivProtocol::Des => CipherState::Des(des::Des::new_from_slice(key.get(..8)?).ok()?),
            PrivProtocol::Aes128 => CipherState::Aes128(aes::Aes128::new_from_slice(key).ok()?),
            PrivProtocol::Aes192 | PrivProtocol::Aes192C => {
                CipherState::Aes192(aes::Aes192::new_from_slice(key).ok()?)
            }
            PrivProtocol::Aes256 | PrivProtocol::Aes256C => {
                CipherState::Aes256(aes::Aes256::new_from_slice(key).ok()?)
            }
        })
    }

    /// Encrypts (`forward`) or decrypts `buf` in place with `iv`: CFB-128, or DES-CBC on whole
    /// blocks.
    fn apply(&self, iv: &[u8; 16], buf: &mut [u8], forward: bool) {
        use aes::cipher::InnerIvInit;
        macro_rules! cfb {
            ($c:expr) => {
                if forward {
                    cfb_mode::Encryptor::inner_iv_init($c, iv.into()).encrypt(buf)
                } else {
                    cfb_mode::Decryptor::inner_iv_init($c, iv.into()).decrypt(buf)
                }
            };
        }
        match self {
            CipherState::Des(c) => {
                let iv8 = iv[..8].into();
                if forward {
                    let mut e = cbc::Encryptor::inner_iv_init(c, iv8);
                    for block in buf.chunks_exact_mut(8) {
                        e.encrypt_block_mut(block.into());
                    }
                } else {
                    let mut d = cbc::Decryptor::inner_iv_init(c, iv8);
                    for block in buf.chunks_exact_mut(8) {
                        d.decrypt_block_mut(block.into());
                    }
                }
            }
            CipherState::Aes128(c) => cfb!(c),
            CipherState::Aes192(c) => cfb!(c),
            CipherState::Aes256(c) => cfb!(c),
        }
    }
}

impl Key {
    /// A key from its octets (as `usmUserAuthKeyChange` or a configuration gives it).
    pub fn from_bytes(bytes: &[u8]) -> Key {
        Key(bytes.to_vec(), Keyed::default())
    }

    /// The octets.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// This key's HMAC state for `protocol`: made once for the first protocol it is used
    /// with (a localized key has one), made afresh for any other.
    fn mac_state(&self, protocol: AuthProtocol) -> Option<std::borrow::Cow<'_, MacState>> {
        let (p, state) = match self.1.mac.get() {
            Some(kept) => &**kept,
            None => &**self.1.mac.get_or_init(|| {
                Box::new((
                    protocol,
                    MacState::new(protocol, &self.0).expect("HMAC takes a key of any length"),
                ))
            }),
        };
        if *p == protocol {
            Some(std::borrow::Cow::Borrowed(state))
        } else {
            MacState::new(protocol, &self.0).map(std::borrow::Cow::Owned)
        }
    }

    /// This key's cipher for `protocol` (its key schedule made once, as for
    /// [`Key::mac_state`]); `None` when the key is too short for it.
    fn cipher_state(&self, protocol: PrivProtocol) -> Option<std::borrow::Cow<'_, CipherState>> {
        if let Some((p, state)) = self.1.cipher.get().map(|b| &**b) {
            if *p == protocol {
                return Some(std::borrow::Cow::Borrowed(state));
            }
            return CipherState::new(protocol, priv_key(protocol, self).ok()?)
                .map(std::borrow::Cow::Owned);
        }
        let state = CipherState::new(protocol, priv_key(protocol, self).ok()?)?;
        let (_, kept) = &**self.1.cipher.get_or_init(|| Box::new((protocol, state)));
        Some(std::borrow::Cow::Borrowed(kept))
    }

    /// The key from `password` for `protocol`'s hash, before localisation (RFC 3414 A.2:
    /// the hash of the password repeated over one megabyte).
    pub fn from_password(protocol: AuthProtocol, password: &[u8]) -> Result<Key, UsmError> {
        if password.len() < MIN_PASSWORD {
            return Err(UsmError::ShortPassword(password.len()));
        }
        Ok(Key(
            password_stream_hash(protocol, password),
            Keyed::default(),
        ))
    }

    /// This key localized to the engine `engine_id` (RFC 3414 2.6: the hash of the key, the
    /// engine ID and the key again).
    pub fn localize(&self, protocol: AuthProtocol, engine_id: &[u8]) -> Key {
        Key(
            protocol.hash(&[&self.0, engine_id, &self.0]),
            Keyed::default(),
        )
    }

    /// The localized key `password` gives for `protocol` at engine `engine_id`.
    pub fn localized(
        protocol: AuthProtocol,
        password: &[u8],
        engine_id: &[u8],
    ) -> Result<Key, UsmError> {
        Ok(Key::from_password(protocol, password)?.localize(protocol, engine_id))
    }

    /// This localized key extended to at least `len` octets as draft-blumenthal-aes-usm-04
    /// 3.1.2.1 says (net-snmp's `AES-192`/`AES-256`): the hash of the whole key so far is
    /// appended until it is long enough. A key as long already is returned as it is.
    pub fn extend_blumenthal(&self, protocol: AuthProtocol, len: usize) -> Key {
        let mut out = self.0.clone();
        // An empty key cannot be extended (and is refused where it is used).
        while out.len() < len && !out.is_empty() {
            let next = protocol.hash(&[&out]);
            out.extend_from_slice(&next);
        }
        Key(out, Keyed::default())
    }

    /// This localized key extended to at least `len` octets the way Cisco and net-snmp's
    /// `AES-192C`/`AES-256C` do (draft-reeder-snmpv3-usm-3desede 2.1): the key of each
    /// round is the previous one taken as a password and localized again, and the rounds
    /// are concatenated. A key as long already is returned as it is.
    pub fn extend_reeder(&self, protocol: AuthProtocol, engine_id: &[u8], len: usize) -> Key {
        let mut out = self.0.clone();
        let mut last = self.clone();
        // An empty key cannot be extended (and is refused where it is used).
        while out.len() < len && !last.0.is_empty() {
            let next = Key(password_stream_hash(protocol, &last.0), Keyed::default())
                .localize(protocol, engine_id);
            out.extend_from_slice(&next.0);
            last = next;
        }
        Key(out, Keyed::default())
    }
}

/// The hash of `password` repeated over one megabyte (RFC 3414 A.2); `password` is not empty.
fn password_stream_hash(protocol: AuthProtocol, password: &[u8]) -> Vec<u8> {
    // The stream is the password repeated; its 64-octet chunks are cut from a buffer of the
    // password followed by its first 64 octets (repeated), each at its offset in the
    // stream modulo the password's length.
    let repeated: Vec<u8> = password
        .iter()
        .copied()
        .cycle()
        .take(password.len() + 64)
        .collect();
    let chunks = PASSWORD_STREAM / 64;
    let starts = (0..chunks).map(|k| (k * 64) % password.len());
    fn stream<D: Digest>(repeated: &[u8], starts: impl Iterator<Item = usize>) -> Vec<u8> {
        let mut d = D::new();
        for s in starts {
            d.update(&repeated[s..s + 64]);
        }
        d.finalize().to_vec()
    }
    match protocol {
        AuthProtocol::Md5 => stream::<md5::Md5>(&repeated, starts),
        AuthProtocol::Sha1 => stream::<sha1::Sha1>(&repeated, starts),
        AuthProtocol::Sha224 => stream::<sha2::Sha224>(&repeated, starts),
        AuthProtocol::Sha256 => stream::<sha2::Sha256>(&repeated, starts),
        AuthProtocol::Sha384 => stream::<sha2::Sha384>(&repeated, starts),
        AuthProtocol::Sha512 => stream::<sha2::Sha512>(&repeated, starts),
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key({} octets)", self.0.len())
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

/// Checks that `at` is `protocol`'s MAC length and lies within `message`.
fn auth_field(
    protocol: AuthProtocol,
    message_len: usize,
    at: &Range<usize>,
) -> Result<(), UsmError> {
    if at.start > at.end || at.end > message_len {
        return Err(UsmError::AuthParametersOutside {
            start: at.start,
            end: at.end,
            len: message_len,
        });
    }
    if at.len() != protocol.mac_len() {
        return Err(UsmError::AuthParametersLength {
            protocol: protocol.name(),
            expected: protocol.mac_len(),
            found: at.len(),
        });
    }
    Ok(())
}

/// The zeros the MAC is computed over in place of itself (the longest MAC is 48 octets).
pub(crate) const ZEROS: [u8; 48] = [0; 48];

/// Authenticates an encoded message in place (RFC 3414 6.3.1, 7.3.1; RFC 7860 4.2.1): the
/// HMAC of the whole message, with `msgAuthenticationParameters` (at `at`) taken as zeros, is
/// written into that field.
pub fn sign(
    protocol: AuthProtocol,
    key: &Key,
    message: &mut [u8],
    at: Range<usize>,
) -> Result<(), UsmError> {
    auth_field(protocol, message.len(), &at)?;
    check_auth_key(protocol, key)?;
    let zeros = &ZEROS[..at.len()];
    let mut mac = [0u8; 48];
    let mac = &mut mac[..at.len()];
    if let Some(state) = key.mac_state(protocol) {
        state.run(
            &[&message[..at.start], zeros, &message[at.end..]],
            mac,
            None,
        );
    }
    message[at].copy_from_slice(mac);
    Ok(())
}

/// Checks the MAC of a received message (RFC 3414 6.3.2, 7.3.2; RFC 7860 4.2.2), in place:
/// the octets around `msgAuthenticationParameters` (at `at`) and zeros for it are hashed, and
/// the result is compared in constant time with the field.
pub fn verify(
    protocol: AuthProtocol,
    key: &Key,
    message: &[u8],
    at: Range<usize>,
) -> Result<(), UsmError> {
    auth_field(protocol, message.len(), &at)?;
    check_auth_key(protocol, key)?;
    let zeros = &ZEROS[..at.len()];
    let parts = [&message[..at.start], zeros, &message[at.end..]];
    let matches = key
        .mac_state(protocol)
        .is_some_and(|state| state.run(&parts, &mut [], Some(&message[at])));
    if matches {
        Ok(())
    } else {
        Err(UsmError::WrongDigest {
            protocol: protocol.name(),
        })
    }
}

fn check_auth_key(protocol: AuthProtocol, key: &Key) -> Result<(), UsmError> {
    if key.0.len() != protocol.key_len() {
        return Err(UsmError::KeyLength {
            what: "the authentication key",
            expected: protocol.key_len(),
            found: key.0.len(),
        });
    }
    Ok(())
}

/// The encryption key octets `protocol` takes from a localized privacy key.
fn priv_key(protocol: PrivProtocol, key: &Key) -> Result<&[u8], UsmError> {
    key.0.get(..protocol.key_len()).ok_or(UsmError::KeyLength {
        what: "the privacy key",
        expected: protocol.key_len(),
        found: key.0.len(),
    })
}

/// `key`'s cipher for `protocol`, or why the key cannot be one.
fn cipher(
    protocol: PrivProtocol,
    key: &Key,
) -> Result<std::borrow::Cow<'_, CipherState>, UsmError> {
    key.cipher_state(protocol).ok_or(UsmError::KeyLength {
        what: "the privacy key",
        expected: protocol.key_len(),
        found: key.0.len(),
    })
}

/// The initialisation vector: DES's pre-IV XOR the salt (RFC 3414 8.1.1.1), or AES's engine
/// boots, engine time and salt (RFC 3826 3.1.2.1).
fn iv(protocol: PrivProtocol, key: &Key, boots: u32, time: u32, salt: &[u8; 8]) -> [u8; 16] {
    let mut iv = [0u8; 16];
    match protocol {
        PrivProtocol::Des => {
            for (k, b) in iv[..8].iter_mut().enumerate() {
                *b = key.0[8 + k] ^ salt[k];
            }
        }
        _ => {
            iv[..4].copy_from_slice(&boots.to_be_bytes());
            iv[4..8].copy_from_slice(&time.to_be_bytes());
            iv[8..].copy_from_slice(salt);
        }
    }
    iv
}

/// Encrypts a scoped PDU's encoding (RFC 3414 8.1.1.2, RFC 3826 3.1.3) with the localized
/// privacy key, for an authoritative engine at `boots` and `time`. `salt` is what
/// `msgPrivacyParameters` will carry: for DES the engine boots and a counter, for AES a 64-bit
/// counter; it must not repeat under one key. DES pads the plaintext to whole blocks.
pub fn encrypt(
    protocol: PrivProtocol,
    key: &Key,
    boots: u32,
    time: u32,
    salt: &[u8; 8],
    plaintext: &[u8],
) -> Result<Vec<u8>, UsmError> {
    let cipher = cipher(protocol, key)?;
    let mut buf = plaintext.to_vec();
    pad(protocol, &mut buf);
    cipher.apply(&iv(protocol, key, boots, time, salt), &mut buf, true);
    Ok(buf)
}

/// [`encrypt`] into `out` (its previous contents replaced), so that a session encrypts every
/// request in one buffer.
pub fn encrypt_into(
    protocol: PrivProtocol,
    key: &Key,
    boots: u32,
    time: u32,
    salt: &[u8; 8],
    plaintext: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), UsmError> {
    let cipher = cipher(protocol, key)?;
    out.clear();
    out.extend_from_slice(plaintext);
    pad(protocol, out);
    cipher.apply(&iv(protocol, key, boots, time, salt), out, true);
    Ok(())
}

/// DES encrypts whole blocks: the plaintext padded with zeros to one.
fn pad(protocol: PrivProtocol, buf: &mut Vec<u8>) {
    if protocol == PrivProtocol::Des {
        buf.resize(buf.len().div_ceil(8) * 8, 0);
    }
}

/// Decrypts `encryptedPDU` (RFC 3414 8.1.1.3, RFC 3826 3.1.4) with the localized privacy key;
/// `boots` and `time` are the message's authoritative engine's, `priv_params` its
/// `msgPrivacyParameters`. DES's output keeps the sender's padding after the scoped PDU.
pub fn decrypt(
    protocol: PrivProtocol,
    key: &Key,
    boots: u32,
    time: u32,
    priv_params: &[u8],
    ciphertext: &[u8],
) -> Result<Vec<u8>, UsmError> {
    let salt = checked_salt(protocol, priv_params, ciphertext)?;
    let cipher = cipher(protocol, key)?;
    let mut out = ciphertext.to_vec();
    cipher.apply(&iv(protocol, key, boots, time, salt), &mut out, false);
    Ok(out)
}

/// [`decrypt`] into `out` (its previous contents replaced), so that a session decrypts every
/// answer into one buffer.
pub fn decrypt_into(
    protocol: PrivProtocol,
    key: &Key,
    boots: u32,
    time: u32,
    priv_params: &[u8],
    ciphertext: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), UsmError> {
    let salt = checked_salt(protocol, priv_params, ciphertext)?;
    let cipher = cipher(protocol, key)?;
    out.clear();
    out.extend_from_slice(ciphertext);
    cipher.apply(&iv(protocol, key, boots, time, salt), out, false);
    Ok(())
}

/// The salt of `msgPrivacyParameters`, once it and the ciphertext's length are checked.
fn checked_salt<'p>(
    protocol: PrivProtocol,
    priv_params: &'p [u8],
    ciphertext: &[u8],
) -> Result<&'p [u8; 8], UsmError> {
    let salt: &[u8; 8] = priv_params
        .try_into()
        .map_err(|_| UsmError::PrivParametersLength(priv_params.len()))?;
    if protocol == PrivProtocol::Des && !ciphertext.len().is_multiple_of(8) {
        return Err(UsmError::CiphertextLength(ciphertext.len()));
    }
    Ok(salt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        hex::decode(s.replace(' ', "")).unwrap()
    }

    const ENGINE: &str = "00 00 00 00 00 00 00 00 00 00 00 02";

    /// RFC 3414 A.3.1 and A.3.2: "maplesyrup", before and after localisation.
    #[test]
    fn rfc3414_password_to_key_samples() {
        let md5 = Key::from_password(AuthProtocol::Md5, b"maplesyrup").unwrap();
        assert_eq!(
            md5.0,
            hex("9f af 32 83 88 4e 92 83 4e bc 98 47 d8 ed d9 63")
        );
        assert_eq!(
            md5.localize(AuthProtocol::Md5, &hex(ENGINE)).0,
            hex("52 6f 5e ed 9f cc e2 6f 89 64 c2 93 07 87 d8 2b")
        );
        let sha = Key::from_password(AuthProtocol::Sha1, b"maplesyrup").unwrap();
        assert_eq!(
            sha.0,
            hex("9f b5 cc 03 81 49 7b 37 93 52 89 39 ff 78 8d 5d 79 14 52 11")
        );
        assert_eq!(
            sha.localize(AuthProtocol::Sha1, &hex(ENGINE)).0,
            hex("66 95 fe bc 92 88 e3 62 82 23 5f c7 15 1f 12 84 97 b3 8f 3f")
        );
    }

    /// The Reeder extension of the MD5 "maplesyrup" key to 32 octets, as the 3DES-EDE draft
    /// and Cisco's AES-256 use it.
    #[test]
    fn reeder_key_extension_sample() {
        let kul = Key::localized(AuthProtocol::Md5, b"maplesyrup", &hex(ENGINE)).unwrap();
        let long = kul.extend_reeder(AuthProtocol::Md5, &hex(ENGINE), 32);
        assert_eq!(
            long.0,
            hex("52 6f 5e ed 9f cc e2 6f 89 64 c2 93 07 87 d8 2b 79 ef f4 4a 90 65 0e e0 a3 a4 0a bf ac 5a cc 12")
        );
        // Long enough already: unchanged.
        assert_eq!(kul.extend_reeder(AuthProtocol::Md5, &hex(ENGINE), 16), kul);
    }

    #[test]
    fn short_passwords_and_unknown_names_are_refused() {
        assert_eq!(
            Key::from_password(AuthProtocol::Sha1, b"short"),
            Err(UsmError::ShortPassword(5))
        );
        assert!(matches!(
            AuthProtocol::from_name("SHA-3"),
            Err(UsmError::UnknownAuthProtocol(_))
        ));
        for p in AuthProtocol::ALL {
            assert_eq!(AuthProtocol::from_name(p.name()), Ok(p));
        }
        for p in PrivProtocol::ALL {
            assert_eq!(PrivProtocol::from_name(p.name()), Ok(p));
        }
        assert_eq!(format!("{:?}", Key::from_bytes(&[1; 20])), "Key(20 octets)");
    }

    #[test]
    fn a_signed_message_verifies_and_any_changed_octet_fails() {
        for p in AuthProtocol::ALL {
            let key = Key::localized(p, b"authpassword", b"engine").unwrap();
            let mut msg: Vec<u8> = (0..200u8).collect();
            let at = 50..50 + p.mac_len();
            sign(p, &key, &mut msg, at.clone()).unwrap();
            verify(p, &key, &msg, at.clone()).unwrap();
            for k in [0, 50, 50 + p.mac_len(), 199] {
                let mut bad = msg.clone();
                bad[k] ^= 1;
                assert_eq!(
                    verify(p, &key, &bad, at.clone()),
                    Err(UsmError::WrongDigest { protocol: p.name() }),
                    "{p:?} octet {k}"
                );
            }
            assert!(matches!(
                verify(p, &key, &msg, 50..50 + p.mac_len() - 1),
                Err(UsmError::AuthParametersLength { .. })
            ));
            assert!(matches!(
                verify(p, &key, &msg, 195..195 + p.mac_len()),
                Err(UsmError::AuthParametersOutside { .. })
            ));
        }
    }

    #[test]
    fn bad_privacy_parameters_are_errors() {
        let key = Key::localized(AuthProtocol::Sha1, b"privpassword", b"engine").unwrap();
        assert_eq!(
            decrypt(PrivProtocol::Aes128, &key, 1, 2, &[0; 7], &[0; 16]),
            Err(UsmError::PrivParametersLength(7))
        );
        assert_eq!(
            decrypt(PrivProtocol::Des, &key, 1, 2, &[0; 8], &[0; 15]),
            Err(UsmError::CiphertextLength(15))
        );
        // A SHA-1 key has 20 octets: too short for AES-256 without extension.
        assert!(matches!(
            encrypt(PrivProtocol::Aes256, &key, 1, 2, &[0; 8], b"x"),
            Err(UsmError::KeyLength {
                expected: 32,
                found: 20,
                ..
            })
        ));
    }

    proptest::proptest! {
        #[test]
        fn decryption_undoes_encryption(
            plaintext in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            salt in proptest::prelude::any::<[u8; 8]>(),
            boots in 0u32..0x8000_0000,
            time in 0u32..0x8000_0000,
        ) {
            // One key for every case: a key costs a megabyte of hashing.
            static KEY: std::sync::OnceLock<Key> = std::sync::OnceLock::new();
            let key = KEY.get_or_init(|| {
                Key::localized(AuthProtocol::Sha512, b"privpassword", b"engine").unwrap()
            });
            for p in PrivProtocol::ALL {
                let c = encrypt(p, key, boots, time, &salt, &plaintext).unwrap();
                let d = decrypt(p, key, boots, time, &salt, &c).unwrap();
                proptest::prop_assert_eq!(&d[..plaintext.len()], &plaintext[..]);
                if p == PrivProtocol::Des {
                    proptest::prop_assert_eq!(c.len() % 8, 0);
                } else {
                    proptest::prop_assert_eq!(c.len(), plaintext.len());
                    // A stream cipher leaves an octet as it was one time in 256: only a
                    // plaintext of 8 octets or more must come out changed (all but 2^-64).
                    proptest::prop_assert!(plaintext.len() < 8 || c != plaintext);
                }
            }
        }
    }
}
