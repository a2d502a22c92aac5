//! snmp_exporter's generator without net-snmp: generator.yml and MIB files in, snmp.yml
//! out, through this project's MIB compiler ([`tree::MibTree`]). The rules are upstream's
//! (`generator/tree.go` of snmp_exporter 0.30): what a walk name resolves to, the metric type
//! a SYNTAX and its conventions give, indexes and their combined types, lookups, overrides and
//! static filters.

pub mod config;
pub mod tree;
pub mod yaml;

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{File, Index, Lookup, Metric, Module};
use config::{GeneratorFile, ModuleConfig};
use tree::{GNode, MibTree};

/// The index types the collector renders as label values.
const RENDERABLE: [&str; 13] = crate::config::INDEX_TYPES;

/// The exporter's metric type of a node's type, when it has one (upstream's `metricType`).
fn metric_type(t: &str) -> Option<&'static str> {
    Some(match t {
        "InetAddress" => "InetAddress",
        "InetAddressMissingSize" => "InetAddressMissingSize",
        "LldpPortId" => "LldpPortId",
        "gauge" | "INTEGER" | "GAUGE" | "TIMETICKS" | "UINTEGER" | "UNSIGNED32" | "INTEGER32" => {
            "gauge"
        }
        "counter" | "COUNTER" | "COUNTER64" => "counter",
        "OctetString" | "OCTETSTR" | "OBJID" => "OctetString",
        "BITSTRING" => "Bits",
        "InetAddressIPv4" | "IpAddr" | "IPADDR" | "NETADDR" => "InetAddressIPv4",
        "PhysAddress48" => "PhysAddress48",
        "DisplayString" => "DisplayString",
        "Float" => "Float",
        "Double" => "Double",
        "InetAddressIPv6" => "InetAddressIPv6",
        "DateAndTime" => "DateAndTime",
        "ParseDateAndTime" => "ParseDateAndTime",
        "NTPTimeStamp" => "NTPTimeStamp",
        "EnumAsInfo" => "EnumAsInfo",
        "EnumAsStateSet" => "EnumAsStateSet",
        _ => return None,
    })
}

/// The type a combined type follows (an InetAddress its InetAddressType).
fn combined_with(t: &str) -> Option<&'static str> {
    match t {
        "InetAddress" | "InetAddressMissingSize" => Some("InetAddressType"),
        "LldpPortId" => Some("LldpPortIdSubtype"),
        _ => None,
    }
}

fn accessible(access: &str) -> bool {
    matches!(
        access,
        "ACCESS_READONLY" | "ACCESS_READWRITE" | "ACCESS_CREATE" | "ACCESS_NOACCESS"
    )
}

