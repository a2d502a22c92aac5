//! snmp.yml as snmp_exporter 0.30 writes it: `auths` and `modules`, each entry checked as it
//! is read (so that an error carries the line and column serde_yaml saw it at).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How the exporter speaks to agents: a community (SNMPv1, v2c) or a USM user (SNMPv3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, try_from = "RawAuth")]
pub struct Auth {
    #[serde(skip_serializing_if = "Secret::is_empty")]
    pub community: Secret,
    pub security_level: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub username: String,
    #[serde(skip_serializing_if = "Secret::is_empty")]
    pub password: Secret,
    pub auth_protocol: String,
    pub priv_protocol: String,
    #[serde(skip_serializing_if = "Secret::is_empty")]
    pub priv_password: Secret,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub context_name: String,
    pub version: i64,
}

/// An auth as written, before its defaults and checks (upstream's `DefaultAuth`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAuth {
    #[serde(default = "public")]
    community: Secret,
    #[serde(default = "no_auth_no_priv")]
    security_level: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: Secret,
    #[serde(default = "md5")]
    auth_protocol: String,
    #[serde(default = "des")]
    priv_protocol: String,
    #[serde(default)]
    priv_password: Secret,
    #[serde(default)]
    context_name: String,
    #[serde(default = "two")]
    version: i64,
}

fn public() -> Secret {
    Secret("public".into())
}
fn no_auth_no_priv() -> String {
    "noAuthNoPriv".into()
}
fn md5() -> String {
    "MD5".into()
}
fn des() -> String {
    "DES".into()
}
fn two() -> i64 {
    2
}

/// The authentication protocols an auth may name.
pub const AUTH_PROTOCOLS: [&str; 6] = ["MD5", "SHA", "SHA224", "SHA256", "SHA384", "SHA512"];
/// The privacy protocols an auth may name.
pub const PRIV_PROTOCOLS: [&str; 6] = ["DES", "AES", "AES192", "AES192C", "AES256", "AES256C"];

impl TryFrom<RawAuth> for Auth {
    type Error = String;

    fn try_from(r: RawAuth) -> Result<Auth, String> {
        if !(1..=3).contains(&r.version) {
            return Err(format!(
                "version: SNMP version must be 1, 2 or 3, found {}",
                r.version
            ));
        }
        if r.version == 3 {
            let level = r.security_level.as_str();
            if !matches!(level, "noAuthNoPriv" | "authNoPriv" | "authPriv") {
                return Err(format!(
                    "security_level: expected authPriv, authNoPriv or noAuthNoPriv, found {level:?}"
                ));
            }
            if level == "authPriv" {
                if r.priv_password.0.is_empty() {
                    return Err("priv_password: missing, required for SNMPv3 with privacy (security_level authPriv)".into());
                }
                if !PRIV_PROTOCOLS.contains(&r.priv_protocol.as_str()) {
                    return Err(format!(
                        "priv_protocol: expected one of {PRIV_PROTOCOLS:?}, found {:?}",
                        r.priv_protocol
                    ));
                }
            }
            if level != "noAuthNoPriv" {
                if r.password.0.is_empty() {
                    return Err(format!(
                        "password: missing, required for SNMPv3 with authentication (security_level {level})"
                    ));
                }
                if !AUTH_PROTOCOLS.contains(&r.auth_protocol.as_str()) {
                    return Err(format!(
                        "auth_protocol: expected one of {AUTH_PROTOCOLS:?}, found {:?}",
                        r.auth_protocol
                    ));
                }
            }
            if r.username.is_empty() {
                return Err("username: missing, required for SNMPv3".into());
            }
        }
        Ok(Auth {
            community: r.community,
            security_level: r.security_level,
            username: r.username,
            password: r.password,
            auth_protocol: r.auth_protocol,
            priv_protocol: r.priv_protocol,
            priv_password: r.priv_password,
            context_name: r.context_name,
            version: r.version,
        })
    }
}

/// A community or password: read as written, shown as `<secret>` (as upstream's `/config`).
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(pub String);

impl Secret {
    /// Whether nothing was given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<secret>")
    }
}

impl Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str("<secret>")
    }
}

/// What one module walks and gets, and how its bindings become samples.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Module {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walk: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub get: Vec<String>,
    #[serde(default)]
    pub metrics: Vec<Metric>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_repetitions: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    #[serde(
        default,
        with = "super::duration",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeout: Option<Duration>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub use_unconnected_udp_socket: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_nonincreasing_oids: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<DynamicFilter>,
    /// snmp_exporter ≤ 0.22: the module's own SNMP version (moved to `auths`).
    #[serde(default, skip_serializing)]
    pub version: Option<i64>,
    /// snmp_exporter ≤ 0.22: the module's own credentials (moved to `auths`).
    #[serde(default, skip_serializing)]
    pub auth: Option<LegacyAuth>,
    /// The auth made from `version` and `auth` (the name it has in `auths`): what a request
    /// that names no auth uses for this module.
    #[serde(skip)]
    pub legacy_auth: Option<String>,
}

/// The `auth` block of a module of snmp_exporter ≤ 0.22.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LegacyAuth {
    pub community: Option<String>,
    pub security_level: Option<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    pub auth_protocol: Option<String>,
    pub priv_protocol: Option<String>,
    pub priv_password: Option<String>,
    pub context_name: Option<String>,
}

