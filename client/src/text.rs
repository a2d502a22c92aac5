//! Bindings printed as net-snmp's tools print them (snmpc's printing, as a library), `NAME = TYPE: value`, under net-snmp's
//! output options (`-O`): `n` numeric OIDs (`.1.3.6.1.2.1.1.1.0`), `f` full names
//! (`.iso.org.dod.internet.mgmt.mib-2.system.sysDescr.0`), `s` the last name only
//! (`sysDescr.0`), `S` (the default) `MODULE::name`, `q` quick (`NAME value`: no `=`, no type),
//! `Q` (`NAME = value`: no type), `v` the value alone, `t` TimeTicks as a number, `e`
//! enumerations as numbers, `U` no UNITS, `b` a row's INDEX as numbers, `X` each INDEX
//! component in brackets (`ifDescr[2]`), `0` a DISPLAY-HINT's one-octet hex fields in two
//! digits. Values follow the object's MIB definition where the modules have it: enumeration
//! labels (`up(1)`), DISPLAY-HINTs (`STRING: 0:1b:21:3c:4d:5e`, text without quotes), UNITS.

use std::fmt::Write as _;

use snmp_ber::Oid;
use snmp_mib::OpaqueNumber;
use snmp_smi::mib::Presentation;
use snmp_smi::names::{IndexStyle, Mibs};

use crate::{Value, VarBind};

/// The modules names come from, re-exported so that one dependency does: `Mibs::load`,
/// `name_to_oid`, `oid_to_name`, `presentation` ([`snmp_smi::names`]).
pub use snmp_smi::names;

/// How OIDs are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Naming {
    /// `MODULE::name.suffix` (`-OS`, the default).
    #[default]
    Module,
    /// `name.suffix` (`-Os`).
    Short,
    /// `.iso.org.dod...` (`-Of`).
    Full,
    /// `.1.3.6...` (`-On`).
    Numeric,
    /// UCD-SNMP's: below mib-2, experimental or private the path of names from there
    /// (`system.sysDescr.0`, `enterprises.8072`), else `.iso.org.dod...` (`-Ou`).
    Ucd,
}

/// net-snmp's `-O` output options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Output {
    /// How OIDs are named (names and OID values alike).
    pub naming: Naming,
    /// No type, values in their short forms, and no `=` unless `-OQ` (net-snmp's quick print:
    /// `-Oq` and `-OQ` each turn it over, so `-Oqq` and `-OqQ` print types again).
    pub quick: bool,
    /// The `=` kept under quick print, and no `Wrong Type` said (`-OQ`: net-snmp's
    /// QUICKE_PRINT, which a second `Q` leaves set).
    pub keep_equals: bool,
    /// The value alone (`-Ov`).
    pub value_only: bool,
    /// TimeTicks as a number of hundredths (`-Ot`).
    pub numeric_ticks: bool,
    /// Enumerations as numbers (`-Oe`).
    pub numeric_enums: bool,
    /// No UNITS after values (`-OU`).
    pub no_units: bool,
    /// OCTET STRINGs without a DISPLAY-HINT always in hex (`-Ox`) or always as text, octets
    /// that are not printable as `.` (`-Oa`); else text when every octet is printable.
    pub strings: Strings,
    /// A row's INDEX after a column's name: component by component (the default), as
    /// numbers (`-Ob`), or in brackets (`-OX`).
    pub index: IndexStyle,
    /// Hex strings followed by their text, line by line (`-OT`: `80 00 1F  [...]`).
    pub hex_text: bool,
    /// DISPLAY-HINTs not applied: strings as an OCTET STRING without one (`-Ih`).
    pub no_hints: bool,
    /// A DISPLAY-HINT's one-octet hexadecimal fields in two digits (`-O0`:
    /// `00:1b:21:03:4d:5e`, where the default is `0:1b:21:3:4d:5e`).
    pub two_digit_hex: bool,
}

