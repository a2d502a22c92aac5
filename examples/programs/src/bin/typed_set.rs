//! A typed SET: SNMPv2-MIB's sysName and sysLocation from the generated scalar group, each
//! value checked against its SYNTAX (DisplayString (SIZE (0..255))) before anything is sent.
//!
//! `typed-set AGENT COMMUNITY NAME [LOCATION]`

use example_programs::snmpv2_mib::SystemScalars;
use snmp_client::{Credentials, Options, Session};

/// sysName and sysLocation: their arcs under `system`.
const SYS_NAME: u32 = 5;
const SYS_LOCATION: u32 = 6;

fn main() -> std::process::ExitCode {
    example_programs::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [agent, community, name, rest @ ..] = &args[..] else {
        return Err("usage: typed-set AGENT COMMUNITY NAME [LOCATION]".into());
    };
    let credentials = Credentials::V2c(community.clone().into_bytes());
    let mut session = Session::open(agent, credentials, Options::default())?;

    let mut values = SystemScalars {
        sys_name: Some(name.clone()),
        ..SystemScalars::default()
    };
    let mut scalars = vec![SYS_NAME];
    if let Some(location) = rest.first() {
        values.sys_location = Some(location.clone());
        scalars.push(SYS_LOCATION);
    }
    for set in session.set_scalars(&values, &scalars)? {
        println!("{} = {:?}", set.oid, set.value);
    }
    Ok(())
}
