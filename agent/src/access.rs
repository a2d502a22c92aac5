//! Who may read and write what: RFC 3415's view-based access control in the shape snmpd.conf
//! gives it. `rocommunity`/`rwcommunity COMMUNITY [default [OID | -V VIEW]]`,
//! `rouser`/`rwuser USER [noauth|auth|priv [OID | -V VIEW]]`, `view NAME included|excluded
//! OID [MASK]` and `createUser NAME [AUTH-PROTOCOL AUTH-PASS [PRIV-PROTOCOL [PRIV-PASS]]]`
//! are read; any other directive is an error naming its line, never skipped.
//!
//! ```
//! let access = snmp_agent::Access::parse(
//!     "view top included .1.3.6.1.4.1.8072.9999\n\
//!      rocommunity public default -V top\n\
//!      rwcommunity private default .1.3.6.1.4.1.8072.9999.1\n",
//!     "snmpd.conf",
//! )?;
//! let public = snmp_client::respond::Who::Community { version: 1, community: b"public" };
//! let (read, write) = access.views(&public).unwrap();
//! assert!(read.contains(&[1, 3, 6, 1, 4, 1, 8072, 9999, 2, 0]));
//! assert!(!read.contains(&[1, 3, 6, 1, 2, 1, 1, 1, 0]));
//! assert!(write.is_none());
//! # Ok::<(), snmp_agent::ConfigError>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use snmp_client::conf::{create_user, words};
use snmp_client::respond::Who;
use snmp_client::UsmUser;

/// A line of a configuration that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ConfigError {
    /// The file's name.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong, and what was expected.
    pub message: String,
}

/// One family of a view (RFC 3415 vacmViewTreeFamilyTable): a subtree, its mask, and whether
/// it is in the view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    subtree: Vec<u32>,
    /// A bit per arc of `subtree`, first arc the high bit of the first octet: 1 the arc must
    /// match, 0 any arc does; arcs past the mask must match.
    mask: Vec<u8>,
    included: bool,
}

impl Family {
    fn matches(&self, name: &[u32]) -> bool {
        name.len() >= self.subtree.len()
            && self.subtree.iter().enumerate().all(|(k, &arc)| {
                let bit = self
                    .mask
                    .get(k / 8)
                    .is_none_or(|octet| octet & (0x80 >> (k % 8)) != 0);
                !bit || name[k] == arc
            })
    }
}

/// A MIB view: the names a caller may read, or write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MibView {
    families: Vec<Family>,
}

impl MibView {
    /// Every name.
    pub fn everything() -> MibView {
        MibView::subtree(&[1])
    }

    /// The names under `oid`.
    pub fn subtree(oid: &[u32]) -> MibView {
        MibView {
            families: vec![Family {
                subtree: oid.to_vec(),
                mask: Vec::new(),
                included: true,
            }],
        }
    }

    /// Adds a family: the names under `subtree` (arcs the `mask` clears are wildcards) are in
    /// the view or out of it.
    pub fn add(&mut self, subtree: &[u32], mask: &[u8], included: bool) {
        self.families.push(Family {
            subtree: subtree.to_vec(),
            mask: mask.to_vec(),
            included,
        });
    }

    /// Whether every name is in the view (one family, included, over the whole tree).
    pub fn is_everything(&self) -> bool {
        matches!(&self.families[..], [f] if f.included && f.mask.is_empty() && f.subtree.len() <= 1)
    }

    /// Whether `name` is in the view: of the families it matches, the one with the longest
    /// subtree decides, the lexicographically greater of equal lengths (RFC 3415 5).
    pub fn contains(&self, name: &[u32]) -> bool {
        self.families
            .iter()
            .filter(|f| f.matches(name))
            .max_by(|a, b| (a.subtree.len(), &a.subtree).cmp(&(b.subtree.len(), &b.subtree)))
            .is_some_and(|f| f.included)
    }

    /// Where a GETNEXT past `name`, which is out of the view, goes on from: past the subtree
    /// of the family excluding it, or to the next included family's start.
    pub(crate) fn resume_after(&self, name: &[u32]) -> Option<Vec<u32>> {
        let excluded = self
            .families
            .iter()
            .filter(|f| f.matches(name) && !f.included && f.mask.is_empty())
            .max_by_key(|f| f.subtree.len());
        if let Some(f) = excluded {
            let mut past = f.subtree.clone();
            past.push(u32::MAX);
            return Some(past);
        }
        self.families
            .iter()
            .filter(|f| f.included && f.subtree.as_slice() > name)
            .map(|f| f.subtree.clone())
            .min()
    }
}

