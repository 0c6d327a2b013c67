//! Fair shares between identities (core/fair.rs) on a manual clock: a
//! shared token is one identity for the cap, a waiting identity takes its
//! share from a hoarder at once, a lease renewed without progress is taken
//! back while others wait and not handed straight back, and a lease whose
//! progress grows is kept.

use super::*;

/// A core with a 10 s lease, 20 s without progress before a lease may be
/// taken back, and the per-identity cap `cap`.
fn fair_core(cap: u32) -> (Core, Arc<ManualClock>) {
    limited_core(
        Duration::from_secs(10),
        Limits {
            max_shards_per_worker: cap,
            stall_after: Duration::from_secs(20),
            ..Limits::default()
        },
    )
}

/// `g` held with `progress` positions reported.
fn at(sweep_id: &str, g: &Granted, progress: u64) -> Held {
    Held {
        progress,
        ..held(sweep_id, g)
    }
}

/// Under a shared token (or none) the worker ids are one identity: they
/// share one cap, whatever ids a client sends; an issued credential has
/// its own.
#[test]
fn worker_ids_under_a_shared_token_share_one_cap() {
    let (c, _) = fair_core(5);
    c.launch(&uvg(7, "cap", 20)).unwrap();
    let mut got = 0;
    for k in 0..10 {
        got += c
            .lease(&format!("id-{k}"), &V(), u32::MAX)
            .unwrap()
            .leases
            .len();
    }
    assert_eq!(got, 5, "one cap for every id under the shared token");
    assert_eq!(c.lease("@own", &V(), u32::MAX).unwrap().leases.len(), 5);
}

/// A hoarder holding every shard keeps only its share once another
/// identity asks: the waiting identity gets its shards at once, taken from
/// the hoarder (whose renewals of them then fail), and the hoarder cannot
/// take them back.
#[test]
fn a_waiting_identity_takes_its_share_from_a_hoarder_at_once() {
    let (c, _) = fair_core(256);
    let id = c.launch(&uvg(7, "h", 20)).unwrap().sweep_id;
    let total = status_of(&c, &id).shards_total as usize;
    let hoard = c.lease("@hoarder", &V(), u32::MAX).unwrap().leases;
    assert_eq!(hoard.len(), total);
    // The honest identity asks for 2 (its threads): 2 at once.
    let got = c.lease("@honest", &V(), 2).unwrap().leases;
    assert_eq!(got.len(), 2);
    let taken: Vec<u32> = got.iter().map(|g| g.shard.index).collect();
    let renewed = c
        .renew(
            "@hoarder",
            &hoard.iter().map(|g| held(&id, g)).collect::<Vec<_>>(),
        )
        .unwrap();
    let lost: Vec<u32> = hoard
        .iter()
        .zip(&renewed)
        .filter(|(_, &k)| !k)
        .map(|(g, _)| g.shard.index)
        .collect();
    assert_eq!(lost.len(), 2);
    assert!(lost.iter().all(|i| taken.contains(i)), "{lost:?} {taken:?}");
    // The hoarder is at its share (total − 2) while the other waits: nothing
    // more for it, and the honest one's leases stay put.
    assert_eq!(c.lease("@hoarder", &V(), u32::MAX).unwrap().leases.len(), 0);
    assert_eq!(
        c.renew(
            "@honest",
            &got.iter().map(|g| held(&id, g)).collect::<Vec<_>>()
        )
        .unwrap(),
        [true, true]
    );
    // Asking for one more declares a demand of 3: one more, from the
    // hoarder; the shards are all still leased, one lease each.
    assert_eq!(c.lease("@honest", &V(), 1).unwrap().leases.len(), 1);
    assert_eq!(status_of(&c, &id).shards_leased as usize, total);
    assert_eq!(c.lease("@hoarder", &V(), u32::MAX).unwrap().leases.len(), 0);
}

