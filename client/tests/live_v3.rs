//! SNMPv3 against a real agent: our own net-snmp snmpd on 127.0.0.1, with a user at every
//! security level and protocol. Engine discovery (a Report of usmStatsUnknownEngineIDs gives
//! the engine's ID, boots and time), then a GET of sysLocation.0 sealed by `seal` and the
//! response opened by `Incoming`, its MAC checked and its scoped PDU decrypted; a message
//! signed with the wrong key is answered by a Report of usmStatsWrongDigests, and one whose
//! time is off by a Report of usmStatsNotInTimeWindows carrying the engine's clock.

use snmp_test_support::agent as support;

use std::net::UdpSocket;
use std::time::{Duration, Instant};

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_client::incoming::flags;
use snmp_client::usm::{AuthProtocol, Key, PrivProtocol};
use snmp_client::{
    seal, AsyncSession, ClientError, Credentials, Engine, Header, Incoming, Options, Report,
    Security, Session, UsmUser, Value,
};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::{ObjectName, ObjectSyntax, SimpleSyntax};
use snmp_messages::snmpv3_message_syntax::ScopedPdu;

/// (user, auth protocol and password, privacy protocol and password): every level and
/// protocol net-snmp's snmpd offers.
type User = (
    &'static str,
    Option<(AuthProtocol, &'static str)>,
    Option<(PrivProtocol, &'static str)>,
);

const USERS: &[User] = &[
    ("noauthuser", None, None),
    ("md5user", Some((AuthProtocol::Md5, "md5password")), None),
    ("shauser", Some((AuthProtocol::Sha1, "shapassword")), None),
    (
        "sha224user",
        Some((AuthProtocol::Sha224, "sha224password")),
        None,
    ),
    (
        "sha256user",
        Some((AuthProtocol::Sha256, "sha256password")),
        None,
    ),
    (
        "sha384user",
        Some((AuthProtocol::Sha384, "sha384password")),
        None,
    ),
    (
        "sha512user",
        Some((AuthProtocol::Sha512, "sha512password")),
        None,
    ),
    (
        "desuser",
        Some((AuthProtocol::Sha1, "desauthpass")),
        Some((PrivProtocol::Des, "desprivpass")),
    ),
    (
        "aesuser",
        Some((AuthProtocol::Sha1, "aesauthpass")),
        Some((PrivProtocol::Aes128, "aesprivpass")),
    ),
    (
        "aes192user",
        Some((AuthProtocol::Sha256, "aes192authpass")),
        Some((PrivProtocol::Aes192, "aes192privpass")),
    ),
    (
        "aes256user",
        Some((AuthProtocol::Sha512, "aes256authpass")),
        Some((PrivProtocol::Aes256, "aes256privpass")),
    ),
    // SHA-1's 20 octets extended to AES-256's 32: Blumenthal's draft, and Cisco's (Reeder).
    (
        "blumenthaluser",
        Some((AuthProtocol::Sha1, "blumauthpass")),
        Some((PrivProtocol::Aes256, "blumprivpass")),
    ),
    (
        "reederuser",
        Some((AuthProtocol::Md5, "reederauthpass")),
        Some((PrivProtocol::Aes192C, "reederprivpass")),
    ),
];

/// The agent's configuration lines for `USERS`.
fn users_conf() -> String {
    let mut conf = String::new();
    for (name, auth, privacy) in USERS {
        let mut line = format!("createUser {name}");
        if let Some((p, pw)) = auth {
            line += &format!(" {} \"{pw}\"", p.name());
        }
        if let Some((p, pw)) = privacy {
            line += &format!(" {} \"{pw}\"", p.name());
        }
        let level = match (auth, privacy) {
            (None, _) => "noauth",
            (Some(_), None) => "auth",
            (Some(_), Some(_)) => "priv",
        };
        conf += &format!("{line}\nrouser {name} {level}\n");
    }
    conf
}

/// A GetRequest scoped PDU for `oid` in the engine's default context.
fn get_request(engine: &[u8], request_id: i32, oid: &str) -> Vec<u8> {
    let name: OidBuf = oid.parse().unwrap();
    let vbs = [VarBind {
        name: ObjectName(name.as_oid()),
        value: VarBindValue::UnSpecified,
    }];
    ScopedPdu {
        context_engine_id: engine,
        context_name: b"",
        data: Pdus::GetRequest(GetRequestPdu(Pdu {
            request_id,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    }
    .to_ber()
    .unwrap()
}

const HEADER: Header = Header {
    msg_id: 0,
    max_size: 65507,
    reportable: true,
};

/// Sends `request`, returns the answer's octets; bounded in tries and time.
fn ask(sock: &UdpSocket, port: u16, request: &[u8]) -> Vec<u8> {
    support::exchange(
        sock,
        port,
        request,
        Instant::now() + Duration::from_secs(10),
    )
    .expect("the agent answers")
}

/// The engine, from the Report a discovery request gets (RFC 3414 4).
fn discover(sock: &UdpSocket, port: u16) -> Engine {
    let security = Security::DISCOVERY;
    let header = Header {
        msg_id: 1,
        ..HEADER
    };
    let request = seal(header, &security, &get_request(b"", 1, "1.3.6.1.2.1.1.6.0")).unwrap();
    let answer = ask(sock, port, &request);
    let m = Incoming::parse(&answer).unwrap();
    let scoped = m.scoped_pdu_octets(None).unwrap();
    assert_eq!(Report::of(&scoped), Some(Report::UnknownEngineId));
    assert!(!m.usm.msg_authoritative_engine_id.is_empty());
    Engine::from_message(&m, Instant::now())
}

#[test]
fn get_at_every_security_level_from_net_snmp() {
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, &users_conf());
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let known = discover(&sock, agent.port);
    let engine = known.id.clone();
    let mut answered = Vec::new();
    for (k, &(user, auth, privacy)) in USERS.iter().enumerate() {
        let keys = auth.map(|(p, pw)| (p, Key::localized(p, pw.as_bytes(), &engine).unwrap()));
        // The privacy key is localized with the authentication protocol's hash, and extended
        // when that is shorter than the cipher's key.
        let pkeys = privacy.map(|(p, pw)| {
            let hash = auth.expect("privacy comes with authentication").0;
            let kul = Key::localized(hash, pw.as_bytes(), &engine).unwrap();
            (p, p.extend_key(kul, hash, &engine))
        });
        let request_id = 100 + k as i32;
        let (boots, time) = known.clock_at(Instant::now());
        let security = Security {
            user: user.as_bytes(),
            engine_id: &engine,
            engine_boots: boots,
            engine_time: time,
            auth: keys.as_ref().map(|(p, key)| (*p, key)),
            privacy: pkeys
                .as_ref()
                .map(|(p, key)| (*p, key, (request_id as u64).to_be_bytes())),
        };
        let header = Header {
            msg_id: request_id as u32,
            ..HEADER
        };
        let scoped = get_request(&engine, request_id, "1.3.6.1.2.1.1.6.0");
        let request = seal(header, &security, &scoped).unwrap();
        let answer = ask(&sock, agent.port, &request);
        let m = Incoming::parse(&answer).unwrap();
        assert_eq!(m.message.msg_global_data.msg_id, request_id as u32);
        if let Some((p, key)) = &keys {
            assert_ne!(
                m.flags() & flags::AUTH,
                0,
                "{user}: an authenticated answer"
            );
            m.verify(*p, key).unwrap_or_else(|e| panic!("{user}: {e}"));
        }
        let scoped = m
            .scoped_pdu_octets(pkeys.as_ref().map(|(p, key)| (*p, key)))
            .unwrap_or_else(|e| panic!("{user}: {e}"));
        let ScopedPdu { data, .. } = ScopedPdu::from_ber(&scoped).unwrap();
        let Pdus::Response(r) = data else {
            panic!("{user}: answered by {data:?}")
        };
        assert_eq!(r.0.request_id, request_id, "{user}");
        assert_eq!(r.0.error_status, PduErrorStatus::NO_ERROR, "{user}");
        let vb = r.0.variable_bindings.0.iter().next().unwrap().unwrap();
        let VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(v))) = vb.value
        else {
            panic!("{user}: sysLocation.0 is {:?}", vb.value)
        };
        assert_eq!(v, b"interop-test", "{user}");
        answered.push(user);
    }
    assert_eq!(answered.len(), USERS.len());

    // The wrong key: the agent answers with a Report of usmStatsWrongDigests.
    let (boots, time) = known.clock_at(Instant::now());
    let wrong = Key::localized(AuthProtocol::Sha1, b"not the password", &engine).unwrap();
    let security = Security {
        user: b"shauser",
        engine_id: &engine,
        engine_boots: boots,
        engine_time: time,
        auth: Some((AuthProtocol::Sha1, &wrong)),
        privacy: None,
    };
    let header = Header {
        msg_id: 999,
        ..HEADER
    };
    let scoped = get_request(&engine, 999, "1.3.6.1.2.1.1.6.0");
    let answer = ask(
        &sock,
        agent.port,
        &seal(header, &security, &scoped).unwrap(),
    );
    let m = Incoming::parse(&answer).unwrap();
    let report = m.scoped_pdu_octets(None).unwrap();
    assert_eq!(Report::of(&report), Some(Report::WrongDigest));

    // A time 1000 s ahead of the engine's, with the right key: outside the window (RFC 3414
    // 3.2 step 7a). The Report is authenticated and carries the engine's clock, which the
    // manager may learn from.
    let key = Key::localized(AuthProtocol::Sha1, b"shapassword", &engine).unwrap();
    let security = Security {
        engine_time: time + 1000,
        auth: Some((AuthProtocol::Sha1, &key)),
        ..security
    };
    let header = Header {
        msg_id: 1000,
        ..HEADER
    };
    let answer = ask(
        &sock,
        agent.port,
        &seal(header, &security, &scoped).unwrap(),
    );
    let m = Incoming::parse(&answer).unwrap();
    m.verify(AuthProtocol::Sha1, &key).unwrap();
    let report = m.scoped_pdu_octets(None).unwrap();
    assert_eq!(Report::of(&report), Some(Report::NotInTimeWindow));
    let now = Instant::now();
    let (b, t) = (
        m.usm.msg_authoritative_engine_boots,
        m.usm.msg_authoritative_engine_time,
    );
    assert!(
        known.in_time_window(b, t, now),
        "the engine's clock {b}/{t}"
    );
    let mut learned = known.clone();
    learned.learn(b, t, now);
    let (lb, lt) = learned.clock_at(now);
    assert_eq!(lb, boots);
    assert!(lt.abs_diff(time) <= 2, "{lt} against {time}");
    println!(
        "snmpd answered a GET at every level ({} users), refused the wrong digest and the time outside the window",
        answered.len()
    );
}

/// A session of `user` (by its row in `USERS`) with the agent on `port`.
fn session(port: u16, user: &str) -> Session {
    let &(name, auth, privacy) = USERS.iter().find(|u| u.0 == user).expect("a user");
    let creds = Credentials::Usm(
        UsmUser::new(
            name,
            auth.map(|(p, pw)| (p, pw.as_bytes())),
            privacy.map(|(p, pw)| (p, pw.as_bytes())),
        )
        .unwrap(),
    );
    Session::new(
        ([127, 0, 0, 1], port).into(),
        creds,
        Options {
            timeout: Duration::from_millis(500),
            ..Options::default()
        },
    )
    .unwrap()
}

/// The OIDs of a walk, dotted.
fn walked(s: &mut Session, root: &str) -> (Vec<String>, usize) {
    let mut oids = Vec::new();
    let requests = s
        .walk(root.parse::<OidBuf>().unwrap(), |vb| {
            oids.push(vb.oid.to_string())
        })
        .unwrap();
    (oids, requests)
}

#[test]
fn sessions_get_and_walk_like_net_snmp() {
    let (Some(snmpd), Some(snmpwalk)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, &users_conf());
    // net-snmp's walk of the system group: the OIDs, in order.
    let theirs: Vec<String> = support::snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.1")
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|o| o.trim_start_matches('.').to_string())
        .collect();
    assert!(theirs.len() > 10, "{theirs:?}");

    // SNMPv2c.
    let mut v2 = Session::new(
        ([127, 0, 0, 1], agent.port).into(),
        Credentials::V2c(b"public".to_vec()),
        Options::default(),
    )
    .unwrap();
    let (ours, _) = walked(&mut v2, "1.3.6.1.2.1.1");
    assert_eq!(ours, theirs, "v2c walk");
    let got = v2.get(&["1.3.6.1.2.1.1.6.0".parse().unwrap()]).unwrap();
    assert_eq!(
        got[0].value,
        Value::OctetString(b"interop-test".to_vec().into())
    );

    // SNMPv1: GETNEXT walks, the end of the MIB said by noSuchName; no GETBULK.
    let mut v1 = Session::new(
        ([127, 0, 0, 1], agent.port).into(),
        Credentials::V1(b"public".to_vec()),
        Options::default(),
    )
    .unwrap();
    let (ours, requests) = walked(&mut v1, "1.3.6.1.2.1.1");
    assert_eq!(ours, theirs, "v1 walk");
    assert_eq!(
        requests,
        theirs.len() + 1,
        "one GETNEXT a binding, and the one past the end"
    );
    let got = v1.get(&["1.3.6.1.2.1.1.6.0".parse().unwrap()]).unwrap();
    assert_eq!(
        got[0].value,
        Value::OctetString(b"interop-test".to_vec().into())
    );
    assert!(matches!(
        v1.get_bulk(0, 10, &["1.3.6.1.2.1.1".parse().unwrap()]),
        Err(ClientError::NoBulkInV1)
    ));
    // A name the agent does not have: noSuchName (2) at binding 1.
    assert!(matches!(
        v1.get(&["1.3.6.1.2.1.1.99.0".parse().unwrap()]),
        Err(ClientError::ErrorStatus {
            status: 2,
            index: 1,
            ..
        })
    ));

    // SNMPv3 at every level, each session discovering the engine itself.
    for &(user, _, _) in USERS {
        let mut s = session(agent.port, user);
        let got = s.get(&["1.3.6.1.2.1.1.6.0".parse().unwrap()]).unwrap();
        assert_eq!(
            got[0].value,
            Value::OctetString(b"interop-test".to_vec().into()),
            "{user}"
        );
        let (ours, requests) = walked(&mut s, "1.3.6.1.2.1.1");
        assert_eq!(ours, theirs, "{user} walk");
        assert!(requests >= 2, "{user}: {requests} requests");
        assert!(s.engine().is_some_and(|e| !e.id.is_empty()));
    }

    // A clock 1000 s off (an engine kept from another session, say): the agent's
    // notInTimeWindow Report resynchronises the session, which sends the request again.
    let mut s = session(agent.port, "aesuser");
    s.get(&["1.3.6.1.2.1.1.6.0".parse().unwrap()]).unwrap();
    let right = s.engine().unwrap().clock_at(Instant::now()).1;
    let mut off = s.engine().unwrap().clone();
    off.time += 1000;
    s.set_engine(off);
    let got = s.get(&["1.3.6.1.2.1.1.6.0".parse().unwrap()]).unwrap();
    assert_eq!(
        got[0].value,
        Value::OctetString(b"interop-test".to_vec().into())
    );
    // The session's clock is the agent's again, not 1000 s ahead.
    let now = s.engine().unwrap().clock_at(Instant::now()).1;
    assert!(now >= right && now < right + 100, "{now} against {right}");

    // The wrong password: the agent's Report, as an error.
    let mut wrong = Session::new(
        ([127, 0, 0, 1], agent.port).into(),
        Credentials::Usm(
            UsmUser::new(
                "shauser",
                Some((AuthProtocol::Sha1, b"not the password")),
                None,
            )
            .unwrap(),
        ),
        Options::default(),
    )
    .unwrap();
    assert!(matches!(
        wrong.get(&["1.3.6.1.2.1.1.6.0".parse().unwrap()]),
        Err(ClientError::Report(Report::WrongDigest))
    ));
}

#[test]
fn sets_over_every_version_are_read_back() {
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    let conf = "rwcommunity private 127.0.0.1\n\
                createUser rwaes SHA \"rwauthpassword\" AES \"rwprivpassword\"\n\
                rwuser rwaes priv\n";
    let agent = support::start_agent_with(&snmpd, conf);
    let addr = ([127, 0, 0, 1], agent.port).into();
    let sys_name: OidBuf = "1.3.6.1.2.1.1.5.0".parse().unwrap();
    let v3 = Credentials::Usm(
        UsmUser::new(
            "rwaes",
            Some((AuthProtocol::Sha1, b"rwauthpassword")),
            Some((PrivProtocol::Aes128, b"rwprivpassword")),
        )
        .unwrap(),
    );
    let sessions = [
        ("v1", Credentials::V1(b"private".to_vec())),
        ("v2c", Credentials::V2c(b"private".to_vec())),
        ("v3", v3),
    ];
    for (version, creds) in sessions {
        let mut s = Session::new(addr, creds, Options::default()).unwrap();
        let name = format!("set over {version}").into_bytes();
        let answer = s
            .set(&[(sys_name.clone(), Value::OctetString(name.clone().into()))])
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_eq!(
            answer[0].value,
            Value::OctetString(name.clone().into()),
            "{version}"
        );
        let got = s.get(std::slice::from_ref(&sys_name)).unwrap();
        assert_eq!(got[0].value, Value::OctetString(name.into()), "{version}");
    }
    // A read-only object: notWritable (17) at binding 1, over v2c.
    let mut s = Session::new(
        addr,
        Credentials::V2c(b"private".to_vec()),
        Options::default(),
    )
    .unwrap();
    let err = s
        .set(&[(
            "1.3.6.1.2.1.1.1.0".parse().unwrap(),
            Value::OctetString(b"x".to_vec().into()),
        )])
        .unwrap_err();
    assert!(
        matches!(
            err,
            ClientError::ErrorStatus {
                status: 17,
                index: 1,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("error-status notWritable (17) at binding 1 (1.3.6.1.2.1.1.1.0)"),
        "{err}"
    );
    // A value no SET can carry.
    assert!(matches!(
        s.set(&[(sys_name.clone(), Value::EndOfMibView)]),
        Err(ClientError::NotSettable(_))
    ));
}

#[test]
fn a_silent_agent_times_out_after_the_retries() {
    // A socket that never answers.
    let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut s = Session::new(
        silent.local_addr().unwrap(),
        Credentials::V2c(b"public".to_vec()),
        Options {
            timeout: Duration::from_millis(100),
            retries: 2,
            ..Options::default()
        },
    )
    .unwrap();
    let started = Instant::now();
    let err = s.get(&["1.3.6.1.2.1.1.1.0".parse().unwrap()]).unwrap_err();
    // Each of the three attempts waited its whole timeout (the clock is read once a wait,
    // not at every step: a deadline never comes early).
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(
        matches!(err, ClientError::Timeout { attempts: 3, .. }),
        "{err}"
    );
    // Three sends, each waiting its timeout: bounded, not forever.
    assert_eq!(datagrams_received(&silent), 3);
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// How many datagrams `socket` holds (read until none comes for 100 ms).
fn datagrams_received(socket: &UdpSocket) -> usize {
    let mut buf = [0u8; 2048];
    socket
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut received = 0;
    while socket.recv_from(&mut buf).is_ok() {
        received += 1;
    }
    received
}

#[test]
fn a_silent_agent_times_out_after_the_retries_async_too() {
    let silent = UdpSocket::bind("127.0.0.1:0").unwrap();
    let target = silent.local_addr().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    let err = runtime.block_on(async move {
        let options = Options {
            timeout: Duration::from_millis(100),
            retries: 2,
            ..Options::default()
        };
        let public = Credentials::V2c(b"public".to_vec());
        let mut s = AsyncSession::new(target, public, options).await.unwrap();
        s.get(&["1.3.6.1.2.1.1.1.0".parse().unwrap()])
            .await
            .unwrap_err()
    });
    let waited = started.elapsed();
    assert!(
        matches!(err, ClientError::Timeout { attempts: 3, .. }),
        "{err}"
    );
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert_eq!(datagrams_received(&silent), 3);
}

#[test]
fn async_sessions_walk_in_parallel_like_the_sync_one() {
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, &users_conf());
    // Subtrees whose contents do not change between two walks.
    let roots = [
        "1.3.6.1.2.1.1",
        "1.3.6.1.2.1.2.2.1.2",
        "1.3.6.1.2.1.4.20",
        "1.3.6.1.6.3.10.2.1",
        "1.3.6.1.6.3.15.1.2.2",
    ];
    let mut sync = session(agent.port, "aes256user");
    let expected: Vec<Vec<String>> = roots.iter().map(|r| walked(&mut sync, r).0).collect();
    assert!(expected.iter().all(|oids| !oids.is_empty()), "{expected:?}");

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let port = agent.port;
    let got: Vec<Vec<String>> = runtime.block_on(async move {
        // Every walk in its own task and session, all at once, over v2c and v3 in turn.
        let mut tasks = tokio::task::JoinSet::new();
        for (k, root) in roots.iter().enumerate() {
            let root: OidBuf = root.parse().unwrap();
            let creds = if k % 2 == 0 {
                Credentials::V2c(b"public".to_vec())
            } else {
                Credentials::Usm(
                    UsmUser::new(
                        "aesuser",
                        Some((AuthProtocol::Sha1, b"aesauthpass")),
                        Some((PrivProtocol::Aes128, b"aesprivpass")),
                    )
                    .unwrap(),
                )
            };
            tasks.spawn(async move {
                let mut s =
                    AsyncSession::new(([127, 0, 0, 1], port).into(), creds, Options::default())
                        .await
                        .unwrap();
                let mut oids = Vec::new();
                s.walk(&root, |vb| oids.push(vb.oid.to_string()))
                    .await
                    .unwrap();
                (k, oids)
            });
        }
        let mut out = vec![Vec::new(); roots.len()];
        while let Some(done) = tasks.join_next().await {
            let (k, oids) = done.unwrap();
            out[k] = oids;
        }
        out
    });
    assert_eq!(got, expected);
}
