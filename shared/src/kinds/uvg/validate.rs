//! [`Kind::validate`] and [`Kind::recount`] of `uvg`: a shard's result checked
//! without re-running it, and recounted by re-running it.

use super::*;
use crate::gen::count;
use crate::sweep::{run_checks, TruthCheck};

/// A witness graph `code` claimed to have `n` vertices and `edges` edges,
/// decoded and checked: within the budget, connected, and (for a prefix
/// shard) one of the shard's prefixes on its first `depth` vertices: the
/// generator appends vertices, so that is the graph's chain of parents.
fn witness_graph(
    what: &str,
    code: &str,
    n: usize,
    edges: Option<u32>,
    walk: &graphplan::Walk,
    prefixes: &[String],
) -> Result<BitGraph, ValidateError> {
    let (vertices, _) = graph6::decode(code).map_err(|e| format!("{what}: `{code:.40}`: {e}"))?;
    if vertices > WITNESS_BUDGET_N {
        return Err(ValidateError::from(format!(
            "{what}: witness on {vertices} vertices exceeds the validation budget ({WITNESS_BUDGET_N})"
        )));
    }
    let g = graph6::parse_bitgraph(code).map_err(|e| format!("{what}: `{code}`: {e}"))?;
    if g.n() != n {
        return Err(ValidateError::from(format!(
            "{what}: `{code}` has {} vertices, not {n}",
            g.n()
        )));
    }
    if edges.is_some_and(|m| m as usize != g.edge_count()) {
        return Err(ValidateError::from(format!(
            "{what}: `{code}` has {} edges, not {}",
            g.edge_count(),
            edges.unwrap_or(0)
        )));
    }
    if !g.is_connected() {
        return Err(ValidateError::from(format!(
            "{what}: `{code}` is not connected"
        )));
    }
    if let graphplan::Walk::Prefixes(ps) = walk {
        let depth = ps[0].n();
        let head = graph6::encode_bitgraph(&g.induced((1u32 << depth) - 1));
        if !prefixes.contains(&head) {
            return Err(ValidateError::from(format!(
                "{what}: `{code}` is not in this shard (its first {depth} vertices are `{head}`, not one of the shard's prefixes)"
            )));
        }
    }
    Ok(g)
}

/// Check a record set of a shard: at most `cap` kept, no more kept than
/// counted, at most `limit` counted.
fn check_set(what: &str, r: &RecordSet, cap: u64, limit: u64) -> Result<(), ValidateError> {
    if r.cap != cap {
        return Err(ValidateError::from(format!(
            "{what}.cap is {}, not {cap}",
            r.cap
        )));
    }
    if r.kept.len() as u64 > r.total.min(cap) {
        return Err(ValidateError::from(format!(
            "{what} keeps {} records of {} counted (cap {cap})",
            r.kept.len(),
            r.total
        )));
    }
    if r.total > limit {
        return Err(ValidateError::from(format!(
            "{what}.total is {}, above {limit}",
            r.total
        )));
    }
    Ok(())
}

/// [`Kind::validate`] for `uvg`: see there.
/// The shard's graphs counted again by enumerating them (no solving): the
/// graphs on each number of vertices, and of those the ones of maximum
/// degree ≤ 3, must be what `out` says.
pub(super) fn recount(
    params: &UvgParams,
    shard: &GraphShard,
    out: &UvgOutput,
) -> Result<(), ValidateError> {
    params.check().map_err(|e| e.to_string())?;
    let walk = shard.decode("uvg").map_err(|e| e.to_string())?;
    let max_n = params.max_n;
    let mut graphs = vec![0u64; max_n + 1];
    let mut degree3 = vec![0u64; max_n + 1];
    graphplan::walk_tree(&walk, max_n, &mut |g, counted| {
        if counted {
            graphs[g.n()] += 1;
            degree3[g.n()] += u64::from(g.max_degree() <= 3);
        }
    });
    let empty = UvgCounts::default();
    for n in 1..=max_n {
        let c = out.by_n.get(&n).unwrap_or(&empty);
        for (field, said, counted) in [
            ("graphs", c.graphs, graphs[n]),
            ("degree3.graphs", c.degree3.graphs, degree3[n]),
        ] {
            if said != counted {
                return Err(ValidateError::from(format!(
                    "by_n[{n}].{field} is {said}, but the shard holds {counted}"
                )));
            }
        }
    }
    Ok(())
}

