//! The text tables of `gamesweep status`: one block per sweep (state,
//! shards, positions, rate and ETA, counterexamples, sample, failures), the
//! coordinator's store and memory, and the workers. Rendering only: the
//! status comes from the typed client as a domain value.

use gamesweep::sweep::thousands;
use gamesweep_api::domain::{
    Overview, ReplicationStatus, ReplicationWaiting, SweepState, SweepStatus, RATE_WINDOW_SECS,
};

fn hms(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The text `gamesweep status` prints for `r`. Every text that came from
/// the network (sweep ids, worker ids, failure texts) is escaped
/// ([`gamesweep_api::escape`]): a worker id or a failure text with a
/// terminal escape sequence or a line break prints as visible text.
pub fn render(r: &Overview) -> String {
    let out = render_fields(r);
    // The net under the escaped fields: whatever a field not escaped above
    // carries, no control character but the line breaks of the table
    // itself reaches the terminal.
    out.split('\n')
        .map(gamesweep_api::escape_controls)
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_fields(r: &Overview) -> String {
    let mut out = String::new();
    // First: while it lasts, nothing any sweep shows is being made durable.
    if let Some(why) = &r.store_writes_failing {
        out.push_str(&format!(
            "store writes failing: {why}\n  no result is acknowledged until the store can be written again (free space: writes resume by themselves)\n"
        ));
    }
    if r.sweeps.is_empty() {
        out.push_str("no sweeps (start one with `gamesweep launch KIND ...`)\n");
    }
    for s in &r.sweeps {
        out.push_str(&sweep_text(s));
    }
    out.push_str(&coordinator_text(r));
    out
}

/// One sweep's lines: what it is, its progress, its sample, what went
/// wrong, its verification.
fn sweep_text(s: &SweepStatus) -> String {
    let e = gamesweep_api::escape;
    let mut out = String::new();
    let params: Vec<String> = s
        .params
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    out.push_str(&format!(
        "{}  {} {}  [{}]{}\n",
        e(&s.sweep_id),
        s.kind,
        params.join(" "),
        s.state,
        if s.priority > 1 {
            format!(" priority {}", s.priority)
        } else {
            String::new()
        }
    ));
    let t = |n: u32| thousands(n as u64);
    out.push_str(&format!(
        "  shards: {} done, {} leased, {} pending of {}\n",
        t(s.shards_done),
        t(s.shards_leased),
        t(s.shards_pending),
        t(s.shards_total)
    ));
    out.push_str(&positions_text(s));
    if !s.counterexamples.is_empty() {
        let c: Vec<String> = s
            .counterexamples
            .iter()
            .map(|(key, total)| format!("{key}={}", thousands(*total)))
            .collect();
        out.push_str(&format!("  counterexamples so far: {}\n", c.join(", ")));
    }
    if let Some(m) = &s.sample {
        out.push_str(&format!(
            "  sample: {}/{} shards done (seed {}, {:.4} % of the estimate){}\n",
            m.done,
            m.shards,
            m.seed,
            m.ppm as f64 / 1e4,
            if m.limited {
                format!(
                    "; only the sample is served: `gamesweep project {}` prices the whole sweep",
                    s.sweep_id
                )
            } else {
                "; widened to the whole plan".into()
            }
        ));
    }
    out.push_str(&incidents_text(s));
    if let Some(v) = &s.verification {
        out.push_str(&verification_text(v, s.shards_total));
    }
    out
}

/// What went wrong in a sweep, a line each when it did: failed shards,
/// duplicate and late results, expired and given-back leases, refusals,
/// recounts.
fn incidents_text(s: &SweepStatus) -> String {
    let e = gamesweep_api::escape;
    let mut out = String::new();
    if !s.failures.is_empty() {
        out.push_str(&format!(
            "  failed shards (set aside after repeated failures): {}\n",
            s.shards_failed
        ));
        for f in &s.failures {
            out.push_str(&format!(
                "    shard {}: {} failure(s), last on {}: {}\n",
                f.index,
                f.count,
                e(&f.worker_id),
                e(&f.error)
            ));
        }
    }
    if s.duplicates_ignored > 0 {
        out.push_str(&format!(
            "  duplicate/late results ignored: {}\n",
            s.duplicates_ignored
        ));
    }
    if s.leases_expired > 0 || s.leases_released > 0 {
        out.push_str(&format!(
            "  leases expired and re-issued: {}, given back early: {}\n",
            s.leases_expired, s.leases_released
        ));
    }
    let refused = [s.refused_submits, s.refused_renewals, s.refused_fails];
    if refused.iter().any(|&n| n > 0) {
        out.push_str(&format!(
            "  refused without a valid lease token: {} result(s), {} renewal(s)/release(s), {} failure report(s)\n",
            s.refused_submits, s.refused_renewals, s.refused_fails
        ));
    }
    if s.results_invalid > 0 {
        out.push_str(&format!(
            "  results refused as invalid: {}\n",
            s.results_invalid
        ));
    }
    if s.recounted > 0 {
        out.push_str(&format!(
            "  results recounted by the coordinator: {} ({} refused)\n",
            s.recounted, s.recounts_refused
        ));
    }
    out
}

/// The coordinator's lines after the sweeps: its store and memory, the
/// workers it forgot or quarantined, the held-back leases, the workers.
fn coordinator_text(r: &Overview) -> String {
    let e = gamesweep_api::escape;
    let mut out = String::new();
    if r.store_bytes > 0 || r.coordinator_rss_bytes > 0 {
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        out.push_str(&format!(
            "coordinator: {} store {:.1} MiB on disk, memory {:.1} MiB (peak {:.1} MiB)\n",
            r.coordinator_version,
            mib(r.store_bytes),
            mib(r.coordinator_rss_bytes),
            mib(r.coordinator_peak_rss_bytes)
        ));
    }
    if r.workers_pruned > 0 {
        out.push_str(&format!(
            "workers forgotten (unheard of for long, or too many): {}\n",
            r.workers_pruned
        ));
    }
    if !r.quarantined_workers.is_empty() {
        out.push_str(&format!(
            "quarantined workers (out-voted; no more leases): {}\n",
            r.quarantined_workers
                .iter()
                .map(|w| e(w))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push_str(&held_back_text(r));
    if !r.workers.is_empty() {
        out.push_str("workers:\n");
        for w in &r.workers {
            out.push_str(&format!(
                "  {}  {}  {} shards  last seen {:.1} s ago\n",
                e(&w.worker_id),
                if w.alive { "alive" } else { "gone" },
                w.shards_held,
                w.last_seen_ms_ago as f64 / 1000.0
            ));
        }
    }
    out
}

/// The positions line of a sweep's block: done, the share done, the
/// target (the plan's estimate, or projected from the done shards, saying
/// how rough it is; the sample's while only the sample is served, the
/// whole sweep's beside it), and for a running sweep the recent rate and
/// the ETA (both the engine's, as the dashboard and `run`'s bar show them).
fn positions_text(s: &SweepStatus) -> String {
    let t = thousands;
    let sample = s.sample.as_ref().filter(|m| m.limited);
    let pct = format!("{:.1} % done", 100.0 * s.fraction_done);
    // Every shard done, still running: it waits for verifications (the
    // `waiting for` line says which and until when).
    let all_done =
        s.state == SweepState::Running && s.shards_total > 0 && s.shards_done == s.shards_total;
    let est = if s.state == SweepState::Done {
        " (100 % done)".to_string()
    } else if all_done {
        // Not "100 %": that is said only of a sweep that is done.
        " (every shard done; not finished until its verifications are, see below)".to_string()
    } else if s.positions_estimate == 0 {
        String::new()
    } else {
        let rough = if s.shards_done > 0 && s.positions_projected > 0 {
            let spread = s
                .estimate_spread
                .map_or_else(String::new, |x| format!(", ±{:.0} % per shard", x * 100.0));
            format!(
                "projected from {} done shards{spread}; the plan estimated {}",
                t(s.shards_done as u64),
                t(s.positions_estimate)
            )
        } else {
            "the plan's estimate".to_string()
        };
        // The target reached but the sweep not done (the projection was
        // low, or in-flight progress counts the last shards whole): "X of
        // ~X (99.9 % done)" reads as a contradiction.
        let target = match sample {
            Some(_) => s.positions_target,
            None => s.positions_projected,
        };
        // (A sample run to its end is at its target exactly: not passed.)
        if target > 0 && s.positions_done >= target && s.state != SweepState::Sampled {
            return format!(
                "  positions: {} so far, past the projected ~{}{}; not finished: {} of {} shards done (rough: {rough}){}\n",
                t(s.positions_done),
                t(target),
                if sample.is_some() { " of the sample" } else { "" },
                t(s.shards_done as u64),
                t(s.shards_total as u64),
                moving_text(s, all_done, sample.is_some())
            );
        }
        match sample {
            // Progress and ETA are the sample's; the whole sweep's size is
            // only a note (`gamesweep project` prices it).
            Some(_) => format!(
                " of ~{} in the sample ({pct}; the whole sweep: ~{}, rough: {rough})",
                t(s.positions_target),
                t(s.positions_projected)
            ),
            None => format!(" of ~{} ({pct}; rough: {rough})", t(s.positions_projected)),
        }
    };
    let moving = moving_text(s, all_done, sample.is_some());
    format!("  positions: {}{est}{moving}\n", t(s.positions_done))
}

/// The end of the positions line: a running sweep's rate and ETA (of the
/// sample, if `sampled`), or how to resume a paused one.
fn moving_text(s: &SweepStatus, all_done: bool, sampled: bool) -> String {
    let t = thousands;
    match s.state {
        SweepState::Running if all_done => String::new(),
        SweepState::Running => {
            let eta = s
                .eta_seconds
                .map_or_else(|| "unknown".into(), |e| format!("~{} (rough)", hms(e)));
            format!(
                "  rate: {}/s over the last {} min  ETA{}: {eta}",
                t(s.rate.round() as u64),
                RATE_WINDOW_SECS / 60,
                if sampled { " of the sample" } else { "" }
            )
        }
        SweepState::Paused => format!("  paused (`gamesweep resume {}`)", s.sweep_id),
        _ => String::new(),
    }
}

/// `unix_ms` as an ISO 8601 UTC time to the second
/// (`2026-12-01T23:42:50Z`): what `status --watch` puts before each line
/// when it writes into a pipe or a file.
pub fn utc(unix_ms: u64) -> String {
    crate::output::utc_time(unix_ms)
}

/// `text` with `stamp` and a space before each of its lines.
pub fn stamped(text: &str, stamp: &str) -> String {
    text.lines().map(|l| format!("{stamp} {l}\n")).collect()
}

/// The verification lines of a sweep's block (`total` shards): the seeded
/// sample, then the outcomes of every shard run again by a second identity.
/// Those are more than the sample: results of identities not yet trusted
/// (adaptive replication), unsigned imports and rechecks of out-voted
/// identities are run again too, so "1 selected … 6 verified" would read
/// as more verified than selected without the reason.
fn verification_text(v: &ReplicationStatus, total: u32) -> String {
    let t = |n: u32| thousands(n.into());
    let mut out = format!(
        "  verification: {} of {} shards in the seeded sample ({:.4} %, seed {}); shards run again by a second identity (the sample's, results of identities not yet trusted, unsigned imports{}): {} verified, {} mismatched ({} replaced by the majority), {} unverifiable (no other identity), {} pending\n",
        t(v.selected),
        t(total),
        v.ppm as f64 / 1e4,
        v.seed,
        if v.rechecks > 0 {
            format!(", {} rechecks of out-voted identities", t(v.rechecks))
        } else {
            String::new()
        },
        t(v.verified),
        t(v.mismatched),
        t(v.replaced),
        t(v.unverifiable),
        t(v.pending)
    );
    if let Some(w) = &v.waiting {
        out.push_str(&waiting_text(v.pending, w));
    }
    if !v.disagreeing_workers.is_empty() {
        out.push_str(&format!(
            "  disagreeing workers (out-voted): {}\n",
            v.disagreeing_workers
                .iter()
                .map(|w| gamesweep_api::escape(w))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out
}

/// The one line saying what a sweep whose shards are all done waits for
/// (`pending` open verifications): which shards, for what, from whom,
/// until when, and what the operator can do.
fn waiting_text(pending: u32, w: &ReplicationWaiting) -> String {
    let e = gamesweep_api::escape;
    let mut shards: Vec<String> = w.shards.iter().map(|i| i.to_string()).collect();
    if (w.shards.len() as u32) < pending {
        shards.push("…".into());
    }
    let who = if w.needs_issued {
        "a worker with an issued credential other than the one that ran it"
    } else {
        "a worker (any: the results were imported without a trusted signature)"
    };
    let around = if w.eligible.is_empty() {
        "none is connected".to_string()
    } else {
        format!(
            "connected and eligible: {} (each takes a copy when it has room)",
            w.eligible
                .iter()
                .map(|x| e(x))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let skippable = pending.saturating_sub(w.unskippable);
    let until = match (w.skip_at_ms, w.skip_in_ms) {
        (Some(at), Some(left)) if skippable > 0 => {
            let when = if left == 0 {
                "now (at the next tick)".to_string()
            } else {
                format!("at {} (in {:.0} s)", utc(at), (left as f64 / 1000.0).ceil())
            };
            let never = if w.unskippable > 0 {
                format!(
                    "; {} never skipped (--replicate all, or imported without a trusted signature): the sweep waits for their runs",
                    w.unskippable
                )
            } else {
                String::new()
            };
            format!(
                "{} skipped as unverifiable {when} unless an eligible worker is around then{never}",
                if w.unskippable > 0 {
                    format!("{skippable} of them")
                } else {
                    "they are".to_string()
                }
            )
        }
        _ => "never skipped as unverifiable (--replicate all, or imported without a trusted signature): the sweep waits for their runs".to_string(),
    };
    let act = if w.needs_issued {
        "to verify them, run a worker with another credential: `gamesweep token issue --name NAME --out FILE` (admin token), then `gamesweep worker --token-file FILE`"
    } else {
        "to verify them, run a worker: `gamesweep worker`"
    };
    // Why a sweep that was done runs again: a caught lie reaches back.
    let mut out: String = w
        .rechecking
        .iter()
        .map(|r| {
            format!(
                "  re-verifying {} of {} after a caught lie (every result it gave, in every sweep, is run again by other identities)\n",
                crate::output::plural(r.shards.into(), "shard"),
                e(&r.identity)
            )
        })
        .collect();
    out.push_str(&format!(
        "  waiting for: {} (shard{} {}) to be run by {who}; {around}; {until}; {act}\n",
        crate::output::plural(pending.into(), "verification"),
        if pending == 1 { "" } else { "s" },
        shards.join(", ")
    ));
    out
}

/// One line per identity the fair share held back: cut to its share while
/// another waited, and how many of its leases were taken back.
fn held_back_text(r: &Overview) -> String {
    r.identities_limited
        .iter()
        .map(|l| {
            let mut what = Vec::new();
            if l.limited {
                what.push("limited to its share".to_string());
            }
            if l.leases_reclaimed > 0 {
                what.push(format!(
                    "{} reclaimed",
                    crate::output::plural(l.leases_reclaimed, "lease")
                ));
            }
            format!(
                "fair share: {}: {} (another identity waits for work; docs/trust.md, \"Fair shares\")\n",
                gamesweep_api::escape(&l.identity),
                what.join(", ")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesweep_api::domain::WorkerStatus;

    /// An overview of `sweeps` with no workers and nothing else to report.
    fn overview(sweeps: Vec<SweepStatus>) -> Overview {
        Overview {
            coordinator_version: "v".into(),
            sweeps,
            workers: vec![],
            store_bytes: 0,
            coordinator_rss_bytes: 0,
            coordinator_peak_rss_bytes: 0,
            workers_pruned: 0,
            quarantined_workers: vec![],
            store_writes_failing: None,
            identities_limited: vec![],
        }
    }

    fn sweep(state: SweepState, eta_seconds: Option<f64>) -> SweepStatus {
        SweepStatus {
            sweep_id: "s1".into(),
            kind: "uvg".into(),
            params: [("max_n".to_string(), 7u64)].into_iter().collect(),
            solver_version: "v".into(),
            state,
            shards_total: 8,
            shards_pending: 2,
            shards_leased: 1,
            shards_done: 5,
            results_stored: 5,
            positions_done: 100,
            positions_estimate: 400,
            rate: 10.0,
            eta_seconds,
            counterexamples: [("bad".to_string(), 3u64)].into_iter().collect(),
            duplicates_ignored: 0,
            leases_expired: 0,
            leases_released: 0,
            refused_submits: 0,
            refused_renewals: 0,
            refused_fails: 0,
            results_invalid: 0,
            recounted: 0,
            recounts_refused: 0,
            sample: None,
            shards_failed: 0,
            failures: vec![],
            verification: None,
            priority: 1,
            positions_projected: 400,
            estimate_spread: None,
            positions_target: 400,
            fraction_done: 0.25,
        }
    }

    #[test]
    fn every_state_and_eta_shown() {
        for state in SweepState::ALL {
            let r = Overview {
                workers: vec![WorkerStatus {
                    worker_id: "w1".into(),
                    last_seen_ms_ago: 1500,
                    shards_held: 1,
                    alive: true,
                }],
                ..overview(vec![sweep(state, Some(3725.0))])
            };
            let text = render(&r);
            assert!(
                text.starts_with(&format!("s1  uvg max_n=7  [{state}]\n")),
                "{text}"
            );
            // Only a running sweep has a rate and an ETA (a done or
            // cancelled one used to show one).
            assert_eq!(
                text.contains("  rate: 10/s over the last 5 min  ETA: ~1:02:05 (rough)\n"),
                state == SweepState::Running,
                "{text}"
            );
            assert_eq!(
                text.contains("[paused]"),
                state == SweepState::Paused,
                "{text}"
            );
            assert!(text.contains("counterexamples so far: bad=3"), "{text}");
            assert!(
                text.contains("  w1  alive  1 shards  last seen 1.5 s ago"),
                "{text}"
            );
        }
    }

    #[test]
    fn no_eta_is_unknown_and_no_sweeps_says_how_to_start() {
        let mut r = overview(vec![]);
        assert!(render(&r).starts_with("no sweeps"));
        r.sweeps.push(sweep(SweepState::Running, None));
        assert!(render(&r).contains("ETA: unknown"));
        assert!(
            render(&r).contains("positions: 100 of ~400 (25.0 % done; rough: projected from 5 done shards; the plan estimated 400)"),
            "{}",
            render(&r)
        );
        r.sweeps[0].estimate_spread = Some(0.123);
        r.sweeps[0].positions_projected = 150;
        r.sweeps[0].priority = 3;
        assert!(
            render(&r).contains("of ~150 (25.0 % done; rough: projected from 5 done shards, ±12 % per shard; the plan estimated 400)"),
            "{}",
            render(&r)
        );
        assert!(render(&r).starts_with("s1  uvg max_n=7  [running] priority 3\n"));
        r.sweeps[0].priority = 1;
        assert!(!render(&r).contains("refused"));
        r.sweeps[0].refused_submits = 1;
        r.sweeps[0].refused_fails = 3;
        r.sweeps[0].results_invalid = 4;
        r.workers_pruned = 5;
        let text = render(&r);
        assert!(
            text.contains("  refused without a valid lease token: 1 result(s), 0 renewal(s)/release(s), 3 failure report(s)\n"),
            "{text}"
        );
        assert!(text.contains("  results refused as invalid: 4\n"), "{text}");
        assert!(
            text.contains("workers forgotten (unheard of for long, or too many): 5\n"),
            "{text}"
        );
        assert!(!text.contains("store writes failing"), "{text}");
        r.store_writes_failing = Some("IO error: No space left on device (os error 28)".into());
        let text = render(&r);
        assert!(
            text.starts_with(
                "store writes failing: IO error: No space left on device (os error 28)\n"
            ),
            "{text}"
        );
    }

    /// Regression: `status --watch` into a pipe printed status after status
    /// with no time on them.
    #[test]
    fn watch_lines_into_a_pipe_carry_a_utc_time() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_796_168_570_999), "2026-12-01T23:42:50Z");
        assert_eq!(
            stamped("a\n  b\n", "2026-12-01T23:42:50Z"),
            "2026-12-01T23:42:50Z a\n2026-12-01T23:42:50Z   b\n"
        );
    }

    /// Regression: `status` had no "% done" and no thousands separators (the
    /// dashboard and the reports have both), and a `--sample` sweep's line
    /// gave the sample's ETA beside the whole sweep's positions.
    #[test]
    fn status_says_percent_done_with_separators_and_keeps_a_sample_apart() {
        let mut s = sweep(SweepState::Running, Some(62.0));
        s.shards_total = 4096;
        s.shards_done = 1234;
        s.shards_pending = 2860;
        s.shards_leased = 2;
        s.positions_done = 12_345_678;
        s.positions_estimate = 40_000_000;
        s.positions_projected = 41_000_000;
        s.positions_target = 41_000_000;
        s.fraction_done = 0.3011;
        s.rate = 98_765.4;
        s.counterexamples = [("bad".to_string(), 12_345u64)].into_iter().collect();
        let mut r = overview(vec![s]);
        let text = render(&r);
        assert!(
            text.contains("  shards: 1,234 done, 2 leased, 2,860 pending of 4,096\n"),
            "{text}"
        );
        assert!(
            text.contains("  positions: 12,345,678 of ~41,000,000 (30.1 % done; rough: projected from 1,234 done shards; the plan estimated 40,000,000)  rate: 98,765/s over the last 5 min  ETA: ~0:01:02 (rough)\n"),
            "{text}"
        );
        assert!(
            text.contains("counterexamples so far: bad=12,345"),
            "{text}"
        );
        // Only the sample is served: its positions, share and ETA, and the
        // whole sweep's size only as a note.
        r.sweeps[0].sample = Some(gamesweep_api::domain::SampleStatus {
            ppm: 10_000,
            seed: 7,
            shards: 41,
            done: 12,
            limited: true,
            estimate: 400_000,
        });
        r.sweeps[0].positions_done = 123_456;
        r.sweeps[0].positions_target = 410_000;
        let text = render(&r);
        assert!(
            text.contains("  positions: 123,456 of ~410,000 in the sample (30.1 % done; the whole sweep: ~41,000,000, rough: projected from 1,234 done shards; the plan estimated 40,000,000)  rate: 98,765/s over the last 5 min  ETA of the sample: ~0:01:02 (rough)\n"),
            "{text}"
        );
        r.sweeps[0].state = SweepState::Done;
        r.sweeps[0].sample = None;
        r.sweeps[0].fraction_done = 1.0;
        assert!(
            render(&r).contains("  positions: 123,456 (100 % done)\n"),
            "{}",
            render(&r)
        );
    }

    /// Regression: a sweep whose shards are all done but whose verifications
    /// wait showed "99.9 % done" and said neither why nor until when.
    #[test]
    fn a_sweep_waiting_for_verification_is_at_100_and_says_for_what() {
        let mut s = sweep(SweepState::Running, None);
        (s.shards_done, s.shards_pending, s.shards_leased) = (8, 0, 0);
        (s.fraction_done, s.rate) = (1.0, 0.0);
        let waiting = ReplicationWaiting {
            shards: (0..8).collect(),
            needs_issued: true,
            eligible: vec![],
            unskippable: 0,
            skip_at_ms: Some(1_796_000_000_000),
            skip_in_ms: Some(24_100),
            rechecking: vec![],
        };
        s.verification = Some(ReplicationStatus {
            ppm: 500_000,
            seed: 3,
            selected: 12,
            pending: 12,
            waiting: Some(waiting.clone()),
            ..ReplicationStatus::default()
        });
        let mut r = overview(vec![s]);
        let text = render(&r);
        assert!(
            text.contains("  positions: 100 (every shard done; not finished until its verifications are, see below)\n"),
            "{text}"
        );
        assert!(!text.contains("99.9") && !text.contains("ETA"), "{text}");
        let want = format!(
            "  waiting for: 12 verifications (shards 0, 1, 2, 3, 4, 5, 6, 7, …) to be run by a worker with an issued credential other than the one that ran it; none is connected; they are skipped as unverifiable at {} (in 25 s) unless an eligible worker is around then; to verify them, run a worker with another credential: `gamesweep token issue --name NAME --out FILE` (admin token), then `gamesweep worker --token-file FILE`\n",
            utc(1_796_000_000_000)
        );
        assert!(text.contains(&want), "{text}");
        // Eligible workers around are named (escaped); shards that are
        // never skipped say so.
        let v = r.sweeps[0].verification.as_mut().unwrap();
        v.waiting = Some(ReplicationWaiting {
            eligible: vec!["@b\x1b[2J".into()],
            unskippable: 12,
            skip_at_ms: None,
            skip_in_ms: None,
            ..waiting
        });
        let text = render(&r);
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("; connected and eligible: @b"), "{text}");
        assert!(
            text.contains(" (each takes a copy when it has room); never skipped as unverifiable (--replicate all, or imported without a trusted signature): the sweep waits for their runs;"),
            "{text}"
        );
    }

    /// A finished sweep running again after a caught lie says whose
    /// results it re-verifies; an identity held to its fair share, or whose
    /// leases were taken back, has a line (text escaped).
    #[test]
    fn rechecks_after_a_caught_lie_and_held_back_identities_are_shown() {
        let mut s = sweep(SweepState::Running, None);
        (s.shards_done, s.shards_pending, s.shards_leased) = (8, 0, 0);
        s.verification = Some(ReplicationStatus {
            rechecks: 3,
            pending: 3,
            waiting: Some(ReplicationWaiting {
                shards: vec![1, 4, 6],
                needs_issued: true,
                rechecking: vec![gamesweep_api::domain::Rechecking {
                    identity: "@liar".into(),
                    shards: 3,
                }],
                ..ReplicationWaiting::default()
            }),
            ..ReplicationStatus::default()
        });
        let limit =
            |identity: &str, limited, leases_reclaimed| gamesweep_api::domain::IdentityLimit {
                identity: identity.into(),
                limited,
                leases_reclaimed,
            };
        let r = Overview {
            identities_limited: vec![
                limit("@hoarder", true, 3),
                limit("@slow", false, 1),
                limit("@x\x1b[2J", true, 0),
            ],
            ..overview(vec![s])
        };
        let text = render(&r);
        assert!(
            text.contains("  re-verifying 3 shards of @liar after a caught lie (every result it gave, in every sweep, is run again by other identities)\n  waiting for: 3 verifications (shards 1, 4, 6)"),
            "{text}"
        );
        let fair = "(another identity waits for work; docs/trust.md, \"Fair shares\")\n";
        assert!(
            text.contains(&format!(
                "fair share: @hoarder: limited to its share, 3 leases reclaimed {fair}"
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("fair share: @slow: 1 lease reclaimed {fair}")),
            "{text}"
        );
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("fair share: @x"), "{text}");
    }

    #[test]
    fn verification_and_quarantine_shown() {
        let mut s = sweep(SweepState::Running, None);
        s.verification = Some(ReplicationStatus {
            ppm: 10_000,
            seed: 5,
            selected: 3,
            rechecks: 2,
            pending: 1,
            verified: 2,
            mismatched: 1,
            replaced: 1,
            unverifiable: 1,
            disagreeing_workers: vec!["liar".into()],
            waiting: None,
        });
        let r = Overview {
            quarantined_workers: vec!["liar".into()],
            ..overview(vec![s])
        };
        let text = render(&r);
        assert!(text.contains("  verification: 3 of 8 shards in the seeded sample (1.0000 %, seed 5); shards run again by a second identity (the sample's, results of identities not yet trusted, unsigned imports, 2 rechecks of out-voted identities): 2 verified, 1 mismatched (1 replaced by the majority), 1 unverifiable (no other identity), 1 pending\n"), "{text}");
        assert!(
            text.contains("  disagreeing workers (out-voted): liar\n"),
            "{text}"
        );
        assert!(
            text.contains("quarantined workers (out-voted; no more leases): liar\n"),
            "{text}"
        );
    }

    /// Regression: a credentialed run's status said "1 selected … 6
    /// verified": the verified count is of every shard run again (new
    /// identities' results too), not of the sample. The line now says so.
    #[test]
    fn more_verified_than_sampled_reads_as_such() {
        let v = ReplicationStatus {
            ppm: 10_000,
            seed: 5,
            selected: 1,
            verified: 6,
            unverifiable: 1,
            ..ReplicationStatus::default()
        };
        let text = verification_text(&v, 64);
        assert!(
            text.starts_with("  verification: 1 of 64 shards in the seeded sample (1.0000 %, seed 5); shards run again by a second identity (the sample's, results of identities not yet trusted, unsigned imports): 6 verified, 0 mismatched"),
            "{text}"
        );
        assert!(!text.contains("selected"), "{text}");
    }

    /// Regression: near the end of `launch uvg --max-n 10`, `status` said
    /// "119,611,147 of ~119,611,147 (99.9 % done)": the projection reached
    /// by a sweep not done. It now says the projection was passed and what
    /// is left; 100 % is said only when done, with the count and no "~".
    #[test]
    fn a_projection_reached_before_the_end_is_not_a_share_done() {
        let mut s = sweep(SweepState::Running, Some(1.0));
        s.shards_total = 257;
        s.shards_done = 256;
        s.positions_done = 119_611_147;
        s.positions_projected = 119_611_147;
        s.positions_target = 119_611_147;
        s.positions_estimate = 123_026_593;
        s.fraction_done = 0.999;
        let line = positions_text(&s);
        assert_eq!(
            line,
            "  positions: 119,611,147 so far, past the projected ~119,611,147; not finished: 256 of 257 shards done (rough: projected from 256 done shards; the plan estimated 123,026,593)  rate: 10/s over the last 5 min  ETA: ~0:00:01 (rough)\n"
        );
        assert!(!line.contains("99.9 %"), "{line}");
        // Below the projection: the share, against that same projection.
        s.positions_done = 100_000_000;
        assert!(
            positions_text(&s).contains("100,000,000 of ~119,611,147 (99.9 % done;"),
            "{}",
            positions_text(&s)
        );
        // Done: the count, 100 %, no estimate.
        s.state = SweepState::Done;
        s.positions_done = 119_611_147;
        s.fraction_done = 1.0;
        assert_eq!(
            positions_text(&s),
            "  positions: 119,611,147 (100 % done)\n"
        );
    }

    /// Regression: ANSI escape sequences in worker ids and failure texts were
    /// printed raw by `status`.
    #[test]
    fn control_characters_from_the_network_are_escaped() {
        let mut sw = sweep(SweepState::Failed, None);
        sw.shards_failed = 1;
        sw.failures = vec![gamesweep_api::domain::ShardFailureStatus {
            index: 3,
            count: 3,
            worker_id: "w\x1b[2J".into(),
            error: "boom\x1b]0;owned\x07\nshard 9: fake line".into(),
        }];
        let r = Overview {
            workers: vec![WorkerStatus {
                worker_id: "evil\x1b[31m\r".into(),
                last_seen_ms_ago: 0,
                shards_held: 0,
                alive: true,
            }],
            quarantined_workers: vec!["q\x1b[0m".into()],
            ..overview(vec![sw])
        };
        let text = render(&r);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.contains("last on w\\e[2J: boom\\e]0;owned\\u{7}\\nshard 9: fake line\n"),
            "{text}"
        );
        assert!(!text.lines().any(|l| l.starts_with("shard 9")), "{text}");
        assert!(text.contains("  evil\\e[31m\\r  alive"), "{text}");
        assert!(text.contains("q\\e[0m"), "{text}");
    }
}
