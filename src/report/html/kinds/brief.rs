//! A brief (`sim balance` with several targets): the verdict, a map of the region (each cell
//! meets every target, fails one, named, or is open), a forest plot per target (each cell's
//! figure with its 95% interval and the interval its verdict was decided on, against the
//! target), and every cell's figures.

use plotters::style::RGBColor;

use crate::balance::figure::{distance, scale_of};
use crate::balance::target::Scale as MetricScale;
use crate::error::{Result, SimError};
use crate::report::tables::on_scale;
use crate::report::terminal::thousands;
use crate::report::verdict::{self, NearestCell};
use crate::results::folder::Frame;
use crate::results::read_back::Interval;

use super::super::command::{CommandLine, count};
use super::super::facts::Facts;
use super::super::figure::heatmap::{Colours, Grid, heatmap};
use super::super::figure::intervals::{Row as Bar, intervals};
use super::super::figure::scale::Scale;
use super::super::figure::{colour, hex};
use super::super::page::{Block, Cell, DataTable, Figure, Note, Section, Swatch};
use super::super::{Context, Folder, Kind};
use super::balance::params_of;
use super::{Recorded, axis_title, distinct, speed_lines};

/// The kind of a brief's folder: `balance.parquet` with a `standing` per cell.
pub struct Brief;

/// The file it reads.
const FILE: &str = "balance.parquet";

impl Kind for Brief {
    fn name(&self) -> &'static str {
        "brief"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has(FILE) && folder.table(FILE).is_ok_and(|f| f.has("standing"))
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let brief = Read::of(&folder.table(FILE)?, folder)?;
        let mut section = Section::new(
            self.name(),
            format!(
                "{}: brief of {} targets over {}",
                brief.game,
                brief.targets.len(),
                brief.params.join(" and ")
            ),
            brief.facts(context)?,
        );
        section.timing = speed_lines(context);
        section.verdict = vec![brief.sentence()];
        section.blocks.push(Block::Note(Note {
            text: brief.targets_text(),
        }));
        section.blocks.push(Block::Figure(brief.map()?));
        for g in 0..brief.targets.len() {
            section.blocks.push(Block::Figure(brief.forest(g)?));
        }
        section.blocks.push(Block::Table(brief.table()));
        section.blocks.push(Block::Note(Note {
            text: brief.stopping_rule(),
        }));
        Ok(section)
    }
}

/// One target of the brief.
struct Target {
    /// As written back: `win_rate[optimal] >= 0.7 +-2.00 pts`.
    text: String,
    /// As given on the command line: `win_rate[optimal]>=0.7`.
    spec: String,
    /// The figure: `win_rate[optimal]`.
    figure: String,
    /// Its value (a range's lower end).
    value: f64,
    tolerance: f64,
}

impl Target {
    fn scale(&self) -> MetricScale {
        scale_of(&self.figure)
    }
}

/// One cell's figure for one target.
struct Entry {
    row: usize,
    games: u64,
    figure: Interval,
    decided: (f64, f64),
    verdict: String,
    miss: f64,
}

/// One cell: a combination of the varied rules' values.
struct Place {
    values: Vec<String>,
    standing: String,
    nearest: bool,
    /// Per target, in the brief's order.
    entries: Vec<Entry>,
}

/// A brief's file, read back.
struct Read {
    game: String,
    params: Vec<String>,
    targets: Vec<Target>,
    /// In candidate order.
    cells: Vec<Place>,
    vary: Vec<String>,
    cap: u64,
    budget: u64,
    confidence: f64,
    candidate_error: f64,
    seed: u64,
    first_game: u64,
    complete: bool,
    rules: String,
    version: String,
}

