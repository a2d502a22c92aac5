//! `snmpc decode`: SNMP messages from hex (arguments, standard input, files) or the UDP
//! datagrams of a capture, printed as text, JSON lines or the TLV-by-TLV trace, each binding
//! written as it is read (a message of a million bindings is never held whole as values).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::mib_command::{load, MibOpts};
use crate::{capture, hexdump, trace, view};
use snmp_smi::names as mibs;

/// `snmpc decode`'s arguments.
#[derive(clap::Args, Debug)]
pub struct DecodeOpts {
    /// Messages as hex (spaces and colons allowed); none: read one per line from stdin
    /// (lines starting with `#` are comments).
    pub hex: Vec<String>,
    /// Read one message from each FILE: hex, wrapped across lines as it likes, lines
    /// starting with `#` comments (as corpus/malformed/*.hex are written); repeat for more.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["hex", "pcap"])]
    pub file: Vec<PathBuf>,
    /// Read the UDP datagrams of a pcap or pcapng capture instead.
    #[arg(long, value_name = "FILE")]
    pub pcap: Option<PathBuf>,
    /// Only datagrams to or from this UDP port (with --pcap; repeat for more). Without it,
    /// every UDP datagram is read as SNMP; either way the frames left out are counted.
    #[arg(long)]
    pub port: Vec<u16>,
    /// One JSON object per line per message.
    #[arg(long, conflicts_with = "trace")]
    pub json: bool,
    /// Every tag, length and component with its offset, path and octets.
    #[arg(long)]
    pub trace: bool,
    /// Name OIDs from the MIB modules of these directories (`IF-MIB::ifDescr.3`); repeat,
    /// or separate with `:`.
    #[arg(
        long = "mib-dir",
        short = 'M',
        value_name = "DIR",
        allow_hyphen_values = true
    )]
    pub mib_dir: Vec<PathBuf>,
    /// SNMPv3: the USM user whose messages to authenticate and decrypt (net-snmp's -u).
    #[arg(long, short = 'u', value_name = "NAME")]
    pub user: Option<String>,
    /// Its authentication protocol: MD5, SHA, SHA-224, SHA-256, SHA-384 or SHA-512.
    #[arg(long, short = 'a', value_name = "PROTOCOL", requires_all = ["user", "auth_password"])]
    pub auth_protocol: Option<String>,
    /// Its authentication password.
    #[arg(long, short = 'A', value_name = "PASSWORD", requires = "auth_protocol")]
    pub auth_password: Option<String>,
    /// Its privacy protocol: DES, AES, AES-192, AES-256 (short keys extended as
    /// draft-blumenthal-aes-usm-04 says, as net-snmp does), AES192C or AES256C (as Cisco does).
    #[arg(long, short = 'x', value_name = "PROTOCOL", requires_all = ["auth_protocol", "priv_password"])]
    pub priv_protocol: Option<String>,
    /// Its privacy password.
    #[arg(long, short = 'X', value_name = "PASSWORD", requires = "priv_protocol")]
    pub priv_password: Option<String>,
}

