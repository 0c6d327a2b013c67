//! The report of a layered sweep: tables of values by n, the smallest
//! witness of each value, the counterexamples, and the positions to draw.

use super::model::{parse_dyadic, GameDoc, HottestDoc, Layered, WitnessDoc};
use super::{Graph, GraphGame};
use crate::cgt::Dyadic;
use crate::sweep::report::{md_code_cell, vertices};
use crate::sweep::{thousands, Chart, Marks, Presentation, Role, Series, Witness};
use std::fmt::Write as _;

/// Values shown as columns of the values table before the rest go to
/// one row per value (wide tables do not read).
const WIDE: usize = 12;

/// A value in a Markdown table cell: plain text (code spans in tables
/// hold board codes only), `|` and `*` escaped (`{1|0}`, `*2`).
fn md_value(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('*', "\\*")
}

/// `report.md` of a layered sweep.
pub fn report_md<G: GraphGame>(_k: &Layered<G>, _p: &super::Class, d: &GameDoc) -> String {
    let mut s = String::new();
    let noun = if G::DIRECTED { "digraphs" } else { "graphs" };
    let _ = writeln!(s, "# {}\n", G::NAME);
    let _ = writeln!(s, "{}\n", d.game.about);
    let _ = writeln!(
        s,
        "{} {} game, on every one of the {} (one per isomorphism class; labelled counts weigh each by n!/|Aut|).",
        if d.game.play.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "An"
        } else {
            "A"
        },
        d.game.play,
        d.game.class
    );
    let _ = writeln!(s);
    if let Some(prop) = &d.game.property {
        let total: u64 = d.by_n.iter().map(|r| r.counterexamples).sum();
        let _ = writeln!(
            s,
            "Property checked on every position: {prop}. Counterexamples: {}.\n",
            thousands(total)
        );
    }
    let _ = writeln!(s, "## Counts\n");
    let _ = writeln!(
        s,
        "| n | {noun} | labelled {noun} | positions | labelled positions | values |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|");
    for r in &d.by_n {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            r.n,
            thousands(r.graphs),
            thousands(r.labelled_graphs),
            thousands(r.positions),
            thousands(r.labelled_positions),
            r.values.len()
        );
    }
    let _ = writeln!(s, "\n## Positions by value\n");
    let _ = writeln!(
        s,
        "Positions of each value on each number of vertices (labelled positions in parentheses).\n"
    );
    let values: Vec<&str> = d.smallest.iter().map(|w| w.value.as_str()).collect();
    let cell = |n: usize, v: &str| -> String {
        d.by_n
            .iter()
            .find(|r| r.n == n)
            .and_then(|r| r.values.iter().find(|x| x.value == v))
            .map_or("".into(), |x| {
                format!(
                    "{} ({})",
                    thousands(x.positions),
                    thousands(x.labelled_positions)
                )
            })
    };
    let ns: Vec<usize> = d.by_n.iter().map(|r| r.n).collect();
    if values.len() <= WIDE {
        let head: Vec<String> = values.iter().map(|v| md_value(v)).collect();
        let _ = writeln!(s, "| n | {} |", head.join(" | "));
        let _ = writeln!(s, "|---:|{}", "---:|".repeat(values.len()));
        for &n in &ns {
            let row: Vec<String> = values.iter().map(|v| cell(n, v)).collect();
            let _ = writeln!(s, "| {n} | {} |", row.join(" | "));
        }
    } else {
        let head: Vec<String> = ns.iter().map(|n| format!("n = {n}")).collect();
        let _ = writeln!(s, "| value | {} |", head.join(" | "));
        let _ = writeln!(s, "|---|{}", "---:|".repeat(ns.len()));
        for v in &values {
            let row: Vec<String> = ns.iter().map(|&n| cell(n, v)).collect();
            let _ = writeln!(s, "| {} | {} |", md_value(v), row.join(" | "));
        }
    }
    temperature_tables(&mut s, d);
    let _ = writeln!(s, "\n## Smallest position of each value\n");
    let _ = writeln!(
        s,
        "Smallest in witness order: fewest vertices, then fewest edges, then code, then position.\n"
    );
    witness_table(&mut s, &d.smallest);
    if d.game.property.is_some() {
        let _ = writeln!(s, "\n## Counterexamples\n");
        if d.counterexamples.is_empty() {
            let _ = writeln!(s, "None: every position has the property.");
        } else {
            let _ = writeln!(s, "The smallest, in witness order:\n");
            witness_table(&mut s, &d.counterexamples);
        }
    }
    s
}

