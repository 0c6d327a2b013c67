//! Fair shares between identities, so that no credential can stall a sweep
//! (the decisions as pure functions of what they are given, `now`
//! included; `leases` applies them).
//!
//! - **One identity per credential.** A holder's identity is its voter
//!   ([`voter`]): an issued credential is itself, every holder under the
//!   shared worker token (or on an open coordinator) is the one identity
//!   [`SHARED_VOTER`], whatever worker ids it sends. Every cap counts
//!   identities, not worker ids.
//! - **Demand.** At each lease request a worker declares what it wants:
//!   the leases it holds plus what it asks for (a worker asks for its free
//!   threads). An identity's demand is the sum over its workers heard from
//!   within three lease periods, never more than the per-identity lease cap
//!   (so nothing a client says about itself counts beyond that cap).
//! - **Waiting.** An identity waits while one of its workers got fewer
//!   shards than it asked for within the last lease period.
//! - **Fair share.** The open shards (pending or leased) of the sweeps a
//!   worker can serve are shared max-min fairly over the live identities'
//!   demands ([`level`]): an identity's share is `min(demand, level)`.
//!   While another identity waits, a request gets at most the
//!   requester's share (rounded up) less what it holds; while nobody else waits, free
//!   shards go to whoever asks (nothing idles).
//! - **Reclaiming.** A request that finds nothing free takes a lease from
//!   another holder: first a stalled lease (its reported progress has not
//!   grown for `stall` — [`Growth`]), then one of an identity holding at
//!   least one more than its share, while the requester holds at least one
//!   less than its own ([`may_take`]: no lease can bounce back and forth).
//!   A renewal of a stalled lease while another identity or holder waits
//!   is refused: the lease ends there.
//! - **Progress is derived, not believed.** The positions a holder reports
//!   only keep a lease while it also stays within the sweep's own pace
//!   ([`Patience`]): a lease renewed for longer than [`PATIENCE_FACTOR`]
//!   times what this sweep's accepted results took from grant to accept
//!   (as the coordinator measured them: the median over the last
//!   [`PACES_KEPT`], scaled by the shard's estimate), and at least twice
//!   the stall bound, counts as stalled whatever progress it claims. So a
//!   worker that renews its leases claiming progress but never submits is
//!   reclaimed like one that claims none. Before any result of the sweep
//!   is accepted since this process started (the measurements are in
//!   memory), only `--max-lease-total` bounds it.
//! - **Not straight back.** A shard whose lease expired or was reclaimed is
//!   not handed back to the identity (or, under a shared token, the worker
//!   id) that held it while another one waits ([`lost_to`]).
//! - **Status says so** ([`HeldBack`]): an identity whose request was cut
//!   to its share within the last lease period, or whose leases were taken
//!   back, has a line in `status`.

use crate::store::voter;
pub use crate::store::SHARED_VOTER;
use std::collections::BTreeMap;

/// The identity `holder` counts as for every cap: its credential's
/// (`@NAME`), or [`SHARED_VOTER`] for every holder under a shared token.
pub fn identity(holder: &str) -> &str {
    voter(holder)
}

/// The water level of a max-min fair division of `n` shards over
/// `demands`: each gets `min(demand, level)`, and the shares sum to `n`
/// (or every demand is met: then the level is infinite).
pub fn level(demands: &[u32], n: u32) -> f64 {
    let mut d: Vec<u32> = demands.to_vec();
    d.sort_unstable();
    let mut left = f64::from(n);
    for (k, &x) in d.iter().enumerate() {
        let rest = (d.len() - k) as f64;
        if f64::from(x) * rest > left {
            return left / rest;
        }
        left -= f64::from(x);
    }
    f64::INFINITY
}

/// An identity's share at water level `level` with demand `demand`.
pub fn share(demand: u32, level: f64) -> f64 {
    f64::from(demand).min(level)
}

/// How many more free shards an identity holding `held` may be given
/// while another waits: its share, rounded up (a shard split between two
/// identities goes to whichever asks first), less what it holds.
pub fn allowance(share: f64, held: u32) -> u32 {
    let whole = if share.is_finite() {
        share.ceil() as u32
    } else {
        u32::MAX
    };
    whole.saturating_sub(held)
}

