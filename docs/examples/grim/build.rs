fn main() {
    gamesweep_build::emit_kind_version();
}
