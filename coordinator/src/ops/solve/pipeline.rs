//! The pipelines' reading, solving and writing (`solve uvg -`, `solve col -`, `solve GAME -`): standard input in chunks, solved on threads, written in input order.

use crate::error::UsageError;

/// Lines a pipeline reads, solves and writes at a time.
pub const CHUNK: usize = 4096;

/// The longest input line a pipeline accepts, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// Read `BufRead` lines in chunks, solve each chunk's lines with `solve` on
/// `threads` threads, and hand the results to `emit` in input order; report
/// each failed line on standard error. Ends with an error naming how many
/// lines failed, if any did.
pub fn stream<T: Send>(
    threads: usize,
    solve: impl Fn(&str) -> Result<T, String> + Sync,
    mut emit: impl FnMut(&str, T) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    use rayon::prelude::*;
    use std::io::BufRead as _;
    use std::io::Read as _;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let stdin = std::io::stdin();
    let mut input = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut lineno = 0usize;
    let (mut read, mut bad, mut first_bad) = (0usize, 0usize, 0usize);
    let mut buf = Vec::new();
    // Lines solved so far, on a terminal only (else a long pipeline is
    // silent for minutes).
    let counter =
        crate::progress::Counter::new("lines solved", None, crate::progress::on_terminal());
    loop {
        // One chunk: (line number, text) of its non-blank lines.
        let mut chunk: Vec<(usize, Result<String, String>)> = Vec::with_capacity(CHUNK);
        let mut eof = false;
        while chunk.len() < CHUNK {
            buf.clear();
            let got = (&mut input)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| UsageError(format!("cannot read standard input: {e}")))?;
            if got == 0 {
                eof = true;
                break;
            }
            lineno += 1;
            if buf.len() > MAX_LINE {
                return Err(
                    UsageError(format!("line {lineno}: longer than {MAX_LINE} bytes")).into(),
                );
            }
            let text = match std::str::from_utf8(&buf) {
                Ok(t) => Ok(t.trim().to_string()),
                Err(e) => Err(format!("not UTF-8 text (byte {})", e.valid_up_to() + 1)),
            };
            if text.as_ref().is_ok_and(|t| t.is_empty()) {
                continue;
            }
            chunk.push((lineno, text));
        }
        let solve_one = |(_, t): &(usize, Result<String, String>)| match t {
            Ok(t) => solve(t),
            Err(e) => Err(e.clone()),
        };
        let results: Vec<Result<T, String>> = if threads == 1 {
            chunk.iter().map(solve_one).collect()
        } else {
            pool.install(|| chunk.par_iter().map(solve_one).collect())
        };
        for ((k, text), r) in chunk.iter().zip(results) {
            read += 1;
            match r {
                Ok(v) => {
                    let text = text.as_deref().unwrap_or_default();
                    match emit(text, v) {
                        Ok(()) => {}
                        // `... | head` is fine.
                        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                        Err(e) => {
                            return Err(anyhow::Error::new(e).context("writing to standard output"))
                        }
                    }
                }
                Err(e) => {
                    bad += 1;
                    if first_bad == 0 {
                        first_bad = *k;
                    }
                    counter.eprintln(&format!("gamesweep: line {k}: {e}"));
                }
            }
        }
        counter.inc(chunk.len() as u64);
        if eof {
            break;
        }
    }
    counter.finish_with_line();
    if bad > 0 {
        return Err(UsageError(format!(
            "{bad} of {read} lines could not be solved (the first: line {first_bad})"
        ))
        .into());
    }
    Ok(())
}

/// A buffered standard output for a pipeline.
pub fn stdout_writer() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock())
}

/// Flush a pipeline's output (a closed pipe is fine).
pub fn finish(out: &mut impl std::io::Write) -> anyhow::Result<()> {
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("writing to standard output"))
        }
        _ => Ok(()),
    }
}
