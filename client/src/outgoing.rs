//! SNMPv3 messages to send under the USM: the scoped PDU encrypted when privacy is asked for,
//! the message encoded with zeros where its MAC goes, then the MAC written in place
//! ([`crate::usm::sign`]).

use snmp_ber::{Decode, Encode, EncodeError};
use snmp_messages::snmpv3_message_syntax::{HeaderData, ScopedPdu, ScopedPduData, Snmpv3Message};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;

use crate::incoming::{flags, Incoming, IncomingError, USM};
use crate::usm::{self, AuthProtocol, Key, PrivProtocol, UsmError};

/// Why a message could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OutgoingError {
    /// A USM transform failed.
    #[error(transparent)]
    Usm(#[from] UsmError),
    /// Privacy without authentication (RFC 3414 3.1.1: not a security level).
    #[error("privacy needs authentication too")]
    PrivWithoutAuth,
    /// The scoped PDU's octets do not decode (a plaintext one is encoded into the message).
    #[error("the scoped PDU: {0}")]
    ScopedPdu(snmp_ber::DecodeError),
    /// Encoding failed.
    #[error("encoding the message: {0}")]
    Encode(EncodeError),
    /// The encoded message did not read back (a bug: it is reported, not hidden).
    #[error("the encoded message does not read back: {0}")]
    ReadBack(Box<IncomingError>),
}

/// Who sends, to which engine, at what security level.
#[derive(Debug, Clone, Copy)]
pub struct Security<'a> {
    /// `msgUserName`.
    pub user: &'a [u8],
    /// The authoritative engine: its ID, boots and time (as discovery and the time window
    /// give them; all empty and zero for discovery itself).
    pub engine_id: &'a [u8],
    /// `msgAuthoritativeEngineBoots`.
    pub engine_boots: u32,
    /// `msgAuthoritativeEngineTime`.
    pub engine_time: u32,
    /// Authentication: the protocol and the user's key localized to `engine_id`.
    pub auth: Option<(AuthProtocol, &'a Key)>,
    /// Privacy: the protocol, the user's privacy key localized to `engine_id`, and this
    /// message's salt (`msgPrivacyParameters`; it must not repeat under one key).
    pub privacy: Option<(PrivProtocol, &'a Key, [u8; 8])>,
}

impl Security<'static> {
    /// Discovery's (RFC 3414 4): no user, no engine, noAuthNoPriv.
    pub const DISCOVERY: Security<'static> = Security {
        user: b"",
        engine_id: b"",
        engine_boots: 0,
        engine_time: 0,
        auth: None,
        privacy: None,
    };
}

/// The header fields of a message besides its security.
#[derive(Debug, Clone, Copy)]
pub struct Header {
    /// `msgID`.
    pub msg_id: u32,
    /// `msgMaxSize`: the largest message the sender accepts (484 or more).
    pub max_size: u32,
    /// The reportableFlag: set on requests (RFC 3412 6.4).
    pub reportable: bool,
}

/// Makes the SNMPv3 message that carries `scoped_pdu` (a ScopedPDU's encoding) under
/// `security`: encrypted and authenticated as it asks.
pub fn seal(
    header: Header,
    security: &Security<'_>,
    scoped_pdu: &[u8],
) -> Result<Vec<u8>, OutgoingError> {
    let mut message = Vec::new();
    seal_into(header, security, scoped_pdu, &mut Vec::new(), &mut message)?;
    Ok(message)
}

