//! `sim completions SHELL` and `sim man [COMMAND]`: shell completion scripts and man pages, made
//! from the same clap definitions the command line parses with, so they never fall behind it.

use std::process::ExitCode;

use clap::{Arg, ArgMatches, Command, value_parser};
use clap_complete::Shell;

use crate::error::{Result, SimError};

/// The `completions` subcommand.
pub fn completions_command() -> Command {
    Command::new("completions")
        .about("Print a shell completion script (bash, zsh, fish, elvish, powershell)")
        .arg(
            Arg::new("shell")
                .required(true)
                .value_parser(value_parser!(Shell))
                .help("The shell"),
        )
        .after_help(
            "Examples:\n  sim completions bash > ~/.local/share/bash-completion/completions/sim\n  \
             sim completions zsh > ~/.zfunc/_sim\n  \
             sim completions fish > ~/.config/fish/completions/sim.fish",
        )
}

/// The `man` subcommand.
pub fn man_command() -> Command {
    Command::new("man")
        .about("Print a man page in roff: sim's, or one command's (sim man crownfall)")
        .arg(Arg::new("command").help("A game or command, for its own page (sim-COMMAND.1)"))
        .after_help("Example: sim man > sim.1 && man ./sim.1")
}

/// Prints the completion script for the shell `sub` names, for the command line `cmd`.
pub fn completions(sub: &ArgMatches, mut cmd: Command) -> Result<ExitCode> {
    let shell = *sub
        .get_one::<Shell>("shell")
        .expect("the shell is required");
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "sim", &mut script);
    super::output::text(&String::from_utf8_lossy(&script));
    Ok(ExitCode::SUCCESS)
}

/// Prints the man page of `cmd`, or of its subcommand `sub` names.
pub fn man(sub: &ArgMatches, mut cmd: Command) -> Result<ExitCode> {
    // Building names each subcommand's page `sim-NAME`.
    cmd.build();
    let page = match sub.get_one::<String>("command") {
        None => cmd,
        Some(name) => cmd.find_subcommand(name).cloned().ok_or_else(|| {
            let names: Vec<&str> = cmd
                .get_subcommands()
                .map(Command::get_name)
                .filter(|n| *n != "help")
                .collect();
            SimError::input(format!(
                "sim man {name}: no such game or command; known: {}",
                names.join(", ")
            ))
        })?,
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut roff)
        .map_err(|e| SimError::input(format!("cannot render the man page: {e}")))?;
    super::output::text(&String::from_utf8_lossy(&roff));
    Ok(ExitCode::SUCCESS)
}
