//! A hostile responder: a UDP socket on 127.0.0.1 that answers each request with exactly the
//! datagrams a test scripts (forged, unauthenticated, with a bad MAC, stale, truncated, for
//! another request, from another port, endless or looping walks), and the means to forge
//! them: [`V3Agent`] reads SNMPv3 requests as a USM agent would and seals answers with any
//! field changed ([`Forge`]); [`v2c_response`] makes community-based ones.
//!
//! Bounded: the responder answers at most [`MAX_REQUESTS`] requests and lives at most
//! [`MAX_LIFE`]; it stops when dropped.

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_client::outgoing::{seal, Header, Security};
use snmp_client::usm::{AuthProtocol, Key, PrivProtocol};
use snmp_client::{Incoming, Value};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{
    Pdu, PduErrorStatus, Pdus, ReportPdu, ResponsePdu, VarBind, VarBindList, VarBindValue,
};
use snmp_messages::snmpv2_smi::{ApplicationSyntax, Counter32, ObjectName, ObjectSyntax};
use snmp_messages::snmpv3_message_syntax::{ScopedPdu, ScopedPduData};

/// The most requests a responder answers.
pub const MAX_REQUESTS: usize = 100_000;
/// The longest a responder lives.
pub const MAX_LIFE: Duration = Duration::from_secs(120);

/// One datagram a script sends back.
#[derive(Debug, Clone)]
pub enum Reply {
    /// From the responder's own address.
    Send(Vec<u8>),
    /// From another port of 127.0.0.1.
    FromOtherPort(Vec<u8>),
}

/// A responder running in its own thread; stopped when dropped.
pub struct Responder {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    requests: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Responder {
    /// Answers each datagram received with what `script` returns for it.
    pub fn start<F>(mut script: F) -> Responder
    where
        F: FnMut(&[u8]) -> Vec<Reply> + Send + 'static,
    {
        let sock = UdpSocket::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let other = UdpSocket::bind("127.0.0.1:0").expect("a second port on 127.0.0.1");
        sock.set_read_timeout(Some(Duration::from_millis(20)))
            .expect("a read timeout");
        let addr = sock.local_addr().expect("its address");
        let stop = Arc::new(AtomicBool::new(false));
        let requests = Arc::new(AtomicUsize::new(0));
        let (stop2, requests2) = (stop.clone(), requests.clone());
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut buf = vec![0u8; 65536];
            while !stop2.load(Ordering::Relaxed)
                && started.elapsed() < MAX_LIFE
                && requests2.load(Ordering::Relaxed) < MAX_REQUESTS
            {
                let Ok((n, from)) = sock.recv_from(&mut buf) else {
                    continue;
                };
                requests2.fetch_add(1, Ordering::Relaxed);
                for reply in script(&buf[..n]) {
                    let _ = match reply {
                        Reply::Send(d) => sock.send_to(&d, from),
                        Reply::FromOtherPort(d) => other.send_to(&d, from),
                    };
                }
            }
        });
        Responder {
            addr,
            stop,
            requests,
            thread: Some(thread),
        }
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The datagrams it received.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }
}

impl Drop for Responder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What a request asked, as the responder reads it.
#[derive(Debug, Clone)]
pub struct Asked {
    /// msgID (SNMPv3) or request-id.
    pub msg_id: u32,
    /// request-id.
    pub request_id: i32,
    /// The PDU's bindings' OIDs.
    pub oids: Vec<OidBuf>,
    /// Whether it is RFC 3414 4's discovery (no engine ID).
    pub discovery: bool,
}

/// A request PDU's request-id and its bindings' OIDs ((0, none) for other PDUs).
fn oids_of(pdu: &Pdus<'_>) -> (i32, Vec<OidBuf>) {
    let (id, list) = match pdu {
        Pdus::GetRequest(p) => (p.0.request_id, &p.0.variable_bindings),
        Pdus::GetNextRequest(p) => (p.0.request_id, &p.0.variable_bindings),
        Pdus::SetRequest(p) => (p.0.request_id, &p.0.variable_bindings),
        Pdus::GetBulkRequest(p) => (p.0.request_id, &p.0.variable_bindings),
        _ => return (0, Vec::new()),
    };
    let oids = list.0.iter().flatten().map(|vb| vb.name.0.to_owned());
    (id, oids.collect())
}

