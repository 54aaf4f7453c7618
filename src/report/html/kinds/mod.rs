//! The kinds of result, one module each, and what the kinds made from a summary share: the
//! facts, the speed line, the histograms and the tables of a cell's figures.

pub mod balance;
pub mod brief;
pub mod compare;
pub mod evaluate;
pub mod run;
pub mod solve;
pub mod sweep;
pub mod tournament;
pub mod verdict;

use crate::error::Result;
use crate::report::terminal::{per_second, percent, thousands, threads};

use super::Context;
use super::command::CommandLine;
use super::facts::{Facts, changed_rules};
use super::figure::histogram::histogram;
use plotters::style::RGBColor;

use super::figure::{colour, hex};
use super::page::{Cell, DataTable, Figure, Swatch};
use crate::results::read_back::{Distribution, Interval, Results};

/// True if the column or metric `name` measures time, which differs from run to run (Regicide's
/// search players' time per decision).
pub fn is_timing(name: &str) -> bool {
    name.ends_with("_ms") || name.starts_with("decision_time")
}

/// `name` as a reader reads it: `mean_final_hp` as `mean final hp`.
pub fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// The unit a game's figure or a rule named `name` counts in, for an axis title: `HP` for hit
/// points and damage, `turns` for lengths, `ms` for times, else `count` (strikes, cards, ...)
/// or, for a rule, its `value`.
pub fn unit_of(name: &str) -> &'static str {
    let name = name.to_ascii_lowercase();
    if name.ends_with("_ms") || name.starts_with("decision_time") {
        "ms"
    } else if name.contains("hp") || name.contains("damage") {
        "HP"
    } else if name.contains("turn") || name.contains("length") || name.contains("round") {
        "turns"
    } else if name.contains('.') || name.contains("rule") {
        "value"
    } else {
        "count"
    }
}

/// A game's figure or a rule as an axis title: its name in words and its unit,
/// `final hp (HP)`, `guard damage.king (HP)`.
pub fn axis_title(name: &str) -> String {
    format!("{} ({})", words(name), unit_of(name))
}

/// A rate's interval in words.
pub fn interval_text(i: &Interval) -> String {
    format!("95% CI {} to {}", percent(i.low), percent(i.high))
}

/// What a result's files record of how it was made, besides the kind's own flags.
pub struct Recorded<'a> {
    /// The game.
    pub game: &'a str,
    /// The effective rules, as JSON (empty if none recorded).
    pub rules: &'a str,
    /// Rules left out of the changed ones (those a sweep or a search varies).
    pub varied: &'a [String],
    /// The seed.
    pub seed: u64,
    /// The first game index.
    pub first_game: u64,
}

impl Recorded<'_> {
    /// The facts of the result: its game, changed rules and seed, and `command` (the kind's
    /// own words and flags) with the seed, the first game, the changed rules and then `after`
    /// added. The caller fills in the policies, games and version.
    pub fn facts(
        &self,
        context: &Context,
        mut command: CommandLine,
        after: &[&str],
    ) -> Result<Facts> {
        let defaults = (context.game(self.game)?.default_rules)();
        let rules = if self.rules.is_empty() {
            Vec::new()
        } else {
            changed_rules(self.rules, &defaults, self.varied)
        };
        command.arg("--seed", self.seed.to_string());
        if self.first_game != 0 {
            command.arg("--first-game", self.first_game.to_string());
        }
        command.rules(&rules);
        for flag in after {
            command.flag(flag);
        }
        let mut facts = Facts::new(self.game, &command);
        facts.rules = rules;
        facts.seed = self.seed.to_string();
        Ok(facts)
    }

    /// Finishes `facts`: the games played (`games`, then the first game index unless 0), the
    /// sim `version` that wrote the files, and, unless `complete`, a warning that says what
    /// `stopped` early means for the files.
    pub fn finish(
        &self,
        facts: &mut Facts,
        games: String,
        version: String,
        complete: bool,
        stopped: &str,
    ) {
        facts.games = games;
        if self.first_game != 0 {
            facts.games += &format!(", from game index {}", thousands(self.first_game));
        }
        facts.version = version;
        if !complete {
            facts
                .warnings
                .push(format!("Incomplete: {stopped} (complete = false)."));
        }
    }
}

