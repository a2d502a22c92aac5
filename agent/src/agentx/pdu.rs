//! AgentX PDUs (RFC 2741 5 and 6), encoded and decoded: the header, object identifiers,
//! search ranges, octet strings and variable bindings, in either byte order (the
//! NETWORK_BYTE_ORDER flag says which; what this side sends is in network order). A PDU that
//! does not decode says what, at which octet, and what was expected.

use snmp_ber::OctetBuf;
use snmp_ber::OidBuf;
use snmp_client::Value;

/// The fixed header's length.
pub const HEADER: usize = 20;
/// The largest payload taken (a larger one is a protocol error, never an allocation).
pub const MAX_PAYLOAD: usize = 1 << 20;

/// Header flags (RFC 2741 6.1).
pub mod flags {
    /// INSTANCE_REGISTRATION.
    pub const INSTANCE_REGISTRATION: u8 = 0x01;
    /// NON_DEFAULT_CONTEXT: a context octet string opens the payload.
    pub const NON_DEFAULT_CONTEXT: u8 = 0x08;
    /// NETWORK_BYTE_ORDER: integers are big-endian.
    pub const NETWORK_BYTE_ORDER: u8 = 0x10;
}

/// PDU types (RFC 2741 6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// agentx-Open-PDU.
    Open = 1,
    /// agentx-Close-PDU.
    Close = 2,
    /// agentx-Register-PDU.
    Register = 3,
    /// agentx-Unregister-PDU.
    Unregister = 4,
    /// agentx-Get-PDU.
    Get = 5,
    /// agentx-GetNext-PDU.
    GetNext = 6,
    /// agentx-GetBulk-PDU.
    GetBulk = 7,
    /// agentx-TestSet-PDU.
    TestSet = 8,
    /// agentx-CommitSet-PDU.
    CommitSet = 9,
    /// agentx-UndoSet-PDU.
    UndoSet = 10,
    /// agentx-CleanupSet-PDU.
    CleanupSet = 11,
    /// agentx-Notify-PDU.
    Notify = 12,
    /// agentx-Ping-PDU.
    Ping = 13,
    /// agentx-IndexAllocate-PDU.
    IndexAllocate = 14,
    /// agentx-IndexDeallocate-PDU.
    IndexDeallocate = 15,
    /// agentx-AddAgentCaps-PDU.
    AddAgentCaps = 16,
    /// agentx-RemoveAgentCaps-PDU.
    RemoveAgentCaps = 17,
    /// agentx-Response-PDU.
    Response = 18,
}

impl Kind {
    fn from_u8(v: u8) -> Option<Kind> {
        use Kind::*;
        Some(match v {
            1 => Open,
            2 => Close,
            3 => Register,
            4 => Unregister,
            5 => Get,
            6 => GetNext,
            7 => GetBulk,
            8 => TestSet,
            9 => CommitSet,
            10 => UndoSet,
            11 => CleanupSet,
            12 => Notify,
            13 => Ping,
            14 => IndexAllocate,
            15 => IndexDeallocate,
            16 => AddAgentCaps,
            17 => RemoveAgentCaps,
            18 => Response,
            _ => return None,
        })
    }
}

/// res.error values of a Response beyond SNMP's error-statuses (RFC 2741 6.2.16).
pub mod errors {
    /// openFailed.
    pub const OPEN_FAILED: u16 = 256;
    /// notOpen.
    pub const NOT_OPEN: u16 = 257;
    /// unsupportedContext.
    pub const UNSUPPORTED_CONTEXT: u16 = 262;
    /// duplicateRegistration.
    pub const DUPLICATE_REGISTRATION: u16 = 263;
    /// parseError.
    pub const PARSE_ERROR: u16 = 266;
    /// requestDenied.
    pub const REQUEST_DENIED: u16 = 267;
    /// processingError.
    pub const PROCESSING_ERROR: u16 = 268;
}

/// Close reasons (RFC 2741 6.2.2).
pub mod reasons {
    /// reasonOther.
    pub const OTHER: u8 = 1;
    /// reasonParseError.
    pub const PARSE_ERROR: u8 = 2;
    /// reasonProtocolError.
    pub const PROTOCOL_ERROR: u8 = 3;
    /// reasonShutdown.
    pub const SHUTDOWN: u8 = 5;
}

