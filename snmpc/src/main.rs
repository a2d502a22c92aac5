//! `snmpc`: the snmp-codegen command line.
//!
//! `snmpc decode` prints SNMP messages given as hex (arguments, or one per line on standard
//! input) or read from a pcap/pcapng capture: readable text, one JSON object per line
//! (`--json`), or the developer's TLV-by-TLV diagnostic walk (`--trace`). `get`, `getnext`,
//! `bulkget`, `walk`, `bulkwalk`, `set`, `table`, `trap` and `inform` stand in for net-snmp's
//! tools of those names (snmp-client's session, net-snmp's arguments and output); `snmpc mib`
//! and `snmpc translate` read MIB modules.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use snmpc::{agent, ask, capture, hexdump, mibs, print, trace, view};

#[derive(Parser)]
#[command(name = "snmpc", version, about = "snmp-codegen's command line")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where MIB modules are looked for, and how strictly they are read.
#[derive(Args)]
struct MibOpts {
    /// A directory of MIB modules (any file names: modules are found by the name inside);
    /// repeat, or separate with `:`.
    #[arg(
        long = "mib-dir",
        short = 'M',
        value_name = "DIR",
        required = true,
        allow_hyphen_values = true
    )]
    mib_dir: Vec<PathBuf>,
    /// Make these relaxations errors (`all`, or names such as `missing-import`).
    #[arg(long, value_name = "RELAXATION")]
    strict: Vec<String>,
}

impl MibOpts {
    fn dirs(&self) -> Vec<PathBuf> {
        mibs::split_dirs(self.mib_dir.iter().map(|d| d.as_os_str()))
    }
}

/// Where `translate` looks for modules, and which it reads: as snmptranslate, the modules
/// of its MIB list and of `MODULE::name` inputs, with what they import (see
/// [`snmpc::miblist`]).
#[derive(Args)]
struct TranslateOpts {
    /// The MIB path, as snmptranslate's `-M` (`+DIR`, `-DIR`: after, before the default one).
    #[arg(
        long = "mib-dir",
        short = 'M',
        value_name = "DIR",
        allow_hyphen_values = true
    )]
    mib_dir: Vec<PathBuf>,
    /// Modules to read, `:`-separated (`ALL`: every one on the path), as snmptranslate's `-m`:
    /// else `MIBS`, snmp.conf's `mibs`, net-snmp's default list.
    #[arg(short = 'm', value_name = "MODULES", allow_hyphen_values = true)]
    modules: Option<String>,
    /// Make these relaxations errors (`all`, or names such as `missing-import`).
    #[arg(long, value_name = "RELAXATION")]
    strict: Vec<String>,
    /// How the output is named, as snmptranslate's `-O`: `S` `MODULE::name` (the default),
    /// `n` numbers (`.1.3.6.1.2.1.1.1.0`), `s` the name alone, `f` the full path of names.
    #[arg(short = 'O', value_name = "FLAGS", action = clap::ArgAction::Append)]
    output: Vec<String>,
    /// Input options, as snmptranslate's `-I`: `R` (a bare name looked up in every module)
    /// and `b`, `u`, `s`, `r`, `h` are accepted; names are always looked up as `R` does.
    #[arg(short = 'I', value_name = "FLAGS", action = clap::ArgAction::Append)]
    input: Vec<String>,
    /// Reports, as snmptranslate's `-T`: `d` each input's definition after its name, `p` the
    /// tree below each input (or the whole tree), `o`, `s`, `l`, `z` every node.
    #[arg(short = 'T', value_name = "FLAGS", action = clap::ArgAction::Append)]
    report: Vec<String>,
}

