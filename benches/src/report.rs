//! The table, the cost lines, where the time goes; as text, JSON and Markdown.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::corpus::CorpusResult;
use crate::impls::{Layer, Op};
use crate::measure::{self, Fit};
use crate::mibload::MibCorpus;
use crate::{Row, BINDINGS};

/// A fitted cost line of one implementation, layer and operation.
#[derive(Debug, Clone)]
pub struct CostLine {
    /// Implementation.
    pub imp: &'static str,
    /// Layer.
    pub layer: Layer,
    /// Operation.
    pub op: Op,
    /// Over nanoseconds (median).
    pub ns: Fit,
    /// Over instructions, where all three workloads were counted.
    pub ir: Option<Fit>,
}

/// Fits `a + b*n` per implementation, layer and operation.
pub fn fits(rows: &[Row]) -> Vec<CostLine> {
    let mut groups: BTreeMap<(&'static str, Layer, Op), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        groups.entry((r.imp, r.layer, r.op)).or_default().push(r);
    }
    let mut out = Vec::new();
    for ((imp, layer, op), rs) in groups {
        let ns: Vec<(f64, f64)> = rs.iter().map(|r| (r.n as f64, r.timing.ns_min)).collect();
        let ir: Option<Vec<(f64, f64)>> = rs
            .iter()
            .map(|r| r.instructions.map(|i| (r.n as f64, i)))
            .collect();
        if let Some(ns) = measure::fit(&ns) {
            out.push(CostLine {
                imp,
                layer,
                op,
                ns,
                ir: ir.and_then(|p| measure::fit(&p)),
            });
        }
    }
    out
}

fn find<'r>(rows: &'r [Row], imp: &str, layer: Layer, op: Op, n: usize) -> Option<&'r Row> {
    rows.iter()
        .find(|r| r.imp == imp && r.layer == layer && r.op == op && r.n == n)
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 10_000.0 {
        format!("{:.1} µs", ns / 1000.0)
    } else if ns >= 1000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The table for one layer: rows are (op, n); columns the implementations that ran there.
fn table(names: &[&'static str], rows: &[Row], layer: Layer, markdown: bool) -> String {
    let cols: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| rows.iter().any(|r| r.imp == *n && r.layer == layer))
        .collect();
    if cols.is_empty() {
        return String::new();
    }
    let has_netsnmp = cols.contains(&"netsnmp");
    let mut header: Vec<String> = vec!["op".into(), "bindings".into()];
    header.extend(cols.iter().map(|c| c.to_string()));
    if has_netsnmp {
        header.push("netsnmp / snmp-codegen".into());
    }
    let mut lines: Vec<Vec<String>> = Vec::new();
    for op in Op::ALL {
        for n in BINDINGS {
            let mut line = vec![op.as_str().to_string(), n.to_string()];
            for c in &cols {
                line.push(
                    find(rows, c, layer, op, n)
                        .map(|r| fmt_ns(r.timing.ns_min))
                        .unwrap_or_else(|| "–".into()),
                );
            }
            if has_netsnmp {
                let ratio = match (
                    find(rows, "netsnmp", layer, op, n),
                    find(rows, "snmp-codegen", layer, op, n),
                ) {
                    (Some(a), Some(b)) => {
                        format!("{:.1}x", a.timing.ns_min / b.timing.ns_min)
                    }
                    _ => "–".into(),
                };
                line.push(ratio);
            }
            lines.push(line);
        }
    }
    render(&header, &lines, markdown)
}

