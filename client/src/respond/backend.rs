//! What a [`Responder`](super::Responder) answers from: a [`Backend`], asked for values by
//! name with who is asking. [`Recorded`] serves a recorded [`View`] read-only (what `snmpc
//! simulate` runs); `snmp-agent` serves typed MIB handlers through the same trait.

use std::sync::Arc;

use snmp_ber::OidBuf;
use snmp_mib::ErrorStatus;

use super::View;
use crate::value::Value;

/// Who sent a request, once the responder has accepted it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who<'a> {
    /// SNMPv1 (`version` 0) or SNMPv2c (`version` 1) with this community.
    Community {
        /// The message's version field.
        version: u8,
        /// The community string.
        community: &'a [u8],
    },
    /// An SNMPv3 USM user, authenticated (and decrypted) at `level`.
    User {
        /// The user name.
        name: &'a [u8],
        /// The message's security level: 0 noAuthNoPriv, 1 authNoPriv, 3 authPriv (the
        /// msgFlags bits).
        level: u8,
        /// The scoped PDU's contextName.
        context: &'a [u8],
    },
}

/// A SET refused: the error-status and the index (from 1) of the binding it is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    /// The error-status (SNMPv2's; the responder maps it for SNMPv1, RFC 3584 4.4).
    pub status: ErrorStatus,
    /// The binding's index, from 1 (0 when the error is about none).
    pub index: usize,
}

/// The MIB a responder serves. Every call is for one accepted request; `who` lets the
/// backend apply its access control (RFC 3415's views: what is not in the caller's view is
/// noSuchObject to a GET and passed over by a GETNEXT).
pub trait Backend {
    /// Whether a community (v1, v2c) is answered at all: one that is not gets no answer, as
    /// RFC 3584's community table says. USM users are judged by the responder's user list.
    fn admits(&self, who: &Who<'_>) -> bool;

    /// The value of instance `name`, or noSuchObject / noSuchInstance; an error (genErr
    /// where the code serving it failed) answers the whole request.
    fn get(&mut self, who: &Who<'_>, name: &OidBuf) -> Result<Value, ErrorStatus>;

    /// The first instance after `name` and its value; `None` past the last.
    fn next(
        &mut self,
        who: &Who<'_>,
        name: &OidBuf,
    ) -> Result<Option<(OidBuf, Value)>, ErrorStatus>;

    /// Sets every binding, all or none (RFC 3416 4.2.5).
    fn set(&mut self, who: &Who<'_>, bindings: &[(OidBuf, Value)]) -> Result<(), Refused>;
}

/// A recorded view served read-only to a list of communities: GET, GETNEXT and GETBULK
/// answered from it, SET refused as notWritable.
#[derive(Debug, Clone)]
pub struct Recorded {
    view: Arc<View>,
    communities: Vec<Vec<u8>>,
}

impl Recorded {
    /// `view` for `communities`.
    pub fn new(view: Arc<View>, communities: Vec<Vec<u8>>) -> Recorded {
        Recorded { view, communities }
    }
}

impl Backend for Recorded {
    fn admits(&self, who: &Who<'_>) -> bool {
        match who {
            Who::Community { community, .. } => self.communities.iter().any(|c| c == community),
            Who::User { .. } => true,
        }
    }

    /// Its value, noSuchInstance under an object with instances, else noSuchObject.
    fn get(&mut self, _: &Who<'_>, name: &OidBuf) -> Result<Value, ErrorStatus> {
        Ok(match self.view.get(name) {
            Some(v) => v.clone(),
            None => match parent(name).is_some_and(|o| self.view.has_under(&o)) {
                true => Value::NoSuchInstance,
                false => Value::NoSuchObject,
            },
        })
    }

    fn next(&mut self, _: &Who<'_>, name: &OidBuf) -> Result<Option<(OidBuf, Value)>, ErrorStatus> {
        Ok(self.view.next_after(name).cloned())
    }

    fn set(&mut self, _: &Who<'_>, _: &[(OidBuf, Value)]) -> Result<(), Refused> {
        Err(Refused {
            status: ErrorStatus::NotWritable,
            index: 1,
        })
    }
}

/// `name` without its last arc (`None` for two arcs).
fn parent(name: &OidBuf) -> Option<OidBuf> {
    let arcs: Vec<u32> = name.as_oid().arcs().collect();
    (arcs.len() > 2)
        .then(|| OidBuf::from_arcs(&arcs[..arcs.len() - 1]).ok())
        .flatten()
}
