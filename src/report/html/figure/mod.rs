//! The report's figures: drawn by plotters into SVG text, then made fit to inline in the page
//! (no namespace URL, one line, a title for screen readers and tooltips).

pub mod heatmap;
pub mod histogram;
pub mod intervals;
pub mod lines;
pub mod scale;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::error::{Result, SimError};

/// The width of every figure, in SVG pixels (the page scales it down on narrow screens).
pub const WIDTH: u32 = 760;

/// The series colours (Tableau 10): told apart in colour and, mostly, in grey print.
const PALETTE: [(u8, u8, u8); 10] = [
    (0x4e, 0x79, 0xa7),
    (0xf2, 0x8e, 0x2b),
    (0xe1, 0x57, 0x59),
    (0x76, 0xb7, 0xb2),
    (0x59, 0xa1, 0x4f),
    (0xed, 0xc9, 0x48),
    (0xb0, 0x7a, 0xa1),
    (0xff, 0x9d, 0xa7),
    (0x9c, 0x75, 0x5f),
    (0xba, 0xb0, 0xac),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The colour of the `k`th of `n` ordered series (a ladder's rungs, weakest first): one hue
/// from light to dark, so that the order reads from the colour and nine rungs are not nine
/// unrelated colours.
pub fn shade(k: usize, n: usize) -> RGBColor {
    let (light, dark) = ((0x9e, 0xc5, 0xe8), (0x08, 0x30, 0x6b));
    let t = if n < 2 {
        1.0
    } else {
        k as f64 / (n - 1) as f64
    };
    let mix = |a: u8, b: u8| (f64::from(a) + t * (f64::from(b) - f64::from(a))).round() as u8;
    RGBColor(
        mix(light.0, dark.0),
        mix(light.1, dark.1),
        mix(light.2, dark.2),
    )
}

/// A colour as CSS writes it: `#4e79a7`.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The font of tick labels.
fn label_font() -> TextStyle<'static> {
    ("sans-serif", 13)
        .into_font()
        .color(&RGBColor(0x33, 0x33, 0x33))
}

/// The font of axis titles.
fn title_font() -> TextStyle<'static> {
    ("sans-serif", 14).into_font().color(&BLACK)
}

/// A numeric axis whose ticks are exactly the values given (each varied value, or a
/// histogram's round steps), where plotters would choose its own.
pub struct Ticked {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ticked {
    /// The axis over `range` with a tick at each of `ticks`.
    pub fn new(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Self {
        Self {
            inner: range.into(),
            ticks,
        }
    }
}

impl Ranged for Ticked {
    type ValueType = f64;
    type FormatOption = DefaultFormatting;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

/// The canvas plotters draws on.
pub type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// What a drawing closure returns: any plotters error.
pub type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

/// Draws `draw` on a white SVG canvas of `size` and returns the SVG, labelled `label`, ready to
/// inline: without the namespace URL (HTML does not need it, and the page names no URL), on
/// one line, with a `<title>`.
pub fn svg(size: (u32, u32), label: &str, draw: impl FnOnce(&Canvas) -> Drawn) -> Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(Into::into)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present().map_err(Into::into));
        drawn.map_err(|e| SimError::input(format!("cannot draw the figure {label}: {e}")))?;
    }
    Ok(inline(&text, label))
}

/// The SVG `text` as the page inlines it, titled `label`.
fn inline(text: &str, label: &str) -> String {
    let label = escape(label);
    let one_line: String = text
        .replace(r#" xmlns="http://www.w3.org/2000/svg""#, "")
        .lines()
        .map(str::trim)
        .collect();
    match one_line.split_once('>') {
        Some((open, rest)) if open.starts_with("<svg") => {
            format!("{open} role=\"img\" aria-label=\"{label}\"><title>{label}</title>{rest}")
        }
        _ => one_line,
    }
}

/// `text` safe inside an XML attribute or element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A tick label for positions that stand for whole numbers (values, categories): the whole
/// number, or nothing between them.
fn whole(v: f64) -> Option<i64> {
    ((v - v.round()).abs() < 1e-9).then_some(v.round() as i64)
}

/// A rate as a tick label: `62%`, or `62.5%` where the axis is finer.
fn percent_tick(v: f64, step: f64) -> String {
    let digits = if step >= 0.01 {
        0
    } else if step >= 0.001 {
        1
    } else {
        2
    };
    format!("{:.*}%", digits, 100.0 * v)
}

/// An axis range that holds every one of `values` with a margin (and never a zero width).
pub fn padded(values: impl IntoIterator<Item = f64>, margin: f64) -> (f64, f64) {
    let (lo, hi) = values
        .into_iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let span = (hi - lo).max(1e-6);
    (lo - margin * span, hi + margin * span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inlined_svg_has_no_url_one_line_and_a_title() {
        let svg = svg((100, 50), "a <b> & \"c\"", |root| {
            root.draw(&Rectangle::new([(1, 1), (20, 20)], RED.filled()))?;
            Ok(())
        })
        .unwrap();
        assert!(!svg.contains("http"), "{svg}");
        assert!(!svg.contains('\n'), "{svg}");
        assert!(
            svg.starts_with(r#"<svg width="100" height="50" viewBox="0 0 100 50" role="img" aria-label="a &lt;b&gt; &amp; &quot;c&quot;"><title>"#),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>"), "{svg}");
        assert_eq!(
            svg.matches("<rect").count(),
            2,
            "the white fill and the square"
        );
    }

    #[test]
    fn ordered_shades_darken_with_the_order() {
        let lum = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        let shades: Vec<u32> = (0..9).map(|k| lum(shade(k, 9))).collect();
        assert!(shades.windows(2).all(|w| w[1] < w[0]), "{shades:?}");
        assert_eq!(hex(shade(8, 9)), "#08306b");
    }

    #[test]
    fn ticks_and_ranges() {
        assert_eq!(whole(3.0), Some(3));
        assert_eq!(whole(2.5), None);
        assert_eq!(percent_tick(0.626, 0.05), "63%");
        assert_eq!(percent_tick(0.625, 0.005), "62.5%");
        let (lo, hi) = padded([0.2, 0.4], 0.5);
        assert!(
            (lo - 0.1).abs() < 1e-12 && (hi - 0.5).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(padded([], 0.1), (0.0, 1.0));
    }
}
