//! The sans-IO core of a session: everything but the socket and the clock. It is handed
//! requests, received datagrams and the time; it hands back datagrams to send, the deadline
//! it waits for, and each request's result. It owns request ids and salts, engine discovery,
//! retransmission after timeouts, resynchronisation after a notInTimeWindow Report, and the
//! acceptance of answers (`answer.rs`, listed in docs/ARCHITECTURE.md). [`crate::Session`] and [`crate::AsyncSession`]
//! only move datagrams for it; a poller or a test can drive it with no socket at all.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use snmp_client::{Credentials, Exchange, Options, Request};
//!
//! let agent = "127.0.0.1:161".parse().unwrap();
//! let mut x = Exchange::new(agent, Credentials::V2c(b"public".to_vec()), Options::default());
//! let t0 = Instant::now();
//! x.start(Request::get(&["1.3.6.1.2.1.1.5.0".parse().unwrap()]), t0);
//! let datagram = x.poll_transmit(t0).unwrap().to_vec(); // send it to the agent
//! assert!(!datagram.is_empty());
//! // ... no answer came before the deadline: sent again, then given up.
//! let mut now = t0;
//! while x.poll_result().is_none() {
//!     now = x.poll_deadline().unwrap();
//!     x.handle_timeout(now);
//!     let _ = x.poll_transmit(now);
//! }
//! assert_eq!(x.stats().sent, 3);
//! ```

use std::net::SocketAddr;
use std::time::Instant;

use snmp_ber::{OidBuf, Rules};

use crate::answer::{self, Expected, Verdict};
use crate::config::{Credentials, Options};
use crate::engine::Engine;
use crate::error::ClientError;
use crate::notify::{self, V1Trap};
use crate::request::{self, Buffers, Kind, Peer, Request};
use crate::stats::{Discard, Discards, Stats};
use crate::value::{Value, VarBind};

mod accept;
mod traps;

/// The request last started, and whether it is still in flight: kept when it ends, so that
/// the next can be written over it ([`Exchange::start_changed`]).
#[derive(Debug)]
struct Pending {
    request: Request,
    /// Whether it waits for its result.
    live: bool,
    /// Whether the datagram in flight is the discovery request that comes first.
    discovering: bool,
    /// Whether the request was sent again after a notInTimeWindow Report.
    resynced: bool,
    /// The msgID / request-id of the datagram in flight.
    id: i32,
    /// Whether the datagram (in the exchange's buffers) waits to be sent (first, or again
    /// after a timeout).
    unsent: bool,
    /// How many times the datagram was sent.
    attempts: u32,
    deadline: Option<Instant>,
    /// Discards counted when the request started, so that a timeout says what came.
    discarded_before: Discards,
}

impl Pending {
    /// The request, if it is in flight.
    fn live(&self) -> Option<&Pending> {
        Some(self).filter(|p| p.live)
    }

    /// [`Self::live`], to change.
    fn live_mut(&mut self) -> Option<&mut Pending> {
        Some(self).filter(|p| p.live)
    }
}

/// A session's state and decisions, whatever carries its datagrams: one request at a time.
pub struct Exchange {
    target: SocketAddr,
    credentials: Credentials,
    options: Options,
    next_id: i32,
    salt: u64,
    peer: Option<Peer>,
    /// This engine, for the v3 traps it sends (their sender is authoritative), with the
    /// user's keys localized to it.
    local_engine: Option<Peer>,
    stats: Stats,
    /// The datagram in flight and, under SNMPv3, its scoped PDU and encryption: reused
    /// from one request to the next.
    bufs: Buffers,
    pending: Pending,
    result: Option<Result<Vec<VarBind>, ClientError>>,
}

impl std::fmt::Debug for Exchange {
    /// The target, version, engine and counters: no community, key, datagram or value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchange")
            .field("target", &self.target)
            .field("credentials", &self.credentials)
            .field("engine", &self.peer.as_ref().map(|p| &p.engine))
            .field("pending", &self.pending.live().map(|p| p.request.name()))
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Exchange {
    /// The core of a session with the agent at `target`.
    pub fn new(target: SocketAddr, credentials: Credentials, options: Options) -> Exchange {
        // Request ids and salts start from the clock, so that two sessions in a row do not
        // repeat them.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Exchange {
            target,
            credentials,
            options,
            next_id: (seed as i32 & 0x3fff_ffff).max(1),
            salt: seed,
            local_engine: None,
            peer: None,
            stats: Stats::default(),
            bufs: Buffers::default(),
            pending: Pending {
                request: Request::get(&[]),
                live: false,
                discovering: false,
                resynced: false,
                id: 0,
                unsent: false,
                attempts: 0,
                deadline: None,
                discarded_before: Discards::default(),
            },
            result: None,
        }
    }

