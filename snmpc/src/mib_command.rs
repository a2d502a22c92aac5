//! `snmpc mib check` and `snmpc mib dump`: modules compiled from a search path, each's result
//! or every node.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use snmp_smi::names as mibs;

/// Where MIB modules are looked for, and how strictly they are read.
#[derive(Args, Debug)]
pub struct MibOpts {
    /// A directory of MIB modules (any file names: modules are found by the name inside);
    /// repeat, or separate with `:`.
    #[arg(
        long = "mib-dir",
        short = 'M',
        value_name = "DIR",
        required = true,
        allow_hyphen_values = true
    )]
    pub mib_dir: Vec<PathBuf>,
    /// Make these relaxations errors (`all`, or names such as `missing-import`).
    #[arg(long, value_name = "RELAXATION")]
    pub strict: Vec<String>,
}

impl MibOpts {
    fn dirs(&self) -> Vec<PathBuf> {
        mibs::split_dirs(self.mib_dir.iter().map(|d| d.as_os_str()))
    }
}

#[derive(Subcommand, Debug)]
pub enum MibCommand {
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

pub fn load(opts: &MibOpts, modules: &[String]) -> Result<mibs::Mibs, ExitCode> {
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

pub fn run(command: MibCommand) -> ExitCode {
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
