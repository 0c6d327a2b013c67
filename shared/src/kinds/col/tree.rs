//! `myopic-tree` (unordered binary trees, the 2016 conjecture) and
//! `myopic-rooted` (rooted trees, the child-count generalisation).
//!
//! Positions: every tree shape up to `--max-nodes`, arcs parent → child, root
//! uncoloured, each of the `3^(k−1)` colourings of the other nodes.
//! * `myopic-tree` subject: the root has exactly two children, both
//!   uncoloured; claim `G(T) = * + G(T1) + G(T2)`.
//! * `myopic-rooted` subject: the root has at least one child and all its
//!   children are uncoloured; claim `G(T) = * + Σ G(child subtree)`, grouped
//!   by the root's child count (1, 2, ≥3).
//!
//! Shards are lists of tree shapes (`n:i`, the `i`-th shape with `n` nodes in
//! [`TreeCatalogue`] order), balanced by position count.

use super::*;
use crate::col::trees::{RootedTree, TreeCatalogue};
use crate::col::{Board, Pos, Solver, SolverOptions};

use crate::sweep::{param, ParamDef, Params, LegacyRendered, ShardCtx, ShardSpec, SweepError, UntypedKind};
use std::fmt::Write as _;

/// The `myopic-tree` sweep kind.
pub struct MyopicTreeSweep;
/// The `myopic-rooted` sweep kind.
pub struct MyopicRootedSweep;

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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Binary,
    Rooted,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Binary => "myopic-tree",
            Variant::Rooted => "myopic-rooted",
        }
    }
    fn catalogue(self, max_nodes: usize) -> TreeCatalogue {
        match self {
            Variant::Binary => TreeCatalogue::new(max_nodes, 2),
            Variant::Rooted => TreeCatalogue::new(max_nodes, usize::MAX),
        }
    }
}

fn plan(v: Variant, params: &Params, target: u32) -> Result<Vec<ShardSpec>, SweepError> {
    let max_nodes = param(params, "max_nodes") as usize;
    let cat = v.catalogue(max_nodes);
    let mut items = Vec::new();
    for n in 1..=max_nodes {
        for i in 0..cat.count(n) {
            items.push((format!("{n}:{i}"), 3u64.pow(n as u32 - 1)));
        }
    }
    let shards = if target == 0 { 32 } else { target as usize };
    Ok(crate::sweep::numbered(
        balance(&items, shards)
            .into_iter()
            .map(|(list, est)| (list.join(" "), est)),
    ))
}

fn parse_items(
    v: Variant,
    payload: &str,
    cat: &TreeCatalogue,
) -> Result<Vec<(usize, usize)>, SweepError> {
    let bad = |reason: String| SweepError::BadShard {
        kind: v.name().into(),
        reason,
    };
    let mut out = Vec::new();
    for w in payload.split_ascii_whitespace() {
        let (n, i) = w
            .split_once(':')
            .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
            .ok_or_else(|| bad(format!("bad tree item `{w}`")))?;
        if n == 0 || i >= cat.count(n) {
            return Err(bad(format!("no tree `{w}` within --max-nodes")));
        }
        out.push((n, i));
    }
    Ok(out)
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

fn group_of(v: Variant, kids: usize) -> Option<&'static str> {
    match (v, kids) {
        (Variant::Binary, 2) => Some("subjects"),
        (Variant::Binary, _) => None,
        (Variant::Rooted, 0) => None,
        (Variant::Rooted, 1) => Some("children=1"),
        (Variant::Rooted, 2) => Some("children=2"),
        (Variant::Rooted, _) => Some("children>=3"),
    }
}

