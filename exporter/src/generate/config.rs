//! generator.yml as snmp_exporter's generator reads it (0.30): `auths`, copied through, and
//! `modules`, each with what to walk, lookups, overrides and filters. The format of 0.22 and
//! older, with `version` and `auth` inside modules, is read too (see [`super::generate`]).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;

use crate::config::{Auth, DynamicFilter, LegacyAuth, RegexExtract};

/// A whole generator.yml.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorFile {
    #[serde(default)]
    pub auths: BTreeMap<String, Auth>,
    #[serde(default)]
    pub modules: BTreeMap<String, ModuleConfig>,
    #[serde(default)]
    pub version: Option<i64>,
}

/// One module to generate.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleConfig {
    #[serde(default)]
    pub walk: Vec<String>,
    #[serde(default)]
    pub lookups: Vec<LookupConfig>,
    #[serde(default)]
    pub overrides: BTreeMap<String, Override>,
    #[serde(default)]
    pub filters: Filters,
    #[serde(default)]
    pub max_repetitions: Option<u32>,
    #[serde(default)]
    pub retries: Option<u32>,
    #[serde(default, deserialize_with = "crate::config::duration::deserialize")]
    pub timeout: Option<Duration>,
    #[serde(default)]
    pub use_unconnected_udp_socket: bool,
    #[serde(default)]
    pub allow_nonincreasing_oids: bool,
    /// The generator of snmp_exporter ≤ 0.22: the module's own SNMP version (becomes an auth
    /// named after the module).
    #[serde(default)]
    pub version: Option<i64>,
    /// The generator of snmp_exporter ≤ 0.22: the module's own credentials (with `version`,
    /// an auth named after the module).
    #[serde(default)]
    pub auth: Option<LegacyAuth>,
}

/// A lookup: the labels `source_indexes` replaced (or joined) by the object `lookup` at them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookupConfig {
    pub source_indexes: Vec<String>,
    pub lookup: String,
    #[serde(default)]
    pub drop_source_indexes: bool,
    #[serde(default)]
    pub display_hint: String,
}

/// What a module changes of one metric (by name or OID).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Override {
    #[serde(default)]
    pub ignore: bool,
    #[serde(default)]
    pub regex_extracts: BTreeMap<String, Vec<RegexExtract>>,
    #[serde(default)]
    pub datetime_pattern: String,
    #[serde(default)]
    pub offset: f64,
    #[serde(default)]
    pub scale: f64,
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub help: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub display_hint: String,
}

/// Static filters (indexes fixed here) and dynamic ones (passed to snmp.yml).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filters {
    #[serde(default, rename = "static")]
    pub fixed: Vec<StaticFilter>,
    #[serde(default)]
    pub dynamic: Vec<DynamicFilter>,
}

/// Only these indexes of the targets.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaticFilter {
    #[serde(default)]
    pub targets: Vec<String>,
    #[serde(default)]
    pub indices: Vec<String>,
}
