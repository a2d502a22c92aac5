//! An AgentX subagent (RFC 2741): the registered handlers served through a master agent
//! (net-snmp's snmpd with `master agentx`), over its Unix socket or TCP. [`Subagent::run`]
//! opens the session, registers every subtree of the [`Registry`], answers the master's
//! Get, GetNext, GetBulk, TestSet, CommitSet, UndoSet and CleanupSet, sends the
//! notifications handed to its [`Notifier`], pings an idle master, and when the master goes
//! away (a restart) connects again and registers again, until told to stop.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use snmp_agent::agentx::{Master, Subagent};
//!
//! let registry = snmp_agent::Registry::new(); // the handlers, registered
//! let mut subagent = Subagent::new(registry, "tcp:127.0.0.1:705".parse::<Master>()?);
//! subagent.run(&AtomicBool::new(false))?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod pdu;
mod session;
mod worker;

use std::io::{self, Read, Write as _};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::Value;

pub use session::{answer, timed_out, Control, Session, SessionError, State};

use crate::registry::Registry;
use pdu::{Header, Pdu, PduError, HEADER};
use worker::{Handlers, Late, Worker};

/// Where the master listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Master {
    /// `tcp:HOST:PORT` (net-snmp's `agentXSocket tcp:...`).
    Tcp(String),
    /// `unix:PATH` or a path (net-snmp's default is `/var/agentx/master`).
    Unix(PathBuf),
}

impl std::str::FromStr for Master {
    type Err = String;

    fn from_str(s: &str) -> Result<Master, String> {
        if let Some(rest) = s.strip_prefix("tcp:") {
            if rest
                .rsplit_once(':')
                .is_none_or(|(_, p)| p.parse::<u16>().is_err())
            {
                return Err(format!("{s}: expected tcp:HOST:PORT"));
            }
            return Ok(Master::Tcp(rest.to_string()));
        }
        if let Some(path) = s.strip_prefix("unix:") {
            return Ok(Master::Unix(path.into()));
        }
        if s.starts_with('/') {
            return Ok(Master::Unix(s.into()));
        }
        Err(format!(
            "{s}: expected tcp:HOST:PORT, unix:PATH or an absolute path"
        ))
    }
}

impl std::fmt::Display for Master {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Master::Tcp(a) => write!(f, "tcp:{a}"),
            Master::Unix(p) => write!(f, "unix:{}", p.display()),
        }
    }
}

/// A connection to the master.
enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Stream {
    fn connect(master: &Master) -> io::Result<Stream> {
        let s = match master {
            Master::Tcp(a) => {
                let s = TcpStream::connect(a)?;
                s.set_nodelay(true)?;
                Stream::Tcp(s)
            }
            Master::Unix(p) => Stream::Unix(UnixStream::connect(p)?),
        };
        s.set_read_timeout(Some(Duration::from_millis(100)))?;
        Ok(s)
    }

    fn set_read_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_read_timeout(t),
            Stream::Unix(s) => s.set_read_timeout(t),
        }
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
        }
    }

    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.write_all(bytes),
            Stream::Unix(s) => s.write_all(bytes),
        }
    }
}

/// Why a subagent stopped.
#[derive(Debug, thiserror::Error)]
pub enum SubagentError {
    /// The master refused the session or a registration: trying again would not help.
    #[error(transparent)]
    Refused(#[from] SessionError),
}

/// Hands notifications to a running subagent, from any thread.
#[derive(Debug, Clone)]
pub struct Notifier {
    tx: Sender<Vec<(OidBuf, Value)>>,
}

impl Notifier {
    /// Sends the notification `n` through the master (snmpTrapOID.0 and its bindings; the
    /// master adds sysUpTime.0 and sends it to its trap sinks).
    pub fn notify<N: snmp_mib::Notification>(&self, n: &N) -> Result<(), snmp_client::ClientError> {
        let (trap_oid, bindings) = snmp_client::notify::of(n)?;
        let snmp_trap_oid =
            OidBuf::from_arcs(&[1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0]).expect("snmpTrapOID.0");
        let mut all = Vec::with_capacity(bindings.len() + 1);
        all.push((snmp_trap_oid, Value::ObjectIdentifier(trap_oid)));
        all.extend(bindings);
        // A subagent that has stopped takes no more: nothing to report to the caller.
        let _ = self.tx.send(all);
        Ok(())
    }
}

/// What one connection ended with.
enum Ended {
    /// Told to stop.
    Stopped,
    /// The master went away (or closed the session): connect again.
    Lost(String),
}

/// The counts of a subagent's life.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Sessions opened (the first and each after a reconnection).
    pub sessions: u64,
    /// Requests from the master answered.
    pub answered: u64,
    /// Notifications sent.
    pub notifications: u64,
    /// Requests answered genErr because their handler took longer than the timeout.
    pub timed_out: u64,
}

