//! What the workspace's tests share (a dev-dependency only): [`agent`], an snmpd of our own on
//! 127.0.0.1 and net-snmp's tools, found or the test skipped (a failure under
//! `SNMP_REQUIRE_TOOLS=1`); [`hostile`], a responder that answers with exactly the datagrams
//! a test scripts.

pub mod agent;
pub mod hostile;
