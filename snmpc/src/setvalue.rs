//! `snmpc set`'s values, typed by net-snmp's letters (`snmpset`'s `OID TYPE VALUE`):
//! `i` INTEGER, `u` Unsigned32 (Gauge32), `c` Counter32, `C` Counter64, `t` TimeTicks,
//! `a` IpAddress, `o` OBJECT IDENTIFIER, `s` STRING, `x` hex STRING, `d` decimal STRING,
//! `b` BITS, `n` NULL, and the numbers net-snmp wraps in an Opaque: `F` Float, `D` Double,
//! `I` Int64, `U` UInt64.

use snmp_ber::OidBuf;
use snmp_client::{OpaqueNumber, Value};
use snmp_smi::mib::Presentation;

/// The type letters of values (net-snmp's `snmp_add_var`).
pub const LETTERS: &str = "iuctaosxdbnCUIFD";

/// The type letters snmpset takes as arguments, besides `=`: [`LETTERS`] without Counter32
/// and Counter64, which no agent lets a manager set.
pub const SET_LETTERS: &str = "iutaosxdbnUIFD";

/// How [`parse_for`] reads a value against its object's definition.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// Type, INTEGER ranges and OCTET STRING sizes checked (not under `-Ir`).
    pub check: bool,
    /// An `s` value read through its object's DISPLAY-HINT (not under `-Ih`).
    pub hints: bool,
}

/// The value of `text` as type `letter` for an object the MIB describes as `object` (when it
/// does), checked as snmpset checks it before sending: `=` takes the type from the SYNTAX; a
/// letter of another type is refused, an enumeration's label taken for its number, an INTEGER
/// outside its ranges refused, an OCTET STRING of a size outside its SIZE refused; an `s`
/// value is read through the object's DISPLAY-HINT ([`crate::hintinput`]); without
/// `reading.check` (`-Ir`) neither the type nor the ranges and sizes are checked. The error
/// is net-snmp's (`Bad variable type (Type of attribute is OCTET STRING, not INTEGER)`,
/// `Value out of range (200 :: {(0..127)})`).
pub fn parse_for(
    letter: &str,
    text: &str,
    object: Option<&Presentation>,
    reading: Reading,
    oid: &dyn Fn(&str) -> Result<OidBuf, String>,
) -> Result<Value, String> {
    let check = reading.check;
    let letter = match (letter, object) {
        ("=", Some(p)) => letter_of(&p.base).ok_or_else(|| format!("Bad object type: {letter}"))?,
        (l, _) if l.len() != 1 || !LETTERS.contains(l) => {
            return Err(format!("Bad variable type (\"{l}\")"))
        }
        (l, _) => l,
    };
    let Some(p) = object else {
        return parse(letter, text, oid).map_err(|e| notation_error(letter, text, e));
    };
    if check && !fits(letter, &p.base) {
        return Err(format!(
            "Bad variable type (Type of attribute is {}, not {})",
            type_name(&p.base),
            letter_name(letter)
        ));
    }
    if matches!(letter, "s" | "x" | "d") && p.base == "OCTET STRING" {
        return octet_string(letter, text, p, reading, oid);
    }
    if letter != "i" {
        return parse(letter, text, oid).map_err(|e| notation_error(letter, text, e));
    }
    // As snmpset: a number (spaces before it, none after), else a label as written.
    let value = match text.trim_start().parse::<i128>() {
        Ok(n) => n,
        Err(_) => match p.enums.iter().find(|(label, _)| label == text) {
            Some((_, n)) => *n,
            None => return Err(notation_error(letter, text, String::new())),
        },
    };
    let in_range = !check
        || p.ranges.is_empty()
        || p.ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&value));
    match i32::try_from(value) {
        Ok(v) if in_range => Ok(Value::Integer(v.into())),
        _ => Err(format!(
            "Value out of range ({value} :: {{{}}})",
            ranges_text(&p.ranges)
        )),
    }
}

