//! An agent's address as net-snmp's tools take it: `[TRANSPORT:]HOST[:PORT]`. The transport
//! is `udp` (the default; either family), `udp6`/`udpv6`/`udpipv6` (IPv6 only), `tcp` and its
//! IPv6 forms (RFC 3430); HOST a name, an IPv4 address, or an IPv6 address bare or in
//! brackets (`::1`, `[::1]:1161`); PORT the one given, else the caller's default (161 for an
//! agent, 162 for a notification receiver).
//!
//! ```
//! use snmp_client::target::{Protocol, Target};
//!
//! let t = Target::parse("tcp:localhost:1161", 161)?;
//! assert_eq!((t.protocol, t.addr.port()), (Protocol::Tcp, 1161));
//! let t = Target::parse("udp6:[::1]", 161)?;
//! assert_eq!(t.addr, "[::1]:161".parse()?);
//! assert!(Target::parse("ssh:host", 161).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::net::{SocketAddr, ToSocketAddrs};

/// The transports an agent is reached over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// UDP (RFC 3417).
    Udp,
    /// TCP, each message framed by its own length (RFC 3430).
    Tcp,
}

/// net-snmp's transport specifiers this client speaks: the protocol, and whether the
/// specifier asks for IPv6 only.
const TRANSPORTS: [(&str, Protocol, bool); 8] = [
    ("udp", Protocol::Udp, false),
    ("udp6", Protocol::Udp, true),
    ("udpv6", Protocol::Udp, true),
    ("udpipv6", Protocol::Udp, true),
    ("tcp", Protocol::Tcp, false),
    ("tcp6", Protocol::Tcp, true),
    ("tcpv6", Protocol::Tcp, true),
    ("tcpipv6", Protocol::Tcp, true),
];

/// Transport specifiers net-snmp knows that are neither UDP nor TCP: said to be unsupported,
/// not taken for a host name.
const OTHER_TRANSPORTS: [&str; 7] = ["unix", "ipx", "aal5pvc", "pvc", "dtlsudp", "tlstcp", "ssh"];

/// An agent's address, resolved, and the transport to reach it over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The address (the first the name resolves to, of the family the transport asks for).
    pub addr: SocketAddr,
    /// UDP or TCP.
    pub protocol: Protocol,
}

/// Why an address could not be used; said in net-snmp's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// A transport this client does not speak (`ssh:`, `unix:`, ...).
    #[error("{agent}: transport `{transport}` is not supported (UDP and TCP only)")]
    Unsupported {
        /// The address as given.
        agent: String,
        /// Its transport specifier.
        transport: String,
    },
    /// The name does not resolve, or the port is no number (`detail` says which).
    #[error("Unknown host ({agent}){}", detail.as_ref().map(|d| format!(" ({d})")).unwrap_or_default())]
    UnknownHost {
        /// The address as given.
        agent: String,
        /// The resolver's reason, where it is the input's form rather than the name.
        detail: Option<String>,
    },
    /// The name resolves, but to no address of the family the transport asks for.
    #[error("{agent}: no {}address", if *v6_only { "IPv6 " } else { "" })]
    NoAddress {
        /// The address as given.
        agent: String,
        /// Whether IPv6 was asked for.
        v6_only: bool,
    },
}

impl Target {
    /// `agent` resolved (see the module's documentation), `default_port` when it names none.
    pub fn parse(agent: &str, default_port: u16) -> Result<Target, TargetError> {
        let (spec, address) = split_transport(agent);
        let Some(&(_, protocol, v6_only)) = TRANSPORTS
            .iter()
            .find(|(t, ..)| spec.is_empty() || spec.eq_ignore_ascii_case(t))
        else {
            return Err(TargetError::Unsupported {
                agent: agent.to_string(),
                transport: spec.to_string(),
            });
        };
        let with_port = with_default_port(address, default_port);
        // `[192.0.2.1]:161`, which net-snmp takes and the resolver does not.
        let unbracketed = match with_port.strip_prefix('[').and_then(|r| r.split_once("]:")) {
            Some((ip, p)) if ip.parse::<std::net::Ipv4Addr>().is_ok() => format!("{ip}:{p}"),
            _ => with_port,
        };
        let unknown = |e: std::io::Error| TargetError::UnknownHost {
            agent: agent.to_string(),
            detail: (e.kind() == std::io::ErrorKind::InvalidInput).then(|| e.to_string()),
        };
        let addr = unbracketed
            .to_socket_addrs()
            .map_err(unknown)?
            .find(|a| a.is_ipv6() || !v6_only)
            .ok_or_else(|| TargetError::NoAddress {
                agent: agent.to_string(),
                v6_only,
            })?;
        Ok(Target { addr, protocol })
    }
}

