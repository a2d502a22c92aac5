//! Samples gathered into metric families and written in Prometheus's text format (0.0.4),
//! checked as client_golang's registry checks them: one HELP and one TYPE a family, no two
//! samples with the same labels.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write;

/// A family's TYPE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Gauge,
    Counter,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Gauge => "gauge",
            Kind::Counter => "counter",
        }
    }
}

/// A label of a sample: its name, and its value's place in [`Exposition`]'s text.
#[derive(Debug, Clone, Copy)]
struct Label<'c> {
    name: &'c str,
    start: usize,
    end: usize,
}

#[derive(Debug)]
struct Family<'c> {
    name: &'c str,
    help: &'c str,
    kind: Kind,
}

#[derive(Debug)]
struct Sample {
    family: usize,
    /// Its labels: `labels[start..end]`, sorted by name.
    labels: (usize, usize),
    value: f64,
}

/// A scrape's samples, and what could not be rendered.
///
/// Built without an allocation per sample: label values go into one text buffer, labels into
/// one list and samples into another, names and help borrowed from the configuration (`'c`).
/// A sample is built by [`Self::begin`], its labels (set again by name, or dropped), then
/// [`Self::finish`] (or [`Self::finish_with`], for several samples from the same labels).
///
/// ```
/// use snmp_exporter::render::{Exposition, Format, Kind};
///
/// let mut e = Exposition::default();
/// e.add("ifInOctets", "Octets in.", Kind::Counter, &[("ifIndex", "2")], 1234.0);
/// let mut text = String::new();
/// e.write(&mut text, Format::Text);
/// assert_eq!(
///     text,
///     "# HELP ifInOctets Octets in.\n# TYPE ifInOctets counter\nifInOctets{ifIndex=\"2\"} 1234\n"
/// );
/// ```
#[derive(Debug, Default)]
pub struct Exposition<'c> {
    family_index: HashMap<&'c str, usize, foldhash::fast::RandomState>,
    families: Vec<Family<'c>>,
    samples: Vec<Sample>,
    labels: Vec<Label<'c>>,
    /// Where the sample being built has its labels: `labels[pending..]`, or
    /// `labels[pending..copies_from]` once [`Self::finish_with`] has copied them.
    pending: usize,
    copies_from: Option<usize>,
    text: String,
    /// Errors that fail the scrape, as client_golang's gathering fails it (HTTP 500).
    pub errors: Vec<String>,
    /// Values rendered as nothing, as upstream renders them (a DateAndTime of the wrong
    /// length, text no `regex_extracts` expression reads a number from): counted, so that
    /// the exporter's own metrics say how many.
    pub unrendered: u64,
}

