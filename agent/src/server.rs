//! The standalone agent: a [`Responder`] over the registered handlers, on a UDP socket.

use std::io;
use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use snmp_client::respond::{Responder, Served as Counts};

use crate::access::Access;
use crate::registry::Registry;
use crate::served::Served;

/// An agent answering SNMPv1, v2c and v3/USM requests from its handlers.
#[derive(Debug)]
pub struct Agent {
    responder: Responder<Served>,
}

impl Agent {
    /// An agent serving `registry` to whom `access` names, as the SNMP engine `engine_id`
    /// (5 to 32 octets, RFC 3411) started for the `boots`th time.
    pub fn new(registry: Registry, access: Access, engine_id: &[u8], boots: u32) -> Agent {
        let users = access.usm_users();
        let served = Served { registry, access };
        Agent {
            responder: Responder::serving(served, users, engine_id, boots, Instant::now()),
        }
    }

    /// The answer to the datagram `bytes`, received at `now`, if it gets one.
    pub fn handle(&mut self, bytes: &[u8], now: Instant) -> Option<Vec<u8>> {
        self.responder.handle(bytes, now)
    }

    /// What it has answered and dropped so far.
    pub fn counts(&self) -> Counts {
        self.responder.served()
    }

    /// The handlers, to register more.
    pub fn registry(&mut self) -> &mut Registry {
        &mut self.responder.backend().registry
    }

    /// Answers the requests arriving on `socket` until `stop` is set (looked at least every
    /// 200 ms); an error of the socket ends it.
    pub fn serve(&mut self, socket: &UdpSocket, stop: &AtomicBool) -> io::Result<()> {
        socket.set_read_timeout(Some(Duration::from_millis(200)))?;
        let mut buf = vec![0u8; 65_535];
        while !stop.load(Ordering::Relaxed) {
            let (n, from) = match socket.recv_from(&mut buf) {
                Ok(got) => got,
                // A signal, or the read timeout that lets `stop` be looked at.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock
                            | io::ErrorKind::TimedOut
                            | io::ErrorKind::Interrupted
                    ) =>
                {
                    continue
                }
                // A port unreachable of an earlier answer, reported on this socket.
                Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => continue,
                Err(e) => return Err(e),
            };
            let span = tracing::debug_span!("request", %from, octets = n);
            let _enter = span.enter();
            if let Some(answer) = self.responder.handle(&buf[..n], Instant::now()) {
                if let Err(e) = socket.send_to(&answer, from) {
                    tracing::debug!(%e, "answer not sent");
                }
            }
        }
        Ok(())
    }
}
