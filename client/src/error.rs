//! Why an exchange with an agent failed.

use std::net::SocketAddr;
use std::time::Duration;

use snmp_ber::OidBuf;

use crate::engine::Report;
use crate::incoming::IncomingError;
use crate::outgoing::OutgoingError;
use crate::stats::Discards;
use crate::usm::UsmError;

/// Why an exchange failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// A value that does not fit its MIB definition: a table's binding that does not fit its
    /// row (a value outside its range, an index that does not decode), where
    /// [`crate::Session::walk_table`] stops, or a typed SET's value refused before sending.
    #[error("MIB: {0}")]
    Table(#[from] snmp_mib::MibError),
    /// A generated notification's binding is not one (an OBJECT IDENTIFIER value that is not).
    #[error("notification: {0}")]
    Notification(snmp_mib::MibError),
    /// The agent's address cannot be used (`Session::open`).
    #[error("{0}")]
    Target(#[from] crate::target::TargetError),
    /// The socket failed.
    #[error("UDP: {0}")]
    Io(#[from] std::io::Error),
    /// No acceptable answer: none came, or every datagram that came was discarded (see
    /// [`crate::Stats`] for why).
    #[error(
        "no answer from {target} after {attempts} attempts of {timeout:?}{}",
        discarded_note(discarded)
    )]
    Timeout {
        /// The agent.
        target: SocketAddr,
        /// Requests sent.
        attempts: u32,
        /// The wait for each.
        timeout: Duration,
        /// Datagrams received meanwhile and discarded (not the answer, or not acceptable), by
        /// reason.
        discarded: Box<Discards>,
    },
    /// A request could not be encoded.
    #[error("encoding the request: {0}")]
    Encode(snmp_ber::EncodeError),
    /// A USM check or transform failed.
    #[error(transparent)]
    Usm(#[from] UsmError),
    /// A message could not be taken apart or opened.
    #[error(transparent)]
    Incoming(#[from] IncomingError),
    /// The request could not be sealed.
    #[error(transparent)]
    Outgoing(#[from] OutgoingError),
    /// The agent answered with a Report (RFC 3414 3.2).
    #[error("the agent reports {0}")]
    Report(Report),
    /// The agent answered with an error-status.
    #[error(
        "error-status {} ({status}) at binding {index}{}",
        error_status_name(*status),
        oid.as_ref().map(|o| format!(" ({o})")).unwrap_or_default()
    )]
    ErrorStatus {
        /// error-status.
        status: i64,
        /// error-index (1-based; 0 for the whole request).
        index: i64,
        /// The OID of the binding error-index names, when it names one of the request's.
        oid: Option<OidBuf>,
    },
    /// A walk's next OID does not follow the previous one: the agent loops.
    #[error("walk: {next} does not follow {previous}")]
    NotIncreasing {
        /// The last OID.
        previous: OidBuf,
        /// The one that should have followed it.
        next: OidBuf,
    },
    /// A walk's answer holds no binding at all: the walk cannot go on, and what it gave so
    /// far may be incomplete.
    #[error("walk: the agent answered with no bindings after {0}; the walk is incomplete")]
    NoBindings(OidBuf),
    /// The agent's Response to a GET, GETNEXT or SET does not hold one binding for each
    /// binding asked (RFC 3416 4.2.1, 4.2.2, 4.2.5): `answered` of `asked`.
    #[error("the agent answered {answered} bindings to a request of {asked}")]
    BindingCount {
        /// Bindings in the request.
        asked: usize,
        /// Bindings in the answer.
        answered: usize,
    },
    /// A value a SET cannot carry.
    #[error("a SET cannot carry {0}")]
    NotSettable(&'static str),
    /// GETBULK under SNMPv1, which has none.
    #[error("GETBULK is not in SNMPv1")]
    NoBulkInV1,
    /// What the session's version or this client does not offer.
    #[error("not offered: {0}")]
    NotOffered(&'static str),
    /// A walk reached [`crate::Options::max_walk_requests`] or
    /// [`crate::Options::max_walk_time`] still inside its subtree.
    #[error(
        "walk: still inside the subtree after {requests} requests and {elapsed:?} \
         (the limit is {limit}); the walk is incomplete"
    )]
    WalkTooLong {
        /// Requests made.
        requests: usize,
        /// How long the walk took.
        elapsed: Duration,
        /// Which limit was reached.
        limit: &'static str,
    },
}

/// RFC 3416's name of an error-status (RFC 1157's for 0 to 5), as net-snmp's tools print it.
pub fn error_status_name(status: i64) -> &'static str {
    const NAMES: [&str; 19] = [
        "noError",
        "tooBig",
        "noSuchName",
        "badValue",
        "readOnly",
        "genErr",
        "noAccess",
        "wrongType",
        "wrongLength",
        "wrongEncoding",
        "wrongValue",
        "noCreation",
        "inconsistentValue",
        "resourceUnavailable",
        "commitFailed",
        "undoFailed",
        "authorizationError",
        "notWritable",
        "inconsistentName",
    ];
    usize::try_from(status)
        .ok()
        .and_then(|k| NAMES.get(k))
        .copied()
        .unwrap_or("an error-status no RFC defines")
}

fn discarded_note(discarded: &Discards) -> String {
    match discarded.total() {
        0 => String::new(),
        n => format!(" ({n} datagrams discarded: {discarded})"),
    }
}
