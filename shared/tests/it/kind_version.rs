//! Solver version per kind (`build/versions.rs`, the logic `build.rs` runs):
//! tests, comments and unrelated code never change a kind's version; code it
//! can run and the locked crates it uses always do.

use crate::versions;
use gamesweep::kinds;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use crate::versions::{
    analyse, dependency_names, read_tree, toml_section, Analysis, Inputs};

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
    // no kind depends on another kind, nor on the registry
    for k in &kinds {
        let c = a.closure(k);
        let others: Vec<&String> = c
            .iter()
            .filter(|x| x.starts_with("kinds") && *x != k)
            .collect();
        assert!(others.is_empty(), "{k} depends on {others:?}");
    }
    // and the framework does not depend on a kind
    assert!(!a.closure("sweep").iter().any(|x| x.starts_with("kinds")));
    // what the kinds use
    assert!(a.closure("kinds/col").contains("col"));
    assert!(!a.closure("kinds/uvg").contains("col"));
    assert!(a.closure("kinds/subtraction").contains("gamegraph"));
    assert!(a.crates_of("kinds/uvg_search").contains("rand_chacha"));
    // the graph planner of `sweep` estimates with `gen`'s seeded random
    // probes, so every kind's plan depends on the RNG
    assert!(a.crates_of("kinds/subtraction").contains("rand_chacha"));
    assert!(!a.crates_of("kinds/subtraction").contains("tokio"));
    assert!(a.crates_of("kinds/subtraction").contains("serde_json"));
    // test-only files are not part of any unit
    let paths: BTreeSet<&str> = a.files.iter().map(|f| f.path.as_str()).collect();
    for t in [
        "kinds/uvg_test.rs",
        "kinds/col/headline_test.rs",
        "cgt/tests.rs",
        "uvg/tests.rs",
    ] {
        assert!(!paths.contains(t), "{t}");
    }
    assert!(paths.contains("kinds/subtraction.rs") && paths.contains("uvg/bitsliced.rs"));
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
    for k in kinds::registry() {
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
    assert!(sub.source_file().ends_with("kinds/subtraction.rs"));
    assert_eq!(
        sub.version(),
        gamesweep::kind_version("shared/src/kinds/subtraction.rs", "subtraction")
    );
    // the lookup normalises paths
    let id = gamesweep::source_version("kinds/subtraction.rs").unwrap();
    for p in [
        "shared/src/kinds/subtraction.rs",
        "src/kinds/subtraction.rs",
        "/home/x/gamesweep/shared/src/kinds/subtraction.rs",
        "shared\\src\\kinds\\subtraction.rs",
    ] {
        assert_eq!(gamesweep::source_version(p), Some(id), "{p}");
    }
    assert_eq!(gamesweep::source_version("shared/src/kinds/nope.rs"), None);
    assert_eq!(
        gamesweep::source_version("shared/xsrc/kinds/subtraction.rs"),
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
    edit(&src, "kinds/uvg.rs", |t| {
        format!(
            "//! One more line of module docs.\n{}\n\
             /// A doc comment on nothing much.\n// and a comment\n/* and a block */\n\
             #[cfg(test)]\nmod more_tests {{\n    #[test]\n    fn t() {{ assert_eq!(1 + 1, 2); }}\n}}\n\
             #[cfg(test)]\n#[path = \"uvg_more_test.rs\"]\nmod more_file_tests;\n",
            t.replace("\n}\n", "\n}\n\n")
        )
    });
    std::fs::write(src.join("kinds/uvg_more_test.rs"), "#[test] fn x() {}\n").unwrap();
    edit(&src, "kinds/uvg_test.rs", |t| {
        format!("{t}\n#[test]\nfn extra() {{}}\n")
    });
    edit(&src, "uvg/tests.rs", |t| {
        format!("{t}\n#[test]\nfn extra() {{}}\n")
    });
    edit(&src, "kinds/col/headline_test.rs", |t| {
        format!("{t}\n// note\n")
    });
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
        "kinds/uvg_search",
        "kinds/subtraction",
        "kinds/bft",
        "sweep",
    ] {
        assert!(!got.contains(k), "{k}: {got:?}");
    }
}

#[test]
fn a_kind_changes_only_itself_and_the_registry() {
    let got = code_change("kinds/uvg.rs", "kinds/uvg", |t| {
        format!("{t}\nfn probe_a() {{}}\n")
    });
    assert_eq!(got, set(&["kinds", "kinds/uvg"]));
    let got = code_change("kinds/col/tree.rs", "kinds/col", |t| {
        format!("{t}\nfn probe_b() {{}}\n")
    });
    assert_eq!(got, set(&["kinds", "kinds/col"]));
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
    let got = code_change("kinds/subtraction.rs", "kinds/subtraction", |t| {
        t.replacen("outcome PREPERIOD+PERIOD", "outcome PRE+PER", 1)
    });
    assert_eq!(got, set(&["kinds", "kinds/subtraction"]));
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
    assert!(changed(&before, &after).contains("kinds/uvg_search"));
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
    edit(&src2, "kinds/uvg.rs", |t| {
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