/// How an OCTET STRING without a DISPLAY-HINT is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strings {
    /// Text when every octet is printable, else hex (net-snmp's guess).
    #[default]
    Guess,
    /// Always hex (`-Ox`).
    Hex,
    /// Always text (`-Oa`).
    Ascii,
}

impl Output {
    /// The options of `-O FLAGS` (one or more letters, as net-snmp takes them), or the first
    /// letter it does not know.
    pub fn parse(flags: &str) -> Result<Output, String> {
        let mut out = Output::default();
        for c in flags.chars() {
            match c {
                'n' => out.naming = Naming::Numeric,
                'f' => out.naming = Naming::Full,
                's' => out.naming = Naming::Short,
                'S' => out.naming = Naming::Module,
                'q' => out.quick = !out.quick,
                'Q' => {
                    out.keep_equals = true;
                    out.quick = !out.quick;
                }
                'v' => out.value_only = true,
                't' => out.numeric_ticks = true,
                'e' => out.numeric_enums = true,
                'U' => out.no_units = true,
                'x' => out.strings = Strings::Hex,
                'a' => out.strings = Strings::Ascii,
                'b' => out.index = IndexStyle::Numeric,
                'X' => out.index = IndexStyle::Extended,
                'u' => out.naming = Naming::Ucd,
                'E' if out.index == IndexStyle::Components => out.index = IndexStyle::EscapedQuotes,
                'E' => {}
                'T' => out.hex_text = true,
                '0' => out.two_digit_hex = true,
                other => {
                    // net-snmp's words for it.
                    return Err(format!("Unknown output option passed to -O: {other}."));
                }
            }
        }
        Ok(out)
    }
}

/// The OID of `arcs` named as `naming` says, from `mibs` (`.1.3.6...` where they have no name).
pub fn name_of(mibs: &Mibs, arcs: &[u32], naming: Naming, index: IndexStyle) -> String {
    let numeric = || format!(".{}", snmp_smi::mib::dotted(arcs));
    match naming {
        Naming::Numeric => numeric(),
        Naming::Module => mibs.oid_to_name(arcs, index).unwrap_or_else(numeric),
        Naming::Short => mibs
            .oid_to_name(arcs, index)
            .map(|n| match n.split_once("::") {
                Some((_, short)) => short.to_string(),
                None => n,
            })
            .unwrap_or_else(numeric),
        Naming::Full => mibs.full_name(arcs, index),
        Naming::Ucd => {
            // Its names off the front when the modules name the prefix: `.iso.org.dod.
            // internet.mgmt.mib-2.`; with the arcs unnamed it stays (`.iso.3.6.1.2.1...`).
            let full = mibs.full_name(arcs, index);
            match UCD_PREFIXES.iter().find_map(|p| full.strip_prefix(p)) {
                Some(rest) if !rest.is_empty() => rest.to_string(),
                _ => full,
            }
        }
    }
}

/// Where `-Ou` names start, as net-snmp finds them in a full name: mib-2, experimental,
/// private.
const UCD_PREFIXES: [&str; 3] = [
    ".iso.org.dod.internet.mgmt.mib-2.",
    ".iso.org.dod.internet.experimental.",
    ".iso.org.dod.internet.private.",
];

/// Prints bindings under [`Output`] options, naming OIDs from `mibs` when there are any.
///
/// ```
/// use snmp_client::text::{Output, Printer};
/// use snmp_client::{Value, VarBind};
/// use snmp_smi::names::Mibs;
///
/// let mibs = Mibs::standard();
/// let printer = Printer { output: Output::default(), mibs: Some(&mibs) };
/// let status = VarBind { oid: "1.3.6.1.2.1.2.2.1.8.2".parse()?, value: Value::Integer(1) };
/// assert_eq!(printer.line(&status), "IF-MIB::ifOperStatus.2 = INTEGER: up(1)");
/// let quick = Printer { output: Output::parse("sq")?, mibs: Some(&mibs) };
/// assert_eq!(quick.line(&status), "ifOperStatus.2 up");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Printer<'m> {
    /// The options.
    pub output: Output,
    /// The modules names come from.
    pub mibs: Option<&'m Mibs>,
}

