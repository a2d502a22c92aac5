//! A std socket's receive timeout, set by a system call only when it changes: the drivers
//! wait for a deadline at every receive, and a request's wait rounded up to a step of its
//! timeout is the same from one request to the next.

use std::io;
use std::net::UdpSocket;
use std::time::Duration;

/// The timeout last set on a socket.
#[derive(Debug, Default)]
pub(crate) struct ReadTimeout(Option<Option<Duration>>);

impl ReadTimeout {
    /// `socket`'s timeout made `timeout`, unless it is already.
    pub(crate) fn set(&mut self, socket: &UdpSocket, timeout: Option<Duration>) -> io::Result<()> {
        if self.0 != Some(timeout) {
            socket.set_read_timeout(timeout)?;
            self.0 = Some(timeout);
        }
        Ok(())
    }
}

/// `left` rounded up to a sixteenth of `step` (1 ms at least): never shorter than `left`, so
/// a wait that times out has reached its deadline; at most a sixteenth of `step` longer.
pub(crate) fn rounded_up(left: Duration, step: Duration) -> Duration {
    // In 64 bits (585 years of nanoseconds; longer saturates): a 128-bit division would be
    // most of a request's clock work.
    let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    let quantum = nanos((step / 16).max(Duration::from_millis(1)));
    let steps = nanos(left).div_ceil(quantum).min(u64::MAX / quantum);
    Duration::from_nanos(steps * quantum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_round_up_to_a_sixteenth_of_the_timeout() {
        let second = Duration::from_secs(1);
        assert_eq!(rounded_up(Duration::from_micros(999_990), second), second);
        assert_eq!(rounded_up(Duration::from_millis(1), second), second / 16);
        assert_eq!(rounded_up(Duration::ZERO, second), Duration::ZERO);
        // Past 64 bits of nanoseconds the wait saturates, whole steps still.
        let longest = rounded_up(Duration::MAX, second);
        assert!(
            longest >= Duration::from_secs(500 * 365 * 86_400),
            "{longest:?}"
        );
        assert_eq!(longest.as_nanos() % (second / 16).as_nanos(), 0);
        assert_eq!(
            rounded_up(Duration::from_micros(1500), Duration::from_millis(2)),
            Duration::from_millis(2)
        );
    }
}
