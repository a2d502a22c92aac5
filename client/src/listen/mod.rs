//! Notifications received, sans IO: [`Listener::handle`] takes one datagram and says what it
//! is: a notification (SNMPv1 Trap-PDU, SNMPv2-Trap or InformRequest under v1, v2c or v3/USM),
//! with the Response to send back for an inform, or why it was dropped, counted by reason.
//! Communities are checked when any are configured; v3 notifications are authenticated and
//! decrypted with the configured users' keys localized to the sender's engine (a trap's sender
//! is its authoritative engine, RFC 3414 1.5.1). An SNMPv1 trap is also given in its SNMPv2 form
//! (RFC 3584 3.1: snmpTrapOID from generic and specific trap, the enterprise kept).
//! For v3 informs the receiver is the authoritative engine: with an engine of its own
//! ([`Listener::with_engine`]) it answers discovery with a Report of usmStatsUnknownEngineIDs
//! carrying its ID, boots and time (RFC 3414 4), checks the time window (3.2 step 7), and
//! answers each inform with a Response sealed at the inform's level; without one, v3 informs
//! are dropped (counted).
//!
//! [`Receiver`] (std) and [`AsyncReceiver`] (tokio) drive a listener on a UDP socket: one
//! datagram buffer each, the kernel's receive queue the only queue, and the datagrams the
//! kernel drops when that queue is full counted too (Linux), so nothing is lost silently.

mod ancillary;
mod receiver;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use snmp_ber::{Encode, OidBuf, Rules};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::rfc1157_snmp as v1;
use snmp_messages::snmpv2_pdu::{Pdu, Pdus, ResponsePdu};
use snmp_messages::snmpv3_message_syntax::ScopedPdu;

use crate::authoritative::{counters, LocalEngine};
use crate::config::UsmUser;
use crate::incoming::{decode_under, flags, Incoming};
use crate::notify::{V1Trap, SNMP_TRAP_OID, SYS_UP_TIME};
use crate::request::Peer;
use crate::value::{Value, VarBind};

#[cfg(feature = "tokio")]
pub use receiver::AsyncReceiver;
pub use receiver::Receiver;

/// A notification received.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// Who sent it.
    pub source: SocketAddr,
    /// The address it was sent to, when known: set by [`Receiver`] and [`AsyncReceiver`] (on
    /// Linux from the kernel, elsewhere the socket's own address unless bound to every
    /// interface); `None` from [`Listener::handle`], which sees bytes only.
    pub destination: Option<SocketAddr>,
    /// `1`, `2c` or `3`.
    pub version: &'static str,
    /// The community (v1, v2c) or the USM user (v3).
    pub security_name: Vec<u8>,
    /// The contextName of a v3 notification (empty for v1 and v2c).
    pub context: Vec<u8>,
    /// An InformRequest (answered) rather than a trap.
    pub inform: bool,
    /// snmpTrapOID.0: the notification (for a v1 trap, its RFC 3584 translation).
    pub trap_oid: Option<OidBuf>,
    /// sysUpTime.0, the sender's uptime (a v1 trap's time-stamp).
    pub uptime: Option<u32>,
    /// The bindings as received (a v2 notification's sysUpTime.0 and snmpTrapOID.0 first).
    pub bindings: Vec<VarBind>,
    /// A v1 trap's own header.
    pub v1: Option<V1Trap>,
}

