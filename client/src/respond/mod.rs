//! An SNMP agent sans IO: [`Responder::handle`] takes a request datagram and gives the
//! datagram to answer with, from a [`Backend`]: a recorded MIB view ([`Recorded`] over a
//! [`View`], what `snmpc simulate` serves and what tests and benchmarks of a manager poll
//! instead of real devices) or typed MIB handlers (`snmp-agent`). GET, GETNEXT, GETBULK and
//! SET under SNMPv1 (noSuchName, badValue...: RFC 3584 4.4), SNMPv2c (noSuchObject,
//! noSuchInstance, endOfMibView) and SNMPv3/USM, where the responder is the authoritative
//! engine: discovery answered, the time window checked, unknown users, wrong digests,
//! unsupported levels and undecryptable PDUs answered with their usmStats Reports (RFC 3414
//! 3.2). Each responder has its own engine ID; a view can be shared.

mod backend;
mod view;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{Pdu, PduErrorStatus, Pdus, ResponsePdu, VarBindList};
use snmp_messages::snmpv3_message_syntax::ScopedPdu;
use snmp_messages::{rfc1155_smi as v1smi, rfc1157_snmp as v1};
use snmp_mib::ErrorStatus;

pub use backend::{Backend, Recorded, Refused, Who};
pub use view::{Unread, View};

use crate::authoritative::{counters, LocalEngine};
use crate::config::UsmUser;
use crate::incoming::{flags, Incoming};
use crate::request::Peer;
use crate::value::{Value, VarBind};

/// usmStatsUnsupportedSecLevels.0 and usmStatsDecryptionErrors.0 (RFC 3414 5).
const UNSUPPORTED_SEC_LEVELS: [u32; 11] = [1, 3, 6, 1, 6, 3, 15, 1, 1, 1, 0];
const DECRYPTION_ERRORS: [u32; 11] = [1, 3, 6, 1, 6, 3, 15, 1, 1, 6, 0];

/// The most bindings one GETBULK answer carries, and the octets their values may take (an
/// answer stays within one UDP datagram).
const BULK_BINDINGS: usize = 2_000;
const BULK_OCTETS: usize = 60_000;

/// The most GETNEXT steps SNMPv1 takes past Counter64 values (which it cannot carry) for one
/// binding before it answers noSuchName.
const V1_SKIPS: usize = 10_000;

/// What a responder has done, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Served {
    /// Datagrams handled.
    pub received: u64,
    /// Answers sent (Responses and Reports).
    pub answered: u64,
    /// Reports among them (discovery and usmStats).
    pub reports: u64,
    /// Datagrams not answered: not SNMP, a community not taken, not a request.
    pub dropped: u64,
}

/// An agent answering from a [`Backend`].
#[derive(Debug)]
pub struct Responder<B = Recorded> {
    backend: B,
    users: Vec<UsmUser>,
    /// Each user's keys localized to this engine, by user index.
    keys: HashMap<usize, Arc<Peer>>,
    engine: LocalEngine,
    served: Served,
}

/// A request's answer before it is encoded: request-id, error status and index, bindings.
struct Answer {
    request_id: i32,
    error_status: i64,
    error_index: i64,
    bindings: Vec<(OidBuf, Value)>,
}

impl Responder<Recorded> {
    /// An agent serving `view` to `communities` (v1, v2c) and `users` (v3), with the engine
    /// `engine_id` at `boots`, its time counting from `now`.
    pub fn new(
        view: Arc<View>,
        communities: Vec<Vec<u8>>,
        users: Vec<UsmUser>,
        engine_id: &[u8],
        boots: u32,
        now: Instant,
    ) -> Responder {
        let backend = Recorded::new(view, communities);
        Responder::serving(backend, users, engine_id, boots, now)
    }
}

impl<B: Backend> Responder<B> {
    /// An agent answering from `backend`, to the communities it admits and to `users` (v3),
    /// with the engine `engine_id` at `boots`, its time counting from `now`.
    pub fn serving(
        backend: B,
        users: Vec<UsmUser>,
        engine_id: &[u8],
        boots: u32,
        now: Instant,
    ) -> Responder<B> {
        Responder {
            backend,
            users,
            keys: HashMap::new(),
            engine: LocalEngine::new(engine_id, boots, now),
            served: Served::default(),
        }
    }

    /// What it has done so far.
    pub fn served(&self) -> Served {
        self.served
    }

    /// The backend it answers from.
    pub fn backend(&mut self) -> &mut B {
        &mut self.backend
    }

