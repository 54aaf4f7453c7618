//! The HTML report (`sim report`, `--report`): one self-contained page made from the files a
//! command wrote. Figures are inline SVG (plotters), the page a template (askama); no script,
//! no font, nothing loaded from elsewhere, so it opens offline, by mail, and prints.
//!
//! Each kind of result is one module of [`kinds`] behind the [`Kind`] trait: it recognizes its
//! folder by the files in it and turns them into a [`Section`]. A new kind
//! is one more module and one more line in [`KINDS`].

pub mod command;
pub mod facts;
pub mod figure;
pub mod kinds;
pub mod page;

use std::path::{Path, PathBuf};

use crate::error::{Result, SimError};

use crate::files::write_text;
use crate::results::summary::Speed;

pub use crate::results::folder::Folder;
pub use facts::GameFacts;
pub use page::Section;

/// The report's file name in a results folder.
pub const FILE: &str = "report.html";

/// What a kind may read besides its folder.
pub struct Context<'a> {
    /// The games sim knows (their tables and default rules).
    pub games: &'a [GameFacts],
    /// The speed of the command that just wrote the folder, when it makes the report itself
    /// (`--report`); a report made later from the files has none.
    pub speed: Option<Speed>,
}

impl Context<'_> {
    /// The facts of `game`, or an error naming the games sim knows.
    pub fn game(&self, game: &str) -> Result<&GameFacts> {
        self.games.iter().find(|g| g.name == game).ok_or_else(|| {
            let known: Vec<&str> = self.games.iter().map(|g| g.name).collect();
            SimError::input(format!(
                "the results are of game {game:?}, which this sim does not know (it knows {})",
                known.join(", ")
            ))
        })
    }
}

/// A kind of result the report can show.
pub trait Kind: Sync {
    /// The kind's name (`run`, `compare`, ...), used in the page's classes and anchors.
    fn name(&self) -> &'static str;
    /// True if `folder` holds a result of this kind.
    fn recognizes(&self, folder: &Folder) -> bool;
    /// The section showing the result in `folder`.
    fn section(&self, folder: &Folder, context: &Context) -> Result<Section>;
}

/// Every kind, the most particular first: a folder is shown by the first that recognizes it
/// (a tournament's or a balance search's folder also holds a summary, which alone would be a
/// run's or a sweep's; a sweep's summary has a `baseline` column as a comparison's does, and its
/// varied rules' columns, which a comparison's has not).
pub const KINDS: &[&dyn Kind] = &[
    &kinds::solve::Solve,
    &kinds::evaluate::Evaluate,
    &kinds::brief::Brief,
    &kinds::balance::Balance,
    &kinds::tournament::Tournament,
    &kinds::sweep::Sweep,
    &kinds::compare::Compare,
    &kinds::run::Run,
];

/// The section of the result in `folder`, by the first kind that recognizes it.
pub fn section(folder: &Folder, context: &Context) -> Result<Section> {
    let kind = KINDS
        .iter()
        .find(|k| k.recognizes(folder))
        .ok_or_else(|| {
            SimError::input(format!(
                "{}: no sim results here (a run, compare, sweep or tournament writes summary.parquet, sim evaluate evaluate.parquet, sim balance balance.parquet; sim solve --report writes solve.json)",
                folder.path().display()
            ))
        })?;
    let mut section = kind.section(folder, context)?;
    section.facts.warnings.extend(shard_note(folder)?);
    Ok(section)
}

/// For a folder that holds one shard of a run split into several (its `shard.json` says so):
/// a note that its figures are of that shard's games only.
pub fn shard_note(folder: &Folder) -> Result<Option<String>> {
    let name = crate::results::manifest::SHARD_FILE;
    if !folder.has(name) {
        return Ok(None);
    }
    let record = folder.json(name)?;
    let number = |field: &str, key: Option<&str>| {
        let value = record.get(field);
        let value = match key {
            Some(key) => value.and_then(|v| v.get(key)),
            None => value,
        };
        value.and_then(serde_json::Value::as_u64).ok_or_else(|| {
            SimError::input(format!(
                "{}: no whole number {field}{} in it",
                folder.path().join(name).display(),
                key.map(|k| format!(".{k}")).unwrap_or_default()
            ))
        })
    };
    let (index, count) = (
        number("shard", Some("index"))?,
        number("shard", Some("count"))?,
    );
    if count <= 1 {
        return Ok(None);
    }
    let (start, end) = (number("start", None)?, number("end", None)?);
    Ok(Some(format!(
        "One shard of several: {} is shard {index} of {count} (game indices {start} to {}), so its figures are of those games only; sim merge the {count} shards for the whole run's.",
        folder.path().display(),
        end.saturating_sub(1)
    )))
}

/// The page showing the results in `folders`, one section each, in order.
pub fn render(folders: &[Folder], context: &Context) -> Result<String> {
    let mut sections = folders
        .iter()
        .map(|folder| section(folder, context))
        .collect::<Result<Vec<_>>>()?;
    kinds::compare::share_forest_scale(folders, &mut sections)?;
    distinct_titles(folders, &mut sections);
    page::render(sections)
}

/// Sections of one page that would share a title (two comparisons of the same game and size)
/// each add their folder to it, so that the contents and the headings tell them apart.
fn distinct_titles(folders: &[Folder], sections: &mut [Section]) {
    let titles: Vec<String> = sections.iter().map(|s| s.title.clone()).collect();
    for (i, section) in sections.iter_mut().enumerate() {
        if titles.iter().filter(|t| **t == titles[i]).count() > 1 {
            section.title = format!("{} ({})", section.title, folders[i].path().display());
        }
    }
}

/// Makes the report of the results a command just wrote into `dir` and writes it there as
/// [`FILE`], with the command's `speed`: what `--report` does after the other files.
pub fn write_beside(dir: &Path, games: &[GameFacts], speed: Option<Speed>) -> Result<PathBuf> {
    let context = Context { games, speed };
    let html = render(&[Folder::open(dir)?], &context)?;
    write_text(&dir.join(FILE), &html)
}
