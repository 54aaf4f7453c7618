//! An evaluation (`sim evaluate`): the skill ladder (each rung's result and its paired gain on
//! the rung below), every figure of `evaluate.parquet` part by part, and the duration
//! histogram; with `--vary`, the rule sets side by side.

use crate::error::{Result, SimError};
use crate::evaluate::profile::Unit;
use crate::report::evaluate::{label, shown, unit_named};
use crate::report::terminal::thousands;

use super::super::command::CommandLine;
use super::super::figure::intervals::{Row as Bar, intervals};
use super::super::figure::lines::{Axis, Point, lines};
use super::super::figure::scale::Scale;
use super::super::figure::shade;
use super::super::page::{Block, Cell, DataTable, Figure, Headline, Note, Section};
use super::super::{Context, Folder, Kind};
use super::{
    CountsFile, Recorded, axis_title, categorical, distinct, histogram_figure, legend, legend_in,
    speed_lines, verdict,
};
use crate::results::folder::Frame;
use crate::results::read_back::{Distribution, Interval};

/// The kind of `sim evaluate`'s folder: `evaluate.parquet` and `ladder.parquet`.
pub struct Evaluate;

/// The parts of a profile, in the order the page shows them.
const PARTS: [&str; 5] = ["ladder", "luck", "seats", "duration", "tension"];

/// `durations.parquet`, the profile line's games by length.
const DURATIONS: CountsFile = CountsFile {
    file: "durations.parquet",
    value: "length",
    count: "games",
};

impl Kind for Evaluate {
    fn name(&self) -> &'static str {
        "evaluate"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has("evaluate.parquet") && folder.has("ladder.parquet")
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let e = Evaluation::read(folder)?;
        let mut section = Section::new(self.name(), e.title(), e.facts(context)?);
        section.timing = speed_lines(context);
        section.verdict = e.verdict();
        if let [one] = e.variants.as_slice() {
            section.blocks.extend(e.single(one)?);
        } else {
            section.blocks.extend(e.side_by_side()?);
        }
        section.blocks.push(Block::Table(e.ladder_table()));
        for part in PARTS {
            if let Some(t) = e.part_table(part) {
                section.blocks.push(Block::Table(t));
            }
        }
        section.blocks.push(Block::Note(Note {
            text: "Every rung plays the same deals, so each gain on the rung below is measured deal by deal (paired). A ceiling sees cards a player cannot: it is not a strategy, and never the best fair rung. Seats, duration and tension are read from the strongest fair rung's games. See docs/evaluate.md for each figure.".into(),
        }));
        Ok(section)
    }
}

/// One row of `evaluate.parquet`.
struct Metric {
    row: usize,
    variant: usize,
    part: String,
    metric: String,
    rung: Option<String>,
    unit: Unit,
    estimate: Interval,
    games: u64,
}

/// One row of `ladder.parquet`.
struct Rung {
    row: usize,
    variant: usize,
    name: String,
    fair: bool,
    budget: Option<u64>,
    games: u64,
    result: Option<Interval>,
    gain: Option<Interval>,
    mean_length: Option<f64>,
    capped: u64,
}

impl Rung {
    /// Its name as the page shows it: a ceiling says it is not a strategy.
    fn label(&self) -> String {
        if self.fair {
            self.name.clone()
        } else {
            format!("{} (not a strategy)", self.name)
        }
    }
}

/// One rule set.
struct Variant {
    label: String,
    /// The varied rules' values, in column order.
    values: Vec<String>,
    deals: u64,
    rules: String,
}

/// An evaluation's files, read back.
struct Evaluation {
    game: String,
    seed: u64,
    first_game: u64,
    ideal: String,
    version: String,
    complete: bool,
    /// `score_vs_rung_below` for a duel, else `win_rate`.
    result_is: String,
    /// The varied rules, in column order.
    params: Vec<String>,
    variants: Vec<Variant>,
    metrics: Vec<Metric>,
    rungs: Vec<Rung>,
    /// Each rule set's durations (the profile rung's games by length), if written.
    durations: Vec<Distribution>,
}

/// Ends of an interval that may be missing (a rung with no rung below).
fn interval(value: Option<f64>, low: Option<f64>, high: Option<f64>) -> Option<Interval> {
    Some(Interval {
        value: value?,
        low: low?,
        high: high?,
    })
}