/// The shard's walk, the vertex counts its graphs have (`lo`, `hi`), and
/// its prefixes (none for a top or split shard).
type Reach<'a> = (graphplan::Walk, usize, usize, &'a [String]);

fn reach<'a>(params: &UvgParams, shard: &'a GraphShard) -> Result<Reach<'a>, ValidateError> {
    let walk = shard.decode("uvg").map_err(|e| e.to_string())?;
    let (lo, hi, prefixes) = match (&walk, shard) {
        (graphplan::Walk::Top { depth }, _) => (1, (*depth - 1).min(params.max_n), &[][..]),
        (graphplan::Walk::Prefixes(ps), GraphShard::Prefixes { prefixes, .. }) => {
            (ps[0].n().max(1), params.max_n, &prefixes[..])
        }
        (graphplan::Walk::Split(_), _) => (1, params.max_n, &[][..]),
        _ => unreachable!("decode keeps the shard's variant"),
    };
    Ok((walk, lo, hi, prefixes))
}

/// [`crate::sweep::Kind::rows`]: the vertex counts of the shard's graphs.
pub(super) fn rows(
    params: &UvgParams,
    shard: &GraphShard,
) -> Option<std::ops::RangeInclusive<usize>> {
    let (_, lo, hi, _) = reach(params, shard).ok()?;
    Some(lo..=hi)
}

/// [`Kind::validate`] for `uvg`: every row of the result through [`ROW_CHECKS`],
/// then the extension's figures.
pub(super) fn validate(
    params: &UvgParams,
    shard: &GraphShard,
    out: &UvgOutput,
) -> Result<(), ValidateError> {
    params.check().map_err(|e| e.to_string())?;
    let (walk, lo, hi, prefixes) = reach(params, shard)?;
    for (&n, c) in &out.by_n {
        let row = Row {
            params,
            n,
            c,
            lo,
            hi,
            walk: &walk,
            prefixes,
        };
        run_checks(ROW_CHECKS, &row)?;
    }
    validate_extension(params, &out.extension)
}

/// One row of a shard's result (`by_n[n]`) and what its checks read.
struct Row<'a> {
    params: &'a UvgParams,
    n: usize,
    c: &'a UvgCounts,
    /// The vertex counts the shard's graphs have.
    lo: usize,
    hi: usize,
    walk: &'a graphplan::Walk,
    prefixes: &'a [String],
}

impl Row<'_> {
    /// `by_n[n].FIELD`, as messages name a field.
    fn at(&self, field: &str) -> String {
        format!("by_n[{}].{field}", self.n)
    }

    /// The witness graph `code` of `what`, checked to be one of this row's.
    fn witness(&self, what: &str, code: &str, edges: u32) -> Result<BitGraph, ValidateError> {
        witness_graph(what, code, self.n, Some(edges), self.walk, self.prefixes)
    }
}

/// A named check of a row (see [`run_checks`]).
type Check = (&'static str, fn(&Row<'_>) -> Result<(), ValidateError>);

/// The checks of one row, in order; the first to fail refuses the result.
const ROW_CHECKS: &[Check] = &[
    ("in the shard", in_the_shard),
    ("graphs and positions", graphs_and_positions),
    ("grundy histogram", grundy_histogram),
    ("cover histogram", cover_histogram),
    ("matching test", matching_test),
    ("degree3", degree3),
    ("collected", collected),
    ("witnesses", witnesses),
    ("cover witnesses", cover_witnesses),
    ("kept records", kept_records),
];

/// The sum of a histogram, `None` past `u64`.
fn total(m: &BTreeMap<u8, u64>) -> Option<u64> {
    m.values().try_fold(0u64, |a, &b| a.checked_add(b))
}

fn in_the_shard(r: &Row) -> Result<(), ValidateError> {
    let (n, lo, hi) = (r.n, r.lo, r.hi);
    if n < lo || n > hi {
        return Err(ValidateError::from(format!(
            "by_n[{n}]: this shard only has graphs on {lo}..={hi} vertices"
        )));
    }
    Ok(())
}

fn graphs_and_positions(r: &Row) -> Result<(), ValidateError> {
    let (n, c) = (r.n, r.c);
    if c.graphs == 0 || c.graphs > count::connected_bound(n) {
        return Err(ValidateError::from(format!(
            "{} is {}: there are 1..={} connected graphs on {n} vertices",
            r.at("graphs"),
            c.graphs,
            count::connected_bound(n)
        )));
    }
    if c.positions != c.graphs * n as u64 {
        return Err(ValidateError::from(format!(
            "{} is {}, not {n} × {} graphs",
            r.at("positions"),
            c.positions,
            c.graphs
        )));
    }
    Ok(())
}

