//! `--web.config.file`, Prometheus exporter-toolkit's web configuration: `tls_server_config`
//! (TLS 1.2 and 1.3 by rustls: a certificate and key from files or inline, client
//! certificates verified against a CA when asked) and `basic_auth_users` (user names to bcrypt
//! hashes, every endpoint behind HTTP basic authentication). What it cannot enforce
//! (`http_server_config`, cipher suite and curve lists, TLS 1.0/1.1, client certificates
//! accepted unverified, `client_allowed_sans`) is refused at start with what to do instead,
//! never ignored: an exporter that served in clear, or to anyone, what its operator asked to
//! protect would be worse than one that does not start.

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
    tls_server_config: Option<TlsFile>,
    http_server_config: Option<serde_yaml::Value>,
    #[serde(default)]
    basic_auth_users: BTreeMap<String, String>,
}

/// `tls_server_config`, every key exporter-toolkit reads (those not served are refused).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TlsFile {
    cert_file: Option<String>,
    key_file: Option<String>,
    cert: Option<String>,
    key: Option<String>,
    client_auth_type: Option<String>,
    client_ca_file: Option<String>,
    client_ca: Option<String>,
    min_version: Option<String>,
    max_version: Option<String>,
    cipher_suites: Option<serde_yaml::Value>,
    curve_preferences: Option<serde_yaml::Value>,
    prefer_server_cipher_suites: Option<bool>,
    client_allowed_sans: Option<serde_yaml::Value>,
}

/// What the file asks the HTTP server to do.
#[derive(Debug, Default)]
pub struct WebConfig {
    /// Basic authentication, when the file names users.
    pub auth: Option<Arc<BasicAuth>>,
    /// TLS, when the file has a `tls_server_config`.
    pub tls: Option<Arc<rustls::ServerConfig>>,
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

/// Reads `path`: what it asks for, or what is wrong (the file and the key; line and column
/// where YAML says them). Files it names are read relative to its folder, as
/// exporter-toolkit reads them.
pub fn load(path: &Path) -> Result<WebConfig, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let file: File = match text.trim() {
        "" => File::default(),
        _ => serde_yaml::from_str(&text).map_err(|e| format!("{shown}: {e}"))?,
    };
    let tls = match &file.tls_server_config {
        Some(t) => {
            let dir = path.parent().unwrap_or(Path::new("."));
            let config = tls(t, dir).map_err(|e| format!("{shown}: tls_server_config.{e}"))?;
            Some(Arc::new(config))
        }
        None => None,
    };
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
    let auth = (!file.basic_auth_users.is_empty()).then(|| {
        Arc::new(BasicAuth {
            users: file.basic_auth_users,
            verified: Mutex::new(HashSet::new()),
        })
    });
    Ok(WebConfig { auth, tls })
}

