//! The test modules of both binaries (`tests/it`, `tests/slow`) start and
//! drive the binaries through one harness, `support/harness.rs`: none
//! defines its own `serve`, `ok`, `gs` or `status` (a variant is a builder
//! option there, not a new copy), and no file of `tests/` grows past 1,000 lines
//! (a topic that large becomes a folder of modules).

use std::path::{Path, PathBuf};

/// The names only the harness defines.
const HARNESS_ONLY: [&str; 4] = ["serve", "ok", "gs", "status"];

/// The longest a test source file may be, in lines.
const MAX_LINES: usize = 1000;

/// Every `.rs` file under `dir`, recursively, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The test binaries' sources (not `support/`, where the harness lives).
fn test_sources() -> Vec<PathBuf> {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut all = sources(&tests.join("it"));
    all.extend(sources(&tests.join("slow")));
    assert!(all.len() > 40, "found only {} test sources", all.len());
    all
}

/// `(line number, name)` of each function `text` defines whose name is one
/// of `names` (free functions and methods alike; comments are skipped).
fn definitions(text: &str, names: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap();
        let mut rest = code;
        while let Some(at) = rest.find("fn ") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + 3..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `cfn ` and the like
            }
            let name: String = after
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let next = after.trim_start()[name.len()..].trim_start().chars().next();
            if names.contains(&name.as_str()) && matches!(next, Some('(') | Some('<')) {
                found.push((i + 1, name));
            }
        }
    }
    found
}

#[test]
fn the_check_finds_a_helper_defined_again() {
    let text = "use x;\n\
                /// `fn ok` in a comment is not a definition\n\
                fn ok(args: &[&str]) -> String { todo!() }\n\
                    fn status<T>(&self) {}\n\
                fn okay() {} fn gsx() {} fn my_serve() {}\n\
                pub(crate) fn serve (dir: &Path) {}\n";
    assert_eq!(
        definitions(text, &HARNESS_ONLY),
        [
            (3, "ok".to_string()),
            (4, "status".to_string()),
            (6, "serve".to_string())
        ]
    );
}

#[test]
fn no_test_module_defines_its_own_serve_ok_gs_or_status() {
    let mut again = Vec::new();
    // This file spells the names out in its own check's example.
    let this = Path::new(file!()).file_name().unwrap();
    for p in test_sources()
        .into_iter()
        .filter(|p| p.file_name() != Some(this))
    {
        let text = std::fs::read_to_string(&p).unwrap();
        for (line, name) in definitions(&text, &HARNESS_ONLY) {
            again.push(format!("{}:{line}: fn {name}", p.display()));
        }
    }
    assert!(
        again.is_empty(),
        "use support/harness.rs instead of defining these again:\n{}",
        again.join("\n")
    );
}

#[test]
fn no_test_source_is_over_1000_lines() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let long: Vec<String> = sources(&tests)
        .into_iter()
        .map(|p| (std::fs::read_to_string(&p).unwrap().lines().count(), p))
        .filter(|(n, _)| *n > MAX_LINES)
        .map(|(n, p)| format!("{}: {n} lines", p.display()))
        .collect();
    assert!(
        long.is_empty(),
        "split these into modules by topic:\n{}",
        long.join("\n")
    );
}
