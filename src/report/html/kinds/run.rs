//! A run (`sim <game>`): the headline win rate with its interval, the game's figures, each
//! distribution as a histogram, and for games of several seats the figures seat by seat.

use serde_json::Value;

use crate::error::Result;
use crate::games::seats::Table;
use crate::report::tables::points;
use crate::report::terminal::{percent, thousands};

use super::super::command::CommandLine;
use super::super::figure::intervals::{Row as Bar, intervals};
use super::super::figure::scale::Scale;
use super::super::page::{Block, Cell, DataTable, Figure, Headline, Note, Section};
use super::super::{Context, Folder, Kind};
use super::{
    DISTRIBUTIONS, histogram_figure, interval_text, is_timing, mean_cell, speed_lines,
    summary_facts, verdict, words,
};
use crate::results::read_back::{Cell as SummaryCell, Results};

/// The kind of `sim <game>`'s folder: a summary of one row (what no other kind claims).
pub struct Run;

impl Kind for Run {
    fn name(&self) -> &'static str {
        "run"
    }

    fn recognizes(&self, folder: &Folder) -> bool {
        folder.has("summary.parquet")
    }

    fn section(&self, folder: &Folder, context: &Context) -> Result<Section> {
        let results = Results::read(folder)?;
        let table = context.game(&results.game)?.table;
        let mut sections = Vec::new();
        for (i, cell) in results.cells.iter().enumerate() {
            sections.push(cell_blocks(&results, i, cell, table)?);
        }
        let cell = results.cells.first();
        let policy = cell.map_or(String::new(), |c| c.policy.clone());
        let mut command = CommandLine::new(&[&results.game]);
        command.seating(&policy);
        let facts = summary_facts(&results, context, command, vec![policy.clone()])?;
        let games = cell.map_or(0, |c| c.games);
        let mut section = Section::new(
            self.name(),
            format!("{}: {policy}, {} games", results.game, thousands(games)),
            facts,
        );
        section.timing = speed_lines(context);
        section.blocks = sections.into_iter().flatten().collect();
        section.verdict = results
            .cells
            .iter()
            .map(|c| run_verdict(c, table))
            .collect();
        Ok(section)
    }
}

/// The page's verdict on a run's row: its win rate in words, and a duel's first-move
/// advantage.
fn run_verdict(cell: &SummaryCell, table: Table) -> String {
    let first_move = cell.interval(
        "first_move_adv",
        "first_move_adv_low",
        "first_move_adv_high",
    );
    match (table, cell.policy.split_once(" vs ")) {
        (Table::Duel, Some((a, b))) => verdict::duel(a, b, &cell.win, first_move.as_ref()),
        (Table::Duel, None) => {
            let mut s = verdict::run(
                &format!("Seat 0 ({} in both seats)", cell.policy),
                &cell.win,
            );
            if let Some(adv) = &first_move {
                s = format!("{s} {}", verdict::first_move_sentence(adv));
            }
            s
        }
        (Table::Team, _) => verdict::run(&format!("The table ({})", cell.policy), &cell.win),
        (Table::Solo, _) => verdict::run(&cell.policy, &cell.win),
    }
}

