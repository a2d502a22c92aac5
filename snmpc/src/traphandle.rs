//! snmptrapd.conf's `traphandle`: a command run for each notification of an OID (or each one no
//! handler names, under `default`), the notification on its standard input as snmptrapd
//! writes it: the sender's name, the transport, then each binding as `OID VALUE` (`-Oq`), an
//! SNMPv1 trap in its SNMPv2 form (RFC 3584 3.1: sysUpTime.0, snmpTrapOID.0, its bindings,
//! snmpTrapAddress.0, snmpTrapCommunity.0, snmpTrapEnterprise.0). The command line goes to
//! `/bin/sh -c`, as snmptrapd's does; a command still running after [`HANDLER_TIME`] is
//! stopped and said on stderr, as is one that fails.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::listen::Notification;
use snmp_client::{Value, VarBind};

use crate::print::Printer;

/// The longest a handler may run.
pub const HANDLER_TIME: Duration = Duration::from_secs(30);

/// snmpTrapAddress.0, snmpTrapCommunity.0 (SNMP-COMMUNITY-MIB) and snmpTrapEnterprise.0.
const TRAP_ADDRESS: [u32; 10] = [1, 3, 6, 1, 6, 3, 18, 1, 3, 0];
const TRAP_COMMUNITY: [u32; 10] = [1, 3, 6, 1, 6, 3, 18, 1, 4, 0];
const TRAP_ENTERPRISE: [u32; 11] = [1, 3, 6, 1, 6, 3, 1, 1, 4, 3, 0];
const SYS_UP_TIME: [u32; 9] = [1, 3, 6, 1, 2, 1, 1, 3, 0];
const SNMP_TRAP_OID: [u32; 11] = [1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0];

/// The handlers of a configuration: each command with the notification it is for (`None`:
/// every notification no other handler is for).
#[derive(Debug, Clone, Default)]
pub struct Handlers {
    handlers: Vec<(Option<Vec<u32>>, String)>,
    /// The communities and users whose notifications they run for (`None`: everyone's).
    executors: Option<Vec<Vec<u8>>>,
}

impl Handlers {
    /// `handlers` as the configuration gives them, their OIDs (names or numbers) read by
    /// `oid`, run for the notifications of `executors` (communities or users whose TYPES
    /// include `execute`; `None`: everyone's, as under `disableAuthorization`); an OID that
    /// does not read is an error.
    pub fn new(
        handlers: &[(Option<String>, String)],
        executors: Option<Vec<Vec<u8>>>,
        oid: &dyn Fn(&str) -> Result<Vec<u32>, String>,
    ) -> Result<Handlers, String> {
        let handlers = handlers
            .iter()
            .map(|(which, command)| {
                let arcs = which
                    .as_deref()
                    .map(|w| oid(w).map_err(|e| format!("traphandle {w}: {e}")))
                    .transpose()?;
                Ok((arcs, command.clone()))
            })
            .collect::<Result<_, String>>()?;
        Ok(Handlers {
            handlers,
            executors,
        })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.handlers.is_empty()
    }

    /// The commands for the notification `trap_oid`: those naming it, else the defaults.
    fn for_oid(&self, trap_oid: Option<&[u32]>) -> Vec<&str> {
        let named: Vec<&str> = self
            .handlers
            .iter()
            .filter(|(w, _)| w.is_some() && w.as_deref() == trap_oid)
            .map(|(_, c)| c.as_str())
            .collect();
        if !named.is_empty() {
            return named;
        }
        self.handlers
            .iter()
            .filter(|(w, _)| w.is_none())
            .map(|(_, c)| c.as_str())
            .collect()
    }

    /// Runs the handlers of `n` with `input` (from [`input`]) on their standard input, each to
    /// its end; what goes wrong is said on stderr.
    pub fn run(&self, n: &Notification, input: &str) {
        if let Some(allowed) = &self.executors {
            if !allowed.contains(&n.security_name) {
                return;
            }
        }
        let arcs: Option<Vec<u32>> = n.trap_oid.as_ref().map(|o| o.as_oid().arcs().collect());
        for command in self.for_oid(arcs.as_deref()) {
            if let Err(e) = run_one(command, input) {
                eprintln!("snmpc: traphandle {command}: {e}");
            }
        }
    }
}

/// `command` through `/bin/sh -c`, `input` on its standard input, waited for (at most
/// [`HANDLER_TIME`]).
fn run_one(command: &str, input: &str) -> Result<(), String> {
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        // A handler that does not read its input is not an error.
        let _ = stdin.write_all(input.as_bytes());
    }
    let until = Instant::now() + HANDLER_TIME;
    loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) if status.success() => return Ok(()),
            Some(status) => return Err(format!("ended with {status}")),
            None if Instant::now() >= until => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "still running after {} s: stopped",
                    HANDLER_TIME.as_secs()
                ));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// What a handler reads: `host`, `transport`, then the bindings (an SNMPv1 trap's in their
/// SNMPv2 form) as `-Oq` prints them.
pub fn input(n: &Notification, host: &str, transport: &str, p: &Printer<'_>) -> String {
    let quick = Printer {
        text: crate::print::text::Printer {
            output: crate::print::Output {
                quick: true,
                ..p.text.output
            },
            mibs: p.text.mibs,
        },
        json: false,
    };
    let mut out = format!("{host}\n{transport}\n");
    for vb in &v2_form(n) {
        out.push_str(&quick.line(vb));
        out.push('\n');
    }
    out
}

/// The bindings of `n` as an SNMPv2 notification carries them.
fn v2_form(n: &Notification) -> Vec<VarBind> {
    let Some(h) = &n.v1 else {
        return n.bindings.clone();
    };
    let oid = |arcs: &[u32]| OidBuf::from_arcs(arcs).expect("a short OID");
    let vb = |arcs: &[u32], value: Value| VarBind {
        oid: oid(arcs),
        value,
    };
    let mut all = vec![vb(&SYS_UP_TIME, Value::TimeTicks(h.uptime))];
    if let Some(t) = &n.trap_oid {
        all.push(vb(&SNMP_TRAP_OID, Value::ObjectIdentifier(t.clone())));
    }
    all.extend(n.bindings.iter().cloned());
    all.push(vb(&TRAP_ADDRESS, Value::IpAddress(h.agent_addr)));
    all.push(vb(
        &TRAP_COMMUNITY,
        Value::OctetString(n.security_name.as_slice().into()),
    ));
    all.push(vb(
        &TRAP_ENTERPRISE,
        Value::ObjectIdentifier(h.enterprise.clone()),
    ));
    all
}
