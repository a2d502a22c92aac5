//! The commands that ask an agent, with net-snmp's habits: `get`, `getnext`, `bulkget`,
//! `walk` (GETNEXT, as snmpwalk), `bulkwalk` (GETBULK, as snmpbulkwalk) and `set`
//! (`OID TYPE VALUE` triples, as snmpset); the session and printing the other agent commands
//! share (`table`: [`crate::table`]; `trap`, `inform`: [`crate::send`]). Names or numbers in (`sysDescr.0`,
//! `IF-MIB::ifDescr.3`, `1.3.6.1.2.1.1.1.0`), bindings out as net-snmp prints them under `-O`.
//! Exit 0 on success, 1 when the agent fails (no answer, a USM Report), 2 for an error-status
//! (but `getnext`'s of error-index 0, as snmpgetnext) or bad arguments; errors on stderr in
//! net-snmp's words (`Timeout: No Response from HOST.`, `Error in packet` / `Reason:` /
//! `Failed object:`). A GET or GETNEXT of several OIDs that
//! fails on one is asked again without it, as snmpget and snmpgetnext do.

use std::io::Write;
use std::process::ExitCode;

use snmp_ber::OidBuf;
use snmp_client::{ClientError, Session, Subtree, VarBind, WalkEnd, WalkWith};

use crate::ask::{self, AgentOpts, AppOpts, WalkLimits};
use crate::print::{text, Output, Printer};
use crate::setvalue;
use snmp_smi::mib::Syntaxes;
use snmp_smi::names::Mibs;

/// An open session with what it needs to read names and print bindings.
pub(crate) struct Agent {
    pub(crate) session: Session,
    pub(crate) mibs: Option<Mibs>,
    pub(crate) output: Output,
    /// Bindings printed as JSON lines (`--json`).
    pub(crate) json: bool,
    /// Whether the session is over TCP (`tcp:HOST`).
    tcp: bool,
    /// The agent as the command line names it (for "Timeout: No Response from ...").
    peer: String,
    /// Values to set checked against their objects' type and ranges (not under `-Ir`).
    check_values: bool,
    /// Names found by regular expression (`-Ib`).
    best_match: bool,
    /// What `-IS` and `-Is` write before and after every OID given.
    around: (String, String),
}

/// Which net-snmp tool's words an error is said in: snmpget writes "Error in packet" where
/// the others write "Error in packet."; snmpget and snmpgetnext end their timeout line with a
/// full stop, the others do not; snmpbulkget and snmpbulkwalk write a "Failed object:" line
/// even for an error-index that names no binding (with no name); snmpgetnext exits 0 after
/// an error-status whose error-index is 0 (as net-snmp 5.9 does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    /// snmpget.
    Get,
    /// snmpgetnext.
    GetNext,
    /// snmpbulkget, snmpbulkwalk.
    Bulk,
    /// snmpset, snmpwalk, snmptable, snmptrap, snmpinform.
    Other,
}

impl Tool {
    /// snmpget and snmpgetnext: each OID that does not translate said, and a request that
    /// fails on one of several asked again without it.
    fn one_by_one(self) -> bool {
        matches!(self, Tool::Get | Tool::GetNext)
    }
}

/// Says `e` on stderr and gives exit code 1, as net-snmp's tools do for arguments they cannot
/// use.
pub fn bad_arguments(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("{}: {e}", crate::usage::program());
    USAGE
}

/// net-snmp's tools' exit code for arguments they cannot use.
pub const USAGE: ExitCode = ExitCode::FAILURE;

/// An argument the tool cannot use.
#[derive(Debug)]
pub(crate) enum ArgError {
    /// One net-snmp's tools refuse too (a name that does not translate, a value of the wrong
    /// type), in their words (exit 1, as theirs).
    Refused(String),
    /// Anything else (`snmpc: ...`, exit 2).
    Usage(String),
}

impl ArgError {
    /// Says what is wrong on stderr; the exit code.
    pub(crate) fn exit(self) -> ExitCode {
        match self {
            ArgError::Refused(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
            ArgError::Usage(e) => bad_arguments(e),
        }
    }
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Refused(e) | ArgError::Usage(e) => f.write_str(e),
        }
    }
}

