//! Every path a command writes, checked before anything runs: resolved (symlinks, `..`) and
//! refused, with one line naming the path, when it is not a regular file or a folder that sim
//! may write (a device, a pipe, a socket, a file where a folder goes), when its folder cannot be
//! written, when it is one of the command's inputs (a rules or strategy file, a results folder it
//! reads, a record it replays), or when two outputs of the command are the same file.
//!
//! A command lists its outputs and inputs in a [`Paths`] and calls [`Paths::check`] first.

use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::fs::FileTypeExt;
use std::path::{Component, Path, PathBuf};

use crate::error::{Result, SimError};
use crate::report::html;

use super::args::{PlayArgs, SeatArgs};

/// The longest name of one file or folder (`NAME_MAX` on Linux and macOS), in bytes.
pub const NAME_MAX: usize = 255;

/// What an output is: one file, or a results folder sim fills with its own files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One file, written whole (put in place by a rename).
    File,
    /// A results folder (see [`crate::results::result_set`]).
    Folder,
}

#[derive(Debug)]
struct Named {
    flag: String,
    given: PathBuf,
    real: PathBuf,
}

impl Named {
    fn new(flag: &str, path: &Path) -> Self {
        Self {
            flag: flag.to_string(),
            given: path.to_path_buf(),
            real: resolve(path),
        }
    }

    /// `--out PATH`, as the user gave it.
    fn shown(&self) -> String {
        if self.flag.is_empty() {
            self.given.display().to_string()
        } else {
            format!("{} {}", self.flag, self.given.display())
        }
    }
}

/// The outputs and inputs of one command.
#[derive(Debug, Default)]
pub struct Paths {
    outputs: Vec<(Named, Shape)>,
    inputs: Vec<Named>,
}

impl Paths {
    /// No paths yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an output: `flag` (e.g. `--out`) names it in messages.
    pub fn output(mut self, flag: &str, path: &Path, shape: Shape) -> Self {
        self.outputs.push((Named::new(flag, path), shape));
        self
    }

    /// Adds an input file or folder: `flag` (e.g. `--rules`) names it in messages. One that does
    /// not exist is left to its reader to report.
    pub fn input(mut self, flag: &str, path: &Path) -> Self {
        if path.exists() {
            self.inputs.push(Named::new(flag, path));
        }
        self
    }

    /// Adds the inputs among policy specs: those naming a file (strategy files).
    pub fn policies<'a>(mut self, flag: &str, specs: impl IntoIterator<Item = &'a str>) -> Self {
        for spec in specs {
            if Path::new(spec).is_file() {
                self = self.input(flag, Path::new(spec));
            }
        }
        self
    }

    /// Adds the results folder `out` of a command that plays games (named `--resume` when it
    /// goes on in that folder, else `--out`) and what every such command reads: `--rules`.
    pub fn played(self, play: &PlayArgs, out: &Path) -> Self {
        let flag = if play.resume.is_some() {
            "--resume"
        } else {
            "--out"
        };
        let paths = self.output(flag, out, Shape::Folder);
        match &play.rules {
            Some(rules) => paths.input("--rules", rules),
            None => paths,
        }
    }

    /// Adds the strategy files of `--vs` and `--seat K=POLICY`.
    pub fn seats(self, seats: &SeatArgs) -> Self {
        let seat = seats
            .seat
            .iter()
            .filter_map(|s| s.split_once('=').map(|(_, p)| p.trim()));
        self.policies("--vs", seats.vs.as_deref())
            .policies("--seat", seat)
    }

    /// Refuses the first output that is not writable, that is an input, or that is another
    /// output; nothing is written or made.
    pub fn check(&self) -> Result<()> {
        for (i, (out, shape)) in self.outputs.iter().enumerate() {
            check_name(out)?;
            for (other, other_shape) in &self.outputs[..i] {
                same_outputs(other, *other_shape, out, *shape)?;
            }
            for input in &self.inputs {
                against_input(out, *shape, input)?;
            }
            writable(out, *shape)?;
        }
        Ok(())
    }
}

