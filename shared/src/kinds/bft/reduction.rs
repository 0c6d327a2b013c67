//! `uvg-reduction`: the directed-to-undirected reduction of Burke–Ferland–Teng
//! on every labelled digraph with 1–3 vertices (exhaustive) plus `--random K`
//! seeded random 4-vertex digraphs, every start vertex.
//!
//! Instances are digraphs, numbered: first the exhaustive ones (n = 1, 2, 3;
//! within n by arc mask over the ordered pairs in row-major order), then the
//! random ones (`random::random_digraph4(seed, i)`). Per digraph D with
//! reduced graph U:
//! * per start s (a *position*): P/N of directed geography on D from s; the
//!   exact UVG value of (U, s) — the main claim: P ⇒ exactly *, N ⇒ neither
//!   0 nor *; and the prefix gadget in front of s — value * if (U, s) is *,
//!   else *2;
//! * per arc (a *gadget*), in U with nothing deleted but the path stated:
//!   Wrong Way — token on d, y deleted: value *2 or *3; Correct Way — token on
//!   a with x deleted has value * iff the token on y has value * after the
//!   token ran through the gadget, checked for both routes: via c (deleted
//!   x, a, b, c, d) and via f (deleted x, a, b, f, d).
//!
//! A gadget is counted once per (digraph, arc): its checks do not depend on
//! the start vertex, because every gadget position above is fixed by the
//! gadget and the path through it.

mod present;

use super::{
    plan_ranges, total, values_line, write_exceptions_and_not_covered, ExceptionLine, Exceptions,
    RangeShard, ValueCounts, SECTION5_NOTE,
};
use crate::bft::digraph::Digraph;
use crate::bft::random::{digraph_from_mask, random_digraph4};
use crate::bft::reduction::{Position, Reduced};
use crate::bft::solve;
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::report::{nim, thousands};
use crate::sweep::{Kind, Max, Merge, ParamDef, Record, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `uvg-reduction` sweep kind.
pub struct ReductionSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "random",
        help: "number of seeded random 4-vertex digraphs (each adds 4 positions)",
        default: Some(400),
        min: 0,
        max: 1_000_000,
    },
    ParamDef {
        name: "seed",
        help: "seed of the random digraphs (ChaCha8, one stream per digraph)",
        default: Some(1),
        min: 0,
        max: u64::MAX,
    },
];

/// The random model, stated in results.json and the report.
pub const RANDOM_MODEL: &str = "labelled digraphs on 4 vertices, uniform over all 4,096: \
digraph i is drawn from ChaCha8Rng::seed_from_u64(seed) with set_stream(i); the low 12 bits of \
its first next_u32() decide the 12 ordered pairs (i, j), i ≠ j, in row-major order \
(each an arc with probability 1/2, independently)";

/// Largest vertex count of the exhaustive part.
const EXHAUSTIVE_MAX_N: usize = 3;

/// Number of labelled loop-free digraphs on `n` vertices: 2^(n(n−1)).
fn labelled_digraphs(n: usize) -> u64 {
    1u64 << (n * (n - 1))
}

/// Digraphs in the exhaustive part (all labelled digraphs on 1..=3 vertices).
pub fn exhaustive_digraphs() -> u64 {
    (1..=EXHAUSTIVE_MAX_N).map(labelled_digraphs).sum()
}

/// Which part of the sweep an instance belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// All labelled digraphs on 1..=3 vertices.
    Exhaustive,
    /// Seeded random 4-vertex digraphs.
    Random,
}

impl Part {
    /// `exhaustive` or `random`, as in the records' details.
    fn key(self) -> &'static str {
        match self {
            Part::Exhaustive => "exhaustive",
            Part::Random => "random",
        }
    }
}

/// Instance `idx` of the sweep: (part, number inside the part, digraph).
pub fn instance(seed: u64, idx: u64) -> (Part, u64, Digraph) {
    let mut rest = idx;
    for n in 1..=EXHAUSTIVE_MAX_N {
        let c = labelled_digraphs(n);
        if rest < c {
            return (Part::Exhaustive, idx, digraph_from_mask(n, rest as u32));
        }
        rest -= c;
    }
    (Part::Random, rest, random_digraph4(seed, rest))
}

fn total_instances(params: &ReductionParams) -> u64 {
    exhaustive_digraphs() + params.random
}

/// Positions (digraph, start) of instances `a..b`.
fn positions_in(a: u64, b: u64) -> u64 {
    let ex = exhaustive_digraphs();
    let mut p = 0;
    let mut idx = 0;
    for n in 1..=EXHAUSTIVE_MAX_N {
        let c = labelled_digraphs(n);
        let lo = a.max(idx);
        let hi = b.min(idx + c);
        if hi > lo {
            p += (hi - lo) * n as u64;
        }
        idx += c;
    }
    p + b.max(ex).saturating_sub(a.max(ex)) * 4
}

/// The parameters of `uvg-reduction`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReductionParams {
    /// Number of seeded random 4-vertex digraphs.
    pub random: u64,
    /// Seed of the random digraphs.
    pub seed: u64,
}

