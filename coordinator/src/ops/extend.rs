//! `gamesweep extend`: every connected graph on `M` vertices with a start of
//! value `*V`, built from listed graphs that can hold its `*(V−1)` option,
//! and kept when its starts take every value of a range. The step a
//! smallest-`*k` case analysis repeats (`runs/uvg-n12/star8/NOTES.md`); the
//! lemma that makes it complete is [`gamesweep::uvg::lift`]'s.
//!
//! The lists are graph6 lines, optionally followed by the start values
//! (`GRAPH6 v0,v1,…`, as `--extension-value` and this command write them)
//! or by one start (`GRAPH6 START`, as `--collect-min-value` writes them);
//! a list whose name ends in `.zst` is read through zstd.
//! Every graph is solved again here; values that disagree are an error.
//! The answer does not depend on the thread count, on the lists' order or
//! on graphs listed twice or under other labellings: the inputs are taken
//! up to isomorphism and the graphs kept are returned up to isomorphism, in
//! canonical graph6 order. `--part K/M` runs part `K` of the inputs only;
//! the kept graphs of the `M` parts, merged (`sort -u`), are those of the
//! whole run.

use anyhow::Context as _;
use gamesweep::gen::canon::canonical_form;
use gamesweep::graph::{graph6, BitGraph};
use gamesweep::uvg::extension::{join_one_of_each, range_mask, record, value_mask, Hit};
use gamesweep::uvg::grundy_all;
use gamesweep::uvg::lift::{lift, LiftStats, Pad};
use gamesweep_api::domain::Part;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::error::UsageError;

/// What to build and keep.
#[derive(Clone, Debug)]
pub struct ExtendRequest {
    /// The value `V` of the new start `t` (1..=15).
    pub value: u8,
    /// The vertices `M` of the graphs built (2..=16).
    pub vertices: usize,
    /// The lists of graphs `E` (each on `M − 3..M` vertices, connected).
    pub inputs: Vec<PathBuf>,
    /// Keep only graphs with starts of every value `lo..=hi`; `None`: keep
    /// every graph built.
    pub cover: Option<(u8, u8)>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Run only part `K` of `M` of the inputs (taken in canonical order).
    pub part: Option<Part>,
}

/// What a run built and kept.
#[derive(Clone, Debug, Default)]
pub struct Extended {
    /// Lines read from the lists (graphs listed twice counted twice).
    pub lines: u64,
    /// Distinct input graphs (up to isomorphism), by vertex count.
    pub inputs: BTreeMap<usize, u64>,
    /// Of those, the ones in this part.
    pub in_part: u64,
    /// Graphs built and solved, and those where `t` missed the value.
    pub stats: LiftStats,
    /// Graphs built whose starts cover the range (labelled: one graph may
    /// be built several times).
    pub kept: u64,
    /// The graphs kept, up to isomorphism: canonical graph6 → the
    /// canonical graph and its start values.
    pub graphs: BTreeMap<String, Solved>,
}

impl Extended {
    /// The kept graphs as records (`GRAPH6 v0,v1,…`), in canonical graph6
    /// order: the command's output, and valid input of another run.
    pub fn records(&self) -> impl Iterator<Item = String> + '_ {
        self.graphs.values().map(|(g, vals)| record(g, vals))
    }

    /// Starts of value `v` over the kept graphs (each graph once).
    pub fn starts_of_value(&self, v: u8) -> u64 {
        self.graphs
            .values()
            .map(|(_, vals)| vals.iter().filter(|&&x| x == v).count() as u64)
            .sum()
    }

    /// The least position of value `*(hi + 1)` the kept graphs give, when
    /// the range is `0..=hi`: a kept graph with a new vertex `s` joined to
    /// its least start of each value `0..=hi`, so that `s` has value
    /// `hi + 1` (least by edges, then graph6, then start).
    pub fn witness(&self, cover: Option<(u8, u8)>) -> Option<Hit> {
        let (0, hi) = cover? else { return None };
        self.graphs
            .values()
            .map(|(g, vals)| join_one_of_each(g, vals, hi + 1))
            .min()
    }
}

/// A graph and its start values.
pub type Solved = (BitGraph, Vec<u8>);

/// One listed graph: its graph6, and the start values (checked against
/// the graph solved here) or the start the line gives.
fn read_line(req: &ExtendRequest, text: &str) -> Result<BitGraph, String> {
    let mut fields = text.split_whitespace();
    let g6 = fields.next().expect("a non-blank line has a field");
    let rest = fields.next();
    if fields.next().is_some() {
        return Err("expected \"GRAPH6\", \"GRAPH6 v0,v1,…\" or \"GRAPH6 START\"".into());
    }
    let g = graph6::parse_bitgraph(g6).map_err(|e| e.to_string())?;
    let (n, m) = (g.n(), req.vertices);
    if n + 3 < m || n >= m {
        return Err(format!(
            "a graph on {n} vertices: building graphs on {m} takes graphs on {} to {} \
             (the other components of D − t have at most two vertices)",
            m.saturating_sub(3).max(1),
            m - 1
        ));
    }
    if !g.is_connected() {
        return Err("the graph is not connected".into());
    }
    match rest {
        None => {}
        Some(r) if r.contains(',') || n == 1 => {
            let claimed: Vec<u8> = r
                .split(',')
                .map(|x| {
                    x.parse::<u8>()
                        .map_err(|e| format!("start value {x:?}: {e}"))
                })
                .collect::<Result<_, _>>()?;
            let vals = grundy_all(&g);
            if claimed != vals {
                return Err(format!("the start values are {vals:?}, not {claimed:?}"));
            }
        }
        Some(r) => {
            let s: usize = r.parse().map_err(|e| format!("start {r:?}: {e}"))?;
            if s >= n {
                return Err(format!("start {s} is not a vertex (the graph has {n})"));
            }
        }
    }
    Ok(g)
}

