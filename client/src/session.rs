//! SNMP sessions over UDP, synchronous ([`Session`]) and tokio ([`AsyncSession`]), SNMPv1,
//! SNMPv2c or SNMPv3 (USM): GET, GETNEXT, GETBULK, SET and subtree walks, with timeouts and
//! bounded retries, request/response matching (request-id, and msgID under v3), engine
//! discovery, and recovery from an agent's notInTimeWindow Report. Both move datagrams for one
//! core that does the rest. One `tracing` span per request, nothing per binding.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{
    BulkPdu, GetBulkRequestPdu, GetNextRequestPdu, GetRequestPdu, Pdu, PduErrorStatus, Pdus,
    SetRequestPdu, VarBind as WireVarBind, VarBindList, VarBindValue,
};
use snmp_messages::snmpv2_smi::{
    self as v2smi, ApplicationSyntax, ObjectName, ObjectSyntax, SimpleSyntax,
};
use snmp_messages::snmpv3_message_syntax::ScopedPdu;
use snmp_messages::{rfc1155_smi as v1smi, rfc1157_snmp as v1};

use crate::engine::{Engine, Report};
use crate::incoming::{flags, Incoming, IncomingError};
use crate::outgoing::{seal, Header, OutgoingError, Security};
use crate::usm::{AuthProtocol, Key, PrivProtocol, UsmError};

/// A value of a variable binding, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// INTEGER / Integer32.
    Integer(i64),
    /// OCTET STRING.
    OctetString(Vec<u8>),
    /// OBJECT IDENTIFIER.
    ObjectIdentifier(OidBuf),
    /// IpAddress.
    IpAddress([u8; 4]),
    /// Counter32.
    Counter32(u32),
    /// Gauge32 / Unsigned32.
    Gauge32(u32),
    /// TimeTicks.
    TimeTicks(u32),
    /// Opaque.
    Opaque(Vec<u8>),
    /// Counter64.
    Counter64(u64),
    /// NULL (unSpecified).
    Null,
    /// noSuchObject.
    NoSuchObject,
    /// noSuchInstance.
    NoSuchInstance,
    /// endOfMibView.
    EndOfMibView,
}

impl Value {
    fn from_wire(v: &VarBindValue<'_>) -> Value {
        use ApplicationSyntax as A;
        use ObjectSyntax as O;
        use SimpleSyntax as S;
        match v {
            VarBindValue::Value(O::Simple(S::IntegerValue(i))) => Value::Integer(i64::from(*i)),
            VarBindValue::Value(O::Simple(S::StringValue(s))) => Value::OctetString(s.to_vec()),
            VarBindValue::Value(O::Simple(S::ObjectIdValue(o))) => {
                Value::ObjectIdentifier(o.to_owned())
            }
            VarBindValue::Value(O::ApplicationWide(A::IpAddressValue(a))) => Value::IpAddress(a.0),
            VarBindValue::Value(O::ApplicationWide(A::CounterValue(c))) => Value::Counter32(c.0),
            VarBindValue::Value(O::ApplicationWide(A::UnsignedIntegerValue(g))) => {
                Value::Gauge32(g.0)
            }
            VarBindValue::Value(O::ApplicationWide(A::TimeticksValue(t))) => Value::TimeTicks(t.0),
            VarBindValue::Value(O::ApplicationWide(A::ArbitraryValue(o))) => {
                Value::Opaque(o.0.to_vec())
            }
            VarBindValue::Value(O::ApplicationWide(A::BigCounterValue(c))) => Value::Counter64(c.0),
            VarBindValue::UnSpecified => Value::Null,
            VarBindValue::NoSuchObject => Value::NoSuchObject,
            VarBindValue::NoSuchInstance => Value::NoSuchInstance,
            VarBindValue::EndOfMibView => Value::EndOfMibView,
        }
    }
}

impl Value {
    fn from_v1(v: &v1smi::ObjectSyntax<'_>) -> Value {
        use v1smi::{ApplicationSyntax as A, NetworkAddress, ObjectSyntax as O, SimpleSyntax as S};
        match v {
            O::Simple(S::Number(i)) => Value::Integer(*i),
            O::Simple(S::String(s)) => Value::OctetString(s.to_vec()),
            O::Simple(S::Object(o)) => Value::ObjectIdentifier(o.to_owned()),
            O::Simple(S::Empty) => Value::Null,
            O::ApplicationWide(A::Address(NetworkAddress::Internet(a))) => Value::IpAddress(a.0),
            O::ApplicationWide(A::Counter(c)) => Value::Counter32(c.0),
            O::ApplicationWide(A::Gauge(g)) => Value::Gauge32(g.0),
            O::ApplicationWide(A::Ticks(t)) => Value::TimeTicks(t.0),
            O::ApplicationWide(A::Arbitrary(o)) => Value::Opaque(o.0.to_vec()),
        }
    }
}

