//! What a synchronous [`crate::session::Session`] sends its messages over: a UDP socket of its
//! own (the default), or a TCP connection to the agent (RFC 3430, net-snmp's `tcp:`
//! transport), on which each message is one BER SEQUENCE after another, framed by its own
//! length.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::time::Duration;

use crate::read_timeout::ReadTimeout;

/// A session's socket.
#[derive(Debug)]
pub(crate) enum Transport {
    /// Datagrams to and from the agent.
    Udp {
        socket: UdpSocket,
        timeout: ReadTimeout,
        /// The address the socket is connected to, if it is: datagrams to it are sent with
        /// `send`, which takes the route the connection keeps instead of looking it up again.
        connected: Option<SocketAddr>,
    },
    /// A stream of messages to and from the agent.
    Tcp(TcpLink),
}

/// A TCP connection and the octets read from it that do not make a whole message yet.
#[derive(Debug)]
pub(crate) struct TcpLink {
    stream: TcpStream,
    peer: SocketAddr,
    pending: Vec<u8>,
}

impl Transport {
    /// A UDP socket of its own on an ephemeral port of `local`'s family.
    pub(crate) fn udp(local: SocketAddr) -> io::Result<Transport> {
        Ok(Transport::Udp {
            socket: UdpSocket::bind(local)?,
            timeout: ReadTimeout::default(),
            connected: None,
        })
    }

    /// A TCP connection to `peer`, given up after `timeout` (a millisecond at least).
    pub(crate) fn tcp(peer: SocketAddr, timeout: Duration) -> io::Result<Transport> {
        let stream = TcpStream::connect_timeout(&peer, timeout.max(Duration::from_millis(1)))?;
        stream.set_nodelay(true)?;
        Ok(Transport::Tcp(TcpLink {
            stream,
            peer,
            pending: Vec::new(),
        }))
    }

    /// Sends `message` to `target` (over TCP, to the agent connected to): the octets sent.
    pub(crate) fn send_to(&self, message: &[u8], target: SocketAddr) -> io::Result<usize> {
        match self {
            Transport::Udp {
                socket, connected, ..
            } if *connected == Some(target) => socket.send(message),
            Transport::Udp { socket, .. } => socket.send_to(message, target),
            Transport::Tcp(link) => (&link.stream).write_all(message).map(|()| message.len()),
        }
    }

    /// A UDP socket connected to `peer` (a TCP link is already).
    pub(crate) fn connect(&mut self, peer: SocketAddr) -> io::Result<()> {
        match self {
            Transport::Udp {
                socket, connected, ..
            } => {
                socket.connect(peer)?;
                *connected = Some(peer);
                Ok(())
            }
            Transport::Tcp(_) => Ok(()),
        }
    }

    /// This end's address.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        match self {
            Transport::Udp { socket, .. } => socket.local_addr(),
            Transport::Tcp(link) => link.stream.local_addr(),
        }
    }

    /// The next message into `buf` within `wait` (and where it came from); an error of kind
    /// `WouldBlock` or `TimedOut` when none came. Over TCP a message longer than `buf` is an
    /// error (the connection is then of no further use), as an oversized datagram is cut.
    pub(crate) fn recv(
        &mut self,
        buf: &mut [u8],
        wait: Duration,
    ) -> io::Result<(usize, SocketAddr)> {
        match self {
            Transport::Udp {
                socket,
                timeout,
                connected,
            } => {
                timeout.set(socket, Some(wait))?;
                match *connected {
                    // Only the peer's datagrams reach a connected socket.
                    Some(peer) => socket.recv(buf).map(|n| (n, peer)),
                    None => socket.recv_from(buf),
                }
            }
            Transport::Tcp(link) => link.recv(buf, wait).map(|n| (n, link.peer)),
        }
    }
}

/// What an [`crate::session::AsyncSession`] sends its messages over: a tokio UDP socket and,
/// once it is connected, the address it is connected to (sent to with `send`, as
/// [`Transport::Udp`] does).
#[cfg(feature = "tokio")]
#[derive(Debug)]
pub(crate) struct AsyncUdp {
    socket: tokio::net::UdpSocket,
    connected: Option<SocketAddr>,
}

#[cfg(feature = "tokio")]
impl AsyncUdp {
    /// A socket on an ephemeral port of `local`'s family.
    pub(crate) async fn bind(local: SocketAddr) -> io::Result<AsyncUdp> {
        Ok(AsyncUdp {
            socket: tokio::net::UdpSocket::bind(local).await?,
            connected: None,
        })
    }

    /// Sends `message` to `target`: the octets sent.
    pub(crate) async fn send_to(&self, message: &[u8], target: SocketAddr) -> io::Result<usize> {
        if self.connected == Some(target) {
            self.socket.send(message).await
        } else {
            self.socket.send_to(message, target).await
        }
    }

