//! Sessions against a hostile responder on 127.0.0.1 (tests/support's `hostile`), which
//! answers with exactly the datagrams each case needs: forged and unauthenticated answers,
//! answers below the request's security level, for another user or engine, with a bad MAC,
//! stale, truncated, for another request, from another port; agents whose walks loop, repeat,
//! never end, fail or answer with nothing. Every case runs through `Session` and
//! `AsyncSession` alike. The rule they check: values reach the caller only from an answer
//! that passes every check of the request's level; anything else is discarded and counted,
//! and the request goes on waiting for the genuine answer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use snmp_ber::OidBuf;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{
    AsyncSession, ClientError, Credentials, Discard, Options, Report, Session, Stats, UsmUser,
    Value, VarBind,
};
use snmp_test_support::hostile::{
    usm_stats, v2c_request, v2c_response, Forge, Reply, Responder, V3Agent,
};

const ENGINE: &[u8] = b"\x80\x00\x1f\x88\x04hostile-engine";
const SYS_NAME: &str = "1.3.6.1.2.1.1.5.0";
const AUTH: (AuthProtocol, &[u8]) = (AuthProtocol::Sha1, b"authpassword");
const PRIV: (PrivProtocol, &[u8]) = (PrivProtocol::Aes128, b"privpassword");

fn oid(s: &str) -> OidBuf {
    s.parse().unwrap()
}

fn text(s: &str) -> Value {
    Value::OctetString(s.into())
}

/// Patient enough for loopback, quick to give up: 150 ms, one retry.
fn quick() -> Options {
    Options {
        timeout: Duration::from_millis(150),
        retries: 1,
        ..Options::default()
    }
}

/// The agent side: engine boots 5, time 1000, user "u" at the level asked.
fn agent(privacy: bool) -> V3Agent {
    V3Agent::new(ENGINE, 5, 1000, "u", Some(AUTH), privacy.then_some(PRIV))
}

fn user(privacy: bool) -> Credentials {
    Credentials::Usm(UsmUser::new("u", Some(AUTH), privacy.then_some(PRIV)).unwrap())
}

/// What a run gave: the bindings handed over, and how it ended.
struct Outcome {
    bindings: Vec<VarBind>,
    result: Result<(), ClientError>,
    stats: Stats,
}

#[derive(Clone, Copy)]
enum Op {
    Get,
    Walk,
}

/// `op` through a `Session` against `addr`, its socket connected to the agent first when
/// `connect`.
fn run_sync(
    addr: SocketAddr,
    creds: &Credentials,
    options: Options,
    op: Op,
    connect: bool,
) -> Outcome {
    let mut s = Session::new(addr, creds.clone(), options).unwrap();
    if connect {
        s.connect_to_agent().unwrap();
    }
    let mut bindings = Vec::new();
    let result = match op {
        Op::Get => s.get(&[oid(SYS_NAME)]).map(|b| bindings = b),
        Op::Walk => s
            .walk(oid("1.3.6.1.2.1.1"), |vb| bindings.push(vb.clone()))
            .map(|_| ()),
    };
    Outcome {
        bindings,
        result,
        stats: *s.stats(),
    }
}

async fn run_async(
    addr: SocketAddr,
    creds: &Credentials,
    options: Options,
    op: Op,
    connect: bool,
) -> Outcome {
    let mut s = AsyncSession::new(addr, creds.clone(), options)
        .await
        .unwrap();
    if connect {
        s.connect_to_agent().await.unwrap();
    }
    let mut bindings = Vec::new();
    let result = match op {
        Op::Get => s.get(&[oid(SYS_NAME)]).await.map(|b| bindings = b),
        Op::Walk => s
            .walk(&oid("1.3.6.1.2.1.1"), |vb| bindings.push(vb.clone()))
            .await
            .map(|_| ()),
    };
    Outcome {
        bindings,
        result,
        stats: *s.stats(),
    }
}

/// `op` through a `Session`, then through an `AsyncSession`, against `responder`.
fn both(responder: &Responder, creds: &Credentials, options: Options, op: Op) -> [Outcome; 2] {
    both_on(responder, creds, options, op, false)
}