impl Value {
    /// The value as an SNMPv2 binding carries it (for SET).
    fn to_wire(&self) -> Result<VarBindValue<'_>, ClientError> {
        use ApplicationSyntax as A;
        use ObjectSyntax as O;
        use SimpleSyntax as S;
        Ok(VarBindValue::Value(match self {
            Value::Integer(i) => {
                O::Simple(S::IntegerValue(i32::try_from(*i).map_err(|_| {
                    ClientError::NotSettable("an INTEGER beyond 32 bits")
                })?))
            }
            Value::OctetString(s) => O::Simple(S::StringValue(s)),
            Value::ObjectIdentifier(o) => O::Simple(S::ObjectIdValue(o.as_oid())),
            Value::IpAddress(a) => O::ApplicationWide(A::IpAddressValue(v2smi::IpAddress(*a))),
            Value::Counter32(c) => O::ApplicationWide(A::CounterValue(v2smi::Counter32(*c))),
            Value::Gauge32(g) => O::ApplicationWide(A::UnsignedIntegerValue(v2smi::Unsigned32(*g))),
            Value::TimeTicks(t) => O::ApplicationWide(A::TimeticksValue(v2smi::TimeTicks(*t))),
            Value::Opaque(o) => O::ApplicationWide(A::ArbitraryValue(v2smi::Opaque(o))),
            Value::Counter64(c) => O::ApplicationWide(A::BigCounterValue(v2smi::Counter64(*c))),
            Value::Null => return Ok(VarBindValue::UnSpecified),
            Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => {
                return Err(ClientError::NotSettable("an exception"))
            }
        }))
    }

    /// The value as an SNMPv1 binding carries it (for SET).
    fn to_v1(&self) -> Result<v1smi::ObjectSyntax<'_>, ClientError> {
        use v1smi::{ApplicationSyntax as A, NetworkAddress, ObjectSyntax as O, SimpleSyntax as S};
        Ok(match self {
            Value::Integer(i) => O::Simple(S::Number(*i)),
            Value::OctetString(s) => O::Simple(S::String(s)),
            Value::ObjectIdentifier(o) => O::Simple(S::Object(o.as_oid())),
            Value::Null => O::Simple(S::Empty),
            Value::IpAddress(a) => {
                O::ApplicationWide(A::Address(NetworkAddress::Internet(v1smi::IpAddress(*a))))
            }
            Value::Counter32(c) => O::ApplicationWide(A::Counter(v1smi::Counter(*c))),
            Value::Gauge32(g) => O::ApplicationWide(A::Gauge(v1smi::Gauge(*g))),
            Value::TimeTicks(t) => O::ApplicationWide(A::Ticks(v1smi::TimeTicks(*t))),
            Value::Opaque(o) => O::ApplicationWide(A::Arbitrary(v1smi::Opaque(o))),
            Value::Counter64(_) => return Err(ClientError::NotSettable("a Counter64 in SNMPv1")),
            Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => {
                return Err(ClientError::NotSettable("an exception"))
            }
        })
    }
}

/// A variable binding, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarBind {
    /// The OID.
    pub oid: OidBuf,
    /// Its value (or exception).
    pub value: Value,
}

/// A USM user, with its keys from passwords (computed once; localised to each engine met).
#[derive(Debug, Clone)]
pub struct UsmUser {
    name: Vec<u8>,
    auth: Option<(AuthProtocol, Key)>,
    privacy: Option<(PrivProtocol, Key)>,
}

impl UsmUser {
    /// `name` with an authentication protocol and password and a privacy protocol and
    /// password; privacy needs authentication (RFC 3414 3.1.1).
    pub fn new(
        name: &str,
        auth: Option<(AuthProtocol, &[u8])>,
        privacy: Option<(PrivProtocol, &[u8])>,
    ) -> Result<UsmUser, UsmError> {
        let auth_key = match auth {
            Some((p, pw)) => Some((p, Key::from_password(p, pw)?)),
            None => None,
        };
        let privacy_key = match (privacy, auth) {
            // The privacy key comes from the authentication protocol's hash.
            (Some((p, pw)), Some((a, _))) => Some((p, Key::from_password(a, pw)?)),
            (Some(_), None) => return Err(UsmError::PrivacyWithoutAuth),
            (None, _) => None,
        };
        Ok(UsmUser {
            name: name.as_bytes().to_vec(),
            auth: auth_key,
            privacy: privacy_key,
        })
    }
}

