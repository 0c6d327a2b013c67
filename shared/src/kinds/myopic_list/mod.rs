//! `myopic-list`: the list lemma and its corollary (Bovee–Burke–Tennenhouse 2016).
//!
//! A list of `n` nodes has arcs head → tail (`i → i+1`).
//! * **Lemma** (n = 1..=`--max-len`): `n` uncoloured nodes with nothing after
//!   the tail: `n·*`; followed by a blue node: `(n−1)·* − 1`; by a red node:
//!   `(n−1)·* + 1`. Lists of hundreds of nodes exceed the bitset boards, so the
//!   values come from [`list_values`], the same CGT arena on the list's own
//!   position space: an uncoloured stretch is a *segment* (length, colours left
//!   at its tail) and colouring one node splits it into two segments. A unit
//!   test checks those values against the general solver for short lists.
//! * **Corollary**: a collection of lists has value `a·* + b − c`, where `a`
//!   counts uncoloured nodes whose target is uncoloured or absent, `b` those
//!   whose target is red, `c` those whose target is blue. Checked with the
//!   general solver on all `3^n` colourings of single lists with
//!   n = 1..=`--max-single`, and all colourings of ordered tuples of 2–4
//!   lists with at most `--max-forest` nodes in total.
//!
//! Shards ([`ListShard`]): the lemma, one single list, or the tuples of `lists`
//! lists whose first has `first` nodes.

mod report;
mod run;
mod validate;

use crate::cgt::{Arena, Dyadic, GameId};
use crate::col::{colouring_from_index, Board, Solver, SolverOptions};
use crate::families::col::{check_ranges, position_record, records_md, PositionDoc, Records};
use crate::graph::members;
use crate::sweep::merge::{add, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{thousands, Kind, Merge, ParamDef, Record, ShardCtx, SweepError};
use run::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The `myopic-list` sweep kind.
pub struct MyopicListSweep;

const PARAMS: &[ParamDef] = &[
    ParamDef {
        name: "max_len",
        help: "longest list for the lemma",
        default: Some(400),
        min: 1,
        max: 5000,
    },
    ParamDef {
        name: "max_single",
        help: "longest single list for the corollary",
        default: Some(13),
        min: 1,
        max: 16,
    },
    ParamDef {
        name: "max_forest",
        help: "most nodes in a tuple of 2–4 lists for the corollary",
        default: Some(9),
        min: 2,
        max: 12,
    },
];

/// Parameters of `myopic-list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Longest list for the lemma.
    pub max_len: usize,
    /// Longest single list for the corollary.
    pub max_single: usize,
    /// Most nodes in a tuple of 2–4 lists for the corollary.
    pub max_forest: usize,
}

/// A shard of `myopic-list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ListShard {
    /// The lemma, lists of 1..=`max_len` nodes.
    Lemma,
    /// The corollary on every colouring of one list of `nodes` nodes.
    List {
        /// Nodes of the list.
        nodes: usize,
    },
    /// The corollary on every ordered tuple of `lists` lists (≤ `max_forest`
    /// nodes in all) whose first list has `first` nodes.
    Forest {
        /// Lists in the tuple (2..=4).
        lists: usize,
        /// Nodes of the first list.
        first: usize,
    },
}

/// Positions checked against a claim, and the exceptions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Positions (or lemma claims) checked.
    pub positions: u64,
    /// Where the claim fails.
    pub exceptions: Records,
}

impl Check {
    fn merge(&mut self, o: Check) -> Result<(), MergeError> {
        add(&mut self.positions, o.positions, "positions")?;
        self.exceptions
            .merge(o.exceptions)
            .map_err(|e| e.within("exceptions"))?;
        Ok(())
    }
    fn doc(&self) -> CheckDoc {
        CheckDoc {
            positions: self.positions,
            exceptions: self.exceptions.total(),
            records: self.exceptions.docs(),
        }
    }
}

/// The result of a `myopic-list` shard, or the merge of many.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListOutput {
    /// Positions (and lemma claims) processed.
    pub work: u64,
    /// The lemma's claims (three per list length).
    pub lemma: Check,
    /// The corollary on single lists.
    pub single: Check,
    /// The corollary on tuples of 2–4 lists.
    pub forest: Check,
    /// Non-cold positions met by the corollary checks.
    pub non_cold: Records,
}

impl Merge for ListOutput {
    fn merge(&mut self, o: Self) -> Result<(), MergeError> {
        add(&mut self.work, o.work, "work")?;
        self.lemma.merge(o.lemma).map_err(|e| e.within("lemma"))?;
        self.single
            .merge(o.single)
            .map_err(|e| e.within("single"))?;
        self.forest
            .merge(o.forest)
            .map_err(|e| e.within("forest"))?;
        self.non_cold
            .merge(o.non_cold)
            .map_err(|e| e.within("non_cold"))?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.work
    }
}

/// The lemma's part of `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LemmaDoc {
    /// Longest list checked.
    pub max_len: usize,
    /// Claims checked (three per length).
    pub checked: u64,
    /// Claims that failed.
    pub exceptions: u64,
    /// The kept failures, smallest first.
    pub records: Vec<PositionDoc>,
}

/// One corollary check in `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckDoc {
    /// Positions checked.
    pub positions: u64,
    /// Positions where the corollary fails.
    pub exceptions: u64,
    /// The kept exceptions, smallest first.
    pub records: Vec<PositionDoc>,
}

