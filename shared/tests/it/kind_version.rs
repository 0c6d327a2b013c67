//! Solver version per kind (`build/versions.rs`, the logic `build.rs` runs):
//! tests, comments and unrelated code never change a kind's version; code it
//! can run and the locked crates it uses always do.

use crate::versions;
use crate::versions::{analyse, dependency_names, read_tree, toml_section, Analysis, Inputs};
use gamesweep::kinds;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn real_inputs() -> Inputs {
    versions::read_inputs(&manifest_dir(), "gamesweep")
}

fn crates_of(inputs: &Inputs) -> BTreeSet<String> {
    dependency_names(&toml_section(&inputs.manifest, "dependencies"))
}

fn analysis(src: &Path, inputs: &Inputs) -> Analysis {
    analyse(read_tree(src).unwrap(), &crates_of(inputs))
}

fn unit_versions(src: &Path, inputs: &Inputs) -> BTreeMap<String, String> {
    versions::unit_versions(&analysis(src, inputs), inputs)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let q = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

/// A copy of the real `src/` in a temp dir.
fn real_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    copy_dir(&manifest_dir().join("src"), &src);
    (dir, src)
}

fn edit(src: &Path, file: &str, f: impl FnOnce(String) -> String) {
    let p = src.join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    let new = f(text.clone());
    assert_ne!(new, text, "{file}: the edit changed nothing");
    std::fs::write(&p, new).unwrap();
}