#[derive(Subcommand)]
enum MibCommand {
    /// Compile modules and print OK, warnings or errors for each, and a summary.
    Check {
        #[command(flatten)]
        opts: MibOpts,
        /// Modules to check (with what they import).
        modules: Vec<String>,
        /// Every module on the search path.
        #[arg(long, conflicts_with = "modules")]
        all: bool,
        /// Print every warning too.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Print every node: module, name, OID, kind, syntax (base type).
    Dump {
        #[command(flatten)]
        opts: MibOpts,
        /// Modules to dump (with what they import).
        modules: Vec<String>,
        /// Every module on the search path.
        #[arg(long, conflicts_with = "modules")]
        all: bool,
        /// Output format.
        #[arg(long, default_value = "tsv", value_parser = ["tsv"])]
        format: String,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Compile MIB modules: check, dump.
    Mib {
        #[command(subcommand)]
        command: MibCommand,
    },
    /// Translate between names and OIDs, like net-snmp's snmptranslate:
    /// `IF-MIB::ifDescr.3` <-> `1.3.6.1.2.1.2.2.1.2.3`.
    Translate {
        #[command(flatten)]
        opts: TranslateOpts,
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
        /// Messages as hex (spaces and colons allowed); none: read one per line from stdin
        /// (lines starting with `#` are comments).
        hex: Vec<String>,
        /// Read one message from each FILE: hex, wrapped across lines as it likes, lines
        /// starting with `#` comments (as corpus/malformed/*.hex are written); repeat for more.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["hex", "pcap"])]
        file: Vec<PathBuf>,
        /// Read the UDP datagrams of a pcap or pcapng capture instead.
        #[arg(long, value_name = "FILE")]
        pcap: Option<PathBuf>,
        /// Only datagrams to or from this UDP port (with --pcap; repeat for more). Without it,
        /// every UDP datagram is read as SNMP; either way the frames left out are counted.
        #[arg(long)]
        port: Vec<u16>,
        /// One JSON object per line per message.
        #[arg(long, conflicts_with = "trace")]
        json: bool,
        /// Every tag, length and component with its offset, path and octets.
        #[arg(long)]
        trace: bool,
        /// Name OIDs from the MIB modules of these directories (`IF-MIB::ifDescr.3`); repeat,
        /// or separate with `:`.
        #[arg(
            long = "mib-dir",
            short = 'M',
            value_name = "DIR",
            allow_hyphen_values = true
        )]
        mib_dir: Vec<PathBuf>,
        /// SNMPv3: the USM user whose messages to authenticate and decrypt (net-snmp's -u).
        #[arg(long, short = 'u', value_name = "NAME")]
        user: Option<String>,
        /// Its authentication protocol: MD5, SHA, SHA-224, SHA-256, SHA-384 or SHA-512.
        #[arg(long, short = 'a', value_name = "PROTOCOL", requires_all = ["user", "auth_password"])]
        auth_protocol: Option<String>,
        /// Its authentication password.
        #[arg(long, short = 'A', value_name = "PASSWORD", requires = "auth_protocol")]
        auth_password: Option<String>,
        /// Its privacy protocol: DES, AES, AES-192, AES-256 (short keys extended as
        /// draft-blumenthal-aes-usm-04 says, as net-snmp does), AES192C or AES256C (as Cisco does).
        #[arg(long, short = 'x', value_name = "PROTOCOL", requires_all = ["auth_protocol", "priv_password"])]
        priv_protocol: Option<String>,
        /// Its privacy password.
        #[arg(long, short = 'X', value_name = "PASSWORD", requires = "priv_protocol")]
        priv_password: Option<String>,
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
    let args = config_lines(join_field_separator(std::env::args_os()));
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
        let given = |id: &str| sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        snmpc::snmpconf::SnmpConf::read().apply(agent, &given);
    }
    match cli.command {
        Command::Decode {
            hex,
            file,
            pcap,
            port,
            json,
            trace,
            mib_dir,
            user,
            auth_protocol,
            auth_password,
            priv_protocol,
            priv_password,
        } => {
            let passwords = match &user {
                None => None,
                Some(u) => match view::UserPasswords::new(
                    u,
                    auth_protocol.as_deref().zip(auth_password.as_deref()),
                    priv_protocol.as_deref().zip(priv_password.as_deref()),
                ) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        eprintln!("snmpc: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            let namer = if mib_dir.is_empty() {
                None
            } else {
                let opts = MibOpts {
                    mib_dir,
                    strict: Vec::new(),
                };
                match load(&opts, &[]) {
                    Ok(m) => Some(m),
                    Err(code) => return code,
                }
            };
            let hex = match hex_files(&file) {
                Ok(from_files) if !file.is_empty() => from_files,
                Ok(_) => hex,
                Err(e) => {
                    eprintln!("snmpc: {e}");
                    return ExitCode::from(2);
                }
            };
            decode(
                hex,
                pcap,
                port,
                json,
                trace,
                namer.as_ref(),
                passwords.as_ref(),
            )
        }
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
        Command::Mib { command } => mib(command),
        Command::Translate { opts, inputs } => translate(opts, inputs),
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

/// snmptrapd's configuration lines on its command line (`--disableAuthorization=yes`): for
/// `listen`, a `--TOKEN=VALUE` that is none of its long options becomes `--config-line
/// "TOKEN VALUE"`.
fn config_lines(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let listening = args
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))
        .is_some_and(|c| c == "listen");
    if !listening {
        return args;
    }
    let command = Cli::command();
    let ours: Vec<String> = command
        .find_subcommand("listen")
        .map(|c| {
            c.get_arguments()
                .filter_map(|a| a.get_long())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        let token = a
            .to_str()
            .and_then(|t| t.strip_prefix("--"))
            .and_then(|t| t.split_once('='))
            .filter(|(name, _)| !ours.iter().any(|o| o == name));
        match token {
            Some((name, value)) => {
                out.push("--config-line".into());
                out.push(format!("{name} {value}").into());
            }
            None => out.push(a),
        }
    }
    out
}

/// Whether the command stands in for one of net-snmp's tools (its usage errors exit 1, as
/// theirs do), not one of snmpc's own (`decode`, `mib`, `simulate`).
fn net_snmp_tool(args: &[std::ffi::OsString]) -> bool {
    const TOOLS: [&str; 13] = [
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
        "listen",
    ];
    command_name(args).is_some_and(|c| TOOLS.contains(&c))
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
    const LOGGING: [&str; 6] = ["-Lf", "-LF", "-Ls", "-LS", "-Is", "-IS"];
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
    let mut args = args.into_iter().peekable();
    while let Some(a) = args.next() {
        match args.peek() {
            Some(next) if own.iter().chain(&LOGGING).any(|t| a == *t) => {
                let mut joined = a.clone();
                joined.push(next);
                out.push(joined);
                args.next();
            }
            _ => out.push(a),
        }
    }
    out
}

/// The messages of `files`, one a file: its lines but `#` comments, joined.
fn hex_files(files: &[PathBuf]) -> Result<Vec<String>, String> {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            let comment = |l: &str| l.trim_start().starts_with('#');
            if !text.lines().any(comment) {
                // No comment to take out: the text as it is (a large capture is not copied).
                return Ok(text);
            }
            let lines = text.lines().filter(|l| !comment(l));
            Ok(lines.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let text = s.trim();
    let text = text.strip_prefix("0x").unwrap_or(text);
    if let Some((at, bad)) = text
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_hexdigit() || c.is_whitespace() || *c == ':'))
    {
        return Err(format!("not hex: {bad:?} at character {}", at + 1));
    }
    // Every character is a hex digit, white space or `:` (checked above): the digits' values,
    // paired into octets as they come, with no copy of the text.
    let mut digits = text.bytes().filter_map(|b| (b as char).to_digit(16));
    let mut octets = Vec::with_capacity(text.len() / 2);
    let mut count = 0usize;
    while let Some(high) = digits.next() {
        count += 1;
        let Some(low) = digits.next() else { break };
        count += 1;
        octets.push((high << 4 | low) as u8);
    }
    if !count.is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({count})"));
    }
    Ok(octets)
}

