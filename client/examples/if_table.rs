//! Polls an agent's ifTable into IF-MIB's typed rows and prints one line an interface:
//! `cargo run -p snmp-client --example if_table -- 127.0.0.1:161 public`.

use snmp_client::{Credentials, Options, Session};
use snmp_mibs_std::if_mib::IfEntry;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let agent = args.next().unwrap_or_else(|| "127.0.0.1:161".into());
    let community = args.next().unwrap_or_else(|| "public".into());
    let creds = Credentials::V2c(community.into_bytes());
    let mut session = Session::new(agent.parse()?, creds, Options::default())?;
    let rows = session.walk_table::<IfEntry>()?;
    for row in rows.iter() {
        let name = row.if_descr.as_deref().unwrap_or("?");
        println!(
            "{:>6} {name:<20} {:?} {:?}",
            row.index.if_index, row.if_oper_status, row.if_speed
        );
    }
    for problem in rows.problems() {
        eprintln!("not in a row: {problem}");
    }
    Ok(())
}
