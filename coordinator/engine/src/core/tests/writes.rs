//! The core on a store whose disk fills up ([`crate::store::testing::Disk`]
//! behind a [`crate::store::ResilientStore`]): submits are not acknowledged
//! while writes fail, resume without a restart, and what the core holds in
//! memory is what a restart finds on disk. And imports that stop half-way
//! leave nothing behind.

use crate::core::status::ShownState;
use crate::core::*;
use crate::store::testing::Disk;
use gamesweep::kinds;
use gamesweep::sweep::{self, Output};
use std::time::Instant;

const LEASE: Duration = Duration::from_secs(600);

fn core_on(disk: &Arc<Disk>) -> Core {
    let store: Arc<dyn Store> = Arc::new(disk.resilient());
    Core::open_with_clock(store, LEASE, Arc::new(ManualClock::new())).unwrap()
}

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

fn submission(g: &Granted) -> Submission {
    let kind = g.kind;
    let result = kind
        .run_shard(&g.params, &g.shard, &sweep::ShardCtx::detached())
        .unwrap();
    Submission {
        worker: "w".into(),
        version: solver_version(),
        sweep_id: g.sweep_id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        result,
        timing: None,
        positions: None,
    }
}

/// Submit and flush, as the server does: `Ok(accepted)` is an acknowledgement.
fn submit(c: &Core, g: &Granted) -> Result<bool, CoreError> {
    let accepted = c.submit(submission(g))?;
    c.flush()?;
    Ok(accepted)
}

fn sequential(max_n: u64, shards: u32) -> Output {
    let kind = kinds::find("uvg").unwrap();
    let params = kind
        .resolve_params(&[("max_n".to_string(), max_n)].into())
        .unwrap();
    let plan = kind.plan(&params, shards).unwrap();
    sweep::run_all_sequential(kind, &params, &plan).unwrap()
}

