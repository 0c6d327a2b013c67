//! The command line: the clap definition of `gamesweep` and the dispatch to
//! the command modules ([`crate::cmd`]).

use crate::cmd;
use clap::{Parser, Subcommand};

/// Exact exhaustive sweeps for combinatorial game theory.
#[derive(Parser, Debug)]
#[command(name = "gamesweep", version, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a sweep on this machine and write its results (results.json, report.md, report.html, figures/).
    ///
    /// `gamesweep run KIND --help` lists the kind's parameters; `gamesweep kinds` lists the kinds.
    /// Interrupted (Ctrl-C, SIGTERM), it keeps its finished shards: the same command resumes.
    #[command(disable_help_flag = true)]
    Run(cmd::run::RunArgs),
    /// Generate graphs by canonical augmentation, printing graph6 or sparse6 (like nauty's geng).
    Graphs(cmd::graphs::GraphsArgs),
    /// Solve a single position exactly.
    #[command(subcommand)]
    Solve(cmd::solve::SolveCommand),
    /// Build every connected graph with a start of value *V from listed graphs that can hold its *(V−1) option (a smallest-*k case analysis' step).
    ///
    /// A new start t is joined to every non-empty set T of vertices of a listed graph E, and to one of the pads of at most
    /// two vertices (a leaf, two leaves, an edge), such that the values of T's starts in E, with the pad's option values,
    /// take every value 0..V−1 and not V: so t has value *V. If the lists hold every connected graph on M−3 to M−1 vertices
    /// that can carry t's *(V−1) option, the graphs built are every connected M-vertex graph with a start of value *V
    /// (the lemma and its proof: shared/src/uvg/lift.rs). They are solved, kept when their starts take every value of
    /// --cover, and written up to isomorphism as `GRAPH6 v0,v1,…` lines, themselves valid lists for the next step.
    Extend(cmd::extend::ExtendArgs),
    /// Serve the boards: a local web page to see a UVG, Col or Myopic Col position, the values of its moves, and play against the solver.
    Explore(cmd::explore::ExploreArgs),
    /// List the sweep kinds and their parameters.
    Kinds,
    /// Run a coordinator: serve sweeps to workers over gRPC, keeping state in a sled store.
    Serve(cmd::serve::ServeArgs),
    /// Plan a sweep on the coordinator and print its id.
    ///
    /// `gamesweep launch KIND [--PARAMETER N]... [--name ID] [--shards K]`; `gamesweep launch KIND --help` lists the kind's parameters.
    #[command(disable_help_flag = true)]
    Launch(cmd::launch::LaunchArgs),
    /// Show progress of one sweep or all.
    Status(cmd::status::StatusArgs),
    /// Write a finished sweep's report: results.json, report.md and provenance.json from the coordinator, report.html, the figures and the kind's files rendered here (--partial: a sweep not finished, marked partial; --from DIR: re-render, no coordinator).
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
    /// Check a stopped coordinator's store (`store check DIR`), or copy it into a new database (`store compact DIR`).
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
    main_registered()
}

/// [`main_with`] for games on the graph-game layer defined outside the
/// workspace (each `Layered(YourGame)`): besides being sweep kinds, they get
/// `gamesweep solve GAME GRAPH6` and their board in `gamesweep explore`.
pub fn main_with_games(
    games: &'static [&'static dyn gamesweep::families::graph_game::GameKind],
) -> i32 {
    if let Err(e) = gamesweep::kinds::register_games(games) {
        eprintln!("gamesweep: {e}");
        return 2;
    }
    main_registered()
}

/// The process once the kinds are registered.
fn main_registered() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    match dispatch(cli) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("gamesweep: {err:#}");
            crate::error::exit_code(&err)
        }
    }
}

/// A command line clap refused (or `--help`, `--version`): help and version
/// go to stdout (exit 0); an error is printed as every error of `gamesweep`
/// is, "gamesweep: " then what was wrong (exit 2).
fn clap_exit(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            2
        }
        _ => {
            eprintln!("gamesweep: {}", crate::args::clap_error_text(e));
            2
        }
    }
}

/// The command line as man pages and completions show it: [`Cli`]'s, with
/// `run` and `launch` given one subcommand per kind of the registry (its
/// parameters and the command's options; see
/// [`crate::args::documented_kinds_command`]). `options_here`: list `run`'s
/// and `launch`'s options on them too (for the man pages).
pub fn documented_command(options_here: bool) -> clap::Command {
    let cli = <Cli as clap::CommandFactory>::command();
    let kinds = |verb: &'static str, common: fn(clap::Command) -> clap::Command| {
        let parsed = cli
            .find_subcommand(verb)
            .cloned()
            .unwrap_or_else(|| clap::Command::new(verb));
        crate::args::documented_kinds_command(parsed, verb, common, options_here)
    };
    let run = kinds("run", crate::args::run::options);
    let launch = kinds("launch", cmd::launch::launch_options);
    cli.mut_subcommand("run", |_| run)
        .mut_subcommand("launch", |_| launch)
}

/// Run the parsed command.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(a) => cmd::run::exec(a),
        Command::Graphs(a) => cmd::graphs::exec(a),
        Command::Solve(c) => cmd::solve::exec(c),
        Command::Extend(a) => cmd::extend::exec(a),
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
        Command::Completions(a) => cmd::docs::completions(a, documented_command(false)),
        Command::Man(a) => cmd::docs::man(a, documented_command(true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `gamesweep` call of the man pages' examples parses, the kind's
    /// parameters and options of `run` and `launch` included.
    #[test]
    fn man_page_examples_parse() {
        for (_, call, _) in cmd::docs::EXAMPLES {
            let parts = call
                .replace(" | ", "\n")
                .replace(" > ", "\n")
                .replace(" & ", "\n");
            for part in parts.lines() {
                let words: Vec<String> = part
                    .split_whitespace()
                    .map(|w| w.trim_matches('\'').to_string())
                    .collect();
                if words.first().map(String::as_str) != Some("gamesweep") {
                    continue;
                }
                let cli = Cli::try_parse_from(&words)
                    .unwrap_or_else(|e| panic!("{part}: {}", crate::args::clap_error_text(&e)));
                let kind_words = match cli.command {
                    Command::Run(a) => {
                        Some(("run", a.words, crate::args::run::options as fn(_) -> _))
                    }
                    Command::Launch(a) => {
                        Some(("launch", a.words, cmd::launch::launch_options as fn(_) -> _))
                    }
                    _ => None,
                };
                if let Some((verb, w, common)) = kind_words {
                    if let Err(e) = crate::args::parse_kind_args(verb, &w, common) {
                        panic!("{part}: {e}");
                    }
                }
            }
        }
    }
}
