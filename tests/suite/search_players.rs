//! The generic search players in every game: `pimc` and `ismcts`, by default and with a budget,
//! give the same games on one thread and on two (all but the timing columns), in every seat
//! arrangement the game has.

use crate::common::*;

/// Columns that time a search: the only ones allowed to differ between runs.
const TIMING: &[&str] = &["search_us"];

/// Runs `args` on 1 and 2 threads and checks the per-game files agree but for their timing.
fn same_on_1_and_2_threads(name: &str, args: &[&str]) {
    let tmp = TempDir::new(name);
    let mut all = args.to_vec();
    all.extend(["--per-game", "--seed", "5", "-q"]);
    let runs = on_1_and_2_threads(&tmp, &all);
    let frames = runs.each_ref().map(|(dir, _)| {
        let mut games = read_parquet(&dir.join("games.parquet"));
        for column in TIMING {
            if column_names(&games).iter().any(|c| c == column) {
                games = games.drop(column).unwrap();
            }
        }
        games
    });
    assert!(frames[0].height() > 0, "{args:?} played no games");
    assert!(
        frames[0].equals(&frames[1]),
        "{args:?} differs between 1 and 2 threads:\n{:?}\n{:?}",
        frames[0],
        frames[1]
    );
}

#[test]
fn crownfall_search_players_are_the_same_on_any_thread_count() {
    for policy in ["pimc", "ismcts", "pimc-7", "ismcts-30"] {
        same_on_1_and_2_threads(
            &format!("search_cf_{policy}"),
            &["crownfall", "--policy", policy, "--games", "40"],
        );
    }
}

#[test]
fn regicide_search_players_are_the_same_on_any_thread_count_at_1_to_4_players() {
    same_on_1_and_2_threads(
        "search_rg_defaults",
        &[
            "regicide", "--policy", "pimc", "--seat", "0=ismcts", "--games", "2",
        ],
    );
    for players in ["1", "2", "3", "4"] {
        same_on_1_and_2_threads(
            &format!("search_rg_{players}"),
            &[
                "regicide",
                "--players",
                players,
                "--policy",
                "ismcts-20",
                "--seat",
                "0=pimc-3",
                "--games",
                "4",
            ],
        );
    }
}

#[test]
fn scoundrel_search_players_are_the_same_on_any_thread_count() {
    for (policy, sets) in [
        ("pimc", "avoid_order=keep"),
        ("ismcts", "avoid_order=keep"),
        ("pimc-3", "avoid_order=shuffle"),
        ("ismcts-30", "avoid_order=reshuffle"),
    ] {
        same_on_1_and_2_threads(
            &format!("search_sc_{policy}"),
            &[
                "scoundrel",
                "--policy",
                policy,
                "--set",
                sets,
                "--games",
                "6",
            ],
        );
    }
}

#[test]
fn junkyard_search_players_are_the_same_on_any_thread_count_in_either_seat() {
    // A duel plays each deal in both seat orders: the search player first and second.
    for (name, policy, vs, games) in [
        ("search_jy_defaults", "ismcts", "pimc", "2"),
        ("search_jy_ismcts", "ismcts-40", "greedy", "12"),
        ("search_jy_pimc", "greedy", "pimc-4", "12"),
    ] {
        same_on_1_and_2_threads(
            name,
            &["junkyard", "--policy", policy, "--vs", vs, "--games", games],
        );
    }
}
