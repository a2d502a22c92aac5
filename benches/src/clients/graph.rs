//! A graph per case: a dot plot, a row per client, calls a second (setup: ms) on a log
//! scale, SNMPv2c filled and SNMPv3 hollow, the spread over the runs as a bar through each
//! point. Written as SVG by plotters, then as PNG by resvg from the SVG (the text in the
//! system's fonts; none found leaves the PNG without text, and a note says so).

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::data::Kind;
use super::stats::Cell;
use crate::plot::{with_marker, Look, MARKERS, PALETTE};

const SIZE: (u32, u32) = (900, 520);

/// The cells of `case`'s graph, by client in first-seen order.
fn rows<'a>(cells: &'a [Cell], case: &str) -> Vec<(&'static str, Vec<&'a Cell>)> {
    let mut rows: Vec<(&'static str, Vec<&Cell>)> = Vec::new();
    for c in cells
        .iter()
        .filter(|c| c.case == case && !c.broken && !c.runs.is_empty())
    {
        match rows.iter_mut().find(|(name, _)| *name == c.client) {
            Some((_, v)) => v.push(c),
            None => rows.push((c.client, vec![c])),
        }
    }
    rows
}

/// How `client` is drawn in every graph: its colour and marker by its place among all the
/// clients measured (so that it keeps them from one graph to the next), the floor in grey.
fn look(cells: &[Cell], client: &str) -> Look {
    if client == "udp floor" {
        return Look {
            color: RGBColor(0x99, 0x99, 0x99),
            marker: MARKERS[3],
        };
    }
    let mut seen: Vec<&str> = Vec::new();
    for c in cells.iter().filter(|c| c.client != "udp floor") {
        if !seen.contains(&c.client) {
            seen.push(c.client);
        }
    }
    let k = seen.iter().position(|c| *c == client).unwrap_or(0);
    Look {
        color: PALETTE[k % PALETTE.len()],
        marker: MARKERS[k % MARKERS.len()],
    }
}

/// The value and its spread a cell is drawn at.
fn point(cell: &Cell) -> (f64, f64) {
    match cell.kind {
        Kind::Setup => cell.ms(),
        _ => cell.rps().unwrap_or((0.0, 0.0)),
    }
}

/// An axis value as a person writes it: 12k, 1.5M, 0.25.
fn human(v: f64) -> String {
    let trim = |x: f64| {
        let t = format!("{x:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match v.abs() {
        a if a >= 1e6 => format!("{}M", trim(v / 1e6)),
        a if a >= 1e3 => format!("{}k", trim(v / 1e3)),
        _ => trim(v),
    }
}

/// Draws `case`'s graph as SVG at `path`.
pub fn svg(path: &Path, cells: &[Cell], case: &str, title: &str) -> Result<(), String> {
    let all = cells;
    let rows = rows(cells, case);
    if rows.is_empty() {
        return Err(format!("{case}: nothing measured"));
    }
    let setup = case == "setup";
    let values: Vec<f64> = rows
        .iter()
        .flat_map(|(_, v)| v.iter().map(|c| point(c).0))
        .filter(|v| *v > 0.0)
        .collect();
    let hi = values.iter().copied().fold(0.0, f64::max) * 2.0;
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min).min(hi) / 2.0;
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let n = rows.len();
    let names: Vec<&str> = rows.iter().map(|(name, _)| *name).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(14)
        .margin_bottom(30)
        .x_label_area_size(40)
        .y_label_area_size(150)
        .build_cartesian_2d(
            (lo.max(1e-3)..hi.max(1e-2)).log_scale(),
            -0.5..(n as f64 - 0.5),
        )
        .map_err(|e| e.to_string())?;
    // The first client at the top.
    let row_y = |k: usize| (n - 1 - k) as f64;
    let label = |y: &f64| {
        let k = y.round();
        if (y - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < n {
            names
                .get(n - 1 - k as usize)
                .map_or(String::new(), |s| s.to_string())
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc(if setup {
            "ms to the first answer (log scale; lower is better)"
        } else {
            "calls a second (log scale; higher is better)"
        })
        .x_labels(8)
        .x_label_formatter(&|v| human(*v))
        .y_labels(n)
        .y_label_formatter(&label)
        .disable_y_mesh()
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, (client, cells)) in rows.iter().enumerate() {
        let look = look(all, client);
        for c in cells {
            let v2c = c.version == "2c";
            let y = row_y(k) + if v2c { 0.15 } else { -0.15 };
            let (v, sd) = point(c);
            let bar = [((v - sd).max(lo), y), ((v + sd).min(hi), y)];
            chart
                .draw_series(std::iter::once(PathElement::new(
                    bar.to_vec(),
                    ShapeStyle::from(&look.color).stroke_width(2),
                )))
                .map_err(|e| e.to_string())?;
            with_marker!(look, v2c, (v, y), |el| chart
                .draw_series(std::iter::once(el))
                .map(|_| ()))
            .map_err(|e| e.to_string())?;
        }
    }
    let text = ("sans-serif", 13).into_font().color(&BLACK);
    let legend = "filled: SNMPv2c   hollow: SNMPv3   bar: ± one standard deviation over the runs";
    root.draw(&Text::new(legend, (160, SIZE.1 as i32 - 20), text))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// The SVG at `svg` rendered as PNG beside it: its path, and whether any font was found for
/// its text.
pub fn png(svg: &Path) -> Result<(PathBuf, bool), String> {
    let text = std::fs::read(svg).map_err(|e| format!("{}: {e}", svg.display()))?;
    let mut options = resvg::usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // plotters asks for `sans-serif`: the first of the usual free families there is, else
    // any family at all.
    let families: Vec<String> = fonts
        .faces()
        .filter_map(|f| f.families.first())
        .map(|(name, _)| name.clone())
        .collect();
    let sans = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans"]
        .into_iter()
        .find(|want| families.iter().any(|f| f == want))
        .map(str::to_string)
        .or_else(|| families.first().cloned());
    if let Some(family) = &sans {
        fonts.set_sans_serif_family(family.as_str());
    }
    let fonts = sans.is_some();
    let tree = resvg::usvg::Tree::from_data(&text, &options)
        .map_err(|e| format!("{}: {e}", svg.display()))?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("an empty graph")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let out = svg.with_extension("png");
    pixmap
        .save_png(&out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok((out, fonts))
}

#[cfg(test)]
mod tests {
    #[test]
    fn axis_values_read_as_written() {
        assert_eq!(super::human(12_000.0), "12k");
        assert_eq!(super::human(1_500_000.0), "1.5M");
        assert_eq!(super::human(0.25), "0.25");
        assert_eq!(super::human(40.0), "40");
    }
}
