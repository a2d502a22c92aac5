//! `snmpc get` and `snmpc walk` against a hostile responder on 127.0.0.1 (tests/support's
//! `hostile`): a forged unauthenticated answer to an SNMPv3 request is never printed, an
//! endless or broken walk ends with an error and exit 1 after what it got, never as an
//! apparently complete result.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use std::sync::Arc;

use snmp_ber::OidBuf;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::Value;
use snmp_test_support::hostile::{v2c_request, v2c_response, Reply, Responder, V3Agent};

const SYS_NAME: &str = "1.3.6.1.2.1.1.5.0";

fn oid(s: &str) -> OidBuf {
    s.parse().unwrap()
}

#[test]
fn a_forged_unauthenticated_answer_is_never_printed() {
    for privacy in [true, false] {
        let agent = Arc::new(V3Agent::new(
            b"\x80\x00\x1f\x88\x04hostile",
            5,
            1000,
            "u",
            Some((AuthProtocol::Sha1, b"authpassword")),
            privacy.then_some((PrivProtocol::Aes128, &b"privpassword"[..])),
        ));
        let r = Responder::start(move |d| {
            let Some(asked) = agent.read(d) else {
                return Vec::new();
            };
            if asked.discovery {
                return vec![Reply::Send(agent.discovery_report(&asked))];
            }
            let forged = Value::OctetString(b"FORGED-unauthenticated".to_vec().into());
            let mut f = agent.answer(&asked, vec![(oid(SYS_NAME), forged)]);
            f.auth = false;
            f.privacy = false;
            vec![Reply::Send(agent.seal(&f))]
        });
        let target = r.addr().to_string();
        let mut args = vec![
            "get",
            "-v",
            "3",
            "-u",
            "u",
            "-a",
            "SHA",
            "-A",
            "authpassword",
            "-t",
            "0.2",
            "-r",
            "1",
        ];
        if privacy {
            args.extend(["-x", "AES", "-X", "privpassword"]);
        }
        args.extend([target.as_str(), SYS_NAME]);
        let (out, err, code) = snmpc(&args);
        assert_eq!(code, 1, "{out}{err}");
        assert!(!out.contains("FORGED"), "{out}");
        assert!(
            err.contains("no answer")
                && err.contains("2 datagrams discarded: 2 wrong security level"),
            "{err}"
        );
    }
}

/// How a scripted agent answers a walk's request for the OID after the one given: the
/// error-status and the bindings.
type WalkAnswer = fn(&OidBuf) -> (i64, Vec<(OidBuf, Value)>);

/// A v2c agent answering walks by `answer(OID asked)`.
fn v2c_walker(answer: WalkAnswer) -> Responder {
    Responder::start(move |d| {
        let Some(asked) = v2c_request(d) else {
            return Vec::new();
        };
        let (status, bindings) = answer(&asked.oids[0]);
        vec![Reply::Send(v2c_response(
            b"public",
            asked.request_id,
            status,
            &bindings,
        ))]
    })
}

#[test]
fn an_endless_walk_stops_at_max_requests_and_says_so() {
    let r = v2c_walker(|last| {
        let next: OidBuf = format!("{last}.1").parse().unwrap();
        (0, vec![(next, Value::Integer(7))])
    });
    let target = r.addr().to_string();
    let (out, err, code) = snmpc(&[
        "walk",
        "--max-requests",
        "30",
        "-t",
        "0.5",
        &target,
        "1.3.6.1.2.1.1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 30, "{out}");
    assert!(
        err.contains("after 30 requests") && err.contains("incomplete"),
        "{err}"
    );
    let (_, err, code) = snmpc(&["walk", "--walk-timeout", "0", &target, "1.3"]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn a_walk_cut_short_by_the_agent_is_an_error() {
    // noSuchName in the middle of a v2c walk, an answer with no bindings, an OID that goes
    // back (the agent loops).
    let cut: [WalkAnswer; 3] = [
        |last| match last.to_string().as_str() {
            "1.3.6.1.2.1.1" => (0, vec![(oid("1.3.6.1.2.1.1.1.0"), Value::Integer(1))]),
            _ => (2, vec![(oid("1.3.6.1.2.1.1.1.0"), Value::Null)]),
        },
        |last| match last.to_string().as_str() {
            "1.3.6.1.2.1.1" => (0, vec![(oid("1.3.6.1.2.1.1.1.0"), Value::Integer(1))]),
            _ => (0, vec![]),
        },
        |last| match last.to_string().as_str() {
            "1.3.6.1.2.1.1" => (0, vec![(oid("1.3.6.1.2.1.1.1.0"), Value::Integer(1))]),
            _ => (0, vec![(oid("1.3.6.1.2.1.1.0"), Value::Integer(2))]),
        },
    ];
    // Said in snmpwalk's words: an error-status, exit 2; a loop, exit 1; no bindings, exit 1.
    let said = [
        (cut[0], 2, "Reason: (noSuchName)"),
        (cut[1], 1, "incomplete"),
        (
            cut[2],
            1,
            "Error: OID not increasing: SNMPv2-MIB::sysDescr.0\n >= SNMPv2-MIB::system.0\n",
        ),
    ];
    for (answer, want_code, said) in said {
        let r = v2c_walker(answer);
        let target = r.addr().to_string();
        let (out, err, code) = snmpc(&["walk", "-t", "0.5", &target, "1.3.6.1.2.1.1"]);
        assert_eq!(code, want_code, "{out}{err}");
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(err.contains(said), "{err}");
    }
}

#[test]
fn an_answer_with_too_few_bindings_is_an_error_not_an_empty_success() {
    // Every request answered with no bindings at all, or with one where two were asked.
    for (answered, args) in [
        (0, vec!["get", SYS_NAME]),
        (0, vec!["getnext", SYS_NAME]),
        (0, vec!["bulkget", SYS_NAME]),
        (1, vec!["get", SYS_NAME, "1.3.6.1.2.1.1.6.0"]),
    ] {
        let r = Responder::start(move |d| {
            let Some(asked) = v2c_request(d) else {
                return Vec::new();
            };
            let one = vec![(oid(SYS_NAME), Value::Integer(1))];
            let bindings = if answered == 0 { vec![] } else { one };
            let reply = v2c_response(b"public", asked.request_id, 0, &bindings);
            vec![Reply::Send(reply)]
        });
        let target = r.addr().to_string();
        let mut full = vec![args[0], "-t", "0.5", "-r", "0", &target];
        full.extend(&args[1..]);
        let (out, err, code) = snmpc(&full);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let asked = args.len() - 1;
        assert!(
            err.contains(&format!(
                "the agent answered {answered} bindings to a request of {asked}"
            )),
            "{args:?}: {err}"
        );
    }
}