/// The absolute path `path` names: the longest part that exists with its symlinks and `..`
/// resolved, then the rest with `.` and `..` taken as written.
pub fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let parts: Vec<Component> = absolute.components().collect();
    for known in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..known].iter().collect();
        if let Ok(mut real) = head.canonicalize() {
            for part in &parts[known..] {
                match part {
                    Component::ParentDir => {
                        real.pop();
                    }
                    Component::CurDir => {}
                    other => real.push(other.as_os_str()),
                }
            }
            return real;
        }
    }
    absolute
}

fn refuse(message: String) -> SimError {
    SimError::input(message)
}

/// A name longer than a file system takes.
fn check_name(out: &Named) -> Result<()> {
    let long = out
        .real
        .components()
        .map(|c| c.as_os_str().len())
        .max()
        .unwrap_or(0);
    if long > NAME_MAX {
        return Err(refuse(format!(
            "{}: a name of {long} bytes; a file or folder name holds at most {NAME_MAX}",
            out.shown()
        )));
    }
    Ok(())
}

/// `inner` lies directly in the folder `folder`.
fn directly_in(inner: &Path, folder: &Path) -> bool {
    inner.parent() == Some(folder)
}

fn same_outputs(a: &Named, a_shape: Shape, b: &Named, b_shape: Shape) -> Result<()> {
    if a.real == b.real {
        return Err(refuse(format!(
            "{} and {} name the same file ({}): one would overwrite the other; give each its own",
            a.shown(),
            b.shown(),
            a.real.display()
        )));
    }
    for (folder, folder_shape, file) in [(a, a_shape, b), (b, b_shape, a)] {
        if folder_shape == Shape::Folder && directly_in(&file.real, &folder.real) {
            return Err(refuse(format!(
                "{} lies in the folder of {}, whose files sim replaces; put it elsewhere",
                file.shown(),
                folder.shown()
            )));
        }
    }
    Ok(())
}

fn against_input(out: &Named, shape: Shape, input: &Named) -> Result<()> {
    let what = if input.real.is_dir() {
        "a folder"
    } else {
        "a file"
    };
    if out.real == input.real {
        return Err(refuse(format!(
            "{} is {}, {what} the command reads: writing there would destroy it; give another path",
            out.shown(),
            input.shown()
        )));
    }
    // A file in a results folder the command reads: only that folder's page may be written.
    let page = out.real.file_name() == Some(OsString::from(html::FILE).as_os_str());
    if shape == Shape::File && input.real.is_dir() && directly_in(&out.real, &input.real) && !page {
        return Err(refuse(format!(
            "{} lies in {}, which the command reads; give a path outside it",
            out.shown(),
            input.shown()
        )));
    }
    // An input file in a results folder the command replaces (folders there are left alone).
    if shape == Shape::Folder && !input.real.is_dir() && directly_in(&input.real, &out.real) {
        return Err(refuse(format!(
            "{} lies in the folder of {}, whose files sim replaces; give another --out or move it",
            input.shown(),
            out.shown()
        )));
    }
    Ok(())
}

/// What a file system entry that sim does not write over is.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// The output is a regular file (or a folder, for a folder output), or missing in a folder that
/// can be written (the missing folders on the way are made when it is written).
fn writable(out: &Named, shape: Shape) -> Result<()> {
    match fs::metadata(&out.real) {
        Ok(meta) => match shape {
            Shape::File if meta.is_file() => Ok(()),
            Shape::File if meta.is_dir() => Err(refuse(format!(
                "{}: that is a folder; give a file name",
                out.shown()
            ))),
            Shape::Folder if meta.is_dir() => probe(out, &out.real),
            Shape::Folder if meta.is_file() => Err(refuse(format!(
                "{}: that is a file, not a folder",
                out.shown()
            ))),
            _ => Err(refuse(format!(
                "{}: that is {}, not a regular file; sim writes only regular files and folders, never over anything else",
                out.shown(),
                kind_of(&meta)
            ))),
        },
        Err(e) if missing(&e) => {
            let mut at = out.real.as_path();
            while let Some(parent) = at.parent() {
                at = parent;
                match fs::metadata(at) {
                    Ok(meta) if meta.is_dir() => return probe(out, at),
                    Ok(_) => {
                        return Err(refuse(format!(
                            "cannot write to {}: {} is a file, not a folder",
                            out.shown(),
                            at.display()
                        )));
                    }
                    Err(e) if missing(&e) => {}
                    Err(e) => return Err(cannot(out, at, &e)),
                }
            }
            Ok(())
        }
        Err(e) => Err(cannot(out, &out.real, &e)),
    }
}

