//! `sim play --hints P` showing each choice's value where P has one, in a real pseudo-terminal:
//! Junkyard `greedy` (its score of the attack each choice leaves, and the worth each split
//! destroys), against another policy set with `--vs`; the search players `pimc` (each move's mean
//! value) and `ismcts` (each root move's visits) of Regicide and Scoundrel, whole games played
//! by their hints.

use crate::common::pty::{Pty, next};

/// The values after `label` in `screen`: "1) 3.00  2) lethal" as (choice, value; lethal as
/// infinity).
fn values(screen: &str, label: &str) -> Option<Vec<(usize, f64)>> {
    let line = screen.lines().find(|l| l.trim_start().starts_with(label))?;
    let rest = line.trim_start()[label.len()..].trim();
    Some(
        rest.split("  ")
            .map(|part| {
                let (n, v) = part.trim().split_once(") ").expect("N) value");
                let v = if v == "lethal" {
                    f64::INFINITY
                } else {
                    v.parse().expect("a number")
                };
                (n.parse().expect("a choice number"), v)
            })
            .collect(),
    )
}

const ATTACK: &str = "score of the attack each choice leaves:";
const SPLIT: &str = "worth each split destroys:";

#[test]
fn junkyard_greedy_hints_value_each_attack_choice_and_the_advice_scores_best() {
    // The person follows the advice: at an attack with nobody chosen yet, the advised attack's
    // first automaton (or no attack); elsewhere the first choice.
    let mut p = Pty::spawn(&[
        "junkyard", "--seed", "42", "--game", "5", "--hints", "greedy", "--vs", "simple",
    ]);
    let (mut attack_screens, mut checked, mut prompts) = (0, 0, 0);
    loop {
        let (screen, prompt) = next(&mut p);
        if !prompt {
            break;
        }
        prompts += 1;
        assert!(!screen.contains("greedy vs simple"), "{screen}");
        let mut answer = "1".to_string();
        if let Some(scores) = values(&screen, ATTACK) {
            attack_screens += 1;
            let choices = screen
                .lines()
                .filter(|l| l.starts_with("  ") && l.trim_start().starts_with(char::is_numeric))
                .filter(|l| l.contains(") "))
                .count();
            assert_eq!(scores.len(), choices, "a value for every choice: {screen}");
            // Nobody chosen yet: the advice (over every subset) scores at least as well as any
            // single automaton or none, the choices shown.
            if screen.contains("1) no attack: end the turn") {
                let hint = screen
                    .lines()
                    .find(|l| l.starts_with("hint (greedy): "))
                    .expect("a hint");
                let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
                let picks = hint.matches('#').count();
                if hint.ends_with("no attack") {
                    assert_eq!(scores[0].1, best, "{screen}");
                    checked += 1;
                } else if picks == 1 {
                    let k: usize = hint.split('#').nth(1).unwrap()[..1].parse().unwrap();
                    assert_eq!(scores[k].1, best, "{screen}");
                    answer = (k + 1).to_string();
                    checked += 1;
                }
            }
        }
        if let Some(worth) = values(&screen, SPLIT) {
            assert!(worth.iter().all(|w| w.1 >= 0.0), "{screen}");
        }
        p.send_line(&answer);
        assert!(prompts < 2000, "the game ends");
    }
    assert!(
        attack_screens > 0 && checked > 0,
        "{attack_screens} {checked}"
    );
    assert_eq!(p.exit_code(), 0);
}

/// The choice number a hint line names: "hint (P): 7) play 10H".
fn hinted(screen: &str) -> Option<usize> {
    let line = screen.lines().find(|l| l.starts_with("hint ("))?;
    let rest = line.split("): ").nth(1)?;
    rest.split(')').next()?.parse().ok()
}

/// A whole solo game (`sim play ARGS`) played by following its hints; `check` sees each
/// screen that shows values, with the hinted choice. Returns the screens with values.
fn follow_hints(args: &[&str], label: &str, check: impl Fn(&str, usize)) -> usize {
    let mut p = Pty::spawn(args);
    let mut valued = 0;
    loop {
        let (screen, prompt) = next(&mut p);
        if !prompt {
            break;
        }
        let pick = hinted(&screen).unwrap_or_else(|| panic!("a hint: {screen}"));
        if screen.contains(label) {
            valued += 1;
            check(&screen, pick);
        }
        p.send_line(&pick.to_string());
    }
    assert_eq!(p.exit_code(), 0);
    valued
}

/// A PIMC hint screen: each move's mean value (a win 1, progress adding up to 0.2), the hint
/// the best mean.
fn pimc_names_the_best_mean(screen: &str, pick: usize, label: &str) {
    let means = values(screen, label).expect("values");
    let best = means.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
    let of_pick = means.iter().find(|m| m.0 == pick).map(|m| m.1);
    assert_eq!(of_pick, Some(best), "the hint is the best mean: {screen}");
    assert!(means.iter().all(|m| (0.0..=1.2).contains(&m.1)), "{screen}");
}

/// An ISMCTS hint screen: each root move's visits (at most `simulations` in all), the hint the
/// most visited.
fn ismcts_names_the_most_visited(screen: &str, pick: usize, label: &str, simulations: u32) {
    let line = screen.lines().find(|l| l.contains(label)).unwrap();
    let visits: Vec<(usize, u32)> = line[line.find(label).unwrap() + label.len()..]
        .split("  ")
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            let (n, rest) = s.trim().split_once(") ").unwrap();
            (
                n.parse().unwrap(),
                rest.split(' ').next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    let total: u32 = visits.iter().map(|v| v.1).sum();
    assert!(total <= simulations && total > 0, "{screen}");
    let most = visits.iter().map(|v| v.1).max().unwrap();
    let of_pick = visits.iter().find(|v| v.0 == pick).map(|v| v.1);
    assert_eq!(
        of_pick,
        Some(most),
        "the hint is the most visited: {screen}"
    );
}

const REGICIDE: [&str; 5] = ["regicide", "--seed", "7", "--game", "6"];
const SCOUNDREL: [&str; 5] = ["scoundrel", "--seed", "7", "--game", "6"];

/// `sim play` of `game` with `--hints hints`.
fn with_hints<'a>(game: &[&'a str; 5], hints: &'a str) -> Vec<&'a str> {
    let mut args = game.to_vec();
    args.extend(["--hints", hints]);
    args
}

#[test]
fn pimc_hints_give_each_moves_mean_value_and_name_the_best() {
    let label = "mean value over 8 worlds:";
    for game in [REGICIDE, SCOUNDREL] {
        let valued = follow_hints(&with_hints(&game, "pimc-8"), label, |screen, pick| {
            pimc_names_the_best_mean(screen, pick, label)
        });
        assert!(valued >= 3, "{} {valued}", game[0]);
    }
}

#[test]
fn ismcts_hints_give_each_root_moves_visits_and_name_the_most_visited() {
    let label = "visits (mean value) of each move over 60 simulations:";
    for game in [REGICIDE, SCOUNDREL] {
        let valued = follow_hints(&with_hints(&game, "ismcts-60"), label, |screen, pick| {
            ismcts_names_the_most_visited(screen, pick, label, 60)
        });
        assert!(valued >= 3, "{} {valued}", game[0]);
    }
}
