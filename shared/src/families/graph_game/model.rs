//! [`Layered`]: the sweep kind's type the layer derives from a
//! [`GraphGame`], its shards, typed results and `results.json` document,
//! and the methods its `Kind` impl (`kind.rs`), validation and the report
//! share.

use super::graphs::{
    aut_order, canonical_digraph, digraph_codes, digraph_of, factorial, permutations, walk_graphs,
    Class, Graph, MAX_DIGRAPH_N, UNBOUNDED_DEGREE, UNBOUNDED_EDGES,
};
use super::{GraphGame, Solver};
use crate::cgt::Dyadic;
use crate::sweep::graphplan::GraphShard;
use crate::sweep::merge::{add, merge_maps, MergeError, Smallest};
use crate::sweep::{Merge, ParamDef, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The sweep kind of game `G`: named after it, parameters are the graph
/// class ([`Class`]).
pub struct Layered<G>(pub G);

/// Counterexamples kept (the smallest, in witness order); all are counted.
pub const COUNTEREXAMPLE_CAP: usize = 20;

/// Witnesses re-solved by validation (the smallest ones, and every
/// counterexample shown).
pub const RESOLVE_SAMPLE: usize = 8;

/// The declared parameters, per game (the defaults and bounds of `--max-n`
/// are the game's).
pub(super) trait Defs {
    const DEFS: &'static [ParamDef];
}

impl<G: GraphGame> Defs for G {
    const DEFS: &'static [ParamDef] = &[
        ParamDef {
            name: "max_n",
            help: "largest number of vertices",
            default: Some(G::DEFAULT_N as u64),
            min: 1,
            max: G::MAX_N as u64,
        },
        ParamDef {
            name: "min_n",
            help: "smallest number of vertices",
            default: Some(1),
            min: 1,
            max: G::MAX_N as u64,
        },
        ParamDef {
            name: "connected",
            help: "1: connected graphs only (as `graphs -c`; digraphs: weakly connected), 0: all",
            default: Some(1),
            min: 0,
            max: 1,
        },
        ParamDef {
            name: "trees",
            help: "1: trees only",
            default: Some(0),
            min: 0,
            max: 1,
        },
        ParamDef {
            name: "bipartite",
            help: "1: bipartite graphs only (as `graphs -b`)",
            default: Some(0),
            min: 0,
            max: 1,
        },
        ParamDef {
            name: "triangle_free",
            help: "1: triangle-free graphs only (as `graphs -t`)",
            default: Some(0),
            min: 0,
            max: 1,
        },
        ParamDef {
            name: "square_free",
            help: "1: 4-cycle-free graphs only (as `graphs -f`)",
            default: Some(0),
            min: 0,
            max: 1,
        },
        ParamDef {
            name: "min_degree",
            help: "least minimum degree (as `graphs -d`)",
            default: Some(0),
            min: 0,
            max: UNBOUNDED_DEGREE,
        },
        ParamDef {
            name: "max_degree",
            help: "largest maximum degree (as `graphs -D`)",
            default: Some(UNBOUNDED_DEGREE),
            min: 0,
            max: UNBOUNDED_DEGREE,
        },
        ParamDef {
            name: "min_edges",
            help: "fewest edges (MINE of `graphs N MINE:MAXE`)",
            default: Some(0),
            min: 0,
            max: UNBOUNDED_EDGES,
        },
        ParamDef {
            name: "max_edges",
            help: "most edges (MAXE of `graphs N MINE:MAXE`)",
            default: Some(UNBOUNDED_EDGES),
            min: 0,
            max: UNBOUNDED_EDGES,
        },
    ];
}

/// One shard of a layered sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GameShard {
    /// Undirected graphs: a canonical-prefix shard, as uvg's.
    Graphs(GraphShard),
    /// Digraphs on `n` vertices: the canonical ones among labelled codes `lo..hi`.
    Digraphs {
        /// Vertices.
        n: usize,
        /// First labelled code.
        lo: u64,
        /// One past the last.
        hi: u64,
    },
}

