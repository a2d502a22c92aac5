//! The commands that ask an agent, with net-snmp's habits: `get`, `getnext`, `bulkget`,
//! `walk` (GETNEXT, as snmpwalk), `bulkwalk` (GETBULK, as snmpbulkwalk) and `set`
//! (`OID TYPE VALUE` triples, as snmpset); the session and printing the other agent commands
//! share (`table`: [`crate::table`]; `trap`, `inform`: [`crate::send`]). Names or numbers in (`sysDescr.0`,
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
pub(crate) struct Agent {
    pub(crate) session: Session,
    pub(crate) mibs: Option<Mibs>,
    pub(crate) output: Output,
}

/// Says `e` on stderr and gives exit code 2 (bad arguments).
pub(crate) fn bad_arguments(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("snmpc: {e}");
    ExitCode::from(2)
}

impl Agent {
    /// Loads the MIB modules (built in, and `-M`'s: for names in and out, and for values as
    /// their objects' definitions show them, as net-snmp's tools always load theirs) and opens
    /// the session.
    pub(crate) fn open(
        opts: &AgentOpts,
        adjust: impl FnOnce(&mut snmp_client::Options),
    ) -> Result<Agent, ExitCode> {
        let mut output = Output::parse(&opts.output).map_err(bad_arguments)?;
        output.json = opts.json;
        let loaded = Mibs::load_with_builtin(&opts.mib_dirs()).map_err(bad_arguments)?;
        let (modules, given) = opts.mib_modules();
        match loaded.require(&modules) {
            Err(e) if given => return Err(bad_arguments(e)),
            Err(e) => eprintln!("snmpc: warning: MIBS: {e}"),
            Ok(()) => {}
        }
        let mibs = Some(loaded);
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
    pub(crate) fn open_walking(
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
            o.walk_checks_order = !app.no_check_increasing;
        })
    }

    /// An OID given as a name or as numbers.
    pub(crate) fn oid(&self, text: &str) -> Result<OidBuf, String> {
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
pub(crate) fn agent_error(agent: &Agent, e: ClientError) -> ExitCode {
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
pub fn set(opts: &AgentOpts, args: &[String]) -> ExitCode {
    if args.is_empty() {
        return bad_arguments("set takes OID TYPE VALUE triples; 0 arguments given");
    }
    let mut agent = match Agent::open(opts, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let bindings = match triples(&agent, args) {
        Ok(b) => b,
        Err(e) => return bad_arguments(e),
    };
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

/// Bindings as a SET or a notification carries them.
pub(crate) type Bindings = Vec<(OidBuf, snmp_client::Value)>;

/// `OID TYPE VALUE` triples into bindings.
pub(crate) fn triples(agent: &Agent, args: &[String]) -> Result<Bindings, String> {
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
