//! Verdict sentences: what a report's intervals say, in words, for the top of a report.
//!
//! Every sentence is built from the same figures and 95% intervals the tables show, and claims
//! no more than they support: a difference whose interval holds 0 is "no clear difference". The
//! pieces take plain figures (no command-line types), so the terminal and the HTML pages say the
//! same thing.

/// How a figure reads: a rate (in percent), a difference of rates (in points), or a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A share from 0 to 1, shown in percent: `62.8%`.
    Share,
    /// A difference of shares, shown in percentage points: `+20.0 pts`.
    Points,
    /// A number on its own scale: `14.6`.
    Number,
}

/// A figure with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranged {
    /// The estimate.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Ranged {
    /// The figure `value` with the interval `low` to `high`.
    pub fn new(value: f64, low: f64, high: f64) -> Self {
        Self { value, low, high }
    }

    /// Whether the interval lies above 0, below it, or holds it (or is unknown).
    pub fn sign(&self) -> Sign {
        if !(self.low.is_finite() && self.high.is_finite()) {
            Sign::Unclear
        } else if self.low > 0.0 {
            Sign::Above
        } else if self.high < 0.0 {
            Sign::Below
        } else {
            Sign::Unclear
        }
    }

    /// True if the value and both ends are known.
    fn known(&self) -> bool {
        self.value.is_finite() && self.low.is_finite() && self.high.is_finite()
    }
}

/// Where a difference's interval lies against 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// Wholly above 0: clearly higher.
    Above,
    /// Wholly below 0: clearly lower.
    Below,
    /// It holds 0 (or is unknown): no clear difference.
    Unclear,
}

/// Decimals enough to show an interval of half-width `half` (in shown units) apart from its
/// centre: one, or more for a narrow interval, at most three.
fn decimals(half: f64) -> usize {
    if !half.is_finite() || half >= 0.05 {
        1
    } else if half >= 0.005 {
        2
    } else {
        3
    }
}

/// The factor from a figure to its shown units.
fn factor(scale: Scale) -> f64 {
    match scale {
        Scale::Share | Scale::Points => 100.0,
        Scale::Number => 1.0,
    }
}

/// `62.8% (62.7 to 62.8)`, `+20.0 pts (19.8 to 20.2)`, `14.6 (14.1 to 15.0)`: a figure and its
/// interval, with the decimals its width needs.
pub fn ranged(scale: Scale, r: &Ranged) -> String {
    if !r.known() {
        return "n/a".to_string();
    }
    let f = factor(scale);
    let d = decimals(f * (r.high - r.low) / 2.0);
    let (v, lo, hi) = (f * r.value, f * r.low, f * r.high);
    match scale {
        Scale::Share => format!("{v:.d$}% ({lo:.d$} to {hi:.d$})"),
        Scale::Points => format!("{v:+.d$} pts ({lo:+.d$} to {hi:+.d$})"),
        Scale::Number => format!("{v:.d$} ({lo:.d$} to {hi:.d$})"),
    }
}

/// `+20.0 pts (19.8 to 20.2)` or, for a number, `+1.25 (0.80 to 1.70)`: a difference and its
/// interval with its sign.
fn signed(scale: Scale, r: &Ranged) -> String {
    match scale {
        Scale::Share | Scale::Points => ranged(Scale::Points, r),
        Scale::Number => {
            if !r.known() {
                return "n/a".to_string();
            }
            let d = decimals((r.high - r.low) / 2.0);
            format!("{:+.d$} ({:+.d$} to {:+.d$})", r.value, r.low, r.high)
        }
    }
}

/// How `name` differs from what it is measured against, by the difference `diff` (in the
/// figure's `scale`): `optimal +20.0 pts (+19.8 to +20.2) over it`, `bank-at-15 -1.2 pts (-1.5
/// to -0.9) under it`, or `bank-at-18 no clear difference: +0.1 pts (-0.3 to +0.5)` when the
/// interval holds 0.
pub fn difference(name: &str, scale: Scale, diff: &Ranged) -> String {
    match diff.sign() {
        Sign::Above => format!("{name} {} over it", signed(scale, diff)),
        Sign::Below => format!("{name} {} under it", signed(scale, diff)),
        Sign::Unclear => format!("{name} no clear difference: {}", signed(scale, diff)),
    }
}