    /// The agent.
    pub fn target(&self) -> SocketAddr {
        self.target
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The counters: datagrams sent, answers accepted, datagrams discarded and why.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Replaces the options for the requests started from now on (the one in flight keeps
    /// its timeout and retries).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// The SNMP version, as net-snmp's `-v` names it: "1", "2c" or "3".
    pub fn version(&self) -> &'static str {
        match self.credentials {
            Credentials::V1(_) => "1",
            Credentials::V2c(_) => "2c",
            Credentials::Usm(_) => "3",
        }
    }

    /// The engine of a v3 agent, once discovered.
    pub fn engine(&self) -> Option<&Engine> {
        self.peer.as_ref().map(|p| &p.engine)
    }

    /// Uses `engine` (kept from an earlier session, say) instead of discovering it; the
    /// user's keys are localised to it. Without effect under SNMPv1 and SNMPv2c.
    pub fn set_engine(&mut self, engine: Engine) {
        if let Credentials::Usm(user) = &self.credentials {
            self.peer = Some(Peer::new(user, engine));
        }
    }

    /// Starts `request` at `now`, giving up any request still in flight: then
    /// [`poll_transmit`](Self::poll_transmit) has its first datagram (discovery's first,
    /// under SNMPv3 before the engine is known).
    pub fn start(&mut self, request: Request, now: Instant) {
        self.pending.request = request;
        self.restart(now);
    }

    /// Starts the request started last again at `now`, changed in place by `change` first
    /// (which says whether to start it at all), giving up any request still in flight: a
    /// walk's next request is its last one with the name moved on, written over it with no
    /// new [`Request`] made ([`crate::Walk::next_into`]).
    ///
    /// ```
    /// use std::time::Instant;
    /// use snmp_client::{Credentials, Exchange, Options, Request};
    ///
    /// let agent = "127.0.0.1:161".parse().unwrap();
    /// let mut x = Exchange::new(agent, Credentials::V2c(b"public".to_vec()), Options::default());
    /// let t0 = Instant::now();
    /// x.start(Request::get_next(&["1.3.6.1.2.1.1".parse().unwrap()]), t0);
    /// let started = x.start_changed(t0, |r| {
    ///     *r = Request::get_next(&["1.3.6.1.2.1.1.1.0".parse().unwrap()]);
    ///     Ok::<_, ()>(true)
    /// });
    /// assert_eq!(started, Ok(true));
    /// assert!(x.poll_transmit(t0).is_some());
    /// ```
    pub fn start_changed<E>(
        &mut self,
        now: Instant,
        change: impl FnOnce(&mut Request) -> Result<bool, E>,
    ) -> Result<bool, E> {
        self.pending.live = false;
        let start = change(&mut self.pending.request)?;
        if start {
            self.restart(now);
        }
        Ok(start)
    }

    /// The request started last (in flight or not).
    pub fn request(&self) -> &Request {
        &self.pending.request
    }

    /// Starts the pending request from its first datagram.
    fn restart(&mut self, now: Instant) {
        self.result = None;
        let discovering = matches!(self.credentials, Credentials::Usm(_)) && self.peer.is_none();
        let p = &mut self.pending;
        p.live = true;
        p.discovering = discovering;
        p.resynced = false;
        p.id = 0;
        p.unsent = false;
        p.attempts = 0;
        p.deadline = None;
        p.discarded_before = self.stats.discarded;
        self.prepare(now);
    }

    /// The datagram to send to [`target`](Self::target) now, if one waits; once handed out
    /// it counts as sent at `now`, and the wait for its answer starts.
    pub fn poll_transmit(&mut self, now: Instant) -> Option<&[u8]> {
        let p = self.pending.live_mut().filter(|p| p.unsent)?;
        p.unsent = false;
        p.attempts += 1;
        p.deadline = Some(now + self.options.timeout);
        self.stats.sent += 1;
        if p.attempts > 1 {
            self.stats.retransmissions += 1;
            tracing::Span::current().record("retries", p.attempts - 1);
        }
        Some(&self.bufs.datagram)
    }

    /// Whether [`poll_transmit`](Self::poll_transmit) has a datagram now.
    pub fn has_transmit(&self) -> bool {
        self.pending.live().is_some_and(|p| p.unsent)
    }

    /// When [`handle_timeout`](Self::handle_timeout) is due, while a request waits.
    pub fn poll_deadline(&self) -> Option<Instant> {
        self.pending.live().and_then(|p| p.deadline)
    }

    /// The time is `now`: past the deadline, the datagram is due again, or, after
    /// [`Options::retries`] retransmissions, the request ends with a timeout.
    pub fn handle_timeout(&mut self, now: Instant) {
        let Some(p) = self.pending.live_mut() else {
            return;
        };
        if p.deadline.is_none_or(|d| now < d) {
            return;
        }
        p.deadline = None;
        if p.attempts <= self.options.retries {
            p.unsent = true;
            return;
        }
        let attempts = p.attempts;
        let discarded = self.stats.discarded.since(&p.discarded_before);
        tracing::debug!(attempts, discarded = discarded.total(), "no answer");
        self.finish(Err(ClientError::Timeout {
            target: self.target,
            attempts,
            timeout: self.options.timeout,
            discarded: Box::new(discarded),
        }));
    }

    /// `datagram` came from `from` at `now`: the answer, or discarded and counted.
    pub fn handle_datagram(&mut self, from: SocketAddr, datagram: &[u8], now: Instant) {
        let verdict = self.judge(from, datagram, now);
        match verdict {
            Verdict::Discard(why) => {
                tracing::debug!(reason = why.name(), "datagram discarded");
                self.stats.discarded.count(why);
            }
            Verdict::Discovered(engine) => {
                self.stats.accepted += 1;
                tracing::debug!(engine_boots = engine.boots, "engine discovered");
                self.set_engine(engine);
                if let Some(p) = self.pending.live_mut() {
                    p.discovering = false;
                }
                self.prepare(now);
            }
            Verdict::Resync(engine) => {
                self.stats.accepted += 1;
                tracing::debug!("not in the time window: resynchronised, sent again");
                if let Some(peer) = self.peer.as_mut() {
                    peer.engine = engine;
                }
                if let Some(p) = self.pending.live_mut() {
                    p.resynced = true;
                }
                self.prepare(now);
            }
            Verdict::Done(mut result) => {
                self.stats.accepted += 1;
                // error-index names a binding of the request: say which.
                if let (Err(ClientError::ErrorStatus { index, oid, .. }), Some(p)) =
                    (&mut result, self.pending.live())
                {
                    let k = usize::try_from(*index).ok().and_then(|k| k.checked_sub(1));
                    *oid = k.and_then(|k| p.request.oids.get(k)).cloned();
                }
                if let (Ok(b), Some(p)) = (&result, self.pending.live()) {
                    let asked = p.request.oids.len();
                    let one_each = matches!(p.request.kind, Kind::Get | Kind::GetNext | Kind::Set);
                    if one_each && b.len() != asked {
                        let answered = b.len();
                        result = Err(ClientError::BindingCount { asked, answered });
                    }
                }
                self.finish(result);
            }
        }
    }

    /// The result of the request, once it has one (taken: `None` afterwards).
    pub fn poll_result(&mut self) -> Option<Result<Vec<VarBind>, ClientError>> {
        self.result.take()
    }

    /// What a driver does next, at `now`: the polls above in the order a driver makes them
    /// (a result, else a datagram to send, else a deadline already past handled), so that a
    /// driver's loop is only its input and output.
    pub fn next_step(&mut self, now: Instant) -> Step<'_> {
        loop {
            if let Some(result) = self.poll_result() {
                return Step::Done(result);
            }
            if self.has_transmit() {
                return Step::Send(self.poll_transmit(now).unwrap_or_default());
            }
            match self.poll_deadline() {
                // No result and nothing to wait for: not once a request is started; an error
                // rather than a loop if it ever were.
                None => {
                    return Step::Done(Err(ClientError::Io(std::io::Error::other(
                        "the exchange waits for nothing",
                    ))))
                }
                // Past: due again or timed out, which the next turn hands out.
                Some(deadline) if deadline <= now => self.handle_timeout(now),
                Some(deadline) => return Step::Wait(deadline),
            }
        }
    }

