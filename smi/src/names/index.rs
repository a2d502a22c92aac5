//! A conceptual row's INDEX inside an instance's OID, as net-snmp's tools write it after a
//! column's name and read it back: `vacmGroupName.3."aesuser"` (a string with its length arc),
//! `ipAddressIfIndex.ipv4."192.0.2.1"` (an enumeration's label, an InetAddress after its
//! InetAddressType), `snmpTargetAddrTDomain.'manager'` (IMPLIED), `ifDescr[2]` (`-OX`).

use std::fmt::Write as _;

use crate::mib::ir::{Base, IndexPart, INET_ADDRESS};

/// How the instance after a column's name is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IndexStyle {
    /// Component by component, dotted (the default).
    #[default]
    Components,
    /// Numbers only (`-Ob`).
    Numeric,
    /// Each component in brackets, strings through their DISPLAY-HINT (`-OX`).
    Extended,
    /// [`IndexStyle::Extended`] under quick print (`-OX` with `-Oq` or `-OQ`, snmptable's
    /// own): a string shown through its DISPLAY-HINT without its `STRING: ` label.
    ExtendedQuick,
    /// Component by component, a quoted string's quotes (and the quotes and backslashes in
    /// it) escaped with `\` for a shell: `\"comm1\"` (`-OE`).
    EscapedQuotes,
}

impl IndexStyle {
    /// Whether components are shown in brackets (`-OX`).
    pub fn extended(self) -> bool {
        matches!(self, IndexStyle::Extended | IndexStyle::ExtendedQuick)
    }
}

/// Appends `arcs`, the instance after a column, to `out`: each INDEX component as net-snmp
/// shows it, for as long as the arcs hold whole components, then what is left as numbers.
/// `name_oid` names an OBJECT IDENTIFIER component under `-OX`, where, as net-snmp's, a
/// component the arcs do not hold (or of a type it has no form for: BITS, Counter32) leaves
/// its opening bracket before the numbers (`ipAdEntAddr[.1`).
pub fn write_instance(
    out: &mut String,
    index: &[IndexPart],
    arcs: &[u32],
    style: IndexStyle,
    name_oid: &dyn Fn(&[u32]) -> String,
) {
    let mut rest = arcs;
    if style != IndexStyle::Numeric {
        let mut before = None;
        for (i, part) in index.iter().enumerate() {
            if rest.is_empty() {
                break;
            }
            // An InetAddress is read with the address type in the arc just before it.
            let address_type = before.filter(|_| i > 0 && part.address_typed);
            let Some((text, used)) = component(part, rest, address_type, style, name_oid) else {
                if style.extended() {
                    out.push('[');
                }
                break;
            };
            match style.extended() {
                true => {
                    let _ = write!(out, "[{text}]");
                }
                false => {
                    let _ = write!(out, ".{text}");
                }
            }
            before = rest[..used].last().copied();
            rest = &rest[used..];
        }
    }
    for a in rest {
        let _ = write!(out, ".{a}");
    }
}

/// One component at the start of `rest`: its text and how many arcs it took, or `None` when
/// the arcs do not hold it (or its type has no form of its own: the rest is shown as numbers).
fn component(
    part: &IndexPart,
    rest: &[u32],
    address_type: Option<u32>,
    style: IndexStyle,
    name_oid: &dyn Fn(&[u32]) -> String,
) -> Option<(String, usize)> {
    let v = rest[0];
    match part.syntax.base {
        Base::Integer | Base::Integer32 | Base::Unsigned32 | Base::Gauge32 | Base::Gauge => {
            // Compared as the C int net-snmp keeps enumerations in.
            let label = part
                .syntax
                .enums
                .iter()
                .find(|(_, n)| *n == v as i32 as i128);
            Some((label.map_or_else(|| v.to_string(), |(l, _)| l.clone()), 1))
        }
        Base::TimeTicks if style.extended() => Some((uptime(v, style), 1)),
        Base::TimeTicks => Some((v.to_string(), 1)),
        Base::IpAddress => {
            let [a, b, c, d, ..] = rest else { return None };
            Some((format!("{a}.{b}.{c}.{d}"), 4))
        }
        // SMIv1's NetworkAddress: a type (1, internet) and an IpAddress.
        Base::NetworkAddress => match rest {
            [1, a, b, c, d, ..] => Some((format!("1.{a}.{b}.{c}.{d}"), 5)),
            _ => None,
        },
        Base::ObjectIdentifier => {
            let (n, skip) = match part.implied {
                true => (rest.len(), 0),
                false => (usize::try_from(v).ok()?.checked_add(1)?, 1),
            };
            let arcs = rest.get(..n)?;
            match style.extended() {
                true => Some((name_oid(&arcs[skip..]), n)),
                false => Some((dotted(arcs), n)),
            }
        }
        Base::OctetString => octets(part, rest, address_type, style),
        _ => None,
    }
}

