//! The registry across handlers: GETNEXT order over several subtrees, a SET two-phase across
//! handlers (commitFailed undoes the others), a handler that panics answered genErr while the
//! others go on, overlapping registrations refused; the AgentX session's answers.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use snmp_agent::agentx::pdu::{Header, Kind, Payload, Pdu, Writer, HEADER};
use snmp_agent::agentx::{Session, Subagent};
use snmp_agent::{ErrorStatus, Handler, RegisterError, Registry, SetError, Write};
use snmp_ber::OidBuf;
use snmp_client::Value;

/// Integers under one subtree; SETs staged then made; `fail_commit` makes commit fail;
/// `panic_on` panics on a GET of that name.
#[derive(Clone)]
struct Ints {
    subtree: Vec<u32>,
    values: Arc<Mutex<BTreeMap<Vec<u32>, i64>>>,
    staged: Vec<(Vec<u32>, i64)>,
    before: Vec<(Vec<u32>, Option<i64>)>,
    fail_commit: bool,
    panic_on: Option<Vec<u32>>,
}

impl Ints {
    fn new(subtree: &[u32], values: &[(u32, i64)]) -> Ints {
        let map = values
            .iter()
            .map(|(k, v)| ([subtree, &[*k, 0]].concat(), *v))
            .collect();
        Ints {
            subtree: subtree.to_vec(),
            values: Arc::new(Mutex::new(map)),
            staged: Vec::new(),
            before: Vec::new(),
            fail_commit: false,
            panic_on: None,
        }
    }
}

impl Handler for Ints {
    fn subtrees(&self) -> Vec<Vec<u32>> {
        vec![self.subtree.clone()]
    }

    fn get(&mut self, name: &[u32]) -> Value {
        if self.panic_on.as_deref() == Some(name) {
            panic!("a bug in a handler");
        }
        match self.values.lock().unwrap().get(name) {
            Some(v) => Value::Integer(*v),
            None => Value::NoSuchInstance,
        }
    }

    fn next(&mut self, name: &[u32]) -> Option<(OidBuf, Value)> {
        let values = self.values.lock().unwrap();
        let (k, v) = values.iter().find(|(k, _)| k.as_slice() > name)?;
        Some((OidBuf::from_arcs(k).unwrap(), Value::Integer(*v)))
    }

    fn test(&mut self, writes: &[Write]) -> Result<(), SetError> {
        self.staged.clear();
        for (at, (name, value)) in writes.iter().enumerate() {
            let Value::Integer(v) = value else {
                return Err(SetError::new(ErrorStatus::WrongType, at));
            };
            self.staged.push((name.as_oid().arcs().collect(), *v));
        }
        Ok(())
    }

