//! snmp-agent: the way a Rust program implements a MIB. build.rs compiles the MIB with
//! `snmp_codegen::Builder::agent(true)`; the generated row structs and scalar groups are
//! served by [`Table`] and [`Scalars`] (SYNTAX checks, RowStatus and error-statuses from
//! the MIB, not hand-written), registered in a [`Registry`], and answered to managers by
//! [`Agent`] (standalone: UDP, SNMPv1/v2c/v3 with view-based access from snmpd.conf lines)
//! or by [`agentx::Subagent`] (an AgentX subagent of net-snmp's snmpd, RFC 2741).
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use snmp_agent::{Access, Agent, MibView, Registry};
//!
//! // A handler written by hand, for what no MIB describes: one read-only scalar.
//! struct Answer;
//! impl snmp_agent::Handler for Answer {
//!     fn subtrees(&self) -> Vec<Vec<u32>> { vec![vec![1, 3, 6, 1, 4, 1, 8072, 9999, 42]] }
//!     fn get(&mut self, name: &[u32]) -> snmp_client::Value {
//!         match name {
//!             [.., 42, 0] => snmp_client::Value::Integer(42),
//!             _ => snmp_client::Value::NoSuchInstance,
//!         }
//!     }
//!     fn next(&mut self, name: &[u32]) -> Option<(snmp_ber::OidBuf, snmp_client::Value)> {
//!         let oid = [1, 3, 6, 1, 4, 1, 8072, 9999, 42, 0];
//!         (name < &oid[..]).then(|| (snmp_ber::OidBuf::from_arcs(&oid).unwrap(), snmp_client::Value::Integer(42)))
//!     }
//! }
//! let mut registry = Registry::new();
//! registry.register(Answer)?;
//! let access = Access::new().community("public", MibView::everything(), None);
//! let agent = Agent::new(registry, access, b"\x80\x00\x1f\x88\x04example", 1);
//! # let _ = agent;
//! # Ok::<(), snmp_agent::RegisterError>(())
//! ```

mod access;
pub mod agentx;
mod handler;
mod registry;
mod scalars;
mod served;
mod server;
mod table;

pub use access::{Access, ConfigError, MibView};
pub use handler::{Handler, SetError, Write};
pub use registry::{Refusal, RegisterError, Registry};
pub use scalars::{Keep, ScalarHooks, ScalarValues, Scalars};
pub use served::Served;
pub use server::Agent;
pub use snmp_mib::{AgentRow, Columns, ErrorStatus, ScalarGroup};
pub use table::{Accept, RowMap, Table, TableHooks, TableRows};

/// An OID's arcs, without a heap allocation for up to 32 of them (what every request's
/// names are turned into).
pub(crate) type Arcs = smallvec::SmallVec<[u32; 32]>;

/// The arcs of `oid`.
pub(crate) fn arcs(oid: &snmp_ber::OidBuf) -> Arcs {
    oid.as_oid().arcs().collect()
}

/// Shared values for a handler and the program: `shared(x)` is `Arc::new(Mutex::new(x))`.
pub fn shared<T>(value: T) -> std::sync::Arc<std::sync::Mutex<T>> {
    std::sync::Arc::new(std::sync::Mutex::new(value))
}
