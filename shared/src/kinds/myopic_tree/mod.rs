//! `myopic-tree` (unordered binary trees, the 2016 conjecture) and
//! `myopic-rooted` (rooted trees, the child-count generalisation): one kind,
//! [`MyopicTrees`], with two instances differing only in their [`Shape`].
//!
//! Positions: every tree shape up to `--max-nodes`, arcs parent → child, root
//! uncoloured, each of the `3^(k−1)` colourings of the other nodes.
//! * `myopic-tree` subject: the root has exactly two children, both
//!   uncoloured; claim `G(T) = * + G(T1) + G(T2)`.
//! * `myopic-rooted` subject: the root has at least one child and all its
//!   children are uncoloured; claim `G(T) = * + Σ G(child subtree)`, grouped
//!   by the root's child count (1, 2, ≥3).
//!
//! Shards are lists of tree shapes ([`TreeId`]: the `index`-th shape with
//! `nodes` nodes in [`TreeCatalogue`] order), balanced by position count.

mod report;
mod validate;
use crate::col::trees::{RootedTree, TreeCatalogue};
use crate::col::{Board, Solver, SolverOptions};
use crate::families::col::{
    balance, check_ranges, position_record, records_md, values_md, PositionDoc, Records,
    ValueCounter, ValueRow, ValueStats,
};
use crate::sweep::merge::{add, merge_maps, MergeError};
use crate::sweep::ValidateError;
use crate::sweep::{plural, thousands, Kind, Merge, ParamDef, ShardCtx, SweepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Which trees a [`MyopicTrees`] sweep covers; everything else follows from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Unordered binary trees (0–2 children per node): `myopic-tree`.
    Binary,
    /// Rooted trees (any number of children): `myopic-rooted`.
    Rooted,
}

/// Myopic Col on trees of one [`Shape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MyopicTrees {
    /// The trees swept.
    pub shape: Shape,
}

/// The `myopic-tree` sweep kind (named like a unit struct so it reads as one
/// where kinds are listed).
#[allow(non_upper_case_globals)]
pub const MyopicTreeSweep: MyopicTrees = MyopicTrees {
    shape: Shape::Binary,
};
/// The `myopic-rooted` sweep kind.
#[allow(non_upper_case_globals)]
pub const MyopicRootedSweep: MyopicTrees = MyopicTrees {
    shape: Shape::Rooted,
};

const TREE_PARAMS: &[ParamDef] = &[ParamDef {
    name: "max_nodes",
    help: "largest node count",
    default: Some(11),
    min: 1,
    max: 14,
}];

const ROOTED_PARAMS: &[ParamDef] = &[ParamDef {
    name: "max_nodes",
    help: "largest node count",
    default: Some(10),
    min: 1,
    max: 12,
}];

/// A group of subjects (positions the claimed formula applies to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SubjectGroup {
    /// `myopic-tree`: the root has two uncoloured children.
    #[serde(rename = "subjects")]
    Subjects,
    /// `myopic-rooted`: the root has one child, uncoloured.
    #[serde(rename = "children=1")]
    Children1,
    /// `myopic-rooted`: the root has two children, uncoloured.
    #[serde(rename = "children=2")]
    Children2,
    /// `myopic-rooted`: the root has three or more children, all uncoloured.
    #[serde(rename = "children>=3")]
    Children3Plus,
}

