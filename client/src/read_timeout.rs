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
    let quantum = (step / 16).max(Duration::from_millis(1)).as_nanos();
    let steps = left.as_nanos().div_ceil(quantum);
    Duration::from_nanos(u64::try_from(steps * quantum).unwrap_or(u64::MAX))
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
        assert_eq!(
            rounded_up(Duration::from_micros(1500), Duration::from_millis(2)),
            Duration::from_millis(2)
        );
    }
}
