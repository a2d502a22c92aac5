//! The configuration compiled for scraping: credentials with their keys derived once, OIDs
//! parsed, regular expressions built, and each module's metrics in a tree by OID.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use regex::Regex;
use snmp_ber::OidBuf;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{Credentials, UsmUser};
use snmp_mib::OctetHint;

use super::types::{Auth, File, Index, Lookup, Metric, Module};
use super::ConfigError;
use crate::ty::Ty;

/// Auths and modules ready to scrape with.
#[derive(Debug, Default)]
pub struct Compiled {
    pub auths: BTreeMap<String, Arc<CompiledAuth>>,
    pub modules: BTreeMap<String, Arc<CompiledModule>>,
}

/// An auth: its SNMP version and credentials (USM keys derived from the passwords here,
/// once, not per scrape).
#[derive(Debug)]
pub struct CompiledAuth {
    pub version: i64,
    pub credentials: Credentials,
    pub context_name: String,
}

/// A module ready to run.
#[derive(Debug)]
pub struct CompiledModule {
    pub name: String,
    pub walk: Vec<(String, OidBuf)>,
    pub get: Vec<(String, OidBuf)>,
    pub max_repetitions: u32,
    pub retries: u32,
    pub timeout: Duration,
    pub allow_nonincreasing_oids: bool,
    /// Its requests from a socket not connected to the target (an agent that answers from
    /// another address; [`crate::scrape::run`]).
    pub use_unconnected_udp_socket: bool,
    pub filters: Vec<CompiledFilter>,
    pub metrics: Vec<CompiledMetric>,
    pub tree: MetricTree,
    /// The auth a request naming none uses (a module of the ≤ 0.22 format).
    pub legacy_auth: Option<String>,
}

/// A dynamic filter, compiled.
#[derive(Debug)]
pub struct CompiledFilter {
    pub oid: OidBuf,
    pub targets: Vec<String>,
    pub values: Vec<Regex>,
}

/// A metric, compiled.
#[derive(Debug)]
pub struct CompiledMetric {
    pub def: Metric,
    pub oid: Vec<u32>,
    pub ty: Ty,
    pub indexes: Vec<CompiledIndex>,
    pub lookups: Vec<CompiledLookup>,
    /// The family its samples go to: the name, `_info` after it for an EnumAsInfo.
    pub family: String,
    /// The family's help: the metric's, with what upstream adds for some types
    /// (` (EnumAsInfo)`, ` (EnumAsStateSet)`, ` (Bits)`, ` (regex extracted)`).
    pub family_help: String,
    /// The DISPLAY-HINT its octet-string values are written by (as upstream writes it).
    pub hint: Option<OctetHint>,
    pub regex_extracts: Vec<CompiledExtract>,
    /// The OID of the object before this one (its last arc less one): where a combined
    /// type's selector is read.
    pub prev_oid: Vec<u32>,
}

/// A `regex_extracts` entry, compiled.
#[derive(Debug)]
pub struct CompiledExtract {
    /// The family its samples go to: the metric's name and the suffix.
    pub name: String,
    pub suffix: String,
    /// The expressions tried in order (anchored, as upstream anchors them), each with its
    /// value template.
    pub exprs: Vec<(Regex, String)>,
}

/// An index, compiled.
#[derive(Debug)]
pub struct CompiledIndex {
    pub labelname: String,
    pub ty: Ty,
    pub fixed_size: usize,
    pub implied: bool,
    pub enum_values: BTreeMap<i64, String>,
}

/// A lookup, compiled.
#[derive(Debug)]
pub struct CompiledLookup {
    pub labels: Vec<String>,
    pub labelname: String,
    pub oid: Vec<u32>,
    pub prev_oid: Vec<u32>,
    /// `None`: a type the collector does not name (rendered as an octet string).
    pub ty: Option<Ty>,
    pub hint: Option<OctetHint>,
    pub enum_values: BTreeMap<i64, String>,
}

/// A module's metrics by OID: a binding belongs to the first metric on its OID's path.
#[derive(Debug, Default)]
pub struct MetricTree {
    nodes: Vec<Node>,
}

#[derive(Debug, Default)]
struct Node {
    /// (arc, node), sorted by arc: a MIB subtree's fan-out is small.
    children: Vec<(u32, usize)>,
    metric: Option<usize>,
}

impl Node {
    fn child(&self, arc: u32) -> Option<usize> {
        self.children
            .binary_search_by_key(&arc, |c| c.0)
            .ok()
            .map(|k| self.children[k].1)
    }
}

impl MetricTree {
    fn build(metrics: &[CompiledMetric]) -> MetricTree {
        let mut tree = MetricTree {
            nodes: vec![Node::default()],
        };
        for (k, m) in metrics.iter().enumerate() {
            let mut at = 0;
            for &arc in &m.oid {
                at = match tree.nodes[at].child(arc) {
                    Some(next) => next,
                    None => {
                        tree.nodes.push(Node::default());
                        let next = tree.nodes.len() - 1;
                        let children = &mut tree.nodes[at].children;
                        let k = children.partition_point(|c| c.0 < arc);
                        children.insert(k, (arc, next));
                        next
                    }
                };
            }
            tree.nodes[at].metric = Some(k);
        }
        tree
    }