impl Notification {
    /// This notification as the generated struct `N`: `None` when it is another one
    /// (snmpTrapOID.0 is not `N::OID`), else `N` read from the bindings (an object missing, or
    /// of another type than its SYNTAX, is the error).
    ///
    /// ```
    /// use snmp_client::listen::Notification;
    /// use snmp_client::{Value, VarBind};
    /// use snmp_mibs_std::if_mib::{LinkDown, LinkUp};
    ///
    /// let oid = |s: &str| s.parse::<snmp_ber::OidBuf>().unwrap();
    /// let received = Notification {
    ///     source: "127.0.0.1:50000".parse().unwrap(),
    ///     destination: None,
    ///     version: "2c",
    ///     security_name: b"public".to_vec(),
    ///     context: Vec::new(),
    ///     inform: false,
    ///     trap_oid: Some(oid("1.3.6.1.6.3.1.1.5.3")),
    ///     uptime: Some(42),
    ///     bindings: vec![
    ///         VarBind { oid: oid("1.3.6.1.2.1.2.2.1.1.7"), value: Value::Integer(7) },
    ///         VarBind { oid: oid("1.3.6.1.2.1.2.2.1.7.7"), value: Value::Integer(1) },
    ///         VarBind { oid: oid("1.3.6.1.2.1.2.2.1.8.7"), value: Value::Integer(2) },
    ///     ],
    ///     v1: None,
    /// };
    /// let down: LinkDown = received.typed().unwrap().unwrap();
    /// assert_eq!((down.instance.as_slice(), down.if_index), (&[7][..], 7));
    /// assert!(received.typed::<LinkUp>().is_none());
    /// ```
    pub fn typed<N: snmp_mib::Notification>(&self) -> Option<Result<N, snmp_mib::MibError>> {
        let oid = self.trap_oid.as_ref()?;
        if !oid.as_oid().arcs().eq(N::OID.iter().copied()) {
            return None;
        }
        Some(self.with_bindings(|_, bindings| N::from_bindings(bindings)))
    }

    /// Calls `f` with snmpTrapOID.0's arcs and the bindings as generated code reads them:
    /// what a module's `Notifications::from_received` takes, to match on every notification
    /// of a module at once.
    pub fn with_bindings<T>(
        &self,
        f: impl FnOnce(&[u32], &[(&[u32], snmp_mib::VarBindValue<'_>)]) -> T,
    ) -> T {
        let trap_oid: Vec<u32> = self
            .trap_oid
            .as_ref()
            .map(|o| o.as_oid().arcs().collect())
            .unwrap_or_default();
        let names: Vec<Vec<u32>> = self
            .bindings
            .iter()
            .map(|b| b.oid.as_oid().arcs().collect())
            .collect();
        // Received values are what the wire carried: each has its wire form.
        let bindings: Vec<(&[u32], snmp_mib::VarBindValue<'_>)> = names
            .iter()
            .zip(&self.bindings)
            .filter_map(|(n, b)| Some((n.as_slice(), b.value.as_wire().ok()?)))
            .collect();
        f(&trap_oid, &bindings)
    }
}

/// Why a datagram was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dropped {
    /// It does not decode as SNMP.
    Malformed,
    /// A PDU other than a notification.
    NotANotification,
    /// A community not configured.
    BadCommunity,
    /// A v3 user not configured.
    UnknownUser,
    /// A v3 MAC that does not check.
    WrongDigest,
    /// A v3 scoped PDU that does not decrypt.
    DecryptionError,
    /// A v3 notification at a lower level than its user's.
    WrongSecurityLevel,
    /// A v3 inform to a listener with no engine of its own (see [`Listener::with_engine`]).
    V3Inform,
    /// A v3 inform outside the time window of this engine (RFC 3414 3.2 step 7b).
    NotInTimeWindow,
    /// Dropped by the kernel before it was read: the socket's receive queue was full (a
    /// flood). Counted by the receivers where the platform tells (Linux's SO_RXQ_OVFL).
    Overflow,
}

impl Dropped {
    /// Its name in counters.
    pub fn name(self) -> &'static str {
        match self {
            Dropped::Malformed => "malformed",
            Dropped::NotANotification => "not a notification",
            Dropped::BadCommunity => "bad community",
            Dropped::UnknownUser => "unknown user",
            Dropped::WrongDigest => "wrong digest",
            Dropped::DecryptionError => "decryption error",
            Dropped::WrongSecurityLevel => "wrong security level",
            Dropped::V3Inform => "v3 inform without an engine of our own",
            Dropped::NotInTimeWindow => "not in time window",
            Dropped::Overflow => "receive queue overflow",
        }
    }
}

/// What one datagram was.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled {
    /// A notification, with the datagram to answer an inform with.
    Notification(Box<Notification>, Option<Vec<u8>>),
    /// Dropped, and why.
    Dropped(Dropped),
    /// A v3 discovery request, answered with this datagram (a Report naming this engine).
    Discovery(Vec<u8>),
}

/// A v3 user notifications are taken from, and the engine that may send them (any: `None`).
#[derive(Debug, Clone)]
struct Accepted {
    user: UsmUser,
    engine: Option<Vec<u8>>,
}

/// The most engines whose localized keys are kept (then the cache starts again).
const KEY_CACHE: usize = 1024;

/// The receiving side's configuration and counters.
#[derive(Debug, Default)]
pub struct Listener {
    communities: Vec<Vec<u8>>,
    /// No community is taken, whatever `communities` says (see
    /// [`Listener::taking_no_communities`]).
    no_communities: bool,
    users: Vec<Accepted>,
    /// Each user's keys localized to each engine met: engine ID → (user index, keys); looked
    /// up by the message's engine ID as it is (no copy per message).
    keys: HashMap<Vec<u8>, Vec<(usize, Arc<Peer>)>>,
    engine: Option<LocalEngine>,
    received: u64,
    notifications: u64,
    /// Of the notifications, those read only with real agents' relaxations.
    relaxed: u64,
    dropped: BTreeMap<Dropped, u64>,
}

impl Listener {
    /// A listener taking notifications in `communities` (any community when empty) and from
    /// `users` (v3), whichever engine sends them.
    pub fn new(communities: Vec<Vec<u8>>, users: Vec<UsmUser>) -> Listener {
        let users = users
            .into_iter()
            .map(|user| Accepted { user, engine: None })
            .collect();
        Listener {
            communities,
            users,
            ..Listener::default()
        }
    }

