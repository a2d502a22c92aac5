//! `snmpc get` and `snmpc walk`: asking an agent with snmp-client's session, with net-snmp's
//! flags (`-v 1|2c|3 -c COMMUNITY -u USER -a PROTO -A PASS -x PROTO -X PASS -t SECONDS -r N`),
//! printing `OID = TYPE: value` lines as net-snmp's tools do.

use std::net::SocketAddr;
use std::time::Duration;

use snmp_ber::OidBuf;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, Options, UsmUser};

/// Who to ask, and as whom. Its `Debug` shows neither the community nor the passwords.
#[derive(Clone, clap::Args)]
pub struct AgentOpts {
    /// The agent: `HOST` or `HOST:PORT` (port 161 when not given).
    pub agent: String,
    /// SNMP version: 1, 2c or 3 (`2C` too, as net-snmp's tools take it).
    #[arg(short = 'v', long = "snmp-version", default_value = "2c", value_parser = snmp_version)]
    pub version: String,
    /// The community (v1, v2c).
    #[arg(short = 'c', long, default_value = "public")]
    pub community: String,
    /// The USM user (v3) and its protocols and passwords.
    #[command(flatten)]
    pub usm: UserOpts,
    /// The security level (v3): noAuthNoPriv, authNoPriv or authPriv (net-snmp's aliases
    /// too: noauth/nanp/1, auth/anp/2, priv/ap/3). Without it, the level follows from the
    /// protocols given.
    #[arg(short = 'l', long = "sec-level", value_name = "LEVEL")]
    pub level: Option<String>,
    /// The engine ID (v3, hex, `0x` allowed): the agent's, skipping discovery (`get`,
    /// `walk`...), or this sender's own for `trap` (the receiver knows the user under it).
    #[arg(short = 'e', long = "engine-id", value_name = "HEX")]
    pub engine_id: Option<String>,
    /// The context (v3's contextName; default the empty, default context).
    #[arg(short = 'n', long = "context", value_name = "CONTEXT")]
    pub context: Option<String>,
    /// The context engine ID (v3's contextEngineID, hex; default the agent's own engine).
    #[arg(short = 'E', long = "context-engine-id", value_name = "HEX")]
    pub context_engine_id: Option<String>,
    /// Seconds to wait for each answer (more than 0).
    #[arg(short = 't', long, default_value_t = 1.0, value_parser = timeout_seconds, allow_hyphen_values = true)]
    pub timeout: f64,
    /// How many times a request is sent again.
    #[arg(short = 'r', long, default_value_t = 2, allow_hyphen_values = true)]
    pub retries: u32,
    /// `-M`, `-m`, `-O`.
    #[command(flatten)]
    pub mibs: crate::miblist::MibOptions,
    /// One JSON object a binding, a line each: `oid`, `type` and `value` as `snmpc decode
    /// --json` shows them, plus `name` and `text` (the value as printed under `-O`); `table`:
    /// a line a row (`index` and a key per column); `status`: one object; `df`: a line a
    /// storage area.
    #[arg(long)]
    pub json: bool,
    /// Input options, as net-snmp's `-I`: `h` prints values without their DISPLAY-HINTs;
    /// `r` sends values to set unchecked against their objects' types and ranges; `b` takes
    /// names as regular expressions (the earliest match); `s SUFFIX` and `S PREFIX` are
    /// written after and before every OID given; `R`, `u` are taken and change nothing
    /// (names are always looked up in every module, as `R` asks).
    #[arg(short = 'I', value_name = "FLAGS", action = clap::ArgAction::Append)]
    pub input: Vec<String>,
    /// Logging options, as net-snmp's `-L` (`e`, `o`, `n`, `f FILE`, `s FACILITY`): accepted;
    /// errors go to stderr.
    #[arg(short = 'L', value_name = "FLAGS", action = clap::ArgAction::Append)]
    pub log: Vec<String>,
    /// Every datagram sent and received dumped in hex on stderr, as net-snmp's `-d`.
    #[arg(short = 'd', long = "dump")]
    pub dump: bool,
    /// snmp.conf lines, as net-snmp's `-Y "TOKEN VALUE"` (and its `--TOKEN=VALUE`): read
    /// after the snmp.conf files, under the flags ([`crate::snmpconf`]).
    #[arg(short = 'Y', value_name = "LINE", action = clap::ArgAction::Append)]
    pub config: Vec<String>,
    /// net-snmp's debugging tokens (`-D`, `-DTOKEN,...`): taken, and said to have no output
    /// here (`-d` dumps every datagram).
    #[arg(
        short = 'D',
        value_name = "TOKENS",
        num_args = 0..=1,
        default_missing_value = "",
        hide = true
    )]
    pub debug: Option<String>,
}