impl Printer<'_> {
    /// An OID as the options name it.
    pub fn name(&self, oid: Oid<'_>) -> String {
        let arcs: Vec<u32> = oid.arcs().collect();
        let index = match self.output.index {
            IndexStyle::Extended if self.output.quick => IndexStyle::ExtendedQuick,
            style => style,
        };
        match self.mibs {
            Some(m) => name_of(m, &arcs, self.output.naming, index),
            None => format!(".{oid}"),
        }
    }

    /// One binding, a line without its newline.
    pub fn line(&self, vb: &VarBind) -> String {
        let presentation = self.mibs.and_then(|m| {
            let arcs: Vec<u32> = vb.oid.as_oid().arcs().collect();
            m.presentation(&arcs)
        });
        let value = self.value(&vb.value, presentation);
        if self.output.value_only {
            return value;
        }
        let name = self.name(vb.oid.as_oid());
        if self.output.quick && !self.output.keep_equals {
            format!("{name} {value}")
        } else {
            format!("{name} = {value}")
        }
    }

    /// A value: `TYPE: value`, or the value alone under `-Oq`/`-OQ`; shown as the object's
    /// `presentation` says when there is one.
    pub fn value(&self, v: &Value, presentation: Option<&Presentation>) -> String {
        // A value of another type than its object's SYNTAX (an agent's mistake): said as
        // net-snmp says it (not under -OQ), and shown as its own type shows it, without the
        // object's enumeration, DISPLAY-HINT or UNITS.
        if let Some(should_be) = presentation.and_then(|p| wrong_type(v, &p.base)) {
            let own = self.value(v, None);
            return match self.output.keep_equals {
                true => own,
                false => format!("Wrong Type (should be {should_be}): {own}"),
            };
        }
        let (kind, mut text) = self.typed(v, presentation);
        let units = presentation.and_then(|p| p.units.as_deref());
        if let (Some(u), false, true) = (units, self.output.no_units, kind.is_some()) {
            if !matches!(v, Value::ObjectIdentifier(_) | Value::IpAddress(_)) {
                text = format!("{text} {u}");
            }
        }
        match kind {
            // A Hex-STRING without its label is quoted, as net-snmp quotes it.
            Some("Hex-STRING") if self.quick_values() => format!("\"{text}\""),
            Some(k) if !self.quick_values() => format!("{k}: {text}"),
            _ => text,
        }
    }

    /// Whether values are printed without their labels and in their short forms (quick
    /// print: `-Oq`, or `-OQ`, which keeps the `=`).
    fn quick_values(&self) -> bool {
        self.output.quick
    }

    /// The type label net-snmp prints and the value's text.
    fn typed(&self, v: &Value, p: Option<&Presentation>) -> (Option<&'static str>, String) {
        let hint = p
            .and_then(|p| p.hint.as_deref())
            .filter(|_| !self.output.no_hints);
        match v {
            Value::Integer(i) => (Some("INTEGER"), self.integer(*i, p)),
            // Under -Oq/-OQ the octets alone, quoted as a Hex-STRING is.
            Value::OctetString(s) if p.is_some_and(|p| p.base == "BITS") => {
                let head = match self.output.hex_text {
                    true => hex_with_text(s),
                    false => hex(s),
                };
                if self.quick_values() {
                    return (Some("Hex-STRING"), head);
                }
                let names = p.map(|p| &p.bits[..]).unwrap_or(&[]);
                let names = if self.output.numeric_enums {
                    &[][..]
                } else {
                    names
                };
                (Some("BITS"), bits(head, s, names))
            }
            Value::OctetString(s) => {
                let format = match self.output.two_digit_hex {
                    true => snmp_mib::format_octets_net_snmp_two_digit,
                    false => snmp_mib::format_octets_net_snmp,
                };
                match hint.and_then(|h| format(h, s).ok()) {
                    Some(t) => (Some("STRING"), t),
                    None => self.octets(s),
                }
            }
            Value::ObjectIdentifier(o) => (Some("OID"), self.name(o.as_oid())),
            // SMIv1's NetworkAddress, in hex as net-snmp prints it.
            Value::IpAddress(a) if p.is_some_and(|p| p.base == "NetworkAddress") => (
                Some("Network Address"),
                format!("{:02X}:{:02X}:{:02X}:{:02X}", a[0], a[1], a[2], a[3]),
            ),
            Value::IpAddress(a) => (
                Some("IpAddress"),
                format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3]),
            ),
            Value::Counter32(c) => (Some("Counter32"), c.to_string()),
            // Through an integer DISPLAY-HINT, as net-snmp prints a Gauge32 (not a Counter32).
            Value::Gauge32(g) => (Some("Gauge32"), self.hinted(i64::from(*g), p)),
            // Under `-Ot` the number alone, without its label.
            Value::TimeTicks(t) => (
                Some("Timeticks").filter(|_| !self.output.numeric_ticks),
                self.ticks(*t),
            ),
            Value::Opaque(o) => match OpaqueNumber::from_opaque(o) {
                Some(n) => opaque_number(n),
                None => (Some("Opaque"), hex(o)),
            },
            Value::Counter64(c) => (Some("Counter64"), c.to_string()),
            Value::Null => (None, "NULL".into()),
            Value::NoSuchObject => (
                None,
                "No Such Object available on this agent at this OID".into(),
            ),
            Value::NoSuchInstance => (None, "No Such Instance currently exists at this OID".into()),
            Value::EndOfMibView => (
                None,
                "No more variables left in this MIB View (It is past the end of the MIB tree)"
                    .into(),
            ),
        }
    }

    /// An OCTET STRING without a DISPLAY-HINT, as net-snmp prints one: `""` alone when empty;
    /// quoted text (quotes and backslashes escaped) when every octet is printable or under
    /// `-Oa` (those that are not as `.`); else, or under `-Ox`, hex.
    fn octets(&self, s: &[u8]) -> (Option<&'static str>, String) {
        if s.is_empty() {
            return (None, "\"\"".into());
        }
        let text = match self.output.strings {
            Strings::Hex => None,
            Strings::Guess => printable(s).map(str::to_string),
            Strings::Ascii => Some(
                s.iter()
                    .map(|&b| if plain(b) { b as char } else { '.' })
                    .collect(),
            ),
        };
        match text {
            Some(t) => (
                Some("STRING"),
                format!("\"{}\"", t.replace('\\', "\\\\").replace('"', "\\\"")),
            ),
            None if self.output.hex_text => (Some("Hex-STRING"), hex_with_text(s)),
            None => (Some("Hex-STRING"), hex(s)),
        }
    }

    /// An INTEGER: its enumeration label (`up(1)`; `up` under `-Oq`; the number under `-Oe`),
    /// or its number, through an integer DISPLAY-HINT (`d-2`: `12.34`) when it has one.
    fn integer(&self, i: i64, p: Option<&Presentation>) -> String {
        let label = p
            .filter(|_| !self.output.numeric_enums)
            .and_then(|p| p.enums.iter().find(|(_, n)| *n == i128::from(i)));
        match label {
            Some((name, _)) if self.quick_values() => name.clone(),
            Some((name, _)) => format!("{name}({i})"),
            None => self.hinted(i, p),
        }
    }

    /// A number through the integer DISPLAY-HINT of `p` (`d-2`: `12.34`), when it has one and
    /// hints are not turned off (`-Ih`).
    fn hinted(&self, i: i64, p: Option<&Presentation>) -> String {
        p.and_then(|p| p.hint.as_deref())
            .filter(|_| !self.output.no_hints)
            .and_then(|h| snmp_mib::format_integer_net_snmp(h, i).ok())
            .unwrap_or_else(|| i.to_string())
    }

    /// TimeTicks as net-snmp prints them: `(12345) 0:02:03.45`, `0:0:02:03.45` under `-Oq`,
    /// `12345` under `-Ot`.
    fn ticks(&self, t: u32) -> String {
        if self.output.numeric_ticks {
            return t.to_string();
        }
        let centis = t % 100;
        let secs = t / 100;
        let (days, hours, minutes, seconds) =
            (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
        if self.quick_values() {
            return format!("{days}:{hours}:{minutes:02}:{seconds:02}.{centis:02}");
        }
        let clock = format!("{hours}:{minutes:02}:{seconds:02}.{centis:02}");
        match days {
            0 => format!("({t}) {clock}"),
            1 => format!("({t}) 1 day, {clock}"),
            d => format!("({t}) {d} days, {clock}"),
        }
    }
}

