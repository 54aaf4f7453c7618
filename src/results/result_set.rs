//! A command's result set: every file a command writes goes into a fresh staging folder, and only
//! once all of them are written does the set take the place of the `--out` folder's earlier
//! results. `--out` then holds one whole set of files, the earlier run's or the new one's, never a
//! mix and never a part; a command that fails leaves `--out` as it was.
//!
//! - A new `--out` is staged beside itself (`.NAME.sim-staging-PID-N` in its parent, NAME cut
//!   to its first 64 bytes so that any legal name fits) and the folder is renamed into place: it
//!   appears whole.
//! - An existing `--out` is staged inside itself (`.sim-staging-PID-N`, on the same file system
//!   whatever is mounted where); at the end, under a lock on the folder, the earlier result files
//!   are moved aside, the new ones moved in, and the earlier ones deleted. Should a move fail,
//!   the moves are undone and the earlier files are back.
//! - Sim owns the files of [`RESULT_FILES`] and the numbered `games-NNNNN.parquet`: an existing
//!   `--out` holding any other file is refused before anything runs (sim does not delete what it
//!   did not write, and would not leave it beside a new run's files), and so is one where a
//!   result file's name is taken by a folder. Sub-folders are left alone: they are other result
//!   sets (a run's shards in `shard-III-of-NNN/`, a Slurm run's `shards/`).
//!
//! Another writer joins the set by writing its file into [`ResultSet::dir`] before
//! [`ResultSet::commit`], and by adding its file name to [`RESULT_FILES`] so that a later run
//! replaces it.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::{Result, SimError};
use crate::files::short_name;

/// The files sim writes into a results folder (besides the numbered per-game parts
/// `games-NNNNN.parquet`).
pub const RESULT_FILES: &[&str] = &[
    "summary.parquet",
    "distributions.parquet",
    "games.parquet",
    "tournament.parquet",
    "ratings.parquet",
    "balance.parquet",
    "report.html",
    "evaluate.parquet",
    "ladder.parquet",
    "durations.parquet",
    "shard.json",
    "resume.json",
    "strategy.toml",
    "chart.parquet",
    "solve.json",
];

/// True for the name of a file sim writes into a results folder.
pub fn is_result_file(name: &str) -> bool {
    RESULT_FILES.contains(&name) || is_games_part(name)
}

