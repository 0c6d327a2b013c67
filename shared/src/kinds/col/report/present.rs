//! What the `col` sweep shows besides its report text.
//! Display only: nothing here reaches `results.json`.

use super::super::{ColDoc, ColRow};
use crate::families::col::smallest_witnesses;
use crate::sweep::{Chart, Presentation, Role, Series};

/// `col`: positions and distinct values by n (a chart), the non-cold
/// positions, the smallest position of each value.
pub fn present(d: &ColDoc) -> Presentation {
    let by = |f: fn(&ColRow) -> u64| -> Vec<(u64, u64)> {
        d.by_n.iter().map(|r| (r.n as u64, f(r))).collect()
    };
    let mut witnesses: Vec<_> = d
        .non_cold
        .iter()
        .map(|p| p.witness(Role::Counterexample, "non-cold"))
        .collect();
    witnesses.extend(smallest_witnesses(&d.values));
    Presentation {
        charts: vec![Chart::lines(
            "values-by-n",
            "Col positions and distinct values by n",
            "n (vertices)",
            "count (log scale)",
            vec![
                Series {
                    name: "graphs".into(),
                    points: by(|r| r.graphs),
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
