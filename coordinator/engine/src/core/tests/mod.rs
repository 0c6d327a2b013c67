//! The core driven step by step on a manual clock (no test waits for real
//! time to pass), on an in-memory store except where persistence across a
//! reopen is the point.
//!
//! Longer suites are children: `sched` (several sweeps, fairness, rates),
//! `tally` (status counts at scale; the `measurements` latency), `verify`
//! (replicated validation), `writes` (a disk that fills up), `parts` (parts
//! that merge) and `solvers` (a solver build that changes mid-sweep).

mod attribution;
mod fair;
mod parts;
mod replication;
mod sched;
mod solvers;
mod tally;
mod writes;

use super::status::ShownState;
use super::*;
use crate::store::{MemStore, SledStore};
use gamesweep::kinds;
use gamesweep::sweep::{self, Output, Params};

const V: fn() -> SolverVersions = solver_version;

/// A core on a fresh [`MemStore`] and its manual clock.
fn mem_core(lease: Duration) -> (Core, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    let core = Core::open_with_clock(Arc::new(MemStore::new()), lease, clock.clone()).unwrap();
    (core, clock)
}

/// A core on the sled store in `dir`, and its manual clock.
fn sled_core(dir: &std::path::Path, lease: Duration) -> (Core, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    let store = Arc::new(SledStore::open_when_free(dir));
    let core = Core::open_with_clock(store, lease, clock.clone()).unwrap();
    (core, clock)
}

/// Launch `uvg` with `max_n` as `name` in about `shards` shards.
fn uvg(max_n: u64, name: &str, shards: u32) -> LaunchSpec {
    LaunchSpec {
        replicate_all: false,
        part: None,
        kind: "uvg".into(),
        params: [("max_n".to_string(), max_n)].into(),
        name: Some(name.into()),
        target_shards: shards,
        resume_existing: false,
        sample: None,
        verify_ppm: 0,
        verify_seed: None,
        priority: 0,
    }
}

/// `req` as a resume of the existing sweep.
fn resuming(req: &LaunchSpec) -> LaunchSpec {
    LaunchSpec {
        resume_existing: true,
        target_shards: 0,
        ..req.clone()
    }
}

fn run(g: &Granted) -> Output {
    let kind = g.kind;
    kind.run_shard(&g.params, &g.shard, &sweep::ShardCtx::detached())
        .unwrap()
}

/// The position digest an honest run of the shard of `g` returns under
/// its lease's salt (`None`: the lease asked for none).
pub(super) fn positions(g: &Granted) -> Option<u64> {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let salt = g.salt?;
    let kind = g.kind;
    let (cancel, progress, digest) = (AtomicBool::new(false), AtomicU64::new(0), AtomicU64::new(0));
    let ctx = sweep::ShardCtx::new(&cancel, &progress).with_salt(salt, &digest);
    kind.run_shard(&g.params, &g.shard, &ctx).unwrap();
    Some(digest.load(Ordering::Relaxed))
}

/// `worker`'s submission of `result` for the shard of lease `g` (with the
/// honest position digest, if its lease asks for one).
fn submission(worker: &str, g: &Granted, result: Output) -> Submission {
    Submission {
        worker: worker.into(),
        version: V(),
        sweep_id: g.sweep_id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        result,
        timing: None,
        positions: positions(g),
    }
}

/// Run the shard of `g` and submit it as `worker`: accepted? (Also the
/// other test modules' of `core`.)
pub(crate) fn run_and_submit(c: &Core, worker: &str, g: &Granted) -> bool {
    c.submit(submission(worker, g, run(g))).unwrap()
}

/// The sequential merge of the whole plan.
fn sequential(params: &Params, shards: u32) -> Output {
    let kind = kinds::find("uvg").unwrap();
    let resolved = kind.resolve_params(params).unwrap();
    let plan = kind.plan(&resolved, shards).unwrap();
    sweep::run_all_sequential(kind, &resolved, &plan).unwrap()
}

fn held(sweep_id: &str, g: &Granted) -> Held {
    Held {
        sweep_id: sweep_id.into(),
        index: g.shard.index,
        token: g.token.clone(),
        progress: 0,
    }
}

#[test]
fn expired_leases_are_reissued_and_results_accepted_once() {
    let dir = tempfile::tempdir().unwrap();
    let (c, clock) = sled_core(dir.path(), Duration::from_millis(50));
    let req = uvg(5, "s", 3);
    let l = c.launch(&req).unwrap();
    assert!(!l.existing);
    let (id, n) = (l.sweep_id, l.shards);
    let all = c.lease("a", &V(), 100).unwrap().leases;
    assert_eq!(all.len() as u32, n);
    assert!(
        c.lease("b", &V(), 1).unwrap().leases.is_empty(),
        "all leased"
    );
    // a's leases expire: b gets the first one again, with attempt 2.
    clock.advance(Duration::from_millis(80));
    let again = c.lease("b", &V(), 1).unwrap().leases;
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].attempt, 2);
    let idx = again[0].shard.index;
    let first = all.iter().find(|g| g.shard.index == idx).unwrap();
    assert_eq!(first.attempt, 1);
    assert!(
        !c.renew("a", &[held(&id, first)]).unwrap()[0],
        "a lost the shard to b"
    );
    assert!(c.renew("b", &[held(&id, &again[0])]).unwrap()[0]);
    let r = run(&again[0]);
    // a's late result arrives first: refused, the shard is b's now (a late
    // result counts only while nobody else holds the shard); b's is taken.
    let e = c.submit(submission("a", first, r.clone())).unwrap_err();
    assert!(e.to_string().contains("that lease is over"), "{e}");
    assert!(c.submit(submission("b", &again[0], r)).unwrap());
    for g in all.iter().filter(|g| g.shard.index != idx) {
        assert!(run_and_submit(&c, "a", g));
    }
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!(st[0].state, ShownState::Done);
    assert_eq!(st[0].duplicates_ignored, 0);
    assert_eq!(st[0].refused_submits, 1, "a's stale result");
    assert_eq!(
        (st[0].leases_expired, st[0].leases_released),
        (1, 0),
        "one shard waited for its lease to expire"
    );
    assert_eq!(st[0].results_stored, n);
    // The merged result equals the sequential one, and survives a reopen.
    let want = sequential(&req.params, 3);
    assert_eq!(c.merged(&id).unwrap().output, want);
    c.flush().unwrap();
    drop(c);
    let (c, _) = sled_core(dir.path(), Duration::from_millis(50));
    assert_eq!(c.merged(&id).unwrap().output, want);
    let st = c.status(Some(&id)).unwrap().0;
    assert_eq!((st[0].refused_submits, st[0].leases_expired), (1, 1));
    assert!(c.lease("a", &V(), 5).unwrap().idle);
}

