//! The [`Backend`] an agent's responder answers from: the registered handlers seen through
//! the caller's views ([`Access`]).

use snmp_ber::OidBuf;
use snmp_client::respond::{Backend, Refused, Who};
use snmp_client::Value;
use snmp_mib::ErrorStatus;

use crate::access::Access;
use crate::registry::Registry;

/// How many out-of-view instances one GETNEXT passes over before it answers endOfMibView (a
/// view with holes a walk would take forever to cross).
const VIEW_SKIPS: usize = 100_000;

/// Handlers and who may see them.
#[derive(Debug)]
pub struct Served {
    /// The handlers.
    pub registry: Registry,
    /// Communities, users, views.
    pub access: Access,
}

impl Backend for Served {
    fn admits(&self, who: &Who<'_>) -> bool {
        self.access.admits(who)
    }

    fn get(&mut self, who: &Who<'_>, name: &OidBuf) -> Result<Value, ErrorStatus> {
        let arcs = crate::arcs(name);
        match self.access.views(who) {
            Some((read, _)) if read.contains(&arcs) => self.registry.get(&arcs),
            _ => Ok(Value::NoSuchObject),
        }
    }

    fn next(
        &mut self,
        who: &Who<'_>,
        name: &OidBuf,
    ) -> Result<Option<(OidBuf, Value)>, ErrorStatus> {
        let Some((read, _)) = self.access.views(who) else {
            return Ok(None);
        };
        let mut at = crate::arcs(name);
        for _ in 0..VIEW_SKIPS {
            let Some((oid, value)) = self.registry.next(&at)? else {
                return Ok(None);
            };
            if read.is_everything() {
                return Ok(Some((oid, value)));
            }
            let arcs = crate::arcs(&oid);
            if read.contains(&arcs) {
                return Ok(Some((oid, value)));
            }
            at = match read.resume_after(&arcs) {
                Some(resume) if resume.as_slice() > arcs.as_slice() => resume.into_iter().collect(),
                Some(_) => arcs,
                None => return Ok(None),
            };
        }
        Ok(None)
    }

    fn set(&mut self, who: &Who<'_>, bindings: &[(OidBuf, Value)]) -> Result<(), Refused> {
        let refused = |status, at: usize| Refused {
            status,
            index: at + 1,
        };
        let Some((_, write)) = self.access.views(who) else {
            return Err(refused(ErrorStatus::AuthorizationError, 0));
        };
        for (at, (name, _)) in bindings.iter().enumerate() {
            let arcs = crate::arcs(name);
            if !write.is_some_and(|w| w.contains(&arcs)) {
                return Err(refused(ErrorStatus::NoAccess, at));
            }
        }
        self.registry
            .set(bindings)
            .map_err(|r| refused(r.status, r.at))
    }
}
