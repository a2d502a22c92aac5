//! The library behind `snmpc`: turning captured octets into readable and JSON views of SNMP
//! messages (all versions), reading pcap/pcapng captures, and the `--trace` diagnostic walk;
//! the commands that ask an agent or send it notifications with net-snmp's arguments
//! ([`agent`]), printing bindings as net-snmp's tools print them ([`mod@print`]), SET values by
//! net-snmp's type letters ([`setvalue`]), and MIB modules for names ([`mibs`]).

pub mod agent;
pub mod ask;
pub mod capture;
pub mod describe;
pub mod hexdump;
pub mod hintinput;
pub mod host;
pub mod index;
pub mod listen;
pub mod miblist;
pub mod mibs;
pub mod mibtree;
pub mod precedence;
pub mod print;
pub mod send;
pub mod setvalue;
pub mod simulate;
pub mod snmpconf;
pub mod status;
pub mod table;
pub mod trace;
pub mod trapd_conf;
pub mod trapfmt;
pub mod traphandle;
pub mod usage;
pub mod view;
