//! Notifications received as their types: IF-MIB's linkDown and linkUp and SNMPv2-MIB's
//! coldStart and warmStart matched as the generated structs, anything else said by its OID.
//!
//! `receive-notification ADDRESS COMMUNITY COUNT [SECONDS]`: ends after COUNT notifications,
//! or SECONDS (default 10) without one.

use std::time::{Duration, Instant};

use example_programs::{if_mib, snmpv2_mib};
use snmp_client::listen::{Listener, Notification, Receiver};

fn main() -> std::process::ExitCode {
    example_programs::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [address, community, count, rest @ ..] = &args[..] else {
        return Err("usage: receive-notification ADDRESS COMMUNITY COUNT [SECONDS]".into());
    };
    let count: usize = count.parse()?;
    let wait = Duration::from_secs(rest.first().map_or(Ok(10), |s| s.parse())?);
    let listener = Listener::new(vec![community.clone().into_bytes()], Vec::new());
    let mut receiver = Receiver::bind(address, listener)?;
    println!("listening on {}", receiver.local_addr()?);

    let mut taken = 0;
    while taken < count {
        let Some(n) = receiver.recv_until(Some(Instant::now() + wait))? else {
            break;
        };
        taken += 1;
        println!("{} from {}: {}", n.version, n.source, describe(&n));
    }
    let (received, notifications, dropped) = receiver.listener().counters();
    println!("{received} datagrams, {notifications} notifications, dropped: {dropped:?}");
    Ok(())
}

/// What a notification says, read as the generated type of its NOTIFICATION-TYPE.
fn describe(n: &Notification) -> String {
    use if_mib::Notifications as If;
    use snmpv2_mib::Notifications as Snmp;
    match n.with_bindings(If::from_received) {
        Some(Ok(If::LinkDown(down))) => return format!("linkDown ifIndex {}", down.if_index),
        Some(Ok(If::LinkUp(up))) => return format!("linkUp ifIndex {}", up.if_index),
        Some(Err(e)) => return format!("an IF-MIB notification that does not read: {e}"),
        None => {}
    }
    match n.with_bindings(Snmp::from_received) {
        Some(Ok(Snmp::ColdStart(_))) => "coldStart".into(),
        Some(Ok(Snmp::WarmStart(_))) => "warmStart".into(),
        Some(Ok(other)) => format!("{other:?}"),
        Some(Err(e)) => format!("an SNMPv2-MIB notification that does not read: {e}"),
        None => format!("not one of ours: {:?}", n.trap_oid),
    }
}
