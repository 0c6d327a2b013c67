//! [`Kind::validate`] of `myopic-tree` and `myopic-rooted`: a shard's result checked without re-running it.

use super::*;
use crate::sweep::run_checks;

impl MyopicTrees {
    /// [`Kind::validate`]: the shard names its trees, so per node count the
    /// trees, positions (3^(n−1) per tree) and subjects per group (3^(n−1−k)
    /// per tree whose root has k children) are known exactly; exceptions and
    /// non-cold positions are within them and match their record lists; the
    /// value tally sums to the positions; every record is a colouring of one
    /// of the shard's trees.
    pub(super) fn validate_output(
        &self,
        p: &TreeParams,
        shard: &TreeShard,
        out: &TreeOutput,
    ) -> Result<(), ValidateError> {
        self.check(p).map_err(|e| e.to_string())?;
        let (want, codes) = self.shard_trees(p, shard)?;
        let ctx = Ctx {
            shape: &self.shape,
            want,
            codes,
            out,
        };
        run_checks(CHECKS, &ctx)
    }

    /// The counts per node count the shard's trees give (trees, positions,
    /// subjects per group), and the trees' codes; an error for a tree out
    /// of range or listed twice.
    fn shard_trees(&self, p: &TreeParams, shard: &TreeShard) -> Result<ShardTrees, ValidateError> {
        let cat = self.shape.catalogue(p.max_nodes);
        let mut want: BTreeMap<u32, NodeCounts> = BTreeMap::new();
        let mut codes = std::collections::BTreeSet::new();
        for t in &shard.trees {
            if t.nodes == 0 || t.index >= cat.count(t.nodes) {
                return Err(ValidateError::from(format!(
                    "shard: no tree {}:{} within max_nodes {}",
                    t.nodes, t.index, p.max_nodes
                )));
            }
            let tree = cat.tree(t.nodes, t.index);
            if !codes.insert(tree.digraph6()) {
                return Err(ValidateError::from(format!(
                    "shard: tree {}:{} is listed twice",
                    t.nodes, t.index
                )));
            }
            let n = t.nodes as u32;
            let kids = tree.children(0).len();
            let row = want.entry(n).or_default();
            row.trees += 1;
            row.positions += 3u64.pow(n - 1);
            if let Some(g) = self.shape.group_of(kids) {
                row.groups.entry(g).or_default().subjects += 3u64.pow(n - 1 - kids as u32);
            }
        }
        Ok((want, codes))
    }
}

/// Per node count what the shard's trees give, and the trees' codes.
type ShardTrees = (
    BTreeMap<u32, NodeCounts>,
    std::collections::BTreeSet<String>,
);

/// A shard's trees and result, what the checks read.
struct Ctx<'a> {
    shape: &'a Shape,
    /// Per node count, what the shard's trees give.
    want: BTreeMap<u32, NodeCounts>,
    /// The digraph6 codes of the shard's trees.
    codes: std::collections::BTreeSet<String>,
    out: &'a TreeOutput,
}

impl Ctx<'_> {
    /// The exceptions counted per group, over every node count.
    fn exceptions(&self) -> BTreeMap<SubjectGroup, u64> {
        let mut out: BTreeMap<SubjectGroup, u64> = BTreeMap::new();
        for c in self.out.by_nodes.values() {
            for (g, gc) in &c.groups {
                *out.entry(*g).or_default() += gc.exceptions;
            }
        }
        out
    }

    /// Record `r` of `what` is a colouring of one of the shard's trees with
    /// the root uncoloured.
    fn record(&self, what: &str, r: &crate::sweep::Record) -> Result<(), ValidateError> {
        let n = r.vertices as usize;
        if !self.codes.contains(&r.code) || n == 0 || r.edges as usize != n - 1 {
            return Err(ValidateError::from(format!(
                "{what}: `{:.40}` ({n} nodes, {} arcs) is not one of the shard's trees",
                r.code, r.edges
            )));
        }
        let text = r
            .detail
            .strip_prefix("colouring ")
            .filter(|t| t.chars().count() == n);
        let ok = text
            .is_some_and(|t| t.starts_with('.') && t.chars().all(|c| matches!(c, '.' | 'L' | 'R')));
        if !ok {
            return Err(ValidateError::from(format!(
                "{what}: detail `{:.40}` is not a colouring of {n} nodes with the root uncoloured",
                r.detail
            )));
        }
        Ok(())
    }
}

/// A named check of a result (see [`run_checks`]).
type Check = (&'static str, fn(&Ctx<'_>) -> Result<(), ValidateError>);

/// The checks, in order; the first to fail refuses the result.
const CHECKS: &[Check] = &[
    ("node counts", node_counts),
    ("rows", rows),
    ("work", work),
    ("value tallies", value_tallies),
    ("smallest positions", smallest_positions),
    ("record lists", record_lists),
    ("exception groups", exception_groups),
];

fn node_counts(x: &Ctx) -> Result<(), ValidateError> {
    let (out, want) = (x.out, &x.want);
    if out.by_nodes.keys().ne(want.keys()) {
        return Err(ValidateError::from(format!(
            "by_nodes has node counts {:?}, but the shard's trees have {:?}",
            out.by_nodes.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>()
        )));
    }
    Ok(())
}