/// A list's text; a `.zst` file is decompressed (zstd) first.
fn read_list(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)?;
    let bytes = if path.extension().is_some_and(|e| e == "zst") {
        zstd::stream::decode_all(&bytes[..])?
    } else {
        bytes
    };
    Ok(String::from_utf8(bytes)?)
}

/// Reads every list: the distinct graphs, in canonical order, with their
/// values, and the lines read.
fn read_inputs(req: &ExtendRequest) -> anyhow::Result<(Vec<Solved>, u64)> {
    let mut by_key: BTreeMap<String, BitGraph> = BTreeMap::new();
    let mut lines = 0u64;
    for path in &req.inputs {
        let text =
            read_list(path).with_context(|| format!("extend: reading {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            lines += 1;
            let g = read_line(req, line).map_err(|why| {
                UsageError(format!(
                    "extend: {}:{}: {line:?}: {why}",
                    path.display(),
                    i + 1
                ))
            })?;
            let c = canonical_form(&g);
            by_key.entry(graph6::encode_bitgraph(&c)).or_insert(c);
        }
    }
    let graphs = by_key
        .into_values()
        .map(|g| {
            let v = grundy_all(&g);
            (g, v)
        })
        .collect();
    Ok((graphs, lines))
}

/// Checks the request's numbers: one-line usage errors.
fn check(req: &ExtendRequest) -> Result<(), UsageError> {
    if !(1..=15).contains(&req.value) {
        return Err(UsageError(format!(
            "extend: --value {} (give 1 to 15)",
            req.value
        )));
    }
    if !(2..=16).contains(&req.vertices) {
        return Err(UsageError(format!(
            "extend: --vertices {} (give 2 to 16: the exact solver's range)",
            req.vertices
        )));
    }
    if let Some((lo, hi)) = req.cover {
        if lo > hi || hi as usize >= req.vertices {
            return Err(UsageError(format!(
                "extend: --cover {lo}-{hi}: give LO-HI with LO ≤ HI < {} (a value needs more vertices than that)",
                req.vertices
            )));
        }
    }
    if let Some(p) = req.part {
        p.check()
            .map_err(|e| UsageError(format!("extend: --part {}/{}: {e}", p.index, p.of)))?;
    }
    if req.inputs.is_empty() {
        return Err(UsageError(
            "extend: give at least one list of graphs".into(),
        ));
    }
    Ok(())
}

/// Runs the request: reads the lists, lifts every input of the part with
/// every pad that fits, and keeps the graphs whose starts cover the range.
/// `counter` counts the inputs done (a [`crate::progress::Counter`]).
pub fn extend(req: &ExtendRequest, counter: &crate::progress::Counter) -> anyhow::Result<Extended> {
    check(req)?;
    let (all, lines) = read_inputs(req)?;
    let mut out = Extended {
        lines,
        ..Extended::default()
    };
    for (g, _) in &all {
        *out.inputs.entry(g.n()).or_default() += 1;
    }
    let part = req.part.unwrap_or(Part { index: 0, of: 1 });
    let mine: Vec<&Solved> = all
        .iter()
        .enumerate()
        .filter(|&(i, _)| part.contains(i as u32))
        .map(|(_, e)| e)
        .collect();
    out.in_part = mine.len() as u64;
    let need = req.cover.map_or(0, |(lo, hi)| range_mask(lo, hi));
    let next = AtomicUsize::new(0);
    let merged = Mutex::new((LiftStats::default(), 0u64, BTreeMap::new()));
    std::thread::scope(|s| {
        for _ in 0..req.threads.clamp(1, mine.len().max(1)) {
            s.spawn(|| {
                let mut stats = LiftStats::default();
                let mut kept = 0u64;
                let mut graphs: BTreeMap<String, Solved> = BTreeMap::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((e, vals)) = mine.get(i) else { break };
                    for pad in Pad::of_size(req.vertices - 1 - e.n()) {
                        stats.merge(lift(req.value, e, vals, pad, &mut |d, dv| {
                            if value_mask(dv) & need != need {
                                return;
                            }
                            kept += 1;
                            let c = canonical_form(d);
                            if let Entry::Vacant(e) = graphs.entry(graph6::encode_bitgraph(&c)) {
                                // Solved again: the canonical labelling
                                // permutes the vertices, and with them the
                                // values.
                                e.insert((c, grundy_all(&c)));
                            }
                        }));
                    }
                    counter.inc(1);
                }
                let mut all = merged.lock().unwrap_or_else(|e| e.into_inner());
                all.0.merge(stats);
                all.1 += kept;
                all.2.append(&mut graphs);
            });
        }
    });
    let (stats, kept, graphs) = merged.into_inner().unwrap_or_else(|e| e.into_inner());
    out.stats = stats;
    out.kept = kept;
    out.graphs = graphs;
    if out.stats.off_value > 0 {
        anyhow::bail!(
            "extend: {} of {} graphs built gave t a value other than *{}: the lemma says never (a solver defect)",
            out.stats.off_value,
            out.stats.built,
            req.value
        );
    }
    Ok(out)
}