/// Tallies of one part of the sweep (or of both: [`PartStats::merge`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartStats {
    /// Digraphs checked.
    pub digraphs: u64,
    /// Positions (digraph, start).
    pub positions: u64,
    /// Gadgets (digraph, arc).
    pub gadgets: u64,
    /// Largest reduced graph (vertices).
    pub reduced_vertices_max: Max,
    /// Largest reduced graph with the prefix gadget (vertices).
    pub prefixed_vertices_max: Max,
    /// UVG values of the P-positions of directed geography.
    pub main_p: ValueCounts,
    /// UVG values of the N-positions of directed geography.
    pub main_n: ValueCounts,
    /// Values of the prefix-gadget starts.
    pub prefix: ValueCounts,
    /// Wrong Way values.
    pub wrong_way: ValueCounts,
    /// Correct Way values after x → a.
    pub correct_way_entry: ValueCounts,
    /// Correct Way values after d → y via c.
    pub correct_way_exit_via_c: ValueCounts,
    /// Correct Way values after d → y via f.
    pub correct_way_exit_via_f: ValueCounts,
    /// Play contexts (token on a digraph vertex).
    pub context_states: u64,
    /// Correct Way entered in a context.
    pub context_correct_way_entries: u64,
    /// ... of them with y remaining (both exits checked).
    pub context_correct_way_with_exit: u64,
    /// Wrong Way values in contexts.
    pub context_wrong_way: ValueCounts,
    /// Digraphs whose contexts were not enumerated (reduced graph too big).
    pub context_skipped_digraphs: u64,
    /// Exact-search nodes.
    pub search_nodes: u64,
    /// The most exact-search nodes of one position.
    pub search_nodes_max: Max,
}

impl PartStats {
    /// Add another part's (or shard's) tallies.
    pub fn merge(&mut self, o: PartStats) -> Result<(), MergeError> {
        add(&mut self.digraphs, o.digraphs, "digraphs")?;
        add(&mut self.positions, o.positions, "positions")?;
        add(&mut self.gadgets, o.gadgets, "gadgets")?;
        self.reduced_vertices_max.merge(o.reduced_vertices_max);
        self.prefixed_vertices_max.merge(o.prefixed_vertices_max);
        self.main_p
            .merge(o.main_p)
            .map_err(|e| e.within("main_p"))?;
        self.main_n
            .merge(o.main_n)
            .map_err(|e| e.within("main_n"))?;
        self.prefix
            .merge(o.prefix)
            .map_err(|e| e.within("prefix"))?;
        self.wrong_way
            .merge(o.wrong_way)
            .map_err(|e| e.within("wrong_way"))?;
        self.correct_way_entry
            .merge(o.correct_way_entry)
            .map_err(|e| e.within("correct_way_entry"))?;
        self.correct_way_exit_via_c
            .merge(o.correct_way_exit_via_c)
            .map_err(|e| e.within("correct_way_exit_via_c"))?;
        self.correct_way_exit_via_f
            .merge(o.correct_way_exit_via_f)
            .map_err(|e| e.within("correct_way_exit_via_f"))?;
        add(&mut self.context_states, o.context_states, "context_states")?;
        add(
            &mut self.context_correct_way_entries,
            o.context_correct_way_entries,
            "context_correct_way_entries",
        )?;
        add(
            &mut self.context_correct_way_with_exit,
            o.context_correct_way_with_exit,
            "context_correct_way_with_exit",
        )?;
        self.context_wrong_way
            .merge(o.context_wrong_way)
            .map_err(|e| e.within("context_wrong_way"))?;
        add(
            &mut self.context_skipped_digraphs,
            o.context_skipped_digraphs,
            "context_skipped_digraphs",
        )?;
        add(&mut self.search_nodes, o.search_nodes, "search_nodes")?;
        self.search_nodes_max.merge(o.search_nodes_max);
        Ok(())
    }

    /// Solve `pos`, adding its search nodes to the tallies.
    fn solved(&mut self, pos: &Position) -> u32 {
        let s = solve::value(pos);
        self.search_nodes += s.nodes;
        self.search_nodes_max.offer(s.nodes);
        s.value
    }

    fn doc(&self) -> PartDoc {
        PartDoc {
            digraphs: self.digraphs,
            positions: self.positions,
            gadgets: self.gadgets,
            reduced_vertices_max: self.reduced_vertices_max.0,
            prefixed_vertices_max: self.prefixed_vertices_max.0,
            main_p_values: self.main_p.to_map(),
            main_n_values: self.main_n.to_map(),
            prefix_values: self.prefix.to_map(),
            wrong_way_values: self.wrong_way.to_map(),
            correct_way_entry_values: self.correct_way_entry.to_map(),
            correct_way_exit_via_c_values: self.correct_way_exit_via_c.to_map(),
            correct_way_exit_via_f_values: self.correct_way_exit_via_f.to_map(),
            context_states: self.context_states,
            context_correct_way_entries: self.context_correct_way_entries,
            context_correct_way_with_exit: self.context_correct_way_with_exit,
            context_wrong_way_values: self.context_wrong_way.to_map(),
            context_skipped_digraphs: self.context_skipped_digraphs,
            search_nodes: self.search_nodes,
            search_nodes_max_one_position: self.search_nodes_max.0,
        }
    }
}

/// One `T` per check: the exceptions while running ([`Exceptions`]), their
/// listing in results.json ([`ExceptionList`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks<T> {
    /// The main claim (P ⇒ *, N ⇒ not 0 and not *).
    pub main: T,
    /// The prefix gadget.
    pub prefix: T,
    /// Wrong Way.
    pub wrong_way: T,
    /// Correct Way.
    pub correct_way: T,
    /// Wrong Way in play contexts.
    pub context_wrong_way: T,
    /// Correct Way in play contexts.
    pub context_correct_way: T,
}

