//! [`Layered`]: the sweep kind's type the layer derives from a
//! [`GraphGame`], its shards, typed results and `results.json` document,
//! and the methods its `Kind` impl (`kind.rs`), validation and the report
//! share.

use super::graphs::{
    aut_order, canonical_digraph, digraph_codes, digraph_of, factorial, permutations, walk_graphs,
    Class, Graph, MAX_DIGRAPH_N, UNBOUNDED_DEGREE, UNBOUNDED_EDGES,
};
use super::{GraphGame, Solver};
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
        merge_maps(&mut self.values, o.values, "values", |a, b| a.add(&b))
    }
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

    /// The witness of `spot` with value `value`, described by the game.
    pub(super) fn witness_doc(&self, spot: &Spot, value: &str) -> WitnessDoc {
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
        }
    }
}
