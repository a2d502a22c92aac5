//! `snmpc table`, as snmptable: a conceptual table's readable columns from the MIB, a row per
//! index, laid out as snmptable lays it out.

use std::io::Write;
use std::process::ExitCode;

use snmp_ber::OidBuf;
use snmp_client::{VarBind, WalkWith};

use crate::agent::{agent_error, bad_arguments, Agent};
use crate::ask::{AgentOpts, AppOpts, WalkLimits};
use crate::print::Printer;

/// `table TABLE`, as snmptable: the conceptual table's readable columns (from the MIB), one
/// row per index, walked by GETBULK (GETNEXT under SNMPv1); values printed as `-Oq` prints
/// them, `?` where a row has no value; columns right-aligned (`-Cl` left), or separated by
/// `-Cf SEP`; `-Ci` an index column first, `-Ch` headers only, `-CH` no headers.
pub fn table(opts: &AgentOpts, app: &AppOpts, limits: &WalkLimits, table: &str) -> ExitCode {
    let app = match app.parse() {
        Ok(a) => a,
        Err(e) => return bad_arguments(e),
    };
    let mut agent = match Agent::open_walking(opts, limits, &app, WalkWith::GetBulk) {
        Ok(a) => a,
        Err(code) => return code,
    };
    agent.output.quick = true;
    let table_oid = match agent.oid(table) {
        Ok(o) => o,
        Err(e) => return bad_arguments(e),
    };
    let arcs: Vec<u32> = table_oid.as_oid().arcs().collect();
    let mibs = agent.mibs.as_ref().expect("loaded by open");
    let Some(columns) = mibs.table_columns(&arcs).filter(|c| !c.is_empty()) else {
        return bad_arguments(format!(
            "{table}: not a table (no entry with columns below it)"
        ));
    };
    let mut entry = arcs.clone();
    entry.push(1);
    let presentations: Vec<_> = columns
        .iter()
        .map(|(arc, _)| {
            let mut column = entry.clone();
            column.push(*arc);
            mibs.presentation(&column)
        })
        .collect();
    let entry_oid = match OidBuf::from_arcs(&entry) {
        Ok(o) => o,
        Err(e) => return bad_arguments(e),
    };
    // Rows by index (in OID order: arcs compare as numbers), each a cell per column.
    let mut rows: Rows = Default::default();
    let printer = Printer {
        output: agent.output,
        mibs: agent.mibs.as_ref(),
    };
    let walked = agent.session.walk(&entry_oid, |vb: &VarBind| {
        let name: Vec<u32> = vb.oid.as_oid().arcs().collect();
        let Some((&column, index)) = name[entry.len()..].split_first() else {
            return;
        };
        // A column the modules do not define is left out, as snmptable leaves it out.
        if let Some(k) = columns.iter().position(|(arc, _)| *arc == column) {
            let row = rows
                .entry(index.to_vec())
                .or_insert_with(|| vec![None; columns.len()]);
            row[k] = Some(printer.value(&vb.value, presentations[k]));
        }
    });
    if let Err(e) = walked {
        return agent_error(&agent, e);
    }
    print_table(&printer.name(table_oid.as_oid()), &columns, &rows, &app);
    ExitCode::SUCCESS
}

/// A table's rows: index arcs to a cell per column.
type Rows = std::collections::BTreeMap<Vec<u32>, Vec<Option<String>>>;

/// snmptable's layout of `rows` under `columns`.
fn print_table(name: &str, columns: &[(u32, String)], rows: &Rows, app: &crate::ask::App) {
    let mut header: Vec<String> = columns.iter().map(|(_, n)| n.clone()).collect();
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|(index, cells)| {
            let mut line: Vec<String> = cells
                .iter()
                .map(|c| c.clone().unwrap_or_else(|| "?".into()))
                .collect();
            if app.include_root {
                let dotted: Vec<String> = index.iter().map(u32::to_string).collect();
                line.insert(0, dotted.join("."));
            }
            line
        })
        .collect();
    if app.include_root {
        header.insert(0, "index".into());
    }
    let mut out = std::io::stdout().lock();
    let widths = |lines: &[Vec<String>]| -> Vec<usize> {
        (0..header.len())
            .map(|k| {
                lines
                    .iter()
                    .map(|l| l[k].chars().count())
                    .chain([header[k].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    };
    // Right-aligned cells each after a space; left-aligned, each before one (`-Cl`).
    let aligned = |cells: &[String], widths: &[usize]| -> String {
        cells
            .iter()
            .zip(widths)
            .map(|(c, w)| {
                let pad = " ".repeat(w.saturating_sub(c.chars().count()));
                if app.left_align {
                    format!("{c}{pad} ")
                } else {
                    format!(" {pad}{c}")
                }
            })
            .collect()
    };
    // As snmptable: `-Ch` asks for no rows, so it finds none.
    if app.headers_only {
        let _ = writeln!(out, "{}", aligned(&header, &widths(&[])));
    }
    if app.headers_only || lines.is_empty() {
        let _ = writeln!(out, "{name}: No entries");
        return;
    }
    if !app.no_headers {
        let _ = writeln!(out, "SNMP table: {name}\n");
    }
    if let Some(sep) = &app.separator {
        if !app.no_headers {
            let _ = writeln!(out, "{}", header.join(sep));
        }
        for l in &lines {
            let _ = writeln!(out, "{}", l.join(sep));
        }
        return;
    }
    let widths = widths(&lines);
    if !app.no_headers {
        let _ = writeln!(out, "{}", aligned(&header, &widths));
    }
    for l in &lines {
        let _ = writeln!(out, "{}", aligned(l, &widths));
    }
}
