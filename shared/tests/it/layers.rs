//! The workspace's module layers, checked from the sources: every import
//! between modules of a crate points down a declared layer order, so there is
//! no import cycle and no module imports a module above it.
//!
//! A *unit* is a top-level module of a crate (`shared::uvg`), except where a
//! folder holds independent siblings: each sweep kind (`shared::kinds::uvg`)
//! each family of kinds' shared code (`shared::families::col`), each CLI
//! command (`coordinator::cmd::run`) and each job the commands do
//! (`coordinator::ops::solve`) is a unit of its own, so kinds never import
//! each other, nor commands, nor jobs.
//! Imports are read from `crate::…`, `super::…` and `self::…` paths in
//! non-test code (test modules and `*_test.rs` / `tests.rs` files are left out).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers of each crate, bottom up, as ARCHITECTURE.md states them
/// once (its `layers` block: `crate: a b | c | …`); a unit may import only
/// units of lower groups. `*` stands for every unit with that prefix
/// (siblings in one group never import each other).
fn layers() -> Vec<(String, Vec<Vec<String>>)> {
    let text = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let block = text
        .split("```layers\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("ARCHITECTURE.md states the layers in a ```layers block");
    let out: Vec<(String, Vec<Vec<String>>)> = block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (krate, groups) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("ARCHITECTURE.md layers: `{l}` has no `crate:`"));
            let groups = groups
                .split('|')
                .map(|g| g.split_whitespace().map(str::to_string).collect())
                .collect();
            (krate.trim().to_string(), groups)
        })
        .collect();
    assert!(out.len() >= 8, "ARCHITECTURE.md layers: {out:?}");
    out
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `kinds/myopic_tree/validate.rs` → `["kinds", "myopic_tree", "validate"]`; `mod.rs`/`lib.rs`/`main.rs` name their folder.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The unit a module path belongs to.
fn unit(crate_name: &str, path: &[String]) -> String {
    let split = |p: &str| {
        (crate_name == "shared" && matches!(p, "kinds" | "families"))
            || (crate_name == "coordinator" && matches!(p, "cmd" | "ops"))
    };
    match path {
        [] => "<root>".into(),
        [a, b, ..] if split(a) => format!("{a}::{b}"),
        [a, ..] => a.clone(),
    }
}

/// Non-test code of a file: comments removed, `#[cfg(test)]` items cut.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // Skip the attributed item: up to its matching close brace (or `;`).
            let mut depth = 0i32;
            let mut opened = false;
            for l in lines.by_ref() {
                let l = l.split("//").next().unwrap_or("");
                depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
                opened |= l.contains('{');
                if (opened && depth <= 0) || (!opened && l.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        out.push_str(line.split("//").next().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// First segments imported through `prefix` (`crate::`, `super::`, `self::`), with braces expanded.
fn imported(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let take_path = |s: &str| -> Vec<String> {
            s.split("::")
                .map(|w| {
                    w.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .take_while(|w| !w.is_empty())
                .take(2)
                .collect()
        };
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            for item in inner[..end].split(',') {
                let p = take_path(item.trim());
                if !p.is_empty() {
                    out.push(p);
                }
            }
        } else {
            out.push(take_path(rest));
        }
    }
    out
}

/// Unit → units it imports, for one crate.
fn graph(crate_name: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = workspace().join(crate_name).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // Top-level modules; a path whose first segment is none of them names
    // an item of the crate root (`crate::run`, `crate::Config`).
    let mut modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_path(&src, f).into_iter().next())
        .collect();
    // Inline modules of the crate root (`pub mod pb { … }`).
    for root in ["lib.rs", "main.rs"] {
        let text = std::fs::read_to_string(src.join(root)).unwrap_or_default();
        for line in text.lines() {
            let t = line.trim_start().trim_start_matches("pub ");
            if let Some(rest) = t.strip_prefix("mod ") {
                if let Some(name) = rest.strip_suffix(" {") {
                    modules.insert(name.trim().to_string());
                }
            }
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy();
        // Unit tests: `tests.rs`, or a `tests/` folder (`core/tests/mod.rs`).
        let in_tests_dir = f
            .strip_prefix(&src)
            .is_ok_and(|r| r.components().any(|c| c.as_os_str() == "tests"));
        if name.ends_with("_test.rs") || name == "tests.rs" || in_tests_dir {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let code = code(&text);
        let me_path = module_path(&src, &f);
        let me = unit(crate_name, &me_path);
        let entry = g.entry(me.clone()).or_default();
        // The module that `super::` and `self::` name, as a path.
        let self_path = me_path.clone();
        let super_path = me_path[..me_path.len().saturating_sub(1)].to_vec();
        for (prefix, base) in [
            ("crate::", Vec::new()),
            ("super::", super_path),
            ("self::", self_path),
        ] {
            for p in imported(&code, prefix) {
                let mut full = base.clone();
                full.extend(p.into_iter().filter(|s| s != "self"));
                if full.first().is_some_and(|m| !modules.contains(m)) {
                    full.clear();
                }
                let target = unit(crate_name, &full);
                // A folder's own `mod.rs` re-exporting its children is not an import.
                let inside_me = !me_path.is_empty() && full.starts_with(&me_path);
                if target != me && !inside_me {
                    entry.insert(target);
                }
            }
        }
    }
    g
}

fn layer_of(layers: &[Vec<String>], unit: &str) -> Option<usize> {
    layers.iter().position(|line| {
        line.iter().any(|u| {
            u == unit
                || u.strip_suffix('*')
                    .is_some_and(|pre| unit.starts_with(pre) && unit.len() > pre.len())
        })
    })
}

fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn dfs(
        u: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(u.to_string(), 1);
        stack.push(u.to_string());
        for v in g.get(u).into_iter().flatten() {
            match state.get(v.as_str()).copied().unwrap_or(0) {
                1 => {
                    let i = stack.iter().position(|x| x == v).unwrap();
                    let mut c = stack[i..].to_vec();
                    c.push(v.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = dfs(v, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(u.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for u in g.keys() {
        if state.get(u.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = dfs(u, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_cycles_in_any_crate() {
    for (c, _) in layers() {
        let g = graph(&c);
        assert!(g.len() > 1, "{c}: no modules found");
        if let Some(cycle) = find_cycle(&g) {
            panic!("{c}: import cycle {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn imports_point_down_the_declared_layers() {
    for (c, layers) in layers() {
        let g = graph(&c);
        for (from, tos) in &g {
            let lf = layer_of(&layers, from)
                .unwrap_or_else(|| panic!("{c}: module `{from}` is in no declared layer"));
            for to in tos {
                let lt = layer_of(&layers, to)
                    .unwrap_or_else(|| panic!("{c}: module `{to}` is in no declared layer"));
                assert!(
                    lt < lf,
                    "{c}: `{from}` (layer {lf}) imports `{to}` (layer {lt}): imports must point down"
                );
            }
        }
    }
}

#[test]
fn the_checker_sees_imports() {
    let code = code("use crate::{graph::BitGraph, gen};\nuse super::x::y; // crate::no\n#[cfg(test)]\nmod tests {\n use crate::kinds;\n}\n");
    assert_eq!(
        imported(&code, "crate::"),
        vec![
            vec!["graph".to_string(), "BitGraph".to_string()],
            vec!["gen".to_string()]
        ]
    );
    assert_eq!(imported(&code, "super::").len(), 1);
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["a".to_string()])),
    ]
    .into();
    assert!(find_cycle(&g).is_some());
    // The real graph has the edges we know of.
    let shared = graph("shared");
    assert!(shared["kinds::uvg"].contains("uvg"));
    assert!(shared["sweep"].contains("gen"));
}

/// A kind imports no other kind (what two kinds share lives in
/// `shared::families`), and nothing below the kinds imports one.
#[test]
fn kinds_import_no_other_kind() {
    let g = graph("shared");
    let kinds: Vec<&String> = g.keys().filter(|u| u.starts_with("kinds::")).collect();
    assert!(kinds.len() >= 13, "{kinds:?}");
    for (from, tos) in &g {
        let kinds_named: Vec<&String> = tos
            .iter()
            .filter(|t| t.starts_with("kinds") && *t != from)
            .collect();
        assert!(
            kinds_named.is_empty(),
            "shared: `{from}` imports the kind modules {kinds_named:?}"
        );
    }
}

/// No file under `shared/src/kinds/` has more than 800 lines, and every kind
/// folder keeps its run wiring, validation, report and tests apart.
#[test]
fn kind_files_stay_small_and_apart() {
    let kinds = workspace().join("shared/src/kinds");
    let mut files = Vec::new();
    rust_files(&kinds, &mut files);
    assert!(files.len() > 13 * 3, "{files:?}");
    for f in &files {
        let lines = std::fs::read_to_string(f).unwrap().lines().count();
        assert!(lines <= 800, "{}: {lines} lines", f.display());
    }
    for e in std::fs::read_dir(&kinds).unwrap().flatten() {
        if e.path().is_dir() {
            for part in ["mod.rs", "validate.rs", "report.rs", "tests.rs"] {
                assert!(
                    e.path().join(part).is_file(),
                    "{}: no {part}",
                    e.path().display()
                );
            }
        }
    }
}

/// The crate order, as ARCHITECTURE.md states it once (its `crates` block:
/// folders, groups bottom first, `|` between groups).
fn crate_layers() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let block = text
        .split("```crates\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("ARCHITECTURE.md states the crate order in a ```crates block");
    block
        .split('|')
        .map(|g| g.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The workspace's members, as its `Cargo.toml` lists them.
fn members() -> Vec<String> {
    let text = std::fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    let list = text
        .split("members = [")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .expect("the workspace Cargo.toml lists its members");
    list.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter_map(|l| l.strip_prefix('"'))
        .filter_map(|l| l.split('"').next())
        .map(str::to_string)
        .collect()
}

/// A member's package name and the workspace packages it depends on (any
/// section: normal, build or dev).
fn manifest(folder: &str) -> (String, BTreeSet<String>) {
    let text = std::fs::read_to_string(workspace().join(folder).join("Cargo.toml")).unwrap();
    let mut name = None;
    let mut section = String::new();
    let mut deps = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        let key: String = line
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if section == "[package]" && key == "name" {
            name = line.split('"').nth(1).map(str::to_string);
        } else if section.contains("dependencies") && key.starts_with("gamesweep") {
            deps.insert(key);
        }
    }
    (
        name.unwrap_or_else(|| panic!("{folder}/Cargo.toml: no package name")),
        deps,
    )
}

/// Crate → the crates it depends on, by folder.
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let members = members();
    let manifests: Vec<(String, (String, BTreeSet<String>))> =
        members.iter().map(|m| (m.clone(), manifest(m))).collect();
    let folder_of: BTreeMap<&str, &str> = manifests
        .iter()
        .map(|(f, (name, _))| (name.as_str(), f.as_str()))
        .collect();
    manifests
        .iter()
        .map(|(f, (_, deps))| {
            let to = deps
                .iter()
                .map(|d| {
                    folder_of
                        .get(d.as_str())
                        .unwrap_or_else(|| panic!("{f}: `{d}` is no workspace member"))
                        .to_string()
                })
                .collect();
            (f.clone(), to)
        })
        .collect()
}

/// Every crate depends only on crates of lower groups of the stated order,
/// and every member is placed in it once.
#[test]
fn crates_point_down_the_declared_order() {
    let layers = crate_layers();
    let g = crate_graph();
    let mut placed: Vec<&String> = layers.iter().flatten().collect();
    placed.sort();
    let mut members: Vec<&String> = g.keys().collect();
    members.sort();
    assert_eq!(
        placed, members,
        "ARCHITECTURE.md's crates block against the workspace members"
    );
    let group = |c: &str| {
        layers
            .iter()
            .position(|g| g.iter().any(|x| x == c))
            .unwrap()
    };
    for (from, tos) in &g {
        for to in tos {
            assert!(
                group(to) < group(from),
                "`{from}` depends on `{to}`, which is not below it in ARCHITECTURE.md's crate order"
            );
        }
    }
}

/// The first folder of a member's path (`coordinator/engine` → `coordinator`).
fn top_folder(member: &str) -> &str {
    member.split('/').next().unwrap()
}

/// No crate lives in a top-level folder above one that imports it: the
/// folders' own import graph has no cycle, so the whole tree draws with
/// every arrow pointing down (a crate under `coordinator/` imported by
/// `proto/` drew arrows both ways).
#[test]
fn folders_point_one_way() {
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in crate_graph() {
        let f = top_folder(&from).to_string();
        let entry = folders.entry(f.clone()).or_default();
        for to in tos {
            let t = top_folder(&to).to_string();
            if t != f {
                entry.insert(t);
            }
        }
    }
    if let Some(cycle) = find_cycle(&folders) {
        panic!("folders import each other: {}", cycle.join(" -> "));
    }
    // The order the prose of ARCHITECTURE.md gives, from the graph itself.
    let below = |a: &str, b: &str| folders.get(b).is_some_and(|s| s.contains(a));
    for (a, b) in [
        ("shared", "proto"),
        ("proto", "worker"),
        ("worker", "coordinator"),
    ] {
        assert!(
            below(a, b),
            "`{b}/` no longer imports `{a}/`: update ARCHITECTURE.md's folder order"
        );
    }
    // The checker sees a folder cycle.
    let cyc: BTreeMap<String, BTreeSet<String>> = [
        (
            "proto".to_string(),
            BTreeSet::from(["coordinator".to_string()]),
        ),
        (
            "coordinator".to_string(),
            BTreeSet::from(["proto".to_string()]),
        ),
    ]
    .into();
    assert!(find_cycle(&cyc).is_some());
}