/// An AgentX subagent over a registry of handlers.
pub struct Subagent {
    handlers: Handlers,
    master: Master,
    timeout: u8,
    description: String,
    notifications: Receiver<Vec<(OidBuf, Value)>>,
    notifier: Notifier,
    counts: Counts,
}

impl std::fmt::Debug for Subagent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subagent")
            .field("master", &self.master)
            .field("subtrees", &self.handlers.subtrees())
            .field("counts", &self.counts)
            .finish()
    }
}

/// How long an idle session waits before it pings the master.
const PING_EVERY: Duration = Duration::from_secs(15);
/// The longest wait between two connection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

impl Subagent {
    /// A subagent serving `registry` through `master`.
    pub fn new(registry: Registry, master: Master) -> Subagent {
        let (tx, rx) = channel();
        Subagent {
            handlers: Handlers::Guarded(Worker::spawn(registry)),
            master,
            timeout: 5,
            description: "snmp-agent subagent".into(),
            notifications: rx,
            notifier: Notifier { tx },
            counts: Counts::default(),
        }
    }

    /// The seconds a request of the master may take (the Open's o.timeout; 5 by default, 1
    /// at least): a handler slower than that is answered genErr, its late answer dropped.
    pub fn timeout(mut self, seconds: u8) -> Self {
        self.timeout = seconds;
        self
    }

    /// Runs the handlers on the thread that talks to the master (`false`; the default is
    /// `true`, a thread of their own): each request then takes as long as its handler, past
    /// the timeout too, and costs a thread hop less (half the subagent's CPU a request, by
    /// `snmp-bench --only agent`). For handlers that never block.
    pub fn guard_timeout(mut self, on: bool) -> Self {
        let registry =
            match std::mem::replace(&mut self.handlers, Handlers::Inline(Registry::new())) {
                Handlers::Inline(r) => r,
                Handlers::Guarded(w) => w.into_registry(),
            };
        self.handlers = match on {
            true => Handlers::Guarded(Worker::spawn(registry)),
            false => Handlers::Inline(registry),
        };
        self
    }

    /// The description the master shows for the session.
    pub fn description(mut self, text: &str) -> Self {
        self.description = text.into();
        self
    }

    /// A handle that sends notifications through the master while [`Subagent::run`] runs.
    pub fn notifier(&self) -> Notifier {
        self.notifier.clone()
    }

