//! net-snmp's words for a command line that lacks what its tool needs: the line the tool
//! prints first (`No hostname specified.`, `Missing object name`, ...) and its `USAGE:` line.

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
    let usage = usage_line(tool)?;
    Some(format!(
        "{}\n{usage}\n  (snmpc {tool} --help lists the options)\n",
        missing_message(tool, missing)
    ))
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
}
