//! `custom-gamesweep-worker`: `gamesweep-worker` with the `node-kayles` kind.
fn main() {
    std::process::exit(gamesweep_worker::cli::main_with_kinds(
        custom_kind::KINDS,
        std::env::args_os(),
    ));
}
