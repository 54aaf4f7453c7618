//! `sim explore <game>`: which rules matter, by how much, and for whom. Every rule (or each
//! `--vary`) is played over its values one at a time from the base rule set, every cell on the
//! same deals, for the players' figures; each rule stops once its swing is settled (see
//! [`crate::explore`] and docs/explore.md). Writes `explore.parquet` (one row per rule, value
//! and figure) and prints the rules ranked per figure, a tornado in text.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use crate::balance::figure::{Figure, Vocabulary, distance};
use crate::balance::grid::{Setup, batch_size};
use crate::balance::sequential::MIN_BATCHES;
use crate::balance::target::{Scale, columns};
use crate::error::{Result, SimError};
use crate::explore::answer::{ranking, sentence};
use crate::explore::interactions::{self, Interaction};
use crate::explore::plan::{self, Trial};
use crate::explore::screen::{Screen, Screened, screen};
use crate::explore::swing::Swing;
use crate::games::Game;
use crate::games::registry::Registered;
use crate::games::seats::Table;
use crate::report::json;
use crate::report::tables::{on_scale, table};
use crate::report::terminal::thousands;
use crate::results::explore::ExploreRow;
use crate::results::parquet::{fields_frame, write_frame};
use crate::results::result_set::ResultSet;
use crate::results::summary::Speed;
use crate::rules::RuleSet;
use crate::stop;

use super::args::{DEFAULT_GAMES, PlayArgs, SeatArgs};
use super::count::parse_count;
use super::grid::{self, CellSpec};
use super::outputs::Paths;
use super::run::{load_rules, out_path, pool, rule_path};

