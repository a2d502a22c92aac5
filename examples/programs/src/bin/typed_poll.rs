//! A typed poll: ifTable joined with ifXTable by ifIndex, and UCD-SNMP-MIB's laTable, over
//! SNMPv2c or SNMPv3 (SHA, AES).
//!
//! `typed-poll AGENT COMMUNITY` or `typed-poll AGENT USER AUTH-PASS PRIV-PASS`

use example_programs::if_mib::{IfEntry, IfXEntry};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, Session, UsmUser};

fn main() -> std::process::ExitCode {
    example_programs::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let credentials = match &args[..] {
        [_, community] => Credentials::V2c(community.clone().into_bytes()),
        [_, user, auth, private] => Credentials::Usm(UsmUser::new(
            user,
            Some((AuthProtocol::Sha1, auth.as_bytes())),
            Some((PrivProtocol::Aes128, private.as_bytes())),
        )?),
        _ => {
            return Err("usage: typed-poll AGENT COMMUNITY | AGENT USER AUTH-PASS PRIV-PASS".into())
        }
    };
    let mut session = Session::open(&args[0], credentials, Options::default())?;

    let interfaces = session.walk_joined::<IfEntry, IfXEntry>()?;
    for (entry, extension) in interfaces.iter() {
        let name = extension.and_then(|x| x.if_name.as_deref()).unwrap_or("-");
        let received = extension.and_then(|x| x.if_hcin_octets).unwrap_or(0);
        let status = entry.if_oper_status.map(|s| s.to_i32()).unwrap_or(0);
        println!(
            "interface {} {name} status {status} received {received}",
            entry.index.if_index
        );
    }
    for problem in interfaces.problems() {
        eprintln!("left out: {problem}");
    }

    #[cfg(ucd)]
    for load in session
        .walk_table::<example_programs::ucd_snmp_mib::LaEntry>()?
        .iter()
    {
        let name = load.la_names.as_deref().unwrap_or("-");
        println!("load {name} {:.2}", load.la_load_float.unwrap_or(f32::NAN));
    }
    Ok(())
}
