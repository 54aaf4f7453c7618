//! The progress bar: games done, games per second and time left, on stderr when it is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use crate::report::terminal::per_second;

/// The bar's rate: games per second in at most three significant digits, `12.3K games/s`.
pub fn rate_text(games_per_second: f64) -> String {
    let rate = if games_per_second.is_finite() {
        games_per_second.max(0.0)
    } else {
        0.0
    };
    format!("{} games/s", per_second(rate))
}

/// A progress bar over a number of games, or nothing when stderr is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` games, shown only if stderr is a terminal.
    pub fn new(total: u64, label: &str) -> Self {
        if !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template(
            "{prefix} {wide_bar} {human_pos}/{human_len} games  {rate}  ETA {eta}",
        )
        .expect("the template is valid")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate_text(state.per_sec()));
            },
        );
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        Self { bar: Some(bar) }
    }

    /// A progress bar that draws nothing.
    pub fn hidden() -> Self {
        Self { bar: None }
    }

    /// Changes the label before the bar (what is left to play, say).
    pub fn relabel(&self, label: &str) {
        if let Some(bar) = &self.bar {
            bar.set_prefix(label.to_string());
        }
    }

    /// Counts `games` more games done.
    pub fn advance(&self, games: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(games);
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn the_rate_reads_in_a_few_digits() {
        assert_eq!(rate_text(1234.5678), "1.2K games/s");
        assert_eq!(rate_text(12.3456), "12 games/s");
        assert_eq!(rate_text(4_567_890.123), "4.57M games/s");
        assert_eq!(rate_text(f64::NAN), "0 games/s");
    }
}