/// The type net-snmp names when `v` is not of SYNTAX `base` (`Gauge32 or Unsigned32`), or
/// `None` when it is, when `base` is one net-snmp does not check, and for the exceptions.
fn wrong_type(v: &Value, base: &str) -> Option<&'static str> {
    use Value as V;
    let (fits, name) = match base {
        "INTEGER" | "Integer32" => (matches!(v, V::Integer(_)), "INTEGER"),
        "OCTET STRING" => (matches!(v, V::OctetString(_)), "OCTET STRING"),
        "BITS" => (matches!(v, V::OctetString(_)), "BITS"),
        "OBJECT IDENTIFIER" => (matches!(v, V::ObjectIdentifier(_)), "OBJECT IDENTIFIER"),
        "IpAddress" => (matches!(v, V::IpAddress(_)), "IpAddress"),
        "NetworkAddress" => (matches!(v, V::IpAddress(_)), "NetworkAddress"),
        "Counter32" | "Counter" => (matches!(v, V::Counter32(_)), "Counter32"),
        "Gauge32" | "Gauge" | "Unsigned32" => (matches!(v, V::Gauge32(_)), "Gauge32 or Unsigned32"),
        "TimeTicks" => (matches!(v, V::TimeTicks(_)), "Timeticks"),
        // net-snmp takes the 64-bit numbers an Opaque wraps for a Counter64.
        "Counter64" => {
            let wrapped = |o: &[u8]| {
                use OpaqueNumber as N;
                let n = OpaqueNumber::from_opaque(o);
                matches!(n, Some(N::Counter64(_) | N::Int64(_) | N::UInt64(_)))
            };
            let fits = match v {
                V::Counter64(_) => true,
                V::Opaque(o) => wrapped(o),
                _ => false,
            };
            (fits, "Counter64")
        }
        "Opaque" => (matches!(v, V::Opaque(_)), "Opaque"),
        "NULL" => (matches!(v, V::Null), "NULL"),
        _ => return None,
    };
    let exception = matches!(v, V::NoSuchObject | V::NoSuchInstance | V::EndOfMibView);
    (!fits && !exception).then_some(name)
}

