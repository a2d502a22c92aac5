//! Hexdumps for error reports and traces.

use std::fmt::Write as _;

/// `offset: hex  ascii` lines for `bytes[start..end]`, 16 octets a line, offsets absolute.
pub fn dump(bytes: &[u8], start: usize, end: usize) -> String {
    let end = end.min(bytes.len());
    let start = start.min(end);
    let mut out = String::new();
    let mut line = start - start % 16;
    while line < end {
        let _ = write!(out, "{line:06x}  ");
        for i in line..line + 16 {
            match bytes.get(i) {
                Some(b) if i >= start && i < end => {
                    let _ = write!(out, "{b:02x} ");
                }
                _ => out.push_str("   "),
            }
            if i % 16 == 7 {
                out.push(' ');
            }
        }
        out.push(' ');
        let shown = bytes
            .get(start.max(line)..(line + 16).min(end))
            .unwrap_or(&[]);
        out.push_str(&" ".repeat(start.saturating_sub(line)));
        for &c in shown {
            out.push(if c.is_ascii_graphic() || c == b' ' {
                c as char
            } else {
                '.'
            });
        }
        out.push('\n');
        line += 16;
    }
    out
}

/// A dump of the neighbourhood of `offset` (two lines before and after), with a marker line
/// under the octet at `offset`.
pub fn around(bytes: &[u8], offset: usize) -> String {
    let start = offset.saturating_sub(32) & !15;
    let end = (offset + 33).min(bytes.len());
    let mut out = String::new();
    for line in dump(bytes, start, end.max(start)).lines() {
        out.push_str(line);
        out.push('\n');
        let line_start = usize::from_str_radix(&line[..6], 16).unwrap_or(0);
        if offset >= line_start && offset < line_start + 16 {
            let col = 8 + (offset - line_start) * 3 + usize::from(offset - line_start >= 8);
            let _ = writeln!(out, "{}^^ byte {offset}", " ".repeat(col));
        }
    }
    if offset >= bytes.len() {
        let _ = writeln!(
            out,
            "(byte {offset} is past the end: the input has {} octets)",
            bytes.len()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_offset() {
        let bytes: Vec<u8> = (0u8..40).collect();
        let d = around(&bytes, 18);
        assert!(d.contains("000010  10 11 12"), "{d}");
        let marker = d.lines().find(|l| l.contains("^^")).unwrap();
        let data = d.lines().find(|l| l.starts_with("000010")).unwrap();
        let col = marker.find("^^").unwrap();
        assert_eq!(&data[col..col + 2], "12");
        assert!(around(&bytes, 40).contains("past the end"));
    }
}
