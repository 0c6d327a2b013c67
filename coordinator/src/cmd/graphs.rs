//! `gamesweep graphs N`: graphs on N vertices by canonical augmentation, as graph6
//! lines (one per isomorphism class), in the spirit of nauty's `geng`.

use crate::error::UsageError;
use gamesweep::gen::{self, WalkOptions};
use gamesweep::graph::{graph6, BitGraph};
use rayon::prelude::*;
use std::io::Write as _;

/// Arguments of `graphs`.
#[derive(clap::Args, Debug)]
pub struct GraphsArgs {
    /// Number of vertices (1..=16).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=16))]
    pub n: u32,
    /// Only connected graphs (geng -c).
    #[arg(short = 'c', long)]
    pub connected: bool,
    /// Print only the number of graphs (geng -u).
    #[arg(short = 'u', long)]
    pub count: bool,
    /// Part I of M (0 <= I < M), a deterministic split of the canonical prefixes
    /// (like geng's res/mod); the M parts partition the output.
    #[arg(long, value_name = "I/M")]
    pub shard: Option<String>,
    /// Threads for `--count` (output order of graph6 lines is always single-threaded and deterministic).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
}

/// Depth of the generation tree at which `--shard` splits for graphs on `n` vertices.
/// A fixed function of `n`, so every part uses the same prefix set.
pub fn split_depth(n: usize) -> usize {
    n.saturating_sub(3).min(8)
}

/// Parse `I/M`.
pub fn parse_shard(s: &str) -> Result<(usize, usize), UsageError> {
    let bad = || {
        UsageError(format!(
            "--shard expects I/M with 0 <= I < M (e.g. 0/4), got `{s}`"
        ))
    };
    let (i, m) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let m: usize = m.trim().parse().map_err(|_| bad())?;
    if m == 0 || i >= m {
        return Err(bad());
    }
    Ok((i, m))
}

/// Run `graphs`.
pub fn exec(args: GraphsArgs) -> anyhow::Result<()> {
    let n = args.n as usize;
    let depth = split_depth(n);
    let prefixes: Vec<BitGraph> = match &args.shard {
        Some(s) => {
            let (i, m) = parse_shard(s)?;
            gen::shard_prefixes(depth, i, m)
        }
        None => gen::prefixes(depth),
    };
    let opts = WalkOptions {
        connected_only: args.connected,
        min_n: n,
    };
    if args.count {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads as usize)
            .build()?;
        let total: u64 = pool.install(|| {
            prefixes
                .par_iter()
                .map(|p| gen::count(p, n, args.connected))
                .sum()
        });
        crate::output::print(format_args!("{total}\n"))?;
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut err = None;
    for p in &prefixes {
        gen::walk_filtered(p, n, opts, &mut |g: &BitGraph| {
            if err.is_none() && g.n() == n {
                if let Err(e) = writeln!(out, "{}", graph6::encode_bitgraph(g)) {
                    err = Some(e);
                }
            }
        });
        if err.is_some() {
            break;
        }
    }
    let res = match err {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match res {
        // `gamesweep graphs 9 | head` is fine.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
