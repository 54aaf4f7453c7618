//! `sim play --hints P` showing each choice's value where P has one, in a real pseudo-terminal:
//! Junkyard `greedy` (its score of the attack each choice leaves, and the worth each split
//! destroys), against another policy set with `--vs`.

#[path = "common/pty.rs"]
mod pty;

use pty::{Pty, next};

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
        assert!(!screen.contains("hint (greedy vs simple)"), "{screen}");
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