/// A position of the sweep: its graph (in the generator's labelling) and
/// its index among the game's positions of that graph. Ordered by (vertices,
/// edges, code, position): the witness order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spot {
    /// Vertices.
    pub n: u32,
    /// Edges (arcs).
    pub edges: u32,
    /// graph6 (digraph6 for a digraph).
    pub code: String,
    /// Index in the game's positions of the graph.
    pub position: u32,
}

/// A position that fails the game's property.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counterexample {
    /// Where.
    pub spot: Spot,
    /// Its value.
    pub value: String,
}

/// Positions of one value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    /// Positions (on unlabelled graphs).
    pub positions: u64,
    /// Positions on labelled graphs (each graph weighted n!/|Aut|).
    pub labelled_positions: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) -> Result<(), MergeError> {
        add(&mut self.positions, o.positions, "positions")?;
        add(
            &mut self.labelled_positions,
            o.labelled_positions,
            "labelled_positions",
        )
    }
}

/// Counts of one vertex count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Graphs (isomorphism classes).
    pub graphs: u64,
    /// Labelled graphs: Σ n!/|Aut(G)|.
    pub labelled_graphs: u64,
    /// Positions valued, unlabelled and labelled.
    pub all: Tally,
    /// Positions failing the game's property.
    pub counterexamples: u64,
    /// Positions by value (CGSuite text).
    pub values: BTreeMap<String, Tally>,
    /// A partizan game's position of the largest temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hottest: Option<Hottest>,
    /// A partizan game's position of the largest temperature ÷ maximum
    /// degree of its graph (graphs with an edge only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hottest_per_degree: Option<Hottest>,
}

impl Counts {
    fn add(&mut self, o: Counts) -> Result<(), MergeError> {
        add(&mut self.graphs, o.graphs, "graphs")?;
        add(
            &mut self.labelled_graphs,
            o.labelled_graphs,
            "labelled_graphs",
        )?;
        self.all.add(&o.all).map_err(|e| e.within("all"))?;
        add(
            &mut self.counterexamples,
            o.counterexamples,
            "counterexamples",
        )?;
        if let Some(h) = o.hottest {
            Hottest::offer(&mut self.hottest, h, false);
        }
        if let Some(h) = o.hottest_per_degree {
            Hottest::offer(&mut self.hottest_per_degree, h, true);
        }
        merge_maps(&mut self.values, o.values, "values", |a, b| a.add(&b))
    }
}

/// A position with its temperature and its graph's maximum degree: the
/// per-n record of the largest temperature, or of the largest temperature
/// ÷ maximum degree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hottest {
    /// Its value.
    pub value: String,
    /// Its temperature (CGSuite's text: `3`, `5/2`, `-1`).
    pub temperature: String,
    /// The maximum degree of its graph.
    pub max_degree: u32,
    /// Where.
    pub spot: Spot,
}

impl Hottest {
    /// The temperature (`per_degree`: ÷ maximum degree) as (numerator,
    /// denominator), exact; `None` for a record that does not parse, or
    /// of degree 0 when `per_degree` (validation refuses both).
    pub fn key(&self, per_degree: bool) -> Option<(i128, i128)> {
        let t = parse_dyadic(&self.temperature)?;
        let d = if per_degree { self.max_degree } else { 1 };
        if d == 0 {
            return None;
        }
        Some((
            i128::from(t.numerator()),
            i128::from(t.denominator()) * i128::from(d),
        ))
    }

    /// The better of two records: the larger key, then the smaller spot
    /// (witness order), then the texts (a total order, so merging is
    /// associative and commutative).
    fn better(&self, o: &Hottest, per_degree: bool) -> bool {
        let by_ratio = match (self.key(per_degree), o.key(per_degree)) {
            (Some((a, b)), Some((c, d))) => (a * d).cmp(&(c * b)),
            (x, y) => x.is_some().cmp(&y.is_some()),
        };
        by_ratio
            .then_with(|| o.spot.cmp(&self.spot))
            .then_with(|| o.value.cmp(&self.value))
            .then_with(|| o.temperature.cmp(&self.temperature))
            .then_with(|| o.max_degree.cmp(&self.max_degree))
            .is_gt()
    }

