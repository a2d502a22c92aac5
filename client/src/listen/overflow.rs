//! Receiving a datagram together with the number the kernel dropped before it because the
//! socket's receive queue was full. Linux says so in a control message on each datagram once
//! `SO_RXQ_OVFL` is set (a counter since it was set); elsewhere nothing is known and none
//! are counted.

use std::io;
use std::net::SocketAddr;
#[cfg(not(target_os = "linux"))]
use std::net::UdpSocket;

/// What the kernel has said of a socket's dropped datagrams.
#[derive(Debug)]
pub(crate) struct Overflow {
    /// The kernel's counter as last seen.
    seen: u32,
    /// The control-message buffer, reused.
    #[cfg(target_os = "linux")]
    cmsg: Vec<u8>,
}

#[cfg(target_os = "linux")]
impl Overflow {
    /// Asks the kernel to count drops on `socket` (best effort: when it cannot, none are).
    pub(crate) fn enable(socket: &impl std::os::fd::AsFd) -> Overflow {
        use nix::sys::socket::{setsockopt, sockopt};
        if let Err(e) = setsockopt(socket, sockopt::RxqOvfl, &1) {
            tracing::debug!(error = %e, "SO_RXQ_OVFL not set: kernel drops go uncounted");
        }
        Overflow {
            seen: 0,
            cmsg: nix::cmsg_space!(u32),
        }
    }

    /// One datagram into `buf` from `socket`: its length, its source, and how many the kernel
    /// dropped since the last one.
    pub(crate) fn recv(
        &mut self,
        socket: &impl std::os::fd::AsRawFd,
        buf: &mut [u8],
    ) -> io::Result<(usize, SocketAddr, u64)> {
        use nix::sys::socket::{recvmsg, ControlMessageOwned, MsgFlags, SockaddrStorage};
        let mut iov = [io::IoSliceMut::new(buf)];
        let msg = recvmsg::<SockaddrStorage>(
            socket.as_raw_fd(),
            &mut iov,
            Some(&mut self.cmsg),
            MsgFlags::empty(),
        )
        .map_err(io::Error::from)?;
        let mut dropped = 0;
        if let Ok(cmsgs) = msg.cmsgs() {
            for c in cmsgs {
                if let ControlMessageOwned::RxqOvfl(counter) = c {
                    dropped = u64::from(counter.wrapping_sub(self.seen));
                    self.seen = counter;
                }
            }
        }
        let source = msg
            .address
            .and_then(|a| {
                a.as_sockaddr_in()
                    .map(|v4| SocketAddr::from(*v4))
                    .or_else(|| a.as_sockaddr_in6().map(|v6| SocketAddr::from(*v6)))
            })
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no IP source address"))?;
        Ok((msg.bytes, source, dropped))
    }
}

#[cfg(not(target_os = "linux"))]
impl Overflow {
    /// Nothing to ask of this platform's kernel.
    pub(crate) fn enable<S>(_socket: &S) -> Overflow {
        Overflow { seen: 0 }
    }

    /// One datagram into `buf` from `socket` (no drop count here).
    pub(crate) fn recv(
        &mut self,
        socket: &impl AsStdSocket,
        buf: &mut [u8],
    ) -> io::Result<(usize, SocketAddr, u64)> {
        let (n, from) = socket.recv_from_std(buf)?;
        Ok((n, from, 0))
    }
}

/// A socket that receives as std's does (the non-Linux path).
#[cfg(not(target_os = "linux"))]
pub(crate) trait AsStdSocket {
    fn recv_from_std(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)>;
}

#[cfg(not(target_os = "linux"))]
impl AsStdSocket for UdpSocket {
    fn recv_from_std(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.recv_from(buf)
    }
}

#[cfg(all(not(target_os = "linux"), feature = "tokio"))]
impl AsStdSocket for tokio::net::UdpSocket {
    fn recv_from_std(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.try_recv_from(buf)
    }
}