/// [`both`], each session's socket connected to the agent first when `connect`.
fn both_on(
    responder: &Responder,
    creds: &Credentials,
    options: Options,
    op: Op,
    connect: bool,
) -> [Outcome; 2] {
    let addr = responder.addr();
    let sync = run_sync(addr, creds, options, op, connect);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let asynchronous = rt.block_on(run_async(addr, creds, options, op, connect));
    [sync, asynchronous]
}

/// A v3 responder: discovery answered genuinely; every other request with `replies(agent,
/// asked)`, the genuine answer's bindings being sysName.0 = "genuine".
fn v3_responder<F>(privacy: bool, mut replies: F) -> Responder
where
    F: FnMut(&V3Agent, Forge) -> Vec<Reply> + Send + 'static,
{
    let agent = Arc::new(agent(privacy));
    Responder::start(move |datagram| {
        let Some(asked) = agent.read(datagram) else {
            return Vec::new();
        };
        if asked.discovery {
            return vec![Reply::Send(agent.discovery_report(&asked))];
        }
        let genuine = agent.answer(&asked, vec![(oid(SYS_NAME), text("genuine"))]);
        replies(&agent, genuine)
    })
}

fn forged(mut f: Forge, change: impl FnOnce(&mut Forge)) -> Forge {
    f.bindings = vec![(oid(SYS_NAME), text("FORGED"))];
    change(&mut f);
    f
}

fn assert_timed_out_discarding(outcomes: &[Outcome], why: Discard) {
    for o in outcomes {
        assert!(
            matches!(&o.result, Err(ClientError::Timeout { discarded, .. }) if discarded.get(why) == 2),
            "{:?}",
            o.result
        );
        assert!(o.bindings.is_empty());
        // Two attempts, each answered with the forgery.
        assert_eq!(o.stats.discarded(why), 2, "{:?}", o.stats);
        assert_eq!(o.stats.accepted, 1, "discovery's Report only");
    }
}

fn assert_genuine(outcomes: &[Outcome]) {
    for o in outcomes {
        assert!(o.result.is_ok(), "{:?}", o.result);
        assert_eq!(o.bindings.len(), 1);
        assert_eq!(o.bindings[0].value, text("genuine"));
    }
}

#[test]
fn unauthenticated_answers_to_authenticated_requests_are_discarded() {
    for privacy in [false, true] {
        let r = v3_responder(privacy, |a, g| {
            let f = forged(g, |f| {
                f.auth = false;
                f.privacy = false;
            });
            vec![Reply::Send(a.seal(&f))]
        });
        let outcomes = both(&r, &user(privacy), quick(), Op::Get);
        assert_timed_out_discarding(&outcomes, Discard::WrongSecurityLevel);
        // The forgery first, then the genuine answer: the genuine one is taken.
        let r = v3_responder(privacy, |a, g| {
            let f = forged(g.clone(), |f| {
                f.auth = false;
                f.privacy = false;
            });
            vec![Reply::Send(a.seal(&f)), Reply::Send(a.seal(&g))]
        });
        let outcomes = both(&r, &user(privacy), quick(), Op::Get);
        assert_genuine(&outcomes);
        for o in &outcomes {
            assert_eq!(o.stats.discarded(Discard::WrongSecurityLevel), 1);
        }
    }
}

#[test]
fn an_authenticated_answer_without_privacy_to_an_authpriv_request_is_discarded() {
    let r = v3_responder(true, |a, g| {
        vec![Reply::Send(a.seal(&forged(g, |f| f.privacy = false)))]
    });
    assert_timed_out_discarding(
        &both(&r, &user(true), quick(), Op::Get),
        Discard::WrongSecurityLevel,
    );
}