/// Whether a requester holding `mine` of its share `my_share` may take a
/// lease of a victim identity holding `theirs` of its share `their_share`:
/// the victim holds at least one more than its share and the requester at
/// least one less than its own, so after the move neither crosses its
/// share and the reverse move is never allowed (no lease bounces).
pub fn may_take(mine: u32, my_share: f64, theirs: u32, their_share: f64) -> bool {
    f64::from(theirs) >= their_share + 1.0 && f64::from(mine) + 1.0 <= my_share
}

/// The progress of one lease as the coordinator saw it grow: the most
/// positions its holder reported, and when that number last grew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Growth {
    /// The most positions reported so far.
    pub best: u64,
    /// When (Unix ms) `best` last grew, or the lease was granted.
    pub at_ms: u64,
}

impl Growth {
    /// A lease granted at `now_ms`.
    pub fn granted(now_ms: u64) -> Self {
        Growth {
            best: 0,
            at_ms: now_ms,
        }
    }

    /// A renewal at `now_ms` reporting `progress` positions (already capped
    /// at what the shard can hold): it counts only if it grew.
    pub fn note(&mut self, progress: u64, now_ms: u64) {
        if progress > self.best {
            self.best = progress;
            self.at_ms = now_ms;
        }
    }

    /// No growth for `stall_ms` up to `now_ms`.
    pub fn stalled(&self, now_ms: u64, stall_ms: u64) -> bool {
        now_ms.saturating_sub(self.at_ms) >= stall_ms
    }
}

/// How many times what the sweep's results took a lease may go on
/// without its result while another identity waits ([`Patience`]).
pub const PATIENCE_FACTOR: u64 = 4;

/// The accepted results' measured durations [`Patience`] keeps.
pub const PACES_KEPT: usize = 255;

/// What a sweep's accepted results took, from their lease's grant to their
/// acceptance as the coordinator measured them (nothing a worker says):
/// the last [`PACES_KEPT`], each with its shard's estimate. The median
/// (so a minority of slow results cannot stretch it) bounds how long a
/// lease may be renewed without its result while another identity waits.
#[derive(Clone, Debug, Default)]
pub struct Patience {
    /// (milliseconds from grant to acceptance, the shard's estimate).
    taken: std::collections::VecDeque<(u64, u64)>,
}

impl Patience {
    /// A result accepted `took_ms` after its lease's grant, for a shard
    /// estimated at `estimate` positions.
    pub fn note(&mut self, took_ms: u64, estimate: u64) {
        if self.taken.len() >= PACES_KEPT {
            self.taken.pop_front();
        }
        self.taken.push_back((took_ms, estimate));
    }

    /// How long a lease of a shard estimated at `estimate` positions may be
    /// renewed without its result while another identity waits:
    /// [`PATIENCE_FACTOR`] × the median time per estimated position of the
    /// kept results × `estimate` (or × the median time, when the shard or
    /// the results have no estimate), at least `floor_ms`; `None` before
    /// any result was measured.
    pub fn bound_ms(&self, estimate: u64, floor_ms: u64) -> Option<u64> {
        if self.taken.is_empty() {
            return None;
        }
        let median = |mut v: Vec<f64>| -> Option<f64> {
            if v.is_empty() {
                return None;
            }
            v.sort_by(f64::total_cmp);
            Some(v[v.len() / 2])
        };
        let per_position = median(
            self.taken
                .iter()
                .filter(|(_, e)| *e > 0)
                .map(|&(ms, e)| ms as f64 / e as f64)
                .collect(),
        );
        let expected = match per_position.filter(|_| estimate > 0) {
            Some(r) => r * estimate as f64,
            None => median(self.taken.iter().map(|&(ms, _)| ms as f64).collect())?,
        };
        let bound = (expected * PATIENCE_FACTOR as f64).min(u64::MAX as f64) as u64;
        Some(bound.max(floor_ms))
    }
}

/// What the fair share did to one identity, for `status`: when a lease
/// request of it was last cut to its share while another identity waited,
/// and how many of its leases were taken back (since this process started).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeldBack {
    /// When (Unix ms) a request of it was last cut to its share.
    pub limited_ms: Option<u64>,
    /// Its leases taken back: for another identity's share, or renewed
    /// without progress (claimed progress or not: [`Patience`]).
    pub reclaimed: u64,
}

/// What one worker declared at its last lease request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// Leases held plus leases asked for (capped).
    pub demand: u32,
    /// When (Unix ms) it last got fewer than it asked for, if it did at
    /// its last request.
    pub short_ms: Option<u64>,
}