    /// This listener taking no SNMPv1 or SNMPv2c notification, whatever their community: as
    /// net-snmp's snmptrapd does when its configuration authorizes no community ("No access
    /// configuration - dropping trap."). Each is dropped as [`Dropped::BadCommunity`].
    ///
    /// ```
    /// use snmp_client::listen::{Dropped, Handled, Listener};
    /// use snmp_client::notify::{v2_bindings, v2c_trap};
    ///
    /// let cold_start = "1.3.6.1.6.3.1.1.5.1".parse()?;
    /// let datagram = v2c_trap(b"public", 1, &v2_bindings(0, &cold_start, &[]))?;
    /// let mut listener = Listener::new(Vec::new(), Vec::new()).taking_no_communities();
    /// let handled = listener.handle("127.0.0.1:40000".parse()?, &datagram);
    /// assert!(matches!(handled, Handled::Dropped(Dropped::BadCommunity)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn taking_no_communities(mut self) -> Listener {
        self.no_communities = true;
        self
    }

    /// This listener also taking v3 notifications from `user` when the engine `engine_id`
    /// sends them (snmptrapd's `createUser -e ENGINEID`). A user of the same name bound to
    /// the sending engine is chosen before one accepted from any engine.
    pub fn with_user_of_engine(mut self, user: UsmUser, engine_id: &[u8]) -> Listener {
        self.users.push(Accepted {
            user,
            engine: Some(engine_id.to_vec()),
        });
        self
    }

    /// This receiver with an SNMP engine of its own (`id`, `boots`; its time counts from
    /// `now`), authoritative for the v3 informs sent to it.
    pub fn with_engine(mut self, id: &[u8], boots: u32, now: Instant) -> Listener {
        self.engine = Some(LocalEngine::new(id, boots, now));
        self
    }

    /// Discovery requests answered (see [`Listener::with_engine`]).
    pub fn discoveries(&self) -> u32 {
        self.engine.as_ref().map_or(0, |e| e.discoveries)
    }

    /// Datagrams handled (and dropped by the kernel), notifications among them, and the
    /// others by why they were dropped.
    pub fn counters(&self) -> (u64, u64, &BTreeMap<Dropped, u64>) {
        (self.received, self.notifications, &self.dropped)
    }

    /// `n` datagrams the kernel dropped before they could be read (a receive queue overflow).
    pub fn count_overflow(&mut self, n: u64) {
        if n > 0 {
            tracing::warn!(dropped = n, "receive queue overflowed: datagrams dropped");
            self.received += n;
            *self.dropped.entry(Dropped::Overflow).or_default() += n;
        }
    }

    /// What the datagram `bytes` from `source` is, received now.
    pub fn handle(&mut self, source: SocketAddr, bytes: &[u8]) -> Handled {
        self.handle_at(source, bytes, Instant::now())
    }

