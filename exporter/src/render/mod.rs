//! A module's bindings rendered into samples as snmp_exporter 0.30's collector renders them:
//! the metric a binding belongs to, its indexes and lookups as labels, its value by the
//! metric's type.

pub mod exposition;
pub mod time;
pub mod value;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use regex::{CaptureLocations, Regex};
use regex_automata::util::interpolate;
use snmp_ber::OidList;
use snmp_client::{Value, VarBind};

use crate::config::{CompiledLookup, CompiledMetric, CompiledModule};
use crate::ty::Ty;
use exposition::Digits;
pub use exposition::{Exposition, Format, Kind};

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
    /// Keyed by the OID's BER contents octets.
    by_oid: HashMap<&'a [u8], &'a VarBind, foldhash::fast::RandomState>,
}

impl<'a> Bindings<'a> {
    /// Indexes `bindings`.
    pub fn new(bindings: &'a [VarBind]) -> Bindings<'a> {
        let mut by_oid = HashMap::with_capacity_and_hasher(bindings.len(), Default::default());
        for vb in bindings {
            by_oid.insert(vb.oid.as_oid().as_ber(), vb);
        }
        Bindings { by_oid }
    }

    /// The value at `arcs`, the OID written into `key` (reused from lookup to lookup).
    fn get(&self, arcs: &[u32], key: &mut OidList) -> Option<&'a Value> {
        key.clear();
        key.push_arcs(arcs).ok()?;
        self.by_oid.get(key.get(0)?.as_ber()).map(|vb| &vb.value)
    }
}

/// What rendering reuses from binding to binding, so that it allocates only as these grow.
#[derive(Default)]
struct Scratch<'c> {
    values: value::Scratch,
    /// Each label's name and where its arcs are in `values.used` (a lookup indexes by them).
    label_arcs: Vec<(&'c str, usize, usize)>,
    /// An OID being built (a lookup's instance, a selector's).
    oid: Vec<u32>,
    key: OidList,
    /// A value's text read as a number (ParseDateAndTime, `regex_extracts`).
    text: String,
    /// A `regex_extracts` template, expanded.
    expanded: String,
    /// Capture locations by expression (`regex_extracts`), found by the expression's address.
    captures: Vec<(*const Regex, CaptureLocations)>,
}

/// Renders every binding of `bindings` that belongs to one of `module`'s metrics into `out`.
pub fn render<'c>(
    module: &'c CompiledModule,
    bindings: &Bindings<'_>,
    options: RenderOptions,
    out: &mut Exposition<'c>,
) {
    let mut arcs: Vec<u32> = Vec::with_capacity(32);
    let mut scratch = Scratch::default();
    for vb in bindings.by_oid.values() {
        arcs.clear();
        arcs.extend(vb.oid.as_oid().arcs());
        if let Some((k, depth)) = module.tree.find(arcs.iter().copied()) {
            let metric = &module.metrics[k];
            let binding = Binding {
                metric,
                index: &arcs[depth..],
                value: &vb.value,
            };
            samples(binding, bindings, options, &mut scratch, out);
        }
    }
}

/// A binding of a metric: the metric, the arcs after its OID, the value.
#[derive(Clone, Copy)]
struct Binding<'c, 'b> {
    metric: &'c CompiledMetric,
    index: &'b [u32],
    value: &'b Value,
}

/// Sets the labels of the sample being built in `out`: from the index arcs, then the lookups.
fn labels<'c>(
    b: Binding<'c, '_>,
    bindings: &Bindings<'_>,
    scratch: &mut Scratch<'c>,
    out: &mut Exposition<'c>,
) {
    scratch.label_arcs.clear();
    scratch.values.used.clear();
    let mut rest = b.index;
    for i in &b.metric.indexes {
        let part = value::Part {
            ty: i.ty,
            fixed_size: i.fixed_size,
            implied: i.implied,
            enums: &i.enum_values,
        };
        let start = scratch.values.used.len();
        rest = out.label(&i.labelname, |text| {
            value::index(rest, part, text, &mut scratch.values)
        });
        let end = scratch.values.used.len();
        set_arcs(&mut scratch.label_arcs, &i.labelname, start, end);
    }
    for l in &b.metric.lookups {
        if l.labels.is_empty() {
            out.drop_label(&l.labelname);
            continue;
        }
        let arc = lookup(l, bindings, scratch, out);
        let start = scratch.values.used.len();
        scratch.values.used.extend(arc);
        let end = scratch.values.used.len();
        set_arcs(&mut scratch.label_arcs, &l.labelname, start, end);
    }
}

fn set_arcs<'c>(all: &mut Vec<(&'c str, usize, usize)>, name: &'c str, start: usize, end: usize) {
    match all.iter_mut().find(|(n, ..)| *n == name) {
        Some(l) => (l.1, l.2) = (start, end),
        None => all.push((name, start, end)),
    }
}

