//! SNMP sessions, synchronous ([`Session`], std: over UDP, or TCP by
//! [`Session::connect_tcp`]) and asynchronous ([`AsyncSession`], tokio, over UDP): SNMPv1,
//! SNMPv2c or SNMPv3 (USM); GET, GETNEXT, GETBULK, SET and subtree walks. Both
//! are thin drivers of the same sans-IO core, [`Exchange`] (and [`Walk`] for walks): they
//! send the datagrams it hands out, hand it what arrives and tell it the time. One `tracing`
//! span per request, nothing per binding.

use std::net::{SocketAddr, UdpSocket};
use std::time::Instant;

use snmp_ber::OidBuf;
use snmp_messages::snmpv2_pdu::VarBindValue;
use snmp_mib::{MibError, Notification, Object, Row, Rows};

use crate::config::{Credentials, Options};
use crate::engine::Engine;
use crate::error::ClientError;
use crate::exchange::{Exchange, Step};
use crate::read_timeout;
use crate::request::Request;
use crate::stats::Stats;
use crate::tap::{tapped, Direction, WireTap};
use crate::transport::Transport;
use crate::value::{Value, VarBind};
use crate::walk::{Subtree, Walk, WalkEnd};

/// The unspecified address of `target`'s family, for a socket of our own.
fn local_for(target: SocketAddr) -> SocketAddr {
    if target.is_ipv4() {
        ([0, 0, 0, 0], 0).into()
    } else {
        ([0u16; 8], 0).into()
    }
}

/// The IPv4 address datagrams to `target` leave from (an SNMPv1 trap's agent-addr):
/// 0.0.0.0 when there is none (an IPv6 target, no route).
fn source_ipv4(target: SocketAddr) -> [u8; 4] {
    let probe = UdpSocket::bind(local_for(target)).and_then(|s| {
        s.connect(target)?;
        s.local_addr()
    });
    match probe.map(|a| a.ip()) {
        Ok(std::net::IpAddr::V4(a)) => a.octets(),
        _ => [0; 4],
    }
}

/// The receive buffer: the largest message accepted.
fn receive_buffer(options: &Options) -> Vec<u8> {
    vec![0; options.max_size.clamp(484, 65535) as usize]
}

/// A walk handed out a binding at a time, from [`Session::walk_iter`] (an `Iterator`) or
/// `AsyncSession::walk_iter` (an async [`WalkIter::next`]). The walk itself is
/// [`Walk`]'s, sans IO; this holds the bindings of the last answer not yet handed out.
#[derive(Debug)]
pub struct WalkIter<'s, S> {
    session: &'s mut S,
    walk: Walk,
    pending: std::collections::VecDeque<VarBind>,
}

/// The next binding of a [`WalkIter`] (`$($await)?` for the async one): one body for both.
macro_rules! walk_next {
    ($self:ident $(, $await:tt)?) => {
        loop {
            if let Some(vb) = $self.pending.pop_front() {
                return Some(Ok(vb));
            }
            let request = match $self.walk.next_request(Instant::now()) {
                Ok(Some(r)) => r,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            let answer = $self.session.run(request)$(.$await)?;
            let pending = &mut $self.pending;
            if let Err(e) = $self.walk.absorb(answer, &mut |vb| pending.push_back(vb)) {
                return Some(Err(e));
            }
        }
    };
}

impl<S> WalkIter<'_, S> {
    /// How the walk ended, once it ran to its end ([`Walk::end`]).
    pub fn end(&self) -> Option<&WalkEnd> {
        self.walk.end()
    }
}

impl Iterator for WalkIter<'_, Session> {
    type Item = Result<VarBind, ClientError>;

    fn next(&mut self) -> Option<Self::Item> {
        walk_next!(self)
    }
}

#[cfg(feature = "tokio")]
impl WalkIter<'_, AsyncSession> {
    /// The next binding of the walk, `None` at its end.
    pub async fn next(&mut self) -> Option<Result<VarBind, ClientError>> {
        walk_next!(self, await)
    }
}

