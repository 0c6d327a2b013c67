//! The shard work of `uvg-degree3`.

use super::*;

pub(super) fn check_graph(out: &mut Degree3Output, i: u64, g: &BitGraph) {
    let n = g.n();
    let edges: Vec<(usize, usize)> = g.edges().collect();
    let t = out.by_n.entry(n as u64).or_default();
    t.graphs += 1;
    // One memo for the whole graph (all starts) ...
    let mut shared = HashSet::new();
    for v in 0..n {
        t.reachable_graph += reachable_positions(g, v, &mut shared);
        // ... and a fresh one per start.
        let own = reachable_positions(g, v, &mut HashSet::new());
        t.reachable_start += own;
        t.reachable_start_max.offer(own);
    }
    t.reachable_graph_max.offer(shared.len() as u64);
    for v in 0..n {
        let exact = solve::value(&Position {
            n,
            edges: edges.clone(),
            deleted: Vec::new(),
            token: v,
        });
        let t = out.by_n.entry(n as u64).or_default();
        t.starts += 1;
        t.nodes += exact.nodes;
        t.nodes_max.offer(exact.nodes);
        out.values.add(exact.value);
        let record = |note: String| Record {
            vertices: n as u32,
            edges: edges.len() as u32,
            code: graph6::encode_bitgraph(g),
            index: v as u64,
            detail: format!("random graph #{i}, start {v}"),
            note,
        };
        match grundy_degree3(g, v, g.all()) {
            Some((d, tests)) => {
                t.tests += tests as u64;
                t.tests_max.offer(tests as u64);
                out.tests_per_start.add(tests);
                if d as u32 != exact.value {
                    out.exceptions.add(record(format!(
                        "exact={} degree3={}",
                        nim(exact.value as u64),
                        nim(d as u64)
                    )));
                }
            }
            None => out.exceptions.add(record(
                "degree-3 algorithm declined a graph of max degree ≤ 3".into(),
            )),
        }
    }
}