/// `base` followed by the arcs of the labels `labels` (a lookup's instance), in `scratch.oid`.
fn instance(base: &[u32], labels: &[String], scratch: &mut Scratch<'_>) {
    scratch.oid.clear();
    scratch.oid.extend_from_slice(base);
    for label in labels {
        if let Some(&(_, start, end)) = scratch.label_arcs.iter().find(|(n, ..)| n == label) {
            scratch
                .oid
                .extend_from_slice(&scratch.values.used[start..end]);
        }
    }
}

/// Sets a lookup's label ("" when the looked-up object has no such instance); returns the
/// integer its value gives a chained lookup.
fn lookup<'c>(
    l: &'c CompiledLookup,
    bindings: &Bindings<'_>,
    scratch: &mut Scratch<'c>,
    out: &mut Exposition<'c>,
) -> Option<u32> {
    instance(&l.oid, &l.labels, scratch);
    let Some(found) = bindings.get(&scratch.oid, &mut scratch.key) else {
        out.label(&l.labelname, |_| ());
        return None;
    };
    let mut ty = l.ty;
    if let Some(t) = l.ty.filter(|t| t.is_combined()) {
        instance(&l.prev_oid, &l.labels, scratch);
        if let Some(selector) = bindings.get(&scratch.oid, &mut scratch.key) {
            let n = value::number(selector, true) as i64;
            ty = t.selected_by(n).or(ty);
        }
    }
    out.label(&l.labelname, |text| {
        if ty == Some(Ty::EnumAsInfo) && !l.enum_values.is_empty() {
            enum_name(&l.enum_values, value::number(found, true) as i64, text);
        } else {
            value::write_text(found, ty, l.hint.as_ref(), text, &mut scratch.values);
        }
    });
    value::arc(found)
}

/// The name of the value `n`, or its number.
fn enum_name(names: &BTreeMap<i64, String>, n: i64, text: &mut String) {
    match names.get(&n) {
        Some(name) => text.push_str(name),
        None => {
            let _ = write!(text, "{n}");
        }
    }
}

/// The samples of one binding (upstream's `pduToSamples`).
fn samples<'c>(
    b: Binding<'c, '_>,
    bindings: &Bindings<'_>,
    options: RenderOptions,
    scratch: &mut Scratch<'c>,
    out: &mut Exposition<'c>,
) {
    let metric = b.metric;
    let def = &metric.def;
    out.begin();
    labels(b, bindings, scratch, out);
    let mut number = value::number(b.value, options.wrap_counters);
    let octets = match b.value {
        Value::OctetString(o) | Value::Opaque(o) => Some(o.as_slice()),
        _ => None,
    };
    let kind = match metric.ty {
        Ty::Counter => Kind::Counter,
        Ty::Gauge | Ty::Float | Ty::Double => Kind::Gauge,
        Ty::DateAndTime | Ty::NtpTimeStamp | Ty::ParseDateAndTime => {
            match time_value(metric, b.value, octets, scratch) {
                Ok(t) => number = t,
                Err(e) => {
                    tracing::debug!(metric = %def.name, error = %e, "value not rendered");
                    out.unrendered += 1;
                    return;
                }
            }
            Kind::Gauge
        }
        Ty::EnumAsInfo => return enum_as_info(metric, number as i64, out),
        Ty::EnumAsStateSet => return enum_as_state_set(metric, number as i64, out),
        Ty::Bits => return bits(metric, octets, out),
        _ => {
            let ty = text_type(b, bindings, scratch);
            if !metric.regex_extracts.is_empty() {
                return regex_extracts(b, ty, scratch, out);
            }
            number = 1.0;
            if !out.has_label(&def.name) {
                out.label(&def.name, |text| {
                    value::write_text(
                        b.value,
                        Some(ty),
                        metric.hint.as_ref(),
                        text,
                        &mut scratch.values,
                    )
                });
            }
            Kind::Gauge
        }
    };
    out.finish(
        &metric.family,
        &metric.family_help,
        kind,
        scaled(def, number),
    );
}

/// A DateAndTime's, NTPTimeStamp's or ParseDateAndTime's seconds.
fn time_value(
    metric: &CompiledMetric,
    v: &Value,
    octets: Option<&[u8]>,
    scratch: &mut Scratch<'_>,
) -> Result<f64, time::TimeError> {
    match (metric.ty, octets) {
        (Ty::DateAndTime, Some(o)) => time::date_and_time(o),
        (Ty::NtpTimeStamp, Some(o)) => time::ntp_timestamp(o),
        (Ty::ParseDateAndTime, _) => {
            scratch.text.clear();
            value::write_text(
                v,
                Some(Ty::DisplayString),
                None,
                &mut scratch.text,
                &mut scratch.values,
            );
            time::parse_with_pattern(&scratch.text, &metric.def.datetime_pattern)
        }
        _ => Err(time::TimeError::NotOctets),
    }
}

