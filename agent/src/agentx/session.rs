//! A subagent's side of an AgentX session, sans IO: the PDUs it opens the session and
//! registers its subtrees with, and its answer to each PDU the master sends (RFC 2741 7.2),
//! from a [`Registry`].

use snmp_ber::OidBuf;
use snmp_client::Value;
use snmp_mib::ErrorStatus;

use super::pdu::{errors, Header, Kind, Payload, Pdu, Range, Writer};
use crate::registry::Registry;

/// The most bindings one GetBulk answer carries.
const BULK_BINDINGS: usize = 2_000;

/// What the session is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Open sent, waiting for its Response.
    Opening,
    /// Registers sent, waiting for `n` more Responses.
    Registering(usize),
    /// Serving.
    Open,
    /// Closed by either side.
    Closed,
}

/// Why a session could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The master refused the Open.
    #[error("the master refused the session (res.error {0})")]
    OpenRefused(u16),
    /// The master refused a registration.
    #[error("the master refused the registration of {subtree:?} (res.error {error}{})", if *error == errors::DUPLICATE_REGISTRATION { ": duplicateRegistration, another subagent has it" } else { "" })]
    RegisterRefused {
        /// The subtree.
        subtree: Vec<u32>,
        /// res.error.
        error: u16,
    },
    /// The master closed the session.
    #[error("the master closed the session (reason {0})")]
    Closed(u8),
}

/// A subagent's session.
#[derive(Debug)]
pub struct Session {
    id: u32,
    packet: u32,
    state: State,
    /// The subtrees registered, in the order their Registers went (their Responses come
    /// back in order).
    subtrees: Vec<Vec<u32>>,
    /// res.sysUpTime of the master's last Response.
    uptime: u32,
}

impl Session {
    /// A session to open: the Open-PDU to send first, with the `timeout` (seconds) the master
    /// waits for this subagent's answers, its `id` OID and `description`.
    pub fn open(timeout: u8, id: &[u32], description: &str) -> (Session, Vec<u8>) {
        let mut w = Writer::new(Kind::Open, 0, 0, 0, 1);
        w.raw(&[timeout, 0, 0, 0])
            .oid(id, false)
            .octets(description.as_bytes());
        let session = Session {
            id: 0,
            packet: 1,
            state: State::Opening,
            subtrees: Vec::new(),
            uptime: 0,
        };
        (session, w.finish())
    }

    /// What it is at.
    pub fn state(&self) -> State {
        self.state
    }

    /// The master's sysUpTime as its last Response said (hundredths of a second).
    pub fn uptime(&self) -> u32 {
        self.uptime
    }

    fn next_packet(&mut self) -> u32 {
        self.packet = self.packet.wrapping_add(1);
        self.packet
    }

    /// The Register-PDUs of every subtree of `subtrees` (priority 127, the session's
    /// timeout).
    fn registers(&mut self, subtrees: Vec<Vec<u32>>) -> Vec<Vec<u8>> {
        self.subtrees = subtrees;
        self.state = State::Registering(self.subtrees.len());
        let subtrees = self.subtrees.clone();
        subtrees
            .iter()
            .map(|s| {
                let packet = self.next_packet();
                let mut w = Writer::new(Kind::Register, 0, self.id, 0, packet);
                w.raw(&[0, 127, 0, 0]).oid(s, false);
                w.finish()
            })
            .collect()
    }

    /// A Notify-PDU of the bindings (snmpTrapOID.0 first; sysUpTime.0 before it if given).
    pub fn notify(&mut self, bindings: &[(OidBuf, Value)]) -> Vec<u8> {
        let packet = self.next_packet();
        let mut w = Writer::new(Kind::Notify, 0, self.id, 0, packet);
        for (name, value) in bindings {
            w.binding(name, value);
        }
        w.finish()
    }

    /// A Ping-PDU (the master answers it: the session is alive).
    pub fn ping(&mut self) -> Vec<u8> {
        let packet = self.next_packet();
        Writer::new(Kind::Ping, 0, self.id, 0, packet).finish()
    }

