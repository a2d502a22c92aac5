//! `snmpc listen`, like `snmptrapd -f -Lo`: notifications received on a UDP address, printed
//! one after another as snmptrapd prints them (the bindings with names, as `get` prints them),
//! or one JSON object a line; informs acknowledged; what is dropped counted by reason and the
//! counters said on stderr at the end (after `--count` notifications or `--for` seconds).

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use snmp_client::listen::{Listener, Notification, Receiver};
use snmp_client::UsmUser;

use crate::host::{HostNames, LocalTime};
use crate::print::{text, Output, Printer};
use crate::trapd_conf::TrapdConf;
use crate::trapfmt::{Fields, TrapFormat};
use crate::traphandle::Handlers;
use snmp_smi::mib::Syntaxes;
use snmp_smi::names::Mibs;

/// `snmpc listen`'s options.
#[derive(Debug, Clone, clap::Args)]
pub struct ListenOpts {
    /// The address to listen on, as snmptrapd takes it: `[udp:|udp6:]HOST[:PORT]` or a port
    /// alone (every interface; port 162 when none is named).
    #[arg(default_value = "0.0.0.0:162")]
    pub address: String,
    /// A community to accept (repeat for more; none: any), or, as snmptrapd's `-c`, an
    /// snmptrapd.conf to read (a file of that name there).
    #[arg(short = 'c', long)]
    pub community: Vec<String>,
    /// snmptrapd's `-f` (stay in the foreground) and `-C` (no default configuration): what
    /// this always does.
    #[arg(short = 'f', hide = true)]
    pub foreground: bool,
    #[arg(short = 'C', hide = true)]
    pub no_default_config: bool,
    /// Run as `snmptrapd` (snmpc through a link of that name, [`crate::trapd_cli`]): the
    /// snmptrapd.conf files of net-snmp's configuration path read unless `-C` is given, and,
    /// as snmptrapd, no configuration at all takes no SNMPv1/SNMPv2c notification.
    #[arg(long = "snmptrapd", hide = true)]
    pub snmptrapd: bool,
    /// snmptrapd's `-a`: SNMPv1 authenticationFailure traps (generic trap 4) received,
    /// counted, and not logged (as there, SNMPv2's authenticationFailure is logged).
    #[arg(long = "ignore-auth-failure", hide = true)]
    pub ignore_auth_failure: bool,
    /// snmptrapd's `-n`, as net-snmp 5.9's snmptrapd prints under it: an SNMPv2c/v3 sender
    /// by its transport address rather than its name; an SNMPv1 trap's agent-addr by its name.
    #[arg(short = 'n')]
    pub numeric: bool,
    /// Where notifications are logged, as snmptrapd's `-L`: `o` stdout (the default), `e`
    /// stderr, `f FILE` appended to FILE.
    #[arg(short = 'L', value_name = "FLAGS", action = clap::ArgAction::Append)]
    pub log: Vec<String>,
    /// The SNMPv3 user to accept notifications from (more in `--config`).
    #[command(flatten)]
    pub user: crate::ask::UserOpts,
    /// This receiver's engine ID (hex, `0x` allowed), authoritative for the v3 informs sent to
    /// it: discovery is answered, informs acknowledged (snmpinform's `-e` need not be given).
    /// Its boots are kept across runs as for `trap -e` (`$SNMP_PERSISTENT_DIR`).
    #[arg(short = 'e', long = "engine-id", value_name = "HEX")]
    pub engine_id: Option<String>,
    /// An snmptrapd.conf whose `authCommunity`, `disableAuthorization` and `createUser [-e
    /// ENGINEID]` lines say whose notifications to take (other directives are reported and
    /// left aside). As snmptrapd, a configuration with neither `authCommunity` nor
    /// `disableAuthorization yes` (and no `-c COMMUNITY`) takes no SNMPv1/SNMPv2c notification,
    /// and says so; with no configuration at all, any community is taken.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// One JSON object a notification, a line each.
    #[arg(long)]
    pub json: bool,
    /// Stop after this many notifications.
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long = "for", value_name = "SECONDS")]
    pub seconds: Option<f64>,
    /// How each notification is printed, as snmptrapd's `-F`: text with `%` conversions
    /// (`%B` the sender, `%v` the bindings, ...; see snmptrapd(8)), for every version.
    #[arg(short = 'F', long = "format", value_name = "FORMAT")]
    pub format: Option<String>,
    /// `-M`, `-m`, `-O`, as for `get`.
    #[command(flatten)]
    pub mibs: crate::miblist::MibOptions,
    /// A line of snmptrapd.conf given on the command line (snmptrapd's
    /// `--disableAuthorization=yes`, `--authCommunity="log public"`: any `--TOKEN=VALUE` that
    /// is not one of these options is taken as `TOKEN VALUE`), after the files'.
    #[arg(long = "config-line", value_name = "LINE")]
    pub config_lines: Vec<String>,
    /// Write this process's ID to FILE once listening (snmptrapd's `-p`).
    #[arg(short = 'p', value_name = "FILE")]
    pub pid_file: Option<std::path::PathBuf>,
}