/// `[^a-zA-Z0-9_]` replaced by `_`.
pub fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Overlapping subtrees reduced to the outermost, in string order (upstream's
/// `minimizeOids`).
fn minimize(mut oids: Vec<String>) -> Vec<String> {
    oids.sort();
    let mut out: Vec<String> = Vec::new();
    let mut prev = String::new();
    for oid in oids {
        if prev.is_empty() || !format!("{oid}.").starts_with(&prev) {
            prev = format!("{oid}.");
            out.push(oid);
        }
    }
    out
}

/// What went wrong generating a module.
#[derive(Debug, thiserror::Error)]
#[error("module {module}: {message}")]
pub struct GenerateError {
    pub module: String,
    pub message: String,
}

/// Every module that could not be generated, of how many asked for.
#[derive(Debug)]
pub struct GenerateErrors {
    pub errors: Vec<GenerateError>,
    pub modules: usize,
}

impl std::fmt::Display for GenerateErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} modules could not be generated",
            self.errors.len(),
            self.modules
        )?;
        for e in &self.errors {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for GenerateErrors {}

/// snmp.yml for `generator`, from `mibs`; warnings (a node or index not found, a label two
/// modules define) in `warnings`.
pub fn generate(
    generator: &GeneratorFile,
    mibs: &MibTree,
    warnings: &mut Vec<String>,
) -> Result<File, GenerateErrors> {
    let mut out = File {
        auths: generator.auths.clone(),
        version: generator.version,
        ..File::default()
    };
    let mut errors = Vec::new();
    if let Err(e) = legacy_auths(generator, &mut out, warnings) {
        errors.push(e);
    }
    for (name, cfg) in &generator.modules {
        let mut tree_warnings = Vec::new();
        let module = match module(cfg, mibs, &mut tree_warnings) {
            Ok(m) => m,
            Err(message) => {
                errors.push(GenerateError {
                    module: name.clone(),
                    message,
                });
                continue;
            }
        };
        warnings.extend(
            tree_warnings
                .into_iter()
                .map(|w| format!("module {name}: {w}")),
        );
        out.modules.insert(name.clone(), module);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(GenerateErrors {
            errors,
            modules: generator.modules.len(),
        })
    }
}

/// The credentials of modules in the format of 0.22 and older (`version` and `auth` inside
/// the module) as auths named after their modules, with one warning naming them.
fn legacy_auths(
    generator: &GeneratorFile,
    out: &mut File,
    warnings: &mut Vec<String>,
) -> Result<(), GenerateError> {
    let mut moved = Vec::new();
    for (name, cfg) in &generator.modules {
        if cfg.version.is_none() && cfg.auth.is_none() {
            continue;
        }
        let auth =
            crate::config::move_to_auths(&mut out.auths, name, cfg.version, cfg.auth.clone())
                .map_err(|message| GenerateError {
                    module: name.clone(),
                    message: format!("auth: {message}"),
                })?;
        moved.push(if auth == *name {
            name.clone()
        } else {
            format!("{name} (auth {auth})")
        });
    }
    if !moved.is_empty() {
        warnings.push(format!(
            "generator.yml is in the format of snmp_exporter 0.22 and older (`version` and `auth` inside modules): \
             the credentials of {} are written as auths named after their modules (scrape with `auth=<module>`); \
             move them under `auths` (upstream's auth-split-migration.md)",
            moved.join(", ")
        ));
    }
    Ok(())
}

/// The MIB tree `generator` needs from the modules of `dirs` (and the standard modules):
/// every module's outline, and everything the generator reads of the nodes its walks,
/// their indexes, its lookups and overrides reach, and of no others
/// ([`MibTree::outline`], [`MibTree::detail_nodes`]).
pub fn load_tree(
    dirs: &[std::path::PathBuf],
    generator: &GeneratorFile,
) -> Result<MibTree, String> {
    let mut tree = MibTree::outline(dirs)?;
    // Each round reads at least one node more (an index or the column before an InetAddress
    // found in the last): at most as many rounds as nodes, in practice two or three.
    loop {
        let wanted = reached(&tree, generator);
        if wanted.is_empty() {
            return Ok(tree);
        }
        tree.detail_nodes(&wanted);
    }
}

/// The nodes `generator` reaches that are not read in full yet (indexes into the tree's).
fn reached(tree: &MibTree, generator: &GeneratorFile) -> Vec<usize> {
    let mut nodes: Vec<&GNode> = Vec::new();
    for cfg in generator.modules.values() {
        let names = cfg
            .walk
            .iter()
            .chain(cfg.lookups.iter().map(|l| &l.lookup))
            .chain(cfg.overrides.keys());
        for name in names {
            let candidates = tree.collisions.get(name.as_str());
            let named = candidates
                .into_iter()
                .flatten()
                .filter_map(|(_, oid)| tree.get(oid))
                .chain(tree.get(name));
            for n in named {
                nodes.extend(tree.subtree(n));
            }
            if tree.get(name).is_none() {
                nodes.extend(tree.longest_prefix(name));
            }
        }
    }
    // What the nodes read so far point at: their indexes, the column before an InetAddress.
    let mut more = Vec::new();
    for n in nodes.iter().filter(|n| n.detailed) {
        more.extend(n.indexes.iter().filter_map(|i| tree.get(i)));
        if n.ty.starts_with("InetAddress") {
            more.extend(column_before(&n.oid()).and_then(|oid| tree.get(&oid)));
        }
    }
    nodes.extend(more);
    tree.undetailed(nodes)
}

/// How a walk entry resolved.
enum Found<'t> {
    Scalar(&'t GNode),
    Instance(&'t GNode),
    Subtree(&'t GNode),
}

fn find<'t>(oid: &str, mibs: &'t MibTree) -> Option<Found<'t>> {
    if let Some(n) = mibs.get(oid) {
        let metric = metric_type(&n.ty).is_some() && accessible(n.access) && n.indexes.is_empty();
        return Some(if metric {
            Found::Scalar(n)
        } else {
            Found::Subtree(n)
        });
    }
    let n = mibs.longest_prefix(oid)?;
    (metric_type(&n.ty).is_some() && accessible(n.access) && !n.indexes.is_empty())
        .then_some(Found::Instance(n))
}

/// Why a walk entry resolves to nothing: a module that defines it failed, or no module does.
fn not_found(oid: &str, cfg: &ModuleConfig, mibs: &MibTree) -> String {
    // The entry as written (a name) when the OID is what it resolved to.
    let written = cfg
        .walk
        .iter()
        .find(|w| w.as_str() == oid)
        .map_or(oid, String::as_str);
    match mibs.failed_defining(written) {
        Some(f) => format!(
            "cannot find oid '{written}' to walk: module {} defines it but could not be used ({} objects lost with it): {}",
            f.name,
            f.objects.len(),
            f.error.lines().next().unwrap_or("")
        ),
        None => format!("cannot find oid '{written}' to walk: no module on the path defines it"),
    }
}

/// Everything one module needs, as it is being made.
struct Making<'t> {
    mibs: &'t MibTree,
    need: BTreeSet<String>,
    instances: BTreeMap<String, Vec<String>>,
    metrics: Vec<Metric>,
}

