//! The defaults net-snmp's tools take from `snmp.conf` (`defVersion`, `defCommunity`,
//! `defSecurityName`, `defSecurityLevel`, `defAuthType`, `defAuthPassphrase`, `defPrivType`,
//! `defPrivPassphrase`, `defPassphrase`, `defContext`, `timeout`, `retries`), read from the
//! same files: `snmp.conf` then `snmp.local.conf` in each directory of `SNMPCONFPATH`
//! (default `/etc/snmp`, `/usr/share/snmp`, `~/.snmp`), a later value over an earlier one; a
//! flag on the command line over both. `mibs` and `mibdirs` are kept for
//! [`crate::miblist`], a line starting with `+` (`-`) after (before) the ones before it, as
//! net-snmp joins them. Lines given on the command line (`-Y "TOKEN VALUE"`, `--TOKEN=VALUE`:
//! [`SnmpConf::set_command_line`]) come after the files' lines.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use crate::ask::AgentOpts;

/// The tokens snmpc reads, in lower case: the others of net-snmp's snmp.conf change nothing
/// here.
const READ: [&str; 14] = [
    "defversion",
    "defcommunity",
    "defsecurityname",
    "defsecuritylevel",
    "defauthtype",
    "defauthpassphrase",
    "defprivtype",
    "defprivpassphrase",
    "defpassphrase",
    "defcontext",
    "timeout",
    "retries",
    "mibs",
    "mibdirs",
];

/// The lines the command line gave ([`SnmpConf::set_command_line`]).
static COMMAND_LINE: OnceLock<Vec<String>> = OnceLock::new();

/// The directories net-snmp reads its configuration files from, in order: `SNMPCONFPATH`'s,
/// else `/etc/snmp`, `/usr/share/snmp` and `~/.snmp`.
pub fn conf_dirs() -> Vec<PathBuf> {
    match std::env::var_os("SNMPCONFPATH") {
        Some(path) => std::env::split_paths(&path).collect(),
        None => {
            let mut dirs = vec![PathBuf::from("/etc/snmp"), PathBuf::from("/usr/share/snmp")];
            dirs.extend(std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".snmp")));
            dirs
        }
    }
}

/// The directives read, by lower-case name: the last value of each.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SnmpConf {
    values: HashMap<String, String>,
}

impl SnmpConf {
    /// The files net-snmp reads, as far as they are there.
    pub fn read() -> SnmpConf {
        let mut conf = SnmpConf::default();
        for dir in conf_dirs() {
            for name in ["snmp.conf", "snmp.local.conf"] {
                if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
                    conf.add(&text);
                }
            }
        }
        for line in COMMAND_LINE.get().into_iter().flatten() {
            conf.add(line);
        }
        conf
    }

    /// Lines of snmp.conf given on the command line (net-snmp's `-Y "TOKEN VALUE"`, where
    /// `TOKEN=VALUE` is read too), read by every [`SnmpConf::read`] after the files. Says
    /// what is wrong with the ones snmpc does not read (they are kept, and change nothing).
    ///
    /// ```
    /// use snmpc::snmpconf::SnmpConf;
    /// let unread = SnmpConf::set_command_line(&["defCommunity=private".into(), "dumpPacket yes".into()]);
    /// assert_eq!(SnmpConf::read().get("defcommunity"), Some("private"));
    /// assert_eq!(unread.len(), 1);
    /// ```
    pub fn set_command_line(lines: &[String]) -> Vec<String> {
        let lines: Vec<String> = lines.iter().map(|l| command_line(l)).collect();
        let unread = lines
            .iter()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|t| !READ.contains(&t.to_ascii_lowercase().as_str()))
            .map(|t| format!("-Y {t}: a snmp.conf token snmpc does not read; it changes nothing"))
            .collect();
        let _ = COMMAND_LINE.set(lines);
        unread
    }

    /// The directives of one file's `text` (`#` comments; a directive, white space, its
    /// value).
    pub fn add(&mut self, text: &str) {
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(char::is_whitespace)
                .map_or((line, ""), |(k, v)| (k, v.trim()));
            let key = key.to_ascii_lowercase();
            let value = match (
                key.as_str(),
                value.as_bytes().first(),
                self.values.get(&key),
            ) {
                ("mibs" | "mibdirs", Some(b'+'), Some(old)) => format!("{old}:{}", &value[1..]),
                ("mibs" | "mibdirs", Some(b'-'), Some(old)) => format!("{}:{old}", &value[1..]),
                _ => value.to_string(),
            };
            self.values.insert(key, value);
        }
    }

    /// The value of the directive `key` (any case), the last one given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .get(&key.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// `opts` with the defaults for what the command line left out (`given(id)`: whether
    /// the option of clap's id `id` was on the command line).
    pub fn apply(&self, opts: &mut AgentOpts, given: &dyn Fn(&str) -> bool) {
        if !given("version") {
            if let Some(v) = self
                .get("defVersion")
                .filter(|v| ["1", "2c", "3"].contains(v))
            {
                opts.version = v.to_string();
            }
        }
        if !given("community") {
            if let Some(c) = self.get("defCommunity") {
                opts.community = c.to_string();
            }
        }
        if !given("timeout") {
            if let Some(t) = self.get("timeout").and_then(|t| t.parse().ok()) {
                opts.timeout = t;
            }
        }
        if !given("retries") {
            if let Some(r) = self.get("retries").and_then(|r| r.parse().ok()) {
                opts.retries = r;
            }
        }
        let either = |specific: &str| self.get(specific).or_else(|| self.get("defPassphrase"));
        let fill = |field: &mut Option<String>, value: Option<&str>| {
            if field.is_none() {
                *field = value.map(str::to_string);
            }
        };
        fill(&mut opts.usm.user, self.get("defSecurityName"));
        fill(&mut opts.level, self.get("defSecurityLevel"));
        fill(&mut opts.context, self.get("defContext"));
        fill(&mut opts.usm.auth_protocol, self.get("defAuthType"));
        fill(&mut opts.usm.priv_protocol, self.get("defPrivType"));
        if opts.usm.auth_protocol.is_some() {
            fill(&mut opts.usm.auth_password, either("defAuthPassphrase"));
        }
        if opts.usm.priv_protocol.is_some() {
            fill(&mut opts.usm.priv_password, either("defPrivPassphrase"));
        }
    }
}

