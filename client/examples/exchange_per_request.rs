//! The client's work for one GET, N times over, without sockets: the sans-IO core
//! ([`Exchange`]) makes the request, an in-process agent ([`Responder`], not counted apart)
//! answers it, the core takes the answer. For instruction counts per request, v2c or v3
//! authPriv (SHA-1, AES-128), and for the cost of the counters a session keeps
//! (`client/src/stats.rs`, readable without a tracing subscriber):
//!
//! ```sh
//! cargo build --release -p snmp-client --example exchange_per_request
//! valgrind --tool=callgrind target/release/examples/exchange_per_request v3 1000   # I refs: A
//! valgrind --tool=callgrind target/release/examples/exchange_per_request v3 2000   # I refs: B
//! # (B - A) / 1000 instructions a request, agent included; callgrind_annotate shows which
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use snmp_ber::OidBuf;
use snmp_client::exchange::{Exchange, Step};
use snmp_client::respond::{Responder, View};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, Request, UsmUser, Value};

fn main() {
    let mut args = std::env::args().skip(1);
    let version = args.next().unwrap_or_else(|| "v2c".into());
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let user = UsmUser::new(
        "bench",
        Some((AuthProtocol::Sha1, b"benchauthpass")),
        Some((PrivProtocol::Aes128, b"benchprivpass")),
    )
    .expect("a user");
    let credentials = match version.as_str() {
        "v3" => Credentials::Usm(user.clone()),
        _ => Credentials::V2c(b"public".to_vec()),
    };
    let oid: OidBuf = "1.3.6.1.2.1.1.5.0".parse().expect("an OID");
    let view = Arc::new(View::new(vec![(
        oid.clone(),
        Value::OctetString(b"host".as_slice().into()),
    )]));
    let now = Instant::now();
    let mut agent = Responder::new(
        view,
        vec![b"public".to_vec()],
        vec![user],
        b"\x80\x00\x1f\x88\x04bench",
        1,
        now,
    );
    let target: SocketAddr = "127.0.0.1:161".parse().expect("an address");
    let mut exchange = Exchange::new(target, credentials, Options::default());
    let mut answered = 0u64;
    for _ in 0..n {
        exchange.start(Request::get(std::slice::from_ref(&oid)), now);
        answered += u64::from(run(&mut exchange, &mut agent, target, now));
    }
    let stats = exchange.stats();
    println!(
        "{answered} of {n} answered; sent {}, accepted {}, discarded {}",
        stats.sent,
        stats.accepted,
        stats.discarded_total()
    );
}

/// One request to its result, the agent answering every datagram at once.
fn run(exchange: &mut Exchange, agent: &mut Responder, target: SocketAddr, now: Instant) -> bool {
    loop {
        let answer = match exchange.next_step(now) {
            Step::Done(result) => return result.is_ok(),
            Step::Send(datagram) => agent.handle(datagram, now),
            Step::Wait(_) => return false,
        };
        match answer {
            Some(a) => exchange.handle_datagram(target, &a, now),
            None => return false,
        }
    }
}
