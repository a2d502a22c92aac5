//! A subtree walk, sans IO: which request comes next, what each answer adds, and when the walk
//! ends (the subtree or the MIB view left), is cut short (an agent that loops, answers with
//! nothing, or answers with an error), or is given up ([`Options::max_walk_requests`],
//! [`Options::max_walk_time`]). GETBULK, or GETNEXT under SNMPv1, whose agents say the MIB
//! ends with noSuchName. The drivers only run the requests.

use std::time::Instant;

use snmp_ber::OidBuf;

use crate::config::{Options, WalkWith};
use crate::error::ClientError;
use crate::request::Request;
use crate::value::{Value, VarBind};

/// A walk of the subtree under a root.
#[derive(Debug, Clone)]
pub struct Walk {
    root: OidBuf,
    last: OidBuf,
    v1: bool,
    getnext: bool,
    max_repetitions: u32,
    max_requests: usize,
    max_time: std::time::Duration,
    checks_order: bool,
    started: Instant,
    requests: usize,
    bindings: usize,
    done: bool,
}

/// noSuchName (RFC 1157 4.1.3): under SNMPv1, the end of the MIB for a GETNEXT.
const NO_SUCH_NAME: i64 = 2;

impl Walk {
    /// A walk of `root` started at `now`, by GETNEXT under SNMPv1 (`v1`) or when
    /// `options.walk_with` says so, by GETBULK of `options.max_repetitions` otherwise, within
    /// `options`' limits.
    pub fn new(root: &OidBuf, v1: bool, options: &Options, now: Instant) -> Walk {
        Walk {
            root: root.clone(),
            last: root.clone(),
            v1,
            getnext: v1 || options.walk_with == WalkWith::GetNext,
            max_repetitions: options.max_repetitions,
            max_requests: options.max_walk_requests,
            max_time: options.max_walk_time,
            checks_order: options.walk_checks_order,
            started: now,
            requests: 0,
            bindings: 0,
            done: false,
        }
    }

    /// The next request, or `None` once the walk is over; an error when a limit is reached
    /// with the walk still inside its subtree.
    pub fn next_request(&mut self, now: Instant) -> Result<Option<Request>, ClientError> {
        if self.done {
            return Ok(None);
        }
        let elapsed = now.saturating_duration_since(self.started);
        let limit = if self.requests >= self.max_requests {
            Some("max_walk_requests")
        } else if elapsed >= self.max_time {
            Some("max_walk_time")
        } else {
            None
        };
        if let Some(limit) = limit {
            self.done = true;
            return Err(ClientError::WalkTooLong {
                requests: self.requests,
                elapsed,
                limit,
            });
        }
        self.requests += 1;
        let from = std::slice::from_ref(&self.last);
        Ok(Some(if self.getnext {
            Request::get_next(from)
        } else {
            Request::get_bulk(0, self.max_repetitions, from)
        }))
    }

    /// Takes the answer to the last request: its bindings inside the subtree are handed to
    /// `each`, in order, by value (no copy). An error ends the walk with it: the request's
    /// own, an OID that does not follow the one before (the agent loops; the bindings before
    /// it are handed over first), or an answer with no bindings.
    pub fn absorb(
        &mut self,
        answer: Result<Vec<VarBind>, ClientError>,
        each: &mut impl FnMut(VarBind),
    ) -> Result<(), ClientError> {
        let mut answer = match answer {
            Err(ClientError::ErrorStatus {
                status: NO_SUCH_NAME,
                ..
            }) if self.v1 => {
                self.done = true;
                return Ok(());
            }
            Err(e) => {
                self.done = true;
                return Err(e);
            }
            Ok(a) => a,
        };
        if answer.is_empty() {
            self.done = true;
            return Err(ClientError::NoBindings(self.last.clone()));
        }
        let (inside, end) = self.inside(&answer);
        if let Some(vb) = inside.checked_sub(1).map(|k| &answer[k]) {
            self.last = vb.oid.clone();
        }
        self.bindings += inside;
        self.done = !matches!(end, Ok(false));
        answer.drain(..inside).for_each(each);
        // The list's allocation serves the next answer.
        crate::value::recycle(answer);
        end.map(|_| ())
    }

    /// How many of `answer`'s first bindings are inside the subtree and increasing, and what
    /// follows them: `Ok(true)` the end of the subtree or of the MIB view, `Ok(false)` more to
    /// ask for, or the error of an OID that does not follow the one before.
    fn inside(&self, answer: &[VarBind]) -> (usize, Result<bool, ClientError>) {
        let mut previous = &self.last;
        for (k, vb) in answer.iter().enumerate() {
            if vb.value == Value::EndOfMibView || !vb.oid.as_oid().starts_with(&self.root.as_oid())
            {
                return (k, Ok(true));
            }
            if vb.oid <= *previous && self.checks_order {
                let error = ClientError::NotIncreasing {
                    previous: previous.clone(),
                    next: vb.oid.clone(),
                };
                return (k, Err(error));
            }
            previous = &vb.oid;
        }
        (answer.len(), Ok(false))
    }

