//! Requests and their encoding: what a caller asks ([`Request`]), and the datagram that asks
//! it under SNMPv1, SNMPv2c or SNMPv3/USM (RFC 1157, RFC 1901 and RFC 3416, RFC 3412 and
//! RFC 3414), including the USM's discovery request.

use std::time::Instant;

use smallvec::SmallVec;
use snmp_ber::{Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{
    BulkPdu, GetBulkRequestPdu, GetNextRequestPdu, GetRequestPdu, InformRequestPdu, Pdu,
    PduErrorStatus, Pdus, SetRequestPdu, Snmpv2TrapPdu, VarBind as WireVarBind, VarBindList,
    VarBindValue,
};
use snmp_messages::snmpv2_smi::ObjectName;
use snmp_messages::snmpv3_message_syntax::ScopedPdu;
use snmp_messages::{rfc1155_smi as v1smi, rfc1157_snmp as v1};

use crate::config::UsmUser;
use crate::engine::Engine;
use crate::error::ClientError;
use crate::outgoing::{seal_into, Header, Security};
use crate::usm::{AuthProtocol, Key, PrivProtocol};
use crate::value::Value;

/// Which request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Get,
    GetNext,
    Set,
    Inform,
    Trap,
    GetBulk {
        non_repeaters: u32,
        max_repetitions: u32,
    },
}

/// A request to an agent: its PDU type and bindings.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub(crate) kind: Kind,
    /// Its names: on the stack up to four.
    pub(crate) oids: SmallVec<[OidBuf; 4]>,
    /// A SET's values, one per OID; empty for the others (their values are unSpecified).
    pub(crate) values: Vec<Value>,
}

impl Request {
    /// GET of `oids`.
    pub fn get(oids: &[OidBuf]) -> Request {
        Request::of(Kind::Get, oids)
    }

    /// GETNEXT of `oids`.
    pub fn get_next(oids: &[OidBuf]) -> Request {
        Request::of(Kind::GetNext, oids)
    }

    /// GETBULK of `oids` (RFC 3416 4.2.3): the first `non_repeaters` once, the others
    /// `max_repetitions` times.
    pub fn get_bulk(non_repeaters: u32, max_repetitions: u32, oids: &[OidBuf]) -> Request {
        let kind = Kind::GetBulk {
            non_repeaters,
            max_repetitions,
        };
        Request::of(kind, oids)
    }

    /// InformRequest of `bindings` (sysUpTime.0 and snmpTrapOID.0 first: see
    /// [`crate::notify::v2_bindings`]); the receiver answers with a Response.
    pub fn inform(bindings: &[(OidBuf, Value)]) -> Request {
        Request {
            kind: Kind::Inform,
            ..Request::set(bindings)
        }
    }

    /// SNMPv2-Trap of `bindings` (sysUpTime.0 and snmpTrapOID.0 first), unanswered.
    pub(crate) fn trap(bindings: &[(OidBuf, Value)]) -> Request {
        Request {
            kind: Kind::Trap,
            ..Request::set(bindings)
        }
    }

    /// SET of `bindings`.
    pub fn set(bindings: &[(OidBuf, Value)]) -> Request {
        let (oids, values) = bindings.iter().cloned().unzip();
        Request {
            kind: Kind::Set,
            oids,
            values,
        }
    }

    fn of(kind: Kind, oids: &[OidBuf]) -> Request {
        // Pushed one by one: cheaper than a collect for the one OID of a walk's request.
        let mut list = SmallVec::new();
        for o in oids {
            list.push(o.clone());
        }
        Request {
            kind,
            oids: list,
            values: Vec::new(),
        }
    }

    /// Made over into a `kind` request of `oid` alone, its storage kept.
    pub(crate) fn set_one(&mut self, kind: Kind, oid: &OidBuf) {
        self.kind = kind;
        self.values.clear();
        if let [only] = self.oids.as_mut_slice() {
            only.clone_from(oid);
        } else {
            self.oids.clear();
            self.oids.push(oid.clone());
        }
    }

    /// The PDU type's name, as spans show it.
    pub(crate) fn name(&self) -> &'static str {
        match self.kind {
            Kind::Get => "get",
            Kind::Set => "set",
            Kind::GetNext => "getnext",
            Kind::GetBulk { .. } => "getbulk",
            Kind::Inform => "inform",
            Kind::Trap => "trap",
        }
    }
}

