//! `/metrics` text (`metrics::render`) parsed by a
//! Prometheus text-format parser: every value equals what `status --json`
//! reports at the same instant, and the event counters move with leases,
//! renewals, late, duplicate and refused submits. The core runs on an
//! in-memory store and a manual clock (no waiting for real time).

use crate::metrics;
use gamesweep::sweep::{self, Output};
use gamesweep_engine::core::{
    Core, CoreError, Granted, Held, LaunchSpec, ManualClock, Overview, Submission,
};
use gamesweep_engine::store::MemStore;
use prometheus_parse::{Scrape, Value};
use std::sync::Arc;
use std::time::Duration;

const LEASE: Duration = Duration::from_secs(60);

fn launch(c: &Core, name: &str, shards: u32) -> String {
    let spec = LaunchSpec {
        replicate_all: false,
        part: None,
        kind: "uvg".into(),
        params: [("max_n".to_string(), 5)].into(),
        name: Some(name.into()),
        target_shards: shards,
        resume_existing: false,
        sample: None,
        verify_ppm: 0,
        verify_seed: None,
        priority: 0,
    };
    c.launch(&spec).unwrap().sweep_id
}

fn run(g: &Granted) -> Output {
    let kind = g.kind;
    kind.run_shard(&g.params, &g.shard, &sweep::ShardCtx::detached())
        .unwrap()
}

fn submission(worker: &str, g: &Granted) -> Submission {
    Submission {
        worker: worker.into(),
        version: gamesweep_engine::core::solver_version(),
        sweep_id: g.sweep_id.clone(),
        index: g.shard.index,
        token: g.token.clone(),
        result: run(g),
        timing: None,
        positions: None,
    }
}

fn lease(c: &Core, worker: &str, max: u32) -> Vec<Granted> {
    let v = gamesweep_engine::core::solver_version();
    c.lease(worker, &v, max).unwrap().leases
}

/// The parsed `/metrics` text of `c` and the status report of the same
/// instant (the manual clock does not move in between).
fn scrape(c: &Core) -> (Scrape, Overview, String) {
    let text = metrics::render(c).unwrap();
    let report = c.overview(None).unwrap();
    let lines = text.lines().map(|l| Ok(l.to_string()));
    (Scrape::parse(lines).unwrap(), report, text)
}

/// The one sample of `metric` with exactly `labels`, as (is a counter, value).
fn sample(s: &Scrape, metric: &str, labels: &[(&str, &str)]) -> (bool, f64) {
    let found: Vec<_> = s
        .samples
        .iter()
        .filter(|x| {
            x.metric == metric
                && x.labels.len() == labels.len()
                && labels.iter().all(|(k, v)| x.labels.get(k) == Some(*v))
        })
        .collect();
    assert_eq!(found.len(), 1, "one sample {metric}{labels:?}: {found:?}");
    match found[0].value {
        Value::Counter(v) => (true, v),
        Value::Gauge(v) => (false, v),
        ref other => panic!("{metric} is neither counter nor gauge: {other:?}"),
    }
}

/// Value of the gauge `metric` with `labels`.
fn gauge(s: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    let (counter, v) = sample(s, metric, labels);
    assert!(!counter, "{metric} should be a gauge");
    v
}

/// Value of the counter `metric` with `labels`.
fn counter(s: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    let (counter, v) = sample(s, metric, labels);
    assert!(counter, "{metric} should be a counter");
    v
}

