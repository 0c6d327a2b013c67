//! [`Kind::validate`] of `uvg-degree3`: a shard's result checked without re-running it.

use super::*;
use crate::sweep::run_checks;

/// Exception records whose graph [`Kind::validate`] regenerates (a seeded
/// random graph, no solving): a fixed budget.
pub(super) const REGENERATE_BUDGET: usize = 16;

/// [`Kind::validate`] for `uvg-degree3`: instance i has min_n + i mod span
/// vertices, so the graphs per size of a shard are known exactly; starts are
/// graphs × n; the tallies' maxima lie within their sums; the value and
/// test histograms count at most the starts (values exactly, all below 4 =
/// degree + 1); exceptions are within the starts and their records are
/// starts of the shard's graphs, the first [`REGENERATE_BUDGET`] regenerated.
pub(super) fn validate(
    params: &Degree3Params,
    shard: &RangeShard,
    out: &Degree3Output,
) -> Result<(), ValidateError> {
    let (lo, hi) = params.sizes().map_err(|e| e.to_string())?;
    let range = shard
        .instances("uvg-degree3", params.random)
        .map_err(|e| e.to_string())?;
    let span = (hi - lo + 1) as u64;
    let size = |i: u64| lo as u64 + i % span;
    let mut want: BTreeMap<u64, u64> = BTreeMap::new();
    // At most `span` sizes: count each size's instances in closed form.
    for k in 0..span.min(range.end - range.start) {
        let first = range.start + k;
        let count = (range.end - first).div_ceil(span);
        want.insert(size(first), count);
    }
    let ctx = Ctx {
        params,
        lo,
        hi,
        range,
        want,
        out,
    };
    run_checks(CHECKS, &ctx)
}

/// A shard's instances, the graphs they have per size, and its result: what
/// the checks read.
struct Ctx<'a> {
    params: &'a Degree3Params,
    /// The sizes of the sweep's graphs (instance i has `lo + i % span`).
    lo: usize,
    hi: usize,
    /// The instances of the shard.
    range: std::ops::Range<u64>,
    /// The shard's number of graphs per size.
    want: BTreeMap<u64, u64>,
    out: &'a Degree3Output,
}

impl Ctx<'_> {
    /// The size of instance `i`.
    fn size(&self, i: u64) -> u64 {
        self.lo as u64 + i % (self.hi - self.lo + 1) as u64
    }

    /// Every size's starts (checked by the rows' checks before this is read).
    fn starts(&self) -> u64 {
        self.out.by_n.values().map(|t| t.starts).sum()
    }

    /// The starts the win/lose tests answered.
    fn answered(&self) -> u64 {
        self.out.tests_per_start.0.iter().sum()
    }
}

/// A named check of a result (see [`run_checks`]).
type Check = (&'static str, fn(&Ctx<'_>) -> Result<(), ValidateError>);

/// The checks, in order; the first to fail refuses the result.
const CHECKS: &[Check] = &[
    ("sizes", sizes),
    ("rows", rows),
    ("work", work),
    ("values", values),
    ("tests per start", tests_per_start),
    ("exceptions", exceptions),
];

fn sizes(x: &Ctx) -> Result<(), ValidateError> {
    let out = x.out;
    if out.by_n.keys().ne(x.want.keys()) {
        return Err(ValidateError::from(format!(
            "by_n has sizes {:?}, but the shard's graphs have {:?}",
            out.by_n.keys().collect::<Vec<_>>(),
            x.want.keys().collect::<Vec<_>>()
        )));
    }
    Ok(())
}

/// Each size's graphs and starts, its maxima below its sums, its reachable
/// positions and nodes at least its starts.
fn rows(x: &Ctx) -> Result<(), ValidateError> {
    let want = &x.want;
    for (&n, t) in &x.out.by_n {
        let at = |f: &str| format!("by_n[{n}].{f}");
        if t.graphs != want[&n] {
            return Err(ValidateError::from(format!(
                "{} is {}, but the shard has {} graphs on {n} vertices",
                at("graphs"),
                t.graphs,
                want[&n]
            )));
        }
        if t.starts != t.graphs * n {
            return Err(ValidateError::from(format!(
                "{} is {}, not {} graphs × {n}",
                at("starts"),
                t.starts,
                t.graphs
            )));
        }
        let pairs = [
            ("tests_max", t.tests_max.0, "tests", t.tests),
            ("nodes_max", t.nodes_max.0, "nodes", t.nodes),
            (
                "reachable_start_max",
                t.reachable_start_max.0,
                "reachable_start",
                t.reachable_start,
            ),
            (
                "reachable_graph_max",
                t.reachable_graph_max.0,
                "reachable_graph",
                t.reachable_graph,
            ),
        ];
        for (m, max, f, sum) in pairs {
            if max > sum {
                return Err(ValidateError::from(format!(
                    "{} is {max}, above {} = {sum}",
                    at(m),
                    at(f)
                )));
            }
        }
        // Every start is a reachable position of its own; a graph's shared
        // memo counts each position once, a fresh memo per start at least as
        // often.
        if t.reachable_graph < t.starts || t.reachable_start < t.reachable_graph {
            return Err(ValidateError::from(format!(
                "{}: {} per graph and {} per start for {} starts",
                at("reachable_graph"),
                t.reachable_graph,
                t.reachable_start,
                t.starts
            )));
        }
        if t.nodes < t.starts {
            return Err(ValidateError::from(format!(
                "{} is {}, below {} starts",
                at("nodes"),
                t.nodes,
                t.starts
            )));
        }
    }
    Ok(())
}

