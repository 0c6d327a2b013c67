//! The version id of an outside kind's crate (`outside_version_id`), on
//! synthetic crates: comments, docs and tests never change it; code, a
//! binary, a manifest line and a locked dependency always do.

use gamesweep_build::{outside_version_id, BuildError};
use std::path::Path;

const LOCK: &str = r#"version = 4

[[package]]
name = "gamesweep"
version = "0.1.0"
dependencies = [
 "serde",
]

[[package]]
name = "my-kind"
version = "0.1.0"
dependencies = [
 "gamesweep",
]

[[package]]
name = "serde"
version = "1.0.1"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "aaaa"
"#;

const MANIFEST: &str = "[package]\nname = \"my-kind\"\nedition = \"2021\"\n\n[dependencies]\ngamesweep = { path = \"../shared\" }\n";

const LIB: &str = "//! A kind.\nmod game;\n/// The value.\npub fn value() -> u32 { game::rule() + 1 }\n#[cfg(test)]\nmod tests;\n";
const GAME: &str = "pub fn rule() -> u32 { 2 }\n";
const BIN: &str = "fn main() { println!(\"{}\", my_kind::value()); }\n";

/// A workspace with the crate at `ws/my-kind`.
fn crate_at(root: &Path) -> std::path::PathBuf {
    let dir = root.join("my-kind");
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    std::fs::write(root.join("Cargo.lock"), LOCK).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nmembers = [\"my-kind\"]\n\n[workspace.dependencies]\nserde = \"1\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("Cargo.toml"), MANIFEST).unwrap();
    std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
    std::fs::write(dir.join("src/game.rs"), GAME).unwrap();
    std::fs::write(dir.join("src/tests.rs"), "#[test] fn t() {}\n").unwrap();
    std::fs::write(dir.join("src/bin/run.rs"), BIN).unwrap();
    dir
}

fn id(dir: &Path) -> String {
    outside_version_id(dir, "my-kind").unwrap()
}

/// Apply `edit` to a fresh copy and compare its id with the original's.
fn changes(edit: impl Fn(&Path, &Path)) -> bool {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (da, db) = (crate_at(a.path()), crate_at(b.path()));
    edit(b.path(), &db);
    id(&da) != id(&db)
}

fn write(p: &Path, text: &str) {
    std::fs::write(p, text).unwrap();
}

#[test]
fn comments_docs_and_tests_keep_the_version() {
    let a = tempfile::tempdir().unwrap();
    assert_eq!(id(&crate_at(a.path())).len(), 32);
    assert!(!changes(|_, d| write(
        &d.join("src/lib.rs"),
        &LIB.replace(
            "/// The value.",
            "/// The value, documented at length.\n// and a comment"
        )
    )));
    assert!(!changes(|_, d| write(
        &d.join("src/tests.rs"),
        "#[test] fn u() { assert!(true) }\n"
    )));
    assert!(!changes(|_, d| write(
        &d.join("src/game.rs"),
        &format!("{GAME}#[cfg(test)]\nmod more {{ #[test] fn x() {{}} }}\n")
    )));
    assert!(!changes(|_, d| write(&d.join("README.md"), "docs\n")));
}

#[test]
fn code_manifests_and_locked_crates_change_the_version() {
    // the kind's code, a module it uses, a binary
    assert!(changes(|_, d| write(
        &d.join("src/game.rs"),
        "pub fn rule() -> u32 { 3 }\n"
    )));
    assert!(changes(|_, d| write(
        &d.join("src/lib.rs"),
        &LIB.replace("+ 1", "+ 2")
    )));
    assert!(changes(|_, d| write(
        &d.join("src/bin/run.rs"),
        &BIN.replace("{}", "{}!")
    )));
    // a dependency line, a workspace dependency, the edition
    assert!(changes(|_, d| write(
        &d.join("Cargo.toml"),
        &format!("{MANIFEST}serde = \"1\"\n")
    )));
    assert!(changes(|r, _| {
        write(
        &r.join("Cargo.toml"),
        "[workspace]\nmembers = [\"my-kind\"]\n\n[workspace.dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n"
    )
    }));
    assert!(changes(|_, d| write(
        &d.join("Cargo.toml"),
        &MANIFEST.replace("2021", "2024")
    )));
    // a crate locked below gamesweep (the kind runs gamesweep's code)
    assert!(changes(|r, _| write(
        &r.join("Cargo.lock"),
        &LOCK.replace("1.0.1", "1.0.2")
    )));
    assert!(changes(|r, _| write(
        &r.join("Cargo.lock"),
        &LOCK.replace("aaaa", "bbbb")
    )));
}

#[test]
fn a_missing_module_or_lock_is_an_error_naming_it() {
    let a = tempfile::tempdir().unwrap();
    let d = crate_at(a.path());
    std::fs::remove_file(d.join("src/game.rs")).unwrap();
    let e = outside_version_id(&d, "my-kind").unwrap_err();
    assert!(matches!(e, BuildError::Tree(_)), "{e}");
    assert!(e.to_string().contains("game"), "{e}");
    let b = tempfile::tempdir().unwrap();
    let d = crate_at(b.path());
    std::fs::remove_file(b.path().join("Cargo.lock")).unwrap();
    // (a Cargo.lock above the temporary directory would be found instead)
    if let Err(e) = outside_version_id(&d, "my-kind") {
        assert!(e.to_string().contains("Cargo.lock"), "{e}");
    }
}
