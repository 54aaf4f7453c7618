//! `sim compare <duel>`: a tournament. Every ordered pair of policies plays the same deals (the
//! first policy in seat 0), so each pair meets on every deal from both seats; the win matrix
//! has 95% Wilson intervals and the policies are rated by Bradley-Terry on an Elo scale (see
//! [`crate::sim::ratings`]). Written to `tournament.parquet` (one row per ordered pair of
//! policy and opponent, both seats together), `ratings.parquet`, and the cells' own
//! `summary.parquet` and `distributions.parquet`. With `--shard`, a shard's `shard.json` holds
//! its cells' tallies, and `sim merge` makes the whole tournament's files from them (see
//! [`Standings`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use polars::prelude::{Column, DataFrame};

use crate::error::{Result, SimError};
use crate::games::seats::Seating;
use crate::games::{Game, Tally};
use crate::report::tables::{interval, table};
use crate::report::terminal::{percent, thousands};
use crate::results::manifest::Command;
use crate::results::parquet::write_frame;
use crate::results::summary::SummaryRow;
use crate::sim::ratings::{Ratings, bradley_terry};
use crate::stats::interval::Proportion;

use super::args::CompareArgs;
use super::expand;
use super::grid::{CellSpec, Session};
use super::run::{load_rules, out_path};

/// What two policies did against each other over both seats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Meeting {
    /// Games played.
    pub games: u64,
    /// Games the row's policy won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
}

/// The meetings of `k` policies from the tallies of the ordered pairs `pairs` (first policy,
/// second policy), `(games, first policy's wins, draws)` each.
pub fn meetings(
    k: usize,
    pairs: &[(usize, usize)],
    cells: &[(u64, u64, u64)],
) -> Vec<Vec<Meeting>> {
    let mut m = vec![vec![Meeting::default(); k]; k];
    for (&(i, j), &(games, wins, draws)) in pairs.iter().zip(cells) {
        let losses = games - wins - draws;
        m[i][j].games += games;
        m[i][j].wins += wins;
        m[i][j].draws += draws;
        m[j][i].games += games;
        m[j][i].wins += losses;
        m[j][i].draws += draws;
    }
    m
}

/// Plays the tournament `args` describes and reports it.
pub fn execute<G: Game>(args: &CompareArgs) -> Result<ExitCode> {
    let names = expand::policies(&args.grid.policy)?;
    if names.len() < 2 {
        return Err(SimError::input(format!(
            "compare {}: a tournament needs at least two different policies (--policy A --policy B ...)",
            G::NAME
        )));
    }
    if args.baseline.is_some() || args.grid.seats.vs.is_some() || !args.grid.seats.seat.is_empty() {
        return Err(SimError::input(format!(
            "compare {}: a tournament plays every pair from both seats; --baseline, --vs and --seat do not apply",
            G::NAME
        )));
    }
    args.grid.games()?;
    let rules = load_rules::<G>(&args.grid.play, &[])?;
    let k = names.len();
    let pairs = ordered_pairs(k);
    let cells: Vec<G> = pairs
        .iter()
        .map(|&(i, j)| {
            let seating = Seating {
                policies: vec![names[i].clone(), names[j].clone()],
                swap: false,
            };
            G::new(rules.clone(), &seating)
        })
        .collect::<Result<_>>()?;
    let specs: Vec<CellSpec> = cells
        .iter()
        .map(|c| CellSpec {
            policy: c.policy_name().to_string(),
            params: Vec::new(),
        })
        .collect();
    let out = out_path(&args.grid.play, G::NAME, "tournament")?;
    let mut session = Session::new(&args.grid, &cells, &specs, out, Command::Tournament, None)?;
    let label = format!("{} tournament ({k} policies)", G::NAME);
    let played = session.play(false, &label)?;
    let standings = Standings::new(&played.rows, &played.run.tallies)?;
    let mut written = session.write(&played)?;
    written.extend(standings.write(session.dir())?);
    written.extend(session.report(&played)?);
    let mark = Session::<G>::header_mark(&played);
    session.finish(
        &played,
        &written,
        || standings.text(G::NAME, args.grid.play.seed, mark),
        None,
    )
}