/// Wait (at most 5 s) until the core's store writes again.
fn until_resumed(c: &Core) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while c.store_writes_failing().is_some() {
        assert!(Instant::now() < deadline, "store writes did not resume");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_full_disk_refuses_acknowledgements_and_writes_resume_without_a_restart() {
    let disk = Disk::new();
    let c = core_on(&disk);
    let l = c.launch(&uvg(6, "s", 8)).unwrap();
    let leases = c.lease("w", &solver_version(), 100).unwrap().leases;
    assert_eq!(leases.len() as u32, l.shards);
    assert!(leases.len() >= 4, "{} shards", leases.len());
    assert!(submit(&c, &leases[0]).unwrap(), "acknowledged");
    // Accepted in memory, then the disk fills before the flush: not
    // acknowledged (the worker sends it again).
    c.submit(submission(&leases[1])).unwrap();
    disk.set_full(true);
    let e = c.flush().unwrap_err();
    assert!(
        e.to_string().contains("store writes failing") && e.to_string().contains("No space"),
        "{e}"
    );
    // Status says so; a new result is refused and changes nothing.
    let report = c.overview(None).unwrap();
    let why = report.store_writes_failing.clone().expect("status says so");
    assert!(why.contains("No space left on device"), "{why}");
    // (The command line's text of such a report: `status_text`'s tests.)
    let before = c.overview(Some("s")).unwrap().sweeps[0].shards_done;
    assert!(submit(&c, &leases[2]).is_err());
    assert_eq!(
        c.overview(Some("s")).unwrap().sweeps[0].shards_done,
        before,
        "a refused result changes nothing"
    );
    // Leases are still renewed (kept in the redo log).
    let held: Vec<Held> = leases[2..]
        .iter()
        .map(|g| Held {
            sweep_id: g.sweep_id.clone(),
            index: g.shard.index,
            token: g.token.clone(),
            progress: 0,
        })
        .collect();
    assert!(c.renew("w", &held).unwrap().iter().all(|&h| h));
    // A cancel is refused and leaves the sweep as it was.
    assert!(c.cancel("s").is_err());
    assert_eq!(
        c.overview(Some("s")).unwrap().sweeps[0].state,
        ShownState::Running
    );
    // Room again: writes resume by themselves.
    disk.set_full(false);
    until_resumed(&c);
    assert_eq!(c.overview(None).unwrap().store_writes_failing, None);
    // The unacknowledged result comes again: a duplicate now, acknowledged
    // only after a flush that covers the first copy.
    assert!(!submit(&c, &leases[1]).unwrap());
    for g in &leases[2..] {
        assert!(submit(&c, g).unwrap());
    }
    let merged = c.merged("s").unwrap().output;
    assert_eq!(merged.encode(), sequential(6, 8).encode());
    // A restart finds exactly what the core had: nothing diverged.
    drop(c);
    let again = core_on(&disk);
    let s = &again.overview(Some("s")).unwrap().sweeps[0];
    assert_eq!((s.state, s.shards_done), (ShownState::Done, l.shards));
    assert_eq!(again.merged("s").unwrap().output.encode(), merged.encode());
}

#[test]
fn an_import_that_stops_half_way_leaves_nothing_and_imports_again() {
    // An export of a finished sweep.
    let source = Disk::new();
    let c = core_on(&source);
    c.launch(&uvg(6, "s", 8)).unwrap();
    for g in c.lease("w", &solver_version(), 100).unwrap().leases {
        assert!(submit(&c, &g).unwrap());
    }
    let export = crate::export_file::decode(&c.export_file("s").unwrap()).unwrap();
    // No verification share on the import: with the default 1 % and a
    // random key, one of its shards is sometimes selected, and with no
    // second worker here the sweep would then not finish.
    let trust = crate::core::transfer::ImportPolicy {
        trusted: vec![c.signing_key()],
        verify_ppm: Some(0),
        ..Default::default()
    };
    assert!(export.export.results.len() >= 4);
    let want = c.merged("s").unwrap().output.encode();
    for stop_at in [1, 3, export.export.results.len() as i64] {
        // The import stops at the `stop_at`th result write (the disk fills:
        // neither it nor its clean-up can write); then the coordinator
        // restarts, as after a kill -9 at that moment.
        let disk = Disk::new();
        let target = core_on(&disk);
        disk.fill_after(stop_at);
        assert!(target.import(&export, None, &trust).is_err());
        assert!(target.overview(None).unwrap().sweeps.is_empty());
        drop(target);
        disk.set_full(false);
        let restarted = core_on(&disk);
        assert!(
            restarted.overview(None).unwrap().sweeps.is_empty(),
            "stopped at result {stop_at}: a half-imported sweep is visible"
        );
        let imported = restarted.import(&export, None, &trust).unwrap();
        assert_eq!(imported.done, export.export.results.len() as u32);
        assert_eq!(restarted.merged("s").unwrap().output.encode(), want);
        // And it survives a restart, complete.
        drop(restarted);
        assert_eq!(core_on(&disk).merged("s").unwrap().output.encode(), want);
    }
}

#[test]
fn a_failed_import_is_deleted_by_the_next_import_without_a_restart() {
    let source = Disk::new();
    let c = core_on(&source);
    c.launch(&uvg(5, "s", 4)).unwrap();
    for g in c.lease("w", &solver_version(), 100).unwrap().leases {
        assert!(submit(&c, &g).unwrap());
    }
    let export = crate::export_file::decode(&c.export_file("s").unwrap()).unwrap();
    // No verification share on the import: with the default 1 % and a
    // random key, one of its shards is sometimes selected, and with no
    // second worker here the sweep would then not finish.
    let trust = crate::core::transfer::ImportPolicy {
        trusted: vec![c.signing_key()],
        verify_ppm: Some(0),
        ..Default::default()
    };
    let disk = Disk::new();
    let target = core_on(&disk);
    disk.fill_after(1);
    assert!(target.import(&export, None, &trust).is_err());
    disk.set_full(false);
    until_resumed(&target);
    let imported = target.import(&export, None, &trust).unwrap();
    assert_eq!(imported.done, export.export.results.len() as u32);
    assert_eq!(
        target.merged("s").unwrap().output.encode(),
        c.merged("s").unwrap().output.encode()
    );
}
