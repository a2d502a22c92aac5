//! `snmpc table`, as snmptable: a conceptual table's readable columns from the MIB, a row per
//! index, laid out as snmptable lays it out.

use std::io::Write;
use std::process::ExitCode;

use snmp_ber::OidBuf;
use snmp_client::{VarBind, WalkWith};

use crate::agent::{agent_error, bad_arguments, Agent, Tool};
use crate::ask::{AgentOpts, AppOptError, AppOpts, WalkLimits};
use crate::print::text;

/// `table TABLE`, as snmptable: the conceptual table's readable columns (from the MIB), one
/// row per index, walked by GETBULK (GETNEXT under SNMPv1); values printed as `-Oq` prints
/// them, `?` where a row has no value; columns right-aligned (`-Cl` left), or separated by
/// `-Cf SEP`; `-Ci` an index column first, `-Ch` headers only, `-CH` no headers.
pub fn table(opts: &AgentOpts, app: &AppOpts, limits: &WalkLimits, table: &str) -> ExitCode {
    let app = match app.parse(crate::ask::letters::TABLE) {
        Ok(a) => a,
        // snmptable's words for a letter it does not know, and its USAGE line.
        Err(AppOptError::UnknownLetter(letter)) => {
            return crate::usage::refuse_option(format!("Bad option after -C: {letter}"))
        }
        Err(e) => return crate::usage::refuse_flag(e),
    };
    let walk_with = match app.no_bulk {
        true => WalkWith::GetNext,
        false => WalkWith::GetBulk,
    };
    let named = [table.to_string()];
    let mut agent = match Agent::open_walking(opts, &named, limits, &app, walk_with) {
        Ok(a) => a,
        Err(code) => return code,
    };
    // snmptable prints values as -Oq does; its own -Oq turns that off again (a toggle).
    agent.output.quick = !agent.output.quick;
    let table_oid = match agent.oid(table) {
        Ok(o) => o,
        Err(e) => return e.exit(),
    };
    let arcs: Vec<u32> = table_oid.as_oid().arcs().collect();
    let mibs = agent.mibs.as_ref().expect("loaded by open");
    // snmptable names its columns by what follows the last `.` of their names, and a name
    // that is a number is none: under `-On` it finds no column.
    let numeric = agent.output.naming == crate::print::Naming::Numeric;
    let columns = mibs.table_columns(&arcs).filter(|_| !numeric);
    let Some(columns) = columns.filter(|c| !c.is_empty()) else {
        // No entry with columns below it, in snmptable's words.
        let (naming, index) = (agent.output.naming, agent.output.index);
        eprintln!(
            "Was that a table? {}",
            crate::print::name_of(mibs, &arcs, naming, index)
        );
        return ExitCode::FAILURE;
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
    let printer = text::Printer {
        output: agent.output,
        mibs: agent.mibs.as_ref(),
    };
    // Whether the agent answered a column this table's readable columns do not list (one
    // not-accessible, or one no module read defines).
    let mut extra_columns = false;
    let table_name = printer.name(table_oid.as_oid());
    let walked = agent.session.walk(&entry_oid, |vb: &VarBind| {
        let name: Vec<u32> = vb.oid.as_oid().arcs().collect();
        let Some((&column, index)) = name[entry.len()..].split_first() else {
            return;
        };
        // A column not listed is left out, as snmptable leaves it out.
        let Some(k) = columns.iter().position(|(arc, _)| *arc == column) else {
            extra_columns = true;
            return;
        };
        let (_, row) = rows.entry(index.to_vec()).or_insert_with(|| {
            let shown = index_text(&printer.name(vb.oid.as_oid()), &table_name, index);
            (shown, vec![None; columns.len()])
        });
        row[k] = Some(printer.value(&vb.value, presentations[k]));
    });
    if let Err(e) = walked {
        return agent_error(&agent, e, Tool::Other);
    }
    match opts.json {
        true => print_json(&columns, &rows),
        false => {
            print_table(&table_name, &columns, &rows, &app);
            // snmptable's warning, said when it walks by GETBULK (it asks for each column by
            // GETNEXT otherwise, and never sees the others).
            if extra_columns && walk_with == WalkWith::GetBulk && !app.headers_only {
                println!("{table_name}: WARNING: More columns on agent than in MIB");
            }
        }
    }
    ExitCode::SUCCESS
}

/// `--json`: a line a row, `{"index": ..., COLUMN: VALUE...}`, the values as the table
/// prints them, `null` where the row has none.
fn print_json(columns: &[(u32, String)], rows: &Rows) {
    let mut out = std::io::stdout().lock();
    for (index, cells) in rows.values() {
        let mut row = serde_json::Map::new();
        row.insert("index".into(), index.clone().into());
        for ((_, name), cell) in columns.iter().zip(cells) {
            row.insert(
                name.clone(),
                cell.clone().map_or(serde_json::Value::Null, Into::into),
            );
        }
        let _ = writeln!(out, "{}", serde_json::Value::Object(row));
    }
}

/// A table's rows: index arcs to the index as shown and a cell per column.
type Rows = std::collections::BTreeMap<Vec<u32>, (String, Vec<Option<String>>)>;

/// The index of a row as snmptable shows it: what follows the column's name in a cell's
/// name as `-O` names it (`3."aesuser"`, `[ipv4]["192.0.2.1"]` under `-OX`); under `-Of` and
/// `-On`, whose names start with `.`, what follows the table's name (`table`, named so) and
/// the entry's and the column's arcs: the index as `-Of` decodes it, the arcs under `-On`.
fn index_text(name: &str, table: &str, arcs: &[u32]) -> String {
    let dotted = || {
        arcs.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(".")
    };
    if name.starts_with('.') {
        let after_table = name
            .get(table.len() + 1..)
            .filter(|_| name.starts_with(table));
        let index = after_table
            .and_then(|s| s.split_once('.'))
            .and_then(|(_, s)| s.split_once('.'))
            .map(|(_, index)| index.to_string());
        return index.unwrap_or_else(dotted);
    }
    let column = name.split_once("::").map_or(name, |(_, rest)| rest);
    match column.find(['.', '[']) {
        Some(i) if column[i..].starts_with('.') => column[i + 1..].to_string(),
        Some(i) => column[i..].to_string(),
        None => dotted(),
    }
}

/// The length of the prefix `-Cb` strips from every column name, as snmptable works it out:
/// the shortest prefix each name shares with the one before it (where a name is a prefix of
/// the next, one character less).
fn brief_prefix(names: &[String]) -> usize {
    if names.len() < 2 {
        return 0;
    }
    let mut common = names[0].chars().count();
    for pair in names.windows(2) {
        let (a, b): (Vec<char>, Vec<char>) = (pair[0].chars().collect(), pair[1].chars().collect());
        let same = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let len = if same == a.len() {
            same.saturating_sub(1)
        } else {
            same
        };
        common = common.min(len);
    }
    common
}

/// snmptable's layout of `rows` under `columns`.
fn print_table(name: &str, columns: &[(u32, String)], rows: &Rows, app: &crate::ask::App) {
    let mut header: Vec<String> = columns.iter().map(|(_, n)| n.clone()).collect();
    if app.brief {
        let strip = brief_prefix(&header);
        for h in &mut header {
            *h = h.chars().skip(strip).collect();
        }
    }
    let lines: Vec<Vec<String>> = rows
        .values()
        .map(|(_, cells)| {
            cells
                .iter()
                .map(|c| c.clone().unwrap_or_else(|| "?".into()))
                .collect()
        })
        .collect();
    let indices: Vec<String> = rows.values().map(|(index, _)| index.clone()).collect();
    // `-Cc N`: every cell cut to N-1 characters, in a column N wide.
    let cut = |cells: &mut Vec<String>| {
        if let Some(width) = app.column_width {
            for c in cells.iter_mut() {
                *c = c.chars().take(width as usize - 1).collect();
            }
        }
    };
    cut(&mut header);
    let mut lines = lines;
    lines.iter_mut().for_each(cut);
    let mut out = std::io::stdout().lock();
    // As snmptable: `-Ch` asks for no rows, so it finds none.
    if app.headers_only {
        let widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
        let all: Vec<usize> = (0..header.len()).collect();
        let _ = writeln!(
            out,
            "{}",
            Layout::new(app, &widths).line(&header, &all, app.include_root.then_some("index"))
        );
    }
    if app.headers_only || lines.is_empty() {
        let _ = writeln!(out, "{name}: No entries");
        return;
    }
    if !app.no_headers {
        let _ = writeln!(out, "SNMP table: {name}\n");
    }
    if let Some(sep) = &app.separator {
        let with_index = |cells: &[String], index: &str| -> String {
            match app.include_root {
                true => std::iter::once(index.to_string())
                    .chain(cells.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(sep),
                false => cells.join(sep),
            }
        };
        if !app.no_headers {
            let _ = writeln!(out, "{}", with_index(&header, "index"));
        }
        for (l, index) in lines.iter().zip(&indices) {
            let _ = writeln!(out, "{}", with_index(l, index));
        }
        return;
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|k| match app.column_width {
            Some(width) => width as usize - 1,
            None => lines
                .iter()
                .map(|l| l[k].chars().count())
                .chain([header[k].chars().count()])
                .max()
                .unwrap_or(0),
        })
        .collect();
    let mut layout = Layout::new(app, &widths);
    layout.index_width = indices
        .iter()
        .map(|i| i.chars().count())
        .fold(layout.index_width, usize::max);
    for (part, columns) in layout.parts(app.max_width).iter().enumerate() {
        if part > 0 && !app.no_headers {
            let _ = writeln!(out, "\nSNMP table {name}, part {}\n", part + 1);
        }
        if !app.no_headers {
            let _ = writeln!(
                out,
                "{}",
                layout.line(&header, columns, app.include_root.then_some("index"))
            );
        }
        for (l, index) in lines.iter().zip(&indices) {
            let _ = writeln!(
                out,
                "{}",
                layout.line(l, columns, app.include_root.then_some(index.as_str()))
            );
        }
    }
}

/// Aligned columns as snmptable prints them: each cell right-aligned in its column's width
/// plus one (left-aligned under `-Cl`), the index (`-Ci`) in its own width first.
struct Layout<'a> {
    widths: &'a [usize],
    left: bool,
    /// snmptable's index width: at least `index `'s.
    index_width: usize,
    with_index: bool,
}

impl<'a> Layout<'a> {
    fn new(app: &crate::ask::App, widths: &'a [usize]) -> Layout<'a> {
        Layout {
            widths,
            left: app.left_align,
            index_width: "index ".len(),
            with_index: app.include_root,
        }
    }

    /// The columns of each part of a table at most `max_width` wide (`-Cw`): as many as fit,
    /// one at least; all in one part without a limit.
    fn parts(&self, max_width: Option<u32>) -> Vec<Vec<usize>> {
        let Some(max) = max_width.map(|m| m as usize) else {
            return vec![(0..self.widths.len()).collect()];
        };
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut k = 0;
        while k < self.widths.len() {
            let mut width = if self.with_index { self.index_width } else { 0 };
            let mut part = Vec::new();
            while k < self.widths.len() {
                width += self.widths[k] + 1;
                if !part.is_empty() && width > max {
                    break;
                }
                part.push(k);
                k += 1;
            }
            parts.push(part);
        }
        parts
    }

    /// One line: `index` first when given, then `cells` of `columns`.
    fn line(&self, cells: &[String], columns: &[usize], index: Option<&str>) -> String {
        let pad = |text: &str, width: usize| {
            let fill = " ".repeat(width.saturating_sub(text.chars().count()));
            if self.left {
                format!("{text}{fill}")
            } else {
                format!("{fill}{text}")
            }
        };
        let mut line = index.map(|i| pad(i, self.index_width)).unwrap_or_default();
        for &k in columns {
            line.push_str(&pad(&cells[k], self.widths[k] + 1));
        }
        line
    }
}
