//! A distribution as a histogram: one bar per value, its height the share of games.

use plotters::prelude::*;

use crate::error::Result;

use super::{WIDTH, colour, label_font, percent_tick, svg, title_font, whole};

/// The bars' colour; the tests find the bars by it.
pub const BAR: &str = "#4E79A7";

/// The histogram of `counts` ((value, games), in value order) with `x_desc` under the axis.
pub fn histogram(counts: &[(i64, u64)], x_desc: &str, label: &str) -> Result<String> {
    let total: u64 = counts.iter().map(|&(_, c)| c).sum::<u64>().max(1);
    let top = counts.iter().map(|&(_, c)| c).max().unwrap_or(1) as f64 / total as f64;
    let lo = counts.first().map_or(0, |&(v, _)| v) as f64;
    let hi = counts.last().map_or(0, |&(v, _)| v) as f64;
    let ticks = ((hi - lo) as usize + 1).min(25);
    svg((WIDTH, 260), label, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(58)
            .build_cartesian_2d(lo - 0.5..hi + 0.5, 0f64..top * 1.08)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(ticks)
            .y_labels(6)
            .x_label_formatter(&|v| whole(*v).map_or(String::new(), |v| v.to_string()))
            .y_label_formatter(&|v| percent_tick(*v, top / 6.0))
            .label_style(label_font())
            .axis_desc_style(title_font())
            .x_desc(x_desc)
            .y_desc("share of games")
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
}
