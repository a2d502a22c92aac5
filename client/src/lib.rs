//! snmp-client: sessions with SNMP agents (v1, v2c, v3/USM), tables walked into the rows the
//! MIB compiler generates, and notifications sent and received.
//!
//! ```no_run
//! use snmp_client::{Credentials, Options, Session};
//! use snmp_mibs_std::if_mib::IfEntry;
//!
//! let public = Credentials::V2c(b"public".to_vec());
//! let mut s = Session::new("127.0.0.1:161".parse()?, public, Options::default())?;
//! let rows = s.walk_table::<IfEntry>()?; // typed rows by ifIndex; what did not fit: problems()
//! for row in rows.iter() {
//!     println!("{} {:?} {:?}", row.index.if_index, row.if_descr, row.if_oper_status);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Everything below a socket is sans IO and runs anywhere; a trap made and received:
//!
//! ```
//! use snmp_client::listen::{Handled, Listener};
//! use snmp_client::notify::{v2_bindings, v2c_trap};
//! use snmp_client::Value;
//!
//! let link_down = "1.3.6.1.6.3.1.1.5.3".parse()?;
//! let if_index = ("1.3.6.1.2.1.2.2.1.1.3".parse()?, Value::Integer(3));
//! let datagram = v2c_trap(b"public", 1, &v2_bindings(4200, &link_down, &[if_index]))?;
//!
//! let mut listener = Listener::new(vec![b"public".to_vec()], Vec::new());
//! let Handled::Notification(n, _) = listener.handle("127.0.0.1:40000".parse()?, &datagram) else {
//!     panic!("a notification")
//! };
//! assert_eq!((n.trap_oid, n.uptime), (Some(link_down), Some(4200)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The SNMPv3 side: the User-based Security Model (RFC 3414), with the
//! SHA-2 authentication protocols of RFC 7860 and AES privacy (RFC 3826 and its 192- and
//! 256-bit variants), over the message codecs generated in `snmp-messages`.
//!
//! [`usm`] has the primitives: keys from passwords and their localisation to an engine, the
//! HMAC written into and checked in place in the encoded message (no re-encoding: the decoder
//! hands out the message's bytes and where `msgAuthenticationParameters` sits), and the
//! encryption of the scoped PDU. [`incoming`] takes a received message apart for them;
//! [`outgoing`] makes one to send; [`engine`] keeps what discovery and the time window
//! (RFC 3414 3.2 step 7) teach about an agent's engine, and reads its Reports.
//!
//! Sessions: [`Exchange`] is a session's sans-IO core (requests encoded; answers accepted by
//! the rules `docs/ARCHITECTURE.md` lists, everything else discarded and counted in
//! [`Stats`]; retransmissions, discovery, resynchronisation), [`Walk`] the sans-IO walk;
//! [`Session`] (std) and `AsyncSession` (tokio, with the feature `tokio`:
//! `snmp-client = { version = "0.1", features = ["tokio"] }`) drive them over UDP.

mod answer;
mod authoritative;
pub mod conf;
mod config;
pub mod engine;
mod error;
pub mod exchange;
pub mod incoming;
pub mod listen;
pub mod notify;
pub mod outgoing;
pub mod poll;
mod read_timeout;
mod request;
// The agent side (what `snmpc simulate` serves), with the feature `agent`.
#[cfg(feature = "agent")]
pub mod respond;
pub mod session;
pub mod stats;
pub mod tap;
pub mod target;
#[cfg(feature = "mibs")]
pub mod text;
mod transport;
pub mod typed_set;
pub mod usm;
mod value;
pub mod walk;

pub use config::{Credentials, Options, UsmUser, WalkWith};
pub use engine::{Engine, Report};
pub use error::{error_status_name, ClientError};
pub use exchange::Exchange;
pub use incoming::Incoming;
pub use outgoing::{seal, seal_into, Header, Security};
pub use request::Request;
#[cfg(feature = "tokio")]
pub use session::AsyncSession;
pub use session::{Session, WalkIter};
pub use snmp_mib::OpaqueNumber;
pub use stats::{Discard, Discards, Stats};
pub use target::Target;
pub use usm::{AuthProtocol, Key, PrivProtocol, UsmError};
pub use value::{Value, VarBind};
pub use walk::{Subtree, Walk, WalkEnd};
