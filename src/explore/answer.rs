//! The answer of an exploration: per figure, the rules ranked by swing, and the sentence that
//! says which matter most and how many move nothing beyond noise.

use crate::balance::figure::{Figure, distance};

use super::swing::{Standing, Swing};

/// The rules (indices) ranked by their swing on figure `f`, greatest first; ties keep the
/// rules' order.
pub fn ranking(swings: &[Vec<Swing>], f: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..swings.len()).collect();
    order.sort_by(|&a, &b| {
        swings[b][f]
            .swing
            .value
            .total_cmp(&swings[a][f].swing.value)
    });
    order
}

/// The rules that matter most for one figure, in words: `win_rate[optimal]: target.king moves
/// it most (85.20 pts, 83.10 to 87.30 pts), then start_hp (...) and damage.king (...); 9 of 23
/// rules move it less than 2.00 pts`.
pub fn sentence(
    figure: &Figure,
    paths: &[String],
    swings: &[Vec<Swing>],
    f: usize,
    precision: f64,
) -> String {
    let scale = figure.metric.scale();
    let show = |s: &Swing| {
        format!(
            "{}, {} to {}",
            distance(scale, s.swing.value),
            distance(scale, s.swing.low),
            if s.swing.high.is_finite() {
                distance(scale, s.swing.high)
            } else {
                "unbounded".to_string()
            }
        )
    };
    let order = ranking(swings, f);
    let moving: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&r| swings[r][f].standing(precision) == Standing::Moves)
        .collect();
    let mut s = match &moving[..] {
        [] => format!("{}: no rule is shown to move it", figure.label),
        [first, rest @ ..] => {
            let mut s = format!(
                "{}: {} moves it most ({})",
                figure.label,
                paths[*first],
                show(&swings[*first][f])
            );
            let next: Vec<String> = rest
                .iter()
                .take(2)
                .map(|&r| format!("{} ({})", paths[r], show(&swings[r][f])))
                .collect();
            if !next.is_empty() {
                s.push_str(&format!(", then {}", next.join(" and ")));
            }
            s
        }
    };
    let nil = swings
        .iter()
        .filter(|row| row[f].standing(precision) == Standing::Nil)
        .count();
    s.push_str(&format!(
        "; {nil} of {} rules move it less than {}",
        swings.len(),
        distance(scale, precision)
    ));
    s
}