#[test]
fn given_back_leases_are_handed_out_again_at_once_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (c, clock) = sled_core(dir.path(), Duration::from_secs(60));
    let req = uvg(5, "g", 3);
    let id = c.launch(&req).unwrap().sweep_id;
    let all = c.lease("a", &V(), 100).unwrap().leases;
    assert!(all.len() >= 2);
    let (first, second) = (&all[0], &all[1]);
    // Only the holder's own lease, with its own token, can be given back.
    let wrong_attempt = Held {
        token: second.token.clone(),
        ..held(&id, first)
    };
    let unknown = Held {
        sweep_id: "no-such-sweep".into(),
        ..held(&id, first)
    };
    assert_eq!(
        c.release("b", &[held(&id, first)]).unwrap(),
        [false],
        "not b's lease"
    );
    assert_eq!(
        c.release("a", &[wrong_attempt, unknown]).unwrap(),
        [false, false]
    );
    assert_eq!(c.release("a", &[held(&id, first)]).unwrap(), [true]);
    assert_eq!(
        c.release("a", &[held(&id, first)]).unwrap(),
        [false],
        "a second release changes nothing"
    );
    // No time passes, yet b gets the shard at once, as attempt 2; a's
    // renewal of it is refused.
    let again = c.lease("b", &V(), 5).unwrap().leases;
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].shard.index, again[0].attempt),
        (first.shard.index, 2)
    );
    assert_eq!(
        c.renew("a", &[held(&id, first), held(&id, second)])
            .unwrap(),
        [false, true]
    );
    clock.advance(Duration::from_secs(1));
    let st = c.status(Some(&id)).unwrap().0;
    assert_eq!(
        (st[0].leases_released, st[0].leases_expired),
        (1, 0),
        "given back, not expired"
    );
    // Finish: the result is the sequential one; the counter survives a reopen.
    assert!(run_and_submit(&c, "b", &again[0]));
    for g in all.iter().skip(1) {
        assert!(run_and_submit(&c, "a", g));
    }
    assert_eq!(c.merged(&id).unwrap().output, sequential(&req.params, 3));
    c.flush().unwrap();
    drop(c);
    let (c, _) = sled_core(dir.path(), Duration::from_secs(60));
    let st = c.status(Some(&id)).unwrap().0;
    assert_eq!((st[0].leases_released, st[0].leases_expired), (1, 0));
}

/// A sampled sweep serves only its sample, projects from it, and widened
/// to the whole plan merges exactly the sequential result.
#[test]
fn sampled_sweeps_serve_the_sample_then_widen() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    let smp = SampleRequest {
        ppm: 100_000,
        seed: 9,
    };
    let req = LaunchSpec {
        sample: Some(smp),
        ..uvg(8, "s", 40)
    };
    let l = c.launch(&req).unwrap();
    let (id, n) = (l.sweep_id, l.shards);
    let (st, _) = c.status(Some(&id)).unwrap();
    let info = st[0].sample.clone().unwrap();
    assert!(info.limited && info.shards >= 1 && info.shards < n / 2);
    assert!(
        info.estimate * 10 >= st[0].positions_estimate,
        "≥ 10 % of the estimate"
    );
    assert!(
        matches!(c.projection(&id, &[2]), Err(CoreError::BadRequest(_))),
        "nothing done yet"
    );
    // Only the sample is handed out, however much is asked for.
    let got = c.lease("w", &V(), 1000).unwrap().leases;
    assert_eq!(got.len() as u32, info.shards);
    for g in &got {
        let timed = Submission {
            timing: Some(Timing {
                wall_us: 2_000,
                cpu_us: 1_000,
            }),
            ..submission("w", g, run(g))
        };
        assert!(c.submit(timed).unwrap());
    }
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!(st[0].state, ShownState::Sampled);
    let out = c.lease("w", &V(), 1000).unwrap();
    assert!(
        out.leases.is_empty() && out.idle,
        "a finished sample is idle"
    );
    assert!(
        matches!(c.rendered(&id), Err(CoreError::NotFinished { .. })),
        "a sample is not the result"
    );
    let p = c.projection(&id, &[1, 64]).unwrap();
    assert_eq!(p.measured.shards, info.shards);
    assert_eq!(p.measured.positions, st[0].positions_done);
    assert!((p.measured.cpu_seconds - info.shards as f64 * 1e-3).abs() < 1e-9);
    // The same sample resumes; another one is refused; none widens.
    assert!(c.launch(&resuming(&req)).unwrap().existing);
    let other = LaunchSpec {
        sample: Some(SampleRequest { seed: 10, ..smp }),
        ..resuming(&req)
    };
    assert!(matches!(c.launch(&other), Err(CoreError::BadRequest(_))));
    drop(c);
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    assert_eq!(
        c.status(Some(&id)).unwrap().0[0].state,
        ShownState::Sampled,
        "survives a restart"
    );
    assert_eq!(
        c.projection(&id, &[1]).unwrap().measured.shards,
        info.shards
    );
    let widen = LaunchSpec {
        sample: None,
        ..resuming(&req)
    };
    assert!(c.launch(&widen).unwrap().existing);
    let rest = c.lease("w", &V(), 1000).unwrap().leases;
    assert_eq!(
        rest.len() as u32,
        n - info.shards,
        "widened: the rest of the plan"
    );
    for g in &rest {
        assert!(run_and_submit(&c, "w", g));
    }
    assert_eq!(c.merged(&id).unwrap().output, sequential(&req.params, 1));
    assert_eq!(c.status(Some(&id)).unwrap().0[0].state, ShownState::Done);
}

