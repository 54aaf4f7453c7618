//! Win rate against a varied rule: one line per policy, each point with its 95% interval bar.

use plotters::prelude::*;

use crate::error::Result;

use super::scale::Scale;
use super::{WIDTH, colour, label_font, padded, svg, title_font, whole};

/// One point of a line: a rule value and the rate there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The position on the x axis (the value, or the index of a text value).
    pub x: f64,
    /// The rate.
    pub value: f64,
    /// Its interval's lower end.
    pub low: f64,
    /// Its interval's upper end.
    pub high: f64,
}

/// What the x axis holds: numbers, or text values at positions 0, 1, ...
#[derive(Clone, Debug, PartialEq)]
pub enum Axis {
    /// Rule values that are numbers, at their own positions.
    Numbers,
    /// Rule values that are text, in order.
    Categories(Vec<String>),
}

impl Axis {
    /// The axis of the rule values `values`: their own positions if all are numbers, else
    /// even spacing in their order.
    pub fn of(values: &[String]) -> Self {
        if values.iter().all(|v| v.parse::<f64>().is_ok()) {
            Self::Numbers
        } else {
            Self::Categories(values.to_vec())
        }
    }

    /// The x position of `value` on the axis: the number itself, or its index among the
    /// categories.
    pub fn position(&self, value: &str) -> f64 {
        match self {
            Self::Numbers => value.parse().unwrap_or_default(),
            Self::Categories(names) => names.iter().position(|n| n == value).unwrap_or(0) as f64,
        }
    }
}

/// The lines `series` (one per policy, coloured by index) of rates (or what `scale` says)
/// against the x values.
pub fn lines(
    series: &[Vec<Point>],
    axis: &Axis,
    x_desc: &str,
    y_desc: &str,
    scale: Scale,
    label: &str,
) -> Result<String> {
    let xs: Vec<f64> = series.iter().flatten().map(|p| p.x).collect();
    let (x_lo, x_hi) = match axis {
        Axis::Numbers => padded(xs.iter().copied(), 0.05),
        Axis::Categories(names) => (-0.5, names.len() as f64 - 0.5),
    };
    let (y_lo, y_hi) = padded(series.iter().flatten().flat_map(|p| [p.low, p.high]), 0.08);
    let mut distinct = xs.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let gap = distinct
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let gap = if gap.is_finite() { gap } else { 1.0 };
    let dodge = |k: usize| (k as f64 - (series.len() as f64 - 1.0) / 2.0) * gap * 0.05;
    let x_ticks = match axis {
        Axis::Numbers => distinct.len().clamp(2, 12),
        Axis::Categories(names) => names.len(),
    };
    svg((WIDTH, 340), label, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(62)
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)?;
        chart
            .configure_mesh()
            .x_labels(x_ticks)
            .y_labels(8)
            .x_label_formatter(&|x| match axis {
                Axis::Numbers => format!("{}", (x * 1e6).round() / 1e6),
                Axis::Categories(names) => whole(*x)
                    .and_then(|i| names.get(usize::try_from(i).ok()?))
                    .cloned()
                    .unwrap_or_default(),
            })
            .y_label_formatter(&|y| scale.tick(*y, (y_hi - y_lo) / 8.0))
            .label_style(label_font())
            .axis_desc_style(title_font())
            .x_desc(x_desc)
            .y_desc(y_desc)
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(0xe3, 0xe3, 0xe3))
            .draw()?;
        for (k, points) in series.iter().enumerate() {
            let c = colour(k);
            let shifted: Vec<(f64, &Point)> = points.iter().map(|p| (p.x + dodge(k), p)).collect();
            chart.draw_series(LineSeries::new(
                shifted.iter().map(|(x, p)| (*x, p.value)),
                c.stroke_width(2),
            ))?;
            chart.draw_series(shifted.iter().map(|(x, p)| {
                ErrorBar::new_vertical(*x, p.low, p.value, p.high, c.stroke_width(2), 8)
            }))?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sit_at_themselves_and_words_at_even_spacing() {
        let numbers = Axis::of(&["1".into(), "2.5".into(), "10".into()]);
        assert_eq!(numbers, Axis::Numbers);
        assert_eq!(numbers.position("2.5"), 2.5);
        let words = Axis::of(&["strict".into(), "2".into(), "loose".into()]);
        assert_eq!(words.position("strict"), 0.0);
        assert_eq!(words.position("loose"), 2.0);
    }
}
