//! The acceptance rules for an answer: given the request a session waits on, whether a received
//! datagram is its answer, and what it says. Anything that is not the answer, or fails a check,
//! is a [`Discard`] with its reason; the request keeps waiting. Values reach the caller only
//! from a Response that passed every check of the request's own security level.
//!
//! SNMPv3 follows RFC 3412 7.2 (the msgID matches an outstanding request; a Response carries
//! the request's securityLevel, securityName, securityEngineID and context) and RFC 3414 3.2
//! (the MAC, the time window of step 7b, decryption). Reports are matched by msgID and may come
//! at a lower level than the request, but only those RFC 3414 3.2 sends unauthenticated, and
//! they end the request as an error, never as values. `docs/ARCHITECTURE.md` lists the rules
//! in order.

use std::time::Instant;

use snmp_ber::Rules;
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::rfc1157_snmp as v1;
use snmp_messages::snmpv2_pdu::{Pdu, Pdus};
use snmp_messages::snmpv3_message_syntax::{ScopedPdu, ScopedPduData};

use crate::config::UsmUser;
use crate::engine::{Engine, Report};
use crate::error::ClientError;
use crate::incoming::{decode_under, flags, Incoming, IncomingError};
use crate::request::Peer;
use crate::stats::Discard;
use crate::value::{Value, VarBind};

/// What a received datagram is to the waiting request.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// Not its answer, or not acceptable: dropped and counted.
    Discard(Discard),
    /// The answer to a discovery request: the agent's engine.
    Discovered(Engine),
    /// An authenticated notInTimeWindow Report: the engine's clock, to send again with.
    Resync(Engine),
    /// The answer: the bindings, or the error it carries (an error-status, a Report).
    Done(Result<Vec<VarBind>, ClientError>),
}

/// An SNMPv1 answer to request `id`: a GetResponse with that request-id whose bindings all
/// decode.
pub(crate) fn v1(datagram: &[u8], id: i32, rules: Rules) -> Verdict {
    let Ok(msg) = decode_under::<v1::Message>(datagram, rules) else {
        return Verdict::Discard(Discard::Malformed);
    };
    if msg.version.0 != 0 {
        return Verdict::Discard(Discard::Malformed);
    }
    let v1::Pdus::GetResponse(r) = msg.data else {
        return Verdict::Discard(Discard::NotAResponse);
    };
    if r.0.request_id != i64::from(id) {
        return Verdict::Discard(Discard::Unmatched);
    }
    let pdu = &r.0;
    let mut bindings = Vec::with_capacity(pdu.variable_bindings.0.len());
    for vb in pdu.variable_bindings.0.iter() {
        let Ok(vb) = vb else {
            return Verdict::Discard(Discard::Malformed);
        };
        bindings.push(VarBind {
            oid: vb.name.0.to_owned(),
            value: Value::from_v1(&vb.value),
        });
    }
    done(Ok(bindings), pdu.error_status.0, pdu.error_index)
}

/// An SNMPv2c answer to request `id`: a Response with that request-id whose bindings all
/// decode.
pub(crate) fn v2c(datagram: &[u8], id: i32, rules: Rules) -> Verdict {
    let Ok(msg) = decode_under::<Message>(datagram, rules) else {
        return Verdict::Discard(Discard::Malformed);
    };
    if msg.version != MessageVersion::VERSION {
        return Verdict::Discard(Discard::Malformed);
    }
    match msg.data {
        Pdus::Response(r) if r.0.request_id == id => response(&r.0),
        Pdus::Response(_) => Verdict::Discard(Discard::Unmatched),
        _ => Verdict::Discard(Discard::NotAResponse),
    }
}

/// A Response PDU's verdict: its bindings (all of them decoding) or its error-status.
fn response(pdu: &Pdu<'_>) -> Verdict {
    done(
        VarBind::list_from_wire(&pdu.variable_bindings),
        pdu.error_status.0,
        i64::from(pdu.error_index),
    )
}

