//! The poller on tokio UDP sockets: one per address family the targets use, bound to an
//! ephemeral port; the datagrams the core hands out sent together, what arrived received
//! together ([`super::batch`]: `sendmmsg`/`recvmmsg` on Linux), until the round is done, the
//! core told the time at its deadlines.

use std::io;
use std::time::{Duration, Instant};

use tokio::net::UdpSocket;

use super::batch::{Outgoing, Received, SocketStats};
use super::{Job, Outcome, Poller, Target};
use crate::config::Options;

/// The receive queue asked for: answers to many requests in flight arrive together.
const RECEIVE_QUEUE: usize = 4 << 20;

/// `socket` with a receive queue of [`RECEIVE_QUEUE`] octets where the system allows it (on
/// Linux up to `net.core.rmem_max`; otherwise as it is).
fn with_room(socket: UdpSocket) -> UdpSocket {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::socket::{setsockopt, sockopt};
        if let Err(e) = setsockopt(&socket, sockopt::RcvBuf, &RECEIVE_QUEUE) {
            tracing::debug!(error = %e, "receive queue left as it is");
        }
    }
    socket
}

/// A [`Poller`] with its sockets.
#[derive(Debug)]
pub struct AsyncPoller {
    core: Poller,
    v4: Option<UdpSocket>,
    v6: Option<UdpSocket>,
    received: Received,
    outgoing: Outgoing,
    sockets: SocketStats,
}

impl AsyncPoller {
    /// A poller of `targets` (see [`Poller::new`]) with sockets for the families they use.
    pub async fn new(
        targets: Vec<Target>,
        options: Options,
        max_in_flight: usize,
    ) -> io::Result<AsyncPoller> {
        let v4 = match targets.iter().any(|t| t.addr.is_ipv4()) {
            true => Some(with_room(UdpSocket::bind("0.0.0.0:0").await?)),
            false => None,
        };
        let v6 = match targets.iter().any(|t| t.addr.is_ipv6()) {
            true => Some(with_room(UdpSocket::bind("[::]:0").await?)),
            false => None,
        };
        Ok(AsyncPoller {
            core: Poller::new(targets, options, max_in_flight),
            v4,
            v6,
            received: Received::new(),
            outgoing: Outgoing::default(),
            sockets: SocketStats::default(),
        })
    }

    /// The core (the targets' exchanges and their statistics).
    pub fn core(&self) -> &Poller {
        &self.core
    }

    /// What the sockets did so far: system calls and datagrams.
    pub fn socket_stats(&self) -> SocketStats {
        self.sockets
    }

    /// One round of `job`: every target's outcome, in the order they came.
    pub async fn round(&mut self, job: Job) -> io::Result<Vec<Outcome>> {
        self.core.start_round(job, Instant::now());
        let mut out = Vec::new();
        loop {
            self.send().await?;
            out.extend(std::iter::from_fn(|| self.core.poll_result()));
            if self.core.round_done() {
                return Ok(out);
            }
            let Some(deadline) = self.core.poll_deadline() else {
                // Nothing in flight and not done cannot happen; not a loop if it did.
                return Err(io::Error::other("the poller waits for nothing"));
            };
            match tokio::time::timeout_at(deadline.into(), self.receive()).await {
                Ok(received) => received?,
                Err(_) => self.core.handle_timeout(Instant::now()),
            }
        }
    }

    /// Rounds of `job` every `interval` (at least a millisecond), the first due now: call
    /// [`Rounds::next`] for each. A round that runs long delays the next: a due time passed
    /// by less than an interval is run at once (late: see [`Round::started`]), those passed
    /// by more are missed, counted in the next [`Round`], never run in a burst to catch up.
    pub fn every(&mut self, job: Job, interval: Duration) -> Rounds<'_> {
        Rounds {
            poller: self,
            job,
            interval: interval.max(Duration::from_millis(1)),
            due: Instant::now(),
            number: 0,
        }
    }

    /// Sends every datagram the core has for now, a batch per system call.
    async fn send(&mut self) -> io::Result<()> {
        let now = Instant::now();
        while let Some((to, datagram)) = self.core.poll_transmit(now) {
            self.outgoing.push(to, datagram);
        }
        if self.outgoing.is_empty() {
            return Ok(());
        }
        for (socket, v4) in [(&self.v4, true), (&self.v6, false)] {
            if let Some(s) = socket {
                self.outgoing.send(s, v4, &mut self.sockets).await?;
            }
        }
        self.outgoing.clear();
        Ok(())
    }

    /// Waits until a socket has datagrams, and hands all it has queued (a batch) to the core.
    async fn receive(&mut self) -> io::Result<()> {
        let AsyncPoller {
            v4,
            v6,
            received,
            core,
            sockets,
            ..
        } = self;
        loop {
            let socket = match (v4.as_ref(), v6.as_ref()) {
                (Some(a), Some(b)) => {
                    // Whichever is readable first.
                    tokio::select! {
                        r = a.readable() => r.map(|()| a)?,
                        r = b.readable() => r.map(|()| b)?,
                    }
                }
                (Some(s), None) | (None, Some(s)) => {
                    s.readable().await?;
                    s
                }
                (None, None) => std::future::pending().await,
            };
            // A readiness can be spurious: then wait again.
            if received.receive(socket, sockets)? > 0 {
                let now = Instant::now();
                for (from, datagram) in received.datagrams() {
                    core.handle_datagram(from, datagram, now);
                }
                return Ok(());
            }
        }
    }
}

/// A schedule of rounds of one job ([`AsyncPoller::every`]).
#[derive(Debug)]
pub struct Rounds<'p> {
    poller: &'p mut AsyncPoller,
    job: Job,
    interval: Duration,
    due: Instant,
    number: u64,
}

/// One round of a schedule.
#[derive(Debug)]
pub struct Round {
    /// Its place in the schedule, from 0, missed rounds counted: it was due at the first
    /// round's due time plus `number` intervals.
    pub number: u64,
    /// When it was due.
    pub due: Instant,
    /// When it started (at or after `due`).
    pub started: Instant,
    /// Rounds passed over just before this one, their due times gone while the previous
    /// round ran.
    pub missed: u64,
    /// Every target's outcome.
    pub outcomes: Vec<Outcome>,
}

impl Rounds<'_> {
    /// Waits until the next round is due, runs it and returns it; a socket's error ends
    /// the schedule's round with that error (the next call starts the following one).
    pub async fn next(&mut self) -> io::Result<Round> {
        let missed = self.skip_past();
        tokio::time::sleep_until(self.due.into()).await;
        let (number, due, started) = (self.number, self.due, Instant::now());
        self.number += 1;
        self.due += self.interval;
        let outcomes = self.poller.round(self.job.clone()).await?;
        Ok(Round {
            number,
            due,
            started,
            missed,
            outcomes,
        })
    }

    /// Moves past the due times already gone by a whole interval or more; how many.
    fn skip_past(&mut self) -> u64 {
        let late = Instant::now().saturating_duration_since(self.due);
        let missed = (late.as_nanos() / self.interval.as_nanos()) as u64;
        self.number += missed;
        // A schedule missing 2^32 rounds has no next due time worth computing exactly.
        self.due += self.interval * u32::try_from(missed).unwrap_or(u32::MAX);
        missed
    }
}
