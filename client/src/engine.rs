//! What a manager keeps of an authoritative SNMP engine (RFC 3414 2.3 and 3.2 step 7): its ID
//! from discovery, its boots and time as last learned (and since when, so the time is
//! estimated forward), and the Reports by which an agent says what went wrong.

use std::time::Instant;

use snmp_ber::Decode;
use snmp_messages::snmpv2_pdu::{Pdu, Pdus};
use snmp_messages::snmpv3_message_syntax::ScopedPdu;

use crate::incoming::Incoming;

/// The largest engine boots and time (RFC 3414 2.2.2: 2147483647 means "latched").
pub const MAX: u32 = 2_147_483_647;

/// How far a message's time may lag the engine's (RFC 3414 2.2.3: 150 seconds).
pub const TIME_WINDOW: u32 = 150;

/// An authoritative engine as a manager knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Engine {
    /// snmpEngineID.
    pub id: Vec<u8>,
    /// snmpEngineBoots as last learned.
    pub boots: u32,
    /// snmpEngineTime as last learned (RFC 3414's latestReceivedEngineTime).
    pub time: u32,
    /// When `time` was learned.
    pub learned_at: Instant,
}

impl Engine {
    /// The engine a received message names as authoritative (a discovery Report, or any
    /// answer), learned at `now`.
    pub fn from_message(m: &Incoming<'_>, now: Instant) -> Engine {
        Engine {
            id: m.usm.msg_authoritative_engine_id.to_vec(),
            boots: m.usm.msg_authoritative_engine_boots,
            time: m.usm.msg_authoritative_engine_time,
            learned_at: now,
        }
    }

    /// Boots and time to put in a message sent at `now`: the time learned plus the seconds
    /// since, held at [`MAX`].
    pub fn clock_at(&self, now: Instant) -> (u32, u32) {
        let elapsed = now.saturating_duration_since(self.learned_at).as_secs();
        let time = u64::from(self.time)
            .saturating_add(elapsed)
            .min(u64::from(MAX));
        (self.boots, time as u32)
    }

    /// Takes the boots and time of an authenticated message from this engine, learned at
    /// `now`, when they are later than what is known (RFC 3414 3.2 step 7b(1)); whether they
    /// were.
    pub fn learn(&mut self, boots: u32, time: u32, now: Instant) -> bool {
        let later = boots > self.boots || (boots == self.boots && time > self.time);
        if later {
            self.boots = boots;
            self.time = time;
            self.learned_at = now;
        }
        later
    }

    /// Whether an authenticated message from this engine with `boots` and `time` is inside
    /// the time window at `now` (RFC 3414 3.2 step 7b(2)): not latched, not from an earlier
    /// boot, and not more than [`TIME_WINDOW`] seconds behind the estimated time.
    pub fn in_time_window(&self, boots: u32, time: u32, now: Instant) -> bool {
        let (known_boots, known_time) = self.clock_at(now);
        !(boots == MAX
            || boots < known_boots
            || (boots == known_boots
                && u64::from(time) + u64::from(TIME_WINDOW) < u64::from(known_time)))
    }
}

/// What a Report PDU says, by its first binding's usmStats counter (RFC 3414 5:
/// SNMP-USER-BASED-SM-MIB `usmStats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// usmStatsUnsupportedSecLevels: the user may not use that security level.
    UnsupportedSecLevel,
    /// usmStatsNotInTimeWindows: boots and time are off; the Report carries the right ones.
    NotInTimeWindow,
    /// usmStatsUnknownUserNames.
    UnknownUserName,
    /// usmStatsUnknownEngineIDs: the answer to discovery.
    UnknownEngineId,
    /// usmStatsWrongDigests: the wrong authentication key.
    WrongDigest,
    /// usmStatsDecryptionErrors: the wrong privacy key, or a broken ciphertext.
    DecryptionError,
    /// snmpUnknownContexts (SNMP-TARGET-MIB, RFC 3413): the agent has no such context.
    UnknownContext,
    /// snmpUnavailableContexts: the context exists but cannot be reached now.
    UnavailableContext,
    /// Another counter (of another MIB), by its OID.
    Other,
}