fn render(header: &[String], lines: &[Vec<String>], markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
        for l in lines {
            let _ = writeln!(out, "| {} |", l.join(" | "));
        }
        return out;
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            lines
                .iter()
                .map(|l| l[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let row = |cells: &[String]| {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = widths[i] - c.chars().count();
                if i < 2 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let _ = writeln!(out, "{}", row(header));
    for l in lines {
        let _ = writeln!(out, "{}", row(l));
    }
    out
}

fn instruction_table(rows: &[Row], markdown: bool) -> String {
    let counted: Vec<&Row> = rows.iter().filter(|r| r.instructions.is_some()).collect();
    if counted.is_empty() {
        return String::new();
    }
    let header: Vec<String> = [
        "implementation",
        "layer",
        "op",
        "1 binding",
        "10 bindings",
        "50 bindings",
    ]
    .map(String::from)
    .to_vec();
    let mut keys: Vec<(&str, Layer, Op)> = counted.iter().map(|r| (r.imp, r.layer, r.op)).collect();
    keys.sort();
    keys.dedup();
    let lines: Vec<Vec<String>> = keys
        .iter()
        .map(|(imp, layer, op)| {
            let mut l = vec![imp.to_string(), layer.as_str().into(), op.as_str().into()];
            for n in BINDINGS {
                l.push(
                    find(rows, imp, *layer, *op, n)
                        .and_then(|r| r.instructions)
                        .map(|i| format!("{i:.0}"))
                        .unwrap_or_else(|| "–".into()),
                );
            }
            l
        })
        .collect();
    render(&header, &lines, markdown)
}

fn fit_lines(fits: &[CostLine], markdown: bool) -> String {
    let header: Vec<String> = [
        "implementation",
        "layer",
        "op",
        "a (per message)",
        "b (per binding)",
        "R²",
        "a, b in instructions",
    ]
    .map(String::from)
    .to_vec();
    let lines: Vec<Vec<String>> = fits
        .iter()
        .map(|f| {
            let mut line = vec![
                f.imp.to_string(),
                f.layer.as_str().into(),
                f.op.as_str().into(),
            ];
            match f.ns.unreliable_because() {
                Some(why) => line.extend([why, "–".into()]),
                None => line.extend([fmt_intercept(f.ns.a), fmt_ns(f.ns.b)]),
            }
            line.push(format!("{:.4}", f.ns.r2));
            line.push(match f.ir {
                Some(i) if i.reliable() => format!("{} + {:.0}·n", fmt_ir_intercept(i.a), i.b),
                Some(i) => i.unreliable_because().unwrap_or_default(),
                None => "–".into(),
            });
            line
        })
        .collect();
    render(&header, &lines, markdown)
}

/// A per-message cost: a fitted intercept below zero is noise around a cost too small to
/// time, shown as such rather than as a negative time.
fn fmt_intercept(ns: f64) -> String {
    if ns < 0.0 {
        "≈ 0 (below noise)".into()
    } else {
        fmt_ns(ns)
    }
}

/// [`fmt_intercept`] for instructions.
fn fmt_ir_intercept(ir: f64) -> String {
    if ir < 0.0 {
        "≈ 0".into()
    } else {
        format!("{ir:.0}")
    }
}

fn corpus_table(corpus: &[CorpusResult], markdown: bool) -> String {
    let header: Vec<String> = ["implementation", "messages", "per pass", "per message"]
        .map(String::from)
        .to_vec();
    let lines: Vec<Vec<String>> = corpus
        .iter()
        .map(|c| {
            vec![
                c.imp.to_string(),
                c.messages.to_string(),
                fmt_ns(c.timing.ns_min),
                fmt_ns(c.timing.ns_min / c.messages as f64),
            ]
        })
        .collect();
    render(&header, &lines, markdown)
}

fn mib_table(m: &MibCorpus, markdown: bool) -> String {
    let header: Vec<String> = [
        "implementation",
        "load, fastest",
        "load, median",
        "freeing",
        "whole process",
        "peak memory",
    ]
    .map(String::from)
    .to_vec();
    let lines: Vec<Vec<String>> = m
        .loads
        .iter()
        .map(|l| {
            vec![
                l.imp.to_string(),
                format!("{:.0} ms", l.s_min * 1e3),
                format!("{:.0} ms", l.s_median * 1e3),
                l.free_s_median
                    .map(|s| format!("{:.0} ms", s * 1e3))
                    .unwrap_or_else(|| "(in its exit)".into()),
                format!("{:.0} ms", l.process_s_median * 1e3),
                l.peak_kb
                    .map(|k| format!("{:.0} MB", k as f64 / 1024.0))
                    .unwrap_or_else(|| "–".into()),
            ]
        })
        .collect();
    let mut out = render(&header, &lines, markdown);
    if markdown {
        out.push('\n');
    }
    if let [ours, theirs] = &m.loads[..] {
        let mem = match (ours.peak_kb, theirs.peak_kb) {
            (Some(a), Some(b)) => format!(", {:.1}x net-snmp's memory", a as f64 / b as f64),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "{} files, {} modules, {} nodes: snmp-codegen loads {:.1}x faster than net-snmp (median; whole processes {:.1}x){mem}",
            m.files,
            m.modules,
            m.nodes,
            theirs.s_median / ours.s_median,
            theirs.process_s_median / ours.process_s_median
        );
    }
    out
}

/// The one line on where the time goes, from the fitted lines.
pub fn where_time_goes(fits: &[CostLine]) -> String {
    let get = |imp: &str, layer: Layer, op: Op| {
        fits.iter()
            .find(|f| f.imp == imp && f.layer == layer && f.op == op && f.ns.reliable())
    };
    let mut parts = Vec::new();
    for op in Op::ALL {
        if let Some(ours) = get("snmp-codegen", Layer::Pdu, op) {
            let mut s = format!(
                "{}: snmp-codegen {} per binding + {} per PDU",
                op.as_str(),
                fmt_ns(ours.ns.b),
                fmt_ns(ours.ns.a)
            );
            if let Some(c) = get("netsnmp", Layer::Pdu, op) {
                let _ = write!(
                    s,
                    ", net-snmp {} per binding ({:.1}x)",
                    fmt_ns(c.ns.b),
                    c.ns.b / ours.ns.b
                );
            }
            if let Some(f) = get("floor", Layer::Pdu, op) {
                let _ = write!(
                    s,
                    ", the TLV-walk floor {} per binding ({:.1}x of it)",
                    fmt_ns(f.ns.b),
                    ours.ns.b / f.ns.b
                );
            }
            let share = 50.0 * ours.ns.b / (ours.ns.a + 50.0 * ours.ns.b) * 100.0;
            let _ = write!(
                s,
                "; at 50 bindings {share:.0}% of the time is per-binding work"
            );
            parts.push(s);
        }
    }
    format!("Where the time goes: {}.", parts.join(". "))
}

/// `--profile`: callgrind's instruction counts for snmp-codegen's 10-binding message decode and
/// encode, grouped by where the code lives; without valgrind, a phase breakdown.
pub fn profile(exe: &Path, valgrind: bool, rows: &[Row]) -> String {
    if !valgrind {
        let get = |op, n| find(rows, "snmp-codegen", Layer::Msg, op, n).map(|r| r.timing.ns_min);
        let mut out = String::from("Phase breakdown (no valgrind): ");
        for op in Op::ALL {
            if let (Some(one), Some(fifty)) = (get(op, 1), get(op, 50)) {
                let per = (fifty - one) / 49.0;
                let _ = write!(
                    out,
                    "{} 50 bindings: {:.0}% bindings, {:.0}% message and PDU headers; ",
                    op.as_str(),
                    100.0 * per * 50.0 / fifty,
                    100.0 - 100.0 * per * 50.0 / fifty
                );
            }
        }
        return out;
    }
    let mut out = String::from(
        "Where the instructions go (callgrind, snmp-codegen, whole message, 10 bindings; start-up removed by\n\
         subtracting a 200-operation run from a 2,200-operation one):\n",
    );
    for op in ["decode", "encode"] {
        let groups = |iters: u32| -> Option<BTreeMap<&'static str, u64>> {
            let file = std::env::temp_dir().join(format!(
                "snmp-bench-profile-{}-{op}-{iters}.out",
                std::process::id()
            ));
            Command::new("valgrind")
                .arg("--tool=callgrind")
                .arg(format!("--callgrind-out-file={}", file.display()))
                .arg(exe)
                .args([
                    "--instructions-of",
                    "snmp-codegen",
                    "msg",
                    op,
                    "10",
                    &iters.to_string(),
                ])
                .output()
                .ok()?;
            let annotate = Command::new("callgrind_annotate")
                .arg("--auto=no")
                .arg(&file)
                .output()
                .ok();
            let _ = std::fs::remove_file(&file);
            Some(group_costs(&String::from_utf8_lossy(&annotate?.stdout)))
        };
        let (Some(small), Some(big)) = (groups(200), groups(2200)) else {
            let _ = writeln!(out, "  {op}: callgrind or callgrind_annotate unavailable");
            continue;
        };
        let mut per_op: Vec<(&str, f64)> = big
            .iter()
            .map(|(k, v)| {
                (
                    *k,
                    v.saturating_sub(small.get(k).copied().unwrap_or(0)) as f64 / 2000.0,
                )
            })
            .filter(|(_, v)| *v >= 0.5)
            .collect();
        per_op.sort_by(|a, b| b.1.total_cmp(&a.1));
        let total: f64 = per_op.iter().map(|p| p.1).sum();
        let parts: Vec<String> = per_op
            .iter()
            .map(|(k, v)| format!("{k} {:.0}%", 100.0 * v / total.max(1.0)))
            .collect();
        let _ = writeln!(
            out,
            "  {op}: {total:.0} instructions per operation: {}",
            parts.join(", ")
        );
    }
    out
}

/// Self cost per function from callgrind_annotate's output, grouped by where the code lives.
fn group_costs(annotate: &str) -> BTreeMap<&'static str, u64> {
    let mut groups = BTreeMap::new();
    for line in annotate.lines() {
        let line = line.trim();
        let Some((count, rest)) = line.split_once(' ') else {
            continue;
        };
        let Ok(n) = count.replace(',', "").parse::<u64>() else {
            continue;
        };
        if rest.contains("PROGRAM TOTALS") || rest.contains("events annotated") {
            continue;
        }
        let group = if rest.contains("ber/src") {
            "snmp-ber runtime"
        } else if rest.contains("generated/src") {
            "generated code"
        } else if rest.contains("benches/src") {
            "benchmark harness"
        } else if rest.contains("/rustc/") {
            "core (slices, iterators) inlined into the codec"
        } else {
            "libc and loader"
        };
        *groups.entry(group).or_default() += n;
    }
    groups
}

const PREAMBLE: &str = "SNMPv2c GetResponse with 1, 10 and 50 bindings cycling through Counter32, Gauge32, TimeTicks, OCTET STRING, IpAddress, OBJECT IDENTIFIER, Counter64 (>= 2^63) and INTEGER, named as real polls name them: IF-MIB rows, ipAdEntAddr.192.0.2.N, a string index under NET-SNMP-EXTEND-MIB, an ifIndex of 436207616 + N*4096 (five-octet arc), UCD-SNMP-MIB; an OID value with a vendor arc (1208). decode reads every name and value (borrowed where the implementation can); decode-owned leaves values the caller owns; encode writes values built beforehand; encode-arcs builds them from OID arcs and returns a new Vec. Fastest of 15 samples (41 with --quick), the implementations of a workload sampled in turns; every implementation checked against the expected values before it is timed. Shared machines: read the ratios and the instruction counts, not the nanoseconds.";

/// Everything one run measured, for the renderers.
pub struct Results<'a> {
    /// Implementations, in table order.
    pub names: &'a [&'static str],
    /// Timed rows.
    pub rows: &'a [Row],
    /// Cost lines fitted over the rows.
    pub fits: &'a [CostLine],
    /// Corpus decode timings.
    pub corpus: &'a [CorpusResult],
    /// The MIB corpus load, when it was timed.
    pub mibs: Option<&'a MibCorpus>,
    /// Notes for the reader.
    pub notes: &'a [String],
    /// The profile section, when asked for.
    pub profile: Option<&'a str>,
}

