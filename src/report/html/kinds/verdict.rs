//! The verdict sentence at the top of every page: pure functions of the figures the page shows
//! (the same intervals as its tables), which never claim more than the intervals support. A
//! difference is called real only when its 95% interval excludes zero (or the reference);
//! otherwise the sentence says it is not told apart from noise.
//!
//! The terminal reports' verdicts are built the same way; when both exist, these functions are
//! meant to become the shared ones (their inputs are figures, their outputs sentences).

use crate::report::terminal::percent;

use crate::results::read_back::Interval;

/// Where an interval lies against a reference value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Wholly above it.
    Above,
    /// Wholly below it.
    Below,
    /// It holds the reference: not told apart from it.
    Either,
}

/// Where `i` lies against `reference`.
pub fn side(i: &Interval, reference: f64) -> Side {
    if i.low > reference {
        Side::Above
    } else if i.high < reference {
        Side::Below
    } else {
        Side::Either
    }
}

/// A rate with its interval: `62.80% (62.71% to 62.89%)`.
pub fn rate(i: &Interval) -> String {
    format!(
        "{} ({} to {})",
        percent(i.value),
        percent(i.low),
        percent(i.high)
    )
}

/// A difference of rates in points with its interval: `+20.0 pts (+19.1 to +20.9)`.
pub fn points(i: &Interval) -> String {
    let p = |x: f64| format!("{:+.1}", 100.0 * x);
    format!("{} pts ({} to {})", p(i.value), p(i.low), p(i.high))
}

/// A solo or team run: `bank-at-17 wins 62.80% (62.71% to 62.89%) of its games.`
pub fn run(who: &str, win: &Interval) -> String {
    format!("{who} wins {} of its games.", rate(win))
}

/// A duel: the first policy's result against the second over both seats, and the first-move
/// advantage if recorded.
pub fn duel(first: &str, second: &str, win: &Interval, first_move: Option<&Interval>) -> String {
    let who = match side(win, 0.5) {
        Side::Above => format!("{first} is the stronger"),
        Side::Below => format!("{second} is the stronger"),
        Side::Either => "neither is told apart from an even game".to_string(),
    };
    let mut s = format!(
        "{first} wins {} of its games against {second} over both seats: {who}.",
        rate(win)
    );
    if let Some(adv) = first_move {
        s.push(' ');
        s.push_str(&first_move_sentence(adv));
    }
    s
}

/// The first-move advantage (seat 0's win rate minus seat 1's) in words.
pub fn first_move_sentence(adv: &Interval) -> String {
    match side(adv, 0.0) {
        Side::Above => format!("Moving first is an advantage: {}.", points(adv)),
        Side::Below => format!("Moving first is a disadvantage: {}.", points(adv)),
        Side::Either => format!(
            "No first-move advantage beyond noise: {} (its interval holds 0).",
            points(adv)
        ),
    }
}

/// A comparison: the best policy's rate, and each policy's paired difference from the
/// baseline counted by its side of zero. `others` are (policy, paired difference), the
/// baseline left out.
pub fn compare(
    best: &str,
    best_win: &Interval,
    baseline: &str,
    others: &[(&str, Interval)],
) -> String {
    let mut s = format!("{best} wins most: {}.", rate(best_win));
    if let Some((_, d)) = others.iter().find(|(p, _)| *p == best) {
        s.push_str(&format!(
            " Against {baseline} on the same deals it is {}{}.",
            points(d),
            if side(d, 0.0) == Side::Either {
                ", not told apart from it"
            } else {
                ""
            }
        ));
    }
    let count = |want: Side| others.iter().filter(|(_, d)| side(d, 0.0) == want).count();
    let (above, below, either) = (count(Side::Above), count(Side::Below), count(Side::Either));
    s.push_str(&format!(
        " Of {} policies against {baseline}: {above} better, {below} worse, {either} not told apart (paired 95% intervals).",
        others.len()
    ));
    s
}

