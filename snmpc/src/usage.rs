//! net-snmp's words for a command line its tool refuses (an argument missing, an option's
//! value or letter it does not take): the line the tool prints first (`No hostname
//! specified.`, `Invalid version specified after -v flag: 4`, ...) and its `USAGE:` line.

use std::process::ExitCode;
use std::sync::OnceLock;

/// The command this process runs (`get`, `walk`, ...), for the USAGE line of its refusals.
static TOOL: OnceLock<String> = OnceLock::new();

/// The name this process says its errors under: `snmpc`, or the net-snmp tool's name a link
/// runs it under (`snmpget: Unknown host (...)`, as snmpget says it).
static PROGRAM: OnceLock<String> = OnceLock::new();

/// Notes the net-snmp tool's name this process runs under; once, at its start.
pub fn set_program(name: &str) {
    let _ = PROGRAM.set(name.to_string());
}

/// The name errors are said under ([`set_program`]; `snmpc` by default).
pub fn program() -> &'static str {
    PROGRAM.get().map_or("snmpc", String::as_str)
}

/// Notes the command this process runs; once, at its start.
pub fn set_tool(tool: &str) {
    let _ = TOOL.set(tool.to_string());
}

/// Says `first` (net-snmp's words for an option or option letter its tool cannot use, such
/// as `Unknown output option passed to -O: w.`) and the tool's USAGE line on stderr, as
/// net-snmp's tool does; exit 1.
pub fn refuse_option(first: impl std::fmt::Display) -> ExitCode {
    let tool = TOOL.get().map_or("", String::as_str);
    match with_usage(tool, first.to_string()) {
        Some(text) => eprint!("{text}"),
        None => eprintln!("{first}"),
    }
    ExitCode::FAILURE
}

/// Says `first` (net-snmp's words for a `-C` letter its tool does not know: `Unknown flag
/// passed to -C: z`) alone on stderr, as net-snmp's tools do; exit 1.
pub fn refuse_flag(first: impl std::fmt::Display) -> ExitCode {
    eprintln!("{first}");
    ExitCode::FAILURE
}

/// What net-snmp's tool `tool` says for the command-line error `e` (a required argument
/// missing, a value of `-v`, `-t` or `-r` it does not take), with its USAGE line; `None` for
/// the errors it says otherwise.
pub fn said_as_net_snmp(tool: &str, e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let value = match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(v)) => v.as_str(),
        _ => "",
    };
    match (e.kind(), e.get(ContextKind::InvalidArg)?) {
        // An option another one requires (`-a` without `-A`) is not an argument net-snmp's
        // tool misses: the parser's own message names it.
        (ErrorKind::MissingRequiredArgument, ContextValue::Strings(names))
            if names.iter().any(|n| n.starts_with('<')) =>
        {
            missing_arguments(tool, names)
        }
        (ErrorKind::InvalidValue | ErrorKind::ValueValidation, ContextValue::String(arg)) => {
            invalid_value(tool, arg, value)
        }
        _ => None,
    }
}

/// `first`, then the USAGE line of net-snmp's tool `tool` and where `snmpc` lists the
/// options, a line each; `None` for a command that stands in for no net-snmp tool.
fn with_usage(tool: &str, first: String) -> Option<String> {
    let usage = usage_line(tool)?;
    Some(format!(
        "{first}\n{usage}\n  (snmpc {tool} --help lists the options)\n"
    ))
}

/// The `USAGE:` line of net-snmp's tool that `snmpc TOOL` stands in for, if there is one.
pub fn usage_line(tool: &str) -> Option<&'static str> {
    Some(match tool {
        "get" => "USAGE: snmpget [OPTIONS] AGENT OID [OID]...",
        "getnext" => "USAGE: snmpgetnext [OPTIONS] AGENT OID [OID]...",
        "bulkget" => "USAGE: snmpbulkget [OPTIONS] AGENT OID [OID]...",
        "walk" => "USAGE: snmpwalk [OPTIONS] AGENT [OID]",
        "bulkwalk" => "USAGE: snmpbulkwalk [OPTIONS] AGENT [OID]",
        "set" => "USAGE: snmpset [OPTIONS] AGENT OID TYPE VALUE [OID TYPE VALUE]...",
        "table" => "USAGE: snmptable [OPTIONS] AGENT TABLE-OID",
        "status" => "USAGE: snmpstatus [OPTIONS] AGENT",
        "df" => "Usage: snmpdf [-Cu] [OPTIONS] AGENT",
        "trap" => "USAGE: snmptrap [OPTIONS] AGENT TRAP-PARAMETERS",
        "inform" => "USAGE: snmpinform [OPTIONS] AGENT TRAP-PARAMETERS",
        _ => return None,
    })
}

