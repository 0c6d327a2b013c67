//! `custom-gamesweep-worker`: `gamesweep-worker` with the `custom-node-kayles` kind.
fn main() {
    std::process::exit(gamesweep_worker::cli::main_with_kinds(
        custom_kind::KINDS,
        std::env::args_os(),
    ));
}
