//! Progress on a terminal: the bar of `gamesweep run` (in-process or
//! embedded), and the counters of long commands (`solve KIND -`, `verify`,
//! `import`, `export`). All on stderr, and only when stderr is a terminal
//! (or never, with `--quiet`): into a pipe or a file nothing is drawn.
//!
//! `run`'s bar shows what the sweep's status says — the share of positions
//! done, the rate and the ETA, all computed once in the engine
//! (`gamesweep_engine::core::pace`), as `status` and the dashboard show
//! them — not a count of shards: shards differ in size by orders of
//! magnitude and the largest run first, so a shard count runs far behind
//! the work (a shard count once said "eta 73s" at 36 s of a run that ended
//! at 63 s).

use gamesweep::sweep::thousands;
use gamesweep_api::domain::SweepStatus;
use std::io::IsTerminal as _;

/// Steps of the bar: the share done in tenths of a percent.
const STEPS: u64 = 1000;

/// `secs` as H:MM:SS (as `status` prints durations).
fn hms(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Whether progress is drawn at all: stderr is a terminal.
pub fn on_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// The text after `run`'s bar for the status `s`: the share of the
/// positions done (of the sample, while only the sample is served), the
/// shards, the rate and the ETA, all as the engine computed them.
pub fn run_line(s: &SweepStatus) -> String {
    let sample = s.sample.as_ref().filter(|m| m.limited);
    let (done, total, of) = match sample {
        Some(m) => (m.done, m.shards, " of the sample"),
        None => (s.shards_done, s.shards_total, ""),
    };
    let eta = s
        .eta_seconds
        .map_or_else(|| "unknown".to_string(), |e| format!("~{}", hms(e)));
    // Past the projection before the end: not "99.9 % of ~X (X done)",
    // which reads as a contradiction, but the count and the projection
    // passed.
    if s.positions_target > 0 && s.positions_done >= s.positions_target {
        return format!(
            "{} positions{of} done, past the projected ~{}, {}/{} shards, {}/s, eta {eta}",
            thousands(s.positions_done),
            thousands(s.positions_target),
            thousands(done as u64),
            thousands(total as u64),
            thousands(s.rate.round() as u64),
        );
    }
    format!(
        "{:.1} % of ~{} positions{of} ({} done), {}/{} shards, {}/s, eta {eta}",
        100.0 * s.fraction_done,
        thousands(s.positions_target),
        thousands(s.positions_done),
        thousands(done as u64),
        thousands(total as u64),
        thousands(s.rate.round() as u64),
    )
}

/// `run`'s progress bar on stderr, or nothing when hidden.
pub struct RunBar(indicatif::ProgressBar);

impl RunBar {
    /// A bar for a run of `kind`; hidden unless `shown`.
    pub fn new(kind: &str, shown: bool) -> Self {
        if !shown {
            return RunBar(indicatif::ProgressBar::hidden());
        }
        let b = indicatif::ProgressBar::new(STEPS);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {msg}",
            )
            .expect("valid template"),
        );
        b.set_prefix(kind.to_string());
        RunBar(b)
    }

    /// Show the status `s`.
    pub fn set(&self, s: &SweepStatus) {
        self.0
            .set_position((s.fraction_done * STEPS as f64).round() as u64);
        self.0.set_message(run_line(s));
    }

    /// Where the bar stands: position of [`STEPS`], and its text.
    pub fn shown(&self) -> (u64, String) {
        (self.0.position(), self.0.message())
    }

    /// Remove the bar (before printing the run's summary).
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// A counter of a long command's progress on stderr (`solve KIND -`,
/// `verify`, `import`, `export`): items done (of a total when known),
/// their rate and elapsed time; nothing unless stderr is a terminal.
pub struct Counter(indicatif::ProgressBar);

