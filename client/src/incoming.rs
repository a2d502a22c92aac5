//! A received SNMPv3 message taken apart for the USM: its header, its security parameters, and
//! where in the message's own octets `msgAuthenticationParameters` lies, so that the MAC is
//! checked in place ([`crate::usm::verify`]) and the scoped PDU decrypted
//! ([`crate::usm::decrypt`]) without encoding anything again.

use std::ops::Range;

use snmp_ber::{Decode, DecodeError, Rules};
use snmp_messages::snmpv3_message_syntax::{ScopedPduData, Snmpv3Message};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;

use crate::usm::{self, AuthProtocol, Key, PrivProtocol, UsmError};

/// `msgFlags` bits (RFC 3412 6.4).
pub mod flags {
    /// authFlag.
    pub const AUTH: u8 = 0x01;
    /// privFlag.
    pub const PRIV: u8 = 0x02;
    /// reportableFlag.
    pub const REPORTABLE: u8 = 0x04;
}

/// The User-based Security Model's number (RFC 3411 `SnmpSecurityModel`).
pub const USM: u32 = 3;

/// Why a message could not be taken apart.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum IncomingError {
    /// The message does not decode.
    #[error("the message: {0}")]
    Message(DecodeError),
    /// Its security model is not the USM.
    #[error("msgSecurityModel {0} is not the USM (3)")]
    NotUsm(u32),
    /// `msgSecurityParameters` does not decode as UsmSecurityParameters.
    #[error("msgSecurityParameters: {0}")]
    SecurityParameters(DecodeError),
    /// The privFlag is set without the authFlag (RFC 3412 7.2 step 5: invalid).
    #[error("msgFlags {0:#04x}: privacy without authentication")]
    PrivWithoutAuth(u8),
    /// A USM check or transform failed.
    #[error(transparent)]
    Usm(#[from] UsmError),
    /// The decrypted scoped PDU does not decode.
    #[error("the decrypted scopedPDU: {0}")]
    ScopedPdu(DecodeError),
    /// The flags say encrypted but the data is plaintext, or the other way round.
    #[error("msgFlags {flags:#04x} disagree with msgData, which is {found}")]
    DataForm {
        /// The flags.
        flags: u8,
        /// What msgData is.
        found: &'static str,
    },
}

/// A received SNMPv3 message, decoded, with the places the USM works on.
#[derive(Debug, Clone)]
pub struct Incoming<'a> {
    /// The whole message, as received.
    pub bytes: &'a [u8],
    /// The decoded message.
    pub message: Snmpv3Message<'a>,
    /// Its `msgSecurityParameters`, decoded.
    pub usm: UsmSecurityParameters<'a>,
    /// Where `msgAuthenticationParameters`'s contents lie in `bytes`.
    pub auth_params_at: Range<usize>,
}

/// Decodes one value of `input` under `rules` (BER, or BER with real agents' relaxations).
pub(crate) fn decode_under<'a, T: Decode<'a>>(
    input: &'a [u8],
    rules: Rules,
) -> Result<T, DecodeError> {
    match rules {
        Rules::BerLenient => T::from_ber_lenient(input),
        _ => T::from_ber(input),
    }
}