    /// The requests made so far.
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// The bindings handed to `each` so far.
    pub fn bindings(&self) -> usize {
        self.bindings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn vb(oid: &str, value: Value) -> VarBind {
        VarBind {
            oid: oid.parse().unwrap(),
            value,
        }
    }

    fn walk(v1: bool, options: &Options) -> (Walk, Instant) {
        let t0 = Instant::now();
        (
            Walk::new(&"1.3.6.1.2.1.1".parse().unwrap(), v1, options, t0),
            t0,
        )
    }

    #[test]
    fn a_walk_ends_where_the_subtree_does() {
        let (mut w, t0) = walk(false, &Options::default());
        let mut seen = Vec::new();
        assert!(w.next_request(t0).unwrap().is_some());
        let answer = vec![
            vb("1.3.6.1.2.1.1.1.0", Value::Integer(1)),
            vb("1.3.6.1.2.1.1.2.0", Value::Integer(2)),
        ];
        w.absorb(Ok(answer), &mut |v| seen.push(v.oid)).unwrap();
        assert!(w.next_request(t0).unwrap().is_some());
        let answer = vec![
            vb("1.3.6.1.2.1.1.3.0", Value::Integer(3)),
            vb("1.3.6.1.2.1.2.1.0", Value::Integer(4)),
        ];
        w.absorb(Ok(answer), &mut |v| seen.push(v.oid)).unwrap();
        assert!(w.next_request(t0).unwrap().is_none());
        assert_eq!((w.requests(), w.bindings(), seen.len()), (2, 3, 3));
    }

    #[test]
    fn a_walk_asks_by_getbulk_or_getnext_as_told() {
        let t0 = Instant::now();
        let root: OidBuf = "1.3.6.1.2.1.1".parse().unwrap();
        let bulk = Options::default();
        let next = Options {
            walk_with: WalkWith::GetNext,
            ..Options::default()
        };
        let first = |v1, o: &Options| Walk::new(&root, v1, o, t0).next_request(t0).unwrap();
        assert_eq!(
            first(false, &bulk),
            Some(Request::get_bulk(0, 25, std::slice::from_ref(&root)))
        );
        let getnext = Some(Request::get_next(std::slice::from_ref(&root)));
        assert_eq!(first(false, &next), getnext);
        assert_eq!(first(true, &bulk), getnext);
    }

    #[test]
    fn no_such_name_ends_only_a_v1_walk() {
        let status = || {
            Err(ClientError::ErrorStatus {
                status: NO_SUCH_NAME,
                index: 1,
                oid: None,
            })
        };
        let (mut w, t0) = walk(true, &Options::default());
        w.next_request(t0).unwrap();
        w.absorb(status(), &mut |_| {}).unwrap();
        assert!(w.next_request(t0).unwrap().is_none());
        let (mut w, t0) = walk(false, &Options::default());
        w.next_request(t0).unwrap();
        assert!(matches!(
            w.absorb(status(), &mut |_| {}),
            Err(ClientError::ErrorStatus { status: 2, .. })
        ));
        assert!(w.next_request(t0).unwrap().is_none());
    }

    #[test]
    fn an_empty_answer_or_a_loop_cuts_the_walk_with_an_error() {
        let (mut w, t0) = walk(false, &Options::default());
        w.next_request(t0).unwrap();
        assert!(matches!(
            w.absorb(Ok(vec![]), &mut |_| {}),
            Err(ClientError::NoBindings(_))
        ));
        let (mut w, t0) = walk(false, &Options::default());
        w.next_request(t0).unwrap();
        let same = vec![
            vb("1.3.6.1.2.1.1.5.0", Value::Null),
            vb("1.3.6.1.2.1.1.5.0", Value::Null),
        ];
        assert!(matches!(
            w.absorb(Ok(same), &mut |_| {}),
            Err(ClientError::NotIncreasing { .. })
        ));
    }

    #[test]
    fn a_walk_gives_up_at_its_limits() {
        let options = Options {
            max_walk_requests: 3,
            ..Options::default()
        };
        let (mut w, t0) = walk(false, &options);
        for k in 0..3u32 {
            w.next_request(t0).unwrap().unwrap();
            let oid = format!("1.3.6.1.2.1.1.{}.0", k + 1);
            w.absorb(Ok(vec![vb(&oid, Value::Null)]), &mut |_| {})
                .unwrap();
        }
        assert!(matches!(
            w.next_request(t0),
            Err(ClientError::WalkTooLong {
                requests: 3,
                limit: "max_walk_requests",
                ..
            })
        ));
        let options = Options {
            max_walk_time: Duration::from_secs(5),
            ..Options::default()
        };
        let (mut w, t0) = walk(false, &options);
        w.next_request(t0).unwrap().unwrap();
        w.absorb(Ok(vec![vb("1.3.6.1.2.1.1.1.0", Value::Null)]), &mut |_| {})
            .unwrap();
        assert!(matches!(
            w.next_request(t0 + Duration::from_secs(6)),
            Err(ClientError::WalkTooLong {
                limit: "max_walk_time",
                ..
            })
        ));
    }
}