/// A PDU that does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("AgentX PDU: at octet {offset}: expected {expected}, found {found}")]
pub struct PduError {
    /// Where, from the header's first octet.
    pub offset: usize,
    /// What was expected there.
    pub expected: &'static str,
    /// What was there.
    pub found: String,
}

/// The fixed header (RFC 2741 6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// h.type.
    pub kind: Kind,
    /// h.flags.
    pub flags: u8,
    /// h.sessionID.
    pub session: u32,
    /// h.transactionID.
    pub transaction: u32,
    /// h.packetID.
    pub packet: u32,
    /// h.payload_length.
    pub length: u32,
}

impl Header {
    /// The header at the start of `bytes` (20 octets).
    pub fn decode(bytes: &[u8]) -> Result<Header, PduError> {
        if bytes.len() < HEADER {
            return Err(PduError {
                offset: bytes.len(),
                expected: "a 20-octet header",
                found: format!("{} octets", bytes.len()),
            });
        }
        if bytes[0] != 1 {
            return Err(PduError {
                offset: 0,
                expected: "h.version 1",
                found: bytes[0].to_string(),
            });
        }
        let kind = Kind::from_u8(bytes[1]).ok_or_else(|| PduError {
            offset: 1,
            expected: "an h.type from 1 to 18",
            found: bytes[1].to_string(),
        })?;
        let flags = bytes[2];
        let big = flags & flags::NETWORK_BYTE_ORDER != 0;
        let word = |at: usize| {
            let w = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
            if big {
                u32::from_be_bytes(w)
            } else {
                u32::from_le_bytes(w)
            }
        };
        let length = word(16);
        if length as usize > MAX_PAYLOAD || length % 4 != 0 {
            return Err(PduError {
                offset: 16,
                expected: "a payload length that is a multiple of 4, at most 1 MiB",
                found: length.to_string(),
            });
        }
        Ok(Header {
            kind,
            flags,
            session: word(4),
            transaction: word(8),
            packet: word(12),
            length,
        })
    }
}

/// A search range (RFC 2741 5.2): from `start` (itself included when `include`) up to, not
/// including, `end` (no end when empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    /// The start.
    pub start: Vec<u32>,
    /// Whether the start itself may be the answer.
    pub include: bool,
    /// The end, excluded; empty for none.
    pub end: Vec<u32>,
}

/// A decoded PDU's payload, for the kinds a subagent receives.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// A Response: res.sysUpTime, res.error, res.index and its bindings.
    Response {
        /// res.sysUpTime.
        uptime: u32,
        /// res.error.
        error: u16,
        /// res.index.
        index: u16,
        /// Its bindings.
        bindings: Vec<(OidBuf, Value)>,
    },
    /// Get, GetNext: the ranges.
    Ranges(Vec<Range>),
    /// GetBulk: non-repeaters, max-repetitions, the ranges.
    Bulk {
        /// g.non_repeaters.
        non_repeaters: u16,
        /// g.max_repetitions.
        max_repetitions: u16,
        /// The ranges.
        ranges: Vec<Range>,
    },
    /// TestSet: the bindings.
    Bindings(Vec<(OidBuf, Value)>),
    /// CommitSet, UndoSet, CleanupSet, Ping: nothing.
    Empty,
    /// Close: its reason.
    Close(u8),
    /// A kind a subagent is not sent.
    Other,
}

/// A received PDU: its header, context and payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Pdu {
    /// The header.
    pub header: Header,
    /// The context, when NON_DEFAULT_CONTEXT is set.
    pub context: Option<Vec<u8>>,
    /// The payload.
    pub payload: Payload,
}

/// Reads a payload, its offsets counted from the header's start.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    big: bool,
}

