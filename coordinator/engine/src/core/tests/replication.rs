//! Replicated validation (see [`crate::core::verify`]) driven step by step on a
//! manual clock: selection, copies only for other workers, agreement,
//! mismatch settled by a third run, quarantine, single-worker sweeps and
//! restarts.

use crate::core::replication::{self, ReplicationStatus};
use crate::core::status::ShownState;
use crate::core::*;
use crate::store::{MemStore, SledStore};
use gamesweep::kinds;
use gamesweep::sweep::{self, Output};

const V: fn() -> SolverVersions = solver_version;
const LEASE: Duration = Duration::from_millis(100);

fn mem_core() -> (Core, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    let core = Core::open_with_clock(Arc::new(MemStore::new()), LEASE, clock.clone()).unwrap();
    (core, clock)
}

/// A core on the sled store in `dir` (retrying while the previous core's
/// file lock is released, a bounded number of times).
fn sled_core(dir: &std::path::Path, clock: Arc<ManualClock>) -> Core {
    let store = SledStore::open_when_free(dir);
    Core::open_with_clock(Arc::new(store), LEASE, clock).unwrap()
}

/// `uvg --max-n max_n` named `name`, about `shards` shards, verifying `ppm`.
fn uvg(max_n: u64, name: &str, shards: u32, ppm: u32, seed: u64) -> LaunchSpec {
    LaunchSpec {
        replicate_all: false,
        part: None,
        kind: "uvg".into(),
        params: [("max_n".to_string(), max_n)].into(),
        name: Some(name.into()),
        target_shards: shards,
        resume_existing: false,
        sample: None,
        verify_ppm: ppm,
        verify_seed: Some(seed),
        priority: 0,
    }
}

fn run(g: &Granted) -> Output {
    let kind = g.kind;
    kind.run_shard(&g.params, &g.shard, &sweep::ShardCtx::detached())
        .unwrap()
}

fn submit(c: &Core, worker: &str, g: &Granted, result: Output) -> bool {
    c.submit(Submission {
        worker: worker.into(),
        version: V(),
        sweep_id: g.sweep_id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        result,
        timing: None,
        positions: super::positions(g),
    })
    .unwrap()
}

/// Lease everything `worker` can get and submit honest results; the leases.
fn work(c: &Core, worker: &str) -> Vec<Granted> {
    let got = c.lease(worker, &V(), 1000).unwrap().leases;
    for g in &got {
        assert!(
            submit(c, worker, g, run(g)),
            "{worker} shard {}",
            g.shard.index
        );
    }
    got
}

/// A wrong result for `g` that still decodes as a `uvg` result: the
/// result of shard `other` of the same sweep merged into the right one.
fn wrong(g: &Granted, other: &Granted) -> Output {
    let mut r = run(g);
    r.merge(run(other)).unwrap();
    assert_ne!(
        replication::digest(&r.encode()),
        replication::digest(&run(g).encode())
    );
    r
}

fn sequential(req: &LaunchSpec) -> Output {
    let kind = kinds::find("uvg").unwrap();
    let resolved = kind.resolve_params(&req.params).unwrap();
    let plan = kind.plan(&resolved, req.target_shards).unwrap();
    sweep::run_all_sequential(kind, &resolved, &plan).unwrap()
}

fn vstatus(c: &Core, id: &str) -> (ShownState, ReplicationStatus) {
    let st = c.status(Some(id)).unwrap().0.remove(0);
    (st.state, st.verification.expect("a verified sweep"))
}

#[test]
fn selection_is_deterministic_and_about_the_fraction() {
    let pick = |seed, ppm| -> Vec<u32> {
        (0..100_000)
            .filter(|&i| replication::selected(seed, i, ppm))
            .collect()
    };
    let one = pick(7, 10_000);
    assert!((900..=1100).contains(&one.len()), "{}", one.len());
    assert_eq!(one, pick(7, 10_000), "same seed, same shards");
    assert_ne!(one, pick(8, 10_000), "another seed, other shards");
    let tenth = pick(7, 100_000).len();
    assert!((9_700..=10_300).contains(&tenth), "{tenth}");
    assert!(pick(7, 0).is_empty());
    assert_eq!(pick(7, 1_000_000).len(), 100_000);
    // Nested: a larger share keeps the smaller one's shards.
    let more = pick(7, 20_000);
    assert!(one.iter().all(|i| more.contains(i)));
    // The digest is SHA-256.
    assert_eq!(
        replication::digest(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn result_encoding_is_canonical() {
    // The digest compares encodings, so a decoded result must encode to
    // the very bytes it came from.
    let (c, _) = mem_core();
    c.launch(&uvg(6, "s", 8, 0, 1)).unwrap();
    for g in c.lease("@a", &V(), 100).unwrap().leases {
        let bytes = run(&g).encode();
        let again = c
            .decode_result("s", g.shard.index, &bytes)
            .unwrap()
            .encode();
        assert_eq!(bytes, again, "shard {}", g.shard.index);
    }
}

#[test]
fn a_bad_share_is_refused_with_its_value() {
    let (c, _) = mem_core();
    let e = c.launch(&uvg(4, "s", 1, 1_000_001, 1)).unwrap_err();
    assert!(e.to_string().contains("1000001 ppm is out of range"), "{e}");
    // A resume must keep the share.
    c.launch(&uvg(4, "t", 1, 10_000, 3)).unwrap();
    let resume = LaunchSpec {
        resume_existing: true,
        ..uvg(4, "t", 1, 0, 3)
    };
    let e = c.launch(&resume).unwrap_err();
    assert!(e.to_string().contains("10000 ppm (seed 3)"), "{e}");
    let same = LaunchSpec {
        resume_existing: true,
        ..uvg(4, "t", 1, 10_000, 3)
    };
    assert!(c.launch(&same).unwrap().existing);
}

#[test]
fn copies_go_only_to_other_workers_and_agreement_verifies() {
    let (c, _) = mem_core();
    let req = uvg(5, "s", 3, 1_000_000, 1);
    let n = c.launch(&req).unwrap().shards;
    let first = work(&c, "@a");
    assert_eq!(first.len() as u32, n);
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Running, "copies outstanding");
    assert_eq!((v.selected, v.pending, v.verified), (n, n, 0));
    assert!(c.merged("s").is_err(), "not finished before verification");
    // The original worker never gets a copy.
    let again = c.lease("@a", &V(), 100).unwrap();
    assert!(again.leases.is_empty() && !again.idle);
    // Another worker gets every copy, as a new attempt.
    let copies = c.lease("@b", &V(), 100).unwrap().leases;
    assert_eq!(copies.len() as u32, n);
    assert!(copies.iter().all(|g| g.attempt == 2));
    for g in &copies {
        assert!(submit(&c, "@b", g, run(g)));
    }
    // A replayed copy is counted, not counted twice.
    assert!(!submit(&c, "@b", &copies[0], run(&copies[0])));
    let st = c.status(Some("s")).unwrap().0.remove(0);
    assert_eq!(st.duplicates_ignored, 1);
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done);
    assert_eq!((v.verified, v.mismatched, v.pending), (n, 0, 0));
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    let p = c.provenance("s").unwrap();
    assert_eq!((p.shards_selected, p.shards_verified), (n, n));
    assert_eq!(p.contributors, [("@a".to_string(), n)].into());
}

#[test]
fn a_mismatch_runs_a_third_time_and_the_majority_replaces_a_wrong_result() {
    let (c, _) = mem_core();
    let req = uvg(6, "s", 8, 1_000_000, 1);
    let n = c.launch(&req).unwrap().shards;
    // The liar takes one shard and submits a wrong (but well-formed) result.
    let lie = c.lease("@x", &V(), 1).unwrap().leases.remove(0);
    let rest = work(&c, "@a");
    assert!(submit(&c, "@x", &lie, wrong(&lie, &rest[0])));
    assert_ne!(c.lock().sweep("s").unwrap().merged, sequential(&req));
    // b verifies everything: a's shards agree, the liar's does not.
    let copies = c.lease("@b", &V(), 100).unwrap().leases;
    assert_eq!(copies.len() as u32, n);
    for g in &copies {
        assert!(submit(&c, "@b", g, run(g)));
    }
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Running);
    assert_eq!((v.verified, v.mismatched, v.pending), (n - 1, 1, 1));
    // The third run goes to neither x nor b; a (who never ran it) takes it.
    assert!(c.lease("@b", &V(), 100).unwrap().leases.is_empty());
    assert!(c.lease("@x", &V(), 100).unwrap().leases.is_empty());
    let third = c.lease("@a", &V(), 100).unwrap().leases;
    assert_eq!(third.len(), 1);
    assert_eq!(third[0].shard.index, lie.shard.index);
    assert_eq!(third[0].attempt, 3);
    assert!(submit(&c, "@a", &third[0], run(&third[0])));
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done);
    assert_eq!((v.mismatched, v.replaced, v.pending), (1, 1, 0));
    assert_eq!(v.disagreeing_workers, ["@x"]);
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    let p = c.provenance("s").unwrap();
    assert_eq!(p.disagreeing_workers, ["@x"]);
    assert_eq!(p.mismatches.len(), 1);
    assert_eq!(p.mismatches[0].workers, ["@x", "@b", "@a"]);
    assert!(p.mismatches[0].replaced);
    assert_eq!(p.contributors.get("@x"), None, "its result was replaced");
    assert_eq!(p.contributors["@b"], 1);
    assert!(c.quarantined().is_empty(), "quarantine is off by default");
}

