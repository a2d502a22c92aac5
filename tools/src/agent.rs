//! The commands that ask an agent, with net-snmp's habits: `get`, `getnext`, `bulkget`,
//! `walk` (GETNEXT, as snmpwalk), `bulkwalk` (GETBULK, as snmpbulkwalk) and `set`
//! (`OID TYPE VALUE` triples, as snmpset). Names or numbers in (`sysDescr.0`,
//! `IF-MIB::ifDescr.3`, `1.3.6.1.2.1.1.1.0`), bindings out as net-snmp prints them under `-O`.
//! Exit 0 on success, 1 when the agent fails or answers with an error, 2 for bad arguments.

use std::io::Write;
use std::process::ExitCode;

use snmp_ber::OidBuf;
use snmp_client::{ClientError, Session, VarBind, WalkWith};

use crate::ask::{self, AgentOpts, AppOpts, WalkLimits};
use crate::mibs::Mibs;
use crate::print::{Output, Printer};
use crate::setvalue;

/// An open session with what it needs to read names and print bindings.
struct Agent {
    session: Session,
    mibs: Option<Mibs>,
    output: Output,
}

/// Says `e` on stderr and gives exit code 2 (bad arguments).
fn bad_arguments(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("snmpc: {e}");
    ExitCode::from(2)
}

impl Agent {
    /// Loads the MIB modules (built in, and `-M`'s: for names in and out, and for values as
    /// their objects' definitions show them, as net-snmp's tools always load theirs) and opens
    /// the session.
    fn open(
        opts: &AgentOpts,
        adjust: impl FnOnce(&mut snmp_client::Options),
    ) -> Result<Agent, ExitCode> {
        let mut output = Output::parse(&opts.output).map_err(bad_arguments)?;
        output.json = opts.json;
        let mibs = Some(Mibs::load_with_builtin(&opts.mib_dirs()).map_err(bad_arguments)?);
        let (addr, creds, mut options) = opts.session().map_err(bad_arguments)?;
        adjust(&mut options);
        let engine_id = opts.engine_id().map_err(bad_arguments)?;
        let mut session = Session::new(addr, creds, options).map_err(|e| {
            eprintln!("snmpc: {e}");
            ExitCode::FAILURE
        })?;
        if let Some(id) = engine_id {
            // The agent's engine, known: no discovery; its clock is learned from the first
            // Report, as net-snmp's tools do with -e.
            session.set_engine(snmp_client::Engine {
                id,
                boots: 0,
                time: 0,
                learned_at: std::time::Instant::now(),
            });
        }
        Ok(Agent {
            session,
            mibs,
            output,
        })
    }

    /// [`Agent::open`] for walks: within `limits`, by `walk_with`, GETBULK's max-repetitions
    /// from `-Cr` (10, as net-snmp's).
    fn open_walking(
        opts: &AgentOpts,
        limits: &WalkLimits,
        app: &crate::ask::App,
        walk_with: WalkWith,
    ) -> Result<Agent, ExitCode> {
        let limited = limits
            .apply(snmp_client::Options::default())
            .map_err(bad_arguments)?;
        Agent::open(opts, |o| {
            o.max_walk_requests = limited.max_walk_requests;
            o.max_walk_time = limited.max_walk_time;
            o.walk_with = walk_with;
            o.max_repetitions = app.max_repetitions.unwrap_or(10);
        })
    }

    /// An OID given as a name or as numbers.
    fn oid(&self, text: &str) -> Result<OidBuf, String> {
        match (ask::oid(text), &self.mibs) {
            (Ok(oid), _) => Ok(oid),
            // A dotted OID that does not parse is not a name either.
            (Err(e), _) if text.starts_with(|c: char| c.is_ascii_digit() || c == '.') => Err(e),
            (Err(_), Some(m)) => m
                .name_to_oid(text)
                .and_then(|arcs| OidBuf::from_arcs(&arcs).map_err(|e| e.to_string()))
                .map_err(|e| format!("{text}: {e}")),
            (Err(e), None) => Err(e),
        }
    }