/// A shard that keeps failing is retried, then set aside; the sweep says
/// so instead of handing it out forever; resuming gives it new tries.
#[test]
fn failing_shards_are_set_aside_and_retried_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    let req = uvg(6, "f", 3);
    let l = c.launch(&req).unwrap();
    let (id, n) = (l.sweep_id, l.shards);
    // Everything but one shard succeeds.
    let all = c.lease("w", &V(), 100).unwrap().leases;
    let bad = all[0].shard.index;
    for g in &all[1..] {
        assert!(run_and_submit(&c, "w", g));
    }
    let mut token = all[0].token.clone();
    for k in 1..=MAX_FAILURES {
        let out = c
            .fail(&FailureReport {
                worker: "w".into(),
                version: V(),
                sweep_id: id.clone(),
                index: bad,
                token: token.clone(),
                error: "boom\nat line 2".into(),
            })
            .unwrap();
        assert_eq!(
            out,
            FailOutcome {
                failures: k,
                set_aside: k == MAX_FAILURES
            }
        );
        let again = c.lease("w", &V(), 100).unwrap();
        if k < MAX_FAILURES {
            assert_eq!(again.leases.len(), 1, "retried at once");
            token = again.leases[0].token.clone();
        } else {
            assert!(
                again.leases.is_empty() && again.idle,
                "set aside, nothing to serve"
            );
        }
    }
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!((st[0].state.as_str(), st[0].shards_failed), ("failed", 1));
    assert_eq!(st[0].failures[0].error, "boom at line 2", "one line");
    assert!(matches!(
        c.merged(&id),
        Err(CoreError::Failed { failed: 1, .. })
    ));
    // A late result for a set-aside shard is not merged.
    let late = Submission {
        token,
        ..submission("w", &all[0], run(&all[0]))
    };
    assert!(!c.submit(late).unwrap());
    drop(c);
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    assert_eq!(
        c.status(Some(&id)).unwrap().0[0].state,
        ShownState::Failed,
        "survives a restart"
    );
    // Resuming retries it; this time it works.
    assert!(c.launch(&resuming(&req)).unwrap().existing);
    let g = c.lease("w", &V(), 100).unwrap().leases;
    assert_eq!(g.len(), 1);
    assert!(run_and_submit(&c, "w", &g[0]));
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!((st[0].state.as_str(), st[0].results_stored), ("done", n));
    assert!(st[0].failures.is_empty());
}

#[test]
fn launch_rejects_bad_requests() {
    let (c, _) = mem_core(Duration::from_secs(1));
    assert!(matches!(
        c.launch(&LaunchSpec {
            name: None,
            ..uvg(99, "", 0)
        }),
        Err(CoreError::BadRequest(_))
    ));
    assert!(matches!(
        c.launch(&LaunchSpec {
            kind: "nope".into(),
            params: Params::new(),
            name: None,
            ..uvg(4, "", 0)
        }),
        Err(CoreError::BadRequest(_))
    ));
    assert!(matches!(
        c.launch(&uvg(4, "bad name!", 0)),
        Err(CoreError::BadRequest(_))
    ));
    let bad_sample = LaunchSpec {
        sample: Some(SampleRequest { ppm: 0, seed: 1 }),
        ..uvg(4, "x", 0)
    };
    assert!(matches!(
        c.launch(&bad_sample),
        Err(CoreError::BadRequest(_))
    ));
    let first = LaunchSpec {
        name: None,
        ..uvg(4, "", 0)
    };
    let id = c.launch(&first).unwrap().sweep_id;
    assert_eq!(id, "uvg-1");
    assert!(matches!(
        c.launch(&uvg(4, "uvg-1", 0)),
        Err(CoreError::Exists(_))
    ));
    assert!(c.launch(&resuming(&uvg(4, "uvg-1", 0))).unwrap().existing);
    let wrong_build = Submission {
        worker: "w".into(),
        version: V().all_at("other"),
        sweep_id: id.clone(),
        index: 0,
        token: String::new(),
        result: kinds::find("uvg").unwrap().empty(),
        timing: None,
        positions: None,
    };
    assert!(matches!(
        c.submit(wrong_build.clone()),
        Err(CoreError::VersionMismatch { .. })
    ));
    // Versions are per kind: a worker whose `col` solver differs still
    // serves a `uvg` sweep, one whose `uvg` solver differs does not.
    let other_kind_changed = V().with("col", "0.0.0+changed");
    let this_kind_changed = V().with("uvg", "0.0.0+changed");
    assert_ne!(this_kind_changed, V());
    assert!(matches!(
        c.lease("w2", &this_kind_changed, 1),
        Err(CoreError::VersionMismatch { .. })
    ));
    assert_eq!(
        c.lease("w2", &other_kind_changed, 1).unwrap().leases.len(),
        1
    );
    let no_shard = Submission {
        version: V(),
        index: 10_000,
        ..wrong_build.clone()
    };
    assert!(matches!(c.submit(no_shard), Err(CoreError::BadRequest(_))));
    let elsewhere = Submission {
        version: V(),
        sweep_id: "nope".into(),
        ..wrong_build
    };
    assert!(matches!(
        c.submit(elsewhere),
        Err(CoreError::NoSuchSweep(_))
    ));
    assert!(matches!(
        c.decode_result(&id, 0, b"not json"),
        Err(CoreError::BadRequest(_))
    ));
}

/// Expiry is decided by the clock alone: a lease holds until its end,
/// renewing moves the end, and only then is the shard re-issued, under the
/// next attempt; the holder's renewal then fails.
#[test]
fn leases_expire_and_are_reissued_by_the_clock() {
    let lease = Duration::from_secs(10);
    let (c, clock) = mem_core(lease);
    let id = c.launch(&uvg(5, "e", 1)).unwrap().sweep_id;
    let first = c.lease("a", &V(), 1).unwrap().leases;
    assert_eq!((first.len(), first[0].attempt), (1, 1));
    let idx = first[0].shard.index;
    let taken = |c: &Core| {
        c.lease("b", &V(), 100)
            .unwrap()
            .leases
            .into_iter()
            .filter(|g| g.shard.index == idx)
            .collect::<Vec<_>>()
    };
    clock.advance(lease - Duration::from_millis(1));
    assert!(
        taken(&c).is_empty(),
        "not expired a millisecond before its end"
    );
    let (st, workers) = c.status(Some(&id)).unwrap();
    assert_eq!(st[0].shards_leased, st[0].shards_total, "a's and b's");
    assert_eq!(
        workers
            .iter()
            .find(|w| w.worker_id == "a")
            .unwrap()
            .shards_held,
        1
    );
    // Renewing moves the end: another almost-lease later it still holds.
    assert_eq!(c.renew("a", &[held(&id, &first[0])]).unwrap(), [true]);
    clock.advance(lease - Duration::from_millis(1));
    assert!(taken(&c).is_empty(), "renewed");
    clock.advance(Duration::from_millis(1));
    let (st, _) = c.status(Some(&id)).unwrap();
    assert!(
        st[0].shards_pending >= 1,
        "an expired lease counts as pending"
    );
    let again = taken(&c);
    assert_eq!(again.len(), 1, "re-issued once expired");
    assert_eq!(again[0].attempt, 2);
    assert_eq!(c.renew("a", &[held(&id, &first[0])]).unwrap(), [false]);
    assert_eq!(c.renew("b", &[held(&id, &again[0])]).unwrap(), [true]);
    // Liveness follows the same clock: three lease periods of silence.
    clock.advance(3 * lease);
    let (_, workers) = c.status(None).unwrap();
    let a = workers.iter().find(|w| w.worker_id == "a").unwrap();
    assert!(!a.alive && a.shards_held == 0);
    assert_eq!(
        a.last_seen_ms_ago,
        3 * 10_000,
        "since its last (refused) renewal"
    );
}

