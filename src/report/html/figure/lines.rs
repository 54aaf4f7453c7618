//! Win rate against a varied rule: one line per policy, each point with its 95% interval bar.

use plotters::prelude::*;

use crate::error::Result;

use super::scale::Scale;
use super::{Ticked, WIDTH, colour, label_font, padded, svg, title_font, whole};

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

/// The widest spread of the points at one x value, as a share of the gap between neighbouring
/// values: the series are set a little apart so that their bars do not hide each other, but
/// every point stays by its tick.
pub const SPREAD: f64 = 0.16;

/// How far series `k` of `n` is set off its x value, where neighbouring values are `gap` apart.
pub fn dodge(k: usize, n: usize, gap: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let step = SPREAD / (n as f64 - 1.0);
    (k as f64 - (n as f64 - 1.0) / 2.0) * gap * step
}

/// The lines `series` (one per policy, coloured `colours[k]`) of rates (or what `scale` says)
/// against the x values, each x value a tick. The axes are titled `x_desc` (which names its
/// unit) and `y_desc` with the scale's unit; intervals are held within the scale's domain.
pub fn lines(
    series: &[Vec<Point>],
    colours: &[RGBColor],
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
    let (y_lo, y_hi) = padded(
        series
            .iter()
            .flatten()
            .flat_map(|p| [p.low, p.high].map(|y| scale.clamp(y))),
        0.08,
    );
    let (y_lo, y_hi) = (scale.clamp(y_lo), scale.clamp(y_hi));
    let mut distinct = xs.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let gap = distinct
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let gap = if gap.is_finite() { gap } else { 1.0 };
    let ticks = match axis {
        Axis::Numbers => distinct.clone(),
        Axis::Categories(names) => (0..names.len()).map(|i| i as f64).collect(),
    };
    let y_title = scale.title(y_desc);
    svg((WIDTH, 340), label, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(62)
            .build_cartesian_2d(Ticked::new(x_lo..x_hi, ticks), y_lo..y_hi)?;
        chart
            .configure_mesh()
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
            .y_desc(&y_title)
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(0xe3, 0xe3, 0xe3))
            .draw()?;
        for (k, points) in series.iter().enumerate() {
            let c = colours.get(k).copied().unwrap_or_else(|| colour(k));
            let shifted: Vec<(f64, &Point)> = points
                .iter()
                .map(|p| (p.x + dodge(k, series.len(), gap), p))
                .collect();
            chart.draw_series(LineSeries::new(
                shifted.iter().map(|(x, p)| (*x, p.value)),
                c.stroke_width(2),
            ))?;
            chart.draw_series(shifted.iter().map(|(x, p)| {
                let (low, high) = (scale.clamp(p.low), scale.clamp(p.high));
                ErrorBar::new_vertical(*x, low, p.value, high, c.stroke_width(2), 8)
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

    /// The text of every `<text>` element of `svg`.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].to_string())
            .collect()
    }

    fn at(x: f64, value: f64) -> Point {
        Point {
            x,
            value,
            low: value - 0.05,
            high: value + 0.05,
        }
    }

    #[test]
    fn every_value_is_a_tick_and_the_axes_name_their_units() {
        // 0..13 in steps of 1, and one value off any round step: each has its tick label.
        let xs: Vec<f64> = (0..=13).map(f64::from).chain([14.5]).collect();
        let series = vec![xs.iter().map(|&x| at(x, 0.5)).collect::<Vec<_>>()];
        let svg = lines(
            &series,
            &[colour(0)],
            &Axis::Numbers,
            "bonus (HP)",
            "win rate",
            Scale::Percent,
            "t",
        )
        .unwrap();
        let texts = texts(&svg);
        for x in &xs {
            assert!(
                texts.contains(&format!("{x}")),
                "no tick for {x}: {texts:?}"
            );
        }
        assert!(texts.iter().any(|t| t == "bonus (HP)"), "{texts:?}");
        assert!(texts.iter().any(|t| t == "win rate (%)"), "{texts:?}");
    }

    #[test]
    fn points_stay_by_their_ticks_and_intervals_inside_the_domain() {
        for n in [2, 3, 9, 20] {
            let widest = (0..n).map(|k| dodge(k, n, 1.0).abs()).fold(0.0, f64::max);
            assert!(widest <= SPREAD / 2.0 + 1e-12, "{n} series: {widest}");
            assert!(widest > 0.0);
        }
        assert_eq!(dodge(0, 1, 1.0), 0.0);
        // A share whose interval reaches below 0: the axis does not go below 0%.
        let series = vec![vec![
            Point {
                x: 1.0,
                value: 0.01,
                low: -0.04,
                high: 0.06,
            },
            Point {
                x: 2.0,
                value: 0.5,
                low: 0.45,
                high: 0.55,
            },
        ]];
        let svg = lines(
            &series,
            &[colour(0)],
            &Axis::Numbers,
            "k (value)",
            "share",
            Scale::Percent,
            "t",
        )
        .unwrap();
        assert!(
            !texts(&svg).iter().any(|t| t.starts_with('-')),
            "{:?}",
            texts(&svg)
        );
    }
}
