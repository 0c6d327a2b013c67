//! The shards this worker holds, and the heartbeat that keeps their leases:
//! every held lease is renewed at a third of the lease period, and a shard
//! whose lease the coordinator no longer grants is asked to stop; with
//! `--max-memory`, the memory watch stops them all when the cap is passed.

use crate::memory::{MemoryCap, WATCH_PERIOD};
use crate::shard::{HeldShard, ShardFlags, ShardKey};
use crate::wire::Link;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tracing::{debug, info};

/// The lease period assumed until the coordinator says otherwise.
const DEFAULT_LEASE_MS: u64 = 10_000;
/// Lease periods shorter than this are treated as this (renewals must have
/// time to arrive).
const MIN_LEASE_MS: u64 = 150;
/// Renewals are never closer together than this.
const MIN_RENEW_PERIOD: Duration = Duration::from_millis(50);

/// The held shards, shared by the main loop (which adds and releases them)
/// and the heartbeat (which renews them). A std mutex: it is never held
/// across an await.
pub(crate) struct HeldShards {
    /// Held shard → its attempt and run-time flags.
    shards: Mutex<HashMap<ShardKey, Held>>,
    /// The coordinator's lease period, as last announced.
    lease_ms: AtomicU64,
}

/// One held shard.
struct Held {
    /// The attempt it was granted as.
    attempt: u32,
    /// Its lease's token.
    token: String,
    /// Its cancel flag and progress counter.
    flags: ShardFlags,
}

impl Default for HeldShards {
    fn default() -> Self {
        HeldShards {
            shards: Mutex::default(),
            lease_ms: AtomicU64::new(DEFAULT_LEASE_MS),
        }
    }
}

impl HeldShards {
    fn lock(&self) -> MutexGuard<'_, HashMap<ShardKey, Held>> {
        // A panic elsewhere cannot leave the map half-updated: keep using it.
        self.shards.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start holding `key` (leased as `attempt` with `token`); returns the
    /// flags the shard runs with.
    pub fn hold(&self, key: ShardKey, attempt: u32, token: String) -> ShardFlags {
        let flags = ShardFlags::default();
        let held = Held {
            attempt,
            token,
            flags: flags.clone(),
        };
        self.lock().insert(key, held);
        flags
    }

    /// Stop holding `key` (its result was sent, or it is given up).
    pub fn release(&self, key: &ShardKey) {
        self.lock().remove(key);
    }