impl<T> Checks<T> {
    /// The checks in report order, with their names.
    pub fn in_report_order(&self) -> [(&'static str, &T); 6] {
        [
            ("main", &self.main),
            ("wrong_way", &self.wrong_way),
            ("correct_way", &self.correct_way),
            ("prefix", &self.prefix),
            ("context_wrong_way", &self.context_wrong_way),
            ("context_correct_way", &self.context_correct_way),
        ]
    }
}

/// The merged result of digraphs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReductionOutput {
    /// All labelled digraphs on 1..=3 vertices.
    pub exhaustive: PartStats,
    /// The random 4-vertex digraphs.
    pub random: PartStats,
    /// The smallest Wrong Way position (witness order) by value (2 and 3).
    pub wrong_way_examples: BTreeMap<u32, Record>,
    /// The exceptions of every check.
    pub exceptions: Checks<Exceptions>,
}

impl Merge for ReductionOutput {
    fn merge(&mut self, o: Self) -> Result<(), MergeError> {
        self.exhaustive
            .merge(o.exhaustive)
            .map_err(|e| e.within("exhaustive"))?;
        self.random
            .merge(o.random)
            .map_err(|e| e.within("random"))?;
        merge_maps(
            &mut self.wrong_way_examples,
            o.wrong_way_examples,
            "wrong_way_examples",
            |a, b| {
                if b < *a {
                    *a = b;
                }
                Ok(())
            },
        )?;
        let (e, f) = (&mut self.exceptions, o.exceptions);
        let field =
            |name: &'static str| move |e: MergeError| e.within(format_args!("exceptions.{name}"));
        e.main.merge(f.main).map_err(field("main"))?;
        e.prefix.merge(f.prefix).map_err(field("prefix"))?;
        e.wrong_way.merge(f.wrong_way).map_err(field("wrong_way"))?;
        e.correct_way
            .merge(f.correct_way)
            .map_err(field("correct_way"))?;
        (e.context_wrong_way.merge(f.context_wrong_way)).map_err(field("context_wrong_way"))?;
        (e.context_correct_way.merge(f.context_correct_way))
            .map_err(field("context_correct_way"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.exhaustive.positions + self.random.positions
    }
}

/// One part's tallies in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartDoc {
    /// Digraphs checked.
    pub digraphs: u64,
    /// Positions (digraph, start).
    pub positions: u64,
    /// Gadgets (digraph, arc).
    pub gadgets: u64,
    /// Largest reduced graph (vertices).
    pub reduced_vertices_max: u64,
    /// Largest reduced graph with the prefix gadget (vertices).
    pub prefixed_vertices_max: u64,
    /// `{value: count}` of the P-positions.
    pub main_p_values: BTreeMap<u64, u64>,
    /// `{value: count}` of the N-positions.
    pub main_n_values: BTreeMap<u64, u64>,
    /// `{value: count}` of the prefix-gadget starts.
    pub prefix_values: BTreeMap<u64, u64>,
    /// `{value: count}` of Wrong Way.
    pub wrong_way_values: BTreeMap<u64, u64>,
    /// `{value: count}` after x → a.
    pub correct_way_entry_values: BTreeMap<u64, u64>,
    /// `{value: count}` after d → y via c.
    pub correct_way_exit_via_c_values: BTreeMap<u64, u64>,
    /// `{value: count}` after d → y via f.
    pub correct_way_exit_via_f_values: BTreeMap<u64, u64>,
    /// Play contexts.
    pub context_states: u64,
    /// Correct Way entered in a context.
    pub context_correct_way_entries: u64,
    /// ... with y remaining.
    pub context_correct_way_with_exit: u64,
    /// `{value: count}` of Wrong Way in contexts.
    pub context_wrong_way_values: BTreeMap<u64, u64>,
    /// Digraphs whose contexts were not enumerated.
    pub context_skipped_digraphs: u64,
    /// Exact-search nodes.
    pub search_nodes: u64,
    /// The most exact-search nodes of one position.
    pub search_nodes_max_one_position: u64,
}

/// One check's exceptions in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExceptionList {
    /// Exceptions in all.
    pub count: u64,
    /// The kept ones, smallest first.
    pub records: Vec<Record>,
}

impl From<&Exceptions> for ExceptionList {
    fn from(e: &Exceptions) -> Self {
        ExceptionList {
            count: e.count(),
            records: e.records(),
        }
    }
}

/// The positions of the Correct Way checks, stated in results.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorrectWayPositions {
    /// After x → a.
    pub entry: String,
    /// After d → y via c.
    pub exit_via_c: String,
    /// After d → y via f.
    pub exit_via_f: String,
}

/// `results.json` of `uvg-reduction`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReductionDoc {
    /// `uvg-reduction`.
    pub kind: String,
    /// The parameters.
    pub params: ReductionParams,
    /// What the exhaustive part covers.
    pub exhaustive_model: String,
    /// [`RANDOM_MODEL`].
    pub random_model: String,
    /// How gadgets are counted.
    pub gadget_count: String,
    /// The Wrong Way position.
    pub wrong_way_position: String,
    /// The Correct Way positions.
    pub correct_way_positions: CorrectWayPositions,
    /// The exhaustive part.
    pub exhaustive: PartDoc,
    /// The random part.
    pub random: PartDoc,
    /// Both parts.
    pub total: PartDoc,
    /// The smallest Wrong Way position by value.
    pub wrong_way_examples: BTreeMap<u64, Record>,
    /// The exceptions of every check.
    pub exceptions: Checks<ExceptionList>,
    /// What the play contexts are.
    pub contexts: String,
    /// [`SECTION5_NOTE`].
    pub not_covered: String,
}

struct Ctx<'a> {
    part: Part,
    number: u64,
    d: &'a Digraph,
    code: String,
    u: &'a Reduced,
}