#[test]
fn answers_for_another_user_or_engine_are_discarded() {
    let r = v3_responder(true, |a, g| {
        vec![Reply::Send(
            a.seal(&forged(g, |f| f.user = b"other".to_vec())),
        )]
    });
    assert_timed_out_discarding(
        &both(&r, &user(true), quick(), Op::Get),
        Discard::UnknownUser,
    );
    let r = v3_responder(true, |a, g| {
        vec![Reply::Send(a.seal(&forged(g, |f| {
            f.engine_id = b"another engine".to_vec()
        })))]
    });
    assert_timed_out_discarding(
        &both(&r, &user(true), quick(), Op::Get),
        Discard::UnknownEngine,
    );
    // A noAuthNoPriv user's answers carry no MAC, but still its name and engine.
    let agent = Arc::new(V3Agent::new(ENGINE, 5, 1000, "plain", None, None));
    let r = Responder::start(move |d| {
        let asked = agent.read(d).unwrap();
        if asked.discovery {
            return vec![Reply::Send(agent.discovery_report(&asked))];
        }
        let g = agent.answer(&asked, vec![(oid(SYS_NAME), text("genuine"))]);
        let f = forged(g.clone(), |f| f.user = b"someone else".to_vec());
        vec![Reply::Send(agent.seal(&f)), Reply::Send(agent.seal(&g))]
    });
    let plain = Credentials::Usm(UsmUser::new("plain", None, None).unwrap());
    let outcomes = both(&r, &plain, quick(), Op::Get);
    assert_genuine(&outcomes);
    for o in &outcomes {
        assert_eq!(o.stats.discarded(Discard::UnknownUser), 1);
    }
}

#[test]
fn bad_macs_truncations_other_ids_and_other_ports_do_not_end_the_request() {
    let r = v3_responder(true, |a, g| {
        let bad_mac = a.seal(&forged(g.clone(), |f| f.break_mac = true));
        let genuine = a.seal(&g);
        let truncated = genuine[..genuine.len() / 2].to_vec();
        let other_id = a.seal(&forged(g.clone(), |f| f.msg_id += 1));
        vec![
            Reply::Send(bad_mac),
            Reply::Send(truncated),
            Reply::Send(other_id),
            Reply::FromOtherPort(genuine.clone()),
            Reply::Send(genuine),
        ]
    });
    let outcomes = both(&r, &user(true), quick(), Op::Get);
    assert_genuine(&outcomes);
    for o in &outcomes {
        let s = &o.stats;
        assert_eq!(s.discarded(Discard::WrongDigest), 1, "{s:?}");
        assert_eq!(s.discarded(Discard::Malformed), 1, "{s:?}");
        assert_eq!(s.discarded(Discard::Unmatched), 1, "{s:?}");
        assert_eq!(s.discarded(Discard::OtherSource), 1, "{s:?}");
        assert_eq!(s.discarded_total(), 4, "{s:?}");
    }
}

#[test]
fn stale_authenticated_answers_are_discarded_as_outside_the_time_window() {
    // Discovery said boots 5, time 1000: boots 1 and time 1 is an old message replayed.
    let r = v3_responder(true, |a, g| {
        vec![Reply::Send(a.seal(&forged(g, |f| {
            f.boots = 1;
            f.time = 1;
        })))]
    });
    assert_timed_out_discarding(
        &both(&r, &user(true), quick(), Op::Get),
        Discard::NotInTimeWindow,
    );
    // The same boot, 151 s behind the engine's clock: out; 100 s behind: in.
    for (behind, ok) in [(151, false), (100, true)] {
        let r = v3_responder(false, move |a, g| {
            let mut g = g;
            g.time -= behind;
            vec![Reply::Send(a.seal(&g))]
        });
        for o in both(&r, &user(false), quick(), Op::Get) {
            assert_eq!(o.result.is_ok(), ok, "{behind} s behind: {:?}", o.result);
        }
    }
}

#[test]
fn only_reports_rfc_3414_sends_unauthenticated_are_taken_unauthenticated() {
    // An unauthenticated notInTimeWindow Report is a forgery (the real one is
    // authenticated): discarded, and the clock is not moved by it.
    let r = v3_responder(true, |a, g| {
        let f = forged(g, |f| {
            f.auth = false;
            f.privacy = false;
            f.report = Some(usm_stats(2));
            f.boots = 0;
            f.time = 0;
        });
        vec![Reply::Send(a.seal(&f))]
    });
    assert_timed_out_discarding(
        &both(&r, &user(true), quick(), Op::Get),
        Discard::WrongSecurityLevel,
    );
    // usmStatsWrongDigests comes unauthenticated from a real agent (RFC 3414 3.2 step 6):
    // the request ends with it, and no values.
    let r = v3_responder(true, |a, g| {
        let f = forged(g, |f| {
            f.auth = false;
            f.privacy = false;
            f.report = Some(usm_stats(5));
        });
        vec![Reply::Send(a.seal(&f))]
    });
    for o in both(&r, &user(true), quick(), Op::Get) {
        assert!(
            matches!(o.result, Err(ClientError::Report(Report::WrongDigest))),
            "{:?}",
            o.result
        );
        assert!(o.bindings.is_empty());
    }
}

