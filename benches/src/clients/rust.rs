//! The clients measured in this process: snmp-client (sync, async), the Rust crates
//! async-snmp, snmp2 and csnmp, and the floor (prebuilt datagrams, nothing decoded). One
//! runner ([`measure`]) times every one of them: sync clients run inside it as async code
//! that never waits.

use std::net::UdpSocket;
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{AsyncSession, Credentials, Options, Session, UsmUser, WalkWith};

use super::data::{self, Case, Kind, Sizes};
use super::stats::Cell;
use super::{Driver, Outcome, Plan, Run, Target};
use crate::process::own_cpu;

/// What one call brought back.
pub struct Done {
    pub bindings: u64,
    /// Requests it sent, when the client says.
    pub requests: Option<u64>,
}

impl Done {
    fn one(bindings: usize) -> Done {
        Done {
            bindings: bindings as u64,
            requests: Some(1),
        }
    }
}

/// Times `case`: a call not counted (warm-up: the first use of the client's code and
/// allocations in the process), one that says how long a call takes, then `plan.runs` runs of
/// as many calls as fit `plan.budget` (1 to 100). A call is `call` on one session (`open`ed
/// once); for setup, a new session up to its first answer. A call that fails or brings back
/// other than `case.expected` bindings is counted as failed.
async fn measure<S>(
    case: &Case,
    plan: &Plan,
    mut open: impl AsyncFnMut() -> Result<S, String>,
    mut call: impl AsyncFnMut(&mut S) -> Result<Done, String>,
) -> Outcome {
    if case.kind == Kind::Setup {
        let setup = async |_: &mut ()| match open().await {
            Ok(mut s) => call(&mut s).await,
            Err(e) => Err(e),
        };
        return runs_of(case, plan, &mut (), setup).await;
    }
    match open().await {
        Ok(mut session) => runs_of(case, plan, &mut session, call).await,
        Err(e) => Outcome::Failed(e),
    }
}

/// [`measure`]'s warm-up and runs of `call` on `session`.
async fn runs_of<S>(
    case: &Case,
    plan: &Plan,
    session: &mut S,
    mut call: impl AsyncFnMut(&mut S) -> Result<Done, String>,
) -> Outcome {
    let good = |d: &Result<Done, String>| d.as_ref().is_ok_and(|d| d.bindings == case.expected);
    let mut one = Duration::ZERO;
    for _ in 0..2 {
        let t0 = Instant::now();
        let done = call(session).await;
        if !good(&done) {
            return Outcome::Failed(match done {
                Err(e) => e,
                Ok(d) => format!("{} bindings, not {}", d.bindings, case.expected),
            });
        }
        one = t0.elapsed();
    }
    let calls = calls_for(plan.budget, one);
    let mut runs = Vec::new();
    for _ in 0..plan.runs {
        let mut run = Run {
            calls,
            wall_ms: 0.0,
            cpu_s: 0.0,
            requests: Some(0),
            bindings: 0,
            failed: 0,
        };
        let (t0, cpu0) = (Instant::now(), own_cpu());
        for _ in 0..calls {
            let done = call(session).await;
            run.failed += u32::from(!good(&done));
            if let Ok(d) = done {
                run.bindings += d.bindings;
                run.requests = run.requests.zip(d.requests).map(|(a, b)| a + b);
            }
        }
        run.wall_ms = t0.elapsed().as_secs_f64() * 1e3;
        run.cpu_s = own_cpu() - cpu0;
        runs.push(run);
    }
    Outcome::Ran(runs)
}

/// Calls a run makes: as many as fit `budget` at `one` a call, 1 to 100.
pub fn calls_for(budget: Duration, one: Duration) -> u32 {
    if one.is_zero() {
        return 100;
    }
    (budget.as_secs_f64() / one.as_secs_f64()).clamp(1.0, 100.0) as u32
}

/// A runtime of one thread for the drivers: `Err` names why there is none.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("no tokio runtime: {e}"))
}

/// The case's OIDs parsed.
fn oids(case: &Case) -> Result<Vec<OidBuf>, String> {
    case.oids
        .iter()
        .map(|o| o.parse().map_err(|e| format!("{o}: {e}")))
        .collect()
}