impl Read {
    fn of(f: &Frame, folder: &Folder) -> Result<Self> {
        let file = || folder.path().join(FILE).display().to_string();
        let bad = |why: String| SimError::input(format!("{}: {why}", file()));
        let params = params_of(f);
        let values = params
            .iter()
            .map(|p| f.texts(p))
            .collect::<Result<Vec<_>>>()?;
        let candidate = f.u64s("candidate")?;
        let (games, figure) = (f.u64s("games")?, f.strings("metric")?);
        let (value, low, high) = (f.f64s("value")?, f.f64s("ci_low")?, f.f64s("ci_high")?);
        let (d_low, d_high) = (f.f64s("decision_low")?, f.f64s("decision_high")?);
        let (verdict, target) = (f.strings("verdict")?, f.strings("target")?);
        let spec = f.strings("spec")?;
        let (target_value, tolerance) = (f.f64s("target_value")?, f.f64s("tolerance")?);
        let (standing, nearest, miss) =
            (f.strings("standing")?, f.bools("nearest")?, f.f64s("miss")?);
        let mut targets: Vec<Target> = Vec::new();
        let mut cells: Vec<(u64, Place)> = Vec::new();
        for i in 0..f.height() {
            let g = match targets.iter().position(|t| t.text == target[i]) {
                Some(g) => g,
                None => {
                    targets.push(Target {
                        text: target[i].clone(),
                        spec: spec[i].clone(),
                        figure: figure[i].clone(),
                        value: target_value[i],
                        tolerance: tolerance[i],
                    });
                    targets.len() - 1
                }
            };
            let at = match cells.iter().position(|(c, _)| *c == candidate[i]) {
                Some(at) => at,
                None => {
                    cells.push((
                        candidate[i],
                        Place {
                            values: values.iter().map(|v| v[i].clone()).collect(),
                            standing: standing[i].clone(),
                            nearest: nearest[i],
                            entries: Vec::new(),
                        },
                    ));
                    cells.len() - 1
                }
            };
            let place = &mut cells[at].1;
            if place.entries.len() != g {
                return Err(bad(format!(
                    "row {i}: cell {} holds its targets out of order",
                    candidate[i]
                )));
            }
            place.entries.push(Entry {
                row: i,
                games: games[i],
                figure: Interval {
                    value: value[i],
                    low: low[i],
                    high: high[i],
                },
                decided: (d_low[i], d_high[i]),
                verdict: verdict[i].clone(),
                miss: miss[i],
            });
        }
        if cells.is_empty() {
            return Err(bad("no cell was played".into()));
        }
        if let Some((c, _)) = cells.iter().find(|(_, p)| p.entries.len() != targets.len()) {
            return Err(bad(format!(
                "cell {c} has not one row for each of the {} targets",
                targets.len()
            )));
        }
        cells.sort_by_key(|(c, _)| *c);
        let first_text = |c: &str| -> Result<String> {
            f.strings(c)?
                .into_iter()
                .next()
                .ok_or_else(|| bad("no cell was played".into()))
        };
        let first_f64 = |c: &str| f.f64s(c).map(|v| v.first().copied().unwrap_or(0.0));
        let first_u64 = |c: &str| f.u64s(c).map(|v| v.first().copied().unwrap_or(0));
        let vary: Vec<String> = serde_json::from_str(&first_text("vary")?).map_err(|e| {
            bad(format!(
                "column vary is not a JSON list of --vary flags: {e}"
            ))
        })?;
        Ok(Self {
            game: first_text("game")?,
            params,
            targets,
            cells: cells.into_iter().map(|(_, p)| p).collect(),
            vary,
            cap: first_u64("cap")?,
            budget: first_u64("budget")?,
            confidence: first_f64("confidence")?,
            candidate_error: first_f64("candidate_error")?,
            seed: first_u64("seed")?,
            first_game: first_u64("first_game")?,
            complete: f.bools("complete")?.iter().all(|&c| c),
            rules: first_text("rules")?,
            version: distinct(f.strings("version")?.into_iter()).join(", "),
        })
    }

