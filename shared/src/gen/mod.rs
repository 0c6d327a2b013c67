//! STUB
#![allow(missing_docs, unused)]
use crate::graph::BitGraph;
pub fn prefixes(depth: usize) -> Vec<BitGraph> {
    todo!()
}
pub fn walk(prefix: &BitGraph, max_n: usize, visit: &mut dyn FnMut(&BitGraph)) {
    todo!()
}
#[derive(Clone, Copy, Debug)]
pub struct WalkOptions {
    pub connected_only: bool,
    pub min_n: usize,
}
pub fn walk_filtered(
    prefix: &BitGraph,
    max_n: usize,
    opts: WalkOptions,
    visit: &mut dyn FnMut(&BitGraph),
) {
    todo!()
}
pub fn count(prefix: &BitGraph, n: usize, connected_only: bool) -> u64 {
    todo!()
}
pub fn shard_prefixes(depth: usize, i: usize, m: usize) -> Vec<BitGraph> {
    todo!()
}