#[test]
fn a_lying_verifier_is_outvoted_and_the_original_stays() {
    let (c, _) = mem_core();
    let req = uvg(5, "s", 3, 1_000_000, 1);
    c.launch(&req).unwrap();
    let done = work(&c, "@a");
    let copies = c.lease("@y", &V(), 1).unwrap().leases;
    assert!(submit(&c, "@y", &copies[0], wrong(&copies[0], &done[1])));
    for g in c.lease("@b", &V(), 100).unwrap().leases {
        assert!(submit(&c, "@b", &g, run(&g)));
    }
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done);
    assert_eq!((v.mismatched, v.replaced), (1, 0));
    assert_eq!(v.disagreeing_workers, ["@y"]);
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
}

#[test]
fn quarantine_reruns_every_other_result_of_the_caught_worker() {
    let (c, _) = mem_core();
    c.set_quarantine_on_mismatch(true);
    // A seed that selects some shards of the plan but not all.
    let kind = kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 6)].into())
        .unwrap();
    let shards = kind.plan(&params, 8).unwrap().len() as u32;
    let req = (0..200)
        .map(|seed| uvg(6, "s", 8, 300_000, seed))
        .find(|r| {
            let k = (0..shards)
                .filter(|&i| replication::selected(r.verify_seed.unwrap(), i, 300_000))
                .count();
            (2..=5).contains(&k)
        })
        .unwrap();
    let n = c.launch(&req).unwrap().shards;
    assert_eq!(n, shards);
    let seed = req.verify_seed.unwrap();
    // x has earned trust (adaptive replication samples it at the share).
    c.lock().trust.insert(
        "@x".into(),
        crate::store::TrustRecord {
            agreements: replication::TRUST_AFTER,
            disagreements: 0,
        },
    );
    // x takes every shard: honest on all but one selected shard.
    let all = c.lease("@x", &V(), 100).unwrap().leases;
    let lied = all
        .iter()
        .position(|g| replication::selected(seed, g.shard.index, 300_000))
        .unwrap();
    for (k, g) in all.iter().enumerate() {
        let r = if k == lied {
            wrong(g, &all[(k + 1) % all.len()])
        } else {
            run(g)
        };
        assert!(submit(&c, "@x", g, r));
    }
    let selected = vstatus(&c, "s").1.selected;
    // a verifies the selected shards; b settles the mismatch.
    for g in c.lease("@a", &V(), 100).unwrap().leases {
        assert!(submit(&c, "@a", &g, run(&g)));
    }
    let decide = c.lease("@b", &V(), 100).unwrap().leases;
    assert_eq!(decide.len(), 1);
    assert!(submit(&c, "@b", &decide[0], run(&decide[0])));
    assert_eq!(c.quarantined(), ["@x"]);
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Running, "x's other results run again");
    assert_eq!(v.rechecks, n - selected);
    assert_eq!(v.pending, n - selected);
    // x gets nothing more; its submits are ignored.
    let none = c.lease("@x", &V(), 100).unwrap();
    assert!(none.leases.is_empty() && !none.idle);
    assert!(!submit(&c, "@x", &all[0], run(&all[0])));
    // Others re-run them (a and b, who did not run them): a recheck's
    // first run is recorded from the stored result, without a position
    // digest, so it is no vote and two runs with digests must agree.
    for w in ["@a", "@b"] {
        let rechecks = c.lease(w, &V(), 100).unwrap().leases;
        assert_eq!(rechecks.len() as u32, n - selected);
        for g in &rechecks {
            assert!(submit(&c, w, g, run(g)));
        }
    }
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done);
    assert_eq!(v.verified, n - 1, "every other shard verified");
    assert_eq!(v.mismatched, 1, "a recheck's runs agree: {v:?}");
    assert_eq!(v.disagreeing_workers, ["@x"]);
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    assert_eq!(c.provenance("s").unwrap().quarantined_workers, ["@x"]);
}

