//! A module's bindings rendered into samples as snmp_exporter 0.30's collector renders them:
//! the metric a binding belongs to, its indexes and lookups as labels, its value by the
//! metric's type.

pub mod exposition;
pub mod time;
pub mod value;

use std::collections::HashMap;

use snmp_ber::OidBuf;
use snmp_client::{Value, VarBind};

use crate::config::{CompiledLookup, CompiledMetric, CompiledModule};
use crate::ty::Ty;
pub use exposition::{Exposition, Format, Kind, Labels};

/// How values are read.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// `--snmp.wrap-large-counters`: Counter64 values modulo 2^53.
    pub wrap_counters: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            wrap_counters: true,
        }
    }
}

/// The bindings of one scrape by OID (a later binding of the same OID replaces an earlier).
pub struct Bindings<'a> {
    by_oid: HashMap<&'a OidBuf, &'a Value, foldhash::fast::RandomState>,
}

impl<'a> Bindings<'a> {
    /// Indexes `bindings`.
    pub fn new(bindings: &'a [VarBind]) -> Bindings<'a> {
        let mut by_oid = HashMap::with_capacity_and_hasher(bindings.len(), Default::default());
        for vb in bindings {
            by_oid.insert(&vb.oid, &vb.value);
        }
        Bindings { by_oid }
    }

    fn get(&self, arcs: &[u32]) -> Option<&'a Value> {
        let oid = OidBuf::from_arcs(arcs).ok()?;
        self.by_oid.get(&oid).copied()
    }
}

/// Renders every binding of `bindings` that belongs to one of `module`'s metrics into `out`.
pub fn render(
    module: &CompiledModule,
    bindings: &Bindings<'_>,
    options: RenderOptions,
    out: &mut Exposition,
) {
    let mut arcs: Vec<u32> = Vec::with_capacity(32);
    for (oid, value) in &bindings.by_oid {
        arcs.clear();
        arcs.extend(oid.as_oid().arcs());
        if let Some((k, depth)) = module.tree.find(arcs.iter().copied()) {
            let metric = &module.metrics[k];
            samples(metric, &arcs[depth..], value, bindings, options, out);
        }
    }
}

/// A metric's labels from its index arcs and lookups; and the arcs each label came from.
fn labels(metric: &CompiledMetric, index: &[u32], bindings: &Bindings<'_>) -> Labels {
    let mut labels: Labels = Vec::with_capacity(metric.indexes.len() + metric.lookups.len() + 1);
    let mut label_arcs: Vec<(&str, Vec<u32>)> = Vec::with_capacity(labels.capacity());
    let mut rest = index;
    for i in &metric.indexes {
        let (text, used, remaining) =
            value::index(rest, i.ty, i.fixed_size, i.implied, &i.enum_values);
        set(&mut labels, &i.labelname, text);
        set_arcs(&mut label_arcs, &i.labelname, used);
        rest = remaining;
    }
    for l in &metric.lookups {
        if l.labels.is_empty() {
            labels.retain(|(n, _)| n != &l.labelname);
            continue;
        }
        let (text, arc) = lookup(l, &label_arcs, bindings);
        set(&mut labels, &l.labelname, text);
        set_arcs(&mut label_arcs, &l.labelname, arc.into_iter().collect());
    }
    labels
}

fn set(labels: &mut Labels, name: &str, value: String) {
    match labels.iter_mut().find(|(n, _)| n == name) {
        Some(l) => l.1 = value,
        None => labels.push((name.to_string(), value)),
    }
}

fn set_arcs<'m>(all: &mut Vec<(&'m str, Vec<u32>)>, name: &'m str, arcs: Vec<u32>) {
    match all.iter_mut().find(|(n, _)| *n == name) {
        Some(l) => l.1 = arcs,
        None => all.push((name, arcs)),
    }
}

/// A lookup's label value, and the integer its value gives a chained lookup ("" when the
/// looked-up object has no such instance).
fn lookup(
    l: &CompiledLookup,
    label_arcs: &[(&str, Vec<u32>)],
    bindings: &Bindings<'_>,
) -> (String, Option<u32>) {
    let instance = |base: &[u32]| {
        let mut oid = base.to_vec();
        for label in &l.labels {
            if let Some((_, arcs)) = label_arcs.iter().find(|(n, _)| n == label) {
                oid.extend_from_slice(arcs);
            }
        }
        oid
    };
    let Some(found) = bindings.get(&instance(&l.oid)) else {
        return (String::new(), None);
    };
    let mut ty = l.ty;
    if let Some(t) = l.ty.filter(|t| t.is_combined()) {
        if let Some(selector) = bindings.get(&instance(&l.prev_oid)) {
            let n = value::number(selector, true) as i64;
            ty = t.selected_by(n).or(ty);
        }
    }
    let text = if ty == Some(Ty::EnumAsInfo) && !l.enum_values.is_empty() {
        let n = value::number(found, true) as i64;
        l.enum_values
            .get(&n)
            .cloned()
            .unwrap_or_else(|| n.to_string())
    } else {
        value::text(found, ty, &l.display_hint)
    };
    (text, value::arc(found))
}