/// A v2c agent whose walk answers come from `answer(first, OID asked)`, `first` when the
/// OID asked is the walk's root.
fn v2c_walker<F>(answer: F) -> Responder
where
    F: Fn(bool, &OidBuf) -> (i64, Vec<(OidBuf, Value)>) + Send + 'static,
{
    let root = oid("1.3.6.1.2.1.1");
    Responder::start(move |d| {
        let Some(asked) = v2c_request(d) else {
            return Vec::new();
        };
        let (status, bindings) = answer(asked.oids[0] == root, &asked.oids[0]);
        vec![Reply::Send(v2c_response(
            b"public",
            asked.request_id,
            status,
            &bindings,
        ))]
    })
}

fn v2c() -> Credentials {
    Credentials::V2c(b"public".to_vec())
}

fn system(k: usize) -> OidBuf {
    oid(&format!("1.3.6.1.2.1.1.{k}.0"))
}

#[test]
fn walks_of_agents_that_loop_or_repeat_end_in_errors() {
    // Decreasing: the second answer goes back to sysDescr.
    let r = v2c_walker(|first, _| (0, vec![(system(if first { 5 } else { 1 }), Value::Null)]));
    for o in both(&r, &v2c(), quick(), Op::Walk) {
        assert!(
            matches!(o.result, Err(ClientError::NotIncreasing { .. })),
            "{:?}",
            o.result
        );
        assert_eq!(o.bindings.len(), 1);
    }
    // The same OID again and again.
    let r = v2c_walker(|_, _| (0, vec![(system(3), Value::Null)]));
    for o in both(&r, &v2c(), quick(), Op::Walk) {
        assert!(
            matches!(o.result, Err(ClientError::NotIncreasing { .. })),
            "{:?}",
            o.result
        );
    }
}

#[test]
fn a_walk_of_an_endless_mib_stops_at_its_limit() {
    let r = v2c_walker(|_, last| {
        let mut arcs: Vec<u32> = last.as_oid().arcs().collect();
        arcs.push(1);
        let next: OidBuf = arcs
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(".")
            .parse()
            .unwrap();
        (0, vec![(next, Value::Integer(1))])
    });
    let options = Options {
        max_walk_requests: 40,
        ..quick()
    };
    for o in both(&r, &v2c(), options, Op::Walk) {
        assert!(
            matches!(o.result, Err(ClientError::WalkTooLong { requests: 40, .. })),
            "{:?}",
            o.result
        );
        assert_eq!(o.bindings.len(), 40);
    }
}

#[test]
fn a_walk_cut_by_an_error_or_an_empty_answer_says_so() {
    // noSuchName in the middle of a v2c walk: an error, not the end of the MIB.
    let r = v2c_walker(|first, _| match first {
        true => (0, vec![(system(1), Value::Null)]),
        false => (2, vec![(system(1), Value::Null)]),
    });
    for o in both(&r, &v2c(), quick(), Op::Walk) {
        assert!(
            matches!(o.result, Err(ClientError::ErrorStatus { status: 2, .. })),
            "{:?}",
            o.result
        );
        assert_eq!(o.bindings.len(), 1);
    }
    let r = v2c_walker(|first, _| match first {
        true => (0, vec![(system(1), Value::Null)]),
        false => (0, vec![]),
    });
    for o in both(&r, &v2c(), quick(), Op::Walk) {
        assert!(
            matches!(o.result, Err(ClientError::NoBindings(_))),
            "{:?}",
            o.result
        );
    }
}

