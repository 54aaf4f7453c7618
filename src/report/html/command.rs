//! The command line a report states: rebuilt from what the files record (game, policies, seed,
//! games, rules, varied values), so that it makes the same files again, and a report made from
//! merged shards states the same command as the single run's.

/// A `sim` command line being built, one word at a time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandLine {
    words: Vec<String>,
}

impl CommandLine {
    /// `sim` followed by `words`.
    pub fn new(words: &[&str]) -> Self {
        let mut line = Self {
            words: vec!["sim".to_string()],
        };
        line.words.extend(words.iter().map(|w| w.to_string()));
        line
    }

    /// Adds a flag with its value.
    pub fn arg(&mut self, flag: &str, value: impl Into<String>) -> &mut Self {
        self.words.push(flag.to_string());
        self.words.push(value.into());
        self
    }

    /// Adds a flag without a value.
    pub fn flag(&mut self, flag: &str) -> &mut Self {
        self.words.push(flag.to_string());
        self
    }

    /// Adds the seats of a seating's display name: `--policy A`, then `--vs B` for a duel
    /// (`A vs B`) or `--seat K=B` for each seat that differs at a team (`A; seat K B`).
    pub fn seating(&mut self, label: &str) -> &mut Self {
        if let Some((first, second)) = label.split_once(" vs ") {
            return self.arg("--policy", first).arg("--vs", second);
        }
        let mut parts = label.split("; seat ");
        self.arg("--policy", parts.next().unwrap_or_default());
        for seat in parts {
            if let Some((k, policy)) = seat.split_once(' ') {
                self.arg("--seat", format!("{k}={policy}"));
            }
        }
        self
    }

    /// Adds `--games N`, written short where it can be (10M, 250K).
    pub fn games(&mut self, games: u64) -> &mut Self {
        self.arg("--games", count(games))
    }

    /// Adds `--set rule=value` for each changed rule (`--players N` for the rule `players`, as
    /// people write it).
    pub fn rules(&mut self, changed: &[(String, String)]) -> &mut Self {
        for (rule, value) in changed {
            if rule == "players" {
                self.arg("--players", value.clone());
            } else {
                self.arg("--set", format!("{rule}={value}"));
            }
        }
        self
    }

    /// The words as a shell reads them: any with spaces or shell characters single-quoted.
    pub fn shell_words(&self) -> Vec<String> {
        self.words.iter().map(|w| quoted(w)).collect()
    }

    /// The line as a shell reads it.
    pub fn text(&self) -> String {
        self.shell_words().join(" ")
    }
}

/// `word` as the shell takes it literally.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,/=:+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A game count as `--games` takes it, short where exact: 10000000 is 10M, 250000 is 250K.
pub fn count(n: u64) -> String {
    for (size, suffix) in [(1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")] {
        if n >= size && n.is_multiple_of(size) {
            return format!("{}{suffix}", n / size);
        }
    }
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings_become_the_flags_that_seat_them() {
        let mut duel = CommandLine::new(&["junkyard"]);
        duel.seating("greedy vs simple");
        assert_eq!(duel.text(), "sim junkyard --policy greedy --vs simple");
        let mut team = CommandLine::new(&["regicide"]);
        team.seating("heuristic; seat 2 simple; seat 3 random");
        assert_eq!(
            team.text(),
            "sim regicide --policy heuristic --seat 2=simple --seat 3=random"
        );
        let mut solo = CommandLine::new(&["crownfall"]);
        solo.seating("bank-at-17")
            .games(10_000_000)
            .arg("--seed", "7");
        assert_eq!(
            solo.text(),
            "sim crownfall --policy bank-at-17 --games 10M --seed 7"
        );
    }

    #[test]
    fn words_the_shell_would_split_are_quoted() {
        let mut line = CommandLine::new(&["sweep"]);
        line.arg("--set", "name=two words").arg("--set", "x=it's");
        assert_eq!(
            line.text(),
            r"sim sweep --set 'name=two words' --set 'x=it'\''s'"
        );
    }
}