/// `games-NNNNN.parquet`: one part of the per-game rows of a long run.
fn is_games_part(name: &str) -> bool {
    name.strip_prefix("games-")
        .and_then(|rest| rest.strip_suffix(".parquet"))
        .is_some_and(|n| n.len() == 5 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The files of one command being written, and where they go.
#[derive(Debug)]
pub struct ResultSet {
    /// The `--out` folder, as given.
    out: PathBuf,
    /// Where the files are written until [`ResultSet::commit`].
    staging: PathBuf,
    /// Folders made on the way to the staging folder (missing parents of `--out`), deepest
    /// last; removed again if the set is dropped uncommitted.
    made: Vec<PathBuf>,
    /// True once the files are in `--out`.
    committed: bool,
}

/// A name no other result set of this process or another takes.
fn unique(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{prefix}sim-staging-{}-{n}", std::process::id())
}

fn out_error(out: &Path, source: std::io::Error) -> SimError {
    SimError::Io {
        action: "cannot write to --out",
        path: out.to_path_buf(),
        source,
    }
}

impl ResultSet {
    /// Checks that `out` can take a command's results (see the module's notes) and makes the
    /// staging folder. Nothing is left behind if it fails.
    pub fn create(out: &Path) -> Result<Self> {
        match fs::metadata(out) {
            Ok(meta) if !meta.is_dir() => Err(SimError::input(format!(
                "--out {}: that is a file, not a folder",
                out.display()
            ))),
            Ok(_) => {
                check_contents(out)?;
                let staging = out.join(unique("."));
                crate::stop::temporary(&staging, || fs::create_dir(&staging))
                    .map_err(|e| out_error(out, e))?;
                Ok(Self {
                    out: out.to_path_buf(),
                    staging,
                    made: Vec::new(),
                    committed: false,
                })
            }
            Err(e) if e.kind() == ErrorKind::NotFound => Self::create_beside(out),
            Err(e) => Err(out_error(out, e)),
        }
    }

    /// A new `out`: the staging folder goes beside it, its missing parents made (and noted).
    fn create_beside(out: &Path) -> Result<Self> {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                SimError::input(format!("--out {}: not a folder name", out.display()))
            })?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut set = Self {
            out: out.to_path_buf(),
            staging: parent.join(unique(&format!(".{}.", short_name(&name)))),
            made: Vec::new(),
            committed: false,
        };
        let mut missing = Vec::new();
        let mut at = parent.as_path();
        while !at.as_os_str().is_empty() && !at.exists() {
            missing.push(at.to_path_buf());
            at = at.parent().unwrap_or(Path::new(""));
        }
        for dir in missing.into_iter().rev() {
            match fs::create_dir(&dir) {
                Ok(()) => set.made.push(dir),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
                Err(e) => return Err(out_error(out, e)),
            }
        }
        crate::stop::temporary(&set.staging, || fs::create_dir(&set.staging))
            .map_err(|e| out_error(out, e))?;
        Ok(set)
    }

    /// The folder to write the set's files into.
    pub fn dir(&self) -> &Path {
        &self.staging
    }

    /// The `--out` folder the files go to.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// Puts every file of the staging folder into `--out` in place of the earlier results, and
    /// returns where each of `written` (files of the staging folder, in the order they are
    /// reported) now is.
    pub fn commit(mut self, written: &[PathBuf]) -> Result<Vec<PathBuf>> {
        // A new --out takes the staging folder's place whole; an existing one (or one that
        // appeared meanwhile) gets the files one by one.
        let inside = self.staging.starts_with(&self.out);
        let whole = !inside
            && match fs::rename(&self.staging, &self.out) {
                Ok(()) => true,
                Err(_) if self.out.is_dir() => false,
                Err(e) => return Err(out_error(&self.out, e)),
            };
        if !whole {
            self.replace()?;
        }
        self.committed = true;
        self.made.clear();
        Ok(written
            .iter()
            .map(|p| match p.file_name() {
                Some(name) => self.out.join(name),
                None => p.clone(),
            })
            .collect())
    }

    /// Moves the earlier result files of `--out` aside and the staged ones in, under a lock on
    /// the folder (two commands committing into one folder take turns); undoes the moves if one
    /// fails.
    fn replace(&self) -> Result<()> {
        let lock = fs::File::open(&self.out).map_err(|e| out_error(&self.out, e))?;
        lock.lock().map_err(|e| out_error(&self.out, e))?;
        check_contents(&self.out)?;
        let earlier: Vec<String> = names(&self.out)?
            .into_iter()
            .filter(|n| is_result_file(n))
            .collect();
        let staged = names(&self.staging)?;
        let aside = self.out.join(unique(".replaced-"));
        fs::create_dir(&aside).map_err(|e| out_error(&self.out, e))?;
        let moved_aside = move_all(&earlier, &self.out, &aside);
        let result = moved_aside.and_then(|()| {
            move_all(&staged, &self.staging, &self.out).inspect_err(|_| {
                let _ = move_all(&earlier, &aside, &self.out);
            })
        });
        if result.is_err() {
            // Whatever the earlier files could not be put back from stays in `aside`.
            let _ = fs::remove_dir(&aside);
        } else {
            let _ = fs::remove_dir_all(&aside);
            let _ = fs::remove_dir_all(&self.staging);
        }
        result
    }
}

/// Moves the files `names` from `from` to `to`; if one cannot be moved, those moved so far go
/// back and the error names the file.
fn move_all(names: &[String], from: &Path, to: &Path) -> Result<()> {
    for (i, name) in names.iter().enumerate() {
        if let Err(source) = fs::rename(from.join(name), to.join(name)) {
            for done in &names[..i] {
                let _ = fs::rename(to.join(done), from.join(done));
            }
            return Err(SimError::Io {
                action: "cannot write",
                path: to.join(name),
                source,
            });
        }
    }
    Ok(())
}