    /// The span of a trap sent with `bindings` bindings (a trap is one datagram: no request).
    fn trap_span(&self, bindings: usize) -> tracing::Span {
        tracing::debug_span!(
            "snmp_notification_sent",
            target = %self.target,
            version = self.version(),
            pdu = "trap",
            bindings,
        )
    }

    /// A span for the request started last: one per request, nothing per binding or
    /// datagram.
    pub(crate) fn span(&self) -> tracing::Span {
        let request = &self.pending.request;
        tracing::debug_span!(
            "snmp_request",
            target = %self.target,
            version = self.version(),
            pdu = request.name(),
            bindings = request.oids.len(),
            retries = tracing::field::Empty,
        )
    }

    /// Encodes the pending request's next datagram (discovery's, or the request's itself
    /// with a new id) to be sent.
    fn prepare(&mut self, now: Instant) {
        let id = self.take_id();
        if !self.pending.live {
            return;
        }
        // A new salt for every message, whatever its id (ids wrap; salts must not repeat).
        self.salt = self.salt.wrapping_add(1);
        match (self.encode(id, now), self.pending.live_mut()) {
            (Ok(()), Some(p)) => {
                p.id = id;
                p.unsent = true;
                p.attempts = 0;
                p.deadline = None;
            }
            (Ok(()), None) => {}
            (Err(e), _) => self.finish(Err(e)),
        }
    }

