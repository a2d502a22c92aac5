//! A value given as text (`snmpc set OID s TEXT`) read through its object's octet-string
//! DISPLAY-HINT, as snmpset reads it: `00:11:22` under `1x:` is the three octets 00 11 22,
//! `2024-1-2,3:4:5.6` under DateAndTime's `2d-1d-1d,1d:1d:1d.1d,1a1d:1d` its eight octets.
//!
//! net-snmp's reading differs from RFC 2579's grammar, and the differences are kept so that a
//! value sends the octets snmpset sends: only the formats `x`, `d`, `o` and `a` (a hint with
//! `t` is not read: the text goes as it is); a number is read as C's `strtol` reads it
//! (leading white space, a sign, `0x` before hexadecimal digits) and keeps its low `N` octets
//! (`001122` under `1x:` is one octet, 0x22); the last specification repeats over what is
//! left of the text. A text the hint does not read is `None`: snmpset then sends the text
//! itself.

/// One octet-format specification being read: `*` (a repeat count octet first), the length,
/// the format, a separator and a repeat terminator.
#[derive(Default, Clone, Copy)]
struct Spec {
    repeat: bool,
    len: usize,
    format: u8,
    separator: Option<u8>,
    terminator: Option<u8>,
}

/// Where in a specification the hint is.
#[derive(Clone, Copy, PartialEq)]
enum State {
    /// A specification's start: `*` or the first digit of its length.
    Start,
    /// More digits of the length, or the format.
    Length,
    /// After the format: a separator, or the next specification.
    Format,
    /// After the separator: a terminator, or the next specification.
    Separator,
}

/// The octets `text` stands for under the octet-format `hint`, as snmpset reads them; `None`
/// when the text does not follow the hint.
pub fn octets(hint: &str, text: &str) -> Option<Vec<u8>> {
    let mut input = Input {
        v: text.as_bytes(),
        out: Vec::new(),
    };
    let mut spec = Spec::default();
    let mut state = State::Start;
    for &h in hint.as_bytes() {
        if input.v.is_empty() {
            break;
        }
        state = match (state, h) {
            (State::Start, b'*') => {
                spec.repeat = true;
                State::Length
            }
            (State::Start | State::Length, b'0'..=b'9') => {
                spec.len = spec
                    .len
                    .checked_mul(10)?
                    .checked_add(usize::from(h - b'0'))?;
                State::Length
            }
            (State::Length, b'x' | b'd' | b'o' | b'a') => {
                spec.format = h;
                State::Format
            }
            (State::Start | State::Length, _) => return None,
            // The next specification: the one read so far is applied first.
            (State::Format | State::Separator, b'*' | b'0'..=b'9') => {
                input.apply(&spec)?;
                spec = Spec::default();
                if h == b'*' {
                    spec.repeat = true;
                } else {
                    spec.len = usize::from(h - b'0');
                }
                State::Length
            }
            (State::Format, _) => {
                spec.separator = Some(h);
                State::Separator
            }
            (State::Separator, _) => {
                spec.terminator = Some(h);
                input.apply(&spec)?;
                spec = Spec::default();
                State::Start
            }
        };
    }
    // The last specification repeats over the rest of the text.
    while !input.v.is_empty() {
        input.apply(&spec)?;
    }
    Some(input.out)
}

/// The text left to read and the octets read so far.
struct Input<'t> {
    v: &'t [u8],
    out: Vec<u8>,
}

impl Input<'_> {
    /// Reads one specification's worth (all its repeats under `*`) from the text; `None` when
    /// the text does not follow it, or when it would read nothing (a loop net-snmp's reader
    /// does not leave).
    fn apply(&mut self, spec: &Spec) -> Option<()> {
        let count_at = self.out.len();
        if spec.repeat {
            self.out.push(0);
        }
        let mut repeats: u8 = 0;
        loop {
            let before = self.v.len();
            match spec.format {
                b'x' | b'd' | b'o' => {
                    let radix = match spec.format {
                        b'x' => 16,
                        b'd' => 10,
                        _ => 8,
                    };
                    let (n, rest) = strtol(self.v, radix)?;
                    self.v = rest;
                    let n = n as u64;
                    self.out.extend((0..spec.len).map(|i| {
                        let shift = 8 * (spec.len - 1 - i) as u32;
                        n.checked_shr(shift).unwrap_or(0) as u8
                    }));
                }
                b'a' => {
                    let take = spec.len.min(self.v.len());
                    self.out.extend_from_slice(&self.v[..take]);
                    self.v = &self.v[take..];
                }
                _ => {}
            }
            repeats = repeats.wrapping_add(1);
            if let (Some(sep), [first, rest @ ..]) = (spec.separator, self.v) {
                if *first != sep {
                    return None;
                }
                self.v = rest;
            }
            if let (Some(t), [first, rest @ ..]) = (spec.terminator, self.v) {
                if *first == t {
                    self.v = rest;
                    break;
                }
            }
            if self.v.len() == before {
                return None;
            }
            if !spec.repeat || self.v.is_empty() {
                break;
            }
        }
        if spec.repeat {
            self.out[count_at] = repeats;
        }
        Some(())
    }
}

