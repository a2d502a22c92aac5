//! A look at the datagrams a session sends and receives, as they cross its socket: what
//! net-snmp's tools print under `-d`. Set with [`crate::Session::set_wire_tap`] (or the
//! async session's); without one, nothing is done but a check per datagram.

use std::net::SocketAddr;

/// Which way a datagram went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Sent by the session.
    Sent,
    /// Received by the session (from any address: the core judges it afterwards).
    Received,
}

/// A datagram as it crossed the socket.
#[derive(Debug, Clone, Copy)]
pub struct Wire<'a> {
    /// Which way it went.
    pub direction: Direction,
    /// The other end: where it was sent, or where it came from.
    pub peer: SocketAddr,
    /// The session's socket address.
    pub local: Option<SocketAddr>,
    /// The datagram.
    pub datagram: &'a [u8],
}

/// What a session calls with each datagram.
pub type WireTap = Box<dyn FnMut(&Wire<'_>) + Send>;

/// Calls `tap`, when there is one, with the datagram.
pub(crate) fn tapped(
    tap: &mut Option<WireTap>,
    direction: Direction,
    peer: SocketAddr,
    local: impl FnOnce() -> Option<SocketAddr>,
    datagram: &[u8],
) {
    if let Some(tap) = tap {
        tap(&Wire {
            direction,
            peer,
            local: local(),
            datagram,
        });
    }
}
