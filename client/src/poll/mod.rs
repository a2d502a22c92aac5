//! Polling many agents from one socket, sans IO: [`Poller`] runs a round of a job (a GET of
//! some OIDs, a walk of a subtree, or several of those one after the other) against every
//! target, each through its own
//! [`Exchange`] (request ids, retries and timeouts, engine discovery and the keys localized
//! to each engine, the acceptance of answers), with at most `max_in_flight` requests out at
//! once and one per agent. Datagrams from one socket go to the exchanges of the targets at
//! their source address; every target ends the round with a result or its error, never
//! missing. [`AsyncPoller`] drives it on tokio UDP sockets (one per address family).

#[cfg(feature = "tokio")]
mod batch;
#[cfg(feature = "tokio")]
mod driver;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;

#[cfg(feature = "tokio")]
pub use batch::SocketStats;
#[cfg(feature = "tokio")]
pub use driver::{AsyncPoller, Round, Rounds};

use crate::config::{Credentials, Options};
use crate::error::ClientError;
use crate::exchange::Exchange;
use crate::request::Request;
use crate::value::VarBind;
use crate::walk::Walk;

/// An agent to poll.
#[derive(Debug, Clone)]
pub struct Target {
    /// Where it answers.
    pub addr: SocketAddr,
    /// Who to speak to it as.
    pub credentials: Credentials,
}

/// What a round asks of every target.
#[derive(Debug, Clone)]
pub enum Job {
    /// A GET of these OIDs.
    Get(Vec<OidBuf>),
    /// A walk of the subtree under this OID (GETBULK, or GETNEXT as [`Options::walk_with`]
    /// says and always under SNMPv1).
    Walk(OidBuf),
    /// Several jobs, each target doing them one after the other within the round (still one
    /// request at a time per agent): an [`Outcome`] per job, [`Outcome::job`] its position
    /// (jobs inside are flattened in order).
    All(Vec<Job>),
}

impl Job {
    /// The GETs and walks of this job, in order.
    fn leaves(self, out: &mut Vec<Job>) {
        match self {
            Job::All(jobs) => jobs.into_iter().for_each(|j| j.leaves(out)),
            leaf => out.push(leaf),
        }
    }
}

/// One target's result in a round.
#[derive(Debug)]
pub struct Outcome {
    /// The target's index in the poller's list.
    pub target: usize,
    /// The job's position in a [`Job::All`] (0 for a single job).
    pub job: usize,
    /// The bindings (a GET's, or a whole walk's), or why there are none.
    pub result: Result<Vec<VarBind>, ClientError>,
    /// From the round's start of this target's work to its result.
    pub latency: Duration,
    /// Requests it took (retransmissions and discovery not counted).
    pub requests: u32,
}

impl Outcome {
    /// A walk's bindings as the typed rows of `R` (a generated `...Entry`, such as
    /// `snmp_mibs_std::if_mib::IfEntry`), keyed by INDEX: leniently, as `Session::walk_table`
    /// (a value that does not fit its column is left out of the row and kept in
    /// `Rows::problems()`); the target's error when it has no bindings.
    pub fn into_rows<R: snmp_mib::Row>(self) -> Result<snmp_mib::Rows<R>, ClientError> {
        let mut rows = snmp_mib::Rows::new();
        for vb in &self.result? {
            crate::value::push_row(&mut rows, vb, false)?;
        }
        Ok(rows)
    }
}

/// A target's state in the round.
#[derive(Debug)]
enum State {
    /// Waiting for a slot.
    Queued,
    /// Its request is out for job `job` (with the walk it belongs to, and what the walk has
    /// so far).
    Running {
        job: usize,
        started: Instant,
        requests: u32,
        walk: Option<Box<(Walk, Vec<VarBind>)>>,
    },
    /// Its result is given.
    Done,
}

/// The core of a poller.
#[derive(Debug)]
pub struct Poller {
    exchanges: Vec<Exchange>,
    states: Vec<State>,
    /// Target indexes by address, for the datagrams that come.
    by_addr: HashMap<SocketAddr, Vec<usize>>,
    /// The round's jobs (GETs and walks), each target doing them in order.
    jobs: Vec<Job>,
    queue: VecDeque<usize>,
    /// Targets that may have a datagram to send.
    ready: VecDeque<usize>,
    deadlines: BinaryHeap<Reverse<(Instant, usize)>>,
    results: VecDeque<Outcome>,
    in_flight: usize,
    max_in_flight: usize,
    unfinished: usize,
}

