//! `sim evaluate`'s report: `evaluate.parquet` (every figure), `ladder.parquet` (every rung),
//! the terminal text and the JSON document. See docs/evaluate.md and docs/output-files.md.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde_json::{Value, json};

use crate::error::{Result, SimError};
use crate::evaluate::collect::Cost;
use crate::evaluate::profile::{Figure, Part, Profile, Unit};
use crate::stats::estimate::Estimate;

use super::differences;
use super::tables::table;
use super::terminal::{labelled_bars, percent, thousands};
use super::verdict::{self, Ranged, Scale};
use crate::results::parquet::{param_column, write_frame};

/// One rule set's profile as the report shows it.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Its label: `default rules`, or the varied values (`guard_damage.king=3`).
    pub label: String,
    /// The varied rule values, as (path, value).
    pub params: Vec<(String, String)>,
    /// The rules in force, as JSON.
    pub rules: String,
    /// The profile.
    pub profile: Profile,
    /// What its games cost (none after a merge of shards).
    pub cost: Option<Cost>,
}

/// What the whole evaluation was and cost.
#[derive(Clone, Debug)]
pub struct Run {
    /// The game.
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
    /// False if Ctrl-C stopped it early.
    pub complete: bool,
    /// Seconds spent setting the ladders up (solving, ...), if measured.
    pub setup_seconds: Option<f64>,
    /// Wall seconds of the games, if measured.
    pub wall_seconds: Option<f64>,
    /// Worker threads.
    pub threads: usize,
    /// `--ideal-turns`, if given.
    pub ideal: Option<(u32, u32)>,
}

/// A metric in words.
pub fn label(metric: &str) -> &str {
    match metric {
        "win_rate" => "win rate",
        "gain_on_rung_below" => "gain on the rung below",
        "score_vs_rung_below" => "score vs the rung below",
        "skill_headroom" => "skill headroom",
        "gain_over_baseline" => "best fair rung over the baseline",
        "last_doubling_gain" => "last doubling's gain",
        "skill_trace" => "skill trace (Ludii)",
        "deals_no_rung_wins" => "deals no rung wins",
        "deals_every_fair_rung_wins" => "deals every fair rung wins",
        "deals_every_strategy_wins" => "deals every rung above random wins",
        "ceiling_minus_best_fair" => "ceiling minus best fair rung",
        "deals_seat_decided" => "deals the seat decided",
        "deals_skill_decided" => "deals skill decided",
        "variance_deal_share" => "variance: deal's share (luck)",
        "variance_player_share" => "variance: player's share (skill)",
        "variance_rest_share" => "variance: the rest",
        "completion" => "completion",
        "draws" => "draws",
        "seat_win_rate" => "win rate",
        "first_move_advantage" => "first-move advantage",
        "balance" => "balance (Ludii)",
        "length_mean" => "mean length",
        "length_q1" => "first quartile",
        "length_median" => "median",
        "length_q3" => "third quartile",
        "ideal_duration" => "ideal duration (Ludii)",
        "decisiveness" => "decisiveness",
        "drama" => "drama",
        "comebacks" => "comebacks",
        "lead_changes" => "lead changes",
        other => other,
    }
}

/// A unit's name in `evaluate.parquet`.
pub fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Share => "share",
        Unit::Points => "points",
        Unit::Number => "number",
        Unit::Length => "length",
    }
}

/// The unit named `name` in `evaluate.parquet`.
pub fn unit_named(name: &str) -> Option<Unit> {
    [Unit::Share, Unit::Points, Unit::Number, Unit::Length]
        .into_iter()
        .find(|&u| unit_name(u) == name)
}

/// A value in its unit: `62.50%`, `+1.23 pts`, `0.523`, `14.6`; `n/a` for none.
pub fn shown(unit: Unit, x: f64) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    match unit {
        Unit::Share => percent(x),
        Unit::Points => format!("{:+.2} pts", 100.0 * x),
        Unit::Number => format!("{x:.3}"),
        Unit::Length => format!("{x:.1}"),
    }
}

