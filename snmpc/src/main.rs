//! `snmpc`: the snmp-codegen command line.
//!
//! `snmpc decode` prints SNMP messages given as hex (arguments, or one per line on standard
//! input) or read from a pcap/pcapng capture: readable text, one JSON object per line
//! (`--json`), or the developer's TLV-by-TLV diagnostic walk (`--trace`). `get`, `getnext`,
//! `bulkget`, `walk`, `bulkwalk`, `set`, `table`, `trap` and `inform` stand in for net-snmp's
//! tools of those names (snmp-client's session, net-snmp's arguments and output); `snmpc mib`
//! and `snmpc translate` read MIB modules.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use snmpc::{agent, ask};

#[derive(Parser)]
// An option given twice is taken as net-snmp's tools take it: the last one wins
// (`snmpwalk $DEFAULTS -t 5 ...` over defaults that say `-t 1`); options that gather, as
// `-O` and `-C`, gather.
#[command(
    name = "snmpc",
    version,
    about = "snmp-codegen's command line",
    args_override_self = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile MIB modules: check, dump.
    Mib {
        #[command(subcommand)]
        command: snmpc::mib_command::MibCommand,
    },
    /// Translate between names and OIDs, like net-snmp's snmptranslate:
    /// `IF-MIB::ifDescr.3` <-> `1.3.6.1.2.1.2.2.1.2.3`.
    Translate {
        #[command(flatten)]
        opts: snmpc::translate::TranslateOpts,
        /// Names (`IF-MIB::ifDescr.3`, `ifDescr`) or OIDs (`1.3.6.1.2.1.1.1.0`).
        inputs: Vec<String>,
    },
    /// GET objects, as snmpget (net-snmp's flags: -v -c -u -l -a -A -x -X -t -r -O -M).
    Get {
        #[command(flatten)]
        agent: ask::AgentOpts,
        /// `-Cf`: an error-status is said, the request not asked again without the OID it names.
        #[command(flatten)]
        app: ask::AppOpts,
        /// OIDs: names (`sysDescr.0`, `IF-MIB::ifDescr.3`) or numbers.
        #[arg(required = true)]
        oids: Vec<String>,
    },
    /// GETNEXT, as snmpgetnext.
    Getnext {
        #[command(flatten)]
        agent: ask::AgentOpts,
        /// `-Cf`, as for `get`.
        #[command(flatten)]
        app: ask::AppOpts,
        /// OIDs: names or numbers.
        #[arg(required = true)]
        oids: Vec<String>,
    },
    /// GETBULK, as snmpbulkget: `-Cn<N>` non-repeaters (0), `-Cr<N>` max-repetitions (10).
    Bulkget {
        #[command(flatten)]
        agent: ask::AgentOpts,
        #[command(flatten)]
        app: ask::AppOpts,
        /// OIDs: names or numbers, the non-repeaters first (none: a request of no bindings,
        /// as snmpbulkget sends it).
        oids: Vec<String>,
    },
    /// Walk a subtree by GETNEXT, as snmpwalk (`-Ci` the root's own value first, `-Cp` the
    /// count at the end).
    Walk {
        #[command(flatten)]
        agent: ask::AgentOpts,
        #[command(flatten)]
        app: ask::AppOpts,
        #[command(flatten)]
        limits: ask::WalkLimits,
        /// The subtree: a name or numbers (default: mib-2, 1.3.6.1.2.1, as snmpwalk's).
        root: Option<String>,
    },
    /// Walk a subtree by GETBULK, as snmpbulkwalk (`-Cr<N>` max-repetitions, 10; GETNEXT
    /// under SNMPv1).
    Bulkwalk {
        #[command(flatten)]
        agent: ask::AgentOpts,
        #[command(flatten)]
        app: ask::AppOpts,
        #[command(flatten)]
        limits: ask::WalkLimits,
        /// The subtree: a name or numbers (default: mib-2, 1.3.6.1.2.1).
        root: Option<String>,
    },
    /// Send a trap, as snmptrap: `-v 1 ... ENTERPRISE AGENT GENERIC SPECIFIC UPTIME
    /// [OID TYPE VALUE]...` or `-v 2c ... UPTIME TRAP-OID [OID TYPE VALUE]...` (empty
    /// arguments: net-snmp's defaults); to port 162 unless the address names another.
    Trap {
        #[command(flatten)]
        agent: ask::AgentOpts,
        /// `-Ci`: an inform instead, acknowledged, as `inform` sends it (snmptrap's `-Ci`).
        #[command(flatten)]
        app: ask::AppOpts,
        /// The trap's header and bindings, as snmptrap takes them.
        #[arg(required = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Send an inform and wait for its acknowledgement, as snmpinform: `-v 2c|3 ... UPTIME
    /// TRAP-OID [OID TYPE VALUE]...`.
    Inform {
        #[command(flatten)]
        agent: ask::AgentOpts,
        /// UPTIME TRAP-OID, then OID TYPE VALUE triples.
        #[arg(required = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Receive notifications, as `snmptrapd -f -Lo`: v1/v2c traps and informs (answered), v3
    /// traps of a user; printed as snmptrapd prints them, or `--json`; `--count N` or
    /// `--for SECONDS` to stop, counters on stderr.
    Listen {
        #[command(flatten)]
        opts: snmpc::listen::ListenOpts,
    },
    /// Simulate agents, as snmpsim: a recorded walk (`snmpwalk -On` / `snmpc walk -On`
    /// output) served on many addresses or ports at once, each with its own engine ID;
    /// GET, GETNEXT, GETBULK over v1, v2c and v3.
    Simulate {
        #[command(flatten)]
        opts: snmpc::simulate::SimulateOpts,
    },
    /// The agent's description, uptime, interfaces and packets, as snmpstatus.
    Status {
        #[command(flatten)]
        agent: ask::AgentOpts,
    },
    /// The agent's storage (hrStorageTable; dskTable under `-Cu`), as snmpdf: `-Ch` in powers
    /// of 1024, `-CH` of 1000.
    Df {
        #[command(flatten)]
        agent: ask::AgentOpts,
        #[command(flatten)]
        app: ask::AppOpts,
    },
    /// A conceptual table, as snmptable: `-Cf SEP` separated fields, `-Ci` an index
    /// column, `-Ch` headers only, `-CH` no headers, `-Cl` left-aligned, `-Cr<N>` GETBULK's
    /// max-repetitions.
    Table {
        #[command(flatten)]
        agent: ask::AgentOpts,
        #[command(flatten)]
        app: ask::AppOpts,
        #[command(flatten)]
        limits: ask::WalkLimits,
        /// The table: a name (`IF-MIB::ifTable`, `ifTable`) or numbers.
        table: String,
    },
    /// SET, as snmpset: `OID TYPE VALUE` triples, TYPE one of net-snmp's letters
    /// (i u c C t a o s x d b n).
    Set {
        #[command(flatten)]
        agent: ask::AgentOpts,
        /// `-Cq`: nothing printed on success, as snmpset -Cq.
        #[command(flatten)]
        app: ask::AppOpts,
        /// OID TYPE VALUE, repeated (TYPE `=`: the object's SYNTAX says).
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true, value_names = ["OID", "TYPE", "VALUE"])]
        triples: Vec<String>,
    },
    /// Decode SNMP messages (v1, v2c, v3) from hex or a capture.
    Decode {
        #[command(flatten)]
        opts: snmpc::decode::DecodeOpts,
    },
    /// Write the man pages of snmpc and of each of its commands (roff: snmpc.1,
    /// snmpc-walk.1, ...) into DIR, for `man -l` or a MANPATH.
    GenerateMan {
        /// The directory to write them in (made if missing).
        dir: PathBuf,
    },
    /// Print the completion script of SHELL: `snmpc completions bash > /etc/bash_completion.d/snmpc`.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
}