    /// The pending request's datagram (or discovery's), with id `id`, into the buffers.
    fn encode(&mut self, id: i32, now: Instant) -> Result<(), ClientError> {
        let Exchange {
            credentials,
            options,
            salt,
            peer,
            bufs,
            pending,
            ..
        } = self;
        let Some(p) = pending.live() else {
            return Ok(());
        };
        if p.discovering {
            return request::discovery(id, options.max_size, bufs);
        }
        match credentials {
            Credentials::V1(community) => {
                request::v1(community, &p.request, id, &mut bufs.datagram)
            }
            Credentials::V2c(community) => {
                request::v2c(community, &p.request, id, &mut bufs.datagram)
            }
            Credentials::Usm(user) => {
                let peer = peer
                    .as_ref()
                    .ok_or(ClientError::Report(crate::engine::Report::UnknownEngineId))?;
                request::usm(
                    user,
                    peer,
                    &p.request,
                    id,
                    *salt,
                    options.max_size,
                    now,
                    bufs,
                )
            }
        }
    }

    fn finish(&mut self, result: Result<Vec<VarBind>, ClientError>) {
        self.pending.live = false;
        self.result = Some(result);
    }

    fn take_id(&mut self) -> i32 {
        let id = self.next_id;
        self.next_id = if id >= 0x3fff_ffff { 1 } else { id + 1 };
        id
    }
}

/// What a driver of an [`Exchange`] does next ([`Exchange::next_step`]).
#[derive(Debug)]
pub enum Step<'a> {
    /// The request is over: its result.
    Done(Result<Vec<VarBind>, ClientError>),
    /// Send this datagram to [`Exchange::target`], then ask again.
    Send(&'a [u8]),
    /// Receive until this deadline: a datagram goes to [`Exchange::handle_datagram`], the
    /// deadline to [`Exchange::handle_timeout`]; then ask again.
    Wait(Instant),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_request_gives_up_the_one_in_flight_and_starts_only_when_told() {
        let agent = ([127, 0, 0, 1], 161).into();
        let mut x = Exchange::new(
            agent,
            Credentials::V2c(b"public".to_vec()),
            Options::default(),
        );
        let t0 = Instant::now();
        let oid = |s: &str| -> OidBuf { s.parse().unwrap() };
        x.start(Request::get(&[oid("1.3.6.1.2.1.1.5.0")]), t0);
        let first = x.poll_transmit(t0).unwrap().to_vec();
        assert!(x.poll_deadline().is_some());
        // Not started: nothing in flight any more, nothing to send, no result.
        assert_eq!(x.start_changed(t0, |_| Ok::<_, ()>(false)), Ok(false));
        assert!(x.poll_deadline().is_none() && !x.has_transmit() && x.poll_result().is_none());
        // The change's error is the call's, and nothing starts either.
        assert_eq!(x.start_changed(t0, |_| Err::<bool, _>("no")), Err("no"));
        assert!(!x.has_transmit());
        // Changed and started: a new datagram (a new id) for the changed request.
        let started = x.start_changed(t0, |r| {
            r.oids[0] = oid("1.3.6.1.2.1.1.6.0");
            Ok::<_, ()>(true)
        });
        assert_eq!(started, Ok(true));
        assert_eq!(x.request(), &Request::get(&[oid("1.3.6.1.2.1.1.6.0")]));
        let second = x.poll_transmit(t0).unwrap().to_vec();
        assert_ne!(first, second);
        assert_eq!(x.stats().sent, 2);
    }

    #[test]
    fn request_ids_stay_positive_and_wrap() {
        let mut x = Exchange::new(
            ([127, 0, 0, 1], 161).into(),
            Credentials::V2c(b"public".to_vec()),
            Options::default(),
        );
        x.next_id = 0x3fff_ffff;
        assert_eq!(x.take_id(), 0x3fff_ffff);
        assert_eq!(x.take_id(), 1);
    }
}
