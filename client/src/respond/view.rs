//! A MIB view recorded from an agent: its bindings in OID order, read from what `snmpwalk -On`
//! (or `snmpc walk -On`) prints, `.1.3.6.1.2.1.1.1.0 = STRING: "text"` a binding, a string
//! that spans lines continued on the next ones. Every line that is not a binding it can serve
//! is reported with its number and why, never skipped silently; among them the exceptions
//! snmpwalk prints where a walk ends (`= No more variables left in this MIB View ...`,
//! `= No Such Object ...`), which carry no value.

use snmp_ber::OidBuf;

use crate::value::Value;
use crate::OpaqueNumber;

/// Recorded bindings, in OID order, each OID once.
#[derive(Debug, Clone, Default)]
pub struct View {
    bindings: Vec<(OidBuf, Value)>,
}

/// A line of a recording that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// Its number, from 1.
    pub line: usize,
    /// Why.
    pub reason: String,
}

impl View {
    /// A view of `bindings` (sorted here; of an OID given twice, the last is kept).
    pub fn new(mut bindings: Vec<(OidBuf, Value)>) -> View {
        bindings.reverse();
        bindings.sort_by(|a, b| a.0.cmp(&b.0));
        bindings.dedup_by(|later, earlier| later.0 == earlier.0);
        View { bindings }
    }

    /// The view `snmpwalk -On` printed as `text`, and the lines it could not read.
    pub fn from_walk(text: &str) -> (View, Vec<Unread>) {
        let mut bindings = Vec::new();
        let mut unread = Vec::new();
        let mut lines = text.lines().enumerate().peekable();
        while let Some((k, line)) = lines.next() {
            if line.trim().is_empty() {
                continue;
            }
            let mut whole = line.to_string();
            // A quoted string with newlines goes on until its closing quote (but never over
            // the next binding: a stray quote swallows nothing).
            while open_quote(&whole) {
                match lines.next_if(|(_, more)| !starts_binding(more)) {
                    Some((_, more)) => {
                        whole.push('\n');
                        whole.push_str(more);
                    }
                    None => break,
                }
            }
            // A Hex-STRING goes on over lines of hex pairs: snmpwalk puts sixteen octets to a
            // line.
            if is_hex_string(&whole) {
                while let Some((_, more)) = lines.next_if(|(_, more)| hex_pairs_only(more)) {
                    whole.push(' ');
                    whole.push_str(more);
                }
            }
            if is_exception(&whole) {
                let reason = "an exception (noSuchObject, endOfMibView...): no value to serve";
                unread.push(Unread {
                    line: k + 1,
                    reason: reason.into(),
                });
                continue;
            }
            match binding(&whole) {
                Ok((oid, value)) => bindings.push((oid, value, k + 1)),
                Err(reason) => unread.push(Unread {
                    line: k + 1,
                    reason,
                }),
            }
        }
        // An OID given twice: the last is served, the earlier reported.
        bindings.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.cmp(&b.2)));
        for pair in bindings.windows(2) {
            if pair[0].0 == pair[1].0 {
                unread.push(Unread {
                    line: pair[0].2,
                    reason: format!(
                        "{} is given again on line {}, which is served",
                        pair[0].0, pair[1].2
                    ),
                });
            }
        }
        unread.sort_by_key(|u| u.line);
        let bindings = bindings.into_iter().map(|(o, v, _)| (o, v)).collect();
        (View::new(bindings), unread)
    }

    /// Number of bindings.
    pub fn len(&self) -> usize {
        self.bindings.len()
    }

    /// No bindings.
    pub fn is_empty(&self) -> bool {
        self.bindings.is_empty()
    }

    /// The value at exactly `oid`.
    pub fn get(&self, oid: &OidBuf) -> Option<&Value> {
        let k = self.bindings.binary_search_by(|(o, _)| o.cmp(oid)).ok()?;
        Some(&self.bindings[k].1)
    }

    /// The first binding after `oid` (GETNEXT).
    pub fn next_after(&self, oid: &OidBuf) -> Option<&(OidBuf, Value)> {
        let k = self.bindings.partition_point(|(o, _)| o <= oid);
        self.bindings.get(k)
    }

    /// Whether some binding is under `prefix` (an object with instances, for noSuchInstance
    /// against noSuchObject).
    pub fn has_under(&self, prefix: &OidBuf) -> bool {
        self.next_after(prefix)
            .is_some_and(|(o, _)| o.as_oid().starts_with(&prefix.as_oid()))
    }
}

