//! snmp.yml of snmp_exporter ≤ 0.22, whose modules carry their own `version` and `auth`:
//! each such module's credentials become an entry of `auths` named after the module, which
//! a request naming no auth uses for it (so that old scrape configs keep working).

use std::collections::BTreeMap;

use super::types::{Auth, File, LegacyAuth};
use super::ConfigError;

/// Moves the credentials of old-format modules into `auths`; the warning to print once,
/// when there were any.
pub(super) fn convert(file: &mut File) -> Result<Option<String>, ConfigError> {
    let mut converted = Vec::new();
    for (name, module) in &mut file.modules {
        if module.auth.is_none() && module.version.is_none() {
            continue;
        }
        let auth_name = move_to_auths(
            &mut file.auths,
            name,
            module.version.take(),
            module.auth.take(),
        )
        .map_err(|message| ConfigError::Invalid {
            path: "snmp.yml".into(),
            key: format!("modules.{name}.auth"),
            message,
        })?;
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

/// The credentials `version` and `auth` of the old-format module `module`, put into `auths`
/// under the module's name (`_legacy` appended while that name is taken): the name chosen, or
/// why the credentials are not an auth.
pub(crate) fn move_to_auths(
    auths: &mut BTreeMap<String, Auth>,
    module: &str,
    version: Option<i64>,
    auth: Option<LegacyAuth>,
) -> Result<String, String> {
    let raw = auth.unwrap_or_default().into_raw(version);
    let auth = Auth::try_from(raw)?;
    let mut auth_name = module.to_string();
    while auths.contains_key(&auth_name) {
        auth_name.push_str("_legacy");
    }
    auths.insert(auth_name.clone(), auth);
    Ok(auth_name)
}

/// `file`'s modules in the format of snmp_exporter ≤ 0.22 (modules at the top, each with the
/// credentials of the auth `auth` inline), for an older exporter beside this one.
pub fn to_0_22(file: &super::File, auth: &str) -> Result<String, String> {
    let a = file
        .auths
        .get(auth)
        .ok_or_else(|| format!("no auth {auth:?}"))?;
    let mut modules = serde_yaml::to_value(&file.modules).map_err(|e| e.to_string())?;
    let mut credentials = serde_yaml::Mapping::new();
    let mut put = |k: &str, v: &str| {
        if !v.is_empty() {
            credentials.insert(k.into(), v.into());
        }
    };
    put("community", &a.community.0);
    if a.version == 3 {
        put("username", &a.username);
        put("security_level", &a.security_level);
        put("password", &a.password.0);
        put("auth_protocol", &a.auth_protocol);
        put("priv_protocol", &a.priv_protocol);
        put("priv_password", &a.priv_password.0);
    }
    put("context_name", &a.context_name);
    if let Some(map) = modules.as_mapping_mut() {
        for (_, m) in map.iter_mut() {
            m["version"] = a.version.into();
            m["auth"] = serde_yaml::Value::Mapping(credentials.clone());
        }
    }
    serde_yaml::to_string(&modules).map_err(|e| e.to_string())
}