fn grundy_histogram(r: &Row) -> Result<(), ValidateError> {
    let (n, c) = (r.n, r.c);
    if let Some((&v, _)) = c.grundy.range(n as u8..).next() {
        return Err(ValidateError::from(format!(
            "{}: value {v} on {n} vertices (a start's value is below its degree + 1 ≤ {n})",
            r.at("grundy")
        )));
    }
    if total(&c.grundy) != Some(c.positions) {
        return Err(ValidateError::from(format!(
            "{} sums to {:?}, not positions = {}",
            r.at("grundy"),
            total(&c.grundy),
            c.positions
        )));
    }
    Ok(())
}

fn cover_histogram(r: &Row) -> Result<(), ValidateError> {
    let (n, c) = (r.n, r.c);
    if let Some((&t, _)) = c.cover.range(n as u8 + 1..).next() {
        return Err(ValidateError::from(format!(
            "{}: t = {t} on {n} vertices",
            r.at("cover")
        )));
    }
    if total(&c.cover) != Some(c.graphs) {
        return Err(ValidateError::from(format!(
            "{} sums to {:?}, not graphs = {}",
            r.at("cover"),
            total(&c.cover),
            c.graphs
        )));
    }
    Ok(())
}

/// The first-player wins counted, and the matching test against value ≠ 0:
/// they agree except at the exceptions.
fn matching_test(r: &Row) -> Result<(), ValidateError> {
    let c = r.c;
    if c.first_player_wins > c.positions {
        return Err(ValidateError::from(format!(
            "{} is {}, above positions = {}",
            r.at("first_player_wins"),
            c.first_player_wins,
            c.positions
        )));
    }
    check_set(
        &r.at("matching_exceptions"),
        &c.matching_exceptions,
        EXCEPTION_CAP,
        c.positions,
    )?;
    let nonzero = c.positions - c.grundy.get(&0).copied().unwrap_or(0);
    if c.first_player_wins.abs_diff(nonzero) > c.matching_exceptions.total {
        return Err(ValidateError::from(format!(
            "{} is {} but {nonzero} positions have a non-zero value and only {} are matching exceptions",
            r.at("first_player_wins"),
            c.first_player_wins,
            c.matching_exceptions.total
        )));
    }
    Ok(())
}

fn degree3(r: &Row) -> Result<(), ValidateError> {
    let (n, c, d) = (r.n, r.c, &r.c.degree3);
    if d.graphs > c.graphs || d.positions != d.graphs * n as u64 {
        return Err(ValidateError::from(format!(
            "{}: {} graphs and {} positions, of {} graphs on {n} vertices",
            r.at("degree3"),
            d.graphs,
            d.positions,
            c.graphs
        )));
    }
    if d.max_win_lose_tests.0 > d.win_lose_tests || (d.positions == 0 && d.win_lose_tests > 0) {
        return Err(ValidateError::from(format!(
            "{}: max {} of {} tests over {} positions",
            r.at("degree3.win_lose_tests"),
            d.max_win_lose_tests.0,
            d.win_lose_tests,
            d.positions
        )));
    }
    check_set(
        &r.at("degree3_exceptions"),
        &c.degree3_exceptions,
        EXCEPTION_CAP,
        d.positions,
    )
}

fn collected(r: &Row) -> Result<(), ValidateError> {
    let c = r.c;
    let collected: u64 = match r.params.collect_min_value {
        0 => 0,
        k => c.grundy.range(k..).map(|(_, &x)| x).sum(),
    };
    check_set(&r.at("collected"), &c.collected, u64::MAX, collected)?;
    if c.collected.total != collected {
        return Err(ValidateError::from(format!(
            "{}.total is {}, but {collected} positions have a value ≥ {}",
            r.at("collected"),
            c.collected.total,
            r.params.collect_min_value
        )));
    }
    Ok(())
}

