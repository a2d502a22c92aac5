//! One scrape: a target's modules walked and got (each with its own timeout, retries and
//! GETBULK size), on one session a worker, `--snmp.module-concurrency` workers at a time.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::{AsyncSession, ClientError, Credentials, Options, VarBind, WalkWith};

use crate::config::{CompiledAuth, CompiledModule};

/// What one module's run gave.
#[derive(Debug)]
pub struct ModuleRun {
    pub module: Arc<CompiledModule>,
    /// The bindings, or why the module failed.
    pub result: Result<Vec<VarBind>, ClientError>,
    /// Datagrams sent (retransmissions included) and, of them, retransmissions.
    pub packets_sent: u64,
    pub packets_retried: u64,
    /// Datagrams received and discarded (not an acceptable answer).
    pub discarded: u64,
    /// How long its requests took.
    pub walk_time: Duration,
}

/// The address a `/snmp?target=` names: `host`, `host:port`, `[v6]:port`, with an optional
/// `udp://` or `udp6://` in front; port 161 when none is named.
pub async fn resolve_target(target: &str) -> Result<SocketAddr, String> {
    let (scheme, rest) = match target.split_once("://") {
        Some((s, r)) => (s, r),
        None => ("udp", target),
    };
    let v6_only = match scheme {
        "udp" => false,
        "udp6" => true,
        "tcp" | "tcp6" => return Err(format!("target {target:?}: TCP is not offered (UDP only)")),
        other => return Err(format!("target {target:?}: unknown transport {other:?}")),
    };
    let with_port = match split_host_port(rest) {
        Some((host, port)) => {
            let port: u16 = port.parse().map_err(|_| {
                format!("target {target:?}: port {port:?} is not a number from 0 to 65535")
            })?;
            (host.to_string(), port)
        }
        None => (
            rest.trim_start_matches('[')
                .trim_end_matches(']')
                .to_string(),
            161,
        ),
    };
    if with_port.0.is_empty() {
        return Err(format!("target {target:?}: no host"));
    }
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((with_port.0.as_str(), with_port.1))
        .await
        .map_err(|e| format!("target {target:?}: {e}"))?
        .collect();
    addrs
        .into_iter()
        .find(|a| a.is_ipv6() || !v6_only)
        .ok_or_else(|| format!("target {target:?}: no address of the family asked for"))
}

/// Go's `net.SplitHostPort`: `host:port` or `[host]:port`; `None` when there is no port.
pub(crate) fn split_host_port(s: &str) -> Option<(&str, &str)> {
    if let Some(inner) = s.strip_prefix('[') {
        let (host, after) = inner.split_once(']')?;
        return Some((host, after.strip_prefix(':')?));
    }
    let (host, port) = s.rsplit_once(':')?;
    (!host.contains(':')).then_some((host, port))
}

/// The credentials a scrape uses: the auth's, in the context `snmp_context` when one is given
/// (SNMPv3; communities have no context).
pub fn credentials(auth: &CompiledAuth, snmp_context: &str) -> Credentials {
    match (&auth.credentials, snmp_context) {
        (Credentials::Usm(u), c) if !c.is_empty() => {
            Credentials::Usm(u.clone().with_context(c.as_bytes()))
        }
        (c, _) => c.clone(),
    }
}

/// Whom a scrape asks, as whom, and from where.
#[derive(Debug, Clone)]
pub struct Peer {
    pub target: SocketAddr,
    pub credentials: Credentials,
    pub version: i64,
    /// The local address sockets are bound to (`--snmp.source-address`); the unspecified
    /// address of the target's family when `None`.
    pub source: Option<SocketAddr>,
    /// Every datagram logged at debug level, in hexadecimal (`--snmp.debug-packets`,
    /// `snmp_debug_packets=true`).
    pub debug_packets: bool,
    /// SNMPv3 engines met before, and the key this peer's is kept under.
    pub engines: Option<(Arc<EngineCache>, String)>,
}

