//! `gamesweep extend --value V --vertices M [--cover LO-HI] LIST...`: every
//! connected graph on `M` vertices with a start of value `*V` whose
//! `*(V−1)` option lies on a listed graph, kept when its starts take every
//! value `LO..=HI`; printed (or written with `--out`) as `GRAPH6 v0,v1,…`
//! lines up to isomorphism, with a summary on stderr. The job is
//! [`crate::ops::extend`].

use crate::ops::extend::{extend, ExtendRequest};
use gamesweep::sweep::thousands;
use std::io::Write as _;
use std::path::PathBuf;

/// `extend` options.
#[derive(clap::Args, Debug)]
pub struct ExtendArgs {
    /// The lists of graphs E that can hold the *(V−1) option: graph6 lines,
    /// optionally followed by the start values (`GRAPH6 v0,v1,…`) or one
    /// start (`GRAPH6 START`); `#` lines are comments; a LIST ending in
    /// `.zst` is read through zstd. Each graph must be connected, on M−3 to
    /// M−1 vertices.
    #[arg(required = true, value_name = "LIST")]
    pub inputs: Vec<PathBuf>,
    /// The value of the new start t.
    #[arg(long, value_name = "V", value_parser = clap::value_parser!(u8).range(1..=15))]
    pub value: u8,
    /// The number of vertices of the graphs built.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u8).range(2..=16))]
    pub vertices: u8,
    /// Keep only graphs with starts of every value LO..=HI (e.g. `0-6`);
    /// without it, every graph built is kept.
    #[arg(long, value_name = "LO-HI", value_parser = parse_range)]
    pub cover: Option<(u8, u8)>,
    /// Write the graphs kept to FILE (replaced whole at the end; zstd-compressed
    /// when FILE ends in `.zst`) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Threads [default: all cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Run part K of M of the (distinct, canonically ordered) input graphs;
    /// the parts' outputs merged with `sort -u` are the whole run's.
    #[arg(long, value_name = "K/M", value_parser = crate::args::parse_part)]
    pub part: Option<gamesweep_api::domain::Part>,
    /// No progress counter on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

fn parse_range(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("{text:?}: give LO-HI, e.g. 0-6");
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let lo = lo.trim().parse().map_err(|_| bad())?;
    let hi = hi.trim().parse().map_err(|_| bad())?;
    Ok((lo, hi))
}

/// Run `extend`.
pub fn exec(a: ExtendArgs) -> anyhow::Result<()> {
    let req = ExtendRequest {
        value: a.value,
        vertices: a.vertices as usize,
        inputs: a.inputs.clone(),
        cover: a.cover,
        threads: a
            .threads
            .map_or_else(crate::args::default_threads, |t| t as usize),
        part: a.part,
    };
    let counter = crate::progress::Counter::new(
        "input graphs lifted",
        None,
        !a.quiet && crate::progress::on_terminal(),
    );
    let x = extend(&req, &counter)?;
    counter.finish();
    let mut text = String::new();
    for r in x.records() {
        text.push_str(&r);
        text.push('\n');
    }
    match &a.out {
        Some(path) => {
            // A `.zst` name: compressed (zstd, level 19: the lists are
            // committed with the analyses that use them).
            let bytes = if path.extension().is_some_and(|e| e == "zst") {
                zstd::stream::encode_all(text.as_bytes(), 19)?
            } else {
                text.into_bytes()
            };
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, &bytes)
                .and_then(|()| std::fs::rename(&tmp, path))
                .map_err(|e| anyhow::anyhow!("extend: writing {}: {e}", path.display()))?;
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    let sizes: Vec<String> = x
        .inputs
        .iter()
        .rev()
        .map(|(n, c)| format!("{} on {n} vertices", thousands(*c)))
        .collect();
    let part = a.part.map_or(String::new(), |p| {
        format!(", part {}/{}: {}", p.index, p.of, thousands(x.in_part))
    });
    eprintln!(
        "extend: {} lines read, {} graphs up to isomorphism ({}){part}",
        thousands(x.lines),
        thousands(x.inputs.values().sum()),
        sizes.join(", ")
    );
    let kept = match a.cover {
        Some((lo, hi)) => format!(
            "{} with starts of every value {lo}..{hi}",
            thousands(x.kept)
        ),
        None => format!("all {}", thousands(x.kept)),
    };
    eprintln!(
        "extend: {} graphs on {} vertices built, a start of value *{} in each; kept {kept}, {} up to isomorphism; {} starts of value *{} in those",
        thousands(x.stats.built),
        a.vertices,
        a.value,
        thousands(x.graphs.len() as u64),
        thousands(x.starts_of_value(a.value)),
        a.value,
    );
    if let Some((0, hi)) = a.cover {
        match x.witness(a.cover) {
            Some(w) => eprintln!(
                "extend: a start of value *{} on {} vertices: {} start {} ({} edges)",
                hi + 1,
                a.vertices as usize + 1,
                w.graph6,
                w.start,
                w.edges
            ),
            None => eprintln!(
                "extend: none, so no start of value *{} on {} vertices joins such a graph",
                hi + 1,
                a.vertices as usize + 1
            ),
        }
    }
    Ok(())
}