/// A partizan game's temperatures: positions by temperature and n, and
/// each n's largest temperature ÷ maximum degree with its witness.
fn temperature_tables(s: &mut String, d: &GameDoc) {
    if d.by_n.iter().all(|r| r.temperatures.is_empty()) {
        return;
    }
    let _ = writeln!(s, "\n## Temperatures\n");
    let _ = writeln!(
        s,
        "The temperature of each position's value, as CGSuite defines it (an integer has temperature −1, \
a number m/2^k has −1/2^k, a number plus an infinitesimal 0; a hot game, where its thermograph's mast starts). \
Positions of each temperature on each number of vertices (labelled positions in parentheses).\n"
    );
    let mut ts: Vec<(Dyadic, &str)> = Vec::new();
    for r in &d.by_n {
        for t in &r.temperatures {
            if let Some(x) = parse_dyadic(&t.temperature) {
                if !ts.iter().any(|(y, _)| *y == x) {
                    ts.push((x, &t.temperature));
                }
            }
        }
    }
    ts.sort();
    let ns: Vec<usize> = d.by_n.iter().map(|r| r.n).collect();
    let head: Vec<String> = ns.iter().map(|n| format!("n = {n}")).collect();
    let _ = writeln!(s, "| temperature | {} |", head.join(" | "));
    let _ = writeln!(s, "|---:|{}", "---:|".repeat(ns.len()));
    for (_, t) in &ts {
        let row: Vec<String> = d
            .by_n
            .iter()
            .map(|r| {
                r.temperatures
                    .iter()
                    .find(|x| x.temperature == *t)
                    .map_or("".into(), |x| {
                        format!(
                            "{} ({})",
                            thousands(x.positions),
                            thousands(x.labelled_positions)
                        )
                    })
            })
            .collect();
        let _ = writeln!(s, "| {t} | {} |", row.join(" | "));
    }
    let _ = writeln!(s, "\n## Hottest positions\n");
    let _ = writeln!(
        s,
        "On each number of vertices, the largest temperature, and the largest temperature divided by the maximum \
degree of the position's graph (graphs with an edge), each with the smallest position reaching it (witness order: \
fewest edges, then code, then position).\n"
    );
    let _ = writeln!(
        s,
        "| n | largest temperature | max degree | code | temperature ÷ max degree | temperature | max degree | code |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---|---:|---:|---:|---|");
    for r in &d.by_n {
        let cells = |h: Option<&HottestDoc>, ratio: bool| match h {
            None => if ratio { " | | |" } else { " | |" }.to_string(),
            Some(h) => {
                let head = if ratio {
                    format!("{} | ", h.ratio.as_deref().unwrap_or(""))
                } else {
                    String::new()
                };
                format!(
                    "{head}{} | {} | {}",
                    h.temperature,
                    h.max_degree,
                    md_code_cell(&h.witness.code)
                )
            }
        };
        if r.hottest.is_none() {
            continue;
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            r.n,
            cells(r.hottest.as_ref(), false),
            cells(r.hottest_per_degree.as_ref(), true)
        );
    }
}

fn witness_table(s: &mut String, ws: &[WitnessDoc]) {
    let hot = ws.iter().any(|w| w.temperature.is_some());
    if hot {
        let _ = writeln!(s, "| value | temperature | n | edges | code | position |");
        let _ = writeln!(s, "|---|---:|---:|---:|---|---|");
    } else {
        let _ = writeln!(s, "| value | n | edges | code | position |");
        let _ = writeln!(s, "|---|---:|---:|---|---|");
    }
    for w in ws {
        let t = match (&w.temperature, hot) {
            (Some(t), _) => format!(" {t} |"),
            (None, true) => " |".into(),
            (None, false) => String::new(),
        };
        let _ = writeln!(
            s,
            "| {} |{t} {} | {} | {} | {} |",
            md_value(&w.value),
            w.n,
            w.edges,
            md_code_cell(&w.code),
            w.describe
        );
    }
}

/// What to draw: positions per n by outcome (a chart), the counterexamples
/// and the smallest position of each value.
pub fn present<G: GraphGame>(k: &Layered<G>, d: &GameDoc) -> Presentation {
    let marks = |w: &WitnessDoc| -> Marks {
        Graph::parse(&w.code, G::DIRECTED)
            .ok()
            .and_then(|g| {
                let ps = k.0.positions(&g);
                ps.get(w.position as usize).map(|p| k.0.marks(&g, p))
            })
            .unwrap_or(Marks::None)
    };
    let mut witnesses = Vec::new();
    for (role, list, what) in [
        (Role::Counterexample, &d.counterexamples, "counterexample"),
        (Role::Smallest, &d.smallest, "smallest"),
    ] {
        for w in list {
            witnesses.push(Witness {
                role,
                code: w.code.clone(),
                marks: marks(w),
                value: Some(w.value.clone()),
                caption: format!("{what} {}: {}, {}", w.value, vertices(w.n), w.describe),
                size: (w.n, w.edges),
            });
        }
    }
    for r in &d.by_n {
        let records = [(&r.hottest, false), (&r.hottest_per_degree, true)];
        for (h, per_degree) in records {
            let Some(h) = h else { continue };
            let w = &h.witness;
            let what = match (&h.ratio, per_degree) {
                (Some(q), true) => format!("largest temperature ÷ max degree, {q}"),
                _ => "largest temperature".into(),
            };
            witnesses.push(Witness {
                role: Role::Collected,
                code: w.code.clone(),
                marks: marks(w),
                value: Some(w.value.clone()),
                caption: format!(
                    "{what} on {}: temperature {}, max degree {}, {}",
                    vertices(w.n),
                    h.temperature,
                    h.max_degree,
                    w.describe
                ),
                size: (w.n, w.edges),
            });
        }
    }
    let series = vec![
        Series {
            name: "positions".into(),
            points: d.by_n.iter().map(|r| (r.n as u64, r.positions)).collect(),
        },
        Series {
            name: "values".into(),
            points: d
                .by_n
                .iter()
                .map(|r| (r.n as u64, r.values.len() as u64))
                .collect(),
        },
    ];
    Presentation {
        charts: vec![Chart::lines(
            "positions",
            "Positions and distinct values by vertices",
            "vertices",
            "count",
            series,
        )],
        witnesses,
    }
}
