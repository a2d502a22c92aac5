//! snmptrapd's command line, for snmpc run through a link named `snmptrapd`: the options
//! `snmpc listen` shares with snmptrapd (`-c FILE`, `-C`, `-f`, `-F`, `-L`, `-m`, `-M`, `-n`,
//! `-O`, `-p`, `--TOKEN=VALUE`, the address) kept as they are; those that are snmptrapd's
//! alone turned into `listen`'s or set aside, each said once on stderr when it changes
//! nothing: `listen`'s `-a`, `-A`, `-x`, `-X` and `-e` are the SNMPv3 user's, while
//! snmptrapd's users come from snmptrapd.conf.
//!
//! ```
//! use std::ffi::OsString;
//! let args = ["snmptrapd", "listen", "--snmptrapd", "-f", "-Lo", "-a", "-t", "-u", "x.pid", "1162"];
//! let (listen, said) = snmpc::trapd_cli::as_listen(args.map(OsString::from).to_vec());
//! let listen: Vec<_> = listen.iter().map(|a| a.to_str().unwrap()).collect();
//! assert_eq!(
//!     listen,
//!     ["snmptrapd", "listen", "--snmptrapd", "-f", "-Lo", "--ignore-auth-failure", "-p", "x.pid", "1162"]
//! );
//! assert!(said.is_empty(), "{said:?}");
//! ```

use std::ffi::OsString;

/// snmptrapd's options that take a value (in the next argument when not written with them).
const WITH_VALUE: &str = "cFmMOpuxIgS";

/// What becomes of one of snmptrapd's options.
enum Becomes {
    /// Given to `listen` as it is.
    Kept,
    /// Given to `listen` as this option.
    Renamed(&'static str),
    /// Nothing to do here (`-f`: snmpc stays in the foreground anyway).
    Dropped,
    /// Not done here: said on stderr.
    Unsupported(&'static str),
}

/// What snmptrapd's option `letter` becomes.
fn becomes(letter: char) -> Becomes {
    match letter {
        'c' | 'C' | 'f' | 'F' | 'L' | 'm' | 'M' | 'n' | 'O' | 'p' | 'h' | 'V' => Becomes::Kept,
        'a' => Becomes::Renamed("--ignore-auth-failure"),
        'u' => Becomes::Renamed("-p"),
        'v' => Becomes::Renamed("-V"),
        // -A appends to the log file (`-Lf` always does); -t, -X and -x: no syslog, no AgentX
        // (snmpc uses neither); -q: quick print, kept by -O.
        'A' | 't' | 'X' | 'x' | 'q' => Becomes::Dropped,
        'd' => Becomes::Unsupported("-d (packet dumps) is not supported: packets are not dumped"),
        'D' => Becomes::Unsupported("-D (debug tokens) is not supported: no debug output"),
        'e' => Becomes::Unsupported("-e (event numbers) is not supported"),
        'H' => Becomes::Unsupported("-H (the configuration directives) is not supported"),
        'I' | 'g' | 'S' => Becomes::Unsupported(
            "-I, -g and -S (init modules, group, syslog facility) are not supported",
        ),
        _ => Becomes::Kept,
    }
}

/// `args` (`snmptrapd listen --snmptrapd ...`, snmptrapd's options after the first three)
/// as `snmpc listen` takes them, and what was said about the options set aside.
pub fn as_listen(args: Vec<OsString>) -> (Vec<OsString>, Vec<String>) {
    let mut out: Vec<OsString> = Vec::with_capacity(args.len());
    let mut said = Vec::new();
    let mut args = args.into_iter();
    out.extend(args.by_ref().take(3));
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str().filter(|t| t.len() > 1 && t.starts_with('-')) else {
            out.push(arg);
            continue;
        };
        if text.starts_with("--") {
            out.push(arg);
            continue;
        }
        // A cluster of letters (`-fC`), the last one may take a value (`-Lo`, `-c FILE`).
        let letters: Vec<char> = text[1..].chars().collect();
        for (k, &letter) in letters.iter().enumerate() {
            let attached: String = letters[k + 1..].iter().collect();
            // -D's tokens and -L's flags are written with them (`-Dtrap`, `-Lo`); another
            // option's value may be too (`-On`), else it is the next argument.
            let written_with = letter == 'D' || letter == 'L';
            let value = match (written_with, WITH_VALUE.contains(letter)) {
                (true, _) => Some(attached),
                (false, true) if !attached.is_empty() => Some(attached),
                (false, true) => args.next().and_then(|v| v.into_string().ok()),
                (false, false) => None,
            };
            let last = value.is_some();
            match becomes(letter) {
                Becomes::Kept if written_with => {
                    out.push(format!("-{letter}{}", value.unwrap_or_default()).into())
                }
                Becomes::Kept => {
                    out.push(format!("-{letter}").into());
                    out.extend(value.map(OsString::from));
                }
                Becomes::Renamed(to) => {
                    out.push(to.into());
                    out.extend(value.map(OsString::from));
                }
                Becomes::Dropped => {}
                Becomes::Unsupported(why) => {
                    if !said.iter().any(|s: &String| s == why) {
                        said.push(why.to_string());
                    }
                }
            }
            if last {
                break;
            }
        }
    }
    (out, said)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listen(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let all = ["snmptrapd", "listen", "--snmptrapd"]
            .iter()
            .chain(args)
            .map(OsString::from)
            .collect();
        let (out, said) = as_listen(all);
        let out = out[3..]
            .iter()
            .map(|a| a.to_str().unwrap().to_string())
            .collect();
        (out, said)
    }

    #[test]
    fn snmptrapds_options_become_listens() {
        let (out, said) = listen(&[
            "-fC",
            "-Lo",
            "-c",
            "conf",
            "-Fx",
            "-On",
            "-x",
            "tcp:localhost:705",
            "-X",
            "-A",
            "udp:1162",
        ]);
        assert_eq!(
            out,
            ["-f", "-C", "-Lo", "-c", "conf", "-F", "x", "-O", "n", "udp:1162"]
        );
        assert!(said.is_empty(), "{said:?}");
        // Debug and dump flags are said once each, and change nothing else.
        let (out, said) = listen(&["-d", "-Dtrap,snmp", "-D", "-Lf", "log.txt", "-p", "pid"]);
        assert_eq!(out, ["-Lf", "log.txt", "-p", "pid"]);
        assert_eq!(said.len(), 2, "{said:?}");
        // snmptrapd's -a, -u FILE and -v.
        let (out, _) = listen(&["-a", "-u", "f.pid", "-v", "--authCommunity=log public"]);
        assert_eq!(
            out,
            [
                "--ignore-auth-failure",
                "-p",
                "f.pid",
                "-V",
                "--authCommunity=log public"
            ]
        );
    }
}
