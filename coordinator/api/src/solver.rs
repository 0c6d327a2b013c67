//! The solver versions a build runs, one per kind. Workers send them with
//! every request; a coordinator serves a worker the shards of a sweep only
//! if the worker's version of that sweep's kind equals the one the sweep was
//! launched with, so a change to one kind never stops workers from serving
//! the others.

/// This build's solver versions: `kind=version` for every registered kind,
/// sorted, joined by `,`.
pub fn solver_version() -> String {
    let mut v: Vec<String> = gamesweep::kinds::registry()
        .iter()
        .map(|k| format!("{}={}", k.name(), k.version()))
        .collect();
    v.sort();
    v.join(",")
}

/// The version of `kind` in a worker's [`solver_version`] list.
pub fn version_for<'a>(versions: &'a str, kind: &str) -> Option<&'a str> {
    versions
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == kind)
        .map(|(_, v)| v)
}
