//! `snmp-exporter generate`, `parse_errors` and `dump`: snmp_exporter's generator's command
//! line. Its global flags (`-m/--mibs-dir`, `--[no-]fail-on-parse-errors`, `--snmp.mibopts`,
//! `--log.level`) are taken before or after the command, as kingpin takes them, so that
//! `MIBDIRS=mibs generator --fail-on-parse-errors generate` runs as
//! `MIBDIRS=mibs snmp-exporter --fail-on-parse-errors generate`.

use std::path::PathBuf;
use std::process::ExitCode;

use snmp_exporter::generate::{self, config::GeneratorFile, tree::MibTree};
use snmp_smi::names::MibChoice;

/// The generator's flags, taken anywhere on the command line.
#[derive(clap::Args, Debug)]
pub struct GeneratorFlags {
    /// Generator: a folder of MIB files (repeatable; several may be given `:`-separated);
    /// without it MIBDIRS, else net-snmp's folders ($HOME/.snmp/mibs, /usr/share/snmp/mibs
    /// and its iana and ietf folders), those not there passed over; a leading `+` adds to
    /// them. The standard modules are built in.
    #[arg(short = 'm', long = "mibs-dir", global = true, value_name = "DIR")]
    pub mibs_dir: Vec<String>,
    /// Generator: fail when a MIB module cannot be read or resolved, each reported either
    /// way (the default; `--no-fail-on-parse-errors` or `=false` goes on without them).
    #[arg(
        long = "fail-on-parse-errors",
        global = true,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    pub fail_on_parse_errors: Option<bool>,
    /// Go on without the MIB modules that cannot be used (see --fail-on-parse-errors).
    #[arg(long = "no-fail-on-parse-errors", global = true, hide = true)]
    pub no_fail_on_parse_errors: bool,
    /// Generator: net-snmp's MIB parsing toggles (`snmpwalk -P`); this parser reads MIBs as
    /// net-snmp does with upstream's default `eu` (underscores in names, conflicting
    /// definitions not errors), with descriptions (`d`): other toggles are refused.
    #[arg(long = "snmp.mibopts", global = true, value_name = "TOGGLES")]
    pub mibopts: Option<String>,
}

impl GeneratorFlags {
    /// Whether any of them is on the command line (they mean nothing to the server).
    pub fn given(&self) -> bool {
        !self.mibs_dir.is_empty()
            || self.fail_on_parse_errors.is_some()
            || self.no_fail_on_parse_errors
            || self.mibopts.is_some()
    }

    fn fail_on_parse_errors(&self) -> bool {
        self.fail_on_parse_errors.unwrap_or(true) && !self.no_fail_on_parse_errors
    }

    /// The MIB folders to read, and the path they come from (as upstream logs it, with the
    /// folders passed over): `-m`'s, each of which must be there, else MIBDIRS's or
    /// net-snmp's that are there.
    fn dirs(&self) -> Result<(Vec<PathBuf>, String), String> {
        if let Some(opts) = &self.mibopts {
            if let Some(c) = opts.chars().find(|c| !matches!(c, 'e' | 'u' | 'd')) {
                return Err(format!(
                    "--snmp.mibopts {opts:?}: `{c}` is not supported: MIBs are read as net-snmp reads them with `eud` \
                     (underscores in names, conflicting definitions not errors, descriptions kept)"
                ));
            }
        }
        let given: Vec<PathBuf> = self
            .mibs_dir
            .iter()
            .flat_map(|d| d.split(':'))
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .collect();
        let choice = MibChoice::new(&given, Some("ALL"));
        let there = choice.dirs();
        for d in &given {
            let d = PathBuf::from(d.to_string_lossy().trim_start_matches(['+', '-']));
            if !there.contains(&d) {
                return Err(format!(
                    "MIB directory {}: not a directory that can be read",
                    d.display()
                ));
            }
        }
        let missing: Vec<String> = choice
            .path
            .iter()
            .filter(|d| !there.contains(d))
            .map(|d| d.display().to_string())
            .collect();
        let path = match (there.is_empty(), missing.is_empty()) {
            (_, true) => choice.path_text(),
            (false, false) => format!(
                "{} (not there, passed over: {})",
                choice.path_text(),
                missing.join(", ")
            ),
            (true, false) => format!(
                "{}: none of them is there, only the built-in standard modules are read",
                choice.path_text()
            ),
        };
        Ok((there, path))
    }
}

/// How much of what the generator says is printed (`--log.level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

impl Level {
    /// `--log.level` and `--log.format` checked (one check for the server and the
    /// generator's commands): the level.
    pub fn of(level: &str, format: &str) -> Result<Level, String> {
        if !matches!(format, "logfmt" | "json") {
            return Err(format!("--log.format {format:?}: expected logfmt or json"));
        }
        Level::parse(level)
    }

    fn parse(level: &str) -> Result<Level, String> {
        Ok(match level {
            "debug" => Level::Debug,
            "info" => Level::Info,
            "warn" => Level::Warn,
            "error" => Level::Error,
            other => {
                return Err(format!(
                    "--log.level {other:?}: expected debug, info, warn or error"
                ))
            }
        })
    }
}

/// What the generator prints on stderr, each line under `prefix`, at `level` or above.
struct Say {
    prefix: &'static str,
    level: Level,
}

impl Say {
    fn info(&self, line: std::fmt::Arguments<'_>) {
        if self.level <= Level::Info {
            eprintln!("{}: {line}", self.prefix);
        }
    }