/// net-snmp's application options, `-C`: `n<N>` non-repeaters and `r<N>` max-repetitions
/// (bulkget, bulkwalk, table), `i` the root's own value first (walks) or an index column
/// (table), `p` the count at the end (walks), `I` no GET of the root when the walk found
/// nothing under it (walks); for table also `f<SEP>` fields separated by SEP
/// instead of aligned, `h` the column headers only, `H` no column headers, `l` left-aligned,
/// `b` brief column names, `w<N>` lines at most N wide; for walks `c`, OIDs not checked to
/// increase, `t`, the time the walk took, `T` each request's, and `E END`, where the walk
/// ends; `f` (get, getnext) not asking again without a failed OID; `q` (set) nothing printed.
/// Each command takes only its net-snmp tool's letters ([`letters`]).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AppOpts {
    /// Application options (`-Cn1 -Cr10`, `-Cip`).
    #[arg(short = 'C', value_name = "OPTS")]
    pub app: Vec<String>,
}

/// [`AppOpts`] read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct App {
    /// `-Cn<N>`.
    pub non_repeaters: Option<u32>,
    /// `-Cr<N>`.
    pub max_repetitions: Option<u32>,
    /// `-Ci`.
    pub include_root: bool,
    /// `-Cp`.
    pub print_count: bool,
    /// `-Cf<SEP>` (net-snmp's `-Cf SEP`: the two arguments are joined before parsing).
    pub separator: Option<String>,
    /// `-Ch`.
    pub headers_only: bool,
    /// `-CH`.
    pub no_headers: bool,
    /// `-Cl`.
    pub left_align: bool,
    /// `-Cb` (table): column names without the prefix they share.
    pub brief: bool,
    /// `-Cw<N>` (table): lines at most N wide, the columns split into parts.
    pub max_width: Option<u32>,
    /// `-Cc` (walks): take OIDs that do not increase (an agent that loops is then stopped by
    /// the walk's limits only).
    pub no_check_increasing: bool,
    /// `-Cc N` (table): every column N characters wide, cells cut to N-1.
    pub column_width: Option<u32>,
    /// `-CB` (table): GETNEXT, not GETBULK.
    pub no_bulk: bool,
    /// `-CI` (walks): when nothing is under the root, do not ask for the root itself.
    pub no_root_get: bool,
    /// `-Ct` (walks): the time the walk took, on stderr at its end.
    pub timed: bool,
    /// `-CE END` (walks): the walk ends before the first OID at or past END.
    pub end: Option<String>,
    /// `-CT` (snmpwalk): each line after the time its request took (`0.000342 s: `).
    pub request_times: bool,
    /// `-Cq` (set): nothing printed on success.
    pub quiet: bool,
}

/// The `-C` letters each net-snmp tool takes (as its `-h` lists them); another is refused in
/// its words, as it refuses it.
pub mod letters {
    /// snmpget, snmpgetnext: `f`.
    pub const GET: &str = "f";
    /// snmpbulkget: `n<N>`, `r<N>`.
    pub const BULKGET: &str = "nr";
    /// snmpwalk: `p i I c t T E`.
    pub const WALK: &str = "piIctTE";
    /// snmpbulkwalk: `c i n<N> p r<N>`.
    pub const BULKWALK: &str = "cinpr";
    /// snmptable: `b B c<N> f<S> h H i l r<N> w<N>`.
    pub const TABLE: &str = "bBcfhHilrw";
    /// snmpset: `q`.
    pub const SET: &str = "q";
    /// snmptrap: `i`.
    pub const TRAP: &str = "i";
}

/// A `-C` option not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppOptError {
    /// A letter none of the tools takes (net-snmp's words: `Unknown flag passed to -C: z`).
    UnknownLetter(char),
    /// A letter that takes a number, without one (`-Cr`).
    NoNumber(char),
}

impl std::fmt::Display for AppOptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppOptError::UnknownLetter(c) => write!(f, "Unknown flag passed to -C: {c}"),
            AppOptError::NoNumber(c) => {
                write!(f, "-C{c}: expected a number after `{c}`, as -C{c}10")
            }
        }
    }
}

