//! Time values as Unix seconds: RFC 2579's DateAndTime, NTP timestamps (RFC 5905), and text
//! read by a strftime pattern (`datetime_pattern`).

/// Why a value gives no time (the value is then rendered as nothing, as upstream does).
#[derive(Debug, thiserror::Error)]
pub enum TimeError {
    #[error("DateAndTime: offset direction {0:#04x}, not '+' or '-'")]
    OffsetDirection(u8),
    #[error("DateAndTime: an offset field past two digits")]
    OffsetPastTwoDigits,
    #[error("DateAndTime of {0} octets (8 or 11 expected)")]
    DateAndTimeLength(usize),
    #[error("NTPTimeStamp of {0} octets, at least 8 expected")]
    NtpLength(usize),
    #[error("the text does not match the datetime_pattern: {0}")]
    Pattern(chrono::ParseError),
    #[error("a time from a value that is no octet string")]
    NotOctets,
}

/// An RFC 2579 DateAndTime (8 octets, UTC; or 11 with the offset from UTC) as Unix seconds.
/// Out-of-range fields carry over as Go's `time.Date` carries them (month 13 is January of
/// the next year).
pub fn date_and_time(v: &[u8]) -> Result<f64, TimeError> {
    let offset = match v.len() {
        8 => 0,
        11 => {
            let sign = match v[8] {
                b'+' => 1,
                b'-' => -1,
                other => return Err(TimeError::OffsetDirection(other)),
            };
            if v[9] > 99 || v[10] > 99 {
                return Err(TimeError::OffsetPastTwoDigits);
            }
            sign * (i64::from(v[9]) * 3600 + i64::from(v[10]) * 60)
        }
        n => return Err(TimeError::DateAndTimeLength(n)),
    };
    let year = i64::from(u16::from_be_bytes([v[0], v[1]]));
    let month0 = i64::from(v[2]) - 1;
    let (year, month) = (year + month0.div_euclid(12), month0.rem_euclid(12) + 1);
    let days = days_from_civil(year, month) + i64::from(v[3]) - 1;
    let secs = days * 86400 + i64::from(v[4]) * 3600 + i64::from(v[5]) * 60 + i64::from(v[6]);
    Ok((secs - offset) as f64)
}

/// Days from 1970-01-01 to the first of `month` of `year` (proleptic Gregorian).
fn days_from_civil(year: i64, month: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// An NTP timestamp (seconds since 1900, then a fraction) as whole Unix seconds.
pub fn ntp_timestamp(v: &[u8]) -> Result<f64, TimeError> {
    if v.len() < 8 {
        return Err(TimeError::NtpLength(v.len()));
    }
    let secs = i64::from(u32::from_be_bytes([v[0], v[1], v[2], v[3]]));
    Ok((secs - 2_208_988_800) as f64)
}

/// `text` read by the strftime `pattern` as Unix seconds (UTC where it names no offset).
pub fn parse_with_pattern(text: &str, pattern: &str) -> Result<f64, TimeError> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime};
    if let Ok(t) = DateTime::parse_from_str(text, pattern) {
        return Ok(t.timestamp() as f64);
    }
    if let Ok(t) = NaiveDateTime::parse_from_str(text, pattern) {
        return Ok(t.and_utc().timestamp() as f64);
    }
    match NaiveDate::parse_from_str(text, pattern) {
        Ok(d) => Ok(d
            .and_hms_opt(0, 0, 0)
            .map_or(0, |t| t.and_utc().timestamp()) as f64),
        Err(e) => Err(TimeError::Pattern(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_and_time_forms() {
        // 2021-03-04 05:06:07.8 UTC.
        let utc = [0x07, 0xe5, 3, 4, 5, 6, 7, 8];
        assert_eq!(date_and_time(&utc).unwrap(), 1_614_834_367.0);
        // The same wall time at +02:00 is two hours earlier.
        let plus2 = [0x07, 0xe5, 3, 4, 5, 6, 7, 8, b'+', 2, 0];
        assert_eq!(date_and_time(&plus2).unwrap(), 1_614_834_367.0 - 7200.0);
        assert!(date_and_time(&[0; 9]).is_err());
        assert!(date_and_time(&[0x07, 0xe5, 3, 4, 5, 6, 7, 8, b'x', 0, 0]).is_err());
        // Month 13 carries into the next year, as Go's time.Date does.
        let m13 = [0x07, 0xe4, 13, 1, 0, 0, 0, 0];
        assert_eq!(date_and_time(&m13).unwrap(), 1_609_459_200.0);
    }

    #[test]
    fn ntp_and_patterns() {
        let ntp = [0xe3, 0xd5, 0x4c, 0x00, 0x80, 0, 0, 0];
        assert_eq!(
            ntp_timestamp(&ntp).unwrap(),
            (0xe3d54c00u32 as i64 - 2_208_988_800) as f64
        );
        assert!(ntp_timestamp(&[1, 2, 3]).is_err());
        assert_eq!(
            parse_with_pattern("2021-03-04 05:06:07", "%Y-%m-%d %H:%M:%S").unwrap(),
            1_614_834_367.0
        );
        assert!(parse_with_pattern("yesterday", "%Y-%m-%d").is_err());
    }
}