/// `snmpc decode`: reads the inputs `opts` names and prints each message.
pub fn run(opts: DecodeOpts) -> ExitCode {
    let DecodeOpts {
        hex,
        file,
        pcap,
        port,
        json,
        trace,
        mib_dir,
        user,
        auth_protocol,
        auth_password,
        priv_protocol,
        priv_password,
    } = opts;
    let passwords = match &user {
        None => None,
        Some(u) => match view::UserPasswords::new(
            u,
            auth_protocol.as_deref().zip(auth_password.as_deref()),
            priv_protocol.as_deref().zip(priv_password.as_deref()),
        ) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("snmpc: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let namer = if mib_dir.is_empty() {
        None
    } else {
        let opts = MibOpts {
            mib_dir,
            strict: Vec::new(),
        };
        match load(&opts, &[]) {
            Ok(m) => Some(m),
            Err(code) => return code,
        }
    };
    let hex = match hex_files(&file) {
        Ok(from_files) if !file.is_empty() => from_files,
        Ok(_) => hex,
        Err(e) => {
            eprintln!("snmpc: {e}");
            return ExitCode::from(2);
        }
    };
    decode(
        hex,
        pcap,
        port,
        json,
        trace,
        namer.as_ref(),
        passwords.as_ref(),
    )
}

/// The messages of `files`, one a file: its lines but `#` comments, joined.
fn hex_files(files: &[PathBuf]) -> Result<Vec<String>, String> {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            let comment = |l: &str| l.trim_start().starts_with('#');
            if !text.lines().any(comment) {
                // No comment to take out: the text as it is (a large capture is not copied).
                return Ok(text);
            }
            let lines = text.lines().filter(|l| !comment(l));
            Ok(lines.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let text = s.trim();
    let text = text.strip_prefix("0x").unwrap_or(text);
    if let Some((at, bad)) = text
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_hexdigit() || c.is_whitespace() || *c == ':'))
    {
        return Err(format!("not hex: {bad:?} at character {}", at + 1));
    }
    // Every character is a hex digit, white space or `:` (checked above): the digits' values,
    // paired into octets as they come, with no copy of the text.
    let mut digits = text.bytes().filter_map(|b| (b as char).to_digit(16));
    let mut octets = Vec::with_capacity(text.len() / 2);
    let mut count = 0usize;
    while let Some(high) = digits.next() {
        count += 1;
        let Some(low) = digits.next() else { break };
        count += 1;
        octets.push((high << 4 | low) as u8);
    }
    if !count.is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({count})"));
    }
    Ok(octets)
}

/// A message to decode: its frame number, and its octets or what is wrong with the input.
type Input = (usize, Result<Vec<u8>, String>);

/// The datagrams of the capture at `path` to or from `ports` (all UDP when none), and an
/// input error for each frame that cannot be decoded whole (cut short, the capture ending
/// inside it, fragments that never completed). A summary of every frame goes to stderr.
fn pcap_inputs(path: &std::path::Path, ports: &[u16]) -> Result<Vec<Input>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let pcapng = bytes.starts_with(&[0x0a, 0x0d, 0x0d, 0x0a]);
    let capture = capture::read_bytes(&bytes).map_err(|e| e.to_string())?;
    drop(bytes);
    let wanted = |p: (u16, u16)| ports.is_empty() || ports.contains(&p.0) || ports.contains(&p.1);
    let mut inputs = Vec::new();
    let (mut snmp, mut cut, mut malformed, mut other_ports) = (0, 0, 0, 0);
    for item in capture.items {
        match item {
            capture::Item::Datagram(d) if wanted(d.ports) => {
                snmp += 1;
                inputs.push((d.frame, Ok(d.payload)));
            }
            capture::Item::Cut {
                frame,
                ports,
                captured,
                original,
            } if wanted(ports) => {
                cut += 1;
                let why = format!(
                    "cut short by the capture (its snap length): {captured} of {original} octets captured"
                );
                inputs.push((frame, Err(why)));
            }
            capture::Item::Malformed { frame, ports, why } if wanted(ports) => {
                malformed += 1;
                inputs.push((
                    frame,
                    Err(format!("a UDP frame whose headers are wrong: {why}")),
                ));
            }
            _ => other_ports += 1,
        }
    }
    for (first, fragments) in &capture.incomplete {
        let why = format!("an IP datagram whose {fragments} fragment(s) never completed");
        inputs.push((*first, Err(why)));
    }
    for s in &capture.skipped {
        let why = format!(
            "before this frame, octets {}..{} of the file could not be read ({}) and were \
             skipped; reading went on at the next {} that reads whole",
            s.offset,
            s.offset + s.octets,
            s.why,
            if pcapng { "block" } else { "record" }
        );
        inputs.push((s.after_frame + 1, Err(why)));
    }
    for (frame, first) in &capture.overlaps {
        eprintln!(
            "{}: frame {frame}: an IP fragment overlaps an earlier fragment of the datagram \
             begun at frame {first} with other octets; the later octets are used",
            path.display()
        );
    }
    if let Some((frame, why)) = &capture.ends_inside {
        inputs.push((
            *frame,
            Err(format!("the capture ends inside this frame ({why})")),
        ));
    }
    // In frame order; what went wrong before a frame is said before it.
    inputs.sort_by_key(|(frame, input)| (*frame, input.is_ok()));
    let mut parts = vec![format!("{snmp} SNMP")];
    for (n, what) in [
        (capture.fragments, "IP fragments reassembled"),
        (cut, "cut short"),
        (malformed, "UDP with wrong headers"),
        (capture.incomplete.len(), "incomplete fragmented datagrams"),
        (
            capture.overlaps.len(),
            "IP fragments overlapping with other octets",
        ),
        (
            capture.skipped.iter().map(|s| s.octets).sum(),
            "octets unreadable and skipped",
        ),
        (other_ports, "UDP on other ports"),
        (capture.not_udp, "not UDP"),
        (
            usize::from(capture.ends_inside.is_some()),
            "cut off inside the file",
        ),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    for (link, n) in &capture.unread_links {
        parts.push(format!(
            "{n} on a link not read (link type {}, {link:?})",
            u32::from(*link)
        ));
    }
    eprintln!(
        "{}: {} frames: {}",
        path.display(),
        capture.frames,
        parts.join(", ")
    );
    Ok(inputs)
}