/// An SNMPv2c request read: its request-id and OIDs.
pub fn v2c_request(datagram: &[u8]) -> Option<Asked> {
    let m = Message::from_ber(datagram).ok()?;
    let (request_id, oids) = oids_of(&m.data);
    Some(Asked {
        msg_id: request_id as u32,
        request_id,
        oids,
        discovery: false,
    })
}

/// The SNMPv2 bindings of `bindings`.
fn wire(bindings: &[(OidBuf, Value)]) -> Vec<VarBind<'_>> {
    bindings
        .iter()
        .map(|(o, v)| VarBind {
            name: ObjectName(o.as_oid()),
            value: v.to_wire().unwrap_or(VarBindValue::UnSpecified),
        })
        .collect()
}

/// An SNMPv2c Response.
pub fn v2c_response(
    community: &[u8],
    request_id: i32,
    error_status: i64,
    bindings: &[(OidBuf, Value)],
) -> Vec<u8> {
    let vbs = wire(bindings);
    Message {
        version: MessageVersion::VERSION,
        community,
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id,
            error_status: PduErrorStatus(error_status),
            error_index: u32::from(error_status != 0),
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    }
    .to_ber()
    .expect("a Response encodes")
}

/// An SNMPv3 agent's side of the USM, for forging: its engine and one user's keys.
pub struct V3Agent {
    /// snmpEngineID.
    pub engine_id: Vec<u8>,
    /// snmpEngineBoots.
    pub boots: u32,
    /// snmpEngineTime.
    pub time: u32,
    user: Vec<u8>,
    auth: Option<(AuthProtocol, Key)>,
    privacy: Option<(PrivProtocol, Key)>,
}

/// An answer to forge: every field starts as the genuine answer has it.
#[derive(Debug, Clone)]
pub struct Forge {
    /// msgID.
    pub msg_id: u32,
    /// The PDU's request-id.
    pub request_id: i32,
    /// msgUserName.
    pub user: Vec<u8>,
    /// msgAuthoritativeEngineID.
    pub engine_id: Vec<u8>,
    /// msgAuthoritativeEngineBoots.
    pub boots: u32,
    /// msgAuthoritativeEngineTime.
    pub time: u32,
    /// Whether it is authenticated (with the user's key).
    pub auth: bool,
    /// Whether it is encrypted (with the user's key).
    pub privacy: bool,
    /// One octet of the MAC changed.
    pub break_mac: bool,
    /// contextEngineID.
    pub context_engine_id: Vec<u8>,
    /// A Report with this counter's OID, instead of a Response.
    pub report: Option<OidBuf>,
    /// The Response's error-status.
    pub error_status: i64,
    /// The Response's bindings.
    pub bindings: Vec<(OidBuf, Value)>,
}

/// usmStats counters (RFC 3414 5): unsupportedSecLevels 1, notInTimeWindows 2,
/// unknownUserNames 3, unknownEngineIDs 4, wrongDigests 5, decryptionErrors 6.
pub fn usm_stats(counter: u32) -> OidBuf {
    format!("1.3.6.1.6.3.15.1.1.{counter}.0")
        .parse()
        .expect("an OID")
}

impl V3Agent {
    /// An agent with engine `engine_id` at `boots` and `time`, knowing `user` with these
    /// protocols and passwords.
    pub fn new(
        engine_id: &[u8],
        boots: u32,
        time: u32,
        user: &str,
        auth: Option<(AuthProtocol, &[u8])>,
        privacy: Option<(PrivProtocol, &[u8])>,
    ) -> V3Agent {
        let auth_key = auth.map(|(p, pw)| (p, Key::localized(p, pw, engine_id).expect("a key")));
        let privacy_key = privacy.map(|(p, pw)| {
            let hash = auth.expect("privacy needs authentication").0;
            (p, Key::localized(hash, pw, engine_id).expect("a key"))
        });
        V3Agent {
            engine_id: engine_id.to_vec(),
            boots,
            time,
            user: user.as_bytes().to_vec(),
            auth: auth_key,
            privacy: privacy_key,
        }
    }

