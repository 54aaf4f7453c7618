//! A distribution as a histogram: one bar per value, its height the share of games.

use plotters::prelude::*;

use crate::error::Result;

use super::{Ticked, WIDTH, colour, label_font, percent_tick, svg, title_font, whole};

/// The bars' colour; the tests find the bars by it.
pub const BAR: &str = "#4E79A7";

/// The ticks of a histogram's value axis from `lo` to `hi`: every value if there are at most
/// 25, else the multiples of a round step (1, 2 or 5 times a power of ten) giving at most 20.
pub fn value_ticks(lo: i64, hi: i64) -> Vec<f64> {
    let span = (hi - lo).max(0);
    let step = if span < 25 {
        1
    } else {
        let mut step = 1i64;
        'find: loop {
            for m in [1, 2, 5] {
                if span / (step * m) <= 20 {
                    step *= m;
                    break 'find;
                }
            }
            step *= 10;
        }
        step
    };
    (lo..=hi)
        .filter(|v| v.rem_euclid(step) == 0)
        .map(|v| v as f64)
        .collect()
}

/// The histogram of `counts` ((value, games), in value order, zero counts left out) with
/// `x_desc` (which names its unit) under the axis; the axis runs from the least value played
/// to the greatest.
pub fn histogram(counts: &[(i64, u64)], x_desc: &str, label: &str) -> Result<String> {
    let played: Vec<(i64, u64)> = counts.iter().copied().filter(|&(_, c)| c > 0).collect();
    let counts = played.as_slice();
    let total: u64 = counts.iter().map(|&(_, c)| c).sum::<u64>().max(1);
    let top = counts.iter().map(|&(_, c)| c).max().unwrap_or(1) as f64 / total as f64;
    let lo = counts.first().map_or(0, |&(v, _)| v);
    let hi = counts.last().map_or(0, |&(v, _)| v);
    let ticks = value_ticks(lo, hi);
    let (lo, hi) = (lo as f64, hi as f64);
    svg((WIDTH, 260), label, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(58)
            .build_cartesian_2d(Ticked::new(lo - 0.5..hi + 0.5, ticks), 0f64..top * 1.08)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_labels(6)
            .x_label_formatter(&|v| whole(*v).map_or(String::new(), |v| v.to_string()))
            .y_label_formatter(&|v| percent_tick(*v, top / 6.0))
            .label_style(label_font())
            .axis_desc_style(title_font())
            .x_desc(x_desc)
            .y_desc("share of games (%)")
            .light_line_style(WHITE)
            .draw()?;
        let bar = colour(0).filled();
        chart.draw_series(counts.iter().map(|&(value, count)| {
            let x = value as f64;
            Rectangle::new(
                [(x - 0.4, count as f64 / total as f64), (x + 0.4, 0.0)],
                bar,
            )
        }))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bar_per_value_its_height_the_share() {
        let counts = [(0, 50), (1, 25), (3, 25)];
        let svg = histogram(&counts, "final hp", "final hp").unwrap();
        let bars: Vec<&str> = svg
            .split("<rect")
            .filter(|r| r.contains(&format!("fill=\"{BAR}\"")))
            .collect();
        assert_eq!(bars.len(), 3, "{svg}");
        let height = |r: &str| -> f64 {
            let at = r.find("height=\"").unwrap() + 8;
            r[at..].split('"').next().unwrap().parse().unwrap()
        };
        let (a, b, c) = (height(bars[0]), height(bars[1]), height(bars[2]));
        assert!((a - 2.0 * b).abs() <= 2.0, "{a} {b}");
        assert!((b - c).abs() <= 1.0, "{b} {c}");
    }

    #[test]
    fn the_value_axis_runs_over_the_values_played_with_round_ticks() {
        assert_eq!(
            value_ticks(0, 13),
            (0..=13).map(f64::from).collect::<Vec<_>>()
        );
        assert_eq!(value_ticks(3, 180).first(), Some(&10.0));
        assert!(value_ticks(3, 180).len() <= 20);
        assert_eq!(value_ticks(-30, 30)[..2], [-30.0, -25.0]);
        // A zero count at 180 does not stretch the axis past the games' 15 turns.
        let svg = histogram(&[(5, 10), (15, 3), (180, 0)], "turns (turns)", "t").unwrap();
        assert!(!svg.contains(">180<") && !svg.contains(">100<"), "{svg}");
        assert!(svg.contains(">15<"), "{svg}");
    }
}