/// [`seal`] into `message` (its contents replaced), encrypting in `encrypted`: a session
/// reusing both allocates nothing for them once they have room.
pub fn seal_into(
    header: Header,
    security: &Security<'_>,
    scoped_pdu: &[u8],
    encrypted: &mut Vec<u8>,
    message: &mut Vec<u8>,
) -> Result<(), OutgoingError> {
    if security.privacy.is_some() && security.auth.is_none() {
        return Err(OutgoingError::PrivWithoutAuth);
    }
    let mut msg_flags = if header.reportable {
        flags::REPORTABLE
    } else {
        0
    };
    let (data, salt) = match security.privacy {
        Some((protocol, key, salt)) => {
            msg_flags |= flags::PRIV;
            usm::encrypt_into(
                protocol,
                key,
                security.engine_boots,
                security.engine_time,
                &salt,
                scoped_pdu,
                encrypted,
            )?;
            (ScopedPduData::EncryptedPdu(encrypted), Some(salt))
        }
        None => (
            ScopedPduData::Plaintext(
                ScopedPdu::from_ber(scoped_pdu).map_err(OutgoingError::ScopedPdu)?,
            ),
            None,
        ),
    };
    // Zeros where the MAC goes, as long as the protocol's.
    let zeros = &usm::ZEROS;
    let mac_len = security.auth.map_or(0, |(p, _)| p.mac_len());
    if security.auth.is_some() {
        msg_flags |= flags::AUTH;
    }
    let usm_params = UsmSecurityParameters {
        msg_authoritative_engine_id: security.engine_id,
        msg_authoritative_engine_boots: security.engine_boots,
        msg_authoritative_engine_time: security.engine_time,
        msg_user_name: security.user,
        msg_authentication_parameters: &zeros[..mac_len],
        msg_privacy_parameters: salt.as_ref().map_or(&[][..], |s| &s[..]),
    };
    // On the stack: engine IDs and user names are 32 octets at most (RFC 3411), MACs 48;
    // longer ones (an agent's odd engine ID) go to the heap.
    let mut stack = [0u8; 256];
    let heap;
    let params: &[u8] = match usm_params.encode_to_slice(&mut stack) {
        Ok(p) => p,
        Err(snmp_ber::EncodeError::BufferTooSmall { .. }) => {
            heap = usm_params.to_ber().map_err(OutgoingError::Encode)?;
            &heap
        }
        Err(e) => return Err(OutgoingError::Encode(e)),
    };
    let sealed = Snmpv3Message {
        msg_version: 3,
        msg_global_data: HeaderData {
            msg_id: header.msg_id,
            msg_max_size: header.max_size,
            msg_flags: [msg_flags],
            msg_security_model: USM,
        },
        msg_security_parameters: params,
        msg_data: data,
    };
    sealed
        .encode_into_vec(message)
        .map_err(OutgoingError::Encode)?;
    if let Some((protocol, key)) = security.auth {
        let at = Incoming::parse(message)
            .map_err(|e| OutgoingError::ReadBack(Box::new(e)))?
            .auth_params_at;
        usm::sign(protocol, key, message, at)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use snmp_ber::SequenceOf;
    use snmp_messages::snmpv2_pdu::{GetRequestPdu, Pdu, PduErrorStatus, Pdus, VarBindList};

    fn scoped_pdu(engine: &[u8]) -> Vec<u8> {
        ScopedPdu {
            context_engine_id: engine,
            context_name: b"",
            data: Pdus::GetRequest(GetRequestPdu(Pdu {
                request_id: 77,
                error_status: PduErrorStatus::NO_ERROR,
                error_index: 0,
                variable_bindings: VarBindList(SequenceOf::from_slice(&[])),
            })),
        }
        .to_ber()
        .unwrap()
    }

    /// Security parameters too long for the stack buffer (an engine ID of 300 octets, longer
    /// than RFC 3411 allows, as an odd agent may send) are encoded on the heap instead, and
    /// the message still opens and verifies; `seal_into` reuses its buffers.
    #[test]
    fn long_engine_ids_and_reused_buffers() {
        let engine = vec![0x80; 300];
        let plain = scoped_pdu(&engine);
        let header = Header {
            msg_id: 5,
            max_size: 65507,
            reportable: true,
        };
        let akey = Key::localized(AuthProtocol::Sha1, b"authpassword", &engine).unwrap();
        let pkey = Key::localized(AuthProtocol::Sha1, b"privpassword", &engine).unwrap();
        let security = Security {
            user: b"someone",
            engine_id: &engine,
            engine_boots: 1,
            engine_time: 2,
            auth: Some((AuthProtocol::Sha1, &akey)),
            privacy: Some((PrivProtocol::Aes128, &pkey, [8; 8])),
        };
        let (mut encrypted, mut message) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            seal_into(header, &security, &plain, &mut encrypted, &mut message).unwrap();
            let m = Incoming::parse(&message).unwrap();
            assert_eq!(m.usm.msg_authoritative_engine_id, &engine[..]);
            m.verify(AuthProtocol::Sha1, &akey).unwrap();
            let opened = m
                .scoped_pdu_octets(Some((PrivProtocol::Aes128, &pkey)))
                .unwrap();
            assert_eq!(opened, plain);
        }
    }

    #[test]
    fn sealed_messages_open_at_every_security_level() {
        let engine = b"\x80\x00\x1f\x88\x04engine";
        let plain = scoped_pdu(engine);
        let header = Header {
            msg_id: 9,
            max_size: 65507,
            reportable: true,
        };
        for auth in AuthProtocol::ALL {
            let akey = Key::localized(auth, b"authpassword", engine).unwrap();
            let pkey = Key::localized(auth, b"privpassword", engine).unwrap();
            let mut levels = vec![None];
            levels.extend(
                PrivProtocol::ALL
                    .into_iter()
                    .filter(|p| pkey.as_bytes().len() >= p.key_len())
                    .map(Some),
            );
            for privacy in levels {
                let security = Security {
                    user: b"someone",
                    engine_id: engine,
                    engine_boots: 3,
                    engine_time: 1000,
                    auth: Some((auth, &akey)),
                    privacy: privacy.map(|p| (p, &pkey, [1, 2, 3, 4, 5, 6, 7, 8])),
                };
                let bytes = seal(header, &security, &plain).unwrap();
                let m = Incoming::parse(&bytes).unwrap();
                assert_eq!(m.flags() & flags::AUTH, flags::AUTH);
                assert_eq!(m.flags() & flags::REPORTABLE, flags::REPORTABLE);
                m.verify(auth, &akey).unwrap();
                let opened = m.scoped_pdu_octets(privacy.map(|p| (p, &pkey))).unwrap();
                assert_eq!(opened, plain, "{auth:?} {privacy:?}");
            }
        }
        // No security: discovery's level.
        let bytes = seal(header, &Security::DISCOVERY, &plain).unwrap();
        let m = Incoming::parse(&bytes).unwrap();
        assert_eq!(m.flags(), flags::REPORTABLE);
        assert_eq!(m.scoped_pdu_octets(None).unwrap(), plain);
    }

    #[test]
    fn privacy_without_authentication_is_refused() {
        let key = Key::localized(AuthProtocol::Sha1, b"privpassword", b"e").unwrap();
        let security = Security {
            user: b"u",
            engine_id: b"e",
            engine_boots: 0,
            engine_time: 0,
            auth: None,
            privacy: Some((PrivProtocol::Aes128, &key, [0; 8])),
        };
        let header = Header {
            msg_id: 1,
            max_size: 484,
            reportable: true,
        };
        assert_eq!(
            seal(header, &security, &scoped_pdu(b"e")),
            Err(OutgoingError::PrivWithoutAuth)
        );
    }
}