impl Ctx<'_> {
    fn record(&self, index: u64, detail: String, note: String) -> Record {
        Record {
            vertices: self.d.n() as u32,
            edges: self.d.arc_count() as u32,
            code: self.code.clone(),
            index,
            detail: format!("{} digraph #{}: {detail}", self.part.key(), self.number),
            note,
        }
    }

    fn deleted(&self, pos: &Position) -> String {
        pos.deleted
            .iter()
            .map(|&v| self.u.label(v))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn check_digraph(out: &mut ReductionOutput, part: Part, number: u64, d: &Digraph) {
    let u = Reduced::new(d);
    let c = Ctx {
        part,
        number,
        d,
        code: d.to_digraph6(),
        u: &u,
    };
    let ReductionOutput {
        exhaustive,
        random,
        wrong_way_examples,
        exceptions,
    } = out;
    let st = match part {
        Part::Exhaustive => exhaustive,
        Part::Random => random,
    };
    st.digraphs += 1;
    st.positions += d.n() as u64;
    st.gadgets += d.arc_count() as u64;
    st.reduced_vertices_max.offer(u.vertices() as u64);
    st.prefixed_vertices_max.offer(u.vertices() as u64 + 4);
    for (s, wins) in d.first_player_wins_all().into_iter().enumerate() {
        let value = st.solved(&u.start(s));
        let class = if wins { "N" } else { "P" };
        if wins {
            st.main_n.add(value);
        } else {
            st.main_p.add(value);
        }
        let ok = if wins {
            value != 0 && value != 1
        } else {
            value == 1
        };
        if !ok {
            exceptions.main.add(c.record(
                s as u64,
                format!("start {s}, reduced graph on {} vertices", u.vertices()),
                format!(
                    "geography={class} uvg_value={} (claim: P ⇒ *, N ⇒ not 0 and not *)",
                    nim(value as u64)
                ),
            ));
        }
        let pg = u.prefixed(s);
        let pv = st.solved(&pg.position);
        st.prefix.add(pv);
        let want = if value == 1 { 1 } else { 2 };
        if pv != want {
            exceptions.prefix.add(c.record(
                s as u64,
                format!(
                    "start {s}, prefix gadget start={} start0={} p={} p0={}",
                    pg.start, pg.start0, pg.p, pg.p0
                ),
                format!(
                    "value(s)={} value(start)={} expected {}",
                    nim(value as u64),
                    nim(pv as u64),
                    nim(want as u64)
                ),
            ));
        }
    }
    check_contexts(st, exceptions, &c);
    for (i, g) in u.gadgets().iter().enumerate() {
        let what = format!("arc {}→{} (gadget {i})", g.x, g.y);
        let ww = u.wrong_way(g);
        let w = st.solved(&ww);
        st.wrong_way.add(w);
        let rec = c.record(
            i as u64,
            format!("{what}: token on d, deleted {}", c.deleted(&ww)),
            format!("wrong_way_value={}", nim(w as u64)),
        );
        if w == 2 || w == 3 {
            match wrong_way_examples.get_mut(&w) {
                Some(old) if *old <= rec => {}
                Some(old) => *old = rec,
                None => {
                    wrong_way_examples.insert(w, rec);
                }
            }
        } else {
            exceptions.wrong_way.add(rec);
        }
        let entry = st.solved(&u.correct_way_entry(g));
        let via_c = st.solved(&u.correct_way_exit_via_c(g));
        let via_f = st.solved(&u.correct_way_exit_via_f(g));
        st.correct_way_entry.add(entry);
        st.correct_way_exit_via_c.add(via_c);
        st.correct_way_exit_via_f.add(via_f);
        for (route, exit) in [("c", via_c), ("f", via_f)] {
            if (entry == 1) != (exit == 1) {
                exceptions.correct_way.add(c.record(
                    i as u64,
                    format!("{what}: exit via {route}"),
                    format!(
                        "after x→a: {}; after d→y via {route}: {}",
                        nim(entry as u64),
                        nim(exit as u64)
                    ),
                ));
            }
        }
    }
}

/// The lemmas in every play context: for each position reachable from any
/// start with the token on a digraph vertex (see
/// [`Reduced::digraph_vertex_contexts`]) and each gadget that can be entered
/// from there with its interior untouched — forwards from x (a remaining):
/// Correct Way, with both exits when y remains; backwards from y (d
/// remaining): Wrong Way.
fn check_contexts(st: &mut PartStats, exceptions: &mut Checks<Exceptions>, c: &Ctx<'_>) {
    let u = c.u;
    let Some(contexts) = u.digraph_vertex_contexts() else {
        st.context_skipped_digraphs += 1;
        return;
    };
    let has = |set: u128, v: usize| set >> v & 1 == 1;
    for (tok, comp) in contexts {
        st.context_states += 1;
        for (i, g) in u.gadgets().iter().enumerate() {
            let what = || {
                format!(
                    "arc {}→{} (gadget {i}) in context token {} with remaining component {}",
                    g.x,
                    g.y,
                    u.label(tok),
                    u.label_set(comp)
                )
            };
            if g.x == tok && has(comp, g.a) {
                let entry = st.solved(&u.context_position(g.a, comp, &[g.x]));
                st.context_correct_way_entries += 1;
                if has(comp, g.y) {
                    st.context_correct_way_with_exit += 1;
                    let via_c =
                        st.solved(&u.context_position(g.y, comp, &[g.x, g.a, g.b, g.c, g.d]));
                    let via_f =
                        st.solved(&u.context_position(g.y, comp, &[g.x, g.a, g.b, g.f, g.d]));
                    for (route, exit) in [("c", via_c), ("f", via_f)] {
                        if (entry == 1) != (exit == 1) {
                            exceptions.context_correct_way.add(c.record(
                                i as u64,
                                format!("{}: exit via {route}", what()),
                                format!(
                                    "after x→a: {}; after d→y via {route}: {}",
                                    nim(entry as u64),
                                    nim(exit as u64)
                                ),
                            ));
                        }
                    }
                }
            }
            if g.y == tok && has(comp, g.d) {
                let w = st.solved(&u.context_position(g.d, comp, &[g.y]));
                st.context_wrong_way.add(w);
                if w != 2 && w != 3 {
                    exceptions.context_wrong_way.add(c.record(
                        i as u64,
                        what(),
                        format!("wrong_way_value={}", nim(w as u64)),
                    ));
                }
            }
        }
    }
}

impl Kind for ReductionSweep {
    type Params = ReductionParams;
    type Shard = RangeShard;
    type Output = ReductionOutput;
    type Doc = ReductionDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "uvg-reduction"
    }

    fn about(&self) -> &'static str {
        "Burke-Ferland-Teng reduction: all digraphs on 1..3 vertices + random 4-vertex digraphs, every start; main claim, Wrong/Correct Way lemmas, prefix gadget"
    }

    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }

    fn plan(
        &self,
        params: &ReductionParams,
        target_shards: u32,
    ) -> Result<Vec<(RangeShard, u64)>, SweepError> {
        Ok(plan_ranges(
            total_instances(params),
            target_shards,
            16,
            positions_in,
        ))
    }

    fn run(
        &self,
        params: &ReductionParams,
        shard: &RangeShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<ReductionOutput, SweepError> {
        let mut out = ReductionOutput::default();
        for idx in shard.instances(Kind::name(self), total_instances(params))? {
            ctx.check()?;
            let (part, number, d) = instance(params.seed, idx);
            check_digraph(&mut out, part, number, &d);
            ctx.add_progress(d.n() as u64);
        }
        Ok(out)
    }

    fn validate(
        &self,
        params: &ReductionParams,
        shard: &RangeShard,
        out: &ReductionOutput,
    ) -> Result<(), String> {
        validate(params, shard, out)
    }

    fn doc(&self, params: &ReductionParams, r: &ReductionOutput) -> ReductionDoc {
        let mut total = r.exhaustive.clone();
        // A display total (`doc` cannot fail); the parts were merged with
        // checked arithmetic, and an overflowing total stays partial.
        let _ = total.merge(r.random.clone());
        let e = &r.exceptions;
        ReductionDoc {
            kind: Kind::name(self).into(),
            params: params.clone(),
            exhaustive_model: "every labelled loop-free digraph on 1, 2, 3 vertices (2^(n(n-1)) each), every start".into(),
            random_model: RANDOM_MODEL.into(),
            gadget_count: "one gadget per (digraph, arc); its lemma checks do not depend on the start".into(),
            wrong_way_position: "token on d, deleted: y".into(),
            correct_way_positions: CorrectWayPositions {
                entry: "token on a, deleted: x".into(),
                exit_via_c: "token on y, deleted: x, a, b, c, d".into(),
                exit_via_f: "token on y, deleted: x, a, b, f, d".into(),
            },
            exhaustive: r.exhaustive.doc(),
            random: r.random.doc(),
            total: total.doc(),
            wrong_way_examples: r
                .wrong_way_examples
                .iter()
                .map(|(&v, rec)| (v as u64, rec.clone()))
                .collect(),
            exceptions: Checks {
                main: (&e.main).into(),
                prefix: (&e.prefix).into(),
                wrong_way: (&e.wrong_way).into(),
                correct_way: (&e.correct_way).into(),
                context_wrong_way: (&e.context_wrong_way).into(),
                context_correct_way: (&e.context_correct_way).into(),
            },
            contexts: "every position reachable in play on U from any start with the token on a digraph vertex, counted once per digraph; in each, every gadget entered forwards from x with a remaining (Correct Way; both exits when y remains) and every gadget entered backwards from y with d remaining (Wrong Way)".into(),
            not_covered: SECTION5_NOTE.into(),
        }
    }

    fn present(&self, doc: &ReductionDoc) -> crate::sweep::Presentation {
        present::present(doc)
    }
    fn report(&self, _params: &ReductionParams, doc: &ReductionDoc) -> String {
        report_md(doc)
    }
}

