//! Several sweeps at once (fair share by priority, pause and resume), the
//! rate over a recent window, no ETA for settled sweeps, projected
//! estimates, and refusing to cancel a finished sweep: the core on a manual
//! clock.

use super::run_and_submit;
use crate::core::status::ShownState;
use crate::core::*;
use crate::store::{MemStore, SledStore};
use gamesweep::kinds;

fn mem_core() -> (Core, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    let core = Core::open_with_clock(
        Arc::new(MemStore::new()),
        Duration::from_secs(60),
        clock.clone(),
    )
    .unwrap();
    (core, clock)
}

fn spec(kind: &str, params: &[(&str, u64)], name: &str, shards: u32, priority: u32) -> LaunchSpec {
    LaunchSpec {
        replicate_all: false,
        part: None,
        kind: kind.into(),
        params: params.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
        name: Some(name.into()),
        target_shards: shards,
        resume_existing: false,
        sample: None,
        verify_ppm: 0,
        verify_seed: None,
        priority,
    }
}

fn uvg(max_n: u64, name: &str, shards: u32, priority: u32) -> LaunchSpec {
    spec("uvg", &[("max_n", max_n)], name, shards, priority)
}

fn status_of(c: &Core, id: &str) -> SweepStatus {
    c.status(Some(id)).unwrap().0.remove(0)
}

/// A big sweep launched first (and named first) does not starve a small
/// one: one worker taking one shard at a time gets them interleaved.
#[test]
fn a_small_sweep_is_not_starved_behind_a_big_one() {
    let (c, _clock) = mem_core();
    let big = c.launch(&uvg(8, "a-big", 16, 0)).unwrap();
    let small = c.launch(&uvg(7, "b-small", 4, 0)).unwrap();
    assert!(big.shards > 2 * small.shards, "{big:?} {small:?}");
    let mut order = Vec::new();
    for _ in 0..(big.shards + small.shards) {
        let got = c.lease("w", &solver_version(), 1).unwrap().leases;
        assert_eq!(got.len(), 1);
        order.push(got[0].sweep_id.clone());
        assert!(run_and_submit(&c, "w", &got[0]));
    }
    let last_small = order.iter().rposition(|id| id == "b-small").unwrap();
    // Alternating: the small sweep's last shard is among the first 2 × its shards.
    assert!(
        last_small < 2 * small.shards as usize,
        "small sweep served late: {order:?}"
    );
    assert_eq!(status_of(&c, "b-small").state, ShownState::Done);
    assert_eq!(status_of(&c, "a-big").state, ShownState::Done);
}

/// Priority 3 against 1 gets three times the leases.
#[test]
fn priority_weights_the_share_of_leases() {
    let (c, _clock) = mem_core();
    c.launch(&uvg(8, "hi", 16, 3)).unwrap();
    c.launch(&uvg(8, "lo", 16, 1)).unwrap();
    let (mut hi, mut lo) = (0, 0);
    for w in 0..16 {
        for g in c
            .lease(&format!("w{w}"), &solver_version(), 1)
            .unwrap()
            .leases
        {
            match g.sweep_id.as_str() {
                "hi" => hi += 1,
                _ => lo += 1,
            }
        }
    }
    assert_eq!(hi + lo, 16);
    assert!((11..=13).contains(&hi), "hi {hi}, lo {lo}");
    assert_eq!(status_of(&c, "hi").priority, 3);
    assert_eq!(status_of(&c, "lo").priority, 1);
    // Out of range is refused.
    let e = c.launch(&uvg(5, "x", 0, 1001)).unwrap_err();
    assert!(
        e.to_string().contains("priority 1001 is out of range"),
        "{e}"
    );
}