/// The answer: its bindings when all decode and `status` is noError, its error-status
/// otherwise; discarded when a binding does not decode.
fn done(bindings: Result<Vec<VarBind>, snmp_ber::DecodeError>, status: i64, index: i64) -> Verdict {
    let Ok(bindings) = bindings else {
        return Verdict::Discard(Discard::Malformed);
    };
    Verdict::Done(match status {
        0 => Ok(bindings),
        status => Err(ClientError::ErrorStatus {
            status,
            index,
            oid: None,
        }),
    })
}

/// The answer to discovery request `id` (RFC 3414 4): an unauthenticated Report that names
/// the agent's engine.
pub(crate) fn discovery(datagram: &[u8], id: i32, now: Instant, rules: Rules) -> Verdict {
    let Ok(m) = Incoming::parse_under(datagram, rules) else {
        return Verdict::Discard(Discard::Malformed);
    };
    if m.message.msg_global_data.msg_id != id as u32 {
        return Verdict::Discard(Discard::Unmatched);
    }
    // Discovery went at noAuthNoPriv: nothing at another level can be checked.
    if m.flags() & (flags::AUTH | flags::PRIV) != 0 {
        return Verdict::Discard(Discard::WrongSecurityLevel);
    }
    let ScopedPduData::Plaintext(scoped) = m.message.msg_data else {
        return Verdict::Discard(Discard::Malformed);
    };
    if !matches!(scoped.data, Pdus::Report(_)) {
        return Verdict::Discard(Discard::NotAResponse);
    }
    if m.usm.msg_authoritative_engine_id.is_empty() {
        return Verdict::Discard(Discard::UnknownEngine);
    }
    Verdict::Discovered(Engine::from_message(&m, now))
}

/// What the session expects of an SNMPv3 answer.
pub(crate) struct Expected<'a> {
    /// The request's msgID and request-id.
    pub id: i32,
    /// The user the request went as.
    pub user: &'a UsmUser,
    /// Whether the request was already sent again after a notInTimeWindow Report.
    pub resynced: bool,
}

/// An SNMPv3 answer to the request `expected` describes, sent to `peer` at its level.
pub(crate) fn usm(
    datagram: &[u8],
    expected: &Expected<'_>,
    peer: &mut Peer,
    now: Instant,
    rules: Rules,
) -> Verdict {
    // The peer's decryption buffer, lent for the answer and put back.
    let mut plain = std::mem::take(&mut peer.plaintext);
    let verdict = usm_in(datagram, (expected, rules), peer, now, &mut plain);
    peer.plaintext = plain;
    verdict
}