#[test]
fn v2c_answers_for_other_requests_or_garbage_are_skipped() {
    let r = Responder::start(|d| {
        let asked = v2c_request(d).unwrap();
        let answer = |id, s: &str| v2c_response(b"public", id, 0, &[(oid(SYS_NAME), text(s))]);
        vec![
            Reply::Send(answer(asked.request_id.wrapping_add(7), "other")),
            Reply::Send(b"\x30\x03\x02\x01".to_vec()),
            Reply::FromOtherPort(answer(asked.request_id, "other port")),
            Reply::Send(answer(asked.request_id, "genuine")),
        ]
    });
    for o in both(&r, &v2c(), quick(), Op::Get) {
        assert_eq!(o.bindings.len(), 1, "{:?}", o.result);
        assert_eq!(o.bindings[0].value, text("genuine"));
        assert_eq!(o.stats.discarded(Discard::Unmatched), 1);
        assert_eq!(o.stats.discarded(Discard::Malformed), 1);
        assert_eq!(o.stats.discarded(Discard::OtherSource), 1);
    }
}

#[test]
fn sessions_debug_without_secrets() {
    let r = Responder::start(|d| {
        let asked = v2c_request(d).unwrap();
        let value = [(oid(SYS_NAME), text("SecretValue"))];
        vec![Reply::Send(v2c_response(
            b"S3cretCommunity",
            asked.request_id,
            0,
            &value,
        ))]
    });
    let community = Credentials::V2c(b"S3cretCommunity".to_vec());
    let mut s = Session::new(r.addr(), community.clone(), quick()).unwrap();
    s.get(&[oid(SYS_NAME)]).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let shown_async = rt.block_on(async {
        let mut s = AsyncSession::new(r.addr(), community, quick())
            .await
            .unwrap();
        s.get(&[oid(SYS_NAME)]).await.unwrap();
        format!("{s:?}")
    });
    for shown in [format!("{s:?}"), shown_async] {
        assert!(
            !shown.contains("S3cret") && !shown.contains("SecretValue"),
            "{shown}"
        );
        assert!(shown.len() < 2000, "{} characters", shown.len());
    }
    let v3 = Session::new(r.addr(), user(true), quick()).unwrap();
    let shown = format!("{v3:?}");
    assert!(!shown.contains("password"), "{shown}");
}

/// A BER TLV with a definite length (short or long form).
fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    match contents.len() {
        n @ 0..=0x7f => out.push(n as u8),
        n => {
            let octets: Vec<u8> = (n as u32)
                .to_be_bytes()
                .into_iter()
                .skip_while(|&b| b == 0)
                .collect();
            out.push(0x80 | octets.len() as u8);
            out.extend(octets);
        }
    }
    out.extend(contents);
    out
}

#[test]
fn unsigned_values_without_their_leading_zero_are_read_as_net_snmp_reads_them() {
    // Counter32, Gauge32, TimeTicks and Counter64 of 0xffffffff in four octets, a Counter64
    // of 2^64 - 1 in eight, a Counter32 `ff` and a Counter64 `80`: strict BER reads each as a
    // negative number; net-snmp 5.9's snmpget, answered by this responder's octets, printed
    // 4294967295, 18446744073709551615, 255 and 128.
    const FF4: &[u8] = &[0xff; 4];
    const FF8: &[u8] = &[0xff; 8];
    let values: [(u8, &[u8]); 7] = [
        (0x41, FF4),
        (0x42, FF4),
        (0x43, FF4),
        (0x46, FF4),
        (0x46, FF8),
        (0x41, &[0xff]),
        (0x46, &[0x80]),
    ];
    let r = Responder::start(move |d| {
        let Some(asked) = v2c_request(d) else {
            return Vec::new();
        };
        let mut list = Vec::new();
        for (k, (tag, contents)) in values.iter().enumerate() {
            let name = oid(&format!("1.3.6.1.4.1.9999.{}", k + 1));
            list.extend(tlv(
                0x30,
                &[tlv(0x06, name.as_oid().as_ber()), tlv(*tag, contents)].concat(),
            ));
        }
        let id = asked.request_id.to_be_bytes();
        let pdu = [
            tlv(0x02, &id),
            tlv(0x02, &[0]),
            tlv(0x02, &[0]),
            tlv(0x30, &list),
        ]
        .concat();
        let msg = [tlv(0x02, &[1]), tlv(0x04, b"public"), tlv(0xa2, &pdu)].concat();
        vec![Reply::Send(tlv(0x30, &msg))]
    });
    let oids: Vec<OidBuf> = (1..=7)
        .map(|k| oid(&format!("1.3.6.1.4.1.9999.{k}")))
        .collect();
    let mut s = Session::new(r.addr(), Credentials::V2c(b"public".to_vec()), quick()).unwrap();
    let got: Vec<Value> = s
        .get(&oids)
        .unwrap()
        .into_iter()
        .map(|vb| vb.value)
        .collect();
    assert_eq!(
        got,
        [
            Value::Counter32(u32::MAX),
            Value::Gauge32(u32::MAX),
            Value::TimeTicks(u32::MAX),
            Value::Counter64(u64::from(u32::MAX)),
            Value::Counter64(u64::MAX),
            Value::Counter32(255),
            Value::Counter64(128),
        ]
    );
    // Marked: the one answer was read only with the relaxation.
    assert_eq!(s.stats().relaxed, 1);
    assert_eq!(s.stats().discarded_total(), 0);
}

