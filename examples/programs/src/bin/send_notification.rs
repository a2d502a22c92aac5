//! A notification sent as its type: IF-MIB's linkDown for one interface, as an SNMPv2c trap,
//! or as an inform the receiver acknowledges.
//!
//! `send-notification TARGET COMMUNITY IF-INDEX [--inform]`

use std::time::Instant;

use example_programs::if_mib::{IfAdminStatus, IfOperStatus, LinkDown};
use snmp_client::{Credentials, Options, Session};

fn main() -> std::process::ExitCode {
    example_programs::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, community, if_index, rest @ ..] = &args[..] else {
        return Err("usage: send-notification TARGET COMMUNITY IF-INDEX [--inform]".into());
    };
    let if_index: i32 = if_index.parse()?;
    let credentials = Credentials::V2c(community.clone().into_bytes());
    let mut session = Session::open(target, credentials, Options::default())?;

    let down = LinkDown {
        instance: vec![u32::try_from(if_index)?],
        if_index,
        if_admin_status: IfAdminStatus::Up,
        if_oper_status: IfOperStatus::Down,
    };
    // sysUpTime.0 of the notification: this program's, in hundredths of a second.
    let uptime = u32::try_from(started.elapsed().as_millis() / 10)?;
    if rest.iter().any(|a| a == "--inform") {
        session.inform_of(uptime, &down)?;
        println!("linkDown of interface {if_index} acknowledged by {target}");
    } else {
        session.notify(uptime, &down)?;
        println!("linkDown of interface {if_index} sent to {target}");
    }
    Ok(())
}