/// An interval in its unit: `60.1% to 64.8%`; without one, `n/a` and why where its sample of
/// `games` is too small for one.
fn interval(unit: Unit, e: &Estimate, games: u64) -> String {
    if !e.low.is_finite() || !e.high.is_finite() {
        return not_estimated(games).into();
    }
    format!("{} to {}", shown(unit, e.low), shown(unit, e.high))
}

/// What stands for a figure or interval that could not be estimated from `games` games.
fn not_estimated(games: u64) -> &'static str {
    if games < 2 {
        "n/a: needs 2 or more games"
    } else {
        "n/a"
    }
}

/// `value (low to high)` over `games` games.
fn with_interval(unit: Unit, e: &Estimate, games: u64) -> String {
    if !e.value.is_finite() {
        return not_estimated(games).into();
    }
    format!("{} ({})", shown(unit, e.value), interval(unit, e, games))
}

/// The ladder's table: each rung's win rate (a duel: its score against the rung below), its
/// paired gain, its games' mean length and CPU time.
fn ladder_table(profile: &Profile, cost: Option<&Cost>) -> String {
    let duel = profile.setup.table == crate::games::seats::Table::Duel;
    let mut headers: Vec<String> = [
        "rung",
        if duel { "score vs below" } else { "win rate" },
        "95% CI",
        if duel { "minus 1/2" } else { "gain on below" },
        "95% CI",
        profile.setup.unit.as_str(),
    ]
    .map(String::from)
    .to_vec();
    if cost.is_some() {
        headers.push("cpu".into());
    }
    let layout = crate::evaluate::collect::Layout::of(&profile.setup).ok();
    let rows: Vec<Vec<String>> = profile
        .ladder
        .iter()
        .map(|r| {
            let name = if r.fair {
                r.name.clone()
            } else {
                format!("{} (NOT A STRATEGY)", r.name)
            };
            let (unit_r, unit_g) = (Unit::Share, Unit::Points);
            let mut cells = vec![
                name,
                r.result.map_or(String::new(), |e| shown(unit_r, e.value)),
                r.result
                    .map_or(String::new(), |e| interval(unit_r, &e, r.games)),
                r.gain.map_or(String::new(), |e| shown(unit_g, e.value)),
                r.gain
                    .map_or(String::new(), |e| interval(unit_g, &e, r.games)),
                shown(Unit::Length, r.mean_length),
            ];
            if let (Some(cost), Some(layout)) = (cost, &layout) {
                let micros: u64 = layout
                    .lines
                    .iter()
                    .enumerate()
                    .filter(|(_, seats)| seats.iter().max() == Some(&r.rung))
                    .map(|(l, _)| cost.lines[l])
                    .sum();
                cells.push(format!("{:.1} s", micros as f64 / 1e6));
            }
            cells
        })
        .collect();
    table(&headers, &rows, 1)
}

/// One part's figures as lines: label, what about, value and interval, sample.
fn figure_lines(figures: &[&Figure]) -> String {
    let rows: Vec<Vec<String>> = figures
        .iter()
        .map(|f| {
            vec![
                label(f.metric).to_string(),
                f.rung.clone().unwrap_or_default(),
                shown(f.unit, f.estimate.value),
                interval(f.unit, &f.estimate, f.games),
                thousands(f.games),
            ]
        })
        .collect();
    let headers = ["figure", "of", "value", "95% CI", "games"].map(String::from);
    table(&headers, &rows, 2)
}

/// The lengths as about a dozen bars.
fn length_bars(profile: &Profile) -> String {
    let (Some(first), Some(last)) = (profile.lengths.first(), profile.lengths.last()) else {
        return String::new();
    };
    let (lo, hi) = (first.0, last.0);
    let width = (hi - lo) / 12 + 1;
    let mut rows: Vec<(String, u64)> = Vec::new();
    for start in (lo..=hi).step_by(width as usize) {
        let end = start + width - 1;
        let count = profile
            .lengths
            .iter()
            .filter(|(l, _)| (start..=end).contains(l))
            .map(|(_, c)| c)
            .sum();
        let name = if width == 1 {
            start.to_string()
        } else {
            format!("{start}-{end}")
        };
        rows.push((name, count));
    }
    labelled_bars(
        &format!("{} of {}'s games", profile.setup.unit, profile.profile_rung),
        &rows,
    )
}

