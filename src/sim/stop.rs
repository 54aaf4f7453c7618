//! The stop request: Ctrl-C asks the runner to finish the chunks in flight and stop.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The flag a Ctrl-C sets, with the handler installed on first use.
pub fn ctrl_c_flag() -> &'static AtomicBool {
    INSTALL.call_once(|| {
        // If a handler cannot be installed, Ctrl-C keeps its default effect: the process ends.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    });
    &STOP
}