/// `sim explore`: which rules move which figures.
#[derive(Args, Clone, Debug)]
pub struct ExploreArgs {
    /// The game (see `sim list`)
    pub game: String,
    /// A player; repeat for more [default: the game's baseline and its best plain policy]
    #[arg(long, short)]
    pub policy: Vec<String>,
    /// A figure to explore, repeatable, in the words of sim balance's targets: a summary column
    /// of a player, win_rate[optimal], mean_turns[simple], a gap of two, gap[optimal,bank-at-17],
    /// or skill_headroom, gain_over_baseline [default: each player's win rate; for a duel each
    /// player's first-move advantage and mean turns]
    #[arg(long, value_name = "FIGURE")]
    pub figure: Vec<String>,
    /// A rule to explore and its values, as for sweep: start_hp=8..20, deck=finite,infinite;
    /// repeatable [default: every rule, at the values `sim list` shows]
    #[arg(long, value_name = "PATH=VALUES")]
    pub vary: Vec<String>,
    /// A rule's swing is settled once its interval is this narrow (half-width) or lies below
    /// it [default: 0.02 for a rate or a difference of rates, 0.5 for a mean]
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// The chance that each swing's interval holds its swing
    #[arg(long, default_value_t = 0.95, allow_negative_numbers = true)]
    pub confidence: f64,
    /// Then play every pair of the K rules that move the first figure most on a grid of their
    /// values, and report each pair's interaction: the grid's departure from the sum of the two
    /// rules' effects alone, with its interval
    #[arg(long, value_name = "K")]
    pub interactions: Option<usize>,
    /// The most games the whole exploration plays (every player's counted) [default: no limit
    /// but --games per value]
    #[arg(long, value_parser = parse_count)]
    pub budget: Option<u64>,
    /// Seats with other policies.
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Games (here the most per value of a rule, default 1M), deals, rules, threads and output.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The default precision of a figure on `scale`.
fn default_precision(scale: Scale) -> f64 {
    match scale {
        Scale::Mean => 0.5,
        Scale::Rate | Scale::Difference => 0.02,
    }
}

/// An exploration played and read, ready to be shown and written.
struct Explored {
    game: String,
    players: Vec<String>,
    figures: Vec<Figure>,
    precision: Vec<f64>,
    trials: Vec<Trial>,
    /// Each rule's base value (index), if the base rule set is among its values.
    base: Vec<Option<usize>>,
    /// Rules not explored, and why.
    skipped: Skipped,
    swings: Vec<Vec<Swing>>,
    settled: Vec<bool>,
    /// Each pair of rules played together, and its interaction on each figure.
    interactions: Vec<Pair>,
    confidence: f64,
    cap: u64,
    budget: Option<u64>,
    budget_spent: bool,
    complete: bool,
    seed: u64,
    speed: Speed,
}

/// Checks the flags that need no game.
fn check_flags(args: &ExploreArgs) -> Result<u64> {
    if let Some(shard) = args.play.shard {
        return Err(SimError::input(format!(
            "--shard {shard}: an exploration decides what to play from what it has played, so it cannot be split; give --games and --threads instead"
        )));
    }
    if let Some(dir) = &args.play.resume {
        return Err(SimError::input(format!(
            "--resume {}: an exploration does not go on from a stopped one yet; run it again",
            dir.display()
        )));
    }
    if args.play.report.html {
        return Err(SimError::input(
            "--report: explore has no page yet; read explore.parquet, or the text and JSON reports",
        ));
    }
    if args.interactions.is_some_and(|k| k < 2) {
        return Err(SimError::input(
            "--interactions: give the number of strongest rules to pair, at least 2",
        ));
    }
    let c = args.confidence;
    if !(c > 0.0 && c < 1.0) {
        return Err(SimError::input(format!(
            "--confidence {c}: give a probability between 0 and 1, e.g. 0.95"
        )));
    }
    if let Some(e) = args.precision
        && !(e.is_finite() && e > 0.0)
    {
        return Err(SimError::input(format!(
            "--precision {e}: give a half-width above 0, e.g. 0.02"
        )));
    }
    args.play.games(DEFAULT_GAMES)
}

/// Rules not explored, each with why.
type Skipped = Vec<(String, String)>;

/// The rules to explore: each `--vary` (at least two values each), else every rule with values
/// to try; and the rules left out, with why.
fn trials<G: Game>(args: &ExploreArgs, base: &G::Rules) -> Result<(Vec<Trial>, Skipped)> {
    if args.vary.is_empty() {
        let mut plan = plan::plan(base);
        for (path, tried) in plan.iter_mut() {
            if args.play.set.iter().any(|s| rule_path(s) == path) {
                *tried = Err("set by --set");
            }
        }
        let skipped = plan
            .iter()
            .filter_map(|(p, t)| t.as_ref().err().map(|why| (p.clone(), why.to_string())))
            .collect();
        return Ok((plan::trials(&plan), skipped));
    }
    let varies = super::sweep::varies::<G>(&args.play, &args.vary)?;
    let mut trials = Vec::new();
    for (flag, vary) in args.vary.iter().zip(varies) {
        let mut values: Vec<String> = Vec::new();
        for (text, _) in &vary.values {
            if !values.contains(text) {
                values.push(text.clone());
            }
        }
        if values.len() < 2 {
            return Err(SimError::input(format!(
                "--vary {flag}: a rule explored needs at least two values, e.g. {}=8..20",
                vary.path
            )));
        }
        trials.push(Trial {
            path: vary.path,
            values,
        });
    }
    Ok((trials, Vec::new()))
}

/// The players and figures: `--policy` (or the defaults) and `--figure` (or each player's
/// defaults), each figure's players among the players.
fn figures<G: Registered>(
    args: &ExploreArgs,
    default_policy: &str,
    columns: &[String],
) -> Result<(Vec<String>, Vec<Figure>)> {
    let mut players: Vec<String> = if args.policy.is_empty() {
        let roster = G::ROSTER;
        if roster.plain == roster.baseline {
            vec![default_policy.to_string()]
        } else {
            vec![roster.baseline.to_string(), roster.plain.to_string()]
        }
    } else {
        args.policy.clone()
    };
    let vocabulary = Vocabulary {
        game: G::NAME,
        columns,
        table: G::TABLE,
        policy: &players[0],
        baseline: players.get(1).map(String::as_str),
        roster: G::ROSTER,
    };
    let specs: Vec<String> = if args.figure.is_empty() {
        let names: &[&str] = if G::TABLE == Table::Duel {
            &["first_move_adv", "mean_turns"]
        } else {
            &["win_rate"]
        };
        players
            .iter()
            .flat_map(|p| names.iter().map(move |n| format!("{n}[{p}]")))
            .collect()
    } else {
        args.figure.clone()
    };
    let figures = specs
        .iter()
        .map(|s| vocabulary.named("--figure", s))
        .collect::<Result<Vec<_>>>()?;
    for f in &figures {
        for p in &f.players {
            if !players.contains(p) {
                players.push(p.clone());
            }
        }
    }
    Ok((players, figures))
}

/// Runs the exploration `args` asks for, writes its files and prints its report.
pub fn execute<G: Registered>(args: &ExploreArgs, default_policy: &str) -> Result<ExitCode> {
    let cap = check_flags(args)?;
    let play = &args.play;
    let base_rules = load_rules::<G>(play, &[])?;
    let (mut trials, mut skipped) = trials::<G>(args, &base_rules)?;
    let probe: Vec<G> = grid::build(
        play,
        &args.seats,
        &[CellSpec {
            policy: args
                .policy
                .first()
                .cloned()
                .unwrap_or(default_policy.into()),
            params: Vec::new(),
        }],
    )?;
    let columns = columns(&probe[0].new_tally());
    let (players, figures) = figures::<G>(args, default_policy, &columns)?;
    let whom: Vec<Vec<usize>> = figures
        .iter()
        .map(|f| {
            f.players
                .iter()
                .map(|p| players.iter().position(|q| q == p).expect("a player"))
                .collect()
        })
        .collect();
    let precision: Vec<f64> = figures
        .iter()
        .map(|f| {
            args.precision
                .unwrap_or_else(|| default_precision(f.metric.scale()))
        })
        .collect();
    let build = |params: Vec<(String, String)>| -> Result<Vec<G>> {
        let specs: Vec<CellSpec> = players
            .iter()
            .map(|p| CellSpec {
                policy: p.clone(),
                params: params.clone(),
            })
            .collect();
        grid::build(play, &args.seats, &specs)
    };
    // The cells: the base first, then each rule's other values; a value whose rules are the
    // base's is the base cell.
    let mut cells: Vec<G> = build(Vec::new())?;
    let base_json = cells[0].rules().to_json();
    let mut layout: Vec<Vec<usize>> = Vec::new();
    let mut base: Vec<Option<usize>> = Vec::new();
    let mut kept = Vec::new();
    for trial in trials.drain(..) {
        let mut values = Vec::new();
        let mut ids = Vec::new();
        let mut at_base = None;
        for value in &trial.values {
            match build(vec![(trial.path.clone(), value.clone())]) {
                Ok(built) if built[0].rules().to_json() == base_json => {
                    at_base = Some(values.len());
                    values.push(value.clone());
                    ids.push(0);
                }
                Ok(built) => {
                    values.push(value.clone());
                    ids.push(cells.len() / players.len());
                    cells.extend(built);
                }
                Err(e) if args.vary.is_empty() => {
                    skipped.push((format!("{}={value}", trial.path), e.to_string()));
                }
                Err(e) => {
                    return Err(SimError::input(format!(
                        "--vary {}={value}: {e}",
                        trial.path
                    )));
                }
            }
        }
        if values.len() < 2 {
            skipped.push((
                trial.path.clone(),
                "one value only for these players".into(),
            ));
            continue;
        }
        layout.push(ids);
        base.push(at_base);
        kept.push(Trial {
            path: trial.path,
            values,
        });
    }
    if kept.is_empty() {
        return Err(SimError::input(format!(
            "{}: no rule to explore (give --vary PATH=VALUES)",
            G::NAME
        )));
    }
    let batch = batch_size(&cells);
    let n = (cells.len() / players.len()) as u64;
    let least = MIN_BATCHES as u64 * batch * cells.len() as u64;
    if let Some(budget) = args.budget
        && budget < least
    {
        return Err(SimError::input(format!(
            "--budget {budget}: too small to give any swing an interval; {n} cells of {} players need at least {} games ({MIN_BATCHES} batches of {batch} deals each)",
            players.len(),
            thousands(least)
        )));
    }
    if cap < MIN_BATCHES as u64 * batch {
        return Err(SimError::input(format!(
            "--games {cap}: a swing's interval needs at least {} games per value ({MIN_BATCHES} batches of {batch})",
            MIN_BATCHES as u64 * batch
        )));
    }
    let out = out_path(play, G::NAME, "explore")?;
    Paths::new()
        .played(play, &out)
        .policies("--policy", players.iter().map(String::as_str))
        .seats(&args.seats)
        .check()?;
    let set = ResultSet::create(&out)?;
    let threads = super::balance::search_threads(play);
    let pool = pool(threads)?;
    let progress = |total, label: &str| {
        play.report
            .progress(total, &format!("{} explore {label}", G::NAME))
    };
    let setup = Setup {
        seed: play.seed,
        first_game: play.first_game,
        cap,
        pool: &pool,
        stop: stop::stop_flag(),
        progress: &progress,
    };
    let started = Instant::now();
    let screened: Screened<G::Tally> = screen(
        &cells,
        players.len(),
        &layout,
        &Screen {
            figures: &figures,
            whom: &whom,
            precision: &precision,
            alpha: 1.0 - args.confidence,
            budget: args.budget,
        },
        &setup,
    );
    let mut pairs = match args.interactions {
        Some(k) if screened.complete => {
            let strongest: Vec<usize> = ranking(&screened.swings, 0)
                .into_iter()
                .filter(|&r| base[r].is_some())
                .take(k)
                .collect();
            let grid = Grid {
                strongest: &strongest,
                trials: &kept,
                base: &base,
                layout: &layout,
                screened: &screened,
                players: players.len(),
                figures: &figures,
                whom: &whom,
                alpha: 1.0 - args.confidence,
            };
            grid.play(&build, &setup)?
        }
        _ => Played {
            complete: true,
            ..Played::default()
        },
    };
    let seconds = started.elapsed().as_secs_f64();
    let games = pairs.games
        + screened
            .tallies
            .iter()
            .map(crate::games::Tally::games)
            .sum::<u64>();
    let explored = Explored {
        game: G::NAME.to_string(),
        players,
        figures,
        precision,
        trials: kept,
        base,
        skipped,
        swings: screened.swings,
        settled: screened.settled,
        interactions: std::mem::take(&mut pairs.pairs),
        confidence: args.confidence,
        cap,
        budget: args.budget,
        budget_spent: screened.budget_spent,
        complete: screened.complete && pairs.complete,
        seed: play.seed,
        speed: Speed {
            games,
            seconds,
            threads,
        },
    };
    let written = vec![write(set.dir(), &explored)?];
    let written = set.commit(&written)?;
    play.report.print(
        || text(&explored, &written),
        || json_doc(&explored, &written),
    );
    Ok(if explored.complete {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "stopped by {}: the exploration is unfinished",
            stop::cause()
        );
        ExitCode::from(stop::exit_code())
    })
}