/// An SNMPv3 engine and the user's keys localised to it.
#[derive(Debug)]
pub(crate) struct Peer {
    pub(crate) engine: Engine,
    pub(crate) auth: Option<(AuthProtocol, Key)>,
    pub(crate) privacy: Option<(PrivProtocol, Key)>,
    /// Where encrypted answers are decrypted, reused from one answer to the next.
    pub(crate) plaintext: Vec<u8>,
}

impl Peer {
    /// `engine`, with `user`'s keys localised to it.
    pub(crate) fn new(user: &UsmUser, engine: Engine) -> Peer {
        let localize = |k: &Key, p: AuthProtocol| k.localize(p, &engine.id);
        let auth = user.auth.as_ref().map(|(p, k)| (*p, localize(k, *p)));
        // The privacy key is localised with the authentication protocol's hash, and extended
        // when that hash is shorter than the cipher's key.
        let privacy = match (&user.privacy, &user.auth) {
            (Some((p, k)), Some((a, _))) => {
                Some((*p, p.extend_key(localize(k, *a), *a, &engine.id)))
            }
            _ => None,
        };
        Peer {
            engine,
            auth,
            privacy,
            plaintext: Vec::new(),
        }
    }

    /// The msgFlags security bits of this peer's requests: authFlag and privFlag.
    pub(crate) fn level(&self) -> u8 {
        use crate::incoming::flags;
        match (&self.auth, &self.privacy) {
            (None, _) => 0,
            (Some(_), None) => flags::AUTH,
            (Some(_), Some(_)) => flags::AUTH | flags::PRIV,
        }
    }
}

/// The SNMPv2 PDU for `kind` over `vbs`.
fn pdus<'a>(kind: Kind, vbs: &'a [WireVarBind<'a>], request_id: i32) -> Pdus<'a> {
    let list = VarBindList(SequenceOf::from_slice(vbs));
    let pdu = Pdu {
        request_id,
        error_status: PduErrorStatus::NO_ERROR,
        error_index: 0,
        variable_bindings: list,
    };
    match kind {
        Kind::Get => Pdus::GetRequest(GetRequestPdu(pdu)),
        Kind::Set => Pdus::SetRequest(SetRequestPdu(pdu)),
        Kind::Inform => Pdus::InformRequest(InformRequestPdu(pdu)),
        Kind::Trap => Pdus::SnmpV2Trap(Snmpv2TrapPdu(pdu)),
        Kind::GetNext => Pdus::GetNextRequest(GetNextRequestPdu(pdu)),
        Kind::GetBulk {
            non_repeaters,
            max_repetitions,
        } => Pdus::GetBulkRequest(GetBulkRequestPdu(BulkPdu {
            request_id,
            non_repeaters,
            max_repetitions,
            variable_bindings: list,
        })),
    }
}

/// What a session reuses from one request to the next: the datagram, and under SNMPv3 the
/// scoped PDU's encoding and its encryption.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    pub(crate) datagram: Vec<u8>,
    scoped: Vec<u8>,
    encrypted: Vec<u8>,
}

/// A request's wire bindings: on the stack for up to eight.
type WireBindings<'a> = SmallVec<[WireVarBind<'a>; 8]>;

/// The request's SNMPv2 bindings, into `vbs` (empty).
fn wire_bindings<'a>(request: &'a Request, vbs: &mut WireBindings<'a>) -> Result<(), ClientError> {
    // Pushed into a list the caller made, not collected through `Result` and returned: the
    // list (hundreds of octets) is built where it stays, never moved.
    for (k, o) in request.oids.iter().enumerate() {
        let value = match request.values.get(k) {
            Some(v) => v.to_wire()?,
            None => VarBindValue::UnSpecified,
        };
        vbs.push(WireVarBind {
            name: ObjectName(o.as_oid()),
            value,
        });
    }
    Ok(())
}