impl AppOpts {
    /// The options, or the first one not understood or not among `letters` (the tool's:
    /// [`letters`]).
    pub fn parse(&self, letters: &str) -> Result<App, AppOptError> {
        let mut app = App::default();
        for opts in &self.app {
            let mut chars = opts.chars().peekable();
            while let Some(c) = chars.next() {
                if !letters.contains(c) {
                    return Err(AppOptError::UnknownLetter(c));
                }
                let digit_next = chars.peek().is_some_and(char::is_ascii_digit);
                let mut number = || {
                    let mut digits = String::new();
                    while let Some(d) = chars.next_if(char::is_ascii_digit) {
                        digits.push(d);
                    }
                    digits.parse::<u32>().map_err(|_| AppOptError::NoNumber(c))
                };
                match c {
                    'n' => app.non_repeaters = Some(number()?),
                    'r' => app.max_repetitions = Some(number()?),
                    'i' => app.include_root = true,
                    'p' => app.print_count = true,
                    'h' => app.headers_only = true,
                    'H' => app.no_headers = true,
                    'l' => app.left_align = true,
                    'b' => app.brief = true,
                    'w' => app.max_width = Some(number()?.max(1)),
                    'c' if digit_next => app.column_width = Some(number()?.max(2)),
                    'B' => app.no_bulk = true,
                    'c' => app.no_check_increasing = true,
                    'I' => app.no_root_get = true,
                    't' => app.timed = true,
                    'T' => app.request_times = true,
                    'q' => app.quiet = true,
                    'E' => app.end = Some(chars.by_ref().collect()),
                    'f' => {
                        app.separator = Some(chars.by_ref().collect());
                    }
                    other => {
                        return Err(AppOptError::UnknownLetter(other));
                    }
                }
            }
        }
        Ok(app)
    }
}

/// An SNMPv3 user as net-snmp's tools take one: `-u NAME` with `-a PROTO -A PASS` and
/// `-x PROTO -X PASS` (the agent commands, `listen`, `simulate`). Its `Debug` hides the
/// passwords.
#[derive(Clone, Default, clap::Args)]
pub struct UserOpts {
    /// The USM user (v3).
    #[arg(short = 'u', long, value_name = "NAME")]
    pub user: Option<String>,
    /// Its authentication protocol: MD5, SHA, SHA-224, SHA-256, SHA-384 or SHA-512.
    #[arg(short = 'a', long, value_name = "PROTOCOL", requires = "auth_password")]
    pub auth_protocol: Option<String>,
    /// Its authentication password.
    #[arg(short = 'A', long, value_name = "PASSWORD", requires = "auth_protocol")]
    pub auth_password: Option<String>,
    /// Its privacy protocol: DES, AES, AES-192, AES-256 (short keys extended as
    /// draft-blumenthal-aes-usm-04 says, as net-snmp does), AES192C or AES256C (as Cisco does).
    #[arg(short = 'x', long, value_name = "PROTOCOL", requires = "priv_password")]
    pub priv_protocol: Option<String>,
    /// Its privacy password.
    #[arg(short = 'X', long, value_name = "PASSWORD", requires = "priv_protocol")]
    pub priv_password: Option<String>,
}

impl std::fmt::Debug for UserOpts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = |s: &Option<String>| s.as_ref().map(|_| "(hidden)");
        f.debug_struct("UserOpts")
            .field("user", &self.user)
            .field("auth_protocol", &self.auth_protocol)
            .field("auth_password", &hidden(&self.auth_password))
            .field("priv_protocol", &self.priv_protocol)
            .field("priv_password", &hidden(&self.priv_password))
            .finish()
    }
}

impl UserOpts {
    /// The user, when `-u` names one, or why not (protocols without a user are refused,
    /// never ignored).
    pub fn user(&self) -> Result<Option<UsmUser>, String> {
        let Some(name) = &self.user else {
            if self.auth_protocol.is_some() {
                return Err("-a and -x need a user (-u)".into());
            }
            return Ok(None);
        };
        let (auth, privacy) = self.protocols()?;
        UsmUser::new(name, auth, privacy)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    /// The protocols `-a`/`-x` name, with their passwords.
    pub fn protocols(&self) -> Result<Protocols<'_>, String> {
        protocols(
            self.auth_protocol
                .as_deref()
                .zip(self.auth_password.as_deref()),
            self.priv_protocol
                .as_deref()
                .zip(self.priv_password.as_deref()),
        )
    }
}