/// One witness per value counted: in the shard, and of the value claimed
/// (re-solved).
fn witnesses(r: &Row) -> Result<(), ValidateError> {
    let (n, c) = (r.n, r.c);
    for (&v, w) in &c.witnesses {
        let what = format!("{}[{v}]", r.at("witnesses"));
        let Some(w) = &w.0 else {
            return Err(ValidateError::from(format!("{what} is empty")));
        };
        if !c.grundy.contains_key(&v) {
            return Err(ValidateError::from(format!(
                "{what}: no position of value {v} is counted"
            )));
        }
        let g = r.witness(&what, &w.graph6, w.edges)?;
        let values = uvg::grundy_all(&g);
        match values.get(w.start as usize) {
            Some(&x) if x == v => {}
            Some(&x) => {
                return Err(ValidateError::from(format!(
                    "{what}: `{}` start {} has value {x}, not {v}",
                    w.graph6, w.start
                )))
            }
            None => {
                return Err(ValidateError::from(format!(
                    "{what}: start {} ≥ {n}",
                    w.start
                )))
            }
        }
    }
    if c.witnesses.len() != c.grundy.len() {
        return Err(ValidateError::from(format!(
            "{}: {} witnesses for {} values",
            r.at("witnesses"),
            c.witnesses.len(),
            c.grundy.len()
        )));
    }
    Ok(())
}

/// One witness per cover size t ≥ 3 counted, re-solved to cover 0..t.
fn cover_witnesses(r: &Row) -> Result<(), ValidateError> {
    let c = r.c;
    for (&k, w) in &c.cover_witnesses {
        let what = format!("{}[{k}]", r.at("cover_witnesses"));
        let Some(w) = &w.0 else {
            return Err(ValidateError::from(format!("{what} is empty")));
        };
        if k < 3 || c.cover.range(k..).next().is_none() {
            return Err(ValidateError::from(format!(
                "{what}: no graph with t ≥ {k} is counted"
            )));
        }
        let g = r.witness(&what, &w.graph6, w.edges)?;
        let mask = uvg::grundy_all(&g).iter().fold(0u32, |m, &x| m | 1 << x);
        if (mask.trailing_ones() as u8) < k {
            return Err(ValidateError::from(format!(
                "{what}: `{}` does not have starts of every value 0..{}",
                w.graph6,
                k - 1
            )));
        }
    }
    let with_cover = c.cover.range(3..).map(|(&t, _)| t).max().unwrap_or(0);
    if c.cover_witnesses.len() != with_cover.saturating_sub(2) as usize {
        return Err(ValidateError::from(format!(
            "{}: {} witnesses, but graphs with t up to {with_cover} are counted",
            r.at("cover_witnesses"),
            c.cover_witnesses.len()
        )));
    }
    Ok(())
}

/// The kept records: in the shard, and of the values their notes claim.
fn kept_records(r: &Row) -> Result<(), ValidateError> {
    let (n, c) = (r.n, r.c);
    let sets = [
        ("matching_exceptions", &c.matching_exceptions),
        ("degree3_exceptions", &c.degree3_exceptions),
        ("collected", &c.collected),
    ];
    for (name, set) in sets {
        for (i, rec) in set.kept.iter().enumerate() {
            let what = format!("{}.kept[{i}]", r.at(name));
            if rec.vertices as usize != n {
                return Err(ValidateError::from(format!(
                    "{what}: {} vertices under n = {n}",
                    rec.vertices
                )));
            }
            let g = r.witness(&what, &rec.code, rec.edges)?;
            let s = rec.index as usize;
            if s >= n {
                return Err(ValidateError::from(format!("{what}: start {s} ≥ {n}")));
            }
            let val = uvg::grundy_all(&g)[s];
            if !record_holds(name, &g, s, val, &rec.note, r.params) {
                return Err(ValidateError::from(format!(
                    "{what}: `{}` start {s} (value {val}) is not what `{}` says",
                    rec.code, rec.note
                )));
            }
        }
    }
    Ok(())
}

/// Whether a kept record of set `name` (start `s` of `g`, of value `val`)
/// is what its `note` says.
fn record_holds(
    name: &str,
    g: &BitGraph,
    s: usize,
    val: u8,
    note: &str,
    params: &UvgParams,
) -> bool {
    match name {
        "matching_exceptions" => {
            let wins = uvg::first_player_wins_all(g) >> s & 1 == 1;
            wins != (val != 0)
                && note == format!("exact={val} matching_says_first_player_wins={wins}")
        }
        "degree3_exceptions" => {
            g.max_degree() <= 3
                && uvg::degree3::grundy_degree3(g, s, g.all())
                    .is_some_and(|(d, _)| d != val && note == format!("exact={val} degree3={d}"))
        }
        _ => val >= params.collect_min_value && note == format!("grundy={val}"),
    }
}

