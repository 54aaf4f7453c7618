//! Estimates with their 95% intervals, one labelled row each: the forest plot of a comparison's
//! differences, a tournament's ratings, a duel's win rates by seat.

use plotters::prelude::*;

use crate::error::Result;

use super::scale::Scale;
use super::{WIDTH, colour, label_font, padded, svg, title_font, whole};

/// One row: an estimate, its interval, and optionally a wider interval drawn thin behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's label, at the left.
    pub label: String,
    /// The estimate.
    pub value: f64,
    /// The interval's ends.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// A second interval (a comparison's unpaired one), drawn thin and grey.
    pub wide: Option<(f64, f64)>,
}

/// The rows top to bottom, with a dashed line at `reference` (0 for differences, 50% for a
/// seat's win rate) if given; the x axis is titled `x_desc` and the scale's unit.
pub fn intervals(
    rows: &[Row],
    x_desc: &str,
    scale: Scale,
    reference: Option<f64>,
    label: &str,
) -> Result<String> {
    intervals_on(rows, x_desc, scale, reference, None, label)
}

/// The ends of every row's intervals, held within the scale's domain.
pub fn ends(rows: &[Row], scale: Scale) -> impl Iterator<Item = f64> + '_ {
    rows.iter().flat_map(move |r| {
        let (wl, wh) = r.wide.unwrap_or((r.low, r.high));
        [r.low, r.high, wl, wh].map(|x| scale.clamp(x))
    })
}

/// [`intervals`] on the x range `range` if given (several figures on one scale; it must hold
/// every end), else one that fits the rows. Every interval is held within the scale's domain
/// (a rate's within 0..1), so none is drawn outside the figure.
pub fn intervals_on(
    rows: &[Row],
    x_desc: &str,
    scale: Scale,
    reference: Option<f64>,
    range: Option<(f64, f64)>,
    label: &str,
) -> Result<String> {
    let n = rows.len();
    let clamped: Vec<Row> = rows
        .iter()
        .map(|r| Row {
            label: r.label.clone(),
            value: scale.clamp(r.value),
            low: scale.clamp(r.low),
            high: scale.clamp(r.high),
            wide: r.wide.map(|(a, b)| (scale.clamp(a), scale.clamp(b))),
        })
        .collect();
    let rows = clamped.as_slice();
    let (lo, hi) = range.unwrap_or_else(|| {
        let (lo, hi) = padded(ends(rows, scale).chain(reference), 0.08);
        (scale.clamp(lo), scale.clamp(hi))
    });
    let x_title = scale.title(x_desc);
    let longest = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(4);
    let label_area = (longest as u32 * 8 + 16).clamp(60, 320);
    let height = 70 + 30 * n as u32;
    let at = |i: usize| (n - 1 - i) as f64;
    svg((WIDTH, height), label, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(label_area)
            .build_cartesian_2d(lo..hi, -0.6..n as f64 - 0.4)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n.max(1))
            .x_labels(8)
            .y_label_formatter(&|y| {
                whole(*y)
                    .filter(|&i| (0..n as i64).contains(&i))
                    .map_or(String::new(), |i| rows[n - 1 - i as usize].label.clone())
            })
            .x_label_formatter(&|x| scale.tick(*x, (hi - lo) / 8.0))
            .label_style(label_font())
            .axis_desc_style(title_font())
            .x_desc(&x_title)
            .light_line_style(WHITE)
            .draw()?;
        if let Some(r) = reference {
            let dash = RGBColor(0x88, 0x88, 0x88).stroke_width(1);
            chart.draw_series(DashedLineSeries::new(
                [(r, -0.6), (r, n as f64 - 0.4)],
                4,
                4,
                dash,
            ))?;
        }
        let grey = RGBColor(0xbb, 0xbb, 0xbb).stroke_width(7);
        chart.draw_series(rows.iter().enumerate().filter_map(|(i, r)| {
            let (a, b) = r.wide?;
            Some(PathElement::new([(a, at(i)), (b, at(i))], grey))
        }))?;
        let line = colour(0).stroke_width(3);
        chart.draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| PathElement::new([(r.low, at(i)), (r.high, at(i))], line)),
        )?;
        chart.draw_series(rows.iter().enumerate().flat_map(|(i, r)| {
            [r.low, r.high].map(|x| PathElement::new([(x, at(i) - 0.18), (x, at(i) + 0.18)], line))
        }))?;
        chart.draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| Circle::new((r.value, at(i)), 4, colour(0).filled())),
        )?;
        Ok(())
    })
}