/// A result for a shard that is done already is counted, stored as a
/// counter, and not merged: the merge equals the sequential one.
#[test]
fn duplicate_and_late_submits_are_counted_not_merged() {
    let (c, clock) = mem_core(Duration::from_secs(5));
    let req = uvg(5, "d", 2);
    let id = c.launch(&req).unwrap().sweep_id;
    let all = c.lease("a", &V(), 100).unwrap().leases;
    let g = &all[0];
    let r = run(g);
    assert!(c.submit(submission("a", g, r.clone())).unwrap());
    let work_once = c.status(Some(&id)).unwrap().0[0].positions_done;
    assert!(work_once > 0);
    // The same worker again, later too: dropped as a duplicate.
    assert!(!c.submit(submission("a", g, r.clone())).unwrap());
    clock.advance(Duration::from_secs(6));
    assert!(!c.submit(submission("a", g, r.clone())).unwrap());
    // a's token from b, and a made-up token: refused, not duplicates.
    let stolen = submission("b", g, r.clone());
    assert!(matches!(c.submit(stolen), Err(CoreError::Denied(_))));
    let forged = Submission {
        token: "0".repeat(80),
        ..submission("b", g, r)
    };
    assert!(matches!(c.submit(forged), Err(CoreError::Denied(_))));
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!(st[0].duplicates_ignored, 2);
    assert_eq!(st[0].refused_submits, 2);
    assert_eq!(st[0].results_stored, 1);
    assert_eq!(st[0].positions_done, work_once, "not merged twice");
    // A failure reported for a done shard changes nothing.
    let late_failure = FailureReport {
        worker: "a".into(),
        version: V(),
        sweep_id: id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        error: "too late".into(),
    };
    assert!(!c.fail(&late_failure).unwrap().set_aside);
    assert_eq!(c.status(Some(&id)).unwrap().0[0].shards_done, 1);
    for g in &c.lease("c", &V(), 100).unwrap().leases {
        assert!(run_and_submit(&c, "c", g));
    }
    assert_eq!(c.merged(&id).unwrap().output, sequential(&req.params, 2));
    assert_eq!(c.status(Some(&id)).unwrap().0[0].duplicates_ignored, 2);
}

/// A finished sweep renders once; a sweep deleted and launched again
/// under the same id (other params) is rendered afresh, not from the cache.
#[test]
fn renders_are_cached_per_finished_sweep() {
    let (c, _) = mem_core(Duration::from_secs(5));
    let finish = |c: &Core, req: &LaunchSpec| {
        c.launch(req).unwrap();
        for g in &c.lease("w", &V(), 100).unwrap().leases {
            assert!(run_and_submit(c, "w", g));
        }
    };
    finish(&c, &uvg(4, "r", 1));
    let a = c.rendered("r").unwrap();
    assert!(
        Arc::ptr_eq(&a, &c.rendered("r").unwrap()),
        "served from the cache"
    );
    assert_eq!(a.kind.name(), "uvg");
    let kind = kinds::find("uvg").unwrap();
    let want = kind
        .render(&a.params, &c.merged("r").unwrap().output)
        .unwrap();
    assert_eq!(a.rendered, want);
    c.delete("r").unwrap();
    assert!(matches!(c.rendered("r"), Err(CoreError::NoSuchSweep(_))));
    finish(&c, &uvg(5, "r", 1));
    let b = c.rendered("r").unwrap();
    assert_ne!(a.rendered.results_json, b.rendered.results_json);
    assert_eq!(b.params, c.merged("r").unwrap().params);
}

/// Launch, lease and a result survive a restart on a `MemStore` shared
/// between two cores, like on disk; a lease stored before the restart still
/// holds until it expires.
#[test]
fn a_reopened_core_resumes_from_its_store() {
    let store: Arc<dyn crate::store::Store> = Arc::new(MemStore::new());
    let clock = Arc::new(ManualClock::new());
    let lease = Duration::from_secs(10);
    let c = Core::open_with_clock(store.clone(), lease, clock.clone()).unwrap();
    let id = c.launch(&uvg(5, "m", 2)).unwrap().sweep_id;
    let all = c.lease("a", &V(), 100).unwrap().leases;
    assert!(run_and_submit(&c, "a", &all[0]));
    drop(c);
    let c = Core::open_with_clock(store, lease, clock.clone()).unwrap();
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!(st[0].shards_done, 1);
    assert_eq!(
        st[0].shards_leased as usize,
        all.len() - 1,
        "stored leases hold"
    );
    assert!(c.lease("b", &V(), 100).unwrap().leases.is_empty());
    assert_eq!(c.renew("a", &[held(&id, &all[1])]).unwrap(), [true]);
}

/// A core on a fresh [`MemStore`] with `limits`, and its manual clock.
fn limited_core(lease: Duration, limits: Limits) -> (Core, Arc<ManualClock>) {
    let (c, clock) = mem_core(lease);
    (c.with_limits(limits), clock)
}

/// The status of sweep `id`.
fn status_of(c: &Core, id: &str) -> SweepStatus {
    c.status(Some(id)).unwrap().0.remove(0)
}

