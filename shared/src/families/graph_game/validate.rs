//! Validation of a layered shard's result ([`crate::sweep::Kind::validate`])
//! and its recount ([`crate::sweep::Kind::recount`]).

use super::graphs::{factorial, Class, Graph};
use super::model::{
    max_degree, parse_dyadic, GameOutput, GameShard, Layered, Spot, COUNTEREXAMPLE_CAP,
    RESOLVE_SAMPLE,
};
use super::{GraphGame, Play, Solver, Value};
use crate::sweep::ValidateError;
use std::collections::BTreeMap;

/// A position re-solved: its value, whether it has the game's property,
/// and its graph's maximum degree.
struct Resolved {
    value: Value,
    ok: bool,
    degree: u32,
}

/// Re-solve the position at `spot`, after checking that the graph decodes,
/// has the size claimed, belongs to the class and has that position.
fn resolve<G: GraphGame>(
    k: &Layered<G>,
    p: &Class,
    spot: &Spot,
    field: &str,
) -> Result<Resolved, ValidateError> {
    let g = Graph::parse(&spot.code, G::DIRECTED)
        .map_err(|e| ValidateError::new(field, format!("`{:.40}`: {e}", spot.code)))?;
    if g.n() != spot.n as usize || g.edge_count() != spot.edges as usize {
        return Err(ValidateError::new(
            field,
            format!(
                "`{}` has {} vertices and {} edges, not {} and {}",
                spot.code,
                g.n(),
                g.edge_count(),
                spot.n,
                spot.edges
            ),
        ));
    }
    if !p.admits(&g) {
        return Err(ValidateError::new(
            field,
            format!("`{}` is not in the class swept", spot.code),
        ));
    }
    let ps = k.0.positions(&g);
    let Some(pos) = ps.get(spot.position as usize) else {
        return Err(ValidateError::new(
            field,
            format!(
                "position {} of `{}`, which has {}",
                spot.position,
                spot.code,
                ps.len()
            ),
        ));
    };
    let mut s = Solver::<G>::default();
    let value = s.value(&k.0, &g, pos);
    let ok = k.0.check(&g, pos, &value);
    Ok(Resolved {
        value,
        ok,
        degree: max_degree(&g),
    })
}