/// Whether `line` starts a binding: `.1.3...` then ` = `.
fn starts_binding(line: &str) -> bool {
    line.split_once(" = ").is_some_and(|(oid, _)| {
        oid.starts_with('.') && oid[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
    })
}

/// Whether `line` is a binding whose value is a Hex-STRING.
fn is_hex_string(line: &str) -> bool {
    line.split_once(" = ")
        .is_some_and(|(_, v)| v.trim_start().starts_with("Hex-STRING:"))
}

/// Whether `line` holds hex pairs and nothing else (a Hex-STRING's next sixteen octets).
fn hex_pairs_only(line: &str) -> bool {
    let mut pairs = line.split_whitespace().peekable();
    pairs.peek().is_some() && pairs.all(is_hex_pair)
}

/// `1A`, `ff`: one octet in hex.
fn is_hex_pair(token: &str) -> bool {
    token.len() == 2 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether `line` is an exception snmpwalk printed (no value to serve).
fn is_exception(line: &str) -> bool {
    line.split_once(" = ").is_some_and(|(_, v)| {
        let v = v.trim_start();
        v.starts_with("No more variables left in this MIB View")
            || v.starts_with("No Such Object available")
            || v.starts_with("No Such Instance currently exists")
    })
}

/// Whether `line` has a `"` opened and not closed (backslash escapes skipped).
fn open_quote(line: &str) -> bool {
    let Some((_, value)) = line.split_once(" = ") else {
        return false;
    };
    let mut open = false;
    let mut escaped = false;
    for c in value.chars() {
        match (c, escaped) {
            (_, true) => escaped = false,
            ('\\', false) => escaped = true,
            ('"', false) => open = !open,
            _ => {}
        }
    }
    open
}

/// One binding: `.OID = TYPE: VALUE`, `.OID = ""` (an empty string), or `.OID = VALUE` for
/// the few types snmpwalk shows without a label.
fn binding(line: &str) -> Result<(OidBuf, Value), String> {
    let (oid, rest) = line
        .split_once(" = ")
        .ok_or("expected `.OID = TYPE: VALUE`")?;
    let oid: OidBuf = oid
        .trim()
        .trim_start_matches('.')
        .parse()
        .map_err(|e| format!("`{}`: {e}", oid.trim()))?;
    let value = if rest.trim() == "\"\"" {
        Value::OctetString(Vec::new().into())
    } else {
        let (kind, text) = rest
            .split_once(": ")
            .ok_or_else(|| format!("`{rest}`: expected TYPE: VALUE"))?;
        value(kind.trim(), text)?
    };
    Ok((oid, value))
}

/// A quoted string's text with net-snmp's escapes (`\\"`, `\\\\`) undone.
fn unescape(quoted: &str) -> String {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('"' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The number in `text`: the one in parentheses (`up(1)`, `(12345) 0:02:03.45`), else the
/// first word (`1500 octets`).
fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    let inner = match (text.rfind('('), text.rfind(')')) {
        (Some(a), Some(b)) if a < b => &text[a + 1..b],
        _ => text.split_whitespace().next().unwrap_or(""),
    };
    inner
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))
}

/// Octets written as hex pairs (`00 1B 21`).
fn hex(text: &str) -> Result<Vec<u8>, String> {
    text.split_whitespace()
        .map(|pair| u8::from_str_radix(pair, 16).map_err(|_| format!("`{pair}` is not hex")))
        .collect()
}

/// An Opaque as snmpwalk prints it: hex pairs, or a number net-snmp wraps in it
/// (`Float: 0.208008`, taken as a Float: snmpwalk prints a Double the same way; `Int64: -5`,
/// `UInt64: 7`, `Counter64: 8`).
fn opaque(text: &str) -> Result<Vec<u8>, String> {
    let Some((kind, number)) = text.trim().split_once(": ") else {
        return hex(text);
    };
    let bad = || format!("`{number}` is not a number ({kind})");
    let n = match kind {
        "Float" => OpaqueNumber::Float(number.parse().map_err(|_| bad())?),
        "Int64" => OpaqueNumber::Int64(number.parse().map_err(|_| bad())?),
        "UInt64" => OpaqueNumber::UInt64(number.parse().map_err(|_| bad())?),
        "Counter64" => OpaqueNumber::Counter64(number.parse().map_err(|_| bad())?),
        other => {
            return Err(format!(
                "`{other}` is not a number snmpwalk prints in an Opaque"
            ))
        }
    };
    Ok(n.to_opaque())
}

/// The octets of BITS as snmpwalk prints them: the octets in hex, then each bit set, by its
/// label and number (`up(0)`) or by its number alone (`9`, which may look like an octet):
/// the first octets whose set bits are as many as the words after them.
fn bits(text: &str) -> Result<Vec<u8>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let pairs = words.iter().take_while(|w| is_hex_pair(w)).count();
    let octets = hex(&words[..pairs].join(" "))?;
    let ones = |k: usize| -> usize { octets[..k].iter().map(|b| b.count_ones() as usize).sum() };
    let k = (1..=pairs)
        .find(|&k| words.len() - k == ones(k))
        .unwrap_or(pairs);
    Ok(octets[..k].to_vec())
}