impl<'c> Exposition<'c> {
    /// Adds a sample of the family `name` with `labels`.
    pub fn add(
        &mut self,
        name: &'c str,
        help: &'c str,
        kind: Kind,
        labels: &[(&'c str, &str)],
        value: f64,
    ) {
        self.begin();
        for (n, v) in labels {
            self.label(n, |text| text.push_str(v));
        }
        self.finish(name, help, kind, value);
    }

    /// Starts a sample (dropping the labels of one begun and not finished).
    pub fn begin(&mut self) {
        match self.copies_from.take() {
            // The labels the copies were made of are left unused.
            Some(_) => self.pending = self.labels.len(),
            None => self.labels.truncate(self.pending),
        }
    }

    /// The labels set for the sample being built.
    fn pending_labels(&mut self) -> &mut [Label<'c>] {
        let end = self.copies_from.unwrap_or(self.labels.len());
        &mut self.labels[self.pending..end]
    }

    /// Sets the label `name` of the sample being built to what `write` appends to the text
    /// it is given (replacing a value set before); returns what `write` returns. Labels are
    /// set before [`Self::finish_with`] copies them.
    pub fn label<R>(&mut self, name: &'c str, write: impl FnOnce(&mut String) -> R) -> R {
        debug_assert!(self.copies_from.is_none(), "a label set after a copy");
        let start = self.text.len();
        let r = write(&mut self.text);
        let end = self.text.len();
        match self.pending_labels().iter_mut().find(|l| l.name == name) {
            Some(l) => (l.start, l.end) = (start, end),
            None => self.labels.push(Label { name, start, end }),
        }
        r
    }

    /// Drops the label `name` of the sample being built.
    pub fn drop_label(&mut self, name: &str) {
        debug_assert!(self.copies_from.is_none(), "a label dropped after a copy");
        if let Some(k) = self.pending_labels().iter().position(|l| l.name == name) {
            self.labels.remove(self.pending + k);
        }
    }

    /// Whether the sample being built has the label `name`.
    pub fn has_label(&mut self, name: &str) -> bool {
        self.pending_labels().iter().any(|l| l.name == name)
    }

    /// Adds the sample being built to the family `name`.
    pub fn finish(&mut self, name: &'c str, help: &'c str, kind: Kind, value: f64) {
        debug_assert!(
            self.copies_from.is_none(),
            "finish after a copy: finish_with"
        );
        let (start, end) = (self.pending, self.labels.len());
        if self.push(name, help, kind, (start, end), value) {
            self.pending = end;
        } else {
            self.labels.truncate(start);
        }
    }

    /// Adds a sample of the family `name` with the labels of the sample being built and
    /// `extra`, keeping those labels for another (the states of a state set, the bits of a
    /// BITS, the extractions of one value).
    pub fn finish_with(
        &mut self,
        name: &'c str,
        help: &'c str,
        kind: Kind,
        extra: Option<(&'c str, &str)>,
        value: f64,
    ) {
        let base = self.copies_from.unwrap_or(self.labels.len());
        self.copies_from = Some(base);
        let start = self.labels.len();
        self.labels.extend_from_within(self.pending..base);
        if let Some((n, v)) = extra {
            let at = self.text.len();
            self.text.push_str(v);
            self.labels.push(Label {
                name: n,
                start: at,
                end: self.text.len(),
            });
        }
        let end = self.labels.len();
        if !self.push(name, help, kind, (start, end), value) {
            self.labels.truncate(start);
        }
    }

    /// Adds a sample whose labels are `labels[span]` to the family `name` (made on its first
    /// sample); false, with the reason in [`Self::errors`], when it cannot be added.
    fn push(
        &mut self,
        name: &'c str,
        help: &'c str,
        kind: Kind,
        span: (usize, usize),
        value: f64,
    ) -> bool {
        let labels = &mut self.labels[span.0..span.1];
        labels.sort_unstable_by(|a, b| a.name.cmp(b.name));
        if let Some(w) = labels.windows(2).find(|w| w[0].name == w[1].name) {
            self.errors.push(format!(
                "metric {name}: duplicate label name {:?}",
                w[0].name
            ));
            return false;
        }
        let family = match self.family_index.get(name) {
            Some(&f) => f,
            None => {
                self.families.push(Family { name, help, kind });
                self.family_index.insert(name, self.families.len() - 1);
                self.families.len() - 1
            }
        };
        let f = &self.families[family];
        if f.help != help {
            self.errors.push(format!(
                "collected metric {name} has help {help:?} but should have {:?}",
                f.help
            ));
            return false;
        }
        if f.kind != kind {
            self.errors.push(format!(
                "collected metric {name} is a {} but should be a {}",
                kind.name(),
                f.kind.name()
            ));
            return false;
        }
        self.samples.push(Sample {
            family,
            labels: span,
            value,
        });
        true
    }

    /// How many samples there are.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn labels_of(&self, sample: &Sample) -> &[Label<'c>] {
        &self.labels[sample.labels.0..sample.labels.1]
    }

    fn value_of(&self, label: &Label<'_>) -> &str {
        &self.text[label.start..label.end]
    }

    /// The samples in family-name order, then in the order of their label values. (Samples
    /// with the same labels are an error that fails the scrape: their order is left open.)
    fn order(&self) -> Vec<(usize, usize)> {
        let mut rank = vec![0; self.families.len()];
        let mut by_name: Vec<usize> = (0..self.families.len()).collect();
        by_name.sort_unstable_by_key(|&f| self.families[f].name);
        for (r, f) in by_name.into_iter().enumerate() {
            rank[f] = r;
        }
        let mut order: Vec<(usize, usize)> = (self.samples.iter().enumerate())
            .map(|(k, s)| (rank[s.family], k))
            .collect();
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| self.cmp_values(&self.samples[a.1], &self.samples[b.1]))
        });
        order
    }

    /// Two samples' label values, in order (those of one family have the same names).
    fn cmp_values(&self, a: &Sample, b: &Sample) -> Ordering {
        let (la, lb) = (self.labels_of(a), self.labels_of(b));
        for (x, y) in la.iter().zip(lb) {
            match self.value_of(x).cmp(self.value_of(y)) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        la.len().cmp(&lb.len())
    }

    fn same_labels(&self, a: &Sample, b: &Sample) -> bool {
        let (la, lb) = (self.labels_of(a), self.labels_of(b));
        la.len() == lb.len()
            && la
                .iter()
                .zip(lb)
                .all(|(x, y)| x.name == y.name && self.value_of(x) == self.value_of(y))
    }

    /// The families in name order, their samples in label-value order, in `format`; a sample
    /// whose labels repeat another's is an error (added to [`Self::errors`]).
    pub fn write(&mut self, out: &mut String, format: Format) {
        let mut errors = Vec::new();
        let mut previous: Option<&Sample> = None;
        for (_, k) in self.order() {
            let sample = &self.samples[k];
            let family = &self.families[sample.family];
            let name = family.name;
            match previous {
                Some(p) if p.family == sample.family => {
                    if self.same_labels(p, sample) {
                        errors.push(self.duplicate(name, sample));
                        continue;
                    }
                }
                _ => {
                    out.push_str("# HELP ");
                    out.push_str(name);
                    out.push(' ');
                    escape_help(family.help, format, out);
                    out.push_str("\n# TYPE ");
                    out.push_str(name);
                    out.push(' ');
                    out.push_str(family.kind.name());
                    out.push('\n');
                }
            }
            previous = Some(sample);
            out.push_str(name);
            // OpenMetrics names a counter's sample `_total`.
            if format == Format::OpenMetrics
                && family.kind == Kind::Counter
                && !name.ends_with("_total")
            {
                out.push_str("_total");
            }
            self.write_labels(sample, out);
            out.push(' ');
            match format {
                Format::Text => go_float(sample.value, out),
                Format::OpenMetrics => open_metrics_float(sample.value, out),
            }
            out.push('\n');
        }
        if format == Format::OpenMetrics {
            out.push_str("# EOF\n");
        }
        self.errors.extend(errors);
    }

    fn duplicate(&self, name: &str, sample: &Sample) -> String {
        let labels: Vec<String> = self
            .labels_of(sample)
            .iter()
            .map(|l| format!("{}={:?}", l.name, self.value_of(l)))
            .collect();
        format!(
            "collected metric {name} {{{}}} was collected before with the same name and label values",
            labels.join(",")
        )
    }

    fn write_labels(&self, sample: &Sample, out: &mut String) {
        let labels = self.labels_of(sample);
        if labels.is_empty() {
            return;
        }
        out.push('{');
        for (j, l) in labels.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push_str(l.name);
            out.push_str("=\"");
            escape_label(self.value_of(l), out);
            out.push('"');
        }
        out.push('}');
    }
}