/// [`usm`], decrypting into `plain`.
fn usm_in(
    datagram: &[u8],
    (expected, rules): (&Expected<'_>, Rules),
    peer: &mut Peer,
    now: Instant,
    plain: &mut Vec<u8>,
) -> Verdict {
    let Ok(m) = Incoming::parse_under(datagram, rules) else {
        return Verdict::Discard(Discard::Malformed);
    };
    if m.message.msg_global_data.msg_id != expected.id as u32 {
        return Verdict::Discard(Discard::Unmatched);
    }
    let level = m.flags() & (flags::AUTH | flags::PRIV);
    if level & flags::AUTH != 0 {
        if let Err(why) = authenticate(&m, expected.user, peer) {
            return Verdict::Discard(why);
        }
    }
    let scoped = match (m.message.msg_data, level & flags::PRIV != 0) {
        (ScopedPduData::Plaintext(s), false) => s,
        (ScopedPduData::EncryptedPdu(_), true) => {
            let octets = match decrypt(&m, peer, plain) {
                Ok(p) => p,
                Err(why) => return Verdict::Discard(why),
            };
            match decode_under::<ScopedPdu>(octets, rules) {
                Ok(s) => s,
                Err(_) => return Verdict::Discard(Discard::DecryptionError),
            }
        }
        // The flags disagree with the data.
        _ => return Verdict::Discard(Discard::Malformed),
    };
    match scoped.data {
        Pdus::Report(r) => report(&m, &r.0, level, expected, peer, now),
        Pdus::Response(r) => {
            if level != peer.level() {
                return Verdict::Discard(Discard::WrongSecurityLevel);
            }
            if level == 0 {
                // Unauthenticated: at least the names must be the request's.
                if let Err(why) = names(&m, expected.user, peer) {
                    return Verdict::Discard(why);
                }
            } else if let Err(why) = timely(&m, peer, now) {
                return Verdict::Discard(why);
            }
            if scoped.context_engine_id != expected.user.context_engine_for(&peer.engine.id)
                || scoped.context_name != expected.user.context.as_slice()
            {
                return Verdict::Discard(Discard::WrongContext);
            }
            if r.0.request_id != expected.id {
                return Verdict::Discard(Discard::Unmatched);
            }
            response(&r.0)
        }
        _ => Verdict::Discard(Discard::NotAResponse),
    }
}

/// msgUserName and msgAuthoritativeEngineID are the request's.
fn names(m: &Incoming<'_>, user: &UsmUser, peer: &Peer) -> Result<(), Discard> {
    if m.usm.msg_user_name != user.name.as_slice() {
        return Err(Discard::UnknownUser);
    }
    if m.usm.msg_authoritative_engine_id != peer.engine.id.as_slice() {
        return Err(Discard::UnknownEngine);
    }
    Ok(())
}

/// An authenticated message: the request's user and engine, a user with a key, and a MAC
/// that verifies under it (RFC 3414 3.2 steps 3, 4, 5 and 6).
fn authenticate(m: &Incoming<'_>, user: &UsmUser, peer: &Peer) -> Result<(), Discard> {
    names(m, user, peer)?;
    let Some((protocol, key)) = &peer.auth else {
        return Err(Discard::WrongSecurityLevel);
    };
    m.verify(*protocol, key).map_err(|_| Discard::WrongDigest)
}

/// The scoped PDU of an encrypted message (RFC 3414 3.2 step 8), decrypted into `plain`.
fn decrypt<'p>(
    m: &'p Incoming<'_>,
    peer: &Peer,
    plain: &'p mut Vec<u8>,
) -> Result<&'p [u8], Discard> {
    let Some((protocol, key)) = &peer.privacy else {
        return Err(Discard::WrongSecurityLevel);
    };
    m.scoped_pdu_into(Some((*protocol, key)), plain)
        .map_err(|e| match e {
            IncomingError::DataForm { .. } => Discard::Malformed,
            _ => Discard::DecryptionError,
        })
}

/// RFC 3414 3.2 step 7b, as the non-authoritative side: an authenticated message older than
/// the engine's clock by more than the time window is discarded; a later clock is learned.
fn timely(m: &Incoming<'_>, peer: &mut Peer, now: Instant) -> Result<(), Discard> {
    let (boots, time) = (
        m.usm.msg_authoritative_engine_boots,
        m.usm.msg_authoritative_engine_time,
    );
    if !peer.engine.in_time_window(boots, time, now) {
        return Err(Discard::NotInTimeWindow);
    }
    peer.engine.learn(boots, time, now);
    Ok(())
}

/// A Report answering the request: an error for the caller, a resynchronisation, or, below
/// the request's level where RFC 3414 does not send one, a forgery to discard.
fn report(
    m: &Incoming<'_>,
    pdu: &Pdu<'_>,
    level: u8,
    expected: &Expected<'_>,
    peer: &mut Peer,
    now: Instant,
) -> Verdict {
    let kind = Report::of_pdu(pdu).unwrap_or(Report::Other);
    if level & flags::AUTH == 0 {
        // Unauthenticated: only what the agent could not have authenticated.
        if peer.level() != 0 && !kind.sent_unauthenticated() {
            return Verdict::Discard(Discard::WrongSecurityLevel);
        }
        return Verdict::Done(Err(ClientError::Report(kind)));
    }
    if kind == Report::NotInTimeWindow {
        // The engine's own statement of its clock, authenticated: RFC 3414 4's time
        // synchronisation takes it as it is, even when earlier than what was known. Once per
        // request, so that a replayed Report cannot keep a request going.
        if expected.resynced {
            return Verdict::Done(Err(ClientError::Report(kind)));
        }
        return Verdict::Resync(Engine::from_message(m, now));
    }
    if let Err(why) = timely(m, peer, now) {
        return Verdict::Discard(why);
    }
    Verdict::Done(Err(ClientError::Report(kind)))
}