/// The sentence of a ranking against a base: the base's win rate, then each other's paired
/// difference from it (`others`: a name and its difference in points), clearly better first,
/// then clearly worse, then those the intervals cannot tell apart from the base. For example
/// `bank-at-17 wins 62.8% (62.7 to 62.8); optimal +20.0 pts (+19.8 to +20.2) over it`.
pub fn against_base(base: &str, rate: &Ranged, others: &[(String, Ranged)]) -> String {
    let mut s = format!("{base} wins {}", ranged(Scale::Share, rate));
    let order = |d: &Ranged| match d.sign() {
        Sign::Above => 0,
        Sign::Below => 1,
        Sign::Unclear => 2,
    };
    let mut sorted: Vec<&(String, Ranged)> = others.iter().collect();
    sorted.sort_by(|a, b| {
        order(&a.1)
            .cmp(&order(&b.1))
            .then(b.1.value.total_cmp(&a.1.value))
    });
    for (name, diff) in sorted {
        s.push_str("; ");
        s.push_str(&difference(name, Scale::Points, diff));
    }
    s
}

/// One figure of a rule set's change against the base rule set: its name, how it reads, and the
/// paired difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The figure in words: `skill headroom`.
    pub figure: String,
    /// How the figure reads (a share's difference is in points).
    pub scale: Scale,
    /// The paired difference from the base rule set.
    pub diff: Ranged,
}

/// The line of a rule set against the base: every figure whose difference's interval excludes
/// 0, largest first, then how many did not change beyond noise. For example `strict wear: skill
/// headroom -16.5 pts (-21.0 to -12.0), luck share -7.9 pts (-9.1 to -6.7); no clear change in 12
/// other figures`, or `strict wear: no clear change in any of 14 figures`.
pub fn changes(label: &str, changes: &[Change]) -> String {
    let mut clear: Vec<&Change> = changes
        .iter()
        .filter(|c| c.diff.sign() != Sign::Unclear)
        .collect();
    clear.sort_by(|a, b| {
        (factor(b.scale) * b.diff.value.abs()).total_cmp(&(factor(a.scale) * a.diff.value.abs()))
    });
    let rest = changes.len() - clear.len();
    if clear.is_empty() {
        return format!(
            "{label}: no clear change in any of {} figure{}",
            changes.len(),
            plural(changes.len())
        );
    }
    let named: Vec<String> = clear
        .iter()
        .map(|c| format!("{} {}", c.figure, signed(c.scale, &c.diff)))
        .collect();
    let mut s = format!("{label}: {}", named.join(", "));
    if rest > 0 {
        s.push_str(&format!(
            "; no clear change in {rest} other figure{}",
            plural(rest)
        ));
    }
    s
}

/// A seat's figures in a duel: `seat 0 (moves first) wins 72.2% (70.6 to 73.8); first-move
/// advantage +44.5 pts (+41.3 to +47.7)`, or `no clear first-move advantage: +0.5 pts (-1.0 to
/// +2.0)`.
pub fn first_move(seat0: &Ranged, advantage: &Ranged) -> String {
    let adv = match advantage.sign() {
        Sign::Unclear => format!(
            "no clear first-move advantage: {}",
            signed(Scale::Points, advantage)
        ),
        Sign::Above => format!("first-move advantage {}", signed(Scale::Points, advantage)),
        Sign::Below => format!(
            "second-seat advantage {}",
            signed(Scale::Points, &negated(advantage))
        ),
    };
    format!(
        "seat 0 (moves first) wins {}; {adv}",
        ranged(Scale::Share, seat0)
    )
}