impl<'a> Reader<'a> {
    fn err<T>(&self, expected: &'static str, found: String) -> Result<T, PduError> {
        Err(PduError {
            offset: HEADER + self.at,
            expected,
            found,
        })
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], PduError> {
        match self.bytes.get(self.at..self.at + n) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => self.err(what, format!("{} octets left", self.bytes.len() - self.at)),
        }
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, PduError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, PduError> {
        let b = self.take(2, what)?;
        Ok(match self.big {
            true => u16::from_be_bytes([b[0], b[1]]),
            false => u16::from_le_bytes([b[0], b[1]]),
        })
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, PduError> {
        let b = self.take(4, what)?;
        let w = [b[0], b[1], b[2], b[3]];
        Ok(match self.big {
            true => u32::from_be_bytes(w),
            false => u32::from_le_bytes(w),
        })
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, PduError> {
        let hi = self.u32(what)? as u64;
        let lo = self.u32(what)? as u64;
        Ok(match self.big {
            true => hi << 32 | lo,
            false => lo << 32 | hi,
        })
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// An object identifier (RFC 2741 5.1), with its include field.
    fn oid(&mut self) -> Result<(Vec<u32>, bool), PduError> {
        let start = self.at;
        let n = self.u8("an OID's n_subid")? as usize;
        let prefix = self.u8("an OID's prefix")?;
        let include = self.u8("an OID's include")? != 0;
        self.u8("an OID's reserved octet")?;
        if n > 128 {
            self.at = start;
            return self.err("an OID of at most 128 sub-identifiers", n.to_string());
        }
        let mut arcs = Vec::with_capacity(n + 5);
        if prefix != 0 {
            arcs.extend_from_slice(&[1, 3, 6, 1, u32::from(prefix)]);
        }
        for _ in 0..n {
            arcs.push(self.u32("a sub-identifier")?);
        }
        Ok((arcs, include))
    }

    /// An octet string (RFC 2741 5.3): its length, the octets, padding to 4.
    fn octets(&mut self) -> Result<&'a [u8], PduError> {
        let n = self.u32("an octet string's length")? as usize;
        if n > self.bytes.len() {
            return self.err("an octet string within the PDU", format!("length {n}"));
        }
        let s = self.take(n, "an octet string's octets")?;
        self.take((4 - n % 4) % 4, "an octet string's padding")?;
        Ok(s)
    }

    fn owned_oid(&mut self, what: &'static str) -> Result<OidBuf, PduError> {
        let at = self.at;
        let (arcs, _) = self.oid()?;
        OidBuf::from_arcs(&arcs).map_err(|_| PduError {
            offset: HEADER + at,
            expected: what,
            found: format!("{arcs:?}"),
        })
    }

    /// A variable binding (RFC 2741 5.4).
    fn binding(&mut self) -> Result<(OidBuf, Value), PduError> {
        let at = self.at;
        let kind = self.u16("a binding's v.type")?;
        self.u16("a binding's reserved field")?;
        let name = self.owned_oid("a binding's name (an OID of two arcs or more)")?;
        let value = match kind {
            2 => Value::Integer(self.u32("an Integer")? as i32 as i64),
            4 => Value::OctetString(OctetBuf::from_slice(self.octets()?)),
            5 => Value::Null,
            6 => Value::ObjectIdentifier(self.owned_oid("an OBJECT IDENTIFIER value")?),
            64 => {
                let s = self.octets()?;
                let a: [u8; 4] = s.try_into().map_err(|_| PduError {
                    offset: HEADER + at,
                    expected: "an IpAddress of 4 octets",
                    found: format!("{} octets", s.len()),
                })?;
                Value::IpAddress(a)
            }
            65 => Value::Counter32(self.u32("a Counter32")?),
            66 => Value::Gauge32(self.u32("a Gauge32")?),
            67 => Value::TimeTicks(self.u32("a TimeTicks")?),
            68 => Value::Opaque(OctetBuf::from_slice(self.octets()?)),
            70 => Value::Counter64(self.u64("a Counter64")?),
            128 => Value::NoSuchObject,
            129 => Value::NoSuchInstance,
            130 => Value::EndOfMibView,
            other => {
                self.at = at;
                return self.err("a v.type of RFC 2741 5.4", other.to_string());
            }
        };
        Ok((name, value))
    }

    fn bindings(&mut self) -> Result<Vec<(OidBuf, Value)>, PduError> {
        let mut out = Vec::new();
        while !self.done() {
            out.push(self.binding()?);
        }
        Ok(out)
    }

    fn ranges(&mut self) -> Result<Vec<Range>, PduError> {
        let mut out = Vec::new();
        while !self.done() {
            let (start, include) = self.oid()?;
            let (end, _) = self.oid()?;
            out.push(Range {
                start,
                include,
                end,
            });
        }
        Ok(out)
    }
}

impl Pdu {
    /// The PDU of `header` whose payload is `payload` (`header.length` octets).
    pub fn decode(header: Header, payload: &[u8]) -> Result<Pdu, PduError> {
        let mut r = Reader {
            bytes: payload,
            at: 0,
            big: header.flags & flags::NETWORK_BYTE_ORDER != 0,
        };
        let has_context = header.flags & flags::NON_DEFAULT_CONTEXT != 0;
        let context = match (has_context, header.kind) {
            (true, Kind::Get | Kind::GetNext | Kind::GetBulk | Kind::TestSet | Kind::Ping) => {
                Some(r.octets()?.to_vec())
            }
            _ => None,
        };
        let payload = match header.kind {
            Kind::Response => Payload::Response {
                uptime: r.u32("res.sysUpTime")?,
                error: r.u16("res.error")?,
                index: r.u16("res.index")?,
                bindings: r.bindings()?,
            },
            Kind::Get | Kind::GetNext => Payload::Ranges(r.ranges()?),
            Kind::GetBulk => Payload::Bulk {
                non_repeaters: r.u16("g.non_repeaters")?,
                max_repetitions: r.u16("g.max_repetitions")?,
                ranges: r.ranges()?,
            },
            Kind::TestSet => Payload::Bindings(r.bindings()?),
            Kind::CommitSet | Kind::UndoSet | Kind::CleanupSet | Kind::Ping => Payload::Empty,
            Kind::Close => Payload::Close(r.u8("c.reason")?),
            _ => Payload::Other,
        };
        Ok(Pdu {
            header,
            context,
            payload,
        })
    }
}

/// Writes a PDU in network byte order: [`Writer::finish`] fills in the payload length.
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// A PDU of `kind` with these ids; `flags` besides NETWORK_BYTE_ORDER.
    pub fn new(kind: Kind, flags: u8, session: u32, transaction: u32, packet: u32) -> Writer {
        let mut bytes = Vec::with_capacity(64);
        bytes.extend_from_slice(&[1, kind as u8, flags | flags::NETWORK_BYTE_ORDER, 0]);
        for w in [session, transaction, packet, 0] {
            bytes.extend_from_slice(&w.to_be_bytes());
        }
        Writer { bytes }
    }

    /// Four octets.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// Two octets.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// Octets as they are.
    pub fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(v);
        self
    }