impl SubjectGroup {
    /// The group's name in reports (and as a JSON key).
    pub fn label(self) -> &'static str {
        match self {
            SubjectGroup::Subjects => "subjects",
            SubjectGroup::Children1 => "children=1",
            SubjectGroup::Children2 => "children=2",
            SubjectGroup::Children3Plus => "children>=3",
        }
    }
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::Binary => "myopic-tree",
            Shape::Rooted => "myopic-rooted",
        }
    }
    fn about(self) -> &'static str {
        match self {
            Shape::Binary => {
                "Myopic Col on unordered binary trees: the 2016 conjecture G(T) = * + G(T1) + G(T2)"
            }
            Shape::Rooted => {
                "Myopic Col on rooted trees: G = * + sum of child subtrees when the root's children are uncoloured"
            }
        }
    }
    fn param_defs(self) -> &'static [ParamDef] {
        match self {
            Shape::Binary => TREE_PARAMS,
            Shape::Rooted => ROOTED_PARAMS,
        }
    }
    fn title(self) -> &'static str {
        match self {
            Shape::Binary => "Myopic Col on unordered binary trees: G(T) = * + G(T1) + G(T2)",
            Shape::Rooted => "Myopic Col on rooted trees: G(T) = * + Σ G(child subtrees)",
        }
    }
    fn catalogue(self, max_nodes: usize) -> TreeCatalogue {
        match self {
            Shape::Binary => TreeCatalogue::new(max_nodes, 2),
            Shape::Rooted => TreeCatalogue::new(max_nodes, usize::MAX),
        }
    }
    /// The subject group of a tree whose root has `kids` children.
    fn group_of(self, kids: usize) -> Option<SubjectGroup> {
        match (self, kids) {
            (Shape::Binary, 2) => Some(SubjectGroup::Subjects),
            (Shape::Binary, _) => None,
            (Shape::Rooted, 0) => None,
            (Shape::Rooted, 1) => Some(SubjectGroup::Children1),
            (Shape::Rooted, 2) => Some(SubjectGroup::Children2),
            (Shape::Rooted, _) => Some(SubjectGroup::Children3Plus),
        }
    }
    /// Every subject group of the shape, in report order.
    fn groups(self) -> &'static [SubjectGroup] {
        match self {
            Shape::Binary => &[SubjectGroup::Subjects],
            Shape::Rooted => &[
                SubjectGroup::Children1,
                SubjectGroup::Children2,
                SubjectGroup::Children3Plus,
            ],
        }
    }
}

/// Parameters of both tree kinds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeParams {
    /// Largest node count.
    pub max_nodes: usize,
}

/// One tree shape: the `index`-th tree with `nodes` nodes in catalogue order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeId {
    /// Node count.
    pub nodes: usize,
    /// Index among the trees with that many nodes.
    pub index: usize,
}

/// A shard: tree shapes, each run over all its colourings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeShard {
    /// The shapes.
    pub trees: Vec<TreeId>,
}

/// Subjects and exceptions of one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupCounts {
    /// Positions the formula applies to.
    pub subjects: u64,
    /// Of those, positions where it fails.
    pub exceptions: u64,
}

impl GroupCounts {
    fn add(&mut self, o: GroupCounts) -> Result<(), MergeError> {
        add(&mut self.subjects, o.subjects, "subjects")?;
        add(&mut self.exceptions, o.exceptions, "exceptions")?;
        Ok(())
    }
}

/// Counts for one node count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeCounts {
    /// Tree shapes.
    pub trees: u64,
    /// Positions (shapes × colourings).
    pub positions: u64,
    /// Positions whose value is not cold.
    pub non_cold: u64,
    /// Subjects and exceptions per group.
    pub groups: BTreeMap<SubjectGroup, GroupCounts>,
}

impl NodeCounts {
    fn merge(&mut self, o: NodeCounts) -> Result<(), MergeError> {
        add(&mut self.trees, o.trees, "trees")?;
        add(&mut self.positions, o.positions, "positions")?;
        add(&mut self.non_cold, o.non_cold, "non_cold")?;
        merge_maps(&mut self.groups, o.groups, "groups", GroupCounts::add)?;
        Ok(())
    }
}

/// The result of a tree shard, or the merge of many.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TreeOutput {
    /// Positions processed.
    pub work: u64,
    /// Counts by node count.
    pub by_nodes: BTreeMap<u32, NodeCounts>,
    /// Values by node count, with the smallest position of each.
    pub values: ValueStats,
    /// Non-cold positions.
    pub non_cold: Records,
    /// Exceptions to the formula, per group.
    pub exceptions: BTreeMap<SubjectGroup, Records>,
}

impl Merge for TreeOutput {
    fn merge(&mut self, o: Self) -> Result<(), MergeError> {
        add(&mut self.work, o.work, "work")?;
        merge_maps(
            &mut self.by_nodes,
            o.by_nodes,
            "by_nodes",
            NodeCounts::merge,
        )?;
        self.values
            .merge(o.values)
            .map_err(|e| e.within("values"))?;
        self.non_cold
            .merge(o.non_cold)
            .map_err(|e| e.within("non_cold"))?;
        merge_maps(
            &mut self.exceptions,
            o.exceptions,
            "exceptions",
            Records::merge,
        )?;
        Ok(())
    }
    fn work(&self) -> u64 {
        self.work
    }
}

/// One row of the `by_nodes` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRow {
    /// Node count.
    pub nodes: usize,
    /// Tree shapes.
    pub trees: u64,
    /// Positions.
    pub positions: u64,
    /// Distinct values.
    pub distinct_values: usize,
    /// Largest denominator of a value (0 if none is a number).
    pub largest_denominator: u64,
    /// Non-cold positions.
    pub non_cold: u64,
    /// Subjects and exceptions per group (keys: the group names).
    #[serde(flatten)]
    pub groups: BTreeMap<SubjectGroup, GroupCounts>,
}