/// A paused sweep hands out nothing (held leases still finish), is shown
/// as paused without an ETA, stays paused across a restart, and resumes.
#[test]
fn pause_stops_leasing_and_resume_restarts_it() {
    let dir = tempfile::tempdir().unwrap();
    let open = || {
        let clock = Arc::new(ManualClock::new());
        let store = Arc::new(SledStore::open_when_free(dir.path()));
        (
            Core::open_with_clock(store, Duration::from_secs(60), clock.clone()).unwrap(),
            clock,
        )
    };
    let (c, _clock) = open();
    c.launch(&uvg(7, "s", 4, 2)).unwrap();
    let held = c.lease("w", &solver_version(), 1).unwrap().leases;
    assert_eq!(held.len(), 1);
    c.pause("s", true).unwrap();
    let e = c.pause("s", true).unwrap_err();
    assert!(e.to_string().contains("already paused"), "{e}");
    let out = c.lease("w2", &solver_version(), 4).unwrap();
    assert!(
        out.leases.is_empty(),
        "a paused sweep leased {:?}",
        out.leases
    );
    assert!(
        !out.idle,
        "a paused sweep is not finished: workers must not leave"
    );
    assert!(run_and_submit(&c, "w", &held[0]), "a held lease may finish");
    let st = status_of(&c, "s");
    assert_eq!(st.state, ShownState::Paused);
    assert_eq!(st.eta_seconds, None);
    drop(c);
    let (c, _clock) = open();
    let st = status_of(&c, "s");
    assert_eq!(st.state, ShownState::Paused, "paused across a restart");
    assert_eq!(st.priority, 2, "priority across a restart");
    assert!(c
        .lease("w", &solver_version(), 4)
        .unwrap()
        .leases
        .is_empty());
    c.pause("s", false).unwrap();
    let e = c.pause("s", false).unwrap_err();
    assert!(e.to_string().contains("is not paused"), "{e}");
    let got = c.lease("w", &solver_version(), 100).unwrap().leases;
    assert!(!got.is_empty());
    for g in &got {
        assert!(run_and_submit(&c, "w", g));
    }
    assert_eq!(status_of(&c, "s").state, ShownState::Done);
    let e = c.pause("s", true).unwrap_err();
    assert!(
        e.to_string().contains("already done; nothing to pause"),
        "{e}"
    );
}

