//! A solver build that changes while a sweep runs (`core::solvers`): the
//! sweep goes on under the new build only when told to, keeps which build
//! computed which shards through restarts, exports and imports (whole and
//! incremental), and its results stay byte-identical to the sweep run by
//! one build.

use super::*;
use crate::export_file::{self, Decoded};
use gamesweep_api::shard_set::ShardSet;
use gamesweep_api::SolverVersion;
use std::collections::BTreeSet;

const SHARDS: u32 = 24;
/// The solver version of "the next build" of `uvg`.
const NEXT: &str = "0.0.0+next-build";

/// A worker build whose `uvg` solver is `version`.
fn build(version: &str) -> SolverVersions {
    SolverVersions::new(vec![SolverVersion {
        name: "uvg".into(),
        version: version.into(),
    }])
    .unwrap()
}

/// This build's `uvg` solver version.
fn this_build() -> String {
    kinds::find("uvg").unwrap().version()
}

/// Lease up to `max` shards of `c` as `worker` of build `v`, run and submit
/// them; the shards run.
fn run_some(c: &Core, worker: &str, v: &SolverVersions, max: u32) -> BTreeSet<u32> {
    let mut ran = BTreeSet::new();
    while (ran.len() as u32) < max {
        let got = c.lease(worker, v, max - ran.len() as u32).unwrap().leases;
        if got.is_empty() {
            break;
        }
        for g in &got {
            let s = Submission {
                version: v.clone(),
                ..submission(worker, g, run(g))
            };
            assert!(c.submit(s).unwrap(), "shard {} accepted", g.shard.index);
            ran.insert(g.shard.index);
        }
    }
    ran
}

fn results_json(c: &Core) -> String {
    c.rendered("s").unwrap().rendered.results_json.clone()
}

fn whole() -> String {
    let (c, _) = mem_core(Duration::from_secs(30));
    c.launch(&uvg(7, "s", SHARDS)).unwrap();
    run_some(&c, "w", &V(), u32::MAX);
    results_json(&c)
}

/// The shards of each build `c`'s provenance of `s` lists, by version.
fn shares(c: &Core) -> BTreeMap<String, BTreeSet<u32>> {
    c.provenance("s")
        .unwrap()
        .solvers
        .into_iter()
        .map(|s| {
            assert_eq!(s.shards, s.ranges.len());
            (s.version, s.ranges.iter().collect())
        })
        .collect()
}

fn decoded(bytes: &[u8]) -> Decoded {
    export_file::decode(bytes).unwrap()
}

fn policy(c: &Core, accept: bool) -> transfer::ImportPolicy {
    transfer::ImportPolicy {
        trusted: vec![c.signing_key()],
        verify_ppm: Some(0),
        accept_solver_change: accept,
        ..Default::default()
    }
}

