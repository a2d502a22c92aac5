//! The exporter without HTTP: a `/snmp` request's parameters in, a status and body out; the
//! configuration in force, its reloads, the limits and the exporter's own metrics.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::config::{Config, ConfigError, LoadOptions};
use crate::own_metrics::{Failure, ModuleAuth, ModuleLabel, OwnMetrics};
use crate::render::{self, Bindings, Exposition, Format, Kind, RenderOptions};
use crate::scrape;

/// How the exporter runs (its command line, less the listening address).
#[derive(Debug, Clone)]
pub struct Settings {
    pub config_files: Vec<String>,
    pub load: LoadOptions,
    /// `--snmp.module-concurrency`: modules of one scrape run at once.
    pub module_concurrency: usize,
    /// `--snmp.max-concurrent-scrapes`: scrapes running at once; more wait
    /// `scrape_queue_timeout`, then are refused (503).
    pub max_concurrent_scrapes: usize,
    pub scrape_queue_timeout: Duration,
    /// Subtracted from Prometheus's `X-Prometheus-Scrape-Timeout-Seconds`.
    pub scrape_timeout_offset: Duration,
    pub render: RenderOptions,
    /// `--snmp.source-address`: the local address scrapes' sockets are bound to.
    pub source_address: Option<std::net::SocketAddr>,
    /// `--snmp.debug-packets`: every datagram logged at debug level.
    pub debug_packets: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            config_files: vec!["snmp.yml".into()],
            load: LoadOptions::default(),
            module_concurrency: 1,
            max_concurrent_scrapes: 1024,
            scrape_queue_timeout: Duration::from_secs(1),
            scrape_timeout_offset: Duration::from_millis(500),
            render: RenderOptions::default(),
            source_address: None,
            debug_packets: false,
        }
    }
}

/// An HTTP answer: status, content type, body.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    fn text(status: u16, body: impl Into<String>) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: body.into(),
        }
    }
}

/// The exporter: configuration, limits, own metrics.
pub struct Exporter {
    settings: Settings,
    config: RwLock<Arc<Config>>,
    scrapes: Arc<Semaphore>,
    engines: Arc<scrape::EngineCache>,
    pub metrics: OwnMetrics,
}

/// A `/snmp` request's parameters.
#[derive(Debug, Default, Clone)]
pub struct Request {
    /// The query's pairs, in order, repeated keys kept.
    pub query: Vec<(String, String)>,
    /// `X-Prometheus-Scrape-Timeout-Seconds`, when Prometheus sent it.
    pub scrape_timeout: Option<String>,
    /// The `Accept` header (see [`Format::negotiate`]).
    pub accept: Option<String>,
}

impl Exporter {
    /// Loads the configuration; an error leaves no exporter.
    pub fn new(settings: Settings) -> Result<Exporter, ConfigError> {
        let config = Config::load(&settings.config_files, &settings.load)?;
        for w in &config.warnings {
            tracing::warn!("{w}");
        }
        Ok(Exporter::with_config(settings, config))
    }