/// Where `-L` logs notifications: stdout (`o`, the default), stderr (`e`), or appended to a
/// file (`f FILE`).
fn log_to(flags: &[String]) -> Result<Box<dyn Write>, String> {
    let Some(last) = flags.last() else {
        return Ok(Box::new(std::io::stdout()));
    };
    match last.split_at(last.len().min(1)) {
        ("o", _) => Ok(Box::new(std::io::stdout())),
        ("e", _) => Ok(Box::new(std::io::stderr())),
        ("f", file) if !file.is_empty() => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .map(|f| Box::new(f) as Box<dyn Write>)
            .map_err(|e| format!("-Lf {file}: {e}")),
        _ => Err(format!("-L{last}: not supported (o, e, f FILE are)")),
    }
}

/// snmptrapd's words for the generic traps.
const GENERIC: [&str; 7] = [
    "Cold Start",
    "Warm Start",
    "Link Down",
    "Link Up",
    "Authentication Failure",
    "EGP Neighbor Loss",
    "Enterprise Specific",
];

/// What snmptrapd's output needs besides the notification.
pub struct Arrival<'h> {
    /// Now.
    pub now: LocalTime,
    /// snmptrapd's `-n`.
    pub numeric: bool,
    /// Names of addresses, looked up once each.
    pub names: &'h mut HostNames,
    /// The address the socket is bound to (for a notification whose destination is unknown).
    pub local: SocketAddr,
}

/// How net-snmp names the UDP exchange: `UDP: [127.0.0.1]:41138->[127.0.0.1]:162`; over IPv6
/// the source alone, `UDP/IPv6: [::1]:51651`.
fn transport(from: SocketAddr, to: SocketAddr) -> String {
    match from {
        SocketAddr::V4(_) => format!(
            "UDP: [{}]:{}->[{}]:{}",
            from.ip(),
            from.port(),
            to.ip(),
            to.port()
        ),
        SocketAddr::V6(_) => format!("UDP/IPv6: [{}]:{}", from.ip(), from.port()),
    }
}

