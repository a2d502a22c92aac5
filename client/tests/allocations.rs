//! Heap allocations per message, counted by a counting allocator: none to decode (borrowed)
//! or to encode into the caller's buffer, one to decode into owned bindings, on bindings named
//! as real polls name them (multi-octet arcs, string and IP-address indexes).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_client::{Value, VarBind};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{self as wire, PduErrorStatus, Pdus};
use snmp_messages::snmpv2_smi::ObjectName;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread by `f`.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// Fifty bindings as a poll returns them.
fn bindings() -> Vec<VarBind> {
    (0..50u32)
        .map(|i| {
            let row = i / 8 + 1;
            let (name, value) = match i % 4 {
                0 => (
                    format!("1.3.6.1.2.1.31.1.1.1.6.{}", 436_207_616 + row * 4096),
                    Value::Counter64(1 << 63),
                ),
                1 => (
                    format!("1.3.6.1.2.1.4.20.1.1.192.0.2.{row}"),
                    Value::IpAddress([192, 0, 2, row as u8]),
                ),
                2 => (
                    format!(
                        "1.3.6.1.4.1.8072.1.3.2.3.1.1.5.100.105.115.107.{}",
                        48 + row
                    ),
                    Value::OctetString(format!("/dev/sda{row}: 73% used").as_str().into()),
                ),
                _ => (
                    format!("1.3.6.1.2.1.47.1.1.1.1.3.{row}"),
                    Value::ObjectIdentifier("1.3.6.1.4.1.9.12.3.1.3.1208".parse().unwrap()),
                ),
            };
            VarBind {
                oid: name.parse::<OidBuf>().unwrap(),
                value,
            }
        })
        .collect()
}

fn message<'a>(vbs: &'a [wire::VarBind<'a>]) -> Message<'a> {
    Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(wire::ResponsePdu(wire::Pdu {
            request_id: 7,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: wire::VarBindList(SequenceOf::from_slice(vbs)),
        })),
    }
}

fn wire_bindings(owned: &[VarBind]) -> Vec<wire::VarBind<'_>> {
    owned
        .iter()
        .map(|vb| wire::VarBind {
            name: ObjectName(vb.oid.as_oid()),
            value: vb.value.to_wire().unwrap(),
        })
        .collect()
}

#[test]
fn no_allocation_to_decode_or_to_encode_into_a_buffer() {
    let owned = bindings();
    let vbs = wire_bindings(&owned);
    let bytes = message(&vbs).to_ber().unwrap();
    let mut buf = vec![0u8; 4096];

    let (n, sum) = allocations(|| {
        let m = Message::from_ber(&bytes).unwrap();
        let Pdus::Response(r) = m.data else {
            panic!("not a Response")
        };
        let mut sum = 0;
        for vb in r.0.variable_bindings.0.iter() {
            let vb = vb.unwrap();
            sum += vb.name.0.arcs().count();
            sum += matches!(vb.value, wire::VarBindValue::Value(_)) as usize;
        }
        sum
    });
    assert_eq!(n, 0, "borrowed decode of 50 bindings allocated");
    assert!(sum > 50 * 10);

    let (n, written) = allocations(|| message(&vbs).encode_to_slice(&mut buf).unwrap().len());
    assert_eq!(n, 0, "encode into the caller's buffer allocated");
    assert_eq!(written, bytes.len());
}

#[test]
fn one_allocation_to_decode_into_owned_bindings() {
    let owned = bindings();
    let vbs = wire_bindings(&owned);
    let bytes = message(&vbs).to_ber().unwrap();
    let (n, list) = allocations(|| {
        let m = Message::from_ber(&bytes).unwrap();
        let Pdus::Response(r) = m.data else {
            panic!("not a Response")
        };
        VarBind::list_from_wire(&r.0.variable_bindings).unwrap()
    });
    assert_eq!(
        n, 1,
        "owned decode of 50 bindings: one allocation, the list"
    );
    assert_eq!(list, owned);
    // Past the inline size, an OID or a string takes its own allocation.
    let long: OidBuf = format!("1.3.6.1.4.1.8072.1.3.2.3.1.1.40.{}", ["65"; 40].join("."))
        .parse()
        .unwrap();
    let (n, copy) = allocations(|| long.as_oid().to_owned());
    assert_eq!((n, &copy), (1, &long));
}

#[test]
fn building_from_arcs_allocates_nothing_per_short_oid() {
    let arcs = [1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 6, 436_211_712];
    let (n, oid) = allocations(|| OidBuf::from_arcs(&arcs).unwrap());
    assert_eq!(n, 0);
    assert_eq!(oid.to_string(), "1.3.6.1.2.1.31.1.1.1.6.436211712");
    let to_ber = || {
        let vb = [wire::VarBind {
            name: ObjectName(oid.as_oid()),
            value: Value::Counter64(5).to_wire().unwrap(),
        }];
        message(&vb).to_ber().unwrap()
    };
    // The thread's first to_ber allocates its scratch buffer; every one allocates its result.
    let (first, _) = allocations(to_ber);
    let (n, bytes) = allocations(to_ber);
    assert_eq!((first, n), (2, 1));
    assert!(!bytes.is_empty());
}

