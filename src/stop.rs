//! The stop request: Ctrl-C (SIGINT), SIGTERM or SIGHUP asks the command to stop. A command that
//! plays games ([`claim`]s the signals) finishes or drops the chunks in flight within a moment
//! (a search inside a game sees the request too, [`requested`]), writes the completed prefix,
//! marked incomplete, and exits with [`exit_code`]: 130 after Ctrl-C, 143 after SIGTERM, 129
//! after SIGHUP (128 plus the signal, the shell's convention), so a batch system that sends
//! SIGTERM (a time limit, a preemption) loses nothing. Any other command, or one that has not
//! claimed them yet (nothing is staged before), ends at once with that exit code and a line
//! naming the signal.
//!
//! [`install`] puts the handlers in place; the binary calls it before anything else, so no
//! signal ever finds the process without them. A command that ends at once (solve, merge,
//! report) leaves nothing behind: the files and staging folders being written are noted
//! ([`temporary`], [`settled`]) and removed before the process ends.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The exit code of a command stopped by Ctrl-C.
pub const INTERRUPTED: u8 = 130;
/// The exit code of a command stopped by SIGTERM.
pub const TERMINATED: u8 = 143;
/// The exit code of a command stopped by SIGHUP (its terminal closed).
pub const HUNG_UP: u8 = 129;

/// The signals that ask a command to stop.
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

struct Flags {
    stop: Arc<AtomicBool>,
    /// The last signal received (0 for none).
    signal: Arc<AtomicUsize>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

/// Who acts on a signal: nobody yet (the watcher ends the process), the command (it stops
/// itself), or the watcher, which is ending the process.
static OWNER: AtomicU8 = AtomicU8::new(UNCLAIMED);
const UNCLAIMED: u8 = 0;
const COMMAND: u8 = 1;
const WATCHER: u8 = 2;

fn flags() -> &'static Flags {
    FLAGS.get_or_init(|| {
        let flags = Flags {
            stop: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicUsize::new(0)),
        };
        for signal in SIGNALS {
            // If a handler cannot be installed, the signal keeps its default effect: the process
            // ends.
            let _ = signal_hook::flag::register_usize(
                signal,
                Arc::clone(&flags.signal),
                signal as usize,
            );
            let _ = signal_hook::flag::register(signal, Arc::clone(&flags.stop));
        }
        flags
    })
}

/// Installs the handlers of SIGINT, SIGTERM and SIGHUP and the thread that watches for them:
/// until a command [`claim`]s them, a signal ends the process at once (with [`exit_code`] and a
/// line on stderr naming it). The binary calls this first.
pub fn install() {
    static WATCHER_STARTED: OnceLock<()> = OnceLock::new();
    WATCHER_STARTED.get_or_init(|| {
        flags();
        // Without the watcher (no thread, no pipe) a signal still sets the flag; a command
        // that has not claimed it then ends when it next looks.
        if let Ok(mut signals) = signal_hook::iterator::Signals::new(SIGNALS) {
            let _ = std::thread::Builder::new()
                .name("sim-signals".into())
                .spawn(move || {
                    for signal in signals.forever() {
                        on_signal(signal);
                    }
                });
        }
    });
}

/// The files and folders being written under temporary names: removed if a signal ends the
/// process.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The list of temporaries, whatever a panicking holder left it as.
fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Makes the file or folder `path` under a temporary name with `make` and notes it, to remove
/// if a signal ends the process before it is [`settled`]: one step a signal cannot split (the
/// watcher removes the noted ones and ends the process holding the same lock).
pub fn temporary<T, E>(path: &Path, make: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    let mut list = temporaries();
    let made = make()?;
    list.push(path.to_path_buf());
    Ok(made)
}

/// `path` is put in place or removed: a signal no longer removes it.
pub fn settled(path: &Path) {
    temporaries().retain(|p| p != path);
}

/// Removes every temporary not yet settled; returns the list's lock, held so that no other is
/// made until the process ends.
fn remove_temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    let mut list = temporaries();
    for path in list.drain(..) {
        let _ = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
    }
    list
}

/// What the watcher does with `signal`: nothing if a command stops itself, else removes the
/// temporaries and ends the process.
fn on_signal(signal: i32) {
    if OWNER
        .compare_exchange(UNCLAIMED, WATCHER, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        let _held = remove_temporaries();
        let signal = signal as usize;
        eprintln!("stopped by {}", cause_of(signal));
        std::process::exit(i32::from(code_of(signal)));
    }
}

/// Declares that the command stops itself on a signal (it polls [`stop_flag`], writes what it
/// completed and exits with [`exit_code`]); called before it stages any file. If a signal has
/// already come and the process is ending, this waits for the end.
pub fn claim() {
    let _ = flags();
    if OWNER
        .compare_exchange(UNCLAIMED, COMMAND, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
        && OWNER.load(Ordering::SeqCst) == WATCHER
    {
        loop {
            std::thread::park();
        }
    }
}

/// The flag Ctrl-C, SIGTERM and SIGHUP set, with their handlers installed on first use.
pub fn stop_flag() -> &'static AtomicBool {
    &flags().stop
}

/// True once a signal asked the command to stop: for loops that cannot be handed the flag (a
/// search's simulations). False while no handler was installed.
#[inline]
pub fn requested() -> bool {
    FLAGS.get().is_some_and(|f| f.stop.load(Ordering::Relaxed))
}

/// What stopped the run, in words: `Ctrl-C (SIGINT)`, `SIGTERM` or `SIGHUP`.
pub fn cause() -> &'static str {
    cause_of(last_signal())
}

fn cause_of(signal: usize) -> &'static str {
    match signal {
        s if s == SIGTERM as usize => "SIGTERM",
        s if s == SIGHUP as usize => "SIGHUP",
        _ => "Ctrl-C (SIGINT)",
    }
}

/// The exit code of a run the stop request cut short: 143 after SIGTERM, 129 after SIGHUP, else
/// 130.
pub fn exit_code() -> u8 {
    code_of(last_signal())
}

fn code_of(signal: usize) -> u8 {
    match signal {
        s if s == SIGTERM as usize => TERMINATED,
        s if s == SIGHUP as usize => HUNG_UP,
        _ => INTERRUPTED,
    }
}

fn last_signal() -> usize {
    FLAGS.get().map_or(0, |f| f.signal.load(Ordering::SeqCst))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a signal removes: the temporaries noted and not settled, files and folders alike.
    #[test]
    fn a_signal_removes_the_temporaries_not_yet_settled() {
        let root = std::env::temp_dir().join(format!("sim-stop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join(".staging/inner")).unwrap();
        let (file, kept, staging) = (
            root.join(".a.tmp"),
            root.join(".b.tmp"),
            root.join(".staging"),
        );
        std::fs::write(&file, "x").unwrap();
        std::fs::write(&kept, "y").unwrap();
        for path in [&file, &kept, &staging] {
            temporary(path, || Ok::<(), ()>(())).unwrap();
        }
        settled(&kept);
        assert!(remove_temporaries().is_empty());
        assert!(
            !file.exists() && !staging.exists(),
            "the temporaries are gone"
        );
        assert!(kept.exists(), "a settled file stays");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
