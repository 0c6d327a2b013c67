//! Labelled digraphs by index, and the exhaustive digraph set as shard ranges
//! (shared by `myopic-digraph` and `cgt-check`).

use crate::col::{colouring_from_index, Board};
use crate::graph::graph6;
use crate::sweep::{ShardCtx, SweepError};
use serde::{Deserialize, Serialize};

/// Labelled digraph number `code` on `n` vertices: base-4 digit per pair
/// `(i, j)`, `i < j`, pairs in graph6 column order `(0,1), (0,2), (1,2), (0,3), …`;
/// digit 0 none, 1 `i → j`, 2 `j → i`, 3 both.
pub fn digraph_from_index(n: usize, mut code: u64) -> Vec<(usize, usize)> {
    let mut arcs = Vec::new();
    for j in 1..n {
        for i in 0..j {
            match code % 4 {
                1 => arcs.push((i, j)),
                2 => arcs.push((j, i)),
                3 => {
                    arcs.push((i, j));
                    arcs.push((j, i));
                }
                _ => {}
            }
            code /= 4;
        }
    }
    arcs
}

/// digraph6 of a board.
pub fn board_digraph6(b: &Board) -> String {
    graph6::encode_digraph_with(b.n(), |i, j| b.look(i) >> j & 1 == 1)
}

/// A range `lo..hi` of labelled digraphs on `n` vertices ([`digraph_from_index`]),
/// each with every colouring: one shard of the exhaustive digraph set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigraphRange {
    /// Vertices, 2..=4.
    pub n: usize,
    /// First digraph index.
    pub lo: u64,
    /// One past the last digraph index.
    pub hi: u64,
}

impl DigraphRange {
    /// Check the range (`n` in 2..=4, `lo <= hi <= 4^(n(n-1)/2)`).
    pub fn check(&self, kind: &str) -> Result<(), SweepError> {
        let DigraphRange { n, lo, hi } = *self;
        if !(2..=4).contains(&n) || lo > hi || hi > 4u64.pow((n * (n - 1) / 2) as u32) {
            return Err(SweepError::BadShard {
                kind: kind.into(),
                reason: format!("bad digraph range n = {n}, {lo}..{hi}"),
            });
        }
        Ok(())
    }

    /// Call `f(board, digraph6, blue, red)` for every digraph of the range
    /// and every colouring, checking `ctx` for cancellation per digraph.
    pub fn for_each(
        &self,
        kind: &str,
        ctx: &ShardCtx<'_>,
        f: &mut dyn FnMut(&Board, &str, u32, u32),
    ) -> Result<(), SweepError> {
        self.check(kind)?;
        let n = self.n;
        let colourings = 3u64.pow(n as u32);
        for idx in self.lo..self.hi {
            ctx.check()?;
            let b = Board::myopic(n, &digraph_from_index(n, idx));
            let code = board_digraph6(&b);
            for c in 0..colourings {
                let (blue, red) = colouring_from_index(n, c);
                f(&b, &code, blue, red);
            }
            ctx.add_progress(colourings);
        }
        Ok(())
    }
}

/// The exhaustive labelled-digraph set on 2..=4 vertices, as digraph index
/// ranges: all of n = 2 and n = 3, n = 4 in `parts_for_4` parts.
pub fn digraph_ranges(parts_for_4: u64) -> Vec<DigraphRange> {
    let mut v = vec![
        DigraphRange { n: 2, lo: 0, hi: 4 },
        DigraphRange {
            n: 3,
            lo: 0,
            hi: 64,
        },
    ];
    let parts = parts_for_4.max(1);
    for p in 0..parts {
        v.push(DigraphRange {
            n: 4,
            lo: 4096 * p / parts,
            hi: 4096 * (p + 1) / parts,
        });
    }
    v
}