/// The corollary's part of `results.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorollaryDoc {
    /// Single lists.
    pub single: CheckDoc,
    /// Ordered tuples of 2–4 lists.
    pub forests: CheckDoc,
}

/// `results.json` of `myopic-list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListDoc {
    /// The kind's name.
    pub kind: String,
    /// The parameters.
    pub params: ListParams,
    /// The lemma.
    pub lemma: LemmaDoc,
    /// The corollary.
    pub corollary: CorollaryDoc,
    /// Non-cold positions met.
    pub non_cold: u64,
    /// The kept non-cold positions, smallest first (written only when there are any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_cold_records: Vec<PositionDoc>,
}

impl MyopicListSweep {
    fn check(&self, p: &ListParams) -> Result<(), SweepError> {
        check_ranges(
            Kind::name(self),
            PARAMS,
            &[
                ("max_len", p.max_len as u64),
                ("max_single", p.max_single as u64),
                ("max_forest", p.max_forest as u64),
            ],
        )
    }

    fn lemma(&self, solver: &mut Solver, max: usize, out: &mut ListOutput) {
        let e = &mut solver.arena;
        let v = list_values(e, max);
        for (n, row) in v.iter().enumerate().skip(1) {
            let nn = n as u32;
            // The lemma's three claims: nothing after the tail, a blue node, a red node.
            let claims = [
                ("none", row[BOTH], e.num_nim(Dyadic::ZERO, nn % 2)),
                (
                    "blue",
                    row[RED_ONLY],
                    e.num_nim(Dyadic::int(-1), (nn - 1) % 2),
                ),
                (
                    "red",
                    row[BLUE_ONLY],
                    e.num_nim(Dyadic::int(1), (nn - 1) % 2),
                ),
            ];
            for (tail, got, want) in claims {
                out.lemma.positions += 1;
                out.work += 1;
                if got != want {
                    let (a, f) = (e.display(got), e.display(want));
                    out.lemma.exceptions.add(Record {
                        vertices: n as u32,
                        edges: n as u32 - 1,
                        code: format!("list {n}"),
                        index: 0,
                        detail: format!("followed by {tail}"),
                        note: format!("value {a}, lemma {f}"),
                    });
                }
            }
        }
    }
}

impl Kind for MyopicListSweep {
    type Params = ListParams;
    type Shard = ListShard;
    type Output = ListOutput;
    type Doc = ListDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        "myopic-list"
    }
    fn about(&self) -> &'static str {
        "Myopic Col on lists: the 2016 list lemma and its corollary a·* + b − c"
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        PARAMS
    }
    fn plan(&self, p: &ListParams, _target: u32) -> Result<Vec<(ListShard, u64)>, SweepError> {
        self.check(p)?;
        let mut plan = vec![(ListShard::Lemma, 0)];
        for nodes in 1..=p.max_single {
            plan.push((ListShard::List { nodes }, 0));
        }
        for lists in 2..=4usize {
            for first in 1..=p.max_forest.saturating_sub(lists - 1) {
                plan.push((ListShard::Forest { lists, first }, 0));
            }
        }
        Ok(plan)
    }
    fn run(
        &self,
        p: &ListParams,
        shard: &ListShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<ListOutput, SweepError> {
        self.check(p)?;
        let bad = |reason: String| SweepError::BadShard {
            kind: Kind::name(self).into(),
            reason,
        };
        let mut out = ListOutput::default();
        let mut solver = Solver::new(SolverOptions::default());
        match *shard {
            ListShard::Lemma => self.lemma(&mut solver, p.max_len, &mut out),
            ListShard::List { nodes } => {
                if nodes == 0 || nodes > p.max_single {
                    return Err(bad(format!(
                        "list of {nodes} nodes outside 1..={}",
                        p.max_single
                    )));
                }
                out.work += check_lists(&mut solver, &mut out.single, &mut out.non_cold, &[nodes]);
            }
            ListShard::Forest { lists, first } => {
                if !(2..=4).contains(&lists) || first == 0 || first > p.max_forest {
                    return Err(bad(format!(
                        "forest of {lists} lists, first of {first} nodes, outside the plan for max_forest {}",
                        p.max_forest
                    )));
                }
                for total in lists..=p.max_forest {
                    for lens in compositions(lists, total, first) {
                        if lens.iter().sum::<usize>() != total {
                            continue;
                        }
                        ctx.check()?;
                        out.work +=
                            check_lists(&mut solver, &mut out.forest, &mut out.non_cold, &lens);
                    }
                }
            }
        }
        Ok(out)
    }
    fn validate(
        &self,
        p: &ListParams,
        shard: &ListShard,
        out: &ListOutput,
    ) -> Result<(), ValidateError> {
        self.validate_output(p, shard, out)
    }
    fn doc(&self, p: &ListParams, r: &ListOutput) -> ListDoc {
        ListDoc {
            kind: Kind::name(self).into(),
            params: p.clone(),
            lemma: LemmaDoc {
                max_len: p.max_len,
                checked: r.lemma.positions,
                exceptions: r.lemma.exceptions.total(),
                records: r.lemma.exceptions.docs(),
            },
            corollary: CorollaryDoc {
                single: r.single.doc(),
                forests: r.forest.doc(),
            },
            non_cold: r.non_cold.total(),
            non_cold_records: r.non_cold.docs(),
        }
    }
    fn present(&self, doc: &ListDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _p: &ListParams, d: &ListDoc) -> String {
        report::report_md(d)
    }
}

#[cfg(test)]
mod tests;