/// A submit without a lease (no token, or another shard's or attempt's
/// token) is refused, counted, and not merged.
#[test]
fn results_without_a_valid_lease_token_are_refused_and_counted() {
    let (c, _) = mem_core(Duration::from_secs(30));
    let req = uvg(5, "t", 3);
    let id = c.launch(&req).unwrap().sweep_id;
    // A forger who never leased anything: shard 0 of a fresh sweep.
    let kind = kinds::find("uvg").unwrap();
    let params = kind.resolve_params(&req.params).unwrap();
    let plan = kind.plan(&params, 3).unwrap();
    let forged_result = kind
        .run_shard(&params, &plan[0], &sweep::ShardCtx::detached())
        .unwrap();
    let forged = Submission {
        worker: "mallory".into(),
        version: V(),
        sweep_id: id.clone(),
        index: 0,
        token: String::new(),
        result: forged_result.clone(),
        timing: None,
        positions: None,
    };
    let e = c.submit(forged.clone()).unwrap_err();
    assert!(matches!(e, CoreError::Denied(_)), "{e}");
    assert_eq!(
        e.to_string(),
        format!("a result for shard 0 of sweep `{id}` refused: no valid lease token (only the identity the shard was leased to may send it, with that lease's token)")
    );
    // Leased now to w: another shard's token, w's own token in mallory's
    // hands, made-up ones.
    let all = c.lease("w", &V(), 100).unwrap().leases;
    let g0 = all.iter().find(|g| g.shard.index == 0).unwrap();
    let g1 = all.iter().find(|g| g.shard.index == 1).unwrap();
    for token in [
        g1.token.clone(),
        g0.token.clone(),
        "0".repeat(80),
        format!("{}x", &g0.token[..79]),
    ] {
        let sub = Submission {
            token,
            ..forged.clone()
        };
        assert!(matches!(c.submit(sub), Err(CoreError::Denied(_))));
    }
    let st = status_of(&c, &id);
    assert_eq!((st.refused_submits, st.shards_done), (5, 0));
    // The lease's own token works, once.
    assert!(run_and_submit(&c, "w", g0));
    assert_eq!(status_of(&c, &id).positions_done, run(g0).work());
    // A forged result for a done shard is still refused, not a duplicate.
    assert!(matches!(c.submit(forged), Err(CoreError::Denied(_))));
    let st = status_of(&c, &id);
    assert_eq!((st.refused_submits, st.duplicates_ignored), (6, 0));
    // Bytes that are no result are refused and counted.
    assert!(matches!(
        c.decode_result(&id, 0, b"{not json"),
        Err(CoreError::BadRequest(_))
    ));
    assert_eq!(status_of(&c, &id).results_invalid, 1);
    for g in all.iter().filter(|g| g.shard.index != 0) {
        assert!(run_and_submit(&c, "w", g));
    }
    assert_eq!(c.merged(&id).unwrap().output, sequential(&req.params, 3));
}

/// Renewing or releasing a shard needs its lease's token and its holder;
/// a pending shard is never granted to a worker without one.
#[test]
fn renewals_and_releases_need_the_lease_token() {
    let (c, clock) = mem_core(Duration::from_secs(10));
    let id = c.launch(&uvg(5, "r", 3)).unwrap().sweep_id;
    let a = c.lease("a", &V(), 1).unwrap().leases;
    let mine = held(&id, &a[0]);
    // b names a's shard without a token, with a's attempt, or a pending one.
    let pending = (0..3u32).find(|&i| i != a[0].shard.index).unwrap();
    let forged = [
        Held {
            token: String::new(),
            ..mine.clone()
        },
        Held {
            index: pending,
            token: String::new(),
            ..mine.clone()
        },
        Held {
            index: pending,
            ..mine.clone()
        },
    ];
    assert_eq!(c.renew("b", &forged).unwrap(), [false, false, false]);
    assert_eq!(c.release("b", &forged[..1]).unwrap(), [false]);
    // a's token in b's hands: made for a, so refused like a forgery (a
    // token is bound to the identity it was granted to).
    assert_eq!(c.renew("b", std::slice::from_ref(&mine)).unwrap(), [false]);
    let st = status_of(&c, &id);
    assert_eq!(st.refused_renewals, 5);
    assert_eq!(
        (st.shards_leased, st.shards_pending),
        (1, st.shards_total - 1),
        "nothing granted"
    );
    let (_, workers) = c.status(None).unwrap();
    let b = workers.iter().find(|w| w.worker_id == "b").unwrap();
    assert_eq!(b.shards_held, 0);
    // a renews and keeps it; after giving it back, renewing cannot take it back.
    clock.advance(Duration::from_secs(8));
    assert_eq!(c.renew("a", std::slice::from_ref(&mine)).unwrap(), [true]);
    assert_eq!(c.release("a", std::slice::from_ref(&mine)).unwrap(), [true]);
    assert_eq!(c.renew("a", &[mine]).unwrap(), [false]);
    let st = status_of(&c, &id);
    assert_eq!(st.shards_pending, st.shards_total);
}

/// A lease request for 2^32 − 1 shards gets at most the per-identity cap,
/// less what the identity holds; an expired lease no longer counts.
#[test]
fn an_identity_holds_at_most_the_cap() {
    let limits = Limits {
        max_shards_per_worker: 5,
        ..Limits::default()
    };
    let (c, clock) = limited_core(Duration::from_secs(10), limits);
    let id = c.launch(&uvg(7, "cap", 20)).unwrap().sweep_id;
    let shards = status_of(&c, &id).shards_total;
    assert!(shards > 12, "{shards} shards");
    assert_eq!(c.lease("@a", &V(), u32::MAX).unwrap().leases.len(), 5);
    assert_eq!(c.lease("@a", &V(), u32::MAX).unwrap().leases.len(), 0);
    assert_eq!(c.lease("@b", &V(), 3).unwrap().leases.len(), 3);
    assert_eq!(c.lease("@b", &V(), u32::MAX).unwrap().leases.len(), 2);
    clock.advance(Duration::from_secs(11));
    assert_eq!(c.lease("@a", &V(), u32::MAX).unwrap().leases.len(), 5);
    // The default cap: 256.
    let (c, _) = mem_core(Duration::from_secs(10));
    c.launch(&uvg(8, "big", 400)).unwrap();
    let big = status_of(&c, "big").shards_total;
    assert!(big > 256, "{big} shards");
    assert_eq!(c.lease("a", &V(), u32::MAX).unwrap().leases.len(), 256);
}