impl Explored {
    fn paths(&self) -> Vec<String> {
        self.trials.iter().map(|t| t.path.clone()).collect()
    }

    fn scale(&self, f: usize) -> Scale {
        self.figures[f].metric.scale()
    }

    /// A swing as `12.30 pts (11.00 to 13.60 pts)`.
    fn swing_text(&self, f: usize, s: &Swing) -> (String, String) {
        let d = |v: f64| {
            if v.is_finite() {
                distance(self.scale(f), v)
            } else {
                "-".to_string()
            }
        };
        (
            d(s.swing.value),
            format!("{} to {}", d(s.swing.low), d(s.swing.high)),
        )
    }

    /// The figure's base value: the base cell's estimate from a rule that has it.
    fn base_value(&self, f: usize) -> Option<f64> {
        (0..self.trials.len()).find_map(|r| self.base[r].map(|b| self.swings[r][f].curve[b].value))
    }

    /// A tornado bar of `width` characters: the figure's span over the rule's values, on the
    /// span of every rule's values, the base marked `|`.
    fn bar(&self, f: usize, r: usize, (lo, hi): (f64, f64), width: usize) -> String {
        let at = |v: f64| {
            if hi > lo {
                (((v - lo) / (hi - lo)) * (width - 1) as f64).round() as usize
            } else {
                0
            }
        };
        let s = &self.swings[r][f];
        let (a, b) = (at(s.curve[s.least].value), at(s.curve[s.greatest].value));
        let mark = self.base_value(f).map(at);
        (0..width)
            .map(|i| {
                if Some(i) == mark {
                    '|'
                } else if i >= a && i <= b {
                    '='
                } else {
                    ' '
                }
            })
            .collect()
    }

