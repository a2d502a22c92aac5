//! `snmp-bench --only clients`: the clients a user would pick, compared the way the
//! client-bench seed (../shared/seeds/client-bench.txt) compares NETCONF clients: the cost of a
//! new session up to its first answer, then calls at answer sizes from 1 KB to 1 MB, runs of
//! up to 100 calls, ms and requests per second with their spread over the runs, each client
//! as a ratio to the fastest of its size. Beside every figure, the client's CPU per request
//! and a floor row (SNMPv2c): the same requests as prebuilt datagrams, one send and one
//! blocking receive each, nothing encoded or decoded: what the kernel and the wake-ups cost.
//!
//! The session setup asks our net-snmp snmpd (a real agent and engine); the sized cases ask
//! `snmpc simulate` (run as this binary's child) serving a table of 80-octet strings
//! ([`data`]), since no real agent can be made to answer exactly 60 KB.
//!
//! Clients: snmp-client (sync and async), the Rust crates async-snmp, snmp2 and csnmp
//! ([`rust`]), net-snmp's C library through benches/c/netsnmp_client.c, and gufo_snmp (sync,
//! asyncio), ezsnmp and pysnmp through benches/py/clients.py in a venv the benchmark makes
//! ([`external`]). A client that does not offer a case is a note; a call that fails or
//! brings back other than the expected bindings is counted in its row.

pub mod data;
mod external;
mod graph;
mod report;
mod rust;
mod stats;

use std::path::Path;
use std::time::Duration;

use snmp_test_support::agent as support;

pub use data::Sizes;
use data::{Agent, Case};
pub use report::{json, markdown, table};
pub use stats::{median_range, Cell};

/// How long and how often each cell runs.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Runs per cell (the spread is over them).
    pub runs: u32,
    /// The time one run's calls may take together: a client makes as many calls a run as
    /// fit (1 to 100), measured on a call before the runs.
    pub budget: Duration,
    /// Interleaved rounds of the GETNEXT comparison with the floor.
    pub rounds: u32,
}

/// One run: `calls` calls of a case (for setup, each a new session up to its first answer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub calls: u32,
    pub wall_ms: f64,
    /// The client's CPU seconds over the run.
    pub cpu_s: f64,
    /// Requests sent, when the client says.
    pub requests: Option<u64>,
    pub bindings: u64,
    /// Calls that failed or brought back other than the expected bindings.
    pub failed: u32,
}

/// What a client made of a case.
#[derive(Debug)]
pub enum Outcome {
    Ran(Vec<Run>),
    /// The client has no such request (or version): a note, not a failure.
    Unsupported(String),
    /// It could not run the case at all: a note, and a failed row.
    Failed(String),
}

/// Where a case's agent listens and whom to be.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    pub port: u16,
    /// `2c` or `3`.
    pub version: &'static str,
    /// The SNMPv3 user, its authentication (SHA-1) and privacy (AES-128) passwords.
    pub user: (&'static str, &'static str, &'static str),
}

impl Target {
    pub fn addr(&self) -> std::net::SocketAddr {
        ([127, 0, 0, 1], self.port).into()
    }
}

/// A client of the table.
pub trait Driver {
    /// Its name in the table and the JSON (`snmp-client-sync`, `gufo_snmp-async`, ...).
    fn name(&self) -> &'static str;
    /// Runs `case` against `target`.
    fn run(&mut self, target: &Target, case: &Case, plan: &Plan) -> Outcome;
}

/// The two agents: our snmpd (the bench user `aesuser`) and the simulator (`benchuser`).
struct Agents {
    snmpd: support::Agent,
    simulator: crate::poll::Simulator,
    simulator_port: u16,
}

impl Agents {
    fn target(&self, agent: Agent, version: &'static str) -> Target {
        match agent {
            Agent::Snmpd => Target {
                port: self.snmpd.port,
                version,
                user: ("aesuser", "aesauthpass", "aesprivpass"),
            },
            Agent::Simulator => Target {
                port: self.simulator_port,
                version,
                user: ("benchuser", "benchauthpass", "benchprivpass"),
            },
        }
    }
}

