//! The clients section's table (a block per version and case, each client against the
//! fastest), its JSON and its Markdown.

use super::data::Kind;
use super::rust::GETNEXT_PAIRS;
use super::stats::{median_range, Cell};

/// The floor's name: not a client, never the fastest.
const FLOOR: &str = "udp floor";

/// The cases in the table's order.
const CASES: [&str; 6] = ["setup", "1KB", "10KB", "60KB", "100KB", "1MB"];

/// What each case asks.
pub fn describe(case: &str) -> &'static str {
    match case {
        "setup" => {
            "a new session up to its first answer (snmpd; v3: discovery, keys from passwords)"
        }
        "1KB" => "GET of 10 bindings, about 1 KB answered",
        "10KB" => "GETBULK, about 10 KB answered",
        "60KB" => "GETBULK filling a datagram, about 60 KB",
        "100KB" => "walk by GETBULK of 25, about 100 KB",
        "1MB" => "walk by GETBULK of 25, about 1 MB",
        _ => "",
    }
}

/// The cells of one version and case, the floor last.
fn block<'a>(cells: &'a [Cell], version: &str, case: &str) -> Vec<&'a Cell> {
    let mut v: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.version == version && c.case == case)
        .collect();
    v.sort_by_key(|c| c.client == FLOOR);
    v
}

/// How much slower than the fastest client of its block a cell is (1 for the fastest).
pub fn slower(cell: &Cell, block: &[&Cell]) -> Option<f64> {
    if cell.broken || cell.client == FLOOR || cell.runs.is_empty() {
        return None;
    }
    let clients = block
        .iter()
        .filter(|c| !c.broken && c.client != FLOOR && !c.runs.is_empty());
    match cell.kind {
        Kind::Setup => {
            let best = clients.map(|c| c.ms().0).fold(f64::INFINITY, f64::min);
            Some(cell.ms().0 / best.max(1e-9))
        }
        _ => {
            let best = clients
                .filter_map(|c| c.rps())
                .map(|r| r.0)
                .fold(0.0, f64::max);
            cell.rps().map(|(r, _)| best / r.max(1e-9))
        }
    }
}

/// Requests a call of the block's clients that count them (ours first): for those that do not.
fn per_call(block: &[&Cell]) -> Option<f64> {
    block
        .iter()
        .filter(|c| c.client != FLOOR)
        .find_map(|c| c.requests_per_call())
}

/// One row's fields: ms, ms sd, rps (and sd), vs, CPU µs a request.
struct Figures {
    ms: (f64, f64),
    rps: Option<(f64, f64)>,
    vs: String,
    cpu: Option<f64>,
}

fn figures(cell: &Cell, block: &[&Cell]) -> Figures {
    let vs = match (cell.client == FLOOR, slower(cell, block)) {
        (true, _) => "floor".to_string(),
        (_, Some(x)) if x < 1.005 => "fastest".to_string(),
        (_, Some(x)) => format!("{x:.2}x slower"),
        (_, None) => "-".to_string(),
    };
    Figures {
        ms: cell.ms(),
        rps: cell.rps(),
        vs,
        cpu: cell.cpu_us_per_request(per_call(block)),
    }
}

/// Milliseconds and their sd: three decimals under a millisecond (a SNMPv2c setup is about
/// 0.02 ms, which two would round to one digit), else two.
fn ms_text((ms, sd): (f64, f64)) -> String {
    if ms < 1.0 {
        format!("{ms:.3} ± {sd:.3}")
    } else {
        format!("{ms:.2} ± {sd:.2}")
    }
}

