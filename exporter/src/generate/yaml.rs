//! snmp.yml's text as snmp_exporter's generator writes it, so that a diff against upstream's
//! file shows only what differs: go-yaml v2's block style (a sequence under a key not
//! indented, empty collections as `[]` and `{}`), its choice of quoting (a string YAML 1.1
//! would read as a boolean, number, null or time, such as `off` or `1.5`, double-quoted; one
//! whose text forbids plain style single-quoted) and its line folding (a scalar broken at the
//! first space past column 80, continued two columns in).
//!
//! ```
//! let doc: serde_yaml::Value = serde_yaml::from_str("enum_values: {0: 'off', 1: on2}").unwrap();
//! assert_eq!(
//!     snmp_exporter::generate::yaml::to_string(&doc),
//!     "enum_values:\n  0: \"off\"\n  1: on2\n"
//! );
//! ```

use serde_yaml::{Mapping, Number, Value};

/// The column past which go-yaml breaks a line at its next space.
const WIDTH: usize = 80;

/// `value` as go-yaml v2 marshals it, for documents such as snmp.yml: mapping keys are
/// scalars (a collection as a key is written `{}` or `[]`) and tags are not written.
pub fn to_string(value: &Value) -> String {
    to_string_after(String::new(), value)
}

/// [`to_string`] written after `head` (a comment line, say), in its buffer.
pub(crate) fn to_string_after(head: String, value: &Value) -> String {
    let mut e = Emitter {
        column: head.len() - head.rfind('\n').map_or(0, |k| k + 1),
        out: head,
    };
    match value {
        Value::Mapping(m) if !m.is_empty() => e.mapping(m, 0, true),
        Value::Sequence(s) if !s.is_empty() => e.sequence(s, 0, true),
        other => e.inline(other, 0),
    }
    e.out.push('\n');
    e.out
}

#[derive(Default)]
struct Emitter {
    out: String,
    column: usize,
}

impl Emitter {
    fn push(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn push_str(&mut self, s: &str) {
        self.out.push_str(s);
        self.column += if s.is_ascii() {
            s.len()
        } else {
            s.chars().count()
        };
    }

    /// A new line indented `indent` columns.
    fn line(&mut self, indent: usize) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.column = indent;
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    /// A block mapping whose keys are at `indent`; `first_inline` when the first key goes
    /// where the line already is (after `- `, or at the start of the document).
    fn mapping(&mut self, m: &Mapping, indent: usize, first_inline: bool) {
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 || !first_inline {
                self.line(indent);
            }
            self.scalar(k, indent + 2, true);
            self.push(':');
            match v {
                Value::Mapping(m) if !m.is_empty() => self.mapping(m, indent + 2, false),
                // A sequence in a mapping is not indented (go-yaml's indentless sequence).
                Value::Sequence(s) if !s.is_empty() => self.sequence(s, indent, false),
                other => {
                    self.push(' ');
                    self.inline(other, indent + 2);
                }
            }
        }
    }

    /// A block sequence whose dashes are at `indent`.
    fn sequence(&mut self, s: &[Value], indent: usize, first_inline: bool) {
        for (i, item) in s.iter().enumerate() {
            if i > 0 || !first_inline {
                self.line(indent);
            }
            self.push_str("- ");
            match item {
                Value::Mapping(m) if !m.is_empty() => self.mapping(m, indent + 2, true),
                Value::Sequence(s) if !s.is_empty() => self.sequence(s, indent + 2, true),
                other => self.inline(other, indent + 2),
            }
        }
    }

    /// What fits on the current line: a scalar (continued at `indent` when folded) or an empty
    /// collection.
    fn inline(&mut self, v: &Value, indent: usize) {
        match v {
            Value::Mapping(_) => self.push_str("{}"),
            Value::Sequence(_) => self.push_str("[]"),
            Value::Tagged(t) => self.inline(&t.value, indent),
            scalar => self.scalar(scalar, indent, false),
        }
    }

    fn scalar(&mut self, v: &Value, indent: usize, key: bool) {
        match v {
            Value::Null => self.push_str("null"),
            Value::Bool(b) => self.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => self.push_str(&number(n)),
            Value::String(s) => self.string(s, indent, key),
            Value::Tagged(t) => self.scalar(&t.value, indent, key),
            Value::Mapping(_) | Value::Sequence(_) => self.inline(v, indent),
        }
    }