    /// The answer to the datagram `bytes` received at `now`, if it gets one.
    pub fn handle(&mut self, bytes: &[u8], now: Instant) -> Option<Vec<u8>> {
        self.served.received += 1;
        let answer = match crate::listen::version_of(bytes) {
            Some(0) => self.v1(bytes),
            Some(1) => self.v2c(bytes),
            Some(3) => self.v3(bytes, now),
            _ => None,
        };
        match &answer {
            Some(_) => self.served.answered += 1,
            None => self.served.dropped += 1,
        }
        answer
    }

    fn v2c(&mut self, bytes: &[u8]) -> Option<Vec<u8>> {
        let m = Message::from_ber(bytes).ok()?;
        let who = Who::Community {
            version: 1,
            community: m.community,
        };
        if m.version != MessageVersion::VERSION || !self.backend.admits(&who) {
            return None;
        }
        let answer = self.answer(&who, &m.data)?;
        let vbs = wire(&answer.bindings)?;
        Message {
            version: MessageVersion::VERSION,
            community: m.community,
            data: response(&answer, &vbs),
        }
        .to_ber()
        .ok()
    }

    fn v1(&mut self, bytes: &[u8]) -> Option<Vec<u8>> {
        let m = v1::Message::from_ber(bytes).ok()?;
        let who = Who::Community {
            version: 0,
            community: m.community,
        };
        if !self.backend.admits(&who) {
            return None;
        }
        let (pdu, kind) = match &m.data {
            v1::Pdus::GetRequest(p) => (&p.0, V1::Get),
            v1::Pdus::GetNextRequest(p) => (&p.0, V1::Next),
            v1::Pdus::SetRequest(p) => (&p.0, V1::Set),
            _ => return None,
        };
        let mut request = Vec::with_capacity(pdu.variable_bindings.0.len());
        for vb in pdu.variable_bindings.0.iter() {
            let vb = vb.ok()?;
            request.push((vb.name.0.to_owned(), Value::from_v1(&vb.value)));
        }
        let answer = self.v1_answer(&who, &request, kind);
        let values: Vec<v1smi::ObjectSyntax<'_>> = answer
            .bindings
            .iter()
            .map(|(_, v)| v.to_v1())
            .collect::<Result<_, _>>()
            .ok()?;
        let vbs: Vec<v1::VarBind<'_>> = answer
            .bindings
            .iter()
            .zip(values)
            .map(|((o, _), value)| v1::VarBind {
                name: v1smi::ObjectName(o.as_oid()),
                value,
            })
            .collect();
        v1::Message {
            version: v1::MessageVersion(0),
            community: m.community,
            data: v1::Pdus::GetResponse(v1::GetResponsePdu(v1::Pdu {
                request_id: pdu.request_id,
                error_status: v1::PduErrorStatus(answer.error_status),
                error_index: answer.error_index,
                variable_bindings: v1::VarBindList(SequenceOf::from_slice(&vbs)),
            })),
        }
        .to_ber()
        .ok()
    }

    /// An SNMPv1 answer (RFC 1157 4.1.2-4.1.5): noSuchName at the first name with no value
    /// (a Counter64 has none in SNMPv1, RFC 3584 4.2.2.1.3: GETNEXT passes over it), the
    /// request's bindings then echoed; a SET's refusal in SNMPv1's terms (RFC 3584 4.4).
    fn v1_answer(&mut self, who: &Who<'_>, request: &[(OidBuf, Value)], kind: V1) -> Answer {
        let refused = |status: i64, index: usize| Answer {
            request_id: 0,
            error_status: status,
            error_index: index as i64,
            bindings: request.to_vec(),
        };
        if kind == V1::Set {
            return match self.backend.set(who, request) {
                Ok(()) => refused(0, 0),
                Err(r) => refused(r.status.to_v1().code(), r.index),
            };
        }
        let mut bindings = Vec::with_capacity(request.len());
        for (k, (name, _)) in request.iter().enumerate() {
            let found = match kind {
                V1::Next => self.v1_next(who, name),
                _ => self.backend.get(who, name).map(|v| {
                    Some((name.clone(), v))
                        .filter(|(_, v)| !v.is_exception() && !matches!(v, Value::Counter64(_)))
                }),
            };
            match found {
                Ok(Some(b)) => bindings.push(b),
                Ok(None) => return refused(snmp_mib::ErrorStatus::NoSuchName.code(), k + 1),
                Err(e) => return refused(e.to_v1().code(), k + 1),
            }
        }
        Answer {
            request_id: 0,
            error_status: 0,
            error_index: 0,
            bindings,
        }
    }

    /// GETNEXT for SNMPv1: past Counter64 values, a bounded number of them.
    fn v1_next(
        &mut self,
        who: &Who<'_>,
        name: &OidBuf,
    ) -> Result<Option<(OidBuf, Value)>, ErrorStatus> {
        let mut at = name.clone();
        for _ in 0..V1_SKIPS {
            match self.backend.next(who, &at)? {
                Some((o, Value::Counter64(_))) => at = o,
                found => return Ok(found),
            }
        }
        Ok(None)
    }

