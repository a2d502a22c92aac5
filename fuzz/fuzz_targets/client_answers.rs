//! The client's answer path: a session's sans-IO core (`Exchange`) sends an SNMPv3 authPriv
//! GET, then is fed datagrams built from the input: arbitrary octets, the genuine answer with
//! an octet changed or cut short, the genuine answer itself, or time passing. The request may
//! end only with the genuine answer's values (or a timeout, or a Report with no values):
//! never with values from a datagram that is not, octet for octet, the genuine answer.
#![no_main]
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Engine, Exchange, Options, Request, UsmUser, Value};
use snmp_test_support::hostile::V3Agent;

const ENGINE: &[u8] = b"\x80\x00\x1f\x88\x04fuzz-engine";
const AUTH: (AuthProtocol, &[u8]) = (AuthProtocol::Sha1, b"authpassword");
const PRIV: (PrivProtocol, &[u8]) = (PrivProtocol::Aes128, b"privpassword");

/// The user and the agent, keys from passwords computed once.
fn parties() -> &'static (UsmUser, V3Agent) {
    static P: OnceLock<(UsmUser, V3Agent)> = OnceLock::new();
    P.get_or_init(|| {
        let user = UsmUser::new("u", Some(AUTH), Some(PRIV)).unwrap();
        let agent = V3Agent::new(ENGINE, 5, 1000, "u", Some(AUTH), Some(PRIV));
        (user, agent)
    })
}

fuzz_target!(|data: &[u8]| {
    let (user, agent) = parties();
    let target = "127.0.0.1:161".parse().unwrap();
    let mut x = Exchange::new(target, Credentials::Usm(user.clone()), Options::default());
    let t0 = Instant::now();
    x.set_engine(Engine {
        id: ENGINE.to_vec(),
        boots: 5,
        time: 1000,
        learned_at: t0,
    });
    let oid = "1.3.6.1.2.1.1.5.0".parse().unwrap();
    x.start(Request::get(std::slice::from_ref(&oid)), t0);
    let request = x.poll_transmit(t0).unwrap().to_vec();
    let asked = agent.read(&request).expect("the agent reads the request");
    let values = vec![(oid, Value::OctetString(b"genuine".into()))];
    let genuine = agent.seal(&agent.answer(&asked, values.clone()));
    let mut now = t0;
    let mut rest = data;
    while let [op, tail @ ..] = rest {
        let fed: Vec<u8> = match op % 4 {
            0 => {
                let n = tail.first().map_or(0, |&n| usize::from(n) * 2).min(tail.len().saturating_sub(1));
                let d = tail.get(1..1 + n).unwrap_or(&[]).to_vec();
                rest = &tail[(1 + n).min(tail.len())..];
                d
            }
            1 => {
                let [at, by, more @ ..] = tail else { break };
                let mut d = genuine.clone();
                let at = usize::from(*at) * d.len() / 256;
                d[at] ^= by;
                rest = more;
                d
            }
            2 => {
                let [at, more @ ..] = tail else { break };
                rest = more;
                genuine[..usize::from(*at).min(genuine.len())].to_vec()
            }
            _ => {
                let [secs, more @ ..] = tail else { break };
                rest = more;
                now += Duration::from_millis(u64::from(*secs) * 20);
                x.handle_timeout(now);
                let _ = x.poll_transmit(now);
                continue;
            }
        };
        x.handle_datagram(target, &fed, now);
        if let Some(result) = x.poll_result() {
            if let Ok(bindings) = result {
                assert_eq!(fed, genuine, "values from a datagram that is not the answer");
                assert_eq!(bindings.len(), 1);
                assert_eq!(bindings[0].value, values[0].1);
            }
            return;
        }
    }
});