    /// A Close-PDU for `reason`.
    pub fn close(&mut self, reason: u8) -> Vec<u8> {
        self.state = State::Closed;
        let packet = self.next_packet();
        let mut w = Writer::new(Kind::Close, 0, self.id, 0, packet);
        w.raw(&[reason, 0, 0, 0]);
        w.finish()
    }

    /// Handles one PDU from the master: the PDUs to send back (Registers after the Open's
    /// Response, the answer to a request; none to a CleanupSet or a Response), or why the
    /// session cannot go on.
    pub fn handle(
        &mut self,
        pdu: &Pdu,
        registry: &mut Registry,
    ) -> Result<Vec<Vec<u8>>, SessionError> {
        let subtrees = || registry.subtrees().map(<[u32]>::to_vec).collect();
        match self.control(pdu, subtrees)? {
            Control::Send(out) => Ok(out),
            Control::Request => Ok(answer(self.uptime, pdu, registry).into_iter().collect()),
        }
    }

    /// Handles a PDU of the session itself (the Responses to its Open, Registers, Notifies
    /// and Pings; a Close): what to send back; or says the PDU is a request for the
    /// handlers, to answer with [`answer`] (where and when the caller chooses). `subtrees`
    /// gives what to register once the session is open.
    pub fn control(
        &mut self,
        pdu: &Pdu,
        subtrees: impl FnOnce() -> Vec<Vec<u32>>,
    ) -> Result<Control, SessionError> {
        let sent = |out| Ok(Control::Send(out));
        match (&pdu.payload, self.state) {
            (Payload::Close(reason), _) => {
                self.state = State::Closed;
                Err(SessionError::Closed(*reason))
            }
            (Payload::Response { error, uptime, .. }, State::Opening) => {
                if *error != 0 {
                    return Err(SessionError::OpenRefused(*error));
                }
                self.id = pdu.header.session;
                self.uptime = *uptime;
                let registers = self.registers(subtrees());
                if registers.is_empty() {
                    self.state = State::Open;
                }
                sent(registers)
            }
            (Payload::Response { error, uptime, .. }, State::Registering(left)) => {
                self.uptime = *uptime;
                let k = self.subtrees.len() - left;
                if *error != 0 {
                    return Err(SessionError::RegisterRefused {
                        subtree: self.subtrees.get(k).cloned().unwrap_or_default(),
                        error: *error,
                    });
                }
                self.state = match left {
                    1 => State::Open,
                    n => State::Registering(n - 1),
                };
                sent(Vec::new())
            }
            (Payload::Response { uptime, error, .. }, _) => {
                // A Notify's or Ping's answer.
                self.uptime = *uptime;
                if *error != 0 {
                    tracing::warn!(error, "the master refused a notification or ping");
                }
                sent(Vec::new())
            }
            _ => Ok(Control::Request),
        }
    }
}

/// What [`Session::control`] makes of a PDU.
#[derive(Debug)]
pub enum Control {
    /// PDUs to send back (maybe none).
    Send(Vec<Vec<u8>>),
    /// A request for the handlers: see [`answer`].
    Request,
}

/// The Response a request times out with when its handler takes longer than the session's
/// timeout: genErr, so that the master answers its manager rather than wait.
pub fn timed_out(uptime: u32, h: Header) -> Vec<u8> {
    let mut w = Writer::new(Kind::Response, 0, h.session, h.transaction, h.packet);
    w.u32(uptime).u16(ErrorStatus::GenErr.code() as u16).u16(0);
    w.finish()
}

