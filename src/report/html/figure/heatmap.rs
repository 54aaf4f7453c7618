//! A grid of values as coloured cells with the value written in each: a tournament's win
//! matrix, a sweep over two rules.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::Result;

use super::{WIDTH, label_font, svg, title_font};

/// The grid: row and column labels, and a value (or none) per cell, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// What the rows are (written above the row labels).
    pub row_desc: String,
    /// What the columns are (written above the column labels).
    pub col_desc: String,
    /// The rows' labels, top to bottom.
    pub rows: Vec<String>,
    /// The columns' labels, left to right.
    pub cols: Vec<String>,
    /// `values[r][c]`: the cell's value; none for an empty cell (a policy against itself).
    pub values: Vec<Vec<Option<f64>>>,
}

/// How values become colours.
#[derive(Clone, Copy, Debug)]
pub enum Colours {
    /// Light to dark blue from the smallest value to the largest.
    Sequential,
    /// Red below `centre`, white at it, blue above (a win rate around 50%).
    Diverging(f64),
    /// Each value a category, coloured by this function (a brief's region: meets, fails a
    /// target, open).
    Categorical(fn(f64) -> RGBColor),
}

impl Colours {
    /// The fill of `v` among values from `lo` to `hi`.
    fn fill(self, v: f64, lo: f64, hi: f64) -> RGBColor {
        let mix = |a: (f64, f64, f64), b: (f64, f64, f64), t: f64| {
            let t = t.clamp(0.0, 1.0);
            let c = |x: f64, y: f64| (x + (y - x) * t).round() as u8;
            RGBColor(c(a.0, b.0), c(a.1, b.1), c(a.2, b.2))
        };
        let white = (247.0, 247.0, 247.0);
        match self {
            Self::Sequential => {
                let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
                mix((239.0, 243.0, 255.0), (33.0, 81.0, 156.0), t)
            }
            Self::Diverging(centre) => {
                let reach = (hi - centre).abs().max((lo - centre).abs()).max(1e-9);
                let t = (v - centre) / reach;
                if t >= 0.0 {
                    mix(white, (33.0, 102.0, 172.0), t)
                } else {
                    mix(white, (178.0, 24.0, 43.0), -t)
                }
            }
            Self::Categorical(of) => of(v),
        }
    }
}

/// Black or white, whichever reads on `fill`.
fn ink(fill: RGBColor) -> &'static RGBColor {
    let luma = 0.299 * f64::from(fill.0) + 0.587 * f64::from(fill.1) + 0.114 * f64::from(fill.2);
    if luma > 140.0 { &BLACK } else { &WHITE }
}

/// Draws `grid` with each value written by `text`.
pub fn heatmap(
    grid: &Grid,
    colours: Colours,
    text: impl Fn(f64) -> String,
    label: &str,
) -> Result<String> {
    let longest = grid
        .rows
        .iter()
        .map(|r| r.chars().count())
        .chain([grid.row_desc.chars().count()])
        .max()
        .unwrap_or(4);
    let left = (longest as i32 * 8 + 20).clamp(60, 300);
    let top = 58;
    let cell_h = 34;
    let ncols = grid.cols.len().max(1) as i32;
    let cell_w = ((WIDTH as i32 - left - 16) / ncols).min(120);
    let height = (top + cell_h * grid.rows.len() as i32 + 16) as u32;
    let all: Vec<f64> = grid.values.iter().flatten().flatten().copied().collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    svg((WIDTH, height), label, |root| {
        let centred = |colour: &'static RGBColor| {
            label_font()
                .color(colour)
                .pos(Pos::new(HPos::Center, VPos::Center))
        };
        let right = |colour: &'static RGBColor| {
            label_font()
                .color(colour)
                .pos(Pos::new(HPos::Right, VPos::Center))
        };
        root.draw(&Text::new(
            format!("{} \u{2193}   {} \u{2192}", grid.row_desc, grid.col_desc),
            (8, 16),
            title_font(),
        ))?;
        for (c, name) in grid.cols.iter().enumerate() {
            let x = left + cell_w * c as i32 + cell_w / 2;
            root.draw(&Text::new(name.clone(), (x, top - 14), centred(&BLACK)))?;
        }
        for (r, name) in grid.rows.iter().enumerate() {
            let y = top + cell_h * r as i32;
            root.draw(&Text::new(
                name.clone(),
                (left - 8, y + cell_h / 2),
                right(&BLACK),
            ))?;
            for (c, value) in grid.values[r].iter().enumerate() {
                let x = left + cell_w * c as i32;
                let corners = [(x + 1, y + 1), (x + cell_w - 1, y + cell_h - 1)];
                match value {
                    Some(v) => {
                        let fill = colours.fill(*v, lo, hi);
                        root.draw(&Rectangle::new(corners, fill.filled()))?;
                        root.draw(&Text::new(
                            text(*v),
                            (x + cell_w / 2, y + cell_h / 2),
                            centred(ink(fill)),
                        ))?;
                    }
                    None => {
                        let none = RGBColor(0xdd, 0xdd, 0xdd);
                        root.draw(&Rectangle::new(corners, none.filled()))?;
                    }
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_light_to_dark_and_around_the_centre() {
        let s = Colours::Sequential;
        assert_eq!(s.fill(0.0, 0.0, 1.0), RGBColor(239, 243, 255));
        assert_eq!(s.fill(1.0, 0.0, 1.0), RGBColor(33, 81, 156));
        let d = Colours::Diverging(0.5);
        assert_eq!(d.fill(0.5, 0.2, 0.9), RGBColor(247, 247, 247));
        assert_eq!(d.fill(0.9, 0.2, 0.9), RGBColor(33, 102, 172));
        assert_eq!(d.fill(0.1, 0.1, 0.6), RGBColor(178, 24, 43));
        let c = Colours::Categorical(|v| RGBColor(v as u8, 0, 0));
        assert_eq!(c.fill(7.0, 0.0, 1.0), RGBColor(7, 0, 0));
        assert_eq!(*ink(RGBColor(33, 81, 156)), WHITE);
        assert_eq!(*ink(RGBColor(247, 247, 247)), BLACK);
    }

    #[test]
    fn every_cell_is_drawn_and_written() {
        let grid = Grid {
            row_desc: "policy".into(),
            col_desc: "against".into(),
            rows: vec!["a".into(), "b".into()],
            cols: vec!["a".into(), "b".into()],
            values: vec![vec![None, Some(0.75)], vec![Some(0.25), None]],
        };
        let svg = heatmap(&grid, Colours::Diverging(0.5), |v| format!("{v}"), "m").unwrap();
        assert!(svg.contains(">0.75<") && svg.contains(">0.25<"), "{svg}");
        assert_eq!(
            svg.matches("<rect").count(),
            5,
            "white, two values, two empty"
        );
    }
}