/// Starts snmpd and the simulator (serving `sizes`' recording from `dir`), each answering.
fn agents(exe: &Path, dir: &Path, sizes: Sizes) -> Result<Agents, String> {
    let snmpd = support::tool("snmpd").ok_or("snmpd not found (apt-get install -y snmpd)")?;
    let snmpd = support::start_agent_with(&snmpd, support::AES_USER_CONF);
    let data = dir.join("device.txt");
    std::fs::write(&data, data::recording(sizes))
        .map_err(|e| format!("{}: {e}", data.display()))?;
    let port = crate::process::free_port();
    let simulator = crate::poll::Simulator::start(exe, &data, &format!("127.0.0.1:{port}"))?;
    let agents = Agents {
        snmpd,
        simulator,
        simulator_port: port,
    };
    for agent in [Agent::Snmpd, Agent::Simulator] {
        rust::wait_until_answering(&agents.target(agent, "2c"))
            .map_err(|e| format!("{agent:?} does not answer: {e}"))?;
    }
    Ok(agents)
}

/// Every client of the table, the external ones when they can be had (why not, in `notes`).
fn drivers(dir: &Path, python_too: bool, notes: &mut Vec<String>) -> Vec<Box<dyn Driver>> {
    let mut all = rust::drivers();
    match external::netsnmp(dir) {
        Ok(d) => all.push(Box::new(d)),
        Err(e) => notes.push(format!("clients: net-snmp not measured: {e}")),
    }
    if python_too {
        match external::python(dir) {
            Ok((found, missing)) => {
                all.extend(found.into_iter().map(|d| Box::new(d) as Box<dyn Driver>));
                notes.extend(missing.into_iter().map(|m| format!("clients: {m}")));
            }
            Err(e) => notes.push(format!("clients: the Python clients not measured: {e}")),
        }
    } else {
        notes.push("clients: the Python clients not measured (--no-python)".into());
    }
    all
}

