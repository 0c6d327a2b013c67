//! The progress bar of `gamesweep run` (in-process or embedded): shards done
//! of the shards to run, positions so far, elapsed time and ETA.

/// A shard progress bar on stderr, or nothing when hidden.
pub struct ShardBar(indicatif::ProgressBar);

impl ShardBar {
    /// A bar for `total` shards of `kind`, starting at `done` (shards of an
    /// earlier, resumed run: they do not count toward the ETA); hidden unless
    /// `shown`.
    pub fn new(kind: &str, total: u64, done: u64, shown: bool) -> Self {
        if !shown {
            return ShardBar(indicatif::ProgressBar::hidden());
        }
        let b = indicatif::ProgressBar::new(total);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} shards, {msg} (eta {eta})",
            )
            .expect("valid template"),
        );
        b.set_prefix(kind.to_string());
        b.set_position(done);
        b.reset_eta();
        ShardBar(b)
    }

    /// `done` shards and `positions` positions so far.
    pub fn set(&self, done: u64, positions: u64) {
        self.0.set_position(done);
        self.0.set_message(format!("{positions} positions"));
    }

    /// One more shard done, `positions` positions so far.
    pub fn inc(&self, positions: u64) {
        self.0.inc(1);
        self.0.set_message(format!("{positions} positions"));
    }

    /// Remove the bar (before printing the run's summary).
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}
