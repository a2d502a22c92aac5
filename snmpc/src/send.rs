//! `snmpc trap` and `snmpc inform`, as snmptrap and snmpinform: notifications sent with their
//! arguments (to port 162 unless the address names another).

use std::process::ExitCode;

use snmp_ber::OidBuf;
use snmp_client::ClientError;

use crate::agent::{
    agent_error, bad_arguments, triples, Agent, ArgError, Bindings, BindingsOf, Tool,
};
use crate::ask::{self, AgentOpts, AppOpts};

/// The sender's uptime for a notification whose UPTIME argument is empty, as net-snmp's
/// snmptrap takes it: this host's, in hundredths of a second (0 where the system does not say).
fn local_uptime() -> u32 {
    std::fs::read_to_string("/proc/uptime")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map(|s| (s * 100.0).min(u32::MAX as f64) as u32)
        .unwrap_or(0)
}

/// An UPTIME argument: hundredths of a second, or empty for this host's.
fn uptime(text: &str) -> Result<u32, String> {
    if text.is_empty() {
        return Ok(local_uptime());
    }
    text.parse().map_err(|_| {
        format!("uptime `{text}`: expected hundredths of a second, or '' for this host's")
    })
}

/// `opts` sending to port 162 unless the address names one.
fn to_trap_port(opts: &AgentOpts) -> AgentOpts {
    AgentOpts {
        agent: ask::with_default_port(&opts.agent, 162),
        ..opts.clone()
    }
}

/// `trap`, as snmptrap: `-v 1 ... ENTERPRISE AGENT GENERIC SPECIFIC UPTIME [OID TYPE VALUE]...`
/// (an empty ENTERPRISE is net-snmp's default, an empty AGENT this host's address), or
/// `-v 2c ... UPTIME TRAP-OID [OID TYPE VALUE]...`; an empty UPTIME is this host's. To port 162
/// unless the address names another. SNMPv3 traps need `-e`, this sender's engine ID. `-Ci`
/// sends an inform instead, as snmptrap -Ci does.
pub fn trap(opts: &AgentOpts, app: &AppOpts, args: &[String]) -> ExitCode {
    // snmptrap's `-Ci` (walk's `-Ci` letter): an inform.
    match app.parse(ask::letters::TRAP) {
        Ok(a) if a.include_root && opts.version == "1" => {
            return bad_arguments("Cannot send INFORM as SNMPv1 PDU")
        }
        Ok(a) if a.include_root => return inform(opts, args),
        Ok(_) => {}
        Err(e) => return crate::usage::refuse_flag(e),
    }
    let opts = to_trap_port(opts);
    let mut agent = match Agent::open(&opts, args, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if let (true, Ok(Some(id))) = (opts.version == "3", opts.engine_id()) {
        // A v3 trap's sender is the authoritative engine: this one, under -e's ID, one boot
        // more than at its last run.
        agent
            .session
            .set_local_engine(&id, ask::local_engine_boots(&id));
    }
    let sent = if opts.version == "1" {
        trap_v1(&mut agent, args)
    } else {
        notification(&agent, args)
            .map(|(up, oid, bindings)| agent.session.trap(up, &oid, &bindings))
    };
    match sent {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => agent_error(&agent, e, Tool::Other),
        Err(e) => e.exit(),
    }
}

/// An SNMPv2 notification's arguments: UPTIME TRAP-OID, then bindings.
fn notification(agent: &Agent, args: &[String]) -> Result<(u32, OidBuf, Bindings), ArgError> {
    let [up, oid, rest @ ..] = args else {
        return Err("expected UPTIME TRAP-OID [OID TYPE VALUE]...".into());
    };
    Ok((
        uptime(up)?,
        agent.oid(oid)?,
        triples(agent, rest, BindingsOf::Notification)?,
    ))
}

/// A Trap-PDU's agent-addr as snmptrap reads it: an IPv4 address, or a host name's first
/// IPv4 address (net-snmp's words when it has none).
fn agent_address(addr: &str) -> Result<std::net::Ipv4Addr, String> {
    use std::net::{SocketAddr, ToSocketAddrs};
    if let Ok(ip) = addr.parse() {
        return Ok(ip);
    }
    (addr, 0)
        .to_socket_addrs()
        .ok()
        .and_then(|mut all| {
            all.find_map(|a| match a {
                SocketAddr::V4(v4) => Some(*v4.ip()),
                SocketAddr::V6(_) => None,
            })
        })
        .ok_or_else(|| format!("unknown host: {addr}"))
}

/// snmptrap's SNMPv1 form: ENTERPRISE AGENT GENERIC SPECIFIC UPTIME, then bindings.
fn trap_v1(agent: &mut Agent, args: &[String]) -> Result<Result<(), ClientError>, ArgError> {
    let [enterprise, addr, generic, specific, up, rest @ ..] = args else {
        return Err("expected ENTERPRISE AGENT GENERIC SPECIFIC UPTIME [OID TYPE VALUE]...".into());
    };
    let enterprise = if enterprise.is_empty() {
        // net-snmp's snmptrap's default enterprise.
        "1.3.6.1.4.1.3.1.1".parse().expect("an OID")
    } else {
        agent.oid(enterprise)?
    };
    let agent_addr = if addr.is_empty() {
        None
    } else {
        Some(agent_address(addr).map_err(ArgError::Refused)?.octets())
    };
    let number = |what: &str, t: &str| {
        t.parse::<i64>()
            .map_err(|_| format!("{what} `{t}`: expected a number"))
    };
    let header = snmp_client::notify::V1Trap {
        enterprise,
        agent_addr: agent_addr.unwrap_or([0; 4]),
        generic: number("generic trap", generic)?,
        specific: number("specific trap", specific)?,
        uptime: uptime(up)?,
    };
    let bindings = triples(agent, rest, BindingsOf::Notification)?;
    Ok(match agent_addr {
        Some(_) => agent.session.trap_v1(&header, &bindings),
        // This host's address, as the session finds it.
        None => agent.session.trap_v1_from_here(&header, &bindings),
    })
}

/// `inform`, as snmpinform: `-v 2c|3 ... UPTIME TRAP-OID [OID TYPE VALUE]...`; the
/// receiver's answer printed as bindings. To port 162 unless the address names another.
pub fn inform(opts: &AgentOpts, args: &[String]) -> ExitCode {
    let opts = to_trap_port(opts);
    let mut agent = match Agent::open(&opts, args, |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let (up, oid, bindings) = match notification(&agent, args) {
        Ok(n) => n,
        Err(e) => return e.exit(),
    };
    let answer = agent.session.inform(up, &oid, &bindings);
    // snmpinform prints nothing when the inform is acknowledged, and no more than that it
    // timed out when it is not.
    match answer {
        Ok(_) => ExitCode::SUCCESS,
        Err(ClientError::Timeout { .. }) => {
            eprintln!("{}: Timeout", crate::usage::program());
            ExitCode::FAILURE
        }
        Err(e) => agent_error(&agent, e, Tool::Other),
    }
}