/// Every per-sweep value and every process-wide value of `s` equals the
/// report's (memory: present wherever status has it; it is read anew).
fn check_against_status(s: &Scrape, r: &Overview) {
    for st in &r.sweeps {
        let id = st.sweep_id.as_str();
        let sw = [("sweep", id)];
        for (state, n) in [
            ("pending", st.shards_pending),
            ("leased", st.shards_leased),
            ("done", st.shards_done),
            ("failed", st.shards_failed),
        ] {
            let got = gauge(s, "gamesweep_shards", &[("sweep", id), ("state", state)]);
            assert_eq!(got, n as f64, "{id} shards {state}");
        }
        assert_eq!(
            gauge(s, "gamesweep_positions_done", &sw),
            st.positions_done as f64
        );
        assert_eq!(
            gauge(s, "gamesweep_positions_estimate", &sw),
            st.positions_estimate as f64
        );
        assert_eq!(gauge(s, "gamesweep_positions_per_second", &sw), st.rate);
        assert_eq!(
            gauge(
                s,
                "gamesweep_sweep_info",
                &[
                    ("sweep", id),
                    ("kind", &st.kind),
                    ("state", st.state.as_str())
                ]
            ),
            1.0
        );
        for (name, v) in [
            ("gamesweep_leases_expired_total", st.leases_expired),
            ("gamesweep_leases_released_total", st.leases_released),
            ("gamesweep_results_duplicate_total", st.duplicates_ignored),
            ("gamesweep_results_refused_total", st.refused_submits),
            ("gamesweep_results_invalid_total", st.results_invalid),
            ("gamesweep_renewals_refused_total", st.refused_renewals),
            ("gamesweep_failure_reports_refused_total", st.refused_fails),
        ] {
            assert_eq!(counter(s, name, &sw), v as f64, "{id} {name}");
        }
    }
    let alive = r.workers.iter().filter(|w| w.alive).count();
    assert_eq!(gauge(s, "gamesweep_workers_alive", &[]), alive as f64);
    assert_eq!(
        gauge(s, "gamesweep_workers_known", &[]),
        r.workers.len() as f64
    );
    assert_eq!(
        counter(s, "gamesweep_workers_pruned_total", &[]),
        r.workers_pruned as f64
    );
    assert_eq!(gauge(s, "gamesweep_store_bytes", &[]), r.store_bytes as f64);
    assert_eq!(
        gauge(s, "gamesweep_store_writes_failing", &[]),
        if r.store_writes_failing.is_some() {
            1.0
        } else {
            0.0
        }
    );
    // Memory is read again for each call; it must be there, and non-zero
    // wherever status sees it.
    let rss = gauge(s, "gamesweep_coordinator_resident_bytes", &[]);
    assert_eq!(rss > 0.0, r.coordinator_rss_bytes > 0);
    let peak = gauge(s, "gamesweep_coordinator_peak_resident_bytes", &[]);
    assert_eq!(peak > 0.0, r.coordinator_peak_rss_bytes > 0);
}

/// (issued, renewed, accepted, late) of sweep `id` in `s`.
fn events(s: &Scrape, id: &str) -> [f64; 4] {
    let sw = [("sweep", id)];
    [
        counter(s, "gamesweep_leases_issued_total", &sw),
        counter(s, "gamesweep_leases_renewed_total", &sw),
        counter(s, "gamesweep_results_accepted_total", &sw),
        counter(s, "gamesweep_results_late_total", &sw),
    ]
}