    /// [`Listener::handle`] at `now`. One tracing span per datagram (its version and what
    /// it was; never a community, key or value), an event for each dropped.
    pub fn handle_at(&mut self, source: SocketAddr, bytes: &[u8], now: Instant) -> Handled {
        self.received += 1;
        let version = version_of(bytes);
        let span = tracing::debug_span!(
            "snmp_notification",
            %source,
            version = version.map_or("?", |v| ["1", "2c", "?", "3"][v.clamp(0, 3) as usize]),
            pdu = tracing::field::Empty,
            bindings = tracing::field::Empty,
        );
        let _entered = span.enter();
        if version == Some(3) {
            if let Some(report) = self.discovery(bytes, now) {
                span.record("pdu", "discovery");
                return Handled::Discovery(report);
            }
        }
        // Read under BER; what does not decode so, once more with real agents' relaxations
        // (an unsigned value whose leading zero octet the agent left out), counted.
        let mut handled = self.read(version, source, bytes, now, Rules::Ber);
        if matches!(handled, Err(Dropped::Malformed)) {
            let relaxed = self.read(version, source, bytes, now, Rules::BerLenient);
            if relaxed.is_ok() {
                self.relaxed += 1;
                tracing::debug!("notification read with relaxations (an unsigned value unpadded)");
                handled = relaxed;
            }
        }
        match handled {
            Ok((n, reply)) => {
                span.record("pdu", if n.inform { "inform" } else { "trap" });
                span.record("bindings", n.bindings.len());
                self.notifications += 1;
                Handled::Notification(Box::new(n), reply)
            }
            Err(why) => {
                tracing::debug!(reason = why.name(), "notification dropped");
                *self.dropped.entry(why).or_default() += 1;
                Handled::Dropped(why)
            }
        }
    }

    /// What `bytes` of `version` hold, read under `rules`.
    fn read(
        &mut self,
        version: Option<i64>,
        source: SocketAddr,
        bytes: &[u8],
        now: Instant,
        rules: Rules,
    ) -> Result<(Notification, Option<Vec<u8>>), Dropped> {
        match version {
            Some(0) => self.v1(source, bytes, rules),
            Some(1) => self.v2c(source, bytes, rules),
            Some(3) => self.v3(source, bytes, now, rules),
            _ => Err(Dropped::Malformed),
        }
    }

    /// Notifications read only with real agents' relaxations (an unsigned value whose leading
    /// zero octet the agent left out: `snmp_ber::Rules::BerLenient`), of those taken.
    pub fn relaxed(&self) -> u64 {
        self.relaxed
    }

    /// The user `name` when `engine` sends, with its keys localized to `engine` (cached).
    fn keys(&mut self, name: &[u8], engine: &[u8]) -> Result<Arc<Peer>, Dropped> {
        let of_engine = |a: &Accepted| a.engine.as_deref() == Some(engine);
        let index = self
            .users
            .iter()
            .position(|a| a.user.name == name && of_engine(a))
            .or_else(|| {
                self.users
                    .iter()
                    .position(|a| a.user.name == name && a.engine.is_none())
            })
            .ok_or(Dropped::UnknownUser)?;
        let mut kept = self.keys.get(engine).into_iter().flatten();
        if let Some((_, peer)) = kept.find(|(k, _)| *k == index) {
            return Ok(peer.clone());
        }
        if self.keys.len() >= KEY_CACHE {
            self.keys.clear();
        }
        let localized = crate::engine::Engine {
            id: engine.to_vec(),
            boots: 0,
            time: 0,
            learned_at: Instant::now(),
        };
        let peer = Arc::new(Peer::new(&self.users[index].user, localized));
        let of_this_engine = self.keys.entry(engine.to_vec()).or_default();
        of_this_engine.push((index, peer.clone()));
        Ok(peer)
    }

    fn community_ok(&self, community: &[u8]) -> Result<(), Dropped> {
        let any = self.communities.is_empty();
        if !self.no_communities && (any || self.communities.iter().any(|c| c == community)) {
            Ok(())
        } else {
            Err(Dropped::BadCommunity)
        }
    }