/// What each of snmptrapd's `%` conversions prints for `n`, as net-snmp 5.9 has them: the
/// sender's name (`%B`) or `<UNKNOWN>` (always over IPv6, whose senders snmptrapd does not
/// look up), and under `-n` the transport; an SNMPv1 agent-addr (`%A`) as a number, and under
/// `-n` by its name when it has one (snmptrapd's way, kept); for SNMPv2 notifications the
/// SNMPv1 fields as snmptrapd leaves them (`0.0.0.0`, `.`, 0, `Cold Start`).
fn fields<'a>(n: &Notification, at: &mut Arrival<'_>, p: &Printer<'_>) -> Fields<'a> {
    let transport = transport(n.source, n.destination.unwrap_or(at.local));
    let host = match (at.numeric, n.source.ip()) {
        (true, _) => transport.clone(),
        (false, ip @ IpAddr::V4(_)) => at.names.name(ip).unwrap_or("<UNKNOWN>").to_string(),
        (false, IpAddr::V6(_)) => "<UNKNOWN>".to_string(),
    };
    let who = String::from_utf8_lossy(&n.security_name);
    let security = match (n.version, n.inform) {
        ("1", _) => format!("TRAP, SNMP v1, community {who}"),
        ("3", inform) => format!(
            "{}, SNMP v3, user {who}, context {}",
            if inform { "INFORM" } else { "TRAP2" },
            String::from_utf8_lossy(&n.context)
        ),
        (version, inform) => format!(
            "{}, SNMP v{version}, community {who}",
            if inform { "INFORM" } else { "TRAP2" }
        ),
    };
    let (agent, enterprise, generic, specific, ticks) = match &n.v1 {
        Some(h) => (
            std::net::Ipv4Addr::from(h.agent_addr),
            p.name(h.enterprise.as_oid()),
            h.generic,
            match h.generic {
                6 => format!(".{}", h.specific),
                _ => h.specific.to_string(),
            },
            h.uptime,
        ),
        None => (
            std::net::Ipv4Addr::UNSPECIFIED,
            ".".into(),
            0,
            "0".into(),
            0,
        ),
    };
    let agent_name = match (at.numeric, &n.v1) {
        (true, Some(_)) => at.names.name(agent.into()).map(str::to_string),
        _ => None,
    }
    .unwrap_or_else(|| agent.to_string());
    // `Timeticks: (12345) 0:02:03.45`: the clock alone.
    let printed = p.value(&snmp_client::Value::TimeTicks(ticks), None);
    let clock = printed
        .rsplit_once(") ")
        .map_or(printed.as_str(), |(_, c)| c);
    Fields {
        agent: agent.to_string(),
        agent_name,
        transport,
        host,
        enterprise,
        generic,
        generic_words: usize::try_from(generic)
            .ok()
            .and_then(|g| GENERIC.get(g))
            .copied()
            .unwrap_or("Unknown"),
        specific,
        security,
        ticks,
        clock: clock.to_string(),
        bindings: n.bindings.iter().map(|vb| p.line(vb)).collect(),
        now: at.now,
    }
}

/// snmptrapd's own format for SNMPv2c/v3 notifications.
const V2_DEFAULT: &str = "%.4y-%.2m-%.2l %.2h:%.2j:%.2k %B [%b]:\\n%v\\n";

/// One notification as snmptrapd (net-snmp 5.9) logs it: in the format `-F` or snmptrapd.conf
/// gives for its version, else snmptrapd's own: SNMPv2c/v3 `TIME HOST [TRANSPORT]:` then the
/// bindings tab-separated; SNMPv1 `TIME AGENT [AGENT-ADDR] (via TRANSPORT) TRAP, SNMP v1,
/// community C`, a line for the trap, and one for the bindings, each after a tab.
fn text(n: &Notification, f: &Fields<'_>, formats: &Formats) -> String {
    let format = match n.v1 {
        Some(_) => formats.0.as_ref(),
        None => formats.1.as_ref(),
    };
    if let Some(format) = format {
        return format.render(f);
    }
    if n.v1.is_none() {
        return TrapFormat::parse(V2_DEFAULT).render(f);
    }
    let specific = f.specific.trim_start_matches('.');
    let mut out = format!(
        "{} {} [{}] (via {}) {}\n\t{} {} Trap ({specific}) Uptime: {}\n",
        f.now,
        f.agent_name,
        f.agent,
        f.transport,
        f.security,
        f.enterprise,
        f.generic_words,
        f.clock
    );
    for line in &f.bindings {
        out.push('\t');
        out.push_str(line);
    }
    out.push('\n');
    out
}

