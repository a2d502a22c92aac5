//! Go's duration syntax (`time.ParseDuration`), which snmp.yml's `timeout` is written in:
//! `5s`, `1m30s`, `1.5s`, `250ms`; a bare integer is nanoseconds, as Go's YAML reads it.

use std::time::Duration;

use serde::{Deserialize, Deserializer, Serializer};

/// Parses a Go duration: a sequence of decimal numbers, each with a unit
/// (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`). Negative durations are refused.
pub fn parse(text: &str) -> Result<Duration, String> {
    let bad = || format!("invalid duration {text:?} (expected e.g. 5s, 1m30s, 250ms)");
    if text == "0" {
        return Ok(Duration::ZERO);
    }
    let mut rest = text.strip_prefix('+').unwrap_or(text);
    if rest.is_empty() {
        return Err(bad());
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(bad)?;
        let (number, tail) = rest.split_at(number_end);
        let value: f64 = number.parse().map_err(|_| bad())?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        let nanos = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return Err(bad()),
        };
        total += value * nanos;
        rest = tail;
    }
    if !total.is_finite() || total > u64::MAX as f64 {
        return Err(bad());
    }
    Ok(Duration::from_nanos(total as u64))
}

/// Writes a duration as Go prints one (`5s`, `1m30s`, `250ms`).
pub fn format(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos == 0 {
        return "0s".into();
    }
    if nanos < 1_000_000_000 {
        return match nanos {
            n if n % 1_000_000 == 0 => format!("{}ms", n / 1_000_000),
            n if n % 1_000 == 0 => format!("{}µs", n / 1_000),
            n => format!("{n}ns"),
        };
    }
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let frac = d.subsec_nanos();
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if h > 0 || m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if frac == 0 {
        out.push_str(&format!("{s}s"));
    } else {
        let digits = format!("{frac:09}");
        out.push_str(&format!("{s}.{}s", digits.trim_end_matches('0')));
    }
    out
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        Nanos(u64),
        Text(String),
    }
    match Option::<Form>::deserialize(d)? {
        None => Ok(None),
        Some(Form::Nanos(n)) => Ok(Some(Duration::from_nanos(n))),
        Some(Form::Text(t)) => parse(&t).map(Some).map_err(serde::de::Error::custom),
    }
}

pub(crate) fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_str(&format(*d)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_forms() {
        assert_eq!(parse("5s").unwrap(), Duration::from_secs(5));
        assert_eq!(parse("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse("2h").unwrap(), Duration::from_secs(7200));
        assert_eq!(parse("0").unwrap(), Duration::ZERO);
        for bad in ["", "5", "s", "5x", "-5s", "1..5s"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        for d in ["5s", "1m30s", "250ms", "1.5s", "1h0m0s"] {
            assert_eq!(format(parse(d).unwrap()), d);
        }
    }
}
