//! Recompute the committed runs too long for the test suite (`LONG` in
//! `tests/support/golden.rs`: minutes each on 2 cores) and compare every
//! file byte for byte with the committed one; exits non-zero (a panic
//! naming the run and file) on any difference. `bench/golden-long.sh` runs
//! it; `cargo test` only builds it, so the long runs never run in the test
//! suite (not even under `--include-ignored`).
//!
//! `cargo run --release -p gamesweep --example golden_long [RUN...]`: the
//! named runs (directory names under `runs/`, each one of `LONG`), or all
//! of them.

#[path = "../tests/support/golden.rs"]
mod golden;

use std::time::Instant;

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    for w in &wanted {
        assert!(
            golden::LONG.contains(&w.as_str()),
            "{w} is not a long run: pick from {:?}",
            golden::LONG
        );
    }
    let mut done = 0;
    for g in golden::goldens() {
        let name = g.dir.file_name().unwrap().to_string_lossy().to_string();
        let chosen = if wanted.is_empty() {
            golden::LONG.contains(&name.as_str())
        } else {
            wanted.contains(&name)
        };
        if !chosen {
            continue;
        }
        let t = Instant::now();
        golden::recompute(&g);
        println!(
            "golden: {name} recomputed byte-identical in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        done += 1;
    }
    let expected = if wanted.is_empty() {
        golden::LONG.len()
    } else {
        wanted.len()
    };
    assert_eq!(done, expected, "a long run is missing from runs/");
}
