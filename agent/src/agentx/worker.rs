//! The subagent's handlers on a thread of their own, so that a slow one never holds the
//! master longer than the session's timeout: a request not answered in time is answered
//! genErr (`session::timed_out`) and its late answer dropped when it comes; the requests
//! after it wait their turn, each with its own timeout.

use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::pdu::Pdu;
use super::session::answer;
use crate::registry::Registry;

/// Where the handlers run: on the thread that talks to the master (a request takes as long
/// as its handler), or on a thread of their own (a request past the timeout is answered
/// genErr).
pub(super) enum Handlers {
    Inline(Registry),
    Guarded(Worker),
}

impl Handlers {
    /// The registry's subtrees.
    pub fn subtrees(&self) -> Vec<Vec<u32>> {
        match self {
            Handlers::Inline(r) => r.subtrees().map(<[u32]>::to_vec).collect(),
            Handlers::Guarded(w) => w.subtrees.clone(),
        }
    }

    /// The handlers' answer to `pdu` (none to a CleanupSet): inline, at once; guarded, if it
    /// comes within `timeout`.
    pub fn answer(
        &mut self,
        pdu: Pdu,
        uptime: u32,
        timeout: Duration,
    ) -> Result<Option<Vec<u8>>, Late> {
        match self {
            Handlers::Inline(r) => Ok(answer(uptime, &pdu, r)),
            Handlers::Guarded(w) => w.answer(pdu, uptime, timeout),
        }
    }
}

/// The handlers' thread.
pub(super) struct Worker {
    work: Option<Sender<(Pdu, u32)>>,
    done: Receiver<(u32, Option<Vec<u8>>)>,
    subtrees: Vec<Vec<u32>>,
    thread: Option<JoinHandle<Registry>>,
}

/// The handlers did not answer in time.
pub(super) struct Late;

impl Worker {
    /// `registry` moved to a thread of its own.
    pub fn spawn(registry: Registry) -> Worker {
        let subtrees = registry.subtrees().map(<[u32]>::to_vec).collect();
        let (work, jobs) = channel::<(Pdu, u32)>();
        let (answers, done) = channel();
        let thread = std::thread::Builder::new()
            .name("agentx-handlers".into())
            .spawn(move || {
                let mut registry = registry;
                while let Ok((pdu, uptime)) = jobs.recv() {
                    let out = answer(uptime, &pdu, &mut registry);
                    if answers.send((pdu.header.packet, out)).is_err() {
                        break;
                    }
                }
                registry
            });
        // No thread (the system refused one): every request is answered genErr, said here.
        let thread = thread
            .inspect_err(|e| tracing::error!(%e, "no thread for the handlers"))
            .ok();
        Worker {
            work: Some(work),
            done,
            subtrees,
            thread,
        }
    }

    /// The handlers' answer to `pdu` (none to a CleanupSet), if it comes within `timeout`.
    pub fn answer(
        &mut self,
        pdu: Pdu,
        uptime: u32,
        timeout: Duration,
    ) -> Result<Option<Vec<u8>>, Late> {
        let packet = pdu.header.packet;
        let sent = self.work.as_ref().map(|w| w.send((pdu, uptime)));
        if !matches!(sent, Some(Ok(()))) {
            return Err(Late);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.done.recv_timeout(left) {
                Ok((answered, out)) if answered == packet => return Ok(out),
                // The late answer of a request already answered genErr: dropped.
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    return Err(Late)
                }
            }
        }
    }
}

impl Worker {
    /// The registry back, once the request under way (if any) is done.
    pub fn into_registry(mut self) -> Registry {
        self.work.take();
        self.thread
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // No more work: the thread ends after the request it is on.
        self.work.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