fn module(
    cfg: &ModuleConfig,
    mibs: &MibTree,
    warnings: &mut Vec<String>,
) -> Result<Module, String> {
    // Type overrides apply to the nodes themselves, as upstream's do.
    let mut typed: BTreeMap<String, String> = BTreeMap::new();
    for (name, o) in &cfg.overrides {
        if o.kind.is_empty() {
            continue;
        }
        if metric_type(&o.kind) != Some(o.kind.as_str()) {
            return Err(format!(
                "invalid metric type override '{}' for {name}",
                o.kind
            ));
        }
        match mibs.get(name) {
            Some(n) => {
                typed.insert(n.oid(), o.kind.clone());
            }
            None => warnings.push(format!("could not find node {name:?} to override its type")),
        }
    }
    let ty = |n: &GNode| typed.get(&n.oid()).cloned().unwrap_or_else(|| n.ty.clone());
    let mut m = Making {
        mibs,
        need: BTreeSet::new(),
        instances: BTreeMap::new(),
        metrics: Vec::new(),
    };
    let mut walk = Vec::new();
    for oid in &cfg.walk {
        if oid.starts_with('.') {
            return Err(format!(
                "invalid OID {oid}, prefix of '.' should be removed"
            ));
        }
        // Two objects of one name (vendors reuse names): an error naming both, where
        // upstream silently takes one.
        if let Some(candidates) = mibs.collisions.get(oid) {
            let names: Vec<String> = candidates
                .iter()
                .map(|(module, o)| format!("{module}::{oid} ({o})"))
                .collect();
            return Err(format!(
                "walk name '{oid}' names {}: write one of them to pick it",
                names.join(" and ")
            ));
        }
        walk.push(mibs.get(oid).map_or_else(|| oid.clone(), |n| n.oid()));
    }
    let mut tops: Vec<&GNode> = Vec::new();
    for oid in minimize(walk) {
        let found = find(&oid, mibs).ok_or_else(|| not_found(&oid, cfg, mibs))?;
        let node = match found {
            Found::Subtree(n) => {
                m.need.insert(oid.clone());
                n
            }
            Found::Instance(n) => {
                m.need.insert(format!("{oid}."));
                let index = oid.replacen(&n.oid(), "", 1);
                m.instances.entry(n.oid()).or_default().push(index);
                n
            }
            Found::Scalar(n) => {
                m.need.insert(format!("{oid}.0."));
                n
            }
        };
        if !tops.iter().any(|t| *t.arcs == *node.arcs) {
            tops.push(node);
        }
    }
    // In the text's order, as upstream sorts them.
    tops.sort_by_cached_key(|n| n.oid());
    for top in tops {
        for n in mibs.subtree(top) {
            metric_of(n, &ty(n), cfg, &mut m, &ty, warnings)?;
        }
    }
    lookups(cfg, &mut m)?;
    inet_addresses(&mut m);
    overrides(cfg, &mut m, warnings);
    for f in &cfg.filters.fixed {
        for target in &f.targets {
            let oid = mibs.get(target).map_or_else(|| target.clone(), |n| n.oid());
            m.need.remove(&oid);
            for i in &f.indices {
                m.need.insert(format!("{oid}.{i}."));
            }
        }
    }
    let (mut walk, mut get) = (Vec::new(), Vec::new());
    for k in minimize(m.need.into_iter().collect()) {
        match k.strip_suffix('.') {
            Some(g) => get.push(g.to_string()),
            None => walk.push(k),
        }
    }
    Ok(Module {
        walk,
        get,
        metrics: m.metrics,
        max_repetitions: cfg.max_repetitions,
        retries: cfg.retries,
        timeout: cfg.timeout,
        use_unconnected_udp_socket: cfg.use_unconnected_udp_socket,
        allow_nonincreasing_oids: cfg.allow_nonincreasing_oids,
        filters: cfg.filters.dynamic.clone(),
        ..Module::default()
    })
}

