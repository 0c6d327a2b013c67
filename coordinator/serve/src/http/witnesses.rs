//! The witnesses and counterexamples a sweep has found so far, as pictures.
//!
//! The dashboard knows no kind: it renders the merge of the results
//! accepted so far into the kind's own `results.json` document (the same
//! rendering a finished sweep gets) and draws every graph in it: each
//! object with a `graph6` field (its `start`, if any, marked), each
//! `extended_graph6` with its `extended_start`, and each `"GRAPH6 START"`
//! line of a `positions` list. A graph under a key naming exceptions or
//! counterexamples is shown as a counterexample; they come first, then the
//! `graph6` objects, then the extensions, then the listed positions. Labels are the graph's
//! place in the document (`by_n[n=7].witnesses.3`). Pictures are drawn by
//! [`gamesweep::draw`] and kept until the sweep's done shards change.

use gamesweep::draw;
use gamesweep::kinds;
use gamesweep_engine::core::{Core, CoreError};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Pictures drawn for one sweep at most (counterexamples first).
pub const MAX_PICTURES: usize = 60;

/// `GRAPH6 START` lines read from one list at most.
const MAX_PER_LIST: usize = 8;

/// A sweep whose done shards changed is drawn again at most this often.
const REDRAW_EVERY: Duration = Duration::from_secs(3);

/// One graph of the document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Picture {
    /// Where it is in `results.json`.
    pub place: String,
    /// The graph (graph6, or digraph6).
    pub graph6: String,
    /// The start vertex marked, if the document gives one.
    pub start: Option<u64>,
    /// Found under a key naming exceptions or counterexamples.
    pub counterexample: bool,
    /// The SVG picture.
    pub svg: String,
}

/// What `/api/sweep/{id}/witnesses` returns.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Pictures {
    /// The sweep.
    pub sweep_id: String,
    /// Shards done when drawn.
    pub shards_done: u32,
    /// The pictures: counterexamples, `graph6` objects, extensions, listed
    /// positions, each in document order.
    pub pictures: Vec<Picture>,
    /// Graphs in the document not drawn (over [`MAX_PICTURES`]).
    pub omitted: usize,
    /// Why nothing could be drawn (the document did not render), if so.
    pub error: Option<String>,
}

/// A graph found in the document, not drawn yet.
struct Found {
    /// 0 counterexample, 1 a `graph6` object, 2 an extension, 3 a listed position.
    rank: u8,
    place: String,
    code: String,
    start: Option<u64>,
    counterexample: bool,
}

fn is_counterexample(place: &str) -> bool {
    let p = place.to_ascii_lowercase();
    p.contains("exception") || p.contains("counterexample")
}

/// The key of an array element: `n=7` when the element is an object with
/// a whole `n`, else its index.
fn element(v: &Value, i: usize) -> String {
    match v.get("n").and_then(Value::as_u64) {
        Some(n) => format!("n={n}"),
        None => i.to_string(),
    }
}

fn walk(v: &Value, place: &str, key: &str, out: &mut Vec<Found>) {
    match v {
        Value::Object(m) => {
            for (code_key, start_key) in
                [("graph6", "start"), ("extended_graph6", "extended_start")]
            {
                if let Some(code) = m.get(code_key).and_then(Value::as_str) {
                    let p = if code_key == "graph6" {
                        place.to_string()
                    } else {
                        format!("{place}.extended")
                    };
                    let counterexample = is_counterexample(&p);
                    out.push(Found {
                        rank: if counterexample {
                            0
                        } else if code_key == "graph6" {
                            1
                        } else {
                            2
                        },
                        counterexample,
                        place: p,
                        code: code.to_string(),
                        start: m.get(start_key).and_then(Value::as_u64),
                    });
                }
            }
            for (k, child) in m {
                walk(child, &join(place, k), k, out);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                if let Value::String(line) = child {
                    if key == "positions" && i < MAX_PER_LIST {
                        if let Some((code, start)) = line.split_once(' ') {
                            if let Ok(start) = start.trim().parse::<u64>() {
                                let p = format!("{place}[{i}]");
                                let counterexample = is_counterexample(&p);
                                out.push(Found {
                                    rank: if counterexample { 0 } else { 3 },
                                    counterexample,
                                    place: p,
                                    code: code.to_string(),
                                    start: Some(start),
                                });
                            }
                        }
                    }
                } else {
                    walk(child, &format!("{place}[{}]", element(child, i)), key, out);
                }
            }
        }
        _ => {}
    }
}

fn join(place: &str, key: &str) -> String {
    if place.is_empty() {
        key.to_string()
    } else {
        format!("{place}.{key}")
    }
}

