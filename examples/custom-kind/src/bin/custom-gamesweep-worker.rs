//! `custom-gamesweep-worker`: `gamesweep-worker` with the `custom-node-kayles` game.
fn main() {
    let args = std::env::args_os();
    std::process::exit(gamesweep_worker::cli::main_with_games(
        custom_kind::GAMES,
        args,
    ));
}
