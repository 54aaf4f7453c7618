//! The kinds of result, one module each, and what the kinds made from a summary share: the
//! facts, the speed line, the histograms and the tables of a cell's figures.

pub mod compare;
pub mod run;
pub mod solve;
pub mod sweep;
pub mod tournament;

use crate::error::Result;
use crate::report::terminal::{per_second, percent, thousands, threads};

use super::Context;
use super::command::CommandLine;
use super::facts::{Facts, changed_rules};
use super::figure::histogram::histogram;
use super::page::{Cell, DataTable, Figure};
use super::results::{Distribution, Interval, Results};

/// True if the column or metric `name` measures time, which differs from run to run (Regicide's
/// search players' time per decision).
pub fn is_timing(name: &str) -> bool {
    name.ends_with("_ms") || name.starts_with("decision_time")
}

/// `name` as a reader reads it: `mean_final_hp` as `mean final hp`.
pub fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// A rate's interval in words.
pub fn interval_text(i: &Interval) -> String {
    format!("95% CI {} to {}", percent(i.low), percent(i.high))
}

/// The facts of the summary `results`, made with `command` (the kind's own words and flags;
/// the seed, games, first game, rules and `--per-game` are added here).
pub fn summary_facts(
    results: &Results,
    context: &Context,
    mut command: CommandLine,
    policies: Vec<String>,
) -> Result<Facts> {
    let defaults = (context.game(&results.game)?.default_rules)();
    let rules = results
        .cells
        .first()
        .map(|c| changed_rules(&c.rules, &defaults, &results.params))
        .unwrap_or_default();
    let most = results.cells.iter().map(|c| c.games).max().unwrap_or(0);
    let least = results.cells.iter().map(|c| c.games).min().unwrap_or(0);
    let precision = results.cells.first().and_then(|c| c.precision);
    if let Some((target, _)) = precision {
        command.arg("--precision", target.to_string());
    }
    command.games(most).arg("--seed", results.seed.to_string());
    if results.first_game != 0 {
        command.arg("--first-game", results.first_game.to_string());
    }
    command.rules(&rules);
    if results.per_game {
        command.flag("--per-game");
    }
    let mut facts = Facts::new(&results.game, &command);
    facts.rules = rules;
    facts.policies = policies;
    facts.seed = results.seed.to_string();
    let each = if results.cells.len() > 1 { " each" } else { "" };
    facts.games = if most == least {
        format!("{}{each}", thousands(most))
    } else {
        format!("{} to {} a cell", thousands(least), thousands(most))
    };
    if results.first_game != 0 {
        facts.games += &format!(", from game index {}", thousands(results.first_game));
    }
    if let Some((target, _)) = precision {
        facts.games += &format!(
            " (played until each 95% interval was within \u{b1}{} points, at most {})",
            100.0 * target,
            thousands(most)
        );
    }
    facts.version = results.versions.join(", ");
    if !results.complete() {
        facts.warnings.push(
            "Incomplete: the command was stopped early and these files hold only the games played before it stopped (complete = false).".into(),
        );
    }
    Ok(facts)
}

/// The timing line of a report made by the command that played: its speed.
pub fn speed_lines(context: &Context) -> Vec<String> {
    context
        .speed
        .iter()
        .map(|s| {
            format!(
                "Speed: {} games in {:.2} s, {} games/s on {} ({} per thread).",
                thousands(s.games),
                s.seconds,
                per_second(s.rate()),
                threads(s.threads),
                per_second(s.per_thread())
            )
        })
        .collect()
}

/// The histogram figure of `dist`, with its numbers folded under it; its id is the metric's
/// name after `prefix`.
pub fn histogram_figure(dist: &Distribution, prefix: &str) -> Result<Figure> {
    let name = words(&dist.metric);
    let total: u64 = dist.counts.iter().map(|&(_, c)| c).sum();
    let caption = format!("Distribution of {name} over {} games.", thousands(total));
    let svg = histogram(&dist.counts, &name, &caption)?;
    let mut data = DataTable::new(
        format!("{prefix}{}-data", dist.metric),
        format!("{name}: games with each value"),
        &["value", "games", "share"],
    )
    .from_file("distributions.parquet");
    for (k, &(value, count)) in dist.counts.iter().enumerate() {
        data.push(
            (dist.first_row + k).to_string(),
            vec![
                Cell::number("value", value, value.to_string()),
                Cell::number("count", count, thousands(count)),
                Cell::text(percent(count as f64 / total.max(1) as f64)),
            ],
        );
    }
    Ok(
        Figure::new(format!("{prefix}{}", dist.metric), caption, svg)
            .with_data(data)
            .timed(is_timing(&dist.metric)),
    )
}

/// The cells of a value `name` of the summary: exact in `data-value`, four decimals shown.
pub fn mean_cell(name: &str, value: f64) -> Cell {
    Cell::number(name, value, format!("{value:.4}"))
}

/// A rate with one decimal, as the heat maps write it in their cells: `62.8%`.
pub fn percent_one(rate: f64) -> String {
    format!("{:.1}%", 100.0 * rate)
}
