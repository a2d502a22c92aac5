//! The part of snmptrapd.conf that says whose notifications to take, for `snmpc listen
//! --config FILE`: `authCommunity TYPES COMMUNITY`, `disableAuthorization yes`, and
//! `createUser [-e ENGINEID] NAME [AUTH-PROTOCOL AUTH-PASS [PRIV-PROTOCOL [PRIV-PASS]]]`
//! (net-snmp's syntax: a missing privacy password is the authentication one), and how
//! notifications are printed and handed on: `format1`, `format2`, `format print1|print2`,
//! `traphandle`. Other directives (syslog formats, forward, ...) are reported and left aside,
//! never silently.

use snmp_client::conf::{create_user, words};
use snmp_client::UsmUser;

/// Who a listener takes notifications from, as a file says.
#[derive(Debug, Default)]
pub struct TrapdConf {
    /// Communities of `authCommunity` lines.
    pub communities: Vec<String>,
    /// Communities and users whose `authCommunity`/`authUser` TYPES include `execute`: the
    /// notifications `traphandle` commands run for (all, under `disableAuthorization`).
    pub executors: Vec<String>,
    /// `disableAuthorization yes`: any community.
    pub any_community: bool,
    /// Users of `createUser` lines, with the engine of their `-e`.
    pub users: Vec<(UsmUser, Option<Vec<u8>>)>,
    /// The output formats of `format1` / `format print1` (SNMPv1) and `format2` / `format
    /// print2` (SNMPv2c, SNMPv3): the rest of the line, as written.
    pub format1: Option<String>,
    pub format2: Option<String>,
    /// `traphandle OID|default COMMAND`: the notification (its OID as written, `None` for
    /// `default`) and the command line run for it, as written.
    pub handlers: Vec<(Option<String>, String)>,
    /// What was not understood or is not supported, as `FILE:LINE: why`.
    pub warnings: Vec<String>,
}

impl TrapdConf {
    /// The file at `path`: its users and communities, or the first line that is wrong.
    pub fn read(path: &std::path::Path) -> Result<TrapdConf, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        TrapdConf::parse(&text, &path.display().to_string())
    }

    /// `text`, named `name` in messages.
    pub fn parse(text: &str, name: &str) -> Result<TrapdConf, String> {
        let mut conf = TrapdConf::default();
        for (i, line) in text.lines().enumerate() {
            let at = format!("{name}:{}", i + 1);
            let w = words(line);
            let Some((directive, args)) = w.split_first() else {
                continue;
            };
            // A format is the rest of its line, spaces and all.
            let rest = |skip: usize| -> String {
                let mut t = line.trim_start();
                for _ in 0..skip {
                    t = t
                        .trim_start_matches(|c: char| !c.is_whitespace())
                        .trim_start();
                }
                t.trim_end().to_string()
            };
            match (directive.as_str(), args) {
                ("traphandle", [which, _, ..]) => conf
                    .handlers
                    .push((Some(which.clone()).filter(|w| w != "default"), rest(2))),
                ("traphandle", _) => {
                    return Err(format!(
                        "{at}: expected traphandle OID|default PROGRAM [ARGS]"
                    ))
                }
                ("format1", _) => conf.format1 = Some(rest(1)),
                ("format2", _) => conf.format2 = Some(rest(1)),
                ("format", [which, ..]) if which == "print1" => conf.format1 = Some(rest(2)),
                ("format", [which, ..]) if which == "print2" => conf.format2 = Some(rest(2)),
                ("authCommunity", [types, community, ..]) => {
                    if types.split(',').any(|t| t == "execute") {
                        conf.executors.push(community.clone());
                    }
                    conf.communities.push(community.clone())
                }
                ("authUser", [types, user, ..]) => {
                    if types.split(',').any(|t| t == "execute") {
                        conf.executors.push(user.clone());
                    }
                }
                ("authCommunity", _) => {
                    return Err(format!("{at}: expected authCommunity TYPES COMMUNITY"))
                }
                ("disableAuthorization", [yes]) => {
                    conf.any_community = matches!(yes.as_str(), "yes" | "true" | "1")
                }
                ("createUser", args) => conf
                    .users
                    .push(create_user(args).map_err(|e| format!("{at}: {e}"))?),
                (other, _) => conf
                    .warnings
                    .push(format!("{at}: `{other}` is not supported here: left aside")),
            }
        }
        Ok(conf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_communities_and_the_rest_reported() {
        let conf = TrapdConf::parse(
            "# a comment\n\
             authCommunity log,execute,net public\n\
             authCommunity log private\n\
             authUser log,execute alice\n\
             createUser -e 0x8000000001020304 alice SHA \"alice pass\" AES\n\
             createUser bob SHA-256 bobauthpass AES-256 bobprivpass\n\
             createUser carol\n\
             traphandle default /bin/true\n\
             forward default 192.0.2.1\n\
             format2 %B [%b]: %v\\n\n\
             format print1   %a %N\n",
            "t.conf",
        )
        .unwrap();
        assert_eq!(conf.format2.as_deref(), Some("%B [%b]: %v\\n"));
        assert_eq!(conf.format1.as_deref(), Some("%a %N"));
        assert_eq!(conf.handlers, [(None, "/bin/true".to_string())]);
        assert_eq!(conf.communities, ["public", "private"]);
        assert_eq!(conf.executors, ["public", "alice"]);
        assert_eq!(conf.users.len(), 3);
        assert_eq!(
            conf.users[0].1.as_deref(),
            Some(&[0x80, 0, 0, 0, 1, 2, 3, 4][..])
        );
        assert_eq!(conf.users[1].1, None);
        assert_eq!(
            conf.warnings,
            ["t.conf:9: `forward` is not supported here: left aside"]
        );
        let e = TrapdConf::parse("\ncreateUser dave SHA\n", "u.conf").unwrap_err();
        assert!(e.starts_with("u.conf:2: createUser: expected"), "{e}");
        let e = TrapdConf::parse("createUser erin SHA pw ROT13 x\n", "v.conf").unwrap_err();
        assert!(e.starts_with("v.conf:1:"), "{e}");
    }
}