/// Who the session speaks as. Its `Debug` shows no community and no key.
#[derive(Clone)]
pub enum Credentials {
    /// SNMPv1 with a community (RFC 1157): no GETBULK; walks go by GETNEXT.
    V1(Vec<u8>),
    /// SNMPv2c with a community.
    V2c(Vec<u8>),
    /// SNMPv3 under the USM.
    Usm(UsmUser),
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::V1(c) => write!(f, "V1(community of {} octets)", c.len()),
            Credentials::V2c(c) => write!(f, "V2c(community of {} octets)", c.len()),
            Credentials::Usm(u) => f.debug_tuple("Usm").field(u).finish(),
        }
    }
}

/// How patient a session is.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// How long to wait for each answer.
    pub timeout: Duration,
    /// How many times a request is sent again after a timeout.
    pub retries: u32,
    /// The largest message accepted (msgMaxSize; the receive buffer).
    pub max_size: u32,
    /// GETBULK's max-repetitions in walks.
    pub max_repetitions: u32,
    /// The most requests one walk makes.
    pub max_walk_requests: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(1),
            retries: 2,
            max_size: 65507,
            max_repetitions: 25,
            max_walk_requests: 100_000,
        }
    }
}

/// Why an exchange failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The socket failed.
    #[error("UDP: {0}")]
    Io(#[from] std::io::Error),
    /// No answer.
    #[error("no answer from {target} after {attempts} attempts of {timeout:?}")]
    Timeout {
        /// The agent.
        target: SocketAddr,
        /// Requests sent.
        attempts: u32,
        /// The wait for each.
        timeout: Duration,
    },
    /// A request could not be encoded.
    #[error("encoding the request: {0}")]
    Encode(snmp_ber::EncodeError),
    /// An answer that matched the request did not decode.
    #[error("the answer: {0}")]
    Decode(snmp_ber::DecodeError),
    /// A USM check or transform failed.
    #[error(transparent)]
    Usm(#[from] UsmError),
    /// The answer could not be taken apart or opened.
    #[error(transparent)]
    Incoming(#[from] IncomingError),
    /// The request could not be sealed.
    #[error(transparent)]
    Outgoing(#[from] OutgoingError),
    /// The agent answered with a Report (RFC 3414 3.2).
    #[error("the agent reports {0:?}")]
    Report(Report),
    /// The agent answered with an error-status.
    #[error("error-status {status} at binding {index}")]
    ErrorStatus {
        /// error-status.
        status: i64,
        /// error-index (1-based; 0 for the whole request).
        index: i64,
    },
    /// A walk's next OID does not follow the previous one: the agent loops.
    #[error("walk: {next} does not follow {previous}")]
    NotIncreasing {
        /// The last OID.
        previous: OidBuf,
        /// The one that should have followed it.
        next: OidBuf,
    },
    /// A value a SET cannot carry.
    #[error("a SET cannot carry {0}")]
    NotSettable(&'static str),
    /// GETBULK under SNMPv1, which has none.
    #[error("GETBULK is not in SNMPv1")]
    NoBulkInV1,
    /// The answer with the request's msgID carries another PDU than its Response.
    #[error("the answer to the request is not its Response")]
    NotAResponse,
    /// A walk made [`Options::max_walk_requests`] requests without leaving the subtree.
    #[error("walk: still inside the subtree after {0} requests")]
    WalkTooLong(usize),
}

/// Which request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Get,
    GetNext,
    Set,
    GetBulk {
        non_repeaters: u32,
        max_repetitions: u32,
    },
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Get => "get",
            Kind::Set => "set",
            Kind::GetNext => "getnext",
            Kind::GetBulk { .. } => "getbulk",
        }
    }
}

/// An SNMPv3 engine and the user's keys localised to it.
#[derive(Debug)]
struct Peer {
    engine: Engine,
    auth: Option<(AuthProtocol, Key)>,
    privacy: Option<(PrivProtocol, Key)>,
}

impl Peer {
    /// `engine`, with `user`'s keys localised to it.
    fn new(user: &UsmUser, engine: Engine) -> Peer {
        let localize = |k: &Key, p: AuthProtocol| k.localize(p, &engine.id);
        let auth = user.auth.as_ref().map(|(p, k)| (*p, localize(k, *p)));
        // The privacy key is localised with the authentication protocol's hash.
        let privacy = match (&user.privacy, &user.auth) {
            (Some((p, k)), Some((a, _))) => Some((*p, localize(k, *a))),
            _ => None,
        };
        Peer {
            engine,
            auth,
            privacy,
        }
    }
}

/// What a session knows and decides, whatever carries its datagrams: the credentials and
/// options, request ids and salts, the engine, how requests are encoded and answers matched
/// and opened. [`Session`] and [`AsyncSession`] move the datagrams.
#[derive(Debug)]
struct Core {
    target: SocketAddr,
    credentials: Credentials,
    options: Options,
    next_id: i32,
    salt: u64,
    peer: Option<Peer>,
}

/// The next step of a request, after an answer.
enum Step {
    /// Done: the bindings, or why not.
    Done(Result<Vec<VarBind>, ClientError>),
    /// The clock was resynchronised: encode and send the request again.
    Again,
}

impl Core {
    fn new(target: SocketAddr, credentials: Credentials, options: Options) -> Core {
        // Request ids and salts start from the clock, so that two sessions in a row do not
        // repeat them.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Core {
            target,
            credentials,
            options,
            next_id: (seed as i32 & 0x3fff_ffff).max(1),
            salt: seed,
            peer: None,
        }
    }

    /// The unspecified address of the target's family, for a socket of our own.
    fn local(&self) -> SocketAddr {
        if self.target.is_ipv4() {
            ([0, 0, 0, 0], 0).into()
        } else {
            ([0u16; 8], 0).into()
        }
    }

    fn span(&self, kind: Kind, bindings: usize) -> tracing::Span {
        tracing::debug_span!(
            "snmp_request",
            target = %self.target,
            version = match self.credentials {
                Credentials::V1(_) => "1",
                Credentials::V2c(_) => "2c",
                Credentials::Usm(_) => "3",
            },
            pdu = kind.name(),
            bindings,
            retries = tracing::field::Empty,
        )
    }

    fn set_engine(&mut self, engine: Engine) {
        if let Credentials::Usm(user) = &self.credentials {
            self.peer = Some(Peer::new(user, engine));
        }
    }

    fn take_id(&mut self) -> i32 {
        let id = self.next_id;
        self.next_id = if id >= 0x3fff_ffff { 1 } else { id + 1 };
        id
    }

    /// The PDU for `kind` over `vbs`.
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

    /// Under SNMPv3 before the engine is known: RFC 3414 4's discovery request (noAuthNoPriv,
    /// no engine ID), and its msgID.
    fn discovery(&mut self) -> Result<Option<(Vec<u8>, i32)>, ClientError> {
        if !matches!(self.credentials, Credentials::Usm(_)) || self.peer.is_some() {
            return Ok(None);
        }
        let request_id = self.take_id();
        let vbs: [WireVarBind<'_>; 0] = [];
        let scoped = ScopedPdu {
            context_engine_id: b"",
            context_name: b"",
            data: Self::pdus(Kind::Get, &vbs, request_id),
        }
        .to_ber()
        .map_err(ClientError::Encode)?;
        let security = Security::DISCOVERY;
        let header = Header {
            msg_id: request_id as u32,
            max_size: self.options.max_size,
            reportable: true,
        };
        Ok(Some((seal(header, &security, &scoped)?, request_id)))
    }

    /// Takes the engine a discovery answer names.
    fn discovered(&mut self, answer: &[u8]) -> Result<(), ClientError> {
        let m = Incoming::parse(answer)?;
        let engine = Engine::from_message(&m);
        tracing::debug!(engine_boots = engine.boots, "engine discovered");
        self.set_engine(engine);
        Ok(())
    }

    /// The request's octets, and the id its answer carries. `values` are a SET's, one per
    /// OID; other requests have none (their values are unSpecified).
    fn encode(
        &mut self,
        kind: Kind,
        oids: &[OidBuf],
        values: &[Value],
    ) -> Result<(Vec<u8>, i32), ClientError> {
        let request_id = self.take_id();
        // SNMPv2's request bindings.
        let vbs: Vec<WireVarBind<'_>> = match self.credentials {
            Credentials::V1(_) => Vec::new(),
            _ => oids
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    Ok(WireVarBind {
                        name: ObjectName(o.as_oid()),
                        value: match values.get(k) {
                            Some(v) => v.to_wire()?,
                            None => VarBindValue::UnSpecified,
                        },
                    })
                })
                .collect::<Result<_, ClientError>>()?,
        };
        let data = Self::pdus(kind, &vbs, request_id);
        let bytes = match &self.credentials {
            Credentials::V1(community) => v1_request(community, kind, oids, values, request_id)?,
            Credentials::V2c(community) => Message {
                version: MessageVersion::VERSION,
                community,
                data,
            }
            .to_ber()
            .map_err(ClientError::Encode)?,
            Credentials::Usm(user) => {
                let Some(peer) = &self.peer else {
                    return Err(ClientError::Report(Report::UnknownEngineId));
                };
                let scoped = ScopedPdu {
                    context_engine_id: &peer.engine.id,
                    context_name: b"",
                    data,
                }
                .to_ber()
                .map_err(ClientError::Encode)?;
                self.salt = self.salt.wrapping_add(1);
                let (boots, time) = peer.engine.clock_at(Instant::now());
                // DES's salt is the engine boots and a counter (RFC 3414 8.1.1.1); AES's a
                // 64-bit counter (RFC 3826 3.1.2.1).
                let salt = match peer.privacy {
                    Some((PrivProtocol::Des, _)) => {
                        let mut s = [0u8; 8];
                        s[..4].copy_from_slice(&boots.to_be_bytes());
                        s[4..].copy_from_slice(&(self.salt as u32).to_be_bytes());
                        s
                    }
                    _ => self.salt.to_be_bytes(),
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
                    msg_id: request_id as u32,
                    max_size: self.options.max_size,
                    reportable: true,
                };
                seal(header, &security, &scoped)?
            }
        };
        Ok((bytes, request_id))
    }

    /// Whether `datagram` is the answer to request `id` (v2c: its Response's request-id;
    /// v3: its msgID). Anything else is skipped.
    fn is_answer(&self, datagram: &[u8], id: i32) -> bool {
        match self.credentials {
            Credentials::V1(_) => v1::Message::from_ber(datagram).is_ok_and(
                |m| matches!(m.data, v1::Pdus::GetResponse(r) if r.0.request_id == i64::from(id)),
            ),
            Credentials::V2c(_) => Message::from_ber(datagram)
                .is_ok_and(|m| matches!(m.data, Pdus::Response(r) if r.0.request_id == id)),
            Credentials::Usm(_) => Incoming::parse(datagram)
                .is_ok_and(|m| m.message.msg_global_data.msg_id == id as u32),
        }
    }

    /// Opens the answer to request `id`: its bindings, a resynchronisation after a
    /// notInTimeWindow Report (once: `resynced` says whether it was done already), or why
    /// not.
    fn open(&mut self, answer: &[u8], id: i32, resynced: &mut bool) -> Step {
        match self.open_answer(answer, id) {
            Err(ClientError::Report(Report::NotInTimeWindow)) if !*resynced => {
                tracing::debug!("not in the time window: resynchronised, sent again");
                *resynced = true;
                Step::Again
            }
            other => Step::Done(other),
        }
    }

    fn open_answer(&mut self, answer: &[u8], id: i32) -> Result<Vec<VarBind>, ClientError> {
        if let Credentials::V1(_) = self.credentials {
            let msg = v1::Message::from_ber(answer).map_err(ClientError::Decode)?;
            return match msg.data {
                v1::Pdus::GetResponse(r) if r.0.request_id == i64::from(id) => v1_bindings(&r.0),
                _ => Err(ClientError::NotAResponse),
            };
        }
        if let Credentials::V2c(_) = self.credentials {
            let msg = Message::from_ber(answer).map_err(ClientError::Decode)?;
            return match msg.data {
                Pdus::Response(r) if r.0.request_id == id => bindings(&r.0),
                _ => Err(ClientError::NotAResponse),
            };
        }
        let m = Incoming::parse(answer)?;
        let Some(peer) = self.peer.as_mut() else {
            return Err(ClientError::Report(Report::UnknownEngineId));
        };
        let authenticated = m.flags() & flags::AUTH != 0;
        if let (true, Some((p, key))) = (authenticated, &peer.auth) {
            m.verify(*p, key)?;
            // An authenticated answer's clock may be learned (RFC 3414 3.2 step 7b).
            let (b, t) = (
                m.usm.msg_authoritative_engine_boots,
                m.usm.msg_authoritative_engine_time,
            );
            peer.engine.learn(b, t, Instant::now());
        }
        let privacy = peer.privacy.as_ref().map(|(p, k)| (*p, k));
        let scoped = if m.flags() & flags::PRIV != 0 {
            m.scoped_pdu_octets(privacy)?
        } else {
            m.scoped_pdu_octets(None)?
        };
        if let Some(report) = Report::of(&scoped) {
            if report == Report::NotInTimeWindow && authenticated {
                // The Report carries the engine's clock: take it even if earlier.
                peer.engine = Engine::from_message(&m);
            }
            return Err(ClientError::Report(report));
        }
        let s = ScopedPdu::from_ber(&scoped).map_err(ClientError::Decode)?;
        match s.data {
            Pdus::Response(r) if r.0.request_id == id => bindings(&r.0),
            _ => Err(ClientError::NotAResponse),
        }
    }

    /// A walk's request: GETBULK, or GETNEXT under SNMPv1.
    fn walk_kind(&self) -> Kind {
        match self.credentials {
            Credentials::V1(_) => Kind::GetNext,
            _ => Kind::GetBulk {
                non_repeaters: 0,
                max_repetitions: self.options.max_repetitions,
            },
        }
    }
}