    /// The SNMPv2 answer to `pdus` (RFC 3416 4.2); `None` for what is not a request.
    fn answer(&mut self, who: &Who<'_>, pdus: &Pdus<'_>) -> Option<Answer> {
        let (request_id, outcome) = match pdus {
            Pdus::GetRequest(p) => {
                let names = names(&p.0.variable_bindings)?;
                (p.0.request_id, self.each(who, names, false))
            }
            Pdus::GetNextRequest(p) => {
                let names = names(&p.0.variable_bindings)?;
                (p.0.request_id, self.each(who, names, true))
            }
            Pdus::GetBulkRequest(b) => {
                let (n, m) = (b.0.non_repeaters, b.0.max_repetitions);
                let list = names(&b.0.variable_bindings)?;
                let outcome = self.bulk(who, &list, n, m).map_err(|f| (f, list));
                (b.0.request_id, outcome)
            }
            Pdus::SetRequest(p) => {
                let request = bindings(&p.0.variable_bindings)?;
                return Some(match self.backend.set(who, &request) {
                    Ok(()) => Answer {
                        request_id: p.0.request_id,
                        error_status: 0,
                        error_index: 0,
                        bindings: request,
                    },
                    Err(e) => Answer {
                        request_id: p.0.request_id,
                        error_status: e.status.code(),
                        error_index: e.index as i64,
                        bindings: request,
                    },
                });
            }
            _ => return None,
        };
        Some(match outcome {
            Ok(bindings) => Answer {
                request_id,
                error_status: 0,
                error_index: 0,
                bindings,
            },
            // An error answers with the request's names (RFC 3416 4.2.1: its bindings as
            // they came).
            Err((e, names)) => Answer {
                request_id,
                error_status: e.status.code(),
                error_index: e.index as i64,
                bindings: names.into_iter().map(|n| (n, Value::Null)).collect(),
            },
        })
    }

    /// GET (`next` false) or GETNEXT of every name: the bindings, or the first error with
    /// its index and the names (an error answers with the request's names).
    fn each(&mut self, who: &Who<'_>, names: Vec<OidBuf>, next: bool) -> Outcome {
        let mut out = Vec::with_capacity(names.len());
        for (k, n) in names.iter().enumerate() {
            let found = match next {
                true => self.next(who, n),
                false => self.backend.get(who, n).map(|v| (n.clone(), v)),
            };
            match found {
                Ok(b) => out.push(b),
                Err(status) => {
                    let refused = Refused {
                        status,
                        index: k + 1,
                    };
                    return Err((refused, names));
                }
            }
        }
        Ok(out)
    }

    /// GETNEXT of one name: the next binding, or endOfMibView at the name.
    fn next(&mut self, who: &Who<'_>, name: &OidBuf) -> Result<(OidBuf, Value), ErrorStatus> {
        Ok(match self.backend.next(who, name)? {
            Some(b) => b,
            None => (name.clone(), Value::EndOfMibView),
        })
    }

    /// GETBULK (RFC 3416 4.2.3): the first `non_repeaters` names once, then up to
    /// `max_repetitions` rounds over the rest, within one datagram's worth.
    fn bulk(
        &mut self,
        who: &Who<'_>,
        names: &[OidBuf],
        non_repeaters: u32,
        max_repetitions: u32,
    ) -> Result<Vec<(OidBuf, Value)>, Refused> {
        let n = (non_repeaters as usize).min(names.len());
        let failed = |k: usize| {
            move |status| Refused {
                status,
                index: k + 1,
            }
        };
        let mut out: Vec<(OidBuf, Value)> = Vec::with_capacity(names.len());
        for (k, o) in names[..n].iter().enumerate() {
            out.push(self.next(who, o).map_err(failed(k))?);
        }
        let mut cursors: Vec<OidBuf> = names[n..].to_vec();
        let mut octets = 0usize;
        for _ in 0..max_repetitions {
            if cursors.is_empty() {
                break;
            }
            let mut all_ended = true;
            for (k, c) in cursors.iter_mut().enumerate() {
                let (o, v) = self.next(who, c).map_err(failed(n + k))?;
                all_ended &= v == Value::EndOfMibView;
                octets += o.as_oid().as_ber().len() + value_len(&v) + 4;
                *c = o.clone();
                out.push((o, v));
            }
            if all_ended || out.len() >= BULK_BINDINGS || octets >= BULK_OCTETS {
                break;
            }
        }
        Ok(out)
    }