/// `snmpc generate-man DIR`: every command's page from the clap definitions.
fn man_pages(dir: &std::path::Path) -> ExitCode {
    let written =
        std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(Cli::command(), dir));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("snmpc: {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let args = config_lines(snmptrapd_options(join_field_separator(
        run_as_named(std::env::args_os().collect()).into_iter(),
    )));
    let as_net_snmp = net_snmp_tool(&args);
    let tool = command_name(&args).map(str::to_string);
    if let Some(t) = &tool {
        snmpc::usage::set_tool(t);
    }
    // `-V`/`--version` after a net-snmp tool's name: the version, whatever else is given.
    if as_net_snmp && args.iter().skip(2).any(|a| a == "-V" || a == "--version") {
        println!(
            "snmpc (snmp-codegen) version: {}",
            env!("CARGO_PKG_VERSION")
        );
        return ExitCode::SUCCESS;
    }
    let parsed = Cli::command()
        .try_get_matches_from(args)
        .and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        // net-snmp's tools exit 1 on a usage error (clap's own exit is 2), and say what is
        // missing in their words.
        Err(e) if as_net_snmp && e.use_stderr() => {
            match tool
                .as_deref()
                .and_then(|t| snmpc::usage::said_as_net_snmp(t, &e))
            {
                Some(text) => eprint!("{text}"),
                None => {
                    let _ = e.print();
                }
            }
            return agent::USAGE;
        }
        Err(e) => e.exit(),
    };
    if !matches!(
        cli.command,
        Command::Listen { .. } | Command::Simulate { .. }
    ) {
        quiet_on_closed_pipe();
    }
    // The agent commands' defaults from snmp.conf, under what the command line gives.
    if let (Some(agent), Some((_, sub))) = (cli.command.agent_opts(), matches.subcommand()) {
        for unread in snmpc::snmpconf::SnmpConf::set_command_line(&agent.config) {
            eprintln!("{}: {unread}", snmpc::usage::program());
        }
        if let Some(tokens) = &agent.debug {
            eprintln!(
                "{}: -D{tokens}: net-snmp's debugging output has no counterpart here (-d dumps every datagram sent and received)",
                snmpc::usage::program()
            );
        }
        let given = |id: &str| sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        snmpc::snmpconf::SnmpConf::read().apply(agent, &given);
    }
    match cli.command {
        Command::Decode { opts } => snmpc::decode::run(opts),
        Command::Get { agent, app, oids } => agent::get(&agent, &app, &oids),
        Command::Getnext { agent, app, oids } => agent::getnext(&agent, &app, &oids),
        Command::Bulkget { agent, app, oids } => agent::bulkget(&agent, &app, &oids),
        Command::Walk {
            agent,
            app,
            limits,
            root,
        } => agent::walk(&agent, &app, &limits, root.as_deref(), false),
        Command::Bulkwalk {
            agent,
            app,
            limits,
            root,
        } => agent::walk(&agent, &app, &limits, root.as_deref(), true),
        Command::Set {
            agent,
            app,
            triples,
        } => agent::set(&agent, &app, &triples),
        Command::Trap { agent, app, args } => snmpc::send::trap(&agent, &app, &args),
        Command::Listen { opts } => snmpc::listen::run(&opts),
        Command::Simulate { opts } => snmpc::simulate::run(&opts),
        Command::GenerateMan { dir } => man_pages(&dir),
        Command::Completions { shell } => {
            let mut out = std::io::stdout();
            clap_complete::generate(shell, &mut Cli::command(), "snmpc", &mut out);
            ExitCode::SUCCESS
        }
        Command::Inform { agent, args } => snmpc::send::inform(&agent, &args),
        Command::Table {
            agent,
            app,
            limits,
            table,
        } => snmpc::table::table(&agent, &app, &limits, &table),
        Command::Status { agent } => snmpc::status::status(&agent),
        Command::Df { agent, app } => snmpc::status::df(&agent, &app),
        Command::Mib { command } => snmpc::mib_command::run(command),
        Command::Translate { opts, inputs } => snmpc::translate::run(opts, inputs),
    }
}