#[test]
fn a_sweep_goes_on_under_a_new_build_and_keeps_which_build_computed_which_shards() {
    let dir = tempfile::tempdir().unwrap();
    let old = this_build();
    let (first, rest);
    {
        let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
        c.launch(&uvg(7, "s", SHARDS)).unwrap();
        first = run_some(&c, "w", &V(), 9);
        assert_eq!(first.len(), 9);
        // A worker of the next build gets nothing while the sweep is the
        // old build's.
        assert!(
            c.lease("n", &build(NEXT), 5).is_err() || {
                let l = c.lease("n", &build(NEXT), 5).unwrap();
                l.leases.is_empty()
            }
        );
        let changed = c.change_solver("s", NEXT).unwrap().unwrap();
        assert_eq!(changed.from, old);
        assert_eq!(changed.shards_kept, 9);
        assert_eq!(c.change_solver("s", NEXT).unwrap(), None, "once");
        // Now the old build's workers get nothing, the next build's the rest.
        let l = c.lease("w", &V(), 5);
        assert!(l.is_err() || l.unwrap().leases.is_empty());
    }
    // Durable: a restart keeps the change and the record.
    let (c, _) = sled_core(dir.path(), Duration::from_secs(30));
    rest = run_some(&c, "n", &build(NEXT), u32::MAX);
    assert_eq!(
        first.len() + rest.len(),
        c.status(Some("s")).unwrap().0[0].shards_total as usize
    );
    assert_eq!(
        results_json(&c),
        whole(),
        "results as one build's, byte for byte"
    );
    let by = shares(&c);
    assert_eq!(by.len(), 2);
    assert_eq!(by[&old], first);
    assert_eq!(by[NEXT], rest);
    let p = c.provenance("s").unwrap();
    assert_eq!(p.solver_version, NEXT);
    assert_eq!(
        p.solvers.last().unwrap().version,
        NEXT,
        "the current build last"
    );

    // The export carries the record; an import by this (the old) build
    // refuses it unless told, then keeps the record with the roles swapped.
    let file = decoded(&c.export_file("s").unwrap());
    assert_eq!(file.export.solver_version, NEXT);
    assert_eq!(file.export.earlier_solvers.len(), 1);
    assert_eq!(file.export.earlier_solvers[0].version, old);
    assert_eq!(
        file.export.earlier_solvers[0].shards,
        first.iter().copied().collect::<ShardSet>()
    );
    let (d, _) = mem_core(Duration::from_secs(30));
    let e = d
        .import(&file, None, &policy(&c, false))
        .unwrap_err()
        .to_string();
    assert!(e.contains("--accept-solver-change"), "{e}");
    assert!(d.sweep_ids().is_empty());
    d.import(&file, None, &policy(&c, true)).unwrap();
    assert_eq!(results_json(&d), whole());
    let by = shares(&d);
    assert_eq!(by[&old], first);
    assert_eq!(by[NEXT], rest);
    assert_eq!(d.provenance("s").unwrap().solver_version, old);
}

#[test]
fn incremental_files_of_two_builds_merge_into_one_record() {
    let old = this_build();
    let (c, _) = mem_core(Duration::from_secs(30));
    c.launch(&uvg(7, "s", SHARDS)).unwrap();
    let first = run_some(&c, "w", &V(), 10);
    let a = decoded(&c.sign(&c.export_where("s", |_| true).unwrap()));
    c.change_solver("s", NEXT).unwrap();
    let rest = run_some(&c, "n", &build(NEXT), u32::MAX);
    let b = decoded(&c.sign(&c.export_where("s", |i| !first.contains(&i)).unwrap()));
    assert_eq!(a.export.solver_version, old);
    assert_eq!(b.export.solver_version, NEXT);
    assert!(
        b.export.earlier_solvers.is_empty(),
        "b holds only the next build's shards"
    );

    // In either order, into a fresh store of this (the old) build.
    for order in [[&a, &b], [&b, &a]] {
        let (d, _) = mem_core(Duration::from_secs(30));
        for f in order {
            if f.export.solver_version != old {
                let e = d
                    .import(f, None, &policy(&c, false))
                    .unwrap_err()
                    .to_string();
                assert!(e.contains("--accept-solver-change"), "{e}");
            }
            d.import(f, None, &policy(&c, true)).unwrap();
        }
        assert_eq!(results_json(&d), whole());
        let by = shares(&d);
        assert_eq!(by[&old], first);
        assert_eq!(by[NEXT], rest);
    }
}

#[test]
fn one_build_leaves_no_record() {
    let (c, _) = mem_core(Duration::from_secs(30));
    c.launch(&uvg(6, "s", 8)).unwrap();
    run_some(&c, "w", &V(), u32::MAX);
    assert!(c.provenance("s").unwrap().solvers.is_empty());
    assert!(!c.provenance("s").unwrap().to_json().contains("solvers"));
    let file = decoded(&c.export_file("s").unwrap());
    assert!(file.export.earlier_solvers.is_empty());
    assert_eq!(c.change_solver("s", &this_build()).unwrap(), None);
}