#[test]
fn a_single_worker_sweep_finishes_with_its_copies_unverifiable() {
    let (c, clock) = mem_core();
    let req = uvg(5, "s", 3, 1_000_000, 1);
    let n = c.launch(&req).unwrap().shards;
    work(&c, "@a");
    // Less than three lease periods alone: still waiting for another worker.
    clock.advance(LEASE * 2);
    assert!(c.lease("@a", &V(), 100).unwrap().leases.is_empty());
    assert_eq!(vstatus(&c, "s").0, ShownState::Running);
    clock.advance(LEASE * 2);
    assert!(c.lease("@a", &V(), 100).unwrap().leases.is_empty());
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done);
    assert_eq!((v.unverifiable, v.verified, v.pending), (n, 0, 0));
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    assert_eq!(c.provenance("s").unwrap().shards_unverifiable, n);
    assert!(c.lease("@a", &V(), 1).unwrap().idle);
}

#[test]
fn another_live_worker_keeps_a_copy_from_being_skipped() {
    let (c, clock) = mem_core();
    c.launch(&uvg(5, "s", 3, 1_000_000, 1)).unwrap();
    work(&c, "@a");
    // b holds the copies (and renews them) while a asks.
    let copies = c.lease("@b", &V(), 100).unwrap().leases;
    for _ in 0..5 {
        clock.advance(LEASE / 2);
        let held: Vec<Held> = copies
            .iter()
            .map(|g| Held {
                sweep_id: "s".into(),
                index: g.shard.index,
                progress: 0,
                token: g.token.clone(),
            })
            .collect();
        assert!(c.renew("@b", &held).unwrap().iter().all(|&k| k));
        assert!(c.lease("@a", &V(), 100).unwrap().leases.is_empty());
    }
    assert_eq!(vstatus(&c, "s").1.unverifiable, 0);
    // b gives one back: a still cannot take it, c can.
    assert_eq!(
        c.release(
            "@b",
            &[Held {
                sweep_id: "s".into(),
                index: copies[0].shard.index,
                progress: 0,
                token: copies[0].token.clone(),
            }]
        )
        .unwrap(),
        [true]
    );
    assert!(c.lease("@a", &V(), 100).unwrap().leases.is_empty());
    assert_eq!(c.lease("@c", &V(), 100).unwrap().leases.len(), 1);
}

#[test]
fn verification_state_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new());
    let req = uvg(6, "s", 8, 1_000_000, 1);
    let (n, lie, copies) = {
        let c = sled_core(dir.path(), clock.clone());
        c.set_quarantine_on_mismatch(true);
        let n = c.launch(&req).unwrap().shards;
        let lie = c.lease("@x", &V(), 1).unwrap().leases.remove(0);
        let rest = work(&c, "@a");
        assert!(submit(&c, "@x", &lie, wrong(&lie, &rest[0])));
        let copies = c.lease("@b", &V(), 100).unwrap().leases;
        for g in &copies {
            assert!(submit(&c, "@b", g, run(g)));
        }
        c.flush().unwrap();
        (n, lie, copies)
    };
    let c = sled_core(dir.path(), clock.clone());
    c.set_quarantine_on_mismatch(true);
    let (_, v) = vstatus(&c, "s");
    assert_eq!((v.verified, v.mismatched, v.pending), (n - 1, 1, 1));
    // A replayed copy after the restart is a duplicate.
    assert!(!submit(&c, "@b", &copies[0], run(&copies[0])));
    assert_eq!(c.status(Some("s")).unwrap().0[0].duplicates_ignored, 1);
    // Attempt numbers continue.
    let third = c.lease("@a", &V(), 100).unwrap().leases;
    assert_eq!(third.len(), 1);
    assert_eq!(
        (third[0].shard.index, third[0].attempt),
        (lie.shard.index, 3)
    );
    assert!(submit(&c, "@a", &third[0], run(&third[0])));
    c.flush().unwrap();
    assert_eq!(c.quarantined(), ["@x"]);
    drop(c);
    let c = sled_core(dir.path(), clock);
    assert_eq!(c.quarantined(), ["@x"], "quarantine is durable");
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done);
    assert_eq!(
        (v.replaced, v.disagreeing_workers),
        (1, vec!["@x".to_string()])
    );
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    assert!(c.lease("@x", &V(), 1).unwrap().leases.is_empty());
}

/// The majority hijack (issue: two submissions of an attacker's copy under
/// two worker ids replaced an honest result and blamed the honest worker):
/// a copy goes to one identity, its second submission is a duplicate, and
/// workers under a shared token (whatever ids they choose) get no copy at
/// all. The third identity decides for the honest result; only the liar is
/// named and quarantined.
#[test]
fn one_identity_is_one_voice_whatever_ids_it_uses() {
    let (c, _) = mem_core();
    c.set_quarantine_on_mismatch(true);
    let req = uvg(5, "s", 3, 1_000_000, 1);
    let n = c.launch(&req).unwrap().shards;
    let done = work(&c, "@h");
    // Shared-token workers, any ids: no copies (they never confirm).
    for id in ["m1", "m2"] {
        assert!(c.lease(id, &V(), 100).unwrap().leases.is_empty());
    }
    // @m gets one copy and lies, then sends the same lie again (at the
    // gRPC face a second worker id is the same identity, @m).
    let copy = c.lease("@m", &V(), 1).unwrap().leases.remove(0);
    let other = done
        .iter()
        .find(|g| g.shard.index != copy.shard.index)
        .unwrap();
    let lie = wrong(&copy, other);
    assert!(submit(&c, "@m", &copy, lie.clone()));
    assert!(!submit(&c, "@m", &copy, lie), "one identity, one voice");
    let (_, v) = vstatus(&c, "s");
    assert_eq!((v.mismatched, v.replaced), (1, 0), "nothing replaced");
    // A third identity settles it: the honest result stays.
    for g in c.lease("@c", &V(), 100).unwrap().leases {
        assert!(submit(&c, "@c", &g, run(&g)));
    }
    for g in c.lease("@d", &V(), 100).unwrap().leases {
        assert!(submit(&c, "@d", &g, run(&g)));
    }
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done, "{v:?}");
    assert_eq!((v.verified, v.mismatched, v.replaced), (n - 1, 1, 0));
    assert_eq!(v.disagreeing_workers, ["@m"]);
    assert_eq!(c.quarantined(), ["@m"], "the liar, never the honest worker");
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    let trust = c.lock().trust.clone();
    assert_eq!(trust["@m"].disagreements, 1);
    assert_eq!(trust["@m"].agreements, 0);
    assert_eq!(trust["@h"].disagreements, 0);
}