/// The text report of one rule set.
fn single(run: &Run, v: &Variant) -> String {
    let p = &v.profile;
    let mut s = format!(
        "{} evaluate | {} | {} deals on every line | seed {}{}\n",
        run.game,
        v.label,
        thousands(p.deals),
        run.seed,
        if run.complete {
            ""
        } else {
            " | INCOMPLETE (stopped early)"
        }
    );
    s.push_str(&profile_verdict(p));
    for part in Part::ALL {
        let figures: Vec<&Figure> = p
            .figures
            .iter()
            .filter(|f| f.part == part)
            .filter(|f| {
                !matches!(
                    f.metric,
                    "win_rate" | "gain_on_rung_below" | "score_vs_rung_below"
                )
            })
            .collect();
        let _ = writeln!(s, "{}", heading(part, p));
        if part == Part::Ladder {
            s.push_str(&ladder_table(p, v.cost.as_ref()));
        }
        if figures.is_empty() && part != Part::Ladder {
            s.push_str("  (none: no estimate was read at any decision)\n");
        } else if !figures.is_empty() {
            s.push_str(&figure_lines(&figures));
        }
        if part == Part::Duration {
            s.push_str(&length_bars(p));
        }
    }
    s
}

/// The verdict of one rule set's profile: the best fair rung's win rate (solo and team games),
/// the skill headroom, the player's share of the variance, and a duel's first-move advantage,
/// each with its interval; empty if the profile has none of them.
pub fn profile_verdict(p: &Profile) -> String {
    let ranged = |f: &Figure| Ranged::new(f.estimate.value, f.estimate.low, f.estimate.high);
    let mut parts = Vec::new();
    if let Some(f) = p.figure("win_rate", Some(&p.profile_rung)) {
        parts.push(format!(
            "{} wins {}",
            p.profile_rung,
            verdict::ranged(Scale::Share, &ranged(f))
        ));
    }
    if let Some(f) = p.figure("skill_headroom", None) {
        let name = format!("skill headroom ({})", f.rung.clone().unwrap_or_default());
        parts.push(verdict::signed_figure(&name, Scale::Points, &ranged(f)));
    }
    if let Some(f) = p.figure("variance_player_share", None) {
        parts.push(format!(
            "the player's share of the variance {}",
            verdict::ranged(Scale::Share, &ranged(f))
        ));
    }
    if let Some(f) = p.figure("first_move_advantage", None) {
        parts.push(verdict::signed_figure(
            "first-move advantage",
            Scale::Points,
            &ranged(f),
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("  verdict: {}\n", parts.join("; "))
    }
}

/// A part's heading, saying what its figures are read from.
fn heading(part: Part, p: &Profile) -> String {
    match part {
        Part::Ladder => {
            "ladder: every rung on the same deals; gains are paired, deal by deal".into()
        }
        Part::Luck => "luck".into(),
        Part::Seats => format!("seats: {}'s games", p.profile_rung),
        Part::Duration => format!("duration in {}: {}'s games", p.setup.unit, p.profile_rung),
        Part::Tension => format!(
            "tension: {}'s games, estimates from {}",
            p.profile_rung, p.setup.estimates
        ),
    }
}

/// Every figure of several rule sets' profiles once, with the profile it was first met in: by
/// metric and rung, or by metric alone for a metric each profile holds once (see
/// [`differences::matching`]: the best fair rung, the `of` of headroom, duration and tension,
/// can differ between rule sets). One met later stands after the last of its metric, else of
/// its part.
fn every_figure(profiles: &[&[Figure]]) -> Vec<(usize, usize)> {
    let mut shown: Vec<(usize, usize)> = Vec::new();
    let figure = |(v, i): (usize, usize)| &profiles[v][i];
    for (v, p) in profiles.iter().enumerate() {
        for (i, f) in p.iter().enumerate() {
            if shown.iter().any(|&(gv, gi)| {
                let g = figure((gv, gi));
                differences::matching(profiles[gv], p, f).is_some_and(|m| std::ptr::eq(m, g))
            }) {
                continue;
            }
            let after = (shown.iter().rposition(|&k| figure(k).metric == f.metric))
                .or_else(|| shown.iter().rposition(|&k| figure(k).part == f.part));
            shown.insert(after.map_or(shown.len(), |k| k + 1), (v, i));
        }
    }
    shown
}

/// The figure of `profile` that `f` (of a profile whose figures are `figures`) stands for.
fn counterpart<'a>(profile: &'a Profile, figures: &[Figure], f: &Figure) -> Option<&'a Figure> {
    differences::matching(&profile.figures, figures, f)
}