fn decode(
    hex: Vec<String>,
    pcap: Option<PathBuf>,
    port: Vec<u16>,
    json: bool,
    trace_mode: bool,
    mibs: Option<&mibs::Mibs>,
    passwords: Option<&view::UserPasswords>,
) -> ExitCode {
    let namer = |dotted: &str| -> Option<String> {
        let arcs: Option<Vec<u32>> = dotted.split('.').map(|a| a.parse().ok()).collect();
        mibs?.oid_to_name(&arcs?, Default::default())
    };
    // (frame, octets or a problem with the input itself)
    let mut inputs: Vec<Input> = Vec::new();
    if let Some(path) = pcap {
        match pcap_inputs(&path, &port) {
            Ok(from_capture) => inputs = from_capture,
            Err(e) => {
                eprintln!("snmpc: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    } else if hex.is_empty() {
        for (n, line) in std::io::stdin().lock().lines().enumerate() {
            match line {
                Ok(l) if l.trim().is_empty() || l.trim_start().starts_with('#') => {}
                Ok(l) => inputs.push((n + 1, parse_hex(&l))),
                Err(e) => {
                    eprintln!("snmpc: standard input: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        if inputs.is_empty() {
            eprintln!("snmpc: no input: no message on standard input (hex, one a line)");
            return ExitCode::from(2);
        }
    } else {
        // Each text dropped once read into octets.
        let read = hex.into_iter().enumerate();
        inputs.extend(read.map(|(n, h)| (n + 1, parse_hex(&h))));
    }

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0;
    for (frame, bytes) in inputs {
        let bytes = match bytes {
            Ok(b) => b,
            Err(e) => {
                failed += 1;
                if json {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::json!({"frame": frame, "error": e, "offset": 0, "path": ""})
                    );
                } else {
                    let _ = writeln!(out, "frame {frame}: input error: {e}");
                }
                continue;
            }
        };
        if trace_mode {
            let _ = writeln!(
                out,
                "frame {frame}: {} octets\n{}",
                bytes.len(),
                trace::trace(&bytes)
            );
            if view::Decoded::new(&bytes).is_err() {
                failed += 1;
            }
            continue;
        }
        // The bindings are written one at a time as they are read again, never held all.
        let namer: Option<view::Namer<'_>> = mibs.map(|_| &namer as view::Namer<'_>);
        let written = match view::Decoded::new(&bytes) {
            Ok(mut decoded) => {
                if let Some(c) = passwords {
                    decoded.unlock(c);
                }
                match json {
                    true => decoded.write_json(frame, namer, &mut out),
                    false => decoded.write_text(frame, namer, &mut out),
                }
            }
            Err(f) => {
                failed += 1;
                match json {
                    true => writeln!(out, "{}", f.to_json(frame)),
                    false => writeln!(
                        out,
                        "frame {frame}: error {}\n{}",
                        f.error,
                        hexdump::around(&bytes, f.offset)
                    ),
                }
            }
        };
        if written.is_err() {
            // Standard output closed (a pipe into `head`): nothing more to write.
            break;
        }
    }
    if failed > 0 {
        eprintln!("snmpc: {failed} message(s) did not decode");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