impl LegacyAuth {
    /// The auth these credentials and `version` make, with upstream's defaults where a part
    /// is missing.
    pub(crate) fn into_raw(self, version: Option<i64>) -> RawAuth {
        RawAuth {
            community: self.community.map(Secret).unwrap_or_else(public),
            security_level: self.security_level.unwrap_or_else(no_auth_no_priv),
            username: self.username.unwrap_or_default(),
            password: Secret(self.password.unwrap_or_default()),
            auth_protocol: self.auth_protocol.unwrap_or_else(md5),
            priv_protocol: self.priv_protocol.unwrap_or_else(des),
            priv_password: Secret(self.priv_password.unwrap_or_default()),
            context_name: self.context_name.unwrap_or_default(),
            version: version.unwrap_or_else(two),
        }
    }
}

/// A filter that walks `oid` first and keeps, of the `targets`, only the indexes whose value
/// there matches one of `values` (regular expressions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DynamicFilter {
    pub oid: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    #[serde(
        default,
        deserialize_with = "regexes",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub values: Vec<String>,
}

/// One metric: the object at `oid`, rendered as `type` says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metric {
    pub name: String,
    pub oid: String,
    #[serde(rename = "type", deserialize_with = "metric_type")]
    pub kind: String,
    #[serde(default)]
    pub help: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<Index>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lookups: Vec<Lookup>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub regex_extracts: BTreeMap<String, Vec<RegexExtract>>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub datetime_pattern: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enum_values: BTreeMap<i64, String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offset: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scale: f64,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub display_hint: String,
}

fn metric_type<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let kind = String::deserialize(d)?;
    if !METRIC_TYPES.contains(&kind.as_str()) {
        return Err(serde::de::Error::custom(format!(
            "invalid metric type {kind:?} (expected one of {METRIC_TYPES:?})"
        )));
    }
    Ok(kind)
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// The metric types snmp_exporter's collector renders.
pub const METRIC_TYPES: [&str; 20] = [
    "gauge",
    "counter",
    "Float",
    "Double",
    "DisplayString",
    "OctetString",
    "PhysAddress48",
    "InetAddressIPv4",
    "InetAddressIPv6",
    "InetAddress",
    "InetAddressMissingSize",
    "LldpPortId",
    "EnumAsInfo",
    "EnumAsStateSet",
    "Bits",
    "DateAndTime",
    "ParseDateAndTime",
    "NTPTimeStamp",
    "Integer32",
    "Integer",
];

/// The index types the collector renders as label values.
pub const INDEX_TYPES: [&str; 13] = [
    "Integer32",
    "Integer",
    "gauge",
    "counter",
    "PhysAddress48",
    "OctetString",
    "DisplayString",
    "InetAddressIPv4",
    "InetAddressIPv6",
    "InetAddress",
    "InetAddressMissingSize",
    "LldpPortId",
    "EnumAsInfo",
];

/// A part of a metric's index, and the label it becomes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, try_from = "RawIndex")]
pub struct Index {
    pub labelname: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "is_zero_usize")]
    pub fixed_size: usize,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub implied: bool,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enum_values: BTreeMap<i64, String>,
}

fn is_zero_usize(v: &usize) -> bool {
    *v == 0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIndex {
    labelname: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    fixed_size: usize,
    #[serde(default)]
    implied: bool,
    #[serde(default)]
    enum_values: BTreeMap<i64, String>,
}

impl TryFrom<RawIndex> for Index {
    type Error = String;

    fn try_from(r: RawIndex) -> Result<Index, String> {
        if !INDEX_TYPES.contains(&r.kind.as_str()) {
            return Err(format!(
                "type: invalid index type {:?} (expected one of {INDEX_TYPES:?})",
                r.kind
            ));
        }
        if r.fixed_size > 128 {
            return Err(format!(
                "fixed_size: {} is longer than an OID can be (128 arcs)",
                r.fixed_size
            ));
        }
        Ok(Index {
            labelname: r.labelname,
            kind: r.kind,
            fixed_size: r.fixed_size,
            implied: r.implied,
            enum_values: r.enum_values,
        })
    }
}

/// A label looked up in another object by the metric's indexes (e.g. ifDescr by ifIndex);
/// with no `labels`, the removal of the label `labelname` (`drop_source_indexes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lookup {
    #[serde(default)]
    pub labels: Vec<String>,
    pub labelname: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub oid: String,
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub display_hint: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enum_values: BTreeMap<i64, String>,
}

/// A number extracted from a string value by a regular expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegexExtract {
    #[serde(default = "dollar_one")]
    pub value: String,
    #[serde(deserialize_with = "regex")]
    pub regex: String,
}

/// A regular expression, checked as it is read.
fn regex<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    regex::Regex::new(&text).map_err(|e| serde::de::Error::custom(format!("regex: {e}")))?;
    Ok(text)
}

fn regexes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let texts = Vec::<String>::deserialize(d)?;
    for text in &texts {
        regex::Regex::new(text).map_err(|e| serde::de::Error::custom(format!("regex: {e}")))?;
    }
    Ok(texts)
}

fn dollar_one() -> String {
    "$1".into()
}

/// A whole snmp.yml (or several merged).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub auths: BTreeMap<String, Auth>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub modules: BTreeMap<String, Module>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
}