/// Renewals cannot keep a lease past the maximum total: then the renewal
/// says false and the shard is handed out again (counted as expired); the
/// first holder's late result still counts.
#[test]
fn a_lease_is_not_renewed_past_its_maximum_total() {
    let limits = Limits {
        max_lease_total: Duration::from_secs(25),
        ..Limits::default()
    };
    let (c, clock) = limited_core(Duration::from_secs(10), limits);
    let id = c.launch(&uvg(5, "m", 1)).unwrap().sweep_id;
    let a = c.lease("a", &V(), 1).unwrap().leases;
    let h = held(&id, &a[0]);
    for _ in 0..3 {
        clock.advance(Duration::from_secs(8));
        assert_eq!(c.renew("a", std::slice::from_ref(&h)).unwrap(), [true]);
    }
    // Renewed at 24 s, the lease runs to 25 s, not 34 s.
    clock.advance(Duration::from_millis(1_500));
    assert_eq!(status_of(&c, &id).shards_leased, 0, "expired at 25 s");
    assert_eq!(c.renew("a", std::slice::from_ref(&h)).unwrap(), [false]);
    assert_eq!(c.renew("a", &[h]).unwrap(), [false], "for good");
    let b = c.lease("b", &V(), 1).unwrap().leases;
    assert_eq!((b.len(), b[0].attempt), (1, 2));
    assert_eq!(status_of(&c, &id).leases_expired, 1);
    let late = c.submit(submission("a", &a[0], run(&a[0]))).unwrap_err();
    assert!(
        late.to_string().contains("that lease is over"),
        "a's late result, the shard b's now: {late}"
    );
    assert!(run_and_submit(&c, "b", &b[0]));
}

/// Three failures from one identity set a shard aside only if no other
/// identity is alive (so one credential cannot set shards aside alone); the failing worker is not handed it again meanwhile;
/// a failure from a second worker sets it aside.
#[test]
fn failures_count_per_worker() {
    let (c, clock) = mem_core(Duration::from_secs(10));
    let id = c.launch(&uvg(6, "f", 4)).unwrap().sweep_id;
    let fail = |worker: &str, g: &Granted| {
        c.fail(&FailureReport {
            worker: worker.into(),
            version: V(),
            sweep_id: id.clone(),
            index: g.shard.index,
            token: g.token.clone(),
            error: "boom".into(),
        })
        .unwrap()
    };
    // b is alive (it holds a shard).
    let b_first = c.lease("@b", &V(), 1).unwrap().leases;
    let mut g = c.lease("@a", &V(), 1).unwrap().leases.remove(0);
    let bad = g.shard.index;
    for k in 1..=MAX_FAILURES {
        let out = fail("@a", &g);
        assert_eq!(
            out,
            FailOutcome {
                failures: k,
                set_aside: false
            },
            "failure {k}"
        );
        if k < MAX_FAILURES {
            g = c.lease("@a", &V(), 1).unwrap().leases.remove(0);
            assert_eq!(g.shard.index, bad, "retried");
        }
    }
    // The same report again (one lease, sent twice, or under other worker
    // ids): that lease is over, refused and not counted.
    let again = c.fail(&FailureReport {
        worker: "@a".into(),
        version: V(),
        sweep_id: id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        error: "boom".into(),
    });
    assert!(matches!(again, Err(CoreError::Denied(_))), "{again:?}");
    // a is now given other shards; b gets the bad one.
    let others = c.lease("@a", &V(), 100).unwrap().leases;
    assert!(!others.is_empty() && others.iter().all(|o| o.shard.index != bad));
    let b = c.lease("@b", &V(), 100).unwrap().leases;
    let gb = b.iter().find(|x| x.shard.index == bad).unwrap();
    assert_eq!(
        fail("@b", gb),
        FailOutcome {
            failures: MAX_FAILURES + 1,
            set_aside: true
        }
    );
    let st = status_of(&c, &id);
    assert_eq!(st.shards_failed, 1);
    // A fail from anyone without a token is refused and counted.
    let forged = FailureReport {
        worker: "@m".into(),
        version: V(),
        sweep_id: id.clone(),
        index: b_first[0].shard.index,
        token: String::new(),
        error: "x".into(),
    };
    for _ in 0..MAX_FAILURES {
        assert!(matches!(c.fail(&forged), Err(CoreError::Denied(_))));
    }
    let st = status_of(&c, &id);
    assert_eq!((st.refused_fails, st.shards_failed), (4, 1));
    // Once b is silent for three lease periods, a alone sets a shard aside.
    let id2 = c.launch(&uvg(5, "g", 2)).unwrap().sweep_id;
    clock.advance(Duration::from_secs(31));
    // The two sweeps share the worker (fair share): take leases until one is g's.
    let mut g = c.lease("@a", &V(), 1).unwrap().leases.remove(0);
    for _ in 0..100 {
        if g.sweep_id == id2 {
            break;
        }
        run_and_submit(&c, "@a", &g);
        g = c.lease("@a", &V(), 1).unwrap().leases.remove(0);
    }
    assert_eq!(g.sweep_id, id2);
    // Only g's shards from here on.
    c.pause(&id, true).unwrap();
    let mut out = FailOutcome {
        failures: 0,
        set_aside: false,
    };
    for _ in 0..MAX_FAILURES {
        out = c
            .fail(&FailureReport {
                worker: "@a".into(),
                version: V(),
                sweep_id: id2.clone(),
                index: g.shard.index,
                token: g.token.clone(),
                error: "boom".into(),
            })
            .unwrap();
        if !out.set_aside {
            g = c.lease("@a", &V(), 1).unwrap().leases.remove(0);
        }
    }
    assert_eq!(
        out,
        FailOutcome {
            failures: MAX_FAILURES,
            set_aside: true
        }
    );
}

/// In-flight progress is clamped per shard and summed without wrapping.
#[test]
fn huge_progress_does_not_wrap() {
    let (c, _) = mem_core(Duration::from_secs(10));
    let id = c.launch(&uvg(6, "p", 4)).unwrap().sweep_id;
    let all = c.lease("a", &V(), 2).unwrap().leases;
    let hs: Vec<Held> = all
        .iter()
        .map(|g| Held {
            progress: 1 << 63,
            ..held(&id, g)
        })
        .collect();
    assert_eq!(c.renew("a", &hs).unwrap(), [true, true]);
    let caps: u64 = all.iter().map(|g| g.shard.estimate * 4).sum();
    assert!(caps > 0);
    assert_eq!(status_of(&c, &id).positions_done, caps);
}