    /// Keep `h` in `slot` if it is better than what is there.
    pub fn offer(slot: &mut Option<Hottest>, h: Hottest, per_degree: bool) {
        if slot.as_ref().is_none_or(|old| h.better(old, per_degree)) {
            *slot = Some(h);
        }
    }

    /// Temperature ÷ maximum degree in lowest terms (`2`, `13/12`,
    /// `-1/4`); `None` for degree 0.
    pub fn ratio_text(&self) -> Option<String> {
        let (mut a, mut b) = self.key(true)?;
        let (mut x, mut y) = (a.abs(), b);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        if x > 1 {
            (a, b) = (a / x, b / x);
        }
        Some(if b == 1 {
            a.to_string()
        } else {
            format!("{a}/{b}")
        })
    }
}

/// A dyadic rational in CGSuite's text (`3`, `-1/2`), as [`Dyadic`]'s
/// `Display` writes it.
pub fn parse_dyadic(s: &str) -> Option<Dyadic> {
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    let num: i64 = n.parse().ok()?;
    let den: u64 = d.parse().ok()?;
    if !den.is_power_of_two() || den > 1 << 40 || num.unsigned_abs() > 1 << 40 {
        return None;
    }
    let d = Dyadic::new(num, den.trailing_zeros());
    (d.to_string() == s).then_some(d)
}

/// The largest degree of `g` (of the undirected graph underneath a digraph).
pub fn max_degree(g: &Graph) -> u32 {
    (0..g.n())
        .map(|v| (g.nbrs(v) | g.ins(v)).count_ones())
        .max()
        .unwrap_or(0)
}

/// The result of layered shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameOutput {
    /// Positions valued.
    pub work: u64,
    /// Counts by vertex count.
    pub by_n: BTreeMap<u32, Counts>,
    /// The smallest position of each value.
    pub smallest: BTreeMap<String, Smallest<Spot>>,
    /// The smallest counterexamples (at most [`COUNTEREXAMPLE_CAP`], in witness order).
    pub counterexamples: Vec<Counterexample>,
    /// A partizan game's temperature of each value (value → temperature, CGSuite's texts).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub temperatures: BTreeMap<String, String>,
}

impl Merge for GameOutput {
    fn merge(&mut self, other: Self) -> Result<(), MergeError> {
        add(&mut self.work, other.work, "work")?;
        merge_maps(&mut self.by_n, other.by_n, "by_n", |a, b| a.add(b))?;
        for (v, s) in other.smallest {
            self.smallest.entry(v).or_default().merge(s);
        }
        self.counterexamples.extend(other.counterexamples);
        self.counterexamples.sort();
        self.counterexamples.dedup();
        self.counterexamples.truncate(COUNTEREXAMPLE_CAP);
        // A value has one temperature; should two results disagree (which
        // validation refuses), the smaller text is kept, in any order.
        for (v, t) in other.temperatures {
            let mine = self.temperatures.entry(v).or_insert_with(|| t.clone());
            if t < *mine {
                *mine = t;
            }
        }
        Ok(())
    }
    fn work(&self) -> u64 {
        self.work
    }
    fn counterexamples(&self) -> Vec<(String, u64)> {
        let n = self.by_n.values().map(|c| c.counterexamples).sum();
        vec![("counterexamples".into(), n)]
    }
}

/// A witness in `results.json`: where, and the position in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WitnessDoc {
    /// Its value.
    pub value: String,
    /// Vertices.
    pub n: u32,
    /// Edges.
    pub edges: u32,
    /// graph6 / digraph6.
    pub code: String,
    /// Index among the graph's positions.
    pub position: u32,
    /// The position, as the game describes it.
    pub describe: String,
    /// The temperature of its value (partizan games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<String>,
}