    /// An object identifier, the 1.3.6.1.X prefix compressed where it applies.
    pub fn oid(&mut self, arcs: &[u32], include: bool) -> &mut Self {
        let (prefix, rest) = match arcs {
            [1, 3, 6, 1, p @ 1..=255, rest @ ..] => (*p as u8, rest),
            _ => (0, arcs),
        };
        let n = rest.len().min(255);
        self.bytes
            .extend_from_slice(&[n as u8, prefix, include as u8, 0]);
        for a in &rest[..n] {
            self.bytes.extend_from_slice(&a.to_be_bytes());
        }
        self
    }

    /// An octet string, padded to 4.
    pub fn octets(&mut self, v: &[u8]) -> &mut Self {
        self.u32(v.len() as u32);
        self.bytes.extend_from_slice(v);
        let pad = (4 - v.len() % 4) % 4;
        self.bytes.extend(std::iter::repeat_n(0, pad));
        self
    }

    /// A variable binding.
    pub fn binding(&mut self, name: &OidBuf, value: &Value) -> &mut Self {
        let arcs: smallvec::SmallVec<[u32; 32]> = name.as_oid().arcs().collect();
        let kind: u16 = match value {
            Value::Integer(_) => 2,
            Value::OctetString(_) => 4,
            Value::Null => 5,
            Value::ObjectIdentifier(_) => 6,
            Value::IpAddress(_) => 64,
            Value::Counter32(_) => 65,
            Value::Gauge32(_) => 66,
            Value::TimeTicks(_) => 67,
            Value::Opaque(_) => 68,
            Value::Counter64(_) => 70,
            Value::NoSuchObject => 128,
            Value::NoSuchInstance => 129,
            Value::EndOfMibView => 130,
        };
        self.u16(kind).u16(0).oid(&arcs, false);
        match value {
            Value::Integer(v) => {
                self.u32(*v as i32 as u32);
            }
            Value::OctetString(s) | Value::Opaque(s) => {
                self.octets(s);
            }
            Value::ObjectIdentifier(o) => {
                let arcs: smallvec::SmallVec<[u32; 32]> = o.as_oid().arcs().collect();
                self.oid(&arcs, false);
            }
            Value::IpAddress(a) => {
                self.octets(a);
            }
            Value::Counter32(v) | Value::Gauge32(v) | Value::TimeTicks(v) => {
                self.u32(*v);
            }
            Value::Counter64(v) => {
                self.u32((*v >> 32) as u32).u32(*v as u32);
            }
            Value::Null | Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => {}
        }
        self
    }

