//! Parts that merge: a sweep launched with `--part K/M` hands out
//! only its part's shards; an export imported into a store that holds the
//! same sweep adds the shards it lacks and compares the ones it has; the
//! parts merged give the results of the sweep run whole, byte for byte, in
//! any order; incremental exports (`export_where`) restore a sweep.

use super::*;
use crate::export_file::{self, Decoded, Signature};
use std::collections::BTreeSet;

const SHARDS: u32 = 24;

/// Lease and run every shard `c` hands out to `worker` until none is left.
fn drain(c: &Core, worker: &str) -> BTreeSet<u32> {
    let mut ran = BTreeSet::new();
    loop {
        let got = c.lease(worker, &V(), 1000).unwrap().leases;
        if got.is_empty() {
            return ran;
        }
        for g in &got {
            run_and_submit(c, worker, g);
            ran.insert(g.shard.index);
        }
    }
}

fn part(index: u32, of: u32) -> Option<Part> {
    Some(Part { index, of })
}

/// A core that ran part `p` of uvg n ≤ 7 as sweep `s`.
fn ran_part(p: Option<Part>) -> (Core, BTreeSet<u32>) {
    let (c, _) = mem_core(Duration::from_secs(30));
    c.launch(&LaunchSpec {
        part: p,
        ..uvg(7, "s", SHARDS)
    })
    .unwrap();
    let ran = drain(&c, "w");
    (c, ran)
}

fn results_json(c: &Core) -> String {
    c.rendered("s").unwrap().rendered.results_json.clone()
}

/// `c`'s export of `s`, as the decoded file its key signed.
fn file_of(c: &Core) -> Decoded {
    export_file::decode(&c.export_file("s").unwrap()).unwrap()
}

fn trusting(cores: &[&Core]) -> transfer::ImportPolicy {
    transfer::ImportPolicy {
        trusted: cores.iter().map(|c| c.signing_key()).collect(),
        verify_ppm: Some(0),
        ..Default::default()
    }
}

#[test]
fn a_part_runs_only_its_shards_and_is_not_a_finished_sweep() {
    let (c, ran) = ran_part(part(1, 3));
    let n = c.status(Some("s")).unwrap().0[0].shards_total;
    let want: BTreeSet<u32> = (0..n).filter(|i| i % 3 == 1).collect();
    assert_eq!(ran, want, "only the shards ≡ 1 (mod 3)");
    let p = c.part_progress("s").unwrap().unwrap();
    assert_eq!(
        (p.done, p.total, p.finished),
        (want.len() as u32, want.len() as u32, true)
    );
    let st = status_of(&c, "s");
    assert_eq!(
        st.state,
        ShownState::Running,
        "a part is not the whole sweep"
    );
    assert_eq!(st.shards_done, want.len() as u32);
    // Its results are never rendered as the whole table.
    assert!(matches!(
        c.rendered("s"),
        Err(CoreError::NotFinished { .. })
    ));
    // Widened (a resume without a part), the rest is handed out.
    c.launch(&resuming(&uvg(7, "s", SHARDS))).unwrap();
    assert_eq!(c.part_progress("s").unwrap(), None);
    let rest = drain(&c, "w");
    assert_eq!(rest.len() as u32 + want.len() as u32, n);
    assert!(rest.is_disjoint(&want));
    let (whole, _) = ran_part(None);
    assert_eq!(results_json(&c), results_json(&whole));
}

