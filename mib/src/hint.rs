//! DISPLAY-HINT formatting (RFC 2579 3.1): octet strings and integers.

use super::*;

/// Formats an octet string by an RFC 2579 octet-format DISPLAY-HINT, e.g. `1x:` for a MAC
/// address, `255a` for text, `2d-1d-1d,1d:1d:1d.1d,1a1d:1d` for DateAndTime.
pub fn format_octets(hint: &str, data: &[u8]) -> Result<String, MibError> {
    format_octets_styled(hint, data, Style::Rfc)
}

/// [`format_octets`] as net-snmp's tools print it: hexadecimal without leading zeros
/// (`0:1b:21:3c:4d:5e`, their `%x`), and text (`a`, `t`) that holds a NUL octet as
/// net-snmp's `sprint_realloc_asciistring` writes it: printable ASCII and white space kept
/// (`\` and `"` escaped), every other octet a `.`.
pub fn format_octets_net_snmp(hint: &str, data: &[u8]) -> Result<String, MibError> {
    format_octets_styled(hint, data, Style::NetSnmp)
}

/// [`format_octets_net_snmp`] under net-snmp's `-O0`: a one-octet hexadecimal field in two
/// digits (`00:1b:21:3c:4d:5e`); wider fields still without leading zeros, as net-snmp
/// prints them (`fe80:0:0:0:c:0:a0b:1` for `2x:`).
///
/// ```
/// let mac = [0x00, 0x1b, 0x21, 0x03, 0x4d, 0x5e];
/// assert_eq!(snmp_mib::format_octets_net_snmp("1x:", &mac)?, "0:1b:21:3:4d:5e");
/// assert_eq!(snmp_mib::format_octets_net_snmp_two_digit("1x:", &mac)?, "00:1b:21:03:4d:5e");
/// assert_eq!(snmp_mib::format_octets_net_snmp_two_digit("2x:", &[0, 1])?, "1");
/// # Ok::<(), snmp_mib::MibError>(())
/// ```
pub fn format_octets_net_snmp_two_digit(hint: &str, data: &[u8]) -> Result<String, MibError> {
    format_octets_styled(hint, data, Style::NetSnmpTwoDigit)
}

/// [`format_octets`] with hexadecimal in capitals (`00:1B:21`), as Prometheus's
/// snmp_exporter renders a DISPLAY-HINT; a numeric field of more than 8 octets is an error
/// there (its integers are 64 bits).
pub fn format_octets_upper_hex(hint: &str, data: &[u8]) -> Result<String, MibError> {
    format_octets_styled(hint, data, Style::UpperHex)
}

/// How a formatter writes what RFC 2579 leaves open.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Hexadecimal in small letters, each octet two digits.
    Rfc,
    /// net-snmp's tools: see [`format_octets_net_snmp`].
    NetSnmp,
    /// net-snmp's tools under `-O0`: see [`format_octets_net_snmp_two_digit`].
    NetSnmpTwoDigit,
    /// Hexadecimal in capitals, numbers of at most 8 octets: see [`format_octets_upper_hex`].
    UpperHex,
}

impl Style {
    /// One of net-snmp's tools' styles.
    fn is_net_snmp(self) -> bool {
        matches!(self, Style::NetSnmp | Style::NetSnmpTwoDigit)
    }
}

/// net-snmp's text of octets that hold a NUL (see [`format_octets_net_snmp`]).
fn ascii_or_dots(chunk: &[u8], out: &mut String) {
    for &b in chunk {
        match b {
            b'\\' | b'"' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => out.push(b as char),
            _ => out.push('.'),
        }
    }
}

fn format_octets_styled(hint: &str, data: &[u8], style: Style) -> Result<String, MibError> {
    Ok(OctetHint::with_style(hint, style)?.to_string(data))
}

/// An octet-format DISPLAY-HINT read once, to format many values without reading it again
/// (the per-value functions above read it each call).
///
/// ```
/// let hint = snmp_mib::OctetHint::parse_upper_hex("1x:")?;
/// let mut out = String::new();
/// hint.write(&[0x00, 0x1b, 0x21], &mut out);
/// assert_eq!(out, "00:1B:21");
/// # Ok::<(), snmp_mib::MibError>(())
/// ```
#[derive(Clone)]
pub struct OctetHint {
    specs: Vec<OctetSpec>,
    style: Style,
}

impl std::fmt::Debug for OctetHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OctetHint")
            .field("specs", &self.specs.len())
            .finish_non_exhaustive()
    }
}