/// What both drivers offer besides requests: the wire tap, the addresses, the engine, the
/// counters.
macro_rules! session_state {
    ($($async:ident $await:tt)?) => {
        /// Calls `tap` with every datagram this session sends or receives, as it crosses the
        /// socket (net-snmp's `-d` prints them so).
        pub fn set_wire_tap(&mut self, tap: impl FnMut(&crate::tap::Wire<'_>) + Send + 'static) {
            self.tap = Some(Box::new(tap));
        }

        /// Connects the session's socket to the agent, as gosnmp (and so snmp_exporter)
        /// does by default. The system then says at once when nothing listens at the
        /// agent's port: the ICMP port unreachable it received is the next receive's error
        /// (`Connection refused`), where an unconnected socket waits out the timeouts. And it
        /// drops every datagram from another address unseen: none is counted as
        /// [`crate::Discard::OtherSource`], and an agent that answers from another address
        /// is never heard. A connected socket also costs less a request: its datagrams go
        /// out by `send` on the route the connection keeps, where an unconnected `sendto`
        /// looks the route up each time (a GETNEXT over loopback took 2.11 µs of CPU
        /// connected against 2.27 unconnected: docs/benchmarks.md).
        pub $($async)? fn connect_to_agent(&mut self) -> Result<(), ClientError> {
            Ok(self.sock.connect(self.exchange.target())$(.$await)??)
        }

        /// The session's socket address and the agent's.
        pub fn addresses(&self) -> (Option<SocketAddr>, SocketAddr) {
            (self.sock.local_addr().ok(), self.exchange.target())
        }

        /// `datagram` to the wire tap, if there is one.
        fn tap_datagram(&mut self, direction: Direction, peer: SocketAddr, datagram: &[u8]) {
            let local = || self.sock.local_addr().ok();
            tapped(&mut self.tap, direction, peer, local, datagram);
        }

        /// This engine's snmpEngineID and boots, for the SNMPv3 traps it sends (see
        /// [`Exchange::set_local_engine`]).
        pub fn set_local_engine(&mut self, id: &[u8], boots: u32) {
            self.exchange.set_local_engine(id, boots, Instant::now());
        }

        /// The engine of a v3 agent, once discovered.
        pub fn engine(&self) -> Option<&Engine> {
            self.exchange.engine()
        }

        /// Uses `engine` (kept from an earlier session, say) instead of discovering it; the
        /// user's keys are localised to it. Without effect under SNMPv1 and SNMPv2c.
        pub fn set_engine(&mut self, engine: Engine) {
            self.exchange.set_engine(engine);
        }

        /// The counters: datagrams sent, answers accepted, datagrams discarded and why.
        pub fn stats(&self) -> &Stats {
            self.exchange.stats()
        }

        /// Replaces the session's options (timeout, retries, walk parameters, largest
        /// message) for the requests made from now on: one session serving modules that
        /// are each patient in their own way.
        pub fn set_options(&mut self, options: Options) {
            if options.max_size != self.exchange.options().max_size {
                self.buf = receive_buffer(&options);
            }
            self.exchange.set_options(options);
        }
    };
}

/// The requests both drivers offer, each running one [`Request`] (`$async $await`: the
/// driver's).
macro_rules! requests {
    ($($async:ident $await:tt)?) => {
        /// GET of `oids`.
        pub $($async)? fn get(&mut self, oids: &[OidBuf]) -> Result<Vec<VarBind>, ClientError> {
            self.run(Request::get(oids))$(.$await)?
        }

        /// GET of `oids`, its bindings in `out` (what `out` held is given back to be the
        /// next answer's storage): a poller calling this in a loop allocates nothing per
        /// request once warm (client/tests/allocations.rs).
        pub $($async)? fn get_into(
            &mut self,
            oids: &[OidBuf],
            out: &mut Vec<VarBind>,
        ) -> Result<(), ClientError> {
            let bindings = self.run(Request::get(oids))$(.$await)??;
            crate::value::recycle(std::mem::replace(out, bindings));
            Ok(())
        }

        /// GETNEXT of `oids`.
        pub $($async)? fn get_next(&mut self, oids: &[OidBuf]) -> Result<Vec<VarBind>, ClientError> {
            self.run(Request::get_next(oids))$(.$await)?
        }

        /// GETBULK of `oids` as [`Self::get_bulk`], its bindings in `out` (what `out` held is
        /// written over by the next answer, its strings' storage with it): a poller calling
        /// this in a loop allocates nothing per request once warm.
        pub $($async)? fn get_bulk_into(
            &mut self,
            non_repeaters: u32,
            max_repetitions: u32,
            oids: &[OidBuf],
            out: &mut Vec<VarBind>,
        ) -> Result<(), ClientError> {
            let request = Request::get_bulk(non_repeaters, max_repetitions, oids);
            let bindings = self.run(request)$(.$await)??;
            crate::value::recycle(std::mem::replace(out, bindings));
            Ok(())
        }

        /// GETBULK of `oids`: the first `non_repeaters` once, the others `max_repetitions`
        /// times (RFC 3416 4.2.3).
        pub $($async)? fn get_bulk(
            &mut self,
            non_repeaters: u32,
            max_repetitions: u32,
            oids: &[OidBuf],
        ) -> Result<Vec<VarBind>, ClientError> {
            self.run(Request::get_bulk(non_repeaters, max_repetitions, oids))$(.$await)?
        }

        /// SET of `bindings`: the agent's answer (the bindings as set), or its error-status.
        pub $($async)? fn set(&mut self, bindings: &[(OidBuf, Value)]) -> Result<Vec<VarBind>, ClientError> {
            self.run(Request::set(bindings))$(.$await)?
        }

        /// SET of `columns` (their numbers under the entry) of the generated row `row` at its
        /// INDEX, each value checked against its SYNTAX before anything is sent (rows built
        /// with `Builder::agent(true)`; see [`crate::typed_set`]).
        pub $($async)? fn set_columns<R: snmp_mib::AgentRow>(&mut self, row: &R, columns: &[u32]) -> Result<Vec<VarBind>, ClientError> {
            let bindings = crate::typed_set::row_bindings(row, columns)?;
            self.run(Request::set(&bindings))$(.$await)?
        }

        /// Creates the generated row `row` in one SET: its writable columns that have a value
        /// and RowStatus createAndGo (RFC 2579), checked against their SYNTAX first.
        pub $($async)? fn create_row<R: snmp_mib::AgentRow>(&mut self, row: &R) -> Result<Vec<VarBind>, ClientError> {
            let bindings = crate::typed_set::creation_bindings(row)?;
            self.run(Request::set(&bindings))$(.$await)?
        }

        /// SET of `scalars` (their numbers under the group) of the generated scalar group
        /// `values`, checked against their SYNTAX first.
        pub $($async)? fn set_scalars<S: snmp_mib::ScalarGroup>(&mut self, values: &S, scalars: &[u32]) -> Result<Vec<VarBind>, ClientError> {
            let bindings = crate::typed_set::scalar_bindings(values, scalars)?;
            self.run(Request::set(&bindings))$(.$await)?
        }

        /// GET of the scalar `object` (a constant the MIB compiler generated, such as
        /// `snmp_mibs_std::snmpv2_mib::SYS_UP_TIME`) at instance `.0`, decoded by its generated
        /// function (`snmpv2_mib::scalars::sys_up_time`): `None` when the agent has no such
        /// object (noSuchObject, noSuchInstance), an error when the value does not fit it.
        pub $($async)? fn get_scalar<T>(
            &mut self,
            object: &Object,
            decode: fn(&VarBindValue<'_>) -> Result<Option<T>, MibError>,
        ) -> Result<Option<T>, ClientError> {
            let mut arcs = object.oid.to_vec();
            arcs.push(0);
            let oid = OidBuf::from_arcs(&arcs).map_err(|_| {
                ClientError::Table(MibError::OutOfRange {
                    object: object.name,
                    found: format!("{arcs:?}"),
                    allowed: "an object identifier",
                })
            })?;
            let answer = self.run(Request::get(std::slice::from_ref(&oid)))$(.$await)??;
            match answer.first() {
                Some(vb) => Ok(decode(&vb.value.as_wire()?)?),
                None => Err(ClientError::NoBindings(oid)),
            }
        }
    };
}

/// The notifications both drivers send: traps, and informs (answered, as requests are).
macro_rules! notifications {
    ($($async:ident $await:tt)?) => {
        /// An InformRequest of the SNMPv2 notification `trap_oid` (RFC 3416 4.2.7): sysUpTime.0
        /// (`uptime`, hundredths of a second) and snmpTrapOID.0, then `bindings`; the receiver's
        /// Response (its bindings echoed), retried and timed out as requests are. SNMPv2c and
        /// v3 (the receiver is the authoritative engine: discovered as an agent is).
        pub $($async)? fn inform(
            &mut self,
            uptime: u32,
            trap_oid: &OidBuf,
            bindings: &[(OidBuf, Value)],
        ) -> Result<Vec<VarBind>, ClientError> {
            let all = crate::notify::v2_bindings(uptime, trap_oid, bindings);
            self.run(Request::inform(&all))$(.$await)?
        }

        /// Sends the notification `n`, a struct generated from a MIB's NOTIFICATION-TYPE (e.g.
        /// IF-MIB's `LinkDown`), as a trap (see [`Self::trap`]).
        pub $($async)? fn notify<N: Notification>(&mut self, uptime: u32, n: &N) -> Result<(), ClientError> {
            let (trap_oid, bindings) = crate::notify::of(n)?;
            self.trap(uptime, &trap_oid, &bindings)$(.$await)?
        }

        /// Sends the notification `n` as an InformRequest (see [`Self::inform`]): the
        /// receiver's Response.
        pub $($async)? fn inform_of<N: Notification>(
            &mut self,
            uptime: u32,
            n: &N,
        ) -> Result<Vec<VarBind>, ClientError> {
            let (trap_oid, bindings) = crate::notify::of(n)?;
            self.inform(uptime, &trap_oid, &bindings)$(.$await)?
        }

        /// Sends a trap of the SNMPv2 notification `trap_oid` (see [`Exchange::trap`]: an
        /// SNMPv2-Trap-PDU, or under SNMPv1 its RFC 3584 translation from the socket's local
        /// address); nothing answers a trap.
        pub $($async)? fn trap(
            &mut self,
            uptime: u32,
            trap_oid: &OidBuf,
            bindings: &[(OidBuf, Value)],
        ) -> Result<(), ClientError> {
            // Only an SNMPv1 trap names its sender's address.
            let from = match self.exchange.version() {
                "1" => source_ipv4(self.exchange.target()),
                _ => [0; 4],
            };
            let datagram = self.exchange.trap(uptime, trap_oid, bindings, from)?;
            self.tap_datagram(Direction::Sent, self.exchange.target(), &datagram);
            let sent = self.sock.send_to(&datagram, self.exchange.target())$(.$await)?;
            sent?;
            Ok(())
        }

        /// [`Self::trap_v1`] with the header's agent-addr set to the address datagrams to the
        /// target leave from.
        pub $($async)? fn trap_v1_from_here(
            &mut self,
            trap: &crate::notify::V1Trap,
            bindings: &[(OidBuf, Value)],
        ) -> Result<(), ClientError> {
            let trap = crate::notify::V1Trap {
                agent_addr: source_ipv4(self.exchange.target()),
                ..trap.clone()
            };
            self.trap_v1(&trap, bindings)$(.$await)?
        }

        /// Sends an SNMPv1 Trap-PDU with the header `trap` (SNMPv1 sessions only).
        pub $($async)? fn trap_v1(
            &mut self,
            trap: &crate::notify::V1Trap,
            bindings: &[(OidBuf, Value)],
        ) -> Result<(), ClientError> {
            let datagram = self.exchange.trap_v1(trap, bindings)?;
            self.tap_datagram(Direction::Sent, self.exchange.target(), &datagram);
            let sent = self.sock.send_to(&datagram, self.exchange.target())$(.$await)?;
            sent?;
            Ok(())
        }
    };
}

/// The driver's loop, the same for [`Session`] and [`AsyncSession`] (the core does the rest):
/// `run` starts a request and runs it, `drive` runs the one the exchange started.
macro_rules! drive {
    ($($async:ident $await:tt)?) => {
        /// Runs `request` to its result: the core's datagrams sent, every datagram received
        /// handed to it, its deadlines kept. The clock is read when the request starts and
        /// after each wait, not at every step: encoding and sending take microseconds, and a
        /// deadline a few of them early is still the timeout.
        $($async)? fn run(&mut self, request: Request) -> Result<Vec<VarBind>, ClientError> {
            let now = Instant::now();
            self.exchange.start(request, now);
            let (result, _) = self.run_started(now)$(.$await)?;
            result
        }

        /// Runs the request started at `now` to its result, `now` kept the time of the
        /// clock's last reading: the core's datagrams sent, every datagram received handed to
        /// it. The result and the clock's last reading.
        $($async)? fn drive(&mut self, started: Instant) -> (Result<Vec<VarBind>, ClientError>, Instant) {
            let mut clock = started;
            let now = &mut clock;
            let target = self.exchange.target();
            loop {
                match self.exchange.next_step(*now) {
                    Step::Done(result) => return (result, *now),
                    Step::Send(datagram) => {
                        let local = || self.sock.local_addr().ok();
                        tapped(&mut self.tap, Direction::Sent, target, local, datagram);
                        let sent = self.sock.send_to(datagram, target)$(.$await)?;
                        if let Err(e) = sent {
                            return (Err(e.into()), *now);
                        }
                    }
                    Step::Wait(deadline) => {
                        let after = self.receive_until(deadline, *now)$(.$await)?;
                        match after {
                            Ok(after) => *now = after,
                            Err(e) => return (Err(e), *now),
                        }
                    }
                }
            }
        }
    };
}

/// The walks both drivers offer, each one [`Walk`] driven request by request.
macro_rules! walks {
    ($($async:ident $await:tt)?) => {
        /// Walks the subtree under `root` by GETBULK (GETNEXT under SNMPv1), calling `each`
        /// for every binding inside it in order; the number of requests made. Stops at the
        /// end of the subtree or of the MIB view. An error cuts the walk short: the agent
        /// loops (an OID that does not follow the one before), answers with no bindings or an
        /// error-status, or the walk reaches [`Options::max_walk_requests`] or
        /// [`Options::max_walk_time`]; the bindings handed to `each` are then incomplete.
        pub $($async)? fn walk(
            &mut self,
            root: impl Into<Subtree>,
            mut each: impl FnMut(&VarBind),
        ) -> Result<usize, ClientError> {
            let v1 = matches!(self.exchange.version(), "1");
            let mut now = Instant::now();
            let mut walk = Walk::new(root, v1, self.exchange.options(), now);
            // Each request written over the one before (no new one made a step), started at
            // the clock's reading after the last answer: one reading a request.
            while self.start_next(&mut walk, now)? {
                let (answer, after) = self.run_started(now)$(.$await)?;
                now = after;
                walk.absorb_each(answer, &mut each)?;
            }
            Ok(walk.requests())
        }

        /// Starts `walk`'s next request over the exchange's last one at `now` (the clock's
        /// last reading, microseconds old at most); `false` when the walk is over.
        fn start_next(&mut self, walk: &mut Walk, now: Instant) -> Result<bool, ClientError> {
            self.exchange.start_changed(now, |r| walk.next_into(r, now))
        }

        /// [`Self::walk`] a binding at a time: an iterator (an async `next` on
        /// [`AsyncSession`]) of the bindings inside `root`'s subtree, requests made as it is
        /// read; stop at any binding by dropping it. An error ends it (as it ends `walk`).
        pub fn walk_iter(&mut self, root: impl Into<Subtree>) -> WalkIter<'_, Self> {
            let v1 = matches!(self.exchange.version(), "1");
            let walk = Walk::new(root, v1, self.exchange.options(), Instant::now());
            WalkIter {
                session: self,
                walk,
                pending: std::collections::VecDeque::new(),
            }
        }

        /// Walks the conceptual table of `R` (a row type the MIB compiler generated from an
        /// `...Entry`, such as `snmp_mibs_std::if_mib::IfEntry`) into its rows, keyed and
        /// ordered by their INDEX; GETBULK or GETNEXT as [`Options::walk_with`] says. Lenient
        /// where agents are sloppy, never silent: a value that does not fit its column (outside
        /// the MIB's range or size, text that is not UTF-8) leaves the column unset and an index
        /// that does not decode leaves the binding out, each in [`Rows::problems`]. The walk's
        /// own errors are [`Self::walk`]'s.
        pub $($async)? fn walk_table<R: Row>(&mut self) -> Result<Rows<R>, ClientError> {
            self.table(false)$(.$await)?
        }

        /// [`Self::walk_table`], strict: the first binding that does not fit its row ends the
        /// walk with [`ClientError::Table`].
        pub $($async)? fn walk_table_strict<R: Row>(&mut self) -> Result<Rows<R>, ClientError> {
            self.table(true)$(.$await)?
        }

        $($async)? fn table<R: Row>(&mut self, strict: bool) -> Result<Rows<R>, ClientError> {
            let mut rows = Rows::new();
            self.walk_entry(R::ENTRY, R::NAME, &mut |vb| crate::value::push_row(&mut rows, vb, strict))$(.$await)??;
            Ok(rows)
        }

        /// A table and one that AUGMENTS it or shares its INDEX (`IfEntry` and `IfXEntry`),
        /// each walked (as [`Self::walk_table`], leniently), their rows joined by instance:
        /// each conceptual row once, with both halves, in instance order.
        pub $($async)? fn walk_joined<A: Row, B: Row>(&mut self) -> Result<snmp_mib::Joined<A, B>, ClientError> {
            let mut joined = snmp_mib::Joined::new();
            let mut push = |vb: &VarBind| -> Result<(), ClientError> {
                let name: Vec<u32> = vb.oid.as_oid().arcs().collect();
                joined.push_lenient(&name, &vb.value.as_wire()?);
                Ok(())
            };
            self.walk_entry(A::ENTRY, A::NAME, &mut push)$(.$await)??;
            self.walk_entry(B::ENTRY, B::NAME, &mut push)$(.$await)??;
            Ok(joined.finish())
        }

        /// Walks the entry `entry` (of the row `name`), each binding to `push`; its first error
        /// ends the walk.
        $($async)? fn walk_entry(
            &mut self,
            entry: &[u32],
            name: &'static str,
            push: &mut dyn FnMut(&VarBind) -> Result<(), ClientError>,
        ) -> Result<(), ClientError> {
            // A generated row's entry is an OID; a hand-written one might not be.
            let root = OidBuf::from_arcs(entry).map_err(|_| {
                ClientError::Table(MibError::BadIndex {
                    entry: name,
                    position: 0,
                    suffix: entry.to_vec(),
                    reason: "an entry OID of two arcs or more",
                })
            })?;
            let v1 = matches!(self.exchange.version(), "1");
            let mut now = Instant::now();
            let mut walk = Walk::new(&root, v1, self.exchange.options(), now);
            let mut failed = None;
            while self.start_next(&mut walk, now)? {
                let (answer, after) = self.run_started(now)$(.$await)?;
                now = after;
                walk.absorb(answer, &mut |vb| {
                    if failed.is_none() {
                        failed = push(&vb).err();
                    }
                })?;
                if let Some(e) = failed.take() {
                    return Err(e);
                }
            }
            Ok(())
        }
    };
}

/// A synchronous session with one agent, over a `std` UDP socket of its own or a TCP
/// connection ([`Session::connect_tcp`]).
///
/// ```no_run
/// use snmp_client::usm::{AuthProtocol, PrivProtocol};
/// use snmp_client::{Credentials, Options, Session, UsmUser};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let user = UsmUser::new(
///     "admin",
///     Some((AuthProtocol::Sha256, b"authpassword")),
///     Some((PrivProtocol::Aes128, b"privpassword")),
/// )?;
/// let mut s = Session::new("127.0.0.1:161".parse()?, Credentials::Usm(user), Options::default())?;
/// for vb in s.get(&["1.3.6.1.2.1.1.5.0".parse()?])? {
///     println!("{} = {:?}", vb.oid, vb.value);
/// }
/// # Ok(())
/// # }
/// ```
pub struct Session {
    exchange: Exchange,
    sock: Transport,
    buf: Vec<u8>,
    tap: Option<WireTap>,
}

impl std::fmt::Debug for Session {
    /// The exchange's: no community, key, datagram or value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("exchange", &self.exchange)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session with the agent `agent` as net-snmp's tools name it (`[TRANSPORT:]HOST[:PORT]`:
    /// `router1`, `udp6:[2001:db8::1]:1161`, `tcp:10.0.0.1`; port 161 when none is named, see
    /// [`crate::target`]): resolved, then over UDP ([`Session::new`]) or TCP
    /// ([`Session::connect_tcp`]).
    ///
    /// ```no_run
    /// use snmp_client::{Credentials, Options, Session};
    ///
    /// # fn main() -> Result<(), snmp_client::ClientError> {
    /// let public = Credentials::V2c(b"public".to_vec());
    /// let mut s = Session::open("localhost:1161", public, Options::default())?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn open(
        agent: &str,
        credentials: Credentials,
        options: Options,
    ) -> Result<Session, ClientError> {
        let target = crate::target::Target::parse(agent, 161)?;
        match target.protocol {
            crate::target::Protocol::Udp => Session::new(target.addr, credentials, options),
            crate::target::Protocol::Tcp => Session::connect_tcp(target.addr, credentials, options),
        }
    }

    /// A session with the agent at `target`, from a socket of our own on an ephemeral port.
    pub fn new(
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Result<Session, ClientError> {
        let sock = Transport::udp(local_for(target))?;
        Ok(Session::over(sock, target, credentials, options))
    }

    /// A session with the agent at `target` over a TCP connection (RFC 3430; net-snmp's
    /// `tcp:` transport), connected within `options.timeout`: the same requests, each message
    /// framed by its own length; a request not answered in time is sent again on the same
    /// connection, as over UDP.
    pub fn connect_tcp(
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Result<Session, ClientError> {
        let sock = Transport::tcp(target, options.timeout)?;
        Ok(Session::over(sock, target, credentials, options))
    }

    fn over(
        sock: Transport,
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Session {
        Session {
            exchange: Exchange::new(target, credentials, options),
            sock,
            buf: receive_buffer(&options),
            tap: None,
        }
    }

    session_state!();
    requests!();
    notifications!();
    walks!();
    drive!();

    /// Runs the request the exchange started at `now` to its result (and the clock's last
    /// reading).
    fn run_started(&mut self, now: Instant) -> (Result<Vec<VarBind>, ClientError>, Instant) {
        let span = self.exchange.span();
        let _entered = span.enter();
        self.drive(now)
    }

    /// Waits for a datagram until `deadline` (it is `now`) and hands it (or the deadline) to
    /// the core: the time after the wait.
    fn receive_until(&mut self, deadline: Instant, now: Instant) -> Result<Instant, ClientError> {
        let left = deadline.saturating_duration_since(now);
        if left.is_zero() {
            // Past already: the core's next step handles it.
            return Ok(now);
        }
        let wait = read_timeout::rounded_up(left, self.exchange.options().timeout);
        let received = self.sock.recv(&mut self.buf, wait);
        let now = Instant::now();
        match received {
            Ok((n, from)) => {
                let local = || self.sock.local_addr().ok();
                tapped(
                    &mut self.tap,
                    Direction::Received,
                    from,
                    local,
                    &self.buf[..n],
                );
                self.exchange.handle_datagram(from, &self.buf[..n], now);
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                self.exchange.handle_timeout(now)
            }
            Err(e) => return Err(e.into()),
        }
        Ok(now)
    }
}

/// An asynchronous session with one agent, over a tokio UDP socket: the same requests,
/// matching, retries and USM handling as [`Session`], by the same core.
///
/// ```no_run
/// use snmp_client::{AsyncSession, Credentials, Options};
///
/// # async fn poll() -> Result<(), Box<dyn std::error::Error>> {
/// let public = Credentials::V2c(b"public".to_vec());
/// let mut s = AsyncSession::new("127.0.0.1:161".parse()?, public, Options::default()).await?;
/// let mut walked = 0;
/// s.walk(&"1.3.6.1.2.1.1".parse()?, |_| walked += 1).await?;
/// println!("{walked} bindings in the system group; {:?}", s.stats());
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "tokio")]
pub struct AsyncSession {
    exchange: Exchange,
    sock: crate::transport::AsyncUdp,
    buf: Vec<u8>,
    tap: Option<WireTap>,
    /// The wait's timer, set again for each wait rather than made anew.
    timer: std::pin::Pin<Box<tokio::time::Sleep>>,
}

#[cfg(feature = "tokio")]
impl std::fmt::Debug for AsyncSession {
    /// The exchange's: no community, key, datagram or value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncSession")
            .field("exchange", &self.exchange)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "tokio")]