fn work(x: &Ctx) -> Result<(), ValidateError> {
    let (out, starts) = (x.out, x.starts());
    if out.work != starts {
        return Err(ValidateError::from(format!(
            "work is {}, not the {starts} starts",
            out.work
        )));
    }
    Ok(())
}

fn values(x: &Ctx) -> Result<(), ValidateError> {
    let (out, starts) = (x.out, x.starts());
    let values: u64 = out.values.0.iter().sum();
    if values != starts || out.values.0.len() > 4 {
        return Err(ValidateError::from(format!(
            "values count {values} starts with {} values, not {starts} starts with values below 4",
            out.values.0.len()
        )));
    }
    Ok(())
}

fn tests_per_start(x: &Ctx) -> Result<(), ValidateError> {
    let (out, starts, answered) = (x.out, x.starts(), x.answered());
    let tests: u64 = out.by_n.values().map(|t| t.tests).sum();
    let weighted = out
        .tests_per_start
        .0
        .iter()
        .enumerate()
        .try_fold(0u64, |a, (k, &c)| a.checked_add((k as u64).checked_mul(c)?));
    if answered > starts || weighted != Some(tests) {
        return Err(ValidateError::from(format!(
            "tests_per_start counts {answered} starts and {weighted:?} tests, but there are {starts} starts and {tests} tests"
        )));
    }
    Ok(())
}

/// The exceptions within the declined starts, each a start of one of the
/// shard's graphs, the first [`REGENERATE_BUDGET`] regenerated.
fn exceptions(x: &Ctx) -> Result<(), ValidateError> {
    let (params, lo, hi, range) = (x.params, x.lo, x.hi, &x.range);
    let (starts, answered) = (x.starts(), x.answered());
    let rs = &x.out.exceptions.0;
    if rs.cap != crate::families::bft::EXCEPTION_CAP
        || rs.total > starts
        || rs.total < starts - answered
        || rs.kept.len() as u64 != rs.total.min(crate::families::bft::EXCEPTION_CAP)
    {
        return Err(ValidateError::from(format!(
            "exceptions: total {} with {} kept (cap {}), for {starts} starts of which {} were declined (cap {})",
            rs.total,
            rs.kept.len(),
            rs.cap,
            starts - answered,
            crate::families::bft::EXCEPTION_CAP
        )));
    }
    for (k, r) in rs.kept.iter().enumerate() {
        let what = format!("exceptions[`{:.40}` {:.40}]", r.code, r.detail);
        let parsed = r
            .detail
            .strip_prefix("random graph #")
            .and_then(|d| d.split_once(", start "))
            .and_then(|(i, v)| Some((i.parse::<u64>().ok()?, v.parse::<u64>().ok()?)));
        let Some((i, v)) = parsed.filter(|&(i, v)| range.contains(&i) && v == r.index) else {
            return Err(ValidateError::from(format!(
                "{what}: not a start of a graph {}..{} of the shard",
                range.start, range.end
            )));
        };
        let n = x.size(i);
        if r.vertices as u64 != n || v >= n {
            return Err(ValidateError::from(format!(
                "{what}: {} vertices, start {v}, but graph #{i} has {n} vertices",
                r.vertices
            )));
        }
        if k < REGENERATE_BUDGET {
            let g = instance(params.seed, lo, hi, i);
            if graph6::encode_bitgraph(&g) != r.code || g.edge_count() != r.edges as usize {
                return Err(ValidateError::from(format!(
                    "{what}: graph #{i} is not `{:.40}`",
                    r.code
                )));
            }
        }
    }
    Ok(())
}