/// The whole text report.
pub fn text(r: &Results) -> String {
    let Results {
        names,
        rows,
        fits,
        corpus,
        mibs,
        notes,
        profile,
    } = *r;
    let mut out = format!("snmp-bench: {PREAMBLE}\n\n");
    let _ = writeln!(
        out,
        "PDU layer (the Response-PDU TLV alone)\n{}",
        table(names, rows, Layer::Pdu, false)
    );
    let _ = writeln!(
        out,
        "Whole message\n{}",
        table(names, rows, Layer::Msg, false)
    );
    let it = instruction_table(rows, false);
    if !it.is_empty() {
        let _ = writeln!(out, "Instructions per operation (callgrind)\n{it}");
    }
    let _ = writeln!(
        out,
        "Cost lines a + b·n (least squares over 1/10/50 bindings)\n{}",
        fit_lines(fits, false)
    );
    let _ = writeln!(
        out,
        "Corpus: every captured message of corpus/vectors, decoded\n{}",
        corpus_table(corpus, false)
    );
    if let Some(m) = mibs {
        let _ = writeln!(
            out,
            "MIB corpus: read, parse and resolve every module (net-snmp: snmptranslate -m ALL -Tz)\n{}",
            mib_table(m, false)
        );
    }
    let _ = writeln!(out, "{}", where_time_goes(fits));
    if let Some(p) = profile {
        let _ = writeln!(out, "\n{p}");
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "\nNotes:");
        for n in notes {
            let _ = writeln!(out, "- {n}");
        }
    }
    out
}