/// The facts of the summary `results`, made with `command` (the kind's own words and flags;
/// the seed, games, first game, rules and `--per-game` are added here).
pub fn summary_facts(
    results: &Results,
    context: &Context,
    mut command: CommandLine,
    policies: Vec<String>,
) -> Result<Facts> {
    let most = results.cells.iter().map(|c| c.games).max().unwrap_or(0);
    let least = results.cells.iter().map(|c| c.games).min().unwrap_or(0);
    let precision = results.cells.first().and_then(|c| c.precision);
    if let Some((target, _)) = precision {
        command.arg("--precision", target.to_string());
    }
    command.games(most);
    let recorded = Recorded {
        game: &results.game,
        rules: results.cells.first().map_or("", |c| c.rules.as_str()),
        varied: &results.params,
        seed: results.seed,
        first_game: results.first_game,
    };
    let after: &[&str] = if results.per_game {
        &["--per-game"]
    } else {
        &[]
    };
    let mut facts = recorded.facts(context, command, after)?;
    facts.policies = policies;
    let each = if results.cells.len() > 1 { " each" } else { "" };
    let games = if most == least {
        format!("{}{each}", thousands(most))
    } else {
        format!("{} to {} a cell", thousands(least), thousands(most))
    };
    recorded.finish(
        &mut facts,
        games,
        results.versions.join(", "),
        results.complete(),
        "the command was stopped early and these files hold only the games played before it stopped",
    );
    if let Some((target, _)) = precision {
        facts.games += &format!(
            " (played until each 95% interval was within \u{b1}{} points, at most {})",
            100.0 * target,
            thousands(most)
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

/// The file a histogram's counts were read from, and its columns of values and counts.
pub struct CountsFile {
    /// The file.
    pub file: &'static str,
    /// The column of values.
    pub value: &'static str,
    /// The column of games with each value.
    pub count: &'static str,
}

/// `distributions.parquet`, the histograms of a run's metrics.
pub const DISTRIBUTIONS: CountsFile = CountsFile {
    file: "distributions.parquet",
    value: "value",
    count: "count",
};

/// The histogram figure of `dist`, read from `source`, with its numbers folded under it; its
/// id is the metric's name after `prefix`.
pub fn histogram_figure(dist: &Distribution, prefix: &str, source: &CountsFile) -> Result<Figure> {
    let name = words(&dist.metric);
    let total: u64 = dist.counts.iter().map(|&(_, c)| c).sum();
    let caption = format!("Distribution of {name} over {} games.", thousands(total));
    let svg = histogram(&dist.counts, &axis_title(&dist.metric), &caption)?;
    let mut data = DataTable::new(
        format!("{prefix}{}-data", dist.metric),
        format!("{name}: games with each value"),
        &["value", "games", "share"],
    )
    .from_file(source.file);
    for (k, &(value, count)) in dist.counts.iter().enumerate() {
        data.push(
            (dist.first_row + k).to_string(),
            vec![
                Cell::number(source.value, value, value.to_string()),
                Cell::number(source.count, count, thousands(count)),
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

/// The distinct items of `items` in the order they first appear.
pub fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The series colours of `n` series told apart by colour (policies): the palette by index.
pub fn categorical(n: usize) -> Vec<RGBColor> {
    (0..n).map(colour).collect()
}

/// The legend of series named `names`, coloured as the figures colour them by index.
pub fn legend(names: &[String]) -> Vec<Swatch> {
    legend_in(names, &categorical(names.len()))
}

/// The legend of series named `names` coloured `colours`.
pub fn legend_in(names: &[String], colours: &[RGBColor]) -> Vec<Swatch> {
    names
        .iter()
        .zip(colours)
        .map(|(name, &c)| Swatch {
            name: name.clone(),
            colour: hex(c),
        })
        .collect()
}