/// A v3 user known to [`spawn_agent`]'s agent.
fn alloc_user() -> snmp_client::UsmUser {
    use snmp_client::usm::{AuthProtocol, PrivProtocol};
    snmp_client::UsmUser::new(
        "alloc",
        Some((AuthProtocol::Sha1, b"allocauthpass")),
        Some((PrivProtocol::Aes128, b"allocprivpass")),
    )
    .unwrap()
}

/// An agent in another thread (its allocations are not counted: the counter is per
/// thread) serving sysName.0 over v2c (`public`) and to [`alloc_user`]; its address and the
/// OID.
fn spawn_agent() -> (std::net::SocketAddr, OidBuf) {
    let oid: OidBuf = "1.3.6.1.2.1.1.5.0".parse().unwrap();
    let objects = vec![(oid.clone(), Value::OctetString(b"host".as_slice().into()))];
    (serve(objects, vec![alloc_user()]), oid)
}

/// An agent in another thread serving `objects` over v2c (`public`) and to `users`.
fn serve(objects: Vec<(OidBuf, Value)>, users: Vec<snmp_client::UsmUser>) -> std::net::SocketAddr {
    use snmp_client::respond::{Responder, View};
    use std::sync::Arc;
    use std::time::Instant;

    let view = Arc::new(View::new(objects));
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = socket.local_addr().unwrap();
    std::thread::spawn(move || {
        let engine = b"\x80\x00\x1f\x88\x04alloc";
        let mut r = Responder::new(
            view,
            vec![b"public".to_vec()],
            users,
            engine,
            1,
            Instant::now(),
        );
        let mut buf = vec![0u8; 65_535];
        while let Ok((n, from)) = socket.recv_from(&mut buf) {
            if let Some(a) = r.handle(&buf[..n], Instant::now()) {
                let _ = socket.send_to(&a, from);
            }
        }
    });
    addr
}

/// Heap allocations per GET of one binding after warm-up, sync session, v2c and v3 authPriv.
/// `get` allocates once, the list of bindings it returns; `get_into` none (the caller's list
/// and the session's spare take turns). The datagram, the scoped PDU and its encryption and
/// decryption go into buffers the session reuses; the request's names, its wire bindings and
/// the USM security parameters stay on the stack.
#[test]
fn allocations_per_request() {
    use snmp_client::{Credentials, Options, Session};

    let (addr, oid) = spawn_agent();
    for (name, credentials) in [
        ("v2c", Credentials::V2c(b"public".to_vec())),
        ("v3 authPriv", Credentials::Usm(alloc_user())),
    ] {
        let mut s = Session::new(addr, credentials, Options::default()).unwrap();
        for _ in 0..10 {
            s.get(std::slice::from_ref(&oid)).unwrap();
        }
        let (n, _) = allocations(|| {
            for _ in 0..100 {
                s.get(std::slice::from_ref(&oid)).unwrap();
            }
        });
        // Two turns make the two lists that take turns.
        let mut out = Vec::new();
        for _ in 0..2 {
            s.get_into(std::slice::from_ref(&oid), &mut out).unwrap();
        }
        let (m, _) = allocations(|| {
            for _ in 0..100 {
                s.get_into(std::slice::from_ref(&oid), &mut out).unwrap();
            }
        });
        eprintln!(
            "{name}: {:.1} allocations per get, {:.1} per get_into",
            n as f64 / 100.0,
            m as f64 / 100.0
        );
        assert!(n <= 100, "{name}: {n} allocations in 100 gets");
        assert_eq!(m, 0, "{name}: allocations in 100 get_into");
        assert_eq!(out.len(), 1);
    }
}