/// An OCTET STRING value (`s`, `x` or `d`) for object `p`: an `s` text read through the
/// object's DISPLAY-HINT, or as it is when the hint does not read it (as snmpset does); its
/// length checked against the object's SIZE, in snmpset's words (`Value out of range (Bad
/// string length :: {(5..32)})`, `(Value does not match DISPLAY-HINT :: {(0..255)})` for a
/// text read through a hint).
fn octet_string(
    letter: &str,
    text: &str,
    p: &Presentation,
    reading: Reading,
    oid: &dyn Fn(&str) -> Result<OidBuf, String>,
) -> Result<Value, String> {
    let hint = p.hint.as_deref().filter(|_| reading.hints && letter == "s");
    let value = match hint.and_then(|h| crate::hintinput::octets(h, text)) {
        Some(octets) => Value::OctetString(octets.into()),
        None => parse(letter, text, oid).map_err(|e| notation_error(letter, text, e))?,
    };
    let Value::OctetString(octets) = &value else {
        return Ok(value);
    };
    let len = octets.len() as i128;
    if !reading.check
        || p.sizes.is_empty()
        || p.sizes.iter().any(|(lo, hi)| (*lo..=*hi).contains(&len))
    {
        return Ok(value);
    }
    let why = match hint {
        Some(_) => "Value does not match DISPLAY-HINT",
        None => "Bad string length",
    };
    Err(format!(
        "Value out of range ({why} :: {{{}}})",
        ranges_text(&p.sizes)
    ))
}

/// Ranges as net-snmp lists them in its range errors: `(0..127)`, a single value `(8)`,
/// separated by `, `.
fn ranges_text(ranges: &[(i128, i128)]) -> String {
    let each: Vec<String> = ranges
        .iter()
        .map(|(lo, hi)| match lo == hi {
            true => format!("({lo})"),
            false => format!("({lo}..{hi})"),
        })
        .collect();
    each.join(", ")
}

/// net-snmp's words for a value text that type `letter` cannot take (`why`: what [`parse`]
/// said): a name that is no OID as the name's error; for an INTEGER a text that is not a
/// number, for BITS a part that is no bit number, as out of range (snmpset reads them as
/// enumeration labels, and none matched); anything else, and an empty text, as bad notation.
fn notation_error(letter: &str, text: &str, why: String) -> String {
    let bad_bit = || {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .find(|p| !p.is_empty() && p.parse::<u16>().map_or(true, |b| b >= 8 * 1024))
    };
    match letter {
        "o" => why,
        "i" if !text.is_empty() => format!("Value out of range ({text})"),
        "b" => match bad_bit() {
            Some(part) => format!("Value out of range ({part})"),
            None => format!("Bad value notation ({text})"),
        },
        _ => format!("Bad value notation ({text})"),
    }
}

/// The letter `=` stands for: the type of the SYNTAX's base.
fn letter_of(base: &str) -> Option<&'static str> {
    Some(match base {
        "INTEGER" | "Integer32" => "i",
        "Unsigned32" | "Gauge32" | "Gauge" => "u",
        "Counter32" | "Counter" => "c",
        "Counter64" => "C",
        "TimeTicks" => "t",
        "IpAddress" | "NetworkAddress" => "a",
        "OBJECT IDENTIFIER" => "o",
        "OCTET STRING" => "s",
        "BITS" => "b",
        _ => return None,
    })
}

/// Whether a value of type `letter` may be set on an object of SYNTAX base `base`.
fn fits(letter: &str, base: &str) -> bool {
    match letter {
        "i" => matches!(base, "INTEGER" | "Integer32"),
        "u" => matches!(base, "Unsigned32" | "Gauge32" | "Gauge"),
        "c" => matches!(base, "Counter32" | "Counter"),
        "C" => base == "Counter64",
        "t" => base == "TimeTicks",
        "a" => matches!(base, "IpAddress" | "NetworkAddress"),
        "o" => base == "OBJECT IDENTIFIER",
        "s" | "d" => matches!(base, "OCTET STRING" | "Opaque"),
        "x" => matches!(base, "OCTET STRING" | "Opaque" | "BITS"),
        "b" => base == "BITS",
        _ => true,
    }
}

/// A SYNTAX base as net-snmp names it in its type errors.
fn type_name(base: &str) -> &str {
    match base {
        "Gauge" => "Gauge32",
        "Counter" => "Counter32",
        "TimeTicks" => "Timeticks",
        other => other,
    }
}