/// A USM user's protocols and passwords as `-a -A` and `-x -X` give them, by net-snmp's names.
pub type Protocols<'a> = (
    Option<(AuthProtocol, &'a [u8])>,
    Option<(PrivProtocol, &'a [u8])>,
);

/// The protocols named by `-a`/`-x` with their passwords `-A`/`-X`, or the name not known.
pub fn protocols<'a>(
    auth: Option<(&str, &'a str)>,
    privacy: Option<(&str, &'a str)>,
) -> Result<Protocols<'a>, String> {
    let auth = match auth {
        Some((p, pw)) => Some((
            AuthProtocol::from_name(p).map_err(|_| {
                format!("Invalid authentication protocol specified after -3a flag: {p}")
            })?,
            pw.as_bytes(),
        )),
        None => None,
    };
    let privacy = match privacy {
        Some((p, pw)) => Some((
            PrivProtocol::from_name(p)
                .map_err(|_| format!("Invalid privacy protocol specified after -3x flag: {p}"))?,
            pw.as_bytes(),
        )),
        None => None,
    };
    Ok((auth, privacy))
}

/// An engine ID as `-e` gives it: 1 to 32 octets in hex, `0x` allowed.
pub fn hex_octets(text: Option<&str>) -> Result<Option<Vec<u8>>, String> {
    text.map(snmp_client::conf::hex_engine_id).transpose()
}

/// snmpEngineBoots for this start of the local engine `id` (a v3 trap sender, a v3 inform
/// receiver), kept across runs as net-snmp keeps its own: in `$SNMP_PERSISTENT_DIR`, else
/// `~/.snmp/persist`, one file per engine ID. When it cannot be kept, a warning and 1.
pub fn local_engine_boots(id: &[u8]) -> u32 {
    let dir = match (
        std::env::var_os("SNMP_PERSISTENT_DIR"),
        std::env::var_os("HOME"),
    ) {
        (Some(d), _) => std::path::PathBuf::from(d),
        (None, Some(home)) => std::path::Path::new(&home).join(".snmp/persist"),
        (None, None) => {
            eprintln!("snmpc: warning: no SNMP_PERSISTENT_DIR nor HOME: engine boots not kept");
            return 1;
        }
    };
    let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
    let path = dir.join(format!("snmpc-engine-{hex}.conf"));
    let boots = std::fs::create_dir_all(&dir).and_then(|()| snmp_client::engine::next_boots(&path));
    boots.unwrap_or_else(|e| {
        eprintln!(
            "snmpc: warning: engine boots not kept in {}: {e}",
            dir.display()
        );
        1
    })
}

/// `-v`: 1, 2c or 3, in either case (`2C`), as net-snmp's tools read it.
fn snmp_version(text: &str) -> Result<String, String> {
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "1" | "2c" | "3" => Ok(lower),
        _ => Err("expected 1, 2c or 3".into()),
    }
}

/// `-t`: seconds, more than none (net-snmp's tools refuse 0 too).
fn timeout_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err("expected a number of seconds above 0".into()),
    }
}

/// The security level of `-l`, by net-snmp's names and aliases: (authentication, privacy).
fn level(text: &str) -> Result<(bool, bool), String> {
    match text.to_ascii_lowercase().as_str() {
        "noauthnopriv" | "noauth" | "nanp" | "1" => Ok((false, false)),
        "authnopriv" | "auth" | "anp" | "2" => Ok((true, false)),
        "authpriv" | "priv" | "ap" | "3" => Ok((true, true)),
        _ => Err(format!(
            "Invalid security level specified after -3l flag: {text}"
        )),
    }
}

impl std::fmt::Debug for AgentOpts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentOpts")
            .field("agent", &self.agent)
            .field("version", &self.version)
            .field("community", &"(hidden)")
            .field("usm", &self.usm)
            .field("level", &self.level)
            .field("context", &self.context)
            .field("context_engine_id", &self.context_engine_id)
            .field("engine_id", &self.engine_id)
            .field("timeout", &self.timeout)
            .field("retries", &self.retries)
            .field("mibs", &self.mibs)
            .field("json", &self.json)
            .finish()
    }
}

