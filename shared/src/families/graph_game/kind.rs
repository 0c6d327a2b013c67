//! The `Kind` impl of [`Layered`]: plan, run, validation, documents and
//! the cheap truths, from the types of `model.rs`.

use super::graphs::{digraph_codes, Class, UNBOUNDED_DEGREE, UNBOUNDED_EDGES};
use super::model::{
    cmp_values, parse_dyadic, Defs, GameDoc, GameFacts, GameOutput, GameShard, Hottest, HottestDoc,
    Layered, RowDoc, TemperatureDoc, ValueDoc, WitnessDoc,
};
use super::{validate, GraphGame, Play, Solver};
use crate::cgt::Dyadic;
use crate::gen::count;
use crate::sweep::graphplan::{self, Work};
use crate::sweep::{Kind, ParamDef, Presentation, ShardCtx, SweepError, TruthCheck, ValidateError};
use std::collections::BTreeMap;
impl<G: GraphGame> Kind for Layered<G> {
    type Params = Class;
    type Shard = GameShard;
    type Output = GameOutput;
    type Doc = GameDoc;

    fn name(&self) -> &'static str {
        G::NAME
    }
    fn about(&self) -> &'static str {
        G::ABOUT
    }
    fn param_defs(&self) -> &'static [ParamDef] {
        <G as Defs>::DEFS
    }
    fn source_file(&self) -> &'static str {
        self.0.source_file()
    }
    fn outside_version(&self) -> Option<&'static str> {
        self.0.outside_version()
    }
    fn plan(&self, p: &Class, target: u32) -> Result<Vec<(GameShard, u64)>, SweepError> {
        self.class(p)?;
        if !G::DIRECTED {
            return Ok(graphplan::plan(p.max_n, target, Work::PerVertex)
                .into_iter()
                .map(|(s, e)| (GameShard::Graphs(s), e))
                .collect());
        }
        // Digraphs: each n's labelled codes cut into ranges, about
        // `target` (default 8) shards in all, by share of codes.
        let target = if target == 0 { 8 } else { u64::from(target) };
        let total: u64 = (p.min_n..=p.max_n).map(digraph_codes).sum();
        let mut out = Vec::new();
        for n in p.min_n..=p.max_n {
            let codes = digraph_codes(n);
            let parts = (target * codes).div_ceil(total).clamp(1, codes);
            for k in 0..parts {
                let (lo, hi) = (codes * k / parts, codes * (k + 1) / parts);
                out.push((GameShard::Digraphs { n, lo, hi }, 0));
            }
        }
        Ok(out)
    }
    fn run(
        &self,
        p: &Class,
        shard: &GameShard,
        ctx: &ShardCtx<'_>,
    ) -> Result<GameOutput, SweepError> {
        self.class(p)?;
        let mut out = GameOutput::default();
        let mut solver = Solver::<G>::default();
        let mut cancelled = false;
        self.graphs(p, shard, &mut |g, aut| {
            if ctx.cancelled() {
                cancelled = true;
                return false;
            }
            let before = out.work;
            self.tally(&mut solver, g, aut, &mut out);
            ctx.add_progress(out.work - before);
            true
        })?;
        if cancelled {
            return Err(SweepError::Cancelled);
        }
        Ok(out)
    }
    fn validate(
        &self,
        p: &Class,
        shard: &GameShard,
        out: &GameOutput,
    ) -> Result<(), ValidateError> {
        validate::validate(self, p, shard, out)
    }
    fn recount(
        &self,
        p: &Class,
        shard: &GameShard,
        out: &GameOutput,
    ) -> Option<Result<(), ValidateError>> {
        Some(validate::recount(self, p, shard, out))
    }
    fn rows(&self, p: &Class, shard: &GameShard) -> Option<std::ops::RangeInclusive<usize>> {
        match shard {
            GameShard::Graphs(_) => Some(p.min_n..=p.max_n),
            &GameShard::Digraphs { n, .. } => Some(n..=n),
        }
    }
    fn truths(&self, doc: &GameDoc) -> Vec<TruthCheck> {
        truths(doc, G::DIRECTED)
    }
    fn doc(&self, p: &Class, r: &GameOutput) -> GameDoc {
        let by_n = (p.min_n..=p.max_n)
            .map(|n| {
                let c = r.by_n.get(&(n as u32)).cloned().unwrap_or_default();
                let mut values: Vec<ValueDoc> = c
                    .values
                    .iter()
                    .map(|(v, t)| ValueDoc {
                        value: v.clone(),
                        positions: t.positions,
                        labelled_positions: t.labelled_positions,
                        temperature: r.temperatures.get(v).cloned(),
                    })
                    .collect();
                values.sort_by(|a, b| cmp_values(&a.value, &b.value));
                let temperatures = temperature_rows(&values);
                let record = |h: &Hottest| HottestDoc {
                    ratio: h.ratio_text(),
                    temperature: h.temperature.clone(),
                    max_degree: h.max_degree,
                    witness: self.witness_doc(&h.spot, &h.value, Some(&h.temperature)),
                };
                RowDoc {
                    n,
                    graphs: c.graphs,
                    labelled_graphs: c.labelled_graphs,
                    positions: c.all.positions,
                    labelled_positions: c.all.labelled_positions,
                    counterexamples: c.counterexamples,
                    values,
                    temperatures,
                    hottest: c.hottest.as_ref().map(record),
                    hottest_per_degree: c.hottest_per_degree.as_ref().map(record),
                }
            })
            .collect();
        let mut smallest: Vec<WitnessDoc> = r
            .smallest
            .iter()
            .filter_map(|(v, s)| {
                s.0.as_ref()
                    .map(|spot| self.witness_doc(spot, v, r.temperatures.get(v)))
            })
            .collect();
        smallest.sort_by(|a, b| cmp_values(&a.value, &b.value));
        GameDoc {
            kind: G::NAME.into(),
            params: *p,
            game: GameFacts {
                about: G::ABOUT.into(),
                play: match G::PLAY {
                    Play::Impartial => "impartial",
                    Play::Partizan => "partizan",
                }
                .into(),
                board: if G::DIRECTED { "digraphs" } else { "graphs" }.into(),
                class: p.describe(G::DIRECTED),
                property: G::PROPERTY.map(str::to_string),
            },
            by_n,
            smallest,
            counterexamples: r
                .counterexamples
                .iter()
                .map(|c| self.witness_doc(&c.spot, &c.value, r.temperatures.get(&c.value)))
                .collect(),
        }
    }
    fn report(&self, p: &Class, doc: &GameDoc) -> String {
        super::report::report_md(self, p, doc)
    }
    fn present(&self, doc: &GameDoc) -> Presentation {
        super::report::present(self, doc)
    }
}

