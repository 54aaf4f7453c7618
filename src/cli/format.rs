//! How a command prints its report: `--format text|json` and `-q/--quiet`, shared by every
//! command that plays or solves, and `--report`, which also writes the HTML report. The other
//! files are written the same whichever is chosen.

use clap::{Args, ValueEnum};
use serde_json::Value;

use crate::sim::progress::Progress;

/// The form of the report on standard output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables and bars for a person.
    #[default]
    Text,
    /// One JSON document on one line (see docs/output-files.md).
    Json,
}

/// `--format`, `--quiet` and `--report`.
#[derive(Args, Clone, Debug, Default)]
pub struct ReportArgs {
    /// Print the report as text, or as one JSON document on stdout (see docs/output-files.md)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print nothing but errors: no progress bar, no report (the files are still written)
    #[arg(long, short, conflicts_with = "format")]
    pub quiet: bool,
    /// Also write report.html beside the files: one self-contained page of figures with their
    /// 95% intervals, to open in a browser, mail or print (see docs/report.md)
    #[arg(long = "report")]
    pub html: bool,
}

impl ReportArgs {
    /// A progress bar over `total` games, hidden under `--quiet`.
    pub fn progress(&self, total: u64, label: &str) -> Progress {
        if self.quiet {
            Progress::hidden()
        } else {
            Progress::new(total, label)
        }
    }

    /// Prints the report: `text()` or `json()` as `--format` says, nothing under `--quiet`. Each
    /// is made only if it is printed.
    pub fn print(&self, text: impl FnOnce() -> String, json: impl FnOnce() -> Value) {
        if self.quiet {
            return;
        }
        match self.format {
            Format::Text => super::output::text(&text()),
            Format::Json => {
                let doc = serde_json::to_string(&json()).expect("a JSON value prints");
                super::output::text(&(doc + "\n"));
            }
        }
    }
}
