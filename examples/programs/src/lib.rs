//! The typed bindings the programs of `src/bin/` use: IF-MIB, SNMPv2-MIB and, when net-snmp's
//! MIBs were there at build time, UCD-SNMP-MIB (see build.rs), generated with the agent side
//! on (rows and scalar groups that SET).

include!(concat!(env!("OUT_DIR"), "/mibs.rs"));

/// A program's end: its error said on stderr as the error says itself (not as `{:?}` would
/// print it, which `fn main() -> Result` does) with the program's name, and exit status 1.
pub fn report(result: Result<(), Box<dyn std::error::Error>>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let program = std::env::args().next().unwrap_or_default();
            let name = std::path::Path::new(&program)
                .file_name()
                .unwrap_or_default();
            eprintln!("{}: {e}", name.to_string_lossy());
            std::process::ExitCode::FAILURE
        }
    }
}
