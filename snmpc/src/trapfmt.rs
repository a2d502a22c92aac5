//! snmptrapd's output formats (`-F FORMAT`, `format1`/`format2` in snmptrapd.conf), as net-snmp
//! 5.9 prints them: text with `\n`, `\t`, `\r`, `\\` escapes and `%` conversions. `%a` the
//! agent address (an SNMPv1 trap's agent-addr, else 0.0.0.0), `%A` its name (under `-n`), `%b`
//! the transport, `%B` the sender's name, `%N` an SNMPv1 trap's enterprise, `%w`/`%W` its
//! generic trap as a number and in words, `%q` its specific trap, `%P` the security (`TRAP,
//! SNMP v1, community public`), `%T` its time-stamp (`%#T` as a clock), `%t` the time in
//! seconds, `%y %m %l %h %j %k` (also upper case) year, month, day, hour, minute, second, `%v`
//! the bindings (separated by a tab, or by what follows `%V` up to the next `%`), `%%` a `%`.
//! A flag `-`, `0` or `#`, a width and a precision may come between: numbers are padded with
//! zeros (a precision is their least digits), text is cut at its precision, padded as
//! net-snmp pads it.

use crate::host::LocalTime;

/// One piece of a format.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    /// Text as it is.
    Text(String),
    /// A `%` conversion.
    Spec(Spec),
    /// `%V`: the bindings' separator from here on.
    Separator(String),
}

/// A `%` conversion with its flags, width and precision.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Spec {
    left: bool,
    zero: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    conversion: char,
}

/// A parsed format.
#[derive(Debug, Clone, PartialEq)]
pub struct TrapFormat {
    pieces: Vec<Piece>,
}

/// What a notification gives a format: each conversion's text.
pub struct Fields<'a> {
    /// `%a`, `%A`, `%b`, `%B`.
    pub agent: String,
    pub agent_name: String,
    pub transport: String,
    pub host: String,
    /// `%N`, `%w`, `%W`, `%q`, `%P`.
    pub enterprise: String,
    pub generic: i64,
    pub generic_words: &'a str,
    pub specific: String,
    pub security: String,
    /// `%T` (hundredths of a second) and `%#T` (as a clock).
    pub ticks: u32,
    pub clock: String,
    /// The bindings as printed.
    pub bindings: Vec<String>,
    /// Now.
    pub now: LocalTime,
}

/// The characters escapes stand for: `\n`, `\t`, `\r`, `\\` (any other stays as written).
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

impl TrapFormat {
    /// `format` read as snmptrapd reads it.
    pub fn parse(format: &str) -> TrapFormat {
        let text: Vec<char> = unescape(format).chars().collect();
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut i = 0;
        while i < text.len() {
            if text[i] != '%' {
                literal.push(text[i]);
                i += 1;
                continue;
            }
            i += 1;
            let mut spec = Spec {
                left: false,
                zero: false,
                alt: false,
                width: 0,
                precision: None,
                conversion: '%',
            };
            while let Some(&c) = text.get(i).filter(|c| matches!(c, '-' | '0' | '#')) {
                match c {
                    '-' => spec.left = true,
                    '0' => spec.zero = true,
                    _ => spec.alt = true,
                }
                i += 1;
            }
            let number = |i: &mut usize| {
                let start = *i;
                while text.get(*i).is_some_and(char::is_ascii_digit) {
                    *i += 1;
                }
                text[start..*i]
                    .iter()
                    .collect::<String>()
                    .parse::<usize>()
                    .ok()
            };
            spec.width = number(&mut i).unwrap_or(0).min(1024);
            if text.get(i) == Some(&'.') {
                i += 1;
                spec.precision = Some(number(&mut i).unwrap_or(0).min(1024));
            }
            let Some(&conversion) = text.get(i) else {
                break;
            };
            i += 1;
            if conversion == 'V' {
                let end = text[i..]
                    .iter()
                    .position(|&c| c == '%')
                    .map_or(text.len(), |p| i + p);
                flush(&mut literal, &mut pieces);
                pieces.push(Piece::Separator(text[i..end].iter().collect()));
                i = end;
            } else if is_conversion(conversion) {
                flush(&mut literal, &mut pieces);
                spec.conversion = conversion;
                pieces.push(Piece::Spec(spec));
            } else {
                // `%%`, or `%` before anything else: that character.
                literal.push(conversion);
            }
        }
        flush(&mut literal, &mut pieces);
        TrapFormat { pieces }
    }

    /// The notification whose `fields` these are, formatted.
    pub fn render(&self, fields: &Fields<'_>) -> String {
        let mut out = String::new();
        let mut separator = "\t".to_string();
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Separator(s) => separator = s.clone(),
                Piece::Spec(spec) if spec.conversion == 'v' => {
                    out.push_str(&fields.bindings.join(&separator))
                }
                Piece::Spec(spec) => out.push_str(&convert(spec, fields)),
            }
        }
        out
    }
}

fn flush(literal: &mut String, pieces: &mut Vec<Piece>) {
    if !literal.is_empty() {
        pieces.push(Piece::Text(std::mem::take(literal)));
    }
}

fn is_conversion(c: char) -> bool {
    "aAbBNwWqPTtymlhjkYMLHJKv".contains(c)
}