    /// What it has done.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Serves until `stop` is set (looked at every 100 ms), connecting again (waiting up to 5
    /// s between attempts) whenever the master is not there, closes the session, or sends
    /// what is not AgentX (the session closed with parseError first); ends early only when
    /// the master refuses the session or a registration.
    pub fn run(&mut self, stop: &AtomicBool) -> Result<(), SubagentError> {
        let mut backoff = Duration::from_millis(50);
        while !stop.load(Ordering::Relaxed) {
            let stream = match Stream::connect(&self.master) {
                Ok(s) => s,
                Err(e) => {
                    tracing::debug!(master = %self.master, %e, "master not reachable");
                    sleep_unless(stop, backoff);
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
            };
            match self.serve(stream, stop)? {
                Ended::Stopped => break,
                Ended::Lost(why) => {
                    tracing::info!(master = %self.master, %why, "session lost: connecting again");
                    backoff = Duration::from_millis(50);
                    sleep_unless(stop, backoff);
                }
            }
        }
        Ok(())
    }

    /// One connection: open, register, serve.
    fn serve(&mut self, mut stream: Stream, stop: &AtomicBool) -> Result<Ended, SubagentError> {
        let (mut session, open) = Session::open(self.timeout, &[], &self.description);
        if let Err(e) = stream.send(&open) {
            return Ok(Ended::Lost(e.to_string()));
        }
        let mut buf: Vec<u8> = Vec::with_capacity(4096);
        let mut chunk = vec![0u8; 65_536];
        let mut idle_since = Instant::now();
        let mut opened = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                let _ = stream.send(&session.close(pdu::reasons::SHUTDOWN));
                return Ok(Ended::Stopped);
            }
            if session.state() == State::Open {
                if !opened {
                    opened = true;
                    self.counts.sessions += 1;
                    tracing::info!(master = %self.master, "session open, subtrees registered");
                }
                while let Ok(bindings) = self.notifications.try_recv() {
                    if let Err(e) = stream.send(&session.notify(&bindings)) {
                        return Ok(Ended::Lost(e.to_string()));
                    }
                    self.counts.notifications += 1;
                }
                if idle_since.elapsed() >= PING_EVERY {
                    idle_since = Instant::now();
                    if let Err(e) = stream.send(&session.ping()) {
                        return Ok(Ended::Lost(e.to_string()));
                    }
                }
            }
            let n = match stream.read(&mut chunk) {
                Ok(0) => return Ok(Ended::Lost("the master closed the connection".into())),
                Ok(n) => n,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    continue
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Ok(Ended::Lost(e.to_string())),
            };
            idle_since = Instant::now();
            buf.extend_from_slice(&chunk[..n]);
            loop {
                let pdu = match take_pdu(&mut buf) {
                    Ok(Some(pdu)) => pdu,
                    Ok(None) => break,
                    // Not AgentX: said, the session closed, and a new one opened.
                    Err(e) => {
                        let _ = stream.send(&session.close(pdu::reasons::PARSE_ERROR));
                        return Ok(Ended::Lost(e.to_string()));
                    }
                };
                let out = match session.control(&pdu, || self.handlers.subtrees()) {
                    Ok(Control::Send(out)) => out,
                    Ok(Control::Request) => self.request(&session, pdu),
                    Err(SessionError::Closed(reason)) => {
                        return Ok(Ended::Lost(format!(
                            "closed by the master (reason {reason})"
                        )))
                    }
                    Err(e) => return Err(e.into()),
                };
                for bytes in out {
                    if let Err(e) = stream.send(&bytes) {
                        return Ok(Ended::Lost(e.to_string()));
                    }
                }
            }
        }
    }
}

impl Subagent {
    /// The answer to a request of the master: the handlers', or genErr when they take
    /// longer than the session's timeout.
    fn request(&mut self, session: &Session, pdu: Pdu) -> Vec<Vec<u8>> {
        let timeout = Duration::from_secs(u64::from(self.timeout.max(1)));
        let header = pdu.header;
        match self.handlers.answer(pdu, session.uptime(), timeout) {
            Ok(out) => {
                self.counts.answered += u64::from(out.is_some());
                out.into_iter().collect()
            }
            Err(Late) => {
                self.counts.timed_out += 1;
                tracing::warn!(
                    ?timeout,
                    "a handler took longer than the timeout: answered genErr"
                );
                vec![timed_out(session.uptime(), header)]
            }
        }
    }
}

/// The first whole PDU of `buf`, taken out of it.
fn take_pdu(buf: &mut Vec<u8>) -> Result<Option<Pdu>, PduError> {
    if buf.len() < HEADER {
        return Ok(None);
    }
    let header = Header::decode(buf)?;
    let end = HEADER + header.length as usize;
    if buf.len() < end {
        return Ok(None);
    }
    let pdu = Pdu::decode(header, &buf[HEADER..end]);
    buf.drain(..end);
    pdu.map(Some)
}

/// Sleeps `d`, in steps, unless `stop` is set.
fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let until = Instant::now() + d;
    while !stop.load(Ordering::Relaxed) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20).min(until - Instant::now()));
    }
}
