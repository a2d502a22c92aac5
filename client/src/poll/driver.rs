//! The poller on tokio UDP sockets: one per address family the targets use, bound to an
//! ephemeral port; datagrams sent as the core hands them out, received until the round is
//! done, the core told the time at its deadlines.

use std::io;
use std::net::SocketAddr;
use std::time::Instant;

use tokio::net::UdpSocket;

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
    buf: Box<[u8]>,
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
            buf: vec![0; 65_535].into_boxed_slice(),
        })
    }

    /// The core (the targets' exchanges and their statistics).
    pub fn core(&self) -> &Poller {
        &self.core
    }

    /// One round of `job`: every target's outcome, in the order they came.
    pub async fn round(&mut self, job: Job) -> io::Result<Vec<Outcome>> {
        self.core.start_round(job, Instant::now());
        let mut out = Vec::new();
        loop {
            while let Some((to, datagram)) = self.core.poll_transmit(Instant::now()) {
                let socket = match to {
                    SocketAddr::V4(_) => self.v4.as_ref(),
                    SocketAddr::V6(_) => self.v6.as_ref(),
                };
                if let Some(s) = socket {
                    // A full send buffer: the request times out and is sent again.
                    let _ = s.send_to(datagram, to).await;
                }
            }
            out.extend(std::iter::from_fn(|| self.core.poll_result()));
            if self.core.round_done() {
                return Ok(out);
            }
            let Some(deadline) = self.core.poll_deadline() else {
                // Nothing in flight and not done cannot happen; not a loop if it did.
                return Err(io::Error::other("the poller waits for nothing"));
            };
            let received = tokio::time::timeout_at(deadline.into(), self.recv()).await;
            match received {
                Ok(Ok((n, from))) => {
                    self.core
                        .handle_datagram(from, &self.buf[..n], Instant::now())
                }
                Ok(Err(e)) => return Err(e),
                Err(_) => self.core.handle_timeout(Instant::now()),
            }
        }
    }

    /// The next datagram on either socket.
    async fn recv(&mut self) -> io::Result<(usize, SocketAddr)> {
        let AsyncPoller { v4, v6, buf, .. } = self;
        match (v4.as_ref(), v6.as_ref()) {
            (Some(a), Some(b)) => loop {
                // Whichever is readable first (a readiness can be spurious: then wait again).
                tokio::select! {
                    r = a.readable() => r?,
                    r = b.readable() => r?,
                }
                for s in [a, b] {
                    match s.try_recv_from(buf) {
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                        other => return other,
                    }
                }
            },
            (Some(s), None) | (None, Some(s)) => s.recv_from(buf).await,
            (None, None) => std::future::pending().await,
        }
    }
}