/// Tokens are signed with a key kept in the store: valid after a restart.
#[test]
fn tokens_stay_valid_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    let req = uvg(5, "k", 2);
    let id = c.launch(&req).unwrap().sweep_id;
    let all = c.lease("a", &V(), 100).unwrap().leases;
    c.flush().unwrap();
    drop(c);
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    assert_eq!(c.renew("a", &[held(&id, &all[0])]).unwrap(), [true]);
    for g in &all {
        assert!(run_and_submit(&c, "a", g));
    }
    assert_eq!(c.merged(&id).unwrap().output, sequential(&req.params, 2));
    // A sweep deleted and launched again under its name: old tokens are void.
    c.delete(&id).unwrap();
    c.launch(&req).unwrap();
    assert!(matches!(
        c.submit(submission("a", &all[0], run(&all[0]))),
        Err(CoreError::Denied(_))
    ));
}

/// Workers unheard of for ten lease periods (at least ten minutes) are
/// forgotten, and at most `MAX_WORKERS` are remembered.
#[test]
fn dead_workers_are_forgotten_and_the_list_is_bounded() {
    let (c, clock) = mem_core(Duration::from_secs(1));
    for w in ["a", "b", "c"] {
        c.lease(w, &V(), 1).unwrap();
    }
    clock.advance(Duration::from_secs(599));
    c.lease("d", &V(), 1).unwrap();
    assert_eq!(
        (c.status(None).unwrap().1.len(), c.workers_pruned()),
        (4, 0)
    );
    // The list is swept at most every 10 s.
    clock.advance(Duration::from_secs(11));
    c.lease("d", &V(), 1).unwrap();
    let (_, workers) = c.status(None).unwrap();
    assert_eq!(workers.len(), 1);
    assert_eq!(
        (workers[0].worker_id.as_str(), c.workers_pruned()),
        ("d", 3)
    );
    // 10,050 more distinct ids: the list stays at the cap, oldest dropped.
    for i in 0..model::MAX_WORKERS + 50 {
        clock.advance(Duration::from_micros(1));
        c.lease(&format!("w{i}"), &V(), 1).unwrap();
    }
    let (_, workers) = c.status(None).unwrap();
    assert_eq!(workers.len(), model::MAX_WORKERS);
    assert!(!workers
        .iter()
        .any(|w| w.worker_id == "d" || w.worker_id == "w0"));
    assert!(workers.iter().any(|w| w.worker_id == "w10049"));
    assert_eq!(c.workers_pruned(), 3 + 51);
    // A worker id of more than 256 bytes is refused.
    assert!(matches!(
        c.lease(&"x".repeat(257), &V(), 1),
        Err(CoreError::BadRequest(_))
    ));
}

/// A projection takes at most 64 distinct core counts.
#[test]
fn projections_take_a_bounded_list_of_core_counts() {
    let (c, _) = mem_core(Duration::from_secs(10));
    let id = c
        .launch(&LaunchSpec {
            sample: Some(SampleRequest {
                ppm: 500_000,
                seed: 1,
            }),
            ..uvg(5, "pr", 4)
        })
        .unwrap()
        .sweep_id;
    for g in &c.lease("a", &V(), 100).unwrap().leases {
        let s = Submission {
            timing: Some(Timing {
                wall_us: 10,
                cpu_us: 9,
            }),
            ..submission("a", g, run(g))
        };
        assert!(c.submit(s).unwrap());
    }
    let many: Vec<u32> = (1..=20_000).collect();
    let e = c.projection(&id, &many).unwrap_err();
    assert_eq!(
        e.to_string(),
        "20000 distinct core counts asked for; a projection takes at most 64"
    );
    let ok: Vec<u32> = (1..=64).chain(1..=64).collect();
    assert_eq!(c.projection(&id, &ok).unwrap().projected.wall.len(), 128);
    assert!(matches!(
        c.projection(&id, &[0]),
        Err(CoreError::BadRequest(_))
    ));
}

/// The prefix shard's (graphs on 3..=5 vertices) lease of a `uvg --max-n 5`
/// sweep in 1 shard, all leases, and the shard's JSON result.
fn uvg5(c: &Core, name: &str) -> (String, Vec<Granted>, usize, serde_json::Value) {
    let id = c.launch(&uvg(5, name, 1)).unwrap().sweep_id;
    let all = c.lease("w", &V(), 100).unwrap().leases;
    let i = all
        .iter()
        .position(|g| g.shard.payload.contains("prefixes"))
        .unwrap();
    let json = serde_json::from_slice(&run(&all[i]).encode()).unwrap();
    (id, all, i, json)
}

/// Defect 1: a forged `uvg` result (1,000 graphs too many at n = 5, every
/// derived count kept consistent) was accepted and merged. Validation
/// refuses it before anything is stored, naming the field; the true result
/// is then accepted.
#[test]
fn forged_results_are_refused_before_they_are_stored() {
    let (c, _) = mem_core(Duration::from_secs(60));
    let (id, all, i, mut forged) = uvg5(&c, "f");
    let n5 = &mut forged["by_n"]["5"];
    n5["graphs"] = (n5["graphs"].as_u64().unwrap() + 1000).into();
    n5["positions"] = (n5["positions"].as_u64().unwrap() + 5000).into();
    n5["grundy"]["0"] = (n5["grundy"]["0"].as_u64().unwrap() + 5000).into();
    n5["cover"]["1"] = (n5["cover"]["1"].as_u64().unwrap_or(0) + 1000).into();
    let bytes = serde_json::to_vec(&forged).unwrap();
    let index = all[i].shard.index;
    match c.decode_result(&id, index, &bytes) {
        Err(CoreError::BadRequest(m)) => assert!(
            m.contains(&format!("invalid result for shard {index} of sweep `uvg`"))
                && m.contains("by_n[5].graphs is 1021"),
            "{m}"
        ),
        other => panic!("forged result not refused: {other:?}"),
    }
    assert!(matches!(
        c.decode_result(&id, 99, &bytes),
        Err(CoreError::BadRequest(m)) if m.contains("has no shard 99")
    ));
    assert_eq!(c.status(Some(&id)).unwrap().0[0].results_stored, 0);
    let good = run(&all[i]);
    let decoded = c.decode_result(&id, index, &good.encode()).unwrap();
    assert!(c.submit(submission("w", &all[i], decoded)).unwrap());
}

