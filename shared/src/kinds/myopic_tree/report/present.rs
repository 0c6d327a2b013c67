//! What the `myopic-tree` and `myopic-rooted` sweeps show besides their
//! report text. Display only: nothing here reaches `results.json`.

use super::super::{NodeRow, TreeDoc};
use crate::families::col::smallest_witnesses;
use crate::sweep::{Chart, Presentation, Role, Series};

/// Positions and distinct values by nodes (a chart); the exceptions of
/// each group and the non-cold positions; the smallest position of each
/// value.
pub fn present(d: &TreeDoc) -> Presentation {
    let by = |f: fn(&NodeRow) -> u64| -> Vec<(u64, u64)> {
        d.by_nodes.iter().map(|r| (r.nodes as u64, f(r))).collect()
    };
    let mut witnesses = Vec::new();
    for (group, ps) in &d.exceptions {
        let name = serde_json::to_value(group)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        for p in ps {
            witnesses.push(p.witness(Role::Counterexample, &format!("exception ({name})")));
        }
    }
    for p in &d.non_cold {
        witnesses.push(p.witness(Role::Counterexample, "non-cold"));
    }
    witnesses.extend(smallest_witnesses(&d.values));
    Presentation {
        charts: vec![Chart::lines(
            "values-by-n",
            "Myopic Col positions and distinct values by nodes",
            "nodes",
            "count (log scale)",
            vec![
                Series {
                    name: "trees".into(),
                    points: by(|r| r.trees),
                },
                Series {
                    name: "positions".into(),
                    points: by(|r| r.positions),
                },
                Series {
                    name: "distinct values".into(),
                    points: by(|r| r.distinct_values as u64),
                },
                Series {
                    name: "non-cold positions".into(),
                    points: by(|r| r.non_cold),
                },
            ],
        )],
        witnesses,
    }
}