/// Adaptive replication: at a share that selects nothing, a new identity's
/// results are all verified by another identity until it has agreed
/// [`replication::TRUST_AFTER`] times; then its results are taken as they come.
/// A shared token never earns trust and is sampled at the share only.
#[test]
fn a_new_identity_is_verified_until_it_has_earned_trust() {
    let (c, _) = mem_core();
    // One ppm: with this seed no shard of the plan is selected, nor drawn
    // for a spot check once a has earned trust (spot checks: below).
    let kind = kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), 7)].into())
        .unwrap();
    let plan_len = kind.plan(&params, 40).unwrap().len() as u32;
    let seed = (0..10_000u64)
        .find(|&s| {
            (0..plan_len)
                .all(|i| !replication::selected(s, i, 1) && !replication::spot_checked(s, i))
        })
        .unwrap();
    let req = uvg(7, "s", 40, 1, seed);
    let n = c.launch(&req).unwrap().shards;
    assert!(n as usize > 3 * replication::TRUST_AFTER as usize, "{n}");
    let k = replication::TRUST_AFTER;
    // a's first k results: each opens a verification.
    let first = c.lease("@a", &V(), k).unwrap().leases;
    for g in &first {
        assert!(submit(&c, "@a", g, run(g)));
    }
    let (_, v) = vstatus(&c, "s");
    assert_eq!((v.selected, v.pending), (0, k));
    // b confirms them (copies come first): a has earned trust.
    let copies = c.lease("@b", &V(), k).unwrap().leases;
    assert_eq!(copies.len() as u32, k);
    for g in &copies {
        assert!(submit(&c, "@b", g, run(g)));
    }
    assert_eq!(c.lock().trust["@a"].agreements, k);
    // a's next results are not verified; a shared-token worker's neither
    // (sampled at the share, which selects nothing here).
    for g in c.lease("@a", &V(), 3).unwrap().leases {
        assert!(submit(&c, "@a", &g, run(&g)));
    }
    for g in c.lease("shared-1", &V(), 3).unwrap().leases {
        assert!(submit(&c, "shared-1", &g, run(&g)));
    }
    let (_, v) = vstatus(&c, "s");
    assert_eq!((v.verified, v.pending), (k, 0), "{v:?}");
    // A lease reveals nothing: no attempt, an opaque token of fixed size.
    let next = c.lease("@c", &V(), 1).unwrap().leases;
    assert_eq!(next[0].token.len(), crate::core::tokens::TOKEN_HEX_LEN);
}

/// The spot-check share: the smallest share (in millionths) at which 100
/// lies of one identity all go unchecked with probability at most 1 %; and
/// the hash draws about that share of the shards.
#[test]
fn the_spot_check_share_bounds_a_hundred_unnoticed_lies_by_one_percent() {
    assert!(
        replication::unnoticed(replication::SPOT_PPM, replication::SPOT_LIES)
            <= replication::SPOT_MISS
    );
    assert!(
        replication::unnoticed(replication::SPOT_PPM - 1, replication::SPOT_LIES)
            > replication::SPOT_MISS
    );
    let drawn = (0..200_000u32)
        .filter(|&i| replication::spot_checked(2026, i))
        .count() as f64
        / 200_000.0;
    let p = f64::from(replication::SPOT_PPM) / 1e6;
    assert!((drawn - p).abs() < 0.002, "{drawn} drawn, {p} asked");
    // Independent of the sample's selection hash.
    let both = (0..200_000u32)
        .filter(|&i| replication::spot_checked(2026, i) && replication::selected(2026, i, 100_000))
        .count() as f64
        / 200_000.0;
    assert!((both - p * 0.1).abs() < 0.001, "{both}");
}

/// A consistent lie for `g`: its honest result with one start moved from
/// Grundy value 1 to 2 on 3 or more vertices (every total kept, so
/// validation and the recount pass); `None` if it has no such start.
fn patient_lie(g: &Granted) -> Option<Output> {
    let honest = run(g).encode();
    let mut v: serde_json::Value = serde_json::from_slice(&honest).unwrap();
    let by_n = v["by_n"].as_object_mut().unwrap();
    let counts = by_n
        .iter_mut()
        .rev()
        .filter(|(n, _)| n.parse::<u32>().is_ok_and(|n| n >= 3))
        .map(|(_, c)| c)
        .find(|c| c["grundy"]["1"].as_u64().unwrap_or(0) > 0)?;
    let grundy = counts["grundy"].as_object_mut().unwrap();
    let one = grundy["1"].as_u64().unwrap();
    let two = grundy.get("2").and_then(|x| x.as_u64()).unwrap_or(0);
    grundy.insert("1".into(), (one - 1).into());
    grundy.insert("2".into(), (two + 1).into());
    let kind = kinds::find("uvg").unwrap();
    Some(kind.decode(&serde_json::to_vec(&v).unwrap()).unwrap())
}

