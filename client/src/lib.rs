//! The SNMPv3 side of snmp-codegen's client: the User-based Security Model (RFC 3414), with the
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
//! [`Session`] (std) and `AsyncSession` (tokio, the default feature `tokio`) drive them over
//! UDP.

mod answer;
mod config;
pub mod engine;
mod error;
pub mod exchange;
pub mod incoming;
pub mod listen;
pub mod notify;
pub mod outgoing;
mod request;
pub mod session;
pub mod stats;
pub mod usm;
mod value;
pub mod walk;

pub use config::{Credentials, Options, UsmUser, WalkWith};
pub use engine::{Engine, Report};
pub use error::{error_status_name, ClientError};
pub use exchange::Exchange;
pub use incoming::Incoming;
pub use outgoing::{seal, Header, Security};
pub use request::Request;
#[cfg(feature = "tokio")]
pub use session::AsyncSession;
pub use session::Session;
pub use stats::{Discard, Discards, Stats};
pub use usm::{AuthProtocol, Key, PrivProtocol, UsmError};
pub use value::{Value, VarBind};
pub use walk::Walk;