/// [`Kind::validate`] for `uvg-reduction`: the digraphs, positions (one per
/// start) and gadgets (one per arc) of each part are recomputed from the
/// shard's instances (generating them is cheap; checking them is the work);
/// every position has one main-claim value (P or N) and one prefix value;
/// the main claim's exceptions are exactly the P-positions of a value other
/// than * and the N-positions of value 0 or *; every check keeps
/// min(count, cap) records.
fn validate(
    params: &ReductionParams,
    shard: &RangeShard,
    out: &ReductionOutput,
) -> Result<(), String> {
    let range = shard
        .instances("uvg-reduction", total_instances(params))
        .map_err(|e| e.to_string())?;
    let mut want = [(0u64, 0u64, 0u64); 2];
    for idx in range {
        let (part, _, d) = instance(params.seed, idx);
        let w = &mut want[(part == Part::Random) as usize];
        w.0 += 1;
        w.1 += d.n() as u64;
        w.2 += d.arc_count() as u64;
    }
    let sum = |v: &ValueCounts| v.0.iter().try_fold(0u64, |a, &b| a.checked_add(b));
    let mut main_exceptions = 0u64;
    for ((name, st), (digraphs, positions, gadgets)) in
        [("exhaustive", &out.exhaustive), ("random", &out.random)]
            .into_iter()
            .zip(want)
    {
        for (field, got, want) in [
            ("digraphs", st.digraphs, digraphs),
            ("positions", st.positions, positions),
            ("gadgets", st.gadgets, gadgets),
        ] {
            if got != want {
                return Err(format!(
                    "{name}.{field} is {got}, but the shard's digraphs have {want}"
                ));
            }
        }
        let main = sum(&st.main_p)
            .zip(sum(&st.main_n))
            .and_then(|(p, n)| p.checked_add(n));
        if main != Some(positions) {
            return Err(format!(
                "{name}.main_p and {name}.main_n count {main:?} positions, not {positions}"
            ));
        }
        if sum(&st.prefix) != Some(positions) {
            return Err(format!(
                "{name}.prefix counts {:?} positions, not {positions}",
                sum(&st.prefix)
            ));
        }
        let p_off = st
            .main_p
            .0
            .iter()
            .enumerate()
            .filter(|&(v, _)| v != 1)
            .map(|(_, &c)| c)
            .sum::<u64>();
        let n_off = st.main_n.0.iter().take(2).sum::<u64>();
        main_exceptions = main_exceptions.saturating_add(p_off).saturating_add(n_off);
    }
    if out.exceptions.main.count() != main_exceptions {
        return Err(format!(
            "exceptions.main is {}, but the value histograms have {main_exceptions} positions against the claim",
            out.exceptions.main.count()
        ));
    }
    for (name, e) in out.exceptions.in_report_order() {
        let set = &e.0;
        if set.cap != super::EXCEPTION_CAP || set.kept.len() as u64 != set.total.min(set.cap) {
            return Err(format!(
                "exceptions.{name} keeps {} record(s) of {} (cap {})",
                set.kept.len(),
                set.total,
                set.cap
            ));
        }
    }
    Ok(())
}

