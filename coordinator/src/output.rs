//! Writing a command's result to standard output, where a reader that
//! closed the pipe early (`gamesweep solve ... | head -1`) is not an error.

use std::fmt;
use std::io::{ErrorKind, Write as _};

/// Write `text` to standard output and flush. `Ok(false)` if the reader
/// has gone (a broken pipe: stop printing, exit cleanly), `Ok(true)` if it
/// was written; any other write error is an error.
pub fn print(text: impl fmt::Display) -> anyhow::Result<bool> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    match write!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {
            // The rest of the buffer cannot be written either; drop it
            // without the BufWriter retrying on drop.
            let _ = out.into_parts();
            Ok(false)
        }
        Err(e) => Err(anyhow::Error::new(e).context("writing to standard output")),
    }
}

pub use gamesweep::sweep::report::plural;

/// "5/65 shards", "0/1 shard": a count done of a total, the noun agreeing
/// with the total.
pub fn count_of(done: u64, total: u64, noun: &str) -> String {
    let whole = plural(total, noun);
    format!("{done}/{whole}")
}

/// A time as ISO 8601 in UTC, to the second: `2026-12-01T23:44:12Z`
/// (milliseconds since the Unix epoch in; what people read, where JSON
/// keeps the number).
pub fn utc_time(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days, for days since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// What an import whose results disagree with the stored ones left to do.
pub(crate) fn conflicts_text(conflicts: u32, sweep: &str) -> String {
    format!(
        "{} the store held with another result: each is recorded as a mismatch (both runs) and runs again on a worker that ran neither to decide; the sweep finishes once all are decided (`gamesweep status {sweep}`; the report names the out-voted runs)",
        plural(conflicts.into(), "shard")
    )
}

#[cfg(test)]
mod tests {
    use super::{count_of, plural, utc_time};

    #[test]
    fn times_read_as_utc_dates() {
        assert_eq!(utc_time(0), "1970-01-01T00:00:00Z");
        // `date -u -d @1764632652` (a leap-year February and a year's end too).
        assert_eq!(utc_time(1_764_632_652_999), "2025-12-01T23:44:12Z");
        assert_eq!(utc_time(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(utc_time(1_735_689_599_000), "2024-12-31T23:59:59Z");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(plural(1, "shard"), "1 shard");
        assert_eq!(plural(0, "shard"), "0 shards");
        assert_eq!(plural(1, "vertex"), "1 vertex");
        assert_eq!(plural(2, "vertex"), "2 vertices");
        assert_eq!(plural(2, "pass"), "2 passes");
        assert_eq!(count_of(0, 1, "shard"), "0/1 shard");
        assert_eq!(count_of(5, 65, "shard"), "5/65 shards");
    }
}