impl OctetHint {
    /// As [`format_octets`] reads it.
    pub fn parse(hint: &str) -> Result<OctetHint, MibError> {
        OctetHint::with_style(hint, Style::Rfc)
    }

    /// As [`format_octets_net_snmp`] reads it.
    pub fn parse_net_snmp(hint: &str) -> Result<OctetHint, MibError> {
        OctetHint::with_style(hint, Style::NetSnmp)
    }

    /// As [`format_octets_upper_hex`] reads it: a numeric field of more than 8 octets is an
    /// error here.
    pub fn parse_upper_hex(hint: &str) -> Result<OctetHint, MibError> {
        OctetHint::with_style(hint, Style::UpperHex)
    }

    fn with_style(hint: &str, style: Style) -> Result<OctetHint, MibError> {
        let specs = parse_octet_hint(hint, style.is_net_snmp())?;
        if style == Style::UpperHex
            && specs
                .iter()
                .any(|s| s.len > 8 && s.format != b'a' && s.format != b't')
        {
            return Err(MibError::BadHint {
                hint: hint.to_string(),
                position: 0,
                reason: "numeric fields of at most 8 octets",
            });
        }
        Ok(OctetHint { specs, style })
    }

    fn to_string(&self, data: &[u8]) -> String {
        let mut out = String::new();
        self.write(data, &mut out);
        out
    }

    /// Appends `data` formatted by this hint to `out` (allocating only as `out` grows).
    pub fn write(&self, data: &[u8], out: &mut String) {
        let (specs, style) = (&self.specs, self.style);
        let net_snmp = style.is_net_snmp();
        let mut pos = 0;
        let mut k = 0;
        while pos < data.len() {
            // The last specification repeats until the data is used up (RFC 2579 3.1).
            let spec = &specs[k.min(specs.len() - 1)];
            k += 1;
            let repeat = if spec.star {
                let r = data[pos] as usize;
                pos += 1;
                r
            } else {
                1
            };
            for r in 0..repeat {
                let take = spec.len.min(data.len() - pos);
                let chunk = &data[pos..pos + take];
                pos += take;
                match spec.format {
                    b'a' | b't' if net_snmp && chunk.contains(&0) => ascii_or_dots(chunk, out),
                    b'a' | b't' => lossy(chunk, out),
                    _ if net_snmp => {
                        net_snmp_number(spec, chunk, style == Style::NetSnmpTwoDigit, out)
                    }
                    _ => {
                        let n = chunk
                            .iter()
                            .fold(0u128, |acc, &b| (acc << 8) | u128::from(b));
                        let _ = match spec.format {
                            b'x' if style == Style::UpperHex => {
                                write!(out, "{n:0width$X}", width = take * 2)
                            }
                            b'x' => write!(out, "{n:0width$x}", width = take * 2),
                            b'o' => write!(out, "{n:o}"),
                            _ => write!(out, "{n}"),
                        };
                    }
                }
                let last_of_data = pos >= data.len();
                if let Some(sep) = spec.separator {
                    let before_terminator = r + 1 == repeat && spec.terminator.is_some();
                    if !last_of_data && !before_terminator {
                        out.push(sep);
                    }
                }
                if last_of_data {
                    break;
                }
            }
            if let (Some(t), true) = (spec.terminator, pos < data.len()) {
                out.push(t);
            }
        }
    }
}

/// A numeric field as net-snmp's tools print it: its octets read into 64 bits (a longer field
/// keeps its last 8 octets' worth, `512x` of two octets is `0`), a short last field as if
/// zeros followed (`4x` of `61 62` is `61620000`), hexadecimal without leading zeros but
/// where `two_digit` (`-O0`) pads a one-octet field.
fn net_snmp_number(spec: &OctetSpec, chunk: &[u8], two_digit: bool, out: &mut String) {
    let read = chunk.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    // (A length such as `99999999999999999x` saturates rather than overflowing.)
    let missing = spec.len.saturating_sub(chunk.len()).saturating_mul(8);
    let n = if missing >= 64 { 0 } else { read << missing };
    let _ = match spec.format {
        b'x' if two_digit && spec.len == 1 => write!(out, "{n:02x}"),
        b'x' => write!(out, "{n:x}"),
        b'o' => write!(out, "{n:o}"),
        _ => write!(out, "{n}"),
    };
}

/// `String::from_utf8_lossy`, appended to `out`: each invalid sequence one U+FFFD.
fn lossy(chunk: &[u8], out: &mut String) {
    for part in chunk.utf8_chunks() {
        out.push_str(part.valid());
        if !part.invalid().is_empty() {
            out.push('\u{FFFD}');
        }
    }
}

