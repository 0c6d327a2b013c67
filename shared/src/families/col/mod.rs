//! Code the Col kinds share (`myopic-tree`, `myopic-rooted`,
//! `myopic-digraph`, `myopic-list`, `col`, `cgt-check`): position
//! records, value tallies, digraph indexing and validation helpers.
//!
//! | kind | structures | sharded by |
//! |---|---|---|
//! | `myopic-tree` | unordered binary trees, root uncoloured, every colouring | tree shape |
//! | `myopic-rooted` | rooted trees (A000081), root uncoloured | tree shape |
//! | `myopic-digraph` | labelled digraphs on 2..4 vertices + random digraphs | index ranges |
//! | `myopic-list` | the list lemma and its corollary | list length / composition |
//! | `col` | connected graphs, colourings without a same-colour edge | canonical-form prefix |
//! | `cgt-check` | solver vs naive search, Col ≤ 6 and Myopic ≤ 4 | prefix / index ranges |
//!
//! Every position whose value is not cold (a number or a number plus `*`) is
//! recorded in full, as is every exception to a rule a sweep checks.

pub mod digraphs;
pub mod typed;
pub mod validate;

pub use digraphs::{board_digraph6, digraph_from_index, digraph_ranges, DigraphRange};
pub use typed::{
    check_ranges, in_value_order, records_md, smallest_witnesses, values_md, Group, PositionDoc,
    Records, ValueCounter, ValueRow, ValueStats,
};

use crate::sweep::Record;

/// Records kept per counterexample list (all are counted).
pub const RECORD_CAP: u64 = 200;

/// `"L.R."`-style colouring text from blue/red masks.
pub fn colouring_string(n: usize, blue: u32, red: u32) -> String {
    (0..n)
        .map(|v| {
            if blue >> v & 1 == 1 {
                'L'
            } else if red >> v & 1 == 1 {
                'R'
            } else {
                '.'
            }
        })
        .collect()
}

/// Base-3 index of a colouring (digit of vertex v: 0 uncoloured, 1 blue, 2 red; vertex 0 least significant).
pub fn colouring_index(n: usize, blue: u32, red: u32) -> u64 {
    (0..n).rev().fold(0u64, |acc, v| {
        acc * 3 + u64::from(blue >> v & 1 == 1) + 2 * u64::from(red >> v & 1 == 1)
    })
}

/// A position record: structure code, colouring, free note.
pub fn position_record(
    n: usize,
    edges: usize,
    code: &str,
    blue: u32,
    red: u32,
    note: String,
) -> Record {
    Record {
        vertices: n as u32,
        edges: edges as u32,
        code: code.to_string(),
        index: colouring_index(n, blue, red),
        detail: format!("colouring {}", colouring_string(n, blue, red)),
        note,
    }
}

/// Split `items` (with weights) into `shards` lists, heaviest first onto the
/// lightest list; deterministic.
pub fn balance<T: Clone>(items: &[(T, u64)], shards: usize) -> Vec<(Vec<T>, u64)> {
    let shards = shards.max(1).min(items.len().max(1));
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(items[i].1), i));
    let mut out: Vec<(Vec<T>, u64)> = vec![(Vec::new(), 0); shards];
    for i in order {
        let j = (0..shards).min_by_key(|&j| (out[j].1, j)).unwrap();
        out[j].0.push(items[i].0.clone());
        out[j].1 += items[i].1;
    }
    out.retain(|s| !s.0.is_empty());
    out
}