    fn v1(
        &self,
        source: SocketAddr,
        bytes: &[u8],
        rules: Rules,
    ) -> Result<(Notification, Option<Vec<u8>>), Dropped> {
        let m: v1::Message = decode_under(bytes, rules).map_err(|_| Dropped::Malformed)?;
        let v1::Pdus::Trap(t) = m.data else {
            return Err(Dropped::NotANotification);
        };
        self.community_ok(m.community)?;
        let mut bindings = Vec::with_capacity(t.variable_bindings.0.len());
        for vb in t.variable_bindings.0.iter() {
            let vb = vb.map_err(|_| Dropped::Malformed)?;
            bindings.push(VarBind {
                oid: vb.name.0.to_owned(),
                value: Value::from_v1(&vb.value),
            });
        }
        let v1::TrapPdu {
            enterprise,
            agent_addr,
            generic_trap,
            specific_trap,
            time_stamp,
            ..
        } = t;
        let snmp_messages::rfc1155_smi::NetworkAddress::Internet(addr) = agent_addr;
        let header = V1Trap {
            enterprise: enterprise.to_owned(),
            agent_addr: addr.0,
            generic: generic_trap.0,
            specific: specific_trap,
            uptime: time_stamp.0,
        };
        Ok((
            Notification {
                source,
                destination: None,
                version: "1",
                security_name: m.community.to_vec(),
                context: Vec::new(),
                inform: false,
                trap_oid: header.to_v2(),
                uptime: Some(header.uptime),
                bindings,
                v1: Some(header),
            },
            None,
        ))
    }

    fn v2c(
        &self,
        source: SocketAddr,
        bytes: &[u8],
        rules: Rules,
    ) -> Result<(Notification, Option<Vec<u8>>), Dropped> {
        let m: Message = decode_under(bytes, rules).map_err(|_| Dropped::Malformed)?;
        if m.version != MessageVersion::VERSION {
            return Err(Dropped::Malformed);
        }
        let (pdu, inform) = notification_pdu(&m.data)?;
        self.community_ok(m.community)?;
        let bindings =
            VarBind::list_from_wire(&pdu.variable_bindings).map_err(|_| Dropped::Malformed)?;
        let reply = if inform {
            // The Response: the inform's request-id and bindings (RFC 3416 4.2.7).
            let response = Message {
                version: MessageVersion::VERSION,
                community: m.community,
                data: Pdus::Response(ResponsePdu(pdu)),
            };
            Some(response.to_ber().map_err(|_| Dropped::Malformed)?)
        } else {
            None
        };
        Ok((
            v2_notification(source, "2c", m.community.to_vec(), inform, bindings),
            reply,
        ))
    }

    /// The Report that answers a discovery request (RFC 3414 4: a reportable message at
    /// noAuthNoPriv naming no engine), when this listener has an engine.
    fn discovery(&mut self, bytes: &[u8], now: Instant) -> Option<Vec<u8>> {
        let engine = self.engine.as_mut()?;
        let m = Incoming::parse(bytes).ok()?;
        if !LocalEngine::is_discovery(&m) {
            return None;
        }
        engine.report(&m, &counters::UNKNOWN_ENGINE_IDS, None, now)
    }

    fn v3(
        &mut self,
        source: SocketAddr,
        bytes: &[u8],
        now: Instant,
        rules: Rules,
    ) -> Result<(Notification, Option<Vec<u8>>), Dropped> {
        let m = Incoming::parse_under(bytes, rules).map_err(|_| Dropped::Malformed)?;
        let name = m.usm.msg_user_name;
        // Keys localized to the message's authoritative engine: a trap's sender, or this
        // engine for an inform.
        let peer = self.keys(name, m.usm.msg_authoritative_engine_id)?;
        let level = m.flags() & (flags::AUTH | flags::PRIV);
        if level != peer.level() {
            return Err(Dropped::WrongSecurityLevel);
        }
        if let Some((p, key)) = &peer.auth {
            m.verify(*p, key).map_err(|_| Dropped::WrongDigest)?;
        }
        let octets = m
            .scoped_pdu_octets(peer.privacy.as_ref().map(|(p, k)| (*p, k)))
            .map_err(|_| Dropped::DecryptionError)?;
        let scoped: ScopedPdu = decode_under(&octets, rules).map_err(|_| Dropped::Malformed)?;
        let (pdu, inform) = notification_pdu(&scoped.data)?;
        let bindings =
            VarBind::list_from_wire(&pdu.variable_bindings).map_err(|_| Dropped::Malformed)?;
        let reply = if inform {
            Some(self.inform_response(&m, &scoped, pdu, &peer, now)?)
        } else {
            None
        };
        let mut notification = v2_notification(source, "3", name.to_vec(), inform, bindings);
        notification.context = scoped.context_name.to_vec();
        Ok((notification, reply))
    }