/// Each rule set after the first against the first: one verdict line each.
fn verdict_lines(variants: &[Variant]) -> String {
    let base = &variants[0].profile;
    variants[1..]
        .iter()
        .map(|v| {
            let diffs = differences::against(base, &v.profile);
            format!(
                "  verdict: {}\n",
                differences::verdict_line(&v.label, &diffs, |m| label(m).to_string())
            )
        })
        .collect()
}

/// The text report of several rule sets side by side: one verdict line per rule set after the
/// first, then one row per figure, one column per set, then each figure's difference from the
/// first set.
fn side_by_side(run: &Run, variants: &[Variant]) -> String {
    let first = &variants[0].profile;
    let mut s = format!(
        "{} evaluate | {} rule sets on the same deals | {} deals on every line | seed {}{}\n",
        run.game,
        variants.len(),
        thousands(first.deals),
        run.seed,
        if run.complete {
            ""
        } else {
            " | INCOMPLETE (stopped early)"
        }
    );
    s.push_str(&verdict_lines(variants));
    let profiles: Vec<&Profile> = variants.iter().map(|v| &v.profile).collect();
    let figures: Vec<&[Figure]> = profiles.iter().map(|p| p.figures.as_slice()).collect();
    let shown = every_figure(&figures);
    let of = |owner: &Profile, f: &Figure| -> String {
        let mut rungs: Vec<String> = Vec::new();
        for p in &profiles {
            if let Some(r) = counterpart(p, &owner.figures, f).and_then(|g| g.rung.clone())
                && !rungs.contains(&r)
            {
                rungs.push(r);
            }
        }
        rungs.join(" / ")
    };
    let rows_of = |cell: &dyn Fn(&Variant, &Profile, &Figure) -> String, from: usize| {
        shown
            .iter()
            .map(|&(v, i)| {
                let owner = profiles[v];
                let f = &owner.figures[i];
                let mut cells = vec![
                    f.part.name().to_string(),
                    label(f.metric).to_string(),
                    of(owner, f),
                ];
                cells.extend(variants[from..].iter().map(|x| cell(x, owner, f)));
                cells
            })
            .collect::<Vec<Vec<String>>>()
    };
    let mut headers = vec!["part".to_string(), "figure".into(), "of".into()];
    headers.extend(variants.iter().map(|v| v.label.clone()));
    let values = rows_of(
        &|v, owner, f| {
            counterpart(&v.profile, &owner.figures, f).map_or("n/a".into(), |g| {
                with_interval(g.unit, &g.estimate, g.games)
            })
        },
        0,
    );
    s.push_str(&table(&headers, &values, 3));
    let _ = writeln!(
        s,
        "  differences from {} (95% CI; the sets' figures taken as independent, so wide rather than narrow):",
        variants[0].label
    );
    let mut headers = vec!["part".to_string(), "figure".into(), "of".into()];
    headers.extend(variants[1..].iter().map(|v| v.label.clone()));
    let diffs = rows_of(
        &|v, owner, f| {
            let (Some(a), Some(b)) = (
                counterpart(&v.profile, &owner.figures, f),
                counterpart(first, &owner.figures, f),
            ) else {
                return "n/a".into();
            };
            let unit = match a.unit {
                Unit::Share => Unit::Points,
                u => u,
            };
            with_interval(
                unit,
                &differences::difference(&a.estimate, &b.estimate),
                a.games.min(b.games),
            )
        },
        1,
    );
    s.push_str(&table(&headers, &diffs, 3));
    s
}