/// A patient liar: it earns trust with honest results,
/// then lies in every shard it gets. Past its probation its results are
/// spot-checked; the first lie caught withdraws its trust and every result
/// it gave is run again by the others, so the merged result is exact.
#[test]
fn a_patient_liar_caught_by_a_spot_check_has_every_lie_replaced() {
    let (c, _) = mem_core();
    let req = uvg(8, "s", 200, 1, 7);
    let n = c.launch(&req).unwrap().shards;
    assert!(n >= 100, "{n}");
    let k = replication::TRUST_AFTER;
    // b and c have earned trust before (so no copy of theirs goes to the
    // liar, who would lie in it and be caught that way).
    for w in ["@b", "@c"] {
        c.lock().trust.insert(
            w.into(),
            crate::store::TrustRecord {
                agreements: k,
                disagreements: 0,
            },
        );
    }
    // The liar earns trust: k honest results, confirmed by b.
    for g in c.lease("@liar", &V(), k).unwrap().leases {
        assert!(submit(&c, "@liar", &g, run(&g)));
    }
    for g in c.lease("@b", &V(), k).unwrap().leases {
        assert!(submit(&c, "@b", &g, run(&g)));
    }
    assert_eq!(c.lock().trust["@liar"].agreements, k);
    // Then it lies whenever it can, one shard at a time, with b and c
    // honest beside it, until nothing is left to lease.
    let mut lies = 0;
    for _round in 0..10_000 {
        let mut moved = false;
        for g in c.lease("@liar", &V(), 1).unwrap().leases {
            let result = match patient_lie(&g) {
                Some(lie) if c.lock().trust["@liar"].disagreements == 0 => {
                    lies += 1;
                    lie
                }
                _ => run(&g),
            };
            submit(&c, "@liar", &g, result);
            moved = true;
        }
        for w in ["@b", "@c"] {
            for g in c.lease(w, &V(), 1).unwrap().leases {
                submit(&c, w, &g, run(&g));
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    assert!(lies >= 1, "{lies} lies");
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Done, "{v:?}");
    assert!(
        c.lock().trust["@liar"].disagreements > 0,
        "a lie was caught"
    );
    assert_eq!(
        c.merged("s").unwrap().output,
        sequential(&req),
        "every lie replaced"
    );
}

/// `--replicate all`: every shard is confirmed by a second identity, and a
/// shard is never skipped as unverifiable for want of one: the sweep waits.
#[test]
fn replicate_all_waits_for_a_second_identity() {
    let (c, clock) = mem_core();
    let req = LaunchSpec {
        replicate_all: true,
        ..uvg(5, "s", 3, 0, 1)
    };
    let n = c.launch(&req).unwrap().shards;
    work(&c, "@a");
    for _ in 0..10 {
        clock.advance(LEASE * 2);
        assert!(c.lease("@a", &V(), 10).unwrap().leases.is_empty());
    }
    let (state, v) = vstatus(&c, "s");
    assert_eq!(state, ShownState::Running, "waits, never skips: {v:?}");
    assert_eq!((v.selected, v.pending, v.unverifiable), (n, n, 0));
    for g in c.lease("@b", &V(), 100).unwrap().leases {
        assert!(submit(&c, "@b", &g, run(&g)));
    }
    let (state, v) = vstatus(&c, "s");
    assert_eq!((state, v.verified), (ShownState::Done, n));
}

/// `g`'s true result with one graph on `n` vertices fewer, every other
/// figure adjusted so that validation passes (the issue's undercount).
fn undercount(g: &Granted, n: usize) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_slice(&run(g).encode()).unwrap();
    let c = &mut v["by_n"][n.to_string()];
    let dec = |x: &mut serde_json::Value, by: u64| *x = (x.as_u64().unwrap() - by).into();
    dec(&mut c["graphs"], 1);
    dec(&mut c["positions"], n as u64);
    dec(&mut c["grundy"]["0"], n as u64);
    let top = c["cover"]
        .as_object()
        .unwrap()
        .keys()
        .next_back()
        .unwrap()
        .clone();
    dec(&mut c["cover"][&top], 1);
    if c["degree3"]["graphs"].as_u64() > c["graphs"].as_u64() {
        dec(&mut c["degree3"]["graphs"], 1);
        dec(&mut c["degree3"]["positions"], n as u64);
    }
    serde_json::to_vec(&v).unwrap()
}

/// A result with one graph fewer and every figure
/// adjusted passes validation; the coordinator's recount (the kind's cheap
/// truth: the shard's graphs counted again by enumerating them) refuses
/// it, counts it against the identity and withdraws its trust, so its other
/// results are verified again. With the budget off the same lie is taken.
#[test]
fn the_recount_refuses_a_consistent_undercount_and_withdraws_trust() {
    let (c, _) = mem_core();
    c.launch(&uvg(7, "s", 8, 10_000, 1)).unwrap();
    c.lock().trust.insert(
        "@x".into(),
        crate::store::TrustRecord {
            agreements: replication::TRUST_AFTER + 2,
            disagreements: 0,
        },
    );
    let all = c.lease("@x", &V(), 100).unwrap().leases;
    let has7 = |g: &Granted| {
        serde_json::from_slice::<serde_json::Value>(&run(g).encode()).unwrap()["by_n"]["7"]
            ["graphs"]
            .as_u64()
            .is_some_and(|k| k > 1)
    };
    let (lie, honest): (Vec<&Granted>, Vec<&Granted>) = all
        .iter()
        .partition(|g| std::ptr::eq(*g, all.iter().find(|g| has7(g)).unwrap()));
    for g in &honest {
        // As the server does: decode, validate and recount, then submit.
        let out = c
            .decode_result_from("@x", "s", g.shard.index, &run(g).encode())
            .unwrap();
        assert!(submit(&c, "@x", g, out));
    }
    let g = lie[0];
    let bytes = undercount(g, 7);
    let kind = kinds::find("uvg").unwrap();
    let out = kind.decode(&bytes).unwrap();
    assert!(
        kind.validate(&g.params, &g.shard, &out).is_ok(),
        "the lie passes validation"
    );
    let e = c
        .decode_result_from("@x", "s", g.shard.index, &bytes)
        .unwrap_err()
        .to_string();
    assert!(e.contains("recounted: by_n[7].graphs is"), "{e}");
    let p = c.status(Some("s")).unwrap().0.remove(0);
    assert_eq!(p.results_invalid, 1);
    assert_eq!(p.recounts_refused, 1);
    assert_eq!(
        p.recounted,
        honest.len() as u64 + 1,
        "every honest result was recounted too"
    );
    // Trust withdrawn: x's accepted results are all verified again.
    assert_eq!(c.lock().trust["@x"].agreements, 0);
    assert_eq!(c.lock().trust["@x"].disagreements, 1);
    assert_eq!(vstatus(&c, "s").1.rechecks, honest.len() as u32);
    // The honest result is taken; the lie never was. Others re-run x's
    // results; the provenance names x.
    assert!(submit(&c, "@x", g, run(g)));
    for w in ["@a", "@b", "@a", "@b"] {
        work(&c, w);
    }
    let p = c.provenance("s").unwrap();
    assert_eq!(p.results_invalid_by.get("@x"), Some(&1));
    assert_eq!(p.recounts_refused, 1);
    assert_eq!(
        c.merged("s").unwrap().output,
        sequential(&uvg(7, "s", 8, 0, 1))
    );

    // With the budget off, nothing is recounted and the lie is taken
    // (replication is then what catches it).
    let (c, _) = mem_core();
    c.set_recount_share(0.0);
    c.launch(&uvg(7, "s", 8, 0, 1)).unwrap();
    let all = c.lease("@x", &V(), 100).unwrap().leases;
    let g = all.iter().find(|g| has7(g)).unwrap();
    assert!(c
        .decode_result_from("@x", "s", g.shard.index, &undercount(g, 7))
        .is_ok());
    assert_eq!(c.status(Some("s")).unwrap().0[0].recounted, 0);
}

/// An issued identity on probation (all its results replicated until it
/// has agreed TRUST_AFTER times) is leased the smallest shards first; a
/// trusted identity, a shared-token worker, and anyone in a sweep launched
/// without verification get the largest first.
#[test]
fn probation_takes_the_smallest_shards_first() {
    let (c, _) = mem_core();
    c.launch(&uvg(8, "v", 16, 10_000, 1)).unwrap();
    let order = c.lock().sweeps["v"].order.clone();
    let first = |w: &str| c.lease(w, &V(), 1).unwrap().leases[0].shard.index;
    assert_eq!(first("@new"), *order.last().unwrap());
    assert_eq!(first("shared-1"), order[0]);
    c.lock().trust.insert(
        "@old".into(),
        crate::store::TrustRecord {
            agreements: replication::TRUST_AFTER,
            disagreements: 0,
        },
    );
    assert_eq!(first("@old"), order[1]);
    assert_eq!(first("@new"), order[order.len() - 2]);
    let (c, _) = mem_core();
    c.launch(&uvg(8, "u", 16, 0, 1)).unwrap();
    let order = c.lock().sweeps["u"].order.clone();
    assert_eq!(
        c.lease("@new", &V(), 1).unwrap().leases[0].shard.index,
        order[0]
    );
}

/// With one identity, a sweep whose shards are
/// all done waited for its verification copies on an in-memory instant
/// that restarted with the coordinator, and advanced only when a worker
/// called Lease: a coordinator restarted more often than the wait never
/// finished. Here the coordinator restarts (the sled store reopened on
/// the same clock) every lease period, nobody leases again, and only
/// status is asked: the copies are skipped as unverifiable three lease
/// periods after they were opened, not later, and the sweep is done with
/// the exact result.
#[test]
fn the_skip_needs_no_lease_and_survives_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new());
    let req = uvg(5, "s", 3, 1_000_000, 1);
    let n = {
        let c = sled_core(dir.path(), clock.clone());
        let n = c.launch(&req).unwrap().shards;
        work(&c, "@a");
        c.flush().unwrap();
        n
    };
    let mut states = Vec::new();
    for _ in 0..5 {
        let c = sled_core(dir.path(), clock.clone());
        let (state, v) = vstatus(&c, "s");
        states.push((state, v.pending, v.unverifiable));
        c.flush().unwrap();
        drop(c);
        clock.advance(LEASE);
    }
    let running = (ShownState::Running, n, 0);
    let done = (ShownState::Done, 0, n);
    assert_eq!(states, [running, running, running, done, done]);
    let c = sled_core(dir.path(), clock);
    assert_eq!(c.merged("s").unwrap().output, sequential(&req));
    assert_eq!(c.provenance("s").unwrap().shards_unverifiable, n);
}