/// The metric of node `n`, when it is one, with its indexes.
fn metric_of(
    n: &GNode,
    n_ty: &str,
    cfg: &ModuleConfig,
    m: &mut Making<'_>,
    ty: &dyn Fn(&GNode) -> String,
    warnings: &mut Vec<String>,
) -> Result<(), String> {
    let Some(t) = metric_type(n_ty) else {
        return Ok(());
    };
    if !accessible(n.access) {
        return Ok(());
    }
    let name = sanitize(&n.label);
    if cfg.overrides.get(&name).is_some_and(|o| o.ignore) {
        return Ok(());
    }
    let mut indexes: Vec<Index> = Vec::new();
    let (mut prev_tc, mut prev2_tc) = (String::new(), String::new());
    for (count, i) in n.indexes.iter().enumerate() {
        let Some(index_node) = m.mibs.get(i) else {
            warnings.push(format!("could not find index {i} of {}", n.label));
            return Ok(());
        };
        let index_ty = ty(index_node);
        let Some(mut it) = metric_type(&index_ty) else {
            warnings.push(format!(
                "cannot handle index type {index_ty} of {i} on {}",
                n.label
            ));
            return Ok(());
        };
        if !index_node.enums.is_empty() && it != "EnumAsStateSet" && index_ty != "gauge" {
            it = "EnumAsInfo";
        }
        if !RENDERABLE.contains(&it) {
            return Err(format!(
                "cannot use index '{i}' of type {it} on metric '{}'",
                n.label
            ));
        }
        if let Some(follows) = combined_with(it) {
            if follows == prev_tc {
                indexes.pop();
            } else if follows == prev2_tc {
                indexes.truncate(indexes.len().saturating_sub(2));
            } else {
                warnings.push(format!(
                    "cannot handle index type {it} on {}: no {follows} before it",
                    n.label
                ));
                return Ok(());
            }
        }
        prev2_tc = std::mem::replace(&mut prev_tc, index_node.tc.clone());
        indexes.push(Index {
            labelname: i.clone(),
            kind: it.to_string(),
            fixed_size: index_node.fixed_size,
            implied: n.implied && count + 1 == n.indexes.len(),
            enum_values: index_node.enums.clone(),
        });
    }
    m.metrics.push(Metric {
        name,
        oid: n.oid(),
        kind: t.to_string(),
        help: format!("{} - {}", n.description, n.oid()),
        indexes,
        lookups: Vec::new(),
        regex_extracts: BTreeMap::new(),
        datetime_pattern: String::new(),
        enum_values: n.enums.clone(),
        offset: 0.0,
        scale: 0.0,
        display_hint: String::new(),
    });
    Ok(())
}