/// The Markdown report; `svg` names the cost-line plot beside it.
pub fn markdown(r: &Results, svg: Option<&str>) -> String {
    let Results {
        names,
        rows,
        fits,
        corpus,
        mibs,
        notes,
        profile,
    } = *r;
    let mut out = format!("# snmp-bench\n\n{PREAMBLE}\n\n");
    let _ = writeln!(
        out,
        "## PDU layer\n\n{}",
        table(names, rows, Layer::Pdu, true)
    );
    let _ = writeln!(
        out,
        "## Whole message\n\n{}",
        table(names, rows, Layer::Msg, true)
    );
    let it = instruction_table(rows, true);
    if !it.is_empty() {
        let _ = writeln!(out, "## Instructions per operation (callgrind)\n\n{it}");
    }
    let _ = writeln!(out, "## Cost lines a + b·n\n\n{}", fit_lines(fits, true));
    if let Some(svg) = svg {
        let _ = writeln!(out, "![cost lines]({svg})\n");
    }
    let _ = writeln!(out, "## Corpus\n\n{}", corpus_table(corpus, true));
    if let Some(m) = mibs {
        let _ = writeln!(out, "## MIB corpus\n\nRead, parse and resolve every module (net-snmp: `snmptranslate -m ALL -Tz`).\n\n{}", mib_table(m, true));
    }
    let _ = writeln!(out, "{}\n", where_time_goes(fits));
    if let Some(p) = profile {
        let _ = writeln!(out, "```text\n{p}\n```\n");
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "## Notes\n");
        for n in notes {
            let _ = writeln!(out, "- {n}");
        }
    }
    out
}