/// Our credentials for `target`: the keys made from the passwords here (setup's cost).
fn credentials(target: &Target) -> Result<Credentials, String> {
    if target.version == "2c" {
        return Ok(Credentials::V2c(b"public".to_vec()));
    }
    let (user, auth, privacy) = target.user;
    UsmUser::new(
        user,
        Some((AuthProtocol::Sha1, auth.as_bytes())),
        Some((PrivProtocol::Aes128, privacy.as_bytes())),
    )
    .map(Credentials::Usm)
    .map_err(|e| e.to_string())
}

fn options(case: &Case) -> Options {
    Options {
        timeout: Duration::from_secs(2),
        retries: 0,
        max_repetitions: case.repetitions.max(1),
        walk_with: WalkWith::GetBulk,
        max_walk_requests: 1_000_000,
        ..Options::default()
    }
}

/// snmp-client's blocking [`Session`].
pub struct OursSync;

impl Driver for OursSync {
    fn name(&self) -> &'static str {
        "snmp-client-sync"
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        let (rt, oids) = match runtime().and_then(|rt| Ok((rt, oids(case)?))) {
            Ok(x) => x,
            Err(e) => return Outcome::Failed(e),
        };
        let open = async || {
            Session::new(target.addr(), credentials(target)?, options(case))
                .map_err(|e| e.to_string())
        };
        // The calls a poller makes again and again: each answer written over the one before
        // (`get_into`, `get_bulk_into`), as docs/polling.md recommends.
        let mut out = Vec::new();
        let call = async |s: &mut Session| -> Result<Done, String> {
            let e = |e: snmp_client::ClientError| e.to_string();
            Ok(match case.kind {
                Kind::Setup | Kind::Get => {
                    s.get_into(&oids, &mut out).map_err(e)?;
                    Done::one(out.len())
                }
                Kind::Bulk => {
                    s.get_bulk_into(0, case.repetitions, &oids, &mut out)
                        .map_err(e)?;
                    Done::one(out.len())
                }
                Kind::Walk => {
                    let mut n = 0u64;
                    let requests = s.walk(&oids[0], |_| n += 1).map_err(e)?;
                    Done {
                        bindings: n,
                        requests: Some(requests as u64),
                    }
                }
            })
        };
        rt.block_on(measure(case, plan, open, call))
    }
}

/// snmp-client's [`AsyncSession`] on a tokio runtime of one thread.
pub struct OursAsync;

impl Driver for OursAsync {
    fn name(&self) -> &'static str {
        "snmp-client-async"
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        let (rt, oids) = match runtime().and_then(|rt| Ok((rt, oids(case)?))) {
            Ok(x) => x,
            Err(e) => return Outcome::Failed(e),
        };
        let open = async || {
            AsyncSession::new(target.addr(), credentials(target)?, options(case))
                .await
                .map_err(|e| e.to_string())
        };
        let mut out = Vec::new();
        let call = async |s: &mut AsyncSession| -> Result<Done, String> {
            let e = |e: snmp_client::ClientError| e.to_string();
            Ok(match case.kind {
                Kind::Setup | Kind::Get => {
                    s.get_into(&oids, &mut out).await.map_err(e)?;
                    Done::one(out.len())
                }
                Kind::Bulk => {
                    s.get_bulk_into(0, case.repetitions, &oids, &mut out)
                        .await
                        .map_err(e)?;
                    Done::one(out.len())
                }
                Kind::Walk => {
                    let mut n = 0u64;
                    let requests = s.walk(&oids[0], |_| n += 1).await.map_err(e)?;
                    Done {
                        bindings: n,
                        requests: Some(requests as u64),
                    }
                }
            })
        };
        rt.block_on(measure(case, plan, open, call))
    }
}

/// The crate async-snmp (tokio), its `Client` over UDP.
pub struct AsyncSnmp;