/// The module's lookups added to every metric that has their source indexes.
fn lookups(cfg: &ModuleConfig, m: &mut Making<'_>) -> Result<(), String> {
    let required: Vec<&String> = cfg.lookups.iter().flat_map(|l| &l.source_indexes).collect();
    for metric in &mut m.metrics {
        let mut drop = Vec::new();
        for l in &cfg.lookups {
            let found = metric
                .indexes
                .iter()
                .filter(|i| l.source_indexes.contains(&i.labelname))
                .count();
            if found != l.source_indexes.len() {
                continue;
            }
            let node = index_node(m.mibs, &l.lookup, &metric.oid)
                .ok_or_else(|| format!("unknown index '{}'", l.lookup))?;
            let mut t = metric_type(&node.ty)
                .ok_or_else(|| format!("unknown index type {} for {}", node.ty, l.lookup))?;
            if !node.enums.is_empty() && t != "EnumAsStateSet" && node.ty != "gauge" {
                t = "EnumAsInfo";
            }
            let display_hint = match l.display_hint.as_str() {
                "@mib" => node.hint.clone(),
                h => h.to_string(),
            };
            let lookup = Lookup {
                labels: l.source_indexes.iter().map(|s| sanitize(s)).collect(),
                labelname: sanitize(&node.label),
                oid: node.oid(),
                kind: t.to_string(),
                display_hint,
                enum_values: node.enums.clone(),
            };
            if required.contains(&&lookup.labelname) {
                if !RENDERABLE.contains(&t) {
                    return Err(format!(
                        "cannot use lookup '{}' of type {t} as an index",
                        l.lookup
                    ));
                }
                metric.indexes.push(Index {
                    labelname: lookup.labelname.clone(),
                    kind: t.to_string(),
                    fixed_size: 0,
                    implied: false,
                    enum_values: node.enums.clone(),
                });
            }
            metric.lookups.push(lookup);
            match m.instances.get(&metric.oid) {
                Some(list) => {
                    for index in list {
                        m.need.insert(format!("{}{index}.", node.oid()));
                    }
                }
                None => {
                    m.need.insert(node.oid());
                }
            }
            if l.drop_source_indexes {
                drop.extend(l.source_indexes.iter().cloned());
            }
        }
        for l in drop {
            metric.lookups.push(Lookup {
                labels: Vec::new(),
                labelname: sanitize(&l),
                oid: String::new(),
                kind: String::new(),
                display_hint: String::new(),
                enum_values: BTreeMap::new(),
            });
        }
        for i in &mut metric.indexes {
            i.labelname = sanitize(&i.labelname);
        }
    }
    Ok(())
}

/// Of several nodes labelled `lookup`, the one beside the metric (all arcs but the last
/// shared); else the one the label names.
fn index_node<'t>(mibs: &'t MibTree, lookup: &str, metric_oid: &str) -> Option<&'t GNode> {
    let prefix = metric_oid.rsplit_once('.').map_or("", |(p, _)| p);
    // Only a label several nodes share has a choice to make.
    let beside = mibs.collisions.get(lookup).and_then(|candidates| {
        let (_, oid) = candidates.iter().find(|(_, oid)| oid.starts_with(prefix))?;
        mibs.get(oid)
    });
    beside.or_else(|| mibs.get(lookup))
}

/// snmp.yml's text for `file` as upstream's generator writes it ([`yaml`]), its secrets
/// written out (the exporter must read them), under a line saying it was generated.
pub fn to_yaml(file: &File) -> Result<String, String> {
    let mut doc = serde_yaml::to_value(file).map_err(|e| e.to_string())?;
    for (name, auth) in &file.auths {
        let Some(entry) = doc.get_mut("auths").and_then(|a| a.get_mut(name.as_str())) else {
            continue;
        };
        for (key, secret) in [
            ("community", &auth.community),
            ("password", &auth.password),
            ("priv_password", &auth.priv_password),
        ] {
            if !secret.is_empty() {
                entry[key] = secret.0.clone().into();
            }
        }
    }
    // Upstream's first line and its YAML library's layout: a diff against upstream's
    // snmp.yml shows only what differs.
    let head = "# WARNING: This file was auto-generated using snmp_exporter generator, manual changes will be lost.\n";
    // Room for the whole file (the 7 modules of exporter/generator.yml are 120 kB): one
    // buffer, not one doubled a dozen times.
    let mut out = String::with_capacity(256 * 1024);
    out.push_str(head);
    Ok(yaml::to_string_after(out, &doc))
}

/// Writes `text` to `path` as its whole content: written over what the file held, then cut
/// to `text`'s length, instead of emptied first. Emptying a file frees its pages, and a
/// generator run mostly writes snmp.yml over the last run's, of about the same size: 132 µs
/// against 4 µs for a 120 kB snmp.yml here (200 runs each, medians). Anything but a regular
/// file (`-o /dev/stdout`, a pipe) is only written to.
///
/// ```no_run
/// snmp_exporter::generate::write_over("snmp.yml".as_ref(), "modules: {}\n")?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_over(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    if file.metadata()?.is_file() {
        file.set_len(text.len() as u64)?;
    }
    Ok(())
}