/// Defect 2: two results with a counter of 2^64 − 1 merged to 2^64 − 2.
/// The second is refused naming the shard and the counter; nothing of it is
/// stored or merged, and its shard stays unfinished.
#[test]
fn a_merge_that_would_overflow_is_refused_and_changes_nothing() {
    let store = Arc::new(MemStore::new());
    let c = Core::open_with_clock(
        store.clone(),
        Duration::from_secs(60),
        Arc::new(ManualClock::new()),
    )
    .unwrap();
    let id = c.launch(&uvg(5, "o", 1)).unwrap().sweep_id;
    let all = c.lease("w", &V(), 100).unwrap().leases;
    assert_eq!(all.len(), 2);
    let kind = kinds::find("uvg").unwrap();
    let huge = |g: &Granted| {
        let mut j: serde_json::Value = serde_json::from_slice(&run(g).encode()).unwrap();
        let (n, _) = j["by_n"].as_object().unwrap().iter().next().unwrap();
        let n = n.clone();
        j["by_n"][&n]["first_player_wins"] = u64::MAX.into();
        (n, kind.decode(&serde_json::to_vec(&j).unwrap()).unwrap())
    };
    // Both shards claim 2^64 − 1 first-player wins, at different n: no
    // overflow. Put the second at the first's n by hand.
    let (n0, first) = huge(&all[0]);
    let mut j: serde_json::Value = serde_json::from_slice(&run(&all[1]).encode()).unwrap();
    j["by_n"][&n0] =
        serde_json::from_slice::<serde_json::Value>(&first.encode()).unwrap()["by_n"][&n0].clone();
    let second = kind.decode(&serde_json::to_vec(&j).unwrap()).unwrap();
    assert!(c.submit(submission("w", &all[0], first)).unwrap());
    let before = c.lock().sweep(&id).unwrap().merged.clone();
    let index = all[1].shard.index;
    match c.submit(submission("w", &all[1], second)) {
        Err(CoreError::BadRequest(m)) => assert!(
            m.contains(&format!("the result of shard {index}"))
                && m.contains(&format!(
                    "counter `by_n[{n0}].first_player_wins` overflows u64"
                )),
            "{m}"
        ),
        other => panic!("overflow not refused: {other:?}"),
    }
    assert_eq!(
        c.lock().sweep(&id).unwrap().merged.clone(),
        before,
        "merged result untouched"
    );
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!((st[0].shards_done, st[0].results_stored), (1, 1));
    use crate::store::Store;
    assert_eq!(
        store.load_all().unwrap()[0].results.len(),
        1,
        "nothing stored"
    );
}

/// Defect 3: one stored `uvg` result whose cover witness has 31 vertices made
/// rendering spin forever (GetResult, Status and Lease timed out), and again
/// after every restart. Stored straight into the store, it now renders as
/// unknown at once, and status answers.
#[test]
fn a_poisoned_stored_witness_does_not_hang_status_or_results() {
    let store: Arc<dyn crate::store::Store> = Arc::new(MemStore::new());
    let clock = Arc::new(ManualClock::new());
    let lease = Duration::from_secs(60);
    let c = Core::open_with_clock(store.clone(), lease, clock.clone()).unwrap();
    let (id, all, i, mut poisoned) = uvg5(&c, "p");
    for (j, g) in all.iter().enumerate() {
        if j != i {
            assert!(run_and_submit(&c, "w", g));
        }
    }
    drop(c);
    let big = gamesweep::graph::graph6::encode_bitgraph(&gamesweep::graph::BitGraph::from_edges(
        31,
        &(0..30).map(|v| (v, v + 1)).collect::<Vec<_>>(),
    ));
    poisoned["by_n"]["5"]["cover_witnesses"]["3"]["graph6"] = big.clone().into();
    let bytes = serde_json::to_vec(&poisoned).unwrap();
    store
        .put_result(&id, all[i].shard.index, &bytes, None)
        .unwrap();
    let c = Arc::new(Core::open_with_clock(store, lease, clock).unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    let c2 = c.clone();
    let id2 = id.clone();
    std::thread::spawn(move || {
        let r = c2.rendered(&id2).map(|r| r.rendered.clone());
        let _ = tx.send(r);
    });
    let r = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("rendering answered within 10 s")
        .unwrap();
    assert!(
        r.results_json.contains(&big),
        "the stored witness is shown as stored"
    );
    let doc: serde_json::Value = serde_json::from_str(&r.results_json).unwrap();
    let ext = &doc["by_n"][4]["extensions"]["3"];
    assert_eq!(ext["smallest_base"], big.as_str());
    assert!(ext.get("extended_value").is_none(), "not re-solved: {ext}");
    let (st, _) = c.status(Some(&id)).unwrap();
    assert_eq!(st[0].state, ShownState::Done);
    // Submitted rather than stored, the same result is refused.
    let c3 = Core::open_with_clock(
        Arc::new(MemStore::new()),
        lease,
        Arc::new(ManualClock::new()),
    )
    .unwrap();
    let (id3, all3, i3, _) = uvg5(&c3, "p");
    match c3.decode_result(&id3, all3[i3].shard.index, &bytes) {
        Err(CoreError::BadRequest(m)) => {
            assert!(
                m.contains("witness on 31 vertices exceeds the validation budget"),
                "{m}"
            )
        }
        other => panic!("poisoned result not refused: {other:?}"),
    }
}

/// A sweep's kind is looked up by name only where a sweep comes in (a
/// launch, a sweep read back from the store or its journal, an import);
/// everything after that uses the handle `Sweep::kind` carries.
#[test]
fn a_kind_is_looked_up_by_name_only_where_a_sweep_comes_in() {
    let core = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&core).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Production code only: a file's unit tests follow its `#[cfg(test)]`.
        let production = text.split("\n#[cfg(test)]").next().unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let count = production.matches("kinds::find(").count();
        if count > 0 {
            found.push((name, count));
        }
    }
    found.sort();
    let want: Vec<(String, usize)> = [("launch.rs", 1), ("recovery.rs", 2), ("transfer.rs", 1)]
        .iter()
        .map(|&(f, n)| (f.to_string(), n))
        .collect();
    assert_eq!(found, want, "kinds::find( calls in core/*.rs outside tests");
}