/// A message to decode: its frame number, and its octets or what is wrong with the input.
type Input = (usize, Result<Vec<u8>, String>);

/// The datagrams of the capture at `path` to or from `ports` (all UDP when none), and an
/// input error for each frame that cannot be decoded whole (cut short, the capture ending
/// inside it, fragments that never completed). A summary of every frame goes to stderr.
fn pcap_inputs(path: &std::path::Path, ports: &[u16]) -> Result<Vec<Input>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let pcapng = bytes.starts_with(&[0x0a, 0x0d, 0x0d, 0x0a]);
    let capture = capture::read_bytes(&bytes).map_err(|e| e.to_string())?;
    drop(bytes);
    let wanted = |p: (u16, u16)| ports.is_empty() || ports.contains(&p.0) || ports.contains(&p.1);
    let mut inputs = Vec::new();
    let (mut snmp, mut cut, mut other_ports) = (0, 0, 0);
    for item in capture.items {
        match item {
            capture::Item::Datagram(d) if wanted(d.ports) => {
                snmp += 1;
                inputs.push((d.frame, Ok(d.payload)));
            }
            capture::Item::Cut {
                frame,
                ports,
                captured,
                original,
            } if wanted(ports) => {
                cut += 1;
                let why = format!(
                    "cut short by the capture (its snap length): {captured} of {original} octets captured"
                );
                inputs.push((frame, Err(why)));
            }
            _ => other_ports += 1,
        }
    }
    for (first, fragments) in &capture.incomplete {
        let why = format!("an IP datagram whose {fragments} fragment(s) never completed");
        inputs.push((*first, Err(why)));
    }
    for s in &capture.skipped {
        let why = format!(
            "before this frame, octets {}..{} of the file could not be read ({}) and were \
             skipped; reading went on at the next {} that reads whole",
            s.offset,
            s.offset + s.octets,
            s.why,
            if pcapng { "block" } else { "record" }
        );
        inputs.push((s.after_frame + 1, Err(why)));
    }
    for (frame, first) in &capture.overlaps {
        eprintln!(
            "{}: frame {frame}: an IP fragment overlaps an earlier fragment of the datagram \
             begun at frame {first} with other octets; the later octets are used",
            path.display()
        );
    }
    if let Some((frame, why)) = &capture.ends_inside {
        inputs.push((
            *frame,
            Err(format!("the capture ends inside this frame ({why})")),
        ));
    }
    // In frame order; what went wrong before a frame is said before it.
    inputs.sort_by_key(|(frame, input)| (*frame, input.is_ok()));
    let mut parts = vec![format!("{snmp} SNMP")];
    for (n, what) in [
        (capture.fragments, "IP fragments reassembled"),
        (cut, "cut short"),
        (capture.incomplete.len(), "incomplete fragmented datagrams"),
        (
            capture.overlaps.len(),
            "IP fragments overlapping with other octets",
        ),
        (
            capture.skipped.iter().map(|s| s.octets).sum(),
            "octets unreadable and skipped",
        ),
        (other_ports, "UDP on other ports"),
        (capture.not_udp, "not UDP"),
        (
            usize::from(capture.ends_inside.is_some()),
            "cut off inside the file",
        ),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    for (link, n) in &capture.unread_links {
        parts.push(format!(
            "{n} on a link not read (link type {}, {link:?})",
            u32::from(*link)
        ));
    }
    eprintln!(
        "{}: {} frames: {}",
        path.display(),
        capture.frames,
        parts.join(", ")
    );
    Ok(inputs)
}