/// One answer of a walk of `root`: `each` for the bindings inside the subtree, `last` moved
/// on; whether the walk goes on. An SNMPv1 agent says the MIB ends with noSuchName.
fn walk_step(
    root: &OidBuf,
    last: &mut OidBuf,
    answer: Result<Vec<VarBind>, ClientError>,
    each: &mut impl FnMut(&VarBind),
) -> Result<bool, ClientError> {
    let answer = match answer {
        Err(ClientError::ErrorStatus { status: 2, .. }) => return Ok(false),
        other => other?,
    };
    if answer.is_empty() {
        return Ok(false);
    }
    for vb in answer {
        if vb.value == Value::EndOfMibView || !vb.oid.as_oid().starts_with(&root.as_oid()) {
            return Ok(false);
        }
        if vb.oid <= *last {
            return Err(ClientError::NotIncreasing {
                previous: last.clone(),
                next: vb.oid,
            });
        }
        each(&vb);
        *last = vb.oid;
    }
    Ok(true)
}

/// A synchronous session with one agent, over a `std` UDP socket.
#[derive(Debug)]
pub struct Session {
    core: Core,
    sock: UdpSocket,
    buf: Vec<u8>,
}

impl Session {
    /// A session with the agent at `target`, from a socket of our own on an ephemeral port.
    pub fn new(
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Result<Session, ClientError> {
        let core = Core::new(target, credentials, options);
        let sock = UdpSocket::bind(core.local())?;
        Ok(Session {
            core,
            sock,
            buf: vec![0; options.max_size.max(484) as usize],
        })
    }

    /// The engine of a v3 agent, once discovered.
    pub fn engine(&self) -> Option<&Engine> {
        self.core.peer.as_ref().map(|p| &p.engine)
    }

    /// Uses `engine` (kept from an earlier session, say) instead of discovering it; the
    /// user's keys are localised to it. Without effect under SNMPv2c.
    pub fn set_engine(&mut self, engine: Engine) {
        self.core.set_engine(engine);
    }

    /// GET of `oids`.
    pub fn get(&mut self, oids: &[OidBuf]) -> Result<Vec<VarBind>, ClientError> {
        self.request(Kind::Get, oids, &[])
    }

    /// GETNEXT of `oids`.
    pub fn get_next(&mut self, oids: &[OidBuf]) -> Result<Vec<VarBind>, ClientError> {
        self.request(Kind::GetNext, oids, &[])
    }

    /// GETBULK of `oids`.
    pub fn get_bulk(
        &mut self,
        non_repeaters: u32,
        max_repetitions: u32,
        oids: &[OidBuf],
    ) -> Result<Vec<VarBind>, ClientError> {
        self.request(
            Kind::GetBulk {
                non_repeaters,
                max_repetitions,
            },
            oids,
            &[],
        )
    }

    /// SET of `bindings`: the agent's answer (the bindings as set), or its error-status.
    pub fn set(&mut self, bindings: &[(OidBuf, Value)]) -> Result<Vec<VarBind>, ClientError> {
        let (oids, values): (Vec<OidBuf>, Vec<Value>) = bindings.iter().cloned().unzip();
        self.request(Kind::Set, &oids, &values)
    }

    /// Walks the subtree under `root` by GETBULK, calling `each` for every binding inside it
    /// in order; the number of requests made. Stops at the end of the subtree or of the MIB
    /// view; an OID that does not follow the previous one is an error (the agent loops).
    pub fn walk(
        &mut self,
        root: &OidBuf,
        mut each: impl FnMut(&VarBind),
    ) -> Result<usize, ClientError> {
        let mut last = root.clone();
        for requests in 1..=self.core.options.max_walk_requests {
            let answer = self.request(self.core.walk_kind(), std::slice::from_ref(&last), &[]);
            if !walk_step(root, &mut last, answer, &mut each)? {
                return Ok(requests);
            }
        }
        Err(ClientError::WalkTooLong(
            self.core.options.max_walk_requests,
        ))
    }

    fn request(
        &mut self,
        kind: Kind,
        oids: &[OidBuf],
        values: &[Value],
    ) -> Result<Vec<VarBind>, ClientError> {
        let span = self.core.span(kind, oids.len());
        let _entered = span.enter();
        if let Some((bytes, id)) = self.core.discovery()? {
            let answer = self.send_and_wait(&bytes, id)?;
            self.core.discovered(&answer)?;
        }
        let mut resynced = false;
        loop {
            let (bytes, id) = self.core.encode(kind, oids, values)?;
            let answer = self.send_and_wait(&bytes, id)?;
            if let Step::Done(result) = self.core.open(&answer, id, &mut resynced) {
                return result;
            }
        }
    }

    /// Sends `bytes` until the answer to request `id` comes (datagrams from elsewhere, or
    /// not that answer, are skipped), at most `retries + 1` times, each waiting `timeout`.
    fn send_and_wait(&mut self, bytes: &[u8], id: i32) -> Result<Vec<u8>, ClientError> {
        let Options {
            timeout, retries, ..
        } = self.core.options;
        for attempt in 0..=retries {
            if attempt > 0 {
                tracing::Span::current().record("retries", attempt);
            }
            self.sock.send_to(bytes, self.core.target)?;
            let deadline = Instant::now() + timeout;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                self.sock.set_read_timeout(Some(left))?;
                let (n, from) = match self.sock.recv_from(&mut self.buf) {
                    Ok(r) => r,
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) =>
                    {
                        break
                    }
                    Err(e) => return Err(e.into()),
                };
                if from == self.core.target && self.core.is_answer(&self.buf[..n], id) {
                    return Ok(self.buf[..n].to_vec());
                }
            }
        }
        Err(ClientError::Timeout {
            target: self.core.target,
            attempts: retries + 1,
            timeout,
        })
    }
}