/// Runs the section: every client on every case, v2c then v3, each case's clients one after
/// another; the floor rows and the GETNEXT comparison under v2c.
pub fn run(
    exe: &Path,
    sizes: Sizes,
    plan: Plan,
    (python_too, only): (bool, &[String]),
    notes: &mut Vec<String>,
) -> Vec<Cell> {
    let dir = std::env::temp_dir().join(format!("snmp-bench-clients-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        notes.push(format!("clients: not run: {}: {e}", dir.display()));
        return Vec::new();
    }
    let cells = match agents(exe, &dir, sizes) {
        Ok(agents) => {
            let pinned =
                crate::process::pin_together(&[agents.snmpd.pid(), agents.simulator.pid()]);
            notes.push(format!("clients: {pinned}"));
            let mut clients = drivers(&dir, python_too, notes);
            if !only.is_empty() {
                clients.retain(|d| only.iter().any(|o| o == d.name()));
            }
            run_with(&agents, clients, sizes, plan, notes)
        }
        Err(e) => {
            notes.push(format!("clients: not run: {e}"));
            Vec::new()
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    cells
}

fn run_with(
    agents: &Agents,
    mut clients: Vec<Box<dyn Driver>>,
    sizes: Sizes,
    plan: Plan,
    notes: &mut Vec<String>,
) -> Vec<Cell> {
    let mut floor = rust::Floor;
    let mut cells = Vec::new();
    for version in ["2c", "3"] {
        for case in data::cases(sizes) {
            let target = agents.target(case.agent, version);
            let mut order: Vec<&mut dyn Driver> = clients
                .iter_mut()
                .map(|d| &mut **d as &mut dyn Driver)
                .collect();
            if version == "2c" && case.kind != data::Kind::Setup {
                order.push(&mut floor);
            }
            // Two passes of half the runs each, the second in the reverse order: no client
            // always runs first (after the agent's quiet) or last.
            let first = plan.runs.div_ceil(2);
            for runs in [first, plan.runs - first] {
                for d in order.iter_mut().filter(|_| runs > 0) {
                    let failed = |c: &Cell| {
                        c.broken
                            && c.client == d.name()
                            && c.version == version
                            && c.case == case.name
                    };
                    if cells.iter().any(failed) {
                        continue;
                    }
                    let outcome = d.run(&target, &case, &Plan { runs, ..plan });
                    let cell = outcome_cell(outcome, (d.name(), version, &case), notes);
                    if let Some(cell) = cell {
                        merge(&mut cells, cell);
                    }
                }
                order.reverse();
            }
        }
    }
    let getnext = rust::getnext_against_floor(&agents.target(Agent::Simulator, "2c"), sizes, plan);
    match getnext {
        Ok(rounds) => cells.extend(rounds),
        Err(e) => notes.push(format!("clients: GETNEXT against the floor not run: {e}")),
    }
    cells
}

/// The cell of a client's outcome on a case (a failed one when it could not run it), or a
/// note only (it does not offer the case).
fn outcome_cell(
    outcome: Outcome,
    (client, version, case): (&'static str, &'static str, &Case),
    notes: &mut Vec<String>,
) -> Option<Cell> {
    match outcome {
        Outcome::Ran(runs) => Some(Cell::new(client, version, case, runs)),
        Outcome::Unsupported(why) => {
            let line = format!("{client} v{version} {}: not offered ({why})", case.name);
            // Said once, not once a pass.
            if !notes.contains(&line) {
                notes.push(line);
            }
            None
        }
        Outcome::Failed(why) => {
            notes.push(format!("{client} v{version} {}: failed: {why}", case.name));
            Some(Cell::failed(client, version, case))
        }
    }
}

/// Adds `cell`'s runs to the cell of the same client, version and case (a failed pass makes
/// the cell a failed one), or adds `cell`.
fn merge(cells: &mut Vec<Cell>, cell: Cell) {
    let same =
        |c: &&mut Cell| c.client == cell.client && c.version == cell.version && c.case == cell.case;
    match cells.iter_mut().find(same) {
        Some(c) if cell.broken => *c = cell,
        Some(c) if !c.broken => c.runs.extend(cell.runs),
        Some(_) => {}
        None => cells.push(cell),
    }
}

/// The graph of every case beside the Markdown file `markdown` (`STEM-CASE.svg` and `.png`):
/// for each case, the file name the Markdown links (the PNG; the SVG when no PNG was made).
pub fn graphs(
    markdown: &Path,
    cells: &[Cell],
    notes: &mut Vec<String>,
) -> std::collections::BTreeMap<String, String> {
    let mut links = std::collections::BTreeMap::new();
    let stem = markdown
        .file_stem()
        .map_or("clients".into(), |s| s.to_string_lossy().into_owned());
    let dir = markdown.parent().unwrap_or(Path::new("."));
    let mut fontless = false;
    for case in data::cases(Sizes::TINY) {
        let svg = dir.join(format!("{stem}-{}.svg", case.name));
        let title = format!("{}: {}", case.name, report::describe(case.name));
        if let Err(e) = graph::svg(&svg, cells, case.name, &title) {
            notes.push(format!("clients: no graph of {}: {e}", case.name));
            continue;
        }
        let name = |p: &Path| {
            p.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        };
        match graph::png(&svg) {
            Ok((png, fonts)) => {
                fontless |= !fonts;
                links.insert(case.name.to_string(), name(&png));
            }
            Err(e) => {
                notes.push(format!("clients: no PNG of {}: {e}", case.name));
                links.insert(case.name.to_string(), name(&svg));
            }
        }
    }
    if fontless {
        notes.push("clients: the PNG graphs have no text: no font found (apt-get install -y fonts-dejavu-core)".into());
    }
    links
}