/// One notification as a JSON object.
fn json(n: &Notification, p: &Printer<'_>) -> serde_json::Value {
    serde_json::json!({
        "source": n.source.to_string(),
        "destination": n.destination.map(|d| d.to_string()),
        "version": n.version,
        "security_name": String::from_utf8_lossy(&n.security_name),
        "pdu": if n.inform { "inform" } else { "trap" },
        "trap_oid": n.trap_oid.as_ref().map(|o| o.to_string()),
        "trap_name": n.trap_oid.as_ref().map(|o| p.name(o.as_oid())),
        "uptime": n.uptime,
        "varbinds": n.bindings.iter().map(|vb| p.json_value(vb)).collect::<Vec<_>>(),
    })
}

/// The output formats `opts` give: (SNMPv1, SNMPv2c/v3).
pub type Formats = (Option<TrapFormat>, Option<TrapFormat>);

/// What a listener is set up with besides its users: how it prints, and the `traphandle`
/// lines of its configurations (OID as written or `None` for `default`, command).
pub struct Setup {
    pub formats: Formats,
    pub handlers: Vec<(Option<String>, String)>,
    /// Whose notifications the handlers run for (`None`: everyone's).
    pub executors: Option<Vec<Vec<u8>>>,
}

/// The listener `opts` ask for: communities and users from the command line and `--config`
/// (its warnings said on stderr), with an engine of its own under `-e`.
pub fn listener(opts: &ListenOpts) -> Result<Listener, String> {
    setup(opts).map(|(listener, _)| listener)
}

/// [`listener`], the formats of `-F` (for both versions) or of the configurations'
/// `format1`/`format2`, and their `traphandle` lines.
pub fn setup(opts: &ListenOpts) -> Result<(Listener, Setup), String> {
    // snmptrapd's `-c FILE`: a configuration, when a file has that name.
    let (files, names): (Vec<&String>, Vec<&String>) = opts
        .community
        .iter()
        .partition(|c| std::path::Path::new(c).is_file());
    let mut communities: Vec<Vec<u8>> = names.iter().map(|c| c.as_bytes().to_vec()).collect();
    let mut users: Vec<UsmUser> = opts.user.user()?.into_iter().collect();
    let mut bound = Vec::new();
    let (mut format1, mut format2) = (None, None);
    let mut handlers = Vec::new();
    let (mut executors, mut everyone) = (Vec::new(), false);
    // Run as snmptrapd: the snmptrapd.conf files of net-snmp's path first, unless -C.
    let defaults = match opts.snmptrapd && !opts.no_default_config {
        true => default_configs(),
        false => Vec::new(),
    };
    let paths = defaults
        .iter()
        .map(|c| c.as_path())
        .chain(opts.config.iter().map(|c| c.as_path()))
        .chain(files.iter().map(|f| std::path::Path::new(f.as_str())));
    let paths: Vec<&std::path::Path> = paths.collect();
    let mut configs_read: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let mut configs: Vec<TrapdConf> = paths
        .into_iter()
        .map(TrapdConf::read)
        .collect::<Result<_, _>>()?;
    if !opts.config_lines.is_empty() {
        configs_read.push("the command line".into());
        configs.push(TrapdConf::parse(
            &opts.config_lines.join("\n"),
            "the command line",
        )?);
    }
    for conf in configs {
        for w in &conf.warnings {
            eprintln!("snmpc: warning: {w}");
        }
        if !conf.any_community {
            communities.extend(conf.communities.iter().map(|c| c.as_bytes().to_vec()));
        }
        for (user, engine) in conf.users {
            match engine {
                Some(id) => bound.push((user, id)),
                None => users.push(user),
            }
        }
        format1 = conf.format1.or(format1);
        format2 = conf.format2.or(format2);
        handlers.extend(conf.handlers);
        everyone |= conf.any_community;
        executors.extend(conf.executors.into_iter().map(String::into_bytes));
    }
    if let Some(f) = &opts.format {
        (format1, format2) = (Some(f.clone()), Some(f.clone()));
    }
    let formats = (
        format1.as_deref().map(TrapFormat::parse),
        format2.as_deref().map(TrapFormat::parse),
    );
    // As snmptrapd: a configuration read that authorizes no community takes none (its
    // "No access configuration - dropping trap."); with no configuration at all, any (none
    // when run as snmptrapd, as snmptrapd takes none).
    let configured = !configs_read.is_empty() || opts.snmptrapd;
    let unauthorized = configured && communities.is_empty() && !everyone;
    let mut listener = Listener::new(communities, users);
    if unauthorized {
        match configs_read.is_empty() {
            true => eprintln!(
                "snmpc: warning: no snmptrapd.conf read (none found, or -C): SNMPv1 and SNMPv2c notifications are dropped, as snmptrapd drops them without an `authCommunity` or `disableAuthorization yes` line"
            ),
            false => eprintln!(
                "snmpc: warning: no access control information configured in {}: no `authCommunity` or `disableAuthorization yes` line, so SNMPv1 and SNMPv2c notifications are dropped, as snmptrapd drops them",
                configs_read.join(", ")
            ),
        }
        listener = listener.taking_no_communities();
    }
    for (user, id) in bound {
        listener = listener.with_user_of_engine(user, &id);
    }
    if let Some(id) = crate::ask::hex_octets(opts.engine_id.as_deref())? {
        let boots = crate::ask::local_engine_boots(&id);
        listener = listener.with_engine(&id, boots, Instant::now());
    }
    let executors = (!everyone).then_some(executors);
    Ok((
        listener,
        Setup {
            formats,
            handlers,
            executors,
        },
    ))
}