impl Driver for AsyncSnmp {
    fn name(&self) -> &'static str {
        "async-snmp"
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        use async_snmp::{Auth, Client, Oid, UsmConfig};
        let parsed: Result<Vec<Oid>, String> = case
            .oids
            .iter()
            .map(|o| Oid::parse(o).map_err(|e| e.to_string()))
            .collect();
        let (rt, oids) = match runtime().and_then(|rt| Ok((rt, parsed?))) {
            Ok(x) => x,
            Err(e) => return Outcome::Failed(e),
        };
        let open = async || {
            let auth: Auth = if target.version == "2c" {
                Auth::v2c("public")
            } else {
                let (user, a, p) = target.user;
                UsmConfig::new(bytes::Bytes::from_static(user.as_bytes()))
                    .auth_priv(
                        async_snmp::AuthProtocol::Sha1,
                        a,
                        async_snmp::PrivProtocol::Aes128,
                        p,
                    )
                    .map_err(|e| e.to_string())?
                    .into()
            };
            Client::builder(target.addr(), auth)
                .request_timeout(Duration::from_secs(2))
                .retry(async_snmp::Retry::none())
                .connect()
                .await
                .map_err(|e| e.to_string())
        };
        let call = async |c: &mut Client<async_snmp::UdpHandle>| -> Result<Done, String> {
            let e = |e: Box<async_snmp::Error>| e.to_string();
            Ok(match case.kind {
                Kind::Setup | Kind::Get => {
                    Done::one(c.get_many(&oids).await.map_err(e)?.varbinds.len())
                }
                Kind::Bulk => Done::one(
                    c.get_bulk(&oids, 0, case.repetitions)
                        .await
                        .map_err(e)?
                        .len(),
                ),
                Kind::Walk => {
                    let mut walk = c.bulk_walk(oids[0].clone(), case.repetitions).map_err(e)?;
                    let mut n = 0u64;
                    while let Some(vb) = walk.next().await {
                        vb.map_err(e)?;
                        n += 1;
                    }
                    Done {
                        bindings: n,
                        requests: None,
                    }
                }
            })
        };
        rt.block_on(measure(case, plan, open, call))
    }
}

/// The crate snmp2, its blocking `SyncSession`.
pub struct Snmp2;

impl Driver for Snmp2 {
    fn name(&self) -> &'static str {
        "snmp2"
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        let parsed: Result<Vec<Vec<u64>>, String> = case
            .oids
            .iter()
            .map(|o| {
                o.split('.')
                    .map(|a| a.parse().map_err(|_| format!("{o}: not an OID")))
                    .collect()
            })
            .collect();
        let (rt, arcs) = match runtime().and_then(|rt| Ok((rt, parsed?))) {
            Ok(x) => x,
            Err(e) => return Outcome::Failed(e),
        };
        let open = async || snmp2_session(target);
        let call = async |s: &mut snmp2::SyncSession| snmp2_call(s, case, &arcs);
        rt.block_on(measure(case, plan, open, call))
    }
}

fn snmp2_session(target: &Target) -> Result<snmp2::SyncSession, String> {
    use snmp2::v3::{Auth, AuthProtocol, Cipher, Security};
    let timeout = Some(Duration::from_secs(2));
    let e = |e: std::io::Error| e.to_string();
    if target.version == "2c" {
        return snmp2::SyncSession::new_v2c(target.addr(), b"public", timeout, 0).map_err(e);
    }
    let (user, a, p) = target.user;
    let security = Security::new(user.as_bytes(), a.as_bytes())
        .with_auth_protocol(AuthProtocol::Sha1)
        .with_auth(Auth::AuthPriv {
            cipher: Cipher::Aes128,
            privacy_password: p.as_bytes().to_vec(),
        });
    let mut s = snmp2::SyncSession::new_v3(target.addr(), timeout, 0, security).map_err(e)?;
    s.init().map_err(|e| format!("{e:?}"))?;
    Ok(s)
}