/// C's `strtol(v, &end, radix)` for radix 8, 10 or 16: leading white space, a sign, `0x` or
/// `0X` before hexadecimal digits, the digits (saturating at the `long` range); the value and
/// the rest, or `None` when no digit was read.
fn strtol(v: &[u8], radix: u32) -> Option<(i64, &[u8])> {
    let mut i = v.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let negative = v.get(i) == Some(&b'-');
    if matches!(v.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    if radix == 16
        && matches!(v.get(i..i + 2), Some([b'0', b'x' | b'X']))
        && v.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        i += 2;
    }
    let digits = v[i..]
        .iter()
        .take_while(|b| (**b as char).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let mut n: i64 = 0;
    for &b in &v[i..i + digits] {
        let d = i64::from((b as char).to_digit(radix).unwrap_or(0));
        n = n.saturating_mul(i64::from(radix)).saturating_add(d);
    }
    Some((
        if negative { n.saturating_neg() } else { n },
        &v[i + digits..],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_snmpset_reads() {
        // PhysAddress and MacAddress: hexadecimal octets with colons.
        assert_eq!(octets("1x:", "00:11:22"), Some(vec![0, 0x11, 0x22]));
        assert_eq!(octets("1x:", "0:1:2"), Some(vec![0, 1, 2]));
        assert_eq!(octets("1x:", "0x1f:2"), Some(vec![0x1f, 2]));
        // One hexadecimal number, its low octet kept.
        assert_eq!(octets("1x:", "001122"), Some(vec![0x22]));
        // Not hexadecimal, or the wrong separator: the text goes as it is.
        assert_eq!(octets("1x:", "zz"), None);
        assert_eq!(octets("1x:", "00:11:zz"), None);
        assert_eq!(octets("1x:", "00-11"), None);
        // DateAndTime, the first eight octets (no time zone) and all eleven.
        let date = "2d-1d-1d,1d:1d:1d.1d,1a1d:1d";
        assert_eq!(
            octets(date, "2024-1-2,3:4:5.6"),
            Some(vec![0x07, 0xe8, 1, 2, 3, 4, 5, 6])
        );
        assert_eq!(
            octets(date, "2024-12-31,23:59:60.9,+5:30"),
            Some(vec![0x07, 0xe8, 12, 31, 23, 59, 60, 9, b'+', 5, 30])
        );
        assert_eq!(octets(date, "2024"), Some(vec![0x07, 0xe8]));
        // DisplayString: the text, past the length too (the size check says no after).
        assert_eq!(octets("255a", "hi there"), Some(b"hi there".to_vec()));
        assert_eq!(octets("2a", "abcde"), Some(b"abcde".to_vec()));
        // Dotted decimal with a repeat count: InetAddressIPv4-like and a counted list.
        assert_eq!(octets("1d.1d.1d.1d", "10.0.0.1"), Some(vec![10, 0, 0, 1]));
        assert_eq!(octets("*1d.", "1.2.3"), Some(vec![3, 1, 2, 3]));
        // A terminator ends the repeats after a separator; the separator comes first.
        assert_eq!(octets("*1d./1x", "1.2./ff"), Some(vec![2, 1, 2, 0xff]));
        assert_eq!(octets("*1d./1x", "1.2/ff"), None);
        // `t` is not a format net-snmp reads.
        assert_eq!(octets("255t", "text"), None);
        // Negative and signed numbers, as strtol reads them.
        assert_eq!(octets("2d", "-1"), Some(vec![0xff, 0xff]));
        assert_eq!(octets("1d", "+7"), Some(vec![7]));
        // An empty text is no octets; a hint that would read nothing forever is refused.
        assert_eq!(octets("1x:", ""), Some(vec![]));
        assert_eq!(octets("1d,/", "5,"), Some(vec![5]));
        assert_eq!(octets("1d,/", "5,6"), None);
    }
}