/// One value's row of a vertex count in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueDoc {
    /// The value.
    pub value: String,
    /// Positions.
    pub positions: u64,
    /// Positions on labelled graphs.
    pub labelled_positions: u64,
    /// Its temperature (partizan games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<String>,
}

/// Positions of one temperature on one vertex count in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemperatureDoc {
    /// The temperature.
    pub temperature: String,
    /// Positions.
    pub positions: u64,
    /// Positions on labelled graphs.
    pub labelled_positions: u64,
}

/// A vertex count's record in `results.json`: the largest temperature,
/// or the largest temperature ÷ maximum degree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HottestDoc {
    /// Temperature ÷ maximum degree, in lowest terms (none for degree 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<String>,
    /// The temperature.
    pub temperature: String,
    /// The maximum degree of the witness's graph.
    pub max_degree: u32,
    /// The smallest position (witness order) with that record.
    pub witness: WitnessDoc,
}

/// One vertex count in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowDoc {
    /// Vertices.
    pub n: usize,
    /// Graphs (isomorphism classes).
    pub graphs: u64,
    /// Labelled graphs.
    pub labelled_graphs: u64,
    /// Positions.
    pub positions: u64,
    /// Positions on labelled graphs.
    pub labelled_positions: u64,
    /// Counterexamples to the game's property.
    pub counterexamples: u64,
    /// Positions by value, in value order.
    pub values: Vec<ValueDoc>,
    /// Positions by temperature, coldest first (partizan games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub temperatures: Vec<TemperatureDoc>,
    /// The largest temperature (partizan games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hottest: Option<HottestDoc>,
    /// The largest temperature ÷ maximum degree (partizan games, graphs with an edge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hottest_per_degree: Option<HottestDoc>,
}

/// What the document says about the game itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFacts {
    /// The rule.
    pub about: String,
    /// `impartial` or `partizan`.
    pub play: String,
    /// `graphs` or `digraphs`.
    pub board: String,
    /// The class swept, in words.
    pub class: String,
    /// The property checked on every position, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
}

/// The `results.json` document of a layered sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameDoc {
    /// The kind (the game's name).
    pub kind: String,
    /// The parameters.
    pub params: Class,
    /// The game.
    pub game: GameFacts,
    /// One row per vertex count `min_n..=max_n`.
    pub by_n: Vec<RowDoc>,
    /// The smallest position of each value, in value order.
    pub smallest: Vec<WitnessDoc>,
    /// The smallest counterexamples.
    pub counterexamples: Vec<WitnessDoc>,
}