impl AsyncSession {
    /// [`Session::open`]'s forms of an agent's address, over UDP (a TCP transport is not
    /// offered by the tokio driver: [`ClientError::NotOffered`]).
    pub async fn open(
        agent: &str,
        credentials: Credentials,
        options: Options,
    ) -> Result<AsyncSession, ClientError> {
        let target = crate::target::Target::parse(agent, 161)?;
        if target.protocol == crate::target::Protocol::Tcp {
            return Err(ClientError::NotOffered(
                "TCP in AsyncSession (Session offers it)",
            ));
        }
        AsyncSession::new(target.addr, credentials, options).await
    }

    /// A session with the agent at `target`, from a socket of our own on an ephemeral port.
    pub async fn new(
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Result<AsyncSession, ClientError> {
        AsyncSession::new_from(local_for(target), target, credentials, options).await
    }

    /// [`AsyncSession::new`] from the local address `local` (a source address of the host's
    /// own; port 0 for an ephemeral one).
    pub async fn new_from(
        local: SocketAddr,
        target: SocketAddr,
        credentials: Credentials,
        options: Options,
    ) -> Result<AsyncSession, ClientError> {
        let sock = crate::transport::AsyncUdp::bind(local).await?;
        Ok(AsyncSession {
            exchange: Exchange::new(target, credentials, options),
            sock,
            buf: receive_buffer(&options),
            tap: None,
            // Far off until the first wait sets it.
            timer: Box::pin(tokio::time::sleep(std::time::Duration::from_secs(86_400))),
        })
    }

    session_state!(async await);
    requests!(async await);
    notifications!(async await);
    walks!(async await);
    drive!(async await);

    /// Runs the request the exchange started at `now` to its result (see [`Session`]'s).
    async fn run_started(&mut self, now: Instant) -> (Result<Vec<VarBind>, ClientError>, Instant) {
        use tracing::Instrument;
        let span = self.exchange.span();
        self.drive(now).instrument(span).await
    }

    /// Waits for a datagram until `deadline` (it is `now`) and hands it (or the deadline) to
    /// the core: the time after the wait.
    async fn receive_until(
        &mut self,
        deadline: Instant,
        now: Instant,
    ) -> Result<Instant, ClientError> {
        if deadline <= now {
            // Past already: the core's next step handles it.
            return Ok(now);
        }
        self.timer
            .as_mut()
            .reset(tokio::time::Instant::from_std(deadline));
        let received = tokio::select! {
            biased;
            r = self.sock.recv_from(&mut self.buf) => Ok(r),
            () = self.timer.as_mut() => Err(()),
        };
        let now = Instant::now();
        match received {
            Ok(Ok((n, from))) => {
                let local = || self.sock.local_addr().ok();
                tapped(
                    &mut self.tap,
                    Direction::Received,
                    from,
                    local,
                    &self.buf[..n],
                );
                self.exchange.handle_datagram(from, &self.buf[..n], now);
            }
            Ok(Err(e)) => return Err(e.into()),
            // The timer: the deadline came first.
            Err(()) => self.exchange.handle_timeout(now),
        }
        Ok(now)
    }
}