impl Command {
    /// The agent options of the commands that ask an agent or send to one.
    fn agent_opts(&mut self) -> Option<&mut ask::AgentOpts> {
        match self {
            Command::Get { agent, .. }
            | Command::Getnext { agent, .. }
            | Command::Bulkget { agent, .. }
            | Command::Walk { agent, .. }
            | Command::Bulkwalk { agent, .. }
            | Command::Trap { agent, .. }
            | Command::Inform { agent, .. }
            | Command::Table { agent, .. }
            | Command::Status { agent }
            | Command::Df { agent, .. }
            | Command::Set { agent, .. } => Some(agent),
            _ => None,
        }
    }
}

/// Configuration lines on the command line, `--TOKEN=VALUE` for a TOKEN that is none of the
/// command's long options: snmptrapd's for `listen` (`--disableAuthorization=yes` becomes
/// `--config-line "disableAuthorization yes"`), snmp.conf's for the commands that ask an
/// agent (`--defVersion=2c` becomes `-Y "defVersion 2c"`).
fn config_lines(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let command = Cli::command();
    let Some(sub) = command_name(&args).and_then(|c| command.find_subcommand(c)) else {
        return args;
    };
    let longs: Vec<&str> = sub.get_arguments().filter_map(|a| a.get_long()).collect();
    let line_flag = if longs.contains(&"config-line") {
        "--config-line"
    } else if sub.get_arguments().any(|a| a.get_short() == Some('Y')) {
        "-Y"
    } else {
        return args;
    };
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        let token = a
            .to_str()
            .and_then(|t| t.strip_prefix("--"))
            .and_then(|t| t.split_once('='))
            .filter(|(name, _)| !longs.contains(name));
        match token {
            Some((name, value)) => {
                out.push(line_flag.into());
                out.push(format!("{name} {value}").into());
            }
            None => out.push(a),
        }
    }
    out
}