    /// Cell `c` in words: `start_hp = 12, target.king = 17`.
    fn label(&self, c: usize) -> String {
        self.params
            .iter()
            .zip(&self.cells[c].values)
            .map(|(p, v)| format!("{p} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Targets by number: `#1, #3`.
    fn numbers(goals: &[usize]) -> String {
        goals
            .iter()
            .map(|g| format!("#{}", g + 1))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The verdict, in the same words as the terminal's.
    fn sentence(&self) -> String {
        let meets: Vec<String> = (0..self.cells.len())
            .filter(|&c| self.cells[c].standing == "meets")
            .map(|c| self.label(c))
            .collect();
        let nearest = self.cells.iter().position(|p| p.nearest).map(|c| {
            let place = &self.cells[c];
            let misses = place
                .entries
                .iter()
                .zip(&self.targets)
                .filter(|(e, _)| e.miss > 0.0)
                .map(|(e, t)| format!("{} by {}", t.spec, distance(t.scale(), e.miss)))
                .collect();
            let which = |word: &str| -> Vec<usize> {
                (0..self.targets.len())
                    .filter(|&g| place.entries[g].verdict == word)
                    .collect()
            };
            let unsettled = match place.standing.as_str() {
                "open" => format!("open on {}", Self::numbers(&which("open"))),
                "edge" => format!("at the edge of {}", Self::numbers(&which("edge"))),
                _ => "unsettled".to_string(),
            };
            NearestCell {
                cell: self.label(c),
                misses,
                unsettled,
            }
        });
        verdict::brief(self.cells.len(), &meets, nearest.as_ref())
    }

    /// The targets, numbered as the map names them.
    fn targets_text(&self) -> String {
        let list: Vec<String> = self
            .targets
            .iter()
            .enumerate()
            .map(|(g, t)| format!("#{} {}", g + 1, t.text))
            .collect();
        format!(
            "The targets: {}. A cell meets the brief when it meets every target; it fails when one target is surely missed (the first, named), and is open while a verdict is not settled.",
            list.join("; ")
        )
    }

    /// Where cell `c` stands, as a category of the map: 0 meets, 1 open, 2 at an edge, 10 + g
    /// fails target g.
    fn category(&self, c: usize) -> f64 {
        let place = &self.cells[c];
        match place.standing.as_str() {
            "meets" => 0.0,
            "edge" => 2.0,
            "fails" => place
                .entries
                .iter()
                .position(|e| e.verdict == "above" || e.verdict == "below")
                .map_or(1.0, |g| 10.0 + g as f64),
            _ => 1.0,
        }
    }

    /// The region: one rule's values in a row, or the last rule across and the others down.
    fn map(&self) -> Result<Figure> {
        let last = self.params.len() - 1;
        let mut cols: Vec<String> = Vec::new();
        let mut rows: Vec<String> = Vec::new();
        for place in &self.cells {
            let col = place.values[last].clone();
            if !cols.contains(&col) {
                cols.push(col);
            }
            let row = self.row_label(place);
            if !rows.contains(&row) {
                rows.push(row);
            }
        }
        let mut values = vec![vec![None; cols.len()]; rows.len()];
        for (c, place) in self.cells.iter().enumerate() {
            let r = rows.iter().position(|x| *x == self.row_label(place));
            let k = cols.iter().position(|x| *x == place.values[last]);
            if let (Some(r), Some(k)) = (r, k) {
                values[r][k] = Some(self.category(c));
            }
        }
        let grid = Grid {
            row_desc: if last == 0 {
                String::new()
            } else {
                self.params[..last].join(", ")
            },
            col_desc: self.params[last].clone(),
            rows: if last == 0 { vec![String::new()] } else { rows },
            cols,
            values,
        };
        let caption = format!(
            "Where each cell stands against the brief of {} targets: meets every target, fails one (the first surely missed, by number), or open; {}.",
            self.targets.len(),
            self.params.join(" and ")
        );
        let svg = heatmap(
            &grid,
            Colours::Categorical(fill),
            |v| match v as u32 {
                0 => "meets".to_string(),
                2 => "edge".to_string(),
                k if k >= 10 => format!("fails #{}", k - 9),
                _ => "open".to_string(),
            },
            &caption,
        )?;
        let mut legend = vec![
            Swatch {
                name: "meets every target".into(),
                colour: hex(fill(0.0)),
            },
            Swatch {
                name: "open or at an edge".into(),
                colour: hex(fill(1.0)),
            },
        ];
        legend.extend((0..self.targets.len()).map(|g| Swatch {
            name: format!("fails #{}", g + 1),
            colour: hex(fill(10.0 + g as f64)),
        }));
        Ok(Figure::new("heatmap-region", caption, svg).with_legend(legend))
    }

    /// The map's row of `place`: every varied rule but the last.
    fn row_label(&self, place: &Place) -> String {
        let last = self.params.len() - 1;
        self.params[..last]
            .iter()
            .zip(&place.values)
            .map(|(p, v)| format!("{p} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Target `g`'s figure in every cell that played it, with its 95% interval and the
    /// interval its verdict was decided on, against the target's value.
    fn forest(&self, g: usize) -> Result<Figure> {
        let t = &self.targets[g];
        let bars: Vec<Bar> = (0..self.cells.len())
            .filter(|&c| self.cells[c].entries[g].games > 0)
            .map(|c| {
                let e = &self.cells[c].entries[g];
                Bar {
                    label: format!("{} ({})", self.label(c), e.verdict),
                    value: e.figure.value,
                    low: e.figure.low,
                    high: e.figure.high,
                    wide: (e.decided.0.is_finite() && e.decided.1.is_finite()).then_some(e.decided),
                }
            })
            .collect();
        let scale = match t.scale() {
            MetricScale::Rate => Scale::Percent,
            MetricScale::Difference => Scale::Points,
            MetricScale::Mean => Scale::Number,
        };
        let caption = format!(
            "Target #{}, {}: each cell's {} with its 95% interval (colour) and the interval its verdict was decided on (grey); the dashed line is the target.",
            g + 1,
            t.text,
            t.figure
        );
        let x_desc = match scale {
            Scale::Number => axis_title(&t.figure),
            _ => t.figure.clone(),
        };
        let svg = intervals(&bars, &x_desc, scale, Some(t.value), &caption)?;
        Ok(Figure::new(format!("target{}-forest", g + 1), caption, svg))
    }

    /// Every cell and target, a row of the file each: the cell's standing, and the target's
    /// games, figure with its 95% interval, the interval decided on, and verdict.
    fn table(&self) -> DataTable {
        let mut headers: Vec<&str> = self.params.iter().map(String::as_str).collect();
        headers.extend([
            "standing",
            "target",
            "games",
            "figure",
            "95% CI low",
            "95% CI high",
            "decided low",
            "decided high",
            "verdict",
        ]);
        let mut table = DataTable::new(
            "cells",
            "Every cell and target: where the cell stands, and the target's games, figure with its 95% interval, the interval its verdict was decided on, and verdict",
            &headers,
        )
        .from_file(FILE);
        for place in &self.cells {
            for (g, (e, t)) in place.entries.iter().zip(&self.targets).enumerate() {
                let show = |x: f64| {
                    if x.is_finite() {
                        on_scale(t.scale(), x)
                    } else {
                        "none".to_string()
                    }
                };
                let mut cells: Vec<Cell> = self
                    .params
                    .iter()
                    .zip(&place.values)
                    .map(|(p, v)| Cell::number(p, v, v.clone()))
                    .collect();
                cells.extend([
                    Cell::text(if place.nearest {
                        format!("{} (nearest)", place.standing)
                    } else {
                        place.standing.clone()
                    }),
                    Cell::text(format!("#{} {}", g + 1, t.figure)),
                    Cell::number("games", e.games, thousands(e.games)),
                    Cell::number("value", e.figure.value, show(e.figure.value)),
                    Cell::number("ci_low", e.figure.low, show(e.figure.low)),
                    Cell::number("ci_high", e.figure.high, show(e.figure.high)),
                    Cell::number("decision_low", e.decided.0, show(e.decided.0)),
                    Cell::number("decision_high", e.decided.1, show(e.decided.1)),
                    Cell::text(e.verdict.clone()),
                ]);
                table.push(e.row.to_string(), cells);
            }
        }
        table
    }

    /// How the cells were played and stopped, and the confidence they hold with.
    fn stopping_rule(&self) -> String {
        let tests = ((1.0 - self.confidence) / self.candidate_error).round() as u64;
        format!(
            "Every cell played batches of the same deals for every player, and each target's verdict stopped as soon as its interval (a confidence sequence, valid at every look) settled it, or at {} games (open){}; a cell that surely fails one target plays no more for the others. Every verdict holds together with probability at least {:.0}%: each test errs at most {:.4}% ({} tests, cells x targets).",
            thousands(self.cap),
            if self.budget > 0 {
                format!("; the brief stops at {} games", thousands(self.budget))
            } else {
                String::new()
            },
            100.0 * self.confidence,
            100.0 * self.candidate_error,
            tests
        )
    }

    fn facts(&self, context: &Context) -> Result<Facts> {
        let mut command = CommandLine::new(&["balance", &self.game]);
        for t in &self.targets {
            command.arg("--target", t.spec.clone());
        }
        // Targets without a tolerance of their own took `--tolerance` (or a rate's default,
        // which stated again gives the same).
        if let Some(t) = self.targets.iter().find(|t| !t.spec.contains("+-")) {
            command.arg("--tolerance", t.tolerance.to_string());
        }
        for v in &self.vary {
            command.arg("--vary", v.clone());
        }
        command.arg("--confidence", self.confidence.to_string());
        command.games(self.cap);
        if self.budget > 0 {
            command.arg("--budget", count(self.budget));
        }
        let recorded = Recorded {
            game: &self.game,
            rules: &self.rules,
            varied: &self.params,
            seed: self.seed,
            first_game: self.first_game,
        };
        let mut facts = recorded.facts(context, command, &[])?;
        let total: u64 = self
            .cells
            .iter()
            .flat_map(|p| p.entries.iter().map(|e| e.games))
            .sum();
        facts.policies = distinct(
            self.targets
                .iter()
                .flat_map(|t| players_of(&t.figure))
                .collect::<Vec<_>>()
                .into_iter(),
        );
        recorded.finish(
            &mut facts,
            format!(
                "{} deals over {} cells and {} targets (at most {} a cell and target)",
                thousands(total),
                self.cells.len(),
                self.targets.len(),
                thousands(self.cap)
            ),
            self.version.clone(),
            self.complete,
            "the brief was stopped early; the verdicts are those reached before it stopped",
        );
        Ok(facts)
    }
}

/// The players a figure names: `gap[optimal,bank-at-17]` names two.
fn players_of(figure: &str) -> Vec<String> {
    figure
        .split_once('[')
        .and_then(|(_, rest)| rest.strip_suffix(']'))
        .map(|inside| inside.split(',').map(|p| p.trim().to_string()).collect())
        .unwrap_or_default()
}

/// A category's colour on the map: green meets, grey open or at an edge, and a warm colour per
/// target failed.
fn fill(v: f64) -> RGBColor {
    const FAILS: [usize; 6] = [1, 2, 6, 8, 7, 5];
    match v as usize {
        0 => colour(4),
        k if k >= 10 => colour(FAILS[(k - 10) % FAILS.len()]),
        _ => RGBColor(0xdd, 0xdd, 0xdd),
    }
}
