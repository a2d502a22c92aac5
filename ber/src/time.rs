//! UTCTime and GeneralizedTime (X.680 clauses 46 and 47), decoded into small `Copy` values
//! without allocating, and encoded in their DER form (X.690 11.7 and 11.8).

use std::fmt;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::reader::Frame;
use crate::{EncodeError, Reader, Writer};

/// A date and time of day in UTC, to the nanosecond.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    year: u16,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    nanos: u32,
}

impl DateTime {
    /// A date and time, or `None` when a field is out of its range (the second may be 60, a
    /// leap second).
    #[inline]
    pub fn new(year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8) -> Option<Self> {
        let valid = year <= 9999
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month)
            && hour < 24
            && minute < 60
            && second <= 60;
        valid.then_some(DateTime {
            year,
            month,
            day,
            hour,
            minute,
            second,
            nanos: 0,
        })
    }

    /// The same instant with a fraction of a second (below 10^9 nanoseconds).
    pub fn with_nanos(self, nanos: u32) -> Option<Self> {
        (nanos < 1_000_000_000).then_some(DateTime { nanos, ..self })
    }

    /// The year.
    pub fn year(&self) -> u16 {
        self.year
    }
    /// The month, 1 to 12.
    pub fn month(&self) -> u8 {
        self.month
    }
    /// The day of the month, from 1.
    pub fn day(&self) -> u8 {
        self.day
    }
    /// The hour, 0 to 23.
    pub fn hour(&self) -> u8 {
        self.hour
    }
    /// The minute, 0 to 59.
    pub fn minute(&self) -> u8 {
        self.minute
    }
    /// The second, 0 to 60.
    pub fn second(&self) -> u8 {
        self.second
    }
    /// The fraction of the second, in nanoseconds.
    pub fn nanos(&self) -> u32 {
        self.nanos
    }

    /// Seconds since 1970-01-01T00:00:00Z (a leap second counts as the next second's start).
    #[inline]
    pub fn unix_seconds(&self) -> i64 {
        let days = days_from_civil(self.year as i64, self.month as i64, self.day as i64);
        days * 86_400 + self.hour as i64 * 3600 + self.minute as i64 * 60 + self.second as i64
    }

    /// The UTC date and time of `secs` since 1970-01-01T00:00:00Z, for years 0 to 9999.
    pub fn from_unix_seconds(secs: i64) -> Option<Self> {
        let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (y, m, d) = civil_from_days(days);
        let year = u16::try_from(y).ok()?;
        let (h, mi, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
        DateTime::new(year, m as u8, d as u8, h as u8, mi as u8, s as u8)
    }

    /// Moves a local time written with offset `minutes` east of UTC to UTC.
    fn minus_offset(self, minutes: i64) -> Option<Self> {
        let utc = Self::from_unix_seconds(self.unix_seconds() - minutes * 60)?;
        Some(DateTime {
            nanos: self.nanos,
            ..utc
        })
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )?;
        if self.nanos != 0 {
            let digits = format!("{:09}", self.nanos);
            write!(f, ".{}", digits.trim_end_matches('0'))?;
        }
        f.write_str("Z")
    }
}

impl fmt::Debug for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn is_leap(y: u16) -> bool {
    (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400)
}