fn decode(
    hex: Vec<String>,
    pcap: Option<PathBuf>,
    port: Vec<u16>,
    json: bool,
    trace_mode: bool,
    mibs: Option<&mibs::Mibs>,
    passwords: Option<&view::UserPasswords>,
) -> ExitCode {
    let namer = |dotted: &str| -> Option<String> {
        let arcs: Option<Vec<u32>> = dotted.split('.').map(|a| a.parse().ok()).collect();
        mibs?.oid_to_name(&arcs?, Default::default())
    };
    // (frame, octets or a problem with the input itself)
    let mut inputs: Vec<Input> = Vec::new();
    if let Some(path) = pcap {
        match pcap_inputs(&path, &port) {
            Ok(from_capture) => inputs = from_capture,
            Err(e) => {
                eprintln!("snmpc: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    } else if hex.is_empty() {
        for (n, line) in std::io::stdin().lock().lines().enumerate() {
            match line {
                Ok(l) if l.trim().is_empty() || l.trim_start().starts_with('#') => {}
                Ok(l) => inputs.push((n + 1, parse_hex(&l))),
                Err(e) => {
                    eprintln!("snmpc: standard input: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        if inputs.is_empty() {
            eprintln!("snmpc: no input: no message on standard input (hex, one a line)");
            return ExitCode::from(2);
        }
    } else {
        // Each text dropped once read into octets.
        let read = hex.into_iter().enumerate();
        inputs.extend(read.map(|(n, h)| (n + 1, parse_hex(&h))));
    }

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0;
    for (frame, bytes) in inputs {
        let bytes = match bytes {
            Ok(b) => b,
            Err(e) => {
                failed += 1;
                if json {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::json!({"frame": frame, "error": e, "offset": 0, "path": ""})
                    );
                } else {
                    let _ = writeln!(out, "frame {frame}: input error: {e}");
                }
                continue;
            }
        };
        if trace_mode {
            let _ = writeln!(
                out,
                "frame {frame}: {} octets\n{}",
                bytes.len(),
                trace::trace(&bytes)
            );
            if view::Decoded::new(&bytes).is_err() {
                failed += 1;
            }
            continue;
        }
        // The bindings are written one at a time as they are read again, never held all.
        let namer: Option<view::Namer<'_>> = mibs.map(|_| &namer as view::Namer<'_>);
        let written = match view::Decoded::new(&bytes) {
            Ok(mut decoded) => {
                if let Some(c) = passwords {
                    decoded.unlock(c);
                }
                match json {
                    true => decoded.write_json(frame, namer, &mut out),
                    false => decoded.write_text(frame, namer, &mut out),
                }
            }
            Err(f) => {
                failed += 1;
                match json {
                    true => writeln!(out, "{}", f.to_json(frame)),
                    false => writeln!(
                        out,
                        "frame {frame}: error {}\n{}",
                        f.error,
                        hexdump::around(&bytes, f.offset)
                    ),
                }
            }
        };
        if written.is_err() {
            // Standard output closed (a pipe into `head`): nothing more to write.
            break;
        }
    }
    if failed > 0 {
        eprintln!("snmpc: {failed} message(s) did not decode");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn load(opts: &MibOpts, modules: &[String]) -> Result<mibs::Mibs, ExitCode> {
    let strict = mibs::relaxations(&opts.strict).map_err(|e| {
        eprintln!("snmpc: {e}");
        ExitCode::from(2)
    })?;
    // A bar on stderr while the files are read and parsed, when stderr is a terminal
    // (indicatif draws nothing otherwise), cleared when done.
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} files")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message("reading MIB modules");
    let loaded =
        mibs::Mibs::load_with_progress(&opts.dirs(), modules, &strict, &mut |done, all| {
            bar.set_length(all as u64);
            bar.set_position(done as u64);
        })
        .map_err(|e| {
            eprintln!("snmpc: {e}");
            ExitCode::from(2)
        });
    bar.finish_and_clear();
    loaded
}

fn mib(command: MibCommand) -> ExitCode {
    match command {
        MibCommand::Check {
            opts,
            modules,
            all,
            verbose,
        } => {
            if modules.is_empty() && !all {
                eprintln!("snmpc: name modules to check, or --all");
                return ExitCode::from(2);
            }
            let m = match load(&opts, &modules) {
                Ok(m) => m,
                Err(code) => return code,
            };
            let (text, ok) = m.check_report(verbose, all);
            print!("{text}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        MibCommand::Dump {
            opts,
            modules,
            all,
            format: _,
        } => {
            if modules.is_empty() && !all {
                eprintln!("snmpc: name modules to dump, or --all");
                return ExitCode::from(2);
            }
            let m = match load(&opts, &modules) {
                Ok(m) => m,
                Err(code) => return code,
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            if let Err(e) = m.dump_tsv(&mut out).and_then(|()| out.flush()) {
                eprintln!("snmpc: writing the dump: {e}");
                return ExitCode::FAILURE;
            }
            let failures = m.failures(all);
            for f in &failures {
                eprintln!("{f}");
            }
            if failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "snmpc: {} module(s) or file(s) failed (above)",
                    failures.len()
                );
                ExitCode::FAILURE
            }
        }
    }
}

fn translate(opts: TranslateOpts, inputs: Vec<String>) -> ExitCode {
    let input = match ask::Input::parse(&opts.input) {
        Ok(i) => i,
        Err(e) => return agent::bad_arguments(e),
    };
    let inputs: Vec<String> = inputs
        .iter()
        .map(|i| input.around(i).into_owned())
        .collect();
    let strict = match mibs::relaxations(&opts.strict) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("snmpc: {e}");
            return ExitCode::from(2);
        }
    };
    // The modules snmptranslate reads: its MIB list and path, and each MODULE:: named.
    let choice = snmpc::miblist::MibChoice::new(&opts.mib_dir, opts.modules.as_deref());
    let named = snmpc::miblist::modules_named(&inputs);
    let m = match mibs::Mibs::load_chosen(&choice, &named, &strict) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("snmpc: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(said) = m.missing(&choice.modules()) {
        eprintln!("{said}");
    }
    let output = match print::Output::parse(&opts.output.concat()) {
        Ok(o) => o,
        Err(e) => return agent::bad_arguments(e),
    };

    let reports = opts.report.concat();
    if let Some(c) = reports.chars().find(|c| !"dolspzB".contains(*c)) {
        return agent::bad_arguments(format!(
            "-T{c}: not supported (-Td: each input's definition; -Tp: the tree below it; -To, -Ts, -Tl, -Tz: every node; -TB REGEX: the nodes it matches)"
        ));
    }
    if reports.contains('B') {
        // snmptranslate's -TB: the first input is a regular expression; the others are not read.
        let Some(pattern) = inputs.first() else {
            return agent::bad_arguments("-TB needs a regular expression");
        };
        let Some(found) = m.matching(pattern) else {
            return agent::bad_arguments(format!("-TB {pattern}: not a regular expression"));
        };
        let mut out = std::io::stdout().lock();
        for arcs in found {
            let _ = writeln!(
                out,
                "{}",
                print::name_of(&m, &arcs, output.naming, output.index)
            );
        }
        return ExitCode::SUCCESS;
    }
    let (random_access, best_match) = (input.random_access, input.best_match);
    if reports.contains('p') {
        return tree_report(&m, &inputs, random_access);
    }
    // snmptranslate's reports of every node, without inputs.
    if inputs.is_empty() && reports.chars().any(|c| "olsz".contains(c)) {
        let mut out = std::io::stdout().lock();
        for line in snmpc::describe::oid_report(&m, &reports) {
            let _ = writeln!(out, "{line}");
        }
        return ExitCode::SUCCESS;
    }
    let described = reports.contains('d');
    // As snmptranslate: a blank line between outputs; the first input that does not
    // translate ends the run (exit 2).
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let translated = match best_match {
            // -Ib: the input is a regular expression over the names.
            true => match m.best_match(input) {
                Some(arcs) => Ok((print::name_of(&m, &arcs, output.naming, output.index), arcs)),
                None => {
                    eprintln!("Unable to find a matching object identifier for \"{input}\"");
                    return ExitCode::FAILURE;
                }
            },
            false => translate_one(&m, input, output, random_access),
        };
        match translated {
            Ok((text, arcs)) if described => {
                println!("{text}");
                match snmpc::describe::describe(&m, &arcs) {
                    Some(d) => println!("{d}"),
                    None => println!("No description"),
                }
            }
            Ok((text, _)) => println!("{text}"),
            Err(_) if random_access => {
                eprintln!("Unknown object identifier: {input}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("{}", e.say(input));
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

/// snmptranslate's `-Tp`: the tree below each input (the deepest node its path names), a blank
/// line between; without inputs, the whole tree. As there, a name alone is looked up only
/// under `-IR` (else `Sub-id not found: (top) -> NAME`), and the first input that does not
/// translate ends the run (exit 2).
fn tree_report(m: &mibs::Mibs, inputs: &[String], random_access: bool) -> ExitCode {
    if inputs.is_empty() {
        print!("{}", snmpc::mibtree::tree(m, &[]));
        return ExitCode::SUCCESS;
    }
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let bare = !mibs::numeric_input(input) && !input.starts_with('.') && !input.contains("::");
        let arcs = match translate_one(m, input, print::Output::default(), random_access) {
            Ok(_) if bare && !random_access => {
                let first = input.split('.').next().unwrap_or(input);
                eprintln!(
                    "{input}: Unknown Object Identifier (Sub-id not found: (top) -> {first})"
                );
                return ExitCode::from(2);
            }
            Ok((_, arcs)) => arcs,
            Err(_) if random_access => {
                eprintln!("Unknown object identifier: {input}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("{}", e.say(input));
                return ExitCode::from(2);
            }
        };
        let Some((k, _)) = m.deepest(&arcs) else {
            eprintln!("{input}: Unknown Object Identifier");
            return ExitCode::from(2);
        };
        print!("{}", snmpc::mibtree::tree(m, &arcs[..k]));
    }
    ExitCode::SUCCESS
}

/// One input (a name or an OID) named as `-O` says, as snmptranslate does (`-On` for the
/// OID of a name, the default `-OS` for the name of an OID), and its arcs.
///
/// A name after a dot (`.iso.org.dod...`, as `-Of` prints it) is a path from the root, as
/// snmptranslate reads it: its first label a root's (`.sysDescr` is not found), unless
/// `random_access` (`-IR`) looks it up anywhere.
fn translate_one(
    m: &mibs::Mibs,
    input: &str,
    output: print::Output,
    random_access: bool,
) -> Result<(String, Vec<u32>), mibs::NameError> {
    let arcs = match (mibs::numeric_input(input), input.strip_prefix('.')) {
        (true, _) => match numeric_arcs(input.trim_start_matches('.')) {
            Ok(arcs) => arcs,
            Err(_) => m
                .dotted_to_oid(input)
                .map_err(|why| mibs::NameError::Unknown(Some(why)))?,
        },
        // Without -IR a name is a path from a root, dotted or not (`iso.org.dod`), unless
        // its module is given: `sysDescr` alone is `Sub-id not found`, as snmptranslate says.
        (false, path) if !random_access && !input.contains("::") => {
            let path = path.unwrap_or(input);
            let first = path.split('.').next().unwrap_or(path);
            if mibs::root_arc(first).is_none() {
                let why = format!("Sub-id not found: (top) -> {first}");
                return Err(mibs::NameError::Unknown(Some(why)));
            }
            m.name_to_oid(path)?
        }
        (false, path) => m.name_to_oid(path.unwrap_or(input))?,
    };
    Ok((print::name_of(m, &arcs, output.naming, output.index), arcs))
}

/// The arcs of a dotted OID; an arc that is not a number, or over 32 bits (SMI's limit,
/// RFC 2578 3.5), is an error, never dropped.
fn numeric_arcs(digits: &str) -> Result<Vec<u32>, std::num::ParseIntError> {
    digits.split('.').map(str::parse).collect()
}
