//! `custom-gamesweep`: the `gamesweep` command line with the `custom-node-kayles`
//! kind added (run, serve, launch, worker, report, the dashboard).
fn main() {
    let code = gamesweep_coordinator::main_with(custom_kind::KINDS);
    if code != 0 {
        std::process::exit(code);
    }
}
