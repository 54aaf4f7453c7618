//! The stop request: Ctrl-C (SIGINT) or SIGTERM asks the runner to finish the chunks in flight
//! and stop; the command then writes the completed prefix, marked incomplete, and exits with
//! [`exit_code`]: 130 after Ctrl-C, 143 after SIGTERM (128 plus the signal, the shell's
//! convention), so a batch system that sends SIGTERM (a time limit, a preemption) loses nothing.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};

/// The exit code of a command stopped by Ctrl-C.
pub const INTERRUPTED: u8 = 130;
/// The exit code of a command stopped by SIGTERM.
pub const TERMINATED: u8 = 143;

struct Flags {
    stop: Arc<AtomicBool>,
    /// The last signal received (0 for none).
    signal: Arc<AtomicUsize>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

fn flags() -> &'static Flags {
    FLAGS.get_or_init(|| {
        let flags = Flags {
            stop: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicUsize::new(0)),
        };
        for signal in [SIGINT, SIGTERM] {
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

/// The flag Ctrl-C and SIGTERM set, with their handlers installed on first use.
pub fn stop_flag() -> &'static AtomicBool {
    &flags().stop
}

/// What stopped the run, in words: `Ctrl-C` or `SIGTERM`.
pub fn cause() -> &'static str {
    if last_signal() == SIGTERM as usize {
        "SIGTERM"
    } else {
        "Ctrl-C"
    }
}

/// The exit code of a run the stop request cut short: 143 after SIGTERM, else 130.
pub fn exit_code() -> u8 {
    if last_signal() == SIGTERM as usize {
        TERMINATED
    } else {
        INTERRUPTED
    }
}

fn last_signal() -> usize {
    FLAGS.get().map_or(0, |f| f.signal.load(Ordering::SeqCst))
}