/// The units whose version differs between two tables.
fn changed(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> BTreeSet<String> {
    a.keys()
        .chain(b.keys())
        .filter(|u| a.get(*u) != b.get(*u))
        .cloned()
        .collect()
}

/// The units of the kinds (`kinds/<name>`).
fn kind_units(a: &Analysis) -> BTreeSet<String> {
    a.units()
        .into_iter()
        .filter(|u| u.starts_with("kinds/"))
        .collect()
}

/// Units whose closure contains `unit`.
fn dependents(a: &Analysis, unit: &str) -> BTreeSet<String> {
    a.units()
        .into_iter()
        .filter(|u| a.closure(u).contains(unit))
        .collect()
}

fn set(xs: &[&str]) -> BTreeSet<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

// ------------------------------------------------------------ the lexer

#[test]
fn comments_go_strings_stay() {
    let norm = |s: &str| versions::normalized(&versions::tokenize(s));
    let plain = r####"fn f() -> &'static str { let c = '"'; let d = '\''; let s = "a // b /* c */"; let r = r#"x "// y"#; let b = b"//"; g::<'a>(c, 1.5, s, r, b) }"####;
    let commented = r####"//! inner doc
/// outer doc
fn f() -> &'static str { // trailing
    /* block /* nested */ still comment */ let c = '"'; let d = '\''; // after a char
    let s = "a // b /* c */"; /** doc block */
    let r = r#"x "// y"#; let b = b"//";
    g::<'a>(c, 1.5, s, r, b) /* end */ }
"####;
    assert_eq!(norm(plain), norm(commented));
    // the literals are kept verbatim: changing inside one is a change
    assert_ne!(norm(plain), norm(&plain.replace("a // b", "a // c")));
    assert_ne!(norm(plain), norm(&plain.replace("\"// y", "\"// z")));
    // whitespace only separates: `a&&b` is not `a & &b`
    assert_eq!(norm("a  &&\n\tb"), norm("a && b"));
    assert_ne!(norm("a && b"), norm("a & &b"));
    assert_eq!(norm("a/*x*/b"), "a b");
}

#[test]
fn cfg_test_items_are_cut_and_nothing_else() {
    let strip =
        |s: &str| versions::normalized(&versions::strip_cfg_test(versions::tokenize(s)).unwrap());
    let code = "use a::b; pub fn f(x: u32) -> u32 { x + 1 } struct S { a: u8, b: u8 }";
    let with_tests = "use a::b; #[cfg(test)] use c::d; pub fn f(x: u32) -> u32 { x + 1 } \
        #[cfg(test)] #[path = \"f_test.rs\"] mod tests; \
        struct S { a: u8, #[cfg(test)] t: Vec<u8>, b: u8 } \
        #[cfg(test)] mod more { use super::*; #[test] fn t() { assert_eq!(f(1), 2); } }";
    assert_eq!(strip(code), strip(with_tests));
    // a field cut at its comma; the next field stays
    assert_eq!(
        strip("struct S { #[cfg(test)] t: u8, b: u8 }"),
        "struct S { b: u8 }"
    );
    // other cfgs stay
    assert_ne!(
        strip(code),
        strip(&format!("{code} #[cfg(feature = \"x\")] fn g() {{}}"))
    );
    // a file that is all test
    assert!(versions::strip_cfg_test(versions::tokenize("#![cfg(test)] fn t() {}")).is_none());
}

// ------------------------------------------- the real tree, as it stands

#[test]
fn real_tree_closures() {
    let inputs = real_inputs();
    let a = analysis(&manifest_dir().join("src"), &inputs);
    for u in a.units() {
        eprintln!("{u:>18}: {:?} crates {:?}", a.closure(&u), a.crates_of(&u));
    }
    let kinds = kind_units(&a);
    assert!(kinds.len() >= 5, "{kinds:?}");
    // (d) every kind's closure includes the sweep framework
    for k in &kinds {
        assert!(a.closure(k).contains("sweep"), "{k}");
    }
    // solvers never depend on a kind (they may appear to depend on the
    // framework: names are not resolved, so a trait named `Kind` in `sweep`
    // can link any unit that mentions a `Kind`, `cgt` included)
    for u in [
        "graph",
        "gen",
        "uvg",
        "cgt",
        "col",
        "gamegraph",
        "bft",
        "fxhash",
    ] {
        let c = a.closure(u);
        assert!(!c.iter().any(|x| x.starts_with("kinds")), "{u}: {c:?}");
    }
    // no kind depends on another kind, nor on the registry, nor on its own
    // display module (which depends on its kind only)
    for k in &kinds {
        let c = a.closure(k);
        let others: Vec<&String> = c
            .iter()
            .filter(|x| x.starts_with("kinds") && *x != k)
            .filter(|x| !(versions::is_display_unit(k) && k.starts_with(x.as_str())))
            .collect();
        assert!(others.is_empty(), "{k} depends on {others:?}");
    }
    // and the framework does not depend on a kind
    assert!(!a.closure("sweep").iter().any(|x| x.starts_with("kinds")));
    // what the kinds use
    assert!(a.closure("kinds/col").contains("col"));
    assert!(!a.closure("kinds/uvg").contains("col"));
    assert!(a.closure("kinds/subtraction").contains("gamegraph"));
    assert!(a
        .crates_of("kinds/uvg_local_search")
        .contains("rand_chacha"));
    // the graph planner of `sweep` estimates with `gen`'s seeded random
    // probes, so every kind's plan depends on the RNG
    assert!(a.crates_of("kinds/subtraction").contains("rand_chacha"));
    assert!(!a.crates_of("kinds/subtraction").contains("tokio"));
    assert!(a.crates_of("kinds/subtraction").contains("serde_json"));
    // test-only files are not part of any unit
    let paths: BTreeSet<&str> = a.files.iter().map(|f| f.path.as_str()).collect();
    for t in [
        "kinds/uvg/tests.rs",
        "kinds/col/tests.rs",
        "cgt/tests.rs",
        "gen/tests.rs",
    ] {
        assert!(!paths.contains(t), "{t}");
    }
    assert!(paths.contains("kinds/subtraction/mod.rs") && paths.contains("uvg/bitsliced.rs"));
}

/// The table compiled into the crate is the one this logic computes now.
#[test]
fn compiled_table_is_current() {
    let table = versions::file_versions(&manifest_dir().join("src"), &real_inputs()).unwrap();
    let compiled: BTreeMap<String, String> = gamesweep::SOURCE_VERSIONS
        .iter()
        .map(|(p, v)| (p.to_string(), v.to_string()))
        .collect();
    assert_eq!(compiled, table);
}

/// (d) every registered kind: a distinct, non-empty version; typed kinds
/// found in the table by their `source_file()`.
#[test]
fn every_kind_has_its_own_version() {
    let mut seen = BTreeMap::new();
    for k in kinds::registry().iter().chain(kinds::hidden()) {
        let v = k.version();
        let prefix = format!("{}+", gamesweep::CRATE_VERSION);
        assert!(
            v.starts_with(&prefix) && v.len() == prefix.len() + 32,
            "{}: {v}",
            k.name()
        );
        {
            assert!(
                gamesweep::source_version(k.source_file()).is_some(),
                "{}: {} is not in the table",
                k.name(),
                k.source_file()
            );
            assert_ne!(v, format!("{prefix}{}", gamesweep::BUILD_ID));
            if let Some(other) = seen.insert(v.clone(), k.name()) {
                panic!("{} and {other} share version {v}", k.name());
            }
        }
    }
    let sub = kinds::find("subtraction").unwrap();
    assert!(sub.source_file().ends_with("kinds/subtraction/mod.rs"));
    assert_eq!(
        sub.version(),
        gamesweep::kind_version("shared/src/kinds/subtraction/mod.rs", "subtraction")
    );
    // the lookup normalises paths
    let id = gamesweep::source_version("kinds/subtraction/mod.rs").unwrap();
    for p in [
        "shared/src/kinds/subtraction/mod.rs",
        "src/kinds/subtraction/mod.rs",
        "/home/x/gamesweep/shared/src/kinds/subtraction/mod.rs",
        "shared\\src\\kinds\\subtraction\\mod.rs",
    ] {
        assert_eq!(gamesweep::source_version(p), Some(id), "{p}");
    }
    assert_eq!(gamesweep::source_version("shared/src/kinds/nope.rs"), None);
    assert_eq!(
        gamesweep::source_version("shared/xsrc/kinds/subtraction/mod.rs"),
        None
    );
}

// ------------------------------------------------------- (a) no change

/// Comments, doc comments, tests (inline modules, `#[path]` test files, test
/// files' contents) and formatting whitespace leave every version unchanged.
#[test]
fn tests_and_docs_change_no_version() {
    let inputs = real_inputs();
    let (_d, src) = real_copy();
    let before = unit_versions(&src, &inputs);
    edit(&src, "kinds/uvg/mod.rs", |t| {
        format!(
            "//! One more line of module docs.\n{}\n\
             /// A doc comment on nothing much.\n// and a comment\n/* and a block */\n\
             #[cfg(test)]\nmod more_tests {{\n    #[test]\n    fn t() {{ assert_eq!(1 + 1, 2); }}\n}}\n\
             #[cfg(test)]\n#[path = \"uvg_more_test.rs\"]\nmod more_file_tests;\n",
            t.replace("\n}\n", "\n}\n\n")
        )
    });
    std::fs::write(
        src.join("kinds/uvg/uvg_more_test.rs"),
        "#[test] fn x() {}\n",
    )
    .unwrap();
    edit(&src, "kinds/uvg/tests.rs", |t| {
        format!("{t}\n#[test]\nfn extra() {{}}\n")
    });
    edit(&src, "uvg/mod.rs", |t| {
        t.replace(
            "#[cfg(test)]\nmod tests {",
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn extra() {}",
        )
    });
    edit(&src, "kinds/col/tests.rs", |t| format!("{t}\n// note\n"));
    edit(&src, "col/mod.rs", |t| t.replacen("//!", "//! (edited)", 3));
    edit(&src, "sweep/mod.rs", |t| t.replace("///", "/// Edited:"));
    edit(&src, "graph/mod.rs", |t| {
        t.replace(
            "#[cfg(test)]\nmod tests {",
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn added() {}",
        )
    });
    let after = unit_versions(&src, &inputs);
    assert_eq!(changed(&before, &after), BTreeSet::new());
}

// ------------------------------------------------ (b) code changes

/// A code change in unit `unit` (in `file`) changes exactly the versions of
/// the units whose closure holds `unit`.
fn code_change(file: &str, unit: &str, f: impl FnOnce(String) -> String) -> BTreeSet<String> {
    let inputs = real_inputs();
    let (_d, src) = real_copy();
    let a = analysis(&src, &inputs);
    let before = versions::unit_versions(&a, &inputs);
    edit(&src, file, f);
    let after = unit_versions(&src, &inputs);
    let got = changed(&before, &after);
    assert_eq!(got, dependents(&a, unit), "{file}");
    got
}

#[test]
fn col_code_changes_myopic_kinds_not_uvg() {
    let got = code_change("col/solver.rs", "col", |t| {
        format!("{t}\npub fn probe_added() -> u32 {{ 1 }}\n")
    });
    assert!(got.contains("kinds/col") && got.contains("col"), "{got:?}");
    for k in [
        "kinds/uvg",
        "kinds/uvg_local_search",
        "kinds/subtraction",
        "kinds/uvg_reduction",
        "sweep",
    ] {
        assert!(!got.contains(k), "{k}: {got:?}");
    }
}

#[test]
fn a_kind_changes_only_itself_and_the_registry() {
    // (its display module imports it, so it changes too)
    let got = code_change("kinds/uvg/mod.rs", "kinds/uvg", |t| {
        format!("{t}\nfn probe_a() {{}}\n")
    });
    assert_eq!(got, set(&["kinds", "kinds/uvg", "kinds/uvg/report"]));
    let got = code_change("kinds/myopic_tree/validate.rs", "kinds/myopic_tree", |t| {
        format!("{t}\nfn probe_b() {{}}\n")
    });
    assert_eq!(
        got,
        set(&["kinds", "kinds/myopic_tree", "kinds/myopic_tree/report"])
    );
}

#[test]
fn framework_and_shared_solver_changes_reach_every_user() {
    let inputs = real_inputs();
    let (_d, src) = real_copy();
    let a = analysis(&src, &inputs);
    let got = code_change("sweep/merge.rs", "sweep", |t| {
        format!("{t}\npub fn probe_c() {{}}\n")
    });
    assert!(kind_units(&a).is_subset(&got), "{got:?}");
    let got = code_change("graph/mod.rs", "graph", |t| {
        format!("{t}\npub const PROBE: u8 = 1;\n")
    });
    assert!(got.contains("kinds/uvg") && got.contains("kinds/col") && got.contains("uvg"));
    // a string literal is code
    let got = code_change("kinds/subtraction/mod.rs", "kinds/subtraction", |t| {
        t.replacen("outcome PREPERIOD+PERIOD", "outcome PRE+PER", 1)
    });
    assert_eq!(
        got,
        set(&["kinds", "kinds/subtraction", "kinds/subtraction/report"])
    );
}

/// Code acting from a distance: an inherent `impl` (or trait impl) for a
/// type of unit `a` written in unit `b` is part of every user of `a`; paths
/// in strings (`serde(with = "...")`), `super::super::` from inline modules,
/// glob and module imports are followed.
#[test]
fn synthetic_tree_edges() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let files: &[(&str, &str)] = &[
        ("lib.rs", "pub mod a; pub mod b; pub mod c; pub mod d; pub mod e; pub mod kinds; pub const TOP: u8 = 1;"),
        ("a.rs", "pub struct S; pub trait T { fn t(&self) -> u8; }"),
        ("b.rs", "impl crate::a::S { pub fn extra(&self) -> u8 { 7 } } impl crate::a::T for u64 { fn t(&self) -> u8 { 1 } }"),
        ("c.rs", "pub fn helper() -> u8 { 3 }"),
        ("d.rs", "pub fn unused() -> u8 { 4 }"),
        ("e.rs", "pub fn ser() {}"),
        ("kinds/mod.rs", "pub mod k1; pub mod k2; pub mod k3; pub mod k4; pub fn registry() -> [u8; 2] { [k1::ID, k2::ID] }"),
        ("kinds/k1.rs", "use crate::a::S; pub const ID: u8 = 1; pub fn run(s: &S) -> u8 { s.extra() }"),
        ("kinds/k2.rs", "pub const ID: u8 = 2; mod inner { pub fn f() -> u8 { super::super::super::c::helper() } } #[cfg(test)] mod tests { use crate::d::unused; }"),
        ("kinds/k3.rs", "#[derive(serde::Serialize)] pub struct X { #[serde(serialize_with = \"crate::e::ser\")] pub x: u8 } pub fn top() -> u8 { crate::TOP }"),
        ("kinds/k4.rs", "use crate::kinds; pub fn all() -> [u8; 2] { kinds::registry() }"),
    ];
    for (p, text) in files {
        let p = src.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let crates = set(&["serde", "rand"]);
    let a = analyse(read_tree(&src).unwrap(), &crates);
    assert_eq!(a.closure("kinds/k1"), set(&["kinds/k1", "a", "b"]));
    assert_eq!(a.closure("kinds/k2"), set(&["kinds/k2", "c"]));
    assert_eq!(a.closure("kinds/k3"), set(&["kinds/k3", "e", ""]));
    assert_eq!(a.crates_of("kinds/k3"), set(&["serde"]));
    // importing the `kinds` module itself: every kind below it
    assert!(a
        .closure("kinds/k4")
        .is_superset(&set(&["kinds", "kinds/k1", "kinds/k2", "kinds/k3"])));
    // `impl T for u64` in b: users of the trait get b
    assert!(a.closure("a").contains("b"));
    // versions: the root file's items are hashed into every unit
    let inputs = Inputs {
        manifest: "[dependencies]\nserde = \"1\"\nrand = \"0.9\"\n".into(),
        workspace_manifest: String::new(),
        lock: String::new(),
        package: "x".into(),
    };
    let before = versions::unit_versions(&a, &inputs);
    std::fs::write(src.join("b.rs"), "impl crate::a::S { pub fn extra(&self) -> u8 { 8 } } impl crate::a::T for u64 { fn t(&self) -> u8 { 1 } }").unwrap();
    let after = versions::unit_versions(&analyse(read_tree(&src).unwrap(), &crates), &inputs);
    assert_eq!(
        changed(&before, &after),
        set(&["a", "b", "kinds/k1", "kinds/k4", "kinds"])
    );
}

// ---------------------------------------------- (c) locked dependencies

/// `lock` with the (first) locked version of `name` changed, and the
/// dependency entries that name that version changed with it.
fn bump(lock: &str, name: &str) -> String {
    let needle = format!("name = \"{name}\"\nversion = \"");
    let i = lock
        .find(&needle)
        .unwrap_or_else(|| panic!("{name} not in Cargo.lock"))
        + needle.len();
    let old = &lock[i..i + lock[i..].find('"').unwrap()];
    let new = format!("{old}-bumped");
    let out = format!("{}{new}{}", &lock[..i], &lock[i + old.len()..]);
    out.replace(&format!("\"{name} {old}\""), &format!("\"{name} {new}\""))
}

#[test]
fn locked_dependency_versions_are_part_of_the_version() {
    let src = manifest_dir().join("src");
    let inputs = real_inputs();
    let a = analysis(&src, &inputs);
    let before = versions::unit_versions(&a, &inputs);
    let with = |lock: String| Inputs {
        lock,
        ..real_inputs()
    };
    // the RNG: the units whose code uses it (every kind, through the
    // planner), and only they
    let after = versions::unit_versions(&a, &with(bump(&inputs.lock, "rand_chacha")));
    let got = changed(&before, &after);
    assert!(kind_units(&a).is_subset(&got), "{got:?}");
    let users: BTreeSet<String> = a
        .units()
        .into_iter()
        .filter(|u| a.crates_of(u).contains("rand_chacha"))
        .collect();
    assert_eq!(got, users);
    assert!(!got.contains("uvg") && !got.contains("graph"), "{got:?}");
    // a crate used only through another (rand_core, via rand and rand_chacha)
    let after = versions::unit_versions(&a, &with(bump(&inputs.lock, "rand_core")));
    assert!(changed(&before, &after).contains("kinds/uvg_local_search"));
    // JSON output: every kind
    let after = versions::unit_versions(&a, &with(bump(&inputs.lock, "serde_json")));
    assert!(kind_units(&a).is_subset(&changed(&before, &after)));
    // a crate serde_json formats floats with: every kind too
    let after = versions::unit_versions(&a, &with(bump(&inputs.lock, "zmij")));
    assert!(kind_units(&a).is_subset(&changed(&before, &after)));
    // a crate of the runtime only: no kind
    let after = versions::unit_versions(&a, &with(bump(&inputs.lock, "tokio")));
    assert_eq!(changed(&before, &after), BTreeSet::new());
    // the dependency declarations (features) of a crate the kind uses
    let ws = inputs.workspace_manifest.replace(
        "rand_chacha = \"0.9\"",
        "rand_chacha = { version = \"0.9\", features = [\"std\"] }",
    );
    assert_ne!(ws, inputs.workspace_manifest);
    let after = versions::unit_versions(
        &a,
        &Inputs {
            workspace_manifest: ws,
            ..real_inputs()
        },
    );
    let got = changed(&before, &after);
    assert_eq!(got, users);
    // and of a crate no kind uses: none
    let ws = inputs
        .workspace_manifest
        .replace("sled = \"0.34\"", "sled = \"0.35\"");
    assert_ne!(ws, inputs.workspace_manifest);
    let after = versions::unit_versions(
        &a,
        &Inputs {
            workspace_manifest: ws,
            ..real_inputs()
        },
    );
    assert_eq!(changed(&before, &after), BTreeSet::new());
}

#[test]
fn a_display_only_module_changes_no_kind_version() {
    // The tree without `draw` (as before it was added) gives every unit but
    // `draw` and the root (which declares it) the same version: its
    // declaration in lib.rs is not hashed for units that do not reach it.
    let inputs = real_inputs();
    let (_d, src) = real_copy();
    let with = unit_versions(&src, &inputs);
    edit(&src, "lib.rs", |t| t.replace("pub mod draw;\n", ""));
    std::fs::remove_dir_all(src.join("draw")).unwrap();
    let without = unit_versions(&src, &inputs);
    // `board` (display-only too) draws with `draw`, so it changes as well.
    assert_eq!(changed(&with, &without), set(&["", "draw", "board"]));
    // The same for `board`: only it and the root change.
    let (_d3, src3) = real_copy();
    edit(&src3, "lib.rs", |t| t.replace("pub mod board;\n", ""));
    std::fs::remove_dir_all(src3.join("board")).unwrap();
    assert_eq!(
        changed(&with, &unit_versions(&src3, &inputs)),
        set(&["", "board"])
    );
    // Another new top-level module does change every version.
    edit(&src, "lib.rs", |t| {
        t.replace("pub mod col;\n", "pub mod col;\npub mod probe;\n")
    });
    std::fs::write(src.join("probe.rs"), "pub fn probe() {}\n").unwrap();
    let probed = unit_versions(&src, &inputs);
    let got = changed(&without, &probed);
    assert!(
        got.contains("kinds/uvg") && got.contains("probe"),
        "{got:?}"
    );
    // A kind that uses `draw` hashes it, declaration and all.
    let (_d2, src2) = real_copy();
    edit(&src2, "kinds/uvg/mod.rs", |t| {
        format!("{t}\nfn probe_pictures() -> usize {{ crate::draw::MAX_DRAW_N }}\n")
    });
    let a = analysis(&src2, &inputs);
    assert!(a.closure("kinds/uvg").contains("draw"));
    let uses = versions::unit_versions(&a, &inputs);
    edit(&src2, "draw/mod.rs", |t| {
        format!("{t}\npub fn probe_c() {{}}\n")
    });
    let after = unit_versions(&src2, &inputs);
    assert!(changed(&uses, &after).contains("kinds/uvg"));
}

#[test]
fn no_kind_depends_on_a_display_only_module() {
    let a = analysis(&manifest_dir().join("src"), &real_inputs());
    for k in kind_units(&a) {
        for m in versions::DISPLAY_ONLY {
            assert!(!a.closure(&k).contains(*m), "{k} depends on {m}");
        }
    }
}

// ------------------------------------- (e) a kind's display-only module

/// Changing only a kind's `report.rs` (its report text, or new display code)
/// keeps the kind's version: only the display unit itself changes.
#[test]
fn a_report_only_edit_keeps_the_kind_version() {
    let inputs = real_inputs();
    let (_d, src) = real_copy();
    let before = unit_versions(&src, &inputs);
    assert!(before.contains_key("kinds/uvg/report"), "{before:?}");
    edit(&src, "kinds/uvg/report.rs", |t| {
        format!(
            "{}\npub(super) fn caption_probe(d: &UvgDoc) -> String {{ format!(\"{{}} rows\", d.by_n.len()) }}\n",
            t.replacen("## ", "## Edited ", 1)
        )
    });
    edit(&src, "kinds/subtraction/report.rs", |t| {
        t.replacen(
            "fn report_md",
            "fn report_md_probe() {}\npub(super) fn report_md",
            1,
        )
    });
    let after = unit_versions(&src, &inputs);
    assert_eq!(
        changed(&before, &after),
        set(&["kinds/uvg/report", "kinds/subtraction/report"])
    );
    // and the table maps the kind's own files to the kind's version, the
    // report file to the display unit's
    let table = versions::file_versions(&src, &inputs).unwrap();
    assert_eq!(table["kinds/uvg/mod.rs"], after["kinds/uvg"]);
    assert_eq!(table["kinds/uvg/report.rs"], after["kinds/uvg/report"]);
    assert_eq!(before["kinds/uvg"], after["kinds/uvg"]);
}

/// An edit anywhere else in the kind's folder (run, validate, recount,
/// document, the `Kind` impl) changes its version.
#[test]
fn an_edit_outside_report_changes_the_kind_version() {
    for (file, unit) in [
        ("kinds/uvg/run.rs", "kinds/uvg"),
        ("kinds/uvg/validate.rs", "kinds/uvg"),
        ("kinds/uvg/mod.rs", "kinds/uvg"),
        ("kinds/col/validate.rs", "kinds/col"),
    ] {
        let got = code_change(file, unit, |t| format!("{t}\nfn probe_v() {{}}\n"));
        assert!(got.contains(unit), "{file}: {got:?}");
        // the display unit imports its kind, so it changes too; nothing else
        // but the registry
        assert_eq!(
            got,
            set(&["kinds", unit, &format!("{unit}/report")]),
            "{file}"
        );
    }
}

/// A versioned module that reaches the display module is refused (the build
/// fails naming the file), rather than pulling `report.rs` into the version
/// (see `shared/build/versions.rs`, "Display-only modules"). The
/// presentation method's own body may call it.
#[test]
fn versioned_code_reaching_the_report_module_is_refused() {
    let inputs = real_inputs();
    let refused = |file: &str, f: &dyn Fn(String) -> String, want: &str| {
        let (_d, src) = real_copy();
        edit(&src, file, f);
        let e = versions::file_versions(&src, &inputs).expect_err(file);
        assert!(
            e.contains(want) && e.contains("display-only"),
            "{file}: {e}"
        );
    };
    // an import of the display module in validation code
    refused(
        "kinds/uvg/validate.rs",
        &|t| format!("{t}\nuse super::report::report_md;\n"),
        "kinds/uvg/validate.rs",
    );
    // a path through the glob import (`use super::*` makes `report` nameable)
    refused(
        "kinds/uvg/run.rs",
        &|t| format!("{t}\nfn probe(d: &UvgDoc) -> usize {{ report::report_md(d).len() }}\n"),
        "kinds/uvg/run.rs",
    );
    // the document built from report text: a call of the presentation method
    refused(
        "kinds/subtraction/mod.rs",
        &|t| {
            format!("{t}\nfn probe(p: &SubtractionParams, d: &SubtractionDoc) -> usize {{ SUBTRACTION.report(p, d).len() }}\n")
        },
        "presentation method `report`",
    );
    // another module of the crate naming a kind's report module
    refused(
        "sweep/mod.rs",
        &|t| format!("{t}\npub use crate::kinds::uvg::report as probe;\n"),
        "sweep/mod.rs",
    );
    // an impl in the display module for a type of the kind
    refused(
        "kinds/uvg/report.rs",
        &|t| format!("{t}\nimpl UvgDoc {{ pub fn probe(&self) -> usize {{ 1 }} }}\n"),
        "an `impl` in the display-only module",
    );
    // a macro defined in the display module
    refused(
        "kinds/uvg/report.rs",
        &|t| format!("{t}\nmacro_rules! probe {{ () => {{ 1 }} }}\n"),
        "macro_rules",
    );
    // while the presentation method's body may (that is how it renders)
    let (_d, src) = real_copy();
    edit(&src, "kinds/uvg/mod.rs", |t| {
        t.replacen(
            "report::report_md(doc)",
            "let text = self::report::report_md(doc);\n        text",
            1,
        )
    });
    assert!(versions::file_versions(&src, &inputs).is_ok());
}

/// Only the presentation *method* may call the display module: a free
/// function that happens to be named `report` is ordinary versioned code.
#[test]
fn a_free_function_named_report_is_not_exempt() {
    let inputs = real_inputs();
    let (_d, src) = real_copy();
    edit(&src, "kinds/uvg/run.rs", |t| {
        format!("{t}\nfn report(d: &UvgDoc) -> usize {{ report::report_md(d).len() }}\n")
    });
    let e = versions::file_versions(&src, &inputs).unwrap_err();
    assert!(e.contains("kinds/uvg/run.rs"), "{e}");
}

/// A kind from outside the crate (`Kind::outside_version`, computed by
/// `gamesweep_build`): its version hashes the outside id, every source of
/// this crate (`BUILD_ID`) and the name, and is never a built-in kind's.
#[test]
fn an_outside_kind_version_covers_its_id_the_whole_crate_and_its_name() {
    use gamesweep::version::outside_kind_version;
    let id = "0123456789abcdef0123456789abcdef";
    let v = outside_kind_version(id, "outside");
    assert!(
        v.starts_with(&format!("{}+", gamesweep::CRATE_VERSION)),
        "{v}"
    );
    assert_eq!(v, outside_kind_version(id, "outside"));
    assert_ne!(
        v,
        outside_kind_version("0123456789abcdef0123456789abcdee", "outside")
    );
    assert_ne!(v, outside_kind_version(id, "outsidf"));
    assert_ne!(
        v,
        format!("{}+{}", gamesweep::CRATE_VERSION, gamesweep::BUILD_ID)
    );
    for k in kinds::registry().iter().chain(kinds::hidden()) {
        assert_ne!(v, k.version(), "{}", k.name());
        assert_ne!(
            outside_kind_version(id, k.name()),
            k.version(),
            "{}",
            k.name()
        );
    }
}

/// The `uvg` solver version is pinned: the code it hashes changes only
/// deliberately (a faster solver, benchmarked in `runs/BENCHMARKS.md` and
/// checked against the committed runs), never as the side effect of a
/// refactor (of the framework in `sweep/`, say). A store or export file of
/// another version is refused by `run` (without `--accept-solver-change`),
/// `import` and `verify`, so a change here is one a note names. This is
/// the solver of 2026-12-06 (the parents' lost sets in bulk, benchmarked in
/// `runs/BENCHMARKS.md`); the n = 12 campaign (`runs/uvg-n12`) finished
/// under `0.1.0+0a1bf896…`, the one before, which also re-ran its 1 %
/// sample on another machine.
#[test]
fn the_uvg_solver_version_is_pinned() {
    assert_eq!(
        kinds::find("uvg").unwrap().version(),
        "0.1.0+d49d90bb61120b1044b8e02249e3266f",
        "the uvg solver version changed: if deliberate, update this test and say so where the change is benchmarked (runs/BENCHMARKS.md)"
    );
}