impl Counter {
    /// A counter of `what` (e.g. "graphs"), out of `total` when known;
    /// drawn only when `shown` (callers pass [`on_terminal`], and false
    /// for `--quiet`).
    pub fn new(what: &str, total: Option<u64>, shown: bool) -> Self {
        if !shown {
            return Counter(indicatif::ProgressBar::hidden());
        }
        let b = match total {
            Some(n) => {
                let b = indicatif::ProgressBar::new(n);
                b.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({per_sec}, eta {eta})",
                    )
                    .expect("valid template"),
                );
                b
            }
            None => {
                let b = indicatif::ProgressBar::new_spinner();
                b.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{spinner} {prefix} [{elapsed_precise}] {human_pos} ({per_sec})",
                    )
                    .expect("valid template"),
                );
                b
            }
        };
        b.set_prefix(what.to_string());
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        Counter(b)
    }

    /// `n` more done.
    pub fn inc(&self, n: u64) {
        self.0.inc(n);
    }

    /// `n` done in all.
    pub fn set(&self, n: u64) {
        self.0.set_position(n);
    }

    /// Print `line` on stderr without garbling the counter.
    pub fn eprintln(&self, line: &str) {
        self.0.suspend(|| eprintln!("{line}"));
    }

    /// Remove it (before the command prints its answer or summary).
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }

    /// Remove it and, on a terminal, leave one line saying how many were
    /// done and in how long (as geng ends with its count on stderr).
    pub fn finish_with_line(&self) {
        if self.0.is_hidden() {
            return;
        }
        self.0.finish_and_clear();
        eprintln!(
            "gamesweep: {} {} in {:.1} s",
            thousands(self.0.position()),
            self.0.prefix(),
            self.0.elapsed().as_secs_f64()
        );
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// A spinner naming what a long command is doing and for how long
/// (`import`, `export`: their steps are single calls with no count to
/// show); nothing unless shown.
pub struct Spinner(indicatif::ProgressBar);

impl Spinner {
    /// A spinner, drawn only when `shown` (callers pass [`on_terminal`]).
    pub fn new(shown: bool) -> Self {
        if !shown {
            return Spinner(indicatif::ProgressBar::hidden());
        }
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                .expect("valid template"),
        );
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        Spinner(b)
    }

    /// Now doing `what`.
    pub fn step(&self, what: String) {
        self.0.set_message(what);
    }

    /// Remove it (before the command prints its summary).
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesweep_engine::core::{Core, Granted, ManualClock, Submission};
    use gamesweep_engine::store::MemStore;
    use std::sync::Arc;
    use std::time::Duration;

    /// Regression: the bar of `run` followed the shard count (indicatif's ETA
    /// over shards), while shards differ in size by orders of magnitude and
    /// the largest are leased first (the ETA itself, on such shards:
    /// `gamesweep_engine::core::pace`'s tests). Here a real uvg plan on a
    /// manual clock, its shards run in lease order at a steady rate of
    /// positions: at every step the bar stands at the engine's share of
    /// positions done and shows the engine's ETA, which is the time left.
    #[test]
    fn the_bar_shows_positions_and_the_engines_eta_not_the_shard_count() {
        let clock = Arc::new(ManualClock::new());
        let core = Core::open_with_clock(
            Arc::new(MemStore::new()),
            Duration::from_secs(600),
            clock.clone(),
        )
        .unwrap();
        let spec = gamesweep_engine::core::LaunchSpec {
            kind: "uvg".into(),
            params: [("max_n".to_string(), 8u64)].into(),
            name: Some("s".into()),
            target_shards: 64,
            resume_existing: false,
            sample: None,
            verify_ppm: 0,
            verify_seed: None,
            priority: 0,
            replicate_all: false,
            part: None,
        };
        core.launch(&spec).unwrap();
        let v = gamesweep_engine::core::solver_version();
        let kind = gamesweep::kinds::find("uvg").unwrap();
        // Everything leased at once, largest estimate first (the lease order).
        let leases: Vec<Granted> = core.lease("w", &v, 1000).unwrap().leases;
        let n = leases.len();
        assert!(n >= 32, "{n} shards");
        let outs: Vec<_> = leases
            .iter()
            .map(|g| {
                kind.run_shard(&g.params, &g.shard, &gamesweep::sweep::ShardCtx::detached())
                    .unwrap()
            })
            .collect();
        let total: u64 = outs.iter().map(|o| o.work()).sum();
        let rate = 10_000.0; // positions a second
        let bar = RunBar::new("uvg", false);
        let (mut done, mut checked) = (0u64, 0);
        for (i, (g, out)) in leases.iter().zip(outs).enumerate() {
            let w = out.work();
            clock.advance(Duration::from_secs_f64(w as f64 / rate));
            done += w;
            assert!(core
                .submit(Submission {
                    worker: "w".into(),
                    version: v.clone(),
                    sweep_id: "s".into(),
                    index: g.shard.index,
                    token: g.token.clone(),
                    result: out,
                    timing: None,
                    positions: None,
                })
                .unwrap());
            let s = core.status(Some("s")).unwrap().0.remove(0);
            bar.set(&s);
            let share = done as f64 / total as f64;
            let shards = (i + 1) as f64 / n as f64;
            // Past the first seconds (the rate needs one), before the end.
            if done as f64 / rate >= 2.0 && i + 1 < n {
                let (pos, text) = bar.shown();
                let want = (s.fraction_done * STEPS as f64).round() as u64;
                assert_eq!(pos, want, "the bar is the share of positions: {text}");
                assert!(
                    (s.fraction_done - share).abs() < 0.05,
                    "{} vs {share}: {text}",
                    s.fraction_done
                );
                let eta = s.eta_seconds.expect("a running sweep has an ETA");
                let left = (total - done) as f64 / rate;
                assert!(
                    (eta - left).abs() <= 0.25 * left + 1.0,
                    "eta {eta:.1} s, {left:.1} s left: {text}"
                );
                assert!(text.contains(&format!("eta ~{}", hms(eta))), "{text}");
                assert!(text.contains(&format!("{}/{n} shards", i + 1)), "{text}");
                assert!((shards - share).abs() < 1.0, "{shards}");
                checked += 1;
            }
        }
        assert!(checked > n / 2, "checked {checked} of {n} steps");
    }

    #[test]
    fn the_line_says_of_the_sample_and_uses_separators() {
        let s: SweepStatus = serde_json::from_value(serde_json::json!({
            "sweep_id": "run", "kind": "uvg", "params": {"max_n": 11},
            "solver_version": "v", "state": "running", "shards_total": 4096,
            "shards_pending": 4000, "shards_leased": 2, "shards_done": 3,
            "results_stored": 3, "positions_done": 1234567,
            "positions_estimate": 99999999999u64, "rate": 54321.4,
            "eta_seconds": 62.0, "counterexamples": {}, "duplicates_ignored": 0,
            "leases_expired": 0, "leases_released": 0,
            "sample": {"ppm": 10000, "seed": 1, "shards": 9, "done": 3,
                       "limited": true, "estimate": 4000000},
            "shards_failed": 0, "failures": [], "positions_projected": 99999999999u64,
            "positions_target": 4100000, "fraction_done": 0.3011
        }))
        .unwrap();
        assert_eq!(
            run_line(&s),
            "30.1 % of ~4,100,000 positions of the sample (1,234,567 done), 3/9 shards, 54,321/s, eta ~0:01:02"
        );
        // Past the projection before the end, not "99.9 % of ~X
        // (X done)".
        let mut s = s;
        s.positions_done = 4_100_000;
        s.fraction_done = 0.999;
        assert_eq!(
            run_line(&s),
            "4,100,000 positions of the sample done, past the projected ~4,100,000, 3/9 shards, 54,321/s, eta ~0:01:02"
        );
    }
}