/// The hoarder's leases, at its share, are renewed without progress:
/// 20 s on they are taken back for the waiting identity, and a lease the
/// hoarder lost at a renewal is not handed back to it while another
/// identity waits.
#[test]
fn a_lease_renewed_without_progress_is_taken_back_and_not_handed_back() {
    let (c, clock) = fair_core(256);
    let id = c.launch(&uvg(5, "s", 2)).unwrap().sweep_id;
    let total = status_of(&c, &id).shards_total as usize;
    assert!((2..=4).contains(&total), "{total} shards");
    let hoard = c.lease("@hoarder", &V(), u32::MAX).unwrap().leases;
    assert_eq!(hoard.len(), total);
    // At most total/2 each: the honest identity takes its share at once.
    let first = c.lease("@honest", &V(), 2).unwrap().leases;
    assert_eq!(first.len(), total / 2);
    let kept: Vec<Held> = hoard
        .iter()
        .filter(|g| first.iter().all(|f| f.shard.index != g.shard.index))
        .map(|g| at(&id, g, 0))
        .collect();
    assert!(!kept.is_empty());
    let busy: Vec<Held> = first.iter().map(|g| at(&id, g, 100)).collect();
    // Renewed without progress; the honest worker keeps asking.
    for _ in 0..2 {
        clock.advance(Duration::from_secs(8));
        assert!(c.renew("@hoarder", &kept).unwrap().iter().all(|&k| k));
        assert!(c.renew("@honest", &busy).unwrap().iter().all(|&k| k));
        assert_eq!(c.lease("@honest", &V(), 1).unwrap().leases.len(), 0);
    }
    // 24 s after their grant, no growth for 20 s, the other waiting: the
    // renewals fail.
    clock.advance(Duration::from_secs(8));
    assert!(c.renew("@hoarder", &kept).unwrap().iter().all(|&k| !k));
    // Not handed straight back to the hoarder while the other waits...
    assert_eq!(c.lease("@hoarder", &V(), u32::MAX).unwrap().leases.len(), 0);
    // ... but to the waiting identity.
    let second = c.lease("@honest", &V(), 1).unwrap().leases;
    assert_eq!(second.len(), 1);
    assert!(kept.iter().any(|h| h.index == second[0].shard.index));
    let e = c.metrics_overview().unwrap().1[&id];
    assert_eq!(
        e.leases_reclaimed as usize,
        first.len() + kept.len(),
        "{e:?}"
    );
}

/// A stalled lease is also taken at once by a lease request that finds
/// nothing free, without waiting for the holder's renewal; a lease whose
/// progress grows is never taken for want of progress.
#[test]
fn a_growing_lease_is_kept_and_a_stalled_one_taken_at_once() {
    let (c, clock) = fair_core(256);
    let id = c.launch(&uvg(5, "g", 2)).unwrap().sweep_id;
    let total = status_of(&c, &id).shards_total;
    let b = c.lease("@idle", &V(), 1).unwrap().leases;
    let a = c.lease("@busy", &V(), u32::MAX).unwrap().leases;
    assert_eq!((a.len() + b.len()) as u32, total);
    for k in 1..=5u64 {
        clock.advance(Duration::from_secs(8));
        let growing: Vec<Held> = a.iter().map(|g| at(&id, g, 1_000 * k)).collect();
        assert!(c.renew("@busy", &growing).unwrap().iter().all(|&x| x));
        // No progress ever; nobody else waits yet, so it is renewed.
        assert_eq!(c.renew("@idle", &[at(&id, &b[0], 0)]).unwrap(), [true]);
    }
    // 40 s on: a third identity asks for one; the stalled lease is its at
    // once, the growing ones stay.
    let got = c.lease("@third", &V(), 1).unwrap().leases;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].shard.index, b[0].shard.index);
    let growing: Vec<Held> = a.iter().map(|g| at(&id, g, 6_000)).collect();
    assert!(c.renew("@busy", &growing).unwrap().iter().all(|&x| x));
    assert_eq!(c.renew("@idle", &[at(&id, &b[0], 0)]).unwrap(), [false]);
}