/// The text of an OCTET STRING whose every octet is printable ASCII or white space (C's
/// `isprint` or `isspace`), which net-snmp prints as a `STRING` when no DISPLAY-HINT says
/// otherwise (UTF-8 beyond ASCII is a Hex-STRING to it, whatever the locale).
fn printable(s: &[u8]) -> Option<&str> {
    s.iter()
        .all(|&b| plain(b))
        .then(|| std::str::from_utf8(s).ok())
        .flatten()
}

/// C's `isprint(b) || isspace(b)` in the C locale.
fn plain(b: u8) -> bool {
    matches!(b, 0x20..=0x7e | 0x09..=0x0d)
}

/// BITS as net-snmp prints them: `head` (the octets in hex), then the label and number of
/// each bit set, each followed by a space (`80 00 up(0) `); the number alone for a bit
/// `names` does not name (all of them under `-Oe`).
fn bits(head: String, octets: &[u8], names: &[(String, i128)]) -> String {
    let mut out = head;
    for (k, b) in octets.iter().enumerate() {
        for bit in 0..8 {
            if b & (0x80 >> bit) != 0 {
                let n = (k * 8 + bit) as i128;
                match names.iter().find(|(_, v)| *v == n) {
                    Some((name, _)) => {
                        let _ = write!(out, "{name}({n}) ");
                    }
                    None => {
                        let _ = write!(out, "{n} ");
                    }
                }
            }
        }
    }
    out
}