    fn warn(&self, line: std::fmt::Arguments<'_>) {
        if self.level <= Level::Warn {
            eprintln!("{}: {line}", self.prefix);
        }
    }

    fn error(&self, line: std::fmt::Arguments<'_>) {
        eprintln!("{}: {line}", self.prefix);
    }
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The generator's configuration.
    #[arg(short = 'g', long = "generator-path", default_value = "generator.yml")]
    generator: PathBuf,
    /// Where to write snmp.yml.
    #[arg(short = 'o', long = "output-path", default_value = "snmp.yml")]
    output: PathBuf,
}

/// `snmp-exporter generate`.
pub fn generate(args: &GenerateArgs, flags: &GeneratorFlags, level: Level) -> ExitCode {
    let say = Say {
        prefix: "snmp-exporter generate",
        level,
    };
    let text = match std::fs::read_to_string(&args.generator) {
        Ok(t) => t,
        Err(e) => {
            say.error(format_args!("{}: {e}", args.generator.display()));
            return ExitCode::FAILURE;
        }
    };
    let generator: GeneratorFile = match serde_yaml::from_str(&text) {
        Ok(g) => g,
        Err(e) => {
            say.error(format_args!("{}: {e}", args.generator.display()));
            return ExitCode::FAILURE;
        }
    };
    let Some(dirs) = folders(flags, &say) else {
        return ExitCode::FAILURE;
    };
    let mibs = match generate::load_tree(&dirs, &generator) {
        Ok(m) => m,
        Err(e) => {
            say.error(format_args!("{e}"));
            return ExitCode::FAILURE;
        }
    };
    for f in &mibs.failed {
        say.warn(format_args!(
            "MIB module {} not used ({} objects lost): {}",
            f.name,
            f.objects.len(),
            f.error
        ));
    }
    for u in &mibs.unread {
        say.warn(format_args!("a file yielded no MIB module: {u}"));
    }
    if flags.fail_on_parse_errors() && !mibs.failed.is_empty() {
        say.error(format_args!(
            "{} MIB module(s) failed (`parse_errors` lists them; --no-fail-on-parse-errors goes on without them)",
            mibs.failed.len()
        ));
        return ExitCode::FAILURE;
    }
    let mut warnings = Vec::new();
    let file = generate::generate(&generator, &mibs, &mut warnings);
    for w in &warnings {
        say.warn(format_args!("warning: {w}"));
    }
    let written = file
        .map_err(|e| e.to_string())
        .and_then(|f| {
            for (name, m) in &f.modules {
                say.info(format_args!("module {name}: {} metrics", m.metrics.len()));
            }
            generate::to_yaml(&f)
        })
        .and_then(|yaml| {
            generate::write_over(&args.output, &yaml)
                .map_err(|e| format!("{}: {e}", args.output.display()))
        });
    // The process ends here: the tree's 100,000 nodes are left to the OS, not freed one by
    // one (a tenth of a whole-corpus run).
    std::mem::forget(mibs);
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say.error(format_args!("{e}"));
            ExitCode::FAILURE
        }
    }
}

/// As upstream's generator (a Go program) and net-snmp's tools: output into a pipe its reader
/// has closed (`snmp-exporter dump | head`) ends the process quietly, by SIGPIPE, instead of
/// a panic in `println!`. For the generator's commands only: the server writes to sockets.
pub fn quiet_on_closed_pipe() {
    // SAFETY: setting a signal's disposition to SIG_DFL installs no handler and touches no
    // memory; it is done before this process starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The MIB folders to read ([`GeneratorFlags::dirs`]), the path said as upstream logs it (a
/// warning when none of its folders is there); `None` when they cannot be, said why.
fn folders(flags: &GeneratorFlags, say: &Say) -> Option<Vec<PathBuf>> {
    match flags.dirs() {
        Ok((dirs, path)) => {
            if dirs.is_empty() {
                say.warn(format_args!("loading MIBs from {path}"));
            } else {
                say.info(format_args!("loading MIBs from {path}"));
            }
            Some(dirs)
        }
        Err(e) => {
            say.error(format_args!("{e}"));
            None
        }
    }
}

/// `snmp-exporter parse_errors` and `snmp-exporter dump`.
pub fn inspect(flags: &GeneratorFlags, dump: bool, level: Level) -> ExitCode {
    let say = Say {
        prefix: if dump {
            "snmp-exporter dump"
        } else {
            "snmp-exporter parse_errors"
        },
        level,
    };
    let Some(dirs) = folders(flags, &say) else {
        return ExitCode::FAILURE;
    };
    let mibs = match MibTree::load(&dirs) {
        Ok(m) => m,
        Err(e) => {
            say.error(format_args!("{e}"));
            return ExitCode::FAILURE;
        }
    };
    if dump {
        for n in &mibs.nodes {
            println!(
                "{} {} {} type={} tc={} hint={:?} access={} indexes={}{}",
                n.oid(),
                n.label,
                mibs.module_of(n),
                n.ty,
                n.tc,
                n.hint,
                n.access,
                n.indexes.join(","),
                if n.implied { " (implied)" } else { "" }
            );
        }
        return ExitCode::SUCCESS;
    }
    for f in &mibs.failed {
        println!("{} ({} objects lost): {}", f.name, f.objects.len(), f.error);
    }
    for u in &mibs.unread {
        println!("{u}");
    }
    println!(
        "{} module(s) could not be used, {} file(s) yielded no module",
        mibs.failed.len(),
        mibs.unread.len()
    );
    ExitCode::SUCCESS
}