/// The rustls server configuration `t` asks for (files relative to `dir`), or the key that
/// cannot be served and why.
fn tls(t: &TlsFile, dir: &Path) -> Result<rustls::ServerConfig, String> {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, PrivateKeyDer};
    for (key, given) in [
        ("cipher_suites", t.cipher_suites.is_some()),
        ("curve_preferences", t.curve_preferences.is_some()),
        ("client_allowed_sans", t.client_allowed_sans.is_some()),
    ] {
        if given {
            return Err(format!(
                "{key}: not supported (rustls's own choice is used); remove it to serve TLS"
            ));
        }
    }
    // Go's preference order between suites; rustls always prefers the server's own.
    let _ = t.prefer_server_cipher_suites;
    let pem = |file: &Option<String>, inline: &Option<String>, what: &str| match (file, inline) {
        (Some(f), None) => std::fs::read(dir.join(f)).map_err(|e| format!("{what}_file: {f}: {e}")),
        (None, Some(text)) => Ok(text.clone().into_bytes()),
        (Some(_), Some(_)) => Err(format!("{what}_file and {what}: give one of them")),
        (None, None) => Err(format!("{what}_file: missing")),
    };
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(&pem(&t.cert_file, &t.cert, "cert")?)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cert_file: {e}"))?;
    if certs.is_empty() {
        return Err("cert_file: no CERTIFICATE in it".into());
    }
    let key = PrivateKeyDer::from_pem_slice(&pem(&t.key_file, &t.key, "key")?)
        .map_err(|e| format!("key_file: {e}"))?;
    let versions = versions(t.min_version.as_deref(), t.max_version.as_deref())?;
    // ring rather than aws-lc-rs: a build with a C compiler alone (no cmake); rustls marks it
    // deprecated for offering no post-quantum key exchange, which scrapes do not need yet.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_protocol_versions(&versions)
        .map_err(|e| format!("min_version: {e}"))?;
    let builder = match client_verifier(t, dir, provider)? {
        Some(v) => builder.with_client_cert_verifier(v),
        None => builder.with_no_client_auth(),
    };
    let mut config = builder
        .with_single_cert(certs, key)
        .map_err(|e| format!("key_file: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// The TLS versions from `min` to `max` (exporter-toolkit's names; TLS12 at least).
fn versions(
    min: Option<&str>,
    max: Option<&str>,
) -> Result<Vec<&'static rustls::SupportedProtocolVersion>, String> {
    let rank = |key: &str, v: Option<&str>, default: u8| match v {
        None | Some("") => Ok(default),
        Some("TLS12") => Ok(12),
        Some("TLS13") => Ok(13),
        Some(other @ ("TLS10" | "TLS11")) => Err(format!(
            "{key}: {other} is not served (rustls speaks TLS 1.2 and 1.3 only)"
        )),
        Some(other) => Err(format!(
            "{key}: unknown TLS version {other:?} (TLS12, TLS13)"
        )),
    };
    let (min, max) = (rank("min_version", min, 12)?, rank("max_version", max, 13)?);
    let all = [(12, &rustls::version::TLS12), (13, &rustls::version::TLS13)];
    let chosen: Vec<_> = all
        .iter()
        .filter(|(v, _)| (min..=max).contains(v))
        .map(|&(_, p)| p)
        .collect();
    match chosen.is_empty() {
        true => Err("max_version: below min_version".into()),
        false => Ok(chosen),
    }
}

/// The check of client certificates `client_auth_type` asks for, against `client_ca_file`.
fn client_verifier(
    t: &TlsFile,
    dir: &Path,
    provider: Arc<rustls::crypto::CryptoProvider>,
) -> Result<Option<Arc<dyn rustls::server::danger::ClientCertVerifier>>, String> {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::CertificateDer;
    let required = match t.client_auth_type.as_deref() {
        None | Some("") | Some("NoClientCert") => return Ok(None),
        Some("RequireAndVerifyClientCert") => true,
        Some("VerifyClientCertIfGiven") => false,
        Some(other @ ("RequestClientCert" | "RequireAnyClientCert")) => {
            return Err(format!(
                "client_auth_type: {other} takes certificates nobody verified: not served \
                 (RequireAndVerifyClientCert or VerifyClientCertIfGiven, with client_ca_file)"
            ))
        }
        Some(other) => return Err(format!("client_auth_type: unknown value {other:?}")),
    };
    let pem = match (&t.client_ca_file, &t.client_ca) {
        (Some(f), _) => {
            std::fs::read(dir.join(f)).map_err(|e| format!("client_ca_file: {f}: {e}"))?
        }
        (None, Some(text)) => text.clone().into_bytes(),
        (None, None) => {
            return Err("client_ca_file: missing (client_auth_type verifies against it)".into())
        }
    };
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&pem) {
        let cert = cert.map_err(|e| format!("client_ca_file: {e}"))?;
        roots
            .add(cert)
            .map_err(|e| format!("client_ca_file: {e}"))?;
    }
    let builder =
        rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider);
    let builder = match required {
        true => builder,
        false => builder.allow_unauthenticated(),
    };
    builder
        .build()
        .map(Some)
        .map_err(|e| format!("client_ca_file: {e}"))
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

    fn config(text: &str) -> Result<WebConfig, String> {
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
            .auth
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
        let missing = config("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n");
        let missing = missing.unwrap_err();
        assert!(
            missing.contains("tls_server_config.cert_file: a.crt: "),
            "{missing}"
        );
        let suites = config("tls_server_config:\n  cert_file: a.crt\n  cipher_suites: [x]\n");
        let suites = suites.unwrap_err();
        assert!(
            suites.contains("tls_server_config.cipher_suites: not supported"),
            "{suites}"
        );
        assert!(versions(Some("TLS10"), None)
            .unwrap_err()
            .contains("TLS10 is not served"));
        assert_eq!(versions(Some("TLS13"), None).unwrap().len(), 1);
        assert!(versions(Some("TLS13"), Some("TLS12")).is_err());
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
        assert!(config("").unwrap().auth.is_none());
        assert!(config("basic_auth_users: {}\n").unwrap().auth.is_none());
    }
}
