//! Criterion bench of the client's own work in one step of a GETNEXT walk, with no socket: the
//! walk's next request written over the last and encoded by the sans-IO core
//! ([`Exchange::start_changed`], [`Exchange::poll_transmit`]), its answer (prebuilt: the next
//! row of a column of 80-octet strings, as `snmpc simulate` serves in `--only clients`) taken
//! in ([`Exchange::handle_datagram`]) and handed to the walk.
//!
//! Each step is timed on its own (two clock readings around it). `hot`: the steps one after
//! another, the code and data in the caches. `after N KiB`: before each step, and outside its
//! timing, N KiB of memory are written (a cache line in each 64 octets), as the agent's turn
//! and the kernel's do between two requests on one CPU. `clock`: the two readings around
//! nothing, what every figure includes. docs/benchmarks.md ("Where a client's turn goes")
//! reads them.

use std::hint::black_box;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use snmp_ber::{Encode, OidBuf, SequenceOf};
use snmp_client::{Credentials, Exchange, Options, Request, Walk, WalkWith};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{
    Pdu, PduErrorStatus, Pdus, ResponsePdu, VarBind, VarBindList, VarBindValue,
};
use snmp_messages::snmpv2_smi::{ObjectName, ObjectSyntax, SimpleSyntax};

/// The walked column (two-octet arcs, as the clients section's table).
const COLUMN: &str = "1.3.6.1.4.1.8072.9999.1.1.3";
/// Steps between two batches of answers made (outside the timing).
const BATCH: u64 = 1000;

/// A walk, the core that runs it, and the next request id it will use.
struct Walker {
    agent: SocketAddr,
    x: Exchange,
    walk: Walk,
    next_id: i32,
    row: u64,
}

impl Walker {
    fn new() -> Walker {
        let agent: SocketAddr = ([127, 0, 0, 1], 161).into();
        let options = Options {
            walk_with: WalkWith::GetNext,
            max_walk_requests: usize::MAX,
            max_walk_time: Duration::from_secs(86_400 * 365),
            ..Options::default()
        };
        let mut x = Exchange::new(agent, Credentials::V2c(b"public".to_vec()), options);
        let root: OidBuf = COLUMN.parse().expect("an OID");
        // One request first, to learn the ids the core hands out (consecutive from it).
        let t0 = Instant::now();
        x.start(Request::get_next(std::slice::from_ref(&root)), t0);
        let first = x.poll_transmit(t0).expect("a datagram").to_vec();
        let next_id = request_id(&first) + 1;
        Walker {
            agent,
            x,
            walk: Walk::new(&root, false, &options, t0),
            next_id,
            row: 0,
        }
    }

    /// The answers to the next `n` steps: row after row, each with its request's id.
    fn answers(&mut self, n: u64) -> Vec<Vec<u8>> {
        let value = [b'x'; 80];
        (0..n)
            .map(|k| {
                let name: OidBuf = format!("{COLUMN}.{}", self.row + k + 1)
                    .parse()
                    .expect("an OID");
                let bindings = [VarBind {
                    name: ObjectName(name.as_oid()),
                    value: VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(
                        &value,
                    ))),
                }];
                let pdu = Pdu {
                    request_id: self.next_id + k as i32,
                    error_status: PduErrorStatus::NO_ERROR,
                    error_index: 0,
                    variable_bindings: VarBindList(SequenceOf::from_slice(&bindings)),
                };
                Message {
                    version: MessageVersion::VERSION,
                    community: b"public",
                    data: Pdus::Response(ResponsePdu(pdu)),
                }
                .to_ber()
                .expect("an answer encodes")
            })
            .collect()
    }

    /// One step: the next request made and handed out, `answer` taken in and walked.
    fn step(&mut self, answer: &[u8]) {
        let now = Instant::now();
        let walk = &mut self.walk;
        let started = self.x.start_changed(now, |r| walk.next_into(r, now));
        assert_eq!(started.ok(), Some(true), "the walk goes on");
        black_box(self.x.poll_transmit(now));
        self.x.handle_datagram(self.agent, answer, now);
        let result = self.x.poll_result().expect("the answer is taken");
        let mut bindings = 0;
        self.walk
            .absorb_each(result, &mut |vb| {
                black_box(vb);
                bindings += 1;
            })
            .expect("the answer follows the walk");
        assert_eq!(bindings, 1);
        self.next_id += 1;
        self.row += 1;
    }
}

/// The request id of a v2c request datagram.
fn request_id(datagram: &[u8]) -> i32 {
    use snmp_ber::Decode;
    match Message::from_ber(datagram).map(|m| m.data) {
        Ok(Pdus::GetNextRequest(p)) => p.0.request_id,
        other => panic!("not a GETNEXT request: {other:?}"),
    }
}

/// Writes a cache line in each 64 octets of `junk`.
fn pollute(junk: &mut [u8]) {
    for i in (0..junk.len()).step_by(64) {
        junk[i] = junk[i].wrapping_add(1);
    }
    black_box(junk);
}

/// `iters` steps (none with `step` false: the clock alone), each timed on its own after `junk`
/// is written over, in batches whose answers are made outside the timing.
fn timed_steps(w: &mut Walker, iters: u64, junk: &mut [u8], step: bool) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(BATCH);
        let answers = if step { w.answers(n) } else { Vec::new() };
        for k in 0..n as usize {
            pollute(junk);
            let t = Instant::now();
            if let Some(a) = answers.get(k) {
                w.step(a);
            }
            total += t.elapsed();
        }
        left -= n;
    }
    total
}

fn getnext_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("client_getnext_step");
    let mut w = Walker::new();
    g.bench_function("clock", |b| {
        b.iter_custom(|iters| timed_steps(&mut w, iters, &mut [], false))
    });
    g.bench_function("hot", |b| {
        b.iter_custom(|iters| timed_steps(&mut w, iters, &mut [], true))
    });
    for kib in [64usize, 256, 1024] {
        let mut junk = vec![0u8; kib * 1024];
        g.bench_function(format!("after {kib} KiB"), |b| {
            b.iter_custom(|iters| timed_steps(&mut w, iters, &mut junk, true))
        });
    }
    g.finish();
}

criterion_group!(benches, getnext_step);
criterion_main!(benches);