impl From<String> for ArgError {
    fn from(e: String) -> Self {
        ArgError::Usage(e)
    }
}

impl From<&str> for ArgError {
    fn from(e: &str) -> Self {
        ArgError::Usage(e.to_string())
    }
}

impl Drop for Agent {
    /// Says, as the command ends, which modules' SYNTAX could not be read again to show their
    /// objects' values ([`snmp_smi::mib::MibSet::syntaxes_unread`]).
    fn drop(&mut self) {
        for why in self.mibs.iter().flat_map(|m| m.set.syntaxes_unread()) {
            eprintln!("{}: {why}", crate::usage::program());
        }
    }
}

impl Agent {
    /// Loads the MIB modules net-snmp's tools would (their MIB list and path, and the module
    /// of each `MODULE::name` among `args`: see [`crate::miblist`]), for names in and out and
    /// for values as their objects' definitions show them, and opens the session.
    pub(crate) fn open(
        opts: &AgentOpts,
        args: &[String],
        adjust: impl FnOnce(&mut snmp_client::Options),
    ) -> Result<Agent, ExitCode> {
        let refuse = crate::usage::refuse_option;
        let mut output = Output::parse(&opts.mibs.output.concat()).map_err(refuse)?;
        let input = ask::Input::parse(&opts.input).map_err(refuse)?;
        if let Some(c) = opts.mibs.unknown_parsing() {
            return Err(refuse(format!("Unknown parsing option passed to -P: {c}.")));
        }
        opts.security_words().map_err(refuse)?;
        output.no_hints = input.no_hints;
        let choice = opts.mibs.choice();
        let named = crate::miblist::modules_named(args);
        // Values are shown for the objects a request reaches: their SYNTAX is read whole
        // when first shown.
        let loaded =
            Mibs::load_chosen_keeping(&choice, &named, &Default::default(), Syntaxes::Heads);
        let loaded = loaded.map_err(bad_arguments)?;
        if let Some(said) = loaded.load_problems(&choice.modules()) {
            eprintln!("{said}");
        }
        let mibs = Some(loaded);
        let (addr, creds, mut options) = opts.session().map_err(bad_arguments)?;
        adjust(&mut options);
        let engine_id = opts.engine_id().map_err(bad_arguments)?;
        let tcp = ask::is_tcp(&opts.agent);
        let opened = match tcp {
            true => Session::connect_tcp(addr, creds, options).map_err(|e| {
                // As net-snmp's tools say a connection they could not make.
                let why = match e {
                    // The system's words (`Connection refused`), without `(os error 111)`.
                    snmp_client::ClientError::Io(io) => {
                        let text = io.to_string();
                        text.split(" (os error").next().unwrap_or(&text).to_string()
                    }
                    other => other.to_string(),
                };
                format!("Unknown host ({}) ({why})", opts.agent)
            }),
            false => Session::new(addr, creds, options).map_err(|e| e.to_string()),
        };
        let mut session = opened.map_err(|e| {
            eprintln!("{}: {e}", crate::usage::program());
            ExitCode::FAILURE
        })?;
        if opts.dump {
            session.set_wire_tap(move |w| eprint!("{}", wire_dump(w, tcp)));
        }
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
            json: opts.json,
            tcp,
            peer: opts.agent.clone(),
            check_values: !input.unchecked,
            best_match: input.best_match,
            around: (input.prefix, input.suffix),
        })
    }

    /// [`Agent::open`] for walks: within `limits`, by `walk_with`, GETBULK's max-repetitions
    /// from `-Cr` (10, as net-snmp's).
    pub(crate) fn open_walking(
        opts: &AgentOpts,
        args: &[String],
        limits: &WalkLimits,
        app: &crate::ask::App,
        walk_with: WalkWith,
    ) -> Result<Agent, ExitCode> {
        let limited = limits
            .apply(snmp_client::Options::default())
            .map_err(bad_arguments)?;
        Agent::open(opts, args, |o| {
            o.max_walk_requests = limited.max_walk_requests;
            o.max_walk_time = limited.max_walk_time;
            o.walk_with = walk_with;
            // At least one: with none, net-snmp's snmpbulkwalk asks again forever (snmpbulkget
            // sends the 0 it is given).
            o.max_repetitions = app.max_repetitions.unwrap_or(10).max(1);
            o.walk_checks_order = !app.no_check_increasing;
        })
    }

    /// An OID given as a name or as numbers; what does not translate is said as net-snmp's
    /// tools say it (`sysFoo.0: Unknown Object Identifier (Sub-id not found: (top) -> sysFoo)`).
    pub(crate) fn oid(&self, given: &str) -> Result<OidBuf, ArgError> {
        let (prefix, suffix) = &self.around;
        let text = &format!("{prefix}{given}{suffix}");
        let unknown =
            |why: String| ArgError::Refused(format!("{text}: Unknown Object Identifier ({why})"));
        if let (true, Some(m)) = (self.best_match, &self.mibs) {
            // -Ib: the text is a regular expression over the names; what matches nothing is
            // said with no reason, as net-snmp says it.
            let arcs = crate::translate::name_pattern(text)
                .and_then(|find| m.best_match(find))
                .ok_or_else(|| ArgError::Refused(format!("{text}: ")))?;
            return OidBuf::from_arcs(&arcs).map_err(|e| unknown(e.to_string()));
        }
        if let Some(arc) = lone_root(text) {
            // One arc, as net-snmp sends it: its one subidentifier (that of `0.arc`).
            return OidBuf::from_arcs(&[0, arc]).map_err(|e| unknown(e.to_string()));
        }
        let arcs = match (ask::oid(text), &self.mibs) {
            (Ok(oid), _) => return Ok(oid),
            // A dotted OID that does not parse is not a name either.
            (Err(e), _) if snmp_smi::names::numeric_input(text) => match &self.mibs {
                Some(m) => m.dotted_to_oid(text).map_err(unknown)?,
                None => return Err(ArgError::Usage(e)),
            },
            // `.iso.org.dod...` (as -Of prints it) is the name without its dot.
            (Err(_), Some(m)) => m
                .name_to_oid(text.strip_prefix('.').unwrap_or(text))
                .map_err(|e| ArgError::Refused(e.say(text)))?,
            (Err(e), None) => return Err(ArgError::Usage(e)),
        };
        OidBuf::from_arcs(&arcs).map_err(|e| unknown(e.to_string()))
    }

    /// Every OID of `texts`; with `say_each` (as net-snmp's snmpget and snmpgetnext do) each
    /// one that does not translate is said before the exit, not only the first.
    fn oids(&self, texts: &[String], say_each: bool) -> Result<Vec<OidBuf>, ExitCode> {
        let mut oids = Vec::with_capacity(texts.len());
        let mut refused = None;
        for text in texts {
            match self.oid(text) {
                Ok(oid) => oids.push(oid),
                Err(e @ ArgError::Refused(_)) if say_each => refused = Some(e.exit()),
                Err(e) => return Err(e.exit()),
            }
        }
        refused.map_or(Ok(oids), Err)
    }

    pub(crate) fn printer(&self) -> Printer<'_> {
        Printer {
            text: text::Printer {
                output: self.output,
                mibs: self.mibs.as_ref(),
            },
            json: self.json,
        }
    }
}