/// The blocks of summary row `i`: headline, seats, histograms, the table of every figure.
fn cell_blocks(
    results: &Results,
    i: usize,
    cell: &SummaryCell,
    table: Table,
) -> Result<Vec<Block>> {
    // A run has one row; a folder of several (as no command writes) keeps its ids apart.
    let prefix = if i == 0 {
        String::new()
    } else {
        format!("row{i}-")
    };
    let mut blocks = vec![Block::Headline(Headline {
        label: headline_label(&cell.policy, table),
        value: Cell::number("win_rate", cell.win.value, percent(cell.win.value)),
        interval: format!(
            "({}; {} of {} games)",
            interval_text(&cell.win),
            thousands(cell.wins),
            thousands(cell.games)
        ),
    })];
    let mut shown: Vec<String> = Vec::new();
    match table {
        Table::Duel => blocks.extend(duel_blocks(cell, i, &prefix, &mut shown)?),
        Table::Team => blocks.extend(team_blocks(cell, i, &prefix)),
        Table::Solo => {}
    }
    let mut figures = DataTable::new(
        format!("{prefix}figures"),
        "The figures (the game's are means over the games)",
        &["figure", "value"],
    )
    .from_file("summary.parquet");
    let key = i.to_string();
    figures.push(
        key.clone(),
        vec![
            Cell::text("games"),
            Cell::number("games", cell.games, thousands(cell.games)),
        ],
    );
    figures.push(
        key.clone(),
        vec![
            Cell::text("wins"),
            Cell::number("wins", cell.wins, thousands(cell.wins)),
        ],
    );
    for (label, col, value) in [
        ("win rate", "win_rate", cell.win.value),
        ("its 95% interval: low", "win_ci_low", cell.win.low),
        ("high", "win_ci_high", cell.win.high),
    ] {
        figures.push(
            key.clone(),
            vec![Cell::text(label), Cell::number(col, value, percent(value))],
        );
    }
    for (name, value) in cell.means.iter().filter(|(n, _)| !shown.contains(n)) {
        figures.push_timed(
            i.to_string(),
            vec![Cell::text(words(name)), mean_cell(name, *value)],
            is_timing(name),
        );
    }
    for dist in results.distributions_of(i) {
        blocks.push(Block::Figure(histogram_figure(
            dist,
            &prefix,
            &DISTRIBUTIONS,
        )?));
    }
    blocks.push(Block::Table(figures));
    Ok(blocks)
}

/// What the headline rate is: a solo or team win, or at a duel the first policy's wins.
fn headline_label(policy: &str, table: Table) -> String {
    match (table, policy.split_once(" vs ")) {
        (Table::Duel, Some((a, b))) => format!("{a} wins against {b}, both seats"),
        (Table::Duel, None) => format!("seat 0 wins ({policy} in both seats)"),
        (Table::Team, _) => "the table wins".to_string(),
        (Table::Solo, _) => "win rate".to_string(),
    }
}

/// A duel's seat figures: the win rates by seat with intervals, and each `*_seatK` column side
/// by side. The columns shown are added to `shown`.
fn duel_blocks(
    cell: &SummaryCell,
    i: usize,
    prefix: &str,
    shown: &mut Vec<String>,
) -> Result<Vec<Block>> {
    let first = cell.policy.split_once(" vs ").map(|(a, _)| a.to_string());
    let mut bars = Vec::new();
    let mut rates = DataTable::new(
        format!("{prefix}seat-rates"),
        "Win rates by seat (95% intervals)",
        &["", "rate", "low", "high"],
    )
    .from_file("summary.parquet");
    let mut wanted: Vec<(String, &str, &str, &str)> = Vec::new();
    if let Some(a) = &first {
        wanted.push((
            format!("{a} as seat 0 (moves first)"),
            "win_as_seat0",
            "win_as_seat0_low",
            "win_as_seat0_high",
        ));
        wanted.push((
            format!("{a} as seat 1"),
            "win_as_seat1",
            "win_as_seat1_low",
            "win_as_seat1_high",
        ));
    }
    wanted.push((
        "seat 0, whichever policy".to_string(),
        "seat0_win_rate",
        "seat0_win_low",
        "seat0_win_high",
    ));
    for (label, rate, low, high) in wanted {
        let Some(iv) = cell.interval(rate, low, high) else {
            continue;
        };
        rates.push(
            i.to_string(),
            vec![
                Cell::text(&label),
                Cell::number(rate, iv.value, percent(iv.value)),
                Cell::number(low, iv.low, percent(iv.low)),
                Cell::number(high, iv.high, percent(iv.high)),
            ],
        );
        shown.extend([rate, low, high].map(String::from));
        bars.push(Bar {
            label,
            value: iv.value,
            low: iv.low,
            high: iv.high,
            wide: None,
        });
    }
    let mut blocks = Vec::new();
    if !bars.is_empty() {
        let caption = "Win rates by seat with 95% intervals; the dashed line is an even game.";
        let svg = intervals(&bars, "win rate", Scale::Percent, Some(0.5), caption)?;
        blocks.push(Block::Figure(
            Figure::new(format!("{prefix}seats"), caption.to_string(), svg).with_data(rates),
        ));
    }
    if let Some(adv) = cell.interval(
        "first_move_adv",
        "first_move_adv_low",
        "first_move_adv_high",
    ) {
        shown.extend(
            [
                "first_move_adv",
                "first_move_adv_low",
                "first_move_adv_high",
            ]
            .map(String::from),
        );
        let mut t = DataTable::new(
            format!("{prefix}first-move"),
            "First-move advantage: seat 0's win rate minus seat 1's (95% interval, paired per game)",
            &["", "difference", "low", "high"],
        )
        .from_file("summary.parquet");
        t.push(
            i.to_string(),
            vec![
                Cell::text("first-move advantage"),
                Cell::number("first_move_adv", adv.value, points(adv.value)),
                Cell::number("first_move_adv_low", adv.low, points(adv.low)),
                Cell::number("first_move_adv_high", adv.high, points(adv.high)),
            ],
        );
        blocks.push(Block::Table(t));
    }
    let seats = per_seat_table(cell, i, prefix, shown);
    blocks.extend(seats.map(Block::Table));
    Ok(blocks)
}