/// Cancelling a finished sweep is refused with a clear message (it used to
/// answer "cancelled"); so is cancelling twice.
#[test]
fn cancelling_a_finished_or_cancelled_sweep_is_refused() {
    let (c, _clock) = mem_core();
    c.launch(&uvg(5, "done", 0, 0)).unwrap();
    for g in c.lease("w", &solver_version(), 100).unwrap().leases {
        assert!(run_and_submit(&c, "w", &g));
    }
    let e = c.cancel("done").unwrap_err();
    assert!(matches!(e, CoreError::BadRequest(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "sweep `done` is already done; nothing to cancel"
    );
    c.launch(&uvg(7, "run", 4, 0)).unwrap();
    c.cancel("run").unwrap();
    let e = c.cancel("run").unwrap_err();
    assert!(e.to_string().contains("already cancelled"), "{e}");
}

/// The rate counts only the recent window: idle time before the first
/// worker does not lower it; it drops to 0 when nothing moves for the
/// window; a done or cancelled sweep shows no rate and no ETA.
#[test]
fn the_rate_is_over_a_recent_window_and_settled_sweeps_have_no_eta() {
    let (c, clock) = mem_core();
    let l = c.launch(&uvg(8, "s", 16, 0)).unwrap();
    // Nobody works on it for an hour.
    clock.advance(Duration::from_secs(3600));
    let first = c.lease("w", &solver_version(), 1).unwrap().leases;
    clock.advance(Duration::from_secs(10));
    assert!(run_and_submit(&c, "w", &first[0]));
    let st = status_of(&c, "s");
    let want = st.positions_done as f64 / 10.0;
    assert!(
        (st.rate - want).abs() < 1e-6 * want,
        "rate {} over the 10 s of work, not the idle hour: want {want}",
        st.rate
    );
    let eta = st
        .eta_seconds
        .expect("a running sweep with a rate has an ETA");
    assert!(eta > 0.0);
    // Nothing moves for longer than the window: rate 0, no ETA.
    clock.advance(Duration::from_secs(3600));
    let st = status_of(&c, "s");
    assert_eq!(st.rate, 0.0);
    assert_eq!(st.eta_seconds, None);
    // Finish it: done, no rate, no ETA.
    for g in c.lease("w", &solver_version(), 100).unwrap().leases {
        clock.advance(Duration::from_secs(1));
        assert!(run_and_submit(&c, "w", &g));
    }
    let st = status_of(&c, "s");
    assert_eq!(st.state, ShownState::Done);
    assert_eq!(st.shards_done, l.shards);
    assert_eq!((st.rate, st.eta_seconds), (0.0, None));
    assert_eq!(st.positions_projected, st.positions_done);
    // A cancelled sweep has no ETA either.
    c.launch(&uvg(8, "c", 16, 0)).unwrap();
    let g = c.lease("w", &solver_version(), 1).unwrap().leases;
    clock.advance(Duration::from_secs(5));
    assert!(run_and_submit(&c, "w", &g[0]));
    assert!(status_of(&c, "c").eta_seconds.is_some());
    c.cancel("c").unwrap();
    let st = status_of(&c, "c");
    assert_eq!(st.state, ShownState::Cancelled);
    assert_eq!((st.rate, st.eta_seconds), (0.0, None));
}

/// The local search's estimate assumes every climb runs all its steps; its
/// climbs stop at the target value, so the plan's estimate is several times
/// the real work. The projection from the done shards corrects it.
#[test]
fn the_projection_corrects_an_estimate_that_is_an_upper_bound() {
    let (c, _clock) = mem_core();
    let params = [
        ("value", 6),
        ("vertices", 12),
        ("seeds", 16),
        ("steps", 20_000),
    ];
    let l = c
        .launch(&spec("uvg-local-search", &params, "ls", 16, 0))
        .unwrap();
    assert_eq!(l.shards, 16);
    let all = c.lease("w", &solver_version(), 100).unwrap().leases;
    for g in &all[..8] {
        assert!(run_and_submit(&c, "w", g));
    }
    let mid = status_of(&c, "ls");
    assert!(mid
        .estimate_spread
        .is_some_and(|x| x.is_finite() && x >= 0.0));
    for g in &all[8..] {
        assert!(run_and_submit(&c, "w", g));
    }
    let end = status_of(&c, "ls");
    let actual = end.positions_done as f64;
    assert_eq!(end.positions_projected, end.positions_done);
    // The plan's estimate is far off (more than twice the work) ...
    assert!(mid.positions_estimate as f64 > 2.0 * actual, "{mid:?}");
    // ... the projection from half the shards is within a factor 1.5.
    let p = mid.positions_projected as f64;
    println!(
        "local search: plan estimate {}, projected from 8 of 16 shards {} (spread {:?}), actual {}",
        mid.positions_estimate, mid.positions_projected, mid.estimate_spread, end.positions_done
    );
    assert!(
        p < 1.5 * actual && p > actual / 1.5,
        "projected {p}, actual {actual}"
    );
}

/// A plan whose estimates err by size, as the n = 12 plan's do (its
/// largest fifth took 0.89 of its estimates, the whole plan 1.002): shard
/// `i` of `n` is estimated at 1,000,000 + 1,000·i positions and takes its
/// estimate times 0.85 for the largest, rising to 1.05 for the smallest,
/// times a seeded ±4 % (the spread the n = 12 campaign measured). Leased
/// in the sweep's order until a tenth is done, the projection must hold
/// within 1 % (with one ratio over the done shards, which are the largest,
/// 7 % low on this plan, measured on the build before).
#[test]
fn the_projection_holds_when_the_largest_shards_estimates_err_high() {
    use crate::core::model::{ShardState, Sweep};
    use crate::store::SweepRecord;
    use gamesweep::sweep::ShardSpec;
    use rand::{Rng, SeedableRng};
    let (c, _clock) = mem_core();
    let n: u32 = 4096;
    let est = |i: u32| 1_000_000 + 1_000 * u64::from(i);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20_261_205);
    let work: Vec<u64> = (0..n)
        .map(|i| {
            // i = n − 1 is the largest estimate.
            let size = f64::from(i) / f64::from(n - 1);
            let r = (1.05 - 0.2 * size) * rng.random_range(0.96..1.04);
            (est(i) as f64 * r).round() as u64
        })
        .collect();
    let truth: u64 = work.iter().sum();
    let kind = kinds::find("uvg").unwrap();
    let record = SweepRecord {
        kind: "uvg".into(),
        params: [("max_n".to_string(), 5)].into(),
        solver_version: kind.version(),
        target_shards: n,
        ..crate::store::fixtures::record("p")
    };
    let plan: Vec<ShardSpec> = (0..n)
        .map(|index| ShardSpec {
            index,
            payload: "{}".into(),
            estimate: est(index),
        })
        .collect();
    let mut s = Sweep::new(record, super::super::model::KindRef(kind), plan);
    let order = s.order.clone();
    let tenth = &order[..order.len() / 10];
    for &i in tenth {
        s.set_work(i, work[i as usize]);
        s.set_state(i, ShardState::Done);
    }
    // One ratio over these done shards, as the projection had it.
    let (e, w) = tenth.iter().fold((0u64, 0u64), |(e, w), &i| {
        (e + est(i), w + work[i as usize])
    });
    let all: u64 = (0..n).map(est).sum();
    let one_ratio = w as f64 + (all - e) as f64 * (w as f64 / e as f64);
    c.lock().sweeps.insert("p".into(), s);
    let st = status_of(&c, "p");
    let projected = st.positions_projected as f64 / truth as f64;
    println!(
        "projection at 10 %: {:.4} of the truth (one ratio over the done shards: {:.4}; the plan's estimate {:.4})",
        projected,
        one_ratio / truth as f64,
        all as f64 / truth as f64
    );
    assert!(
        (projected - 1.0).abs() < 0.01,
        "projected {projected:.4} of the truth"
    );
    // The plan errs by size as intended: one ratio would be far off.
    assert!(one_ratio / (truth as f64) < 0.95);
}

/// A long sweep's order starts with one probe per estimate bin, the middle
/// shard of each run of equal length, largest first; then every other
/// shard, largest first; a short one is largest first alone.
#[test]
fn a_long_sweeps_lease_order_starts_with_a_probe_of_every_estimate_bin() {
    use crate::core::model::{lease_order, ESTIMATE_BINS, PROBES_FROM};
    use crate::store::fixtures;
    use gamesweep::sweep::ShardSpec;
    let plan = |n: u32| -> Vec<ShardSpec> {
        // Estimates in a scrambled order, with ties.
        (0..n)
            .map(|index| ShardSpec {
                index,
                payload: "{}".into(),
                estimate: u64::from((index * 7919) % n / 3),
            })
            .collect()
    };
    let record = fixtures::record("s");
    let by_size = |p: &[ShardSpec]| {
        let mut o: Vec<u32> = (0..p.len() as u32).collect();
        o.sort_by_key(|&i| (std::cmp::Reverse(p[i as usize].estimate), i));
        o
    };
    let short = plan(PROBES_FROM as u32 - 1);
    assert_eq!(lease_order(&short, &record), by_size(&short));
    let n = 4096usize;
    let long = plan(n as u32);
    let order = lease_order(&long, &record);
    let sorted = by_size(&long);
    let run = n / ESTIMATE_BINS;
    let probes: Vec<u32> = (0..ESTIMATE_BINS)
        .map(|b| sorted[b * run + run / 2])
        .collect();
    assert_eq!(order[..ESTIMATE_BINS], probes[..]);
    let rest: Vec<u32> = sorted
        .iter()
        .copied()
        .filter(|i| !probes.contains(i))
        .collect();
    assert_eq!(order[ESTIMATE_BINS..], rest[..]);
}