impl std::fmt::Display for Report {
    /// What the Report means to a user, and its counter (`usmStatsWrongDigests`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Report::UnsupportedSecLevel => {
                "unsupported security level: the agent's user does not allow this level \
                 (usmStatsUnsupportedSecLevels)"
            }
            Report::NotInTimeWindow => {
                "not in time window: the engine's boots and time were off \
                 (usmStatsNotInTimeWindows)"
            }
            Report::UnknownUserName => {
                "unknown user: the agent has no USM user of that name (usmStatsUnknownUserNames)"
            }
            Report::UnknownEngineId => {
                "unknown engine ID: the agent's engine is not the one the message names \
                 (usmStatsUnknownEngineIDs)"
            }
            Report::WrongDigest => {
                "authentication failure: wrong authentication password or protocol for the user \
                 (usmStatsWrongDigests)"
            }
            Report::DecryptionError => {
                "decryption failure: wrong privacy password or protocol for the user \
                 (usmStatsDecryptionErrors)"
            }
            Report::UnknownContext => {
                "unknown context: the agent has no context of that name (snmpUnknownContexts)"
            }
            Report::UnavailableContext => {
                "unavailable context: the agent cannot serve that context now \
                 (snmpUnavailableContexts)"
            }
            Report::Other => "a Report of a counter other than usmStats",
        })
    }
}

impl Report {
    /// Whether RFC 3414 3.2 has an agent send this Report at noAuthNoPriv (steps 3, 4, 5, 6
    /// and 8: it could not authenticate the request, so it cannot authenticate the Report).
    /// Only these may answer an authenticated request unauthenticated; a notInTimeWindow
    /// Report (step 7) is authenticated, and one that is not is a forgery.
    pub fn sent_unauthenticated(self) -> bool {
        matches!(
            self,
            Report::UnknownEngineId
                | Report::UnknownUserName
                | Report::UnsupportedSecLevel
                | Report::WrongDigest
                | Report::DecryptionError
        )
    }
}

/// snmpTargetObjects (SNMP-TARGET-MIB), where snmpUnavailableContexts (4) and
/// snmpUnknownContexts (5) are.
const SNMP_TARGET_OBJECTS: [u32; 8] = [1, 3, 6, 1, 6, 3, 12, 1];

/// usmStats's OID, under which the counters are numbered 1 to 6.
const USM_STATS: [u32; 9] = [1, 3, 6, 1, 6, 3, 15, 1, 1];

impl Report {
    /// What a scoped PDU's octets say, when they are a Report; `None` for any other PDU or
    /// octets that do not decode.
    pub fn of(scoped_pdu: &[u8]) -> Option<Report> {
        let scoped = ScopedPdu::from_ber(scoped_pdu).ok()?;
        let Pdus::Report(report) = scoped.data else {
            return None;
        };
        Report::of_pdu(&report.0)
    }

    /// What a Report PDU says, by its first binding; `None` when it has none, or that one
    /// does not decode.
    pub fn of_pdu(report: &Pdu<'_>) -> Option<Report> {
        let vb = report.variable_bindings.0.iter().next()?.ok()?;
        let mut arcs = [0u32; 11];
        let mut n = 0;
        for arc in vb.name.0.arcs() {
            if n == arcs.len() {
                return Some(Report::Other);
            }
            arcs[n] = arc;
            n += 1;
        }
        if let Some(counter) = arcs[..n].strip_prefix(&SNMP_TARGET_OBJECTS[..]) {
            return Some(match counter {
                [4, 0] => Report::UnavailableContext,
                [5, 0] => Report::UnknownContext,
                _ => Report::Other,
            });
        }
        Some(match arcs[..n].strip_prefix(&USM_STATS[..]) {
            Some([1, 0]) => Report::UnsupportedSecLevel,
            Some([2, 0]) => Report::NotInTimeWindow,
            Some([3, 0]) => Report::UnknownUserName,
            Some([4, 0]) => Report::UnknownEngineId,
            Some([5, 0]) => Report::WrongDigest,
            Some([6, 0]) => Report::DecryptionError,
            _ => Report::Other,
        })
    }
}