    /// What `datagram` asks, decrypted when it must be; `None` when it is not an SNMPv3
    /// request this agent can read.
    pub fn read(&self, datagram: &[u8]) -> Option<Asked> {
        let m = Incoming::parse(datagram).ok()?;
        let msg_id = m.message.msg_global_data.msg_id;
        let discovery = m.usm.msg_authoritative_engine_id.is_empty();
        let plain;
        let scoped = match m.message.msg_data {
            ScopedPduData::Plaintext(s) => s,
            ScopedPduData::EncryptedPdu(_) => {
                let (p, k) = self.privacy.as_ref()?;
                plain = m.scoped_pdu_octets(Some((*p, k))).ok()?;
                ScopedPdu::from_ber(&plain).ok()?
            }
        };
        let (request_id, oids) = oids_of(&scoped.data);
        Some(Asked {
            msg_id,
            request_id,
            oids,
            discovery,
        })
    }

    /// The genuine answer to `asked`, at the user's level, with `bindings`.
    pub fn answer(&self, asked: &Asked, bindings: Vec<(OidBuf, Value)>) -> Forge {
        Forge {
            msg_id: asked.msg_id,
            request_id: asked.request_id,
            user: self.user.clone(),
            engine_id: self.engine_id.clone(),
            boots: self.boots,
            time: self.time,
            auth: self.auth.is_some(),
            privacy: self.privacy.is_some(),
            break_mac: false,
            context_engine_id: self.engine_id.clone(),
            report: None,
            error_status: 0,
            bindings,
        }
    }

    /// The answer to a discovery request: an unauthenticated usmStatsUnknownEngineIDs Report
    /// naming the engine.
    pub fn discovery_report(&self, asked: &Asked) -> Vec<u8> {
        let mut f = self.answer(asked, Vec::new());
        f.user = Vec::new();
        f.auth = false;
        f.privacy = false;
        f.context_engine_id = self.engine_id.clone();
        f.report = Some(usm_stats(4));
        self.seal(&f)
    }

    /// `f` as a datagram: encrypted and signed with the user's keys as it says.
    pub fn seal(&self, f: &Forge) -> Vec<u8> {
        let report_vb;
        let vbs = wire(&f.bindings);
        let data = match &f.report {
            Some(oid) => {
                report_vb = [VarBind {
                    name: ObjectName(oid.as_oid()),
                    value: VarBindValue::Value(ObjectSyntax::ApplicationWide(
                        ApplicationSyntax::CounterValue(Counter32(1)),
                    )),
                }];
                Pdus::Report(ReportPdu(Pdu {
                    request_id: f.request_id,
                    error_status: PduErrorStatus::NO_ERROR,
                    error_index: 0,
                    variable_bindings: VarBindList(SequenceOf::from_slice(&report_vb)),
                }))
            }
            None => Pdus::Response(ResponsePdu(Pdu {
                request_id: f.request_id,
                error_status: PduErrorStatus(f.error_status),
                error_index: u32::from(f.error_status != 0),
                variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
            })),
        };
        let scoped = ScopedPdu {
            context_engine_id: &f.context_engine_id,
            context_name: b"",
            data,
        }
        .to_ber()
        .expect("a scoped PDU encodes");
        let auth = self.auth.as_ref().filter(|_| f.auth).map(|(p, k)| (*p, k));
        let salt = (u64::from(f.msg_id) << 8).to_be_bytes();
        let privacy = self.privacy.as_ref().filter(|_| f.privacy);
        let security = Security {
            user: &f.user,
            engine_id: &f.engine_id,
            engine_boots: f.boots,
            engine_time: f.time,
            auth,
            privacy: privacy.map(|(p, k)| (*p, k, salt)),
        };
        let header = Header {
            msg_id: f.msg_id,
            max_size: 65507,
            reportable: false,
        };
        let mut bytes = seal(header, &security, &scoped).expect("the answer seals");
        if f.break_mac && f.auth {
            let at = Incoming::parse(&bytes).expect("it parses").auth_params_at;
            bytes[at.start] ^= 0x01;
        }
        bytes
    }
}
