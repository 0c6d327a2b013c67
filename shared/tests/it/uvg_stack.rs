//! UVG's subset tables live on the heap: a thread with a small stack values
//! a graph. In a debug build the incremental table's six arrays (1.5 MiB)
//! were built on the stack before they were boxed, and every thread with
//! tokio's or std's 2 MiB stack that ran UVG aborted ("has overflowed its
//! stack"): `cargo run -- run uvg` and `solve uvg -` without `--release`.
//! (A release build elides that copy; run this test in a debug build, as
//! `cargo test -p gamesweep`, to see it fail on the old code.)

use gamesweep::graph::graph6;
use gamesweep::uvg::position::start_values;

/// Less than the tables (1.5 MiB), enough for the search itself.
const SMALL_STACK: usize = 1024 * 1024;

#[test]
fn uvg_values_a_graph_on_a_thread_with_a_small_stack() {
    let values = std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(|| {
            // C5 (every start loses: `solve uvg Dhc`), then the smallest
            // *5 (10 vertices; start 4 has value 5), through the per-thread
            // table every start's value goes through.
            let values = |code: &str| {
                let (n, edges) = graph6::decode(code).unwrap();
                start_values(n, &edges, None).unwrap()
            };
            (values("Dhc"), values("I}Kg[_GC?")[4])
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(values, (vec![0; 5], 5));
}
