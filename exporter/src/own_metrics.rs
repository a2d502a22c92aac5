//! The exporter's own metrics (`/metrics`): upstream's names where upstream has them, and
//! scrapes, failures by reason, discarded datagrams and refusals per module and auth (never
//! per target: a fleet's targets would make a series each), plus the process's own.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ModuleLabel {
    pub module: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ModuleAuth {
    pub module: String,
    pub auth: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Failure {
    pub module: String,
    pub auth: String,
    pub reason: String,
}

type HistogramFamily = Family<ModuleLabel, Histogram, fn() -> Histogram>;

/// Every counter and gauge, registered.
pub struct OwnMetrics {
    registry: Registry,
    pub request_errors: Counter,
    pub collection_duration: HistogramFamily,
    pub packets: Counter,
    pub packet_retries: Counter,
    pub in_flight: Gauge,
    pub scrapes: Family<ModuleAuth, Counter>,
    pub failures: Family<Failure, Counter>,
    pub discarded: Family<ModuleAuth, Counter>,
    pub unrendered: Family<ModuleAuth, Counter>,
    pub refused: Counter,
    pub reload_success: Gauge,
}

fn collection_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.0001, 2.0, 15))
}

impl Default for OwnMetrics {
    fn default() -> Self {
        let mut registry = Registry::default();
        let m = OwnMetrics {
            request_errors: Counter::default(),
            collection_duration: Family::new_with_constructor(collection_histogram),
            packets: Counter::default(),
            packet_retries: Counter::default(),
            in_flight: Gauge::default(),
            scrapes: Family::default(),
            failures: Family::default(),
            discarded: Family::default(),
            unrendered: Family::default(),
            refused: Counter::default(),
            reload_success: Gauge::default(),
            registry: Registry::default(),
        };
        registry.register(
            "snmp_request_errors",
            "Errors in requests to the SNMP exporter",
            m.request_errors.clone(),
        );
        registry.register(
            "snmp_collection_duration_seconds",
            "Duration of collections by the SNMP exporter",
            m.collection_duration.clone(),
        );
        registry.register(
            "snmp_packets",
            "Number of SNMP packet sent, including retries.",
            m.packets.clone(),
        );
        registry.register(
            "snmp_packet_retries",
            "Number of SNMP packet retries.",
            m.packet_retries.clone(),
        );
        registry.register(
            "snmp_request_in_flight",
            "Current number of SNMP scrapes being requested.",
            m.in_flight.clone(),
        );
        registry.register(
            "snmp_exporter_scrapes",
            "Module scrapes run, by module and auth.",
            m.scrapes.clone(),
        );
        registry.register(
            "snmp_exporter_scrape_failures",
            "Module scrapes that failed, by module, auth and reason (timeout, unreachable, report_<usmStats counter>, decode_error, error_status, walk, deadline, other).",
            m.failures.clone(),
        );
        registry.register(
            "snmp_exporter_discarded_datagrams",
            "Datagrams received and discarded as no acceptable answer (malformed, hostile, late), by module and auth.",
            m.discarded.clone(),
        );
        registry.register(
            "snmp_exporter_unrendered_values",
            "Values that rendered as no sample, as upstream renders them (a DateAndTime of the wrong length, text no regex_extracts expression reads a number from), by module and auth.",
            m.unrendered.clone(),
        );
        registry.register(
            "snmp_exporter_scrapes_refused",
            "Scrapes refused because --snmp.max-concurrent-scrapes were already running.",
            m.refused.clone(),
        );
        registry.register(
            "snmp_exporter_config_last_reload_successful",
            "Whether the last configuration reload succeeded (1) or kept the configuration before it (0).",
            m.reload_success.clone(),
        );
        OwnMetrics { registry, ..m }
    }
}

impl OwnMetrics {
    /// The metrics in the OpenMetrics text format, the process's own included.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        if prometheus_client::encoding::text::encode(&mut out, &self.registry).is_err() {
            out.clear();
        }
        let body = out.strip_suffix("# EOF\n").unwrap_or(&out).to_string();
        body + &process_metrics() + "# EOF\n"
    }
}

/// process_cpu_seconds_total, process_resident_memory_bytes, process_open_fds and
/// process_start_time_seconds from /proc (Linux); nothing elsewhere.
fn process_metrics() -> String {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return String::new();
    };
    // The fields after the command's closing parenthesis (which may hold spaces).
    let Some((_, after)) = stat.rsplit_once(')') else {
        return String::new();
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |k: usize| {
        fields
            .get(k)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // /proc counts CPU in USER_HZ ticks (100 on Linux, fixed by its ABI) and memory in
    // pages (4 KiB on x86-64 and the usual arm64 kernels).
    let (ticks, page) = (100.0, 4096.0);
    let cpu = (field(11) + field(12)) / ticks;
    let rss = field(21) * page;
    let fds = std::fs::read_dir("/proc/self/fd")
        .map(|d| d.count())
        .unwrap_or(0);
    let boot = std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("btime ")
                    .and_then(|v| v.trim().parse::<f64>().ok())
            })
        })
        .unwrap_or(0.0);
    let start = boot + field(19) / ticks;
    format!(
        "# HELP process_cpu_seconds Total user and system CPU time spent in seconds.\n\
         # TYPE process_cpu_seconds counter\nprocess_cpu_seconds_total {cpu}\n\
         # HELP process_resident_memory_bytes Resident memory size in bytes.\n\
         # TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes {rss}\n\
         # HELP process_open_fds Number of open file descriptors.\n\
         # TYPE process_open_fds gauge\nprocess_open_fds {fds}\n\
         # HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n\
         # TYPE process_start_time_seconds gauge\nprocess_start_time_seconds {start}\n"
    )
}