    /// The metric `oid` is an instance of, and how many arcs its OID has.
    pub fn find(&self, oid: impl IntoIterator<Item = u32>) -> Option<(usize, usize)> {
        let mut at = 0;
        for (depth, arc) in oid.into_iter().enumerate() {
            at = self.nodes[at].child(arc)?;
            if let Some(m) = self.nodes[at].metric {
                return Some((m, depth + 1));
            }
        }
        None
    }
}

pub(super) fn compile(
    file: &File,
    origin: &BTreeMap<String, String>,
) -> Result<Compiled, ConfigError> {
    let mut out = Compiled::default();
    for (name, auth) in &file.auths {
        let compiled = compile_auth(auth).map_err(|message| ConfigError::Invalid {
            path: "snmp.yml".into(),
            key: format!("auths.{name}"),
            message,
        })?;
        out.auths.insert(name.clone(), Arc::new(compiled));
    }
    for (name, module) in &file.modules {
        let path = origin
            .get(name)
            .cloned()
            .unwrap_or_else(|| "snmp.yml".into());
        let compiled =
            compile_module(name, module).map_err(|(key, message)| ConfigError::Invalid {
                path,
                key: format!("modules.{name}.{key}"),
                message,
            })?;
        out.modules.insert(name.clone(), Arc::new(compiled));
    }
    Ok(out)
}

fn compile_auth(auth: &Auth) -> Result<CompiledAuth, String> {
    let credentials = match auth.version {
        1 => Credentials::V1(auth.community.0.as_bytes().to_vec()),
        2 => Credentials::V2c(auth.community.0.as_bytes().to_vec()),
        _ => Credentials::Usm(usm_user(auth)?),
    };
    Ok(CompiledAuth {
        version: auth.version,
        credentials,
        context_name: auth.context_name.clone(),
    })
}

fn usm_user(auth: &Auth) -> Result<UsmUser, String> {
    let auth_protocol = match auth.auth_protocol.as_str() {
        "MD5" => AuthProtocol::Md5,
        "SHA" => AuthProtocol::Sha1,
        "SHA224" => AuthProtocol::Sha224,
        "SHA256" => AuthProtocol::Sha256,
        "SHA384" => AuthProtocol::Sha384,
        _ => AuthProtocol::Sha512,
    };
    let priv_protocol = match auth.priv_protocol.as_str() {
        "DES" => PrivProtocol::Des,
        "AES" => PrivProtocol::Aes128,
        "AES192" => PrivProtocol::Aes192,
        "AES256" => PrivProtocol::Aes256,
        "AES192C" => PrivProtocol::Aes192C,
        _ => PrivProtocol::Aes256C,
    };
    let level = auth.security_level.as_str();
    let a = (level != "noAuthNoPriv").then_some((auth_protocol, auth.password.0.as_bytes()));
    let p = (level == "authPriv").then_some((priv_protocol, auth.priv_password.0.as_bytes()));
    let user = UsmUser::new(&auth.username, a, p).map_err(|e| e.to_string())?;
    Ok(user.with_context(auth.context_name.as_bytes()))
}

/// An OID as snmp.yml writes one (`1.3.6.1.2.1.2`, a leading dot allowed).
pub fn parse_oid(text: &str) -> Result<OidBuf, String> {
    let text = text.strip_prefix('.').unwrap_or(text);
    text.parse::<OidBuf>()
        .map_err(|e| format!("{text:?} is not a numeric OID: {e}"))
}

fn arcs(text: &str) -> Result<Vec<u32>, String> {
    Ok(parse_oid(text)?.as_oid().arcs().collect())
}