    /// The user `name` and its keys localized to this engine (made once per user).
    fn user(&mut self, name: &[u8]) -> Option<(usize, Arc<Peer>)> {
        let index = self.users.iter().position(|u| u.name == name)?;
        let (user, id) = (&self.users[index], &self.engine.id);
        let peer = self.keys.entry(index).or_insert_with(|| {
            let engine = crate::engine::Engine {
                id: id.clone(),
                boots: 0,
                time: 0,
                learned_at: Instant::now(),
            };
            Arc::new(Peer::new(user, engine))
        });
        Some((index, peer.clone()))
    }

    /// An SNMPv3 request, as the authoritative engine (RFC 3414 3.2).
    fn v3(&mut self, bytes: &[u8], now: Instant) -> Option<Vec<u8>> {
        let m = Incoming::parse(bytes).ok()?;
        if LocalEngine::is_discovery(&m) {
            self.served.reports += 1;
            return self
                .engine
                .report(&m, &counters::UNKNOWN_ENGINE_IDS, None, now);
        }
        let Some((_, peer)) = self.user(m.usm.msg_user_name) else {
            self.served.reports += 1;
            return self
                .engine
                .report(&m, &counters::UNKNOWN_USER_NAMES, None, now);
        };
        let level = m.flags() & (flags::AUTH | flags::PRIV);
        if level != peer.level() {
            self.served.reports += 1;
            return self.engine.report(&m, &UNSUPPORTED_SEC_LEVELS, None, now);
        }
        if let Some((p, key)) = &peer.auth {
            if m.verify(*p, key).is_err() {
                self.served.reports += 1;
                return self.engine.report(&m, &counters::WRONG_DIGESTS, None, now);
            }
            if !self.engine.in_window(&m, now) {
                self.served.reports += 1;
                let which = &counters::NOT_IN_TIME_WINDOWS;
                return self.engine.report(&m, which, Some(&peer), now);
            }
        }
        let Ok(octets) = m.scoped_pdu_octets(peer.privacy.as_ref().map(|(p, k)| (*p, k))) else {
            self.served.reports += 1;
            return self.engine.report(&m, &DECRYPTION_ERRORS, None, now);
        };
        let scoped = ScopedPdu::from_ber(&octets).ok()?;
        let who = Who::User {
            name: m.usm.msg_user_name,
            level,
            context: scoped.context_name,
        };
        let answer = self.answer(&who, &scoped.data)?;
        let vbs = wire(&answer.bindings)?;
        let context = (scoped.context_engine_id, scoped.context_name);
        self.engine
            .answer(&m, context, response(&answer, &vbs), &peer, now)
    }
}

/// The bindings of an answer, or why none and the request's names.
type Outcome = Result<Vec<(OidBuf, Value)>, (Refused, Vec<OidBuf>)>;

/// Which SNMPv1 request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum V1 {
    Get,
    Next,
    Set,
}

/// A request's bindings, owned (a SET's values).
fn bindings(list: &VarBindList<'_>) -> Option<Vec<(OidBuf, Value)>> {
    let mut out = Vec::with_capacity(list.0.len());
    for vb in list.0.iter() {
        let vb = VarBind::from_wire(&vb.ok()?);
        out.push((vb.oid, vb.value));
    }
    Some(out)
}

/// The names of a request's bindings.
fn names(list: &VarBindList<'_>) -> Option<Vec<OidBuf>> {
    let mut out = Vec::with_capacity(list.0.len());
    for vb in list.0.iter() {
        out.push(VarBind::from_wire(&vb.ok()?).oid);
    }
    Some(out)
}

/// `bindings` as an answer carries them, exceptions (noSuchObject...) included.
fn wire(bindings: &[(OidBuf, Value)]) -> Option<Vec<snmp_messages::snmpv2_pdu::VarBind<'_>>> {
    bindings
        .iter()
        .map(|(o, v)| {
            Some(snmp_messages::snmpv2_pdu::VarBind {
                name: snmp_messages::snmpv2_smi::ObjectName(o.as_oid()),
                value: v.as_wire().ok()?,
            })
        })
        .collect()
}

/// The Response PDU of `answer` over its encoded bindings `vbs`.
fn response<'a>(answer: &Answer, vbs: &'a [snmp_messages::snmpv2_pdu::VarBind<'a>]) -> Pdus<'a> {
    Pdus::Response(ResponsePdu(Pdu {
        request_id: answer.request_id,
        error_status: PduErrorStatus(answer.error_status),
        error_index: u32::try_from(answer.error_index).unwrap_or(0),
        variable_bindings: VarBindList(SequenceOf::from_slice(vbs)),
    }))
}

/// About how many octets `v` takes encoded.
fn value_len(v: &Value) -> usize {
    match v {
        Value::OctetString(s) | Value::Opaque(s) => s.len() + 4,
        Value::ObjectIdentifier(o) => o.as_oid().as_ber().len() + 2,
        _ => 11,
    }
}