/// The snmptrapd.conf files snmptrapd reads by default, those there are: `snmptrapd.conf`
/// then `snmptrapd.local.conf` in each directory of net-snmp's configuration path.
fn default_configs() -> Vec<std::path::PathBuf> {
    crate::snmpconf::conf_dirs()
        .into_iter()
        .flat_map(|d| ["snmptrapd.conf", "snmptrapd.local.conf"].map(|n| d.join(n)))
        .filter(|p| p.is_file())
        .collect()
}

/// Whether `n` is an SNMPv1 authenticationFailure trap (snmptrapd's `-a` ignores those, and
/// only those: an SNMPv2 notification's snmpTrapOID is not looked at).
fn auth_failure(n: &Notification) -> bool {
    n.v1.as_ref().is_some_and(|v1| v1.generic == 4)
}

/// The counters on exit: `N datagrams: N notifications, N dropped (N why, ...)`.
fn summary(listener: &Listener) -> String {
    let (received, notifications, dropped) = listener.counters();
    let reasons: Vec<String> = dropped
        .iter()
        .map(|(why, n)| format!("{n} {}", why.name()))
        .collect();
    let discoveries = match listener.discoveries() {
        0 => String::new(),
        n => format!(", {n} discovery requests answered"),
    };
    format!(
        "{received} datagrams: {notifications} notifications{discoveries}, {} dropped{}",
        dropped.values().sum::<u64>(),
        if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join(", "))
        }
    )
}

/// What becomes of each notification: printed (in JSON, a format or snmptrapd's), handed to
/// its `traphandle` commands.
struct Sink<'a> {
    printer: Printer<'a>,
    formats: Formats,
    handlers: Handlers,
    names: HostNames,
    local: SocketAddr,
    opts: &'a ListenOpts,
}

impl Sink<'_> {
    /// `n` printed (the text returned) and handed to its handlers.
    fn take(&mut self, n: &Notification) -> String {
        if self.opts.json && self.handlers.is_empty() {
            return format!("{}\n", json(n, &self.printer));
        }
        let mut arrival = Arrival {
            now: LocalTime::now(),
            numeric: self.opts.numeric,
            names: &mut self.names,
            local: self.local,
        };
        let f = fields(n, &mut arrival, &self.printer);
        if !self.handlers.is_empty() {
            let input = crate::traphandle::input(n, &f.host, &f.transport, &self.printer);
            self.handlers.run(n, &input);
        }
        match self.opts.json {
            true => format!("{}\n", json(n, &self.printer)),
            false => text(n, &f, &self.formats),
        }
    }
}

