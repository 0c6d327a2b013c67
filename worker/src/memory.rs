//! The worker's memory cap (`--max-memory`): sizes as the user writes them,
//! the process's resident memory as the kernel counts it, and the message
//! of a shard stopped for it (the watch that stops the shards in hand is
//! `held::watch_memory`; they are then reported as failures, so they go
//! back to the coordinator's queue).

use std::sync::Arc;
use std::time::Duration;

/// How often the watch reads the resident memory while shards run: one
/// read of `/proc/self/statm` per period, whatever the shards do.
pub(crate) const WATCH_PERIOD: Duration = Duration::from_millis(50);

/// Parse a memory size: a whole number of bytes, optionally followed by a
/// binary unit `K`, `M`, `G`, `T` (also written `KiB`, `MiB`, `GiB`, `TiB`,
/// any case) or `B`. At least 1 byte.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let bad = |why: &str| {
        format!("bad memory size `{text}`: {why} (e.g. 4G, 512M, 2GiB or a number of bytes)")
    };
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    if number.is_empty() {
        return Err(bad("expected a whole number"));
    }
    let shift = match unit.trim_start().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => return Err(bad("unknown unit")),
    };
    let n: u64 = number.parse().map_err(|_| bad("too large"))?;
    let bytes = n
        .checked_mul(1_u64 << shift)
        .ok_or_else(|| bad("too large"))?;
    if bytes == 0 {
        return Err(bad("must be at least 1 byte"));
    }
    Ok(bytes)
}

/// Room a shard needs above the worker's baseline, at the least.
pub(crate) const MIN_HEADROOM: u64 = 16 << 20;

/// Refuse a cap of `cap` bytes (written `given`) that the worker, holding
/// `baseline` bytes before any shard runs, would pass with its first shard:
/// every shard would be stopped and reported failed at once, and the
/// coordinator would set them all aside. A number without a unit is bytes;
/// the message says so when that is the likely slip.
pub(crate) fn check_cap(cap: u64, baseline: u64, given: &str) -> Result<(), String> {
    let least = baseline.saturating_add(MIN_HEADROOM);
    if cap >= least {
        return Ok(());
    }
    let bare = !given.is_empty() && given.trim().chars().all(|c| c.is_ascii_digit());
    let hint = if bare {
        format!(
            " (a number alone is bytes: for megabytes write `{}M`)",
            given.trim()
        )
    } else {
        String::new()
    };
    Err(format!(
        "{} is below this worker's baseline: it holds {} before running any shard, and a shard needs room above that; give at least {}{hint}",
        format_size(cap),
        format_size(baseline),
        format_size(least)
    ))
}

/// `bytes` for people: in the largest binary unit it reaches, with one
/// decimal unless whole (`4 GiB`, `4.1 GiB`, `1 MiB`, `512 B`).
pub(crate) fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut unit = 0;
    while unit + 1 < UNITS.len() && bytes >= 1_u64 << (10 * (unit + 1)) {
        unit += 1;
    }
    if unit == 0 {
        return format!("{bytes} B");
    }
    let value = bytes as f64 / (1_u64 << (10 * unit)) as f64;
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {}", UNITS[unit])
}

/// The resident memory of this process in bytes, from `/proc/self/statm`
/// (`None` where there is no such file).
pub(crate) fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages.saturating_mul(page_size()))
}

/// The kernel's page size.
fn page_size() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: sysconf with a constant name has no preconditions.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if size > 0 {
            return size as u64;
        }
    }
    4096
}

/// The cap, and how to read the resident memory (the real reading in the
/// worker; a fake one in tests).
#[derive(Clone)]
pub(crate) struct MemoryCap {
    /// `--max-memory`, in bytes.
    pub max: u64,
    /// Reads the process's resident memory in bytes.
    pub read: Arc<dyn Fn() -> Option<u64> + Send + Sync>,
}