/// The samples of one binding of `metric` (upstream's `pduToSamples`).
fn samples(
    metric: &CompiledMetric,
    index: &[u32],
    v: &Value,
    bindings: &Bindings<'_>,
    options: RenderOptions,
    out: &mut Exposition,
) {
    let def = &metric.def;
    let mut labels = labels(metric, index, bindings);
    let mut number = value::number(v, options.wrap_counters);
    let octets = match v {
        Value::OctetString(o) | Value::Opaque(o) => Some(o.as_slice()),
        _ => None,
    };
    let kind = match metric.ty {
        Ty::Counter => Kind::Counter,
        Ty::Gauge | Ty::Float | Ty::Double => Kind::Gauge,
        Ty::DateAndTime | Ty::NtpTimeStamp | Ty::ParseDateAndTime => {
            let parsed = match (metric.ty, octets) {
                (Ty::DateAndTime, Some(o)) => time::date_and_time(o),
                (Ty::NtpTimeStamp, Some(o)) => time::ntp_timestamp(o),
                (Ty::ParseDateAndTime, _) => {
                    let text = value::text(v, Some(Ty::DisplayString), "");
                    time::parse_with_pattern(&text, &def.datetime_pattern)
                }
                _ => Err(format!("{} of a value that is no octet string", def.kind)),
            };
            match parsed {
                Ok(t) => number = t,
                Err(e) => {
                    tracing::debug!(metric = %def.name, error = %e, "value not rendered");
                    out.unrendered += 1;
                    return;
                }
            }
            Kind::Gauge
        }
        Ty::EnumAsInfo => return enum_as_info(metric, number as i64, labels, out),
        Ty::EnumAsStateSet => return enum_as_state_set(metric, number as i64, labels, out),
        Ty::Bits => return bits(metric, octets, labels, out),
        _ => {
            let ty = text_type(metric, index, bindings);
            let text = value::text(v, Some(ty), &def.display_hint);
            if !metric.regex_extracts.is_empty() {
                return regex_extracts(metric, &text, labels, out);
            }
            number = 1.0;
            if !labels.iter().any(|(n, _)| n == &def.name) {
                labels.push((def.name.clone(), text));
            }
            Kind::Gauge
        }
    };
    out.add(&def.name, &def.help, kind, labels, scaled(def, number));
}

fn scaled(def: &crate::config::Metric, v: f64) -> f64 {
    let v = if def.scale != 0.0 { v * def.scale } else { v };
    v + def.offset
}

/// The type a text metric's value is read as: for an InetAddress or LldpPortId, the one the
/// object before it selects (an octet string when it selects none).
fn text_type(metric: &CompiledMetric, index: &[u32], bindings: &Bindings<'_>) -> Ty {
    if !metric.ty.is_combined() {
        return metric.ty;
    }
    let mut prev = metric.prev_oid.clone();
    prev.extend_from_slice(index);
    bindings
        .get(&prev)
        .and_then(|selector| metric.ty.selected_by(value::number(selector, true) as i64))
        .unwrap_or(Ty::OctetString)
}

fn regex_extracts(metric: &CompiledMetric, text: &str, labels: Labels, out: &mut Exposition) {
    let def = &metric.def;
    let help = format!("{} (regex extracted)", def.help);
    for (suffix, list) in &metric.regex_extracts {
        let number = list.iter().find_map(|(re, template)| {
            let caps = re.captures(text)?;
            let mut expanded = String::new();
            caps.expand(template, &mut expanded);
            expanded.trim().parse::<f64>().ok()
        });
        match number {
            Some(v) => {
                let name = format!("{}{suffix}", def.name);
                out.add(&name, &help, Kind::Gauge, labels.clone(), scaled(def, v));
            }
            None => {
                tracing::debug!(metric = %def.name, suffix, "no regex_extracts expression reads a number");
                out.unrendered += 1;
            }
        }
    }
}

fn enum_as_info(metric: &CompiledMetric, v: i64, mut labels: Labels, out: &mut Exposition) {
    let def = &metric.def;
    if labels.iter().any(|(n, _)| n == &def.name) {
        return;
    }
    let state = def
        .enum_values
        .get(&v)
        .cloned()
        .unwrap_or_else(|| v.to_string());
    labels.push((def.name.clone(), state));
    let help = format!("{} (EnumAsInfo)", def.help);
    out.add(
        &format!("{}_info", def.name),
        &help,
        Kind::Gauge,
        labels,
        1.0,
    );
}

fn enum_as_state_set(metric: &CompiledMetric, v: i64, labels: Labels, out: &mut Exposition) {
    let def = &metric.def;
    let help = format!("{} (EnumAsStateSet)", def.help);
    let state = def
        .enum_values
        .get(&v)
        .cloned()
        .unwrap_or_else(|| v.to_string());
    let with = |state: String| {
        let mut l = labels.clone();
        l.push((def.name.clone(), state));
        l
    };
    out.add(&def.name, &help, Kind::Gauge, with(state), 1.0);
    for (k, name) in &def.enum_values {
        if *k != v {
            out.add(&def.name, &help, Kind::Gauge, with(name.clone()), 0.0);
        }
    }
}

fn bits(metric: &CompiledMetric, octets: Option<&[u8]>, labels: Labels, out: &mut Exposition) {
    let def = &metric.def;
    let Some(bytes) = octets else {
        out.errors.push(format!(
            "metric {}: BITS type was not a BITSTRING on the wire",
            def.name
        ));
        return;
    };
    let help = format!("{} (Bits)", def.help);
    for (k, name) in &def.enum_values {
        // Bit 0 is the most significant bit of the first octet.
        let set = usize::try_from(*k)
            .ok()
            .filter(|&k| k < bytes.len() * 8)
            .is_some_and(|k| bytes[k / 8] & (0x80 >> (k % 8)) != 0);
        let mut l = labels.clone();
        l.push((def.name.clone(), name.clone()));
        out.add(
            &def.name,
            &help,
            Kind::Gauge,
            l,
            if set { 1.0 } else { 0.0 },
        );
    }
}
