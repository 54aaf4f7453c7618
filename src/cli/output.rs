//! Standard output for reports, tolerant of a reader that goes away: `sim ... | head` must not
//! panic the way `print!` does on a broken pipe.

use std::io::Write;

/// Writes `text` to standard output. Errors are dropped on purpose: the only report a failing
/// standard output could get is on standard error, and every file is written before the report
/// is printed, so a closed pipe loses nothing but the rest of the text.
pub fn text(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