/// The same on the tokio session (a current-thread runtime, so that the counter sees its
/// work): no allocation per `get_into` after warm-up, v2c and v3 authPriv.
#[cfg(feature = "tokio")]
#[test]
fn async_get_into_allocates_nothing() {
    use snmp_client::{AsyncSession, Credentials, Options};

    let (addr, oid) = spawn_agent();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for (name, credentials) in [
        ("v2c", Credentials::V2c(b"public".to_vec())),
        ("v3 authPriv", Credentials::Usm(alloc_user())),
    ] {
        let (mut s, mut out) = runtime.block_on(async {
            let mut s = AsyncSession::new(addr, credentials, Options::default())
                .await
                .unwrap();
            let mut out = Vec::new();
            for _ in 0..10 {
                s.get_into(std::slice::from_ref(&oid), &mut out)
                    .await
                    .unwrap();
            }
            (s, out)
        });
        // Outside tokio's cooperative budget, whose exhaustion (every 128 operations) defers a
        // waker into a list it allocates: tokio's allocation, not the session's.
        let (m, _) = allocations(|| {
            runtime.block_on(tokio::task::unconstrained(async {
                for _ in 0..100 {
                    s.get_into(std::slice::from_ref(&oid), &mut out)
                        .await
                        .unwrap();
                }
            }))
        });
        eprintln!(
            "{name} async: {:.2} allocations per get_into",
            m as f64 / 100.0
        );
        assert_eq!(m, 0, "{name}: allocations in 100 async get_into");
    }
}

/// A walk allocates nothing per request once warm: each answer's list of bindings serves the
/// next (`Walk::absorb` gives it back), the names and datagrams as for a GET. A walk of 100
/// bindings by GETBULK of 10, after a first walk.
#[test]
fn walks_allocate_nothing_per_request() {
    use snmp_client::{Credentials, Options, Session};

    let objects: Vec<(OidBuf, Value)> = (1..=100u32)
        .map(|k| {
            let oid = OidBuf::from_arcs(&[1, 3, 6, 1, 4, 1, 99999, 1, k]).unwrap();
            (oid, Value::Integer(i64::from(k)))
        })
        .collect();
    let addr = serve(objects, Vec::new());
    let options = Options {
        max_repetitions: 10,
        ..Options::default()
    };
    let mut s = Session::new(addr, Credentials::V2c(b"public".to_vec()), options).unwrap();
    let root = OidBuf::from_arcs(&[1, 3, 6, 1, 4, 1, 99999]).unwrap();
    let mut seen = 0;
    s.walk(&root, |_| seen += 1).unwrap();
    assert_eq!(seen, 100);
    let (n, requests) = allocations(|| s.walk(&root, |_| {}).unwrap());
    eprintln!("walk: {n} allocations in {requests} requests");
    assert!(requests >= 10, "{requests} requests");
    assert_eq!(n, 0, "allocations in a walk of {requests} requests");
}

/// Strings longer than a binding holds inline (80 octets: a description, a long ifAlias) are
/// written over the storage of the answer before, not allocated anew: a GETBULK of 50 into
/// the caller's list allocates nothing once warm; a walk of 100 such bindings by GETBULK of 10
/// allocates only its first answer's strings (the walk before ended on an answer of one
/// binding, and that is the list given back), never one a request; what both hand over is
/// the new answer's.
#[test]
fn long_strings_reuse_the_storage_of_the_answer_before() {
    use snmp_client::{Credentials, Options, Session};

    let text =
        |k: usize| Value::OctetString(format!("{k:03} {}", "x".repeat(76)).as_bytes().into());
    let objects: Vec<(OidBuf, Value)> = (1..=100u32)
        .map(|k| {
            let oid = OidBuf::from_arcs(&[1, 3, 6, 1, 4, 1, 99999, 2, k]).unwrap();
            (oid, text(k as usize))
        })
        .collect();
    let expected: Vec<Value> = objects.iter().map(|(_, v)| v.clone()).collect();
    let addr = serve(objects, Vec::new());
    let options = Options {
        max_repetitions: 10,
        ..Options::default()
    };
    let mut s = Session::new(addr, Credentials::V2c(b"public".to_vec()), options).unwrap();
    let root = OidBuf::from_arcs(&[1, 3, 6, 1, 4, 1, 99999, 2]).unwrap();
    let mut got = Vec::with_capacity(100);
    s.walk(&root, |vb| got.push(vb.value == expected[got.len()]))
        .unwrap();
    assert_eq!(got.len(), 100);
    assert!(got.iter().all(|&same| same), "a value not the agent's");
    let (n, requests) = allocations(|| s.walk(&root, |_| {}).unwrap());
    assert!(requests >= 10, "{requests} requests");
    assert!(
        n <= 10,
        "{n} allocations in a walk of {requests} requests of 10 80-octet strings"
    );

    let mut out = Vec::new();
    for _ in 0..2 {
        s.get_bulk_into(0, 50, std::slice::from_ref(&root), &mut out)
            .unwrap();
    }
    let (n, ()) = allocations(|| {
        for _ in 0..10 {
            s.get_bulk_into(0, 50, std::slice::from_ref(&root), &mut out)
                .unwrap();
        }
    });
    assert_eq!(
        n, 0,
        "allocations in 10 get_bulk_into of 50 80-octet strings"
    );
    assert_eq!(out.len(), 50);
    assert!(out.iter().zip(&expected).all(|(vb, v)| vb.value == *v));
}
