//! `snmp-exporter`: snmp_exporter's command line over this project's SNMP stack.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use snmp_exporter::config::{duration, LoadOptions};
use snmp_exporter::exporter::{Exporter, Settings};
use snmp_exporter::render::RenderOptions;

/// A Prometheus exporter for SNMP: a drop-in for snmp_exporter (its snmp.yml, its endpoints,
/// its samples).
#[derive(Parser, Debug)]
#[command(name = "snmp-exporter", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Path to configuration file (repeatable; globs; later files' auths and modules replace
    /// earlier ones of the same name).
    #[arg(long = "config.file", default_value = "snmp.yml")]
    config_file: Vec<String>,
    /// Address to listen on for the web interface and telemetry (`:9116` is every address).
    #[arg(long = "web.listen-address", default_value = ":9116")]
    listen_address: Vec<String>,
    /// Expand environment variables ($VAR, ${VAR}) in auths' usernames and passwords.
    #[arg(long = "config.expand-environment-variables")]
    expand_env: bool,
    /// The number of modules to fetch concurrently per scrape.
    #[arg(long = "snmp.module-concurrency", default_value_t = 1)]
    module_concurrency: usize,
    /// Scrapes running at once; a scrape past them waits --snmp.scrape-queue-timeout, then
    /// is refused with 503.
    #[arg(long = "snmp.max-concurrent-scrapes", default_value_t = 1024)]
    max_concurrent_scrapes: usize,
    /// How long a scrape waits for one of --snmp.max-concurrent-scrapes to end.
    #[arg(long = "snmp.scrape-queue-timeout", default_value = "1s", value_parser = duration::parse)]
    scrape_queue_timeout: Duration,
    /// Subtracted from Prometheus's X-Prometheus-Scrape-Timeout-Seconds to make the scrape's
    /// deadline (the answer must reach Prometheus before its own timeout).
    #[arg(long = "snmp.scrape-timeout-offset", default_value = "500ms", value_parser = duration::parse)]
    scrape_timeout_offset: Duration,
    /// Wrap 64-bit counters at 2^53 to avoid floating point rounding (kingpin's forms:
    /// `--snmp.wrap-large-counters[=BOOL]`, `--no-snmp.wrap-large-counters`).
    #[arg(
        long = "snmp.wrap-large-counters",
        default_value_t = true,
        num_args = 0..=1,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    wrap_large_counters: bool,
    /// Do not wrap 64-bit counters (see --snmp.wrap-large-counters).
    #[arg(long = "no-snmp.wrap-large-counters", hide = true)]
    no_wrap_large_counters: bool,
    /// Source address to send SNMP from, `ADDRESS:PORT` (the port empty or 0: an ephemeral
    /// one, as `127.0.0.1:` or `[::1]:0`).
    #[arg(long = "snmp.source-address", default_value = "")]
    source_address: String,
    /// Log every SNMP datagram (hexadecimal) at debug level; `snmp_debug_packets=true` on a
    /// request does it for that scrape.
    #[arg(long = "snmp.debug-packets")]
    debug_packets: bool,
    /// Path under which to expose the exporter's own metrics.
    #[arg(long = "web.telemetry-path", default_value = "/metrics")]
    telemetry_path: String,
    /// exporter-toolkit's web configuration: `tls_server_config` serves TLS 1.2/1.3 (client
    /// certificates verified when asked), `basic_auth_users` (bcrypt hashes) puts every
    /// endpoint behind basic authentication; what cannot be enforced (`http_server_config`,
    /// cipher and curve lists, TLS 1.0/1.1) refuses to start, never ignored.
    #[arg(long = "web.config.file", default_value = "")]
    web_config_file: String,
    /// Listen on systemd's socket (not supported: refused at start).
    #[arg(long = "web.systemd-socket")]
    systemd_socket: bool,
    /// Only log messages with the given severity or above: debug, info, warn, error.
    #[arg(long = "log.level", default_value = "info")]
    log_level: String,
    /// Output format of log messages: logfmt or json.
    #[arg(long = "log.format", default_value = "logfmt")]
    log_format: String,
    /// Only verify that the configuration is valid, and exit.
    #[arg(long = "dry-run")]
    dry_run: bool,
    /// Write the man page, snmp-exporter.1, into DIR, and exit.
    #[arg(long = "generate-man", value_name = "DIR", hide = true)]
    generate_man: Option<std::path::PathBuf>,
}

/// What the exporter does besides serving.
#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Generate snmp.yml from generator.yml and MIB files, as snmp_exporter's generator does,
    /// without net-snmp.
    Generate(GenerateArgs),
    /// Print the MIB modules that could not be used and the files that yielded none, each
    /// with why (exit 0 either way).
    #[command(name = "parse_errors")]
    ParseErrors(MibArgs),
    /// Print every node of the MIB tree as the generator reads it: OID, label, module, type,
    /// TEXTUAL-CONVENTION, DISPLAY-HINT, access, INDEX.
    Dump(MibArgs),
}

