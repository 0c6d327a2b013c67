//! `gamesweep-worker`: a stateless worker process (same as `gamesweep worker`).
fn main() {
    std::process::exit(gamesweep_worker::cli::main_with(std::env::args_os()));
}