    fn oids(&self, texts: &[String]) -> Result<Vec<OidBuf>, ExitCode> {
        texts
            .iter()
            .map(|t| self.oid(t))
            .collect::<Result<_, _>>()
            .map_err(bad_arguments)
    }

    fn printer(&self) -> Printer<'_> {
        Printer {
            output: self.output,
            mibs: self.mibs.as_ref(),
        }
    }
}

/// Prints `bindings` (or the agent's error: exit 1).
fn finish(agent: &Agent, answer: Result<Vec<VarBind>, ClientError>) -> ExitCode {
    match answer {
        Ok(bindings) => {
            let p = agent.printer();
            let mut out = std::io::stdout().lock();
            for vb in &bindings {
                let _ = writeln!(out, "{}", p.line(vb));
            }
            ExitCode::SUCCESS
        }
        Err(e) => agent_error(agent, e),
    }
}

/// Says what the agent's error was, naming the OID of an error-status as bindings are named
/// (`error-status notWritable (17) at binding 1 (SNMPv2-MIB::sysDescr.0)`); exit 1.
fn agent_error(agent: &Agent, e: ClientError) -> ExitCode {
    match e {
        ClientError::ErrorStatus {
            status,
            index,
            oid: Some(oid),
        } => eprintln!(
            "snmpc: error-status {} ({status}) at binding {index} ({})",
            snmp_client::error_status_name(status),
            agent.printer().name(oid.as_oid())
        ),
        other => eprintln!("snmpc: {other}"),
    }
    ExitCode::FAILURE
}

