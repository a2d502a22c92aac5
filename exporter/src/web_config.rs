//! `--web.config.file`, Prometheus exporter-toolkit's web configuration, as far as this
//! exporter serves it: `basic_auth_users` (user names to bcrypt hashes), every endpoint
//! behind HTTP basic authentication. `tls_server_config` and `http_server_config` are refused
//! at start with what to do instead, never ignored: an exporter that served in clear what its
//! operator asked to serve over TLS would be worse than one that does not start.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;

/// The file as exporter-toolkit reads it.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    tls_server_config: Option<serde_yaml::Value>,
    http_server_config: Option<serde_yaml::Value>,
    #[serde(default)]
    basic_auth_users: BTreeMap<String, String>,
}

/// The users basic authentication lets in, and the credentials already checked.
#[derive(Debug)]
pub struct BasicAuth {
    users: BTreeMap<String, String>,
    /// (user, password) pairs whose bcrypt check passed: bcrypt is slow on purpose (tens of
    /// milliseconds a check at cost 10), so a scraper's every request is not made to pay it.
    verified: Mutex<HashSet<(String, String)>>,
}

/// Verified credentials kept at most; past it the cache starts again.
const VERIFIED_KEPT: usize = 64;

/// Reads `path`: `Ok(None)` when it asks for nothing this exporter would enforce (no users),
/// the users to let in, or what is wrong (the file and the key; line and column where YAML
/// says them).
pub fn load(path: &Path) -> Result<Option<Arc<BasicAuth>>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let file: File = match text.trim() {
        "" => File::default(),
        _ => serde_yaml::from_str(&text).map_err(|e| format!("{shown}: {e}"))?,
    };
    if file.tls_server_config.is_some() {
        return Err(format!(
            "{shown}: tls_server_config: TLS is not served by snmp-exporter; terminate TLS in \
             front of it (a reverse proxy) and keep basic_auth_users here"
        ));
    }
    if file.http_server_config.is_some() {
        return Err(format!(
            "{shown}: http_server_config: not supported (HTTP/2 and response headers): set \
             them in a reverse proxy in front of snmp-exporter"
        ));
    }
    for (user, hash) in &file.basic_auth_users {
        if hash.parse::<bcrypt::HashParts>().is_err() {
            return Err(format!(
                "{shown}: basic_auth_users.{user}: not a bcrypt hash (\"$2y$10$...\", as \
                 `htpasswd -nBC 10 USER` writes after the colon)"
            ));
        }
    }
    Ok((!file.basic_auth_users.is_empty()).then(|| {
        Arc::new(BasicAuth {
            users: file.basic_auth_users,
            verified: Mutex::new(HashSet::new()),
        })
    }))
}

impl BasicAuth {
    /// Whether an `Authorization` header's value lets its sender in.
    pub fn allows(&self, authorization: Option<&str>) -> bool {
        let Some((user, password)) = authorization.and_then(credentials) else {
            return false;
        };
        let key = (user, password);
        if let Ok(verified) = self.verified.lock() {
            if verified.contains(&key) {
                return true;
            }
        }
        let (user, password) = &key;
        // An unknown user is checked against a configured user's hash all the same, so that
        // it takes as long to refuse as a wrong password (timing does not tell user names).
        let (hash, known) = match self.users.get(user) {
            Some(h) => (h.as_str(), true),
            None => (self.users.values().next().map_or("", String::as_str), false),
        };
        let ok = bcrypt::verify(password, hash).unwrap_or(false) && known;
        if ok {
            if let Ok(mut verified) = self.verified.lock() {
                if verified.len() >= VERIFIED_KEPT {
                    verified.clear();
                }
                verified.insert(key);
            }
        }
        ok
    }
}

/// `Basic BASE64(user:password)` to the user and password.
fn credentials(value: &str) -> Option<(String, String)> {
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

/// The middleware every route goes through when users are configured: 401 with a
/// `WWW-Authenticate` challenge, as exporter-toolkit answers, unless the credentials pass.
pub async fn require(State(auth): State<Arc<BasicAuth>>, request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    // bcrypt is CPU work of tens of milliseconds: off the runtime's threads.
    let (auth_for_check, given) = (Arc::clone(&auth), given.map(str::to_string));
    let allowed = tokio::task::spawn_blocking(move || auth_for_check.allows(given.as_deref()))
        .await
        .unwrap_or(false);
    if allowed {
        return next.run(request).await;
    }
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, "Basic")],
        "Unauthorized\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<Option<Arc<BasicAuth>>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("web.yml");
        std::fs::write(&path, text).unwrap();
        load(&path)
    }

    fn basic(user: &str, password: &str) -> String {
        let encoded =
            base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        format!("Basic {encoded}")
    }

    #[test]
    fn users_let_in_by_their_passwords_only() {
        let hash = bcrypt::hash("s3cret", 4).unwrap();
        let auth = config(&format!("basic_auth_users:\n  alice: '{hash}'\n"))
            .unwrap()
            .unwrap();
        assert!(auth.allows(Some(&basic("alice", "s3cret"))));
        // Again, from the cache.
        assert!(auth.allows(Some(&basic("alice", "s3cret"))));
        assert!(!auth.allows(Some(&basic("alice", "wrong"))));
        assert!(!auth.allows(Some(&basic("bob", "s3cret"))));
        assert!(!auth.allows(Some("Bearer abc")));
        assert!(!auth.allows(Some("Basic !!!")));
        assert!(!auth.allows(None));
    }

    #[test]
    fn what_is_not_enforced_is_refused_with_the_key() {
        let tls = config("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n");
        assert!(tls
            .unwrap_err()
            .contains("tls_server_config: TLS is not served"));
        let http = config("http_server_config:\n  http2: false\n");
        assert!(http
            .unwrap_err()
            .contains("http_server_config: not supported"));
        let hash = config("basic_auth_users:\n  alice: plain\n").unwrap_err();
        assert!(
            hash.contains("basic_auth_users.alice: not a bcrypt hash"),
            "{hash}"
        );
        let unknown = config("basic_auth_user:\n  alice: x\n").unwrap_err();
        assert!(
            unknown.contains("unknown field `basic_auth_user`"),
            "{unknown}"
        );
        // An empty file, or one with no users, asks for nothing.
        assert!(config("").unwrap().is_none());
        assert!(config("basic_auth_users: {}\n").unwrap().is_none());
    }
}