/// Prints `bindings`, or says the agent's error.
fn finish(agent: &Agent, answer: Result<Vec<VarBind>, ClientError>, tool: Tool) -> ExitCode {
    match answer {
        Ok(bindings) => {
            print_all(agent, &bindings);
            ExitCode::SUCCESS
        }
        Err(e) => agent_error(agent, e, tool),
    }
}

fn print_all(agent: &Agent, bindings: &[VarBind]) {
    let p = agent.printer();
    let mut out = std::io::stdout().lock();
    for vb in bindings {
        let _ = writeln!(out, "{}", p.line(vb));
    }
}

/// Says what the agent's error was, in net-snmp's words as `tool` writes them; exit 2 for an
/// error-status, 1 otherwise.
pub(crate) fn agent_error(agent: &Agent, e: ClientError, tool: Tool) -> ExitCode {
    match e {
        ClientError::ErrorStatus { status, index, oid } => {
            let stop = if tool == Tool::Get { "" } else { "." };
            let mut said = format!("Error in packet{stop}\nReason: {}\n", reason(status));
            match oid {
                Some(oid) => {
                    let name = agent.printer().name(oid.as_oid());
                    said.push_str(&format!("Failed object: {name}\n\n"));
                }
                // An error-index naming no binding of the request (0, or snmpd's answer to a
                // GETBULK, which keeps max-repetitions there): the bulk tools' line, empty.
                None if tool == Tool::Bulk => said.push_str("Failed object: \n"),
                None => {}
            }
            eprint!("{said}");
            return match (tool, index) {
                (Tool::GetNext, 0) => ExitCode::SUCCESS,
                _ => ExitCode::from(2),
            };
        }
        ClientError::Timeout { ref discarded, .. } => {
            let stop = if tool.one_by_one() { "." } else { "" };
            eprintln!("Timeout: No Response from {}{stop}", agent.peer);
            // Why nothing was taken, when something came (a wrong community never does).
            if discarded.total() > 0 {
                eprintln!("{}: {e}", crate::usage::program());
            }
        }
        // snmpwalk's words for an agent that loops.
        ClientError::NotIncreasing { previous, next } => {
            let p = agent.printer();
            let (a, b) = (p.name(previous.as_oid()), p.name(next.as_oid()));
            eprint!("Error: OID not increasing: {a}\n >= {b}\n");
        }
        ClientError::Report(r) => match report_words(&r) {
            Some(words) => eprintln!("{}: {words}", crate::usage::program()),
            None => eprintln!("{}: the agent reports {r}", crate::usage::program()),
        },
        other => eprintln!("{}: {other}", crate::usage::program()),
    }
    ExitCode::FAILURE
}