/// Order of value texts: nimbers by size, then CGSuite values as the
/// report tables order them ([`crate::sweep::present::cmp_game_values`]).
pub fn cmp_values(a: &str, b: &str) -> std::cmp::Ordering {
    let nim = |s: &str| match s {
        "0" => Some(0),
        "*" => Some(1),
        _ => s.strip_prefix('*').and_then(|k| k.parse::<u64>().ok()),
    };
    match (nim(a), nim(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => crate::sweep::present::cmp_game_values(a, b),
    }
}

impl<G: GraphGame> Layered<G> {
    pub(super) fn bad_params(&self, reason: String) -> SweepError {
        SweepError::BadParams {
            kind: G::NAME.into(),
            reason,
        }
    }
    pub(super) fn largest(&self) -> usize {
        if G::DIRECTED {
            G::MAX_N.min(MAX_DIGRAPH_N)
        } else {
            G::MAX_N
        }
    }
    /// The class, checked.
    pub fn class(&self, p: &Class) -> Result<(), SweepError> {
        p.check(G::DIRECTED, self.largest())
            .map_err(|e| self.bad_params(e))
    }

    /// Value every position of `g` (admitted by the class) into `out`.
    pub fn tally(&self, solver: &mut Solver<G>, g: &Graph, aut: u64, out: &mut GameOutput) {
        solver.reset();
        let n = g.n();
        let weight = factorial(n) / aut.max(1);
        let code = g.code();
        let edges = g.edge_count() as u32;
        let degree = max_degree(g);
        let c = out.by_n.entry(n as u32).or_default();
        c.graphs += 1;
        c.labelled_graphs += weight;
        for (i, p) in self.0.positions(g).iter().enumerate() {
            let v = solver.value(&self.0, g, p);
            c.all.positions += 1;
            c.all.labelled_positions += weight;
            let t = c.values.entry(v.text.clone()).or_default();
            t.positions += 1;
            t.labelled_positions += weight;
            out.work += 1;
            let spot = Spot {
                n: n as u32,
                edges,
                code: code.clone(),
                position: i as u32,
            };
            if let Some(t) = v.temperature {
                let t = t.to_string();
                let h = Hottest {
                    value: v.text.clone(),
                    temperature: t.clone(),
                    max_degree: degree,
                    spot: spot.clone(),
                };
                if degree > 0 {
                    Hottest::offer(&mut c.hottest_per_degree, h.clone(), true);
                }
                Hottest::offer(&mut c.hottest, h, false);
                out.temperatures.entry(v.text.clone()).or_insert(t);
            }
            if !self.0.check(g, p, &v) {
                c.counterexamples += 1;
                if out.counterexamples.len() < COUNTEREXAMPLE_CAP
                    || out.counterexamples.last().is_some_and(|l| spot < l.spot)
                {
                    out.counterexamples.push(Counterexample {
                        spot: spot.clone(),
                        value: v.text.clone(),
                    });
                    out.counterexamples.sort();
                    out.counterexamples.truncate(COUNTEREXAMPLE_CAP);
                }
            }
            out.smallest.entry(v.text).or_default().offer(spot);
        }
    }

    /// Every graph of the shard admitted by the class, with |Aut|.
    pub fn graphs(
        &self,
        p: &Class,
        shard: &GameShard,
        visit: &mut dyn FnMut(&Graph, u64) -> bool,
    ) -> Result<(), SweepError> {
        match shard {
            GameShard::Graphs(s) => {
                if G::DIRECTED {
                    return Err(self.bad_shard("a graph shard for a game on digraphs".into()));
                }
                let w = s.decode(G::NAME)?;
                let mut go = true;
                walk_graphs(&w, p.max_n, p.connected_only(), &mut |bg| {
                    let g = Graph::undirected(bg);
                    if go && p.admits(&g) {
                        go = visit(&g, aut_order(bg));
                    }
                });
            }
            &GameShard::Digraphs { n, lo, hi } => {
                if !G::DIRECTED || n == 0 || n > self.largest() || lo > hi || hi > digraph_codes(n)
                {
                    return Err(self.bad_shard(format!("bad digraph range n = {n}, {lo}..{hi}")));
                }
                let perms = permutations(n);
                for code in lo..hi {
                    if let Some(aut) = canonical_digraph(n, code, &perms) {
                        let g = digraph_of(n, code);
                        if p.admits(&g) && !visit(&g, aut) {
                            break;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn bad_shard(&self, reason: String) -> SweepError {
        SweepError::BadShard {
            kind: G::NAME.into(),
            reason,
        }
    }

    /// The witness of `spot` with value `value`, described by the game;
    /// `temperature` its value's temperature, if known.
    pub(super) fn witness_doc(
        &self,
        spot: &Spot,
        value: &str,
        temperature: Option<&String>,
    ) -> WitnessDoc {
        let describe = Graph::parse(&spot.code, G::DIRECTED)
            .ok()
            .and_then(|g| {
                let ps = self.0.positions(&g);
                ps.get(spot.position as usize)
                    .map(|p| self.0.describe(&g, p))
            })
            .unwrap_or_else(|| "?".into());
        WitnessDoc {
            value: value.into(),
            n: spot.n,
            edges: spot.edges,
            code: spot.code.clone(),
            position: spot.position,
            describe,
            temperature: temperature.cloned(),
        }
    }
}
