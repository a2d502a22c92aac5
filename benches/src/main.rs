//! `snmp-bench`: the codec benchmark table.
//!
//! The workloads of ../shared/seeds/codec-benchmark.txt (a v2c GetResponse with 1, 10 and 50
//! bindings; the PDU body alone and the whole message; decode and encode), run by every
//! implementation side by side in one process on the same octets, each checked against the
//! expected values before it is timed. Prints the table, the fitted cost lines `a + b*n`, and
//! where the time goes; writes JSON, Markdown and an SVG plot on request.

mod agent;
mod clients;
mod corpus;
mod der;
mod exporter;
mod exporter_load;
mod generate;
mod impls;
mod measure;
mod mibload;
mod netsnmp_c;
mod notify;
mod plot;
mod poll;
mod process;
mod report;
mod walks;
mod workload;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

use impls::{Codec, Layer, Op, Prepared};

#[derive(Parser)]
#[command(
    name = "snmp-bench",
    about = "SNMP codec benchmark: snmp-codegen, net-snmp and the Rust peers side by side"
)]
struct Cli {
    /// A fast sanity run: short timings, no instruction counts.
    #[arg(long)]
    quick: bool,
    /// Write the results as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the results as Markdown (with the cost-line plot next to it as SVG).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Where the time goes: callgrind instruction counts per function group (valgrind), else a
    /// phase breakdown.
    #[arg(long)]
    profile: bool,
    /// Seconds of timing per measurement.
    #[arg(long, value_name = "SECONDS")]
    min_time: Option<f64>,
    /// Fail when libnetsnmp cannot be loaded (instead of reporting the rest).
    #[arg(long)]
    require_netsnmp: bool,
    /// Skip the callgrind instruction counts even when valgrind is present.
    #[arg(long)]
    no_instructions: bool,
    /// The MIB corpus to time loading: a folder of MIB files, or one in the real-world
    /// corpus's layout (`ietf/` and `vendor/*/`). Default: SNMP_MIB_CORPUS, else ../shared/mibs
    /// beside the project, when there.
    #[arg(long, value_name = "DIR")]
    mib_corpus: Option<PathBuf>,
    /// Run one section only: `codec` (the default run: the codec table, the corpus and the
    /// MIB corpus load), `notify` (notifications received per second per core: our
    /// receivers against net-snmp's snmptrapd), `poll` (many simulated agents polled from
    /// one socket), `walk` (4 concurrent whole-MIB walks against snmpwalk and gufo_snmp) or
    /// `exporter` (snmp-exporter against Debian's snmp_exporter on a simulated device),
    /// `generate` (snmp-exporter generate against snmp_exporter's net-snmp generator) or
    /// `clients` (session setup and calls from 1 KB to 1 MB answered, every client a user
    /// would pick, with a graph per size beside --markdown's file) or `agent` (a
    /// 10,000-row table served by snmp-agent standalone, by snmpd through the subagent, and
    /// by snmpd alone).
    #[arg(long, value_name = "SECTION", value_parser = ["agent", "clients", "codec", "der", "exporter", "generate", "notify", "poll", "walk"])]
    only: Option<String>,
    /// Simulated agents in the `poll` section.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    agents: usize,
    /// The subtree the `walk` section walks (default the whole MIB view).
    #[arg(long, value_name = "OID", default_value = "1.3")]
    walk_root: String,
    /// Leave gufo_snmp out of the `walk` and `poll` sections (it is installed with pip
    /// otherwise).
    #[arg(long)]
    no_gufo: bool,
    /// Leave the Python clients (gufo_snmp, ezsnmp, pysnmp) out of the `clients` section
    /// (they are installed with pip into a venv otherwise).
    #[arg(long)]
    no_python: bool,
    /// Only these clients in the `clients` section (names as its table prints them,
    /// comma-separated; the floor is always measured).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    clients: Vec<String>,
    /// Leave net-snmp's asynchronous API out of the `poll` section (it is built with `cc`
    /// against libnetsnmp otherwise).
    #[arg(long)]
    no_netsnmp: bool,
    /// Internal: an agent of the agent section: MODE (standalone, subagent) ADDRESS ROWS.
    #[arg(long, num_args = 3, hide = true, value_names = ["MODE", "ADDRESS", "ROWS"])]
    agent_child: Option<Vec<String>>,
    /// Internal: the simulator of the poll section: FILE ADDRESS.
    #[arg(long, num_args = 2, hide = true, value_names = ["FILE", "ADDRESS"])]
    simulate_child: Option<Vec<String>>,
    /// Notifications per receiver and version in the `notify` section.
    #[arg(long, value_name = "N")]
    notifications: Option<u64>,
    /// Scrapes of each module by each exporter in the `exporter` section.
    #[arg(long, value_name = "N")]
    scrapes: Option<usize>,
    /// The `exporter` section's long runs too: a soak (resident set after 1,000 and after
    /// 100,000 scrapes) and the capacity run (--capacity-targets if_mib targets, each scraped
    /// once in --capacity-interval seconds).
    #[arg(long)]
    exporter_long: bool,
    /// Simulated targets of the exporter's capacity run.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    capacity_targets: usize,
    /// Seconds over which the capacity run scrapes each target once.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    capacity_interval: f64,
    /// Internal: our generator for the generate section: GENERATOR OUTPUT MIBDIR...
    #[arg(long, num_args = 3.., hide = true, value_names = ["GENERATOR", "OUTPUT", "MIBDIR"])]
    generate_child: Option<Vec<String>>,
    /// Internal: our exporter for the exporter section: CONFIG ADDRESS.
    #[arg(long, num_args = 2, hide = true, value_names = ["CONFIG", "ADDRESS"])]
    exporter_child: Option<Vec<String>>,
    /// Internal: a receiver for the notify section: WHICH CONF ADDRESS.
    #[arg(long, num_args = 3, hide = true, value_names = ["WHICH", "CONF", "ADDRESS"])]
    notify_child: Option<Vec<String>>,
    /// Entries of the CRL the DER section measures (default 265,000: CAcert's 8.72 MiB; 26,500
    /// with --quick).
    #[arg(long, value_name = "N")]
    crl_entries: Option<usize>,
    /// Internal: one DER operation ITERS times, each timed, and the peak RSS.
    #[arg(long, num_args = 4, hide = true, value_names = ["IMPL", "OP", "FILE", "ITERS"])]
    der_child: Option<Vec<String>>,
    /// Internal: load the MIB directories once and print the peak RSS in kB.
    #[arg(long, num_args = 1.., hide = true, value_name = "DIR")]
    mib_load_child: Option<Vec<PathBuf>>,
    /// Internal: run one job N times (for callgrind): IMPL LAYER OP BINDINGS ITERATIONS.
    #[arg(long, num_args = 5, hide = true, value_names = ["IMPL", "LAYER", "OP", "N", "ITERS"])]
    instructions_of: Option<Vec<String>>,
}

