//! Which reductions pay? Values every Col position on connected graphs up to
//! `--max-n` vertices, or every Myopic position on binary trees up to
//! `--max-nodes` nodes, single-threaded, under several solver settings, and
//! prints positions, a checksum of the values (so the variants are seen to
//! agree), solver counters and CPU seconds (from /proc/self/stat, so other
//! load on the machine does not inflate it).
//!
//! ```text
//! cargo run --release -p gamesweep --example col_bench -- col 8 tree-canonical full labelled no-drop no-components
//! cargo run --release -p gamesweep --example col_bench -- tree 11 tree-canonical full labelled
//! ```

use gamesweep::col::trees::TreeCatalogue;
use gamesweep::col::{
    colouring_from_index, proper_colourings, Board, MemoMode, Solver, SolverOptions,
};
use gamesweep::gen::{self, WalkOptions};
use gamesweep::graph::BitGraph;

fn cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = s.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<&str> = after.split_whitespace().collect();
    // fields 14 and 15 of stat (utime, stime) are at 11 and 12 after the ')'
    let ticks: f64 = f.get(11).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    ticks / 100.0
}

fn options(name: &str) -> SolverOptions {
    let mut o = SolverOptions::default();
    match name {
        // the default: labelled memo + AHU codes for tree components
        "tree-canonical" => o.memo = MemoMode::TreeCanonical,
        // labelled memo + full canonical labelling of every component
        "full" => o.memo = MemoMode::Canonical,
        "labelled" => o.memo = MemoMode::Labelled,
        "no-memo" => o.memo = MemoMode::None,
        "no-drop" => o.drop_arcs = false,
        "no-components" => o.components = false,
        "bare" => {
            o.components = false;
            o.drop_arcs = false;
            o.memo = MemoMode::Labelled;
        }
        _ => panic!("unknown variant {name}: full, labelled, tree-canonical, no-memo, no-drop, no-components, bare"),
    }
    o
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map(String::as_str).unwrap_or("col");
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let variants: Vec<&str> = if args.len() > 2 {
        args[2..].iter().map(String::as_str).collect()
    } else {
        vec![
            "tree-canonical",
            "full",
            "labelled",
            "no-drop",
            "no-components",
            "bare",
        ]
    };
    for v in variants {
        let mut s = Solver::new(options(v));
        let t0 = cpu_seconds();
        let mut positions = 0u64;
        let mut checksum = 0u64;
        let mut visit = |s: &mut Solver, b: &Board, blue: u32, red: u32| {
            let g = s.value(b, b.position_masks(blue, red));
            positions += 1;
            // value-derived checksum: outcome class and number/nimber parts
            let o = s.arena.outcome(g) as u64;
            let (x, n) = s.arena.number_nimber(g).map_or((0, 99), |(x, n)| {
                (
                    x.numerator().wrapping_mul(1 << (8 - x.exponent().min(8))) as u64,
                    n as u64,
                )
            });
            checksum = checksum
                .wrapping_mul(1_000_003)
                .wrapping_add(o * 7919 + x.wrapping_mul(31) + n);
        };
        if what == "col" {
            let opts = WalkOptions {
                connected_only: true,
                min_n: 1,
            };
            gen::walk_filtered(&BitGraph::new(0), size, opts, &mut |g| {
                let b = Board::col(g.n(), &g.edges().collect::<Vec<_>>());
                proper_colourings(g, &mut |blue, red| visit(&mut s, &b, blue, red));
            });
        } else {
            let cat = TreeCatalogue::new(size, 2);
            for n in 1..=size {
                for i in 0..cat.count(n) {
                    let t = cat.tree(n, i);
                    let b = Board::myopic(n, &t.arcs());
                    for c in 0..3u64.pow(n as u32 - 1) {
                        let (blue, red) = colouring_from_index(n - 1, c);
                        visit(&mut s, &b, blue << 1, red << 1);
                    }
                }
            }
        }
        let cpu = cpu_seconds() - t0;
        let (lm, cm) = s.memo_sizes();
        println!(
            "{what} {size} {v:>14}: {positions} positions, checksum {checksum:016x}, {cpu:.2} s CPU, expanded {}, labelled hits {}, canonical hits {}, memo {lm}/{cm}, games {}",
            s.stats.expanded, s.stats.labelled_hits, s.stats.canonical_hits, s.arena.len()
        );
    }
}