#[test]
fn bad_parts_are_refused_with_a_message() {
    let (c, _) = mem_core(Duration::from_secs(30));
    for (p, why) in [
        (part(3, 3), "not below M"),
        (part(0, 0), "out of range"),
        (part(999, 1000), "has no shards"),
    ] {
        let e = c
            .launch(&LaunchSpec {
                part: p,
                ..uvg(7, "s", SHARDS)
            })
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{p:?}: {e}");
    }
    let e = c
        .launch(&LaunchSpec {
            part: part(0, 2),
            sample: Some(SampleRequest { ppm: 1000, seed: 1 }),
            ..uvg(7, "s", SHARDS)
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot be combined"), "{e}");
    assert!(c.sweep_ids().is_empty(), "nothing launched");
    for (text, why) in [
        ("1", "K/M"),
        ("a/3", "K is not"),
        ("1/b", "M is not"),
        ("3/3", "not below"),
        ("0/0", "out of range"),
    ] {
        let e = Part::parse(text).unwrap_err();
        assert!(e.contains(why) && e.contains(text), "{text}: {e}");
    }
    assert_eq!(Part::parse("2/5"), Ok(Part { index: 2, of: 5 }));
}

#[test]
fn parts_merged_in_any_order_give_the_whole_sweeps_results_byte_for_byte() {
    let parts: Vec<(Core, BTreeSet<u32>)> = (0..3).map(|k| ran_part(part(k, 3))).collect();
    let (whole, _) = ran_part(None);
    let reference = results_json(&whole);
    let cores: Vec<&Core> = parts.iter().map(|(c, _)| c).collect();
    for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
        let (m, _) = mem_core(Duration::from_secs(30));
        let policy = trusting(&cores);
        for (step, &k) in order.iter().enumerate() {
            let i = m.import(&file_of(&parts[k].0), None, &policy).unwrap();
            assert_eq!(i.merged, step > 0, "the first creates, the rest merge");
            assert_eq!(i.added as usize, parts[k].1.len());
            assert_eq!(i.confirmed, 0);
        }
        assert_eq!(results_json(&m), reference, "order {order:?}");
        // Into a store holding a part already (the part's own): the same.
        let (own, _) = ran_part(part(order[0] as u32, 3));
        for &k in &order[1..] {
            own.import(&file_of(&parts[k].0), None, &policy).unwrap();
        }
        assert_eq!(results_json(&own), reference);
    }
}

#[test]
fn importing_a_file_again_changes_nothing() {
    let (p, ran) = ran_part(part(0, 2));
    let (m, _) = mem_core(Duration::from_secs(30));
    let policy = trusting(&[&p]);
    let f = file_of(&p);
    m.import(&f, None, &policy).unwrap();
    let before = (m.export("s").unwrap(), status_of(&m, "s"));
    for _ in 0..2 {
        let again = m.import(&f, None, &policy).unwrap();
        assert!(again.merged);
        assert_eq!((again.added, again.confirmed), (0, ran.len() as u32));
        assert_eq!(m.export("s").unwrap(), before.0);
        assert_eq!(status_of(&m, "s").shards_done, before.1.shards_done);
    }
}

/// The whole uvg n ≤ 7 sweep `s` run by `worker`.
fn ran_whole_by(worker: &str) -> Core {
    let (c, _) = mem_core(Duration::from_secs(30));
    c.launch(&uvg(7, "s", SHARDS)).unwrap();
    drain(&c, worker);
    c
}

/// The shard a lie is told about, and the lie: its honest result with one
/// start moved from Grundy value 1 to 2 (every total kept, so validation
/// and the recount pass: only a second run can tell).
const LIED: usize = 2;
fn lie_about(f: &mut Decoded) {
    let r = &mut f.export.results[LIED];
    assert_eq!(r.index as usize, LIED);
    let mut v: serde_json::Value = serde_json::from_str(&r.result).unwrap();
    let counts = v["by_n"]
        .as_object_mut()
        .unwrap()
        .values_mut()
        .rev()
        .find(|c| c["grundy"]["1"].as_u64().unwrap_or(0) > 0)
        .expect("a start of value 1");
    let g = counts["grundy"].as_object_mut().unwrap();
    let (one, two) = (
        g["1"].as_u64().unwrap(),
        g.get("2").and_then(|x| x.as_u64()).unwrap_or(0),
    );
    g.insert("1".into(), (one - 1).into());
    g.insert("2".into(), (two + 1).into());
    let kind = kinds::find("uvg").unwrap();
    r.result = String::from_utf8(kind.decode(v.to_string().as_bytes()).unwrap().encode()).unwrap();
}

/// The conflict of shard [`LIED`] in `m`: its verification as status
/// shows it.
fn verification(m: &Core) -> ReplicationStatus {
    status_of(m, "s")
        .verification
        .expect("a verification section")
}

/// An imported result that differs from the stored one is a mismatch, as
/// in replication: both runs are recorded, the rest of the file merges,
/// the sweep is not finished until a deciding run by a worker that ran
/// neither settles it, and the out-voted run is named. Here the file lies.
#[test]
fn a_file_whose_result_differs_is_out_voted_by_a_deciding_run() {
    let honest = ran_whole_by("a");
    let (p, _) = ran_part(part(0, 2));
    let liar = ran_whole_by("b");
    let (m, _) = mem_core(Duration::from_secs(30));
    let policy = trusting(&[&honest, &p, &liar]);
    let total = status_of(&honest, "s").shards_total;
    let held = file_of(&p).export.results.len() as u32;
    m.import(&file_of(&p), None, &policy).unwrap();
    let stored = m.store.results_of("s").unwrap()[&(LIED as u32)].clone();
    // The liar's whole file, shard 2 (held, run by `w`) lied about.
    let mut f = file_of(&liar);
    lie_about(&mut f);
    let i = m.import(&f, None, &policy).unwrap();
    assert_eq!(
        (i.added, i.confirmed, i.conflicts),
        (total - held, held - 1, 1)
    );
    let st = status_of(&m, "s");
    assert_eq!(st.shards_done, total, "every shard has a result");
    assert_eq!(
        st.state,
        ShownState::Running,
        "not finished: a conflict is open"
    );
    let v = verification(&m);
    assert_eq!((v.pending, v.mismatched), (1, 1), "{v:?}");
    assert_eq!(v.waiting.as_ref().unwrap().shards, [LIED as u32]);
    assert_eq!(
        m.store.results_of("s").unwrap()[&(LIED as u32)],
        stored,
        "kept until decided"
    );
    // Neither run's worker may decide it.
    for w in ["w", "b"] {
        assert!(m.lease(w, &V(), 10).unwrap().leases.is_empty(), "{w}");
    }
    let copy = m.lease("d", &V(), 10).unwrap().leases;
    assert_eq!(
        copy.iter().map(|g| g.shard.index).collect::<Vec<_>>(),
        [LIED as u32]
    );
    assert!(run_and_submit(&m, "d", &copy[0]));
    let v = verification(&m);
    assert_eq!((v.pending, v.mismatched, v.replaced), (0, 1, 0), "{v:?}");
    assert_eq!(v.disagreeing_workers, ["b"]);
    assert_eq!(status_of(&m, "s").state, ShownState::Done);
    assert_eq!(results_json(&m), results_json(&honest));
}

/// The same with the store holding the lie and the file the truth: the
/// deciding run agrees with the file, whose result replaces the stored
/// one; the merged result is the honest run's, byte for byte.
#[test]
fn a_stored_result_out_voted_by_an_imported_file_and_a_deciding_run_is_replaced() {
    let honest = ran_whole_by("a");
    let liar = ran_whole_by("b");
    let (m, _) = mem_core(Duration::from_secs(30));
    let policy = trusting(&[&honest, &liar]);
    let mut f = file_of(&liar);
    lie_about(&mut f);
    m.import(&f, None, &policy).unwrap();
    assert_eq!(status_of(&m, "s").state, ShownState::Done);
    assert_ne!(results_json(&m), results_json(&honest), "the lie is in");
    let i = m.import(&file_of(&honest), None, &policy).unwrap();
    let total = status_of(&honest, "s").shards_total;
    assert_eq!((i.added, i.confirmed, i.conflicts), (0, total - 1, 1));
    assert_eq!(
        status_of(&m, "s").state,
        ShownState::Running,
        "a finished sweep reopens"
    );
    let copy = m.lease("d", &V(), 10).unwrap().leases;
    assert_eq!(copy.len(), 1);
    assert!(run_and_submit(&m, "d", &copy[0]));
    let v = verification(&m);
    assert_eq!((v.pending, v.mismatched, v.replaced), (0, 1, 1), "{v:?}");
    assert_eq!(v.disagreeing_workers, ["b"]);
    assert_eq!(status_of(&m, "s").state, ShownState::Done);
    assert_eq!(results_json(&m), results_json(&honest));
    // The decision is stored: a restart of the store keeps it (the merged
    // result is rebuilt from the stored results).
    assert_eq!(
        m.store.results_of("s").unwrap()[&(LIED as u32)],
        honest.store.results_of("s").unwrap()[&(LIED as u32)]
    );
}

/// A deciding run that agrees with neither leaves it open for another.
#[test]
fn a_deciding_run_that_agrees_with_neither_leaves_the_conflict_open() {
    let honest = ran_whole_by("a");
    let liar = ran_whole_by("b");
    let (m, _) = mem_core(Duration::from_secs(30));
    let policy = trusting(&[&honest, &liar]);
    let mut f = file_of(&liar);
    lie_about(&mut f);
    m.import(&file_of(&honest), None, &policy).unwrap();
    // The lie, then a second lie of its own on top (another result again).
    m.import(&f, None, &policy).unwrap();
    let copy = m.lease("d", &V(), 10).unwrap().leases;
    let mut third = file_of(&liar);
    lie_about(&mut third);
    lie_about(&mut third);
    let kind = kinds::find("uvg").unwrap();
    let other = kind
        .decode(third.export.results[LIED].result.as_bytes())
        .unwrap();
    assert!(m.submit(submission("d", &copy[0], other)).unwrap());
    let v = verification(&m);
    assert_eq!(v.pending, 1, "still open: {v:?}");
    assert!(
        m.lease("d", &V(), 10).unwrap().leases.is_empty(),
        "d decided once"
    );
    let copy = m.lease("e", &V(), 10).unwrap().leases;
    assert!(run_and_submit(&m, "e", &copy[0]));
    let v = verification(&m);
    assert_eq!((v.pending, v.replaced), (0, 0), "{v:?}");
    assert_eq!(v.disagreeing_workers, ["b", "d"]);
    assert_eq!(results_json(&m), results_json(&honest));
}

#[test]
fn a_file_of_another_sweep_or_plan_does_not_merge() {
    let (p, _) = ran_part(part(0, 2));
    let policy = trusting(&[&p]);
    // Another plan (another --shards) under the same id.
    let (m, _) = mem_core(Duration::from_secs(30));
    m.launch(&uvg(7, "s", SHARDS * 2)).unwrap();
    let e = m
        .import(&file_of(&p), None, &policy)
        .unwrap_err()
        .to_string();
    assert!(e.contains("plan"), "{e}");
    // Other parameters under the same id.
    let (m, _) = mem_core(Duration::from_secs(30));
    m.launch(&uvg(6, "s", SHARDS)).unwrap();
    let e = m
        .import(&file_of(&p), None, &policy)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--max-n 6") && e.contains("--max-n 7"), "{e}");
    assert_eq!(status_of(&m, "s").shards_done, 0);
}

#[test]
fn an_untrusted_merge_is_re_run_before_the_sweep_finishes() {
    let (a, _) = ran_part(part(0, 2));
    let (b, ran_b) = ran_part(part(1, 2));
    let (m, _) = mem_core(Duration::from_secs(30));
    m.import(&file_of(&a), None, &trusting(&[&a])).unwrap();
    // b's file unsigned (format 1): its results are an untrusted identity's.
    let unsigned = Decoded {
        export: b.export("s").unwrap(),
        signature: Signature::Unsigned,
    };
    let i = m.import(&unsigned, None, &trusting(&[&a])).unwrap();
    assert!(i.merged && !i.trusted);
    let st = status_of(&m, "s");
    assert_eq!(st.shards_done, st.shards_total);
    assert!(m.rendered("s").is_err(), "not finished before the re-runs");
    let reran = drain(&m, "w");
    assert_eq!(reran, ran_b, "exactly the untrusted file's shards re-run");
    let (whole, _) = ran_part(None);
    assert_eq!(results_json(&m), results_json(&whole));
}

#[test]
fn incremental_exports_restore_the_sweep_in_any_order() {
    let (c, _) = mem_core(Duration::from_secs(30));
    c.launch(&uvg(7, "s", SHARDS)).unwrap();
    let mut files = Vec::new();
    let mut held = BTreeSet::new();
    loop {
        // A few shards, then a checkpoint of those not exported yet.
        let got = c.lease("w", &V(), 5).unwrap().leases;
        for g in &got {
            run_and_submit(&c, "w", g);
        }
        let e = c.export_where("s", |i| !held.contains(&i)).unwrap();
        let new: BTreeSet<u32> = e.results.iter().map(|r| r.index).collect();
        assert!(new.is_disjoint(&held), "only shards not exported yet");
        assert_eq!(new.len(), got.len());
        held.extend(new);
        if got.is_empty() {
            break;
        }
        files.push(export_file::decode(&c.sign(&e)).unwrap());
    }
    assert!(files.len() >= 4, "{} files", files.len());
    let whole = c.export("s").unwrap();
    for reverse in [false, true] {
        let (m, _) = mem_core(Duration::from_secs(30));
        let policy = trusting(&[&c]);
        let mut order: Vec<&Decoded> = files.iter().collect();
        if reverse {
            order.reverse();
        }
        for f in order {
            m.import(f, None, &policy).unwrap();
        }
        assert_eq!(m.export("s").unwrap().results, whole.results);
        assert_eq!(results_json(&m), results_json(&c));
    }
}
