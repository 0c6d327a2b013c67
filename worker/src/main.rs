fn main() {
    eprintln!("gamesweep-worker: the distributed runtime is not built yet; use `gamesweep run`.");
    std::process::exit(2);
}
