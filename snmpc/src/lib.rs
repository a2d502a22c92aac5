//! The library behind `snmpc`: turning captured octets into readable and JSON views of SNMP
//! messages (all versions), reading pcap/pcapng captures, and the `--trace` diagnostic walk;
//! the commands that ask an agent or send it notifications with net-snmp's arguments
//! ([`agent`]), printing bindings as net-snmp's tools print them ([`mod@print`]), SET values by
//! net-snmp's type letters ([`setvalue`]), and MIB modules for names ([`snmp_smi::names`]).
//!
//! ```
//! // A v2c GetRequest of ifInOctets.228, as `snmpc decode --json` shows it.
//! let message = [
//!     0x30, 0x29, 0x02, 0x01, 0x01, 0x04, 0x06, b'p', b'u', b'b', b'l', b'i', b'c', 0xa0, 0x1c,
//!     0x02, 0x01, 0x01, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00, 0x30, 0x11, 0x30, 0x0f, 0x06, 0x0b,
//!     0x2b, 0x06, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x0a, 0x81, 0x64, 0x05, 0x00,
//! ];
//! let view = snmpc::view::decode(&message).map_err(|f| f.error)?;
//! assert_eq!(view["pdu"], "get");
//! assert_eq!(view["varbinds"][0]["oid"], "1.3.6.1.2.1.2.2.1.10.228");
//! # Ok::<(), String>(())
//! ```

pub mod agent;
pub mod ask;
pub mod capture;
pub mod decode;
pub mod describe;
pub mod hexdump;
pub mod hintinput;
pub mod host;
pub mod listen;
pub mod mib_command;
pub mod miblist;
pub mod mibtree;
pub mod netsnmp_dump;
pub mod print;
pub mod send;
pub mod setvalue;
pub mod simulate;
pub mod snmpconf;
pub mod status;
pub mod stop;
pub mod table;
pub mod trace;
pub mod translate;
pub mod trapd_cli;
pub mod trapd_conf;
pub mod trapfmt;
pub mod traphandle;
pub mod usage;
pub mod view;
