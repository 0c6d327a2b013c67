//! Kinds own their meaning: every committed run's `results.json` is
//! presented by its kind with charts or positions, every position shown as
//! the smallest of a value names that value in its caption, and positions
//! come in drawing order. A kind added without a presentation fails here as
//! soon as it has a committed run.

use gamesweep::kinds;
use gamesweep::sweep::{Role, SweepKind};
use std::path::Path;

/// Kinds whose committed runs legitimately show nothing: yes/no checks
/// with no values, whose only positions are counterexamples, and none was
/// found. Each is still checked to show a counterexample when one is there
/// (`a_check_shows_its_counterexamples`).
const NOTHING_TO_SHOW_WITHOUT_COUNTEREXAMPLES: &[&str] = &["cgt-check", "myopic-list"];

fn committed_runs() -> Vec<(String, String)> {
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&runs).unwrap() {
        let dir = e.unwrap().path();
        let f = dir.join("results.json");
        if f.exists() {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read_to_string(f).unwrap()));
        }
    }
    out.sort();
    assert!(
        out.len() >= 20,
        "committed runs not found under {}",
        runs.display()
    );
    out
}

fn kind_of(json: &str) -> &'static dyn SweepKind {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    kinds::find(v["kind"].as_str().unwrap()).unwrap()
}

#[test]
fn every_committed_run_is_presented_with_values() {
    let mut kinds_seen = std::collections::BTreeSet::new();
    for (run, json) in committed_runs() {
        let kind = kind_of(&json);
        kinds_seen.insert(kind.name());
        let p = kind.present(&json).unwrap_or_else(|e| panic!("{run}: {e}"));
        if !NOTHING_TO_SHOW_WITHOUT_COUNTEREXAMPLES.contains(&kind.name()) {
            assert!(
                !p.charts.is_empty() || !p.witnesses.is_empty(),
                "{run}: kind `{}` presents nothing",
                kind.name()
            );
        }
        for w in &p.witnesses {
            assert!(!w.caption.is_empty() && !w.code.is_empty(), "{run}: {w:?}");
            if w.role == Role::Smallest {
                let v = w
                    .value
                    .as_deref()
                    .unwrap_or_else(|| panic!("{run}: no value: {w:?}"));
                assert!(
                    w.caption.contains(v),
                    "{run}: caption without its value: {w:?}"
                );
            }
        }
        // Drawing order: by role; counterexamples smallest first.
        let roles: Vec<_> = p.witnesses.iter().map(|w| w.role).collect();
        assert!(roles.windows(2).all(|r| r[0] <= r[1]), "{run}: {roles:?}");
        let cx: Vec<_> = p
            .witnesses
            .iter()
            .filter(|w| w.role == Role::Counterexample)
            .map(|w| w.size)
            .collect();
        assert!(cx.windows(2).all(|s| s[0] <= s[1]), "{run}: {cx:?}");
        for c in &p.charts {
            assert!(!c.stem.is_empty() && !c.title.is_empty(), "{run}: {c:?}");
        }
    }
    // Every kind but the load-test kind has a committed run.
    for k in kinds::registry() {
        if k.name() != "noop" {
            assert!(
                kinds_seen.contains(k.name()),
                "no committed run of `{}`",
                k.name()
            );
        }
    }
}

#[test]
fn the_smallest_uvg_positions_are_captioned_with_value_size_and_start() {
    let json = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg-n10/results.json"),
    )
    .unwrap();
    let p = kind_of(&json).present(&json).unwrap();
    let smallest: Vec<&str> = p
        .witnesses
        .iter()
        .filter(|w| w.role == Role::Smallest)
        .map(|w| w.caption.as_str())
        .collect();
    // *5 first occurs on 10 vertices (spec: smallest *5 has 10 vertices).
    assert!(
        smallest
            .iter()
            .any(|c| c.starts_with("smallest *5: 10 vertices, start ")),
        "{smallest:?}"
    );
    assert_eq!(smallest.len(), 6, "{smallest:?}");
}

/// The UVG chart's legend names each line by its value in the
/// report's notation (`0`, `*`, `*2`), not "value *2".
#[test]
fn uvg_chart_legends_are_the_values() {
    let json = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg-n10/results.json"),
    )
    .unwrap();
    let p = kind_of(&json).present(&json).unwrap();
    let gamesweep::sweep::present::Plot::Lines(series) = &p.charts[0].plot else {
        panic!("{:?}", p.charts[0]);
    };
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["0", "*", "*2", "*3", "*4", "*5"]);
}

#[test]
fn col_values_come_in_value_order() {
    let json = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/col/results.json"),
    )
    .unwrap();
    let p = kind_of(&json).present(&json).unwrap();
    let values: Vec<&str> = p
        .witnesses
        .iter()
        .filter(|w| w.role == Role::Smallest)
        .filter_map(|w| w.value.as_deref())
        .collect();
    let mut sorted = values.clone();
    sorted.sort_by(|a, b| gamesweep::sweep::present::cmp_game_values(a, b));
    assert_eq!(values, sorted);
    // Smallest and largest of the 100 values (runs/col/report.md).
    assert_eq!(values.len(), 100);
    assert_eq!(values.first(), Some(&"-7"));
    assert_eq!(values[49..51], ["0", "*"]);
    assert_eq!(values.last(), Some(&"7"));
}

#[test]
fn a_check_shows_its_counterexamples() {
    for run in ["cgt-check", "myopic-list"] {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../runs/{run}/results.json"));
        let json = std::fs::read_to_string(path).unwrap();
        // Plant one record in the first empty record list of the document.
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let planted = plant(&mut v);
        assert!(planted, "{run}: no record list to plant into");
        let p = kind_of(&json).present(&v.to_string()).unwrap();
        assert_eq!(p.witnesses.len(), 1, "{run}: {p:?}");
        assert_eq!(p.witnesses[0].role, Role::Counterexample);
        assert!(p.witnesses[0].caption.contains("4 vertices"), "{p:?}");
    }
}

/// Put one position into the first empty array under a key ending in
/// `records` (the documents' counterexample lists).
fn plant(v: &mut serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                if k.ends_with("records") {
                    if let serde_json::Value::Array(a) = child {
                        if a.is_empty() {
                            a.push(serde_json::json!({
                                "code": "Cr", "vertices": 4, "edges": 3,
                                "colouring_index": 1, "detail": "colouring L...",
                                "note": "value {1|0}"
                            }));
                            return true;
                        }
                    }
                }
                if plant(child) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}