/// Consistent counts, value keys and witnesses; a bounded sample of the
/// witnesses re-solved.
pub fn validate<G: GraphGame>(
    k: &Layered<G>,
    p: &Class,
    shard: &GameShard,
    out: &GameOutput,
) -> Result<(), ValidateError> {
    k.class(p).map_err(|e| ValidateError::new("params", e))?;
    let rows = match *shard {
        GameShard::Graphs(_) => p.min_n..=p.max_n,
        GameShard::Digraphs { n, .. } => n..=n,
    };
    let mut positions = 0u64;
    let mut values: BTreeMap<&str, u64> = BTreeMap::new();
    for (&n, c) in &out.by_n {
        let f = |x: &str| format!("by_n[{n}].{x}");
        if !rows.contains(&(n as usize)) {
            return Err(ValidateError::new(
                format!("by_n[{n}]"),
                format!("{n} vertices, but the shard holds {rows:?}"),
            ));
        }
        let most = c.graphs.saturating_mul(factorial(n as usize));
        if c.labelled_graphs < c.graphs || c.labelled_graphs > most {
            return Err(ValidateError::new(
                f("labelled_graphs"),
                format!(
                    "{} for {} graphs (must be within graphs..=graphs·n!)",
                    c.labelled_graphs, c.graphs
                ),
            ));
        }
        let (mut sum, mut lab) = (0u64, 0u64);
        for (v, t) in &c.values {
            if t.positions == 0 || t.labelled_positions < t.positions {
                return Err(ValidateError::new(
                    f(&format!("values[{v:?}]")),
                    format!(
                        "{} positions, {} labelled",
                        t.positions, t.labelled_positions
                    ),
                ));
            }
            sum = sum.saturating_add(t.positions);
            lab = lab.saturating_add(t.labelled_positions);
            *values.entry(v).or_default() += t.positions;
        }
        if sum != c.all.positions || lab != c.all.labelled_positions {
            return Err(ValidateError::new(
                f("all"),
                format!(
                    "{} positions ({} labelled), but the values add up to {sum} ({lab})",
                    c.all.positions, c.all.labelled_positions
                ),
            ));
        }
        if c.counterexamples > c.all.positions {
            return Err(ValidateError::new(
                f("counterexamples"),
                format!("{} of {} positions", c.counterexamples, c.all.positions),
            ));
        }
        positions = positions.saturating_add(c.all.positions);
    }
    if out.work != positions {
        return Err(ValidateError::new(
            "work",
            format!("{}, but {positions} positions are counted", out.work),
        ));
    }
    let named: Vec<&str> = out
        .smallest
        .iter()
        .filter(|(_, s)| s.0.is_some())
        .map(|(v, _)| v.as_str())
        .collect();
    let counted: Vec<&str> = values.keys().copied().collect();
    if named != counted {
        return Err(ValidateError::new(
            "smallest",
            format!("witnesses for values {named:?}, but positions of values {counted:?}"),
        ));
    }
    let total: u64 = out.by_n.values().map(|c| c.counterexamples).sum();
    let shown = out.counterexamples.len() as u64;
    if shown > COUNTEREXAMPLE_CAP as u64
        || shown > total
        || (total > 0 && shown == 0)
        || out.counterexamples.windows(2).any(|w| w[0] >= w[1])
    {
        return Err(ValidateError::new(
            "counterexamples",
            format!("{shown} shown (sorted, at most {COUNTEREXAMPLE_CAP}) of {total} counted"),
        ));
    }
    temperatures(k, p, shard, out, &counted)?;
    for (i, (v, s)) in out.smallest.iter().enumerate() {
        let Some(spot) = &s.0 else { continue };
        let field = format!("smallest[{v:?}]");
        if !out
            .by_n
            .get(&spot.n)
            .is_some_and(|c| c.values.contains_key(v))
        {
            return Err(ValidateError::new(
                field,
                format!("on {} vertices, where no position has that value", spot.n),
            ));
        }
        in_shard(shard, spot, &field)?;
        if i < RESOLVE_SAMPLE {
            let got = resolve(k, p, spot, &field)?.value;
            let temperature = got.temperature.map(|t| t.to_string());
            if got.text != *v || temperature.as_ref() != out.temperatures.get(v) {
                return Err(ValidateError::new(
                    field,
                    format!(
                        "`{}` position {} has value {} (temperature {})",
                        spot.code,
                        spot.position,
                        got.text,
                        temperature.as_deref().unwrap_or("none")
                    ),
                ));
            }
        }
    }
    for (i, c) in out.counterexamples.iter().enumerate() {
        let field = format!("counterexamples[{i}]");
        in_shard(shard, &c.spot, &field)?;
        let r = resolve(k, p, &c.spot, &field)?;
        let (got, ok) = (r.value.text, r.ok);
        if got != c.value || ok {
            return Err(ValidateError::new(
                field,
                format!(
                    "`{}` position {} has value {got} and {} the property",
                    c.spot.code,
                    c.spot.position,
                    if ok { "has" } else { "fails" }
                ),
            ));
        }
    }
    Ok(())
}

