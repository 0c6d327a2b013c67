//! What a kind's `results.json` has to picture, read through the kind's own
//! typed document: values by n (a line chart), value histograms (bar
//! charts), and positions (counterexamples first, then the smallest position
//! of each value, then other witnesses) with their start or colouring.

use gamesweep::families::col::typed::{PositionDoc, ValueRow};
use gamesweep::kinds::col::ColDoc;
use gamesweep::kinds::engine_check::EngineCheckDoc;
use gamesweep::kinds::myopic_digraph::DigraphDoc;
use gamesweep::kinds::myopic_list::ListDoc;
use gamesweep::kinds::myopic_tree::TreeDoc;
use gamesweep::kinds::octal::OctalDoc;
use gamesweep::kinds::subtraction::SubtractionDoc;
use gamesweep::kinds::uvg::{ExceptionRow, UvgDoc};
use gamesweep::kinds::uvg_degree3::Degree3Doc;
use gamesweep::kinds::uvg_local_search::SearchDoc;
use gamesweep::kinds::uvg_reduction::ReductionDoc;
use gamesweep::kinds::uvg_strategy::StrategyDoc;
use gamesweep::sweep::Record;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// One line of a chart: (x, y) points, x ascending.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// The points; a y of 0 is left out on a log scale.
    pub points: Vec<(u64, u64)>,
}

/// The shape of a chart.
#[derive(Clone, Debug, PartialEq)]
pub enum Plot {
    /// Lines over x, log-scale y.
    Lines(Vec<Series>),
    /// Bars at x, log-scale y.
    Bars(Vec<(u64, u64)>),
}

/// A chart to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// File stem (`figures/STEM.svg`).
    pub stem: String,
    /// Title (drawn in the chart, and the link text).
    pub title: String,
    /// The x axis.
    pub x_label: String,
    /// The y axis.
    pub y_label: String,
    /// The data.
    pub plot: Plot,
}

/// How a drawn position is marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marks {
    /// Start vertices (the token).
    Start(Vec<usize>),
    /// A colouring: `L` blue, `R` red, `.` uncoloured, one per vertex.
    Colouring(String),
    /// Nothing marked.
    None,
}

/// Why a position is drawn; also the drawing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// A counterexample (a claim's exception, a non-cold position, a disagreement).
    Counterexample,
    /// The smallest position of a value.
    Smallest,
    /// Another witness the kind keeps (best found, an example).
    Witness,
}

/// A position to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    /// Why.
    pub role: Role,
    /// graph6, or digraph6 (`&…`).
    pub code: String,
    /// Its marks.
    pub marks: Marks,
    /// What it is (plain text: value, check, note).
    pub caption: String,
    /// Size (vertices, edges) when the kind gives it, else (0, 0): within
    /// a role, smaller positions are drawn first (stable otherwise).
    pub size: (u32, u32),
}

/// Everything a report pictures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Data {
    /// Charts, in order.
    pub charts: Vec<Chart>,
    /// Positions, in order (sorted by role, stable).
    pub drawings: Vec<Drawing>,
}

#[derive(Deserialize)]
struct KindOnly {
    kind: String,
}

fn parse<T: DeserializeOwned>(kind: &str, json: &str) -> anyhow::Result<T> {
    serde_json::from_str(json)
        .map_err(|e| anyhow::anyhow!("results.json is not a valid `{kind}` document: {e}"))
}