/// SNMPv3 engines by target and auth, so that a scrape does not discover again what the one
/// before learned (gosnmp discovers on every scrape: one request more each). Bounded: past
/// [`EngineCache::MAX`] entries it starts again empty.
#[derive(Debug, Default)]
pub struct EngineCache {
    engines: Mutex<std::collections::HashMap<(SocketAddr, String), snmp_client::Engine>>,
}

impl EngineCache {
    /// The most engines kept.
    pub const MAX: usize = 100_000;

    fn get(&self, target: SocketAddr, key: &str) -> Option<snmp_client::Engine> {
        let engines = self.engines.lock().ok()?;
        engines.get(&(target, key.to_string())).cloned()
    }

    fn put(&self, target: SocketAddr, key: &str, engine: snmp_client::Engine) {
        if let Ok(mut engines) = self.engines.lock() {
            if engines.len() >= Self::MAX {
                engines.clear();
            }
            engines.insert((target, key.to_string()), engine);
        }
    }
}

/// Runs `modules` against `peer`, `concurrency` at a time; their runs in the order given.
/// A module whose worker stopped (a panic) is a failed run, never a missing one.
///
/// The sockets are connected to the target, as upstream's (gosnmp's) are by default: a
/// target with nothing at its port fails the scrape at once (`Connection refused`, from the
/// ICMP port unreachable) instead of after every retry's timeout. Unless one of the modules
/// says `use_unconnected_udp_socket: true` (an agent that answers from another address):
/// then the scrape's sockets take answers from any address.
pub async fn run(
    peer: Peer,
    modules: Vec<Arc<CompiledModule>>,
    concurrency: usize,
) -> Vec<ModuleRun> {
    let all = modules.clone();
    let queue = Arc::new(Mutex::new(
        modules.into_iter().enumerate().collect::<VecDeque<_>>(),
    ));
    let workers = concurrency.max(1).min(all.len().max(1));
    let connected = !all.iter().any(|m| m.use_unconnected_udp_socket);
    // A JoinSet: when the scrape's deadline drops this future, its workers are aborted with
    // it, not left to run out their modules' timeouts.
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..workers {
        let (queue, peer) = (Arc::clone(&queue), peer.clone());
        set.spawn(async move { worker(peer, connected, queue).await });
    }
    let mut runs = Vec::new();
    while let Some(joined) = set.join_next().await {
        match joined {
            Ok(mut r) => runs.append(&mut r),
            Err(e) => tracing::error!(error = %e, "a scrape worker stopped"),
        }
    }
    for (k, module) in all.into_iter().enumerate() {
        if !runs.iter().any(|(j, _)| *j == k) {
            let e = std::io::Error::other("the scrape's worker stopped before the module ended");
            runs.push((k, failed(module, ClientError::Io(e))));
        }
    }
    runs.sort_by_key(|(k, _)| *k);
    runs.into_iter().map(|(_, r)| r).collect()
}

type Queue = Arc<Mutex<VecDeque<(usize, Arc<CompiledModule>)>>>;

async fn worker(peer: Peer, connected: bool, queue: Queue) -> Vec<(usize, ModuleRun)> {
    let mut runs = Vec::new();
    let mut session = None;
    loop {
        let Some((k, module)) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            return runs;
        };
        if session.is_none() {
            match open(&peer, connected).await {
                Ok(s) => session = Some(s),
                Err(e) => {
                    runs.push((k, failed(module, e)));
                    continue;
                }
            }
        }
        let Some(s) = session.as_mut() else { continue };
        runs.push((k, run_module(s, peer.version, module).await));
        if let (Some((cache, key)), Some(engine)) = (&peer.engines, s.engine()) {
            cache.put(peer.target, key, engine.clone());
        }
    }
}