/// `sealed`, an unauthenticated SNMPv3 message whose engine boots and time are 221, written
/// again with each of the two in one octet, `dd`, as an agent that leaves out the leading zero
/// octet writes them (zeek's snmpv3_get_next.pcap holds such an agent's answers).
fn boots_and_time_unpadded(sealed: &[u8]) -> Vec<u8> {
    let m = snmp_client::Incoming::parse(sealed).unwrap();
    let h = &m.message.msg_global_data;
    let u = &m.usm;
    assert_eq!(
        (
            u.msg_authoritative_engine_boots,
            u.msg_authoritative_engine_time
        ),
        (221, 221)
    );
    let params = m.message.msg_security_parameters;
    let scoped_at = params.as_ptr() as usize - sealed.as_ptr() as usize + params.len();
    let header = [
        tlv(0x02, &h.msg_id.to_be_bytes()),
        tlv(0x02, &h.msg_max_size.to_be_bytes()),
        tlv(0x04, &h.msg_flags),
        tlv(0x02, &[3]),
    ]
    .concat();
    let usm = [
        tlv(0x04, u.msg_authoritative_engine_id),
        tlv(0x02, &[0xdd]),
        tlv(0x02, &[0xdd]),
        tlv(0x04, u.msg_user_name),
        tlv(0x04, b""),
        tlv(0x04, b""),
    ]
    .concat();
    let message = [
        tlv(0x02, &[3]),
        tlv(0x30, &header),
        tlv(0x04, &tlv(0x30, &usm)),
        sealed[scoped_at..].to_vec(),
    ]
    .concat();
    tlv(0x30, &message)
}

#[test]
fn engine_boots_and_time_without_their_leading_zero_are_read_as_unsigned() {
    // Strict BER reads `02 01 dd` as -35, outside msgAuthoritativeEngineBoots's 0..2147483647:
    // every answer of such an agent, its discovery Report first, would be dropped.
    let agent = Arc::new(V3Agent::new(ENGINE, 221, 221, "plain", None, None));
    let r = Responder::start(move |d| {
        let asked = agent.read(d).unwrap();
        let sealed = if asked.discovery {
            agent.discovery_report(&asked)
        } else {
            agent.seal(&agent.answer(&asked, vec![(oid(SYS_NAME), text("genuine"))]))
        };
        vec![Reply::Send(boots_and_time_unpadded(&sealed))]
    });
    let plain = Credentials::Usm(UsmUser::new("plain", None, None).unwrap());
    for o in both(&r, &plain, quick(), Op::Get) {
        o.result.unwrap();
        let got: Vec<(OidBuf, Value)> = o
            .bindings
            .into_iter()
            .map(|vb| (vb.oid, vb.value))
            .collect();
        assert_eq!(got, [(oid(SYS_NAME), text("genuine"))]);
        // The discovery Report and the answer, each read only with the relaxation.
        assert_eq!(o.stats.relaxed, 2);
        assert_eq!(o.stats.discarded_total(), 0);
    }
}