/// Whether a worker that asked as `a` is waiting at `now_ms` (short within
/// `window_ms`).
pub fn waiting(a: &Asked, now_ms: u64, window_ms: u64) -> bool {
    a.short_ms
        .is_some_and(|t| now_ms.saturating_sub(t) < window_ms)
}

/// Whether a shard whose lease (expired, or reclaimed) was `old_holder`'s
/// may not go back to `holder` now: the same identity while another
/// identity waits, or the same worker id while another worker waits.
pub fn lost_to(
    old_holder: &str,
    holder: &str,
    other_identity_waits: bool,
    other_holder_waits: bool,
) -> bool {
    (other_identity_waits && identity(old_holder) == identity(holder))
        || (other_holder_waits && old_holder == holder)
}

/// The live identities' demands and holdings, and who waits: what a lease
/// request decides with.
#[derive(Clone, Debug, Default)]
pub struct Shares {
    /// Demand per identity (capped).
    pub demand: BTreeMap<String, u32>,
    /// Unexpired leases held per identity (in the sweeps considered).
    pub held: BTreeMap<String, u32>,
    /// Identities waiting.
    pub waiting: std::collections::BTreeSet<String>,
    /// Worker ids waiting.
    pub waiting_holders: std::collections::BTreeSet<String>,
    /// The water level over the open shards.
    pub level: f64,
}

impl Shares {
    /// The division of `open` shards, given each live worker's
    /// `(worker id, what it asked, alive)` at `now_ms`, the leases held
    /// per worker id, the per-identity cap and the waiting window.
    pub fn new<'a>(
        workers: impl IntoIterator<Item = (&'a str, Asked)>,
        held_by_holder: &BTreeMap<String, u32>,
        open: u32,
        cap: u32,
        now_ms: u64,
        window_ms: u64,
    ) -> Self {
        let mut s = Shares::default();
        for (w, a) in workers {
            let id = identity(w);
            let d = s.demand.entry(id.to_string()).or_insert(0);
            *d = d.saturating_add(a.demand).min(cap);
            if waiting(&a, now_ms, window_ms) {
                s.waiting.insert(id.to_string());
                s.waiting_holders.insert(w.to_string());
            }
        }
        for (w, &n) in held_by_holder {
            let h = s.held.entry(identity(w).to_string()).or_insert(0);
            *h = h.saturating_add(n);
        }
        let demands: Vec<u32> = s.demand.values().copied().collect();
        s.level = level(&demands, open);
        s
    }

    /// Identity `id`'s share.
    pub fn share_of(&self, id: &str) -> f64 {
        share(self.demand.get(id).copied().unwrap_or(0), self.level)
    }

    /// Identity `id`'s unexpired leases.
    pub fn held_of(&self, id: &str) -> u32 {
        self.held.get(id).copied().unwrap_or(0)
    }

    /// An identity other than `id` waits.
    pub fn other_identity_waits(&self, id: &str) -> bool {
        self.waiting.iter().any(|w| w != id)
    }