/// The varied rules' columns of `frame`: those between `variant` and `first`.
fn param_names(frame: &Frame, first: &str) -> Vec<String> {
    let names = frame.names();
    let end = names.iter().position(|n| n == first).unwrap_or(1);
    names.get(1..end).unwrap_or_default().to_vec()
}

impl Evaluation {
    fn read(folder: &Folder) -> Result<Self> {
        let figures = folder.table("evaluate.parquet")?;
        let ladder = folder.table("ladder.parquet")?;
        let params = param_names(&figures, "part");
        let labels = figures.strings("variant")?;
        let order = distinct(labels.iter().cloned());
        for (file, rows) in [
            ("evaluate.parquet", figures.height()),
            ("ladder.parquet", ladder.height()),
        ] {
            if rows == 0 {
                return Err(SimError::input(format!(
                    "{}: no rows; an evaluation writes a row for every figure and rung",
                    folder.path().join(file).display()
                )));
            }
        }
        let at = |name: &str| order.iter().position(|l| l == name).unwrap_or(0);
        let param_values = params
            .iter()
            .map(|p| figures.texts(p))
            .collect::<Result<Vec<_>>>()?;
        let (deals, rules) = (figures.u64s("deals")?, figures.strings("rules")?);
        let variants = order
            .iter()
            .map(|name| {
                let i = labels.iter().position(|l| l == name).unwrap_or(0);
                Variant {
                    label: name.clone(),
                    values: param_values.iter().map(|v| v[i].clone()).collect(),
                    deals: deals[i],
                    rules: rules[i].clone(),
                }
            })
            .collect();
        let (part, metric, rung, unit) = (
            figures.strings("part")?,
            figures.strings("metric")?,
            figures.optional_strings("rung")?,
            figures.strings("unit")?,
        );
        // A figure that could not be estimated is null: NaN here, shown as n/a.
        let (value, low, high, games) = (
            figures.f64s_or_nan("value")?,
            figures.f64s_or_nan("ci_low")?,
            figures.f64s_or_nan("ci_high")?,
            figures.u64s("games")?,
        );
        let metrics = (0..figures.height())
            .map(|i| {
                Ok(Metric {
                    row: i,
                    variant: at(&labels[i]),
                    part: part[i].clone(),
                    metric: metric[i].clone(),
                    rung: rung[i].clone(),
                    unit: unit_named(&unit[i]).ok_or_else(|| {
                        SimError::input(format!(
                            "{}: unit {:?} on row {i} is none sim writes",
                            folder.path().join("evaluate.parquet").display(),
                            unit[i]
                        ))
                    })?,
                    estimate: Interval {
                        value: value[i],
                        low: low[i],
                        high: high[i],
                    },
                    games: games[i],
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let rung_labels = ladder.strings("variant")?;
        let (name, fair, budget, rung_games, capped) = (
            ladder.strings("name")?,
            ladder.bools("fair")?,
            ladder.optional_u64s("budget")?,
            ladder.u64s("games")?,
            ladder.u64s("capped")?,
        );
        let opt = |c: &str| ladder.optional_f64s(c);
        let (result, result_low, result_high) =
            (opt("result")?, opt("result_low")?, opt("result_high")?);
        let (gain, gain_low, gain_high) = (opt("gain")?, opt("gain_low")?, opt("gain_high")?);
        let mean_length = opt("mean_length")?;
        let rungs = (0..ladder.height())
            .map(|i| Rung {
                row: i,
                variant: at(&rung_labels[i]),
                name: name[i].clone(),
                fair: fair[i],
                budget: budget[i],
                games: rung_games[i],
                result: interval(result[i], result_low[i], result_high[i]),
                gain: interval(gain[i], gain_low[i], gain_high[i]),
                mean_length: mean_length[i],
                capped: capped[i],
            })
            .collect();
        let durations = if folder.has(DURATIONS.file) {
            read_durations(&folder.table(DURATIONS.file)?, &order)?
        } else {
            Vec::new()
        };
        let first = |c: &str| figures.u64s(c).map(|v| v.first().copied().unwrap_or(0));
        Ok(Self {
            game: figures
                .strings("game")?
                .first()
                .cloned()
                .unwrap_or_default(),
            seed: first("seed")?,
            first_game: first("first_game")?,
            ideal: figures
                .strings("ideal_turns")?
                .first()
                .cloned()
                .unwrap_or_default(),
            version: distinct(figures.strings("version")?.into_iter()).join(", "),
            complete: figures.bools("complete")?.iter().all(|&c| c),
            result_is: ladder
                .strings("result_is")?
                .first()
                .cloned()
                .unwrap_or_else(|| "win_rate".into()),
            params,
            variants,
            metrics,
            rungs,
            durations,
        })
    }

    fn duel(&self) -> bool {
        self.result_is == "score_vs_rung_below"
    }

    fn title(&self) -> String {
        let rungs = self.rungs.iter().filter(|r| r.variant == 0).count();
        match self.variants.len() {
            1 => format!("{}: evaluation, a ladder of {rungs} rungs", self.game),
            n => format!(
                "{}: evaluation of {n} rule sets ({}), a ladder of {rungs} rungs",
                self.game,
                self.params.join(" and ")
            ),
        }
    }

    fn facts(&self, context: &Context) -> Result<super::super::facts::Facts> {
        let first = &self.variants[0];
        let mut command = CommandLine::new(&["evaluate", &self.game]);
        command.games(first.deals);
        let budgets: Vec<String> = distinct(
            self.rungs
                .iter()
                .filter(|r| r.variant == 0 && r.fair)
                .filter_map(|r| r.budget.map(|b| b.to_string())),
        );
        if !budgets.is_empty() {
            command.arg("--budgets", budgets.join(","));
        }
        if !self.ideal.is_empty() {
            command.arg("--ideal-turns", self.ideal.clone());
        }
        for (k, name) in self.params.iter().enumerate() {
            let values = distinct(self.variants.iter().map(|v| v.values[k].clone()));
            command.arg("--vary", format!("{name}={}", values.join(",")));
        }
        let recorded = Recorded {
            game: &self.game,
            rules: &first.rules,
            varied: &self.params,
            seed: self.seed,
            first_game: self.first_game,
        };
        let mut facts = recorded.facts(context, command, &[])?;
        facts.policies = self
            .rungs
            .iter()
            .filter(|r| r.variant == 0)
            .map(Rung::label)
            .collect();
        let each = if self.variants.len() > 1 {
            " of every rule set"
        } else {
            ""
        };
        recorded.finish(
            &mut facts,
            format!(
                "{} deals on every line{each} (each rung, or each pairing of a duel, plays them all)",
                thousands(first.deals)
            ),
            self.version.clone(),
            self.complete,
            "the evaluation was stopped early and these files hold only the deals played before it stopped",
        );
        Ok(facts)
    }

    fn metric(&self, variant: usize, name: &str) -> Option<&Metric> {
        self.metrics
            .iter()
            .find(|m| m.variant == variant && m.metric == name)
    }

    /// What a rung's result is, in words.
    fn result_words(&self) -> &'static str {
        if self.duel() {
            "score against the rung below"
        } else {
            "win rate"
        }
    }

    /// The page's verdict: the skill headroom (and a duel's first-move advantage) of one rule
    /// set, or how the headroom moves over several.
    fn verdict(&self) -> Vec<String> {
        if self.variants.len() > 1 {
            let headrooms: Vec<(String, Interval)> = (0..self.variants.len())
                .filter_map(|v| {
                    let m = self.metric(v, "skill_headroom")?;
                    Some((self.variant_name(v), m.estimate))
                })
                .collect();
            let named: Vec<(&str, Interval)> =
                headrooms.iter().map(|(n, i)| (n.as_str(), *i)).collect();
            return vec![verdict::evaluate_vary(&self.params.join(" and "), &named)];
        }
        let Some(m) = self.metric(0, "skill_headroom") else {
            return Vec::new();
        };
        let rung = m.rung.clone().unwrap_or_default();
        let (best, bottom) = rung.split_once(" - ").unwrap_or((&rung, "the bottom rung"));
        let first_move = self.metric(0, "first_move_advantage").map(|f| f.estimate);
        vec![verdict::evaluate(
            best,
            bottom,
            &m.estimate,
            first_move.as_ref(),
        )]
    }

    /// Rule set `v` in words: `guard_damage.king = 3`.
    fn variant_name(&self, v: usize) -> String {
        self.params
            .iter()
            .zip(&self.variants[v].values)
            .map(|(p, x)| format!("{p} = {x}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A duel's seats, first: each seat's win rate against an even game and the first-move
    /// advantage (seat 0's win rate minus seat 1's), from the strongest fair rung's games.
    fn seats(&self, v: usize) -> Result<Vec<Block>> {
        let mut blocks = Vec::new();
        let Some(adv) = self.metric(v, "first_move_advantage") else {
            return Ok(blocks);
        };
        blocks.push(Block::Headline(Headline {
            label: format!(
                "first-move advantage ({})",
                adv.rung.clone().unwrap_or_default()
            ),
            value: estimate_cell(adv, "value", adv.estimate.value),
            interval: format!(
                "(95% CI {} to {}; seat 0's win rate minus seat 1's)",
                shown(adv.unit, adv.estimate.low),
                shown(adv.unit, adv.estimate.high)
            ),
        }));
        let bars: Vec<Bar> = self
            .metrics
            .iter()
            .filter(|m| m.variant == v && m.metric == "seat_win_rate")
            .map(|m| Bar {
                label: m.rung.clone().unwrap_or_default(),
                value: m.estimate.value,
                low: m.estimate.low,
                high: m.estimate.high,
                wide: None,
            })
            .collect();
        if !bars.is_empty() {
            let caption = "Each seat's win rate with its 95% interval, from the strongest fair rung's games in both seats; the dashed line is an even game.".to_string();
            let svg = intervals(&bars, "win rate", Scale::Percent, Some(0.5), &caption)?;
            blocks.push(Block::Figure(Figure::new("seats", caption, svg)));
        }
        Ok(blocks)
    }

    /// One rule set: a duel's seats, the headroom, the ladder, the gains and the durations.
    fn single(&self, v: &Variant) -> Result<Vec<Block>> {
        let mut blocks = self.seats(0)?;
        if let Some(m) = self.metric(0, "skill_headroom") {
            blocks.push(Block::Headline(Headline {
                label: "skill headroom".into(),
                value: estimate_cell(m, "value", m.estimate.value),
                interval: format!(
                    "(95% CI {} to {}; the best fair rung minus the bottom rung, paired)",
                    shown(m.unit, m.estimate.low),
                    shown(m.unit, m.estimate.high)
                ),
            }));
        }
        let rungs: Vec<&Rung> = self.rungs.iter().filter(|r| r.variant == 0).collect();
        let bars = |get: fn(&Rung) -> Option<Interval>| -> Vec<Bar> {
            rungs
                .iter()
                .filter_map(|r| {
                    let i = get(r)?;
                    Some(Bar {
                        label: r.label(),
                        value: i.value,
                        low: i.low,
                        high: i.high,
                        wide: None,
                    })
                })
                .collect()
        };
        let what = self.result_words();
        let caption = format!(
            "Each rung's {what} with its 95% interval, weakest first, on {} deals.",
            thousands(v.deals)
        );
        let reference = self.duel().then_some(0.5);
        let svg = intervals(
            &bars(|r| r.result),
            what,
            Scale::Percent,
            reference,
            &caption,
        )?;
        blocks.push(Block::Figure(Figure::new("ladder", caption, svg)));
        let gains = bars(|r| r.gain);
        if !gains.is_empty() {
            let caption = "Each rung's gain on the rung below, in percentage points, with its paired 95% interval (the same deals for both).".to_string();
            let svg = intervals(
                &gains,
                "gain on the rung below",
                Scale::Points,
                Some(0.0),
                &caption,
            )?;
            blocks.push(Block::Figure(Figure::new("gains", caption, svg)));
        }
        blocks.extend(self.duration_figures()?);
        Ok(blocks)
    }

    /// The histogram of each rule set's durations.
    fn duration_figures(&self) -> Result<Vec<Block>> {
        self.durations
            .iter()
            .map(|d| {
                let prefix = if self.variants.len() > 1 {
                    format!("duration-{}-", d.cell)
                } else {
                    "duration-".to_string()
                };
                let mut figure = histogram_figure(d, &prefix, &DURATIONS)?;
                if self.variants.len() > 1 {
                    figure.caption = format!("{}: {}", self.variants[d.cell].label, figure.caption);
                }
                Ok(Block::Figure(figure))
            })
            .collect()
    }

    /// Several rule sets: headroom, luck and every rung's result against the varied value.
    fn side_by_side(&self) -> Result<Vec<Block>> {
        let (axis, positions, x_desc) = match self.params.as_slice() {
            [one] => {
                let values: Vec<String> =
                    self.variants.iter().map(|v| v.values[0].clone()).collect();
                let axis = Axis::of(&values);
                let xs: Vec<f64> = values.iter().map(|v| axis.position(v)).collect();
                (axis, xs, one.clone())
            }
            _ => {
                let labels: Vec<String> = self.variants.iter().map(|v| v.label.clone()).collect();
                let xs = (0..labels.len()).map(|i| i as f64).collect();
                (Axis::Categories(labels), xs, "rule set".to_string())
            }
        };
        let x_title = match self.params.as_slice() {
            [one] => axis_title(one),
            _ => "rule set (values)".to_string(),
        };
        let series = |name: &str| -> Vec<Point> {
            let mut points: Vec<Point> = (0..self.variants.len())
                .filter_map(|v| {
                    let m = self.metric(v, name)?;
                    Some(point(positions[v], &m.estimate))
                })
                .collect();
            points.sort_by(|a, b| a.x.total_cmp(&b.x));
            points
        };
        let mut blocks = Vec::new();
        // The paired differences of every figure against the first rule set (the same deals),
        // a forest plot per figure, go here once evaluate.parquet records them.
        let one = categorical(1);
        if self.duel() {
            let caption = format!(
                "First-move advantage (seat 0's win rate minus seat 1's, the strongest fair rung in both seats) against {x_desc}, with 95% intervals; 0 is an even game."
            );
            let svg = lines(
                &[series("first_move_advantage")],
                &one,
                &axis,
                &x_title,
                "first-move advantage",
                Scale::Points,
                &caption,
            )?;
            blocks.push(Block::Figure(Figure::new("vary-seats", caption, svg)));
        }
        let caption = format!(
            "Skill headroom (the best fair rung minus the bottom rung, paired) against {x_desc}, with 95% intervals."
        );
        let svg = lines(
            &[series("skill_headroom")],
            &one,
            &axis,
            &x_title,
            "skill headroom",
            Scale::Points,
            &caption,
        )?;
        blocks.push(Block::Figure(Figure::new("vary-headroom", caption, svg)));
        let shares = ["variance_deal_share", "variance_player_share"];
        let luck: Vec<Vec<Point>> = shares.iter().map(|s| series(s)).collect();
        if luck.iter().any(|s| !s.is_empty()) {
            let names: Vec<String> = shares.iter().map(|s| label(s).to_string()).collect();
            let caption = format!(
                "The deal's share of the results' variance (luck) and the player's (skill) against {x_desc}, with 95% intervals."
            );
            let svg = lines(
                &luck,
                &categorical(luck.len()),
                &axis,
                &x_title,
                "share of variance",
                Scale::Percent,
                &caption,
            )?;
            blocks.push(Block::Figure(
                Figure::new("vary-luck", caption, svg).with_legend(legend(&names)),
            ));
        }
        let names = distinct(self.rungs.iter().map(|r| r.label()));
        let by_rung: Vec<Vec<Point>> = names
            .iter()
            .map(|name| {
                let mut points: Vec<Point> = self
                    .rungs
                    .iter()
                    .filter(|r| &r.label() == name)
                    .filter_map(|r| Some(point(positions[r.variant], &r.result?)))
                    .collect();
                points.sort_by(|a, b| a.x.total_cmp(&b.x));
                points
            })
            .collect();
        let what = self.result_words();
        let caption = format!(
            "Each rung's {what} against {x_desc}, one line per rung, with 95% intervals; darker is a stronger rung."
        );
        let shades: Vec<_> = (0..names.len()).map(|k| shade(k, names.len())).collect();
        let svg = lines(
            &by_rung,
            &shades,
            &axis,
            &x_title,
            what,
            Scale::Percent,
            &caption,
        )?;
        blocks.push(Block::Figure(
            Figure::new("vary-ladder", caption, svg).with_legend(legend_in(&names, &shades)),
        ));
        blocks.extend(self.duration_figures()?);
        Ok(blocks)
    }

    /// The cells that say which rule set a row is of, when there are several.
    fn variant_cells(&self, variant: usize) -> Vec<Cell> {
        if self.variants.len() < 2 {
            return Vec::new();
        }
        self.params
            .iter()
            .zip(&self.variants[variant].values)
            .map(|(p, v)| Cell::number(p, v, v.clone()))
            .collect()
    }

    /// A table's headers: `first` (the row's heading), the varied rules if several rule sets,
    /// then `rest`.
    fn headers<'a>(&'a self, first: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
        let mut headers = vec![first];
        if self.variants.len() > 1 {
            headers.extend(self.params.iter().map(String::as_str));
        }
        headers.extend_from_slice(rest);
        headers
    }

    /// Every rung of `ladder.parquet`.
    fn ladder_table(&self) -> DataTable {
        let (what, gain) = if self.duel() {
            ("score vs below", "minus 1/2")
        } else {
            ("win rate", "gain on below")
        };
        let headers = self.headers(
            "rung",
            &[
                "budget",
                "games",
                what,
                "95% CI low",
                "95% CI high",
                gain,
                "95% CI low",
                "95% CI high",
                "mean length",
                "capped",
            ],
        );
        let mut t = DataTable::new(
            "ladder-table",
            "The ladder, weakest first: each rung's result and its paired gain on the rung below",
            &headers,
        )
        .from_file("ladder.parquet");
        for r in &self.rungs {
            let mut cells = vec![Cell::text(r.label())];
            cells.extend(self.variant_cells(r.variant));
            cells.push(match r.budget {
                Some(b) => Cell::number("budget", b, thousands(b)),
                None => Cell::text(""),
            });
            cells.push(Cell::number("games", r.games, thousands(r.games)));
            cells.extend(interval_cells(
                r.result,
                ["result", "result_low", "result_high"],
                Unit::Share,
            ));
            cells.extend(interval_cells(
                r.gain,
                ["gain", "gain_low", "gain_high"],
                Unit::Points,
            ));
            cells.push(match r.mean_length {
                Some(l) => Cell::number("mean_length", l, shown(Unit::Length, l)),
                None => Cell::text(""),
            });
            cells.push(Cell::number("capped", r.capped, thousands(r.capped)));
            t.push(r.row.to_string(), cells);
        }
        t
    }

    /// The figures of `part`, every rule set's, as `evaluate.parquet` holds them.
    fn part_table(&self, part: &str) -> Option<DataTable> {
        let rows: Vec<&Metric> = self.metrics.iter().filter(|m| m.part == part).collect();
        if rows.is_empty() {
            return None;
        }
        let headers = self.headers(
            "figure",
            &["of", "value", "95% CI low", "95% CI high", "games"],
        );
        let title = match part {
            "ladder" => "Skill".to_string(),
            other => format!("{}{}", other[..1].to_uppercase(), &other[1..]),
        };
        let mut t = DataTable::new(
            format!("metrics-{part}"),
            format!("{title}: every figure with its 95% interval and sample"),
            &headers,
        )
        .from_file("evaluate.parquet");
        for m in rows {
            let mut cells = vec![Cell::text(label(&m.metric)).with_title(m.metric.clone())];
            cells.extend(self.variant_cells(m.variant));
            cells.push(Cell::text(m.rung.clone().unwrap_or_default()));
            cells.extend([
                estimate_cell(m, "value", m.estimate.value),
                estimate_cell(m, "ci_low", m.estimate.low),
                estimate_cell(m, "ci_high", m.estimate.high),
            ]);
            cells.push(Cell::number("games", m.games, thousands(m.games)));
            t.push(m.row.to_string(), cells);
        }
        Some(t)
    }
}

/// The rows of `durations.parquet`, one histogram per rule set in `order`.
fn read_durations(frame: &Frame, order: &[String]) -> Result<Vec<Distribution>> {
    let (labels, units) = (frame.strings("variant")?, frame.strings("unit")?);
    let (lengths, games) = (frame.u64s("length")?, frame.u64s("games")?);
    let mut out: Vec<Distribution> = Vec::new();
    for i in 0..frame.height() {
        let cell = order.iter().position(|l| *l == labels[i]).unwrap_or(0);
        let count = (lengths[i] as i64, games[i]);
        match out.last_mut() {
            Some(d) if d.cell == cell => d.counts.push(count),
            _ => out.push(Distribution {
                cell,
                metric: units[i].clone(),
                first_row: i,
                counts: vec![count],
            }),
        }
    }
    Ok(out)
}

fn point(x: f64, i: &Interval) -> Point {
    Point {
        x,
        value: i.value,
        low: i.low,
        high: i.high,
    }
}

/// A figure's value `x` of column `col`, in its unit; a value that is not a number (no
/// estimate) is shown `n/a` and carries none.
fn estimate_cell(m: &Metric, col: &str, x: f64) -> Cell {
    if x.is_finite() {
        Cell::number(col, x, shown(m.unit, x))
    } else {
        Cell::text("n/a")
    }
}

/// An optional interval's three cells, of columns `cols`.
fn interval_cells(i: Option<Interval>, cols: [&str; 3], unit: Unit) -> Vec<Cell> {
    match i {
        Some(i) => cols
            .iter()
            .zip([i.value, i.low, i.high])
            .map(|(col, x)| Cell::number(col, x, shown(unit, x)))
            .collect(),
        None => vec![Cell::text(""), Cell::text(""), Cell::text("")],
    }
}
