//! `gamesweep graphs N [MINE:MAXE] [RES/MOD]`: graphs on N vertices by
//! canonical augmentation, as graph6 lines (one per isomorphism class),
//! following nauty's `geng` so that scripts can use either: its switches
//! (`-c`, `-b`, `-t`, `-f`, `-d#`, `-D#`, `-u`, `-s`, `-g`, `-q`, `-m`,
//! clusters like `-ctfd1D7`), `mine:maxe`, `res/mod`, its `>A` and `>Z`
//! lines on standard error (`-u`: the count only there), and the same
//! graphs, up to labelling. The switches it lacks are refused by name
//! ([`geng`]). The listing itself is [`crate::ops::graphs`]'s.

use crate::error::UsageError;
use crate::ops::graphs::{encode, geng, parse_edges, parse_shard, Listing};
use std::io::Write as _;

/// Arguments of `graphs`: geng's, read as geng reads them (switch clusters
/// such as `-ctfd1D7` too, a switch given again is no error; see [`geng`]).
#[derive(clap::Args, Debug)]
#[command(args_override_self = true)]
pub struct GraphsArgs {
    /// Number of vertices (1..=16).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=16))]
    pub n: u32,
    /// Edge range MINE:MAXE and/or part RES/MOD, in geng's order and
    /// meaning. MINE:MAXE keeps graphs with MINE..=MAXE edges (`E` alone:
    /// exactly E; `E:0`: E or more, except `0:0`; `-` may stand for `:`).
    /// RES/MOD (0 <= RES < MOD) keeps part RES of MOD: the MOD parts
    /// partition the output and are about equally large.
    #[arg(value_names = ["MINE:MAXE", "RES/MOD"], num_args = 0..=2)]
    pub rest: Vec<String>,
    /// Only connected graphs (geng -c).
    #[arg(short = 'c', long)]
    pub connected: bool,
    /// Only bipartite graphs (geng -b).
    #[arg(short = 'b', long)]
    pub bipartite: bool,
    /// Only triangle-free graphs (geng -t).
    #[arg(short = 't', long)]
    pub triangle_free: bool,
    /// Only 4-cycle-free graphs: no 4-cycle, induced or not (geng -f).
    #[arg(short = 'f', long)]
    pub square_free: bool,
    /// Write no graphs, only their number, on standard error in the `>Z`
    /// line (geng -u).
    #[arg(short = 'u', long)]
    pub count: bool,
    /// Write sparse6 instead of graph6 (geng -s).
    #[arg(short = 's', long)]
    pub sparse6: bool,
    /// Write graph6, the default (geng -g).
    #[arg(short = 'g', long)]
    pub graph6: bool,
    /// Quiet: no `>A` and `>Z` lines on standard error (geng -q).
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// geng's memory saving (geng -m): accepted, and shown in the `>A`
    /// line as geng shows it; it changes no output.
    #[arg(short = 'm', long)]
    pub save_memory: bool,
    /// Only graphs of minimum degree at least D (geng -d; geng's clusters
    /// such as -d1D7 too).
    #[arg(short = 'd', long, value_name = "D")]
    pub min_degree: Option<String>,
    /// Only graphs of maximum degree at most D (geng -D).
    #[arg(short = 'D', long, value_name = "D")]
    pub max_degree: Option<String>,
    /// The same as the positional RES/MOD (0-based part I of M).
    #[arg(long, value_name = "I/M")]
    pub shard: Option<String>,
    /// Threads for `--count` (output order of graph6 lines is always single-threaded and deterministic).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// geng's switches that `graphs` refuses, each with what to do instead.
    #[command(flatten)]
    pub refused: Refused,
}

/// geng's switches that `graphs` does not support: read (so that clap does
/// not answer with its own puzzling message) and refused by
/// [`geng::refusal`], which says what to do instead. Hidden from `--help`.
#[derive(clap::Args, Debug)]
pub struct Refused {
    /// geng -C (biconnected).
    #[arg(short = 'C', hide = true)]
    pub biconnected: bool,
    /// geng -k (K4-free).
    #[arg(short = 'k', hide = true)]
    pub k4_free: bool,
    /// geng -T (chordal).
    #[arg(short = 'T', hide = true)]
    pub chordal: bool,
    /// geng -S (split).
    #[arg(short = 'S', hide = true)]
    pub split: bool,
    /// geng -P (perfect).
    #[arg(short = 'P', hide = true)]
    pub perfect: bool,
    /// geng -F (claw-free).
    #[arg(short = 'F', hide = true)]
    pub claw_free: bool,
    /// geng -l (canonical labelling).
    #[arg(short = 'l', hide = true)]
    pub canonical: bool,
    /// geng -v (counts by edges).
    #[arg(short = 'v', hide = true)]
    pub by_edges: bool,
    /// geng -y (y-format).
    #[arg(short = 'y', hide = true)]
    pub y_format: bool,
    /// geng -n (nauty format).
    #[arg(short = 'n', hide = true)]
    pub nauty_format: bool,
    /// geng -x# (splitting tuning).
    #[arg(short = 'x', hide = true)]
    pub x: Option<String>,
    /// geng -X# (splitting tuning).
    #[arg(short = 'X', hide = true)]
    pub big_x: Option<String>,
}

