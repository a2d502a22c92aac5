//! The handlers an agent serves, by subtree: GET, GETNEXT and SET across them, each SET
//! two-phase over every handler it touches, and a handler that panics answered as genErr.

use std::panic::{catch_unwind, AssertUnwindSafe};

use snmp_ber::OidBuf;
use snmp_client::Value;
use snmp_mib::ErrorStatus;

use crate::handler::{Handler, SetError, Write};

/// Why a handler could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// One of its subtrees is inside, or holds, one registered before.
    #[error("subtree {new:?} overlaps subtree {old:?}, registered before")]
    Overlap {
        /// The new handler's subtree.
        new: Vec<u32>,
        /// The one it overlaps.
        old: Vec<u32>,
    },
    /// A subtree with no arcs, or a handler with no subtree.
    #[error("a handler with no subtree, or an empty one")]
    Empty,
}

/// A SET refused across handlers: the error-status and the index (from 0) of the binding
/// in the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// What to answer.
    pub status: ErrorStatus,
    /// The binding, from 0, in the request.
    pub at: usize,
}

/// Handlers by subtree, no subtree inside another.
#[derive(Default)]
pub struct Registry {
    handlers: Vec<Box<dyn Handler>>,
    /// Every subtree and its handler, in OID order.
    subtrees: Vec<(Vec<u32>, usize)>,
    /// Each subtree's BER encoding (in `subtrees`' order; `None` for one arc), to tell an
    /// answer within it by its first octets.
    encoded: Vec<Option<OidBuf>>,
    /// The SET under way: per handler touched, its bindings' positions in the request; and
    /// how many have committed.
    pending: Vec<(usize, Vec<usize>)>,
    committed: usize,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let subtrees: Vec<&Vec<u32>> = self.subtrees.iter().map(|(s, _)| s).collect();
        f.debug_struct("Registry")
            .field("subtrees", &subtrees)
            .finish()
    }
}

/// Runs `what` of the handler `h`; a panic becomes `None`, logged.
fn guarded<T>(
    what: &str,
    h: &mut Box<dyn Handler>,
    f: impl FnOnce(&mut dyn Handler) -> T,
) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(|| f(h.as_mut()))) {
        Ok(v) => Some(v),
        Err(_) => {
            tracing::error!("a handler panicked in {what}: answered genErr");
            None
        }
    }
}

impl Registry {
    /// No handlers.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds `handler` for its subtrees.
    pub fn register(&mut self, handler: impl Handler + 'static) -> Result<(), RegisterError> {
        let new = handler.subtrees();
        if new.is_empty() || new.iter().any(Vec::is_empty) {
            return Err(RegisterError::Empty);
        }
        for (k, s) in new.iter().enumerate() {
            let earlier = self.subtrees.iter().map(|(o, _)| o).chain(&new[..k]);
            if let Some(old) = earlier
                .into_iter()
                .find(|o| o.starts_with(s) || s.starts_with(o))
            {
                return Err(RegisterError::Overlap {
                    new: s.clone(),
                    old: old.clone(),
                });
            }
        }
        let id = self.handlers.len();
        self.handlers.push(Box::new(handler));
        self.subtrees.extend(new.into_iter().map(|s| (s, id)));
        self.subtrees.sort();
        self.encoded = self
            .subtrees
            .iter()
            .map(|(s, _)| OidBuf::from_arcs(s).ok())
            .collect();
        Ok(())
    }

    /// The registered subtrees, in OID order.
    pub fn subtrees(&self) -> impl Iterator<Item = &[u32]> {
        self.subtrees.iter().map(|(s, _)| s.as_slice())
    }

    /// The position in `subtrees` of the subtree holding `name`.
    fn holder(&self, name: &[u32]) -> Option<usize> {
        let at = self.subtrees.partition_point(|(s, _)| s.as_slice() <= name);
        (at > 0 && name.starts_with(&self.subtrees[at - 1].0)).then(|| at - 1)
    }

    /// GET of `name`: its handler's answer, noSuchObject where no handler serves it;
    /// `Err(genErr)` when the handler panicked.
    pub fn get(&mut self, name: &[u32]) -> Result<Value, ErrorStatus> {
        let Some(k) = self.holder(name) else {
            return Ok(Value::NoSuchObject);
        };
        let h = &mut self.handlers[self.subtrees[k].1];
        guarded("get", h, |h| h.get(name)).ok_or(ErrorStatus::GenErr)
    }