/// One call by snmp2: its walk is GETBULKs from the last OID until one leaves the subtree
/// (the crate has no walk of its own).
fn snmp2_call(s: &mut snmp2::SyncSession, case: &Case, arcs: &[Vec<u64>]) -> Result<Done, String> {
    use snmp2::{Oid, Value};
    let owned: Vec<Oid<'static>> = arcs
        .iter()
        .map(|a| Oid::from(a).map_err(|e| format!("{e:?}")))
        .collect::<Result<_, _>>()?;
    let refs: Vec<&Oid> = owned.iter().collect();
    let e = |e: snmp2::Error| format!("{e:?}");
    let counted = |pdu: snmp2::Pdu| match pdu.error_status {
        0 => Ok(pdu.varbinds.count()),
        s => Err(format!("error-status {s}")),
    };
    match case.kind {
        Kind::Setup | Kind::Get => Ok(Done::one(counted(s.get_many(&refs).map_err(e)?)?)),
        Kind::Bulk => Ok(Done::one(counted(
            s.getbulk(&refs, 0, case.repetitions).map_err(e)?,
        )?)),
        Kind::Walk => {
            let root = &arcs[0];
            let (mut cursor, mut n, mut requests) = (owned[0].clone(), 0u64, 0u64);
            loop {
                requests += 1;
                let pdu = s.getbulk(&[&cursor], 0, case.repetitions).map_err(e)?;
                if pdu.error_status != 0 {
                    return Err(format!("error-status {}", pdu.error_status));
                }
                let mut next = None;
                for (name, value) in pdu.varbinds {
                    let inside = name
                        .iter()
                        .is_some_and(|a| a.take(root.len()).eq(root.iter().copied()));
                    if !inside || matches!(value, Value::EndOfMibView) {
                        next = None;
                        break;
                    }
                    n += 1;
                    next = Some(name.to_owned());
                }
                match next {
                    Some(oid) => cursor = oid,
                    None => break,
                }
            }
            Ok(Done {
                bindings: n,
                requests: Some(requests),
            })
        }
    }
}

/// The crate csnmp (tokio), its `Snmp2cClient`: SNMPv2c only.
pub struct Csnmp;

impl Driver for Csnmp {
    fn name(&self) -> &'static str {
        "csnmp"
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        use csnmp::{ObjectIdentifier, Snmp2cClient};
        if target.version != "2c" {
            return Outcome::Unsupported("SNMPv2c only".into());
        }
        let parsed: Result<Vec<ObjectIdentifier>, String> = case
            .oids
            .iter()
            .map(|o| o.parse().map_err(|e| format!("{o}: {e:?}")))
            .collect();
        let (rt, oids) = match runtime().and_then(|rt| Ok((rt, parsed?))) {
            Ok(x) => x,
            Err(e) => return Outcome::Failed(e),
        };
        let open = async || {
            let bind = Some(std::net::SocketAddr::from(([127, 0, 0, 1], 0)));
            Snmp2cClient::new(
                target.addr(),
                b"public".to_vec(),
                bind,
                Some(Duration::from_secs(2)),
                0,
            )
            .await
            .map_err(|e| format!("{e:?}"))
        };
        let call = async |c: &mut Snmp2cClient| -> Result<Done, String> {
            let e = |e: csnmp::SnmpClientError| format!("{e:?}");
            Ok(match case.kind {
                Kind::Setup | Kind::Get => {
                    Done::one(c.get_multiple(oids.iter().copied()).await.map_err(e)?.len())
                }
                Kind::Bulk => Done::one(
                    c.get_bulk(&oids, 0, case.repetitions)
                        .await
                        .map_err(e)?
                        .values
                        .len(),
                ),
                Kind::Walk => Done {
                    bindings: c
                        .walk_bulk(oids[0], case.repetitions)
                        .await
                        .map_err(e)?
                        .len() as u64,
                    requests: None,
                },
            })
        };
        rt.block_on(measure(case, plan, open, call))
    }
}

/// The floor: the case's requests as prebuilt SNMPv2c datagrams on a connected socket, one
/// send and one blocking receive each, nothing encoded or decoded (a walk's requests are the
/// ones a walk makes: from the root, then from every `repetitions`-th row).
pub struct Floor;

/// The floor's datagrams for `case` (`rows`: the walked column's rows).
fn floor_requests(case: &Case, rows: u64) -> Result<Vec<Vec<u8>>, String> {
    use crate::poll::floor::v2c_request;
    let oids = oids(case)?;
    Ok(match case.kind {
        Kind::Setup | Kind::Get => vec![v2c_request(0xa0, (0, 0), &oids)],
        Kind::Bulk => vec![v2c_request(0xa5, (0, case.repetitions), &oids)],
        Kind::Walk => {
            let step = u64::from(case.repetitions.max(1));
            let mut cursors = vec![oids[0].clone()];
            let mut row = step;
            while row <= rows {
                cursors.push(
                    format!("{}.{row}", case.oids[0])
                        .parse()
                        .map_err(|e| format!("{e}"))?,
                );
                row += step;
            }
            cursors
                .iter()
                .map(|c| v2c_request(0xa5, (0, case.repetitions), std::slice::from_ref(c)))
                .collect()
        }
    })
}

