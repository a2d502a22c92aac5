//! What a received datagram is to the request in flight: read strictly, then with real
//! agents' relaxations, and judged by the rules of `answer.rs`.

use super::*;

impl Exchange {
    /// What `datagram` is to the request in flight: read under BER, and when it does not
    /// decode so, once more with real agents' relaxations ([`Rules::BerLenient`]); an answer
    /// only the second reading takes is counted in [`Stats::relaxed`].
    pub(super) fn judge(&mut self, from: SocketAddr, datagram: &[u8], now: Instant) -> Verdict {
        let verdict = self.judge_under(from, datagram, now, Rules::Ber);
        if !matches!(
            verdict,
            Verdict::Discard(Discard::Malformed | Discard::DecryptionError)
        ) {
            return verdict;
        }
        match self.judge_under(from, datagram, now, Rules::BerLenient) {
            Verdict::Discard(_) => verdict,
            relaxed => {
                self.stats.relaxed += 1;
                tracing::debug!("answer read with relaxations (an unsigned value unpadded)");
                relaxed
            }
        }
    }

    /// [`Exchange::judge`] under `rules`.
    fn judge_under(
        &mut self,
        from: SocketAddr,
        datagram: &[u8],
        now: Instant,
        rules: Rules,
    ) -> Verdict {
        let Some(p) = self.pending.live() else {
            return Verdict::Discard(Discard::NothingPending);
        };
        if from != self.target {
            return Verdict::Discard(Discard::OtherSource);
        }
        match (&self.credentials, self.peer.as_mut()) {
            (Credentials::V1(_), _) => answer::v1(datagram, p.id, rules),
            (Credentials::V2c(_), _) => answer::v2c(datagram, p.id, rules),
            (Credentials::Usm(_), _) if p.discovering => {
                answer::discovery(datagram, p.id, now, rules)
            }
            (Credentials::Usm(user), Some(peer)) => {
                let expected = Expected {
                    id: p.id,
                    user,
                    resynced: p.resynced,
                };
                answer::usm(datagram, &expected, peer, now, rules)
            }
            (Credentials::Usm(_), None) => Verdict::Discard(Discard::NothingPending),
        }
    }
}