#[derive(Clone)]
struct OctetSpec {
    star: bool,
    len: usize,
    format: u8,
    separator: Option<char>,
    terminator: Option<char>,
}

/// `hint`'s specifications; as net-snmp reads them when `net_snmp`: a missing length is 1
/// (`d`, `x:`, which RFC 2579's grammar does not allow) and a numeric field may be longer than
/// 16 octets (`512x`).
fn parse_octet_hint(hint: &str, net_snmp: bool) -> Result<Vec<OctetSpec>, MibError> {
    let bad = |position: usize, reason: &'static str| MibError::BadHint {
        hint: hint.to_string(),
        position,
        reason,
    };
    let b = hint.as_bytes();
    let mut i = 0;
    let mut specs = Vec::new();
    while i < b.len() {
        let star = b[i] == b'*';
        if star {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let len: usize = match (&hint[start..i], net_snmp) {
            ("", true) => 1,
            (digits, _) => digits
                .parse()
                .map_err(|_| bad(start, "a length (decimal digits)"))?,
        };
        if len == 0 {
            // A zero length would consume nothing and never finish the data.
            return Err(bad(start, "a length of at least 1"));
        }
        let format = *b
            .get(i)
            .ok_or_else(|| bad(i, "a format: d, x, o, a or t"))?;
        if !matches!(format, b'd' | b'x' | b'o' | b'a' | b't') {
            return Err(bad(i, "a format: d, x, o, a or t"));
        }
        if matches!(format, b'd' | b'x' | b'o') && len > 16 && !net_snmp {
            return Err(bad(start, "a numeric length of at most 16 octets"));
        }
        i += 1;
        let is_sep = |c: u8| !c.is_ascii_digit() && c != b'*';
        let mut separator = None;
        let mut terminator = None;
        if i < b.len() && is_sep(b[i]) {
            separator = Some(b[i] as char);
            i += 1;
            if star && i < b.len() && is_sep(b[i]) {
                terminator = Some(b[i] as char);
                i += 1;
            }
        }
        specs.push(OctetSpec {
            star,
            len,
            format,
            separator,
            terminator,
        });
    }
    if specs.is_empty() {
        return Err(bad(0, "at least one octet-format specification"));
    }
    Ok(specs)
}

/// Formats an integer by an RFC 2579 integer-format DISPLAY-HINT: `d`, `d-N` (N implied
/// decimal places), `x`, `o` or `b`.
pub fn format_integer(hint: &str, v: i64) -> Result<String, MibError> {
    format_integer_styled(hint, v, Style::Rfc)
}

/// [`format_integer`] as net-snmp's tools print it: a `d-N` value below one without the
/// zero before its point (`.05`, `-.05`).
///
/// ```
/// assert_eq!(snmp_mib::format_integer_net_snmp("d-2", 5)?, ".05");
/// assert_eq!(snmp_mib::format_integer_net_snmp("d-2", 1234)?, "12.34");
/// # Ok::<(), snmp_mib::MibError>(())
/// ```
pub fn format_integer_net_snmp(hint: &str, v: i64) -> Result<String, MibError> {
    format_integer_styled(hint, v, Style::NetSnmp)
}

fn format_integer_styled(hint: &str, v: i64, style: Style) -> Result<String, MibError> {
    let bad = |position: usize, reason: &'static str| MibError::BadHint {
        hint: hint.to_string(),
        position,
        reason,
    };
    Ok(match hint.as_bytes() {
        [b'x'] => format!("{v:x}"),
        [b'o'] => format!("{v:o}"),
        [b'b'] => format!("{v:b}"),
        [b'd'] => v.to_string(),
        [b'd', b'-', ..] => {
            let places: usize = hint[2..]
                .parse()
                .map_err(|_| bad(2, "decimal places after `d-`"))?;
            if places > 18 {
                return Err(bad(2, "at most 18 decimal places"));
            }
            let digits = v.unsigned_abs().to_string();
            let least = match style {
                Style::NetSnmp => places,
                _ => places + 1,
            };
            let digits = format!("{digits:0>least$}");
            let (int, frac) = digits.split_at(digits.len() - places);
            let sign = if v < 0 { "-" } else { "" };
            if places == 0 {
                format!("{sign}{int}")
            } else {
                format!("{sign}{int}.{frac}")
            }
        }
        _ => return Err(bad(0, "d, d-N, x, o or b")),
    })
}