/// Render report.md from the results.json document only.
fn report_md(doc: &ReductionDoc) -> String {
    let (t, ex, rn) = (&doc.total, &doc.exhaustive, &doc.random);
    let exc = &doc.exceptions;
    let k = doc.params.random;
    let seed = doc.params.seed;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Burke–Ferland–Teng: directed → undirected geography reduction\n"
    );
    let _ = writeln!(
        s,
        "Reproduce with `gamesweep run uvg-reduction --random {k} --seed {seed}`. Rendered from `results.json`; every number below is computed.\n"
    );
    let _ = writeln!(s, "## Instances\n");
    let _ = writeln!(
        s,
        "- Exhaustive: every labelled digraph on 1–3 vertices ({} digraphs), every start: **{} positions**, {} gadgets.",
        thousands(ex.digraphs),
        thousands(ex.positions),
        thousands(ex.gadgets)
    );
    let _ = writeln!(
        s,
        "- Random: {} digraphs on 4 vertices, seed {seed}, every start: **{} positions**, {} gadgets. Model: {}.",
        thousands(rn.digraphs),
        thousands(rn.positions),
        thousands(rn.gadgets),
        doc.random_model
    );
    let _ = writeln!(
        s,
        "- In all: **{} positions**, **{} gadgets**; reduced graphs up to {} vertices ({} with the prefix gadget); {} exact-search nodes in all, at most {} for one position.",
        thousands(t.positions),
        thousands(t.gadgets),
        t.reduced_vertices_max,
        t.prefixed_vertices_max,
        thousands(t.search_nodes),
        thousands(t.search_nodes_max_one_position)
    );
    let _ = writeln!(
        s,
        "- Gadget count: {}. (The seed gave its gadget count without a counting rule — see spec/focs-constructions.md; this count is ours.)\n",
        doc.gadget_count
    );
    let _ = writeln!(s, "## Checks\n");
    let _ = writeln!(
        s,
        "- Main claim (P-position of directed geography ⇒ UVG value exactly *; N-position ⇒ neither 0 nor *): {} positions, **{} exceptions**. P-positions: {} (values: {}); N-positions: {} (values: {}).",
        thousands(t.positions),
        exc.main.count,
        thousands(total(&t.main_p_values)),
        values_line(&t.main_p_values),
        thousands(total(&t.main_n_values)),
        values_line(&t.main_n_values)
    );
    let _ = writeln!(
        s,
        "- Wrong Way (token enters a gadget backwards: {}; value *2 or *3): {} gadgets, **{} exceptions**; values: {}.",
        doc.wrong_way_position,
        thousands(t.gadgets),
        exc.wrong_way.count,
        values_line(&t.wrong_way_values)
    );
    let occurs = |v: u64| t.wrong_way_values.get(&v).is_some_and(|&c| c > 0);
    let _ = writeln!(
        s,
        "  Both *2 and *3 occur: **{}**.",
        if occurs(2) && occurs(3) { "yes" } else { "no" }
    );
    for v in [2, 3] {
        if let Some(e) = doc.wrong_way_examples.get(&v) {
            let _ = writeln!(
                s,
                "  Smallest *{v} (witness order): digraph `{}`, {}.",
                e.code, e.detail
            );
        }
    }
    let cw = &doc.correct_way_positions;
    let _ = writeln!(
        s,
        "- Correct Way (after x → a [{}] the value is * ⇔ after d → y it is *): {} gadgets, both routes checked, **{} exceptions**. When the token reaches y, the deleted vertices are, via c: {}; via f: {}. Values after x → a: {}; after d → y via c: {}; via f: {}.",
        cw.entry,
        thousands(t.gadgets),
        exc.correct_way.count,
        cw.exit_via_c.trim_start_matches("token on y, deleted: "),
        cw.exit_via_f.trim_start_matches("token on y, deleted: "),
        values_line(&t.correct_way_entry_values),
        values_line(&t.correct_way_exit_via_c_values),
        values_line(&t.correct_way_exit_via_f_values)
    );
    let _ = writeln!(
        s,
        "- Prefix gadget (start–start0, start–p, p–p0, p–s, token on start: value * if (U, s) is *, else *2): {} positions, **{} exceptions**; values: {}.",
        thousands(total(&t.prefix_values)),
        exc.prefix.count,
        values_line(&t.prefix_values)
    );
    let _ = writeln!(
        s,
        "- The two lemmas in play contexts ({}): {} contexts (positions with the token on a digraph vertex); Wrong Way entered {} times, **{} exceptions**, values: {}; Correct Way entered {} times, {} of them with y remaining (both exits checked), **{} exceptions**. Digraphs skipped (reduced graph over 128 vertices): {}.",
        doc.contexts,
        thousands(t.context_states),
        thousands(total(&t.context_wrong_way_values)),
        exc.context_wrong_way.count,
        values_line(&t.context_wrong_way_values),
        thousands(t.context_correct_way_entries),
        thousands(t.context_correct_way_with_exit),
        exc.context_correct_way.count,
        t.context_skipped_digraphs
    );
    let checks = exc.in_report_order();
    write_exceptions_and_not_covered(
        &mut s,
        checks.iter().map(|(_, l)| l.count).sum(),
        checks.iter().flat_map(|(key, l)| {
            l.records.iter().map(move |record| ExceptionLine {
                label: format!("{key}: digraph "),
                record,
            })
        }),
        "arcs",
        &doc.not_covered,
    );
    s
}