fn compile_module(name: &str, m: &Module) -> Result<CompiledModule, (String, String)> {
    let oids = |key: &str, list: &[String]| {
        list.iter()
            .enumerate()
            .map(|(k, s)| {
                parse_oid(s)
                    .map(|o| (s.trim_start_matches('.').to_string(), o))
                    .map_err(|e| (format!("{key}[{k}]"), e))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let walk = oids("walk", &m.walk)?;
    let get = oids("get", &m.get)?;
    let mut filters = Vec::new();
    for (k, f) in m.filters.iter().enumerate() {
        let key = |what: &str| format!("filters[{k}].{what}");
        let values = f
            .values
            .iter()
            .map(|v| Regex::new(v).map_err(|e| (key("values"), e.to_string())))
            .collect::<Result<_, _>>()?;
        filters.push(CompiledFilter {
            oid: parse_oid(&f.oid).map_err(|e| (key("oid"), e))?,
            targets: f
                .targets
                .iter()
                .map(|t| t.trim_start_matches('.').to_string())
                .collect(),
            values,
        });
    }
    let metrics = m
        .metrics
        .iter()
        .map(|metric| {
            compile_metric(metric)
                .map_err(|(key, e)| (format!("metrics[{}].{key}", metric.name), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tree = MetricTree::build(&metrics);
    Ok(CompiledModule {
        name: name.to_string(),
        walk,
        get,
        max_repetitions: m.max_repetitions.unwrap_or(25),
        retries: m.retries.unwrap_or(3),
        timeout: m.timeout.unwrap_or(Duration::from_secs(5)),
        allow_nonincreasing_oids: m.allow_nonincreasing_oids,
        use_unconnected_udp_socket: m.use_unconnected_udp_socket,
        filters,
        metrics,
        tree,
        legacy_auth: m.legacy_auth.clone(),
    })
}

fn compile_metric(m: &Metric) -> Result<CompiledMetric, (String, String)> {
    fn at(key: &str) -> impl Fn(String) -> (String, String) + '_ {
        move |e| (key.to_string(), e)
    }
    if !is_metric_name(&m.name) {
        return Err((
            "name".into(),
            format!("{:?} is not a valid metric name", m.name),
        ));
    }
    let oid = arcs(&m.oid).map_err(at("oid"))?;
    let ty = Ty::from_name(&m.kind)
        .ok_or_else(|| ("type".to_string(), format!("unknown type {:?}", m.kind)))?;
    let indexes = m.indexes.iter().map(compile_index).collect::<Vec<_>>();
    let mut known: Vec<&str> = m.indexes.iter().map(|i| i.labelname.as_str()).collect();
    let mut lookups = Vec::new();
    for (k, l) in m.lookups.iter().enumerate() {
        lookups.push(compile_lookup(l, &known).map_err(at(&format!("lookups[{k}]")))?);
        known.push(&l.labelname);
    }
    for name in &known {
        if !is_label_name(name) {
            return Err((
                "indexes".into(),
                format!("{name:?} is not a valid label name"),
            ));
        }
    }
    let mut regex_extracts = Vec::new();
    for (suffix, list) in &m.regex_extracts {
        let mut compiled = Vec::new();
        for r in list {
            let re = Regex::new(&format!("^(?:{})$", r.regex))
                .map_err(|e| (format!("regex_extracts.{suffix}"), e.to_string()))?;
            compiled.push((re, r.value.clone()));
        }
        regex_extracts.push(CompiledExtract {
            name: format!("{}{suffix}", m.name),
            suffix: suffix.clone(),
            exprs: compiled,
        });
    }
    let (family, added) = match ty {
        Ty::EnumAsInfo => (format!("{}_info", m.name), " (EnumAsInfo)"),
        Ty::EnumAsStateSet => (m.name.clone(), " (EnumAsStateSet)"),
        Ty::Bits => (m.name.clone(), " (Bits)"),
        _ if !regex_extracts.is_empty() => (m.name.clone(), " (regex extracted)"),
        _ => (m.name.clone(), ""),
    };
    Ok(CompiledMetric {
        prev_oid: previous(&oid),
        family,
        family_help: format!("{}{added}", m.help),
        hint: hint(&m.display_hint),
        def: m.clone(),
        oid,
        ty,
        indexes,
        lookups,
        regex_extracts,
    })
}

fn compile_index(i: &Index) -> CompiledIndex {
    CompiledIndex {
        labelname: i.labelname.clone(),
        // Checked as the file was read: one of INDEX_TYPES.
        ty: Ty::from_name(&i.kind).unwrap_or(Ty::OctetString),
        fixed_size: i.fixed_size,
        implied: i.implied,
        enum_values: i.enum_values.clone(),
    }
}

fn compile_lookup(l: &Lookup, known: &[&str]) -> Result<CompiledLookup, String> {
    if let Some(missing) = l.labels.iter().find(|x| !known.contains(&x.as_str())) {
        return Err(format!(
            "labels: {missing:?} is neither an index nor an earlier lookup of this metric"
        ));
    }
    let oid = if l.labels.is_empty() {
        Vec::new()
    } else {
        arcs(&l.oid)?
    };
    Ok(CompiledLookup {
        labels: l.labels.clone(),
        labelname: l.labelname.clone(),
        prev_oid: previous(&oid),
        oid,
        ty: Ty::from_name(&l.kind),
        hint: hint(&l.display_hint),
        enum_values: l.enum_values.clone(),
    })
}

/// A DISPLAY-HINT read as upstream reads one; none where it is empty or not one upstream
/// can apply (its values are then written by their type, as upstream writes them).
fn hint(display_hint: &str) -> Option<OctetHint> {
    if display_hint.is_empty() {
        return None;
    }
    OctetHint::parse_upper_hex(display_hint).ok()
}

/// The OID with its last arc less one (upstream's `getPrevOid`).
fn previous(oid: &[u32]) -> Vec<u32> {
    let mut p = oid.to_vec();
    if let Some(last) = p.last_mut() {
        *last = last.wrapping_sub(1);
    }
    p
}

/// `[a-zA-Z_:][a-zA-Z0-9_:]*`: a metric name Prometheus's text format takes unquoted.
pub fn is_metric_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// `[a-zA-Z_][a-zA-Z0-9_]*`: a label name.
pub fn is_label_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
