//! SNMPv3 against a real agent: our own net-snmp snmpd on 127.0.0.1, with a user at every
//! security level and protocol. Engine discovery (a Report of usmStatsUnknownEngineIDs gives
//! the engine's ID, boots and time), then a GET of sysLocation.0 sealed by `seal` and the
//! response opened by `Incoming`, its MAC checked and its scoped PDU decrypted; a message
//! signed with the wrong key is answered by a Report of usmStatsWrongDigests, and one whose
//! time is off by a Report of usmStatsNotInTimeWindows carrying the engine's clock.

#[path = "../../generated/tests/support/agent.rs"]
mod support;

use std::net::UdpSocket;
use std::time::{Duration, Instant};

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_client::incoming::flags;
use snmp_client::usm::{AuthProtocol, Key, PrivProtocol};
use snmp_client::{seal, Engine, Header, Incoming, Report, Security};
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
    let security = Security {
        user: b"",
        engine_id: b"",
        engine_boots: 0,
        engine_time: 0,
        auth: None,
        privacy: None,
    };
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
    Engine::from_message(&m)
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
        // The privacy key is localized with the authentication protocol's hash.
        let pkeys = privacy.map(|(p, pw)| {
            let hash = auth.expect("privacy comes with authentication").0;
            (p, Key::localized(hash, pw.as_bytes(), &engine).unwrap())
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