/// A balance search's one-rule answer: where the target lies among the values played, each
/// given as (label, what it showed), in the rule's order, and the value answered: `win_rate =
/// 0.6 lies between start_hp = 18 (61.20%, above) and start_hp = 19 (58.90%, below); answer:
/// start_hp = 18`.
pub fn bracket(target: &str, members: &[(String, String)], answer: &str) -> String {
    let shown: Vec<String> = members
        .iter()
        .map(|(label, brief)| format!("{label} ({brief})"))
        .collect();
    let between = match shown.as_slice() {
        [] => return format!("{target}: answer {answer}"),
        [one] => format!("is not told apart from {one}"),
        [init @ .., last] => format!("lies between {} and {last}", init.join(", ")),
    };
    format!("{target} {between}; answer: {answer}")
}

/// A figure that may be 0 by its interval, `first-move advantage +4.1 pts (+2.0 to +6.2)`, or
/// `no clear first-move advantage: +0.5 pts (-1.0 to +2.0)` when its interval holds 0.
pub fn signed_figure(name: &str, scale: Scale, r: &Ranged) -> String {
    match r.sign() {
        Sign::Unclear => format!("no clear {name}: {}", signed(scale, r)),
        _ => format!("{name} {}", signed(scale, r)),
    }
}

/// The difference the other way round.
fn negated(r: &Ranged) -> Ranged {
    Ranged::new(-r.value, -r.high, -r.low)
}

/// `s` after a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The cell of a brief nearest to meeting it, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct NearestCell {
    /// The cell: `start_hp = 12, target.king = 17`.
    pub cell: String,
    /// Each target it misses by its estimates: `win_rate[optimal]>=0.7 by 1.20 pts`; empty if
    /// it meets every target by its estimates but some verdict is not settled.
    pub misses: Vec<String>,
    /// Why it is not settled (`open on #1, #3`), when it misses nothing.
    pub unsettled: String,
}

