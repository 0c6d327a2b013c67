//! `gamesweep`: the user-facing command line.
fn main() {
    eprintln!("gamesweep: not built yet");
    std::process::exit(2);
}
