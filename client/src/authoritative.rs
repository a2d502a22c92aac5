//! An SNMP engine of our own that is authoritative for the messages sent to it (RFC 3414 1.5.1):
//! the receiver of informs ([`crate::listen`]) and the agent of [`crate::respond`]. Its ID,
//! boots and time; discovery answered with a Report of usmStatsUnknownEngineIDs naming them
//! (RFC 3414 4); the time window of authenticated messages checked (3.2 step 7a); and the
//! answers (Responses, Reports) sealed under it with the sender's user.

use std::time::Instant;

use snmp_ber::{Encode, OidBuf, SequenceOf};
use snmp_messages::snmpv2_pdu::{Pdu, PduErrorStatus, Pdus, ReportPdu, VarBindList};
use snmp_messages::snmpv3_message_syntax::{ScopedPdu, ScopedPduData};

use crate::engine::TIME_WINDOW;
use crate::incoming::{flags, Incoming};
use crate::outgoing::{seal, Header, Security};
use crate::request::Peer;
use crate::value::Value;

/// The msgMaxSize this engine announces.
pub(crate) const MAX_SIZE: u32 = 65_507;

/// usmStats counters (RFC 3414 5), `.0` instances, and snmpUnknownPDUHandlers-like Reports
/// this engine sends.
pub(crate) mod counters {
    /// usmStatsNotInTimeWindows.0.
    pub const NOT_IN_TIME_WINDOWS: [u32; 11] = [1, 3, 6, 1, 6, 3, 15, 1, 1, 2, 0];
    /// usmStatsUnknownUserNames.0.
    pub const UNKNOWN_USER_NAMES: [u32; 11] = [1, 3, 6, 1, 6, 3, 15, 1, 1, 3, 0];
    /// usmStatsUnknownEngineIDs.0.
    pub const UNKNOWN_ENGINE_IDS: [u32; 11] = [1, 3, 6, 1, 6, 3, 15, 1, 1, 4, 0];
    /// usmStatsWrongDigests.0 (the agent side's: `respond`, with the feature `agent`).
    #[cfg(feature = "agent")]
    pub const WRONG_DIGESTS: [u32; 11] = [1, 3, 6, 1, 6, 3, 15, 1, 1, 5, 0];
}

/// This engine.
#[derive(Debug, Clone)]
pub(crate) struct LocalEngine {
    pub(crate) id: Vec<u8>,
    pub(crate) boots: u32,
    started: Instant,
    /// Reports sent, by counter (the counter's value in the next one).
    pub(crate) discoveries: u32,
    not_in_window: u32,
    unknown_users: u32,
    wrong_digests: u32,
    /// Privacy salts of the answers.
    salt: u64,
}

impl LocalEngine {
    /// An engine `id` at `boots`, its time counting from `now`.
    pub(crate) fn new(id: &[u8], boots: u32, now: Instant) -> LocalEngine {
        LocalEngine {
            id: id.to_vec(),
            boots,
            started: now,
            discoveries: 0,
            not_in_window: 0,
            unknown_users: 0,
            wrong_digests: 0,
            salt: u64::from(boots) << 32,
        }
    }

    /// snmpEngineTime at `now`.
    pub(crate) fn time(&self, now: Instant) -> u32 {
        now.saturating_duration_since(self.started)
            .as_secs()
            .min(u64::from(i32::MAX as u32)) as u32
    }

    /// Whether `m`, a message to this engine, is a discovery request (RFC 3414 4: reportable,
    /// noAuthNoPriv, naming no engine).
    pub(crate) fn is_discovery(m: &Incoming<'_>) -> bool {
        m.usm.msg_authoritative_engine_id.is_empty()
            && m.flags() & (flags::AUTH | flags::PRIV) == 0
            && m.flags() & flags::REPORTABLE != 0
    }

    /// Whether `m` names this engine and is inside its time window (RFC 3414 3.2 step 7a).
    pub(crate) fn in_window(&self, m: &Incoming<'_>, now: Instant) -> bool {
        m.usm.msg_authoritative_engine_id == self.id.as_slice()
            && m.usm.msg_authoritative_engine_boots == self.boots
            && self.time(now).abs_diff(m.usm.msg_authoritative_engine_time) <= TIME_WINDOW
    }