/// The text report: one rule set's profile, or several side by side; then what it cost.
pub fn text(run: &Run, variants: &[Variant], written: &[PathBuf]) -> String {
    let mut s = match variants {
        [one] => single(run, one),
        many => side_by_side(run, many),
    };
    s.push_str(&cost_lines(run, variants));
    for path in written {
        let _ = writeln!(s, "  wrote {}", path.display());
    }
    if !run.complete {
        s.push_str("  stopped early: every line holds the same prefix of deals\n");
    }
    s
}

/// What each part cost: the ladder's games (each rung's CPU time is in the ladder table), the
/// estimates read for tension, the set-up, and the wall time.
fn cost_lines(run: &Run, variants: &[Variant]) -> String {
    let costs: Vec<&Cost> = variants.iter().filter_map(|v| v.cost.as_ref()).collect();
    if costs.is_empty() {
        return String::new();
    }
    let games: u64 = costs.iter().flat_map(|c| &c.lines).sum();
    let estimates: u64 = costs.iter().map(|c| c.estimates).sum();
    let mut s = format!(
        "  cost: games {:.1} s CPU (tension's estimates {:.1} s of it)",
        games as f64 / 1e6,
        estimates as f64 / 1e6
    );
    if let Some(setup) = run.setup_seconds {
        let _ = write!(s, ", set-up {setup:.1} s");
    }
    if let Some(wall) = run.wall_seconds {
        let _ = write!(
            s,
            "; {wall:.1} s wall on {}",
            super::terminal::threads(run.threads)
        );
    }
    s.push('\n');
    s
}

fn estimate_json(e: &Estimate) -> Value {
    let finite = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
    json!({"value": finite(e.value), "ci_low": finite(e.low), "ci_high": finite(e.high)})
}

/// The JSON report: the run, then each rule set's figures, ladder, lengths and cost.
pub fn json(run: &Run, variants: &[Variant], written: &[PathBuf]) -> Value {
    let base = &variants[0].profile;
    let variants: Vec<Value> = variants
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let diffs = (k > 0).then(|| differences::against(base, &v.profile));
            let verdict = diffs.as_ref().map(|d| {
                differences::verdict_line(&v.label, d, |m| label(m).to_string())
            });
            let differences: Option<Vec<Value>> = diffs.map(|d| {
                d.iter()
                    .map(|x| {
                        let mut doc = estimate_json(&x.diff);
                        doc["metric"] = json!(x.metric);
                        doc["rung"] = json!(x.rung);
                        doc["base_rung"] = json!(x.base_rung);
                        doc["unit"] = json!(x.unit);
                        doc
                    })
                    .collect()
            });
            let p = &v.profile;
            let figures: Vec<Value> = p
                .figures
                .iter()
                .map(|f| {
                    let mut doc = estimate_json(&f.estimate);
                    doc["part"] = json!(f.part);
                    doc["metric"] = json!(f.metric);
                    doc["rung"] = json!(f.rung);
                    doc["unit"] = json!(f.unit);
                    doc["games"] = json!(f.games);
                    doc
                })
                .collect();
            let ladder: Vec<Value> = p
                .ladder
                .iter()
                .map(|r| {
                    json!({
                        "rung": r.rung,
                        "name": r.name,
                        "fair": r.fair,
                        "budget": r.budget,
                        "games": r.games,
                        "result": r.result.as_ref().map(estimate_json),
                        "gain": r.gain.as_ref().map(estimate_json),
                        "mean_length": if r.mean_length.is_finite() { json!(r.mean_length) } else { Value::Null },
                        "capped": r.capped,
                    })
                })
                .collect();
            let params: serde_json::Map<String, Value> = v
                .params
                .iter()
                .map(|(k, val)| (k.clone(), json!(val)))
                .collect();
            json!({
                "variant": v.label,
                "params": params,
                "rules": serde_json::from_str::<Value>(&v.rules).unwrap_or(json!(v.rules)),
                "table": p.setup.table,
                "unit": p.setup.unit,
                "estimates": p.setup.estimates,
                "profile_rung": p.profile_rung,
                "deals": p.deals,
                "figures": figures,
                "differences": differences,
                "verdict": verdict,
                "ladder": ladder,
                "lengths": p.lengths.iter().map(|(l, c)| json!({"length": l, "count": c})).collect::<Vec<_>>(),
                "cpu_seconds": v.cost.as_ref().map(|c| json!({
                    "lines": c.lines.iter().map(|&m| m as f64 / 1e6).collect::<Vec<_>>(),
                    "estimates": c.estimates as f64 / 1e6,
                })),
            })
        })
        .collect();
    json!({
        "game": run.game,
        "seed": run.seed,
        "first_game": run.first_game,
        "complete": run.complete,
        "variants": variants,
        "setup_seconds": run.setup_seconds,
        "wall_seconds": run.wall_seconds,
        "threads": run.threads,
        "files": super::json::files(written),
    })
}