impl MemoryCap {
    /// A cap of `max` bytes on this process's resident memory.
    pub fn new(max: u64) -> Self {
        MemoryCap {
            max,
            read: Arc::new(resident_bytes),
        }
    }

    /// The resident memory now, if above the cap.
    pub fn exceeded(&self) -> Option<u64> {
        (self.read)().filter(|&rss| rss > self.max)
    }

    /// Why shard `index` of sweep `sweep` was stopped at `rss` bytes.
    pub fn message(&self, sweep: &str, index: u32, rss: u64) -> String {
        format!(
            "shard {index} of sweep {sweep} stopped: the worker's resident memory reached {}, above --max-memory {}",
            format_size(rss),
            format_size(self.max)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("2gib"), Ok(2 << 30));
        assert_eq!(parse_size("1m"), Ok(1 << 20));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("3T"), Ok(3 << 40));
        assert_eq!(parse_size("1000000"), Ok(1_000_000));
        assert_eq!(parse_size("4096B"), Ok(4096));
        assert_eq!(parse_size(" 8 G "), Ok(8 << 30));
    }

    #[test]
    fn nonsense_sizes_are_refused_clearly() {
        let hint = "(e.g. 4G, 512M, 2GiB or a number of bytes)";
        for (text, why) in [
            ("", "expected a whole number"),
            ("G", "expected a whole number"),
            ("-1G", "expected a whole number"),
            ("1.5G", "unknown unit"),
            ("4GB", "unknown unit"),
            ("4X", "unknown unit"),
            ("lots", "expected a whole number"),
            ("0", "must be at least 1 byte"),
            ("0M", "must be at least 1 byte"),
            ("99999999999999999999", "too large"),
            ("17179869184T", "too large"),
        ] {
            assert_eq!(
                parse_size(text),
                Err(format!("bad memory size `{text}`: {why} {hint}")),
                "{text:?}"
            );
        }
    }

    #[test]
    fn sizes_print_in_the_largest_unit() {
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(1 << 20), "1 MiB");
        assert_eq!(format_size(4 << 30), "4 GiB");
        assert_eq!(format_size((4 << 30) + (1 << 30) / 10 + 1), "4.1 GiB");
        assert_eq!(format_size(1536), "1.5 KiB");
    }

    #[test]
    fn the_message_names_the_shard_and_both_sizes() {
        let cap = MemoryCap::new(4 << 30);
        let rss = (4 << 30) + (1 << 30) / 10 + 1;
        assert_eq!(
            cap.message("s", 12, rss),
            "shard 12 of sweep s stopped: the worker's resident memory reached 4.1 GiB, above --max-memory 4 GiB"
        );
    }

    #[test]
    fn resident_memory_is_read_from_proc() {
        let rss = resident_bytes().expect("/proc/self/statm on Linux");
        // A test binary with a tokio runtime: more than 1 MiB, less than 64 GiB.
        assert!(rss > 1 << 20 && rss < 64 << 30, "{rss}");
        assert_eq!(MemoryCap::new(1).exceeded().map(|r| r > 1), Some(true));
        assert_eq!(MemoryCap::new(1 << 50).exceeded(), None);
    }

    /// Regression: `--max-memory 512` (meant as MB) was below the worker's own
    /// baseline: every shard was set aside in under a second.
    #[test]
    fn a_cap_below_the_baseline_is_refused_saying_it() {
        let baseline = 23 << 20;
        let e = check_cap(512, baseline, "512").unwrap_err();
        assert_eq!(
            e,
            "512 B is below this worker's baseline: it holds 23 MiB before running any shard, and a shard needs room above that; give at least 39 MiB (a number alone is bytes: for megabytes write `512M`)"
        );
        let e = check_cap(30 << 20, baseline, "30M").unwrap_err();
        assert!(e.ends_with("give at least 39 MiB"), "{e}");
        assert!(check_cap(39 << 20, baseline, "39M").is_ok());
        assert!(check_cap(512 << 20, baseline, "512M").is_ok());
    }
}