/// A session with the peer, from its source address, its socket connected to it when
/// `connected`, its datagrams logged when asked.
async fn open(peer: &Peer, connected: bool) -> Result<AsyncSession, ClientError> {
    let local = peer.source.unwrap_or(match peer.target {
        SocketAddr::V4(_) => SocketAddr::from(([0, 0, 0, 0], 0)),
        SocketAddr::V6(_) => SocketAddr::from(([0u16; 8], 0)),
    });
    let mut s = AsyncSession::new_from(
        local,
        peer.target,
        peer.credentials.clone(),
        Options::default(),
    )
    .await?;
    if connected {
        s.connect_to_agent().await?;
    }
    if let Some(engine) = peer
        .engines
        .as_ref()
        .and_then(|(c, key)| c.get(peer.target, key))
    {
        s.set_engine(engine);
    }
    if peer.debug_packets {
        s.set_wire_tap(|w| {
            let hex: String = w.datagram.iter().map(|b| format!("{b:02x}")).collect();
            tracing::debug!(direction = ?w.direction, peer = %w.peer, datagram = %hex, "SNMP packet");
        });
    }
    Ok(s)
}

fn failed(module: Arc<CompiledModule>, e: ClientError) -> ModuleRun {
    ModuleRun {
        module,
        result: Err(e),
        packets_sent: 0,
        packets_retried: 0,
        discarded: 0,
        walk_time: Duration::ZERO,
    }
}

/// The options a module's requests run with.
fn options(module: &CompiledModule) -> Options {
    Options {
        timeout: module.timeout,
        retries: module.retries,
        max_repetitions: module.max_repetitions.max(1),
        walk_with: WalkWith::GetBulk,
        walk_checks_order: !module.allow_nonincreasing_oids,
        ..Options::default()
    }
}

async fn run_module(s: &mut AsyncSession, version: i64, module: Arc<CompiledModule>) -> ModuleRun {
    s.set_options(options(&module));
    let before = *s.stats();
    let start = Instant::now();
    let result = collect(s, version, &module).await;
    let after = s.stats();
    ModuleRun {
        packets_sent: after.sent - before.sent,
        packets_retried: after.retransmissions - before.retransmissions,
        discarded: after.discarded_total() - before.discarded_total(),
        walk_time: start.elapsed(),
        module,
        result,
    }
}

/// A module's filters, gets and walks (upstream's `ScrapeTarget`).
async fn collect(
    s: &mut AsyncSession,
    version: i64,
    module: &CompiledModule,
) -> Result<Vec<VarBind>, ClientError> {
    let (walks, gets) = filtered(s, module).await?;
    let mut out = Vec::new();
    // SNMPv1 reports one failed OID a request: one a request there.
    let per_request = if version == 1 {
        1
    } else {
        module.max_repetitions.max(1) as usize
    };
    for chunk in gets.chunks(per_request) {
        match s.get(chunk).await {
            Ok(bindings) => out.extend(bindings.into_iter().filter(|vb| !vb.value.is_exception())),
            // noSuchName (2): SNMPv1's way of saying the object is not there.
            Err(ClientError::ErrorStatus { status: 2, .. }) if version == 1 => {}
            Err(e) => return Err(e),
        }
    }
    for root in &walks {
        s.walk(root, |vb| out.push(vb.clone())).await?;
    }
    Ok(out)
}