    /// The Response to a v3 inform sent to this engine: its time window checked (RFC 3414 3.2
    /// step 7), sealed at its level with the user's keys localized to this engine (`peer`'s,
    /// as the inform names this engine), in the request's context whatever engine it names
    /// (RFC 3412 7.1 step 3: a notification originator names its own).
    fn inform_response(
        &mut self,
        m: &Incoming<'_>,
        scoped: &ScopedPdu<'_>,
        pdu: Pdu<'_>,
        peer: &Peer,
        now: Instant,
    ) -> Result<Vec<u8>, Dropped> {
        let engine = self.engine.as_mut().ok_or(Dropped::V3Inform)?;
        if m.usm.msg_authoritative_engine_id != engine.id.as_slice() {
            return Err(Dropped::V3Inform);
        }
        if !engine.in_window(m, now) {
            return Err(Dropped::NotInTimeWindow);
        }
        let context = (scoped.context_engine_id, scoped.context_name);
        engine
            .answer(m, context, Pdus::Response(ResponsePdu(pdu)), peer, now)
            .ok_or(Dropped::Malformed)
    }
}

/// The notification PDU of `pdus` and whether it is an inform.
fn notification_pdu<'a>(pdus: &Pdus<'a>) -> Result<(Pdu<'a>, bool), Dropped> {
    match pdus {
        Pdus::SnmpV2Trap(t) => Ok((t.0, false)),
        Pdus::InformRequest(i) => Ok((i.0, true)),
        _ => Err(Dropped::NotANotification),
    }
}

/// An SNMPv2 notification, its sysUpTime.0 and snmpTrapOID.0 read from the bindings.
fn v2_notification(
    source: SocketAddr,
    version: &'static str,
    security_name: Vec<u8>,
    inform: bool,
    bindings: Vec<VarBind>,
) -> Notification {
    let is = |vb: &VarBind, arcs: &[u32]| vb.oid.as_oid().arcs().eq(arcs.iter().copied());
    let uptime = bindings
        .iter()
        .find(|vb| is(vb, &SYS_UP_TIME))
        .and_then(|vb| match vb.value {
            Value::TimeTicks(t) => Some(t),
            _ => None,
        });
    let trap_oid = bindings
        .iter()
        .find(|vb| is(vb, &SNMP_TRAP_OID))
        .and_then(|vb| match &vb.value {
            Value::ObjectIdentifier(o) => Some(o.clone()),
            _ => None,
        });
    Notification {
        source,
        destination: None,
        version,
        security_name,
        context: Vec::new(),
        inform,
        trap_oid,
        uptime,
        bindings,
        v1: None,
    }
}