/// The type a letter sets, as net-snmp names it in its type errors.
fn letter_name(letter: &str) -> &'static str {
    match letter {
        "i" => "INTEGER",
        "u" => "Unsigned32",
        "c" => "Counter32",
        "C" => "Counter64",
        "t" => "Timeticks",
        "a" => "IpAddress",
        "o" => "OBJECT IDENTIFIER",
        "b" => "BITS",
        _ => "OCTET STRING",
    }
}

/// The value of `text` as type `letter`; `oid` turns a name or a dotted OID into an OID (for
/// `o`). The error says what was expected.
pub fn parse(
    letter: &str,
    text: &str,
    oid: &dyn Fn(&str) -> Result<OidBuf, String>,
) -> Result<Value, String> {
    let number = |what: &str| -> Result<u64, String> {
        text.trim_start()
            .parse::<u64>()
            .map_err(|_| format!("`{text}` is not {what}"))
    };
    let u32_of = |what: &str| -> Result<u32, String> {
        u32::try_from(number(what)?).map_err(|_| format!("`{text}` is above {}", u32::MAX))
    };
    Ok(match letter {
        "i" => Value::Integer(
            text.trim_start()
                .parse::<i32>()
                .map_err(|_| format!("`{text}` is not an INTEGER (-2147483648..2147483647)"))?
                .into(),
        ),
        "u" => Value::Gauge32(u32_of("an unsigned number")?),
        "c" => Value::Counter32(u32_of("a Counter32")?),
        "C" => Value::Counter64(number("a Counter64")?),
        "t" => Value::TimeTicks(u32_of("a number of TimeTicks")?),
        "a" => {
            let ip: std::net::Ipv4Addr = text
                .trim()
                .parse()
                .map_err(|_| format!("`{text}` is not an IPv4 address"))?;
            Value::IpAddress(ip.octets())
        }
        "o" => Value::ObjectIdentifier(oid(text)?),
        "s" => Value::OctetString(text.into()),
        "x" => Value::OctetString(hex(text)?.into()),
        "d" => Value::OctetString(decimal(text)?.into()),
        "b" => Value::OctetString(bits(text)?.into()),
        "n" => Value::Null,
        "F" => opaque(OpaqueNumber::Float(
            text.trim()
                .parse()
                .map_err(|_| format!("`{text}` is not a number (Float)"))?,
        )),
        "D" => opaque(OpaqueNumber::Double(
            text.trim()
                .parse()
                .map_err(|_| format!("`{text}` is not a number (Double)"))?,
        )),
        "U" => opaque(OpaqueNumber::UInt64(read64(text)?)),
        "I" => opaque(OpaqueNumber::Int64(read64(text)? as i64)),
        "=" => {
            return Err("type `=` (the MIB's SYNTAX) is not supported: give a type letter".into())
        }
        other => {
            return Err(format!(
                "unknown type `{other}` (known: i u c C t a o s x d b n F D I U)"
            ))
        }
    })
}

/// An Opaque carrying `n` as net-snmp wraps it.
fn opaque(n: OpaqueNumber) -> Value {
    Value::Opaque(n.to_opaque().as_slice().into())
}

/// `U` and `I`: as net-snmp's `read64` reads them: an optional `-` (the two's complement of
/// what follows), then decimal digits, modulo 2^64, up to the first other character.
fn read64(text: &str) -> Result<u64, String> {
    let t = text.trim_start();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let digits: Vec<u64> = digits
        .chars()
        .map_while(|c| c.to_digit(10))
        .map(u64::from)
        .collect();
    if digits.is_empty() {
        return Err(format!("`{text}` is not a number"));
    }
    let value = digits
        .iter()
        .fold(0u64, |a, &d| a.wrapping_mul(10).wrapping_add(d));
    Ok(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// `x`: pairs of hex digits, as net-snmp reads them: a `0x` (or `0X`) first, spaces between
/// pairs; anything else (a colon, a tab, a digit alone) is bad notation.
fn hex(text: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("`{text}` is not pairs of hex digits");
    let rest = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text)
        .as_bytes();
    let mut octets = Vec::with_capacity(rest.len() / 2);
    let mut k = 0;
    while k < rest.len() {
        match (rest[k], rest.get(k + 1)) {
            (hi, Some(&lo)) if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() => {
                let digit = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                octets.push(digit(hi) << 4 | digit(lo));
                k += 2;
            }
            (b' ', _) => k += 1,
            _ => return Err(bad()),
        }
    }
    Ok(octets)
}

/// `d`: octets as decimal numbers separated by dots or spaces (`192.0.2.1`).
fn decimal(text: &str) -> Result<Vec<u8>, String> {
    text.split(|c: char| c == '.' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<u8>()
                .map_err(|_| format!("`{p}` in `{text}` is not an octet (0..255)"))
        })
        .collect()
}

