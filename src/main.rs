//! The `sim` binary: all of it lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    // Before anything else: no signal finds the process without its handlers.
    sim::stop::install();
    sim::cli::main_with(std::env::args_os())
}