    /// Whether no shard is held.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Ask every held shard to stop because the worker's resident memory
    /// reached `rss` bytes, above its cap (the shards then report a failure
    /// instead of being given up quietly). A shard already stopped keeps
    /// the first reading.
    pub fn stop_for_memory(&self, rss: u64) {
        for held in self.lock().values() {
            let _ = held.flags.memory.compare_exchange(
                0,
                rss.max(1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            held.flags.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Ask every held shard to stop.
    pub fn cancel_all(&self) {
        for held in self.lock().values() {
            held.flags.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The held shards, for a renewal.
    pub fn snapshot(&self) -> Vec<HeldShard> {
        self.lock()
            .iter()
            .map(|(key, held)| HeldShard {
                key: key.clone(),
                attempt: held.attempt,
                token: held.token.clone(),
                progress: held.flags.progress.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// Stop the shards of `renewed` whose lease is gone (`still_held` is
    /// parallel to `renewed`; a missing answer counts as still held). A
    /// shard whose run has ended is left alone: it may just have been
    /// submitted and accepted (the coordinator then no longer holds it for
    /// us), and there is nothing to stop anyway.
    pub fn cancel_lost(&self, renewed: &[HeldShard], still_held: &[bool]) {
        let shards = self.lock();
        for (h, &keep) in renewed.iter().zip(still_held) {
            if keep {
                continue;
            }
            if let Some(held) = shards.get(&h.key) {
                if held.flags.finished.load(Ordering::Relaxed) {
                    continue;
                }
                info!(sweep = %h.key.sweep_id, shard = h.key.index, "lease lost; stopping shard");
                held.flags.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Record the coordinator's lease period.
    pub fn set_lease_ms(&self, lease_ms: u64) {
        self.lease_ms
            .store(lease_ms.max(MIN_LEASE_MS), Ordering::Relaxed);
    }

    /// How long to wait between renewals: a third of the lease period.
    pub fn renew_period(&self) -> Duration {
        Duration::from_millis(self.lease_ms.load(Ordering::Relaxed) / 3).max(MIN_RENEW_PERIOD)
    }
}

/// The heartbeat: renew the held leases forever (the caller aborts it).
/// A failed renewal is retried at the next period.
pub(crate) async fn renew_forever(held: Arc<HeldShards>, link: Link) {
    loop {
        tokio::time::sleep(held.renew_period()).await;
        let renewed = held.snapshot();
        if renewed.is_empty() {
            continue;
        }
        match link.renew(&renewed).await {
            Ok(reply) => {
                held.set_lease_ms(reply.lease_ms);
                held.cancel_lost(&renewed, &reply.still_held);
            }
            Err(e) => debug!(error = %e, "renew failed; will retry"),
        }
    }
}

/// Read the resident memory every [`WATCH_PERIOD`] (never more often) until
/// the task is aborted; whenever it is above the cap, stop every held
/// shard, marking it as stopped for memory.
pub(crate) async fn watch_memory(cap: MemoryCap, held: Arc<HeldShards>) {
    let mut tick = tokio::time::interval(WATCH_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if held.is_empty() {
            continue;
        }
        if let Some(rss) = cap.exceeded() {
            held.stop_for_memory(rss);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(index: u32) -> ShardKey {
        ShardKey {
            sweep_id: "s".into(),
            index,
        }
    }

    #[test]
    fn lost_leases_are_cancelled_and_kept_ones_are_not() {
        let held = HeldShards::default();
        let a = held.hold(key(0), 1, "t0".to_string());
        let b = held.hold(key(1), 2, "t1".to_string());
        let c = held.hold(key(2), 1, "t2".to_string());
        b.progress.store(40, Ordering::Relaxed);
        let mut renewed = held.snapshot();
        renewed.sort_by_key(|h| h.key.index);
        assert_eq!(
            renewed[1],
            HeldShard {
                key: key(1),
                attempt: 2,
                token: "t1".into(),
                progress: 40
            }
        );
        // Shard 0 kept, shard 1 lost, shard 2 not answered (kept).
        held.cancel_lost(&renewed, &[true, false]);
        let cancelled = |f: &ShardFlags| f.cancel.load(Ordering::Relaxed);
        assert_eq!(
            (cancelled(&a), cancelled(&b), cancelled(&c)),
            (false, true, false)
        );

        held.release(&key(1));
        assert_eq!(held.snapshot().len(), 2);
        held.cancel_all();
        assert!(cancelled(&a) && cancelled(&c));
    }

    #[test]
    fn a_finished_shard_reported_lost_is_left_alone() {
        // A renewal asked about shard 0 while it ran; by the time the answer
        // (not held: it was just submitted and accepted) arrives, its run has
        // ended. Shard 1, still running, is stopped.
        let held = HeldShards::default();
        let done = held.hold(key(0), 1, "t0".to_string());
        let running = held.hold(key(1), 1, "t1".to_string());
        let mut renewed = held.snapshot();
        renewed.sort_by_key(|h| h.key.index);
        done.finished.store(true, Ordering::Relaxed);
        held.cancel_lost(&renewed, &[false, false]);
        assert!(!done.cancel.load(Ordering::Relaxed));
        assert!(running.cancel.load(Ordering::Relaxed));
    }

    #[test]
    fn renewals_come_at_a_third_of_the_lease_period_within_bounds() {
        let held = HeldShards::default();
        assert_eq!(held.renew_period(), Duration::from_millis(3_333));
        held.set_lease_ms(3_000);
        assert_eq!(held.renew_period(), Duration::from_secs(1));
        held.set_lease_ms(0);
        assert_eq!(held.renew_period(), MIN_RENEW_PERIOD);
    }

    /// A cap whose reading is `rss` and counts its reads.
    fn counting(max: u64, rss: u64) -> (MemoryCap, Arc<AtomicU64>) {
        let reads = Arc::new(AtomicU64::new(0));
        let counter = reads.clone();
        let cap = MemoryCap {
            max,
            read: Arc::new(move || {
                counter.fetch_add(1, Ordering::Relaxed);
                Some(rss)
            }),
        };
        (cap, reads)
    }

    #[tokio::test]
    async fn the_watch_reads_memory_at_most_every_period() {
        let held = Arc::new(HeldShards::default());
        let (cap, reads) = counting(1 << 40, 1 << 20);
        // Nothing held: no reads at all.
        let task = tokio::spawn(watch_memory(cap.clone(), held.clone()));
        tokio::time::sleep(Duration::from_millis(300)).await;
        task.abort();
        assert_eq!(reads.load(Ordering::Relaxed), 0);
        // A shard held: one read at once, then at most one per period.
        let key = ShardKey {
            sweep_id: "s".into(),
            index: 0,
        };
        let flags = held.hold(key, 1, "t".into());
        let t0 = std::time::Instant::now();
        let task = tokio::spawn(watch_memory(cap, held.clone()));
        tokio::time::sleep(Duration::from_millis(520)).await;
        task.abort();
        let _ = task.await;
        let elapsed = t0.elapsed();
        let n = reads.load(Ordering::Relaxed);
        let most = 1 + (elapsed.as_millis() / WATCH_PERIOD.as_millis()) as u64;
        assert!(
            n >= 2 && n <= most,
            "{n} reads in {elapsed:?} (at most {most})"
        );
        assert!(
            !flags.cancel.load(Ordering::Relaxed),
            "under the cap: not stopped"
        );
        assert_eq!(flags.memory.load(Ordering::Relaxed), 0);
    }

    #[tokio::test]
    async fn the_watch_stops_held_shards_above_the_cap() {
        let held = Arc::new(HeldShards::default());
        let (cap, _) = counting(1 << 20, 3 << 20);
        let key = |index| ShardKey {
            sweep_id: "s".into(),
            index,
        };
        let a = held.hold(key(0), 1, "t".into());
        let b = held.hold(key(1), 1, "u".into());
        let task = tokio::spawn(watch_memory(cap, held.clone()));
        tokio::time::sleep(Duration::from_millis(20)).await;
        task.abort();
        for flags in [a, b] {
            assert!(flags.cancel.load(Ordering::Relaxed));
            assert_eq!(flags.memory.load(Ordering::Relaxed), 3 << 20);
        }
    }
}