/// The JSON document.
pub fn json(r: &Results) -> serde_json::Value {
    let Results {
        rows,
        fits,
        corpus,
        mibs,
        notes,
        ..
    } = *r;
    json!({
        "results": rows.iter().map(|r| json!({
            "impl": r.imp,
            "layer": r.layer.as_str(),
            "op": r.op.as_str(),
            "bindings": r.n,
            "ns_min": r.timing.ns_min,
            "ns_median": r.timing.ns_median,
            "instructions": r.instructions,
        })).collect::<Vec<_>>(),
        "fits": fits.iter().map(|f| json!({
            "impl": f.imp,
            "layer": f.layer.as_str(),
            "op": f.op.as_str(),
            "a_ns": f.ns.a,
            "b_ns": f.ns.b,
            "r2": f.ns.r2,
            "a_instructions": f.ir.map(|i| i.a),
            "b_instructions": f.ir.map(|i| i.b),
        })).collect::<Vec<_>>(),
        "corpus": corpus.iter().map(|c| json!({
            "impl": c.imp,
            "messages": c.messages,
            "ns_min": c.timing.ns_min,
            "ns_median": c.timing.ns_median,
        })).collect::<Vec<_>>(),
        "mib_corpus": mibs.map(|m| json!({
            "files": m.files,
            "modules": m.modules,
            "nodes": m.nodes,
            "loads": m.loads.iter().map(|l| json!({
                "impl": l.imp,
                "s_min": l.s_min,
                "s_median": l.s_median,
                "free_s_median": l.free_s_median,
                "process_s_median": l.process_s_median,
                "peak_kb": l.peak_kb,
            })).collect::<Vec<_>>(),
        })),
        "notes": notes,
    })
}
