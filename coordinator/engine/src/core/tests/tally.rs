//! Status at scale: the per-sweep shard counts are maintained on every
//! transition, so a status costs O(leases held), not O(shards). Checked
//! against a scan after random operations; `latency::status_latency` measures
//! it at 65,536 and 1,048,576 shards (`bench/status-latency.sh`; compiled
//! only with the `measurements` feature).

use crate::core::model::{End, Sweep, Tally};
use crate::core::*;
use crate::store::MemStore;
use std::collections::BTreeMap;

/// The measurement (not a test: compiled only with the `measurements`
/// feature, so `cargo test -- --include-ignored` never runs it):
/// `bench/status-latency.sh`.
#[cfg(feature = "measurements")]
mod latency {
    use super::*;
    use crate::core::model::KindRef;
    use crate::store::{SweepRecord, SweepState};
    use gamesweep::kinds;
    use gamesweep::sweep::ShardSpec;
    use std::time::Instant;

    /// A running `uvg` sweep `id` of `n` synthetic shards (estimate 1,000
    /// each), installed in `c` directly (planning 65,536 real shards would
    /// take longer than the status calls being measured).
    fn install(c: &Core, id: &str, n: u32) {
        let kind = kinds::find("uvg").unwrap();
        let record = SweepRecord {
            replicate_all: false,
            id: id.into(),
            kind: "uvg".into(),
            params: [("max_n".to_string(), 5)].into(),
            solver_version: kind.version(),
            target_shards: n,
            seq: 1,
            state: SweepState::Running,
            sample: None,
            verify_ppm: 0,
            verify_seed: 0,
            paused: false,
            priority: 1,
            part: None,
            earlier_solvers: Vec::new(),
        };
        let plan = (0..n)
            .map(|index| ShardSpec {
                index,
                payload: "{}".into(),
                estimate: 1_000,
            })
            .collect();
        let s = Sweep::new(record, KindRef(kind), plan);
        c.lock().sweeps.insert(id.into(), s);
    }

    #[test]
    #[ignore = "a measurement: bench/status-latency.sh"]
    fn status_latency() {
        for n in [65_536, 1 << 20] {
            status_latency_at(n);
        }
    }