/// The varied rules' columns of `rows` rows for each variant: one typed column per rule.
fn param_columns(variants: &[Variant], each: impl Fn(&Variant) -> usize) -> Vec<Column> {
    let Some(first) = variants.first() else {
        return Vec::new();
    };
    first
        .params
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            let texts: Vec<String> = variants
                .iter()
                .flat_map(|v| std::iter::repeat_n(v.params[i].1.clone(), each(v)))
                .collect();
            param_column(name, &texts)
        })
        .collect()
}

fn frame(columns: Vec<Column>) -> Result<DataFrame> {
    DataFrame::new_infer_height(columns).map_err(|e| SimError::input(e.to_string()))
}

/// `evaluate.parquet`: one row per figure of every rule set, then what made it (the game, the
/// deals, the seed, `--ideal-turns`, the rules and the sim version), which the HTML report
/// states.
pub fn figures_frame(run: &Run, variants: &[Variant]) -> Result<DataFrame> {
    let complete = run.complete;
    let all: Vec<(&Variant, &Figure)> = variants
        .iter()
        .flat_map(|v| v.profile.figures.iter().map(move |f| (v, f)))
        .collect();
    let mut columns = vec![Column::new(
        "variant".into(),
        all.iter().map(|(v, _)| v.label.clone()).collect::<Vec<_>>(),
    )];
    columns.extend(param_columns(variants, |v| v.profile.figures.len()));
    // A value or interval end that cannot be estimated (too few games) is written as null.
    // Each figure's difference from the first rule set's (none for the first set's own).
    let base = &variants[0].profile;
    let diffs: Vec<Option<Estimate>> = all
        .iter()
        .map(|(v, f)| {
            if std::ptr::eq(&v.profile, base) {
                return None;
            }
            let b = differences::matching(&base.figures, &v.profile.figures, f)?;
            Some(differences::difference(&f.estimate, &b.estimate))
        })
        .collect();
    let f64s = |name: &str, get: &dyn Fn(&Figure) -> f64| {
        Column::new(
            name.into(),
            all.iter()
                .map(|(_, f)| Some(get(f)).filter(|x| x.is_finite()))
                .collect::<Vec<Option<f64>>>(),
        )
    };
    columns.extend([
        Column::new(
            "part".into(),
            all.iter().map(|(_, f)| f.part.name()).collect::<Vec<_>>(),
        ),
        Column::new(
            "metric".into(),
            all.iter().map(|(_, f)| f.metric).collect::<Vec<_>>(),
        ),
        Column::new(
            "rung".into(),
            all.iter()
                .map(|(_, f)| f.rung.clone())
                .collect::<Vec<Option<String>>>(),
        ),
        Column::new(
            "unit".into(),
            all.iter()
                .map(|(_, f)| unit_name(f.unit))
                .collect::<Vec<_>>(),
        ),
        f64s("value", &|f| f.estimate.value),
        f64s("ci_low", &|f| f.estimate.low),
        f64s("ci_high", &|f| f.estimate.high),
        diff_column("diff", &diffs, |e| e.value),
        diff_column("diff_ci_low", &diffs, |e| e.low),
        diff_column("diff_ci_high", &diffs, |e| e.high),
        Column::new(
            "games".into(),
            all.iter().map(|(_, f)| f.games).collect::<Vec<u64>>(),
        ),
        Column::new("complete".into(), vec![complete; all.len()]),
        Column::new("game".into(), vec![run.game.as_str(); all.len()]),
        Column::new(
            "deals".into(),
            all.iter()
                .map(|(v, _)| v.profile.deals)
                .collect::<Vec<u64>>(),
        ),
        Column::new("seed".into(), vec![run.seed; all.len()]),
        Column::new("first_game".into(), vec![run.first_game; all.len()]),
        Column::new(
            "ideal_turns".into(),
            vec![
                run.ideal
                    .map_or(String::new(), |(a, b)| format!("{a}..{b}"));
                all.len()
            ],
        ),
        Column::new(
            "rules".into(),
            all.iter().map(|(v, _)| v.rules.clone()).collect::<Vec<_>>(),
        ),
        Column::new("version".into(), vec![env!("CARGO_PKG_VERSION"); all.len()]),
    ]);
    frame(columns)
}