/// How far a walk may go before it is given up as endless (the agent's MIB view never
/// ends, or the agent keeps answering with new OIDs): the walk then prints what it got, says
/// it is incomplete and exits 1.
#[derive(Debug, Clone, clap::Args)]
pub struct WalkLimits {
    /// The most requests one walk makes (a GETNEXT walk makes one a binding).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_requests: usize,
    /// The most seconds one walk takes, all its requests together.
    #[arg(long, value_name = "SECONDS", default_value_t = Options::default().max_walk_time.as_secs_f64())]
    pub walk_timeout: f64,
}

impl WalkLimits {
    /// `options` with these limits, or why they are not limits.
    pub fn apply(&self, options: Options) -> Result<Options, String> {
        if !(self.walk_timeout.is_finite() && self.walk_timeout > 0.0) {
            return Err(format!(
                "--walk-timeout {}: expected a number of seconds above 0",
                self.walk_timeout
            ));
        }
        if self.max_requests == 0 {
            return Err("--max-requests 0: a walk needs at least one request".into());
        }
        Ok(Options {
            max_walk_requests: self.max_requests,
            max_walk_time: Duration::from_secs_f64(self.walk_timeout.min(1e9)),
            ..options
        })
    }
}

/// net-snmp's `-I` options, read from their groups (`-Ib -Ih`, `-Ibh`, `-Is .0`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    /// `R`: names looked up in every module.
    pub random_access: bool,
    /// `r`: values to set not checked against their objects.
    pub unchecked: bool,
    /// `b`: names as regular expressions.
    pub best_match: bool,
    /// `h`: values printed without their DISPLAY-HINTs.
    pub no_hints: bool,
    /// `s SUFFIX`: written after every OID given (`-Is .0`: `sysDescr` is `sysDescr.0`).
    pub suffix: String,
    /// `S PREFIX`: written before every OID given.
    pub prefix: String,
}

impl Input {
    /// `groups` (each `-I`'s letters; `s` and `S` take the rest of theirs, which the command
    /// line joins with the next argument when it has none), or the first letter not known.
    pub fn parse(groups: &[String]) -> Result<Input, String> {
        let mut input = Input::default();
        for group in groups {
            let mut chars = group.chars();
            while let Some(c) = chars.next() {
                match c {
                    'R' => input.random_access = true,
                    'r' => input.unchecked = true,
                    'b' => input.best_match = true,
                    'h' => input.no_hints = true,
                    'u' => {}
                    's' => input.suffix = chars.by_ref().collect(),
                    'S' => input.prefix = chars.by_ref().collect(),
                    other => {
                        // net-snmp's words for it.
                        return Err(format!("Unknown input option passed to -I: {other}."));
                    }
                }
            }
        }
        Ok(input)
    }

    /// An OID as given, with `-IS`'s prefix and `-Is`'s suffix.
    pub fn around<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        match self.prefix.is_empty() && self.suffix.is_empty() {
            true => text.into(),
            false => format!("{}{text}{}", self.prefix, self.suffix).into(),
        }
    }
}

impl AgentOpts {
    /// `-e`'s engine ID, or why it is not one.
    pub fn engine_id(&self) -> Result<Option<Vec<u8>>, String> {
        hex_octets(self.engine_id.as_deref())
    }

    /// Whether OIDs are printed as numbers (`-On`).
    pub fn numeric(&self) -> bool {
        self.mibs.output.iter().any(|o| o.contains('n'))
    }

    /// `-l`, `-a` and `-x` checked for names net-snmp's tools know: their words for one
    /// they do not (`Invalid security level specified after -3l flag: bogus`), before
    /// anything else is read.
    pub fn security_words(&self) -> Result<(), String> {
        if let Some(l) = &self.level {
            level(l)?;
        }
        self.usm.protocols().map(|_| ())
    }