/// The tick `serve` runs once a second skips what is due by itself: no
/// Lease, no status.
#[test]
fn a_tick_alone_skips_what_is_due() {
    let (c, clock) = mem_core();
    let n = c.launch(&uvg(5, "s", 3, 1_000_000, 1)).unwrap().shards;
    work(&c, "@a");
    clock.advance(LEASE * 2);
    assert_eq!(c.tick().unwrap(), 0, "not due yet");
    clock.advance(LEASE);
    assert_eq!(c.tick().unwrap(), n);
    assert_eq!(vstatus(&c, "s").0, ShownState::Done);
}

/// What status says while a sweep whose shards are all done waits: 100 %,
/// no ETA, and which shards wait, for whom (none eligible is around; an
/// issued identity that did not run them would be), until when.
#[test]
fn status_says_what_a_finished_sweep_waits_for() {
    let (c, clock) = mem_core();
    let n = c.launch(&uvg(5, "s", 3, 1_000_000, 1)).unwrap().shards;
    work(&c, "@a");
    clock.advance(LEASE);
    let st = c.status(Some("s")).unwrap().0.remove(0);
    assert_eq!(st.state, ShownState::Running);
    assert_eq!((st.fraction_done, st.eta_seconds), (1.0, None));
    let w = st.verification.unwrap().waiting.expect("waiting");
    assert_eq!(w.shards, (0..n).collect::<Vec<u32>>());
    assert!(w.needs_issued && w.eligible.is_empty(), "{w:?}");
    assert_eq!(
        (w.unskippable, w.skip_in_ms),
        (0, Some(2 * LEASE.as_millis() as u64))
    );
    // The result is refused, saying what it waits for.
    let e = c.merged("s").unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "{n}/{n} shards done, {n} verifications waiting for a second identity"
        )),
        "{e}"
    );
    // An eligible identity around (it holds one copy) is named.
    let copy = c.lease("@b", &V(), 1).unwrap().leases;
    assert_eq!(copy.len(), 1);
    let w = vstatus(&c, "s").1.waiting.unwrap();
    assert_eq!(w.eligible, ["@b"]);
    // Under --replicate all nothing is skippable: no deadline.
    let (c, _) = mem_core();
    let req = LaunchSpec {
        replicate_all: true,
        ..uvg(5, "r", 3, 0, 1)
    };
    let n = c.launch(&req).unwrap().shards;
    work(&c, "@a");
    let w = vstatus(&c, "r").1.waiting.unwrap();
    assert_eq!((w.unskippable, w.skip_at_ms), (n, None));
}

/// A store written before the wait's start was stored: its open records
/// load (the field absent), their wait starts at the first tick after the
/// open, is stored then, and so survives the next restart.
#[test]
fn an_old_record_without_a_start_waits_from_the_first_tick() {
    let old = r#"{"purpose":"sampled","runs":[{"worker":"@a","attempt":1,"digest":"ab"}],"verdict":"open"}"#;
    let rec: crate::store::ReplicationRecord = serde_json::from_str(old).unwrap();
    assert_eq!(rec.since_ms, None);
    assert!(rec.open());
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new());
    let n = {
        let c = sled_core(dir.path(), clock.clone());
        let n = c.launch(&uvg(5, "s", 3, 1_000_000, 1)).unwrap().shards;
        work(&c, "@a");
        c.flush().unwrap();
        n
    };
    // Written as an older build wrote them.
    {
        use crate::store::Store;
        let store = SledStore::open_when_free(dir.path());
        let stored = store.load_all().unwrap();
        let s = stored.iter().find(|s| s.record.id == "s").unwrap();
        for (&i, r) in &s.replication {
            let mut r = r.clone();
            r.since_ms = None;
            store.put_replication("s", i, Some(&r)).unwrap();
        }
        store.flush().unwrap();
    }
    clock.advance(LEASE * 10);
    {
        let c = sled_core(dir.path(), clock.clone());
        assert_eq!(c.tick().unwrap(), 0, "the wait starts now");
        c.flush().unwrap();
    }
    clock.advance(LEASE * 2);
    let c = sled_core(dir.path(), clock.clone());
    assert_eq!(vstatus(&c, "s").1.pending, n, "two lease periods in");
    drop(c);
    clock.advance(LEASE);
    let c = sled_core(dir.path(), clock);
    assert_eq!(c.tick().unwrap(), n);
}