    /// A worker id other than `holder` waits.
    pub fn other_holder_waits(&self, holder: &str) -> bool {
        self.waiting_holders.iter().any(|w| w != holder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_divides_max_min_fairly() {
        // 65 shards, one identity wanting 2, one wanting 256: 2 and 63.
        let l = level(&[2, 256], 65);
        assert_eq!(l, 63.0);
        assert_eq!((share(2, l), share(256, l)), (2.0, 63.0));
        // Three equal demands over 10 shards: 10/3 each.
        let l = level(&[8, 8, 8], 10);
        assert!((l - 10.0 / 3.0).abs() < 1e-12);
        // Every demand met: no limit.
        assert_eq!(level(&[2, 3], 10), f64::INFINITY);
        assert_eq!(level(&[], 10), f64::INFINITY);
        // The shares sum to the open shards when not every demand is met.
        let d = [1, 5, 40, 256];
        let l = level(&d, 30);
        let sum: f64 = d.iter().map(|&x| share(x, l)).sum();
        assert!((sum - 30.0).abs() < 1e-9, "{sum}");
    }

    #[test]
    fn an_allowance_is_the_share_rounded_down_less_what_is_held() {
        assert_eq!(allowance(2.0, 0), 2);
        assert_eq!(allowance(2.9, 1), 2);
        assert_eq!(allowance(1.5, 1), 1);
        assert_eq!(allowance(1.5, 2), 0);
        assert_eq!(allowance(0.0, 0), 0);
        assert_eq!(allowance(f64::INFINITY, 7), u32::MAX - 7);
    }

    #[test]
    fn a_lease_moves_only_from_above_a_share_to_below_one_and_never_back() {
        // 3 open shards, both wanting more: 1.5 each. The hoarder holds 3.
        let (a, b) = (1.5, 1.5);
        assert!(may_take(0, a, 3, b));
        // After one move: 1 and 2; no further move either way.
        assert!(!may_take(1, a, 2, b));
        assert!(!may_take(2, b, 1, a));
        // Every state reachable by moves is stable under the reverse move.
        for mine in 0..6 {
            for theirs in 0..6 {
                if may_take(mine, a, theirs, b) {
                    assert!(!may_take(theirs - 1, b, mine + 1, a));
                }
            }
        }
    }

    #[test]
    fn progress_counts_only_when_it_grows() {
        let mut g = Growth::granted(1_000);
        assert!(!g.stalled(2_999, 2_000));
        assert!(g.stalled(3_000, 2_000));
        g.note(0, 2_500); // no growth: still from the grant
        assert!(g.stalled(3_000, 2_000));
        g.note(10, 2_600);
        assert!(!g.stalled(4_599, 2_000));
        g.note(10, 4_000); // the same number again is not progress
        g.note(5, 4_100); // nor a smaller one
        assert!(g.stalled(4_600, 2_000));
        assert_eq!(g.best, 10);
    }

    #[test]
    fn patience_is_a_multiple_of_the_median_pace_scaled_by_the_estimate() {
        let mut p = Patience::default();
        assert_eq!(p.bound_ms(100, 20_000), None, "nothing measured yet");
        // 10 s, 20 s and 600 s for shards of 1,000 positions: the median
        // is 20 ms a position, the slow one does not stretch it.
        for ms in [10_000, 20_000, 600_000] {
            p.note(ms, 1_000);
        }
        assert_eq!(p.bound_ms(1_000, 0), Some(80_000));
        assert_eq!(p.bound_ms(3_000, 0), Some(240_000));
        // Never under the floor.
        assert_eq!(p.bound_ms(1_000, 100_000), Some(100_000));
        // A shard without an estimate: the median time.
        assert_eq!(p.bound_ms(0, 0), Some(80_000));
        // Only the last PACES_KEPT count.
        for _ in 0..PACES_KEPT {
            p.note(1_000, 1_000);
        }
        assert_eq!(p.bound_ms(1_000, 0), Some(4_000));
    }

    #[test]
    fn a_shared_token_is_one_identity_for_shares_and_waiting() {
        let asked = |d, short: Option<u64>| Asked {
            demand: d,
            short_ms: short,
        };
        let workers = vec![
            ("h-1", asked(200, Some(9_900))),
            ("h-2", asked(200, None)),
            ("@honest", asked(2, Some(9_950))),
        ];
        let held: BTreeMap<String, u32> =
            [("h-1".to_string(), 100), ("h-2".to_string(), 50)].into();
        let s = Shares::new(workers, &held, 160, 256, 10_000, 1_000);
        // h-1 and h-2 are one identity: their demand is capped once.
        assert_eq!(s.demand[SHARED_VOTER], 256);
        assert_eq!(s.held_of(SHARED_VOTER), 150);
        assert_eq!(s.share_of("@honest"), 2.0);
        assert_eq!(s.share_of(SHARED_VOTER), 158.0);
        assert!(s.other_identity_waits("@honest"));
        assert!(s.other_identity_waits(SHARED_VOTER));
        assert!(s.other_holder_waits("h-1"));
        // The honest identity may take one of the shared identity's leases
        // only while that one holds more than its share.
        assert!(!may_take(
            0,
            s.share_of("@honest"),
            150,
            s.share_of(SHARED_VOTER)
        ));
        assert!(may_take(0, 2.0, 160, 158.0));
        // A lease h-1 lost does not go back to h-2 (same identity) while
        // @honest waits, nor to h-1 while another worker waits.
        assert!(lost_to("h-1", "h-2", true, true));
        assert!(lost_to("h-1", "h-1", false, true));
        assert!(!lost_to("h-1", "@honest", true, true));
        assert!(!lost_to("@honest", "@honest", false, false));
        // Waiting lapses after the window.
        assert!(waiting(&asked(1, Some(9_000)), 9_999, 1_000));
        assert!(!waiting(&asked(1, Some(9_000)), 10_000, 1_000));
    }
}