/// The `totals` row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TotalsRow {
    /// Tree shapes.
    pub trees: u64,
    /// Positions.
    pub positions: u64,
    /// Non-cold positions.
    pub non_cold: u64,
    /// Distinct values over all node counts.
    pub distinct_values: usize,
    /// Largest denominator over all node counts.
    pub largest_denominator: u64,
    /// Subjects and exceptions per group (keys: the group names).
    #[serde(flatten)]
    pub groups: BTreeMap<SubjectGroup, GroupCounts>,
}

/// `results.json` of `myopic-tree` and `myopic-rooted`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeDoc {
    /// The kind's name.
    pub kind: String,
    /// The parameters.
    pub params: TreeParams,
    /// One row per node count `1..=max_nodes`.
    pub by_nodes: Vec<NodeRow>,
    /// Totals over all node counts.
    pub totals: TotalsRow,
    /// The kept exceptions per group (smallest first).
    pub exceptions: BTreeMap<SubjectGroup, Vec<PositionDoc>>,
    /// The kept non-cold positions (smallest first).
    pub non_cold: Vec<PositionDoc>,
    /// Every value found, with its positions and its smallest position.
    pub values: Vec<ValueRow>,
}

/// Bitmask of the subtree below each node.
fn subtree_masks(t: &RootedTree) -> Vec<u32> {
    let n = t.n();
    let mut m: Vec<u32> = (0..n).map(|v| 1u32 << v).collect();
    // Preorder: parents come before children, so sweep backwards.
    for v in (1..n).rev() {
        let p = t.parents[v];
        m[p] |= m[v];
    }
    m
}

impl MyopicTrees {
    fn check(&self, p: &TreeParams) -> Result<(), SweepError> {
        check_ranges(
            self.shape.name(),
            self.shape.param_defs(),
            &[("max_nodes", p.max_nodes as u64)],
        )
    }

    /// Run one tree shape over all its colourings into `out`.
    fn run_tree(
        &self,
        solver: &mut Solver,
        t: &RootedTree,
        tally: &mut ValueCounter,
        out: &mut TreeOutput,
    ) {
        let n = t.n();
        let star = solver.arena.star();
        let board = Board::myopic(n, &t.arcs());
        let code = t.digraph6();
        let kids = t.children(0);
        let sub = subtree_masks(t);
        let kid_mask: u32 = kids.iter().map(|&k| 1u32 << k).sum();
        let group = self.shape.group_of(kids.len());
        let edges = n - 1;
        let total = 3u64.pow(n as u32 - 1);
        let (mut blue, mut red) = (0u32, 0u32);
        let (mut subjects, mut exceptions, mut non_cold) = (0u64, 0u64, 0u64);
        for _ in 0..total {
            let pos = board.position_masks(blue, red);
            let g = solver.value(&board, pos);
            tally.add(n, g, edges, &code, blue, red);
            if !solver.arena.is_cold(g) {
                non_cold += 1;
                let s = solver.arena.display(g);
                out.non_cold.add(position_record(
                    n,
                    edges,
                    &code,
                    blue,
                    red,
                    format!("value {s}"),
                ));
            }
            if let Some(grp) = group {
                if (blue | red) & kid_mask == 0 {
                    subjects += 1;
                    let mut f = star;
                    for &k in &kids {
                        let gk = solver.value(&board, pos.restrict(sub[k]));
                        f = solver.arena.add(f, gk);
                    }
                    if f != g {
                        exceptions += 1;
                        let (a, b) = (solver.arena.display(g), solver.arena.display(f));
                        out.exceptions.entry(grp).or_default().add(position_record(
                            n,
                            edges,
                            &code,
                            blue,
                            red,
                            format!("value {a}, formula {b}"),
                        ));
                    }
                }
            }
            // Odometer over vertices 1..n: 0 → blue → red → 0 with carry.
            let mut v = 1;
            while v < n {
                let bit = 1u32 << v;
                if blue & bit == 0 && red & bit == 0 {
                    blue |= bit;
                    break;
                } else if blue & bit != 0 {
                    blue &= !bit;
                    red |= bit;
                    break;
                } else {
                    red &= !bit;
                    v += 1;
                }
            }
        }
        let row = out.by_nodes.entry(n as u32).or_default();
        row.trees += 1;
        row.positions += total;
        row.non_cold += non_cold;
        if let Some(grp) = group {
            // One tree's counts (far below u64::MAX).
            let _ = row.groups.entry(grp).or_default().add(GroupCounts {
                subjects,
                exceptions,
            });
        }
        out.work += total;
    }
}

