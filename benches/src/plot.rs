//! The SVG plot of the cost lines.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;

use crate::impls::{Layer, Op};
use crate::Row;

/// Draws ns per operation against bindings, one panel per operation, a line per
/// implementation and layer.
pub fn cost_lines(path: &Path, rows: &[Row]) -> Result<(), String> {
    let root = SVGBackend::new(path, (1100, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let panels = root.split_evenly((1, 2));
    let palette = [
        RGBColor(0x1f, 0x77, 0xb4),
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x7f, 0x7f, 0x7f),
        RGBColor(0x2c, 0xa0, 0x2c),
        RGBColor(0xff, 0x7f, 0x0e),
        RGBColor(0x94, 0x67, 0xbd),
        RGBColor(0x8c, 0x56, 0x4b),
        RGBColor(0xe3, 0x77, 0xc2),
        RGBColor(0x17, 0xbe, 0xcf),
        RGBColor(0xbc, 0xbd, 0x22),
    ];
    for (panel, op) in panels.iter().zip([Op::Decode, Op::Encode]) {
        let mut series: BTreeMap<(&str, Layer), Vec<(f64, f64)>> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.op == op) {
            series
                .entry((r.imp, r.layer))
                .or_default()
                .push((r.n as f64, r.timing.ns_min / 1000.0));
        }
        let ymax = series.values().flatten().map(|p| p.1).fold(0.0, f64::max) * 1.1 + 1e-3;
        let mut chart = ChartBuilder::on(panel)
            .caption(
                format!("{} (µs per operation, log scale)", op.as_str()),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..52.0, (0.01..ymax).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("bindings")
            .y_desc("µs")
            .draw()
            .map_err(|e| e.to_string())?;
        for (k, ((imp, layer), pts)) in series.iter().enumerate() {
            let color = palette[k % palette.len()];
            let style = ShapeStyle::from(&color).stroke_width(2);
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), style))
                .map_err(|e| e.to_string())?
                .label(format!("{imp} ({})", layer.as_str()))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