/// An asynchronous session with one agent, over a tokio UDP socket: the same requests,
/// matching, retries and USM handling as [`Session`].
#[derive(Debug)]
pub struct AsyncSession {
    core: Core,
    sock: tokio::net::UdpSocket,
    buf: Vec<u8>,
}

impl AsyncSession {
    /// A session with the agent at `target`, from a socket of our own on an ephemeral port.
    pub async fn new(
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Result<AsyncSession, ClientError> {
        let core = Core::new(target, credentials, options);
        let sock = tokio::net::UdpSocket::bind(core.local()).await?;
        Ok(AsyncSession {
            core,
            sock,
            buf: vec![0; options.max_size.max(484) as usize],
        })
    }

    /// The engine of a v3 agent, once discovered.
    pub fn engine(&self) -> Option<&Engine> {
        self.core.peer.as_ref().map(|p| &p.engine)
    }

    /// Uses `engine` instead of discovering it (see [`Session::set_engine`]).
    pub fn set_engine(&mut self, engine: Engine) {
        self.core.set_engine(engine);
    }

    /// GET of `oids`.
    pub async fn get(&mut self, oids: &[OidBuf]) -> Result<Vec<VarBind>, ClientError> {
        self.request(Kind::Get, oids, &[]).await
    }

    /// GETNEXT of `oids`.
    pub async fn get_next(&mut self, oids: &[OidBuf]) -> Result<Vec<VarBind>, ClientError> {
        self.request(Kind::GetNext, oids, &[]).await
    }

    /// GETBULK of `oids`.
    pub async fn get_bulk(
        &mut self,
        non_repeaters: u32,
        max_repetitions: u32,
        oids: &[OidBuf],
    ) -> Result<Vec<VarBind>, ClientError> {
        self.request(
            Kind::GetBulk {
                non_repeaters,
                max_repetitions,
            },
            oids,
            &[],
        )
        .await
    }

    /// SET of `bindings` (see [`Session::set`]).
    pub async fn set(&mut self, bindings: &[(OidBuf, Value)]) -> Result<Vec<VarBind>, ClientError> {
        let (oids, values): (Vec<OidBuf>, Vec<Value>) = bindings.iter().cloned().unzip();
        self.request(Kind::Set, &oids, &values).await
    }

    /// Walks the subtree under `root` (see [`Session::walk`]).
    pub async fn walk(
        &mut self,
        root: &OidBuf,
        mut each: impl FnMut(&VarBind),
    ) -> Result<usize, ClientError> {
        let mut last = root.clone();
        for requests in 1..=self.core.options.max_walk_requests {
            let kind = self.core.walk_kind();
            let answer = self.request(kind, std::slice::from_ref(&last), &[]).await;
            if !walk_step(root, &mut last, answer, &mut each)? {
                return Ok(requests);
            }
        }
        Err(ClientError::WalkTooLong(
            self.core.options.max_walk_requests,
        ))
    }

    async fn request(
        &mut self,
        kind: Kind,
        oids: &[OidBuf],
        values: &[Value],
    ) -> Result<Vec<VarBind>, ClientError> {
        use tracing::Instrument;
        let span = self.core.span(kind, oids.len());
        async {
            if let Some((bytes, id)) = self.core.discovery()? {
                let answer = self.send_and_wait(&bytes, id).await?;
                self.core.discovered(&answer)?;
            }
            let mut resynced = false;
            loop {
                let (bytes, id) = self.core.encode(kind, oids, values)?;
                let answer = self.send_and_wait(&bytes, id).await?;
                if let Step::Done(result) = self.core.open(&answer, id, &mut resynced) {
                    return result;
                }
            }
        }
        .instrument(span)
        .await
    }

    /// Sends `bytes` until the answer to request `id` comes (see [`Session`]'s).
    async fn send_and_wait(&mut self, bytes: &[u8], id: i32) -> Result<Vec<u8>, ClientError> {
        let Options {
            timeout, retries, ..
        } = self.core.options;
        for attempt in 0..=retries {
            if attempt > 0 {
                tracing::Span::current().record("retries", attempt);
            }
            self.sock.send_to(bytes, self.core.target).await?;
            let deadline = tokio::time::Instant::now() + timeout;
            loop {
                let received =
                    tokio::time::timeout_at(deadline, self.sock.recv_from(&mut self.buf)).await;
                let Ok(received) = received else {
                    break;
                };
                let (n, from) = received?;
                if from == self.core.target && self.core.is_answer(&self.buf[..n], id) {
                    return Ok(self.buf[..n].to_vec());
                }
            }
        }
        Err(ClientError::Timeout {
            target: self.core.target,
            attempts: retries + 1,
            timeout,
        })
    }
}

/// The Response's bindings, or its error-status.
fn bindings(pdu: &Pdu<'_>) -> Result<Vec<VarBind>, ClientError> {
    if pdu.error_status != PduErrorStatus::NO_ERROR {
        return Err(ClientError::ErrorStatus {
            status: pdu.error_status.0,
            index: i64::from(pdu.error_index),
        });
    }
    pdu.variable_bindings
        .0
        .iter()
        .map(|vb| {
            let vb = vb.map_err(ClientError::Decode)?;
            Ok(VarBind {
                oid: vb.name.0.to_owned(),
                value: Value::from_wire(&vb.value),
            })
        })
        .collect()
}

/// An SNMPv1 request (RFC 1157): GET or GETNEXT.
fn v1_request(
    community: &[u8],
    kind: Kind,
    oids: &[OidBuf],
    values: &[Value],
    request_id: i32,
) -> Result<Vec<u8>, ClientError> {
    let vbs: Vec<v1::VarBind<'_>> = oids
        .iter()
        .enumerate()
        .map(|(k, o)| {
            Ok(v1::VarBind {
                name: v1smi::ObjectName(o.as_oid()),
                value: match values.get(k) {
                    Some(v) => v.to_v1()?,
                    None => v1smi::ObjectSyntax::Simple(v1smi::SimpleSyntax::Empty),
                },
            })
        })
        .collect::<Result<_, ClientError>>()?;
    let pdu = v1::Pdu {
        request_id: i64::from(request_id),
        error_status: v1::PduErrorStatus(0),
        error_index: 0,
        variable_bindings: v1::VarBindList(SequenceOf::from_slice(&vbs)),
    };
    let data = match kind {
        Kind::Get => v1::Pdus::GetRequest(v1::GetRequestPdu(pdu)),
        Kind::GetNext => v1::Pdus::GetNextRequest(v1::GetNextRequestPdu(pdu)),
        Kind::Set => v1::Pdus::SetRequest(v1::SetRequestPdu(pdu)),
        Kind::GetBulk { .. } => return Err(ClientError::NoBulkInV1),
    };
    v1::Message {
        version: v1::MessageVersion(0),
        community,
        data,
    }
    .to_ber()
    .map_err(ClientError::Encode)
}

/// An SNMPv1 GetResponse's bindings, or its error-status.
fn v1_bindings(pdu: &v1::Pdu<'_>) -> Result<Vec<VarBind>, ClientError> {
    if pdu.error_status.0 != 0 {
        return Err(ClientError::ErrorStatus {
            status: pdu.error_status.0,
            index: pdu.error_index,
        });
    }
    pdu.variable_bindings
        .0
        .iter()
        .map(|vb| {
            let vb = vb.map_err(ClientError::Decode)?;
            Ok(VarBind {
                oid: vb.name.0.to_owned(),
                value: Value::from_v1(&vb.value),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_show_communities_or_keys() {
        let v2 = format!("{:?}", Credentials::V2c(b"s3cr3t-community".to_vec()));
        assert!(!v2.contains("s3cr3t"), "{v2}");
        let user = UsmUser::new(
            "someone",
            Some((AuthProtocol::Sha1, b"authpassword")),
            Some((PrivProtocol::Aes128, b"privpassword")),
        )
        .unwrap();
        let shown = format!("{:?}", Credentials::Usm(user.clone()));
        assert!(shown.contains("Key(20 octets)"), "{shown}");
        let key = user.auth.as_ref().unwrap().1.as_bytes();
        let hex: String = key.iter().map(|b| format!("{b}, ")).collect();
        assert!(!shown.contains(hex.trim_end_matches(", ")), "{shown}");
        assert!(matches!(
            UsmUser::new("x", None, Some((PrivProtocol::Des, b"privpassword"))),
            Err(UsmError::PrivacyWithoutAuth)
        ));
    }

    #[test]
    fn request_ids_stay_positive_and_wrap() {
        let mut core = Core::new(
            ([127, 0, 0, 1], 161).into(),
            Credentials::V2c(b"public".to_vec()),
            Options::default(),
        );
        core.next_id = 0x3fff_ffff;
        assert_eq!(core.take_id(), 0x3fff_ffff);
        assert_eq!(core.take_id(), 1);
    }
}
