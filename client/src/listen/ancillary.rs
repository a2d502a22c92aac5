//! Receiving a datagram together with what the kernel says of it in control messages: how many
//! it dropped before it because the socket's receive queue was full (`SO_RXQ_OVFL`: a counter
//! since it was set), and the address it was sent to (`IP_PKTINFO`, `IPV6_PKTINFO`: on a
//! socket bound to every interface, which one). Linux says both; elsewhere neither is known:
//! no drops are counted and the destination is not given.

use std::io;
#[cfg(not(target_os = "linux"))]
use std::net::UdpSocket;
use std::net::{IpAddr, SocketAddr};

/// A datagram read into the caller's buffer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arrived {
    /// Its length.
    pub(crate) len: usize,
    /// Its source.
    pub(crate) from: SocketAddr,
    /// The address it was sent to, when the kernel says.
    pub(crate) to: Option<IpAddr>,
    /// Datagrams the kernel dropped since the last one read.
    pub(crate) dropped: u64,
}

/// What the kernel has said of a socket's dropped datagrams.
#[derive(Debug)]
pub(crate) struct Ancillary {
    /// The kernel's counter as last seen.
    seen: u32,
    /// The control-message buffer, reused.
    #[cfg(target_os = "linux")]
    cmsg: Vec<u8>,
}

#[cfg(target_os = "linux")]
impl Ancillary {
    /// Asks the kernel to count drops on `socket` and to say each datagram's destination
    /// (best effort: what it cannot do is left unknown).
    pub(crate) fn enable(socket: &impl std::os::fd::AsFd) -> Ancillary {
        use nix::sys::socket::{setsockopt, sockopt};
        if let Err(e) = setsockopt(socket, sockopt::RxqOvfl, &1) {
            tracing::debug!(error = %e, "SO_RXQ_OVFL not set: kernel drops go uncounted");
        }
        // One of the two applies, by the socket's family.
        let v4 = setsockopt(socket, sockopt::Ipv4PacketInfo, &true);
        let v6 = setsockopt(socket, sockopt::Ipv6RecvPacketInfo, &true);
        if let (Err(e), Err(_)) = (v4, v6) {
            tracing::debug!(error = %e, "IP_PKTINFO not set: destinations unknown");
        }
        Ancillary {
            seen: 0,
            cmsg: nix::cmsg_space!(u32, nix::libc::in6_pktinfo),
        }
    }

    /// One datagram into `buf` from `socket`, with what the kernel said of it.
    pub(crate) fn recv(
        &mut self,
        socket: &impl std::os::fd::AsRawFd,
        buf: &mut [u8],
    ) -> io::Result<Arrived> {
        use nix::sys::socket::{recvmsg, ControlMessageOwned, MsgFlags, SockaddrStorage};
        let mut iov = [io::IoSliceMut::new(buf)];
        let msg = recvmsg::<SockaddrStorage>(
            socket.as_raw_fd(),
            &mut iov,
            Some(&mut self.cmsg),
            MsgFlags::empty(),
        )
        .map_err(io::Error::from)?;
        let (mut dropped, mut to) = (0, None);
        if let Ok(cmsgs) = msg.cmsgs() {
            for c in cmsgs {
                match c {
                    ControlMessageOwned::RxqOvfl(counter) => {
                        dropped = u64::from(counter.wrapping_sub(self.seen));
                        self.seen = counter;
                    }
                    ControlMessageOwned::Ipv4PacketInfo(info) => {
                        let octets = info.ipi_addr.s_addr.to_ne_bytes();
                        to = Some(IpAddr::from(octets));
                    }
                    ControlMessageOwned::Ipv6PacketInfo(info) => {
                        to = Some(IpAddr::from(info.ipi6_addr.s6_addr));
                    }
                    _ => {}
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
        Ok(Arrived {
            len: msg.bytes,
            from: source,
            to,
            dropped,
        })
    }
}

#[cfg(not(target_os = "linux"))]
impl Ancillary {
    /// Nothing to ask of this platform's kernel.
    pub(crate) fn enable<S>(_socket: &S) -> Ancillary {
        Ancillary { seen: 0 }
    }

    /// One datagram into `buf` from `socket` (no drop count or destination here).
    pub(crate) fn recv(
        &mut self,
        socket: &impl AsStdSocket,
        buf: &mut [u8],
    ) -> io::Result<Arrived> {
        let (len, from) = socket.recv_from_std(buf)?;
        Ok(Arrived {
            len,
            from,
            to: None,
            dropped: 0,
        })
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