    /// Status latency with `n` shards, 32,768 of them done and 2,048 leased.
    fn status_latency_at(n: u32) {
        let clock = Arc::new(ManualClock::new());
        let c = Core::open_with_clock(Arc::new(MemStore::new()), Duration::from_secs(60), clock)
            .unwrap();
        install(&c, "big", n);
        let v = solver_version();
        let empty = kinds::find("uvg").unwrap().empty();
        // Half the shards done (empty results), 2,048 leased to 8 workers.
        for w in 0..128 {
            let worker = format!("done-{w}");
            for g in c.lease(&worker, &v, 256).unwrap().leases {
                let sub = Submission {
                    worker: worker.clone(),
                    version: v.clone(),
                    sweep_id: g.sweep_id.clone(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    result: empty.clone(),
                    timing: None,
                    positions: None,
                };
                assert!(c.submit(sub).unwrap());
            }
        }
        // Each of the 8 an issued identity of its own: the 256-lease cap is
        // per identity, and every holder under the shared token is one.
        for w in 0..8 {
            assert_eq!(
                c.lease(&format!("@w{w}"), &v, 256).unwrap().leases.len(),
                256
            );
        }
        let st = &c.status(Some("big")).unwrap().0[0];
        assert_eq!((st.shards_done, st.shards_leased), (32_768, 2_048));
        let calls = 200;
        let t = Instant::now();
        for _ in 0..calls {
            std::hint::black_box(c.status(None).unwrap());
        }
        let per = t.elapsed() / calls;
        println!("status at {n} shards (32,768 done, 2,048 leased, 136 workers): {per:?} per call");
        let t = Instant::now();
        for _ in 0..calls {
            std::hint::black_box(c.worker_work());
        }
        println!(
            "the dashboard's positions per worker of the same: {:?} per call",
            t.elapsed() / calls
        );
    }
}

/// The counts status shows, by the scan status did before they were
/// maintained: (pending, leased, in-flight progress, failed, sample done,
/// open).
fn scanned(s: &Sweep, now_ms: u64) -> (u32, u32, u64, u32, u32, bool) {
    let (mut pending, mut leased, mut inflight, mut failed) = (0, 0, 0u64, 0);
    for (i, state) in s.states.iter().enumerate() {
        match state {
            ShardState::Pending => pending += 1,
            ShardState::Leased(l) if l.until_ms > now_ms => {
                leased += 1;
                inflight += s.progress.get(&(i as u32)).copied().unwrap_or(0);
            }
            ShardState::Leased(_) => pending += 1,
            ShardState::Failed => failed += 1,
            ShardState::Done => {}
        }
    }
    let sample_done = s.record.sample.as_ref().map_or(0, |smp| {
        let done = |i: &&u32| s.states[**i as usize] == ShardState::Done;
        smp.shards.iter().filter(done).count() as u32
    });
    let open = s.order.iter().any(|&i| {
        matches!(
            s.states[i as usize],
            ShardState::Pending | ShardState::Leased(_)
        )
    }) || s.replication.pending();
    (pending, leased, inflight, failed, sample_done, open)
}

/// After every one of many seeded random operations (lease, renew, give
/// back, submit, late submit, fail, time passing, resume, widening a
/// sample), the maintained counts equal a scan, and status shows the
/// scan's numbers.
#[test]
fn maintained_counts_equal_a_scan_after_random_operations() {
    use rand::{Rng, SeedableRng};
    let lease_len = Duration::from_secs(10);
    let clock = Arc::new(ManualClock::new());
    let c = Core::open_with_clock(Arc::new(MemStore::new()), lease_len, clock.clone()).unwrap();
    let spec = |name: &str, sample: Option<SampleRequest>| LaunchSpec {
        replicate_all: false,
        part: None,
        kind: "uvg".into(),
        params: [("max_n".to_string(), 6)].into(),
        name: Some(name.into()),
        target_shards: 12,
        resume_existing: false,
        sample,
        verify_ppm: 0,
        verify_seed: None,
        priority: 0,
    };
    let smp = SampleRequest {
        ppm: 300_000,
        seed: 3,
    };
    let ids = [
        c.launch(&spec("a", None)).unwrap().sweep_id,
        c.launch(&spec("b", Some(smp))).unwrap().sweep_id,
    ];
    let v = solver_version();
    let workers = ["w0", "w1", "w2"];
    let mut held: Vec<(String, Granted)> = Vec::new();
    let mut results: BTreeMap<(String, u32), gamesweep::sweep::Output> = BTreeMap::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    let mut seen = [0u32; 9];
    for step in 0..3_000 {
        let op = rng.random_range(0..9);
        let w = workers[rng.random_range(0..workers.len())];
        let pick = |rng: &mut rand_chacha::ChaCha8Rng, n: usize| rng.random_range(0..n.max(1));
        let did = match op {
            0 | 1 => {
                let max = rng.random_range(1..4);
                let got = c.lease(w, &v, max).unwrap().leases;
                let any = !got.is_empty();
                held.extend(got.into_iter().map(|g| (w.to_string(), g)));
                any
            }
            2 if !held.is_empty() => {
                let (w, g) = &held[pick(&mut rng, held.len())];
                let h = Held {
                    sweep_id: g.sweep_id.clone(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    progress: rng.random_range(0..1_000),
                };
                c.renew(w, &[h]).unwrap();
                true
            }
            3 if !held.is_empty() => {
                let (w, g) = held.swap_remove(pick(&mut rng, held.len()));
                let h = Held {
                    sweep_id: g.sweep_id.clone(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    progress: 0,
                };
                c.release(&w, &[h]).unwrap();
                true
            }
            4 | 5 if !held.is_empty() => {
                // Submitted, then kept: a later pick submits it again (a
                // duplicate), possibly after its lease expired (late).
                let (w, g) = held[pick(&mut rng, held.len())].clone();
                let result = results
                    .entry((g.sweep_id.clone(), g.shard.index))
                    .or_insert_with(|| {
                        let kind = g.kind;
                        let ctx = gamesweep::sweep::ShardCtx::detached();
                        kind.run_shard(&g.params, &g.shard, &ctx).unwrap()
                    })
                    .clone();
                let sub = Submission {
                    worker: w,
                    version: v.clone(),
                    sweep_id: g.sweep_id.clone(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    result,
                    timing: rng.random_bool(0.7).then_some(Timing {
                        wall_us: 1_000,
                        cpu_us: 900,
                    }),
                    positions: super::positions(&g),
                };
                // A lease re-issued to another worker since is over: its
                // result is refused.
                match c.submit(sub) {
                    Ok(_) | Err(crate::core::CoreError::Denied(_)) => {}
                    Err(e) => panic!("{e}"),
                }
                true
            }
            6 if !held.is_empty() => {
                let (w, g) = held.swap_remove(pick(&mut rng, held.len()));
                let report = FailureReport {
                    worker: w,
                    version: v.clone(),
                    sweep_id: g.sweep_id.clone(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    error: "random".into(),
                };
                match c.fail(&report) {
                    Ok(_) | Err(crate::core::CoreError::Denied(_)) => {}
                    Err(e) => panic!("{e}"),
                }
                true
            }
            7 => {
                clock.advance(lease_len.mul_f64(rng.random_range(0.0..1.5)));
                true
            }
            8 if rng.random_range(0..20) == 0 => {
                // Resume: failed shards get new tries; `b` without its
                // sample widens to its whole plan.
                let name = if rng.random_bool(0.5) { "a" } else { "b" };
                let resume = LaunchSpec {
                    resume_existing: true,
                    target_shards: 0,
                    ..spec(name, None)
                };
                c.launch(&resume).unwrap();
                true
            }
            _ => false,
        };
        if did {
            seen[op] += 1;
        }
        let now_ms = c.epoch.unix_ms(c.clock.now());
        let (shown, _) = c.status(None).unwrap();
        let st = c.lock();
        for (s, show) in st.sweeps.values().zip(&shown) {
            assert_eq!(
                s.tally,
                s.scan(),
                "step {step}, op {op}, sweep {}",
                s.record.id
            );
            let (pending, leased, inflight, failed, sample_done, open) = scanned(s, now_ms);
            assert_eq!(
                (show.shards_pending, show.shards_leased, show.shards_failed),
                (pending, leased, failed),
                "step {step}"
            );
            assert_eq!(show.shards_done, s.scan().done);
            assert_eq!(
                show.positions_done,
                s.merged.work() + inflight,
                "step {step}"
            );
            assert_eq!(s.sample_done(), sample_done);
            assert_eq!(s.open(), open, "step {step}");
            // The projection's sums and the work per worker equal a walk
            // (the Σ w²/e float up to rounding).
            let (sums, by_worker) = s.scan_work();
            assert_eq!(s.worker_work, by_worker, "step {step}");
            let m = &s.sums;
            assert_eq!(
                (m.work_all, m.n, m.est, m.work),
                (sums.work_all, sums.n, sums.est, sums.work),
                "step {step}"
            );
            assert!((m.w2e - sums.w2e).abs() <= 1e-9 * sums.w2e.max(1.0));
            // The indexed lease search finds what a walk of the order finds,
            // and each worker's held leases are what a walk counts.
            let walked = s
                .order
                .iter()
                .copied()
                .find(|&i| s.states[i as usize].free(now_ms));
            assert_eq!(
                s.first_free(now_ms, End::Largest, |_| false),
                walked,
                "step {step}"
            );
            let walked_odd = s
                .order
                .iter()
                .copied()
                .find(|&i| i % 2 == 1 && s.states[i as usize].free(now_ms));
            assert_eq!(
                s.first_free(now_ms, End::Largest, |i| i % 2 == 0),
                walked_odd
            );
            // From the back of the order (an identity on probation).
            let walked_back = s
                .order
                .iter()
                .rev()
                .copied()
                .find(|&i| i % 2 == 1 && s.states[i as usize].free(now_ms));
            assert_eq!(
                s.first_free(now_ms, End::Smallest, |i| i % 2 == 0),
                walked_back,
                "step {step}"
            );
            for w in workers {
                let n = s.held(now_ms).filter(|(_, l)| l.worker == w).count() as u32;
                assert_eq!(s.held_by(w, now_ms), n, "step {step}");
            }
        }
    }
    // Every kind of operation happened, and some sweeps got far.
    assert!(seen.iter().all(|&n| n > 0), "operations done: {seen:?}");
    let st = c.lock();
    let t: Vec<&Tally> = ids.iter().map(|id| &st.sweeps[id].tally).collect();
    assert!(t.iter().any(|t| t.done > 0) && t.iter().any(|t| t.failed > 0 || t.done > 3));
}
