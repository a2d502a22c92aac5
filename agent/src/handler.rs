//! What the agent asks of the code serving a subtree: a [`Handler`]. The typed handlers
//! ([`Table`](crate::Table), [`Scalars`](crate::Scalars)) implement it over the generated
//! bindings; a program may implement it by hand for what no MIB describes.

use snmp_ber::OidBuf;
use snmp_client::Value;
use snmp_mib::ErrorStatus;

/// One binding of a SET: the instance and the value asked for.
pub type Write = (OidBuf, Value);

/// A SET refused by a handler: the error-status and the position (from 0) of the binding it
/// is about among those the handler was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetError {
    /// What RFC 3416 4.2.5 answers.
    pub status: ErrorStatus,
    /// The binding, from 0, among the handler's.
    pub at: usize,
}

impl SetError {
    /// `status` about binding `at`.
    pub fn new(status: ErrorStatus, at: usize) -> SetError {
        SetError { status, at }
    }
}

/// The code serving one registered subtree. A SET is two-phase (RFC 3416 4.2.5, and AgentX's
/// TestSet / CommitSet / UndoSet / CleanupSet, RFC 2741 7.2.4): every handler concerned is
/// asked to `test` its bindings, then, when all agree, to `commit` them; when one fails the
/// committed ones `undo`; `cleanup` ends the SET either way.
pub trait Handler: Send {
    /// The subtrees it serves (registered once, when the handler is): every name it is asked
    /// to GET or SET is under one of them. A GETNEXT name may be anywhere: the answer is its
    /// first instance after the name, the registry keeping it within the subtree it asked
    /// about.
    fn subtrees(&self) -> Vec<Vec<u32>>;

    /// The value of instance `name`, or noSuchObject / noSuchInstance.
    fn get(&mut self, name: &[u32]) -> Value;

    /// The first instance after `name`, and its value.
    fn next(&mut self, name: &[u32]) -> Option<(OidBuf, Value)>;

    /// Checks a SET's bindings and keeps what commit will do; nothing visible changes yet.
    fn test(&mut self, writes: &[Write]) -> Result<(), SetError> {
        let _ = writes;
        Err(SetError::new(ErrorStatus::NotWritable, 0))
    }

    /// Makes the tested SET happen.
    fn commit(&mut self) -> Result<(), SetError> {
        Ok(())
    }

    /// Takes back what `commit` did.
    fn undo(&mut self) -> Result<(), SetError> {
        Ok(())
    }

    /// Forgets the SET.
    fn cleanup(&mut self) {}
}