/// An SNMPv1 message (RFC 1157) for `request`, into `out`.
pub(crate) fn v1(
    community: &[u8],
    request: &Request,
    id: i32,
    out: &mut Vec<u8>,
) -> Result<(), ClientError> {
    let vbs: SmallVec<[v1::VarBind<'_>; 8]> = request
        .oids
        .iter()
        .enumerate()
        .map(|(k, o)| {
            Ok(v1::VarBind {
                name: v1smi::ObjectName(o.as_oid()),
                value: match request.values.get(k) {
                    Some(v) => v.to_v1()?,
                    None => v1smi::ObjectSyntax::Simple(v1smi::SimpleSyntax::Empty),
                },
            })
        })
        .collect::<Result<_, ClientError>>()?;
    let pdu = v1::Pdu {
        request_id: i64::from(id),
        error_status: v1::PduErrorStatus(0),
        error_index: 0,
        variable_bindings: v1::VarBindList(SequenceOf::from_slice(&vbs)),
    };
    let data = match request.kind {
        Kind::Get => v1::Pdus::GetRequest(v1::GetRequestPdu(pdu)),
        Kind::GetNext => v1::Pdus::GetNextRequest(v1::GetNextRequestPdu(pdu)),
        Kind::Set => v1::Pdus::SetRequest(v1::SetRequestPdu(pdu)),
        Kind::GetBulk { .. } => return Err(ClientError::NoBulkInV1),
        Kind::Inform => return Err(ClientError::NotOffered("InformRequest in SNMPv1")),
        Kind::Trap => return Err(ClientError::NotOffered("an SNMPv2-Trap in SNMPv1")),
    };
    v1::Message {
        version: v1::MessageVersion(0),
        community,
        data,
    }
    .encode_into_vec(out)
    .map_err(ClientError::Encode)
}

/// An SNMPv2c message (RFC 1901) for `request`, into `out`.
pub(crate) fn v2c(
    community: &[u8],
    request: &Request,
    id: i32,
    out: &mut Vec<u8>,
) -> Result<(), ClientError> {
    let mut vbs = WireBindings::new();
    wire_bindings(request, &mut vbs)?;
    Message {
        version: MessageVersion::VERSION,
        community,
        data: pdus(request.kind, &vbs, id),
    }
    .encode_into_vec(out)
    .map_err(ClientError::Encode)
}

/// RFC 3414 4's discovery request: a GET of nothing at noAuthNoPriv, with no user and no
/// engine ID, into `bufs.datagram`.
pub(crate) fn discovery(id: i32, max_size: u32, bufs: &mut Buffers) -> Result<(), ClientError> {
    ScopedPdu {
        context_engine_id: b"",
        context_name: b"",
        data: pdus(Kind::Get, &[], id),
    }
    .encode_into_vec(&mut bufs.scoped)
    .map_err(ClientError::Encode)?;
    let header = Header {
        msg_id: id as u32,
        max_size,
        reportable: true,
    };
    let Buffers {
        datagram,
        scoped,
        encrypted,
    } = bufs;
    Ok(seal_into(
        header,
        &Security::DISCOVERY,
        scoped,
        encrypted,
        datagram,
    )?)
}

/// An SNMPv3 message for `request` to `peer` as `user`, sent at `now`, its msgID and
/// request-id `id`, into `bufs.datagram`; `counter` is the privacy salt's counter (RFC 3414
/// 8.1.1.1, RFC 3826 3.1.2.1), which must not repeat under one key.
#[allow(clippy::too_many_arguments)]
pub(crate) fn usm(
    user: &UsmUser,
    peer: &Peer,
    request: &Request,
    id: i32,
    counter: u64,
    max_size: u32,
    now: Instant,
    bufs: &mut Buffers,
) -> Result<(), ClientError> {
    let mut vbs = WireBindings::new();
    wire_bindings(request, &mut vbs)?;
    ScopedPdu {
        context_engine_id: user.context_engine_for(&peer.engine.id),
        context_name: &user.context,
        data: pdus(request.kind, &vbs, id),
    }
    .encode_into_vec(&mut bufs.scoped)
    .map_err(ClientError::Encode)?;
    let (boots, time) = peer.engine.clock_at(now);
    // DES's salt is the engine boots and a counter (RFC 3414 8.1.1.1); AES's a 64-bit
    // counter (RFC 3826 3.1.2.1).
    let salt = match peer.privacy {
        Some((PrivProtocol::Des, _)) => {
            let mut s = [0u8; 8];
            s[..4].copy_from_slice(&boots.to_be_bytes());
            s[4..].copy_from_slice(&(counter as u32).to_be_bytes());
            s
        }
        _ => counter.to_be_bytes(),
    };
    let security = Security {
        user: &user.name,
        engine_id: &peer.engine.id,
        engine_boots: boots,
        engine_time: time,
        auth: peer.auth.as_ref().map(|(p, k)| (*p, k)),
        privacy: peer.privacy.as_ref().map(|(p, k)| (*p, k, salt)),
    };
    let header = Header {
        msg_id: id as u32,
        max_size,
        // Confirmed-class PDUs ask for Reports; a trap is unconfirmed (RFC 3412 6.4).
        reportable: request.kind != Kind::Trap,
    };
    let Buffers {
        datagram,
        scoped,
        encrypted,
    } = bufs;
    Ok(seal_into(header, &security, scoped, encrypted, datagram)?)
}
