//! `snmpc simulate`, an agent simulator in the manner of snmpsim: a recorded walk (`snmpwalk
//! -On` or `snmpc walk -On` output) served on many addresses and ports at once, each an agent
//! with its own SNMPv3 engine ID, answering GET, GETNEXT and GETBULK over v1, v2c and v3/USM
//! ([`snmp_client::respond`]). One tokio task a socket; the view shared by all of them.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use snmp_client::respond::{Responder, View};

/// `snmpc simulate`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct SimulateOpts {
    /// The recorded walk to serve (`snmpwalk -On` output).
    #[arg(long = "data", value_name = "FILE")]
    pub data: std::path::PathBuf,
    /// Where the agents listen: `ADDR:PORT`, a range of ports (`127.0.0.1:20000-20999`) or
    /// of addresses (`127.0.1.1-127.0.1.200:161`); repeat for more.
    #[arg(required = true, value_name = "ADDRESS")]
    pub addresses: Vec<String>,
    /// A community to answer (repeat for more; default `public`).
    #[arg(short = 'c', long)]
    pub community: Vec<String>,
    /// The SNMPv3 user to answer.
    #[command(flatten)]
    pub user: crate::ask::UserOpts,
    /// The engine IDs' first octets (hex); each agent's ends with its IPv4 address and port.
    #[arg(
        long = "engine-prefix",
        value_name = "HEX",
        default_value = "80001f88047369"
    )]
    pub engine_prefix: String,
    /// Threads serving the sockets (default: one a core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Stop after this many seconds (and print the counters); default: run until stopped.
    #[arg(long = "for", value_name = "SECONDS")]
    pub seconds: Option<f64>,
}

/// The most agents one run serves.
const MAX_AGENTS: usize = 100_000;

/// The socket addresses `spec` names: `ADDR:PORT`, `ADDR:LOW-HIGH`, `LOW-HIGH:PORT` (IPv4).
pub fn addresses(spec: &str) -> Result<Vec<SocketAddr>, String> {
    let bad = |why: &str| {
        format!(
            "{spec}: {why} (as 127.0.0.1:161, 127.0.0.1:20000-20999 or 127.0.1.1-127.0.1.9:161)"
        )
    };
    if let Ok(one) = spec.parse::<SocketAddr>() {
        return Ok(vec![one]);
    }
    let (host, port) = spec.rsplit_once(':').ok_or_else(|| bad("no port"))?;
    let ports: Vec<u16> = match port.split_once('-') {
        Some((lo, hi)) => {
            let (lo, hi) = (lo.parse::<u16>(), hi.parse::<u16>());
            match (lo, hi) {
                (Ok(lo), Ok(hi)) if lo <= hi => (lo..=hi).collect(),
                _ => return Err(bad("a port range LOW-HIGH, LOW <= HIGH")),
            }
        }
        None => vec![port.parse().map_err(|_| bad("a port"))?],
    };
    let hosts: Vec<IpAddr> = match host.split_once('-') {
        Some((lo, hi)) => {
            let (lo, hi) = (lo.parse::<Ipv4Addr>(), hi.parse::<Ipv4Addr>());
            match (lo, hi) {
                (Ok(lo), Ok(hi)) if u32::from(lo) <= u32::from(hi) => (u32::from(lo)
                    ..=u32::from(hi))
                    .map(|a| IpAddr::V4(Ipv4Addr::from(a)))
                    .collect(),
                _ => return Err(bad("an IPv4 range LOW-HIGH")),
            }
        }
        None => vec![host
            .trim_matches(['[', ']'])
            .parse()
            .map_err(|_| bad("an IP address"))?],
    };
    let all = hosts.len().saturating_mul(ports.len());
    if all > MAX_AGENTS {
        return Err(bad(&format!("{all} agents; at most {MAX_AGENTS}")));
    }
    Ok(hosts
        .iter()
        .flat_map(|h| ports.iter().map(move |p| SocketAddr::new(*h, *p)))
        .collect())
}

/// The engine ID of the agent at `addr`: `prefix`, then its IPv4 address (or the last four
/// octets of an IPv6 one) and port.
fn engine_id(prefix: &[u8], addr: SocketAddr) -> Vec<u8> {
    let ip = match addr.ip() {
        IpAddr::V4(a) => a.octets(),
        IpAddr::V6(a) => {
            let o = a.octets();
            [o[12], o[13], o[14], o[15]]
        }
    };
    let mut id = prefix.to_vec();
    id.extend_from_slice(&ip);
    id.extend_from_slice(&addr.port().to_be_bytes());
    id
}

/// What all agents have done.
#[derive(Debug, Default)]
struct Totals {
    received: AtomicU64,
    answered: AtomicU64,
    reports: AtomicU64,
    /// Answers the socket would not take (a full send buffer).
    unsent: AtomicU64,
}

/// Serves `responder` on `socket` until the runtime stops, adding to `totals` as it goes.
async fn serve(socket: tokio::net::UdpSocket, mut responder: Responder, totals: Arc<Totals>) {
    let mut buf = vec![0u8; 65_535];
    loop {
        let Ok((n, from)) = socket.recv_from(&mut buf).await else {
            // A receive error (rare on UDP): not a loop that spins.
            tokio::time::sleep(Duration::from_millis(1)).await;
            continue;
        };
        let reports = responder.served().reports;
        totals.received.fetch_add(1, Ordering::Relaxed);
        if let Some(answer) = responder.handle(&buf[..n], Instant::now()) {
            let sent = match socket.try_send_to(&answer, from) {
                Ok(_) => &totals.answered,
                Err(_) => &totals.unsent,
            };
            sent.fetch_add(1, Ordering::Relaxed);
            let report = responder.served().reports - reports;
            totals.reports.fetch_add(report, Ordering::Relaxed);
        }
    }
}

