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
/// seat's win rate) if given.
pub fn intervals(
    rows: &[Row],
    x_desc: &str,
    scale: Scale,
    reference: Option<f64>,
    label: &str,
) -> Result<String> {
    let n = rows.len();
    let ends = rows
        .iter()
        .flat_map(|r| {
            let (wl, wh) = r.wide.unwrap_or((r.low, r.high));
            [r.low, r.high, wl, wh]
        })
        .chain(reference);
    let (lo, hi) = padded(ends, 0.08);
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
            .x_desc(x_desc)
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
