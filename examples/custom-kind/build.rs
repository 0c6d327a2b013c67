//! The kind's solver version: `GAMESWEEP_KIND_VERSION`, a hash of this
//! crate's code and locked dependencies (see `gamesweep_build`).
fn main() {
    gamesweep_build::emit_kind_version();
}
