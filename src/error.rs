//! The library's error type: what was wrong, and what would be right.

use std::path::PathBuf;

/// Everything that can go wrong in the library, each with a message fit for a user.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The user asked for something that cannot be done: bad rules, policy, count or path.
    #[error("{0}")]
    Input(String),
    /// A TOML file that does not parse.
    #[error("malformed TOML in {file} at line {line}, column {column}: {message}")]
    Toml {
        /// The file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// A file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done ("cannot write", "cannot read").
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Writing a results file failed.
    #[error("cannot write {path}: {message}")]
    Output {
        /// The file.
        path: PathBuf,
        /// The cause.
        message: String,
    },
}

impl SimError {
    /// A bad-input error with the given message.
    pub fn input(message: impl Into<String>) -> Self {
        Self::Input(message.into())
    }

    /// A TOML parse error in `file` whose text is `text`, located by line and column.
    pub fn toml(file: &std::path::Path, text: &str, err: &toml::de::Error) -> Self {
        let offset = err.span().map_or(0, |s| s.start).min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        Self::Toml {
            file: file.to_path_buf(),
            line,
            column,
            message: plain(err.message().trim()).replace('\n', " "),
        }
    }
}

/// A deserializer's message in the words of a rules or strategy file: no Rust type names.
pub fn plain(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find("struct ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "struct ".len()..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        out.push_str("a table");
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out.replace("invalid type: map", "invalid type: a table")
}

/// The library's result type.
pub type Result<T, E = SimError> = std::result::Result<T, E>;