/// An OCTET STRING component: IMPLIED (the rest of the arcs) or of one fixed size, quoted
/// with `'`; else its length arc first and quoted with `"`, an InetAddress as an address.
fn octets(
    part: &IndexPart,
    rest: &[u32],
    address_type: Option<u32>,
    style: IndexStyle,
) -> Option<(String, usize)> {
    let fixed = part.syntax.fixed_size();
    let (skip, n): (usize, usize) = match (part.implied, fixed) {
        (true, _) => (0, rest.len()),
        (false, Some(size)) => (0, size),
        (false, None) => (1, usize::try_from(rest[0]).ok()?),
    };
    let octets = rest.get(skip..skip.checked_add(n)?)?;
    let used = skip + n;
    if let (true, Some(hint)) = (style.extended(), part.syntax.hint.as_deref()) {
        let bytes: Vec<u8> = octets.iter().map(|&a| a as u8).collect();
        // net-snmp prints the value there, type and all (but under quick print).
        let text = snmp_mib::format_octets_net_snmp(hint, &bytes).ok()?;
        return Some(match style {
            IndexStyle::ExtendedQuick => (text, used),
            _ => (format!("STRING: {text}"), used),
        });
    }
    if skip == 0 {
        return Some((quoted(octets, '\'', style), used));
    }
    if octets.is_empty() {
        let empty = match style {
            IndexStyle::EscapedQuotes => "\\\"\\\"",
            _ => "\"\"",
        };
        return Some((empty.into(), used));
    }
    let address = address_type
        .filter(|_| part.syntax.names_convention(INET_ADDRESS))
        .and_then(|t| inet_address(t, octets));
    Some((address.unwrap_or_else(|| quoted(octets, '"', style)), used))
}

/// Octets between `quote`s, each printable ASCII character as itself and anything else as `.`
/// (nothing at all for no octets); under [`IndexStyle::EscapedQuotes`] the quotes, and the
/// quotes and backslashes between them, after a `\`.
fn quoted(octets: &[u32], quote: char, style: IndexStyle) -> String {
    if octets.is_empty() {
        return String::new();
    }
    let escape = style == IndexStyle::EscapedQuotes;
    let mut s = String::with_capacity(octets.len() + 4);
    let mut push = |c: char| {
        if escape && matches!(c, '"' | '\'' | '\\') {
            s.push('\\');
        }
        s.push(c);
    };
    push(quote);
    for &a in octets {
        push(match u8::try_from(a) {
            Ok(c @ 0x20..=0x7e) => c as char,
            _ => '.',
        });
    }
    push(quote);
    s
}

