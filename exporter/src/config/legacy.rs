//! snmp.yml of snmp_exporter ≤ 0.22, whose modules carry their own `version` and `auth`:
//! each such module's credentials become an entry of `auths` named after the module, which
//! a request naming no auth uses for it (so that old scrape configs keep working).

use super::types::{Auth, File, RawAuthParts};
use super::ConfigError;

/// Moves the credentials of old-format modules into `auths`; the warning to print once,
/// when there were any.
pub(super) fn convert(file: &mut File) -> Result<Option<String>, ConfigError> {
    let mut converted = Vec::new();
    for (name, module) in &mut file.modules {
        if module.auth.is_none() && module.version.is_none() {
            continue;
        }
        let old = module.auth.take().unwrap_or_default();
        let parts = RawAuthParts {
            community: old.community,
            security_level: old.security_level,
            username: old.username,
            password: old.password,
            auth_protocol: old.auth_protocol,
            priv_protocol: old.priv_protocol,
            priv_password: old.priv_password,
            context_name: old.context_name,
            version: module.version.take(),
        };
        let auth = Auth::try_from(parts.into_raw()).map_err(|message| ConfigError::Invalid {
            path: "snmp.yml".into(),
            key: format!("modules.{name}.auth"),
            message,
        })?;
        let mut auth_name = name.clone();
        while file.auths.contains_key(&auth_name) {
            auth_name.push_str("_legacy");
        }
        file.auths.insert(auth_name.clone(), auth);
        module.legacy_auth = Some(auth_name);
        converted.push(name.clone());
    }
    if converted.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "the configuration is in the format of snmp_exporter 0.22 and older (`version` and `auth` inside modules): \
         modules {} read with their credentials as auths of the same name, used when a request names no auth; \
         regenerate snmp.yml with a current generator (upstream's auth-split-migration.md)",
        converted.join(", ")
    )))
}