/// Every graph in the `results.json` text `doc`, drawn (at most
/// [`MAX_PICTURES`], counterexamples first), and how many were left out.
/// Graphs that do not decode or are too big to draw are left out silently.
pub fn pictures(doc: &str) -> Result<(Vec<Picture>, usize), String> {
    let v: Value = serde_json::from_str(doc).map_err(|e| format!("results.json: {e}"))?;
    let mut found = Vec::new();
    walk(&v, "", "", &mut found);
    // Stable: document order within each rank.
    found.sort_by_key(|f| f.rank);
    let mut out = Vec::new();
    let mut omitted = 0;
    for f in found {
        if out.len() >= MAX_PICTURES {
            omitted += 1;
            continue;
        }
        let marked: Vec<usize> = f.start.map(|s| s as usize).into_iter().collect();
        let title = match f.start {
            Some(s) => format!("{} — {} start {s}", f.place, f.code),
            None => format!("{} — {}", f.place, f.code),
        };
        let opts = draw::Options {
            size: 140,
            title: Some(title),
            ..draw::Options::default()
        };
        if let Ok(svg) = draw::svg_code(&f.code, &marked, &opts) {
            out.push(Picture {
                place: f.place,
                graph6: f.code,
                start: f.start,
                counterexample: f.counterexample,
                svg,
            });
        }
    }
    Ok((out, omitted))
}

/// What a sweep's pictures were drawn from: (launch seq, shards done),
/// when, and the pictures.
type Drawn = ((u64, u32), Instant, Arc<Pictures>);

/// Pictures drawn, by sweep.
#[derive(Default)]
pub struct Cache {
    entries: Mutex<HashMap<String, Drawn>>,
}

/// Sweeps whose pictures are kept at most.
const MAX_CACHED: usize = 64;

impl Cache {
    /// The pictures of sweep `id` (drawn again when its done shards changed,
    /// at most every [`REDRAW_EVERY`]). Runs on a blocking thread.
    pub fn get(&self, core: &Core, id: &str) -> Result<Arc<Pictures>, CoreError> {
        let (merged, seq, done) = core.partial(id)?;
        {
            let e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((key, at, p)) = e.get(id) {
                if *key == (seq, done) || at.elapsed() < REDRAW_EVERY && key.0 == seq {
                    return Ok(p.clone());
                }
            }
        }
        let rendered = kinds::find(&merged.kind)
            .and_then(|k| k.render(&merged.params, &merged.output))
            .map_err(|e| e.to_string());
        let mut p = Pictures {
            sweep_id: id.to_string(),
            shards_done: done,
            ..Pictures::default()
        };
        match rendered.and_then(|r| pictures(&r.results_json)) {
            Ok((pics, omitted)) => {
                p.pictures = pics;
                p.omitted = omitted;
            }
            Err(e) => p.error = Some(e),
        }
        let p = Arc::new(p);
        let mut e = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if e.len() >= MAX_CACHED && !e.contains_key(id) {
            e.clear();
        }
        e.insert(id.to_string(), ((seq, done), Instant::now(), p.clone()));
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_graph_of_a_document_is_found_and_counterexamples_come_first() {
        let doc = r#"{
            "by_n": [
                {"n": 3, "witnesses": {"0": {"graph6": "Bw", "start": 1, "edges": 3}},
                 "matching_exception_records": [{"graph6": "Bo", "start": 2}],
                 "extensions": {"3": {"extended_graph6": "Bw", "extended_start": 0, "smallest_base": "A_"}},
                 "collected": {"positions": ["Bo 0", "Bo 1", "junk"]}}
            ],
            "other": {"graph6": "not a graph"}
        }"#;
        let (p, omitted) = pictures(doc).unwrap();
        assert_eq!(omitted, 0);
        let places: Vec<(&str, Option<u64>, bool)> = p
            .iter()
            .map(|x| (x.place.as_str(), x.start, x.counterexample))
            .collect();
        assert_eq!(
            places,
            vec![
                ("by_n[n=3].matching_exception_records[0]", Some(2), true),
                ("by_n[n=3].witnesses.0", Some(1), false),
                ("by_n[n=3].extensions.3.extended", Some(0), false),
                ("by_n[n=3].collected.positions[0]", Some(0), false),
                ("by_n[n=3].collected.positions[1]", Some(1), false),
            ]
        );
        assert!(p.iter().all(|x| x.svg.starts_with("<svg ")));
        assert!(p[0].svg.contains("class=\"start\" data-v=\"2\""));
        assert!(pictures("{").is_err());
    }

    #[test]
    fn at_most_max_pictures_are_drawn() {
        let many: Vec<String> = (0..MAX_PICTURES + 5)
            .map(|i| format!("{{\"graph6\": \"Bw\", \"start\": {}}}", i % 3))
            .collect();
        let doc = format!("{{\"w\": [{}]}}", many.join(","));
        let (p, omitted) = pictures(&doc).unwrap();
        assert_eq!((p.len(), omitted), (MAX_PICTURES, 5));
    }
}
