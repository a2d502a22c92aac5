//! What snmptrapd asks the C library for when it logs a notification: the local time
//! (`localtime_r`, so `TZ` and the system's zone apply as they do to snmptrapd) and the name of
//! a sender's address (`getnameinfo`: /etc/hosts, then DNS), cached per address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{SystemTime, UNIX_EPOCH};

/// A moment in local time, in the parts snmptrapd's formats print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalTime {
    /// Seconds since the epoch.
    pub epoch: u64,
    /// The year (2026), month (1-12), day of the month, hour, minute and second.
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
}

impl LocalTime {
    /// Now, local time (UTC when the C library cannot say).
    pub fn now() -> LocalTime {
        let epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let t = libc::time_t::try_from(epoch).unwrap_or(0);
        // SAFETY: `tm` is plain data that localtime_r fills; both pointers are valid for the
        // call.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        let filled = unsafe { !libc::localtime_r(&t, &mut tm).is_null() };
        if !filled {
            return utc(epoch);
        }
        LocalTime {
            epoch,
            year: i64::from(tm.tm_year) + 1900,
            month: i64::from(tm.tm_mon) + 1,
            day: i64::from(tm.tm_mday),
            hour: i64::from(tm.tm_hour),
            minute: i64::from(tm.tm_min),
            second: i64::from(tm.tm_sec),
        }
    }
}

impl std::fmt::Display for LocalTime {
    /// As snmptrapd prints it: `2026-12-03 10:47:16`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// Now as snmptrapd prints it: `2026-12-03 10:47:16`, local time.
pub fn local_time() -> String {
    LocalTime::now().to_string()
}

/// `secs` since the epoch as a UTC date and time (civil from days, proleptic Gregorian).
fn utc(secs: u64) -> LocalTime {
    let days = (secs / 86_400) as i64;
    let rem = (secs % 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    LocalTime {
        epoch: secs,
        year: yoe + era * 400 + i64::from(month <= 2),
        month,
        day,
        hour: rem / 3600,
        minute: rem / 60 % 60,
        second: rem % 60,
    }
}

/// Names of addresses, looked up once each.
#[derive(Debug, Default)]
pub struct HostNames {
    known: HashMap<IpAddr, Option<String>>,
}

/// The most names kept; past it the cache starts again (a flood of senders cannot grow it).
const MAX_NAMES: usize = 4096;

impl HostNames {
    /// The name of `ip` (its reverse lookup), or `None` when it has none.
    pub fn name(&mut self, ip: IpAddr) -> Option<&str> {
        if self.known.len() >= MAX_NAMES && !self.known.contains_key(&ip) {
            self.known.clear();
        }
        self.known
            .entry(ip)
            .or_insert_with(|| lookup(ip))
            .as_deref()
    }
}

/// `getnameinfo` with `NI_NAMEREQD`: the name, or `None` when there is none.
fn lookup(ip: IpAddr) -> Option<String> {
    let mut host = [0 as libc::c_char; 1025];
    // SAFETY: the sockaddr is built whole on the stack and its length passed with it; `host`
    // is a writable buffer of the length given, NUL-terminated by getnameinfo on success.
    let rc = unsafe {
        let mut storage: libc::sockaddr_storage = std::mem::zeroed();
        let len = match ip {
            IpAddr::V4(v4) => {
                let sin = &mut *(&mut storage as *mut _ as *mut libc::sockaddr_in);
                sin.sin_family = libc::AF_INET as libc::sa_family_t;
                sin.sin_addr.s_addr = u32::from_ne_bytes(v4.octets());
                std::mem::size_of::<libc::sockaddr_in>()
            }
            IpAddr::V6(v6) => {
                let sin6 = &mut *(&mut storage as *mut _ as *mut libc::sockaddr_in6);
                sin6.sin6_family = libc::AF_INET6 as libc::sa_family_t;
                sin6.sin6_addr.s6_addr = v6.octets();
                std::mem::size_of::<libc::sockaddr_in6>()
            }
        };
        libc::getnameinfo(
            &storage as *const _ as *const libc::sockaddr,
            len as libc::socklen_t,
            host.as_mut_ptr(),
            host.len() as libc::socklen_t,
            std::ptr::null_mut(),
            0,
            libc::NI_NAMEREQD,
        )
    };
    if rc != 0 {
        return None;
    }
    // SAFETY: getnameinfo succeeded, so `host` holds a NUL-terminated string.
    let name = unsafe { std::ffi::CStr::from_ptr(host.as_ptr()) };
    Some(name.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_from_the_epoch() {
        assert_eq!(utc(0).to_string(), "1970-01-01 00:00:00");
        assert_eq!(utc(951_782_400).to_string(), "2000-02-29 00:00:00");
        assert_eq!(utc(1_796_294_863).to_string(), "2026-12-03 10:47:43");
    }

    #[test]
    fn local_time_has_snmptrapds_shape() {
        let t = local_time();
        let shape: String = t
            .chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect();
        assert_eq!(shape, "9999-99-99 99:99:99", "{t}");
    }
}