/// The names of the entries of `dir` that are not folders, sorted.
fn names(dir: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| out_error(dir, e))? {
        let entry = entry.map_err(|e| out_error(dir, e))?;
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// Refuses an existing `--out` that holds a file sim did not write, or a folder where a result
/// file goes.
fn check_contents(out: &Path) -> Result<()> {
    let entries = fs::read_dir(out).map_err(|e| out_error(out, e))?;
    let mut entries: Vec<_> = entries
        .collect::<std::io::Result<_>>()
        .map_err(|e| out_error(out, e))?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().map_err(|e| out_error(out, e))?;
        let is_dir = kind.is_dir();
        if is_result_file(&name) && !is_dir && !kind.is_file() {
            return Err(SimError::input(format!(
                "--out {}: {name} there is not a regular file (a device, a pipe or a link), where sim writes a file; sim does not replace it, so remove it or choose another --out",
                out.display()
            )));
        }
        match (is_result_file(&name), is_dir) {
            (true, true) => {
                return Err(SimError::input(format!(
                    "--out {}: {name} there is a folder, where sim writes a file; remove it or choose another --out",
                    out.display()
                )));
            }
            (false, false) => {
                return Err(SimError::input(format!(
                    "--out {}: it holds {name}, which sim did not write; a results folder holds one run's files and nothing else, so move {name} away or choose another --out",
                    out.display()
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

impl Drop for ResultSet {
    fn drop(&mut self) {
        if self.committed {
            crate::stop::settled(&self.staging);
            return;
        }
        // Removed before it is settled: a signal in between finds it still listed.
        let _ = fs::remove_dir_all(&self.staging);
        crate::stop::settled(&self.staging);
        for dir in self.made.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sim-result-set-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_folder_appears_whole_and_a_dropped_set_leaves_nothing() {
        let root = root("new");
        let out = root.join("a/b/out");
        let set = ResultSet::create(&out).unwrap();
        fs::write(set.dir().join("summary.parquet"), "new").unwrap();
        assert!(!out.exists(), "nothing in --out before the commit");
        let written = set.commit(&[PathBuf::from("x/summary.parquet")]).unwrap();
        assert_eq!(written, [out.join("summary.parquet")]);
        assert_eq!(listing(&out), ["summary.parquet"]);
        assert_eq!(
            listing(&root.join("a/b")),
            ["out"],
            "no staging folder stays"
        );

        let other = root.join("c/d/out");
        let set = ResultSet::create(&other).unwrap();
        fs::write(set.dir().join("summary.parquet"), "new").unwrap();
        drop(set);
        assert_eq!(
            listing(&root),
            ["a"],
            "the parents made for it are gone too"
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_reused_folder_holds_the_new_files_only_and_keeps_its_sub_folders() {
        let root = root("reused");
        let out = root.join("out");
        fs::create_dir_all(out.join("shards")).unwrap();
        for name in ["games.parquet", "shard.json", "summary.parquet"] {
            fs::write(out.join(name), "old").unwrap();
        }
        let set = ResultSet::create(&out).unwrap();
        fs::write(set.dir().join("summary.parquet"), "new").unwrap();
        fs::write(set.dir().join("distributions.parquet"), "new").unwrap();
        set.commit(&[]).unwrap();
        assert_eq!(
            listing(&out),
            ["distributions.parquet", "shards", "summary.parquet"]
        );
        assert_eq!(
            fs::read_to_string(out.join("summary.parquet")).unwrap(),
            "new"
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_foreign_file_or_a_folder_in_a_result_files_place_is_refused_up_front() {
        let root = root("refused");
        let out = root.join("out");
        fs::create_dir_all(out.join("summary.parquet")).unwrap();
        let err = ResultSet::create(&out).unwrap_err().to_string();
        assert!(err.contains("summary.parquet there is a folder"), "{err}");
        fs::remove_dir(out.join("summary.parquet")).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let err = ResultSet::create(&out).unwrap_err().to_string();
        assert!(err.contains("notes.txt, which sim did not write"), "{err}");
        assert_eq!(listing(&out), ["notes.txt"], "nothing made");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_failed_move_puts_the_earlier_files_back() {
        let root = root("undo");
        let out = root.join("out");
        fs::create_dir_all(out.join("extra")).unwrap();
        fs::write(out.join("extra/x"), "").unwrap();
        fs::write(out.join("summary.parquet"), "old").unwrap();
        fs::write(out.join("distributions.parquet"), "old").unwrap();
        let set = ResultSet::create(&out).unwrap();
        fs::write(set.dir().join("distributions.parquet"), "new").unwrap();
        // A staged file whose place a folder holds: its move fails after the others'.
        fs::write(set.dir().join("extra"), "new").unwrap();
        fs::write(set.dir().join("summary.parquet"), "new").unwrap();
        let staging = set.dir().to_path_buf();
        let err = set.commit(&[]).unwrap_err().to_string();
        assert!(err.contains("extra"), "{err}");
        for name in ["distributions.parquet", "summary.parquet"] {
            assert_eq!(fs::read_to_string(out.join(name)).unwrap(), "old", "{name}");
        }
        assert_eq!(
            listing(&out),
            ["distributions.parquet", "extra", "summary.parquet"]
        );
        assert!(!staging.exists(), "the staged files are gone");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn result_file_names() {
        for name in ["summary.parquet", "games-00012.parquet", "resume.json"] {
            assert!(is_result_file(name), "{name}");
        }
        for name in ["games-1.parquet", "notes.txt", "games-0001x.parquet"] {
            assert!(!is_result_file(name), "{name}");
        }
    }
}