/// The OID of the column before `oid`'s (its last arc less one), where there is one: the
/// InetAddressType an InetAddress column follows.
fn column_before(oid: &str) -> Option<String> {
    let (head, last) = oid.rsplit_once('.')?;
    let before = last.parse::<u32>().ok()?.checked_sub(1)?;
    Some(format!("{head}.{before}"))
}

/// An InetAddress whose object before it is not an InetAddressType is an octet string; one
/// whose is gets that object walked too.
fn inet_addresses(m: &mut Making<'_>) {
    for metric in &mut m.metrics {
        if metric.kind != "InetAddress" && metric.kind != "InetAddressMissingSize" {
            continue;
        }
        let prev = column_before(&metric.oid).unwrap_or_default();
        match m.mibs.get(&prev) {
            Some(p) if p.tc == "InetAddressType" => match m.instances.get(&metric.oid) {
                Some(list) => {
                    for index in list {
                        m.need.insert(format!("{prev}{index}."));
                    }
                }
                None => {
                    m.need.insert(prev);
                }
            },
            _ => metric.kind = "OctetString".into(),
        }
    }
}

/// Overrides of help, name, scale and the rest, by metric name or OID.
fn overrides(cfg: &ModuleConfig, m: &mut Making<'_>, warnings: &mut Vec<String>) {
    for (name, o) in &cfg.overrides {
        for metric in m
            .metrics
            .iter_mut()
            .filter(|x| &x.name == name || &x.oid == name)
        {
            metric.regex_extracts = o.regex_extracts.clone();
            metric.datetime_pattern = o.datetime_pattern.clone();
            metric.offset = o.offset;
            metric.scale = o.scale;
            if !o.help.is_empty() {
                metric.help = o.help.clone();
            }
            if !o.name.is_empty() {
                metric.name = o.name.clone();
            }
            match o.display_hint.as_str() {
                "" => {}
                "@mib" => match m.mibs.get(&metric.oid).filter(|n| !n.hint.is_empty()) {
                    Some(n) => metric.display_hint = n.hint.clone(),
                    None => warnings.push(format!(
                        "display_hint @mib for {}, whose MIB has no DISPLAY-HINT",
                        metric.oid
                    )),
                },
                h => metric.display_hint = h.to_string(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file written over holds the new text alone, shorter or longer than the old one; a
    /// file that is not there is made.
    #[test]
    fn written_over_a_file_holds_the_new_text_alone() {
        let dir = std::env::temp_dir().join(format!("write-over-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("snmp.yml");
        for text in [
            "a longer first text\n",
            "short\n",
            "",
            "longer again than before\n",
        ] {
            write_over(&path, text).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        // A path that cannot be opened says why.
        assert!(write_over(&dir.join("no/such/dir/snmp.yml"), "x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A generator.yml of 0.22 and older: each module's `version` and `auth` become an auth
    /// of the module's name, said once; a bad one fails that module, naming it.
    #[test]
    fn credentials_inside_modules_become_auths() {
        let g: GeneratorFile = serde_yaml::from_str(
            "modules:\n  ups:\n    version: 3\n    auth:\n      username: u\n      security_level: authNoPriv\n      password: secret12\n      auth_protocol: SHA\n  plain:\n    walk: []\n",
        )
        .unwrap();
        let mut warnings = Vec::new();
        let file = generate(&g, &MibTree::default(), &mut warnings).unwrap();
        let auth = &file.auths["ups"];
        assert_eq!((auth.version, auth.username.as_str()), (3, "u"));
        assert_eq!(auth.auth_protocol, "SHA");
        assert!(!file.auths.contains_key("plain"));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("0.22 and older") && warnings[0].contains("ups"));
        let bad: GeneratorFile =
            serde_yaml::from_str("modules:\n  old:\n    version: 7\n").unwrap();
        let e = generate(&bad, &MibTree::default(), &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("module old: auth:"), "{e}");
    }

    #[test]
    fn minimize_keeps_outermost() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            minimize(v(&[
                "1.3.6.1.2.1.2",
                "1.3.6.1.2.1.2.2.1",
                "1.3.6.1.2.1.20",
                "1.3.6.1.2.1.1.3.0."
            ])),
            v(&["1.3.6.1.2.1.1.3.0.", "1.3.6.1.2.1.2", "1.3.6.1.2.1.20"])
        );
        assert_eq!(sanitize("a-b.c"), "a_b_c");
    }
}
