//! `snmp-exporter`: snmp_exporter's command line over this project's SNMP stack.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use generator_cli::{GenerateArgs, GeneratorFlags, Level};
use snmp_exporter::config::{duration, LoadOptions};
use snmp_exporter::exporter::{Exporter, Settings};
use snmp_exporter::render::RenderOptions;

mod generator_cli;

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
    /// Only log messages with the given severity or above: debug, info, warn, error (the
    /// generator's messages too).
    #[arg(long = "log.level", default_value = "info", global = true)]
    log_level: String,
    /// Output format of log messages: logfmt or json (the server's; the generator's messages
    /// are lines of text).
    #[arg(long = "log.format", default_value = "logfmt", global = true)]
    log_format: String,
    /// Only verify that the configuration is valid, and exit.
    #[arg(long = "dry-run")]
    dry_run: bool,
    /// Write the man page, snmp-exporter.1, into DIR, and exit.
    #[arg(long = "generate-man", value_name = "DIR", hide = true)]
    generate_man: Option<std::path::PathBuf>,
    #[command(flatten)]
    generator: GeneratorFlags,
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
    ParseErrors,
    /// Print every node of the MIB tree as the generator reads it: OID, label, module, type,
    /// TEXTUAL-CONVENTION, DISPLAY-HINT, access, INDEX.
    Dump,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(command) = &cli.command {
        generator_cli::quiet_on_closed_pipe();
        let level = match Level::of(&cli.log_level, &cli.log_format) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("snmp-exporter: {e}");
                return ExitCode::from(2);
            }
        };
        return match command {
            Command::Generate(args) => generator_cli::generate(args, &cli.generator, level),
            Command::ParseErrors => generator_cli::inspect(&cli.generator, false, level),
            Command::Dump => generator_cli::inspect(&cli.generator, true, level),
        };
    }
    if cli.generator.given() {
        eprintln!(
            "snmp-exporter: -m/--mibs-dir, --fail-on-parse-errors and --snmp.mibopts are the generator's: \
             snmp-exporter generate (or parse_errors, dump)"
        );
        return ExitCode::from(2);
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
    // Both checked as the generator's commands check them; the filter is the level's name.
    Level::of(level, format)?;
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(level))
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    if format == "json" {
        builder.json().init();
    } else {
        builder.compact().init();
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