/// The views a community or user reads and writes through.
#[derive(Debug, Clone)]
struct Grant {
    read: Arc<MibView>,
    write: Option<Arc<MibView>>,
    /// The least security level (msgFlags bits: 0, 1 auth, 3 auth and priv) of a user.
    level: u8,
}

/// Communities, users and their views.
#[derive(Debug, Clone, Default)]
pub struct Access {
    // A few entries each: a scan costs less than hashing the name on every request.
    communities: Vec<(Vec<u8>, Grant)>,
    users: Vec<(Vec<u8>, Grant)>,
    keys: Vec<UsmUser>,
}

impl Access {
    /// No one.
    pub fn new() -> Access {
        Access::default()
    }

    /// `community` reads `read` (SNMPv1, v2c), and writes `write` if given.
    pub fn community(mut self, community: &str, read: MibView, write: Option<MibView>) -> Self {
        let grant = Grant {
            read: Arc::new(read),
            write: write.map(Arc::new),
            level: 0,
        };
        self.communities.retain(|(c, _)| c != community.as_bytes());
        self.communities
            .push((community.as_bytes().to_vec(), grant));
        self
    }

    /// The USM user `user` (its keys) at `level` or above (0 noAuthNoPriv, 1 authNoPriv, 3
    /// authPriv) reads `read`, and writes `write` if given.
    pub fn user(mut self, user: UsmUser, level: u8, read: MibView, write: Option<MibView>) -> Self {
        let grant = Grant {
            read: Arc::new(read),
            write: write.map(Arc::new),
            level,
        };
        self.users.retain(|(u, _)| u != user.name());
        self.users.push((user.name().to_vec(), grant));
        self.keys.retain(|u| u.name() != user.name());
        self.keys.push(user);
        self
    }

    /// The USM users known (their keys), for the responder.
    pub fn usm_users(&self) -> Vec<UsmUser> {
        self.keys.clone()
    }

    /// Whether `who` is answered at all.
    pub fn admits(&self, who: &Who<'_>) -> bool {
        match who {
            Who::Community { community, .. } => {
                self.communities.iter().any(|(c, _)| c == community)
            }
            Who::User { .. } => true,
        }
    }

    /// The views `who` reads and writes through; `None` when it has no access at all.
    pub fn views(&self, who: &Who<'_>) -> Option<(&MibView, Option<&MibView>)> {
        fn find<'a>(list: &'a [(Vec<u8>, Grant)], name: &[u8]) -> Option<&'a Grant> {
            list.iter().find(|(n, _)| n == name).map(|(_, g)| g)
        }
        let grant = match who {
            Who::Community { community, .. } => find(&self.communities, community)?,
            Who::User { name, level, .. } => {
                find(&self.users, name).filter(|g| level & g.level == g.level)?
            }
        };
        Some((&grant.read, grant.write.as_deref()))
    }

    /// The configuration in `path`.
    pub fn read(path: &std::path::Path) -> Result<Access, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.display().to_string(),
            line: 0,
            message: e.to_string(),
        })?;
        Access::parse(&text, &path.display().to_string())
    }

    /// The configuration `text`, named `file` in errors.
    pub fn parse(text: &str, file: &str) -> Result<Access, ConfigError> {
        let mut views: HashMap<String, MibView> = HashMap::new();
        let mut users: HashMap<String, UsmUser> = HashMap::new();
        // Grants refer to views and users that may come later in the file.
        let mut grants: Vec<(usize, Vec<String>, bool)> = Vec::new();
        let mut rw_users: Vec<(usize, Vec<String>, bool)> = Vec::new();
        for (k, line) in text.lines().enumerate() {
            let err = |message: String| ConfigError {
                file: file.to_string(),
                line: k + 1,
                message,
            };
            let words: Vec<String> = words(line);
            let Some((directive, args)) = words.split_first() else {
                continue;
            };
            match directive.as_str() {
                "view" => {
                    let (name, family) = view_line(args).map_err(err)?;
                    let v = views.entry(name).or_default();
                    v.add(&family.subtree, &family.mask, family.included);
                }
                "createUser" => {
                    let user = match create_user(args).map_err(err)? {
                        (user, None) => user,
                        (_, Some(_)) => {
                            return Err(err(
                                "createUser -e: an agent's users are its own engine's".into()
                            ))
                        }
                    };
                    users.insert(String::from_utf8_lossy(user.name()).into_owned(), user);
                }
                "rocommunity" | "rwcommunity" => {
                    grants.push((k, args.to_vec(), directive == "rwcommunity"))
                }
                "rouser" | "rwuser" => rw_users.push((k, args.to_vec(), directive == "rwuser")),
                other => {
                    return Err(err(format!(
                        "`{other}` is not supported: expected rocommunity, rwcommunity, rouser, \
                         rwuser, view or createUser"
                    )))
                }
            }
        }
        let mut access = Access::new();
        for (k, args, rw) in grants {
            let err = |message: String| ConfigError {
                file: file.to_string(),
                line: k + 1,
                message,
            };
            let [community, rest @ ..] = args.as_slice() else {
                return Err(err("expected COMMUNITY [default [OID | -V VIEW]]".into()));
            };
            let view = match rest {
                [] => MibView::everything(),
                [source, restriction @ ..] if source == "default" => {
                    restricted(restriction, &views).map_err(err)?
                }
                [source, ..] => {
                    return Err(err(format!(
                        "source `{source}`: only `default` (any source) is supported"
                    )))
                }
            };
            let write = rw.then(|| view.clone());
            access = access.community(community, view, write);
        }
        for (k, args, rw) in rw_users {
            let err = |message: String| ConfigError {
                file: file.to_string(),
                line: k + 1,
                message,
            };
            let args: Vec<&String> = args.iter().filter(|a| *a != "-s" && *a != "usm").collect();
            let [name, rest @ ..] = args.as_slice() else {
                return Err(err(
                    "expected USER [noauth|auth|priv [OID | -V VIEW]]".into()
                ));
            };
            let (level, restriction) = match rest {
                [] => (1, &[][..]),
                [level, more @ ..] => (
                    match level.as_str() {
                        "noauth" => 0,
                        "auth" => 1,
                        "priv" => 3,
                        other => {
                            return Err(err(format!(
                                "security level `{other}`: expected noauth, auth or priv"
                            )))
                        }
                    },
                    more,
                ),
            };
            let restriction: Vec<String> = restriction.iter().map(|s| s.to_string()).collect();
            let view = restricted(&restriction, &views).map_err(err)?;
            let Some(user) = users.get(name.as_str()) else {
                return Err(err(format!("user `{name}` has no createUser line")));
            };
            let write = rw.then(|| view.clone());
            access = access.user(user.clone(), level, view, write);
        }
        Ok(access)
    }
}

