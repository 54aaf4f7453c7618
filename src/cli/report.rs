//! `sim report DIR... [--out FILE]`: the HTML report of results already written, and
//! `--report` on the commands that write them (see [`crate::report::html`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::error::{Result, SimError};
use crate::files::{ensure_writable_dir, write_text};
use crate::games::Game;
use crate::report::html::{self, Context, Folder, GameFacts};
use crate::results::summary::Speed;

use super::GameEntry;
use super::format::ReportArgs;
use super::outputs::{Paths, Shape};

/// `sim report`: results folders in, one HTML page out.
#[derive(Args, Clone, Debug)]
pub struct ReportCmdArgs {
    /// Results folders, as the commands wrote them (a run, compare, sweep, tournament,
    /// evaluate, balance, merged shards, or sim solve --report); several make one page, in
    /// this order
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The page to write [default: DIR/report.html for one folder, ./report.html for several]
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print nothing but errors
    #[arg(long, short)]
    pub quiet: bool,
}

/// Writes the report of the folders `args` names.
pub fn execute(args: &ReportCmdArgs, games: &[GameEntry]) -> Result<ExitCode> {
    let out = match (&args.out, args.dirs.as_slice()) {
        (Some(out), _) => out.clone(),
        (None, [dir]) => dir.join(html::FILE),
        (None, _) => PathBuf::from(html::FILE),
    };
    if out.is_dir() {
        return Err(SimError::input(format!(
            "--out {}: a folder; give the page's file name, e.g. {}",
            out.display(),
            out.join(html::FILE).display()
        )));
    }
    args.dirs
        .iter()
        .fold(Paths::new().output("--out", &out, Shape::File), |p, dir| {
            p.input("the results folder", dir)
        })
        .check()?;
    let folders = args
        .dirs
        .iter()
        .map(|d| Folder::open(d))
        .collect::<Result<Vec<_>>>()?;
    let notes = folders
        .iter()
        .map(html::shard_note)
        .collect::<Result<Vec<_>>>()?;
    let facts: Vec<GameFacts> = games.iter().map(|g| g.facts).collect();
    let page = html::render(
        &folders,
        &Context {
            games: &facts,
            speed: None,
        },
    )?;
    // Only once the page is made, so that bad input leaves no folder behind.
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
    ensure_writable_dir(parent.unwrap_or(Path::new(".")))?;
    let path = write_text(&out, &page)?;
    if !args.quiet {
        for note in notes.into_iter().flatten() {
            outln!("note: {note}");
        }
        outln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// With `--report`, writes `report.html` into `dir`, made from the files the command of game
/// `G` just wrote there (with its `speed`), and returns its path.
pub fn beside<G: Game>(report: &ReportArgs, dir: &Path, speed: Speed) -> Result<Option<PathBuf>> {
    if !report.html {
        return Ok(None);
    }
    html::write_beside(dir, &[GameFacts::of::<G>()], Some(speed)).map(Some)
}