/// The table printed.
pub fn table(cells: &[Cell]) -> String {
    let mut out = String::new();
    for version in ["2c", "3"] {
        for case in CASES {
            let b = block(cells, version, case);
            if b.is_empty() {
                continue;
            }
            let ms_head = if case == "setup" {
                "setup ms"
            } else {
                "ms/100 calls"
            };
            out.push_str(&format!(
                "\nclients v{version} {case}: {}\n{:<18} {:>20} {:>22} {:>15} {:>11} {:>11} {:>6}\n",
                describe(case),
                "client",
                ms_head,
                "calls/s",
                "vs fastest",
                "CPU µs/req",
                "calls×runs",
                "failed"
            ));
            for c in &b {
                let f = figures(c, &b);
                let rps = f
                    .rps
                    .map_or("-".into(), |(r, sd)| format!("{r:.1} ± {sd:.1}"));
                let cpu = f.cpu.map_or("-".into(), |u| format!("{u:.1}"));
                let ms = if c.broken {
                    "failed".into()
                } else {
                    ms_text(f.ms)
                };
                out.push_str(&format!(
                    "{:<18} {:>20} {:>22} {:>15} {:>11} {:>11} {:>6}\n",
                    c.client,
                    ms,
                    rps,
                    f.vs,
                    cpu,
                    format!("{}×{}", c.calls(), c.runs.len()),
                    c.failed_calls()
                ));
            }
        }
    }
    out.push_str(&getnext_table(cells));
    out
}

/// One interleaved round of the GETNEXT comparison: CPU µs a request.
pub struct Round {
    pub floor_us: f64,
    pub ours_us: f64,
    pub ratio: f64,
}

/// Ours against the floor on a GETNEXT walk: the rounds, and the median ratio with its
/// range (lowest, highest).
pub struct GetNext {
    pub rounds: Vec<Round>,
    pub median: f64,
    pub range: (f64, f64),
}

/// The comparisons the GETNEXT rounds give: a key, what it compares, (floor, ours). Like for
/// like in each socket mode, and the default session against the connected floor (the one
/// comparison this section made before it measured both modes).
pub const GETNEXT_COMPARISONS: [(&str, &str, (&str, &str)); 3] = [
    (
        "connected",
        "both sockets connected to the agent",
        GETNEXT_PAIRS[0],
    ),
    ("unconnected", "both sockets unconnected", GETNEXT_PAIRS[1]),
    (
        "default_against_connected_floor",
        "the default (unconnected) session against the connected floor",
        (GETNEXT_PAIRS[0].0, GETNEXT_PAIRS[1].1),
    ),
];

/// The rounds of `ours` against `floor` on the GETNEXT walk, when both ran.
pub fn getnext(cells: &[Cell], (floor, ours): (&str, &str)) -> Option<GetNext> {
    let find = |client: &str| {
        cells
            .iter()
            .find(|c| c.case == "getnext" && c.client == client)
    };
    let (floor, ours) = (find(floor)?, find(ours)?);
    let rounds: Vec<Round> = floor
        .cpu_us_per_run()
        .into_iter()
        .zip(ours.cpu_us_per_run())
        .map(|(floor_us, ours_us)| Round {
            floor_us,
            ours_us,
            ratio: ours_us / floor_us.max(1e-9),
        })
        .collect();
    let (median, lo, hi) = median_range(&rounds.iter().map(|r| r.ratio).collect::<Vec<_>>())?;
    Some(GetNext {
        rounds,
        median,
        range: (lo, hi),
    })
}

/// Each comparison of [`GETNEXT_COMPARISONS`] that ran: its key, its words and its rounds.
fn getnext_all(cells: &[Cell]) -> Vec<(&'static str, &'static str, GetNext)> {
    GETNEXT_COMPARISONS
        .iter()
        .filter_map(|&(key, what, pair)| Some((key, what, getnext(cells, pair)?)))
        .collect()
}

fn getnext_table(cells: &[Cell]) -> String {
    let all = getnext_all(cells);
    let mut out = String::new();
    if all.is_empty() {
        return out;
    }
    out.push_str("\nGETNEXT walk, snmp-client sync against the floor (v2c, CPU µs a request), interleaved rounds:\n");
    for (_, what, g) in &all {
        out.push_str(&format!("{what}:\nround  floor  snmp-client  ratio\n"));
        for (k, r) in g.rounds.iter().enumerate() {
            out.push_str(&format!(
                "{:>5} {:>6.2} {:>12.2} {:>6.2}\n",
                k + 1,
                r.floor_us,
                r.ours_us,
                r.ratio
            ));
        }
        out.push_str(&format!(
            "median ratio {:.2} (range {:.2}-{:.2})\n",
            g.median, g.range.0, g.range.1
        ));
    }
    out
}

