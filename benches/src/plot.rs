//! The SVG plot of the cost lines: one panel per operation, the measured points of each
//! implementation and layer with the fitted line `a + b·n` through them, a legend beside the
//! panels.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::impls::{Layer, Op};
use crate::report::CostLine;
use crate::Row;

/// Distinct colours (Okabe-Ito, then a few more), one per implementation.
pub(crate) const PALETTE: [RGBColor; 10] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0x99, 0x99, 0x33),
    RGBColor(0x88, 0x22, 0x55),
    RGBColor(0x66, 0x66, 0x66),
];

/// The marker shapes, one per implementation (with its colour).
#[derive(Clone, Copy)]
pub(crate) enum Marker {
    Circle,
    Square,
    Triangle,
    Cross,
    Diamond,
}

pub(crate) const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Cross,
    Marker::Diamond,
];

/// How one implementation is drawn.
#[derive(Clone, Copy)]
pub(crate) struct Look {
    pub(crate) color: RGBColor,
    pub(crate) marker: Marker,
}

impl Look {
    /// Filled for the whole message, hollow for the PDU layer.
    pub(crate) fn style(self, filled: bool) -> ShapeStyle {
        if filled {
            self.color.filled()
        } else {
            ShapeStyle::from(&self.color).stroke_width(2)
        }
    }
}

/// Radius of a marker, in pixels.
pub(crate) const R: i32 = 4;

/// Builds `look`'s marker at `at` as `$el` and evaluates `$draw` with it (one element type per
/// shape, so each shape has its own arm).
macro_rules! with_marker {
    ($look:expr, $filled:expr, $at:expr, |$el:ident| $draw:expr) => {{
        const R: i32 = $crate::plot::R;
        let style = $look.style($filled);
        let at = EmptyElement::at($at);
        match $look.marker {
            $crate::plot::Marker::Circle => {
                let $el = at + Circle::new((0, 0), R, style);
                $draw
            }
            $crate::plot::Marker::Square => {
                let $el = at + Rectangle::new([(-R, -R), (R, R)], style);
                $draw
            }
            $crate::plot::Marker::Triangle => {
                let $el = at + Polygon::new(vec![(0, -R - 1), (-R - 1, R), (R + 1, R)], style);
                $draw
            }
            $crate::plot::Marker::Cross => {
                let $el = at + Cross::new((0, 0), R, style.stroke_width(2));
                $draw
            }
            $crate::plot::Marker::Diamond => {
                let $el = at
                    + Polygon::new(
                        vec![(0, -R - 1), (R + 1, 0), (0, R + 1), (-R - 1, 0)],
                        style,
                    );
                $draw
            }
        }
    }};
}

pub(crate) use with_marker;

/// Draws ns per operation against bindings (log scale): a panel per operation, per
/// implementation and layer the measured points and the fitted line through them; lines whose
/// fit is unreliable are left out (their points stay).
pub fn cost_lines(path: &Path, rows: &[Row], fits: &[CostLine]) -> Result<(), String> {
    let root = SVGBackend::new(path, (1300, 820)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (charts, legend) = root.split_horizontally(1040);
    let mut imps: Vec<&'static str> = rows.iter().map(|r| r.imp).collect();
    imps.dedup();
    let mut seen = Vec::new();
    imps.retain(|i| {
        let new = !seen.contains(i);
        seen.push(*i);
        new
    });
    let look = |imp: &str| {
        let k = imps.iter().position(|i| *i == imp).unwrap_or(0);
        Look {
            color: PALETTE[k % PALETTE.len()],
            marker: MARKERS[k % MARKERS.len()],
        }
    };
    for (panel, op) in charts.split_evenly((2, 2)).iter().zip(Op::ALL) {
        panel_for(panel, op, rows, fits, &look)?;
    }
    draw_legend(&legend, &imps, &look)?;
    root.present().map_err(|e| e.to_string())
}

fn panel_for<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    op: Op,
    rows: &[Row],
    fits: &[CostLine],
    look: &dyn Fn(&str) -> Look,
) -> Result<(), String> {
    let mut series: BTreeMap<(&str, Layer), Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.op == op) {
        series
            .entry((r.imp, r.layer))
            .or_default()
            .push((r.n as f64, r.timing.ns_min / 1000.0));
    }
    let values = series.values().flatten().map(|p| p.1);
    let ymax = values.clone().fold(0.0, f64::max) * 1.5 + 1e-3;
    let ymin = values.fold(f64::INFINITY, f64::min).min(ymax) * 0.6;
    let mut chart = ChartBuilder::on(panel)
        .caption(
            format!("{} (µs per operation, log scale)", op.as_str()),
            ("sans-serif", 17),
        )
        .margin(10)
        .x_label_area_size(34)
        .y_label_area_size(52)
        .build_cartesian_2d(0.0..52.0, (ymin.max(1e-3)..ymax).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("bindings")
        .y_desc("µs")
        .draw()
        .map_err(|e| e.to_string())?;
    for ((imp, layer), pts) in &series {
        let l = look(imp);
        let fit = fits
            .iter()
            .find(|f| f.imp == *imp && f.layer == *layer && f.op == op)
            .filter(|f| f.ns.reliable());
        if let Some(f) = fit {
            let line = (1..=50).map(|n| {
                let n = n as f64;
                (n, ((f.ns.a + f.ns.b * n) / 1000.0).max(ymin.max(1e-3)))
            });
            let style = ShapeStyle::from(&l.color).stroke_width(2);
            match layer {
                Layer::Msg => chart.draw_series(LineSeries::new(line, style)),
                Layer::Pdu => chart.draw_series(DashedLineSeries::new(line, 6, 4, style)),
            }
            .map_err(|e| e.to_string())?;
        }
        for p in pts {
            with_marker!(l, *layer == Layer::Msg, *p, |el| chart
                .draw_series(std::iter::once(el))
                .map(|_| ()))
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    imps: &[&'static str],
    look: &dyn Fn(&str) -> Look,
) -> Result<(), String> {
    let text = ("sans-serif", 15).into_font().color(&BLACK);
    let mut y = 40;
    for imp in imps {
        let l = look(imp);
        with_marker!(l, true, (18, y), |el| area.draw(&el)).map_err(|e| e.to_string())?;
        area.draw(&PathElement::new(
            vec![(30, y), (52, y)],
            ShapeStyle::from(&l.color).stroke_width(2),
        ))
        .map_err(|e| e.to_string())?;
        area.draw(&Text::new(imp.to_string(), (60, y - 8), text.clone()))
            .map_err(|e| e.to_string())?;
        y += 26;
    }
    y += 12;
    for line in [
        "filled marker, solid line:",
        "  whole message",
        "hollow marker, dashed line:",
        "  PDU layer",
        "lines: fitted a + b·n",
        "(left out when unreliable)",
    ] {
        area.draw(&Text::new(line, (10, y), text.clone()))
            .map_err(|e| e.to_string())?;
        y += 20;
    }
    Ok(())
}