/// A tournament's results: the policies, what each did against each other, and their ratings.
pub struct Standings {
    /// The policies, in `--policy` order.
    names: Vec<String>,
    /// `meetings[i][j]`: policy `i` against policy `j`, both seats.
    meetings: Vec<Vec<Meeting>>,
    /// The Bradley-Terry ratings.
    ratings: Ratings,
    /// The deals every ordered pair played.
    deals: u64,
}

impl Standings {
    /// The standings of a tournament's cells: every ordered pair of its policies (first policy
    /// in seat 0), in the order [`execute`] plays them, with the summary rows (whose policy reads
    /// "A vs B") and tallies of each. Refused if the cells are not such a set of pairs.
    pub fn new<T: Tally>(rows: &[SummaryRow], tallies: &[T]) -> Result<Self> {
        let cells = rows.len();
        let k = (2..=cells + 1)
            .find(|k| k * (k - 1) >= cells)
            .filter(|k| k * (k - 1) == cells)
            .ok_or_else(|| {
                SimError::input(format!(
                    "a tournament has k x (k - 1) cells, one per ordered pair; these are {cells}"
                ))
            })?;
        let pairs = ordered_pairs(k);
        let names = (0..k)
            .map(|i| {
                let c = pairs.iter().position(|&(a, _)| a == i).expect("a pair");
                rows[c]
                    .policy
                    .split(" vs ")
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        let counts: Vec<(u64, u64, u64)> = tallies
            .iter()
            .map(|t| (t.games(), t.wins(), t.draws()))
            .collect();
        let meetings = meetings(k, &pairs, &counts);
        let scores: Vec<Vec<f64>> = meetings
            .iter()
            .map(|row| {
                row.iter()
                    .map(|x| x.wins as f64 + x.draws as f64 / 2.0)
                    .collect()
            })
            .collect();
        Ok(Self {
            names,
            meetings,
            ratings: bradley_terry(&scores),
            deals: rows.first().map_or(0, |r| r.games),
        })
    }

    /// Writes `tournament.parquet` and `ratings.parquet` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        write_tables(dir, &self.names, &self.meetings, &self.ratings)
    }

    /// The report: the win matrix and the ratings of `game`'s tournament under `seed`, `mark`
    /// ending its first line (a stopped tournament's).
    pub fn text(&self, game: &str, seed: u64, mark: &str) -> String {
        let k = self.names.len();
        format!(
            "{game} tournament | {k} policies, every ordered pair on the same {} deals | seed {seed}{mark}\n",
            thousands(self.deals)
        ) + &matrix_text(&self.names, &self.meetings)
            + &ratings_text(&self.names, &self.meetings, &self.ratings)
    }
}

/// Every ordered pair `(i, j)` of `k` policies, `i != j`, `i` first then `j`.
fn ordered_pairs(k: usize) -> Vec<(usize, usize)> {
    (0..k)
        .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
        .collect()
}

fn matrix_text(names: &[String], m: &[Vec<Meeting>]) -> String {
    let mut headers = vec!["win rate of \\ against".to_string()];
    headers.extend(names.iter().cloned());
    let rows: Vec<Vec<String>> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut row = vec![name.clone()];
            row.extend(m[i].iter().enumerate().map(|(j, x)| {
                if i == j {
                    "-".to_string()
                } else {
                    let p = Proportion::wilson(x.wins, x.games);
                    format!("{} ({})", percent(p.rate), interval(p.low, p.high))
                }
            }));
            row
        })
        .collect();
    format!(
        "  win matrix (both seats, 95% Wilson intervals):\n{}",
        table(&headers, &rows, 1)
    )
}