#[derive(clap::Args, Debug)]
struct MibArgs {
    /// A folder of MIB files (repeatable); the standard modules are built in.
    #[arg(short = 'm', long = "mibs-dir", default_value = "./mibs")]
    mibs: Vec<std::path::PathBuf>,
}

/// `snmp-exporter parse_errors` and `snmp-exporter dump`.
fn inspect(args: &MibArgs, dump: bool) -> ExitCode {
    let mibs = match snmp_exporter::generate::tree::MibTree::load(&args.mibs) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("snmp-exporter: {e}");
            return ExitCode::FAILURE;
        }
    };
    if dump {
        for n in &mibs.nodes {
            println!(
                "{} {} {} type={} tc={} hint={:?} access={} indexes={}{}",
                n.oid(),
                n.label,
                mibs.module_of(n),
                n.ty,
                n.tc,
                n.hint,
                n.access,
                n.indexes.join(","),
                if n.implied { " (implied)" } else { "" }
            );
        }
        return ExitCode::SUCCESS;
    }
    for f in &mibs.failed {
        println!("{} ({} objects lost): {}", f.name, f.objects.len(), f.error);
    }
    for u in &mibs.unread {
        println!("{u}");
    }
    println!(
        "{} module(s) could not be used, {} file(s) yielded no module",
        mibs.failed.len(),
        mibs.unread.len()
    );
    ExitCode::SUCCESS
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// The generator's configuration.
    #[arg(short = 'g', long = "generator-path", default_value = "generator.yml")]
    generator: std::path::PathBuf,
    /// Where to write snmp.yml.
    #[arg(short = 'o', long = "output-path", default_value = "snmp.yml")]
    output: std::path::PathBuf,
    /// A folder of MIB files (repeatable); the standard modules are built in.
    #[arg(short = 'm', long = "mibs-dir", default_value = "./mibs")]
    mibs: Vec<std::path::PathBuf>,
    /// Fail when a MIB module cannot be read or resolved (each is reported either way).
    #[arg(long = "fail-on-parse-errors", default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    fail_on_parse_errors: bool,
}