    fn string(&mut self, s: &str, indent: usize, key: bool) {
        let a = Analysis::of(s);
        let mut style = if s.contains('\n') {
            Style::Literal
        } else if resolves_to_string(s) {
            Style::Plain
        } else {
            Style::Double
        };
        if key && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain && (!a.block_plain || (s.is_empty() && key)) {
            style = Style::Single;
        }
        if style == Style::Single && !a.single_quoted {
            style = Style::Double;
        }
        // A literal block is written a line for each `\n`; a reader also breaks its lines at
        // U+2028 and U+2029, which a literal block cannot give back: such a text is
        // double-quoted, its breaks escaped.
        if style == Style::Literal && (!a.block || key || s.contains(['\u{2028}', '\u{2029}'])) {
            style = Style::Double;
        }
        let breaks = !key;
        match style {
            Style::Plain => self.folded(s, indent, breaks, None),
            Style::Single => self.folded(s, indent, breaks, Some('\'')),
            Style::Double => self.double_quoted(s, indent, breaks),
            Style::Literal => self.literal(s, indent),
        }
    }

    /// A plain or single-quoted scalar (`quote`), folded as go-yaml folds both: at a single
    /// space past the width, never at the first or last character (a plain scalar has no
    /// space there anyway); in single quotes a quote is doubled.
    fn folded(&mut self, s: &str, indent: usize, breaks: bool, quote: Option<char>) {
        if quote.is_none() && !s.contains(' ') {
            // A plain word (a name, an OID, a type): nowhere to break it.
            self.push_str(s);
            return;
        }
        if let Some(q) = quote {
            self.push(q);
        }
        // Word by word: a run of characters that are neither spaces nor quotes is copied
        // whole; each space decides whether the line breaks there.
        let mut rest = s;
        let mut first = true;
        let mut spaces = false;
        while !rest.is_empty() {
            let word = rest
                .find(|c: char| c == ' ' || Some(c) == quote)
                .unwrap_or(rest.len());
            if word > 0 {
                self.push_str(&rest[..word]);
                rest = &rest[word..];
                (first, spaces) = (false, false);
                continue;
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            rest = &rest[c.len_utf8()..];
            if c == ' ' {
                let inner = !first && !rest.is_empty();
                if breaks && !spaces && self.column > WIDTH && inner && !rest.starts_with(' ') {
                    self.line(indent);
                } else {
                    self.push(c);
                }
                spaces = true;
            } else {
                // A quote inside single quotes is doubled.
                self.push(c);
                self.push(c);
                spaces = false;
            }
            first = false;
        }
        if let Some(q) = quote {
            self.push(q);
        }
    }

    fn double_quoted(&mut self, s: &str, indent: usize, breaks: bool) {
        self.push('"');
        let mut spaces = false;
        let mut chars = s.chars().peekable();
        let mut first = true;
        while let Some(c) = chars.next() {
            if !printable(c) || c == '\u{FEFF}' || is_break(c) || c == '"' || c == '\\' {
                self.push_str(&escape(c));
                spaces = false;
            } else if c == ' ' {
                let inner = !first && chars.peek().is_some();
                if breaks && !spaces && self.column > WIDTH && inner {
                    self.line(indent);
                    if chars.peek() == Some(&' ') {
                        self.push('\\');
                    }
                } else {
                    self.push(c);
                }
                spaces = true;
            } else {
                self.push(c);
                spaces = false;
            }
            first = false;
        }
        self.push('"');
    }

    /// `|` with go-yaml's hints: `-` without a final line break, `+` with more than one,
    /// the indentation when the text begins with a space or a break.
    fn literal(&mut self, s: &str, indent: usize) {
        self.push('|');
        if s.starts_with([' ', '\n']) {
            self.push('2');
        }
        if !s.ends_with('\n') {
            self.push('-');
        } else if s == "\n" || s.ends_with("\n\n") {
            self.push('+');
        }
        for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
            self.out.push('\n');
            self.column = 0;
            if !line.is_empty() {
                for _ in 0..indent {
                    self.push(' ');
                }
                self.push_str(line);
            }
        }
    }
}

#[derive(PartialEq, Clone, Copy)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// What a string's text allows (go-yaml's `yaml_emitter_analyze_scalar`, block context).
#[derive(Debug, PartialEq)]
struct Analysis {
    multiline: bool,
    block_plain: bool,
    single_quoted: bool,
    block: bool,
}