impl Refused {
    /// The first refused switch given, if any.
    fn first(&self) -> Option<char> {
        [
            (self.biconnected, 'C'),
            (self.k4_free, 'k'),
            (self.chordal, 'T'),
            (self.split, 'S'),
            (self.perfect, 'P'),
            (self.claw_free, 'F'),
            (self.canonical, 'l'),
            (self.by_edges, 'v'),
            (self.y_format, 'y'),
            (self.nauty_format, 'n'),
            (self.x.is_some(), 'x'),
            (self.big_x.is_some(), 'X'),
        ]
        .into_iter()
        .find_map(|(given, letter)| given.then_some(letter))
    }
}

impl GraphsArgs {
    /// The switches as geng would read them: the flags, then the clusters
    /// clap left in the values of `-d` and `-D` (`-cd1D7` gives `-d` the
    /// value `1D7`). A refused switch is an error naming it.
    pub fn switches(&self) -> Result<geng::Switches, UsageError> {
        if let Some(letter) = self.refused.first() {
            return Err(geng::refusal(letter));
        }
        let mut sw = geng::Switches {
            connected: self.connected,
            bipartite: self.bipartite,
            triangle_free: self.triangle_free,
            square_free: self.square_free,
            count: self.count,
            sparse6: self.sparse6,
            quiet: self.quiet,
            save_memory: self.save_memory,
            min_degree: None,
            max_degree: None,
        };
        let (d, big_d) = (&self.min_degree, &self.max_degree);
        // clap says which values -d and -D had, not where they stood, so a
        // bound both given on its own and inside the other's cluster
        // (`-D5 -d1D7`: geng takes the later) is refused, not guessed.
        for (own, other, letter) in [(d, big_d, 'd'), (big_d, d, 'D')] {
            if own.is_some() && other.as_ref().is_some_and(|v| v.contains(letter)) {
                return Err(UsageError(format!(
                    "give -{letter} once (here both on its own and inside a cluster)"
                )));
            }
        }
        for (letter, value) in [('d', d), ('D', big_d)] {
            if let Some(v) = value {
                sw.read_cluster(&format!("{letter}{v}"))?;
            }
        }
        Ok(sw)
    }
}

/// The name geng's `>A` line starts with: the program as invoked (geng
/// writes its `argv[0]`).
fn program_name() -> String {
    std::env::args_os()
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_else(|| "gamesweep".into())
}

/// Run `graphs`.
pub fn exec(args: GraphsArgs) -> anyhow::Result<()> {
    let sw = args.switches()?;
    let (mut range, mut positional_part) = (None, None);
    for a in &args.rest {
        if a.contains('/') {
            if positional_part.replace(a.clone()).is_some() {
                return Err(UsageError(format!("give RES/MOD once, got a second `{a}`")).into());
            }
        } else if positional_part.is_some() {
            return Err(UsageError(format!(
                "the edge range `{a}` comes before RES/MOD, as in geng (graphs N MINE:MAXE RES/MOD)"
            ))
            .into());
        } else if range.replace(parse_edges(a)?).is_some() {
            return Err(UsageError(format!("give MINE:MAXE once, got a second `{a}`")).into());
        }
    }
    let part = match (&positional_part, &args.shard) {
        (Some(_), Some(_)) => {
            return Err(
                UsageError("give the part once: RES/MOD or --shard I/M, not both".into()).into(),
            )
        }
        (Some(s), None) | (None, Some(s)) => Some(parse_shard(s)?),
        (None, None) => None,
    };
    let listing = Listing::new(args.n, &sw, range, part)?;
    if !sw.quiet {
        eprintln!(
            "{}",
            geng::a_line(&program_name(), args.n, &sw, &listing.bounds, part)
        );
    }
    let started = std::time::Instant::now();
    let summary = |count: u64| {
        if !sw.quiet {
            eprintln!("{}", geng::z_line(count, started.elapsed().as_secs_f64()));
        }
    };
    if sw.count {
        // geng -u: the number only in the `>Z` line.
        summary(listing.count(args.threads as usize)?);
        return Ok(());
    }
    let mut listed = 0u64;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut err = None;
    listing.for_each(&mut |g| {
        listed += 1;
        match writeln!(out, "{}", encode(g, sw.sparse6)) {
            Ok(()) => true,
            Err(e) => {
                err = Some(e);
                false
            }
        }
    });
    let res = match err {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match res {
        // `gamesweep graphs 9 | head` is fine.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        other => other?,
    }
    summary(listed);
    Ok(())
}