/// A column of the differences `diffs` (one a figure), `part` of each; null where none.
fn diff_column(name: &str, diffs: &[Option<Estimate>], part: fn(&Estimate) -> f64) -> Column {
    Column::new(
        name.into(),
        diffs
            .iter()
            .map(|d| d.as_ref().map(part).filter(|x| x.is_finite()))
            .collect::<Vec<Option<f64>>>(),
    )
}

/// `ladder.parquet`: one row per rung of every rule set.
pub fn ladder_frame(variants: &[Variant], complete: bool) -> Result<DataFrame> {
    let all: Vec<(&Variant, &crate::evaluate::profile::LadderRow)> = variants
        .iter()
        .flat_map(|v| v.profile.ladder.iter().map(move |r| (v, r)))
        .collect();
    let mut columns = vec![Column::new(
        "variant".into(),
        all.iter().map(|(v, _)| v.label.clone()).collect::<Vec<_>>(),
    )];
    columns.extend(param_columns(variants, |v| v.profile.ladder.len()));
    let opt = |name: &str, get: &dyn Fn(&crate::evaluate::profile::LadderRow) -> Option<f64>| {
        Column::new(
            name.into(),
            all.iter()
                .map(|(_, r)| get(r).filter(|x| x.is_finite()))
                .collect::<Vec<Option<f64>>>(),
        )
    };
    let duel = |v: &Variant| v.profile.setup.table == crate::games::seats::Table::Duel;
    columns.extend([
        Column::new(
            "rung".into(),
            all.iter().map(|(_, r)| r.rung as u32).collect::<Vec<u32>>(),
        ),
        Column::new(
            "name".into(),
            all.iter().map(|(_, r)| r.name.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "fair".into(),
            all.iter().map(|(_, r)| r.fair).collect::<Vec<bool>>(),
        ),
        Column::new(
            "budget".into(),
            all.iter()
                .map(|(_, r)| r.budget)
                .collect::<Vec<Option<u32>>>(),
        ),
        Column::new(
            "games".into(),
            all.iter().map(|(_, r)| r.games).collect::<Vec<u64>>(),
        ),
        Column::new(
            "result_is".into(),
            all.iter()
                .map(|(v, _)| {
                    if duel(v) {
                        "score_vs_rung_below"
                    } else {
                        "win_rate"
                    }
                })
                .collect::<Vec<_>>(),
        ),
        opt("result", &|r| r.result.map(|e| e.value)),
        opt("result_low", &|r| r.result.map(|e| e.low)),
        opt("result_high", &|r| r.result.map(|e| e.high)),
        opt("gain", &|r| r.gain.map(|e| e.value)),
        opt("gain_low", &|r| r.gain.map(|e| e.low)),
        opt("gain_high", &|r| r.gain.map(|e| e.high)),
        opt("mean_length", &|r| {
            r.mean_length.is_finite().then_some(r.mean_length)
        }),
        Column::new(
            "capped".into(),
            all.iter().map(|(_, r)| r.capped).collect::<Vec<u64>>(),
        ),
        Column::new("complete".into(), vec![complete; all.len()]),
    ]);
    frame(columns)
}

/// `durations.parquet`: the profile line's games by length (in the game's unit), one row per
/// length some game had, of every rule set.
pub fn durations_frame(variants: &[Variant]) -> Result<DataFrame> {
    let all: Vec<(&Variant, u32, u64)> = variants
        .iter()
        .flat_map(|v| v.profile.lengths.iter().map(move |&(l, c)| (v, l, c)))
        .collect();
    let mut columns = vec![Column::new(
        "variant".into(),
        all.iter()
            .map(|(v, _, _)| v.label.clone())
            .collect::<Vec<_>>(),
    )];
    columns.extend(param_columns(variants, |v| v.profile.lengths.len()));
    columns.extend([
        Column::new(
            "rung".into(),
            all.iter()
                .map(|(v, _, _)| v.profile.profile_rung.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "unit".into(),
            all.iter()
                .map(|(v, _, _)| v.profile.setup.unit.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "length".into(),
            all.iter().map(|&(_, l, _)| l).collect::<Vec<u32>>(),
        ),
        Column::new(
            "games".into(),
            all.iter().map(|&(_, _, c)| c).collect::<Vec<u64>>(),
        ),
    ]);
    frame(columns)
}

/// Writes `ladder.parquet`, `durations.parquet`, then `evaluate.parquet`, into `dir`.
pub fn write(dir: &Path, run: &Run, variants: &[Variant]) -> Result<Vec<PathBuf>> {
    Ok(vec![
        write_frame(
            &dir.join("ladder.parquet"),
            &mut ladder_frame(variants, run.complete)?,
        )?,
        write_frame(
            &dir.join("durations.parquet"),
            &mut durations_frame(variants)?,
        )?,
        write_frame(
            &dir.join("evaluate.parquet"),
            &mut figures_frame(run, variants)?,
        )?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(part: Part, metric: &'static str, rung: &str) -> Figure {
        Figure {
            part,
            metric,
            rung: Some(rung.into()),
            unit: Unit::Points,
            estimate: Estimate::bare(0.5),
            games: 10,
        }
    }

    #[test]
    fn side_by_side_rows_pair_a_figure_each_set_holds_once_and_keep_one_only_one_has() {
        let first = [
            figure(Part::Ladder, "skill_headroom", "expectimax - random"),
            figure(Part::Ladder, "skill_trace", "pimc-25..pimc-800"),
            figure(Part::Tension, "drama", "expectimax"),
        ];
        let second = [
            figure(Part::Ladder, "skill_headroom", "pimc-800 - random"),
            figure(Part::Ladder, "skill_trace", "pimc-25..pimc-800"),
            figure(Part::Tension, "drama", "pimc-800"),
            figure(Part::Seats, "completion", "pimc-800"),
        ];
        let profiles: [&[Figure]; 2] = [&first, &second];
        let rows: Vec<(&str, String)> = every_figure(&profiles)
            .iter()
            .map(|&(v, i)| profiles[v][i].clone())
            .map(|f| (f.metric, f.rung.unwrap()))
            .collect();
        // Headroom and drama, held once by each rule set, stay one row though their best
        // fair rung differs; completion, only the second's, stands after its part.
        let want = [
            ("skill_headroom", "expectimax - random"),
            ("skill_trace", "pimc-25..pimc-800"),
            ("drama", "expectimax"),
            ("completion", "pimc-800"),
        ];
        let want: Vec<(&str, String)> = want.iter().map(|&(m, r)| (m, r.to_string())).collect();
        assert_eq!(rows, want);
    }
}