/// A value of net-snmp's type label `kind`.
fn value(kind: &str, text: &str) -> Result<Value, String> {
    let text = text.trim_end_matches(['\r', '\n']);
    Ok(match kind {
        "STRING" => {
            let t = text.trim();
            let unquoted = t
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(t);
            Value::OctetString(unescape(unquoted).as_bytes().into())
        }
        "Hex-STRING" => Value::OctetString(hex(text)?.into()),
        "BITS" => Value::OctetString(bits(text)?.into()),
        "INTEGER" => Value::Integer(number(text)?),
        "Gauge32" | "Unsigned32" => Value::Gauge32(number(text)?),
        "Counter32" => Value::Counter32(number(text)?),
        "Counter64" => Value::Counter64(number(text)?),
        "Timeticks" => Value::TimeTicks(number(text)?),
        "OID" => Value::ObjectIdentifier(
            text.trim()
                .trim_start_matches('.')
                .parse()
                .map_err(|e| format!("`{text}`: {e}"))?,
        ),
        "IpAddress" | "Network Address" => {
            let a: std::net::Ipv4Addr = text
                .trim()
                .parse()
                .map_err(|_| format!("`{text}` is not an IPv4 address"))?;
            Value::IpAddress(a.octets())
        }
        "Opaque" => Value::Opaque(opaque(text)?.into()),
        other => return Err(format!("type `{other}` is not one snmpwalk prints")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_is_read_back_and_what_is_not_is_reported() {
        let text = ".1.3.6.1.2.1.1.1.0 = STRING: \"Linux box \\\"x\\\"\"\n\
            .1.3.6.1.2.1.1.2.0 = OID: .1.3.6.1.4.1.8072.3.2.10\n\
            .1.3.6.1.2.1.1.3.0 = Timeticks: (12345) 0:02:03.45\n\
            .1.3.6.1.2.1.1.4.0 = STRING: \"two\nlines\"\n\
            .1.3.6.1.2.1.1.5.0 = \"\"\n\
            .1.3.6.1.2.1.2.2.1.3.1 = INTEGER: softwareLoopback(24)\n\
            .1.3.6.1.2.1.2.2.1.6.2 = Hex-STRING: 52 54 00 12 34 56 \n\
            .1.3.6.1.2.1.2.2.1.10.1 = Counter32: 123\n\
            .1.3.6.1.2.1.2.2.1.5.1 = Gauge32: 10000000\n\
            .1.3.6.1.2.1.31.1.1.1.6.1 = Counter64: 18446744073709551615\n\
            .1.3.6.1.2.1.4.20.1.1.127.0.0.1 = IpAddress: 127.0.0.1\n\
            .1.3.6.1.2.1.25.2.3.1.4.1 = INTEGER: 4096 Bytes\n\
            .1.3.6.1.2.1.25.4.2.1.5.1 = STRING: \"a {\"b\"} \\\\ c\"\n\
            .1.3.6.1.2.1.25.4.2.1.5.2 = STRING: \"an unescaped \" quote\n\
            .1.3.6.1.4.1.2021.10.1.6.1 = Opaque: Float: 0.208008\n\
            .1.3.6.1.4.1.9.1.3 = Opaque: Int64: -5\n\
            .1.3.6.1.4.1.9.1.4 = Opaque: 9F 77 01 00 \n\
            garbage line\n\
            .1.3.6.1.2.1.9.9 = Wobble: 3\n\
            .1.3.6.1.2.1.99.1 = No more variables left in this MIB View (It is past the end of the MIB tree)\n\
            .1.3.6.1.2.1.1.5.0 = STRING: \"renamed\"\n";
        let (view, unread) = View::from_walk(text);
        assert_eq!(view.len(), 17);
        assert_eq!(
            unread.iter().map(|u| u.line).collect::<Vec<_>>(),
            [6, 19, 20, 21],
            "{unread:?}"
        );
        assert!(unread[0].reason.contains("again on line 22"), "{unread:?}");
        assert!(unread[3].reason.contains("exception"), "{unread:?}");
        let oid = |s: &str| s.parse::<OidBuf>().unwrap();
        let number = |s: &str| view.get(&oid(s)).and_then(Value::opaque_number);
        assert_eq!(
            number("1.3.6.1.4.1.2021.10.1.6.1"),
            Some(OpaqueNumber::Float(0.208008))
        );
        assert_eq!(number("1.3.6.1.4.1.9.1.3"), Some(OpaqueNumber::Int64(-5)));
        assert_eq!(
            view.get(&oid("1.3.6.1.4.1.9.1.4")),
            Some(&Value::Opaque([0x9f, 0x77, 1, 0].as_slice().into()))
        );
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.25.4.2.1.5.1")),
            Some(&Value::OctetString(b"a {\"b\"} \\ c".as_slice().into()))
        );
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.1.1.0")),
            Some(&Value::OctetString(b"Linux box \"x\"".as_slice().into()))
        );
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.1.4.0")),
            Some(&Value::OctetString(b"two\nlines".as_slice().into()))
        );
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.1.3.0")),
            Some(&Value::TimeTicks(12345))
        );
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.2.2.1.3.1")),
            Some(&Value::Integer(24))
        );
        // In OID order, arc by arc: ifSpeed (.5) before ifInOctets (.10).
        let after = view.next_after(&oid("1.3.6.1.2.1.2.2.1.3.1")).unwrap();
        assert_eq!(after.0, oid("1.3.6.1.2.1.2.2.1.5.1"));
        assert!(view.has_under(&oid("1.3.6.1.2.1.2.2.1.6")));
        assert!(!view.has_under(&oid("1.3.6.1.2.1.2.2.1.7")));
        assert!(view.next_after(&oid("1.3.6.1.4.1.2021.10.1.6.1")).is_none());
    }

    #[test]
    fn a_long_hex_string_and_bits_are_read_whole() {
        // snmpwalk's seventeen-octet engine ID: sixteen octets, then a line with the last.
        let text = ".1.3.6.1.6.3.10.2.1.1.0 = Hex-STRING: 80 00 1F 88 80 74 C9 0B 69 9B DE 10 6B 00 00 00 \n\
            00 \n\
            .1.3.6.1.6.3.10.2.1.2.0 = INTEGER: 1\n\
            .1.3.6.1.2.1.99.1 = BITS: 80 20 up(0) ten(10) \n\
            .1.3.6.1.2.1.99.2 = BITS: 40 00 01 1 23 \n\
            .1.3.6.1.2.1.99.3 = BITS: 00 \n";
        let (view, unread) = View::from_walk(text);
        assert!(unread.is_empty(), "{unread:?}");
        let oid = |s: &str| s.parse::<OidBuf>().unwrap();
        let mut engine = vec![
            0x80, 0, 0x1f, 0x88, 0x80, 0x74, 0xc9, 0x0b, 0x69, 0x9b, 0xde,
        ];
        engine.extend([0x10, 0x6b, 0, 0, 0, 0]);
        assert_eq!(
            view.get(&oid("1.3.6.1.6.3.10.2.1.1.0")),
            Some(&Value::OctetString(engine.as_slice().into()))
        );
        let octets = |b: &[u8]| Some(Value::OctetString(b.into()));
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.99.1")),
            octets(&[0x80, 0x20]).as_ref()
        );
        assert_eq!(
            view.get(&oid("1.3.6.1.2.1.99.2")),
            octets(&[0x40, 0, 1]).as_ref()
        );
        assert_eq!(view.get(&oid("1.3.6.1.2.1.99.3")), octets(&[0]).as_ref());
    }
}