impl Analysis {
    fn of(s: &str) -> Analysis {
        let word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.');
        if !s.is_empty() && s.bytes().all(word) {
            // Most of snmp.yml (names, OIDs, types): no space, break or indicator but a
            // leading `...` (the resolver's reading, `1.5` or `yes`, is `string`'s to check).
            return Analysis {
                multiline: false,
                block_plain: !s.starts_with("..."),
                single_quoted: true,
                block: true,
            };
        }
        Analysis::general(s)
    }

    /// [`Analysis::of`] for any text, a character at a time.
    fn general(s: &str) -> Analysis {
        if s.is_empty() {
            return Analysis {
                multiline: false,
                block_plain: true,
                single_quoted: true,
                block: false,
            };
        }
        let mut indicators = s.starts_with("---") || s.starts_with("...");
        let (mut special, mut line_breaks) = (false, false);
        let (mut leading, mut trailing) = (false, false);
        let (mut break_space, mut space_break) = (false, false);
        let (mut previous_space, mut previous_break) = (false, false);
        let mut preceded_by_blank = true;
        // A character at a time, the next one looked at (no copy of the text).
        let mut chars = s.chars().peekable();
        let mut first = true;
        while let Some(c) = chars.next() {
            let next = chars.peek().copied();
            let followed_by_blank = next.is_none_or(|n| n == ' ' || n == '\t');
            indicators |= if first {
                match c {
                    '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\''
                    | '"' | '%' | '@' | '`' => true,
                    '?' | ':' | '-' => followed_by_blank,
                    _ => false,
                }
            } else {
                (c == ':' && followed_by_blank) || (c == '#' && preceded_by_blank)
            };
            special |= !printable(c) || c == '\u{FEFF}';
            let last = next.is_none();
            if c == ' ' {
                leading |= first;
                trailing |= last;
                break_space |= previous_break;
                (previous_space, previous_break) = (true, false);
            } else if is_break(c) {
                line_breaks = true;
                leading |= first;
                trailing |= last;
                space_break |= previous_space;
                (previous_space, previous_break) = (false, true);
            } else {
                (previous_space, previous_break) = (false, false);
            }
            preceded_by_blank = matches!(c, ' ' | '\t') || is_break(c);
            first = false;
        }
        let mut a = Analysis {
            multiline: line_breaks,
            block_plain: !(leading || trailing || break_space || line_breaks || indicators),
            single_quoted: !break_space,
            block: !s.ends_with(' '),
        };
        if space_break || special {
            a.block_plain = false;
            a.single_quoted = false;
            a.block = false;
        }
        a
    }
}

/// go-yaml's printable characters (a tab is not one: it is escaped in double quotes).
fn printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn escape(c: char) -> String {
    let short = match c {
        '\0' => '0',
        '\u{7}' => 'a',
        '\u{8}' => 'b',
        '\t' => 't',
        '\n' => 'n',
        '\u{b}' => 'v',
        '\u{c}' => 'f',
        '\r' => 'r',
        '\u{1b}' => 'e',
        '"' => '"',
        '\\' => '\\',
        '\u{85}' => 'N',
        '\u{a0}' => '_',
        '\u{2028}' => 'L',
        '\u{2029}' => 'P',
        _ => {
            let v = u32::from(c);
            return match v {
                0..=0xFF => format!("\\x{v:02X}"),
                0x100..=0xFFFF => format!("\\u{v:04X}"),
                _ => format!("\\U{v:08X}"),
            };
        }
    };
    format!("\\{short}")
}