    /// GETNEXT of `name`: the first instance after it in any subtree; `Ok(None)` past the
    /// last.
    pub fn next(&mut self, name: &[u32]) -> Result<Option<(OidBuf, Value)>, ErrorStatus> {
        // Subtrees wholly before `name` are passed over: the first that may hold what
        // follows is the one holding `name`, or else the first after it.
        let from = match self.holder(name) {
            Some(k) => k,
            None => self.subtrees.partition_point(|(s, _)| s.as_slice() < name),
        };
        for ((subtree, id), encoded) in self.subtrees[from..].iter().zip(&self.encoded[from..]) {
            let h = &mut self.handlers[*id];
            let found = guarded("next", h, |h| h.next(name)).ok_or(ErrorStatus::GenErr)?;
            // What a handler of several subtrees finds in a later one waits for it. An OID
            // under a subtree starts with its encoding (each arc's octets end themselves).
            if let Some(found) = found.filter(|(o, _)| match encoded {
                Some(e) => o.as_oid().as_ber().starts_with(e.as_oid().as_ber()),
                None => o
                    .as_oid()
                    .arcs()
                    .take(subtree.len())
                    .eq(subtree.iter().copied()),
            }) {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// A whole SET: test, then commit, undone where a commit fails; cleaned up.
    pub fn set(&mut self, writes: &[Write]) -> Result<(), Refusal> {
        let result = self.test(writes).and_then(|()| self.commit());
        if result.is_err() {
            // Nothing to take back where the test failed: `committed` is 0.
            let _ = self.undo();
        }
        self.cleanup();
        result
    }

    /// The first phase of a SET: every binding to the handler whose subtree holds it (none:
    /// notWritable, RFC 3416 4.2.5 step 2), each handler tests its own.
    pub fn test(&mut self, writes: &[Write]) -> Result<(), Refusal> {
        self.cleanup();
        for (at, (name, _)) in writes.iter().enumerate() {
            let arcs = crate::arcs(name);
            let Some(k) = self.holder(&arcs) else {
                return Err(Refusal {
                    status: ErrorStatus::NotWritable,
                    at,
                });
            };
            let id = self.subtrees[k].1;
            match self.pending.iter_mut().find(|(h, _)| *h == id) {
                Some((_, list)) => list.push(at),
                None => self.pending.push((id, vec![at])),
            }
        }
        for (id, list) in &self.pending {
            let mine: Vec<Write> = list.iter().map(|&i| writes[i].clone()).collect();
            let tested = guarded("test", &mut self.handlers[*id], |h| h.test(&mine))
                .unwrap_or(Err(SetError::new(ErrorStatus::GenErr, 0)));
            if let Err(e) = tested {
                return Err(Refusal {
                    status: e.status,
                    at: list.get(e.at).copied().unwrap_or(list[0]),
                });
            }
        }
        Ok(())
    }

    /// The second phase: every handler tested commits; the first failure is commitFailed.
    pub fn commit(&mut self) -> Result<(), Refusal> {
        self.committed = 0;
        for (id, list) in &self.pending {
            let done = guarded("commit", &mut self.handlers[*id], |h| h.commit())
                .unwrap_or(Err(SetError::new(ErrorStatus::CommitFailed, 0)));
            if let Err(e) = done {
                return Err(Refusal {
                    status: ErrorStatus::CommitFailed,
                    at: list.get(e.at).copied().unwrap_or(list[0]),
                });
            }
            self.committed += 1;
        }
        Ok(())
    }

    /// Takes back the commits made, last first; undoFailed when one cannot be.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let mut result = Ok(());
        for (id, list) in self.pending[..self.committed].iter().rev() {
            let undone = guarded("undo", &mut self.handlers[*id], |h| h.undo())
                .unwrap_or(Err(SetError::new(ErrorStatus::UndoFailed, 0)));
            if undone.is_err() {
                result = Err(Refusal {
                    status: ErrorStatus::UndoFailed,
                    at: list[0],
                });
            }
        }
        self.committed = 0;
        result
    }

    /// Ends the SET: every handler it touched forgets it.
    pub fn cleanup(&mut self) {
        for (id, _) in std::mem::take(&mut self.pending) {
            let _ = guarded("cleanup", &mut self.handlers[id], |h| h.cleanup());
        }
        self.committed = 0;
    }
}