/// An InetAddress of InetAddressType `kind` (RFC 4001): ipv4 `"192.0.2.1"`, ipv6 sixteen
/// two-digit hex octets between colons, the z forms with `%zone`; `None` for other types and
/// lengths (shown as a string then).
fn inet_address(kind: u32, octets: &[u32]) -> Option<String> {
    let bytes: Vec<u8> = octets
        .iter()
        .map(|&a| u8::try_from(a).ok())
        .collect::<Option<_>>()?;
    let zone = |z: &[u8]| format!("%{}", u32::from_be_bytes([z[0], z[1], z[2], z[3]]));
    let v4 = |b: &[u8]| format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]);
    let v6 = |b: &[u8]| {
        b.iter()
            .map(|o| format!("{o:02x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    let text = match (kind, bytes.len()) {
        (1, 4) => v4(&bytes),
        (3, 8) => v4(&bytes) + &zone(&bytes[4..]),
        (2, 16) => v6(&bytes),
        (4, 20) => v6(&bytes[..16]) + &zone(&bytes[16..]),
        _ => return None,
    };
    Some(format!("\"{text}\""))
}

/// TimeTicks as `-OX` shows them in an index: `0:00:10.65`, `1 day, 0:00:00.00`; under
/// quick print days, hours, minutes, seconds: `0:0:00:10.65`.
fn uptime(t: u32, style: IndexStyle) -> String {
    let (centis, secs) = (t % 100, t / 100);
    let (days, h, m, s) = (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
    let clock = format!("{h}:{m:02}:{s:02}.{centis:02}");
    if style == IndexStyle::ExtendedQuick {
        return format!("{days}:{clock}");
    }
    match days {
        0 => clock,
        1 => format!("1 day, {clock}"),
        d => format!("{d} days, {clock}"),
    }
}

fn dotted(arcs: &[u32]) -> String {
    arcs.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// Reads an instance written after a column's name (`3."aesuser"`, `ipv4."192.0.2.1"`,
/// `1.4.127.0.0.1`) into arcs, each INDEX component as its type takes it: a number or an
/// enumeration's label, four numbers of an IpAddress, a quoted string (`"..."` with its length,
/// `'...'` IMPLIED or of fixed size) or its arcs as numbers; what follows the components,
/// numbers. The error is net-snmp's reason (`Index out of range: x (ifIndex)`).
///
/// `node` names the node the text follows when it is not a column (net-snmp names it in its
/// reason: `Sub-id not found: system -> x`).
pub fn read_instance(
    text: &str,
    index: &[IndexPart],
    node: Option<&str>,
) -> Result<Vec<u32>, String> {
    let mut arcs = Vec::new();
    // `None` once the text is used up; `Some("")` when an empty arc follows a dot.
    let mut rest = Some(text);
    let mut last: Option<&str> = node;
    for part in index {
        let Some(text) = rest else { break };
        let go_on;
        (rest, go_on) = read_component(text, part, &mut arcs)?;
        last = Some(&part.name);
        if !go_on {
            break;
        }
    }
    // What follows, as net-snmp reads it: numbers, or quoted strings (`"..."` with its
    // length); anything else is refused with all that is left.
    let refused = |what: &str| match last {
        Some(name) => format!("Sub-id not found: {name} -> {what}"),
        None => what.to_string(),
    };
    while let Some(text) = rest {
        if text.starts_with(|c: char| c.is_ascii_digit()) {
            let (token, after) = next_token(text);
            arcs.push(token.parse().map_err(|_| refused(token))?);
            rest = after;
        } else if let Some(((quote, s), after)) = quoted_token(text) {
            if quote == '"' {
                arcs.push(s.len() as u32);
            }
            arcs.extend(s.bytes().map(u32::from));
            rest = after;
        } else {
            return Err(refused(text));
        }
    }
    Ok(arcs)
}

/// One INDEX component read from the start of `text` into `arcs`: what follows it, and
/// whether the next components are read as such (not after an OBJECT IDENTIFIER, a Gauge32
/// or another type net-snmp has no form for in an index: what follows is then read as plain
/// arcs).
fn read_component<'t>(
    text: &'t str,
    part: &IndexPart,
    arcs: &mut Vec<u32>,
) -> Result<(Option<&'t str>, bool), String> {
    let out_of_range = |token: &str| format!("Index out of range: {token} ({})", part.name);
    let number = |token: &str| token.parse::<u32>().map_err(|_| out_of_range(token));
    let octet = |token: &str| {
        token
            .parse::<u8>()
            .map(u32::from)
            .map_err(|_| out_of_range(token))
    };
    let rest = match part.syntax.base {
        Base::Integer | Base::Integer32 | Base::Unsigned32 | Base::TimeTicks => {
            let (token, after) = next_token(text);
            let label = part.syntax.enums.iter().find(|(l, _)| l == token);
            let value = match label {
                Some((_, n)) => u32::try_from(*n).map_err(|_| out_of_range(token))?,
                None => number(token)?,
            };
            if !in_ranges(part, value) {
                return Err(out_of_range(token));
            }
            arcs.push(value);
            after
        }
        Base::IpAddress => numbers(text, 4, arcs, &octet)?,
        Base::OctetString if text.starts_with(['"', '\'']) => {
            let (token, after) = quoted_token(text).ok_or_else(|| out_of_range(text))?;
            push_string(arcs, part, token)?;
            after
        }
        // A string written as its arcs: its length first unless IMPLIED or of fixed size.
        Base::OctetString => {
            let (count, rest) = match (part.implied, part.syntax.fixed_size()) {
                (true, _) => (usize::MAX, Some(text)),
                (false, Some(size)) => (size, Some(text)),
                (false, None) => {
                    let (token, after) = next_token(text);
                    let n = number(token)?;
                    arcs.push(n);
                    (n as usize, after)
                }
            };
            match rest {
                Some(rest) => numbers(rest, count, arcs, &octet)?,
                None => None,
            }
        }
        // SMIv1's NetworkAddress: its type, then an IpAddress when it is 1 (internet).
        Base::NetworkAddress => {
            let (token, after) = next_token(text);
            let kind = number(token)?;
            arcs.push(kind);
            match (kind, after) {
                (1, Some(rest)) => numbers(rest, 4, arcs, &octet)?,
                (1, None) => None,
                _ => return Ok((after, false)),
            }
        }
        _ => return Ok((Some(text), false)),
    };
    Ok((rest, true))
}

/// Whether `value` is inside the index object's value ranges (when it has any), compared
/// signed for INTEGER and Integer32 as net-snmp compares them.
fn in_ranges(part: &IndexPart, value: u32) -> bool {
    let Some(ranges) = part.syntax.ranges.as_deref() else {
        return true;
    };
    let v = match part.syntax.base {
        Base::Integer | Base::Integer32 => i128::from(value as i32),
        _ => i128::from(value),
    };
    ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&v))
}