/// The JSON: the `clients` array (one object per client, version and case, as the issue
/// names its fields) and the GETNEXT rounds.
pub fn json(cells: &[Cell]) -> serde_json::Value {
    let mut rows = Vec::new();
    for version in ["2c", "3"] {
        for case in CASES {
            let b = block(cells, version, case);
            for c in &b {
                let f = figures(c, &b);
                rows.push(serde_json::json!({
                    "client": c.client,
                    "version": c.version,
                    "case": c.case,
                    "ms": (!c.broken).then_some(f.ms.0),
                    "ms_sd": (!c.broken).then_some(f.ms.1),
                    "rps": f.rps.map(|r| r.0),
                    "rps_sd": f.rps.map(|r| r.1),
                    "runs": c.runs.len(),
                    "calls": c.calls(),
                    "slower": slower(c, &b),
                    "cpu_us_per_request": f.cpu,
                    "failed": c.failed_calls(),
                }));
            }
        }
    }
    let getnext: serde_json::Map<String, serde_json::Value> = getnext_all(cells)
        .into_iter()
        .map(|(key, what, g)| {
            let rounds: Vec<serde_json::Value> = g
                .rounds
                .iter()
                .map(|r| serde_json::json!({"floor_us": r.floor_us, "ours_us": r.ours_us, "ratio": r.ratio}))
                .collect();
            let comparison = serde_json::json!({
                "what": what,
                "rounds": rounds,
                "median_ratio": g.median,
                "min_ratio": g.range.0,
                "max_ratio": g.range.1,
            });
            (key.to_string(), comparison)
        })
        .collect();
    serde_json::json!({ "clients": rows, "getnext_against_floor": getnext })
}

/// The Markdown: a table per version and case, each with its graph when `graphs` names it.
pub fn markdown(cells: &[Cell], graph: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::from("# Clients\n\nWritten by `cargo run --release -p snmp-bench -- --only clients --markdown FILE`.\n");
    for case in CASES {
        if let Some(link) = graph(case) {
            out.push_str(&format!(
                "\n## {case}: {}\n\n![{case}]({link})\n",
                describe(case)
            ));
        } else {
            out.push_str(&format!("\n## {case}: {}\n", describe(case)));
        }
        for version in ["2c", "3"] {
            let b = block(cells, version, case);
            if b.is_empty() {
                continue;
            }
            out.push_str(&format!(
                "\nSNMPv{version}\n\n| client | {} | calls/s | vs fastest | CPU µs/req | calls×runs | failed |\n|---|---:|---:|---|---:|---:|---:|\n",
                if case == "setup" { "setup ms" } else { "ms/100 calls" }
            ));
            for c in &b {
                let f = figures(c, &b);
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {}×{} | {} |\n",
                    c.client,
                    if c.broken {
                        "failed".into()
                    } else {
                        ms_text(f.ms)
                    },
                    f.rps
                        .map_or("-".into(), |(r, sd)| format!("{r:.1} ± {sd:.1}")),
                    f.vs,
                    f.cpu.map_or("-".into(), |u| format!("{u:.1}")),
                    c.calls(),
                    c.runs.len(),
                    c.failed_calls()
                ));
            }
        }
    }
    let all = getnext_all(cells);
    if !all.is_empty() {
        out.push_str("\n## GETNEXT against the floor\n");
    }
    for (_, what, g) in &all {
        out.push_str(&format!("\n### {what}\n\n| round | floor µs/req | snmp-client µs/req | ratio |\n|---:|---:|---:|---:|\n"));
        for (k, r) in g.rounds.iter().enumerate() {
            out.push_str(&format!(
                "| {} | {:.2} | {:.2} | {:.2} |\n",
                k + 1,
                r.floor_us,
                r.ours_us,
                r.ratio
            ));
        }
        out.push_str(&format!(
            "\nMedian ratio {:.2}, range {:.2}-{:.2}.\n",
            g.median, g.range.0, g.range.1
        ));
    }
    out
}
