//! Timings for runs/bench-gamegraph.md:
//!
//! ```text
//! cargo run --release -p gamesweep --example bench_gamegraph
//! ```
//!
//! 1. the `subtraction` sweep, sequentially in one thread, for M = 12, 14, 16;
//! 2. on the sum of two nim heaps (an acyclic game graph), the course's
//!    topological labelling vs retrograde analysis, and the greedy DAG kernel
//!    vs the exact kernel search (which settles a DAG by propagation alone).

use gamesweep::gamegraph::{
    find_kernel, kernel_acyclic, outcomes, outcomes_acyclic, sum_graph, GameGraph,
};
use gamesweep::sweep::{self, Params};
use std::error::Error;
use std::time::Instant;

fn nim_heap(n: usize) -> GameGraph {
    let arcs: Vec<_> = (0..=n).flat_map(|k| (0..k).map(move |j| (k, j))).collect();
    GameGraph::from_arcs(format!("nim{n}"), n + 1, &arcs)
}

/// Best of `reps` runs, in milliseconds.
fn best_ms(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() -> Result<(), Box<dyn Error>> {
    let kind = gamesweep::kinds::find("subtraction")?;
    for m in [12u64, 14, 16] {
        let params = kind.resolve_params(&Params::from([("max_element".to_string(), m)]))?;
        let plan = kind.plan(&params, 0)?;
        let ms = best_ms(3, || {
            sweep::run_all_sequential(kind, &params, &plan).expect("sweep runs");
        });
        println!(
            "subtraction M={m}: {} sets, {ms:.1} ms ({:.2} us/set)",
            (1u64 << m) - 1,
            ms * 1e3 / ((1u64 << m) - 1) as f64
        );
    }
    let s = sum_graph(&nim_heap(120), &nim_heap(120))?;
    println!(
        "nim120 + nim120: {} positions, {} moves",
        s.len(),
        s.move_count()
    );
    let topo = best_ms(5, || {
        outcomes_acyclic(&s).expect("acyclic");
    });
    let retro = best_ms(5, || {
        outcomes(&s);
    });
    println!(
        "outcomes: topological {topo:.2} ms, retrograde {retro:.2} ms, ratio {:.2}",
        retro / topo
    );
    let greedy = best_ms(5, || {
        kernel_acyclic(&s).expect("acyclic");
    });
    let search = best_ms(5, || {
        find_kernel(&s, 0).expect("no branching on a DAG");
    });
    println!(
        "kernel: greedy {greedy:.2} ms, exact search {search:.2} ms, ratio {:.2}",
        search / greedy
    );
    Ok(())
}