/// Runs `snmpc simulate`.
pub fn run(opts: &SimulateOpts) -> ExitCode {
    let bad = |e: String| {
        eprintln!("snmpc: {e}");
        ExitCode::from(2)
    };
    let text = match std::fs::read_to_string(&opts.data) {
        Ok(t) => t,
        Err(e) => return bad(format!("{}: {e}", opts.data.display())),
    };
    let (view, unread) = View::from_walk(&text);
    for u in unread.iter().take(5) {
        eprintln!(
            "snmpc: {}:{}: {} (left out)",
            opts.data.display(),
            u.line,
            u.reason
        );
    }
    if unread.len() > 5 {
        eprintln!("snmpc: {} more lines left out", unread.len() - 5);
    }
    let mut agents = Vec::new();
    for spec in &opts.addresses {
        match addresses(spec) {
            Ok(a) => agents.extend(a),
            Err(e) => return bad(e),
        }
    }
    if agents.len() > MAX_AGENTS {
        return bad(format!("{} agents; at most {MAX_AGENTS}", agents.len()));
    }
    let user = match opts.user.user() {
        Ok(u) => u,
        Err(e) => return bad(e),
    };
    let prefix = match crate::ask::hex_octets(Some(&opts.engine_prefix)) {
        Ok(p) => p.unwrap_or_default(),
        Err(e) => return bad(e.replacen("-e ", "--engine-prefix ", 1)),
    };
    let communities: Vec<Vec<u8>> = match opts.community.is_empty() {
        true => vec![b"public".to_vec()],
        false => opts
            .community
            .iter()
            .map(|c| c.as_bytes().to_vec())
            .collect(),
    };
    // Watched before the ports are bound (see `listen`).
    let stop = crate::stop::on_signals();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(
            opts.threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        )
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => return bad(format!("the runtime: {e}")),
    };
    let view = Arc::new(view);
    let totals = Arc::new(Totals::default());
    let started = Instant::now();
    let bound = runtime.block_on(async {
        let mut sockets = Vec::with_capacity(agents.len());
        for addr in &agents {
            let socket = tokio::net::UdpSocket::bind(addr)
                .await
                .map_err(|e| format!("{addr}: {e}"))?;
            sockets.push(socket);
        }
        for (socket, addr) in sockets.into_iter().zip(&agents) {
            let responder = Responder::new(
                view.clone(),
                communities.clone(),
                user.iter().cloned().collect(),
                &engine_id(&prefix, *addr),
                1,
                Instant::now(),
            );
            tokio::spawn(serve(socket, responder, totals.clone()));
        }
        Ok::<(), String>(())
    });
    if let Err(e) = bound {
        return bad(e);
    }
    eprintln!(
        "snmpc: {} agents serving {} bindings from {}",
        agents.len(),
        view.len(),
        opts.data.display()
    );
    let wait = opts
        .seconds
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(|s| Duration::from_secs_f64(s.min(1e9)));
    let until = wait.map(|w| Instant::now() + w);
    // Until `--for` ends, or a signal: looked at every 200 ms.
    runtime.block_on(async {
        while !crate::stop::asked(&stop) && until.is_none_or(|u| Instant::now() < u) {
            let step = Duration::from_millis(200);
            let left = until.map_or(step, |u| u.saturating_duration_since(Instant::now()));
            tokio::time::sleep(left.min(step)).await;
        }
    });
    let elapsed = started.elapsed().as_secs_f64();
    let count = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let (received, answered, unsent) = (
        count(&totals.received),
        count(&totals.answered),
        count(&totals.unsent),
    );
    eprintln!(
        "snmpc: {received} requests, {answered} answered ({} Reports), {unsent} answers not \
         sent (send buffer full), {} not answered (not SNMP, a community not taken, not a \
         request); {:.0} answers a second",
        count(&totals.reports),
        received - answered - unsent,
        answered as f64 / elapsed.max(1e-9)
    );
    runtime.shutdown_background();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_ranges() {
        assert_eq!(addresses("127.0.0.1:161").unwrap().len(), 1);
        let ports = addresses("127.0.0.1:20000-20009").unwrap();
        assert_eq!(ports.len(), 10);
        assert_eq!(ports[9].port(), 20009);
        let hosts = addresses("127.0.1.1-127.0.1.3:1161").unwrap();
        assert_eq!(
            hosts.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            ["127.0.1.1:1161", "127.0.1.2:1161", "127.0.1.3:1161"]
        );
        assert!(addresses("[::1]:1161").is_ok());
        for bad in ["127.0.0.1", "127.0.0.1:9-3", "x:1", "127.0.0.1:1-65535000"] {
            assert!(addresses(bad).is_err(), "{bad}");
        }
        let id = engine_id(&[0x80, 0, 0x1f, 0x88, 4], "127.0.1.2:1161".parse().unwrap());
        assert_eq!(id, [0x80, 0, 0x1f, 0x88, 4, 127, 0, 1, 2, 0x04, 0x89]);
    }
}