fn run(
    v: Variant,
    params: &Params,
    shard: &ShardSpec,
    ctx: &ShardCtx<'_>,
) -> Result<SweepResult, SweepError> {
    let max_nodes = param(params, "max_nodes") as usize;
    let cat = v.catalogue(max_nodes);
    let items = parse_items(v, &shard.payload, &cat)?;
    let mut solver = Solver::new(SolverOptions::default());
    let star = solver.engine.star();
    let mut out = SweepResult::default();
    let mut tally = ValueTally::default();
    for (n, i) in items {
        ctx.check()?;
        let t = cat.tree(n, i);
        let board = Board::myopic(n, &t.arcs());
        let code = t.digraph6();
        let kids = t.children(0);
        let sub = subtree_masks(&t);
        let kid_mask: u32 = kids.iter().map(|&k| 1u32 << k).sum();
        let group = group_of(v, kids.len());
        let edges = n - 1;
        let total = 3u64.pow(n as u32 - 1);
        out.count(format!("n={n:02}/trees"), 1);
        out.count(format!("n={n:02}/positions"), total);
        out.work += total;
        let (mut blue, mut red) = (0u32, 0u32);
        let mut subjects = 0u64;
        let mut non_cold = 0u64;
        for _ in 0..total {
            let pos = board.position_masks(blue, red);
            let g = solver.value(&board, pos);
            tally.add(n, g, edges, &code, blue, red);
            if !solver.engine.is_cold(g) {
                non_cold += 1;
                let s = solver.engine.display(g);
                out.record(
                    "non_cold",
                    RECORD_CAP,
                    position_record(n, edges, &code, blue, red, format!("value {s}")),
                );
            }
            if let Some(grp) = group {
                if (blue | red) & kid_mask == 0 {
                    subjects += 1;
                    let mut f = star;
                    for &k in &kids {
                        let gk = solver.value(&board, restrict(pos, sub[k]));
                        f = solver.engine.add(f, gk);
                    }
                    if f != g {
                        let (a, b) = (solver.engine.display(g), solver.engine.display(f));
                        out.record(
                            format!("{grp}/exceptions"),
                            RECORD_CAP,
                            position_record(
                                n,
                                edges,
                                &code,
                                blue,
                                red,
                                format!("value {a}, formula {b}"),
                            ),
                        );
                        out.count(format!("n={n:02}/{grp}/exceptions"), 1);
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
        if let Some(grp) = group {
            out.count(format!("n={n:02}/{grp}"), subjects);
        }
        out.count(format!("n={n:02}/non_cold"), non_cold);
        ctx.add_progress(total);
    }
    tally.emit(&mut solver.engine, &mut out);
    Ok(out)
}

#[inline]
fn restrict(p: Pos, s: u32) -> Pos {
    p.restrict(s)
}

fn groups(v: Variant) -> &'static [&'static str] {
    match v {
        Variant::Binary => &["subjects"],
        Variant::Rooted => &["children=1", "children=2", "children>=3"],
    }
}

fn render(v: Variant, params: &Params, r: &SweepResult) -> LegacyRendered {
    let max_nodes = param(params, "max_nodes") as usize;
    let g = |k: String| r.counter(&k);
    let mut rows = Vec::new();
    let mut md = String::new();
    let title = match v {
        Variant::Binary => "Myopic Col on unordered binary trees: G(T) = * + G(T1) + G(T2)",
        Variant::Rooted => "Myopic Col on rooted trees: G(T) = * + Σ G(child subtrees)",
    };
    let _ = writeln!(md, "# {title}\n");
    let _ = writeln!(md, "Trees up to {max_nodes} nodes, arcs parent → child, root uncoloured, every colouring of the other nodes.\n");
    let grs = groups(v);
    let mut header = "| nodes | trees | positions |".to_string();
    let mut sep = "|---|---|---|".to_string();
    for gname in grs {
        let _ = write!(header, " {gname} | exceptions |");
        sep.push_str("---|---|");
    }
    header.push_str(" distinct values | largest denominator | non-cold |");
    sep.push_str("---|---|---|");
    let _ = writeln!(md, "{header}\n{sep}");
    let mut tot = vec![0u64; 3 + 2 * grs.len()];
    for n in 1..=max_nodes {
        let trees = g(format!("n={n:02}/trees"));
        let positions = g(format!("n={n:02}/positions"));
        let non_cold = g(format!("n={n:02}/non_cold"));
        let maxden = r
            .maxima
            .get(&format!("n={n:02}/max_denominator"))
            .copied()
            .unwrap_or(0);
        let distinct = distinct_in(r, n);
        let mut row = json!({
            "nodes": n, "trees": trees, "positions": positions, "distinct_values": distinct,
            "largest_denominator": maxden, "non_cold": non_cold,
        });
        let mut line = format!("| {n} | {} | {} |", thousands(trees), thousands(positions));
        tot[0] += trees;
        tot[1] += positions;
        tot[2] += non_cold;
        for (j, gname) in grs.iter().enumerate() {
            let s = g(format!("n={n:02}/{gname}"));
            let e = g(format!("n={n:02}/{gname}/exceptions"));
            row[*gname] = json!({"subjects": s, "exceptions": e});
            let _ = write!(line, " {} | {} |", thousands(s), thousands(e));
            tot[3 + 2 * j] += s;
            tot[4 + 2 * j] += e;
        }
        let _ = write!(line, " {distinct} | {maxden} | {non_cold} |");
        let _ = writeln!(md, "{line}");
        rows.push(row);
    }
    let values = value_table(r);
    let maxden_all = (1..=max_nodes)
        .filter_map(|n| r.maxima.get(&format!("n={n:02}/max_denominator")).copied())
        .max()
        .unwrap_or(0);
    let mut line = format!(
        "| 1–{max_nodes} | {} | {} |",
        thousands(tot[0]),
        thousands(tot[1])
    );
    let mut totals = json!({"trees": tot[0], "positions": tot[1], "non_cold": tot[2],
        "distinct_values": values.len(), "largest_denominator": maxden_all});
    for (j, gname) in grs.iter().enumerate() {
        let _ = write!(
            line,
            " {} | {} |",
            thousands(tot[3 + 2 * j]),
            thousands(tot[4 + 2 * j])
        );
        totals[*gname] = json!({"subjects": tot[3 + 2 * j], "exceptions": tot[4 + 2 * j]});
    }
    let _ = write!(line, " {} | {maxden_all} | {} |", values.len(), tot[2]);
    let _ = writeln!(md, "{line}\n");
    let mut exceptions = serde_json::Map::new();
    for gname in grs {
        let key = format!("{gname}/exceptions");
        exceptions.insert(gname.to_string(), records_json(r, &key));
        if let Some(set) = r.records.get(&key) {
            let _ = writeln!(md, "## Exceptions ({gname}): {}\n", set.total);
            for x in &set.kept {
                let _ = writeln!(md, "- {}", record_md(x));
            }
            md.push('\n');
        }
    }
    if let Some(set) = r.records.get("non_cold") {
        let _ = writeln!(md, "## Non-cold positions: {}\n", set.total);
        for x in &set.kept {
            let _ = writeln!(md, "- {}", record_md(x));
        }
        md.push('\n');
    }
    let _ = writeln!(md, "## Values ({} distinct)\n", values.len());
    let _ = writeln!(md, "Smallest position of each value (fewest nodes, then digraph6, then colouring index; colouring: `.` uncoloured, `L` blue, `R` red; node 0 is the root).\n");
    let _ = writeln!(
        md,
        "| value | positions | smallest position |\n|---|---|---|"
    );
    let mut vals = Vec::new();
    for (s, c) in &values {
        let w = r.witnesses.get(&format!("value={s}"));
        let _ = writeln!(
            md,
            "| {s} | {} | {} |",
            thousands(*c),
            w.map_or(String::new(), |w| format!(
                "`{}` {} nodes, {}",
                w.code, w.vertices, w.detail
            ))
        );
        vals.push(json!({"value": s, "positions": c, "smallest": w.map(record_json)}));
    }
    LegacyRendered {
        results_json: json!({
            "kind": v.name(),
            "params": {"max_nodes": max_nodes},
            "by_nodes": rows,
            "totals": totals,
            "exceptions": exceptions,
            "non_cold": records_json(r, "non_cold"),
            "values": vals,
        }),
        report_md: md,
    }
}

impl UntypedKind for MyopicTreeSweep {
    fn name(&self) -> &'static str {
        "myopic-tree"
    }
    fn about(&self) -> &'static str {
        "Myopic Col on unordered binary trees: the 2016 conjecture G(T) = * + G(T1) + G(T2)"
    }
    fn params(&self) -> &'static [ParamDef] {
        TREE_PARAMS
    }
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        plan(Variant::Binary, params, target_shards)
    }
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        run(Variant::Binary, params, shard, ctx)
    }
    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        render(Variant::Binary, params, merged)
    }
}