impl<'a> Incoming<'a> {
    /// Decodes `bytes` as an SNMPv3 message under the USM.
    pub fn parse(bytes: &'a [u8]) -> Result<Incoming<'a>, IncomingError> {
        Incoming::parse_under(bytes, Rules::Ber)
    }

    /// [`Incoming::parse`] under `rules` ([`Rules::BerLenient`]: the values of a plaintext
    /// scoped PDU and the security parameters read with real agents' relaxations).
    pub fn parse_under(bytes: &'a [u8], rules: Rules) -> Result<Incoming<'a>, IncomingError> {
        let message: Snmpv3Message = decode_under(bytes, rules).map_err(IncomingError::Message)?;
        let model = message.msg_global_data.msg_security_model;
        if model != USM {
            return Err(IncomingError::NotUsm(model));
        }
        let usm = decode_under::<UsmSecurityParameters>(message.msg_security_parameters, rules)
            .map_err(IncomingError::SecurityParameters)?;
        let flags = message.msg_global_data.msg_flags[0];
        if flags & flags::PRIV != 0 && flags & flags::AUTH == 0 {
            return Err(IncomingError::PrivWithoutAuth(flags));
        }
        // The decoder borrows the field from `bytes`: its place is where the slice starts.
        let field = usm.msg_authentication_parameters;
        let start = snmp_ber::Reader::new(bytes).offset_of(field);
        let auth_params_at = start..start + field.len();
        Ok(Incoming {
            bytes,
            message,
            usm,
            auth_params_at,
        })
    }

    /// `msgFlags`.
    pub fn flags(&self) -> u8 {
        self.message.msg_global_data.msg_flags[0]
    }

    /// Checks the message's MAC with the user's localized authentication key.
    pub fn verify(&self, protocol: AuthProtocol, key: &Key) -> Result<(), UsmError> {
        usm::verify(protocol, key, self.bytes, self.auth_params_at.clone())
    }

    /// The scoped PDU's encoding: decrypted with the user's localized privacy key when the
    /// privFlag is set (DES's padding is cut after the scoped PDU), as it is otherwise.
    pub fn scoped_pdu_octets(
        &self,
        privacy: Option<(PrivProtocol, &Key)>,
    ) -> Result<Vec<u8>, IncomingError> {
        match self.data_form(privacy)? {
            Some((ciphertext, protocol, key)) => {
                let mut plain = Vec::new();
                let len = self.decrypt_into(ciphertext, protocol, key, &mut plain)?;
                plain.truncate(len);
                Ok(plain)
            }
            None => Ok(self.plaintext_scoped_pdu()?.to_vec()),
        }
    }

    /// The scoped PDU's encoding, as [`Incoming::scoped_pdu_octets`]: borrowed from the
    /// message when it is plaintext, decrypted into `plain` (its contents replaced) when not.
    pub fn scoped_pdu_into<'p>(
        &'p self,
        privacy: Option<(PrivProtocol, &Key)>,
        plain: &'p mut Vec<u8>,
    ) -> Result<&'p [u8], IncomingError> {
        match self.data_form(privacy)? {
            Some((ciphertext, protocol, key)) => {
                let len = self.decrypt_into(ciphertext, protocol, key, plain)?;
                Ok(&plain[..len])
            }
            None => self.plaintext_scoped_pdu(),
        }
    }

    /// The ciphertext and key when the message is encrypted and a key is given; `None` when
    /// it is plaintext; an error when the privFlag and the data disagree.
    fn data_form<'k>(
        &self,
        privacy: Option<(PrivProtocol, &'k Key)>,
    ) -> Result<Option<Encrypted<'a, 'k>>, IncomingError> {
        let flags = self.flags();
        match (self.message.msg_data, privacy) {
            (ScopedPduData::EncryptedPdu(c), Some((protocol, key))) if flags & flags::PRIV != 0 => {
                Ok(Some((c, protocol, key)))
            }
            (ScopedPduData::EncryptedPdu(_), _) => Err(IncomingError::DataForm {
                flags,
                found: "encrypted",
            }),
            (ScopedPduData::Plaintext(_), _) if flags & flags::PRIV != 0 => {
                Err(IncomingError::DataForm {
                    flags,
                    found: "plaintext",
                })
            }
            (ScopedPduData::Plaintext(_), _) => Ok(None),
        }
    }

    /// Decrypts `ciphertext` into `plain`; returns the scoped PDU's length there.
    fn decrypt_into(
        &self,
        ciphertext: &[u8],
        protocol: PrivProtocol,
        key: &Key,
        plain: &mut Vec<u8>,
    ) -> Result<usize, IncomingError> {
        usm::decrypt_into(
            protocol,
            key,
            self.usm.msg_authoritative_engine_boots,
            self.usm.msg_authoritative_engine_time,
            self.usm.msg_privacy_parameters,
            ciphertext,
            plain,
        )?;
        tlv_len(plain).map_err(IncomingError::ScopedPdu)
    }

    /// The plaintext scoped PDU: the message's last TLV.
    fn plaintext_scoped_pdu(&self) -> Result<&'a [u8], IncomingError> {
        let len = tlv_len_at_end(self.bytes, self.message.msg_security_parameters)
            .map_err(IncomingError::ScopedPdu)?;
        Ok(&self.bytes[self.bytes.len() - len..])
    }
}

/// An encrypted scoped PDU and the key to decrypt it with.
type Encrypted<'a, 'k> = (&'a [u8], PrivProtocol, &'k Key);

/// The length of the TLV at the start of `bytes` (tag, length and contents).
fn tlv_len(bytes: &[u8]) -> Result<usize, DecodeError> {
    let mut r = snmp_ber::Reader::new(bytes);
    r.skip_tlv()?;
    Ok(r.offset())
}

/// The length of what follows `before` (a slice of `bytes`) to the end of `bytes`: one TLV.
fn tlv_len_at_end(bytes: &[u8], before: &[u8]) -> Result<usize, DecodeError> {
    let end_of_before = snmp_ber::Reader::new(bytes).offset_of(before) + before.len();
    let rest = bytes.get(end_of_before..).unwrap_or(&[]);
    tlv_len(rest)?;
    Ok(rest.len())
}