/// The binding counts of the workloads.
pub const BINDINGS: [usize; 3] = [1, 10, 50];

/// One measured row.
#[derive(Debug, Clone)]
pub struct Row {
    /// Implementation.
    pub imp: &'static str,
    /// Layer.
    pub layer: Layer,
    /// Operation.
    pub op: Op,
    /// Bindings.
    pub n: usize,
    /// Timing.
    pub timing: measure::Timing,
    /// Instructions per operation, where counted.
    pub instructions: Option<f64>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(args) = &cli.instructions_of {
        return instructions_child(args);
    }
    if let Some(dirs) = &cli.mib_load_child {
        println!("{}", mibload::child(dirs));
        return ExitCode::SUCCESS;
    }
    if let Some(args) = &cli.notify_child {
        return notify::child(&args[0], &args[1], &args[2]);
    }
    if let Some(a) = &cli.der_child {
        return der::child(&a[0], &a[1], &a[2], &a[3]);
    }
    if cli.only.as_deref() == Some("der") {
        return der_section(&cli);
    }
    if let Some(a) = &cli.generate_child {
        return generate::child(&a[0], &a[1], &a[2..]);
    }
    if cli.only.as_deref() == Some("generate") {
        return generate_section(&cli);
    }
    if let Some(a) = &cli.exporter_child {
        return exporter::child(&a[0], &a[1]);
    }
    if cli.only.as_deref() == Some("exporter") {
        return exporter_section(&cli);
    }
    if let Some(args) = &cli.simulate_child {
        return poll::child(&args[0], &args[1]);
    }
    if cli.only.as_deref() == Some("notify") {
        return notify_section(&cli);
    }
    if cli.only.as_deref() == Some("poll") {
        return poll_section(&cli);
    }
    if cli.only.as_deref() == Some("walk") {
        return walk_section(&cli);
    }
    if cli.only.as_deref() == Some("clients") {
        return clients_section(&cli);
    }
    if let Some(a) = &cli.agent_child {
        return agent::child(&a[0], &a[1], &a[2]);
    }
    if cli.only.as_deref() == Some("agent") {
        return agent_section(&cli);
    }
    let budget =
        Duration::from_secs_f64(cli.min_time.unwrap_or(if cli.quick { 0.03 } else { 0.3 }));
    let (impls, netsnmp_note) = impls::all();
    let mut notes = Vec::new();
    match netsnmp_note {
        Ok(loaded) => notes.push(loaded),
        Err(n) if cli.require_netsnmp => {
            eprintln!("error: {n}");
            return ExitCode::FAILURE;
        }
        Err(n) => notes.push(format!("net-snmp column missing: {n}")),
    }
    let count_instructions = !cli.no_instructions && measure::valgrind_available();
    if !cli.no_instructions && !count_instructions {
        notes
            .push("valgrind not found: no instruction counts (apt-get install -y valgrind)".into());
    }
    let exe = std::env::current_exe().expect("own path");