/// The columns named `<figure>_seatK`, one row per figure, one column per seat.
fn per_seat_table(
    cell: &SummaryCell,
    i: usize,
    prefix: &str,
    shown: &mut Vec<String>,
) -> Option<DataTable> {
    let mut bases: Vec<String> = Vec::new();
    for (name, _) in cell.means.iter().filter(|(n, _)| !shown.contains(n)) {
        if let Some((base, seat)) = name.rsplit_once("_seat")
            && !seat.is_empty()
            && seat.chars().all(|c| c.is_ascii_digit())
            && !bases.iter().any(|b| b == base)
        {
            bases.push(base.to_string());
        }
    }
    if bases.is_empty() {
        return None;
    }
    let mut t = DataTable::new(
        format!("{prefix}per-seat"),
        "Each seat's figures (means over the games)",
        &["figure", "seat 0", "seat 1"],
    )
    .from_file("summary.parquet");
    for base in bases {
        let mut cells = vec![Cell::text(words(&base))];
        for seat in 0..2 {
            let name = format!("{base}_seat{seat}");
            match cell.mean(&name) {
                Some(v) => {
                    cells.push(mean_cell(&name, v));
                    shown.push(name);
                }
                None => cells.push(Cell::text("")),
            }
        }
        t.push(i.to_string(), cells);
    }
    Some(t)
}

/// A team's seats: who sits where (the team wins or loses together, so every figure is the
/// table's).
fn team_blocks(cell: &SummaryCell, i: usize, prefix: &str) -> Vec<Block> {
    let players = serde_json::from_str::<Value>(&cell.rules)
        .ok()
        .and_then(|r| r.get("players")?.as_u64())
        .unwrap_or(1) as usize;
    let mut parts = cell.policy.split("; seat ");
    let everyone = parts.next().unwrap_or_default().to_string();
    let mut seats = vec![everyone; players];
    for part in parts {
        if let Some((k, policy)) = part.split_once(' ')
            && let Ok(k) = k.parse::<usize>()
            && k < players
        {
            seats[k] = policy.to_string();
        }
    }
    let mut t = DataTable::new(
        format!("{prefix}seats"),
        format!(
            "The table: {players} {} who win or lose together",
            if players == 1 { "player" } else { "players" }
        ),
        &["seat", "policy"],
    );
    for (k, policy) in seats.iter().enumerate() {
        t.push(
            format!("{i}-{k}"),
            vec![Cell::text(format!("seat {k}")), Cell::text(policy)],
        );
    }
    vec![
        Block::Table(t),
        Block::Note(Note {
            text: "A team's outcome is shared: every figure below is the table's.".into(),
        }),
    ]
}