#[cfg(test)]
mod validate_tests {
    use super::*;

    #[test]
    fn real_shard_results_validate_and_forged_ones_are_refused() {
        // The committed run's parameters (runs/uvg-reduction) in its default
        // plan, and another seed and plan.
        let mut outs = Vec::new();
        for (p, shards) in [
            (
                ReductionParams {
                    random: 400,
                    seed: 1,
                },
                0,
            ),
            (
                ReductionParams {
                    random: 40,
                    seed: 3,
                },
                6,
            ),
        ] {
            for (shard, _) in &Kind::plan(&ReductionSweep, &p, shards).unwrap() {
                let out = Kind::run(&ReductionSweep, &p, shard, &ShardCtx::detached()).unwrap();
                assert_eq!(validate(&p, shard, &out), Ok(()), "{shard:?}");
                outs.push((*shard, out));
            }
        }
        let p = ReductionParams {
            random: 40,
            seed: 3,
        };
        let (shard, out) = outs.last().unwrap().clone();
        let refused = |f: &dyn Fn(&mut ReductionOutput), field: &str| {
            let mut o = out.clone();
            f(&mut o);
            let e = validate(&p, &shard, &o).unwrap_err();
            assert!(e.contains(field), "{field}: {e}");
        };
        refused(&|o| o.random.digraphs += 1, "random.digraphs");
        refused(&|o| o.random.positions += 1, "random.positions");
        refused(&|o| o.random.gadgets -= 1, "random.gadgets");
        refused(&|o| o.random.main_p.add(1), "main_p");
        refused(
            &|o| {
                // A position moved from P = * to P = 2: the claim now fails there.
                o.random.main_p.0[1] -= 1;
                o.random.main_p.add(2);
            },
            "exceptions.main",
        );
        refused(&|o| o.random.prefix.add(2), "random.prefix");
        refused(
            &|o| o.exceptions.wrong_way.0.total += 1,
            "exceptions.wrong_way",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{run_typed, ShardSpec, SweepKind};

    #[test]
    fn instance_numbering() {
        assert_eq!(exhaustive_digraphs(), 1 + 4 + 64);
        let (p, _, d) = instance(1, 0);
        assert_eq!((p, d.n()), (Part::Exhaustive, 1));
        let (_, _, d) = instance(1, 4);
        assert_eq!((d.n(), d.arc_count()), (2, 2));
        let (_, _, d) = instance(1, 68);
        assert_eq!((d.n(), d.arc_count()), (3, 6));
        let (p, i, d) = instance(9, 69 + 5);
        assert_eq!((p, i), (Part::Random, 5));
        assert_eq!(d, random_digraph4(9, 5));
        // 201 exhaustive positions: 1·1 + 2·4 + 3·64.
        assert_eq!(positions_in(0, 69), 201);
        assert_eq!(positions_in(0, 69 + 400), 1801);
        assert_eq!(positions_in(3, 70), positions_in(3, 69) + 4);
    }

    fn params(random: u64, seed: u64) -> ReductionParams {
        ReductionParams { random, seed }
    }

    fn run(p: &ReductionParams, shards: u32) -> ReductionOutput {
        run_typed(&ReductionSweep, p, shards).unwrap()
    }

    fn doc(p: &ReductionParams, shards: u32) -> ReductionDoc {
        ReductionSweep.doc(p, &run(p, shards))
    }

    /// The headline run: `--random 400` gives exactly 1,801 positions (201
    /// exhaustive + 1,600), every claim holds, both Wrong Way values occur,
    /// and the gadget count equals the arcs of the instances, recounted here.
    #[test]
    fn headline_run_has_1801_positions_and_no_exceptions() {
        let p = params(400, 1);
        let d = doc(&p, 0);
        assert_eq!(d.exhaustive.positions, 201);
        assert_eq!(d.random.positions, 1600);
        assert_eq!(d.total.positions, 1801);
        let arcs: u64 = (0..exhaustive_digraphs() + 400)
            .map(|i| instance(1, i).2.arc_count() as u64)
            .sum();
        assert_eq!(d.total.gadgets, arcs);
        assert_eq!(d.exhaustive.gadgets, 2 * 2 + 6 * 32);
        for (k, e) in d.exceptions.in_report_order() {
            assert_eq!(e.count, 0, "{k}");
        }
        // The play contexts include every start, so they cover the
        // context-free checks: at least one Wrong Way / Correct Way per gadget.
        assert!(super::total(&d.total.context_wrong_way_values) >= arcs);
        assert!(d.total.context_correct_way_with_exit >= arcs);
        assert_eq!(d.total.context_skipped_digraphs, 0);
        let ww = &d.total.wrong_way_values;
        assert!(ww[&2] > 0 && ww[&3] > 0);
        assert_eq!(ww[&2] + ww[&3], arcs, "every Wrong Way value is *2 or *3");
        // P/N split agrees with directed geography, recomputed here.
        let p_count: u64 = (0..exhaustive_digraphs() + 400)
            .map(|i| {
                let g = instance(1, i).2;
                g.first_player_wins_all().iter().filter(|w| !**w).count() as u64
            })
            .sum();
        assert_eq!(d.total.main_p_values[&1], p_count);
        let report = ReductionSweep.report(&p, &doc(&p, 3));
        assert!(report.contains("**1,801 positions**"));
        assert!(report.contains("Section 5"));
    }

    #[test]
    fn result_does_not_depend_on_the_plan() {
        let p = params(30, 7);
        let a = run(&p, 1);
        assert_eq!(a.work(), a.exhaustive.positions + a.random.positions);
        for shards in [2, 5, 99, 1000] {
            assert_eq!(a, run(&p, shards), "shards = {shards}");
        }
        assert_ne!(a, run(&params(30, 8), 1), "the seed matters");
    }

    /// The complete digraph on 4 vertices: the largest reduced graph
    /// (4 + 4 + 12·8 = 104 vertices), every start, every gadget.
    #[test]
    fn complete_digraph_on_four_vertices() {
        let d = digraph_from_mask(4, 0xfff);
        let mut out = ReductionOutput::default();
        check_digraph(&mut out, Part::Random, 0, &d);
        assert_eq!(out.random.reduced_vertices_max, Max(104));
        for (k, e) in out.exceptions.in_report_order() {
            assert_eq!(e.count(), 0, "{k}: {e:?}");
        }
        // Complete digraph on 4 vertices: the token walks a Hamiltonian path,
        // 3 moves, so the first player wins from every start.
        assert_eq!(d.first_player_wins_all(), vec![true; 4]);
        assert_eq!(out.random.positions, 4);
        assert_eq!(out.random.gadgets, 12);
        assert_eq!(out.exhaustive, PartStats::default());
    }

    #[test]
    fn bad_payloads_are_errors() {
        let p = ReductionSweep
            .resolve_params(&[("random".to_string(), 10)].into())
            .unwrap();
        for payload in [
            "",
            "range 0 5",
            r#"{"start":5,"end":4}"#,
            r#"{"start":0,"end":80}"#,
            r#"{"start":0}"#,
            r#"{"top":{"depth":1}}"#,
        ] {
            let shard = ShardSpec {
                index: 0,
                payload: payload.into(),
                estimate: 0,
            };
            assert!(
                matches!(
                    SweepKind::run_shard(&ReductionSweep, &p, &shard, &ShardCtx::detached()),
                    Err(SweepError::BadShard { .. })
                ),
                "{payload:?}"
            );
        }
        let good = ShardSpec {
            index: 0,
            payload: r#"{"start":0,"end":79}"#.into(),
            estimate: 0,
        };
        assert!(SweepKind::run_shard(&ReductionSweep, &p, &good, &ShardCtx::detached()).is_ok());
    }

    #[test]
    fn bad_params_are_errors() {
        let bad = crate::sweep::Params::from([("random".to_string(), 10)]);
        assert!(matches!(
            SweepKind::plan(&ReductionSweep, &bad, 0),
            Err(SweepError::BadParams { .. })
        ));
        let unknown = crate::sweep::Params::from([("randoms".to_string(), 10)]);
        assert!(ReductionSweep.resolve_params(&unknown).is_err());
    }

    /// A document with exceptions and examples goes through results.json
    /// unchanged, and the report lists every kept exception under its check.
    #[test]
    fn exceptions_round_trip_and_are_reported() {
        let p = params(0, 1);
        let mut out = run(&p, 1);
        let rec = |i: u64| Record {
            vertices: 2,
            edges: 1,
            code: "&AG".into(),
            index: i,
            detail: format!("exhaustive digraph #{i}: made up"),
            note: "made up".into(),
        };
        out.exceptions.main.add(rec(1));
        out.exceptions.context_correct_way.add(rec(2));
        out.exceptions.context_correct_way.add(rec(3));
        let doc = ReductionSweep.doc(&p, &out);
        let text = crate::sweep::json_text(&doc);
        let back: ReductionDoc = serde_json::from_str(&text).unwrap();
        assert_eq!(back, doc);
        assert_eq!(crate::sweep::json_text(&back), text);
        let md = ReductionSweep.report(&p, &back);
        assert!(md.contains("## Exceptions (3; this is news)"));
        assert!(md.contains(
            "- main: digraph `&AG` (2 vertices, 1 arcs), exhaustive digraph #1: made up: made up\n"
        ));
        assert!(md.contains(
            "- context_correct_way: digraph `&AG` (2 vertices, 1 arcs), exhaustive digraph #3"
        ));
        let rendered = SweepKind::render_from_json(
            &ReductionSweep,
            &[("random".to_string(), 0), ("seed".to_string(), 1)].into(),
            &text,
        )
        .unwrap();
        assert_eq!(rendered.results_json, text);
        assert_eq!(rendered.report_md, md);
    }
}