    /// The socket connected to `peer`.
    pub(crate) async fn connect(&mut self, peer: SocketAddr) -> io::Result<()> {
        self.socket.connect(peer).await?;
        self.connected = Some(peer);
        Ok(())
    }

    /// This end's address.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// The next datagram into `buf`, and where it came from.
    pub(crate) async fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        match self.connected {
            // Only the peer's datagrams reach a connected socket.
            Some(peer) => self.socket.recv(buf).await.map(|n| (n, peer)),
            None => self.socket.recv_from(buf).await,
        }
    }
}

impl TcpLink {
    /// Reads until `pending` holds a whole message, then moves it into `buf`.
    fn recv(&mut self, buf: &mut [u8], wait: Duration) -> io::Result<usize> {
        let deadline = std::time::Instant::now() + wait;
        loop {
            if let Some(n) = framed(&self.pending, buf.len())? {
                buf[..n].copy_from_slice(&self.pending[..n]);
                self.pending.drain(..n);
                return Ok(n);
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            self.stream.set_read_timeout(Some(left))?;
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk)? {
                0 => {
                    return Err(io::Error::new(
                        io::ErrorKind::ConnectionAborted,
                        "the agent closed the TCP connection",
                    ))
                }
                n => self.pending.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

/// The length of the whole message at the start of `octets` when they hold all of it, `None`
/// while more must be read. A message that is not a SEQUENCE, has a length no SNMP message
/// has, or is longer than `most` octets is an error: the stream cannot be read on.
fn framed(octets: &[u8], most: usize) -> io::Result<Option<usize>> {
    let bad = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    let (&tag, rest) = match octets.split_first() {
        Some(split) => split,
        None => return Ok(None),
    };
    if tag != 0x30 {
        return Err(bad(format!(
            "TCP stream: a message starts with 0x{tag:02x}, expected a SEQUENCE (0x30)"
        )));
    }
    let Some(&first) = rest.first() else {
        return Ok(None);
    };
    let (header, contents) = match first {
        0..=0x7f => (2, usize::from(first)),
        0x81..=0x84 => {
            let k = usize::from(first & 0x7f);
            let Some(digits) = rest.get(1..=k) else {
                return Ok(None);
            };
            (2 + k, digits.iter().fold(0usize, |n, &d| n << 8 | usize::from(d)))
        }
        _ => {
            return Err(bad(format!(
                "TCP stream: length octet 0x{first:02x}, expected a definite length of up to four octets"
            )))
        }
    };
    let whole = header + contents;
    if whole > most {
        return Err(bad(format!(
            "TCP stream: a message of {whole} octets, over the {most} this session takes"
        )));
    }
    Ok((octets.len() >= whole).then_some(whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_framed_by_their_length() {
        assert_eq!(framed(&[], 100).unwrap(), None);
        assert_eq!(framed(&[0x30], 100).unwrap(), None);
        assert_eq!(framed(&[0x30, 2, 1], 100).unwrap(), None);
        assert_eq!(framed(&[0x30, 2, 1, 2, 0x30], 100).unwrap(), Some(4));
        assert_eq!(framed(&[0x30, 0x81], 100).unwrap(), None);
        assert_eq!(framed(&[0x30, 0x81, 3, 1, 2, 3], 100).unwrap(), Some(6));
        let long = [&[0x30, 0x82, 0x01, 0x00][..], &[0; 256]].concat();
        assert_eq!(framed(&long, 300).unwrap(), Some(260));
        // Not a message, an indefinite length, more than the session takes.
        assert!(framed(&[0x02, 1, 0], 100).is_err());
        assert!(framed(&[0x30, 0x80], 100).is_err());
        assert!(framed(&long, 259).is_err());
    }

    /// Two messages in one read, one message in two: each handed out whole, in order.
    #[test]
    fn a_stream_cut_anywhere_gives_whole_messages() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let peer = listener.local_addr().unwrap();
        let writer = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            s.write_all(&[0x30, 1, 7, 0x30, 2]).unwrap();
            s.flush().unwrap();
            std::thread::sleep(Duration::from_millis(50));
            s.write_all(&[8, 9]).unwrap();
        });
        let mut t = Transport::tcp(peer, Duration::from_secs(2)).unwrap();
        let mut buf = [0u8; 16];
        let wait = Duration::from_secs(2);
        assert_eq!(t.recv(&mut buf, wait).unwrap(), (3, peer));
        assert_eq!(buf[..3], [0x30, 1, 7]);
        assert_eq!(t.recv(&mut buf, wait).unwrap(), (4, peer));
        assert_eq!(buf[..4], [0x30, 2, 8, 9]);
        writer.join().unwrap();
        // Then the agent is gone: said, not waited for.
        let e = t.recv(&mut buf, wait).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionAborted);
    }
}
