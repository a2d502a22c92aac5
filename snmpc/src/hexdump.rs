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

/// `bytes` as net-snmp's `-d` dumps a packet: `0000: 30 29 02 01  01 04 06 70  ...    0)....`,
/// a decimal offset, sixteen octets a line in groups of four, then the printable ones.
pub fn net_snmp(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (k, line) in bytes.chunks(16).enumerate() {
        let _ = write!(out, "{:04}: ", k * 16);
        for i in 0..16 {
            match line.get(i) {
                Some(b) => {
                    let _ = write!(out, "{b:02X} ");
                }
                None => out.push_str("   "),
            }
            if i % 4 == 3 {
                out.push(' ');
            }
        }
        out.push_str("  ");
        for &c in line {
            out.push(if c.is_ascii_graphic() || c == b' ' {
                c as char
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_as_net_snmp_dumps_them() {
        // snmpget -d's request for sysName.0 (net-snmp 5.9.3).
        let sent = [
            0x30, 0x29, 0x02, 0x01, 0x01, 0x04, 0x06, 0x70, 0x75, 0x62, 0x6C, 0x69, 0x63, 0xA0,
            0x1C, 0x02, 0x04, 0x71, 0x89, 0xFA, 0x8A, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00, 0x30,
            0x0E, 0x30, 0x0C, 0x06, 0x08, 0x2B, 0x06, 0x01, 0x02, 0x01, 0x01, 0x05, 0x00, 0x05,
            0x00,
        ];
        assert_eq!(
            net_snmp(&sent),
            "0000: 30 29 02 01  01 04 06 70  75 62 6C 69  63 A0 1C 02    0).....public...\n\
             0016: 04 71 89 FA  8A 02 01 00  02 01 00 30  0E 30 0C 06    .q.........0.0..\n\
             0032: 08 2B 06 01  02 01 01 05  00 05 00                    .+.........\n"
        );
    }

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
