//! The listener on a UDP socket: [`Receiver`] with std's blocking socket, [`AsyncReceiver`]
//! with tokio's. Both are thin shells over one step ([`take`]): the datagram judged by the
//! sans-IO [`Listener`], its answer sent back, a notification handed over. Memory is bounded
//! (one 64 KiB buffer, no queue of our own: under a flood the kernel's queue overflows, and
//! what it drops is counted as [`Dropped::Overflow`](super::Dropped::Overflow)).

use std::io;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::time::Instant;

use super::ancillary::{Ancillary, Arrived};
use super::{Handled, Listener, Notification};
use crate::read_timeout::ReadTimeout;

/// The largest UDP payload.
const DATAGRAM: usize = 65_535;

/// One datagram (`bytes`, as `arrived` says) through `listener`: the datagram to answer it
/// with, if any, and the notification it carried, if any, with the address it was sent to
/// (from the kernel, or the socket's own address `local` when bound to one).
fn take(
    listener: &mut Listener,
    arrived: Arrived,
    bytes: &[u8],
    local: Option<SocketAddr>,
) -> (Option<Vec<u8>>, Option<Notification>) {
    listener.count_overflow(arrived.dropped);
    match listener.handle(arrived.from, bytes) {
        Handled::Notification(mut n, reply) => {
            n.destination = match (arrived.to, local) {
                (Some(ip), Some(l)) => Some(SocketAddr::new(ip, l.port())),
                (None, Some(l)) if !l.ip().is_unspecified() => Some(l),
                _ => None,
            };
            (reply, Some(*n))
        }
        Handled::Discovery(report) => (Some(report), None),
        Handled::Dropped(_) => (None, None),
    }
}

/// An answer that could not be sent: the sender retries or gives up; the receiver goes on.
fn unsent(to: SocketAddr, e: &io::Error) {
    tracing::debug!(%to, error = %e, "answer not sent");
}

/// A [`Listener`] on a std UDP socket.
///
/// ```no_run
/// use snmp_client::listen::{Listener, Receiver};
///
/// # fn main() -> std::io::Result<()> {
/// // Traps and informs of community `public` (no SNMPv3 users), on port 162.
/// let listener = Listener::new(vec![b"public".to_vec()], Vec::new());
/// let mut receiver = Receiver::bind("0.0.0.0:162", listener)?;
/// loop {
///     let n = receiver.recv()?; // an inform is answered before it is handed over
///     println!("{n:?}");
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct Receiver {
    socket: UdpSocket,
    listener: Listener,
    buf: Box<[u8]>,
    ancillary: Ancillary,
    /// The socket's own address.
    local: Option<SocketAddr>,
    timeout: ReadTimeout,
}

impl Receiver {
    /// `listener` on a socket bound to `address` (e.g. `0.0.0.0:162`, `[::]:162`).
    pub fn bind(address: impl ToSocketAddrs, listener: Listener) -> io::Result<Receiver> {
        Ok(Receiver::from_socket(UdpSocket::bind(address)?, listener))
    }

    /// `listener` on `socket`, which must be blocking.
    pub fn from_socket(socket: UdpSocket, listener: Listener) -> Receiver {
        let ancillary = Ancillary::enable(&socket);
        let local = socket.local_addr().ok();
        Receiver {
            socket,
            listener,
            buf: vec![0; DATAGRAM].into_boxed_slice(),
            ancillary,
            local,
            timeout: ReadTimeout::default(),
        }
    }

    /// The address the socket is bound to.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// The listener, with its counters.
    pub fn listener(&self) -> &Listener {
        &self.listener
    }

    /// The next notification (informs answered, discovery answered, the rest dropped and
    /// counted on the way).
    pub fn recv(&mut self) -> io::Result<Notification> {
        loop {
            if let Some(n) = self.recv_until(None)? {
                return Ok(n);
            }
        }
    }

    /// The next notification, or `None` once `deadline` has passed without one.
    pub fn recv_until(&mut self, deadline: Option<Instant>) -> io::Result<Option<Notification>> {
        loop {
            let wait = match deadline {
                Some(d) => match d.checked_duration_since(Instant::now()) {
                    Some(w) if !w.is_zero() => Some(w),
                    _ => return Ok(None),
                },
                None => None,
            };
            self.timeout.set(&self.socket, wait)?;
            let arrived = match self.ancillary.recv(&self.socket, &mut self.buf) {
                Ok(r) => r,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    continue
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let bytes = &self.buf[..arrived.len];
            let (reply, notification) = take(&mut self.listener, arrived, bytes, self.local);
            let from = arrived.from;
            if let Some(reply) = reply {
                if let Err(e) = self.socket.send_to(&reply, from) {
                    unsent(from, &e);
                }
            }
            if notification.is_some() {
                return Ok(notification);
            }
        }
    }
}

/// A [`Listener`] on a tokio UDP socket.
#[cfg(feature = "tokio")]
#[derive(Debug)]
pub struct AsyncReceiver {
    socket: tokio::net::UdpSocket,
    listener: Listener,
    buf: Box<[u8]>,
    ancillary: Ancillary,
    /// The socket's own address.
    local: Option<SocketAddr>,
}

#[cfg(feature = "tokio")]
impl AsyncReceiver {
    /// `listener` on a socket bound to `address`.
    pub async fn bind(
        address: impl tokio::net::ToSocketAddrs,
        listener: Listener,
    ) -> io::Result<AsyncReceiver> {
        let socket = tokio::net::UdpSocket::bind(address).await?;
        Ok(AsyncReceiver::from_socket(socket, listener))
    }

    /// `listener` on `socket`.
    pub fn from_socket(socket: tokio::net::UdpSocket, listener: Listener) -> AsyncReceiver {
        let ancillary = Ancillary::enable(&socket);
        let local = socket.local_addr().ok();
        AsyncReceiver {
            socket,
            listener,
            buf: vec![0; DATAGRAM].into_boxed_slice(),
            ancillary,
            local,
        }
    }

    /// The address the socket is bound to.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// The listener, with its counters.
    pub fn listener(&self) -> &Listener {
        &self.listener
    }

    /// The next notification (informs answered, discovery answered, the rest dropped and
    /// counted on the way). Cancel-safe: nothing is awaited once a datagram is read.
    pub async fn recv(&mut self) -> io::Result<Notification> {
        loop {
            let AsyncReceiver {
                socket,
                ancillary,
                buf,
                ..
            } = self;
            let arrived = socket
                .async_io(tokio::io::Interest::READABLE, || {
                    ancillary.recv(&*socket, buf)
                })
                .await?;
            let bytes = &self.buf[..arrived.len];
            let (reply, notification) = take(&mut self.listener, arrived, bytes, self.local);
            let from = arrived.from;
            // Sent without waiting (a UDP send does not block but on a full send buffer, and
            // then the sender retries), so nothing taken is lost to a cancelled future.
            if let Some(reply) = reply {
                if let Err(e) = self.socket.try_send_to(&reply, from) {
                    unsent(from, &e);
                }
            }
            if let Some(n) = notification {
                return Ok(n);
            }
        }
    }
}