fn scaled(def: &crate::config::Metric, v: f64) -> f64 {
    let v = if def.scale != 0.0 { v * def.scale } else { v };
    v + def.offset
}

/// The type a text metric's value is read as: for an InetAddress or LldpPortId, the one the
/// object before it selects (an octet string when it selects none).
fn text_type(b: Binding<'_, '_>, bindings: &Bindings<'_>, scratch: &mut Scratch<'_>) -> Ty {
    if !b.metric.ty.is_combined() {
        return b.metric.ty;
    }
    scratch.oid.clear();
    scratch.oid.extend_from_slice(&b.metric.prev_oid);
    scratch.oid.extend_from_slice(b.index);
    bindings
        .get(&scratch.oid, &mut scratch.key)
        .and_then(|selector| {
            b.metric
                .ty
                .selected_by(value::number(selector, true) as i64)
        })
        .unwrap_or(Ty::OctetString)
}

fn regex_extracts<'c>(
    b: Binding<'c, '_>,
    ty: Ty,
    scratch: &mut Scratch<'c>,
    out: &mut Exposition<'c>,
) {
    let metric = b.metric;
    let def = &metric.def;
    let mut text = std::mem::take(&mut scratch.text);
    text.clear();
    let hint = metric.hint.as_ref();
    value::write_text(b.value, Some(ty), hint, &mut text, &mut scratch.values);
    for extract in &metric.regex_extracts {
        let number = extract
            .exprs
            .iter()
            .find_map(|(re, template)| extracted(re, template, &text, scratch));
        match number {
            Some(v) => {
                let help = &metric.family_help;
                out.finish_with(&extract.name, help, Kind::Gauge, None, scaled(def, v));
            }
            None => {
                tracing::debug!(metric = %def.name, suffix = %extract.suffix, "no regex_extracts expression reads a number");
                out.unrendered += 1;
            }
        }
    }
    scratch.text = text;
}

/// The number `template` expands to when `re` matches `text` (as Go's `Regexp.Expand`).
fn extracted(re: &Regex, template: &str, text: &str, scratch: &mut Scratch<'_>) -> Option<f64> {
    let key: *const Regex = re;
    let k = match scratch.captures.iter().position(|(r, _)| *r == key) {
        Some(k) => k,
        None => {
            scratch.captures.push((key, re.capture_locations()));
            scratch.captures.len() - 1
        }
    };
    let locs = &mut scratch.captures[k].1;
    re.captures_read(locs, text)?;
    let expanded = &mut scratch.expanded;
    expanded.clear();
    interpolate::string(
        template,
        |group, dst| {
            if let Some((start, end)) = locs.get(group) {
                dst.push_str(&text[start..end]);
            }
        },
        |name| re.capture_names().position(|n| n == Some(name)),
        expanded,
    );
    expanded.trim().parse::<f64>().ok()
}

fn enum_as_info<'c>(metric: &'c CompiledMetric, v: i64, out: &mut Exposition<'c>) {
    let def = &metric.def;
    if out.has_label(&def.name) {
        return;
    }
    out.label(&def.name, |text| enum_name(&def.enum_values, v, text));
    out.finish(&metric.family, &metric.family_help, Kind::Gauge, 1.0);
}

fn enum_as_state_set<'c>(metric: &'c CompiledMetric, v: i64, out: &mut Exposition<'c>) {
    let def = &metric.def;
    let help = &metric.family_help;
    let mut number = Digits::default();
    let state = match def.enum_values.get(&v) {
        Some(name) => name.as_str(),
        None => {
            let _ = write!(number, "{v}");
            number.as_str()
        }
    };
    out.finish_with(&def.name, help, Kind::Gauge, Some((&def.name, state)), 1.0);
    for (k, name) in &def.enum_values {
        if *k != v {
            out.finish_with(&def.name, help, Kind::Gauge, Some((&def.name, name)), 0.0);
        }
    }
}

fn bits<'c>(metric: &'c CompiledMetric, octets: Option<&[u8]>, out: &mut Exposition<'c>) {
    let def = &metric.def;
    let Some(bytes) = octets else {
        out.errors.push(format!(
            "metric {}: BITS type was not a BITSTRING on the wire",
            def.name
        ));
        return;
    };
    for (k, name) in &def.enum_values {
        // Bit 0 is the most significant bit of the first octet.
        let set = usize::try_from(*k)
            .ok()
            .filter(|&k| k < bytes.len() * 8)
            .is_some_and(|k| bytes[k / 8] & (0x80 >> (k % 8)) != 0);
        let value = if set { 1.0 } else { 0.0 };
        let label = Some((def.name.as_str(), name.as_str()));
        out.finish_with(&def.name, &metric.family_help, Kind::Gauge, label, value);
    }
}