impl UntypedKind for MyopicRootedSweep {
    fn name(&self) -> &'static str {
        "myopic-rooted"
    }
    fn about(&self) -> &'static str {
        "Myopic Col on rooted trees: G = * + sum of child subtrees when the root's children are uncoloured"
    }
    fn params(&self) -> &'static [ParamDef] {
        ROOTED_PARAMS
    }
    fn plan(&self, params: &Params, target_shards: u32) -> Result<Vec<ShardSpec>, SweepError> {
        plan(Variant::Rooted, params, target_shards)
    }
    fn run_shard(
        &self,
        params: &Params,
        shard: &ShardSpec,
        ctx: &ShardCtx<'_>,
    ) -> Result<SweepResult, SweepError> {
        run(Variant::Rooted, params, shard, ctx)
    }
    fn render(&self, params: &Params, merged: &SweepResult) -> LegacyRendered {
        render(Variant::Rooted, params, merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::legacy::{resolve_params, run_all_sequential};

    fn sweep(kind: &dyn UntypedKind, max_nodes: u64, shards: u32) -> SweepResult {
        let params = resolve_params(kind, &[("max_nodes".to_string(), max_nodes)].into()).unwrap();
        let plan = kind.plan(&params, shards).unwrap();
        run_all_sequential(kind, &params, &plan).unwrap()
    }

    #[test]
    fn binary_small_table() {
        let r = sweep(&MyopicTreeSweep, 7, 3);
        let c = |k: &str| r.counter(k);
        // spec: 3 nodes 2 trees 18 positions 1 subject; 5: 6 / 486 / 27; 7: 23 / 16,767 / 972
        assert_eq!(
            (c("n=03/trees"), c("n=03/positions"), c("n=03/subjects")),
            (2, 18, 1)
        );
        assert_eq!(
            (c("n=05/trees"), c("n=05/positions"), c("n=05/subjects")),
            (6, 486, 27)
        );
        assert_eq!(
            (c("n=07/trees"), c("n=07/positions"), c("n=07/subjects")),
            (23, 16_767, 972)
        );
        assert_eq!(records_total(&r, "subjects/exceptions"), 0);
        assert_eq!(records_total(&r, "non_cold"), 0);
        // smallest −1/2: 3 nodes; −3/4: 5 nodes; 1/4: 7 nodes
        assert_eq!(r.witnesses["value=-1/2"].vertices, 3);
        assert_eq!(r.witnesses["value=-3/4"].vertices, 5);
        assert_eq!(r.witnesses["value=1/4"].vertices, 7);
        // the plan does not change the result
        assert_eq!(sweep(&MyopicTreeSweep, 7, 1), r);
        let params =
            resolve_params(&MyopicTreeSweep, &[("max_nodes".to_string(), 7)].into()).unwrap();
        let out = MyopicTreeSweep.render(&params, &r);
        assert_eq!(out.results_json["by_nodes"][2]["positions"], 18);
        assert!(out.report_md.contains("| 7 | 23 | 16,767 | 972 | 0 |"));
    }

    #[test]
    fn rooted_small_counts() {
        let r = sweep(&MyopicRootedSweep, 6, 2);
        let total: u64 = (1..=6)
            .map(|n| r.counter(&format!("n={n:02}/positions")))
            .sum();
        // A000081 trees × 3^(k−1): 1 + 3 + 2·9 + 4·27 + 9·81 + 20·243
        assert_eq!(total, 1 + 3 + 18 + 108 + 729 + 4860);
        for g in groups(Variant::Rooted) {
            assert_eq!(records_total(&r, &format!("{g}/exceptions")), 0);
        }
    }
}