/// The message version of `bytes`: 0 (v1), 1 (v2c), 3; `None` when it has none.
pub(crate) fn version_of(bytes: &[u8]) -> Option<i64> {
    let mut r = snmp_ber::Reader::new(bytes);
    let mut seq = r.read_constructed(0x30, "SEQUENCE").ok()?;
    let c = seq.read_tlv(0x02, "INTEGER").ok()?;
    snmp_ber::int_i64(&seq, c).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notify::{v1_trap, v2_bindings, v2c_trap};
    use crate::request::{self, Request};
    use snmp_ber::Decode;

    fn oid(s: &str) -> OidBuf {
        s.parse().unwrap()
    }

    #[test]
    fn notifications_are_read_answered_or_dropped_and_counted() {
        let from: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let mut l = Listener::new(vec![b"public".to_vec()], Vec::new());
        let vbs = v2_bindings(77, &oid("1.3.6.1.6.3.1.1.5.3"), &[]);

        let Handled::Notification(n, None) = l.handle(from, &v2c_trap(b"public", 5, &vbs).unwrap())
        else {
            panic!("a trap, unanswered")
        };
        assert_eq!((n.version, n.uptime, n.inform), ("2c", Some(77), false));
        assert_eq!(n.trap_oid, Some(oid("1.3.6.1.6.3.1.1.5.3")));

        let mut inform = Vec::new();
        request::v2c(b"public", &Request::inform(&vbs), 9, &mut inform).unwrap();
        let Handled::Notification(n, Some(reply)) = l.handle(from, &inform) else {
            panic!("an inform, answered")
        };
        assert!(n.inform);
        let m = Message::from_ber(&reply).unwrap();
        assert!(matches!(m.data, Pdus::Response(r) if r.0.request_id == 9));

        let trap = V1Trap::from_v2(&oid("1.3.6.1.4.1.8072.4.0.2"), 5, [10, 0, 0, 1]);
        let Handled::Notification(n, None) =
            l.handle(from, &v1_trap(b"public", &trap, &[]).unwrap())
        else {
            panic!("a v1 trap")
        };
        assert_eq!(n.trap_oid, Some(oid("1.3.6.1.4.1.8072.4.0.2")));
        assert_eq!(n.v1.as_ref().map(|h| h.agent_addr), Some([10, 0, 0, 1]));

        assert_eq!(
            l.handle(from, &v2c_trap(b"other", 6, &vbs).unwrap()),
            Handled::Dropped(Dropped::BadCommunity)
        );
        assert_eq!(
            l.handle(from, b"\x30\x03\x02\x01"),
            Handled::Dropped(Dropped::Malformed)
        );
        let mut get = Vec::new();
        let request = Request::get(&[oid("1.3.6.1.2.1.1.1.0")]);
        request::v2c(b"public", &request, 3, &mut get).unwrap();
        assert_eq!(
            l.handle(from, &get),
            Handled::Dropped(Dropped::NotANotification)
        );
        let (received, notifications, dropped) = l.counters();
        assert_eq!((received, notifications, dropped.len()), (6, 3, 3));
    }
}

#[cfg(test)]
mod engine_tests {
    use super::*;