    let workloads: Vec<workload::Workload> = BINDINGS.iter().map(|&n| workload::build(n)).collect();
    let samples = if cli.quick {
        measure::QUICK_SAMPLES
    } else {
        measure::SAMPLES
    };
    let mut rows = time_all(&impls, &workloads, budget, samples, &mut notes);
    if count_instructions {
        measure::count_all(&exe, &mut rows, &mut notes);
    }
    same_as_rows(&impls, &mut rows, &mut notes);
    for n in impls::ENCODING_NOTES.lock().expect("notes lock").drain(..) {
        if !notes.contains(&n) {
            notes.push(n);
        }
    }
    let corpus = corpus::run(&impls, budget, &mut notes);
    let mib_root = mib_root(&cli);
    let mibs = if mib_root.is_dir() {
        Some(mibload::run(
            &mib_root,
            &exe,
            if cli.quick { 1 } else { 5 },
            &mut notes,
        ))
    } else {
        notes.push(format!(
            "MIB corpus not timed: no folder {} (--mib-corpus DIR, or SNMP_MIB_CORPUS)",
            mib_root.display()
        ));
        None
    };
    let names: Vec<&'static str> = impls.iter().map(|i| i.name()).collect();
    let fits = report::fits(&rows);
    let profile = if cli.profile {
        Some(report::profile(
            &exe,
            count_instructions || measure::valgrind_available(),
            &rows,
        ))
    } else {
        None
    };
    // The plot is drawn first so that a failure to draw it is among the notes.
    let svg = cli.markdown.as_ref().map(|p| p.with_extension("svg"));
    let svg_name = match &svg {
        Some(svg) => match plot::cost_lines(svg, &rows, &fits) {
            Ok(()) => svg.file_name().and_then(|s| s.to_str()),
            Err(e) => {
                notes.push(format!("plot not written: {e}"));
                None
            }
        },
        None => None,
    };
    let mut der_notes = Vec::new();
    let results = report::Results {
        names: &names,
        rows: &rows,
        fits: &fits,
        corpus: &corpus,
        mibs: mibs.as_ref(),
        notes: &notes,
        profile: profile.as_deref(),
    };
    print!("{}", report::text(&results));
    // Quick runs count no DER instructions: callgrind over every peer's 8.7 MiB (26,500
    // entries under --quick) takes minutes.
    let der_rows = run_der(&cli, count_instructions && !cli.quick, &mut der_notes);
    print!("{}", der::table(&der_rows));
    for n in &der_notes {
        println!("note: {n}");
    }