impl Driver for Floor {
    fn name(&self) -> &'static str {
        "udp floor"
    }

    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome {
        let prepared = runtime().and_then(|rt| Ok((rt, floor_requests(case, case.expected)?)));
        let (rt, requests) = match prepared {
            Ok(x) => x,
            Err(e) => return Outcome::Failed(e),
        };
        let open = async || floor_socket(target, true);
        let call = async |s: &mut FloorSocket| floor_call(s, &requests, case.expected);
        rt.block_on(measure(case, plan, open, call))
    }
}

/// The floor's socket, connected to the agent or not, and room for an answer (made once:
/// zeroing 64 KB a call would be the floor's largest cost).
struct FloorSocket {
    socket: UdpSocket,
    /// The agent, when the socket is not connected to it (sent to by `send_to`).
    unconnected_to: Option<std::net::SocketAddr>,
    answer: Vec<u8>,
}

/// The floor's socket: connected to the agent (`send`, `recv`, as the sized cases measure
/// it) or, under `connected: false`, sending by `send_to` as an unconnected session does.
fn floor_socket(target: &Target, connected: bool) -> Result<FloorSocket, String> {
    let socket = UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    if connected {
        socket.connect(target.addr()).map_err(|e| e.to_string())?;
    }
    socket
        .set_read_timeout(Some(Duration::from_secs(2)))
        .map_err(|e| e.to_string())?;
    Ok(FloorSocket {
        socket,
        unconnected_to: (!connected).then(|| target.addr()),
        answer: vec![0; 65536],
    })
}

/// Sends each request and waits for its answer; the answers are not read.
fn floor_call(s: &mut FloorSocket, requests: &[Vec<u8>], expected: u64) -> Result<Done, String> {
    for r in requests {
        let sent = match s.unconnected_to {
            Some(to) => s.socket.send_to(r, to),
            None => s.socket.send(r),
        };
        sent.map_err(|e| e.to_string())?;
        let received = match s.unconnected_to {
            Some(_) => s.socket.recv_from(&mut s.answer).map(|(n, _)| n),
            None => s.socket.recv(&mut s.answer),
        };
        received.map_err(|e| format!("no answer: {e}"))?;
    }
    Ok(Done {
        bindings: expected,
        requests: Some(requests.len() as u64),
    })
}

/// Every in-process client.
pub fn drivers() -> Vec<Box<dyn Driver>> {
    vec![
        Box::new(OursSync),
        Box::new(OursAsync),
        Box::new(AsyncSnmp),
        Box::new(Snmp2),
        Box::new(Csnmp),
    ]
}

