//! A subtree walk, sans IO: which request comes next, what each answer adds, and when the walk
//! ends (the subtree or the MIB view left), is cut short (an agent that loops, answers with
//! nothing, or answers with an error), or is given up ([`Options::max_walk_requests`],
//! [`Options::max_walk_time`]). GETBULK, or GETNEXT under SNMPv1, whose agents say the MIB
//! ends with noSuchName. The drivers only run the requests.

use std::time::Instant;

use snmp_ber::{Oid, OidBuf};

use crate::config::{Options, WalkWith};
use crate::error::ClientError;
use crate::request::{Kind, Request};
use crate::value::{Value, VarBind};

/// What a walk covers: the OIDs under a root OID, or every OID whose first arc is a given one
/// (`snmpwalk .1`), which BER cannot write as an OID of its own. `From<&OidBuf>` gives the
/// first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subtree {
    start: OidBuf,
    first_arc: Option<u32>,
    /// An end given (snmpwalk's `-CE`): the walk goes on past the root's own subtree, to the
    /// first OID at or after it.
    end: Option<OidBuf>,
}

impl Subtree {
    /// The OIDs under `root`.
    pub fn under(root: &OidBuf) -> Subtree {
        Subtree {
            start: root.clone(),
            first_arc: None,
            end: None,
        }
    }

    /// Every OID whose first arc is `arc` (0, 1 or 2; `None` above). The walk starts where
    /// net-snmp's tools start it for a one-arc name: at the OID whose only subidentifier is
    /// `arc` (0.`arc`), before every OID under 1 and 2 and all but 0.0 under 0.
    pub fn first_arc(arc: u32) -> Option<Subtree> {
        (arc <= 2).then(|| Subtree {
            start: OidBuf::from_arcs(&[0, arc]).unwrap_or_default(),
            first_arc: Some(arc),
            end: None,
        })
    }

    /// This walk's start, ended by `end` instead of its subtree: every OID after the start
    /// and before `end`, as snmpwalk walks under `-CE END` (past its root's subtree when END
    /// is past it).
    pub fn until(self, end: OidBuf) -> Subtree {
        Subtree {
            end: Some(end),
            ..self
        }
    }

    /// The OID the walk asks for first.
    pub fn start(&self) -> &OidBuf {
        &self.start
    }

    /// Whether `oid` is inside.
    pub fn contains(&self, oid: &Oid<'_>) -> bool {
        match (&self.end, self.first_arc) {
            (Some(end), _) => *oid < end.as_oid(),
            (None, Some(arc)) => oid.arcs().next() == Some(arc),
            (None, None) => oid.starts_with(&self.start.as_oid()),
        }
    }
}

impl From<&OidBuf> for Subtree {
    fn from(root: &OidBuf) -> Subtree {
        Subtree::under(root)
    }
}

impl From<OidBuf> for Subtree {
    fn from(root: OidBuf) -> Subtree {
        Subtree {
            start: root,
            first_arc: None,
            end: None,
        }
    }
}

/// How a walk that ran to its end ended, for a tool that reports it as net-snmp's do.
#[derive(Debug, Clone, PartialEq)]
pub enum WalkEnd {
    /// The next OID was outside the subtree.
    LeftSubtree,
    /// The agent's MIB view ended inside the subtree: this binding, its value endOfMibView
    /// (snmpwalk prints it).
    EndOfMibView(VarBind),
    /// An SNMPv1 agent answered noSuchName: RFC 1157's end of the MIB (snmpwalk prints
    /// "End of MIB").
    NoSuchName,
}