/// A brief's answer in one sentence: `2 of 12 cells meet every target: start_hp = 12;
/// start_hp = 16; the nearest other, start_hp = 8, misses win_rate[optimal]>=0.7 by 4.10 pts`.
pub fn brief(cells: usize, meets: &[String], nearest: Option<&NearestCell>) -> String {
    let mut s = if meets.is_empty() {
        format!("0 of {cells} cells meet every target")
    } else {
        format!(
            "{} of {cells} cells meet every target: {}",
            meets.len(),
            meets.join("; ")
        )
    };
    if let Some(n) = nearest {
        let who = if meets.is_empty() {
            "the nearest"
        } else {
            "the nearest other"
        };
        if n.misses.is_empty() {
            s.push_str(&format!(
                "; {who}, {}, meets every target by its estimates but is {} (raise --games)",
                n.cell, n.unsettled
            ));
        } else {
            s.push_str(&format!(
                "; {who}, {}, misses {}",
                n.cell,
                n.misses.join(" and ")
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_and_a_difference_read_with_their_intervals() {
        let rate = Ranged::new(0.628, 0.6272, 0.6288);
        let narrow = Ranged::new(0.628, 0.6279, 0.6281);
        assert_eq!(ranged(Scale::Share, &narrow), "62.80% (62.79 to 62.81)");
        assert_eq!(ranged(Scale::Share, &rate), "62.8% (62.7 to 62.9)");
        let wide = Ranged::new(0.628, 0.60, 0.65);
        assert_eq!(ranged(Scale::Share, &wide), "62.8% (60.0 to 65.0)");
        let gain = Ranged::new(0.2, 0.198, 0.202);
        assert_eq!(
            difference("optimal", Scale::Points, &gain),
            "optimal +20.0 pts (+19.8 to +20.2) over it"
        );
    }

    #[test]
    fn an_interval_that_holds_zero_is_no_clear_difference() {
        let d = Ranged::new(0.004, -0.003, 0.011);
        assert_eq!(d.sign(), Sign::Unclear);
        let text = difference("bank-at-18", Scale::Points, &d);
        assert!(
            text.starts_with("bank-at-18 no clear difference: "),
            "{text}"
        );
        assert!(!text.contains("over") && !text.contains("under"), "{text}");
        assert_eq!(
            Ranged::new(f64::NAN, f64::NAN, f64::NAN).sign(),
            Sign::Unclear
        );
        assert_eq!(Ranged::new(-0.02, -0.03, -0.01).sign(), Sign::Below);
    }

    #[test]
    fn the_base_sentence_puts_clear_gains_first() {
        let others = vec![
            ("tie".to_string(), Ranged::new(0.001, -0.01, 0.012)),
            ("worse".to_string(), Ranged::new(-0.05, -0.06, -0.04)),
            ("better".to_string(), Ranged::new(0.2, 0.19, 0.21)),
        ];
        let s = against_base("base", &Ranged::new(0.5, 0.49, 0.51), &others);
        let at = |w: &str| s.find(w).unwrap();
        assert!(s.starts_with("base wins 50.0% (49.0 to 51.0); "), "{s}");
        assert!(at("better") < at("worse") && at("worse") < at("tie"), "{s}");
        assert!(s.contains("worse -5.0 pts (-6.0 to -4.0) under it"), "{s}");
    }

    #[test]
    fn a_change_line_names_only_what_moved_beyond_noise() {
        let change = |figure: &str, v, lo, hi| Change {
            figure: figure.into(),
            scale: Scale::Points,
            diff: Ranged::new(v, lo, hi),
        };
        let line = changes(
            "strict wear",
            &[
                change("luck share", -0.079, -0.091, -0.067),
                change("win rate", 0.001, -0.004, 0.006),
                change("skill headroom", -0.165, -0.21, -0.12),
            ],
        );
        assert_eq!(
            line,
            "strict wear: skill headroom -16.5 pts (-21.0 to -12.0), luck share -7.9 pts (-9.1 to -6.7); no clear change in 1 other figure"
        );
        let none = changes("x", &[change("win rate", 0.0, -0.01, 0.01)]);
        assert_eq!(none, "x: no clear change in any of 1 figure");
    }

    #[test]
    fn a_brief_names_the_cells_that_meet_it_and_the_nearest_miss() {
        let near = NearestCell {
            cell: "k = 1".into(),
            misses: vec!["a>=0.7 by 4.10 pts".into(), "b<=0.2 by 1.00 pts".into()],
            unsettled: String::new(),
        };
        assert_eq!(
            brief(3, &["k = 2".into(), "k = 3".into()], Some(&near)),
            "2 of 3 cells meet every target: k = 2; k = 3; the nearest other, k = 1, misses a>=0.7 by 4.10 pts and b<=0.2 by 1.00 pts"
        );
        let open = NearestCell {
            misses: Vec::new(),
            unsettled: "open on #2".into(),
            ..near
        };
        assert_eq!(
            brief(3, &[], Some(&open)),
            "0 of 3 cells meet every target; the nearest, k = 1, meets every target by its estimates but is open on #2 (raise --games)"
        );
        assert_eq!(
            brief(1, &["k = 1".into()], None),
            "1 of 1 cells meet every target: k = 1"
        );
    }

    #[test]
    fn a_bracket_names_both_sides_and_the_answer() {
        let members = [
            ("k = 3".to_string(), "61.2%, above".to_string()),
            ("k = 4".to_string(), "58.9%, below".to_string()),
        ];
        assert_eq!(
            bracket("win_rate = 0.6", &members, "k = 3"),
            "win_rate = 0.6 lies between k = 3 (61.2%, above) and k = 4 (58.9%, below); answer: k = 3"
        );
    }

    #[test]
    fn a_duel_names_the_seat_its_interval_favours() {
        let s = first_move(
            &Ranged::new(0.4, 0.39, 0.41),
            &Ranged::new(-0.2, -0.22, -0.18),
        );
        assert!(
            s.contains("second-seat advantage +20.0 pts (+18.0 to +22.0)"),
            "{s}"
        );
        let even = first_move(
            &Ranged::new(0.5, 0.49, 0.51),
            &Ranged::new(0.0, -0.02, 0.02),
        );
        assert!(even.contains("no clear first-move advantage"), "{even}");
    }
}