/// The figures' data of a `results.json` (read as its kind's document; a
/// kind with nothing to picture, or unknown here, has none).
pub fn of_results(json: &str) -> anyhow::Result<(String, Data)> {
    let k: KindOnly = serde_json::from_str(json)
        .map_err(|e| anyhow::anyhow!("results.json names no kind: {e}"))?;
    let kind = k.kind.as_str();
    let mut d = match kind {
        "uvg" => uvg(&parse(kind, json)?),
        "col" => col(&parse(kind, json)?),
        "myopic-tree" | "myopic-rooted" => tree(&parse(kind, json)?),
        "myopic-digraph" => digraph(&parse(kind, json)?),
        "myopic-list" => list(&parse(kind, json)?),
        "engine-check" => engine_check(&parse(kind, json)?),
        "uvg-local-search" => search(&parse(kind, json)?),
        "uvg-degree3" => degree3(&parse(kind, json)?),
        "uvg-strategy" => strategy(&parse(kind, json)?),
        "uvg-reduction" => reduction(&parse(kind, json)?),
        "octal" => octal(&parse(kind, json)?),
        "subtraction" => subtraction(&parse(kind, json)?),
        _ => Data::default(),
    };
    d.drawings.sort_by_key(|x| (x.role, x.size));
    Ok((k.kind, d))
}

fn lines(stem: &str, title: &str, x: &str, y: &str, series: Vec<Series>) -> Chart {
    Chart {
        stem: stem.into(),
        title: title.into(),
        x_label: x.into(),
        y_label: y.into(),
        plot: Plot::Lines(series),
    }
}

fn bars(stem: &str, title: &str, x: &str, y: &str, bars: Vec<(u64, u64)>) -> Chart {
    Chart {
        stem: stem.into(),
        title: title.into(),
        x_label: x.into(),
        y_label: y.into(),
        plot: Plot::Bars(bars),
    }
}

fn uvg_exception(what: &str, r: &ExceptionRow) -> Drawing {
    Drawing {
        role: Role::Counterexample,
        size: (r.vertices, r.edges),
        code: r.graph6.clone(),
        marks: Marks::Start(vec![r.start as usize]),
        caption: format!("{what}: start {}, {}", r.start, r.values),
    }
}

fn uvg(d: &UvgDoc) -> Data {
    let mut values: std::collections::BTreeSet<u8> = std::collections::BTreeSet::new();
    for r in &d.by_n {
        values.extend(r.grundy.keys().copied());
    }
    let series = values
        .iter()
        .map(|&g| Series {
            name: format!("value {g}"),
            points: d
                .by_n
                .iter()
                .map(|r| (r.n as u64, r.grundy.get(&g).copied().unwrap_or(0)))
                .collect(),
        })
        .collect();
    let mut out = Data {
        charts: vec![lines(
            "values-by-n",
            "Positions (graph, start) by Grundy value and n",
            "n (vertices)",
            "positions (log scale)",
            series,
        )],
        drawings: Vec::new(),
    };
    for r in &d.by_n {
        for e in &r.matching_exception_records {
            out.drawings
                .push(uvg_exception("matching-test exception", e));
        }
        for e in &r.maxdeg3.exception_records {
            out.drawings
                .push(uvg_exception("degree-3 algorithm exception", e));
        }
    }
    // The smallest position of each value: the witness at the first n that
    // has the value (rows are by n ascending; a witness is the smallest of
    // its n).
    let mut seen = std::collections::BTreeSet::new();
    let mut rows: Vec<_> = d.by_n.iter().collect();
    rows.sort_by_key(|r| r.n);
    for r in rows {
        for (&g, w) in &r.witnesses {
            if seen.insert(g) {
                out.drawings.push(Drawing {
                    role: Role::Smallest,
                    size: (0, 0),
                    code: w.graph6.clone(),
                    marks: Marks::Start(vec![w.start as usize]),
                    caption: format!("value {g}: n = {}, start {}", r.n, w.start),
                });
            }
        }
    }
    if let Some(w) = d.extension_search.as_ref().and_then(|e| e.witness.as_ref()) {
        out.drawings.push(Drawing {
            role: Role::Witness,
            size: (0, 0),
            code: w.graph6.clone(),
            marks: Marks::Start(vec![w.start as usize]),
            caption: format!("extension search witness: start {}", w.start),
        });
    }
    out
}