fn ratings_text(names: &[String], m: &[Vec<Meeting>], r: &Ratings) -> String {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| r.elo[b].total_cmp(&r.elo[a]));
    let headers: Vec<String> = ["policy", "Elo", "95% interval", "games", "wins", "draws"]
        .map(String::from)
        .to_vec();
    let rows: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            let (lo, hi) = r.interval(i);
            let games: u64 = m[i].iter().map(|x| x.games).sum();
            let wins: u64 = m[i].iter().map(|x| x.wins).sum();
            let draws: u64 = m[i].iter().map(|x| x.draws).sum();
            vec![
                names[i].clone(),
                format!("{:+.0}", r.elo[i]),
                format!("{lo:+.0} to {hi:+.0}"),
                thousands(games),
                thousands(wins),
                thousands(draws),
            ]
        })
        .collect();
    let note = if r.smoothed {
        "  (some policy never won or never lost against the rest: every pair got half a virtual win each way)\n"
    } else {
        ""
    };
    format!(
        "  Bradley-Terry ratings (Elo scale, mean 0; 95% intervals from the observed information):\n{}{note}",
        table(&headers, &rows, 1)
    )
}

fn write_tables(
    dir: &Path,
    names: &[String],
    m: &[Vec<Meeting>],
    r: &Ratings,
) -> Result<Vec<PathBuf>> {
    let cells = ordered_pairs(names.len());
    let k = names.len();
    let rate = |&(i, j): &(usize, usize)| Proportion::wilson(m[i][j].wins, m[i][j].games);
    let frame = |columns: Vec<Column>| {
        DataFrame::new_infer_height(columns).map_err(|e| SimError::input(e.to_string()))
    };
    let mut matrix = frame(vec![
        Column::new(
            "policy".into(),
            cells
                .iter()
                .map(|&(i, _)| names[i].clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "opponent".into(),
            cells
                .iter()
                .map(|&(_, j)| names[j].clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "games".into(),
            cells
                .iter()
                .map(|&(i, j)| m[i][j].games)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "wins".into(),
            cells.iter().map(|&(i, j)| m[i][j].wins).collect::<Vec<_>>(),
        ),
        Column::new(
            "draws".into(),
            cells
                .iter()
                .map(|&(i, j)| m[i][j].draws)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "win_rate".into(),
            cells.iter().map(|c| rate(c).rate).collect::<Vec<_>>(),
        ),
        Column::new(
            "win_ci_low".into(),
            cells.iter().map(|c| rate(c).low).collect::<Vec<_>>(),
        ),
        Column::new(
            "win_ci_high".into(),
            cells.iter().map(|c| rate(c).high).collect::<Vec<_>>(),
        ),
    ])?;
    let bounds: Vec<(f64, f64)> = (0..k).map(|i| r.interval(i)).collect();
    let mut ratings = frame(vec![
        Column::new("policy".into(), names.to_vec()),
        Column::new("elo".into(), r.elo.clone()),
        Column::new("elo_se".into(), r.se.clone()),
        Column::new(
            "elo_ci_low".into(),
            bounds.iter().map(|b| b.0).collect::<Vec<_>>(),
        ),
        Column::new(
            "elo_ci_high".into(),
            bounds.iter().map(|b| b.1).collect::<Vec<_>>(),
        ),
        Column::new("smoothed".into(), vec![r.smoothed; k]),
    ])?;
    Ok(vec![
        write_frame(&dir.join("tournament.parquet"), &mut matrix)?,
        write_frame(&dir.join("ratings.parquet"), &mut ratings)?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meetings_add_both_seats_and_credit_the_second_policy_with_the_first_ones_losses() {
        // A vs B: 100 games, A (seat 0) won 60, 5 draws; B vs A: 100 games, B (seat 0) won 55,
        // 3 draws.
        let m = meetings(2, &[(0, 1), (1, 0)], &[(100, 60, 5), (100, 55, 3)]);
        assert_eq!(
            m[0][1],
            Meeting {
                games: 200,
                wins: 60 + 42,
                draws: 8
            }
        );
        assert_eq!(
            m[1][0],
            Meeting {
                games: 200,
                wins: 55 + 35,
                draws: 8
            }
        );
    }
}