/// `b`: bit numbers separated by commas or spaces; bit 0 is the first octet's high bit
/// (RFC 2578 7.1.4).
fn bits(text: &str) -> Result<Vec<u8>, String> {
    let mut octets = Vec::new();
    for p in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let bit: usize = p
            .parse()
            .ok()
            .filter(|b| *b < 8 * 1024)
            .ok_or_else(|| format!("`{p}` in `{text}` is not a bit number (0..8191)"))?;
        if octets.len() <= bit / 8 {
            octets.resize(bit / 8 + 1, 0);
        }
        octets[bit / 8] |= 0x80 >> (bit % 8);
    }
    Ok(octets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(letter: &str, text: &str) -> Result<Value, String> {
        parse(letter, text, &|t| {
            t.parse::<OidBuf>().map_err(|e| e.to_string())
        })
    }

    #[test]
    fn every_letter() {
        assert_eq!(p("i", "-5"), Ok(Value::Integer(-5)));
        assert_eq!(p("u", "4294967295"), Ok(Value::Gauge32(u32::MAX)));
        assert_eq!(p("c", "7"), Ok(Value::Counter32(7)));
        assert_eq!(
            p("C", "18446744073709551615"),
            Ok(Value::Counter64(u64::MAX))
        );
        assert_eq!(p("t", "100"), Ok(Value::TimeTicks(100)));
        assert_eq!(p("a", "192.0.2.1"), Ok(Value::IpAddress([192, 0, 2, 1])));
        assert_eq!(
            p("o", "1.3.6.1.4.1.8072"),
            Ok(Value::ObjectIdentifier("1.3.6.1.4.1.8072".parse().unwrap()))
        );
        assert_eq!(p("s", "a b"), Ok(Value::OctetString("a b".into())));
        assert_eq!(
            p("x", "00 1a FF"),
            Ok(Value::OctetString((&[0, 0x1a, 0xff]).into()))
        );
        assert_eq!(
            p("x", "0X001A "),
            Ok(Value::OctetString((&[0, 0x1a]).into()))
        );
        // As net-snmp's snmpset: spaces only between pairs, a 0x only first.
        for bad in ["00:1a", "0 0 1a", "001", "00\t1a", " 0x00", "00 0x1a"] {
            assert!(p("x", bad).is_err(), "{bad}");
        }
        assert_eq!(
            p("d", "192.0.2.1"),
            Ok(Value::OctetString((&[192, 0, 2, 1]).into()))
        );
        assert_eq!(
            p("b", "0,9"),
            Ok(Value::OctetString((&[0x80, 0x40]).into()))
        );
        assert_eq!(p("n", ""), Ok(Value::Null));
        let opaque = |hex: &[u8]| Ok(Value::Opaque(hex.into()));
        assert_eq!(p("F", "1.5"), opaque(&[0x9f, 0x78, 4, 0x3f, 0xc0, 0, 0]));
        assert_eq!(
            p("D", "-2.25"),
            opaque(&[0x9f, 0x79, 8, 0xc0, 2, 0, 0, 0, 0, 0, 0])
        );
        assert_eq!(p("I", "-5"), opaque(&[0x9f, 0x7a, 1, 0xfb]));
        assert_eq!(p("U", "7"), opaque(&[0x9f, 0x7b, 1, 7]));
        // read64's ways: `-1` as UInt64 is 2^64 - 1; digits end at the first other character.
        assert_eq!(
            p("U", "-1"),
            opaque(&[0x9f, 0x7b, 9, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
        );
        assert_eq!(p("I", "12abc"), opaque(&[0x9f, 0x7a, 1, 12]));
    }

    const CHECKED: Reading = Reading {
        check: true,
        hints: true,
    };
    const UNCHECKED: Reading = Reading {
        check: false,
        hints: true,
    };

    #[test]
    fn strings_read_through_hints_and_checked_against_sizes() {
        let oid = |t: &str| t.parse::<OidBuf>().map_err(|e| e.to_string());
        let string = |hint: Option<&str>, sizes: Vec<(i128, i128)>| Presentation {
            base: "OCTET STRING".into(),
            hint: hint.map(str::to_string),
            sizes,
            ..Presentation::default()
        };
        let octets = |o: &[u8]| Ok(Value::OctetString(o.to_vec().into()));
        let date = string(Some("2d-1d-1d,1d:1d:1d.1d,1a1d:1d"), vec![(8, 8), (11, 11)]);
        assert_eq!(
            parse_for("s", "2024-1-2,3:4:5.6", Some(&date), CHECKED, &oid),
            octets(&[0x07, 0xe8, 1, 2, 3, 4, 5, 6])
        );
        // `=` is `s` for an OCTET STRING; -Ir still reads the hint, -Ih does not.
        assert_eq!(
            parse_for("=", "2024-1-2,3:4:5.6", Some(&date), UNCHECKED, &oid),
            octets(&[0x07, 0xe8, 1, 2, 3, 4, 5, 6])
        );
        let no_hints = Reading {
            check: true,
            hints: false,
        };
        assert_eq!(
            parse_for("s", "2024-1-2,3:4:5.6", Some(&date), no_hints, &oid).unwrap_err(),
            "Value out of range (Bad string length :: {(8), (11)})"
        );
        assert_eq!(
            parse_for("s", "2024", Some(&date), CHECKED, &oid).unwrap_err(),
            "Value out of range (Value does not match DISPLAY-HINT :: {(8), (11)})"
        );
        assert_eq!(
            parse_for("x", "0102", Some(&date), CHECKED, &oid).unwrap_err(),
            "Value out of range (Bad string length :: {(8), (11)})"
        );
        // A text the hint does not read goes as it is.
        let mac = string(Some("1x:"), vec![]);
        assert_eq!(
            parse_for("s", "00:11:22", Some(&mac), CHECKED, &oid),
            octets(&[0, 0x11, 0x22])
        );
        assert_eq!(
            parse_for("s", "zz", Some(&mac), CHECKED, &oid),
            octets(b"zz")
        );
        let engine = string(None, vec![(5, 32)]);
        assert_eq!(
            parse_for("s", "ab", Some(&engine), CHECKED, &oid).unwrap_err(),
            "Value out of range (Bad string length :: {(5..32)})"
        );
        assert_eq!(
            parse_for("s", "ab", Some(&engine), UNCHECKED, &oid),
            octets(b"ab")
        );
        assert_eq!(
            parse_for("d", "1.2.3.4.5", Some(&engine), CHECKED, &oid),
            octets(&[1, 2, 3, 4, 5])
        );
    }

    #[test]
    fn checked_against_the_mib_as_snmpset_checks() {
        let oid = |t: &str| t.parse::<OidBuf>().map_err(|e| e.to_string());
        let object = |base: &str| Presentation {
            base: base.into(),
            ..Presentation::default()
        };
        let string = object("OCTET STRING");
        assert_eq!(
            parse_for("i", "5", Some(&string), CHECKED, &oid).unwrap_err(),
            "Bad variable type (Type of attribute is OCTET STRING, not INTEGER)"
        );
        assert_eq!(
            parse_for("=", "hello", Some(&string), CHECKED, &oid),
            Ok(Value::OctetString("hello".into()))
        );
        let mut status = object("INTEGER");
        status.enums = vec![("up".into(), 1), ("down".into(), 2)];
        assert_eq!(
            parse_for("i", "down", Some(&status), CHECKED, &oid),
            Ok(Value::Integer(2))
        );
        assert_eq!(
            parse_for("=", "up", Some(&status), CHECKED, &oid),
            Ok(Value::Integer(1))
        );
        assert_eq!(
            parse_for("i", "bogus", Some(&status), CHECKED, &oid).unwrap_err(),
            "Value out of range (bogus)"
        );
        // strtol's reading: spaces before a number, nothing after it; a label as written.
        assert_eq!(
            parse_for("i", " 2", Some(&status), CHECKED, &oid),
            Ok(Value::Integer(2))
        );
        for text in ["2 ", "up ", " up"] {
            assert_eq!(
                parse_for("i", text, Some(&status), CHECKED, &oid).unwrap_err(),
                format!("Value out of range ({text})")
            );
        }
        assert!(parse_for("u", "5 ", None, CHECKED, &oid).is_err());
        let mut services = object("INTEGER");
        services.ranges = vec![(0, 127)];
        assert_eq!(
            parse_for("i", "200", Some(&services), CHECKED, &oid).unwrap_err(),
            "Value out of range (200 :: {(0..127)})"
        );
        assert_eq!(
            parse_for("u", "5", Some(&object("Integer32")), CHECKED, &oid).unwrap_err(),
            "Bad variable type (Type of attribute is Integer32, not Unsigned32)"
        );
        assert_eq!(
            parse_for("x", "zz", Some(&string), CHECKED, &oid).unwrap_err(),
            "Bad value notation (zz)"
        );
        // snmp_add_var's words (snmptrap's); snmpset refuses the letter before (agent.rs).
        assert_eq!(
            parse_for("q", "5", None, CHECKED, &oid).unwrap_err(),
            "Bad variable type (\"q\")"
        );
        // A value that is not a number, as an INTEGER or a BITS part: no label matched it.
        assert_eq!(
            parse_for("i", "12x", None, CHECKED, &oid).unwrap_err(),
            "Value out of range (12x)"
        );
        assert_eq!(
            parse_for("b", "1,x 3", None, CHECKED, &oid).unwrap_err(),
            "Value out of range (x)"
        );
        assert_eq!(
            parse_for("i", "", None, CHECKED, &oid).unwrap_err(),
            "Bad value notation ()"
        );
        // Without a definition, the letter is trusted.
        assert_eq!(
            parse_for("i", "5", None, CHECKED, &oid),
            Ok(Value::Integer(5))
        );
        // Ranges of one value are written as net-snmp writes them.
        let mut codes = object("Integer32");
        codes.ranges = vec![(0, 0), (2, 32)];
        assert_eq!(
            parse_for("i", "1", Some(&codes), CHECKED, &oid).unwrap_err(),
            "Value out of range (1 :: {(0), (2..32)})"
        );
        // -Ir: sent as written, for the agent to judge.
        assert_eq!(
            parse_for("i", "200", Some(&services), UNCHECKED, &oid),
            Ok(Value::Integer(200))
        );
        assert_eq!(
            parse_for("i", "5", Some(&string), UNCHECKED, &oid),
            Ok(Value::Integer(5))
        );
        assert_eq!(
            parse_for("i", "down", Some(&status), UNCHECKED, &oid),
            Ok(Value::Integer(2))
        );
    }

    #[test]
    fn bad_values_say_what_was_expected() {
        assert!(p("i", "2147483648").unwrap_err().contains("not an INTEGER"));
        assert!(p("u", "-1").unwrap_err().contains("not an unsigned number"));
        assert!(p("u", "4294967296")
            .unwrap_err()
            .contains("above 4294967295"));
        assert!(p("a", "300.1.1.1")
            .unwrap_err()
            .contains("not an IPv4 address"));
        assert!(p("x", "abc").unwrap_err().contains("pairs of hex digits"));
        assert!(p("d", "1.256").unwrap_err().contains("`256`"));
        assert!(p("F", "abc").unwrap_err().contains("not a number"));
        assert!(p("U", "x1").unwrap_err().contains("not a number"));
        assert!(p("z", "1").unwrap_err().contains("unknown type `z`"));
    }
}