/// `00 1A 2B `, as net-snmp prints Hex-STRINGs: each octet followed by a space, sixteen to a
/// line (a newline after each sixteen when more follow).
/// A number net-snmp wraps in an Opaque, labelled as it labels it (`Opaque: Float: 1.500000`:
/// Float and Double alike, C's `%f`).
fn opaque_number(n: OpaqueNumber) -> (Option<&'static str>, String) {
    match n {
        OpaqueNumber::Float(f) => (Some("Opaque: Float"), c_fixed(f64::from(f))),
        OpaqueNumber::Double(d) => (Some("Opaque: Float"), c_fixed(d)),
        OpaqueNumber::Counter64(c) => (Some("Opaque: Counter64"), c.to_string()),
        OpaqueNumber::Int64(i) => (Some("Opaque: Int64"), i.to_string()),
        OpaqueNumber::UInt64(u) => (Some("Opaque: UInt64"), u.to_string()),
    }
}

/// `x` as C's `printf("%f")` prints it: six decimals, `nan`, `-nan`, `inf`, `-inf`.
fn c_fixed(x: f64) -> String {
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x.is_nan() {
        format!("{sign}nan")
    } else if x.is_infinite() {
        format!("{sign}inf")
    } else {
        format!("{x:.6}")
    }
}

/// `-OT`'s hex: each line of sixteen octets followed by `  [` its text `]` (a character that is
/// neither printable nor white space as `.`).
fn hex_with_text(octets: &[u8]) -> String {
    let lines: Vec<String> = octets
        .chunks(16)
        .map(|line| {
            let text: String = line
                .iter()
                .map(
                    |&b| match b.is_ascii_graphic() || b.is_ascii_whitespace() || b == 0x0b {
                        true => b as char,
                        false => '.',
                    },
                )
                .collect();
            format!("{}  [{text}]", hex(line))
        })
        .collect();
    lines.join("\n")
}