    /// The Report answering `m` with one usmStats `counter` (`which`), at noAuthNoPriv, or
    /// authenticated with `peer`'s key when given (notInTimeWindow: RFC 3414 3.2 step 7a
    /// says the Report carries this engine's clock at authNoPriv). `None` when `m` is not
    /// reportable or carries no PDU to take the request-id from.
    pub(crate) fn report(
        &mut self,
        m: &Incoming<'_>,
        which: &[u32; 11],
        peer: Option<&Peer>,
        now: Instant,
    ) -> Option<Vec<u8>> {
        if m.flags() & flags::REPORTABLE == 0 {
            return None;
        }
        let count = match *which {
            counters::UNKNOWN_ENGINE_IDS => &mut self.discoveries,
            counters::NOT_IN_TIME_WINDOWS => &mut self.not_in_window,
            counters::UNKNOWN_USER_NAMES => &mut self.unknown_users,
            _ => &mut self.wrong_digests,
        };
        *count = count.wrapping_add(1);
        let counter = (OidBuf::from_arcs(which).ok()?, Value::Counter32(*count));
        // The request-id: from a plaintext scoped PDU; an encrypted one cannot be read
        // here, and 0 stands (RFC 3412 7.1 step 3a: the Report's request-id is the
        // request's if it can be found).
        let request_id = match &m.message.msg_data {
            ScopedPduData::Plaintext(s) => request_id(&s.data).unwrap_or(0),
            ScopedPduData::EncryptedPdu(_) => 0,
        };
        let vbs = crate::value::wire_bindings(std::slice::from_ref(&counter)).ok()?;
        let scoped = ScopedPdu {
            context_engine_id: &self.id,
            context_name: b"",
            data: Pdus::Report(ReportPdu(Pdu {
                request_id,
                error_status: PduErrorStatus::NO_ERROR,
                error_index: 0,
                variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
            })),
        }
        .to_ber()
        .ok()?;
        let security = Security {
            user: m.usm.msg_user_name,
            engine_id: &self.id,
            engine_boots: self.boots,
            engine_time: self.time(now),
            auth: peer.and_then(|p| p.auth.as_ref().map(|(p, k)| (*p, k))),
            privacy: None,
        };
        seal(self.header(m), &security, &scoped).ok()
    }

    /// `pdus` answering `m` (the request's context), sealed at the request's level with
    /// `peer`'s keys (localized to this engine).
    pub(crate) fn answer(
        &mut self,
        m: &Incoming<'_>,
        context: (&[u8], &[u8]),
        pdus: Pdus<'_>,
        peer: &Peer,
        now: Instant,
    ) -> Option<Vec<u8>> {
        let scoped = ScopedPdu {
            context_engine_id: context.0,
            context_name: context.1,
            data: pdus,
        }
        .to_ber()
        .ok()?;
        self.salt = self.salt.wrapping_add(1);
        let security = Security {
            user: m.usm.msg_user_name,
            engine_id: &self.id,
            engine_boots: self.boots,
            engine_time: self.time(now),
            auth: peer.auth.as_ref().map(|(p, k)| (*p, k)),
            privacy: peer
                .privacy
                .as_ref()
                .map(|(p, k)| (*p, k, self.salt.to_be_bytes())),
        };
        seal(self.header(m), &security, &scoped).ok()
    }

    /// The header of an answer to `m`: its msgID, not reportable.
    fn header(&self, m: &Incoming<'_>) -> Header {
        Header {
            msg_id: m.message.msg_global_data.msg_id,
            max_size: MAX_SIZE,
            reportable: false,
        }
    }
}

/// The request-id of a request's PDU.
pub(crate) fn request_id(pdus: &Pdus<'_>) -> Option<i32> {
    match pdus {
        Pdus::GetRequest(p) => Some(p.0.request_id),
        Pdus::GetNextRequest(p) => Some(p.0.request_id),
        Pdus::InformRequest(p) => Some(p.0.request_id),
        Pdus::SetRequest(p) => Some(p.0.request_id),
        Pdus::GetBulkRequest(b) => Some(b.0.request_id),
        _ => None,
    }
}
