//! `snmp-regen`: regenerate the checked-in SNMP bindings, check them, or compile ASN.1 files
//! and MIB modules.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "snmp-regen",
    version,
    about = "Compile SNMP's ASN.1 modules into Rust BER codecs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate generated/src from asn1/ and mibs-std/src from mibs/ (run after changing
    /// asn1/, mibs/ or codegen/).
    Regen {
        /// The workspace root (default: the one this binary was built in).
        #[arg(long)]
        root: Option<PathBuf>,
    },
    /// Exit non-zero, with a diff, when generated/src or mibs-std/src is not what regen would
    /// write.
    Check {
        /// The workspace root (default: the one this binary was built in).
        #[arg(long)]
        root: Option<PathBuf>,
    },
    /// Compile ASN.1 files and MIB modules into one Rust file of modules (for `include!`).
    Compile {
        /// ASN.1 files.
        files: Vec<PathBuf>,
        /// A directory of MIB modules (found by the name inside, whatever the file name);
        /// repeat for more.
        #[arg(long = "mib-dir", short = 'M')]
        mib_dirs: Vec<PathBuf>,
        /// A MIB module to generate typed bindings for; repeat for more.
        #[arg(long = "mib", short = 'm')]
        mibs: Vec<String>,
        /// Make these SMI relaxations errors: `all`, or names such as `missing-import`
        /// (repeat for more), as `snmpc mib check --strict` takes them.
        #[arg(long, value_name = "RELAXATION")]
        strict: Vec<String>,
        /// Output file.
        #[arg(long, short)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<ExitCode, snmp_codegen::BuildError> {
    match command {
        Command::Regen { root } => {
            let root = root.unwrap_or_else(snmp_regen::workspace_root);
            for (dir, builder) in snmp_regen::crates(&root) {
                let generated = builder.generate()?;
                let written = generated.write_crate(&root.join(dir))?;
                for m in &generated.modules {
                    println!(
                        "{:<32} {:>3} types -> {dir}/{}.rs",
                        m.asn1_name, m.type_count, m.rust_name
                    );
                }
                println!(
                    "{dir}: {} modules, {} types, {} files changed",
                    generated.modules.len(),
                    generated.type_count(),
                    written.len()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { root } => {
            let root = root.unwrap_or_else(snmp_regen::workspace_root);
            let mut stale = false;
            for (dir, builder) in snmp_regen::crates(&root) {
                let generated = builder.generate()?;
                let diffs = snmp_regen::stale_diff(&generated, &root.join(dir));
                if diffs.is_empty() {
                    println!(
                        "{dir} is up to date ({} modules, {} types)",
                        generated.modules.len(),
                        generated.type_count()
                    );
                }
                for d in &diffs {
                    println!("{d}");
                }
                stale |= !diffs.is_empty();
            }
            if stale {
                eprintln!("generated code is stale: run `cargo run -p snmp-regen -- regen`");
                return Ok(ExitCode::FAILURE);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Compile {
            files,
            mib_dirs,
            mibs,
            strict,
            out,
        } => {
            if files.is_empty() && mibs.is_empty() {
                eprintln!("nothing to compile: give ASN.1 files and/or --mib MODULE");
                return Ok(ExitCode::FAILURE);
            }
            let mut b = snmp_codegen::Builder::new();
            for f in files {
                b = b.asn1(f);
            }
            for d in mib_dirs {
                b = b.mib_dir(d);
            }
            for m in &mibs {
                b = b.mib(m);
            }
            let relaxations = match snmp_codegen::mib::Relaxation::parse_list(&strict) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("--strict: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            for r in relaxations {
                b = b.strict(r);
            }
            let generated = b.generate()?;
            for w in &generated.warnings {
                eprintln!("{w}");
            }
            std::fs::write(&out, generated.single_file()).map_err(|source| {
                snmp_codegen::BuildError::Io {
                    path: out.clone(),
                    source,
                }
            })?;
            println!(
                "{} modules, {} types -> {}",
                generated.modules.len(),
                generated.type_count(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