/// The walks and gets left after the module's dynamic filters: a filtered table's column is
/// no longer walked but got at the indexes whose value matched.
async fn filtered(
    s: &mut AsyncSession,
    module: &CompiledModule,
) -> Result<(Vec<OidBuf>, Vec<OidBuf>), ClientError> {
    let mut walk: Vec<&(String, OidBuf)> = module.walk.iter().collect();
    let mut get: Vec<OidBuf> = module.get.iter().map(|(_, o)| o.clone()).collect();
    let mut allowed: Vec<(String, Vec<u32>)> = Vec::new();
    for f in &module.filters {
        let mut matched = Vec::new();
        let walked = s
            .walk(&f.oid, |vb| {
                let text =
                    crate::render::value::text(&vb.value, Some(crate::ty::Ty::DisplayString), None);
                if f.values.iter().any(|re| re.is_match(&text)) {
                    if let Some(last) = vb.oid.as_oid().arcs().last() {
                        matched.push(last);
                    }
                }
            })
            .await;
        if let Err(e) = walked {
            // As upstream: a filter whose OID cannot be walked filters nothing.
            tracing::info!(oid = %f.oid, error = %e, "filter OID not walked; no filtering on it");
            continue;
        }
        walk.retain(|(text, _)| !f.targets.contains(text));
        for t in &f.targets {
            match allowed.iter_mut().find(|(name, _)| name == t) {
                // Several filters on one target: the indexes all of them allow.
                Some((_, list)) => list.retain(|i| matched.contains(i)),
                None => allowed.push((t.clone(), matched.clone())),
            }
        }
    }
    for (target, indexes) in &allowed {
        let Ok(base) = crate::config::parse_oid(target) else {
            continue;
        };
        get.retain(|o| !o.as_oid().starts_with(&base.as_oid()));
        for i in indexes {
            let mut oid = base.clone();
            oid.push(*i);
            get.push(oid);
        }
    }
    Ok((walk.into_iter().map(|(_, o)| o.clone()).collect(), get))
}

/// A failure's reason as the exporter's own metrics count it.
pub fn reason(e: &ClientError) -> String {
    match e {
        ClientError::Timeout { .. } => "timeout".into(),
        ClientError::Io(_) => "unreachable".into(),
        ClientError::Report(r) => {
            let text = r.to_string();
            let counter = text
                .rsplit_once('(')
                .map(|(_, c)| c.trim_end_matches(')').to_string())
                .unwrap_or_else(|| "other".into());
            format!("report_{counter}")
        }
        ClientError::Incoming(_) | ClientError::Usm(_) => "decode_error".into(),
        ClientError::ErrorStatus { .. } => "error_status".into(),
        ClientError::NotIncreasing { .. } | ClientError::WalkTooLong { .. } => "walk".into(),
        _ => "other".into(),
    }
}

/// `--snmp.source-address`: `ADDRESS:PORT`, the port empty or 0 for an ephemeral one
/// (`127.0.0.1:`, `[::1]:0`).
pub fn parse_source_address(text: &str) -> Result<SocketAddr, String> {
    let bad =
        || format!("--snmp.source-address {text:?}: expected ADDRESS:PORT (e.g. 192.0.2.1:0)");
    let (host, port) = split_host_port(text).ok_or_else(bad)?;
    let port: u16 = if port.is_empty() {
        0
    } else {
        port.parse().map_err(|_| bad())?
    };
    let ip: std::net::IpAddr = host.parse().map_err(|_| bad())?;
    Ok(SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn target_forms() {
        let a = |s: &'static str| async move { resolve_target(s).await };
        assert_eq!(
            a("127.0.0.1").await.unwrap(),
            "127.0.0.1:161".parse().unwrap()
        );
        assert_eq!(
            a("127.0.0.1:1161").await.unwrap(),
            "127.0.0.1:1161".parse().unwrap()
        );
        assert_eq!(
            a("udp://127.0.0.1:1161").await.unwrap(),
            "127.0.0.1:1161".parse().unwrap()
        );
        assert_eq!(
            a("udp6://[::1]:1161").await.unwrap(),
            "[::1]:1161".parse().unwrap()
        );
        assert_eq!(a("[::1]").await.unwrap(), "[::1]:161".parse().unwrap());
        assert_eq!(a("::1").await.unwrap(), "[::1]:161".parse().unwrap());
        assert!(a("127.0.0.1:http").await.unwrap_err().contains("port"));
        assert!(a("127.0.0.1:70000").await.is_err());
        assert!(a("tcp://127.0.0.1").await.unwrap_err().contains("TCP"));
        assert!(a("udp6://127.0.0.1").await.is_err());
    }
}