/// Runs `snmpc listen`.
pub fn run(opts: &ListenOpts) -> ExitCode {
    let bad = |e: String| {
        eprintln!("snmpc: {e}");
        ExitCode::from(2)
    };
    // snmptrapd prints each binding's name whatever -Ov says.
    let output = match Output::parse(&opts.mibs.output.concat()) {
        Ok(o) => Output {
            value_only: false,
            ..o
        },
        Err(e) => return bad(e),
    };
    let (
        listener,
        Setup {
            formats,
            handlers,
            executors,
        },
    ) = match setup(opts) {
        Ok(l) => l,
        Err(e) => return bad(e),
    };
    let choice = opts.mibs.choice();
    let mibs = match Mibs::load_chosen_keeping(&choice, &[], &Default::default(), Syntaxes::Heads) {
        Ok(m) => m,
        Err(e) => return bad(e.to_string()),
    };
    if let Some(said) = mibs.load_problems(&choice.modules()) {
        eprintln!("{said}");
    }
    let address = match crate::ask::listen_address(&opts.address) {
        Ok(a) => a,
        Err(e) => return bad(e),
    };
    // Watched before the port is bound: once it is, a signal ends the command with its
    // counters, never kills it.
    let stop = crate::stop::on_signals();
    let mut rx = match Receiver::bind(address, listener) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("snmpc: {}: {e}", opts.address);
            return ExitCode::FAILURE;
        }
    };
    if let Some(file) = &opts.pid_file {
        if let Err(e) = std::fs::write(file, format!("{}\n", std::process::id())) {
            return bad(format!("{}: {e}", file.display()));
        }
    }
    let printer = Printer {
        text: text::Printer {
            output,
            mibs: Some(&mibs),
        },
        json: false,
    };
    let until = opts
        .seconds
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(|s| Instant::now() + Duration::from_secs_f64(s.min(1e9)));
    let mut stdout = match log_to(&opts.log) {
        Ok(w) => w,
        Err(e) => return bad(e),
    };
    let local = match rx.local_addr() {
        Ok(a) => a,
        Err(e) => return bad(e.to_string()),
    };
    let resolve = |w: &str| -> Result<Vec<u32>, String> {
        let dotted = w.trim_start_matches('.');
        match dotted
            .split('.')
            .map(str::parse)
            .collect::<Result<Vec<u32>, _>>()
        {
            Ok(arcs) if !arcs.is_empty() => Ok(arcs),
            _ => mibs.name_to_oid(w).map_err(|e| e.say(w)),
        }
    };
    let handlers = match Handlers::new(&handlers, executors, &resolve) {
        Ok(h) => h,
        Err(e) => return bad(e),
    };
    let mut sink = Sink {
        printer,
        formats,
        handlers,
        names: HostNames::default(),
        local,
        opts,
    };
    let (mut taken, mut ignored) = (0u64, 0u64);
    let mut code = ExitCode::SUCCESS;
    while opts.count.is_none_or(|c| taken < c) && !crate::stop::asked(&stop) {
        // Waits of at most 200 ms: a signal is looked at between them.
        let now = Instant::now();
        let step = now + Duration::from_millis(200);
        let wait = until.map_or(step, |u| u.min(step));
        let notification = match rx.recv_until(Some(wait)) {
            Ok(Some(n)) => n,
            Ok(None) if until.is_some_and(|u| Instant::now() >= u) => break,
            Ok(None) => continue,
            Err(e) => {
                eprintln!("snmpc: {e}");
                code = ExitCode::FAILURE;
                break;
            }
        };
        taken += 1;
        if opts.ignore_auth_failure && auth_failure(&notification) {
            ignored += 1;
            continue;
        }
        let _ = stdout.write_all(sink.take(&notification).as_bytes());
        let _ = stdout.flush();
    }
    match ignored {
        0 => eprintln!("{}", summary(rx.listener())),
        n => eprintln!(
            "{}; {n} SNMPv1 authenticationFailure traps not logged (-a)",
            summary(rx.listener())
        ),
    }
    for why in mibs.set.syntaxes_unread() {
        eprintln!("snmpc: {why}");
    }
    code
}