    /// An exporter over a configuration already loaded.
    pub fn with_config(settings: Settings, config: Config) -> Exporter {
        let metrics = OwnMetrics::default();
        metrics.reload_success.set(1);
        Exporter {
            scrapes: Arc::new(Semaphore::new(settings.max_concurrent_scrapes.max(1))),
            engines: Arc::default(),
            settings,
            config: RwLock::new(Arc::new(config)),
            metrics,
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> Arc<Config> {
        match self.config.read() {
            Ok(c) => Arc::clone(&c),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Reads the configuration files again; on an error the configuration in force stays.
    pub fn reload(&self) -> Result<(), ConfigError> {
        match Config::load(&self.settings.config_files, &self.settings.load) {
            Ok(c) => {
                for w in &c.warnings {
                    tracing::warn!("{w}");
                }
                match self.config.write() {
                    Ok(mut slot) => *slot = Arc::new(c),
                    Err(poisoned) => *poisoned.into_inner() = Arc::new(c),
                }
                self.metrics.reload_success.set(1);
                tracing::info!("loaded the configuration");
                Ok(())
            }
            Err(e) => {
                self.metrics.reload_success.set(0);
                tracing::error!(error = %e, "configuration not reloaded; the one before stays in force");
                Err(e)
            }
        }
    }

    fn bad_request(&self, message: String) -> Reply {
        self.metrics.request_errors.inc();
        Reply::text(400, message + "\n")
    }

    /// Answers `/snmp`.
    pub async fn scrape(&self, request: &Request) -> Reply {
        let params = match Params::parse(&request.query) {
            Ok(p) => p,
            Err(m) => return self.bad_request(m),
        };
        let config = self.config();
        let compiled = &config.compiled;
        let mut modules = Vec::with_capacity(params.modules.len());
        for m in &params.modules {
            match compiled.modules.get(m) {
                Some(module) => modules.push(Arc::clone(module)),
                None => return self.bad_request(format!("Unknown module '{m}'")),
            }
        }
        // A module of the ≤ 0.22 format brings its own auth when the request names none.
        let auth_name = params
            .auth
            .clone()
            .or_else(|| modules.first().and_then(|m| m.legacy_auth.clone()))
            .unwrap_or_else(|| "public_v2".into());
        let Some(auth) = compiled.auths.get(&auth_name).cloned() else {
            return self.bad_request(format!("Unknown auth '{auth_name}'"));
        };
        let target = match scrape::resolve_target(&params.target).await {
            Ok(t) => t,
            Err(m) => return self.bad_request(m),
        };
        let mut credentials = scrape::credentials(&auth, &params.snmp_context);
        if let (Some(id), snmp_client::Credentials::Usm(u)) = (&params.engine_id, &mut credentials)
        {
            *u = u.clone().with_context_engine(id);
        }
        let budget = self.budget(request.scrape_timeout.as_deref());
        let Some(_permit) = self.admit(budget).await else {
            self.metrics.refused.inc();
            return Reply::text(
                503,
                format!(
                    "too many scrapes in flight ({} running, --snmp.max-concurrent-scrapes); this one could not start within {:?}\n",
                    self.settings.max_concurrent_scrapes, self.settings.scrape_queue_timeout
                ),
            );
        };
        let _in_flight = InFlight::new(&self.metrics.in_flight);
        let started = Instant::now();
        let peer = scrape::Peer {
            target,
            credentials,
            version: auth.version,
            source: self.settings.source_address,
            debug_packets: self.settings.debug_packets || params.debug_packets,
            engines: (auth.version == 3).then(|| {
                let key = format!("{auth_name}/{}/{:?}", params.snmp_context, params.engine_id);
                (Arc::clone(&self.engines), key)
            }),
        };
        let run = scrape::run(peer, modules.clone(), self.settings.module_concurrency);
        let runs = match budget {
            Some(b) => tokio::time::timeout(b, run).await.ok(),
            None => Some(run.await),
        };
        let Some(runs) = runs else {
            for m in &modules {
                self.count_failure(&m.name, &auth_name, "deadline");
            }
            return Reply::text(
                500,
                format!(
                    "An error has occurred while serving metrics:\n\nscrape cancelled after {:?} (possible timeout) of target {}: the scrape's budget of {:?} (X-Prometheus-Scrape-Timeout-Seconds less {:?}) ran out\n",
                    started.elapsed(),
                    params.target,
                    budget.unwrap_or_default(),
                    self.settings.scrape_timeout_offset
                ),
            );
        };
        let format = Format::negotiate(request.accept.as_deref());
        self.render(&params.target, &auth_name, runs, started, format)
    }

    /// The scrape's deadline: Prometheus's scrape timeout less the offset, when it sent one.
    fn budget(&self, header: Option<&str>) -> Option<Duration> {
        let secs: f64 = header?.trim().parse().ok()?;
        if !secs.is_finite() || secs <= 0.0 {
            return None;
        }
        let d = Duration::from_secs_f64(secs.min(1e6));
        Some(
            d.saturating_sub(self.settings.scrape_timeout_offset)
                .max(Duration::from_millis(100)),
        )
    }

    async fn admit(&self, budget: Option<Duration>) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let wait = budget
            .map(|b| b.min(self.settings.scrape_queue_timeout))
            .unwrap_or(self.settings.scrape_queue_timeout);
        let sem = Arc::clone(&self.scrapes);
        tokio::time::timeout(wait, sem.acquire_owned())
            .await
            .ok()?
            .ok()
    }

    fn count_failure(&self, module: &str, auth: &str, reason: &str) {
        self.metrics
            .failures
            .get_or_create(&Failure {
                module: module.into(),
                auth: auth.into(),
                reason: reason.into(),
            })
            .inc();
    }

    fn render(
        &self,
        target: &str,
        auth: &str,
        runs: Vec<scrape::ModuleRun>,
        started: Instant,
        format: Format,
    ) -> Reply {
        let mut out = Exposition::default();
        for run in &runs {
            let name = &run.module.name;
            let labels = ModuleAuth {
                module: name.clone(),
                auth: auth.into(),
            };
            self.metrics.scrapes.get_or_create(&labels).inc();
            self.metrics.packets.inc_by(run.packets_sent);
            self.metrics.packet_retries.inc_by(run.packets_retried);
            self.metrics
                .discarded
                .get_or_create(&labels)
                .inc_by(run.discarded);
            let module_label = [("module", name.as_str())];
            match &run.result {
                Err(e) => {
                    self.count_failure(name, auth, &scrape::reason(e));
                    tracing::info!(module = %name, target, error = %e, "error scraping target");
                    out.errors.push(format!(
                        "error collecting metric snmp_error{{module=\"{name}\"}}: error scraping target {target}: {e}"
                    ));
                }
                Ok(bindings) => {
                    let g = |out: &mut Exposition<'_>,
                             metric: &'static str,
                             help: &'static str,
                             v: f64| {
                        out.add(metric, help, Kind::Gauge, &module_label, v)
                    };
                    g(
                        &mut out,
                        "snmp_scrape_walk_duration_seconds",
                        "Time SNMP walk/bulkwalk took.",
                        run.walk_time.as_secs_f64(),
                    );
                    g(
                        &mut out,
                        "snmp_scrape_packets_sent",
                        "Packets sent for get, bulkget, and walk; including retries.",
                        run.packets_sent as f64,
                    );
                    g(
                        &mut out,
                        "snmp_scrape_packets_retried",
                        "Packets retried for get, bulkget, and walk.",
                        run.packets_retried as f64,
                    );
                    g(
                        &mut out,
                        "snmp_scrape_pdus_returned",
                        "PDUs returned from get, bulkget, and walk.",
                        bindings.len() as f64,
                    );
                    let unrendered = out.unrendered;
                    render::render(
                        &run.module,
                        &Bindings::new(bindings),
                        self.settings.render,
                        &mut out,
                    );
                    self.metrics
                        .unrendered
                        .get_or_create(&labels)
                        .inc_by(out.unrendered - unrendered);
                    g(
                        &mut out,
                        "snmp_scrape_duration_seconds",
                        "Total SNMP time scrape took (walk and processing).",
                        started.elapsed().as_secs_f64(),
                    );
                }
            }
            self.metrics
                .collection_duration
                .get_or_create(&ModuleLabel {
                    module: name.clone(),
                })
                .observe(started.elapsed().as_secs_f64());
        }
        let mut body = String::with_capacity(64 * out.len() + 256);
        out.write(&mut body, format);
        if out.errors.is_empty() {
            return Reply {
                status: 200,
                content_type: format.content_type(),
                body,
            };
        }
        let errors = &out.errors;
        let message = if errors.len() == 1 {
            errors[0].clone()
        } else {
            let list: Vec<String> = errors.iter().map(|e| format!("* {e}")).collect();
            format!("{} error(s) occurred:\n{}", errors.len(), list.join("\n"))
        };
        Reply::text(
            500,
            format!("An error has occurred while serving metrics:\n\n{message}\n"),
        )
    }
}

/// A scrape counted in `snmp_request_in_flight` while it lives (a scrape whose client went
/// away is dropped mid-way and still counted out).
struct InFlight<'g>(&'g prometheus_client::metrics::gauge::Gauge);

impl<'g> InFlight<'g> {
    fn new(gauge: &'g prometheus_client::metrics::gauge::Gauge) -> InFlight<'g> {
        gauge.inc();
        InFlight(gauge)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// `/snmp`'s parameters, checked as upstream checks them.
#[derive(Debug)]
struct Params {
    target: String,
    auth: Option<String>,
    modules: Vec<String>,
    snmp_context: String,
    engine_id: Option<Vec<u8>>,
    /// `snmp_debug_packets=true`.
    debug_packets: bool,
}

impl Params {
    fn parse(query: &[(String, String)]) -> Result<Params, String> {
        fn all<'q>(query: &'q [(String, String)], key: &'q str) -> impl Iterator<Item = &'q str> {
            query
                .iter()
                .filter(move |(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        }
        let all = |key: &'static str| all(query, key);
        let once = |key: &'static str| -> Result<Option<String>, String> {
            let mut values = all(key);
            let first = values.next().map(str::to_string);
            if values.next().is_some() {
                return Err(format!("'{key}' parameter must only be specified once"));
            }
            Ok(first)
        };
        let target = match (all("target").count(), once("target")) {
            (1, Ok(Some(t))) if !t.is_empty() => t,
            _ => return Err("'target' parameter must be specified once".into()),
        };
        let auth = once("auth")?.filter(|a| !a.is_empty());
        let snmp_context = once("snmp_context")?.unwrap_or_default();
        let engine_id = match once("snmp_engineid")?.filter(|e| !e.is_empty()) {
            Some(hex) => Some(decode_hex(&hex).ok_or_else(|| {
                format!("'snmp_engineid' parameter {hex:?} is not hexadecimal octets")
            })?),
            None => None,
        };
        let mut modules: Vec<String> = Vec::new();
        let given: Vec<&str> = all("module").collect();
        let given = if given.is_empty() {
            vec!["if_mib"]
        } else {
            given
        };
        for m in given
            .iter()
            .flat_map(|m| m.split(','))
            .filter(|m| !m.is_empty())
        {
            if !modules.iter().any(|x| x == m) {
                modules.push(m.to_string());
            }
        }
        if modules.is_empty() {
            return Err("'module' parameter must contain at least one module name".into());
        }
        let debug_packets = once("snmp_debug_packets")?.as_deref() == Some("true");
        Ok(Params {
            target,
            auth,
            modules,
            snmp_context,
            engine_id,
            debug_packets,
        })
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(s.get(k..k + 2)?, 16).ok())
        .collect()
}