/// A partizan game's temperatures: one readable temperature for each value
/// counted (none for an impartial game), and each vertex count's records
/// (largest temperature, largest temperature ÷ maximum degree) re-solved.
fn temperatures<G: GraphGame>(
    k: &Layered<G>,
    p: &Class,
    shard: &GameShard,
    out: &GameOutput,
    counted: &[&str],
) -> Result<(), ValidateError> {
    let keys: Vec<&str> = out.temperatures.keys().map(String::as_str).collect();
    let want: &[&str] = if G::PLAY == Play::Partizan {
        counted
    } else {
        &[]
    };
    if keys != want {
        return Err(ValidateError::new(
            "temperatures",
            format!("temperatures of values {keys:?}, but positions of values {want:?}"),
        ));
    }
    if let Some((v, t)) = out
        .temperatures
        .iter()
        .find(|(_, t)| parse_dyadic(t).is_none())
    {
        return Err(ValidateError::new(
            format!("temperatures[{v:?}]"),
            format!("`{t:.40}` is not a dyadic rational"),
        ));
    }
    let records = out.by_n.iter().flat_map(|(&n, c)| {
        [
            (n, "hottest", false, &c.hottest),
            (n, "hottest_per_degree", true, &c.hottest_per_degree),
        ]
    });
    for (n, name, per_degree, h) in records {
        let Some(h) = h else { continue };
        let field = format!("by_n[{n}].{name}");
        if G::PLAY == Play::Impartial || h.spot.n != n || h.key(per_degree).is_none() {
            return Err(ValidateError::new(
                field,
                format!(
                    "temperature `{:.40}`, maximum degree {}, on {} vertices",
                    h.temperature, h.max_degree, h.spot.n
                ),
            ));
        }
        in_shard(shard, &h.spot, &field)?;
        let r = resolve(k, p, &h.spot, &field)?;
        let t = r.value.temperature.map(|t| t.to_string());
        if r.value.text != h.value
            || t.as_ref() != Some(&h.temperature)
            || r.degree != h.max_degree
            || out.temperatures.get(&h.value) != Some(&h.temperature)
        {
            return Err(ValidateError::new(
                field,
                format!(
                    "`{}` position {} has value {}, temperature {}, maximum degree {}",
                    h.spot.code,
                    h.spot.position,
                    r.value.text,
                    t.as_deref().unwrap_or("none"),
                    r.degree
                ),
            ));
        }
    }
    Ok(())
}

/// A digraph witness must lie in its shard's code range (an undirected
/// one is checked against the walk by [`recount`]).
fn in_shard(shard: &GameShard, spot: &Spot, field: &str) -> Result<(), ValidateError> {
    if let GameShard::Digraphs { n, lo, hi } = *shard {
        let g = Graph::parse(&spot.code, true)
            .map_err(|e| ValidateError::new(field, format!("`{:.40}`: {e}", spot.code)))?;
        let code = super::graphs::code_of(&g);
        if g.n() != n || !(lo..hi).contains(&code) {
            return Err(ValidateError::new(
                field,
                format!(
                    "`{}` (code {code}) is outside the shard's {n} vertices, {lo}..{hi}",
                    spot.code
                ),
            ));
        }
    }
    Ok(())
}

/// Walk the shard's graphs again (no solving): graphs and labelled graphs
/// per n as counted, and every witness among the graphs walked.
pub fn recount<G: GraphGame>(
    k: &Layered<G>,
    p: &Class,
    shard: &GameShard,
    out: &GameOutput,
) -> Result<(), ValidateError> {
    let mut want: BTreeMap<&str, usize> = BTreeMap::new();
    for s in out.smallest.values().filter_map(|s| s.0.as_ref()) {
        want.insert(&s.code, 0);
    }
    for c in &out.counterexamples {
        want.insert(&c.spot.code, 0);
    }
    for c in out.by_n.values() {
        for h in [&c.hottest, &c.hottest_per_degree].into_iter().flatten() {
            want.insert(&h.spot.code, 0);
        }
    }
    let mut counts: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    k.graphs(p, shard, &mut |g, aut| {
        let c = counts.entry(g.n() as u32).or_default();
        c.0 += 1;
        c.1 += factorial(g.n()) / aut.max(1);
        if !want.is_empty() {
            if let Some(seen) = want.get_mut(g.code().as_str()) {
                *seen += 1;
            }
        }
        true
    })
    .map_err(|e| ValidateError::new("shard", e))?;
    for (n, c) in &out.by_n {
        let (graphs, labelled) = counts.get(n).copied().unwrap_or_default();
        if (c.graphs, c.labelled_graphs) != (graphs, labelled) {
            return Err(ValidateError::new(
                format!("by_n[{n}].graphs"),
                format!(
                    "{} graphs ({} labelled), but the shard holds {graphs} ({labelled})",
                    c.graphs, c.labelled_graphs
                ),
            ));
        }
    }
    for (n, (graphs, _)) in &counts {
        if *graphs > 0 && !out.by_n.contains_key(n) {
            return Err(ValidateError::new(
                format!("by_n[{n}]"),
                format!("missing; the shard holds {graphs} graphs on {n} vertices"),
            ));
        }
    }
    if let Some((code, _)) = want.iter().find(|(_, &seen)| seen == 0) {
        return Err(ValidateError::new(
            "smallest",
            format!("witness `{code}` is not a graph of this shard"),
        ));
    }
    Ok(())
}