/// The Response to a request of the master (none to CleanupSet), `uptime` the master's
/// sysUpTime as last learned.
pub fn answer(uptime: u32, pdu: &Pdu, registry: &mut Registry) -> Option<Vec<u8>> {
    let h = pdu.header;
    let mut w = Writer::new(Kind::Response, 0, h.session, h.transaction, h.packet);
    if pdu.context.as_ref().is_some_and(|c| !c.is_empty()) {
        w.u32(uptime).u16(errors::UNSUPPORTED_CONTEXT).u16(0);
        return Some(w.finish());
    }
    let outcome: Result<Vec<(OidBuf, Value)>, (u16, u16)> = match &pdu.payload {
        Payload::Ranges(ranges) if h.kind == Kind::Get => get(registry, ranges),
        Payload::Ranges(ranges) => ranges
            .iter()
            .enumerate()
            .map(|(k, r)| next_in(registry, r).map_err(|e| (e.code() as u16, k as u16 + 1)))
            .collect(),
        Payload::Bulk {
            non_repeaters,
            max_repetitions,
            ranges,
        } => bulk(registry, ranges, *non_repeaters, *max_repetitions),
        Payload::Bindings(writes) => registry
            .test(writes)
            .map(|()| Vec::new())
            .map_err(|r| (r.status.code() as u16, r.at as u16 + 1)),
        Payload::Empty if h.kind == Kind::CommitSet => registry
            .commit()
            .map(|()| Vec::new())
            .map_err(|r| (r.status.code() as u16, r.at as u16 + 1)),
        Payload::Empty if h.kind == Kind::UndoSet => registry
            .undo()
            .map(|()| Vec::new())
            .map_err(|r| (r.status.code() as u16, r.at as u16 + 1)),
        Payload::Empty if h.kind == Kind::CleanupSet => {
            registry.cleanup();
            return None;
        }
        Payload::Empty => Ok(Vec::new()),
        _ => Err((errors::PROCESSING_ERROR, 0)),
    };
    match outcome {
        Ok(bindings) => {
            w.u32(uptime).u16(0).u16(0);
            for (name, value) in &bindings {
                w.binding(name, value);
            }
        }
        Err((error, index)) => {
            w.u32(uptime).u16(error).u16(index);
        }
    }
    Some(w.finish())
}

fn oid(arcs: &[u32]) -> Result<OidBuf, ErrorStatus> {
    OidBuf::from_arcs(arcs).map_err(|_| ErrorStatus::GenErr)
}

/// Get (RFC 2741 7.2.3.1): each range's start, its value or exception.
fn get(registry: &mut Registry, ranges: &[Range]) -> Result<Vec<(OidBuf, Value)>, (u16, u16)> {
    ranges
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let failed = |e: ErrorStatus| (e.code() as u16, k as u16 + 1);
            let value = registry.get(&r.start).map_err(failed)?;
            Ok((oid(&r.start).map_err(failed)?, value))
        })
        .collect()
}

/// GetNext of one range (RFC 2741 7.2.3.2): the start itself when included and it has a
/// value, else the first instance after it before the range's end; endOfMibView at the
/// start when there is none.
fn next_in(registry: &mut Registry, r: &Range) -> Result<(OidBuf, Value), ErrorStatus> {
    if r.include {
        let v = registry.get(&r.start)?;
        if !v.is_exception() {
            return Ok((oid(&r.start)?, v));
        }
    }
    match registry.next(&r.start)? {
        Some((name, v)) if r.end.is_empty() || name.as_oid().arcs().lt(r.end.iter().copied()) => {
            Ok((name, v))
        }
        _ => Ok((oid(&r.start)?, Value::EndOfMibView)),
    }
}

/// GetBulk (RFC 2741 7.2.3.3): the non-repeaters once, then the repeaters up to
/// `max_repetitions` times, each going on from where it got.
fn bulk(
    registry: &mut Registry,
    ranges: &[Range],
    non_repeaters: u16,
    max_repetitions: u16,
) -> Result<Vec<(OidBuf, Value)>, (u16, u16)> {
    let n = (non_repeaters as usize).min(ranges.len());
    let failed = |k: usize| move |e: ErrorStatus| (e.code() as u16, k as u16 + 1);
    let mut out = Vec::with_capacity(ranges.len());
    for (k, r) in ranges[..n].iter().enumerate() {
        out.push(next_in(registry, r).map_err(failed(k))?);
    }
    let mut cursors: Vec<Range> = ranges[n..].to_vec();
    for _ in 0..max_repetitions {
        if cursors.is_empty() || out.len() >= BULK_BINDINGS {
            break;
        }
        let mut all_ended = true;
        for (k, c) in cursors.iter_mut().enumerate() {
            let (name, v) = next_in(registry, c).map_err(failed(n + k))?;
            all_ended &= v == Value::EndOfMibView;
            c.start = name.as_oid().arcs().collect();
            c.include = false;
            out.push((name, v));
        }
        if all_ended {
            break;
        }
    }
    Ok(out)
}
