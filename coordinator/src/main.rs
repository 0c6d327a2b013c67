//! `gamesweep`: the command line of the library, with the built-in kinds only.

fn main() {
    let code = gamesweep_coordinator::main_with(&[]);
    if code != 0 {
        std::process::exit(code);
    }
}
