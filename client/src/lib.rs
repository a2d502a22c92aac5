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

pub mod engine;
pub mod incoming;
pub mod outgoing;
pub mod session;
pub mod usm;

pub use engine::{Engine, Report};
pub use incoming::Incoming;
pub use outgoing::{seal, Header, Security};
pub use session::{
    AsyncSession, ClientError, Credentials, Options, Session, UsmUser, Value, VarBind,
};
pub use usm::{AuthProtocol, Key, PrivProtocol, UsmError};
