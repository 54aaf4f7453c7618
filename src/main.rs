//! The `sim` binary: all of it lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    sim::cli::main_with(std::env::args_os())
}
