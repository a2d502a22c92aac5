//! Lines of net-snmp's configuration files (snmpd.conf, snmptrapd.conf) as the tools that
//! read them share: a line's [`words`], and a `createUser` line's user ([`create_user`]).
//!
//! ```
//! use snmp_client::conf::{create_user, words};
//!
//! let w = words("createUser -e 0x8000000001 alice SHA \"alice pass\" AES # a comment");
//! assert_eq!(w, ["createUser", "-e", "0x8000000001", "alice", "SHA", "alice pass", "AES"]);
//! let (user, engine) = create_user(&w[1..])?;
//! assert_eq!(user.name(), b"alice");
//! assert_eq!(engine.as_deref(), Some(&[0x80, 0, 0, 0, 1][..]));
//! # Ok::<(), String>(())
//! ```

use crate::{AuthProtocol, PrivProtocol, UsmUser};

/// A line's words: spaces separate them, double quotes hold spaces, `#` starts a comment.
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            '#' => break,
            c if c.is_whitespace() => {
                chars.next();
            }
            '"' => {
                chars.next();
                out.push(chars.by_ref().take_while(|&c| c != '"').collect());
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace()) {
                    word.push(c);
                    chars.next();
                }
                out.push(word);
            }
        }
    }
    out
}

/// An engine ID in hex (`0x` allowed): 1 to 32 octets.
pub fn hex_engine_id(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.trim_start_matches("0x").trim_start_matches("0X");
    let ok = !digits.is_empty()
        && digits.len().is_multiple_of(2)
        && digits.len() <= 64
        && digits.bytes().all(|b| b.is_ascii_hexdigit());
    if !ok {
        return Err(format!(
            "-e {text}: expected 1 to 32 octets in hex, as 0x80001f8803..."
        ));
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("-e {text}: {e}"))
}

/// `createUser [-e ENGINEID] NAME [AUTH-PROTOCOL AUTH-PASS [PRIV-PROTOCOL [PRIV-PASS]]]`'s
/// arguments (net-snmp's syntax: a missing privacy password is the authentication one) as a
/// user and the engine of its `-e`.
pub fn create_user(args: &[String]) -> Result<(UsmUser, Option<Vec<u8>>), String> {
    let (engine, rest) = match args {
        [flag, id, rest @ ..] if flag == "-e" => (Some(hex_engine_id(id)?), rest),
        [flag, ..] if flag.starts_with('-') => {
            return Err(format!("createUser {flag}: only -e ENGINEID is supported"))
        }
        _ => (None, args),
    };
    let (name, auth, privacy) = match rest {
        [name] => (name, None, None),
        [name, a, ap] => (name, Some((a, ap)), None),
        [name, a, ap, p] => (name, Some((a, ap)), Some((p, ap))),
        [name, a, ap, p, pp] => (name, Some((a, ap)), Some((p, pp))),
        _ => {
            return Err(
                "createUser: expected [-e ENGINEID] NAME [AUTH PASS [PRIV [PASS]]]".to_string(),
            )
        }
    };
    let auth = match auth {
        Some((p, pw)) => Some((
            AuthProtocol::from_name(p)
                .map_err(|_| format!("createUser {name}: unknown authentication protocol {p}"))?,
            pw.as_bytes(),
        )),
        None => None,
    };
    let privacy = match privacy {
        Some((p, pw)) => Some((
            PrivProtocol::from_name(p)
                .map_err(|_| format!("createUser {name}: unknown privacy protocol {p}"))?,
            pw.as_bytes(),
        )),
        None => None,
    };
    let user = UsmUser::new(name, auth, privacy).map_err(|e| format!("createUser {name}: {e}"))?;
    Ok((user, engine))
}