#[inline(always)]
fn days_in_month(y: u16, m: u8) -> u8 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d` (eras of 400 years).
#[inline(always)]
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Two decimal digits at `at`, or `None`.
#[inline(always)]
fn two(c: &[u8], at: usize) -> Option<u8> {
    let (a, b) = (
        c.get(at)?.wrapping_sub(b'0'),
        c.get(at + 1)?.wrapping_sub(b'0'),
    );
    (a < 10 && b < 10).then(|| a * 10 + b)
}

/// A UTC offset `+hhmm` / `-hhmm` in minutes east, or `Z` as 0; the whole of `c` must be it.
fn zone(c: &[u8]) -> Option<i64> {
    match c {
        [b'Z'] => Some(0),
        [sign @ (b'+' | b'-'), ..] if c.len() == 5 => {
            let (h, m) = (two(c, 1)?, two(c, 3)?);
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = h as i64 * 60 + m as i64;
            Some(if *sign == b'-' { -minutes } else { minutes })
        }
        _ => None,
    }
}

#[cold]
#[inline(never)]
fn bad(r: &Reader<'_>, c: &[u8], what: &'static str, expected: &'static str) -> DecodeError {
    r.error_at(c, DecodeErrorKind::BadTime { what, expected })
}

/// UTCTime: a date and time to the second, two-digit years read as RFC 5280 4.1.2.5.1 reads
/// them (50 to 99 are 1950 to 1999, 00 to 49 are 2000 to 2049).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct UtcTime(DateTime);

const UTC_DER: &str = "YYMMDDhhmmssZ";
const UTC_BER: &str = "YYMMDDhhmm[ss] then Z or +hhmm/-hhmm, a valid date and time";

impl UtcTime {
    /// The time, or `None` outside the years 1950 to 2049 or with a fraction of a second.
    pub fn new(t: DateTime) -> Option<Self> {
        ((1950..=2049).contains(&t.year) && t.nanos == 0).then_some(UtcTime(t))
    }

    /// The date and time.
    pub fn date_time(&self) -> DateTime {
        self.0
    }

    /// Decodes UTCTime contents. DER: `YYMMDDhhmmssZ` only; BER also takes the seconds left
    /// out and an offset from UTC (converted to UTC).
    #[inline]
    pub fn decode_contents(r: &Reader<'_>, c: &[u8]) -> Result<Self, DecodeError> {
        if let Ok(der) = <&[u8; 13]>::try_from(c) {
            if let Some(t) = Self::der_form(der) {
                return Ok(t);
            }
        }
        Self::decode_other(r.frame(), c)
    }

    /// `YYMMDDhhmmssZ`: the twelve digits checked eight and four at a time.
    #[inline(always)]
    fn der_form(c: &[u8; 13]) -> Option<Self> {
        let (a, b) = c[..12].split_at(8);
        let a = u64::from_le_bytes(a.try_into().ok()?);
        let b = u32::from_le_bytes(b.try_into().ok()?) as u64;
        let digits = |w: u64, ones: u64| {
            w & (0xf0 * ones) == 0x30 * ones
                && w.wrapping_add(0x06 * ones) & (0xf0 * ones) == 0x30 * ones
        };
        if c[12] != b'Z' || !digits(a, 0x0101_0101_0101_0101) || !digits(b, 0x0101_0101) {
            return None;
        }
        let d = |k: usize| c[k] - b'0';
        let pair = |k: usize| d(k) * 10 + d(k + 1);
        let yy = pair(0);
        let year = if yy >= 50 { 1900 } else { 2000 } + yy as u16;
        let t = DateTime::new(year, pair(2), pair(4), pair(6), pair(8), pair(10))?;
        Some(UtcTime(t))
    }

    #[inline(never)]
    fn decode_other(frame: Frame, c: &[u8]) -> Result<Self, DecodeError> {
        let r = &Reader::in_frame(c, frame);
        if r.is_der() {
            return Err(bad(r, c, "UTCTime", UTC_DER));
        }
        let with_seconds = c.len() > 12 && c[10].is_ascii_digit();
        let body = if with_seconds { 12 } else { 10 };
        let parsed = (c.len() > body)
            .then(|| Some((Self::fields(c, with_seconds)?, zone(&c[body..])?)))
            .flatten();
        match parsed.and_then(|(t, z)| UtcTime::new(t.0.minus_offset(z)?)) {
            Some(t) => Ok(t),
            None => Err(bad(r, c, "UTCTime", UTC_BER)),
        }
    }

    #[inline(always)]
    fn fields(c: &[u8], with_seconds: bool) -> Option<Self> {
        let yy = two(c, 0)?;
        let year = if yy >= 50 { 1900 } else { 2000 } + yy as u16;
        let second = if with_seconds { two(c, 10)? } else { 0 };
        let t = DateTime::new(year, two(c, 2)?, two(c, 4)?, two(c, 6)?, two(c, 8)?, second)?;
        Some(UtcTime(t))
    }

    /// Octets [`UtcTime::encode_contents`] writes: always 13.
    #[inline]
    pub fn contents_len(&self) -> usize {
        13
    }

    /// Writes the DER contents, `YYMMDDhhmmssZ`: six digit pairs and the Z in two stores.
    #[inline]
    pub fn encode_contents(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.put_slice(&self.digits()[..13])
    }

    /// Writes the whole TLV with the identifier octet `tag` (UNIVERSAL 23, or an IMPLICIT
    /// one): identifier, length and contents, fifteen octets, as one slice.
    #[inline]
    pub fn encode_tlv(&self, w: &mut Writer<'_>, tag: u8) -> Result<(), EncodeError> {
        let mut tlv = [0u8; 15];
        tlv[..2].copy_from_slice(&[tag, 13]);
        tlv[2..].copy_from_slice(&self.digits()[..13]);
        w.put_slice(&tlv)
    }

    /// `YYMMDDhhmmssZ` and three unused octets: six digit pairs and the Z as two words.
    #[inline(always)]
    fn digits(&self) -> [u8; 16] {
        let t = self.0;
        let pair = |v: u8| u16::from_le_bytes(PAIRS[v as usize]) as u64;
        let head = pair((t.year % 100) as u8)
            | pair(t.month) << 16
            | pair(t.day) << 32
            | pair(t.hour) << 48;
        let tail = pair(t.minute) | pair(t.second) << 16 | (b'Z' as u64) << 32;
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&head.to_le_bytes());
        out[8..].copy_from_slice(&tail.to_le_bytes());
        out
    }
}

impl fmt::Display for UtcTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// GeneralizedTime: a date and time with a four-digit year and an optional fraction of a second.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct GeneralizedTime(DateTime);

const GEN_DER: &str = "YYYYMMDDhhmmss[.f]Z with no trailing zero in the fraction";
const GEN_BER: &str = "YYYYMMDDhh[mm[ss]][.f or ,f] then Z or +hhmm/-hhmm, a valid date and time";

impl GeneralizedTime {
    /// The time.
    pub fn new(t: DateTime) -> Self {
        GeneralizedTime(t)
    }

    /// The date and time.
    pub fn date_time(&self) -> DateTime {
        self.0
    }

    /// Decodes GeneralizedTime contents. DER: `YYYYMMDDhhmmss[.f]Z`, the fraction without
    /// trailing zeros; BER also takes minutes and seconds left out, a comma, and an offset from
    /// UTC (converted to UTC). A local time with no zone is refused: it names no instant.
    pub fn decode_contents(r: &Reader<'_>, c: &[u8]) -> Result<Self, DecodeError> {
        let der = r.is_der();
        let fail = || bad(r, c, "GeneralizedTime", if der { GEN_DER } else { GEN_BER });
        let year = |c: &[u8]| Some(two(c, 0)? as u16 * 100 + two(c, 2)? as u16);
        let y = year(c).ok_or_else(fail)?;
        // Date and hour, then as many of minutes and seconds as there are digits for.
        let mut at = 10;
        let mut hms = [two(c, 8).ok_or_else(fail)?, 0, 0];
        for slot in hms.iter_mut().skip(1) {
            match two(c, at) {
                Some(v) => {
                    *slot = v;
                    at += 2;
                }
                None if der => return Err(fail()),
                None => break,
            }
        }
        let (mo, d) = (two(c, 4).ok_or_else(fail)?, two(c, 6).ok_or_else(fail)?);
        let mut t = DateTime::new(y, mo, d, hms[0], hms[1], hms[2]).ok_or_else(fail)?;
        if let Some(&sep @ (b'.' | b',')) = c.get(at) {
            if der && (sep == b',' || at != 14) {
                return Err(fail());
            }
            let digits = c[at + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let frac = &c[at + 1..at + 1 + digits];
            if digits == 0 || (der && frac.last() == Some(&b'0')) {
                return Err(fail());
            }
            let nanos = frac
                .iter()
                .chain(std::iter::repeat(&b'0'))
                .take(9)
                .fold(0u32, |n, &b| n * 10 + (b - b'0') as u32);
            t = t.with_nanos(nanos).ok_or_else(fail)?;
            at += 1 + digits;
        }
        let z = zone(&c[at.min(c.len())..]).ok_or_else(fail)?;
        if der && z != 0 {
            return Err(fail());
        }
        if z == 0 {
            return Ok(GeneralizedTime(t));
        }
        t.minus_offset(z).map(GeneralizedTime).ok_or_else(fail)
    }

    /// Octets [`GeneralizedTime::encode_contents`] writes: 15, and a fraction's point and
    /// digits (no trailing zero).
    #[inline]
    pub fn contents_len(&self) -> usize {
        let mut nanos = self.0.nanos;
        if nanos == 0 {
            return 15;
        }
        let mut digits = 9;
        while nanos.is_multiple_of(10) {
            nanos /= 10;
            digits -= 1;
        }
        16 + digits
    }

    /// Writes the DER contents, `YYYYMMDDhhmmss[.f]Z`.
    pub fn encode_contents(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        let t = self.0;
        let mut out = [0u8; 25];
        put_two(&mut out, 0, (t.year / 100) as u8);
        put_two(&mut out, 2, (t.year % 100) as u8);
        put_fields(&mut out, 4, &t);
        let mut n = 14;
        if t.nanos != 0 {
            out[n] = b'.';
            let mut digits = *b"000000000";
            let mut v = t.nanos;
            for d in digits.iter_mut().rev() {
                *d = b'0' + (v % 10) as u8;
                v /= 10;
            }
            let len = 9 - digits.iter().rev().take_while(|&&d| d == b'0').count();
            out[n + 1..n + 1 + len].copy_from_slice(&digits[..len]);
            n += 1 + len;
        }
        out[n] = b'Z';
        w.put_slice(&out[..n + 1])
    }

    /// Writes the whole TLV with the identifier octet `tag` (UNIVERSAL 24, or an IMPLICIT
    /// one).
    #[inline]
    pub fn encode_tlv(&self, w: &mut Writer<'_>, tag: u8) -> Result<(), EncodeError> {
        let mark = w.mark();
        self.encode_contents(w)?;
        w.put_header_since(tag, mark)
    }
}

impl fmt::Display for GeneralizedTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// "00" to "99", indexed by any octet (the fields of a [`DateTime`] are below 100; the table
/// covers every `u8` so that no index needs a check).
const PAIRS: [[u8; 2]; 256] = {
    let mut t = [[b'9'; 2]; 256];
    let mut k = 0;
    while k < 100 {
        t[k] = [b'0' + (k / 10) as u8, b'0' + (k % 10) as u8];
        k += 1;
    }
    t
};

#[inline(always)]
fn put_two(out: &mut [u8], at: usize, v: u8) {
    out[at..at + 2].copy_from_slice(&PAIRS[v as usize]);
}

/// Month, day, hour, minute and second from `at`.
#[inline(always)]
fn put_fields(out: &mut [u8], at: usize, t: &DateTime) {
    for (k, v) in [t.month, t.day, t.hour, t.minute, t.second]
        .into_iter()
        .enumerate()
    {
        put_two(out, at + 2 * k, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    fn utc(s: &str, rules: Rules) -> Result<UtcTime, DecodeError> {
        UtcTime::decode_contents(&Reader::with_rules(s.as_bytes(), rules), s.as_bytes())
    }

    fn gen(s: &str, rules: Rules) -> Result<GeneralizedTime, DecodeError> {
        GeneralizedTime::decode_contents(&Reader::with_rules(s.as_bytes(), rules), s.as_bytes())
    }

    fn bytes_of<F: Fn(&mut Writer<'_>) -> Result<(), EncodeError>>(f: F) -> Vec<u8> {
        let mut buf = [0u8; 32];
        let mut w = Writer::new(&mut buf);
        f(&mut w).unwrap();
        w.written().to_vec()
    }

    fn der_of<F: Fn(&mut Writer<'_>) -> Result<(), EncodeError>>(f: F) -> String {
        String::from_utf8(bytes_of(f)).unwrap()
    }

    #[test]
    fn utc_time_both_rule_sets() {
        let t = utc("491231235959Z", Rules::Der).unwrap();
        assert_eq!(t.to_string(), "2049-12-31T23:59:59Z");
        assert_eq!(
            utc("500101000000Z", Rules::Der).unwrap().date_time().year(),
            1950
        );
        assert_eq!(der_of(|w| t.encode_contents(w)), "491231235959Z");
        assert_eq!(t.contents_len(), 13);
        // The whole TLV, under UNIVERSAL 23 and an IMPLICIT [1].
        assert_eq!(
            bytes_of(|w| t.encode_tlv(w, 0x17)),
            b"\x17\x0d491231235959Z"
        );
        assert_eq!(
            bytes_of(|w| t.encode_tlv(w, 0x81)),
            b"\x81\x0d491231235959Z"
        );
        // BER forms: no seconds, an offset.
        let t = utc("9912312359+0100", Rules::Ber).unwrap();
        assert_eq!(t.to_string(), "1999-12-31T22:59:00Z");
        assert!(utc("9912312359+0100", Rules::Der).is_err());
        assert!(utc("990231000000Z", Rules::Ber).is_err(), "31 February");
        assert!(utc("99123123595Z", Rules::Ber).is_err());
        assert!(utc("", Rules::Ber).is_err());
    }

    #[test]
    fn generalized_time_both_rule_sets() {
        let t = gen("20240229120000.25Z", Rules::Der).unwrap();
        assert_eq!(t.to_string(), "2024-02-29T12:00:00.25Z");
        assert_eq!(t.date_time().nanos(), 250_000_000);
        assert_eq!(der_of(|w| t.encode_contents(w)), "20240229120000.25Z");
        assert_eq!(
            bytes_of(|w| t.encode_tlv(w, 0x18)),
            b"\x18\x1220240229120000.25Z"
        );
        // The measured length is what is written, for every number of fraction digits.
        for nanos in [0, 1, 10, 250_000_000, 999_999_999, 100_000_000, 123_456_780] {
            let t = GeneralizedTime::new(t.date_time().with_nanos(nanos).unwrap());
            assert_eq!(
                t.contents_len(),
                der_of(|w| t.encode_contents(w)).len(),
                "{nanos}"
            );
        }
        assert!(
            gen("20240229120000.250Z", Rules::Der).is_err(),
            "trailing zero"
        );
        assert!(gen("20240229120000.250Z", Rules::Ber).is_ok());
        assert!(
            gen("202402291200Z", Rules::Der).is_err(),
            "seconds left out"
        );
        assert_eq!(
            gen("2024022912-0130", Rules::Ber).unwrap().to_string(),
            "2024-02-29T13:30:00Z"
        );
        assert!(
            gen("20230229120000Z", Rules::Ber).is_err(),
            "not a leap year"
        );
        assert!(gen("20240229120000", Rules::Ber).is_err(), "local time");
        assert!(gen("20240229120000,5Z", Rules::Der).is_err());
    }

    #[test]
    fn civil_days_round_trip() {
        for secs in [-1i64, 0, 951_782_400, 4_102_444_799, 253_402_300_799] {
            let t = DateTime::from_unix_seconds(secs).unwrap();
            assert_eq!(t.unix_seconds(), secs, "{t}");
        }
    }
}