/// A walk of a [`Subtree`].
#[derive(Debug, Clone)]
pub struct Walk {
    within: Subtree,
    last: OidBuf,
    end: Option<WalkEnd>,
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
    pub fn new(root: impl Into<Subtree>, v1: bool, options: &Options, now: Instant) -> Walk {
        let within = root.into();
        Walk {
            last: within.start.clone(),
            within,
            end: None,
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
        let mut request = Request::get_next(&[]);
        Ok(self.next_into(&mut request, now)?.then_some(request))
    }

    /// [`Self::next_request`] written over `request`, its storage reused (the last request
    /// of an exchange, by [`crate::Exchange::start_changed`]): whether there is one; `request`
    /// is left as it was when there is not.
    pub fn next_into(&mut self, request: &mut Request, now: Instant) -> Result<bool, ClientError> {
        if self.done {
            return Ok(false);
        }
        // The time is compared with the walk's end (no duration worked out on each request).
        let out_of_time = self
            .started
            .checked_add(self.max_time)
            .is_some_and(|end| now >= end);
        let limit = if self.requests >= self.max_requests {
            Some("max_walk_requests")
        } else if out_of_time {
            Some("max_walk_time")
        } else {
            None
        };
        if let Some(limit) = limit {
            self.done = true;
            return Err(ClientError::WalkTooLong {
                requests: self.requests,
                elapsed: now.saturating_duration_since(self.started),
                limit,
            });
        }
        self.requests += 1;
        let kind = if self.getnext {
            Kind::GetNext
        } else {
            Kind::GetBulk {
                non_repeaters: 0,
                max_repetitions: self.max_repetitions,
            }
        };
        request.set_one(kind, &self.last);
        Ok(true)
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
        let Some((mut answer, inside, end)) = self.take(answer)? else {
            return Ok(());
        };
        answer.drain(..inside).for_each(each);
        // The list's allocation serves the next answer.
        crate::value::recycle(answer);
        end
    }

    /// [`Self::absorb`], the bindings handed to `each` by reference: the answer's list, its
    /// bindings and their strings' storage then serve the next answer (a walk allocates
    /// nothing per binding once warm).
    pub fn absorb_each(
        &mut self,
        answer: Result<Vec<VarBind>, ClientError>,
        each: &mut impl FnMut(&VarBind),
    ) -> Result<(), ClientError> {
        let Some((answer, inside, end)) = self.take(answer)? else {
            return Ok(());
        };
        answer[..inside].iter().for_each(each);
        crate::value::recycle(answer);
        end
    }

    /// The walk's part of taking an answer: the answer, how many of its first bindings are
    /// the walk's, and what follows them (an OID out of order is the error, after them);
    /// `None` when the walk ended without bindings (SNMPv1's noSuchName).
    #[allow(clippy::type_complexity)]
    fn take(
        &mut self,
        answer: Result<Vec<VarBind>, ClientError>,
    ) -> Result<Option<(Vec<VarBind>, usize, Result<(), ClientError>)>, ClientError> {
        let answer = match answer {
            Err(ClientError::ErrorStatus {
                status: NO_SUCH_NAME,
                ..
            }) if self.v1 => {
                self.done = true;
                self.end = Some(WalkEnd::NoSuchName);
                return Ok(None);
            }
            Err(ClientError::BindingCount { answered: 0, .. }) => Vec::new(),
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
            self.last.clone_from(&vb.oid);
        }
        self.bindings += inside;
        self.done = !matches!(end, Ok(false));
        if let (Ok(true), Some(next)) = (&end, answer.get(inside)) {
            let view_ends_here =
                next.value == Value::EndOfMibView && self.within.contains(&next.oid.as_oid());
            self.end = Some(match view_ends_here {
                true => WalkEnd::EndOfMibView(next.clone()),
                false => WalkEnd::LeftSubtree,
            });
        }
        Ok(Some((answer, inside, end.map(|_| ()))))
    }

    /// How many of `answer`'s first bindings are inside the subtree and increasing, and what
    /// follows them: `Ok(true)` the end of the subtree or of the MIB view, `Ok(false)` more to
    /// ask for, or the error of an OID that does not follow the one before.
    fn inside(&self, answer: &[VarBind]) -> (usize, Result<bool, ClientError>) {
        let mut previous = &self.last;
        for (k, vb) in answer.iter().enumerate() {
            if vb.value == Value::EndOfMibView || !self.within.contains(&vb.oid.as_oid()) {
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

    /// How the walk ended, once it ran to its end (`None` before, and after an error).
    pub fn end(&self) -> Option<&WalkEnd> {
        self.end.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::vb;
    use std::time::Duration;

    fn walk(v1: bool, options: &Options) -> (Walk, Instant) {
        let t0 = Instant::now();
        (
            Walk::new("1.3.6.1.2.1.1".parse::<OidBuf>().unwrap(), v1, options, t0),
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
    fn a_walk_says_how_it_ended() {
        // The MIB view ends inside the subtree: the endOfMibView binding is the end.
        let (mut w, t0) = walk(false, &Options::default());
        w.next_request(t0).unwrap();
        let last = vb("1.3.6.1.2.1.1.9.0", Value::EndOfMibView);
        let answer = vec![vb("1.3.6.1.2.1.1.8.0", Value::Integer(8)), last.clone()];
        w.absorb(Ok(answer), &mut |_| {}).unwrap();
        assert_eq!(w.end(), Some(&WalkEnd::EndOfMibView(last)));
        // The next OID is outside.
        let (mut w, t0) = walk(false, &Options::default());
        w.next_request(t0).unwrap();
        assert_eq!(w.end(), None);
        let answer = vec![vb("1.3.6.1.2.1.2.1.0", Value::EndOfMibView)];
        w.absorb(Ok(answer), &mut |_| {}).unwrap();
        assert_eq!(w.end(), Some(&WalkEnd::LeftSubtree));
        // More to ask for: no end yet.
        let (mut w, t0) = walk(false, &Options::default());
        w.next_request(t0).unwrap();
        let answer = vec![vb("1.3.6.1.2.1.1.1.0", Value::Integer(1))];
        w.absorb(Ok(answer), &mut |_| {}).unwrap();
        assert_eq!(w.end(), None);
    }

    #[test]
    fn a_walk_under_a_lone_first_arc_starts_before_it_and_stays_in_it() {
        assert_eq!(Subtree::first_arc(3), None);
        let under_1 = Subtree::first_arc(1).unwrap();
        assert_eq!(under_1.start().as_oid().as_ber(), [1]);
        let t0 = Instant::now();
        let next = Options {
            walk_with: WalkWith::GetNext,
            ..Options::default()
        };
        let mut w = Walk::new(under_1, false, &next, t0);
        let start: OidBuf = "0.1".parse().unwrap();
        assert_eq!(
            w.next_request(t0).unwrap(),
            Some(Request::get_next(std::slice::from_ref(&start)))
        );
        let mut seen = Vec::new();
        let answer = vec![vb("1.3.6.1.2.1.1.1.0", Value::Integer(1))];
        w.absorb(Ok(answer), &mut |v| seen.push(v.oid)).unwrap();
        w.next_request(t0).unwrap();
        let answer = vec![vb("2.5.4.3", Value::Integer(2))];
        w.absorb(Ok(answer), &mut |v| seen.push(v.oid)).unwrap();
        assert_eq!(seen, ["1.3.6.1.2.1.1.1.0".parse::<OidBuf>().unwrap()]);
        assert_eq!(w.end(), Some(&WalkEnd::LeftSubtree));
        let under_2 = Subtree::first_arc(2).unwrap();
        assert!(under_2.contains(&"2.999.1".parse::<OidBuf>().unwrap().as_oid()));
        assert!(!under_2.contains(&"1.3.6".parse::<OidBuf>().unwrap().as_oid()));
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
    fn the_next_request_is_written_over_any_request() {
        let (mut w, t0) = walk(false, &Options::default());
        let set: Vec<(OidBuf, Value)> = ["1.3.6.1.2.1.1.4.0", "1.3.6.1.2.1.1.5.0"]
            .iter()
            .map(|o| (o.parse().unwrap(), Value::Integer(1)))
            .collect();
        // A SET of two: its kind, names and values all replaced.
        let mut r = Request::set(&set);
        assert!(w.next_into(&mut r, t0).unwrap());
        let root: OidBuf = "1.3.6.1.2.1.1".parse().unwrap();
        assert_eq!(r, Request::get_bulk(0, 25, std::slice::from_ref(&root)));
        let answer = vec![vb("1.3.6.1.2.1.1.1.0", Value::Integer(1))];
        w.absorb(Ok(answer), &mut |_| {}).unwrap();
        // Its one name written over in place.
        assert!(w.next_into(&mut r, t0).unwrap());
        let next: OidBuf = "1.3.6.1.2.1.1.1.0".parse().unwrap();
        assert_eq!(r, Request::get_bulk(0, 25, std::slice::from_ref(&next)));
        // Over: the request left as it was.
        let answer = vec![vb("1.3.6.1.2.1.2.1.0", Value::Integer(1))];
        w.absorb(Ok(answer), &mut |_| {}).unwrap();
        assert!(!w.next_into(&mut r, t0).unwrap());
        assert_eq!(r, Request::get_bulk(0, 25, std::slice::from_ref(&next)));
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
        assert_eq!(w.end(), Some(&WalkEnd::NoSuchName));
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