/// The exposition formats a scrape is answered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Prometheus's text format 0.0.4.
    Text,
    /// OpenMetrics 1.0.0 text.
    OpenMetrics,
}

impl Format {
    /// The format an `Accept` header asks for: OpenMetrics only when the scraper does not
    /// take the text format at all. Prometheus lists both, OpenMetrics first; answering it
    /// OpenMetrics would rename every counter series `…_total`, and snmp_exporter answers it
    /// in the text format: so does this exporter.
    pub fn negotiate(accept: Option<&str>) -> Format {
        let Some(accept) = accept else {
            return Format::Text;
        };
        let takes = |media: &str| {
            accept.split(',').any(|part| {
                let mut params = part.split(';').map(str::trim);
                let m = params.next().unwrap_or("");
                let refused = params.any(|p| p.replace(' ', "") == "q=0");
                m.eq_ignore_ascii_case(media) && !refused
            })
        };
        if takes("application/openmetrics-text") && !takes("text/plain") && !takes("*/*") {
            Format::OpenMetrics
        } else {
            Format::Text
        }
    }

    /// The answer's content type.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Text => "text/plain; version=0.0.4; charset=utf-8",
            Format::OpenMetrics => "application/openmetrics-text; version=1.0.0; charset=utf-8",
        }
    }
}