/// This engine's snmpEngineBoots for a new start, kept in the file `path` across restarts
/// (RFC 3414 2.2.2: one more at each start). The file holds one line, `engineBoots N`
/// (net-snmp's word), and is replaced whole (written beside it, then renamed); a missing file
/// starts at 1. Fails on a file that does not say that, or once boots reached [`MAX`], after
/// which the engine needs a new ID.
pub fn next_boots(path: &std::path::Path) -> std::io::Result<u32> {
    use std::io::{Error, ErrorKind};
    let bad =
        |why: String| Error::new(ErrorKind::InvalidData, format!("{}: {why}", path.display()));
    let last = match std::fs::read_to_string(path) {
        Ok(text) => {
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["engineBoots", n] => n
                    .parse::<u32>()
                    .map_err(|_| bad(format!("engineBoots {n:?} is not a number")))?,
                _ => return Err(bad(format!("expected `engineBoots N`, found {line:?}"))),
            }
        }
        Err(e) if e.kind() == ErrorKind::NotFound => 0,
        Err(e) => return Err(e),
    };
    if last >= MAX {
        return Err(bad(format!(
            "snmpEngineBoots reached {MAX}: give this engine a new ID (RFC 3414 2.2.2)"
        )));
    }
    let boots = last + 1;
    let mut fresh = path.as_os_str().to_owned();
    fresh.push(".new");
    std::fs::write(&fresh, format!("engineBoots {boots}\n"))?;
    std::fs::rename(&fresh, path)?;
    Ok(boots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn engine(boots: u32, time: u32, at: Instant) -> Engine {
        Engine {
            id: b"e".to_vec(),
            boots,
            time,
            learned_at: at,
        }
    }

    #[test]
    fn reports_are_named_by_their_counter() {
        use snmp_ber::{OidBuf, SequenceOf};
        use snmp_messages::snmpv2_pdu::{PduErrorStatus, VarBind, VarBindList, VarBindValue};
        use snmp_messages::snmpv2_smi::ObjectName;
        let of = |oid: &str| {
            let oid: OidBuf = oid.parse().unwrap();
            let vbs = [VarBind {
                name: ObjectName(oid.as_oid()),
                value: VarBindValue::UnSpecified,
            }];
            Report::of_pdu(&Pdu {
                request_id: 1,
                error_status: PduErrorStatus::NO_ERROR,
                error_index: 0,
                variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
            })
        };
        assert_eq!(of("1.3.6.1.6.3.15.1.1.5.0"), Some(Report::WrongDigest));
        assert_eq!(of("1.3.6.1.6.3.12.1.5.0"), Some(Report::UnknownContext));
        assert_eq!(of("1.3.6.1.6.3.12.1.4.0"), Some(Report::UnavailableContext));
        assert_eq!(of("1.3.6.1.6.3.12.1.6.0"), Some(Report::Other));
        assert!(Report::UnknownContext
            .to_string()
            .contains("snmpUnknownContexts"));
        assert!(!Report::UnknownContext.sent_unauthenticated());
    }

    #[test]
    fn the_clock_runs_on_from_what_was_learned() {
        let t0 = Instant::now();
        let e = engine(3, 1000, t0);
        assert_eq!(e.clock_at(t0), (3, 1000));
        assert_eq!(e.clock_at(t0 + Duration::from_secs(61)), (3, 1061));
        // Held at the largest time.
        let late = engine(3, MAX - 5, t0);
        assert_eq!(late.clock_at(t0 + Duration::from_secs(60)), (3, MAX));
    }

    #[test]
    fn only_later_boots_and_times_are_learned() {
        let t0 = Instant::now();
        let mut e = engine(3, 1000, t0);
        assert!(!e.learn(3, 999, t0));
        assert!(!e.learn(2, 5000, t0));
        assert_eq!((e.boots, e.time), (3, 1000));
        assert!(e.learn(3, 1001, t0));
        assert!(e.learn(4, 1, t0));
        assert_eq!((e.boots, e.time), (4, 1));
    }

    #[test]
    fn the_time_window_is_150_seconds_back_and_this_boot_on() {
        let t0 = Instant::now();
        let e = engine(3, 1000, t0);
        let now = t0 + Duration::from_secs(100);
        // The estimate is 1100: 950 is 150 behind, still in; 949 is out.
        assert!(e.in_time_window(3, 950, now));
        assert!(!e.in_time_window(3, 949, now));
        assert!(e.in_time_window(3, 5000, now));
        assert!(e.in_time_window(4, 0, now));
        assert!(!e.in_time_window(2, 1100, now));
        assert!(!e.in_time_window(MAX, 1100, now));
    }

    #[test]
    fn boots_are_kept_across_starts_in_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("engine.conf");
        assert_eq!(next_boots(&path).unwrap(), 1);
        assert_eq!(next_boots(&path).unwrap(), 2);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "engineBoots 2\n");
        std::fs::write(&path, "engineBoots 2147483647\n").unwrap();
        let e = next_boots(&path).unwrap_err().to_string();
        assert!(e.contains("new ID"), "{e}");
        std::fs::write(&path, "boots 3\n").unwrap();
        let e = next_boots(&path).unwrap_err().to_string();
        assert!(
            e.contains("expected `engineBoots N`, found \"boots 3\""),
            "{e}"
        );
    }
}