/// A command line's snmp.conf line with its token and value apart: `TOKEN=VALUE` as
/// `TOKEN VALUE` (net-snmp reads both there).
fn command_line(line: &str) -> String {
    let line = line.trim();
    match line.split_once(|c: char| c == '=' || c.is_whitespace()) {
        Some((token, value)) => format!("{token} {}", value.trim()),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        agent: AgentOpts,
    }

    /// A command line's line: `TOKEN VALUE` or `TOKEN=VALUE`, the value's own `=` kept.
    #[test]
    fn command_line_lines_read_with_a_space_or_an_equals_sign() {
        assert_eq!(command_line(" defVersion 2c "), "defVersion 2c");
        assert_eq!(command_line("defVersion=2c"), "defVersion 2c");
        assert_eq!(command_line("defCommunity a=b"), "defCommunity a=b");
        assert_eq!(command_line("mibs=+IF-MIB"), "mibs +IF-MIB");
        assert_eq!(command_line("alone"), "alone");
    }

    #[test]
    fn defaults_from_the_file_flags_over_them() {
        let mut conf = SnmpConf::default();
        conf.add(
            "# a comment\ndefVersion 3\ndefCommunity private\nDEFSECURITYNAME ops\n\
             defSecurityLevel authPriv\ndefAuthType SHA\ndefPrivType AES\n\
             defPassphrase both-keys\ndefPrivPassphrase priv-key\ntimeout 3\nretries 0\n",
        );
        let mut opts = Cli::parse_from(["t", "-c", "public", "127.0.0.1"]).agent;
        conf.apply(&mut opts, &|id| id == "community");
        assert_eq!(opts.version, "3");
        assert_eq!(opts.community, "public");
        assert_eq!(opts.usm.user.as_deref(), Some("ops"));
        assert_eq!(opts.level.as_deref(), Some("authPriv"));
        assert_eq!(opts.usm.auth_password.as_deref(), Some("both-keys"));
        assert_eq!(opts.usm.priv_password.as_deref(), Some("priv-key"));
        assert_eq!((opts.timeout, opts.retries), (3.0, 0));
        // A later file's value over an earlier one's; no file, no change.
        conf.add("defVersion 1\n");
        let mut opts = Cli::parse_from(["t", "127.0.0.1"]).agent;
        conf.apply(&mut opts, &|_| false);
        assert_eq!(opts.version, "1");
        let mut opts = Cli::parse_from(["t", "127.0.0.1"]).agent;
        SnmpConf::default().apply(&mut opts, &|_| false);
        assert_eq!(
            (opts.version.as_str(), opts.community.as_str()),
            ("2c", "public")
        );
    }
}