/// An error that says the path is not there (or a file stands where a folder of it would).
fn missing(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}

fn cannot(out: &Named, at: &Path, e: &std::io::Error) -> SimError {
    refuse(format!(
        "cannot write to {}: {}: {e}",
        out.shown(),
        at.display()
    ))
}

/// Proves the folder `dir` writable by making and removing an empty file there (a temporary
/// a signal removes, so none is left behind).
fn probe(out: &Named, dir: &Path) -> Result<()> {
    let name = dir.join(format!(".sim-probe-{}", std::process::id()));
    crate::stop::temporary(&name, || fs::File::create(&name)).map_err(|e| cannot(out, dir, &e))?;
    let _ = fs::remove_file(&name);
    crate::stop::settled(&name);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sim-outputs-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir.canonicalize().unwrap()
    }

    #[test]
    fn resolve_follows_symlinks_and_dot_dot_in_the_missing_part() {
        let dir = tmp("resolve");
        fs::create_dir(dir.join("a")).unwrap();
        std::os::unix::fs::symlink(dir.join("a"), dir.join("link")).unwrap();
        assert_eq!(resolve(&dir.join("link/x")), dir.join("a/x"));
        assert_eq!(resolve(&dir.join("missing/../a/./y")), dir.join("a/y"));
        assert_eq!(resolve(&dir.join("a/../a")), dir.join("a"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_an_input_two_equal_outputs_and_a_file_in_an_output_folder() {
        let dir = tmp("refuse");
        let rules = dir.join("r.toml");
        fs::write(&rules, "").unwrap();
        let err = Paths::new()
            .input("--rules", &rules)
            .output("--out", &dir.join("x/../r.toml"), Shape::File)
            .check()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--rules") && err.contains("a file the command reads"),
            "{err}"
        );
        let err = Paths::new()
            .output("--out", &dir.join("a.toml"), Shape::File)
            .output("--chart", &dir.join("sub/../a.toml"), Shape::File)
            .check()
            .unwrap_err()
            .to_string();
        assert!(err.contains("the same file"), "{err}");
        let err = Paths::new()
            .output("--out", &dir.join("o"), Shape::Folder)
            .output("--chart", &dir.join("o/c.parquet"), Shape::File)
            .check()
            .unwrap_err()
            .to_string();
        assert!(err.contains("lies in the folder of --out"), "{err}");
        Paths::new()
            .input("--rules", &rules)
            .output("--out", &dir.join("new/deeper/o"), Shape::Folder)
            .output("--chart", &dir.join("c.parquet"), Shape::File)
            .check()
            .unwrap();
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "nothing made");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_a_folder_for_a_file_a_file_for_a_folder_and_an_overlong_name() {
        let dir = tmp("shape");
        fs::write(dir.join("f"), "").unwrap();
        let check = |path: &Path, shape| {
            Paths::new()
                .output("--out", path, shape)
                .check()
                .map_err(|e| e.to_string())
        };
        assert!(check(&dir, Shape::File).unwrap_err().contains("a folder"));
        let err = check(&dir.join("f"), Shape::Folder).unwrap_err();
        assert!(err.contains("a file, not a folder"), "{err}");
        let err = check(&dir.join("f/x"), Shape::File).unwrap_err();
        assert!(err.contains("is a file, not a folder"), "{err}");
        let err = check(&dir.join("x".repeat(256)), Shape::File).unwrap_err();
        assert!(err.contains("at most 255"), "{err}");
        check(&dir.join("x".repeat(255)), Shape::File).unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }
}
