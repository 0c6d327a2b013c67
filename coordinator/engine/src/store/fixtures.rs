//! The records and plans the store's tests build on.

use super::{SweepRecord, SweepState};
use gamesweep::sweep::ShardSpec;

/// A running sweep `id` (kind `k`, `max_n` 3), created with sequence 1.
pub(crate) fn record(id: &str) -> SweepRecord {
    record_at(id, 1)
}

/// A running sweep `id` (kind `k`, `max_n` 3), created with sequence `seq`.
pub(crate) fn record_at(id: &str, seq: u64) -> SweepRecord {
    SweepRecord {
        replicate_all: false,
        id: id.into(),
        kind: "k".into(),
        params: [("max_n".to_string(), 3)].into(),
        solver_version: "v".into(),
        target_shards: 0,
        seq,
        state: SweepState::Running,
        sample: None,
        verify_ppm: 0,
        verify_seed: 0,
        paused: false,
        priority: 1,
        part: None,
        earlier_solvers: Vec::new(),
    }
}

/// A plan of `n` shards (payload `p{i}`, estimate 1).
pub(crate) fn plan(n: u32) -> Vec<ShardSpec> {
    (0..n)
        .map(|i| ShardSpec {
            index: i,
            payload: format!("p{i}"),
            estimate: 1,
        })
        .collect()
}