impl Poller {
    /// A poller of `targets`, each with `options`, at most `max_in_flight` requests out at
    /// once (1 at least).
    pub fn new(targets: Vec<Target>, options: Options, max_in_flight: usize) -> Poller {
        let mut by_addr: HashMap<SocketAddr, Vec<usize>> = HashMap::new();
        let exchanges: Vec<Exchange> = targets
            .into_iter()
            .enumerate()
            .map(|(k, t)| {
                by_addr.entry(t.addr).or_default().push(k);
                Exchange::new(t.addr, t.credentials, options)
            })
            .collect();
        Poller {
            states: exchanges.iter().map(|_| State::Done).collect(),
            exchanges,
            by_addr,
            jobs: Vec::new(),
            queue: VecDeque::new(),
            ready: VecDeque::new(),
            deadlines: BinaryHeap::new(),
            results: VecDeque::new(),
            in_flight: 0,
            max_in_flight: max_in_flight.max(1),
            unfinished: 0,
        }
    }

    /// The targets' exchanges (their statistics, engines).
    pub fn exchanges(&self) -> &[Exchange] {
        &self.exchanges
    }

    /// Starts a round of `job` for every target at `now`; a round still running is given up
    /// (its unfinished targets end with no result).
    pub fn start_round(&mut self, job: Job, now: Instant) {
        self.jobs.clear();
        job.leaves(&mut self.jobs);
        // No job at all: a round with nothing to do is done at once.
        let targets = match self.jobs.is_empty() {
            true => 0,
            false => self.exchanges.len(),
        };
        self.queue = (0..targets).collect();
        self.states.iter_mut().for_each(|s| *s = State::Done);
        self.states[..targets]
            .iter_mut()
            .for_each(|s| *s = State::Queued);
        self.ready.clear();
        self.deadlines.clear();
        self.in_flight = 0;
        self.unfinished = targets;
        self.fill(now);
    }

    /// Whether every target of the round has its result (taken or not).
    pub fn round_done(&self) -> bool {
        self.unfinished == 0
    }

    /// The next result, once a target has one.
    pub fn poll_result(&mut self) -> Option<Outcome> {
        self.results.pop_front()
    }

    /// The next datagram to send now and where to.
    pub fn poll_transmit(&mut self, now: Instant) -> Option<(SocketAddr, &[u8])> {
        let k = loop {
            let k = self.ready.pop_front()?;
            if self.exchanges[k].has_transmit() {
                break k;
            }
        };
        let x = &mut self.exchanges[k];
        // Sent now: its answer is awaited until now + the timeout.
        self.deadlines.push(Reverse((now + x.options().timeout, k)));
        let target = x.target();
        x.poll_transmit(now).map(|d| (target, d))
    }

    /// The earliest time [`Poller::handle_timeout`] is due.
    pub fn poll_deadline(&self) -> Option<Instant> {
        self.deadlines.peek().map(|Reverse((d, _))| *d)
    }

    /// The time is `now`: requests past their deadline are sent again or end with a timeout.
    pub fn handle_timeout(&mut self, now: Instant) {
        while let Some(&Reverse((d, k))) = self.deadlines.peek() {
            if d > now {
                break;
            }
            self.deadlines.pop();
            // An entry of a request since answered or sent again is stale: a no-op then.
            self.exchanges[k].handle_timeout(now);
            self.after_event(k, now);
        }
        self.fill(now);
    }

    /// `datagram` came from `from` at `now`: handed to the exchanges of the targets there.
    pub fn handle_datagram(&mut self, from: SocketAddr, datagram: &[u8], now: Instant) {
        let count = self.by_addr.get(&from).map_or(0, Vec::len);
        // By position, not by a copy of the list: most addresses have one target.
        for j in 0..count {
            let k = self.by_addr[&from][j];
            if matches!(self.states[k], State::Running { .. }) {
                self.exchanges[k].handle_datagram(from, datagram, now);
                self.after_event(k, now);
            }
        }
        self.fill(now);
    }

    /// Starts queued targets while there is room.
    fn fill(&mut self, now: Instant) {
        while self.in_flight < self.max_in_flight {
            let Some(k) = self.queue.pop_front() else {
                return;
            };
            self.in_flight += 1;
            self.begin(k, 0, now);
        }
    }