/// A sweep's policy: its lowest and highest cells (label, win rate), and whether they differ.
pub fn sweep(policy: &str, lowest: (&str, &Interval), highest: (&str, &Interval)) -> String {
    let apart = lowest.1.high < highest.1.low;
    format!(
        "{policy}: from {} at {} to {} at {}{}.",
        rate(lowest.1),
        lowest.0,
        rate(highest.1),
        highest.0,
        if apart {
            " (the two intervals do not overlap)"
        } else {
            ": the intervals overlap, no cell is told apart from the others beyond noise"
        }
    )
}

/// A tournament: the best rated policy and the runner-up on the Elo scale, and whether the
/// intervals tell them apart.
pub fn tournament(best: (&str, &Interval), next: Option<(&str, &Interval)>) -> String {
    let elo = |i: &Interval| format!("{:+.0} Elo ({:+.0} to {:+.0})", i.value, i.low, i.high);
    let mut s = format!("{} rates highest: {}.", best.0, elo(best.1));
    if let Some((name, i)) = next {
        s.push_str(&if best.1.low > i.high {
            format!(" Its interval clears the next, {name} at {}.", elo(i))
        } else {
            format!(
                " It is not told apart from {name} at {} (the intervals overlap).",
                elo(i)
            )
        });
    }
    s
}

/// A solve: the optimal policy's exact win probability and each evaluated policy's loss
/// against it (exact, no interval).
pub fn solve(win: f64, evaluated: &[(&str, f64)]) -> String {
    let mut s = format!(
        "Optimal play wins {} exactly (under fresh odds).",
        percent(win)
    );
    for (name, diff) in evaluated {
        s.push_str(&format!(
            " {name} wins {:.2} points less.",
            -100.0 * diff.min(0.0)
        ));
    }
    s
}

/// An evaluation of one rule set: the skill headroom (best fair rung minus the bottom rung,
/// paired) and, in a duel, the first-move advantage.
pub fn evaluate(
    best: &str,
    bottom: &str,
    headroom: &Interval,
    first_move: Option<&Interval>,
) -> String {
    let mut s = match side(headroom, 0.0) {
        Side::Above => format!(
            "Skill pays: {best}, the best fair rung, scores {} over {bottom} on the same deals.",
            points(headroom)
        ),
        Side::Below => format!(
            "The best fair rung, {best}, scores {} against {bottom}: below it.",
            points(headroom)
        ),
        Side::Either => format!(
            "Skill is not told apart from none: {best} scores {} over {bottom} (the interval holds 0).",
            points(headroom)
        ),
    };
    if let Some(adv) = first_move {
        s.push(' ');
        s.push_str(&first_move_sentence(adv));
    }
    s
}

/// An evaluation of several rule sets: the skill headroom at each (label, headroom), and
/// whether the lowest and the highest are told apart (their intervals do not overlap).
pub fn evaluate_vary(rule: &str, headrooms: &[(&str, Interval)]) -> String {
    let by = |f: fn(&Interval, &Interval) -> bool| {
        headrooms
            .iter()
            .copied()
            .reduce(|a, b| if f(&b.1, &a.1) { b } else { a })
    };
    let (Some(low), Some(high)) = (by(|b, a| b.value < a.value), by(|b, a| b.value > a.value))
    else {
        return format!("No skill headroom was measured over {rule}.");
    };
    let apart = low.1.high < high.1.low;
    format!(
        "Skill headroom over {rule}: lowest {} at {}, highest {} at {}; {}.",
        points(&low.1),
        low.0,
        points(&high.1),
        high.0,
        if apart {
            "their intervals do not overlap, so the rule changes how much skill matters"
        } else {
            "their intervals overlap: no change told apart from noise"
        }
    )
}