/// net-snmp's text for an error-status (`snmp_errstring`).
fn reason(status: i64) -> String {
    let known = match status {
        0 => "(noError) No Error",
        1 => "(tooBig) Response message would have been too large.",
        2 => "(noSuchName) There is no such variable name in this MIB.",
        3 => "(badValue) The value given has the wrong type or length.",
        4 => "(readOnly) The two parties used do not have access to use the specified SNMP PDU.",
        5 => "(genError) A general failure occured",
        6 => "noAccess",
        7 => "wrongType (The set datatype does not match the data type the agent expects)",
        8 => "wrongLength (The set value has an illegal length from what the agent expects)",
        9 => "wrongEncoding",
        10 => "wrongValue (The set value is illegal or unsupported in some way)",
        11 => "noCreation (That table does not support row creation or that object can not ever be created)",
        12 => "inconsistentValue (The set value is illegal or unsupported in some way)",
        13 => "resourceUnavailable (This is likely a out-of-memory failure within the agent)",
        14 => "commitFailed",
        15 => "undoFailed",
        16 => "authorizationError (access denied to that object)",
        17 => "notWritable (That object does not support modification)",
        18 => "inconsistentName (That object can not currently be created)",
        _ => return format!("Unknown Error {status}"),
    };
    known.to_string()
}

/// net-snmp's words for a USM Report, where it has them.
fn report_words(r: &snmp_client::Report) -> Option<&'static str> {
    use snmp_client::Report as R;
    Some(match r {
        R::UnknownUserName => "Unknown user name",
        R::WrongDigest => "Authentication failure (incorrect password, community or key)",
        R::DecryptionError => "Decryption error",
        R::UnsupportedSecLevel => "Unsupported security level",
        R::NotInTimeWindow => "Not in time window",
        R::UnknownEngineId => "Unknown engine ID",
        _ => return None,
    })
}

