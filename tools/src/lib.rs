//! The library behind `snmpc`: turning captured octets into readable and JSON views of SNMP
//! messages (all versions), reading pcap/pcapng captures, and the `--trace` diagnostic walk.

pub mod agent;
pub mod ask;
pub mod capture;
pub mod hexdump;
pub mod mibs;
pub mod print;
pub mod setvalue;
pub mod trace;
pub mod view;