    /// Target `k` starts job `job` of the round.
    fn begin(&mut self, k: usize, job: usize, now: Instant) {
        let walk = match &self.jobs[job] {
            Job::Walk(root) => {
                let x = &self.exchanges[k];
                let v1 = x.version() == "1";
                Some(Box::new((
                    Walk::new(root, v1, x.options(), now),
                    Vec::new(),
                )))
            }
            _ => None,
        };
        self.states[k] = State::Running {
            job,
            started: now,
            requests: 0,
            walk,
        };
        self.next_request(k, now);
    }

    /// Starts target `k`'s next request, or gives its result when it has no more.
    fn next_request(&mut self, k: usize, now: Instant) {
        let State::Running {
            job,
            requests,
            walk,
            ..
        } = &mut self.states[k]
        else {
            return;
        };
        let x = &mut self.exchanges[k];
        let started = match (walk.as_deref_mut(), &self.jobs[*job]) {
            // A walk's next request written over its last.
            (Some((w, _)), _) => x.start_changed(now, |r| w.next_into(r, now)),
            (None, Job::Get(oids)) if *requests == 0 => {
                x.start(Request::get(oids), now);
                Ok(true)
            }
            _ => Ok(false),
        };
        match started {
            Ok(true) => {
                *requests += 1;
                // A request that cannot even be encoded has its result at once.
                self.after_event(k, now);
            }
            Ok(false) => self.finish(k, Ok(Vec::new()), now),
            Err(e) => self.finish(k, Err(e), now),
        }
    }

    /// After an event of target `k`'s exchange: its result taken in, its datagram queued.
    fn after_event(&mut self, k: usize, now: Instant) {
        let Some(result) = self.exchanges[k].poll_result() else {
            self.ready.push_back(k);
            return;
        };
        let State::Running { walk, .. } = &mut self.states[k] else {
            return;
        };
        match walk.as_deref_mut() {
            None => self.finish(k, result, now),
            Some((w, got)) => match w.absorb(result, &mut |vb| got.push(vb)) {
                Ok(()) => self.next_request(k, now),
                Err(e) => self.finish(k, Err(e), now),
            },
        }
    }

    /// Target `k` ends its job with `result` (a walk's: what it collected), then goes on to
    /// the round's next job, or ends the round.
    fn finish(&mut self, k: usize, result: Result<Vec<VarBind>, ClientError>, now: Instant) {
        let State::Running {
            job,
            started,
            requests,
            walk,
        } = std::mem::replace(&mut self.states[k], State::Done)
        else {
            return;
        };
        let result = match (result, walk) {
            (Ok(_), Some(w)) => Ok(w.1),
            (other, _) => other,
        };
        self.results.push_back(Outcome {
            target: k,
            job,
            result,
            latency: now.saturating_duration_since(started),
            requests,
        });
        if job + 1 < self.jobs.len() {
            // Its slot goes on to the next job: still one request at a time for this agent.
            self.begin(k, job + 1, now);
            return;
        }
        self.in_flight -= 1;
        self.unfinished -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No agent answers: every target's requests go out (3 attempts each, 2 at a time), then
    /// every target ends with a timeout, none missing.
    #[test]
    fn silent_targets_all_time_out_in_order() {
        let targets: Vec<Target> = (0..5)
            .map(|k| Target {
                addr: ([127, 0, 0, 1], 40_000 + k).into(),
                credentials: Credentials::V2c(b"public".to_vec()),
            })
            .collect();
        let options = Options {
            timeout: Duration::from_secs(1),
            retries: 2,
            ..Options::default()
        };
        let mut p = Poller::new(targets, options, 2);
        let mut now = Instant::now();
        p.start_round(Job::Get(vec!["1.3.6.1.2.1.1.3.0".parse().unwrap()]), now);
        let mut sent = 0;
        let mut steps = 0;
        while !p.round_done() {
            while p.poll_transmit(now).is_some() {
                sent += 1;
            }
            now = p.poll_deadline().expect("a deadline while not done");
            p.handle_timeout(now);
            steps += 1;
            assert!(steps < 100, "the round does not end");
        }
        assert_eq!(sent, 15);
        let outcomes: Vec<Outcome> = std::iter::from_fn(|| p.poll_result()).collect();
        let mut order: Vec<usize> = outcomes.iter().map(|o| o.target).collect();
        order.sort();
        assert_eq!(order, [0, 1, 2, 3, 4]);
        assert!(outcomes
            .iter()
            .all(|o| matches!(o.result, Err(ClientError::Timeout { attempts: 3, .. }))));
        assert!(outcomes.iter().all(|o| o.latency == Duration::from_secs(3)));
    }
}