    #[test]
    fn discovery_is_answered_with_this_engine() {
        let from: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let now = Instant::now();
        let user = UsmUser::new(
            "informuser",
            Some((crate::usm::AuthProtocol::Sha1, b"informauthpass")),
            Some((crate::usm::PrivProtocol::Aes128, b"informprivpass")),
        )
        .unwrap();
        let mut l =
            Listener::new(Vec::new(), vec![user]).with_engine(b"\x80\x00\x1f\x88\x04me", 3, now);
        let mut bufs = crate::request::Buffers::default();
        crate::request::discovery(42, 65507, &mut bufs).unwrap();
        let probe = bufs.datagram.clone();
        let m = Incoming::parse(&probe).unwrap();
        eprintln!(
            "flags {:#x} engine {:?}",
            m.flags(),
            m.usm.msg_authoritative_engine_id
        );
        match l.handle_at(from, &probe, now) {
            Handled::Discovery(report) => {
                let r = Incoming::parse(&report).unwrap();
                assert_eq!(r.usm.msg_authoritative_engine_id, b"\x80\x00\x1f\x88\x04me");
                assert_eq!(r.usm.msg_authoritative_engine_boots, 3);
                assert_eq!(r.message.msg_global_data.msg_id, 42);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(l.discoveries(), 1);
        // Each probe is answered, and counted.
        crate::request::discovery(43, 65507, &mut bufs).unwrap();
        let stranger = bufs.datagram.clone();
        assert!(matches!(
            l.handle_at(from, &stranger, now),
            Handled::Discovery(_)
        ));
        assert_eq!(l.discoveries(), 2);
    }

    fn v3_trap(user: &UsmUser, engine: &[u8]) -> Vec<u8> {
        let to: SocketAddr = "127.0.0.1:162".parse().unwrap();
        let mut x = crate::Exchange::new(
            to,
            crate::Credentials::Usm(user.clone()),
            crate::Options::default(),
        );
        x.set_local_engine(engine, 4, Instant::now());
        let trap_oid: OidBuf = "1.3.6.1.6.3.1.1.5.1".parse().unwrap();
        x.trap(5, &trap_oid, &[], [0; 4]).unwrap()
    }

    #[test]
    fn v3_users_are_taken_from_their_engine_or_any() {
        let from: SocketAddr = "127.0.0.1:40000".parse().unwrap();
        let sha = |pass: &[u8]| {
            UsmUser::new(
                "trapper",
                Some((crate::usm::AuthProtocol::Sha1, pass)),
                Some((crate::usm::PrivProtocol::Aes128, b"privpass123")),
            )
            .unwrap()
        };
        // `trapper` of engine A has one password; of any other engine, another.
        let mut l = Listener::new(Vec::new(), vec![sha(b"any-engine-pass")])
            .with_user_of_engine(sha(b"engine-a-pass"), b"\x80\x00\x00\x01A");
        let from_a = v3_trap(&sha(b"engine-a-pass"), b"\x80\x00\x00\x01A");
        let from_b = v3_trap(&sha(b"any-engine-pass"), b"\x80\x00\x00\x01B");
        let b_as_a = v3_trap(&sha(b"engine-a-pass"), b"\x80\x00\x00\x01B");
        for _ in 0..2 {
            assert!(matches!(l.handle(from, &from_a), Handled::Notification(..)));
            assert!(matches!(l.handle(from, &from_b), Handled::Notification(..)));
            assert_eq!(
                l.handle(from, &b_as_a),
                Handled::Dropped(Dropped::WrongDigest)
            );
        }
        // Keys were localized once per (user, engine): A's user for A; the any-engine user
        // for B (twice over: its trap and the impostor's).
        assert_eq!(l.keys.values().map(Vec::len).sum::<usize>(), 2);

        let only_a = Listener::new(Vec::new(), Vec::new())
            .with_user_of_engine(sha(b"engine-a-pass"), b"\x80\x00\x00\x01A");
        let mut only_a = only_a;
        assert_eq!(
            only_a.handle(from, &from_b),
            Handled::Dropped(Dropped::UnknownUser)
        );
        only_a.count_overflow(3);
        let (received, notifications, dropped) = only_a.counters();
        assert_eq!((received, notifications), (4, 0));
        assert_eq!(dropped.get(&Dropped::Overflow), Some(&3));
    }

    #[test]
    fn a_trap_with_an_unpadded_counter_is_taken_and_counted_as_relaxed() {
        // A v2c trap whose binding is a Counter32 of 4294967295 without its leading zero
        // (41 04 ff ff ff ff), as some agents send it and net-snmp's snmptrapd takes it.
        let tlv = |tag: u8, c: &[u8]| [&[tag, c.len() as u8][..], c].concat();
        let binding = |oid: &[u8], value: Vec<u8>| tlv(0x30, &[tlv(0x06, oid), value].concat());
        let list = [
            binding(&[0x2b, 6, 1, 2, 1, 1, 3, 0], tlv(0x43, &[5])),
            binding(
                &[0x2b, 6, 1, 6, 3, 1, 1, 4, 1, 0],
                tlv(0x06, &[0x2b, 6, 1, 4, 1, 1]),
            ),
            binding(&[0x2b, 6, 1, 4, 1, 1, 1], tlv(0x41, &[0xff; 4])),
        ]
        .concat();
        let pdu = [
            tlv(0x02, &[7]),
            tlv(0x02, &[0]),
            tlv(0x02, &[0]),
            tlv(0x30, &list),
        ]
        .concat();
        let message = tlv(
            0x30,
            &[tlv(0x02, &[1]), tlv(0x04, b"public"), tlv(0xa7, &pdu)].concat(),
        );
        assert!(
            <Message as snmp_ber::Decode>::from_ber_validated(&message).is_err(),
            "strict BER refuses it"
        );
        let mut l = Listener::new(vec![b"public".to_vec()], Vec::new());
        let from: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let Handled::Notification(n, None) = l.handle(from, &message) else {
            panic!("taken")
        };
        assert_eq!(n.bindings[2].value, Value::Counter32(u32::MAX));
        assert_eq!(l.relaxed(), 1);
        assert_eq!(l.counters().0, 1);
    }
}