/// A verification copy renewed without progress is taken back too while
/// another identity waits, and not handed straight back to its holder.
#[test]
fn a_stalled_verification_copy_is_taken_back() {
    let (c, clock) = fair_core(256);
    let mut req = uvg(5, "v", 2);
    req.verify_ppm = 1_000_000;
    req.verify_seed = Some(1);
    let id = c.launch(&req).unwrap().sweep_id;
    let first = c.lease("@a", &V(), 100).unwrap().leases;
    for g in &first {
        assert!(run_and_submit(&c, "@a", g));
    }
    let copies = c.lease("@hoarder", &V(), 100).unwrap().leases;
    assert_eq!(copies.len(), first.len(), "a copy of each shard");
    let hs: Vec<Held> = copies.iter().map(|g| at(&id, g, 0)).collect();
    for _ in 0..3 {
        clock.advance(Duration::from_secs(8));
        // The third identity waits for work all along.
        assert!(c.lease("@c", &V(), 1).unwrap().leases.is_empty());
        assert!(c.renew("@hoarder", &hs).unwrap().iter().all(|&k| k));
    }
    clock.advance(Duration::from_secs(8));
    assert!(c.lease("@c", &V(), 1).unwrap().leases.is_empty());
    // 32 s on, 24 s since the first renewal without growth: taken back.
    assert!(c.renew("@hoarder", &hs).unwrap().iter().all(|&k| !k));
    assert!(c.lease("@hoarder", &V(), 100).unwrap().leases.is_empty());
    let got = c.lease("@c", &V(), 100).unwrap().leases;
    assert_eq!(got.len(), copies.len());
    for g in &got {
        assert!(run_and_submit(&c, "@c", g));
    }
    assert!(c.merged(&id).is_ok(), "verified and finished");
}

/// A hoarder that renews its leases claiming progress (a little more each
/// time) but never submits is reclaimed all the same: what it claims keeps a lease only within the sweep's own pace, as
/// the coordinator measured it (here the honest results took no time, so
/// twice the stall bound, 40 s, is the patience). The waiting identity then
/// finishes the sweep; status names the hoarder, limited to its share,
/// with its leases reclaimed.
#[test]
fn a_hoarder_claiming_progress_without_results_is_reclaimed() {
    let (c, clock) = fair_core(256);
    let id = c.launch(&uvg(5, "p", 2)).unwrap().sweep_id;
    let total = status_of(&c, &id).shards_total as usize;
    assert!((2..=4).contains(&total), "{total} shards");
    let hoard = c.lease("@hoarder", &V(), u32::MAX).unwrap().leases;
    assert_eq!(hoard.len(), total);
    // The honest identity takes its share at once and submits it.
    let mut done = 0;
    let mut kept: Vec<Granted> = hoard.clone();
    for g in c.lease("@honest", &V(), 1).unwrap().leases {
        assert!(run_and_submit(&c, "@honest", &g));
        kept.retain(|h| h.shard.index != g.shard.index);
        done += 1;
    }
    assert!(done >= 1 && !kept.is_empty());
    let mut reclaimed_at = None;
    for k in 1..=10u64 {
        clock.advance(Duration::from_secs(8));
        // Claimed progress grows at every renewal, within the shard's cap.
        let claims: Vec<Held> = kept.iter().map(|g| at(&id, g, k)).collect();
        let renewed = c.renew("@hoarder", &claims).unwrap();
        if reclaimed_at.is_none() && renewed.iter().any(|&x| !x) {
            reclaimed_at = Some(k * 8);
        }
        let mut i = 0;
        kept.retain(|_| {
            i += 1;
            renewed[i - 1]
        });
        for g in c.lease("@honest", &V(), 1).unwrap().leases {
            assert!(run_and_submit(&c, "@honest", &g));
            kept.retain(|h| h.shard.index != g.shard.index);
            done += 1;
        }
        // It asks for everything all along: cut to its share.
        kept.extend(c.lease("@hoarder", &V(), u32::MAX).unwrap().leases);
        if done == total {
            break;
        }
    }
    assert_eq!(done, total, "the honest identity finished the sweep");
    let at = reclaimed_at.expect("a renewal refused");
    assert!((40..=48).contains(&at), "reclaimed {at} s after the grant");
    assert!(c.merged(&id).is_ok());
    let report = c.overview(None).unwrap();
    let h = report
        .identities_limited
        .iter()
        .find(|l| l.identity == "@hoarder")
        .unwrap_or_else(|| panic!("{:?}", report.identities_limited));
    // Every shard was the hoarder's, and taken back from it once.
    assert_eq!(h.leases_reclaimed as usize, total, "{h:?}");
    assert!(h.limited, "{h:?}");
    assert!(report
        .identities_limited
        .iter()
        .all(|l| l.identity != "@honest"));
}
