//! Samples gathered into metric families and written in Prometheus's text format (0.0.4),
//! checked as client_golang's registry checks them: one HELP and one TYPE a family, no two
//! samples with the same labels.

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

/// Label pairs, sorted by name when a sample is added.
pub type Labels = Vec<(String, String)>;

#[derive(Debug)]
struct Family {
    help: String,
    kind: Kind,
    samples: Vec<(Labels, f64)>,
}

/// A scrape's samples, and what could not be rendered.
#[derive(Debug, Default)]
pub struct Exposition {
    families: HashMap<String, Family>,
    /// Errors that fail the scrape, as client_golang's gathering fails it (HTTP 500).
    pub errors: Vec<String>,
    /// Values rendered as nothing, as upstream renders them (a DateAndTime of the wrong
    /// length, text no `regex_extracts` expression reads a number from): counted, so that
    /// the exporter's own metrics say how many.
    pub unrendered: u64,
}

impl Exposition {
    /// Adds a sample of the family `name`.
    pub fn add(&mut self, name: &str, help: &str, kind: Kind, mut labels: Labels, value: f64) {
        labels.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(w) = labels.windows(2).find(|w| w[0].0 == w[1].0) {
            self.errors
                .push(format!("metric {name}: duplicate label name {:?}", w[0].0));
            return;
        }
        match self.families.get_mut(name) {
            Some(f) => {
                if f.help != help {
                    self.errors.push(format!(
                        "collected metric {name} has help {help:?} but should have {:?}",
                        f.help
                    ));
                } else if f.kind != kind {
                    self.errors.push(format!(
                        "collected metric {name} is a {} but should be a {}",
                        kind.name(),
                        f.kind.name()
                    ));
                } else {
                    f.samples.push((labels, value));
                }
            }
            None => {
                self.families.insert(
                    name.to_string(),
                    Family {
                        help: help.to_string(),
                        kind,
                        samples: vec![(labels, value)],
                    },
                );
            }
        }
    }

    /// How many samples there are.
    pub fn len(&self) -> usize {
        self.families.values().map(|f| f.samples.len()).sum()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.families.is_empty()
    }

    /// The families in name order, their samples in label-value order, in `format`; a sample
    /// whose labels repeat another's is an error (added to [`Self::errors`]).
    pub fn write(&mut self, out: &mut String, format: Format) {
        let mut families: Vec<(&String, &Family)> = self.families.iter().collect();
        families.sort_by(|a, b| a.0.cmp(b.0));
        let mut errors = Vec::new();
        for (name, family) in families {
            let mut order: Vec<usize> = (0..family.samples.len()).collect();
            order.sort_by(|&a, &b| {
                let (la, lb) = (&family.samples[a].0, &family.samples[b].0);
                la.iter().map(|l| &l.1).cmp(lb.iter().map(|l| &l.1))
            });
            let _ = writeln!(out, "# HELP {name} {}", escape_help(&family.help, format));
            let _ = writeln!(out, "# TYPE {name} {}", family.kind.name());
            // OpenMetrics names a counter's sample `_total`.
            let suffix = match (format, family.kind) {
                (Format::OpenMetrics, Kind::Counter) if !name.ends_with("_total") => "_total",
                _ => "",
            };
            let mut previous: Option<&Labels> = None;
            for k in order {
                let (labels, value) = &family.samples[k];
                if previous == Some(labels) {
                    errors.push(format!(
                        "collected metric {name} {{{}}} was collected before with the same name and label values",
                        labels.iter().map(|(n, v)| format!("{n}={v:?}")).collect::<Vec<_>>().join(",")
                    ));
                    continue;
                }
                previous = Some(labels);
                out.push_str(name);
                out.push_str(suffix);
                write_labels(labels, out);
                out.push(' ');
                match format {
                    Format::Text => go_float(*value, out),
                    Format::OpenMetrics => open_metrics_float(*value, out),
                }
                out.push('\n');
            }
        }
        if format == Format::OpenMetrics {
            out.push_str("# EOF\n");
        }
        self.errors.extend(errors);
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

fn write_labels(labels: &Labels, out: &mut String) {
    if labels.is_empty() {
        return;
    }
    out.push('{');
    for (j, (n, v)) in labels.iter().enumerate() {
        if j > 0 {
            out.push(',');
        }
        out.push_str(n);
        out.push_str("=\"");
        escape_label(v, out);
        out.push('"');
    }
    out.push('}');
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

fn escape_help(help: &str, format: Format) -> String {
    let escaped = help.replace('\\', "\\\\").replace('\n', "\\n");
    match format {
        Format::Text => escaped,
        Format::OpenMetrics => escaped.replace('"', "\\\""),
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
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let _ = write!(
            out,
            "{mantissa}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        );
    } else {
        let _ = write!(out, "{f}");
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

    #[test]
    fn families_sorted_checked_and_escaped() {
        let mut e = Exposition::default();
        let l = |v: &str| {
            vec![
                ("b".to_string(), v.to_string()),
                ("a".to_string(), "x".to_string()),
            ]
        };
        e.add("m", "help \\ here\nnext", Kind::Gauge, l("2"), 2.0);
        e.add("m", "help \\ here\nnext", Kind::Gauge, l("1\"q"), 1.0);
        e.add("a_first", "h", Kind::Counter, Vec::new(), 7.0);
        let mut out = String::new();
        e.write(&mut out, Format::Text);
        assert_eq!(
            out,
            "# HELP a_first h\n# TYPE a_first counter\na_first 7\n\
             # HELP m help \\\\ here\\nnext\n# TYPE m gauge\n\
             m{a=\"x\",b=\"1\\\"q\"} 1\nm{a=\"x\",b=\"2\"} 2\n"
        );
        assert!(e.errors.is_empty());
        e.add("m", "other help", Kind::Gauge, l("3"), 3.0);
        e.add("m", "help \\ here\nnext", Kind::Gauge, l("2"), 2.0);
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
            vec![("ifIndex".into(), "1".into())],
            3.0,
        );
        e.add("up_total", "h", Kind::Counter, Vec::new(), 1e6);
        e.add("g", "h", Kind::Gauge, Vec::new(), 0.5);
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
