//! `enterprise-agent`: SNMP-CODEGEN-EXAMPLE-MIB served standalone (`--listen`) or as an
//! AgentX subagent of net-snmp's snmpd (`--agentx`). See the crate's README.

use std::net::UdpSocket;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use enterprise_agent::App;
use snmp_agent::agentx::{Master, Subagent};
use snmp_agent::{Access, Agent, MibView};

/// Serves SNMP-CODEGEN-EXAMPLE-MIB (jobs under netSnmpPlaypen, 1.3.6.1.4.1.8072.9999.7).
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// Answer SNMP requests on this UDP address (`127.0.0.1:1161`, `[::1]:1161`,
    /// `udp:HOST:PORT`, `udp6:[ADDR]:PORT`).
    #[arg(long, value_name = "ADDRESS", required_unless_present = "agentx")]
    listen: Option<String>,
    /// Serve as an AgentX subagent of the master at `tcp:HOST:PORT` or `unix:PATH`.
    #[arg(long, value_name = "MASTER", conflicts_with = "listen")]
    agentx: Option<Master>,
    /// Who may read and write (snmpd.conf lines: rocommunity, rwcommunity, rouser, rwuser,
    /// view, createUser); by default `public` reads everything and `private` writes too.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The SNMP engine ID of the standalone agent, in hex.
    #[arg(
        long,
        value_name = "HEX",
        default_value = "0x80001f8804656e746572707269736520"
    )]
    engine_id: String,
    /// Start with jobs 1 to N.
    #[arg(long, value_name = "N", default_value_t = 3)]
    jobs: usize,
    /// Run the jobs every this many milliseconds (0: never).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    run_every: u64,
    /// Send exampleJobFailed notifications as SNMPv2c traps (community `public`) to this
    /// address; as a subagent they go through the master.
    #[arg(long, value_name = "HOST:PORT")]
    trap_to: Option<String>,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("enterprise-agent: {e}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let app = App::new();
    app.add_jobs(cli.jobs);
    let stop = Arc::new(AtomicBool::new(false));
    match (&cli.listen, &cli.agentx) {
        (Some(address), _) => standalone(&cli, &app, address, &stop),
        (None, Some(master)) => subagent(&cli, &app, master.clone(), &stop),
        (None, None) => Err("give --listen ADDRESS or --agentx MASTER".into()),
    }
}

/// The access control: the file's, or `public` read-only and `private` read-write.
fn access(cli: &Cli) -> Result<Access, String> {
    match &cli.config {
        Some(path) => Access::read(path).map_err(|e| e.to_string()),
        None => Ok(Access::new()
            .community("public", MibView::everything(), None)
            .community(
                "private",
                MibView::everything(),
                Some(MibView::everything()),
            )),
    }
}

/// `udp:HOST:PORT`, `udp6:[ADDR]:PORT` or `HOST:PORT` as a socket address string.
fn udp_address(text: &str) -> &str {
    text.strip_prefix("udp6:")
        .or_else(|| text.strip_prefix("udp:"))
        .unwrap_or(text)
}

fn standalone(cli: &Cli, app: &App, address: &str, stop: &Arc<AtomicBool>) -> Result<(), String> {
    let engine_id = snmp_client::conf::hex_engine_id(&cli.engine_id)?;
    let socket = UdpSocket::bind(udp_address(address)).map_err(|e| format!("{address}: {e}"))?;
    let mut agent = Agent::new(app.registry(), access(cli)?, &engine_id, 1);
    let mut trap_session = match &cli.trap_to {
        Some(to) => {
            let target = snmp_client::Target::parse(to, 162).map_err(|e| format!("{to}: {e}"))?;
            let credentials = snmp_client::Credentials::V2c(b"public".to_vec());
            let options = snmp_client::Options::default();
            let session = snmp_client::Session::new(target.addr, credentials, options);
            Some(session.map_err(|e| format!("{to}: {e}"))?)
        }
        None => None,
    };
    spawn_runs(app, cli.run_every, move |failed| {
        if let Some(session) = trap_session.as_mut() {
            if let Err(e) = session.notify(0, &failed) {
                tracing::warn!(%e, "exampleJobFailed not sent");
            }
        }
    });
    eprintln!(
        "enterprise-agent: serving on {}",
        socket.local_addr().map_err(|e| e.to_string())?
    );
    agent.serve(&socket, stop).map_err(|e| e.to_string())
}

fn subagent(cli: &Cli, app: &App, master: Master, stop: &Arc<AtomicBool>) -> Result<(), String> {
    let mut subagent =
        Subagent::new(app.registry(), master.clone()).description("enterprise-agent");
    let notifier = subagent.notifier();
    spawn_runs(app, cli.run_every, move |failed| {
        if let Err(e) = notifier.notify(&failed) {
            tracing::warn!(%e, "exampleJobFailed not sent");
        }
    });
    eprintln!("enterprise-agent: subagent of {master}");
    subagent.run(stop).map_err(|e| e.to_string())
}

/// Runs the jobs every `every_ms` (never for 0), handing each failure to `failed`.
fn spawn_runs(
    app: &App,
    every_ms: u64,
    mut failed: impl FnMut(enterprise_agent::snmp_codegen_example_mib::ExampleJobFailed)
        + Send
        + 'static,
) {
    if every_ms == 0 {
        return;
    }
    let app = app.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(every_ms));
        for f in app.run_jobs() {
            failed(f);
        }
    });
}