/// A float as client_golang writes one in OpenMetrics: Go's shortest form, with `.0` where
/// it would read as an integer.
fn open_metrics_float(f: f64, out: &mut String) {
    let start = out.len();
    go_float(f, out);
    let written = &out[start..];
    if f.is_finite() && !written.contains(['.', 'e']) {
        out.push_str(".0");
    }
}

fn escape_help(help: &str, format: Format, out: &mut String) {
    for c in help.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '"' if format == Format::OpenMetrics => out.push_str("\\\""),
            c => out.push(c),
        }
    }
}

fn escape_label(v: &str, out: &mut String) {
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

/// A float as Go's `strconv.FormatFloat(f, 'g', -1, 64)` writes it (the text format's
/// numbers): the shortest digits that read back, in exponent form from 1e+06 and below 1e-04.
pub fn go_float(f: f64, out: &mut String) {
    if f.is_nan() {
        out.push_str("NaN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "+Inf" } else { "-Inf" });
        return;
    }
    if f == 0.0 {
        out.push('0');
        return;
    }
    if (1e-4..1e6).contains(&f.abs()) {
        // Written without an exponent: Rust's shortest digits, or the integer (one
        // formatting where the exponent's test would take two).
        let _ = if f.fract() == 0.0 {
            write!(out, "{}", f as i64)
        } else {
            write!(out, "{f}")
        };
        return;
    }
    let mut digits = Digits::default();
    let _ = write!(digits, "{f:e}");
    let sci = digits.as_str();
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    let _ = write!(out, "{mantissa}e{sign}{:02}", exp.abs());
}

/// A float's digits, formatted on the stack: `{:e}` of an f64 takes at most 24 characters
/// (`-2.2250738585072014e-308`).
#[derive(Default)]
pub(crate) struct Digits {
    buf: [u8; 32],
    len: usize,
}

impl Digits {
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl Write for Digits {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let room = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(f: f64) -> String {
        let mut s = String::new();
        go_float(f, &mut s);
        s
    }

    #[test]
    fn floats_as_go_writes_them() {
        assert_eq!(g(1.0), "1");
        assert_eq!(g(-1.0), "-1");
        assert_eq!(g(999999.0), "999999");
        assert_eq!(g(1e6), "1e+06");
        assert_eq!(g(1234567.0), "1.234567e+06");
        assert_eq!(g(18446744073709551615.0), "1.8446744073709552e+19");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(0.00001), "1e-05");
        assert_eq!(g(1.5), "1.5");
        assert_eq!(g(-0.0), "0");
        assert_eq!(g(f64::NAN), "NaN");
        assert_eq!(g(f64::NEG_INFINITY), "-Inf");
        assert_eq!(g(1e100), "1e+100");
    }

    /// Go's `FormatFloat(f, 'g', -1, 64)` as its rule reads: the shortest digits, in
    /// exponent form when the decimal exponent is below -4 or from 6 (two formattings).
    fn go_rule(f: f64) -> String {
        let sci = format!("{f:e}");
        let (mantissa, exp) = sci.split_once('e').unwrap();
        let exp: i32 = exp.parse().unwrap();
        if (-4..6).contains(&exp) {
            format!("{f}")
        } else {
            let sign = if exp < 0 { '-' } else { '+' };
            format!("{mantissa}e{sign}{:02}", exp.abs())
        }
    }

    proptest::proptest! {
        #[test]
        fn floats_follow_gos_rule(f in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL, k in -1_000_000i64..1_000_000) {
            for f in [f, k as f64, k as f64 / 1000.0, 1e-4 * (1.0 + f64::EPSILON), 1e-4 * (1.0 - f64::EPSILON), 1e6 - 1e-9] {
                if f != 0.0 {
                    proptest::prop_assert_eq!(g(f), go_rule(f));
                }
            }
        }
    }

    #[test]
    fn families_sorted_checked_and_escaped() {
        let mut e = Exposition::default();
        let l = |v| [("b", v), ("a", "x")];
        e.add("m", "help \\ here\nnext", Kind::Gauge, &l("2"), 2.0);
        e.add("m", "help \\ here\nnext", Kind::Gauge, &l("1\"q"), 1.0);
        e.add("a_first", "h", Kind::Counter, &[], 7.0);
        let mut out = String::new();
        e.write(&mut out, Format::Text);
        assert_eq!(
            out,
            "# HELP a_first h\n# TYPE a_first counter\na_first 7\n\
             # HELP m help \\\\ here\\nnext\n# TYPE m gauge\n\
             m{a=\"x\",b=\"1\\\"q\"} 1\nm{a=\"x\",b=\"2\"} 2\n"
        );
        assert!(e.errors.is_empty());
        e.add("m", "other help", Kind::Gauge, &l("3"), 3.0);
        e.add("m", "help \\ here\nnext", Kind::Gauge, &l("2"), 2.0);
        e.write(&mut String::new(), Format::Text);
        assert_eq!(e.errors.len(), 2, "{:?}", e.errors);
    }
}

#[cfg(test)]
mod open_metrics_tests {
    use super::*;

    #[test]
    fn counters_end_in_total_floats_show_a_point_and_eof_closes() {
        let mut e = Exposition::default();
        e.add(
            "ifInOctets",
            "say \"hi\"",
            Kind::Counter,
            &[("ifIndex", "1")],
            3.0,
        );
        e.add("up_total", "h", Kind::Counter, &[], 1e6);
        e.add("g", "h", Kind::Gauge, &[], 0.5);
        let mut out = String::new();
        e.write(&mut out, Format::OpenMetrics);
        assert_eq!(
            out,
            "# HELP g h\n# TYPE g gauge\ng 0.5\n\
             # HELP ifInOctets say \\\"hi\\\"\n# TYPE ifInOctets counter\nifInOctets_total{ifIndex=\"1\"} 3.0\n\
             # HELP up_total h\n# TYPE up_total counter\nup_total 1e+06\n# EOF\n"
        );
    }

    #[test]
    fn negotiation_keeps_the_text_format_for_prometheus() {
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert_eq!(Format::negotiate(Some(prometheus)), Format::Text);
        assert_eq!(Format::negotiate(None), Format::Text);
        assert_eq!(Format::negotiate(Some("*/*")), Format::Text);
        assert_eq!(
            Format::negotiate(Some("application/openmetrics-text; version=1.0.0")),
            Format::OpenMetrics
        );
        assert_eq!(
            Format::negotiate(Some("application/openmetrics-text, text/plain;q=0")),
            Format::OpenMetrics
        );
    }
}