    fn commit(&mut self) -> Result<(), SetError> {
        if self.fail_commit {
            return Err(SetError::new(ErrorStatus::CommitFailed, 0));
        }
        let mut values = self.values.lock().unwrap();
        for (k, v) in &self.staged {
            self.before.push((k.clone(), values.insert(k.clone(), *v)));
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<(), SetError> {
        let mut values = self.values.lock().unwrap();
        for (k, old) in self.before.drain(..).rev() {
            match old {
                Some(v) => values.insert(k, v),
                None => values.remove(&k),
            };
        }
        Ok(())
    }

    fn cleanup(&mut self) {
        self.staged.clear();
        self.before.clear();
    }
}

fn oid(arcs: &[u32]) -> OidBuf {
    OidBuf::from_arcs(arcs).unwrap()
}

const A: &[u32] = &[1, 3, 6, 1, 4, 1, 99, 1];
const B: &[u32] = &[1, 3, 6, 1, 4, 1, 99, 2];

#[test]
fn next_crosses_subtrees_in_order_and_sets_are_all_or_none() {
    let mut r = Registry::new();
    let b = Ints::new(B, &[(1, 20)]);
    let mut a = Ints::new(A, &[(1, 10), (2, 11)]);
    let b_values = b.values.clone();
    r.register(b).unwrap();
    a.fail_commit = false;
    let a_values = a.values.clone();
    r.register(a).unwrap();
    assert_eq!(
        r.register(Ints::new(&[1, 3, 6, 1, 4, 1, 99, 1, 5], &[])),
        Err(RegisterError::Overlap {
            new: vec![1, 3, 6, 1, 4, 1, 99, 1, 5],
            old: A.to_vec()
        })
    );
    let mut walked = Vec::new();
    let mut at = vec![1, 3];
    while let Some((o, v)) = r.next(&at).unwrap() {
        at = o.as_oid().arcs().collect();
        walked.push((at.last().copied(), v));
        assert!(walked.len() < 10);
    }
    assert_eq!(walked.len(), 3);
    assert_eq!(
        r.get(&[1, 3, 6, 1, 4, 1, 99, 3, 0]).unwrap(),
        Value::NoSuchObject
    );

    // Both handlers in one SET; the second's value is of the wrong type: nothing changes,
    // and the error names the request's third binding.
    let writes: Vec<Write> = vec![
        (oid(&[A, &[1, 0]].concat()), Value::Integer(100)),
        (oid(&[B, &[1, 0]].concat()), Value::Integer(200)),
        (oid(&[B, &[2, 0]].concat()), Value::Null),
    ];
    let e = r.set(&writes).unwrap_err();
    assert_eq!((e.status, e.at), (ErrorStatus::WrongType, 2));
    assert_eq!(a_values.lock().unwrap()[&[A, &[1, 0]].concat()], 10);
    r.set(&writes[..2]).unwrap();
    assert_eq!(a_values.lock().unwrap()[&[A, &[1, 0]].concat()], 100);
    assert_eq!(b_values.lock().unwrap()[&[B, &[1, 0]].concat()], 200);
    // Outside every subtree: notWritable.
    let outside = vec![(oid(&[1, 3, 6, 1, 4, 1, 98, 0]), Value::Integer(1))];
    assert_eq!(
        r.set(&outside).unwrap_err().status,
        ErrorStatus::NotWritable
    );
}

#[test]
fn a_failed_commit_undoes_the_handlers_committed_before_it() {
    let mut r = Registry::new();
    let a = Ints::new(A, &[(1, 10)]);
    let mut b = Ints::new(B, &[(1, 20)]);
    b.fail_commit = true;
    let a_values = a.values.clone();
    r.register(a).unwrap();
    r.register(b).unwrap();
    let writes: Vec<Write> = vec![
        (oid(&[A, &[1, 0]].concat()), Value::Integer(100)),
        (oid(&[B, &[1, 0]].concat()), Value::Integer(200)),
    ];
    let e = r.set(&writes).unwrap_err();
    assert_eq!((e.status, e.at), (ErrorStatus::CommitFailed, 1));
    assert_eq!(
        a_values.lock().unwrap()[&[A, &[1, 0]].concat()],
        10,
        "undone"
    );
}

#[test]
fn a_handler_that_panics_is_answered_gen_err_and_the_agent_goes_on() {
    let mut r = Registry::new();
    let mut a = Ints::new(A, &[(1, 10), (2, 11)]);
    a.panic_on = Some([A, &[2, 0]].concat());
    r.register(a).unwrap();
    assert_eq!(r.get(&[A, &[2, 0]].concat()), Err(ErrorStatus::GenErr));
    assert_eq!(r.get(&[A, &[1, 0]].concat()), Ok(Value::Integer(10)));
    assert_eq!(r.get(&[A, &[2, 0]].concat()), Err(ErrorStatus::GenErr));
}

/// A PDU from the master, as a session reads it.
fn from_master(bytes: Vec<u8>) -> Pdu {
    let header = Header::decode(&bytes).unwrap();
    Pdu::decode(header, &bytes[HEADER..]).unwrap()
}

/// The Response `bytes`: error, index, bindings.
fn response(bytes: &[u8]) -> (u16, u16, Vec<(OidBuf, Value)>) {
    match from_master(bytes.to_vec()).payload {
        Payload::Response {
            error,
            index,
            bindings,
            ..
        } => (error, index, bindings),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_agentx_session_opens_registers_and_answers() {
    let mut r = Registry::new();
    r.register(Ints::new(A, &[(1, 10), (2, 11), (3, 12)]))
        .unwrap();
    let (mut s, open) = Session::open(5, &[], "test");
    assert_eq!(from_master(open).header.kind, Kind::Open);
    // The master's Response to the Open names the session: the Registers follow.
    let mut w = Writer::new(Kind::Response, 0, 77, 0, 1);
    w.u32(0).u16(0).u16(0);
    let registers = s.handle(&from_master(w.finish()), &mut r).unwrap();
    assert_eq!(registers.len(), 1);
    let reg = from_master(registers[0].clone());
    assert_eq!((reg.header.kind, reg.header.session), (Kind::Register, 77));
    let mut w = Writer::new(Kind::Response, 0, 77, 0, reg.header.packet);
    w.u32(0).u16(0).u16(0);
    assert!(s
        .handle(&from_master(w.finish()), &mut r)
        .unwrap()
        .is_empty());
    assert_eq!(s.state(), snmp_agent::agentx::State::Open);

    // GetNext of a range that ends before the second value: endOfMibView past the first.
    let mut w = Writer::new(Kind::GetNext, 0, 77, 5, 6);
    w.oid(A, false).oid(&[A, &[2]].concat(), false);
    w.oid(&[A, &[1, 0]].concat(), false)
        .oid(&[A, &[2]].concat(), false);
    let out = s.handle(&from_master(w.finish()), &mut r).unwrap();
    let (error, _, bindings) = response(&out[0]);
    assert_eq!(error, 0);
    assert_eq!(
        bindings[0],
        (oid(&[A, &[1, 0]].concat()), Value::Integer(10))
    );
    assert_eq!(
        bindings[1],
        (oid(&[A, &[1, 0]].concat()), Value::EndOfMibView)
    );

    // GetBulk: one non-repeater, two repetitions of the rest.
    let mut w = Writer::new(Kind::GetBulk, 0, 77, 5, 7);
    w.u16(1).u16(2);
    w.oid(A, false).oid(&[], false);
    w.oid(A, false).oid(&[], false);
    let out = s.handle(&from_master(w.finish()), &mut r).unwrap();
    let (_, _, bindings) = response(&out[0]);
    let values: Vec<Value> = bindings.into_iter().map(|(_, v)| v).collect();
    assert_eq!(
        values,
        [Value::Integer(10), Value::Integer(10), Value::Integer(11)]
    );

    // TestSet of a wrong type: wrongType at the binding; CleanupSet gets no answer.
    let mut w = Writer::new(Kind::TestSet, 0, 77, 8, 9);
    w.binding(&oid(&[A, &[1, 0]].concat()), &Value::Null);
    let out = s.handle(&from_master(w.finish()), &mut r).unwrap();
    assert_eq!(response(&out[0]).0, ErrorStatus::WrongType.code() as u16);
    let cleanup = Writer::new(Kind::CleanupSet, 0, 77, 8, 10).finish();
    assert!(s.handle(&from_master(cleanup), &mut r).unwrap().is_empty());

    // A context this subagent does not serve.
    let mut w = Writer::new(
        Kind::Get,
        snmp_agent::agentx::pdu::flags::NON_DEFAULT_CONTEXT,
        77,
        11,
        12,
    );
    w.octets(b"other")
        .oid(&[A, &[1, 0]].concat(), false)
        .oid(&[], false);
    let out = s.handle(&from_master(w.finish()), &mut r).unwrap();
    assert_eq!(
        response(&out[0]).0,
        snmp_agent::agentx::pdu::errors::UNSUPPORTED_CONTEXT
    );
}

#[test]
fn the_standalone_agent_answers_a_panic_gen_err_and_serves_the_next_request() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc as StdArc;
    let mut r = Registry::new();
    let mut a = Ints::new(A, &[(1, 10), (2, 11)]);
    a.panic_on = Some([A, &[2, 0]].concat());
    r.register(a).unwrap();
    let access =
        snmp_agent::Access::new().community("public", snmp_agent::MibView::everything(), None);
    let mut agent = snmp_agent::Agent::new(r, access, b"\x80\x00\x1f\x88\x04test", 1);
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = socket.local_addr().unwrap();
    let stop = StdArc::new(AtomicBool::new(false));
    let serving = {
        let stop = stop.clone();
        std::thread::spawn(move || agent.serve(&socket, &stop))
    };
    let options = snmp_client::Options {
        timeout: std::time::Duration::from_secs(2),
        retries: 0,
        ..Default::default()
    };
    let mut s = snmp_client::Session::new(
        addr,
        snmp_client::Credentials::V2c(b"public".to_vec()),
        options,
    )
    .unwrap();
    let bad = s.get(&[oid(&[A, &[2, 0]].concat())]).unwrap_err();
    assert!(
        matches!(
            bad,
            snmp_client::ClientError::ErrorStatus {
                status: 5,
                index: 1,
                ..
            }
        ),
        "{bad}"
    );
    let good = s.get(&[oid(&[A, &[1, 0]].concat())]).unwrap();
    assert_eq!(good[0].value, Value::Integer(10));
    stop.store(true, Ordering::Relaxed);
    serving.join().unwrap().unwrap();
}

/// A master that sends what is not AgentX gets a Close (parseError) and a new session: the
/// subagent goes on.
#[test]
fn a_master_speaking_nonsense_is_left_and_connected_to_again() {
    use std::io::{Read, Write as _};
    use std::sync::atomic::{AtomicBool, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let sub = {
        let stop = stop.clone();
        let master = format!("tcp:127.0.0.1:{port}").parse().unwrap();
        std::thread::spawn(move || Subagent::new(Registry::new(), master).run(&stop))
    };
    let mut opens = 0;
    for _ in 0..2 {
        let (mut conn, _) = listener.accept().unwrap();
        conn.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let mut header = [0u8; HEADER];
        conn.read_exact(&mut header).unwrap();
        let open = Header::decode(&header).unwrap();
        assert_eq!(open.kind, Kind::Open);
        opens += 1;
        let mut payload = vec![0u8; open.length as usize];
        conn.read_exact(&mut payload).unwrap();
        // h.version 2: not AgentX.
        conn.write_all(&[2; HEADER]).unwrap();
        let mut close = [0u8; HEADER];
        conn.read_exact(&mut close).unwrap();
        assert_eq!(Header::decode(&close).unwrap().kind, Kind::Close);
    }
    assert_eq!(opens, 2);
    stop.store(true, Ordering::Relaxed);
    // Let it find the stop between attempts; a connection it makes meanwhile is refused.
    drop(listener);
    sub.join().unwrap().unwrap();
}