/// Up to `count` dot-separated numbers from the start of `text` into `arcs`; what follows.
fn numbers<'t>(
    text: &'t str,
    count: usize,
    arcs: &mut Vec<u32>,
    number: &dyn Fn(&str) -> Result<u32, String>,
) -> Result<Option<&'t str>, String> {
    let mut rest = Some(text);
    for _ in 0..count {
        let Some(text) = rest else { break };
        let (token, after) = next_token(text);
        arcs.push(number(token)?);
        rest = after;
    }
    Ok(rest)
}

/// The text before the next `.`, and what follows that dot (`None` without one).
fn next_token(text: &str) -> (&str, Option<&str>) {
    match text.split_once('.') {
        Some((token, after)) => (token, Some(after)),
        None => (text, None),
    }
}

/// A quoted string at the start of `text` (a backslash takes the next character as it is):
/// its quote and unescaped contents, and what follows the dot after it (`None` when nothing
/// does); `None` when the quote is not closed or something other than a dot follows it.
fn quoted_token(text: &str) -> Option<((char, String), Option<&str>)> {
    let mut chars = text.char_indices();
    let (_, quote) = chars.next()?;
    let mut contents = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => contents.push(chars.next()?.1),
            c if c == quote => {
                let after = &text[i + c.len_utf8()..];
                return match after.strip_prefix('.') {
                    Some(rest) => Some(((quote, contents), Some(rest))),
                    None if after.is_empty() => Some(((quote, contents), None)),
                    None => None,
                };
            }
            c => contents.push(c),
        }
    }
    None
}

