//! `gamesweep`: parse the command line and hand over to the library.
use clap::Parser;

fn main() {
    let cli = gamesweep_coordinator::cli::Cli::parse();
    if let Err(err) = gamesweep_coordinator::cli::dispatch(cli) {
        eprintln!("gamesweep: {err:#}");
        std::process::exit(gamesweep_coordinator::error::exit_code(&err));
    }
}
