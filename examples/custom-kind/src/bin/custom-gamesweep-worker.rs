//! `custom-gamesweep-worker`: `gamesweep-worker` with the `custom-node-kayles` game.
fn main() {
    let games = custom_kind::GAMES;
    std::process::exit(gamesweep_worker::cli::main_with_games(
        games,
        std::env::args_os(),
    ));
}