#[test]
fn a_session_opens_on_an_address_as_net_snmp_writes_it() {
    let r = Responder::start(|d| {
        let Some(asked) = v2c_request(d) else {
            return Vec::new();
        };
        let bindings = vec![(oid(SYS_NAME), text("opened"))];
        vec![Reply::Send(v2c_response(
            b"public",
            asked.request_id,
            0,
            &bindings,
        ))]
    });
    let port = r.addr().port();
    for agent in [
        format!("udp:127.0.0.1:{port}"),
        format!("[127.0.0.1]:{port}"),
    ] {
        let public = Credentials::V2c(b"public".to_vec());
        let mut s = Session::open(&agent, public, quick()).unwrap();
        let got = s.get(&[oid(SYS_NAME)]).unwrap();
        assert_eq!(got[0].value, text("opened"), "{agent}");
    }
    let public = Credentials::V2c(b"public".to_vec());
    let e = Session::open("ssh:127.0.0.1", public, quick()).unwrap_err();
    assert!(matches!(e, ClientError::Target(_)), "{e}");
}

/// A session connected to its agent hears that nothing listens at the agent's port (the
/// ICMP port unreachable, as `Connection refused`) at its first wait; unconnected, it hears
/// nothing and times out. Both drivers.
/// A connected session (sending with `send`, receiving with `recv`) gets and walks as an
/// unconnected one, and never sees a datagram from another port: the system drops it, so
/// none is counted as from another source. Both drivers.
#[test]
fn a_connected_session_gets_and_walks_and_hears_only_its_agent() {
    let r = Responder::start(|d| {
        let asked = v2c_request(d).unwrap();
        let answer =
            |s: &str| v2c_response(b"public", asked.request_id, 0, &[(oid(SYS_NAME), text(s))]);
        vec![
            Reply::FromOtherPort(answer("other port")),
            Reply::Send(answer("genuine")),
        ]
    });
    for connect in [false, true] {
        for o in both_on(&r, &v2c(), quick(), Op::Get, connect) {
            assert_eq!(o.bindings.len(), 1, "{:?}", o.result);
            assert_eq!(o.bindings[0].value, text("genuine"));
            let other = o.stats.discarded(Discard::OtherSource);
            assert_eq!(other, u64::from(!connect), "connected: {connect}");
        }
    }
    let r = v2c_walker(|first, _| match first {
        true => (0, vec![(system(1), text("one")), (system(2), text("two"))]),
        false => (0, vec![(oid("1.3.6.1.2.1.2.1.0"), Value::Integer(1))]),
    });
    for o in both_on(&r, &v2c(), quick(), Op::Walk, true) {
        assert!(o.result.is_ok(), "{:?}", o.result);
        let values: Vec<&Value> = o.bindings.iter().map(|b| &b.value).collect();
        assert_eq!(values, [&text("one"), &text("two")]);
    }
}

#[test]
fn a_connected_session_hears_that_nothing_listens() {
    let closed = {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        s.local_addr().unwrap()
    };
    let options = Options {
        timeout: Duration::from_millis(300),
        retries: 0,
        ..Options::default()
    };
    let v2c = Credentials::V2c(b"public".to_vec());
    let refused = |r: &Result<Vec<VarBind>, ClientError>| matches!(r, Err(ClientError::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused);
    let mut s = Session::new(closed, v2c.clone(), options).unwrap();
    let unconnected = s.get(&[oid(SYS_NAME)]);
    assert!(
        matches!(unconnected, Err(ClientError::Timeout { .. })),
        "{unconnected:?}"
    );
    let mut s = Session::new(closed, v2c.clone(), options).unwrap();
    s.connect_to_agent().unwrap();
    let connected = s.get(&[oid(SYS_NAME)]);
    assert!(refused(&connected), "{connected:?}");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let connected = rt.block_on(async {
        let mut s = AsyncSession::new(closed, v2c, options).await.unwrap();
        s.connect_to_agent().await.unwrap();
        s.get(&[oid(SYS_NAME)]).await
    });
    assert!(refused(&connected), "{connected:?}");
}