/// Opens the agent, reads `oids` and prints what `request` gets for them. Under `Tool::Get`
/// and `Tool::GetNext`, unless `-Cf` says not to, an error-status that names one of several
/// OIDs is said and the rest asked again (net-snmp's `snmp_fix_pdu`), the exit code 2 however
/// they end.
fn ask(
    opts: &AgentOpts,
    app: &AppOpts,
    oids: &[String],
    tool: Tool,
    request: impl Fn(&mut Session, &[OidBuf]) -> Result<Vec<VarBind>, ClientError>,
) -> ExitCode {
    // snmpget's and snmpgetnext's `-Cf` (do not fix) is snmptable's `-Cf` letter.
    let letters = match tool {
        Tool::Bulk => ask::letters::BULKGET,
        _ => ask::letters::GET,
    };
    let fix = match app.parse(letters) {
        Ok(app) => app.separator.is_none(),
        Err(e) => return crate::usage::refuse_flag(e),
    };
    let mut agent = match Agent::open(opts, oids, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    // snmpbulkget stops at the first OID that does not translate; snmpget and snmpgetnext say
    // each.
    let mut oids = match agent.oids(oids, tool.one_by_one()) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut failed = false;
    // Each turn asks for one OID fewer, so there are at most as many turns as OIDs.
    loop {
        let answer = request(&mut agent.session, &oids);
        let drop = match &answer {
            Err(ClientError::ErrorStatus { index, .. }) if fix && tool.one_by_one() => {
                usize::try_from(*index)
                    .ok()
                    .filter(|&i| i >= 1 && i <= oids.len() && oids.len() > 1)
            }
            _ => None,
        };
        match (drop, answer) {
            (Some(i), Err(e)) => {
                agent_error(&agent, e, tool);
                oids.remove(i - 1);
                failed = true;
            }
            (_, Ok(bindings)) if failed => {
                print_all(&agent, &bindings);
                return ExitCode::from(2);
            }
            (_, answer) => return finish(&agent, answer, tool),
        }
    }
}

/// `get [-Cf] OID...`.
pub fn get(opts: &AgentOpts, app: &AppOpts, oids: &[String]) -> ExitCode {
    ask(opts, app, oids, Tool::Get, |s, oids| s.get(oids))
}

/// `getnext [-Cf] OID...`.
pub fn getnext(opts: &AgentOpts, app: &AppOpts, oids: &[String]) -> ExitCode {
    ask(opts, app, oids, Tool::GetNext, |s, oids| s.get_next(oids))
}

/// `bulkget [-Cn N] [-Cr N] OID...`: the first N OIDs once, the rest N times (net-snmp's
/// defaults: 0 non-repeaters, 10 repetitions).
pub fn bulkget(opts: &AgentOpts, app: &AppOpts, oids: &[String]) -> ExitCode {
    let parsed = match app.parse(ask::letters::BULKGET) {
        Ok(a) => a,
        Err(e) => return crate::usage::refuse_flag(e),
    };
    if opts.version == "1" {
        return bad_arguments("Cannot send V2 PDU on V1 session");
    }
    let (non_repeaters, max_repetitions) = (
        parsed.non_repeaters.unwrap_or(0),
        parsed.max_repetitions.unwrap_or(10),
    );
    // More non-repeaters than OIDs is refused before anything is sent, as snmpbulkget
    // refuses it (an agent would take it as all OIDs non-repeaters, RFC 3416 4.2.3).
    if non_repeaters as usize > oids.len() {
        return bad_arguments("need more objects than <nonrep>");
    }
    ask(opts, app, oids, Tool::Bulk, |s, oids| {
        let answer = s.get_bulk(non_repeaters, max_repetitions, oids)?;
        // A GETBULK may be answered with fewer bindings than asked (RFC 3416 4.2.3), but
        // with none, where some were asked, nothing was answered: said, not printed as
        // nothing.
        let repeaters = oids.len().saturating_sub(non_repeaters as usize);
        let some_asked = oids.len() > repeaters || (repeaters > 0 && max_repetitions > 0);
        match answer.is_empty() && some_asked {
            true => Err(ClientError::BindingCount {
                asked: oids.len(),
                answered: 0,
            }),
            false => Ok(answer),
        }
    })
}

/// `set OID TYPE VALUE...`: the bindings the agent answers with are printed (not under
/// `-Cq`).
pub fn set(opts: &AgentOpts, app: &AppOpts, args: &[String]) -> ExitCode {
    let quiet = match app.parse(ask::letters::SET) {
        Ok(a) => a.quiet,
        Err(e) => return crate::usage::refuse_flag(e),
    };
    if args.is_empty() {
        return bad_arguments("set takes OID TYPE VALUE triples; 0 arguments given");
    }
    let mut agent = match Agent::open(opts, args, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let bindings = match triples(&agent, args, BindingsOf::Set) {
        Ok(b) => b,
        Err(e) => return e.exit(),
    };
    match agent.session.set(&bindings) {
        Ok(_) if quiet => ExitCode::SUCCESS,
        answer => finish(&agent, answer, Tool::Other),
    }
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
    let letters = match bulk {
        true => ask::letters::BULKWALK,
        false => ask::letters::WALK,
    };
    let app = match app.parse(letters) {
        Ok(a) => a,
        Err(e) => return crate::usage::refuse_flag(e),
    };
    if bulk && opts.version == "1" {
        return bad_arguments("Cannot send V2 PDU on V1 session");
    }
    let root_text = root.unwrap_or("1.3.6.1.2.1");
    let walk_with = if bulk {
        WalkWith::GetBulk
    } else {
        WalkWith::GetNext
    };
    let named = [root_text.to_string()];
    let mut agent = match Agent::open_walking(opts, &named, limits, &app, walk_with) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let subtree = match subtree(&agent, root_text) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let p = Printer {
        text: text::Printer {
            output: agent.output,
            mibs: agent.mibs.as_ref(),
        },
        json: agent.json,
    };
    let mut out = std::io::stdout().lock();
    let mut printed = 0usize;
    // `-CT`: each line after the time since the one before (one request a line, by GETNEXT).
    let mut last = std::time::Instant::now();
    let mut print = |out: &mut std::io::StdoutLock, vb: &VarBind| {
        printed += 1;
        if app.request_times {
            let _ = write!(out, "{:.6} s: ", last.elapsed().as_secs_f64());
            last = std::time::Instant::now();
        }
        let _ = writeln!(out, "{}", p.line(vb));
    };
    let root = std::slice::from_ref(subtree.start());
    let started = std::time::Instant::now();
    let mut result = Ok(());
    // The root's own value (-Ci, and below when nothing is under it), as snmpwalk's GET of
    // it: what the agent answers, an exception too, is printed (and counted); an error-status
    // answer (an SNMPv1 agent's noSuchName) prints nothing.
    if app.include_root {
        match agent.session.get(root) {
            Ok(vbs) => vbs.iter().for_each(|vb| print(&mut out, vb)),
            Err(ClientError::ErrorStatus { .. }) => {}
            Err(e) => result = Err(e),
        }
    }
    if result.is_ok() {
        let end = match app.end.as_deref().map(|e| agent.oid(e)).transpose() {
            Ok(end) => end,
            Err(e) => return e.exit(),
        };
        // `-CE END`: from the root to END, past the root's subtree too, as snmpwalk walks.
        let within = match &end {
            Some(end) => subtree.clone().until(end.clone()),
            None => subtree.clone(),
        };
        let mut walk = agent.session.walk_iter(within);
        for vb in walk.by_ref() {
            match vb {
                // `-CE`: nothing at or past END.
                Ok(vb) if end.as_ref().is_some_and(|e| vb.oid.as_oid() >= e.as_oid()) => break,
                Ok(vb) => print(&mut out, &vb),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        // As snmpwalk: the endOfMibView binding inside the subtree is printed (and counted),
        // a v1 agent's noSuchName is "End of MIB".
        match walk.end() {
            Some(WalkEnd::EndOfMibView(vb)) => print(&mut out, vb),
            Some(WalkEnd::NoSuchName) => {
                let _ = writeln!(out, "End of MIB");
            }
            _ => {}
        }
    }
    // Nothing under the root: as snmpwalk does, say what the root itself is (usually
    // "No Such Object available on this agent at this OID").
    if result.is_ok() && printed == 0 && !app.no_root_get {
        match agent.session.get(root) {
            Ok(vbs) => vbs.iter().for_each(|vb| {
                let _ = writeln!(out, "{}", p.line(vb));
            }),
            Err(ClientError::ErrorStatus { .. }) => {}
            Err(e) => result = Err(e),
        }
    }
    if app.print_count {
        let _ = writeln!(out, "Variables found: {printed}");
    }
    drop(out);
    if app.timed {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("Total traversal time = {seconds:.6} seconds");
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => agent_error(&agent, e, if bulk { Tool::Bulk } else { Tool::Other }),
    }
}

/// A walk's root as net-snmp's tools take it: a name or an OID, or a lone first arc (`.1`,
/// `1`: every OID under it, which BER cannot name as an OID of its own).
fn subtree(agent: &Agent, text: &str) -> Result<Subtree, ArgError> {
    let lone_arc = text.strip_prefix('.').unwrap_or(text).parse::<u32>();
    match (lone_root(text), lone_arc) {
        (Some(arc), _) | (None, Ok(arc)) => Subtree::first_arc(arc)
            .ok_or_else(|| format!("`{text}`: the first arc must be 0, 1 or 2").into()),
        _ => agent.oid(text).map(Subtree::from),
    }
}

/// The arc of an OID of one arc, a root of the tree by number or by name (`.1`, `iso`,
/// `joint-iso-ccitt`), which BER cannot write as an OID of its own.
fn lone_root(text: &str) -> Option<u32> {
    let text = text.strip_prefix('.').unwrap_or(text);
    match text {
        "0" => Some(0),
        "1" => Some(1),
        "2" => Some(2),
        name => snmp_smi::names::root_arc(name),
    }
}

/// Bindings as a SET or a notification carries them.
pub(crate) type Bindings = Vec<(OidBuf, snmp_client::Value)>;

/// Whose bindings [`triples`] reads: a SET's or a notification's (net-snmp's tools word a
/// missing type or value differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BindingsOf {
    /// snmpset's.
    Set,
    /// snmptrap's and snmpinform's.
    Notification,
}

/// `OID TYPE VALUE` triples into bindings, each value checked against its object's MIB
/// definition as snmpset checks it ([`setvalue::parse_for`]), unless `-Ir`. A TYPE is its first
/// letter (`string` is `s`), as in net-snmp's tools. snmpset first reads the triples' shape
/// (a missing type or value, an unknown type letter: the first such is the error), then says
/// every OID or value it cannot use, not only the first; snmptrap and snmpinform stop at the
/// first.
pub(crate) fn triples(
    agent: &Agent,
    args: &[String],
    of: BindingsOf,
) -> Result<Bindings, ArgError> {
    if of == BindingsOf::Set {
        args.chunks(3).try_for_each(|t| shape(t, of).map(drop))?;
    }
    let mut bindings = Vec::with_capacity(args.len() / 3);
    // The last refusal, said by the caller; those before it are said here, in order.
    let mut refused: Option<ArgError> = None;
    for t in args.chunks(3) {
        match binding(agent, t, of) {
            Ok(b) => bindings.push(b),
            Err(e @ ArgError::Refused(_)) if of == BindingsOf::Set => {
                if let Some(earlier) = refused.replace(e) {
                    eprintln!("{earlier}");
                }
            }
            Err(e) => return Err(e),
        }
    }
    refused.map_or(Ok(bindings), Err)
}

/// A triple's name, type letter and value text, or net-snmp's words for what is missing.
fn shape(t: &[String], of: BindingsOf) -> Result<(&str, &str, &str), ArgError> {
    let refused = |name: &str, why: &str| ArgError::Refused(format!("{name}: {why}"));
    let name = t.first().map_or("", String::as_str);
    let (letter, text) = match (t, of) {
        ([_, letter, text], _) => (letter, text),
        (_, BindingsOf::Notification) => {
            return Err(refused(name, "Missing type/value for variable"))
        }
        ([_, _], BindingsOf::Set) => return Err(refused(name, "Needs value")),
        (_, BindingsOf::Set) => return Err(refused(name, "Needs type and value")),
    };
    let letter = letter.get(..letter.chars().next().map_or(0, char::len_utf8));
    match letter {
        Some(l) if l == "=" || (!l.is_empty() && setvalue::SET_LETTERS.contains(l)) => {
            Ok((name, l, text))
        }
        _ if of == BindingsOf::Notification => Ok((name, letter.unwrap_or(""), text)),
        _ => Err(refused(
            name,
            &format!("Bad object type: {}", letter.unwrap_or("")),
        )),
    }
}

/// One triple as a binding.
fn binding(
    agent: &Agent,
    t: &[String],
    of: BindingsOf,
) -> Result<(OidBuf, snmp_client::Value), ArgError> {
    let (name, letter, text) = shape(t, of)?;
    let oid = agent.oid(name)?;
    let arcs: Vec<u32> = oid.as_oid().arcs().collect();
    let object = agent.mibs.as_ref().and_then(|m| m.presentation(&arcs));
    // An OID value that does not translate is said under the binding's name.
    let reading = setvalue::Reading {
        check: agent.check_values,
        hints: !agent.output.no_hints,
    };
    let value = setvalue::parse_for(letter, text, object, reading, &|text| {
        agent.oid(text).map_err(|e| {
            let said = e.to_string();
            match said.strip_prefix(text).and_then(|s| s.strip_prefix(": ")) {
                Some(why) => why.to_string(),
                None => said,
            }
        })
    })
    .map_err(|e| ArgError::Refused(format!("{name}: {e}")))?;
    Ok((oid, value))
}

/// The session's transport as net-snmp names it: `UDP: [127.0.0.1]:161->[0.0.0.0]:56089`
/// (over IPv6, `UDP/IPv6: [::1]:161`).
pub(crate) fn transport_of(agent: &Agent) -> String {
    let (local, peer) = agent.session.addresses();
    transport(peer, local, agent.tcp)
}

/// `UDP: [PEER]:PORT->[LOCAL]:PORT`, or `UDP/IPv6: [PEER]:PORT`; over TCP `TCP: [PEER]:PORT->
/// [0.0.0.0]:0` (net-snmp does not say this end of a connection), `TCP/IPv6: [PEER]:PORT`.
fn transport(peer: std::net::SocketAddr, local: Option<std::net::SocketAddr>, tcp: bool) -> String {
    let local = match tcp {
        true => None,
        false => local,
    }
    .unwrap_or_else(|| ([0, 0, 0, 0], 0).into());
    let name = if tcp { "TCP" } else { "UDP" };
    match peer {
        std::net::SocketAddr::V4(_) => format!(
            "{name}: [{}]:{}->[{}]:{}",
            peer.ip(),
            peer.port(),
            local.ip(),
            local.port()
        ),
        std::net::SocketAddr::V6(_) => format!("{name}/IPv6: [{}]:{}", peer.ip(), peer.port()),
    }
}

/// A datagram (or a message over TCP, `tcp`) as net-snmp's `-d` shows it: `Sending 43 bytes
/// to UDP: [127.0.0.1]:161->[0.0.0.0]:56089` (or `Received 50 byte packet from ...`), its
/// octets in hex, a blank line before and after.
pub fn wire_dump(w: &snmp_client::tap::Wire<'_>, tcp: bool) -> String {
    let transport = transport(w.peer, w.local, tcp);
    let n = w.datagram.len();
    let what = match w.direction {
        snmp_client::tap::Direction::Sent => format!("Sending {n} bytes to {transport}"),
        snmp_client::tap::Direction::Received => {
            format!("Received {n} byte packet from {transport}")
        }
    };
    format!("\n{what}\n{}\n", crate::hexdump::net_snmp(w.datagram))
}