/// Per node count: trees, positions, non-cold and subjects per group as the
/// shard's trees give them; the value tally summing to the positions.
fn rows(x: &Ctx) -> Result<(), ValidateError> {
    let (out, want) = (x.out, &x.want);
    for (n, c) in &out.by_nodes {
        let w = &want[n];
        let at = |f: &str| format!("by_nodes[{n}].{f}");
        if c.trees != w.trees {
            return Err(ValidateError::from(format!(
                "{} is {}, but the shard has {} trees on {n} nodes",
                at("trees"),
                c.trees,
                w.trees
            )));
        }
        if c.positions != w.positions {
            return Err(ValidateError::from(format!(
                "{} is {}, not {} trees × 3^{}",
                at("positions"),
                c.positions,
                w.trees,
                n - 1
            )));
        }
        if c.non_cold > c.positions {
            return Err(ValidateError::from(format!(
                "{} is {}, above positions = {}",
                at("non_cold"),
                c.non_cold,
                c.positions
            )));
        }
        if c.groups.keys().ne(w.groups.keys()) {
            return Err(ValidateError::from(format!(
                "{} has {:?}, but the shard's trees on {n} nodes have {:?}",
                at("groups"),
                c.groups.keys().map(|g| g.label()).collect::<Vec<_>>(),
                w.groups.keys().map(|g| g.label()).collect::<Vec<_>>()
            )));
        }
        for (g, gc) in &c.groups {
            let subjects = w.groups[g].subjects;
            if gc.subjects != subjects || gc.exceptions > subjects {
                return Err(ValidateError::from(format!(
                    "{}[{}]: {} subjects and {} exceptions, but the shard's trees have {subjects} subjects",
                    at("groups"),
                    g.label(),
                    gc.subjects,
                    gc.exceptions
                )));
            }
        }
        let sum = out.values.counts.get(n).map_or(Some(0), |m| {
            m.values().try_fold(0u64, |a, &b| a.checked_add(b))
        });
        if sum != Some(c.positions) {
            return Err(ValidateError::from(format!(
                "values.counts[{n}] sums to {sum:?}, not by_nodes[{n}].positions = {}",
                c.positions
            )));
        }
    }
    Ok(())
}

fn work(x: &Ctx) -> Result<(), ValidateError> {
    let out = x.out;
    let work: u64 = out.by_nodes.values().map(|c| c.positions).sum();
    if out.work != work {
        return Err(ValidateError::from(format!(
            "work is {}, not the {work} positions of the shard's trees",
            out.work
        )));
    }
    Ok(())
}

/// The value tallies' node counts and denominators, one smallest position
/// per value.
fn value_tallies(x: &Ctx) -> Result<(), ValidateError> {
    let (out, want) = (x.out, &x.want);
    if let Some(n) = out.values.counts.keys().find(|n| !want.contains_key(n)) {
        return Err(ValidateError::from(format!(
            "values.counts[{n}]: the shard has no tree on {n} nodes"
        )));
    }
    if let Some((n, m)) = out
        .values
        .max_denominator
        .iter()
        .find(|(n, m)| !want.contains_key(n) || !m.0.is_power_of_two())
    {
        return Err(ValidateError::from(format!(
            "values.max_denominator[{n}] is {}: not a power of two of a counted node count",
            m.0
        )));
    }
    let totals = out.values.totals();
    if out.values.smallest.len() != totals.len() {
        return Err(ValidateError::from(format!(
            "values.smallest has {} positions for {} values",
            out.values.smallest.len(),
            totals.len()
        )));
    }
    Ok(())
}

fn smallest_positions(x: &Ctx) -> Result<(), ValidateError> {
    let out = x.out;
    for (value, r) in &out.values.smallest {
        let what = format!("values.smallest[{value}]");
        if out
            .values
            .counts
            .get(&r.vertices)
            .and_then(|m| m.get(value))
            .is_none()
        {
            return Err(ValidateError::from(format!(
                "{what}: no position of value {value} on {} nodes is counted",
                r.vertices
            )));
        }
        x.record(&what, r)?;
    }
    Ok(())
}

/// The non-cold and exception record lists: as many as counted (to the
/// cap), each a colouring of one of the shard's trees.
fn record_lists(x: &Ctx) -> Result<(), ValidateError> {
    let out = x.out;
    let non_cold: u64 = out.by_nodes.values().map(|c| c.non_cold).sum();
    let exceptions = x.exceptions();
    let lists = std::iter::once(("non_cold".to_string(), &out.non_cold, non_cold)).chain(
        x.shape.groups().iter().filter_map(|g| {
            Some((
                format!("exceptions[{}]", g.label()),
                out.exceptions.get(g)?,
                exceptions.get(g).copied().unwrap_or(0),
            ))
        }),
    );
    for (what, rs, total) in lists {
        let rs = &rs.0;
        if rs.cap != crate::families::col::RECORD_CAP
            || rs.total != total
            || rs.kept.len() as u64 != total.min(crate::families::col::RECORD_CAP)
        {
            return Err(ValidateError::from(format!(
                "{what}: total {} with {} kept (cap {}), but {total} are counted (cap {})",
                rs.total,
                rs.kept.len(),
                rs.cap,
                crate::families::col::RECORD_CAP
            )));
        }
        for r in &rs.kept {
            x.record(&what, r)?;
        }
    }
    Ok(())
}

/// Exception lists only of the shape's groups, and one for every group with
/// exceptions counted.
fn exception_groups(x: &Ctx) -> Result<(), ValidateError> {
    let out = x.out;
    let exceptions = x.exceptions();
    if let Some(g) = out
        .exceptions
        .keys()
        .find(|g| !x.shape.groups().contains(g))
    {
        return Err(ValidateError::from(format!(
            "exceptions[{}]: not a group of {}",
            g.label(),
            x.shape.name()
        )));
    }
    for g in x.shape.groups() {
        if exceptions.get(g).copied().unwrap_or(0) > 0 && !out.exceptions.contains_key(g) {
            return Err(ValidateError::from(format!(
                "exceptions[{}] is missing, but exceptions are counted",
                g.label()
            )));
        }
    }
    Ok(())
}
