//! The observability contract (../shared/DESIGN.md): what tracing costs is proportional to
//! what it observes. A subscriber that says "sometimes" to every callsite (so that tracing asks
//! it again at each one) counts its interest checks, spans and events: none during the decode
//! of a 50-binding message, and a stated handful for one whole exchange (a GET answered by a
//! local responder with 50 bindings), whatever the number of bindings.

use std::net::UdpSocket;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_client::{Credentials, Options, Session};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{
    Pdu, PduErrorStatus, Pdus, ResponsePdu, VarBind, VarBindList, VarBindValue,
};
use snmp_messages::snmpv2_smi::{ObjectName, ObjectSyntax, SimpleSyntax};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};

/// What the counting subscriber saw.
#[derive(Default, Debug)]
struct Counts {
    checks: AtomicUsize,
    spans: AtomicUsize,
    events: AtomicUsize,
}

impl Counts {
    fn get(&self) -> (usize, usize, usize) {
        (
            self.checks.load(Ordering::Relaxed),
            self.spans.load(Ordering::Relaxed),
            self.events.load(Ordering::Relaxed),
        )
    }
}

struct Counting(Arc<Counts>);

impl Subscriber for Counting {
    fn register_callsite(&self, _: &'static Metadata<'static>) -> Interest {
        // Asked again at every use of the callsite: every check is counted.
        Interest::sometimes()
    }
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        self.0.checks.fetch_add(1, Ordering::Relaxed);
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        let n = self.0.spans.fetch_add(1, Ordering::Relaxed);
        Id::from_u64(n as u64 + 1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {
        self.0.events.fetch_add(1, Ordering::Relaxed);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// A GetResponse to `request_id` with `n` bindings (OCTET STRINGs under sysDescr).
fn response(request_id: i32, n: usize) -> Vec<u8> {
    let names: Vec<OidBuf> = (0..n)
        .map(|k| format!("1.3.6.1.2.1.1.9.1.3.{}", k + 1).parse().unwrap())
        .collect();
    let vbs: Vec<VarBind<'_>> = names
        .iter()
        .map(|name| VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(
                b"a description",
            ))),
        })
        .collect();
    Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    }
    .to_ber()
    .unwrap()
}

/// One GET of `n` bindings answered by a responder thread with `n` bindings, under `counts`' subscriber:
/// what it counted.
fn one_exchange(n: usize) -> (usize, usize, usize) {
    let agent = UdpSocket::bind("127.0.0.1:0").unwrap();
    agent
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let addr = agent.local_addr().unwrap();
    let responder = std::thread::spawn(move || {
        let mut buf = [0u8; 1500];
        let (len, from) = agent.recv_from(&mut buf).expect("a request");
        let request = Message::from_ber(&buf[..len]).expect("a v2c message");
        let Pdus::GetRequest(get) = request.data else {
            panic!("a GET")
        };
        agent.send_to(&response(get.0.request_id, n), from).unwrap();
    });
    let counts = Arc::new(Counts::default());
    let mut session = Session::new(
        addr,
        Credentials::V2c(b"public".to_vec()),
        Options::default(),
    )
    .unwrap();
    let answer = tracing::subscriber::with_default(Counting(counts.clone()), || {
        session.get(&vec!["1.3.6.1.2.1.1.9.1.3.1".parse().unwrap(); n])
    });
    responder.join().unwrap();
    assert_eq!(answer.unwrap().len(), n);
    counts.get()
}

#[test]
fn no_tracing_in_the_codec_and_a_constant_per_exchange() {
    // Decode: nothing at all, with a subscriber asking to be asked.
    let counts = Arc::new(Counts::default());
    let datagram = response(7, 50);
    let bindings = tracing::subscriber::with_default(Counting(counts.clone()), || {
        let m = Message::from_ber(&datagram).unwrap();
        let Pdus::Response(r) = m.data else {
            panic!("a Response")
        };
        snmp_client::VarBind::list_from_wire(&r.0.variable_bindings)
            .unwrap()
            .len()
    });
    assert_eq!(bindings, 50);
    assert_eq!(counts.get(), (0, 0, 0), "checks, spans, events in a decode");

    // One exchange: one span (its interest checked once), no event; the same for 1 binding
    // as for 50.
    let one = one_exchange(1);
    let fifty = one_exchange(50);
    assert_eq!(one, fifty, "checks, spans, events: 1 binding vs 50");
    assert_eq!(fifty.1, 1, "one span per exchange: {fifty:?}");
    assert_eq!(
        fifty.2, 0,
        "no event for an exchange that goes well: {fifty:?}"
    );
    assert!(fifty.0 <= 2, "interest checks per exchange: {fifty:?}");
    eprintln!(
        "per exchange: {} interest checks, {} span, {} events",
        fifty.0, fifty.1, fifty.2
    );
}