/// What net-snmp's tool says first when the required arguments `missing` (as the argument
/// parser names them: `<AGENT>`, `<OIDS>...`) were not given: the agent is missed first,
/// then what the tool asks of it.
pub fn missing_message(tool: &str, missing: &[String]) -> &'static str {
    if missing.iter().any(|m| m.starts_with("<AGENT>")) {
        return "No hostname specified.";
    }
    match tool {
        "table" => "Must have exactly one table name",
        "trap" | "inform" => "Missing up-time parameter",
        _ => "Missing object name",
    }
}

/// The lines `snmpc TOOL` prints to standard error for `missing` required arguments, as
/// net-snmp's tool prints them, and where its options are listed; `None` for a command that
/// stands in for no net-snmp tool.
pub fn missing_arguments(tool: &str, missing: &[String]) -> Option<String> {
    with_usage(tool, missing_message(tool, missing).to_string())
}

/// net-snmp's words for a value its tools cannot use after `-v`, `-t` or `-r` (`arg` as the
/// argument parser names the option: `--snmp-version <VERSION>`), with the tool's USAGE line;
/// `None` for other options and for commands that stand in for no net-snmp tool.
pub fn invalid_value(tool: &str, arg: &str, value: &str) -> Option<String> {
    let first = if arg.starts_with("--snmp-version") {
        format!("Invalid version specified after -v flag: {value}")
    } else if arg.starts_with("--timeout") {
        "Invalid timeout in seconds after -t flag.".to_string()
    } else if arg.starts_with("--retries") {
        "Invalid number of retries after -r flag.".to_string()
    } else {
        return None;
    };
    with_usage(tool, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_is_missed_first_then_what_each_tool_asks_of_it() {
        let missing = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            missing_message("get", &missing(&["<AGENT>", "<OIDS>..."])),
            "No hostname specified."
        );
        assert_eq!(
            missing_message("get", &missing(&["<OIDS>..."])),
            "Missing object name"
        );
        assert_eq!(
            missing_message("table", &missing(&["<TABLE>"])),
            "Must have exactly one table name"
        );
        assert_eq!(
            missing_message("trap", &missing(&["<ARGS>..."])),
            "Missing up-time parameter"
        );
        assert_eq!(
            missing_arguments("walk", &missing(&["<AGENT>"])).as_deref(),
            Some(
                "No hostname specified.\nUSAGE: snmpwalk [OPTIONS] AGENT [OID]\n  \
                 (snmpc walk --help lists the options)\n"
            )
        );
        assert_eq!(missing_arguments("decode", &missing(&["<HEX>"])), None);
    }

    #[test]
    fn values_of_v_t_and_r_refused_in_net_snmps_words() {
        assert_eq!(
            invalid_value("get", "--snmp-version <VERSION>", "4").as_deref(),
            Some(
                "Invalid version specified after -v flag: 4\n\
                 USAGE: snmpget [OPTIONS] AGENT OID [OID]...\n  \
                 (snmpc get --help lists the options)\n"
            )
        );
        let first = |arg: &str| {
            invalid_value("walk", arg, "x").map(|t| t.lines().next().unwrap().to_string())
        };
        assert_eq!(
            first("--timeout <TIMEOUT>").as_deref(),
            Some("Invalid timeout in seconds after -t flag.")
        );
        assert_eq!(
            first("--retries <RETRIES>").as_deref(),
            Some("Invalid number of retries after -r flag.")
        );
        assert_eq!(first("--community <COMMUNITY>"), None);
        assert_eq!(invalid_value("decode", "--timeout <TIMEOUT>", "x"), None);
    }
}
