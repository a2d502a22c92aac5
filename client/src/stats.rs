//! What a session counts: requests sent and answered, and every datagram it discarded, by
//! why. Readable at any time without a tracing subscriber.

/// Why a received datagram was discarded instead of taken as the answer (the acceptance
/// rules are in `docs/ARCHITECTURE.md`, "Accepting an answer").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Discard {
    /// From another address or port than the agent's.
    OtherSource,
    /// No request was waiting (a late answer, after its request completed or gave up).
    NothingPending,
    /// Does not decode as a message of the session's version (or its bindings do not).
    Malformed,
    /// Another request-id or msgID than the waiting request's.
    Unmatched,
    /// Neither a Response nor (SNMPv3) a Report.
    NotAResponse,
    /// SNMPv3: a Response at another security level than the request's, or a Report below
    /// it that RFC 3414 3.2 does not send unauthenticated.
    WrongSecurityLevel,
    /// SNMPv3: another msgUserName than the session's user.
    UnknownUser,
    /// SNMPv3: another msgAuthoritativeEngineID than the agent's engine.
    UnknownEngine,
    /// SNMPv3: the MAC does not verify (usmStatsWrongDigests).
    WrongDigest,
    /// SNMPv3: authenticated, but its boots and time are older than the engine's by more
    /// than the time window (RFC 3414 3.2 step 7b: a replay).
    NotInTimeWindow,
    /// SNMPv3: the encrypted scoped PDU does not decrypt to one (usmStatsDecryptionErrors).
    DecryptionError,
    /// SNMPv3: a Response for another contextEngineID or contextName than the request's.
    WrongContext,
}

impl Discard {
    /// Every reason, in the order [`Stats::discarded`] counts them.
    pub const ALL: [Discard; 12] = [
        Discard::OtherSource,
        Discard::NothingPending,
        Discard::Malformed,
        Discard::Unmatched,
        Discard::NotAResponse,
        Discard::WrongSecurityLevel,
        Discard::UnknownUser,
        Discard::UnknownEngine,
        Discard::WrongDigest,
        Discard::NotInTimeWindow,
        Discard::DecryptionError,
        Discard::WrongContext,
    ];

    /// A short name, for logs and counters.
    pub fn name(self) -> &'static str {
        match self {
            Discard::OtherSource => "other source",
            Discard::NothingPending => "nothing pending",
            Discard::Malformed => "malformed",
            Discard::Unmatched => "unmatched id",
            Discard::NotAResponse => "not a response",
            Discard::WrongSecurityLevel => "wrong security level",
            Discard::UnknownUser => "unknown user",
            Discard::UnknownEngine => "unknown engine",
            Discard::WrongDigest => "wrong digest",
            Discard::NotInTimeWindow => "not in time window",
            Discard::DecryptionError => "decryption error",
            Discard::WrongContext => "wrong context",
        }
    }
}

impl std::fmt::Display for Discard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Discarded datagrams, counted by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Discards([u64; Discard::ALL.len()]);

impl Discards {
    /// Datagrams discarded for `why`.
    pub fn get(&self, why: Discard) -> u64 {
        self.0[why as usize]
    }

    /// Datagrams discarded, for any reason.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The reasons seen, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Discard, u64)> + '_ {
        Discard::ALL
            .into_iter()
            .map(|d| (d, self.get(d)))
            .filter(|(_, n)| *n > 0)
    }

    /// Those counted since `earlier` (a copy taken before).
    pub fn since(&self, earlier: &Discards) -> Discards {
        Discards(std::array::from_fn(|k| {
            self.0[k].saturating_sub(earlier.0[k])
        }))
    }

    pub(crate) fn count(&mut self, why: Discard) {
        self.0[why as usize] += 1;
    }
}

impl std::fmt::Display for Discards {
    /// `3 wrong digest, 1 malformed`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, (why, n)) in self.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            write!(f, "{sep}{n} {why}")?;
        }
        Ok(())
    }
}

/// A session's counters since it was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Datagrams sent, retransmissions and discovery included.
    pub sent: u64,
    /// Of them, retransmissions after a timeout.
    pub retransmissions: u64,
    /// Answers accepted (Responses, and Reports taken as the answer).
    pub accepted: u64,
    /// Datagrams received and discarded, by reason.
    pub discarded: Discards,
    /// Of the answers accepted, those read only with real agents' relaxations (an unsigned
    /// value whose leading zero octet the agent left out: `snmp_ber::Rules::BerLenient`).
    pub relaxed: u64,
}

impl Stats {
    /// Datagrams discarded for `why`.
    pub fn discarded(&self, why: Discard) -> u64 {
        self.discarded.get(why)
    }

    /// Datagrams discarded, for any reason.
    pub fn discarded_total(&self) -> u64 {
        self.discarded.total()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_has_its_own_counter() {
        let mut s = Stats::default();
        for (k, d) in Discard::ALL.into_iter().enumerate() {
            assert_eq!(d as usize, k, "{d} is counted at its place in ALL");
            for _ in 0..=k {
                s.discarded.count(d);
            }
        }
        for (k, d) in Discard::ALL.into_iter().enumerate() {
            assert_eq!(s.discarded(d), k as u64 + 1);
        }
        assert_eq!(s.discarded_total(), (1..=12).sum::<u64>());
        assert_eq!(s.discarded.iter().count(), 12);
        let before = s.discarded;
        s.discarded.count(Discard::WrongDigest);
        s.discarded.count(Discard::WrongDigest);
        s.discarded.count(Discard::Malformed);
        let since = s.discarded.since(&before);
        assert_eq!(since.to_string(), "1 malformed, 2 wrong digest");
        assert_eq!(since.total(), 3);
    }
}