fn hex(octets: &[u8]) -> String {
    let mut out = String::with_capacity(octets.len() * 3 + octets.len() / 16);
    for (i, b) in octets.iter().enumerate() {
        if i > 0 && i % 16 == 0 {
            out.push('\n');
        }
        let _ = write!(out, "{b:02X} ");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::vb;

    #[test]
    fn values_as_net_snmp_prints_them() {
        let p = |flags: &str| Printer {
            output: Output::parse(flags).unwrap(),
            mibs: None,
        };
        let up = vb("1.3.6.1.2.1.1.3.0", Value::TimeTicks(8_640_000 + 12_345));
        assert_eq!(
            p("n").line(&up),
            ".1.3.6.1.2.1.1.3.0 = Timeticks: (8652345) 1 day, 0:02:03.45"
        );
        assert_eq!(p("nq").line(&up), ".1.3.6.1.2.1.1.3.0 1:0:02:03.45");
        // `-Ot`: the number alone, without its label.
        assert_eq!(p("nt").line(&up), ".1.3.6.1.2.1.1.3.0 = 8652345");
        assert_eq!(p("nqv").line(&up), "1:0:02:03.45");
        let d = vb("1.3.6.1.2.1.1.1.0", Value::OctetString("Linux".into()));
        // With no MIB, a printable string is quoted, as net-snmp prints one it knows nothing of.
        assert_eq!(p("nv").line(&d), "STRING: \"Linux\"");
        let quoted = vb(
            "1.3.6.1.2.1.1.1.0",
            Value::OctetString("a \"b\" c\\d".into()),
        );
        assert_eq!(p("nv").line(&quoted), "STRING: \"a \\\"b\\\" c\\\\d\"");
        assert_eq!(p("nQ").line(&d), ".1.3.6.1.2.1.1.1.0 = \"Linux\"");
        let mac = vb(
            "1.3.6.1.2.1.2.2.1.6.2",
            Value::OctetString((&[0, 0x1a, 0xff]).into()),
        );
        assert_eq!(p("nv").line(&mac), "Hex-STRING: 00 1A FF ");
        assert_eq!(p("nqv").line(&mac), "\"00 1A FF \"");
        assert_eq!(p("nva").line(&mac), "STRING: \"...\"");
        assert_eq!(p("nvx").line(&d), "Hex-STRING: 4C 69 6E 75 78 ");
        // Sixteen octets to a line.
        let engine = vb("1.3", Value::OctetString((&[0x80; 17]).into()));
        let row = "80 ".repeat(16);
        assert_eq!(p("nv").line(&engine), format!("Hex-STRING: {row}\n80 "));
        // Not ASCII: hex, as net-snmp guesses, whatever the locale.
        let utf8 = vb("1.3", Value::OctetString("café".into()));
        assert_eq!(p("nv").line(&utf8), "Hex-STRING: 63 61 66 C3 A9 ");
        // Empty, and no hint: `""` with no label.
        let empty = vb("1.3", Value::OctetString((&[]).into()));
        assert_eq!(p("n").line(&empty), ".1.3 = \"\"");
        let o = vb(
            "1.3.6.1.2.1.1.2.0",
            Value::ObjectIdentifier("1.3.6.1.4.1.8072.3.2.10".parse().unwrap()),
        );
        assert_eq!(p("nv").line(&o), "OID: .1.3.6.1.4.1.8072.3.2.10");
        assert_eq!(
            p("nv").line(&vb("1.3", Value::NoSuchInstance)),
            "No Such Instance currently exists at this OID"
        );
        let status = Presentation {
            base: "INTEGER".into(),
            enums: vec![("up".into(), 1), ("down".into(), 2)],
            units: Some("seconds".into()),
            ..Presentation::default()
        };
        assert_eq!(
            p("").value(&Value::Integer(1), Some(&status)),
            "INTEGER: up(1) seconds"
        );
        assert_eq!(
            p("q").value(&Value::Integer(2), Some(&status)),
            "down seconds"
        );
        assert_eq!(
            p("eU").value(&Value::Integer(2), Some(&status)),
            "INTEGER: 2"
        );
        let mac = Presentation {
            base: "OCTET STRING".into(),
            hint: Some("1x:".into()),
            ..Presentation::default()
        };
        let octets = Value::OctetString((&[0, 0x1b, 0x21]).into());
        assert_eq!(p("").value(&octets, Some(&mac)), "STRING: 0:1b:21");
        assert_eq!(p("0").value(&octets, Some(&mac)), "STRING: 00:1b:21");
        let hundredths = Presentation {
            base: "INTEGER".into(),
            hint: Some("d-2".into()),
            ..Presentation::default()
        };
        assert_eq!(
            p("").value(&Value::Integer(1234), Some(&hundredths)),
            "INTEGER: 12.34"
        );
        let flags = Presentation {
            base: "BITS".into(),
            bits: vec![("up".into(), 0), ("ten".into(), 10)],
            ..Presentation::default()
        };
        let set = Value::OctetString((&[0x80, 0x20, 0x01]).into());
        assert_eq!(
            p("").value(&set, Some(&flags)),
            "BITS: 80 20 01 up(0) ten(10) 23 "
        );
        assert_eq!(
            Output::parse("nZ").unwrap_err(),
            "Unknown output option passed to -O: Z."
        );
        assert_eq!(Output::parse("bX").unwrap().index, IndexStyle::Extended);
        let v1_address = Presentation {
            base: "NetworkAddress".into(),
            ..Presentation::default()
        };
        assert_eq!(
            p("").value(&Value::IpAddress([192, 0, 2, 1]), Some(&v1_address)),
            "Network Address: C0:00:02:01"
        );
        assert_eq!(p("n").ticks(99), "(99) 0:00:00.99");
        assert_eq!(p("n").ticks(3 * 8_640_000), "(25920000) 3 days, 0:00:00.00");
    }
}
