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

mod report;
mod run;
mod validate;

use crate::bft::digraph::Digraph;
use crate::bft::random::{digraph_from_mask, random_digraph4};
use crate::bft::reduction::{Position, Reduced};
use crate::bft::solve;
use crate::families::bft::{
    plan_ranges, total, values_line, write_exceptions_and_not_covered, ExceptionLine, Exceptions,
    RangeShard, ValueCounts, SECTION5_NOTE,
};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::report::{nim, thousands};
use crate::sweep::ValidateError;
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
            run::check_digraph(&mut out, part, number, &d);
            ctx.add_progress(d.n() as u64);
        }
        Ok(out)
    }

    fn validate(
        &self,
        params: &ReductionParams,
        shard: &RangeShard,
        out: &ReductionOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(params, shard, out)
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
        report::present::present(doc)
    }
    fn report(&self, _params: &ReductionParams, doc: &ReductionDoc) -> String {
        report::report_md(doc)
    }
}
#[cfg(test)]
mod tests;