impl Kind for MyopicTrees {
    type Params = TreeParams;
    type Shard = TreeShard;
    type Output = TreeOutput;
    type Doc = TreeDoc;
    fn source_file(&self) -> &'static str {
        file!()
    }

    fn name(&self) -> &'static str {
        self.shape.name()
    }
    fn about(&self) -> &'static str {
        self.shape.about()
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        self.shape.param_defs()
    }

    fn plan(&self, p: &TreeParams, target: u32) -> Result<Vec<(TreeShard, u64)>, SweepError> {
        self.check(p)?;
        let cat = self.shape.catalogue(p.max_nodes);
        let mut items = Vec::new();
        for nodes in 1..=p.max_nodes {
            for index in 0..cat.count(nodes) {
                items.push((TreeId { nodes, index }, 3u64.pow(nodes as u32 - 1)));
            }
        }
        let shards = if target == 0 { 32 } else { target as usize };
        Ok(balance(&items, shards)
            .into_iter()
            .map(|(trees, est)| (TreeShard { trees }, est))
            .collect())
    }

    fn run(
        &self,
        p: &TreeParams,
        shard: &TreeShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<TreeOutput, SweepError> {
        self.check(p)?;
        let cat = self.shape.catalogue(p.max_nodes);
        if let Some(t) = shard
            .trees
            .iter()
            .find(|t| t.nodes == 0 || t.index >= cat.count(t.nodes))
        {
            return Err(SweepError::BadShard {
                kind: self.name().into(),
                reason: format!(
                    "no tree {}:{} within max_nodes {}",
                    t.nodes, t.index, p.max_nodes
                ),
            });
        }
        let mut solver = Solver::new(SolverOptions::default());
        let mut out = TreeOutput::default();
        let mut tally = ValueCounter::default();
        for t in &shard.trees {
            ctx.check()?;
            let tree = cat.tree(t.nodes, t.index);
            self.run_tree(&mut solver, &tree, &mut tally, &mut out);
            ctx.add_progress(3u64.pow(t.nodes as u32 - 1));
        }
        out.values = tally.finish(&mut solver.arena);
        Ok(out)
    }

    fn validate(
        &self,
        p: &TreeParams,
        shard: &TreeShard,
        out: &TreeOutput,
    ) -> Result<(), ValidateError> {
        self.validate_output(p, shard, out)
    }

    fn doc(&self, p: &TreeParams, r: &TreeOutput) -> TreeDoc {
        let grs = self.shape.groups();
        let zero = NodeCounts::default();
        let mut by_nodes = Vec::new();
        let mut tot = NodeCounts::default();
        for nodes in 1..=p.max_nodes {
            let c = r.by_nodes.get(&(nodes as u32)).unwrap_or(&zero);
            let groups: BTreeMap<SubjectGroup, GroupCounts> = grs
                .iter()
                .map(|&g| (g, c.groups.get(&g).copied().unwrap_or_default()))
                .collect();
            // A display total (`doc` cannot fail); an overflowing total stays partial.
            let _ = tot.merge(NodeCounts {
                groups: groups.clone(),
                ..c.clone()
            });
            by_nodes.push(NodeRow {
                nodes,
                trees: c.trees,
                positions: c.positions,
                distinct_values: r.values.distinct_in(nodes as u32),
                largest_denominator: r.values.max_denominator_in(nodes as u32),
                non_cold: c.non_cold,
                groups,
            });
        }
        let values = r.values.rows();
        TreeDoc {
            kind: self.name().into(),
            params: p.clone(),
            by_nodes,
            totals: TotalsRow {
                trees: tot.trees,
                positions: tot.positions,
                non_cold: tot.non_cold,
                distinct_values: values.len(),
                largest_denominator: r.values.max_denominator_all(),
                groups: tot.groups,
            },
            exceptions: grs
                .iter()
                .map(|&g| (g, r.exceptions.get(&g).map_or_else(Vec::new, Records::docs)))
                .collect(),
            non_cold: r.non_cold.docs(),
            values,
        }
    }

    fn present(&self, doc: &TreeDoc) -> crate::sweep::Presentation {
        report::present::present(doc)
    }
    fn report(&self, _p: &TreeParams, d: &TreeDoc) -> String {
        report::report_md(self.shape, d)
    }
}

#[cfg(test)]
mod tests;