    /// The PDU, its length filled in.
    pub fn finish(mut self) -> Vec<u8> {
        let length = (self.bytes.len() - HEADER) as u32;
        self.bytes[16..20].copy_from_slice(&length.to_be_bytes());
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_round_trip_in_both_orders() {
        let name = OidBuf::from_arcs(&[1, 3, 6, 1, 4, 1, 8072, 9999, 7, 1, 1, 0]).unwrap();
        let values = [
            Value::Integer(-5),
            Value::OctetString(OctetBuf::from_slice(b"abcde")),
            Value::ObjectIdentifier(OidBuf::from_arcs(&[1, 3, 6, 1, 2]).unwrap()),
            Value::IpAddress([10, 0, 0, 1]),
            Value::Counter64(1 << 40 | 7),
            Value::TimeTicks(99),
            Value::NoSuchInstance,
        ];
        let mut w = Writer::new(Kind::TestSet, 0, 1, 2, 3);
        for v in &values {
            w.binding(&name, v);
        }
        let bytes = w.finish();
        let header = Header::decode(&bytes).unwrap();
        assert_eq!(header.length as usize, bytes.len() - HEADER);
        let pdu = Pdu::decode(header, &bytes[HEADER..]).unwrap();
        let Payload::Bindings(got) = pdu.payload else {
            panic!("{:?}", pdu.payload)
        };
        let got: Vec<Value> = got.into_iter().map(|(_, v)| v).collect();
        assert_eq!(got, values);

        // The same binding little-endian, as a master may send it.
        let mut le = vec![1, Kind::TestSet as u8, 0, 0];
        le.extend_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 16, 0, 0, 0]);
        le.extend_from_slice(&[2, 0, 0, 0]); // Integer
        le.extend_from_slice(&[2, 4, 0, 0, 9, 0, 0, 0, 7, 0, 0, 0]); // 1.3.6.1.4.9.7
        le.extend_from_slice(&[5, 0, 0, 0]);
        let header = Header::decode(&le).unwrap();
        let pdu = Pdu::decode(header, &le[HEADER..]).unwrap();
        assert_eq!(
            pdu.payload,
            Payload::Bindings(vec![(
                OidBuf::from_arcs(&[1, 3, 6, 1, 4, 9, 7]).unwrap(),
                Value::Integer(5)
            )])
        );
    }

    #[test]
    fn errors_say_where() {
        let mut w = Writer::new(Kind::Get, 0, 1, 2, 3);
        w.oid(&[1, 3, 6, 1, 2, 1], false).u32(0xc800_0000);
        let bytes = w.finish();
        let header = Header::decode(&bytes).unwrap();
        let e = Pdu::decode(header, &bytes[HEADER..]).unwrap_err();
        assert_eq!(e.offset, HEADER + 8);
        assert!(e.expected.contains("128"), "{e}");
        assert!(Header::decode(&[2; 20]).is_err());
        let mut big = bytes.clone();
        big[16..20].copy_from_slice(&(64u32 << 20).to_be_bytes());
        assert!(Header::decode(&big).unwrap_err().expected.contains("1 MiB"));
    }
}