/// For each of `leases`, submit as `replayer` the bytes a published
/// export of the same plan holds for its shard (what an honest run gives):
/// first without a position digest (refused, saying so), then with one
/// made up without the positions' values (accepted, like any result).
fn replay(c: &Core, replayer: &str, leases: &[Granted]) {
    for g in leases {
        let exported = kinds::find("uvg")
            .unwrap()
            .decode(&run(g).encode())
            .unwrap();
        assert!(g.salt.is_some(), "a comparable lease asks for a digest");
        let bare = Submission {
            worker: replayer.into(),
            version: V(),
            sweep_id: g.sweep_id.clone(),
            index: g.shard.index,
            token: g.token.clone(),
            result: exported,
            timing: None,
            positions: None,
        };
        match c.submit(bare.clone()) {
            Err(CoreError::BadRequest(m)) => assert!(m.contains("position digest"), "{m}"),
            other => panic!("a result without its digest was taken: {other:?}"),
        }
        let forged = Submission {
            positions: Some(g.salt.unwrap().rotate_left(7) ^ 0x5eed),
            ..bare
        };
        assert!(c.submit(forged).unwrap());
    }
}

/// The replay: an identity that runs no solver and submits the results a
/// published export holds. Under `--replicate all` its results agree with
/// nobody's: no confirmation, every one a mismatch that two honest
/// identities out-vote and replace; it earns no trust. A second credential
/// replaying the same export into another sweep fares the same.
#[test]
fn a_replayed_export_confirms_nothing() {
    let (c, _clock) = mem_core();
    for (sweep, replayer) in [("rep-1", "@replayer"), ("rep-2", "@replayer-2")] {
        let req = LaunchSpec {
            replicate_all: true,
            ..uvg(6, sweep, 6, 0, 5)
        };
        let n = c.launch(&req).unwrap().shards;
        // It takes every shard first (a new identity gets a few at a time).
        let mut taken = 0;
        loop {
            let leases = c.lease(replayer, &V(), 100).unwrap().leases;
            if leases.is_empty() {
                break;
            }
            taken += leases.len() as u32;
            replay(&c, replayer, &leases);
        }
        assert_eq!(taken, n);
        // Two honest identities run the copies.
        work(&c, "@a");
        let (_, v) = vstatus(&c, sweep);
        assert_eq!((v.verified, v.mismatched), (0, n), "{v:?}");
        work(&c, "@b");
        let (state, v) = vstatus(&c, sweep);
        assert_eq!(state, ShownState::Done, "{v:?}");
        assert_eq!((v.verified, v.mismatched, v.replaced), (0, n, n), "{v:?}");
        assert_eq!(v.disagreeing_workers, [replayer.to_string()]);
        let trust = c.lock().trust.clone();
        assert_eq!(trust[replayer].agreements, 0, "no confirmation earned");
        let p = c.provenance(sweep).unwrap();
        assert!(!p.contributors.contains_key(replayer), "{p:?}");
        assert_eq!(p.confirmation.confirmed_by_two_identities, n);
        assert!(!p.confirmation.results_only);
        assert_eq!(
            c.merged(sweep).unwrap().output,
            sequential(&req),
            "every replayed result replaced by a computed one"
        );
    }
}

/// Honest identities still confirm each other: their results and
/// position digests agree, and only then (the right result with a digest
/// off by one is a mismatch).
#[test]
fn honest_digests_agree_and_a_wrong_digest_is_a_mismatch() {
    let (c, _clock) = mem_core();
    let req = LaunchSpec {
        replicate_all: true,
        ..uvg(6, "h", 6, 0, 9)
    };
    let n = c.launch(&req).unwrap().shards;
    let mut first = Vec::new();
    loop {
        let got = work(&c, "@a");
        if got.is_empty() {
            break;
        }
        first.extend(got);
    }
    let copies = c.lease("@b", &V(), 100).unwrap().leases;
    assert_eq!((first.len() as u32, copies.len() as u32), (n, n));
    // The salt is the shard's: the same for the copy as for the first run.
    for g in &copies {
        let f = first
            .iter()
            .find(|f| f.shard.index == g.shard.index)
            .unwrap();
        assert_eq!(f.salt, g.salt);
    }
    let (odd, rest) = copies.split_first().unwrap();
    let mut off = Submission {
        worker: "@b".into(),
        version: V(),
        sweep_id: odd.sweep_id.clone(),
        index: odd.shard.index,
        token: odd.token.clone(),
        result: run(odd),
        timing: None,
        positions: super::positions(odd).map(|p| p.wrapping_add(1)),
    };
    assert!(c.submit(off.clone()).unwrap());
    off.positions = super::positions(odd);
    assert!(!c.submit(off).unwrap(), "one run per identity");
    for g in rest {
        assert!(submit(&c, "@b", g, run(g)));
    }
    let (_, v) = vstatus(&c, "h");
    assert_eq!((v.verified, v.mismatched), (n - 1, 1), "{v:?}");
}

/// A kind that computes no position digest (octal): its leases ask for
/// none, two identities whose results agree still verify the shard, but
/// provenance does not call that independent confirmation: equal results
/// do not show that both computed them.
#[test]
fn agreement_without_position_digests_is_not_called_independent() {
    let (c, _clock) = mem_core();
    assert!(!kinds::find("octal").unwrap().position_digest());
    let req = LaunchSpec {
        replicate_all: true,
        kind: "octal".into(),
        params: [("digits".to_string(), 1), ("max_heap".to_string(), 60)].into(),
        ..uvg(6, "o", 2, 0, 3)
    };
    let n = c.launch(&req).unwrap().shards;
    for w in ["@a", "@b", "@a", "@b"] {
        for g in c.lease(w, &V(), 100).unwrap().leases {
            assert_eq!(g.salt, None, "no digest asked of a kind without one");
            assert!(submit(&c, w, &g, run(&g)));
        }
    }
    let (state, v) = vstatus(&c, "o");
    assert_eq!((state, v.verified), (ShownState::Done, n), "{v:?}");
    let conf = c.provenance("o").unwrap().confirmation;
    assert_eq!(conf.confirmed_by_two_identities, n);
    assert!(conf.results_only);
    assert!(
        conf.statement.starts_with("not independently verified: ")
            && conf.statement.contains("computes no position digest"),
        "{}",
        conf.statement
    );
}

/// The state of sweep `id` and, if it waits, whose results it re-verifies.
fn reopened(c: &Core, id: &str) -> (ShownState, Vec<(String, u32)>) {
    let s = c.status(Some(id)).unwrap().0.remove(0);
    let why = s
        .verification
        .and_then(|v| v.waiting)
        .map(|w| {
            w.rechecking
                .into_iter()
                .map(|r| (r.identity, r.shards))
                .collect()
        })
        .unwrap_or_default();
    (s.state, why)
}