/// Opens the agent, reads `oids` and prints what `request` gets for them.
fn ask(
    opts: &AgentOpts,
    oids: &[String],
    request: impl FnOnce(&mut Session, &[OidBuf]) -> Result<Vec<VarBind>, ClientError>,
) -> ExitCode {
    let mut agent = match Agent::open(opts, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let oids = match agent.oids(oids) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let answer = request(&mut agent.session, &oids);
    finish(&agent, answer)
}

/// `get OID...`.
pub fn get(opts: &AgentOpts, oids: &[String]) -> ExitCode {
    ask(opts, oids, |s, oids| s.get(oids))
}

/// `getnext OID...`.
pub fn getnext(opts: &AgentOpts, oids: &[String]) -> ExitCode {
    ask(opts, oids, |s, oids| s.get_next(oids))
}

/// `bulkget [-Cn N] [-Cr N] OID...`: the first N OIDs once, the rest N times (net-snmp's
/// defaults: 0 non-repeaters, 10 repetitions).
pub fn bulkget(opts: &AgentOpts, app: &AppOpts, oids: &[String]) -> ExitCode {
    let app = match app.parse() {
        Ok(a) => a,
        Err(e) => return bad_arguments(e),
    };
    let (non_repeaters, max_repetitions) = (
        app.non_repeaters.unwrap_or(0),
        app.max_repetitions.unwrap_or(10),
    );
    ask(opts, oids, |s, oids| {
        s.get_bulk(non_repeaters, max_repetitions, oids)
    })
}

/// `set OID TYPE VALUE...`: the bindings the agent answers with are printed.
pub fn set(opts: &AgentOpts, triples: &[String]) -> ExitCode {
    if triples.is_empty() || !triples.len().is_multiple_of(3) {
        return bad_arguments(format!(
            "set takes OID TYPE VALUE triples; {} arguments given",
            triples.len()
        ));
    }
    let mut agent = match Agent::open(opts, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut bindings = Vec::new();
    for t in triples.chunks(3) {
        let parsed = agent.oid(&t[0]).and_then(|oid| {
            let value = setvalue::parse(&t[1], &t[2], &|text| agent.oid(text))
                .map_err(|e| format!("{}: {e}", t[0]))?;
            Ok((oid, value))
        });
        match parsed {
            Ok(b) => bindings.push(b),
            Err(e) => return bad_arguments(e),
        }
    }
    let answer = agent.session.set(&bindings);
    finish(&agent, answer)
}

/// `walk [ROOT]` by GETNEXT (`bulk`: `bulkwalk` by GETBULK of `-Cr N`, 10 by default as
/// snmpbulkwalk's); `-Ci` prints the root's own value first, `-Cp` the count at the end. An
/// empty subtree prints the root's own value, as snmpwalk does.
pub fn walk(
    opts: &AgentOpts,
    app: &AppOpts,
    limits: &WalkLimits,
    root: Option<&str>,
    bulk: bool,
) -> ExitCode {
    let app = match app.parse() {
        Ok(a) => a,
        Err(e) => return bad_arguments(e),
    };
    let root_text = root.unwrap_or("1.3.6.1.2.1");
    let walk_with = if bulk {
        WalkWith::GetBulk
    } else {
        WalkWith::GetNext
    };
    let mut agent = match Agent::open_walking(opts, limits, &app, walk_with) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let root = match agent.oid(root_text) {
        Ok(o) => o,
        Err(e) => return bad_arguments(e),
    };
    let p = Printer {
        output: agent.output,
        mibs: agent.mibs.as_ref(),
    };
    let mut out = std::io::stdout().lock();
    let mut printed = 0usize;
    let mut result = Ok(());
    if app.include_root {
        match agent.session.get(std::slice::from_ref(&root)) {
            Ok(vbs) => {
                for vb in vbs.iter().filter(|vb| !vb.value.is_exception()) {
                    printed += 1;
                    let _ = writeln!(out, "{}", p.line(vb));
                }
            }
            Err(e) => result = Err(e),
        }
    }
    if result.is_ok() {
        result = agent
            .session
            .walk(&root, |vb| {
                printed += 1;
                let _ = writeln!(out, "{}", p.line(vb));
            })
            .map(|_| ());
    }
    // Nothing under the root: as snmpwalk does, say what the root itself is (usually
    // "No Such Object available on this agent at this OID").
    if result.is_ok() && printed == 0 {
        match agent.session.get(std::slice::from_ref(&root)) {
            Ok(vbs) => vbs.iter().for_each(|vb| {
                let _ = writeln!(out, "{}", p.line(vb));
            }),
            Err(e) => result = Err(e),
        }
    }
    if app.print_count {
        let _ = writeln!(out, "Variables found: {printed}");
    }
    drop(out);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => agent_error(&agent, e),
    }
}

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
            row[k] = Some(printer.value(&vb.value, presentations[k].as_ref()));
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

/// The sender's uptime for a notification whose UPTIME argument is empty, as net-snmp's
/// snmptrap takes it: this host's, in hundredths of a second (0 where the system does not say).
fn local_uptime() -> u32 {
    std::fs::read_to_string("/proc/uptime")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map(|s| (s * 100.0).min(u32::MAX as f64) as u32)
        .unwrap_or(0)
}

/// An UPTIME argument: hundredths of a second, or empty for this host's.
fn uptime(text: &str) -> Result<u32, String> {
    if text.is_empty() {
        return Ok(local_uptime());
    }
    text.parse().map_err(|_| {
        format!("uptime `{text}`: expected hundredths of a second, or '' for this host's")
    })
}

/// `OID TYPE VALUE` triples into bindings.
fn triples(agent: &Agent, args: &[String]) -> Result<Bindings, String> {
    if !args.len().is_multiple_of(3) {
        return Err(format!(
            "bindings are OID TYPE VALUE triples; {} arguments given",
            args.len()
        ));
    }
    args.chunks(3)
        .map(|t| {
            let oid = agent.oid(&t[0])?;
            let value = setvalue::parse(&t[1], &t[2], &|text| agent.oid(text))
                .map_err(|e| format!("{}: {e}", t[0]))?;
            Ok((oid, value))
        })
        .collect()
}

/// `opts` sending to port 162 unless the address names one.
fn to_trap_port(opts: &AgentOpts) -> AgentOpts {
    AgentOpts {
        agent: ask::with_default_port(&opts.agent, 162),
        ..opts.clone()
    }
}

/// `trap`, as snmptrap: `-v 1 ... ENTERPRISE AGENT GENERIC SPECIFIC UPTIME [OID TYPE VALUE]...`
/// (an empty ENTERPRISE is net-snmp's default, an empty AGENT this host's address), or
/// `-v 2c ... UPTIME TRAP-OID [OID TYPE VALUE]...`; an empty UPTIME is this host's. To port 162
/// unless the address names another. SNMPv3 traps are not offered yet: `inform` is.
pub fn trap(opts: &AgentOpts, args: &[String]) -> ExitCode {
    let opts = to_trap_port(opts);
    let mut agent = match Agent::open(&opts, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if let Ok(Some(id)) = opts.engine_id() {
        // A v3 trap's sender is the authoritative engine: this one, under -e's ID.
        agent.session.set_local_engine(&id, 1);
    }
    let sent = if opts.version == "1" {
        trap_v1(&mut agent, args)
    } else {
        notification(&agent, args)
            .map(|(up, oid, bindings)| agent.session.trap(up, &oid, &bindings))
    };
    match sent {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => agent_error(&agent, e),
        Err(e) => bad_arguments(e),
    }
}

/// Bindings as a SET or a notification carries them.
type Bindings = Vec<(OidBuf, snmp_client::Value)>;

/// An SNMPv2 notification's arguments: UPTIME TRAP-OID, then bindings.
fn notification(agent: &Agent, args: &[String]) -> Result<(u32, OidBuf, Bindings), String> {
    let [up, oid, rest @ ..] = args else {
        return Err("expected UPTIME TRAP-OID [OID TYPE VALUE]...".into());
    };
    Ok((uptime(up)?, agent.oid(oid)?, triples(agent, rest)?))
}

/// snmptrap's SNMPv1 form: ENTERPRISE AGENT GENERIC SPECIFIC UPTIME, then bindings.
fn trap_v1(agent: &mut Agent, args: &[String]) -> Result<Result<(), ClientError>, String> {
    let [enterprise, addr, generic, specific, up, rest @ ..] = args else {
        return Err("expected ENTERPRISE AGENT GENERIC SPECIFIC UPTIME [OID TYPE VALUE]...".into());
    };
    let enterprise = if enterprise.is_empty() {
        // net-snmp's snmptrap's default enterprise.
        "1.3.6.1.4.1.3.1.1".parse().expect("an OID")
    } else {
        agent.oid(enterprise)?
    };
    let agent_addr = if addr.is_empty() {
        None
    } else {
        Some(
            addr.parse::<std::net::Ipv4Addr>()
                .map_err(|_| format!("agent `{addr}`: expected an IPv4 address, or ''"))?
                .octets(),
        )
    };
    let number = |what: &str, t: &str| {
        t.parse::<i64>()
            .map_err(|_| format!("{what} `{t}`: expected a number"))
    };
    let header = snmp_client::notify::V1Trap {
        enterprise,
        agent_addr: agent_addr.unwrap_or([0; 4]),
        generic: number("generic trap", generic)?,
        specific: number("specific trap", specific)?,
        uptime: uptime(up)?,
    };
    let bindings = triples(agent, rest)?;
    Ok(match agent_addr {
        Some(_) => agent.session.trap_v1(&header, &bindings),
        // This host's address, as the session finds it.
        None => agent.session.trap_v1_from_here(&header, &bindings),
    })
}

/// `inform`, as snmpinform: `-v 2c|3 ... UPTIME TRAP-OID [OID TYPE VALUE]...`; the
/// receiver's answer printed as bindings. To port 162 unless the address names another.
pub fn inform(opts: &AgentOpts, args: &[String]) -> ExitCode {
    let opts = to_trap_port(opts);
    let mut agent = match Agent::open(&opts, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let (up, oid, bindings) = match notification(&agent, args) {
        Ok(n) => n,
        Err(e) => return bad_arguments(e),
    };
    let answer = agent.session.inform(up, &oid, &bindings);
    // snmpinform prints nothing when the inform is acknowledged.
    match answer {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => agent_error(&agent, e),
    }
}