/// The smallest-*k search's figures against its records: every D re-solved
/// and feeding the case it is counted in, the number of sets T recounted,
/// the other counters consistent, the witness re-solved to value k.
fn validate_extension(params: &UvgParams, e: &ExtensionCounts) -> Result<(), ValidateError> {
    let k = params.extension_value;
    if k == 0 {
        return match e.is_empty() {
            true => Ok(()),
            false => Err("extension: figures of a search that was not asked for".into()),
        };
    }
    let (mut a, mut b, mut t) = (0u64, 0u64, 0u64);
    for rec in &e.graphs {
        let (d, case) = extension::check_record(k, params.max_n, rec)
            .map_err(|e| ValidateError::from(e.to_string()))?;
        match case {
            extension::Case::A => a += 1,
            extension::Case::B => b += 1,
        }
        t += extension::admissible_sets(k, case, &uvg::grundy_all(&d));
    }
    if (a, b, t) != (e.d_case_a, e.d_case_b, e.t_sets) {
        return Err(ValidateError::from(format!(
            "extension: {} + {} graphs D and {} sets T claimed, the records give {a} + {b} and {t}",
            e.d_case_a, e.d_case_b, e.t_sets
        )));
    }
    if e.c_exact > e.t_sets || e.hits > e.t_sets {
        return Err(ValidateError::from(format!(
            "extension: {} exact and {} hits out of {} sets T",
            e.c_exact, e.hits, e.t_sets
        )));
    }
    match (&e.witness.0, e.hits) {
        (None, 0) => Ok(()),
        (Some(w), h) if h > 0 => {
            let g = graph6::parse_bitgraph(&w.graph6)
                .map_err(|err| format!("extension.witness `{}`: {err}", w.graph6))?;
            let ok = g.n() == params.max_n + 2
                && w.start < g.n()
                && g.edge_count() == w.edges
                && uvg::grundy(&g, w.start, g.all()) == k;
            match ok {
                true => Ok(()),
                false => Err(ValidateError::from(format!(
                    "extension.witness `{}` start {} is not a *{k} on {} vertices",
                    w.graph6,
                    w.start,
                    params.max_n + 2
                ))),
            }
        }
        _ => Err(ValidateError::from(format!(
            "extension: {} hits but the witness is {}",
            e.hits,
            if e.witness.0.is_some() {
                "present"
            } else {
                "missing"
            }
        ))),
    }
}

/// [`crate::sweep::thousands`] for a `u128` count.
fn thousands128(n: u128) -> String {
    match u64::try_from(n) {
        Ok(n) => crate::sweep::thousands(n),
        Err(_) => n.to_string(),
    }
}

/// The cheap truths of a finished `uvg` document ([`crate::sweep::Kind::truths`]):
/// for every n, connected graphs = A001349(n) recomputed by
/// [`crate::gen::count`] (Burnside's lemma, no enumeration), and positions =
/// n × graphs (every vertex a start), for 1 ≤ n ≤ [`count::MAX_N`].
pub(super) fn truths(doc: &UvgDoc) -> Vec<TruthCheck> {
    let mut out = Vec::new();
    for row in &doc.by_n {
        let n = row.n as u64;
        let Some(want) = count::connected_graphs(n as u32) else {
            continue;
        };
        let (graphs, positions) = (row.graphs, row.positions);
        let ok = u128::from(graphs) == want && u128::from(positions) == u128::from(n) * want;
        out.push(TruthCheck {
            check: format!("uvg n = {n}: connected graphs = A001349({n}), positions = n × graphs"),
            ok,
            detail: if ok {
                format!(
                    "{}, {}",
                    crate::sweep::plural(graphs, "graph"),
                    crate::sweep::plural(positions, "position")
                )
            } else {
                format!(
                    "MISMATCH: the sweep counted {} and {} at n = {n}, but there are {} connected graphs on {n} vertices ({} positions): a result is wrong; re-run the sweep with `launch --replicate all` (or `gamesweep verify` its export with --fraction 1) and compare",
                    crate::sweep::plural(graphs, "graph"),
                    crate::sweep::plural(positions, "position"),
                    thousands128(want),
                    thousands128(u128::from(n) * want)
                )
            },
        });
    }
    out
}