/// A one-rule balance search's answer. `bracket` are the candidates (label, metric, verdict)
/// of the crossing, in the rule's order: one on target, or two settled on either side.
pub fn balance(target: &str, bracket: &[(&str, String, &str)]) -> String {
    match bracket {
        [] => format!("No value could be told to meet {target} in the games allowed."),
        [(label, metric, verdict)] if *verdict == "on target" => {
            format!("{label} meets the target {target}: {metric}.")
        }
        [(label, metric, verdict)] => format!(
            "The target {target} lies outside the range: every value is {verdict} it; the nearest, {label}, gives {metric}."
        ),
        [first, .., last] => format!(
            "The target {target} lies between {} and {}: {} gives {} ({}), {} gives {} ({}).",
            first.0, last.0, first.0, first.1, first.2, last.0, last.1, last.2
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(value: f64, low: f64, high: f64) -> Interval {
        Interval { value, low, high }
    }

    #[test]
    fn a_difference_is_claimed_only_when_its_interval_excludes_zero() {
        assert_eq!(side(&iv(0.02, 0.01, 0.03), 0.0), Side::Above);
        assert_eq!(side(&iv(-0.02, -0.03, -0.01), 0.0), Side::Below);
        assert_eq!(side(&iv(0.01, -0.01, 0.03), 0.0), Side::Either);
        assert!(
            first_move_sentence(&iv(0.031, 0.01, 0.052))
                .starts_with("Moving first is an advantage: +3.1 pts (+1.0 to +5.2)")
        );
        assert!(
            first_move_sentence(&iv(0.005, -0.01, 0.02)).starts_with("No first-move advantage")
        );
        let s = evaluate("expectimax", "random", &iv(0.2, 0.18, 0.22), None);
        assert!(s.starts_with("Skill pays: expectimax"), "{s}");
        assert!(s.contains("+20.0 pts (+18.0 to +22.0)"), "{s}");
        let s = evaluate("greedy", "random", &iv(0.01, -0.02, 0.04), None);
        assert!(s.contains("not told apart"), "{s}");
    }

    #[test]
    fn comparisons_and_sweeps_count_what_their_intervals_support() {
        let s = compare(
            "a",
            &iv(0.6, 0.59, 0.61),
            "c",
            &[("a", iv(0.05, 0.04, 0.06)), ("b", iv(0.0, -0.01, 0.01))],
        );
        assert!(
            s.contains("Against c on the same deals it is +5.0 pts"),
            "{s}"
        );
        assert!(s.contains("1 better, 0 worse, 1 not told apart"), "{s}");
        let s = sweep(
            "p",
            ("k = 1", &iv(0.4, 0.39, 0.41)),
            ("k = 3", &iv(0.5, 0.49, 0.51)),
        );
        assert!(s.contains("do not overlap"), "{s}");
        let s = sweep(
            "p",
            ("k = 1", &iv(0.4, 0.3, 0.5)),
            ("k = 3", &iv(0.45, 0.35, 0.55)),
        );
        assert!(s.contains("overlap, no cell"), "{s}");
        let s = evaluate_vary(
            "k",
            &[
                ("k = 1", iv(0.3, 0.25, 0.35)),
                ("k = 2", iv(0.1, 0.05, 0.15)),
            ],
        );
        assert!(
            s.contains("lowest +10.0 pts (+5.0 to +15.0) at k = 2"),
            "{s}"
        );
        assert!(s.contains("do not overlap"), "{s}");
    }

    #[test]
    fn a_balance_answer_names_its_bracket() {
        let s = balance(
            "win_rate = 75.00%",
            &[
                ("start_hp = 18", "73.10%".into(), "below"),
                ("start_hp = 19", "76.00%".into(), "above"),
            ],
        );
        assert!(
            s.starts_with(
                "The target win_rate = 75.00% lies between start_hp = 18 and start_hp = 19"
            ),
            "{s}"
        );
        let s = balance("x", &[("v = 2", "1".into(), "on target")]);
        assert!(s.starts_with("v = 2 meets the target x"), "{s}");
    }
}
