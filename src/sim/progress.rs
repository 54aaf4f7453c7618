//! The progress bar: games done, games per second and time left, on stderr when it is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

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
            "{prefix} {wide_bar} {human_pos}/{human_len} games  {per_sec}  ETA {eta}",
        )
        .expect("the template is valid");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        Self { bar: Some(bar) }
    }

    /// A progress bar that draws nothing.
    pub fn hidden() -> Self {
        Self { bar: None }
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