/// A caught lie reaches back: the liar gave honest
/// results in sweep `a` and an unnoticed lie in sweep `b`, both launched
/// without verification and finished; caught out-voted in sweep `c`,
/// every result it ever gave is run again by the others. `a` and `b` run
/// again (status says why), finish again, and their results are the
/// sequential run's: `b`'s lie replaced by the others' vote, `a`'s results
/// confirmed; their reports name the liar.
#[test]
fn a_caught_lie_reopens_finished_sweeps_and_reruns_every_result_of_the_liar() {
    let (c, _) = mem_core();
    let (ra, rb, rc) = (
        uvg(6, "a", 8, 0, 1),
        uvg(6, "b", 8, 0, 2),
        uvg(6, "c", 8, 1_000_000, 3),
    );
    // Sweeps a and b: the liar takes half the shards, h1 the rest.
    let mut lied_in_b = None;
    for req in [&ra, &rb] {
        let n = c.launch(req).unwrap().shards;
        let mine = c.lease("@liar", &V(), n / 2).unwrap().leases;
        for g in &mine {
            let result = match patient_lie(g) {
                Some(lie) if req.name.as_deref() == Some("b") && lied_in_b.is_none() => {
                    lied_in_b = Some(g.shard.index);
                    lie
                }
                _ => run(g),
            };
            assert!(submit(&c, "@liar", g, result));
        }
        work(&c, "@h1");
        assert_eq!(
            reopened(&c, req.name.as_deref().unwrap()).0,
            ShownState::Done
        );
    }
    assert!(lied_in_b.is_some(), "a shard of b to lie in");
    assert_ne!(
        c.merged("b").unwrap().output,
        sequential(&rb),
        "the lie got in"
    );
    assert_eq!(c.merged("a").unwrap().output, sequential(&ra));
    let liars_in_a = c.lock().sweeps["a"]
        .replication
        .origins
        .values()
        .filter(|o| *o == "@liar")
        .count() as u32;
    assert!(liars_in_a > 0);
    // Sweep c, verified: the liar lies in its first shard; h1 and h2 out-vote it.
    c.launch(&rc).unwrap();
    let mut lied = false;
    for g in c.lease("@liar", &V(), 100).unwrap().leases {
        let result = match patient_lie(&g).filter(|_| !lied) {
            Some(lie) => {
                lied = true;
                lie
            }
            None => run(&g),
        };
        assert!(submit(&c, "@liar", &g, result));
    }
    assert!(lied);
    assert_eq!(reopened(&c, "a").0, ShownState::Done, "not caught yet");
    work(&c, "@h1");
    work(&c, "@h2");
    assert_eq!(c.lock().trust["@liar"].disagreements, 1, "caught");
    // Both finished sweeps run again, and say why.
    for (id, n) in [("a", liars_in_a), ("b", 0)] {
        let (state, why) = reopened(&c, id);
        assert_eq!(state, ShownState::Running, "{id}");
        assert_eq!(why.len(), 1, "{id}: {why:?}");
        assert_eq!(why[0].0, "@liar");
        if n > 0 {
            assert_eq!(why[0].1, n, "every result of the liar in {id}");
        }
    }
    // Their results are not served meanwhile.
    assert!(c.merged("a").is_err() && c.rendered("b").is_err());
    // The others run them again; the vote settles each.
    for _ in 0..2 {
        work(&c, "@h1");
        work(&c, "@h2");
    }
    for (id, req) in [("a", &ra), ("b", &rb), ("c", &rc)] {
        assert_eq!(reopened(&c, id), (ShownState::Done, vec![]), "{id}");
        assert_eq!(c.merged(id).unwrap().output, sequential(req), "{id}");
    }
    // The render is the honest one, not a stale cache.
    let honest_b = {
        let kind = kinds::find("uvg").unwrap();
        let params = kind.resolve_params(&rb.params).unwrap();
        kind.render(&params, &sequential(&rb)).unwrap().results_json
    };
    assert_eq!(c.rendered("b").unwrap().rendered.results_json, honest_b);
    // The reports name the liar and what became of its results.
    let pa = c.provenance("a").unwrap();
    let ra_ = &pa.rechecked_after_a_lie["@liar"];
    assert_eq!(
        (ra_.shards, ra_.verified, ra_.replaced),
        (liars_in_a, liars_in_a, 0)
    );
    let pb = c.provenance("b").unwrap();
    let rb_ = &pb.rechecked_after_a_lie["@liar"];
    assert_eq!((rb_.replaced, rb_.unverifiable), (1, 0), "{rb_:?}");
    assert_eq!(pb.disagreeing_workers, ["@liar"]);
    assert!(
        pb.confirmation.caught_alone.is_empty(),
        "{:?}",
        pb.confirmation
    );
}

/// With no other identity to run them again, a caught liar's results in
/// a finished sweep are skipped as unverifiable after the wait, and the
/// sweep's report says they rest on an identity caught lying: never
/// "verified".
#[test]
fn a_caught_liar_alone_leaves_its_finished_sweeps_honestly_unverified() {
    let (c, clock) = mem_core();
    let ra = uvg(6, "a", 4, 0, 1);
    let n = c.launch(&ra).unwrap().shards;
    work(&c, "@liar");
    assert_eq!(reopened(&c, "a").0, ShownState::Done);
    // Caught by the recount in sweep c: a consistent undercount.
    c.launch(&uvg(7, "c", 8, 10_000, 1)).unwrap();
    let all = c.lease("@liar", &V(), 100).unwrap().leases;
    let g = all
        .iter()
        .find(|g| {
            serde_json::from_slice::<serde_json::Value>(&run(g).encode()).unwrap()["by_n"]["7"]
                ["graphs"]
                .as_u64()
                .is_some_and(|k| k > 1)
        })
        .unwrap();
    assert!(c
        .decode_result_from("@liar", "c", g.shard.index, &undercount(g, 7))
        .is_err());
    let (state, why) = reopened(&c, "a");
    assert_eq!(state, ShownState::Running);
    assert_eq!(why, [("@liar".to_string(), n)]);
    // Nobody else: skipped after three lease periods, finished again.
    clock.advance(LEASE * 4);
    c.tick().unwrap();
    assert_eq!(reopened(&c, "a"), (ShownState::Done, vec![]));
    let p = c.provenance("a").unwrap();
    assert_eq!(p.rechecked_after_a_lie["@liar"].unverifiable, n);
    assert_eq!(p.confirmation.caught_alone["@liar"], n);
    let st = &p.confirmation.statement;
    assert!(
        st.starts_with("not independently verified")
            && st.ends_with(&format!(
                "; {n} shards rest on @liar alone, an identity caught giving a wrong result, and no other identity could run them again: unverified"
            )),
        "{st}"
    );
}