/// The view `[OID | -V VIEW]` names (everything when nothing does).
fn restricted(words: &[String], views: &HashMap<String, MibView>) -> Result<MibView, String> {
    match words {
        [] => Ok(MibView::everything()),
        [flag, name] if flag == "-V" => views
            .get(name)
            .cloned()
            .ok_or_else(|| format!("view `{name}` has no `view` line")),
        [oid] => Ok(MibView::subtree(&numeric_oid(oid)?)),
        _ => Err(format!(
            "expected OID or -V VIEW, found `{}`",
            words.join(" ")
        )),
    }
}

/// `NAME included|excluded OID [MASK]`.
fn view_line(args: &[String]) -> Result<(String, Family), String> {
    let (name, kind, oid, mask) = match args {
        [n, k, o] => (n, k, o, None),
        [n, k, o, m] => (n, k, o, Some(m)),
        _ => return Err("expected view NAME included|excluded OID [MASK]".into()),
    };
    let included = match kind.as_str() {
        "included" => true,
        "excluded" => false,
        other => return Err(format!("`{other}`: expected included or excluded")),
    };
    let mask = match mask {
        None => Vec::new(),
        Some(m) => hex_mask(m)?,
    };
    let family = Family {
        subtree: numeric_oid(oid)?,
        mask,
        included,
    };
    Ok((name.clone(), family))
}

/// A mask as snmpd.conf writes it: hex octets, `ff.a0`, `ff:a0` or `ffa0`.
fn hex_mask(text: &str) -> Result<Vec<u8>, String> {
    let digits: String = text
        .trim_start_matches("0x")
        .chars()
        .filter(|c| *c != '.' && *c != ':')
        .collect();
    if digits.is_empty() || !digits.len().is_multiple_of(2) || digits.len() > 32 {
        return Err(format!("mask `{text}`: expected 1 to 16 hex octets"));
    }
    (0..digits.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&digits[k..k + 2], 16))
        .collect::<Result<_, _>>()
        .map_err(|_| format!("mask `{text}`: expected hex octets"))
}

/// A numeric OID (`.1.3.6.1` or `1.3.6.1`).
fn numeric_oid(text: &str) -> Result<Vec<u32>, String> {
    let arcs: Result<Vec<u32>, _> = text
        .trim_start_matches('.')
        .split('.')
        .map(str::parse)
        .collect();
    match arcs {
        Ok(a) if !a.is_empty() && a.len() <= 128 => Ok(a),
        _ => Err(format!("`{text}`: expected a numeric OID (.1.3.6.1...)")),
    }
}