#[test]
fn metrics_equal_status_and_count_lease_and_result_events() {
    let clock = Arc::new(ManualClock::new());
    let c = Core::open_with_clock(Arc::new(MemStore::new()), LEASE, clock.clone()).unwrap();
    let id = launch(&c, "m", 4);
    // Sweeps are served in id order: `z-idle` is never reached below.
    let other = launch(&c, "z-idle", 2);
    // Paused, so that fair sharing does not hand its shards out in between
    // (it stays idle: its events must stay 0, its shards pending).
    c.pause(&other, true).unwrap();

    // Nothing leased yet: every shard pending, no worker, no event.
    let (s, r, text) = scrape(&c);
    check_against_status(&s, &r);
    assert!(text.contains("# TYPE gamesweep_shards gauge"), "{text}");
    assert!(text.contains("# HELP gamesweep_leases_issued_total "));
    let n = r
        .sweeps
        .iter()
        .find(|x| x.sweep_id == id)
        .unwrap()
        .shards_total;
    assert!(n >= 3, "the test needs 3 shards, got {n}");
    assert_eq!(gauge(&s, "gamesweep_workers_alive", &[]), 0.0);
    assert_eq!(events(&s, &id), [0.0; 4]);

    // Worker a takes every shard of `m`; one renewal.
    let held = lease(&c, "a", n);
    assert_eq!(held.len() as u32, n);
    assert!(held.iter().all(|g| g.sweep_id == id));
    let h = Held {
        sweep_id: id.clone(),
        index: held[0].shard.index,
        token: held[0].token.clone(),
        progress: 0,
    };
    assert_eq!(c.renew("a", &[h]).unwrap(), [true]);
    let (s, r, _) = scrape(&c);
    check_against_status(&s, &r);
    let sw = [("sweep", id.as_str())];
    let leased = [("sweep", id.as_str()), ("state", "leased")];
    assert_eq!(gauge(&s, "gamesweep_shards", &leased), n as f64);
    assert_eq!(gauge(&s, "gamesweep_workers_alive", &[]), 1.0);
    assert_eq!(events(&s, &id), [n as f64, 1.0, 0.0, 0.0]);
    assert_eq!(events(&s, &other), [0.0; 4], "labels keep sweeps apart");

    // a's leases expire; b is given the first shard again (attempt 2).
    clock.advance(LEASE + Duration::from_secs(1));
    let again = lease(&c, "b", 1);
    assert_eq!(again.len(), 1);
    let x = held.iter().find(|g| g.shard.index == again[0].shard.index);
    let x = x.unwrap();
    // a's result for it arrives first: refused, the shard is b's now.
    assert!(matches!(
        c.submit(submission("a", x)),
        Err(CoreError::Denied(_))
    ));
    // b's is taken (its live lease).
    assert!(c.submit(submission("b", &again[0])).unwrap());
    // a's result for another shard whose lease expired (not re-issued):
    // late and accepted.
    let y = held
        .iter()
        .find(|g| g.shard.index != x.shard.index)
        .unwrap();
    assert!(c.submit(submission("a", y)).unwrap());
    // A result under a forged token: refused.
    let forged = Submission {
        token: "forged".into(),
        ..submission("b", &again[0])
    };
    assert!(matches!(c.submit(forged), Err(CoreError::Denied(_))));
    let (s, r, _) = scrape(&c);
    check_against_status(&s, &r);
    let st = r.sweeps.iter().find(|x| x.sweep_id == id).unwrap();
    assert_eq!(
        (st.shards_done, st.shards_pending, st.shards_leased),
        (2, n - 2, 0)
    );
    assert!(st.rate > 0.0, "positions/s after {LEASE:?}");
    assert_eq!(events(&s, &id), [n as f64 + 1.0, 1.0, 2.0, 1.0]);
    assert_eq!(counter(&s, "gamesweep_results_duplicate_total", &sw), 0.0);
    assert_eq!(counter(&s, "gamesweep_results_refused_total", &sw), 2.0);
    assert_eq!(counter(&s, "gamesweep_leases_expired_total", &sw), 1.0);

    // b finishes the rest on live leases: accepted, not late.
    let rest = lease(&c, "b", n - 2);
    assert_eq!(rest.len() as u32, n - 2);
    assert!(rest.iter().all(|g| g.sweep_id == id));
    for g in &rest {
        assert!(c.submit(submission("b", g)).unwrap());
    }
    let (s, r, _) = scrape(&c);
    check_against_status(&s, &r);
    let st = r.sweeps.iter().find(|x| x.sweep_id == id).unwrap();
    assert_eq!(st.shards_done, n);
    let [issued, renewed, accepted, late] = events(&s, &id);
    assert!(issued >= n as f64, "leases issued {issued} < shards {n}");
    assert_eq!(issued, (2 * n - 1) as f64);
    assert_eq!(renewed, 1.0);
    assert_eq!(accepted, st.shards_done as f64, "accepted = shards done");
    assert_eq!(late, 1.0);
    assert_eq!(
        counter(&s, "gamesweep_leases_expired_total", &sw),
        (n - 1) as f64,
        "the other expired leases were re-issued to b"
    );
    assert_eq!(gauge(&s, "gamesweep_workers_alive", &[]), 2.0);
}

#[test]
fn metrics_of_an_empty_coordinator_parse() {
    let c = Core::open(Arc::new(MemStore::new()), LEASE).unwrap();
    let (s, r, text) = scrape(&c);
    check_against_status(&s, &r);
    assert!(r.sweeps.is_empty());
    assert!(
        !text.contains("sweep=\""),
        "no per-sweep sample without sweeps: {text}"
    );
    assert_eq!(
        metrics::CONTENT_TYPE,
        "text/plain; version=0.0.4; charset=utf-8"
    );
}

/// The HELP of `gamesweep_sweep_info` names every state a sweep can be in
/// (it lacked `paused`).
#[test]
fn sweep_info_help_names_every_state() {
    let c = Core::open(Arc::new(MemStore::new()), LEASE).unwrap();
    launch(&c, "s", 1); // a family without samples is left out of the text
    let (_, _, text) = scrape(&c);
    let help = text
        .lines()
        .find(|l| l.starts_with("# HELP gamesweep_sweep_info "))
        .unwrap_or_else(|| panic!("no HELP of sweep_info: {text}"));
    for state in gamesweep_api::domain::SweepState::ALL {
        assert!(help.contains(state.as_str()), "{state:?} not in {help}");
    }
}

/// Failing store writes are a gauge an alert can watch (trust III: a full
/// disk was visible in `status` and health, not in `/metrics`).
#[test]
fn failing_store_writes_are_a_gauge() {
    let c = Core::open(Arc::new(MemStore::new()), LEASE).unwrap();
    let (_, mut r, _) = scrape(&c);
    for (failing, want) in [
        (None, 0.0),
        (Some("No space left on device".to_string()), 1.0),
    ] {
        r.store_writes_failing = failing;
        let text = metrics::render_report(&r, &Default::default());
        let s = Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
        assert_eq!(
            gauge(&s, "gamesweep_store_writes_failing", &[]),
            want,
            "{text}"
        );
        check_against_status(&s, &r);
    }
}