/// net-snmp's tools snmpc answers for when it runs under their names: `snmpget ARGS`
/// through a link named `snmpget` is `snmpc get ARGS` (and `snmptrapd ARGS` is `snmpc listen
/// --snmptrapd ARGS`, its options read as snmptrapd's: [`snmpc::trapd_cli`]).
const LINKED_TOOLS: [&str; 12] = [
    "get",
    "getnext",
    "bulkget",
    "walk",
    "bulkwalk",
    "set",
    "table",
    "status",
    "df",
    "trap",
    "inform",
    "translate",
];

/// `args` with the command a link's name says put after the program (`snmpwalk -v2c ...`
/// run through a link named `snmpwalk` reads as `snmpc walk -v2c ...`).
fn run_as_named(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let name = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .and_then(|n| n.to_str())
        .map(str::to_string);
    let linked = name.as_deref().and_then(|n| {
        let command = n.strip_prefix("snmp")?;
        LINKED_TOOLS.contains(&command).then_some((n, command))
    });
    if let Some((name, command)) = linked {
        snmpc::usage::set_program(name);
        args.insert(1, command.into());
    } else if name.as_deref() == Some("snmptrapd") {
        snmpc::usage::set_program("snmptrapd");
        args.splice(1..1, ["listen".into(), "--snmptrapd".into()]);
    }
    args
}

/// Run as snmptrapd ([`run_as_named`]): its options as `listen` takes them, what is set aside
/// said on stderr.
fn snmptrapd_options(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(2).is_none_or(|a| a != "--snmptrapd") {
        return args;
    }
    let (args, said) = snmpc::trapd_cli::as_listen(args);
    for why in said {
        eprintln!("snmptrapd: {why}");
    }
    args
}

/// Whether the command stands in for one of net-snmp's tools (its usage errors exit 1, as
/// theirs do), not one of snmpc's own (`decode`, `mib`, `simulate`).
fn net_snmp_tool(args: &[std::ffi::OsString]) -> bool {
    command_name(args).is_some_and(|c| LINKED_TOOLS.contains(&c) || c == "listen")
}

/// The command `args` name (`get`, `walk`, ...): the first argument after the program's
/// name that is not an option.
fn command_name(args: &[std::ffi::OsString]) -> Option<&str> {
    args.iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))
        .and_then(|c| c.to_str())
}

/// As net-snmp's tools: output into a pipe its reader has closed (`snmpc walk ... | head`)
/// ends the process quietly, by SIGPIPE, instead of a panic in `println!`. Not for the
/// servers (`listen`, `simulate`), which write to handlers' pipes and carry on when one
/// closes.
fn quiet_on_closed_pipe() {
    // SAFETY: setting a signal's disposition to SIG_DFL installs no handler and touches no
    // memory; it is done before this process starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// net-snmp's options that take the next argument as theirs (snmptable's `-Cf SEP`,
/// `-Cw WIDTH`, `-Cc WIDTH` and `-Cr N`, snmpwalk's `-CE END`, the logging options `-Lf FILE` and `-Ls FACILITY`):
/// joined with it (`-CfSEP`, `-LfFILE`) for the parser. Only for the commands whose option it
/// is: snmpget's `-Cf` (do not fix) stands alone.
fn join_field_separator(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let args: Vec<std::ffi::OsString> = args.collect();
    let command = args
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'));
    let own: &[&str] = match command.and_then(|c| c.to_str()) {
        Some("table") => &["-Cf", "-Cw", "-Cc", "-Cr"],
        Some("walk" | "bulkwalk") => &["-CE"],
        _ => &[],
    };
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    let mut args = args.into_iter();
    while let Some(mut a) = args.next() {
        let more = match a.to_str() {
            Some(t) if own.contains(&t) => 1,
            Some(t) => arguments_taken(t),
            None => 0,
        };
        for next in args.by_ref().take(more) {
            a.push(next);
        }
        out.push(a);
    }
    out
}

/// How many of the arguments after `option` net-snmp's `-L` and `-I` take as theirs: `-Lf
/// FILE`, `-Ls FACILITY`, `-Is SUFFIX`, `-IS PREFIX`; `-LE`, `-LO` and `-LN` a priority (or
/// a range, `2-5`); `-LF` and `-LS` a priority and a file or facility, or only the latter
/// when the priority is written with them (`-LF3 FILE`).
fn arguments_taken(option: &str) -> usize {
    match option {
        "-Lf" | "-Ls" | "-Is" | "-IS" | "-LE" | "-LO" | "-LN" => 1,
        "-LF" | "-LS" => 2,
        o if o.len() > 3 && (o.starts_with("-LF") || o.starts_with("-LS")) => 1,
        _ => 0,
    }
}