/// A quoted string component's arcs: its length first for `"` (a string of variable length),
/// none for `'` (IMPLIED, or one fixed size).
fn push_string(
    arcs: &mut Vec<u32>,
    part: &IndexPart,
    (quote, s): (char, String),
) -> Result<(), String> {
    let unprefixed = part.implied || part.syntax.fixed_size().is_some();
    match (quote, unprefixed) {
        ('"', true) => return Err("\"-quote is for variable length strings".into()),
        ('\'', false) => return Err("'-quote is for fixed length strings".into()),
        _ => {}
    }
    // Its length within the SIZE (net-snmp refuses a string index with none), shown as
    // net-snmp shows it: from the opening quote, without the closing one.
    let len = s.len() as i128;
    let sizes = part.syntax.sizes.as_deref().unwrap_or_default();
    if !sizes.iter().any(|(lo, hi)| (*lo..=*hi).contains(&len)) {
        return Err(format!("Index out of range: {quote}{s} ({})", part.name));
    }
    if quote == '"' {
        arcs.push(s.len() as u32);
    }
    arcs.extend(s.bytes().map(u32::from));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mib::ir::{ConventionRef, Syntax};

    fn part(name: &str, base: Base, implied: bool) -> IndexPart {
        IndexPart {
            name: name.into(),
            implied,
            address_typed: false,
            syntax: Syntax {
                base,
                sizes: (base == Base::OctetString).then(|| vec![(0, 32)]),
                ..Syntax::default()
            },
        }
    }

    fn with_convention(mut p: IndexPart, tc: &str) -> IndexPart {
        p.syntax.convention = Some(ConventionRef {
            module: "INET-ADDRESS-MIB".into(),
            name: tc.into(),
        });
        p
    }

    fn shown(index: &[IndexPart], arcs: &[u32], style: IndexStyle) -> String {
        let mut s = String::from("x");
        write_instance(&mut s, index, arcs, style, &|a| format!("oid{}", dotted(a)));
        s
    }

    #[test]
    fn strings_integers_and_addresses_as_net_snmp_shows_them() {
        let vacm = [
            part("model", Base::Integer, false),
            part("name", Base::OctetString, false),
        ];
        let aes = [3, 7, 97, 101, 115, 117, 115, 101, 114];
        assert_eq!(
            shown(&vacm, &aes, IndexStyle::Components),
            "x.3.\"aesuser\""
        );
        assert_eq!(
            shown(&vacm, &aes, IndexStyle::Extended),
            "x[3][\"aesuser\"]"
        );
        assert_eq!(
            shown(&vacm, &aes, IndexStyle::Numeric),
            "x.3.7.97.101.115.117.115.101.114"
        );
        // An empty string, a cut one (the rest as numbers), octets that are not printable.
        assert_eq!(shown(&vacm, &[1, 0], IndexStyle::Components), "x.1.\"\"");
        assert_eq!(
            shown(&vacm, &[1, 5, 97], IndexStyle::Components),
            "x.1.5.97"
        );
        assert_eq!(
            shown(&vacm, &[1, 2, 7, 300], IndexStyle::Components),
            "x.1.\"..\""
        );
        let implied = [part("name", Base::OctetString, true)];
        assert_eq!(shown(&implied, &[97, 98], IndexStyle::Components), "x.'ab'");
        // -OE: the quotes, and the quotes and backslashes inside, escaped.
        let odd = [3, 4, 97, 34, 92, 39];
        assert_eq!(
            shown(&vacm, &odd, IndexStyle::EscapedQuotes),
            r#"x.3.\"a\"\\\'\""#
        );
        assert_eq!(
            shown(&vacm, &[1, 0], IndexStyle::EscapedQuotes),
            r#"x.1.\"\""#
        );
        assert_eq!(
            shown(&implied, &[97, 98], IndexStyle::EscapedQuotes),
            r"x.\'ab\'"
        );
        let mut kind = with_convention(part("type", Base::Integer, false), "InetAddressType");
        kind.syntax.enums = vec![("ipv4".into(), 1), ("ipv6".into(), 2)];
        let mut addr = with_convention(part("addr", Base::OctetString, false), "InetAddress");
        // Unpaired (VRRPV3-MIB's address, whose sibling below is no InetAddressType): a string.
        let unpaired = [kind.clone(), addr.clone()];
        assert_eq!(
            shown(&unpaired, &[1, 4, 97, 98, 2, 1], IndexStyle::Components),
            "x.ipv4.\"ab..\""
        );
        addr.address_typed = true;
        let ip = [kind, addr];
        assert_eq!(
            shown(&ip, &[1, 4, 192, 0, 2, 1], IndexStyle::Components),
            "x.ipv4.\"192.0.2.1\""
        );
        let mut v6 = vec![2, 16];
        v6.extend([0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        assert_eq!(
            shown(&ip, &v6, IndexStyle::Components),
            "x.ipv6.\"fd:00:00:00:00:00:00:00:00:00:00:00:00:00:00:02\""
        );
        // An ipv4 type with a length that is not 4: a string.
        assert_eq!(
            shown(&ip, &[1, 2, 65, 66], IndexStyle::Components),
            "x.ipv4.\"AB\""
        );
        let v1 = [
            part("addr", Base::IpAddress, false),
            part("c", Base::Counter32, false),
        ];
        assert_eq!(
            shown(&v1, &[10, 0, 0, 1, 7], IndexStyle::Components),
            "x.10.0.0.1.7"
        );
        let oid = [part("o", Base::ObjectIdentifier, false)];
        assert_eq!(
            shown(&oid, &[2, 1, 3, 9], IndexStyle::Components),
            "x.2.1.3.9"
        );
        assert_eq!(
            shown(&oid, &[2, 1, 3, 9], IndexStyle::Extended),
            "x[oid1.3].9"
        );
    }

    #[test]
    fn instances_read_back_and_errors_in_net_snmp_words() {
        let vacm = [
            part("vacmSecurityModel", Base::Integer, false),
            part("vacmSecurityName", Base::OctetString, false),
        ];
        assert_eq!(
            read_instance("3.\"aesuser\"", &vacm, None).unwrap(),
            [3, 7, 97, 101, 115, 117, 115, 101, 114]
        );
        assert_eq!(
            read_instance("3.\"a.b\"", &vacm, None).unwrap(),
            [3, 3, 97, 46, 98]
        );
        assert_eq!(
            read_instance("3.\"a\\\"b\"", &vacm, None).unwrap(),
            [3, 3, 97, 34, 98]
        );
        assert_eq!(
            read_instance("3.\"\".1.2", &vacm, None).unwrap(),
            [3, 0, 1, 2]
        );
        assert_eq!(
            read_instance("3.aesuser", &vacm, None).unwrap_err(),
            "Index out of range: aesuser (vacmSecurityName)"
        );
        assert_eq!(
            read_instance("x", &vacm, None).unwrap_err(),
            "Index out of range: x (vacmSecurityModel)"
        );
        assert_eq!(
            read_instance("3.\"ab\".x", &vacm, None).unwrap_err(),
            "Sub-id not found: vacmSecurityName -> x"
        );
        assert_eq!(
            read_instance("3.\"ab", &vacm, None).unwrap_err(),
            "Index out of range: \"ab (vacmSecurityName)"
        );
        let mut level = part("level", Base::Integer, false);
        level.syntax.enums = vec![("noAuthNoPriv".into(), 1), ("authPriv".into(), 3)];
        assert_eq!(read_instance("authPriv.4", &[level], None).unwrap(), [3, 4]);
        let ip = [part("ipAdEntAddr", Base::IpAddress, false)];
        assert_eq!(read_instance("1.2.3", &ip, None).unwrap(), [1, 2, 3]);
        assert_eq!(
            read_instance("1.2.3.256", &ip, None).unwrap_err(),
            "Index out of range: 256 (ipAdEntAddr)"
        );
        let implied = [part("name", Base::OctetString, true)];
        assert_eq!(read_instance("'ab'", &implied, None).unwrap(), [97, 98]);
        assert!(read_instance("\"ab\"", &implied, None).is_err());
        assert_eq!(read_instance("0.x", &[], None).unwrap_err(), "x");
        assert_eq!(read_instance("0.", &[], None).unwrap_err(), "");
        // A string written as numbers: its length, then its octets.
        assert_eq!(
            read_instance("3.2.97.98.5", &vacm, None).unwrap(),
            [3, 2, 97, 98, 5]
        );
        assert_eq!(
            read_instance("3.2.97.x", &vacm, None).unwrap_err(),
            "Index out of range: x (vacmSecurityName)"
        );
        assert_eq!(read_instance("97.98", &implied, None).unwrap(), [97, 98]);
        // After an OBJECT IDENTIFIER (its length, its arcs), numbers only.
        let policy = [
            part("policy", Base::ObjectIdentifier, false),
            part("kind", Base::Integer, false),
        ];
        assert_eq!(
            read_instance("2.1.3.9", &policy, None).unwrap(),
            [2, 1, 3, 9]
        );
        assert_eq!(
            read_instance("2.1.3.ipv4.\"a\"", &policy, None).unwrap_err(),
            "Sub-id not found: policy -> ipv4.\"a\""
        );
        // Values outside the index object's ranges and sizes are refused.
        let mut if_index = part("ifIndex", Base::Integer32, false);
        if_index.syntax.ranges = Some(vec![(1, 2147483647)]);
        assert_eq!(
            read_instance("0", &[if_index], None).unwrap_err(),
            "Index out of range: 0 (ifIndex)"
        );
        let mut name = part("vacmSecurityName", Base::OctetString, false);
        name.syntax.sizes = Some(vec![(1, 32)]);
        assert_eq!(
            read_instance("\"\"", &[name], None).unwrap_err(),
            "Index out of range: \" (vacmSecurityName)"
        );
        // After a node that is not a column, plain arcs; net-snmp names the node.
        assert_eq!(
            read_instance("1.x", &[], Some("system")).unwrap_err(),
            "Sub-id not found: system -> x"
        );
        // Quoted strings after the components too.
        assert_eq!(
            read_instance("1.\"ab\".'c'", &[], None).unwrap(),
            [1, 2, 97, 98, 99]
        );
    }
}