    /// The agent's address and the session's credentials and options, or why not.
    pub fn session(&self) -> Result<(SocketAddr, Credentials, Options), String> {
        let addr = agent_address(&self.agent, 161)?;
        if self.context_engine_id.is_some() && self.version != "3" {
            return Err("-E (a context engine) applies to SNMPv3".into());
        }
        if self.context.is_some() && self.version != "3" {
            return Err(
                "-n (a context) applies to SNMPv3; SNMPv1 and v2c address contexts by community"
                    .into(),
            );
        }
        let creds = match self.version.as_str() {
            "1" => Credentials::V1(self.community.as_bytes().to_vec()),
            "2c" => Credentials::V2c(self.community.as_bytes().to_vec()),
            _ => {
                let user = self.usm.user.as_deref().ok_or("SNMPv3 needs a user (-u)")?;
                let (mut auth, mut privacy) = self.usm.protocols()?;
                if let Some(l) = &self.level {
                    let (with_auth, with_priv) = level(l)?;
                    if with_auth && auth.is_none() {
                        return Err(format!(
                            "-l {l} needs an authentication protocol and password (-a, -A)"
                        ));
                    }
                    if with_priv && privacy.is_none() {
                        return Err(format!(
                            "-l {l} needs a privacy protocol and password (-x, -X)"
                        ));
                    }
                    // A lower level than the passwords allow: those above it are not used.
                    if !with_auth {
                        auth = None;
                    }
                    if !with_priv {
                        privacy = None;
                    }
                }
                let user = UsmUser::new(user, auth, privacy).map_err(|e| e.to_string())?;
                let context = self.context.as_deref().unwrap_or("");
                let mut user = user.with_context(context.as_bytes());
                if let Some(id) = hex_octets(self.context_engine_id.as_deref())
                    .map_err(|e| e.replacen("-e ", "-E ", 1))?
                {
                    user = user.with_context_engine(&id);
                }
                Credentials::Usm(user)
            }
        };
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= 3600.0) {
            return Err(format!(
                "-t {}: expected seconds between 0 and 3600",
                self.timeout
            ));
        }
        let options = Options {
            timeout: Duration::from_secs_f64(self.timeout),
            retries: self.retries.min(100),
            ..Options::default()
        };
        Ok((addr, creds, options))
    }
}

/// Whether `agent` names the TCP transport (`tcp:HOST`, `tcp6:[::1]:1161`).
pub fn is_tcp(agent: &str) -> bool {
    snmp_client::target::is_tcp(agent)
}

/// The address of `agent` as net-snmp's tools take it (`[TRANSPORT:]HOST[:PORT]`: see
/// [`snmp_client::target`]); `port` when it names none.
pub fn agent_address(agent: &str, port: u16) -> Result<SocketAddr, String> {
    snmp_client::Target::parse(agent, port)
        .map(|t| t.addr)
        .map_err(|e| e.to_string())
}

/// A listening address as snmptrapd takes it: [`agent_address`]'s forms, port 162 when none
/// is named, or a port alone (`1162`, `udp:1162`: every interface, IPv6's under `udp6:`).
pub fn listen_address(text: &str) -> Result<SocketAddr, String> {
    let (spec, address) = snmp_client::target::split_transport(text);
    if is_tcp(text) {
        return Err(format!(
            "{text}: transport `{spec}` is not supported here (UDP only)"
        ));
    }
    match address.parse::<u16>() {
        Ok(port) if spec.is_empty() || spec.eq_ignore_ascii_case("udp") => {
            Ok(SocketAddr::from(([0, 0, 0, 0], port)))
        }
        Ok(port) => agent_address(&format!("{spec}:[::]:{port}"), port),
        Err(_) => agent_address(text, 162),
    }
}

pub use snmp_client::target::with_default_port;

