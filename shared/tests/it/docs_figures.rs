//! Figures in `README.md` and `docs/` (`pricing.md`, `scaling.md`) that
//! come from committed runs are computed here from those runs' files
//! (`results.json`, `provenance.json`, `projection.json`, `NOTES.md`) and
//! must appear in the text as computed:
//! a figure that goes stale when a run is redone fails here. Not from
//! `runs/BENCHMARKS.md`, which is a dated history. Texts are compared with
//! their whitespace collapsed (the Markdown is wrapped).

use gamesweep::sweep::thousands;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `text` with every run of whitespace (line breaks included) one space.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every figure of `want` is in the file `rel`; all missing ones are named.
fn has_all(rel: &str, want: &[String]) {
    let text = flat(&read(rel));
    let missing: Vec<&String> = want.iter().filter(|w| !text.contains(w.as_str())).collect();
    assert!(
        missing.is_empty(),
        "{rel} does not say (computed from the committed runs): {missing:#?}"
    );
}

/// `x` rounded to one decimal, as the texts write it.
fn one(x: f64) -> String {
    format!("{x:.1}")
}

/// The sum of `by_n[].positions` of a uvg `results.json`.
fn positions(doc: &Value) -> u64 {
    doc["by_n"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["positions"].as_u64().unwrap())
        .sum()
}

/// The number in `text` right before `suffix` (`"1,254 CPU-seconds"` →
/// 1254), the first time `suffix` occurs after `after`.
fn number_before(text: &str, after: &str, suffix: &str) -> f64 {
    let text = flat(text);
    let from = text
        .find(after)
        .unwrap_or_else(|| panic!("no `{after}` in {text}"));
    let at = from
        + text[from..]
            .find(suffix)
            .unwrap_or_else(|| panic!("no `{suffix}` after `{after}`"));
    let head = text[..at].trim_end().trim_end_matches('*');
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .map_or(0, |i| i + 1);
    head[start..]
        .replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("`{}` before `{suffix}`: {e}", &head[start..]))
}

/// The n = 11 sweep: its positions (results.json), shards (provenance.json),
/// its shards' CPU time and the recomputation's (NOTES.md).
struct N11 {
    positions: u64,
    shards: u64,
    shard_cpu: f64,
    recompute_cpu: f64,
    quiet_wall: f64,
}

fn n11() -> N11 {
    let notes = read("runs/uvg-n11/NOTES.md");
    N11 {
        positions: positions(&json("runs/uvg-n11/results.json")),
        shards: json("runs/uvg-n11/provenance.json")["shards_total"]
            .as_u64()
            .unwrap(),
        shard_cpu: number_before(&notes, "Shard thread-CPU, all", " s = "),
        recompute_cpu: number_before(&notes, "Recomputed with the solver", " CPU-seconds"),
        quiet_wall: number_before(&notes, "On 2026-12-02", " s wall"),
    }
}

/// The n = 12 projection: positions per core-second, projected CPU seconds,
/// sampled shards, and the projected wall seconds on `cores`.
struct N12 {
    rate: f64,
    cpu: f64,
    shards: u64,
    wall: Vec<(u64, f64)>,
}

fn n12() -> N12 {
    let p = json("runs/uvg-n12-sample/projection.json");
    N12 {
        rate: p["measured"]["positions_per_core_second"].as_f64().unwrap(),
        cpu: p["projected"]["cpu_seconds"].as_f64().unwrap(),
        shards: p["measured"]["shards"].as_u64().unwrap(),
        wall: p["projected"]["wall"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| (w["cores"].as_u64().unwrap(), w["seconds"].as_f64().unwrap()))
            .collect(),
    }
}

impl N12 {
    fn wall(&self, cores: u64) -> f64 {
        self.wall
            .iter()
            .find(|w| w.0 == cores)
            .unwrap_or_else(|| panic!("no projection on {cores} cores"))
            .1
    }
}

#[test]
fn readme_figures_match_the_committed_runs() {
    let uvg9 = json("runs/uvg/results.json");
    let graphs9 = uvg9["by_n"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["n"] == 9)
        .unwrap()["graphs"]
        .as_u64()
        .unwrap();
    let a = n11();
    let b = n12();
    // The NOTES' own rounding of the shards' CPU time.
    let notes = flat(&read("runs/uvg-n11/NOTES.md"));
    let core_hours = format!("{:.2}", a.shard_cpu / 3600.0);
    assert!(
        notes.contains(&format!(
            "{} s = {core_hours} core-hours",
            thousands(a.shard_cpu as u64)
        )),
        "runs/uvg-n11/NOTES.md"
    );
    has_all(
        "README.md",
        &[format!(
            "all {} connected 9-vertex graphs",
            thousands(graphs9)
        )],
    );
    has_all(
        "docs/pricing.md",
        &[
            format!("{} shards for n = 11", thousands(a.shards)),
            format!(
                "{} positions in {} shards, whose results took {} CPU-seconds = {core_hours} core-hours",
                thousands(a.positions),
                thousands(a.shards),
                thousands(a.shard_cpu as u64)
            ),
            format!(
                "in {} CPU-seconds for the whole process, and in {} s = {} minutes of wall time on 2 quiet cores",
                thousands(a.recompute_cpu as u64),
                thousands(a.quiet_wall as u64),
                one(a.quiet_wall / 60.0)
            ),
            format!("projected from a {}-shard sample", b.shards),
            format!(
                "{} M positions per CPU-second, {} CPU-hours: {} minutes on 64 cores, {} hours on 2",
                one(b.rate / 1e6),
                one(b.cpu / 3600.0),
                one(b.wall(64) / 60.0),
                one(b.wall(2) / 3600.0)
            ),
        ],
    );
}

#[test]
fn scaling_figures_match_the_committed_runs() {
    let a = n11();
    let b = n12();
    let text = flat(&read("docs/scaling.md"));
    // The n = 13 positions the plan states (A001349(13) × 13).
    let n13 = number_before(&text, "The n = 13 plan", " positions**");
    assert_eq!(n13, 50_335_907_869_219.0 * 13.0);
    let shards13 = number_before(&text, "- Shards: ", "** (the res/mod");
    let hours = n13 / b.rate / 3600.0;
    let hundreds = thousands(((hours / 100.0).round() * 100.0) as u64);
    has_all(
        "docs/scaling.md",
        &[
            format!("{} M positions/CPU-s at n = 12", one(b.rate / 1e6)),
            format!(
                "ran at {} M positions/CPU-s",
                one(a.positions as f64 / a.recompute_cpu / 1e6)
            ),
            format!("n = 12 rate: about {hundreds} core-hours"),
            format!(
                "~{:.0} CPU-s per shard at the n = 12 rate",
                n13 / shards13 / b.rate
            ),
            format!("{hundreds} core-hours on 10,000 cores"),
        ],
    );
}
