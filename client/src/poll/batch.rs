//! Datagrams moved in batches, one system call for many where the platform has one (Linux:
//! `recvmmsg(2)`, `sendmmsg(2)`, through nix), one call each elsewhere. A poller of thousands of
//! agents sends and receives many datagrams at once; per datagram, the system call and the
//! runtime's readiness bookkeeping cost more than the SNMP work.

use std::io;
use std::net::SocketAddr;

use tokio::io::Interest;
use tokio::net::UdpSocket;

/// Datagrams per system call at most.
pub(crate) const BATCH: usize = 32;

/// What a poller's sockets did: system calls and the datagrams they moved (a receive that
/// found nothing after a spurious readiness counts as a call). Datagrams per call show how
/// full the batches were.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SocketStats {
    /// Receive calls (`recvmmsg`, or `recvfrom` where there is none).
    pub receive_calls: u64,
    /// Datagrams received.
    pub received: u64,
    /// Send calls (`sendmmsg`, or `sendto`).
    pub send_calls: u64,
    /// Datagrams sent.
    pub sent: u64,
    /// Datagrams the system refused to send (their requests time out and go again).
    pub refused: u64,
    /// Datagrams received from an address that is neither IPv4 nor IPv6 (no target's), not
    /// handed on.
    pub unaddressed: u64,
}

/// Room for one datagram: the largest UDP payload, so that none is cut short.
const SLOT: usize = 65_536;

/// Receive buffers for [`BATCH`] datagrams and what each slot holds after a receive.
pub(crate) struct Received {
    slots: Box<[u8]>,
    /// (length, sender) of the datagrams in the first slots.
    got: Vec<(usize, SocketAddr)>,
}

impl std::fmt::Debug for Received {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the two megabytes of buffers.
        f.debug_struct("Received")
            .field("datagrams", &self.got.len())
            .finish_non_exhaustive()
    }
}

impl Received {
    pub(crate) fn new() -> Received {
        Received {
            slots: vec![0; BATCH * SLOT].into_boxed_slice(),
            got: Vec::with_capacity(BATCH),
        }
    }

    /// The datagrams of the last receive, with their senders.
    pub(crate) fn datagrams(&self) -> impl Iterator<Item = (SocketAddr, &[u8])> {
        self.got
            .iter()
            .enumerate()
            .map(|(k, &(n, from))| (from, &self.slots[k * SLOT..k * SLOT + n]))
    }