/// The colouring text of a position's `colouring …` detail (`None` marks
/// when it has none).
fn position_marks(p: &PositionDoc) -> Marks {
    match p.detail.strip_prefix("colouring ") {
        Some(text) => Marks::Colouring(text.to_string()),
        None => Marks::None,
    }
}

fn position(role: Role, what: &str, p: &PositionDoc) -> Drawing {
    let mut caption = what.to_string();
    if !p.note.is_empty() {
        caption.push_str(": ");
        caption.push_str(&p.note);
    }
    Drawing {
        role,
        size: (p.vertices, p.edges),
        code: p.code.clone(),
        marks: position_marks(p),
        caption,
    }
}

fn smallest_of_values(values: &[ValueRow], out: &mut Vec<Drawing>) {
    for v in values {
        if let Some(p) = &v.smallest {
            out.push(Drawing {
                role: Role::Smallest,
                size: (p.vertices, p.edges),
                code: p.code.clone(),
                marks: position_marks(p),
                caption: format!("value {}", v.value),
            });
        }
    }
}

fn col(d: &ColDoc) -> Data {
    let by = |f: fn(&gamesweep::kinds::col::ColRow) -> u64| -> Vec<(u64, u64)> {
        d.by_n.iter().map(|r| (r.n as u64, f(r))).collect()
    };
    let mut out = Data {
        charts: vec![lines(
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
        drawings: Vec::new(),
    };
    for p in &d.non_cold {
        out.drawings
            .push(position(Role::Counterexample, "non-cold", p));
    }
    smallest_of_values(&d.values, &mut out.drawings);
    out
}

fn tree(d: &TreeDoc) -> Data {
    let by = |f: fn(&gamesweep::kinds::myopic_tree::NodeRow) -> u64| -> Vec<(u64, u64)> {
        d.by_nodes.iter().map(|r| (r.nodes as u64, f(r))).collect()
    };
    let mut out = Data {
        charts: vec![lines(
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
        drawings: Vec::new(),
    };
    for (group, ps) in &d.exceptions {
        let name = serde_json::to_value(group)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        for p in ps {
            out.drawings.push(position(
                Role::Counterexample,
                &format!("exception ({name})"),
                p,
            ));
        }
    }
    for p in &d.non_cold {
        out.drawings
            .push(position(Role::Counterexample, "non-cold", p));
    }
    smallest_of_values(&d.values, &mut out.drawings);
    out
}

fn digraph(d: &DigraphDoc) -> Data {
    let mut out = Data::default();
    let sets = [
        ("exhaustive", Some(&d.sets.exhaustive)),
        ("random", d.sets.random.as_ref()),
    ];
    for (name, s) in sets.into_iter().filter_map(|(n, s)| Some((n, s?))) {
        for p in &s.exception_records {
            out.drawings.push(position(
                Role::Counterexample,
                &format!("{name}: exception"),
                p,
            ));
        }
        for p in &s.non_cold_records {
            out.drawings.push(position(
                Role::Counterexample,
                &format!("{name}: non-cold"),
                p,
            ));
        }
        if let Some(p) = &s.smallest_watched_broken {
            out.drawings.push(position(
                Role::Witness,
                &format!("{name}: smallest position where the watched rule breaks"),
                p,
            ));
        }
    }
    out
}

fn list(d: &ListDoc) -> Data {
    let mut out = Data::default();
    for (name, ps) in [
        ("lemma exception", &d.lemma.records),
        (
            "corollary exception (single list)",
            &d.corollary.single.records,
        ),
        ("corollary exception (forest)", &d.corollary.forests.records),
        ("non-cold", &d.non_cold_records),
    ] {
        for p in ps {
            out.drawings.push(position(Role::Counterexample, name, p));
        }
    }
    out
}

fn engine_check(d: &EngineCheckDoc) -> Data {
    let mut out = Data::default();
    for (name, s) in [("col", &d.sets.col), ("myopic", &d.sets.myopic)] {
        for p in &s.records {
            out.drawings.push(position(
                Role::Counterexample,
                &format!("{name}: engines disagree"),
                p,
            ));
        }
    }
    out
}

fn search(d: &SearchDoc) -> Data {
    Data {
        charts: Vec::new(),
        drawings: d
            .best_values
            .iter()
            .map(|(v, b)| Drawing {
                role: Role::Smallest,
                size: (0, 0),
                code: b.graph6.clone(),
                marks: Marks::Start(vec![b.start as usize]),
                caption: format!("value {v}: best found, start {}", b.start),
            })
            .collect(),
    }
}

/// A claim's exception whose `index` is its start vertex.
fn record_start(what: &str, r: &Record) -> Drawing {
    Drawing {
        role: Role::Counterexample,
        size: (r.vertices, r.edges),
        code: r.code.clone(),
        marks: Marks::Start(vec![r.index as usize]),
        caption: format!("{what}: {} {}", r.detail, r.note)
            .trim()
            .to_string(),
    }
}

fn degree3(d: &Degree3Doc) -> Data {
    Data {
        charts: vec![
            bars(
                "values",
                "Starts by Grundy value",
                "Grundy value",
                "starts (log scale)",
                d.values.iter().map(|(&k, &v)| (k, v)).collect(),
            ),
            bars(
                "win-lose-tests",
                "Starts by win/lose tests of the degree-3 algorithm",
                "win/lose tests",
                "starts (log scale)",
                d.win_lose_tests_per_start
                    .iter()
                    .map(|(&k, &v)| (k, v))
                    .collect(),
            ),
        ],
        drawings: d
            .exception_records
            .iter()
            .map(|r| record_start("exception", r))
            .collect(),
    }
}

fn strategy(d: &StrategyDoc) -> Data {
    Data {
        charts: Vec::new(),
        drawings: d
            .exception_records
            .iter()
            .map(|r| record_start("exception", r))
            .collect(),
    }
}

fn reduction(d: &ReductionDoc) -> Data {
    let mut out = Data::default();
    for (name, list) in d.exceptions.in_report_order() {
        for r in &list.records {
            out.drawings.push(Drawing {
                role: Role::Counterexample,
                size: (r.vertices, r.edges),
                code: r.code.clone(),
                marks: Marks::None,
                caption: format!("{name}: {} {}", r.detail, r.note)
                    .trim()
                    .to_string(),
            });
        }
    }
    out
}

fn octal(d: &OctalDoc) -> Data {
    let h = &d.histograms;
    Data {
        charts: vec![
            bars(
                "max-grundy",
                "Codes by largest Grundy value",
                "largest Grundy value (heaps up to max-heap)",
                "codes (log scale)",
                h.max_grundy.clone(),
            ),
            bars(
                "period",
                "Codes by proven period",
                "period",
                "codes (log scale)",
                h.period.clone(),
            ),
            bars(
                "preperiod",
                "Codes by proven preperiod",
                "preperiod",
                "codes (log scale)",
                h.preperiod.clone(),
            ),
        ],
        drawings: Vec::new(),
    }
}

fn subtraction(d: &SubtractionDoc) -> Data {
    let h = &d.histograms;
    let chart = |stem: &str, what: &str, v: &Vec<(u64, u64)>| {
        bars(
            stem,
            &format!("Sets by {what}"),
            what,
            "sets (log scale)",
            v.clone(),
        )
    };
    Data {
        charts: vec![
            chart("max-grundy", "largest Grundy value", &h.max_grundy),
            chart("grundy-period", "Grundy period", &h.grundy_period),
            chart("grundy-preperiod", "Grundy preperiod", &h.grundy_preperiod),
            chart("outcome-period", "outcome period", &h.outcome_period),
            chart(
                "outcome-preperiod",
                "outcome preperiod",
                &h.outcome_preperiod,
            ),
        ],
        drawings: Vec::new(),
    }
}