/// An OID from its dotted form (a leading dot allowed), or why not.
pub fn oid(text: &str) -> Result<OidBuf, String> {
    text.trim_start_matches('.')
        .parse()
        .map_err(|e| format!("`{text}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_options_debug_without_secrets() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            agent: AgentOpts,
        }
        let cli = Cli::parse_from([
            "snmpc",
            "-v",
            "3",
            "-c",
            "S3cretCommunity",
            "-u",
            "u",
            "-a",
            "SHA",
            "-A",
            "AuthS3cret",
            "-x",
            "AES",
            "-X",
            "PrivS3cret",
            "127.0.0.1",
        ]);
        let shown = format!("{:?}", cli.agent);
        assert!(!shown.contains("S3cret"), "{shown}");
        assert!(
            shown.contains("SHA") && shown.contains("127.0.0.1"),
            "{shown}"
        );
    }

    #[test]
    fn application_options_as_net_snmp_writes_them() {
        let parse_as = |letters: &str, v: &[&str]| {
            AppOpts {
                app: v.iter().map(|s| s.to_string()).collect(),
            }
            .parse(letters)
        };
        let parse = |v: &[&str]| parse_as("nripfx", v);
        let a = parse(&["n1", "r10", "ip"]).unwrap();
        assert_eq!(
            (
                a.non_repeaters,
                a.max_repetitions,
                a.include_root,
                a.print_count
            ),
            (Some(1), Some(10), true, true)
        );
        assert_eq!(parse(&["f, "]).unwrap().separator.as_deref(), Some(", "));
        assert_eq!(parse(&["r0"]).unwrap().max_repetitions, Some(0));
        assert!(parse(&["r"]).unwrap_err().to_string().contains("-Cr10"));
        assert_eq!(
            parse(&["z"]).unwrap_err().to_string(),
            "Unknown flag passed to -C: z"
        );
        // Each tool its own letters: snmpbulkwalk has no -CI, snmpwalk no -Cr.
        assert_eq!(
            parse_as(letters::BULKWALK, &["I"]),
            Err(AppOptError::UnknownLetter('I'))
        );
        assert_eq!(
            parse_as(letters::WALK, &["r5"]),
            Err(AppOptError::UnknownLetter('r'))
        );
        let walk = parse_as(letters::WALK, &["IT", "EsysName"]).unwrap();
        assert!(walk.no_root_get && walk.request_times);
        assert_eq!(walk.end.as_deref(), Some("sysName"));
        assert!(parse_as(letters::SET, &["q"]).unwrap().quiet);
        assert!(
            level("authPriv").unwrap() == (true, true)
                && level("noauth").unwrap() == (false, false)
        );
        assert!(level("secret").is_err());
    }

    #[test]
    fn agents_get_port_161_unless_they_name_one() {
        assert_eq!(with_default_port("example.net", 161), "example.net:161");
        assert_eq!(with_default_port("10.0.0.1:1161", 161), "10.0.0.1:1161");
        assert_eq!(with_default_port("::1", 161), "[::1]:161");
        assert_eq!(with_default_port("[::1]", 162), "[::1]:162");
        assert_eq!(with_default_port("[::1]:1161", 161), "[::1]:1161");
        assert_eq!(
            with_default_port("udp:example.net", 162),
            "udp:example.net:162"
        );
        assert_eq!(with_default_port("udp6:::1", 161), "udp6:[::1]:161");
        let at = |a: &str| agent_address(a, 161).map(|s| s.to_string());
        assert_eq!(at("udp:127.0.0.1:1161"), Ok("127.0.0.1:1161".into()));
        assert_eq!(at("UDP:127.0.0.1"), Ok("127.0.0.1:161".into()));
        assert_eq!(at("[127.0.0.1]:1161"), Ok("127.0.0.1:1161".into()));
        assert_eq!(at("udp6:[::1]:1161"), Ok("[::1]:1161".into()));
        assert_eq!(at("udp6:::1"), Ok("[::1]:161".into()));
        assert!(at("udp6:127.0.0.1")
            .unwrap_err()
            .contains("no IPv6 address"));
        // TCP for the agent tools; neither TCP nor the others for listening.
        assert_eq!(at("tcp:127.0.0.1:1161"), Ok("127.0.0.1:1161".into()));
        assert!(is_tcp("TCP:127.0.0.1") && is_tcp("tcp6:[::1]:1161") && !is_tcp("127.0.0.1"));
        assert!(at("unix:/tmp/x").unwrap_err().contains("UDP and TCP only"));
        let on = |a: &str| listen_address(a).map(|s| s.to_string());
        assert!(on("tcp:1162").unwrap_err().contains("UDP only"));
        assert_eq!(on("1162"), Ok("0.0.0.0:1162".into()));
        assert_eq!(on("udp:1162"), Ok("0.0.0.0:1162".into()));
        assert_eq!(on("udp6:1162"), Ok("[::]:1162".into()));
        assert_eq!(on("127.0.0.1"), Ok("127.0.0.1:162".into()));
        assert_eq!(on("udp:127.0.0.1:1162"), Ok("127.0.0.1:1162".into()));
    }

    #[test]
    fn input_options_as_net_snmp_groups_them() {
        let groups =
            |g: &[&str]| Input::parse(&g.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let input = groups(&["bh", "s.0", "SSNMPv2-MIB::"]).unwrap();
        assert!(input.best_match && input.no_hints && !input.unchecked);
        assert_eq!(input.around("sysName"), "SNMPv2-MIB::sysName.0");
        assert_eq!(groups(&["R"]).unwrap().around("x"), "x");
        assert_eq!(
            groups(&["rz"]).unwrap_err(),
            "Unknown input option passed to -I: z."
        );
    }
}