    if let Some(path) = &cli.json {
        let mut json = report::json(&results);
        json["der"] = der::json(&der_rows);
        json["der_notes"] = serde_json::json!(der_notes);
        if let Err(e) = std::fs::write(
            path,
            serde_json::to_string_pretty(&json).expect("serialises"),
        ) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = &cli.markdown {
        if let Err(e) = std::fs::write(path, report::markdown(&results, svg_name)) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// `--only notify`: the notification receivers' table (and its JSON `notify` array).
fn notify_section(cli: &Cli) -> ExitCode {
    let exe = std::env::current_exe().expect("own path");
    let count = cli
        .notifications
        .unwrap_or(if cli.quick { 5_000 } else { 50_000 });
    let mut notes = Vec::new();
    let rates = notify::run(&exe, count, &mut notes);
    finish_section(
        cli,
        "notify",
        notify::table(&rates),
        notify::json(&rates),
        notes,
    )
}

/// The MIB corpus: --mib-corpus, else SNMP_MIB_CORPUS, else ../shared/mibs beside the project.
fn mib_root(cli: &Cli) -> PathBuf {
    cli.mib_corpus
        .clone()
        .or_else(|| std::env::var_os("SNMP_MIB_CORPUS").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/mibs"))
}

/// `--only generate`: the generators' table (and the JSON `generate` array).
fn generate_section(cli: &Cli) -> ExitCode {
    let exe = std::env::current_exe().expect("own path");
    let root = mib_root(cli);
    let mut notes = Vec::new();
    let rows = if root.join("ietf").is_dir() {
        generate::run(&exe, &root, if cli.quick { 2 } else { 7 }, &mut notes)
    } else {
        notes.push(format!(
            "generate: not run: no folder {}/ietf (--mib-corpus DIR)",
            root.display()
        ));
        Vec::new()
    };
    finish_section(
        cli,
        "generate",
        generate::table(&rows),
        generate::json(&rows),
        notes,
    )
}

/// `--only exporter`: snmp-exporter against snmp_exporter (and the JSON `exporter` array).
fn exporter_section(cli: &Cli) -> ExitCode {
    let exe = std::env::current_exe().expect("own path");
    let scrapes = cli
        .scrapes
        .unwrap_or(if cli.quick { 50 } else { 500 })
        .max(5);
    let mut notes = Vec::new();
    let long = cli.exporter_long.then(|| exporter::Long {
        targets: cli.capacity_targets.clamp(1, 40_000),
        interval: Duration::from_secs_f64(cli.capacity_interval.clamp(1.0, 3600.0)),
        soak_scrapes: if cli.quick { 5_000 } else { 100_000 },
    });
    let rows = exporter::run(&exe, scrapes, long, &mut notes);
    finish_section(
        cli,
        "exporter",
        exporter::table(&rows),
        exporter::json(&rows),
        notes,
    )
}

/// `--only der`: the CRL table (and its JSON `der` array).
fn der_section(cli: &Cli) -> ExitCode {
    let mut notes = Vec::new();
    let count = !cli.no_instructions && measure::valgrind_available();
    let rows = run_der(cli, count, &mut notes);
    finish_section(cli, "der", der::table(&rows), der::json(&rows), notes)
}

/// The DER section's rows, at the size the options ask for.
fn run_der(cli: &Cli, count_instructions: bool, notes: &mut Vec<String>) -> Vec<der::DerRow> {
    let exe = std::env::current_exe().expect("own path");
    let entries = cli
        .crl_entries
        .unwrap_or(if cli.quick { 26_500 } else { 265_000 });
    let samples = if cli.quick { 5 } else { 15 };
    der::run(&exe, entries, samples, count_instructions, notes)
}

/// `--only walk`: the parallel-walk table (and its JSON `walk` array).
fn walk_section(cli: &Cli) -> ExitCode {
    let mut notes = Vec::new();
    let root = cli.walk_root.trim_start_matches('.');
    let rounds = if cli.quick { 3 } else { 5 };
    let rows = walks::run(root, !cli.no_gufo, rounds, &mut notes);
    finish_section(cli, "walk", walks::table(&rows), walks::json(&rows), notes)
}

/// `--only clients`: the clients table, its JSON (`clients` and `getnext_against_floor`),
/// and its Markdown with a graph per case (SVG and PNG) beside it.
fn clients_section(cli: &Cli) -> ExitCode {
    let exe = std::env::current_exe().expect("own path");
    let (sizes, plan) = if cli.quick {
        let plan = clients::Plan {
            runs: 3,
            budget: Duration::from_millis(50),
            rounds: 3,
        };
        (clients::Sizes::TINY, plan)
    } else {
        let plan = clients::Plan {
            runs: 10,
            budget: Duration::from_millis(800),
            rounds: 5,
        };
        (clients::Sizes::FULL, plan)
    };
    let mut notes = Vec::new();
    let cells = clients::run(
        &exe,
        sizes,
        plan,
        (!cli.no_python, &cli.clients),
        &mut notes,
    );
    print!("{}", clients::table(&cells));
    let mut code = ExitCode::SUCCESS;
    if let Some(path) = &cli.markdown {
        let graphs = clients::graphs(path, &cells, &mut notes);
        let text = clients::markdown(&cells, |case| graphs.get(case).cloned());
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: {}: {e}", path.display());
            code = ExitCode::FAILURE;
        }
    }
    for n in &notes {
        println!("note: {n}");
    }
    if let Some(path) = &cli.json {
        let mut json = clients::json(&cells);
        json["notes"] = serde_json::json!(notes);
        if let Err(e) = std::fs::write(path, serde_json::to_string_pretty(&json).expect("json")) {
            eprintln!("error: {}: {e}", path.display());
            code = ExitCode::FAILURE;
        }
    }
    code
}

/// `--only agent`: the agents' table (and its JSON `agent` array).
fn agent_section(cli: &Cli) -> ExitCode {
    let exe = std::env::current_exe().expect("own path");
    let rows = if cli.quick { 1_000 } else { 10_000 };
    let mut notes = Vec::new();
    let count = !cli.no_instructions && measure::valgrind_available();
    let measured = agent::run(&exe, rows, count, &mut notes);
    finish_section(
        cli,
        "agent",
        agent::table(&measured),
        agent::json(&measured),
        notes,
    )
}

/// `--only poll`: the many-agents table (and its JSON `poll` array).
fn poll_section(cli: &Cli) -> ExitCode {
    let exe = std::env::current_exe().expect("own path");
    let rounds = if cli.quick { 2 } else { 5 };
    let agents = cli.agents.clamp(1, 20_000);
    let mut notes = Vec::new();
    let peers = (!cli.no_gufo, !cli.no_netsnmp);
    let rows = poll::run(&exe, agents, rounds, peers, &mut notes);
    finish_section(cli, "poll", poll::table(&rows), poll::json(&rows), notes)
}

/// A section's end: its table and notes printed, its rows written as the JSON array `name`
/// (with the notes) when `--json` asks.
fn finish_section(
    cli: &Cli,
    name: &str,
    table: String,
    rows: serde_json::Value,
    notes: Vec<String>,
) -> ExitCode {
    print!("{table}");
    for n in &notes {
        println!("note: {n}");
    }
    if let Some(path) = &cli.json {
        let json = serde_json::json!({ name: rows, "notes": notes });
        if let Err(e) = std::fs::write(path, serde_json::to_string_pretty(&json).expect("json")) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Times every implementation on every workload, layer and operation, the implementations of
/// one workload interleaved; what one does not offer or gets wrong is a note.
fn time_all(
    impls: &[Box<dyn Codec>],
    workloads: &[workload::Workload],
    budget: Duration,
    samples: usize,
    notes: &mut Vec<String>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut reported = std::collections::BTreeSet::new();
    for layer in [Layer::Pdu, Layer::Msg] {
        for op in Op::ALL {
            for w in workloads {
                let mut names = Vec::new();
                let mut jobs = Vec::new();
                for imp in impls.iter().filter(|i| i.same_as(op).is_none()) {
                    match imp.prepare(layer, op, w) {
                        Prepared::Ready(job) => {
                            names.push(imp.name());
                            jobs.push(job);
                        }
                        Prepared::Unsupported(why) => {
                            if reported.insert((imp.name(), layer, op)) {
                                notes.push(format!(
                                    "{} {} {}: not offered ({why})",
                                    imp.name(),
                                    layer.as_str(),
                                    op.as_str()
                                ));
                            }
                        }
                        Prepared::Disagrees(why) => notes.push(format!(
                            "{} {} {} {} bindings: not timed, disagrees: {why}",
                            imp.name(),
                            layer.as_str(),
                            op.as_str(),
                            w.n
                        )),
                    }
                }
                let timings = measure::time_interleaved(&mut jobs, budget, samples);
                for (imp, timing) in names.into_iter().zip(timings) {
                    rows.push(Row {
                        imp,
                        layer,
                        op,
                        n: w.n,
                        timing,
                        instructions: None,
                    });
                }
            }
        }
    }
    rows
}

/// Shows an implementation's row under each operation it is the same as (see
/// [`Codec::same_as`]), with a note saying so.
fn same_as_rows(impls: &[Box<dyn Codec>], rows: &mut Vec<Row>, notes: &mut Vec<String>) {
    for imp in impls {
        for op in Op::ALL {
            let Some(base) = imp.same_as(op) else {
                continue;
            };
            let copies: Vec<Row> = rows
                .iter()
                .filter(|r| r.imp == imp.name() && r.op == base)
                .map(|r| Row { op, ..r.clone() })
                .collect();
            if !copies.is_empty() {
                notes.push(format!(
                    "{}: its {} is already {} (its values are owned and its OIDs are arcs); shown under both",
                    imp.name(),
                    base.as_str(),
                    op.as_str()
                ));
            }
            rows.extend(copies);
        }
    }
}

/// The child side of instruction counting: prepare one job and run it ITERS times.
fn instructions_child(args: &[String]) -> ExitCode {
    let (imp_name, layer, op, n, iters) = (&args[0], &args[1], &args[2], &args[3], &args[4]);
    let layer = if layer == "pdu" {
        Layer::Pdu
    } else {
        Layer::Msg
    };
    let Some(op) = Op::ALL.into_iter().find(|o| o.as_str() == op) else {
        eprintln!("no operation {op}");
        return ExitCode::FAILURE;
    };
    let (Ok(n), Ok(iters)) = (n.parse::<usize>(), iters.parse::<u64>()) else {
        eprintln!("bad arguments");
        return ExitCode::FAILURE;
    };
    let (impls, _) = impls::all_with(imp_name == "netsnmp");
    let Some(imp) = impls.iter().find(|i| i.name() == imp_name) else {
        eprintln!("no implementation {imp_name}");
        return ExitCode::FAILURE;
    };
    let w = workload::build(n);
    let Prepared::Ready(mut job) = imp.prepare(layer, op, &w) else {
        eprintln!("{imp_name} cannot run this job");
        return ExitCode::FAILURE;
    };
    let mut sum = 0usize;
    for _ in 0..iters {
        sum = sum.wrapping_add(job());
    }
    std::hint::black_box(sum);
    ExitCode::SUCCESS
}
