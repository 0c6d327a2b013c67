//! `custom-gamesweep`: the `gamesweep` command line with the `custom-node-kayles`
//! game added (run, solve, explore, serve, launch, worker, report, the dashboard).
fn main() {
    std::process::exit(gamesweep_coordinator::main_with_games(custom_kind::GAMES));
}