    /// Receives what `socket` has queued, up to [`BATCH`] datagrams, without waiting: `Ok(0)`
    /// when there is nothing (the socket's readiness is then cleared, as tokio requires).
    pub(crate) fn receive(
        &mut self,
        socket: &UdpSocket,
        stats: &mut SocketStats,
    ) -> io::Result<usize> {
        self.got.clear();
        stats.receive_calls += 1;
        match socket.try_io(Interest::READABLE, || receive_many(socket, self)) {
            Ok(unaddressed) => {
                stats.unaddressed += unaddressed;
                stats.received += self.got.len() as u64;
                Ok(self.got.len())
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(0),
            Err(e) => Err(e),
        }
    }
}

/// Fills `into`; returns how many datagrams came from no IPv4 or IPv6 address.
#[cfg(target_os = "linux")]
fn receive_many(socket: &UdpSocket, into: &mut Received) -> io::Result<u64> {
    use std::io::IoSliceMut;
    use std::os::fd::AsRawFd;

    use nix::sys::socket::{recvmmsg, MsgFlags, MultiHeaders, SockaddrStorage};

    let mut headers = MultiHeaders::<SockaddrStorage>::preallocate(BATCH, None);
    let mut slices: Vec<[IoSliceMut<'_>; 1]> = into
        .slots
        .chunks_mut(SLOT)
        .map(|slot| [IoSliceMut::new(slot)])
        .collect();
    let received = recvmmsg(
        socket.as_raw_fd(),
        &mut headers,
        slices.iter_mut(),
        MsgFlags::MSG_DONTWAIT,
        None,
    )
    .map_err(io::Error::from)?;
    let mut unaddressed = 0;
    for m in received {
        // A datagram from an address of no known family cannot be any target's: counted.
        match m.address.as_ref().and_then(socket_addr) {
            Some(from) => into.got.push((m.bytes, from)),
            None => unaddressed += 1,
        }
    }
    Ok(unaddressed)
}

#[cfg(not(target_os = "linux"))]
fn receive_many(socket: &UdpSocket, into: &mut Received) -> io::Result<u64> {
    for slot in into.slots.chunks_mut(SLOT) {
        match socket.try_recv_from(slot) {
            Ok((n, from)) => into.got.push((n, from)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && !into.got.is_empty() => break,
            Err(e) => return Err(e),
        }
    }
    Ok(0)
}

#[cfg(target_os = "linux")]
fn socket_addr(a: &nix::sys::socket::SockaddrStorage) -> Option<SocketAddr> {
    if let Some(v4) = a.as_sockaddr_in() {
        return Some(SocketAddr::V4((*v4).into()));
    }
    a.as_sockaddr_in6().map(|v6| SocketAddr::V6((*v6).into()))
}

/// Datagrams waiting to be sent, copied out of the poller's exchanges.
#[derive(Debug, Default)]
pub(crate) struct Outgoing {
    octets: Vec<u8>,
    /// (destination, end in `octets`) per datagram.
    ends: Vec<(SocketAddr, usize)>,
}

impl Outgoing {
    pub(crate) fn push(&mut self, to: SocketAddr, datagram: &[u8]) {
        self.octets.extend_from_slice(datagram);
        self.ends.push((to, self.octets.len()));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Sends every datagram for `family` (v4 or v6) on `socket`, waiting while its send queue
    /// is full. A datagram the system refuses (an unreachable network, say) is left unsent:
    /// its request times out and is sent again, as a lost one would be.
    pub(crate) async fn send(
        &self,
        socket: &UdpSocket,
        v4: bool,
        stats: &mut SocketStats,
    ) -> io::Result<()> {
        let list: Vec<(SocketAddr, &[u8])> = self
            .datagrams()
            .filter(|(to, _)| to.is_ipv4() == v4)
            .collect();
        let mut next = 0;
        while next < list.len() {
            let end = list.len().min(next + BATCH);
            stats.send_calls += 1;
            match socket.try_io(Interest::WRITABLE, || send_many(socket, &list[next..end])) {
                Ok(sent) => {
                    stats.sent += sent as u64;
                    next += sent.max(1);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => socket.writable().await?,
                // Refused: skip it, send the rest.
                Err(_) => {
                    stats.refused += 1;
                    next += 1;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn clear(&mut self) {
        self.octets.clear();
        self.ends.clear();
    }

    fn datagrams(&self) -> impl Iterator<Item = (SocketAddr, &[u8])> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|&(_, end)| end));
        self.ends
            .iter()
            .zip(starts)
            .map(|(&(to, end), start)| (to, &self.octets[start..end]))
    }
}

/// Sends `list` (one family), returning how many went.
#[cfg(target_os = "linux")]
fn send_many(socket: &UdpSocket, list: &[(SocketAddr, &[u8])]) -> io::Result<usize> {
    use std::io::IoSlice;
    use std::os::fd::AsRawFd;

    use nix::sys::socket::{sendmmsg, ControlMessage, MsgFlags, MultiHeaders, SockaddrStorage};

    let mut headers = MultiHeaders::<SockaddrStorage>::preallocate(list.len(), None);
    let slices: Vec<[IoSlice<'_>; 1]> = list.iter().map(|(_, d)| [IoSlice::new(d)]).collect();
    let addrs: Vec<Option<SockaddrStorage>> = list
        .iter()
        .map(|(to, _)| Some(SockaddrStorage::from(*to)))
        .collect();
    let none: [ControlMessage<'_>; 0] = [];
    let sent = sendmmsg(
        socket.as_raw_fd(),
        &mut headers,
        slices.iter(),
        addrs,
        none,
        MsgFlags::MSG_DONTWAIT,
    )
    .map_err(io::Error::from)?;
    Ok(sent.count())
}

#[cfg(not(target_os = "linux"))]
fn send_many(socket: &UdpSocket, list: &[(SocketAddr, &[u8])]) -> io::Result<usize> {
    let mut sent = 0;
    for (to, d) in list {
        match socket.try_send_to(d, *to) {
            Ok(_) => sent += 1,
            Err(e) if sent > 0 && e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) => return Err(e),
        }
    }
    Ok(sent)
}