/// Whether go-yaml v2 reads `s`, written plain, back as a string (its resolver: YAML 1.1's
/// booleans `y`/`yes`/`on`/`off`..., null, integers in any base with `_`, floats, times,
/// sexagesimal numbers).
fn resolves_to_string(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    match first {
        'y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O' | '~' => !matches!(
            s,
            "~" | "null"
                | "Null"
                | "NULL"
                | "y"
                | "Y"
                | "yes"
                | "Yes"
                | "YES"
                | "n"
                | "N"
                | "no"
                | "No"
                | "NO"
                | "true"
                | "True"
                | "TRUE"
                | "false"
                | "False"
                | "FALSE"
                | "on"
                | "On"
                | "ON"
                | "off"
                | "Off"
                | "OFF"
        ),
        '.' => {
            let special = matches!(s, ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF");
            // go's ParseFloat on the text as it is (`.5`, `.5e3`).
            let float = s
                .bytes()
                .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
                && s.parse::<f64>().is_ok();
            !special && !float
        }
        // An OID (`1.3.6.1.2.1.1.3`): two dots and no colon are neither a number nor a
        // sexagesimal one.
        '0'..='9' if s.bytes().filter(|&b| b == b'.').nth(1).is_some() && !s.contains(':') => {
            !timestamp(s)
        }
        '+' | '-' | '0'..='9' => {
            let special = matches!(s, "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF");
            !(special || timestamp(s) || number_like(s) || base60(s))
        }
        _ => true,
    }
}

/// An integer (go's `ParseInt`/`ParseUint` with base 0 after `_` is removed: `0x`, `0o`,
/// `0b`, a leading `0` for octal) or a float in YAML's form.
fn number_like(s: &str) -> bool {
    let plain: std::borrow::Cow<'_, str> = if s.contains('_') {
        s.chars().filter(|&c| c != '_').collect::<String>().into()
    } else {
        s.into()
    };
    let unsigned = plain.strip_prefix(['+', '-']).unwrap_or(&plain);
    let radix = |body: &str, r: u32| !body.is_empty() && u64::from_str_radix(body, r).is_ok();
    let integer = if let Some(h) = unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        radix(h, 16)
    } else if let Some(o) = unsigned
        .strip_prefix("0o")
        .or_else(|| unsigned.strip_prefix("0O"))
    {
        radix(o, 8)
    } else if let Some(b) = unsigned
        .strip_prefix("0b")
        .or_else(|| unsigned.strip_prefix("0B"))
    {
        radix(b, 2)
    } else if unsigned.len() > 1 && unsigned.starts_with('0') {
        radix(&unsigned[1..], 8)
    } else {
        radix(unsigned, 10)
    };
    integer || yaml_float(&plain)
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_float(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(k) => (&s[..k], Some(&s[k + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$` (YAML 1.1's sexagesimal floats).
fn base60(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (body, frac) = match s.split_once('.') {
        Some((b, f)) => (b, Some(f)),
        None => (s, None),
    };
    if frac.is_some_and(|f| !f.bytes().all(|b| b.is_ascii_digit() || b == b'_')) {
        return false;
    }
    let mut parts = body.split(':');
    let head = parts.next().unwrap_or("");
    let head_ok = head.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && head.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    let rest: Vec<&str> = parts.collect();
    head_ok
        && !rest.is_empty()
        && rest.iter().all(|p| match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        })
}

/// go-yaml's timestamps: `YYYY-M-D`, optionally with a time after `T`, `t` or a space.
fn timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let (date, time) = match s.find(['T', 't', ' ']) {
        Some(k) => (&s[..k], Some((&s[k..k + 1], &s[k + 1..]))),
        None => (s, None),
    };
    let fields: Vec<&str> = date.split('-').collect();
    let small = |f: &str, max: usize| {
        !f.is_empty() && f.len() <= max && f.bytes().all(|b| b.is_ascii_digit())
    };
    let date_ok =
        fields.len() == 3 && fields[0].len() == 4 && small(fields[1], 2) && small(fields[2], 2);
    match time {
        None => date_ok,
        Some((sep, t)) => {
            // A zone (`Z`, `+hh:mm`) only after `T`/`t`.
            let (clock, zone) = match t.find(['Z', '+', '-']) {
                Some(k) => (&t[..k], &t[k..]),
                None => (t, ""),
            };
            let (hms, frac) = clock.split_once('.').unwrap_or((clock, "0"));
            let hms: Vec<&str> = hms.split(':').collect();
            let clock_ok = hms.len() == 3 && hms.iter().all(|f| small(f, 2)) && small(frac, 9);
            let zone_ok = zone.is_empty()
                || (sep != " "
                    && (zone == "Z"
                        || zone[1..]
                            .split_once(':')
                            .is_some_and(|(h, m)| small(h, 2) && small(m, 2))));
            date_ok && clock_ok && zone_ok
        }
    }
}

/// A number as go formats it: integers in decimal, floats as `strconv.FormatFloat(f, 'g',
/// -1, 64)` (`0.125`, `1e+06`, `1.5e-07`) with `.inf`, `-.inf` and `.nan`.
fn number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    go_float(f)
}

fn go_float(f: f64) -> String {
    // Rust's `{:e}` gives the shortest digits that read back: `-1.5e-7`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let (head, tail) = digits.split_at(1);
        let point = if tail.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{head}{point}{tail}e{esign}{:02}", exp.abs());
    }
    let body = if exp < 0 {
        format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
    } else {
        let point = exp as usize + 1;
        if digits.len() <= point {
            format!("{digits}{}", "0".repeat(point - digits.len()))
        } else {
            format!("{}.{}", &digits[..point], &digits[point..])
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_oids_are_analysed_as_any_text_is() {
        for s in [
            "ifIndex",
            "1.3.6.1.2.1.2.2.1.1",
            "...",
            "...x",
            "..",
            ".5",
            "a.b",
            "_x",
            "0",
            "y",
            "off",
            "DisplayString",
            "ifHCInOctets",
            "1e5",
            "0x1F",
            "x..",
        ] {
            assert_eq!(Analysis::of(s), Analysis::general(s), "{s:?}");
        }
        // Not a word: the general reading.
        for s in ["", " a", "a b", "a:", "-a", "a\nb"] {
            assert_eq!(Analysis::of(s), Analysis::general(s), "{s:?}");
        }
    }

    fn text(yaml: &str) -> String {
        to_string(&serde_yaml::from_str(yaml).unwrap())
    }

    #[test]
    fn strings_yaml_1_1_reads_otherwise_are_quoted() {
        for s in [
            "off",
            "On",
            "yes",
            "N",
            "true",
            "null",
            "~",
            "",
            "1.5",
            "08",
            "0x1F",
            "1_000",
            "12:30",
            "2024-01-02",
            ".inf",
            "-1",
            "1e5",
        ] {
            assert!(!resolves_to_string(s), "{s:?} should be quoted");
        }
        for s in [
            "1.3.6.1.2.1",
            "ifIndex",
            "offWait",
            "onBattery",
            "1.3.6.1.4.1.318.1.1.1.12.1.1",
            "0x",
            "12:60",
            "2024-1",
            "-",
            "DisplayString",
        ] {
            assert!(resolves_to_string(s), "{s:?} should be plain");
        }
    }

    #[test]
    fn styles_and_folding_are_go_yamls() {
        assert_eq!(text("a: []\nb: {}\nc: ''"), "a: []\nb: {}\nc: \"\"\n");
        // Breaks by `\n` alone in a literal block; one by U+2028 double-quoted.
        assert_eq!(text("k: \"a\\nb\""), "k: |-\n  a\n  b\n");
        assert_eq!(text("k: \"\\n\\Lb\""), "k: \"\\n\\Lb\"\n");
        assert_eq!(text("k: 'a: b'"), "k: 'a: b'\n");
        assert_eq!(text("k: \"it's # x\""), "k: 'it''s # x'\n");
        assert_eq!(text("k: \"tab\\there\""), "k: \"tab\\there\"\n");
        assert_eq!(
            text("k: [a, {x: 1, y: [b]}]"),
            "k:\n- a\n- x: 1\n  \"y\":\n  - b\n"
        );
        let long = format!("k: {}", "word ".repeat(20).trim_end());
        let folded = text(&long);
        let lines: Vec<&str> = folded.lines().collect();
        assert_eq!(lines.len(), 2, "{folded}");
        assert!(lines[0].chars().count() > WIDTH && lines[1].starts_with("  word"));
    }

    proptest::proptest! {
        /// Whatever the strings (keys and values, folded or quoted, any characters), the
        /// text reads back as the same document: the exporter reads what the generator wrote.
        #[test]
        fn any_strings_read_back_the_same(
            entries in proptest::collection::vec(
                ("\\PC{0,12}", "\\PC{0,120}|[ -~]{0,200}|(\\PC|[\\t\\n\\r\\x00-\\x1f\\u{85}\\u{a0}\\u{2028}\\u{feff}]){0,80}"),
                0..6,
            ),
            list in proptest::collection::vec("\\PC{0,40}", 0..4),
        ) {
            let mut m = Mapping::new();
            for (k, v) in entries {
                m.insert(Value::String(k), Value::String(v));
            }
            m.insert("list".into(), Value::Sequence(list.into_iter().map(Value::String).collect()));
            m.insert("n".into(), Value::Number(Number::from(0.1f64)));
            let doc = Value::Mapping(m);
            let text = to_string(&doc);
            let back: Value = serde_yaml::from_str(&text).unwrap();
            proptest::prop_assert_eq!(back, doc, "{}", text);
        }
    }

    #[test]
    fn floats_are_formatted_as_go_does() {
        for (f, s) in [
            (0.125, "0.125"),
            (2.0, "2"),
            (1e6, "1e+06"),
            (123456.0, "123456"),
            (1.5e-7, "1.5e-07"),
            (0.0001, "0.0001"),
            (-0.5, "-0.5"),
            (1e21, "1e+21"),
        ] {
            assert_eq!(go_float(f), s);
        }
    }
}
