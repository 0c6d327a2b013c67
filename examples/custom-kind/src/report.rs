//! The report text and the presentation (charts, drawn witnesses) of
//! `node-kayles`, from its document alone.

use super::NodeKaylesDoc;
use gamesweep::sweep::report::{nim, thousands, vertices};
use gamesweep::sweep::{Chart, Marks, Presentation, Role, Series, Witness};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// `report.md` (the framework adds the command line and the figures).
pub fn report_md(d: &NodeKaylesDoc) -> String {
    let mut s = String::new();
    let m = d.params.max_n;
    let _ = writeln!(
        s,
        "# Node Kayles on every graph with at most {m} vertices\n"
    );
    let _ = writeln!(
        s,
        "A move picks a vertex and removes it with its neighbours; normal play. Each graph's \
         Grundy value is computed over all its vertex subsets. One graph per isomorphism class \
         (canonical augmentation, as for every graph sweep). A kind defined outside the \
         workspace (`examples/custom-kind/`).\n"
    );
    let values: BTreeSet<u32> = d
        .by_n
        .iter()
        .flat_map(|r| r.values.keys().copied())
        .collect();
    let _ = write!(s, "| vertices | graphs |");
    for v in &values {
        let _ = write!(s, " {} |", nim(u64::from(*v)));
    }
    let _ = write!(s, "\n|---:|---:|");
    for _ in &values {
        let _ = write!(s, "---:|");
    }
    s.push('\n');
    for r in &d.by_n {
        let _ = write!(s, "| {} | {} |", r.n, thousands(r.graphs));
        for v in &values {
            let _ = write!(s, " {} |", thousands(r.values.get(v).copied().unwrap_or(0)));
        }
        s.push('\n');
    }
    let _ = writeln!(s, "\nLargest value: {}.\n", nim(u64::from(d.largest_value)));
    let _ = writeln!(s, "## Smallest graph of each value\n");
    let _ = writeln!(s, "| value | vertices | edges | graph6 |");
    let _ = writeln!(s, "|---|---:|---:|---|");
    for w in &d.smallest {
        let _ = writeln!(
            s,
            "| {} | {} | {} | `{}` |",
            nim(u64::from(w.value)),
            w.vertices,
            w.edges,
            w.graph6
        );
    }
    s
}

/// A bar chart of graphs by value, a line per value over the number of
/// vertices, and the smallest graph of each value.
pub fn present(d: &NodeKaylesDoc) -> Presentation {
    let values: BTreeSet<u32> = d
        .by_n
        .iter()
        .flat_map(|r| r.values.keys().copied())
        .collect();
    let bars: Vec<(u64, u64)> = values
        .iter()
        .map(|v| {
            let total = d.by_n.iter().filter_map(|r| r.values.get(v)).sum();
            (u64::from(*v), total)
        })
        .collect();
    let series = values
        .iter()
        .map(|v| Series {
            name: format!("value {}", nim(u64::from(*v))),
            points: d
                .by_n
                .iter()
                .map(|r| (u64::from(r.n), r.values.get(v).copied().unwrap_or(0)))
                .collect(),
        })
        .collect();
    Presentation {
        charts: vec![
            Chart::bars(
                "values",
                "Graphs by Node Kayles value",
                "Grundy value",
                "graphs (log scale)",
                bars,
            ),
            Chart::lines(
                "values-by-n",
                "Graphs of each value by vertices",
                "vertices",
                "graphs (log scale)",
                series,
            ),
        ],
        witnesses: d
            .smallest
            .iter()
            .map(|w| Witness {
                role: Role::Smallest,
                code: w.graph6.clone(),
                marks: Marks::None,
                value: Some(nim(u64::from(w.value))),
                caption: format!(
                    "Node Kayles: smallest {}: {}, {} edges",
                    nim(u64::from(w.value)),
                    vertices(w.vertices),
                    w.edges
                ),
                size: (w.vertices, w.edges),
            })
            .collect(),
    }
}