/// `snmp-exporter generate`.
fn generate(args: &GenerateArgs) -> ExitCode {
    use snmp_exporter::generate::{self, config::GeneratorFile};
    let text = match std::fs::read_to_string(&args.generator) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("snmp-exporter generate: {}: {e}", args.generator.display());
            return ExitCode::FAILURE;
        }
    };
    let generator: GeneratorFile = match serde_yaml::from_str(&text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("snmp-exporter generate: {}: {e}", args.generator.display());
            return ExitCode::FAILURE;
        }
    };
    let mibs = match generate::load_tree(&args.mibs, &generator) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("snmp-exporter generate: {e}");
            return ExitCode::FAILURE;
        }
    };
    for f in &mibs.failed {
        eprintln!(
            "snmp-exporter generate: MIB module {} not used ({} objects lost): {}",
            f.name,
            f.objects.len(),
            f.error
        );
    }
    for u in &mibs.unread {
        eprintln!("snmp-exporter generate: a file yielded no MIB module: {u}");
    }
    if args.fail_on_parse_errors && !mibs.failed.is_empty() {
        eprintln!(
            "snmp-exporter generate: {} MIB module(s) failed (--fail-on-parse-errors=false to go on without them)",
            mibs.failed.len()
        );
        return ExitCode::FAILURE;
    }
    let mut warnings = Vec::new();
    let file = generate::generate(&generator, &mibs, &mut warnings);
    for w in &warnings {
        eprintln!("snmp-exporter generate: warning: {w}");
    }
    let written = file
        .map_err(|e| e.to_string())
        .and_then(|f| {
            for (name, m) in &f.modules {
                eprintln!(
                    "snmp-exporter generate: module {name}: {} metrics",
                    m.metrics.len()
                );
            }
            generate::to_yaml(&f)
        })
        .and_then(|yaml| {
            std::fs::write(&args.output, yaml)
                .map_err(|e| format!("{}: {e}", args.output.display()))
        });
    // The process ends here: the tree's 100,000 nodes are left to the OS, not freed one by
    // one (a tenth of a whole-corpus run).
    std::mem::forget(mibs);
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("snmp-exporter generate: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Generate(args)) => return generate(args),
        Some(Command::ParseErrors(args)) => return inspect(args, false),
        Some(Command::Dump(args)) => return inspect(args, true),
        None => {}
    }
    if let Some(dir) = &cli.generate_man {
        use clap::CommandFactory;
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(Cli::command(), dir));
        return match written {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("snmp-exporter: {}: {e}", dir.display());
                ExitCode::FAILURE
            }
        };
    }
    if let Err(e) = init_logging(&cli.log_level, &cli.log_format) {
        eprintln!("snmp-exporter: {e}");
        return ExitCode::from(2);
    }
    if cli.systemd_socket {
        eprintln!(
            "snmp-exporter: --web.systemd-socket is not supported; refusing to start without what it asks for"
        );
        return ExitCode::from(2);
    }
    let web = match cli.web_config_file.as_str() {
        "" => Default::default(),
        path => match snmp_exporter::web_config::load(std::path::Path::new(path)) {
            Ok(web) => web,
            Err(e) => {
                tracing::error!("error loading web config: {e}");
                eprintln!("snmp-exporter: --web.config.file: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let source_address = match cli.source_address.as_str() {
        "" => None,
        text => match snmp_exporter::scrape::parse_source_address(text) {
            Ok(a) => Some(a),
            Err(e) => {
                eprintln!("snmp-exporter: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let settings = Settings {
        config_files: cli.config_file.clone(),
        load: LoadOptions {
            expand_env: cli.expand_env,
        },
        module_concurrency: cli.module_concurrency.max(1),
        max_concurrent_scrapes: cli.max_concurrent_scrapes.max(1),
        scrape_queue_timeout: cli.scrape_queue_timeout,
        scrape_timeout_offset: cli.scrape_timeout_offset,
        render: RenderOptions {
            wrap_counters: cli.wrap_large_counters && !cli.no_wrap_large_counters,
        },
        source_address,
        debug_packets: cli.debug_packets,
    };
    let exporter = match Exporter::new(settings) {
        Ok(e) => e,
        Err(e) => {
            tracing::error!("error parsing config file: {e}");
            eprintln!("snmp-exporter: error parsing config file: {e}");
            return ExitCode::FAILURE;
        }
    };
    if cli.dry_run {
        tracing::info!("configuration parsed successfully");
        return ExitCode::SUCCESS;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("snmp-exporter: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = serve(
        Arc::new(exporter),
        &cli.listen_address,
        &cli.telemetry_path,
        web,
    );
    match runtime.block_on(served) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("error starting HTTP server: {e}");
            eprintln!("snmp-exporter: error starting HTTP server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging(level: &str, format: &str) -> Result<(), String> {
    let filter = match level {
        "debug" | "info" | "warn" | "error" => tracing_subscriber::EnvFilter::new(level),
        other => {
            return Err(format!(
                "--log.level {other:?}: expected debug, info, warn or error"
            ))
        }
    };
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    match format {
        "logfmt" => builder.compact().init(),
        "json" => builder.json().init(),
        other => return Err(format!("--log.format {other:?}: expected logfmt or json")),
    }
    Ok(())
}

/// `:9116` listens on every address (IPv6 and IPv4), as Go's listener does.
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    let full = if text.starts_with(':') {
        format!("[::]{text}")
    } else {
        text.to_string()
    };
    full.parse()
        .map_err(|_| format!("--web.listen-address {text:?}: expected [HOST]:PORT"))
}

async fn serve(
    exporter: Arc<Exporter>,
    addresses: &[String],
    telemetry: &str,
    web: snmp_exporter::web_config::WebConfig,
) -> Result<(), String> {
    let reloader = Arc::clone(&exporter);
    tokio::spawn(async move {
        let Ok(mut hup) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        else {
            return;
        };
        while hup.recv().await.is_some() {
            let _ = reloader.reload();
        }
    });
    let mut servers = Vec::new();
    for text in addresses {
        let addr = listen_address(text)?;
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => l,
            // No IPv6 on this host: every IPv4 address instead.
            Err(_) if text.starts_with(':') => {
                let v4: SocketAddr = format!("0.0.0.0{text}")
                    .parse()
                    .map_err(|e| format!("{e}"))?;
                tokio::net::TcpListener::bind(v4)
                    .await
                    .map_err(|e| format!("{text}: {e}"))?
            }
            Err(e) => return Err(format!("{text}: {e}")),
        };
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        tracing::info!(address = %local, "listening");
        let app = snmp_exporter::server::router_guarded(
            Arc::clone(&exporter),
            telemetry,
            web.auth.clone(),
        );
        let tls = web.tls.clone();
        servers.push(tokio::spawn(async move {
            match tls {
                Some(tls) => snmp_exporter::server::serve_tls(listener, app, tls).await,
                None => axum::serve(listener, app).await,
            }
        }));
    }
    for s in servers {
        match s.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e.to_string()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}