/// Waits (5 s at most) until `target` answers a v2c GET of sysDescr.0.
pub fn wait_until_answering(target: &Target) -> Result<(), String> {
    let sys_descr: Vec<OidBuf> = vec![data::SYS_DESCR.parse().map_err(|e| format!("{e}"))?];
    let mut last = String::new();
    for _ in 0..50 {
        let options = Options {
            timeout: Duration::from_millis(100),
            retries: 0,
            ..Options::default()
        };
        match Session::new(target.addr(), Credentials::V2c(b"public".to_vec()), options)
            .and_then(|mut s| s.get(&sys_descr))
        {
            Ok(_) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(last)
}

/// One contestant's walk of the GETNEXT comparison.
type Turn<'a> = dyn FnMut() -> Result<Done, String> + 'a;

/// The GETNEXT comparison's pairs, (floor, ours): each socket connected to the agent (the
/// floor as the sized cases measure it; ours as `Session::connect_to_agent` makes it), and
/// each unconnected (ours as `Session::new` makes it).
pub const GETNEXT_PAIRS: [(&str, &str); 2] = [
    ("udp floor", "snmp-client-sync connected"),
    ("udp floor unconnected", "snmp-client-sync"),
];

/// Ours (sync) against the floor on a GETNEXT walk of the smaller column (a request a
/// binding), like for like in both socket modes ([`GETNEXT_PAIRS`]), in `plan.rounds`
/// interleaved rounds (each pair's floor, then ours, each round): a cell each, a run a
/// round.
pub fn getnext_against_floor(
    target: &Target,
    sizes: Sizes,
    plan: Plan,
) -> Result<Vec<Cell>, String> {
    let column = format!("{}.3", data::ENTRY);
    let case = Case {
        name: "getnext",
        kind: Kind::Walk,
        agent: data::Agent::Simulator,
        oids: vec![column.clone()],
        repetitions: 0,
        expected: u64::from(sizes.small_rows),
    };
    // The walk's requests: from the column, then from each of its rows.
    let mut cursors: Vec<OidBuf> = vec![column.parse().map_err(|e| format!("{e}"))?];
    for row in 1..=sizes.small_rows {
        cursors.push(
            format!("{column}.{row}")
                .parse()
                .map_err(|e| format!("{e}"))?,
        );
    }
    let requests: Vec<Vec<u8>> = cursors
        .iter()
        .map(|c| crate::poll::floor::v2c_request(0xa1, (0, 0), std::slice::from_ref(c)))
        .collect();
    let options = Options {
        walk_with: WalkWith::GetNext,
        ..options(&case)
    };
    let root: OidBuf = column.parse().map_err(|e| format!("{e}"))?;
    let session = |connected: bool| -> Result<Session, String> {
        let mut s = Session::new(target.addr(), Credentials::V2c(b"public".to_vec()), options)
            .map_err(|e| e.to_string())?;
        if connected {
            s.connect_to_agent().map_err(|e| e.to_string())?;
        }
        Ok(s)
    };
    let walk = |s: &mut Session| -> Result<Done, String> {
        let mut n = 0u64;
        let requests = s.walk(&root, |_| n += 1).map_err(|e| e.to_string())?;
        Ok(Done {
            bindings: n,
            requests: Some(requests as u64),
        })
    };
    let (mut floor_c, mut floor_u) = (floor_socket(target, true)?, floor_socket(target, false)?);
    let (mut ours_c, mut ours_u) = (session(true)?, session(false)?);
    let mut turns: [(&str, Box<Turn<'_>>); 4] = [
        (
            GETNEXT_PAIRS[0].0,
            Box::new(|| floor_call(&mut floor_c, &requests, case.expected)),
        ),
        (GETNEXT_PAIRS[0].1, Box::new(|| walk(&mut ours_c))),
        (
            GETNEXT_PAIRS[1].0,
            Box::new(|| floor_call(&mut floor_u, &requests, case.expected)),
        ),
        (GETNEXT_PAIRS[1].1, Box::new(|| walk(&mut ours_u))),
    ];
    // Warm-up: each once, not counted.
    for (_, turn) in &mut turns {
        turn()?;
    }
    let mut runs: [Vec<Run>; 4] = Default::default();
    for _ in 0..plan.rounds {
        for ((_, turn), runs) in turns.iter_mut().zip(&mut runs) {
            let (t0, cpu0) = (Instant::now(), own_cpu());
            let done = turn();
            runs.push(Run {
                calls: 1,
                wall_ms: t0.elapsed().as_secs_f64() * 1e3,
                cpu_s: own_cpu() - cpu0,
                requests: done.as_ref().ok().and_then(|d| d.requests),
                bindings: done.as_ref().map_or(0, |d| d.bindings),
                failed: u32::from(!done.is_ok_and(|d| d.bindings == case.expected)),
            });
        }
    }
    Ok(turns
        .iter()
        .zip(runs)
        .map(|((name, _), runs)| Cell::new(name, "2c", &case, runs))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_fit_the_budget_between_one_and_a_hundred() {
        let ms = Duration::from_millis;
        assert_eq!(calls_for(ms(1000), ms(1)), 100);
        assert_eq!(calls_for(ms(1000), ms(40)), 25);
        assert_eq!(calls_for(ms(1000), ms(5000)), 1);
        assert_eq!(calls_for(ms(1000), Duration::ZERO), 100);
    }

    #[test]
    fn the_floor_walks_as_a_walk_does() {
        let case = data::cases(Sizes::TINY)
            .into_iter()
            .find(|c| c.name == "100KB")
            .unwrap();
        // 60 rows by 25: from the column, row 25 and row 50; the last answer leaves it.
        let requests = floor_requests(&case, case.expected).unwrap();
        assert_eq!(requests.len(), 3);
    }
}
