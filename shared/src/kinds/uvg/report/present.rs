//! What a `uvg` sweep shows besides its report text: positions by Grundy
//! value and n (a chart); the exceptions of the matching test and of the
//! degree-3 algorithm; the smallest position of each value; the extension
//! step's built positions, the extension search's witness and the collected
//! positions. Display only: nothing here reaches `results.json`.

use super::super::{ExceptionRow, UvgDoc};
use crate::sweep::report::{nim, vertices};
use crate::sweep::{Chart, Marks, Presentation, Role, Series, Witness};
use std::collections::BTreeSet;

/// Collected positions shown per vertex count at most (the rest stay in
/// `results.json` and the exported list).
const COLLECTED_SHOWN: usize = 8;

fn exception(what: &str, r: &ExceptionRow) -> Witness {
    Witness {
        role: Role::Counterexample,
        size: (r.vertices, r.edges),
        code: r.graph6.clone(),
        marks: Marks::Start(vec![r.start as usize]),
        value: None,
        caption: format!(
            "{what}: {}, start {}, {}",
            vertices(r.vertices),
            r.start,
            r.values
        ),
    }
}

/// The presentation of a `uvg` document.
pub fn present(d: &UvgDoc) -> Presentation {
    let values: BTreeSet<u8> = d
        .by_n
        .iter()
        .flat_map(|r| r.grundy.keys().copied())
        .collect();
    let series = values
        .iter()
        .map(|&g| Series {
            // The value as the report writes it (`*2`): the chart's legend.
            name: nim(g as u64),
            points: d
                .by_n
                .iter()
                .map(|r| (r.n as u64, r.grundy.get(&g).copied().unwrap_or(0)))
                .collect(),
        })
        .collect();
    let mut out = Presentation {
        charts: vec![Chart::lines(
            "values-by-n",
            "Positions (graph, start) by Grundy value and n",
            "n (vertices)",
            "positions (log scale)",
            series,
        )],
        witnesses: Vec::new(),
    };
    for r in &d.by_n {
        for e in &r.matching_exception_records {
            out.witnesses.push(exception("matching-test exception", e));
        }
        for e in &r.maxdeg3.exception_records {
            out.witnesses
                .push(exception("degree-3 algorithm exception", e));
        }
    }
    // The smallest position of each value: the witness at the first n that
    // has the value (a row's witness is the smallest of its n).
    let mut seen = BTreeSet::new();
    let mut rows: Vec<_> = d.by_n.iter().collect();
    rows.sort_by_key(|r| r.n);
    for r in &rows {
        for (&g, w) in &r.witnesses {
            if seen.insert(g) {
                let v = nim(g as u64);
                out.witnesses.push(Witness {
                    role: Role::Smallest,
                    size: (r.n as u32, w.edges),
                    code: w.graph6.clone(),
                    marks: Marks::Start(vec![w.start as usize]),
                    caption: format!("smallest {v}: {}, start {}", vertices(r.n as u64), w.start),
                    value: Some(v),
                });
            }
        }
    }
    for r in &rows {
        for (&k, e) in &r.extensions {
            if let (Some(code), Some(start)) = (&e.extended_graph6, e.extended_start) {
                let v = e.extended_value.map(|x| nim(x as u64));
                out.witnesses.push(Witness {
                    role: Role::Collected,
                    size: (r.n as u32 + 1, 0),
                    code: code.clone(),
                    marks: Marks::Start(vec![start]),
                    // Built by the report's extension step from the n
                    // graphs, so one vertex past the sweep's max-n, and
                    // whatever --extension-value (the search) was: the
                    // caption says where it comes from (issue 46: "extension
                    // to *5: 11 vertices" in a --max-n 10 run read as a
                    // search nobody asked for).
                    caption: format!(
                        "extension step from n = {}: {} on {}, start {start}, value {}",
                        r.n,
                        nim(k as u64),
                        vertices(r.n as u64 + 1),
                        v.as_deref().unwrap_or("not computed")
                    ),
                    value: v,
                });
            }
        }
    }
    if let Some(s) = &d.extension_search {
        if let Some(w) = &s.witness {
            let v = nim(s.value as u64);
            out.witnesses.push(Witness {
                role: Role::Collected,
                size: (s.vertices as u32, w.edges),
                code: w.graph6.clone(),
                marks: Marks::Start(vec![w.start as usize]),
                caption: format!(
                    "extension search: {v} on {}, start {}",
                    vertices(s.vertices as u64),
                    w.start
                ),
                value: Some(v),
            });
        }
    }
    for r in &rows {
        let Some(c) = &r.collected else { continue };
        for line in c.positions.iter().take(COLLECTED_SHOWN) {
            let Some((code, start)) = line.split_once(' ') else {
                continue;
            };
            let Ok(start) = start.trim().parse::<usize>() else {
                continue;
            };
            let v = format!("≥ {}", nim(c.min_value as u64));
            out.witnesses.push(Witness {
                role: Role::Collected,
                size: (r.n as u32, 0),
                code: code.to_string(),
                marks: Marks::Start(vec![start]),
                caption: format!(
                    "collected (value {v}): {}, start {start}",
                    vertices(r.n as u64)
                ),
                value: Some(v),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// Issue 46: a `--max-n 10` run showed "extension to *5: 11 vertices"
    /// with `--extension-value` off, read as a search nobody asked for. It
    /// is the report's extension step, built from the n = 10 graphs; the
    /// caption now says so.
    #[test]
    fn the_extension_steps_positions_say_where_they_come_from() {
        let json = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/uvg-n10/results.json"),
        )
        .unwrap();
        let p = crate::kinds::find("uvg").unwrap().present(&json).unwrap();
        let past: Vec<&str> = p
            .witnesses
            .iter()
            .filter(|w| w.size.0 == 11)
            .map(|w| w.caption.as_str())
            .collect();
        assert!(
            past.contains(&"extension step from n = 10: *5 on 11 vertices, start 10, value *5"),
            "{past:?}"
        );
        assert!(past
            .iter()
            .all(|c| c.starts_with("extension step from n = 10: ")));
    }
}
