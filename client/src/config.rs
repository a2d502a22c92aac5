//! Who a session speaks as ([`Credentials`], [`UsmUser`]) and how patient it is ([`Options`]).

use std::time::Duration;

use crate::usm::{AuthProtocol, Key, PrivProtocol, UsmError};

/// A USM user, with its keys from passwords (computed once; localised to each engine met).
#[derive(Debug, Clone)]
pub struct UsmUser {
    pub(crate) name: Vec<u8>,
    /// The contextName its requests address (empty: the default context).
    pub(crate) context: Vec<u8>,
    /// The contextEngineID its requests address (`None`: the agent's own engine).
    pub(crate) context_engine: Option<Vec<u8>>,
    pub(crate) auth: Option<(AuthProtocol, Key)>,
    pub(crate) privacy: Option<(PrivProtocol, Key)>,
}

impl UsmUser {
    /// `name` with an authentication protocol and password and a privacy protocol and
    /// password; privacy needs authentication (RFC 3414 3.1.1).
    pub fn new(
        name: &str,
        auth: Option<(AuthProtocol, &[u8])>,
        privacy: Option<(PrivProtocol, &[u8])>,
    ) -> Result<UsmUser, UsmError> {
        let auth_key = match auth {
            Some((p, pw)) => Some((p, Key::from_password(p, pw)?)),
            None => None,
        };
        let privacy_key = match (privacy, auth) {
            // The privacy key comes from the authentication protocol's hash.
            (Some((p, pw)), Some((a, _))) => Some((p, Key::from_password(a, pw)?)),
            (Some(_), None) => return Err(UsmError::PrivacyWithoutAuth),
            (None, _) => None,
        };
        Ok(UsmUser {
            name: name.as_bytes().to_vec(),
            context: Vec::new(),
            context_engine: None,
            auth: auth_key,
            privacy: privacy_key,
        })
    }
}

impl UsmUser {
    /// Its name.
    pub fn name(&self) -> &[u8] {
        &self.name
    }

    /// The same user addressing the context `name` (net-snmp's `-n`; RFC 3411's
    /// contextName) instead of the default, empty one. Answers must name the same context.
    pub fn with_context(mut self, name: &[u8]) -> UsmUser {
        self.context = name.to_vec();
        self
    }

    /// The same user addressing the contextEngineID `id` (net-snmp's `-E`: a proxy's or
    /// another engine's context) instead of the agent's own engine.
    pub fn with_context_engine(mut self, id: &[u8]) -> UsmUser {
        self.context_engine = Some(id.to_vec());
        self
    }

    /// The contextEngineID of requests to the engine `engine`.
    pub(crate) fn context_engine_for<'a>(&'a self, engine: &'a [u8]) -> &'a [u8] {
        self.context_engine.as_deref().unwrap_or(engine)
    }
}

/// Who the session speaks as. Its `Debug` shows no community and no key.
#[derive(Clone)]
pub enum Credentials {
    /// SNMPv1 with a community (RFC 1157): no GETBULK; walks go by GETNEXT.
    V1(Vec<u8>),
    /// SNMPv2c with a community.
    V2c(Vec<u8>),
    /// SNMPv3 under the USM.
    Usm(UsmUser),
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::V1(c) => write!(f, "V1(community of {} octets)", c.len()),
            Credentials::V2c(c) => write!(f, "V2c(community of {} octets)", c.len()),
            Credentials::Usm(u) => f.debug_tuple("Usm").field(u).finish(),
        }
    }
}

/// The request a walk makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WalkWith {
    /// GETBULK of [`Options::max_repetitions`] (SNMPv2c and v3).
    #[default]
    GetBulk,
    /// GETNEXT, one OID a request.
    GetNext,
}

/// How patient a session is.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// How long to wait for each answer.
    pub timeout: Duration,
    /// How many times a request is sent again after a timeout.
    pub retries: u32,
    /// The largest message accepted (msgMaxSize; the receive buffer).
    pub max_size: u32,
    /// GETBULK's max-repetitions in walks.
    pub max_repetitions: u32,
    /// The request a walk makes: GETBULK (net-snmp's snmpbulkwalk; fewer round trips) or
    /// GETNEXT (snmpwalk; for agents whose GETBULK is broken). SNMPv1 has only GETNEXT.
    pub walk_with: WalkWith,
    /// The most requests one walk makes; a walk still inside its subtree after them ends
    /// with [`crate::ClientError::WalkTooLong`] (an agent whose MIB never ends cannot keep
    /// a walk going for ever).
    pub max_walk_requests: usize,
    /// The longest one walk may take, all its requests together; past it the walk ends with
    /// [`crate::ClientError::WalkTooLong`].
    pub max_walk_time: Duration,
    /// Whether a walk ends with [`crate::ClientError::NotIncreasing`] at an OID that does
    /// not follow the one before (an agent that loops). `false` is net-snmp's `-Cc`, for
    /// agents that answer out of order: the walk goes on, within its limits.
    pub walk_checks_order: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(1),
            retries: 2,
            max_size: 65507,
            max_repetitions: 25,
            walk_with: WalkWith::GetBulk,
            // 250,000 bindings by GETBULK of 25: more than the largest tables seen in the
            // field's walks, and 20 s against an agent that never ends, here.
            max_walk_requests: 10_000,
            max_walk_time: Duration::from_secs(600),
            walk_checks_order: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usm::{AuthProtocol, PrivProtocol, UsmError};

    #[test]
    fn credentials_never_show_communities_or_keys() {
        let v2 = format!("{:?}", Credentials::V2c(b"s3cr3t-community".to_vec()));
        assert!(!v2.contains("s3cr3t"), "{v2}");
        let user = UsmUser::new(
            "someone",
            Some((AuthProtocol::Sha1, b"authpassword")),
            Some((PrivProtocol::Aes128, b"privpassword")),
        )
        .unwrap();
        let shown = format!("{:?}", Credentials::Usm(user.clone()));
        assert!(shown.contains("Key(20 octets)"), "{shown}");
        let key = user.auth.as_ref().unwrap().1.as_bytes();
        let hex: String = key.iter().map(|b| format!("{b}, ")).collect();
        assert!(!shown.contains(hex.trim_end_matches(", ")), "{shown}");
        assert!(matches!(
            UsmUser::new("x", None, Some((PrivProtocol::Des, b"privpassword"))),
            Err(UsmError::PrivacyWithoutAuth)
        ));
    }
}
