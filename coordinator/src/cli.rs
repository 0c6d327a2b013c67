//! The command line: the clap definition of `gamesweep` and the dispatch to
//! the command modules ([`crate::cmd`]).

use crate::cmd;
use clap::{Parser, Subcommand};

/// Exact exhaustive sweeps for combinatorial game theory.
#[derive(Parser, Debug)]
#[command(name = "gamesweep", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a sweep on this machine and write results.json + report.md.
    ///
    /// `gamesweep run KIND --help` lists the kind's parameters; `gamesweep kinds` lists the kinds.
    #[command(disable_help_flag = true)]
    Run(cmd::run::RunArgs),
    /// Generate graphs by canonical augmentation, printing graph6 (like nauty's geng).
    Graphs(cmd::graphs::GraphsArgs),
    /// Solve a single position exactly.
    #[command(subcommand)]
    Solve(cmd::solve::SolveCommand),
    /// Serve the boards: a local web page to see a UVG, Col or Myopic Col position, the values of its moves, and play against the solver.
    Explore(cmd::explore::ExploreArgs),
    /// List the sweep kinds and their parameters.
    Kinds,
    /// Run a coordinator: serve sweeps to workers over gRPC, keeping state in a sled store.
    Serve(cmd::serve::ServeArgs),
    /// Plan a sweep on the coordinator and print its id.
    ///
    /// `gamesweep launch KIND [--param N]... [--name ID] [--shards K]`
    #[command(disable_help_flag = true)]
    Launch(cmd::launch::LaunchArgs),
    /// Show progress of one sweep or all.
    Status(cmd::status::StatusArgs),
    /// Fetch a finished sweep's results.json and report.md.
    Report(cmd::report::ReportArgs),
    /// Stop handing out a sweep's shards.
    Cancel(cmd::cancel::CancelArgs),
    /// Project a sampled sweep's whole cost (launch it with --sample) from the sampled shards done so far.
    Project(cmd::project::ProjectArgs),
    /// Per-worker credentials: issue, list, revoke (admin token). A worker's identity is its credential.
    #[command(subcommand)]
    Token(cmd::token::TokenCommand),
    /// Show the coordinator's log of admin actions (launch, cancel): when, who, what.
    Audit(cmd::audit::AuditArgs),
    /// Write a sweep (definition, plan, solver version, finished results) to one compressed, checksummed export file signed with the coordinator's key.
    Export(cmd::export::ExportArgs),
    /// Load an export file into a coordinator (over gRPC, admin token) or a stopped store (--store); the unfinished shards then run there.
    Import(cmd::import::ImportArgs),
    /// Re-run a seeded sample of an export file's finished shards here and compare with the exported results.
    Verify(cmd::verify::VerifyArgs),
    /// Show or export the key a coordinator's store signs its export files with.
    #[command(subcommand)]
    Key(cmd::key::KeyCommand),
    /// Check a stopped coordinator's store (`store check DIR`): checksums, journal of acknowledged work.
    #[command(subcommand)]
    Store(cmd::store::StoreCommand),
    /// Run a worker that leases shards from the coordinator (same as `gamesweep-worker`).
    Worker(cmd::worker::WorkerCmd),
    /// Stop handing out a sweep's shards for now (leases held may finish); `resume` continues it.
    Pause(cmd::pause::PauseArgs),
    /// Hand out a paused sweep's shards again.
    Resume(cmd::pause::PauseArgs),
    /// Print a shell completion script (e.g. `gamesweep completions bash > /etc/bash_completion.d/gamesweep`).
    Completions(cmd::docs::CompletionsArgs),
    /// Print the man page (roff), or write one page per command with --out DIR.
    Man(cmd::docs::ManArgs),
}

/// The whole `gamesweep` process, with `extra_kinds` (defined outside the
/// workspace, e.g. `examples/custom-kind/`) added to the kind registry
/// first: parse the command line, run the command, and return the exit code
/// (clap exits by itself on bad usage and for `--help`). The `gamesweep`
/// binary calls it with no extra kinds; a binary with its own kinds calls it
/// with them, and every command (run, serve, launch, worker, report, the
/// dashboard) sees them.
pub fn main_with(extra_kinds: &'static [&'static dyn gamesweep::sweep::SweepKind]) -> i32 {
    if !extra_kinds.is_empty() {
        if let Err(e) = gamesweep::kinds::register(extra_kinds) {
            eprintln!("gamesweep: {e}");
            return 2;
        }
    }
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("gamesweep: {err:#}");
            crate::error::exit_code(&err)
        }
    }
}

/// Run the parsed command.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(a) => cmd::run::exec(a),
        Command::Graphs(a) => cmd::graphs::exec(a),
        Command::Solve(c) => cmd::solve::exec(c),
        Command::Explore(a) => cmd::explore::exec(a),
        Command::Kinds => cmd::kinds::exec(),
        Command::Serve(a) => cmd::serve::exec(a),
        Command::Launch(a) => cmd::launch::exec(a),
        Command::Status(a) => cmd::status::exec(a),
        Command::Report(a) => cmd::report::exec(a),
        Command::Cancel(a) => cmd::cancel::exec(a),
        Command::Project(a) => cmd::project::exec(a),
        Command::Worker(a) => cmd::worker::exec(a),
        Command::Audit(a) => cmd::audit::exec(a),
        Command::Token(c) => cmd::token::exec(c),
        Command::Export(a) => cmd::export::exec(a),
        Command::Import(a) => cmd::import::exec(a),
        Command::Verify(a) => cmd::verify::exec(a),
        Command::Key(c) => cmd::key::exec(c),
        Command::Store(c) => cmd::store::exec(c),
        Command::Pause(a) => cmd::pause::exec(a, true),
        Command::Resume(a) => cmd::pause::exec(a, false),
        Command::Completions(a) => {
            cmd::docs::completions(a, <Cli as clap::CommandFactory>::command())
        }
        Command::Man(a) => cmd::docs::man(a, <Cli as clap::CommandFactory>::command()),
    }
}