/// Whether `agent` names a TCP transport (`tcp:HOST`, `tcp6:[::1]:1161`).
pub fn is_tcp(agent: &str) -> bool {
    let (spec, _) = split_transport(agent);
    TRANSPORTS
        .iter()
        .any(|(t, p, _)| *p == Protocol::Tcp && spec.eq_ignore_ascii_case(t))
}

/// `agent` split into its transport specifier (`udp`, `tcp6`..., as net-snmp writes them;
/// empty when there is none) and its address.
pub fn split_transport(agent: &str) -> (&str, &str) {
    match agent.split_once(':') {
        Some((t, rest))
            if TRANSPORTS.iter().any(|(u, ..)| t.eq_ignore_ascii_case(u))
                || OTHER_TRANSPORTS.iter().any(|o| t.eq_ignore_ascii_case(o)) =>
        {
            (t, rest)
        }
        _ => ("", agent),
    }
}

/// `agent` with `port` when it names none: `HOST`, `HOST:PORT`, an IPv6 address bare or in
/// brackets (`::1`, `[::1]`, `[::1]:1161`), after a transport specifier (`udp:HOST`).
pub fn with_default_port(agent: &str, port: u16) -> String {
    let (spec, address) = split_transport(agent);
    if !spec.is_empty() {
        return format!("{spec}:{}", with_default_port(address, port));
    }
    if let Some(rest) = agent.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((_, "")) => format!("{agent}:{port}"),
            _ => agent.to_string(),
        };
    }
    match agent.matches(':').count() {
        0 => format!("{agent}:{port}"),
        1 => agent.to_string(),
        // Colons of an IPv6 address, no port.
        _ => format!("[{agent}]:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_net_snmp_takes() {
        let udp = |s: &str| Target {
            addr: s.parse().unwrap(),
            protocol: Protocol::Udp,
        };
        for (agent, want) in [
            ("127.0.0.1", udp("127.0.0.1:161")),
            ("127.0.0.1:1161", udp("127.0.0.1:1161")),
            ("udp:127.0.0.1:1161", udp("127.0.0.1:1161")),
            ("UDP:[127.0.0.1]:1161", udp("127.0.0.1:1161")),
            ("::1", udp("[::1]:161")),
            ("[::1]", udp("[::1]:161")),
            ("udp6:[::1]:1161", udp("[::1]:1161")),
        ] {
            assert_eq!(Target::parse(agent, 161), Ok(want), "{agent}");
        }
        let t = Target::parse("tcp:127.0.0.1", 161).unwrap();
        assert_eq!((t.protocol, t.addr.port()), (Protocol::Tcp, 161));
        assert!(is_tcp("tcp6:[::1]") && !is_tcp("udp:host") && !is_tcp("tcphost"));
    }

    #[test]
    fn what_cannot_be_used_is_said_as_net_snmp_says_it() {
        let e = Target::parse("ssh:host", 161).unwrap_err();
        assert_eq!(
            e.to_string(),
            "ssh:host: transport `ssh` is not supported (UDP and TCP only)"
        );
        let e = Target::parse("127.0.0.1:port", 161).unwrap_err();
        assert!(
            e.to_string().starts_with("Unknown host (127.0.0.1:port) ("),
            "{e}"
        );
        let e = Target::parse("udp6:127.0.0.1", 161).unwrap_err();
        assert_eq!(e.to_string(), "udp6:127.0.0.1: no IPv6 address");
    }
}
