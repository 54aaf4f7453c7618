//! Atomic files: write beside the target under a temporary name, then rename.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Result, SimError};

/// A file being written under a temporary name in its target folder; it appears at its real
/// path only when [`AtomicFile::commit`] renames it, and is removed if dropped uncommitted.
pub struct AtomicFile {
    temp: PathBuf,
    target: PathBuf,
    /// The path as the caller gave it, for messages (the target is the file a symlink names).
    shown: PathBuf,
    file: Option<File>,
}

/// The longest part of a file name kept in a temporary or staging name made of it, in bytes, so
/// that the name fits the 255 bytes of a file name whatever the original's length.
pub const NAME_KEPT: usize = 64;

/// At most [`NAME_KEPT`] bytes of `name`, cut at a character boundary.
pub fn short_name(name: &str) -> &str {
    let mut end = name.len().min(NAME_KEPT);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Refuses a `path` that exists and is not a regular file (a device, a pipe, a folder): an
/// atomic write renames over its target, and would replace such a thing. `shown` names it.
pub fn refuse_non_regular(path: &Path, shown: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => Err(SimError::input(format!(
            "cannot write {}: it exists and is not a regular file; sim writes over regular files only",
            shown.display()
        ))),
        _ => Ok(()),
    }
}

impl AtomicFile {
    /// Creates the temporary file for `target` (a symlink's file, if it is one), making its
    /// missing folders; refuses a target that is not a regular file.
    pub fn create(target: &Path) -> Result<Self> {
        let shown = target.to_path_buf();
        let io = |source| SimError::Io {
            action: "cannot write",
            path: shown.clone(),
            source,
        };
        let target = match std::fs::symlink_metadata(target) {
            Ok(meta) if meta.file_type().is_symlink() => target.canonicalize().map_err(io)?,
            _ => target.to_path_buf(),
        };
        refuse_non_regular(&target, &shown)?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp =
            target.with_file_name(format!(".{}.{}.tmp", short_name(&name), std::process::id()));
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = crate::stop::temporary(&temp, || File::create(&temp)).map_err(io)?;
        Ok(Self {
            temp,
            target,
            shown,
            file: Some(file),
        })
    }

    /// The open file, to write into.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("the file is open until commit")
    }

    /// Takes the open file out, for writers that own it; [`AtomicFile::commit`] still renames it.
    pub fn take(&mut self) -> File {
        self.file.take().expect("the file is taken once")
    }

    /// Flushes and renames the file to its target path.
    pub fn commit(mut self) -> Result<PathBuf> {
        if let Some(file) = self.file.take() {
            file.sync_all().map_err(|e| self.io_error(e))?;
        }
        refuse_non_regular(&self.target, &self.shown)?;
        std::fs::rename(&self.temp, &self.target).map_err(|e| self.io_error(e))?;
        crate::stop::settled(&self.temp);
        self.target = PathBuf::new();
        Ok(std::mem::take(&mut self.shown))
    }

    /// Writes `text` into the file (not yet committed: several files can be put in place
    /// together).
    pub fn write_text(&mut self, text: &str) -> Result<()> {
        self.file()
            .write_all(text.as_bytes())
            .map_err(|e| self.io_error(e))
    }

    /// Writes `text` into the file, then commits it: the target holds the whole text or is
    /// left as it was.
    pub fn commit_text(mut self, text: &str) -> Result<PathBuf> {
        self.write_text(text)?;
        self.commit()
    }

    fn io_error(&self, source: std::io::Error) -> SimError {
        SimError::Io {
            action: "cannot write",
            path: self.shown.clone(),
            source,
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.target.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.temp);
            crate::stop::settled(&self.temp);
        }
    }
}

/// Writes `text` to `path` atomically and returns the path.
pub fn write_text(path: &Path, text: &str) -> Result<PathBuf> {
    AtomicFile::create(path)?.commit_text(text)
}

/// Creates `dir` if needed and proves it writable by creating and removing a probe file, so a run
/// fails before it plays rather than after.
pub fn ensure_writable_dir(dir: &Path) -> Result<()> {
    let io = |source| SimError::Io {
        action: "cannot write to --out",
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let probe = AtomicFile::create(&dir.join("probe")).map_err(|e| match e {
        SimError::Io { source, .. } => io(source),
        other => other,
    })?;
    drop(probe);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_appears_until_commit_and_nothing_stays_on_drop() {
        let dir = std::env::temp_dir().join(format!("sim-atomic-{}", std::process::id()));
        ensure_writable_dir(&dir).unwrap();
        let target = dir.join("a.txt");
        let mut f = AtomicFile::create(&target).unwrap();
        f.file().write_all(b"hello").unwrap();
        assert!(!target.exists());
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "hello");
        let g = AtomicFile::create(&dir.join("b.txt")).unwrap();
        drop(g);
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "only the committed file remains");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