    /// The span of figure `f` over every value of every rule.
    fn span(&self, f: usize) -> (f64, f64) {
        self.swings
            .iter()
            .flat_map(|row| row[f].curve.iter().map(|e| e.value))
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            })
    }

    /// Rule `r`'s curve on figure `f`: `12: 99.10%, 14: 97.00%, ...`, the base value starred.
    fn curve(&self, f: usize, r: usize) -> String {
        let t = &self.trials[r];
        t.values
            .iter()
            .zip(&self.swings[r][f].curve)
            .enumerate()
            .map(|(i, (v, e))| {
                let star = if self.base[r] == Some(i) { "*" } else { "" };
                format!("{v}{star} {}", on_scale(self.scale(f), e.value))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Where rule `r` leaves figure `f` flat: `flat from 5 to 8`.
    fn flat(&self, f: usize, r: usize) -> String {
        let t = &self.trials[r];
        self.swings[r][f]
            .flat(self.precision[f])
            .iter()
            .map(|&(a, b)| format!("{}..{}", t.values[a], t.values[b]))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The text report: per figure, the verdict sentence, the tornado and each rule's curve.
fn text(e: &Explored, written: &[PathBuf]) -> String {
    let mut s = format!(
        "{} explore | players {} | {} rules, one at a time from the base rules, on the same deals | seed {}\n",
        e.game,
        e.players.join(", "),
        e.trials.len(),
        e.seed
    );
    let paths = e.paths();
    for f in 0..e.figures.len() {
        s.push_str(&format!(
            "  {}\n",
            sentence(&e.figures[f], &paths, &e.swings, f, e.precision[f])
        ));
    }
    for (f, figure) in e.figures.iter().enumerate() {
        let base = e.base_value(f).map_or(String::new(), |v| {
            format!(", {} at the base rules", on_scale(e.scale(f), v))
        });
        s.push_str(&format!(
            "\n  {} (swing: the largest change over a rule's values, with its paired {}% interval{base}):\n",
            figure.label,
            100.0 * e.confidence
        ));
        let span = e.span(f);
        let headers: Vec<String> = [
            "rank",
            "rule",
            "values",
            "swing",
            "interval",
            "standing",
            "direction",
            "games",
            "flat",
            "tornado",
        ]
        .map(String::from)
        .to_vec();
        let rows: Vec<Vec<String>> = ranking(&e.swings, f)
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let sw = &e.swings[r][f];
                let (value, interval) = e.swing_text(f, sw);
                let t = &e.trials[r];
                vec![
                    (i + 1).to_string(),
                    t.path.clone(),
                    format!("{}..{}", t.values[0], t.values[t.values.len() - 1]),
                    value,
                    interval,
                    sw.standing(e.precision[f]).word().to_string()
                        + if e.settled[r] { "" } else { " (cap)" },
                    sw.direction().word().to_string(),
                    thousands(sw.games),
                    e.flat(f, r),
                    e.bar(f, r, span, 24),
                ]
            })
            .collect();
        for line in table(&headers, &rows, 3).lines() {
            s.push_str(&format!("  {line}\n"));
        }
        s.push_str("  curves (* the base value):\n");
        for r in ranking(&e.swings, f) {
            s.push_str(&format!("    {}: {}\n", e.trials[r].path, e.curve(f, r)));
        }
    }
    if !e.interactions.is_empty() {
        s.push_str("\n  interactions (the grid's largest departure from the sum of the two rules' effects alone, with its interval):\n");
        for p in &e.interactions {
            let (a, b) = (&e.trials[p.first], &e.trials[p.second]);
            for (f, i) in p.figures.iter().enumerate() {
                let d = |v: f64| distance(e.scale(f), v);
                let verdict = if i.size.high <= e.precision[f] {
                    "apart: tune them one at a time"
                } else if i.size.low > 0.0 {
                    "together: they cannot be tuned apart"
                } else {
                    "unclear"
                };
                s.push_str(&format!(
                    "    {} x {}: {} {} ({} to {}), {}{} at {}={}, {}={}: {verdict}\n",
                    a.path,
                    b.path,
                    e.figures[f].label,
                    d(i.size.value),
                    d(i.size.low),
                    d(i.size.high),
                    if i.signed < 0.0 { "-" } else { "+" },
                    d(i.signed.abs()),
                    a.path,
                    a.values[p.values.0[i.at.0]],
                    b.path,
                    b.values[p.values.1[i.at.1]],
                ));
            }
        }
    }
    for (path, why) in &e.skipped {
        s.push_str(&format!("  not explored: {path}: {why}\n"));
    }
    s.push_str(&format!(
        "  search: each rule until its swing is settled (known to within the precision, or {}% of itself, or below the precision), at most {} deals a value{}\n",
        100.0 * crate::explore::swing::RELATIVE,
        thousands(e.cap),
        e.budget
            .map_or(String::new(), |b| format!(", {} games in all", thousands(b)))
    ));
    if e.budget_spent {
        s.push_str("  the budget ran out with rules still open\n");
    }
    if !e.complete {
        s.push_str("  stopped early (Ctrl-C): the exploration is unfinished\n");
    }
    s.push_str(&super::balance::show::speed_and_files(&e.speed, written));
    s
}

/// A number, or null for an infinite or undefined one.
fn number(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The JSON report.
fn json_doc(e: &Explored, written: &[PathBuf]) -> Value {
    let paths = e.paths();
    let figures: Vec<Value> = e
        .figures
        .iter()
        .enumerate()
        .map(|(f, figure)| {
            let rules: Vec<Value> = ranking(&e.swings, f)
                .into_iter()
                .enumerate()
                .map(|(rank, r)| {
                    let sw = &e.swings[r][f];
                    let t = &e.trials[r];
                    let curve: Vec<Value> = t
                        .values
                        .iter()
                        .zip(&sw.curve)
                        .map(|(v, c)| {
                            json!({"value": v, "estimate": number(c.value), "ci_low": number(c.low), "ci_high": number(c.high)})
                        })
                        .collect();
                    let flat: Vec<Value> = sw
                        .flat(e.precision[f])
                        .iter()
                        .map(|&(a, b)| json!([t.values[a], t.values[b]]))
                        .collect();
                    json!({
                        "rank": rank + 1,
                        "rule": t.path,
                        "base": e.base[r].map(|b| t.values[b].clone()),
                        "swing": number(sw.swing.value),
                        "swing_low": number(sw.swing.low),
                        "swing_high": number(sw.swing.high),
                        "standing": sw.standing(e.precision[f]).word(),
                        "direction": sw.direction().word(),
                        "settled": e.settled[r],
                        "games": sw.games,
                        "flat": flat,
                        "curve": curve,
                    })
                })
                .collect();
            json!({
                "figure": figure.label,
                "players": figure.players,
                "precision": e.precision[f],
                "verdict": sentence(figure, &paths, &e.swings, f, e.precision[f]),
                "rules": rules,
            })
        })
        .collect();
    let skipped: Vec<Value> = e
        .skipped
        .iter()
        .map(|(p, why)| json!({"rule": p, "why": why}))
        .collect();
    let pairs: Vec<Value> = e
        .interactions
        .iter()
        .map(|p| {
            let (a, b) = (&e.trials[p.first], &e.trials[p.second]);
            let per: Vec<Value> = p
                .figures
                .iter()
                .enumerate()
                .map(|(f, i)| {
                    json!({
                        "figure": e.figures[f].label,
                        "interaction": number(i.size.value),
                        "interaction_low": number(i.size.low),
                        "interaction_high": number(i.size.high),
                        "signed": number(i.signed),
                        "at": [a.values[p.values.0[i.at.0]], b.values[p.values.1[i.at.1]]],
                    })
                })
                .collect();
            json!({"rules": [a.path, b.path], "deals": p.games, "figures": per})
        })
        .collect();
    json!({
        "game": e.game,
        "kind": "explore",
        "interactions": pairs,
        "players": e.players,
        "figures": figures,
        "skipped": skipped,
        "confidence": e.confidence,
        "cap": e.cap,
        "budget": e.budget,
        "budget_spent": e.budget_spent,
        "complete": e.complete,
        "seed": e.seed,
        "speed": json::speed(&e.speed),
        "files": json::files(written),
    })
}

/// Writes `explore.parquet` into `dir`.
fn write(dir: &Path, e: &Explored) -> Result<PathBuf> {
    let mut fields = Vec::new();
    for (f, figure) in e.figures.iter().enumerate() {
        let order = ranking(&e.swings, f);
        for (r, t) in e.trials.iter().enumerate() {
            let sw = &e.swings[r][f];
            for (i, value) in t.values.iter().enumerate() {
                let row = ExploreRow {
                    game: e.game.clone(),
                    rule: t.path.clone(),
                    value: value.clone(),
                    base: e.base[r] == Some(i),
                    figure: figure.label.clone(),
                    estimate: sw.curve[i],
                    games: sw.games,
                    swing: sw.swing,
                    rank: order.iter().position(|&o| o == r).map_or(0, |p| p + 1),
                    standing: sw.standing(e.precision[f]).word(),
                    direction: sw.direction().word(),
                    settled: e.settled[r],
                };
                fields.push(row.fields());
            }
        }
    }
    let path = dir.join("explore.parquet");
    fields_frame(&fields).and_then(|mut df| write_frame(&path, &mut df))
}

/// Two rules played together, and their interaction on each figure.
struct Pair {
    /// The first rule (an index among the rules explored).
    first: usize,
    /// The second.
    second: usize,
    /// The values of each off the base, as indices among its values: the grid's rows, columns.
    values: (Vec<usize>, Vec<usize>),
    /// Each figure's interaction.
    figures: Vec<Interaction>,
    /// The most deals a grid cell played.
    games: u64,
}

/// What the interaction grids played.
#[derive(Default)]
struct Played {
    pairs: Vec<Pair>,
    games: u64,
    complete: bool,
}

/// The interaction grids of the strongest rules, and what the screening gave of their axes.
struct Grid<'a, T> {
    strongest: &'a [usize],
    trials: &'a [Trial],
    base: &'a [Option<usize>],
    layout: &'a [Vec<usize>],
    screened: &'a Screened<T>,
    players: usize,
    figures: &'a [Figure],
    whom: &'a [Vec<usize>],
    alpha: f64,
}

impl<T: crate::games::Tally> Grid<'_, T> {
    /// Plays every pair's grid (each cell for as many batches as the pair's rules played in
    /// the screening, on the same games) and reads each pair's interaction.
    fn play<G: Game<Tally = T>>(
        &self,
        build: &dyn Fn(Vec<(String, String)>) -> Result<Vec<G>>,
        setup: &Setup<'_>,
    ) -> Result<Played> {
        let off = |r: usize| -> Vec<usize> {
            (0..self.trials[r].values.len())
                .filter(|&i| Some(i) != self.base[r])
                .collect()
        };
        let mut cells: Vec<G> = Vec::new();
        let mut layout: Vec<Vec<usize>> = Vec::new();
        let mut pairs = Vec::new();
        for (x, &a) in self.strongest.iter().enumerate() {
            for &b in &self.strongest[x + 1..] {
                let (va, vb) = (off(a), off(b));
                let mut ids = Vec::new();
                for &i in &va {
                    for &j in &vb {
                        ids.push(cells.len() / self.players);
                        cells.extend(build(vec![
                            (
                                self.trials[a].path.clone(),
                                self.trials[a].values[i].clone(),
                            ),
                            (
                                self.trials[b].path.clone(),
                                self.trials[b].values[j].clone(),
                            ),
                        ])?);
                    }
                }
                layout.push(ids);
                pairs.push((a, b, va, vb));
            }
        }
        if cells.is_empty() {
            return Ok(Played {
                complete: true,
                ..Played::default()
            });
        }
        let batches = |r: usize| self.screened.swings[r].first().map_or(0, |s| s.games);
        let cap = pairs
            .iter()
            .map(|(a, b, _, _)| batches(*a).min(batches(*b)))
            .max()
            .unwrap_or(0);
        let setup = Setup { cap, ..*setup };
        let nil = vec![-1.0; self.figures.len()];
        let grid = screen(
            &cells,
            self.players,
            &layout,
            &Screen {
                figures: self.figures,
                whom: self.whom,
                precision: &nil,
                alpha: self.alpha,
                budget: None,
            },
            &setup,
        );
        let games = grid.tallies.iter().map(crate::games::Tally::games).sum();
        let axis = |r: usize, i: usize, f: usize| &self.screened.evidence[self.layout[r][i]][f];
        let base = |f: usize| &self.screened.evidence[0][f];
        let read = pairs
            .into_iter()
            .zip(&layout)
            .map(|((a, b, va, vb), ids)| {
                let figures = (0..self.figures.len())
                    .map(|f| {
                        let rows: Vec<Vec<&crate::balance::sequential::Evidence>> = (0..va.len())
                            .map(|i| {
                                (0..vb.len())
                                    .map(|j| &grid.evidence[ids[i * vb.len() + j]][f])
                                    .collect()
                            })
                            .collect();
                        let first: Vec<_> = va.iter().map(|&i| axis(a, i, f)).collect();
                        let second: Vec<_> = vb.iter().map(|&j| axis(b, j, f)).collect();
                        let test = interactions::test(
                            self.alpha,
                            ids.len(),
                            self.figures[f].metric.game_range(),
                        );
                        interactions::interaction(&test, &rows, &first, &second, base(f))
                    })
                    .collect();
                Pair {
                    first: a,
                    second: b,
                    games: grid.evidence[ids[0]][0].games(),
                    values: (va, vb),
                    figures,
                }
            })
            .collect();
        Ok(Played {
            pairs: read,
            games,
            complete: grid.complete,
        })
    }
}
