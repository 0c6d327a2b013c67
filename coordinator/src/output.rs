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