/// Positions by temperature, coldest first, summed over the values.
fn temperature_rows(values: &[ValueDoc]) -> Vec<TemperatureDoc> {
    let mut by: BTreeMap<Dyadic, (String, u64, u64)> = BTreeMap::new();
    for v in values {
        let Some(t) = &v.temperature else { continue };
        // An unreadable text (refused by validation) sorts as the coldest.
        let key = parse_dyadic(t).unwrap_or(Dyadic::int(i64::MIN / 4));
        let e = by.entry(key).or_insert_with(|| (t.clone(), 0, 0));
        e.1 += v.positions;
        e.2 += v.labelled_positions;
    }
    by.into_values()
        .map(
            |(temperature, positions, labelled_positions)| TemperatureDoc {
                temperature,
                positions,
                labelled_positions,
            },
        )
        .collect()
}

/// Is the class a plain one (all or connected graphs, no other filter),
/// whose counts are known in closed form?
fn plain(c: &Class) -> bool {
    c.trees == 0
        && c.bipartite == 0
        && c.triangle_free == 0
        && c.square_free == 0
        && c.min_degree == 0
        && c.max_degree == UNBOUNDED_DEGREE
        && c.min_edges == 0
        && c.max_edges == UNBOUNDED_EDGES
}

/// Labelled connected graphs on `n` vertices (OEIS A001187), by the
/// recurrence over the component of vertex 1.
pub fn labelled_connected(n: usize) -> u128 {
    let binom = |n: usize, k: usize| -> u128 {
        (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
    };
    let all = |n: usize| -> u128 { 1u128 << (n * n.saturating_sub(1) / 2) };
    let mut c = vec![0u128; n + 1];
    for m in 1..=n {
        let rest: u128 = (1..m)
            .map(|k| binom(m - 1, k - 1) * c[k] * all(m - k))
            .sum();
        c[m] = all(m) - rest;
    }
    c[n]
}

/// The cheap truths of a plain class: graphs per n (A000088 / A001349 by
/// Burnside's lemma) and labelled graphs per n (2^C(n,2) / A001187), the
/// second checking every |Aut| the sweep used.
fn truths(doc: &GameDoc, directed: bool) -> Vec<TruthCheck> {
    let c = &doc.params;
    if directed || !plain(c) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for row in &doc.by_n {
        let n = row.n as u32;
        let (graphs, labelled, what) = if c.connected == 1 {
            (
                count::connected_graphs(n),
                labelled_connected(row.n),
                "connected graphs (A001349) and labelled connected graphs (A001187)",
            )
        } else {
            (
                count::graphs_on(n),
                1u128 << (row.n * (row.n - 1) / 2),
                "graphs (A000088) and labelled graphs (2^C(n,2))",
            )
        };
        let Some(graphs) = graphs else { continue };
        let ok = u128::from(row.graphs) == graphs && u128::from(row.labelled_graphs) == labelled;
        out.push(TruthCheck {
            check: format!("n = {n}: {what}"),
            ok,
            detail: format!(
                "{} graphs and {} labelled counted; {graphs} and {labelled} expected",
                row.graphs, row.labelled_graphs
            ),
        });
    }
    out
}