/// One conversion's text, padded.
fn convert(spec: &Spec, f: &Fields<'_>) -> String {
    let number = |n: i64| pad_number(spec, n);
    match spec.conversion {
        'a' => pad_text(spec, &f.agent),
        'A' => pad_text(spec, &f.agent_name),
        'b' => pad_text(spec, &f.transport),
        'B' => pad_text(spec, &f.host),
        'N' => pad_text(spec, &f.enterprise),
        'w' => number(f.generic),
        'W' => pad_text(spec, f.generic_words),
        'q' => pad_text(spec, &f.specific),
        'P' => pad_text(spec, &f.security),
        'T' if spec.alt => pad_text(spec, &f.clock),
        // The time-stamp's digits, as many as a precision asks: zeros before, or cut.
        'T' => {
            let digits = f.ticks.to_string();
            let least = spec.precision.unwrap_or(0);
            let zeros = "0".repeat(least.saturating_sub(digits.len()));
            pad_text(spec, &(zeros + &digits))
        }
        't' => number(i64::try_from(f.now.epoch).unwrap_or(i64::MAX)),
        'y' | 'Y' => number(f.now.year),
        'm' | 'M' => number(f.now.month),
        'l' | 'L' => number(f.now.day),
        'h' | 'H' => number(f.now.hour),
        'j' | 'J' => number(f.now.minute),
        _ => number(f.now.second),
    }
}

/// A number: at least `precision` digits, then zeros to `width` (after it under `-`).
fn pad_number(spec: &Spec, n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let least = spec.precision.unwrap_or(0);
    let mut s = String::new();
    if n < 0 {
        s.push('-');
    }
    s.extend(std::iter::repeat_n('0', least.saturating_sub(digits.len())));
    s.push_str(&digits);
    let fill = spec.width.saturating_sub(s.chars().count());
    let zeros: String = std::iter::repeat_n('0', fill).collect();
    match spec.left {
        true => s + &zeros,
        false => zeros + &s,
    }
}

/// Text: cut at `precision` characters, then to `width`: under `-` zeros after it, under `0`
/// zeros before it, else a space and zeros before it (net-snmp's padding, kept).
fn pad_text(spec: &Spec, text: &str) -> String {
    let cut: String = match spec.precision {
        Some(p) => text.chars().take(p).collect(),
        None => text.to_string(),
    };
    let fill = spec.width.saturating_sub(cut.chars().count());
    if fill == 0 {
        return cut;
    }
    let zeros = |n: usize| -> String { std::iter::repeat_n('0', n).collect() };
    match (spec.left, spec.zero) {
        (true, _) => cut + &zeros(fill),
        (false, true) => zeros(fill) + &cut,
        (false, false) => format!(" {}{cut}", zeros(fill - 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> Fields<'static> {
        Fields {
            agent: "192.0.2.7".into(),
            agent_name: "192.0.2.7".into(),
            transport: "UDP: [127.0.0.1]:40000->[127.0.0.1]:162".into(),
            host: "localhost".into(),
            enterprise: ".1.3.6.1.4.1.9".into(),
            generic: 6,
            generic_words: "Enterprise Specific",
            specific: ".17".into(),
            security: "TRAP, SNMP v1, community public".into(),
            ticks: 12345,
            clock: "0:02:03.45".into(),
            bindings: vec!["a = INTEGER: 1".into(), "b = INTEGER: 2".into()],
            now: LocalTime {
                epoch: 1_796_296_285,
                year: 2026,
                month: 12,
                day: 3,
                hour: 11,
                minute: 1,
                second: 5,
            },
        }
    }

    fn render(format: &str) -> String {
        TrapFormat::parse(format).render(&fields())
    }

    #[test]
    fn conversions_as_snmptrapd_prints_them() {
        assert_eq!(
            render("%.4y-%.2m-%.2l %.2h:%.2j:%.2k %B [%b]:\\n%v\\n"),
            "2026-12-03 11:01:05 localhost [UDP: [127.0.0.1]:40000->[127.0.0.1]:162]:\n\
             a = INTEGER: 1\tb = INTEGER: 2\n"
        );
        assert_eq!(
            render("%a|%A|%N|%w|%W|%q|%P|%T|%#T|%t|%%|%V;;%v"),
            "192.0.2.7|192.0.2.7|.1.3.6.1.4.1.9|6|Enterprise Specific|.17|\
             TRAP, SNMP v1, community public|12345|0:02:03.45|1796296285|%|\
             a = INTEGER: 1;;b = INTEGER: 2"
        );
        // `%` before a character that is no conversion: the character.
        assert_eq!(render("%V;% A=%a"), " A=192.0.2.7");
    }

    #[test]
    fn widths_and_precisions_as_net_snmp_pads() {
        // Measured with snmptrapd 5.9.3 -F.
        assert_eq!(
            render("[%-12B][%12B][%.3B]"),
            "[localhost000][ 00localhost][loc]"
        );
        assert_eq!(
            render("[%05q][%.3w][%5w][%-5w]"),
            "[00.17][006][00006][60000]"
        );
        assert_eq!(render("[%.2T][%#.2T][%3.1a]"), "[12][0:][ 01]");
        let mut zero = fields();
        zero.ticks = 0;
        assert_eq!(TrapFormat::parse("[%.2T]").render(&zero), "[00]");
        assert_eq!(render("\\tx\\\\y\\r"), "\tx\\y\r");
    }
}
