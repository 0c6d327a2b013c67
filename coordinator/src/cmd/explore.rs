//! `gamesweep explore`: the boards ([`gamesweep_serve::explore`]) as a
//! local web app (`ops::explore`). Prints the `--results` witnesses and the
//! page's URL (and writes it to `--address-file`), serves until
//! interrupted.

use crate::ops::explore::{self, ExploreRequest};
use gamesweep_serve::explore::values::SEARCH_MEMORY_DEFAULT;
use std::path::PathBuf;

/// Arguments of `explore`.
#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    /// Address to serve on (port 0 picks a free port). The page has no login:
    /// keep it on loopback unless everyone who can reach it may use it.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: std::net::SocketAddr,
    /// Once listening, write the page's URL to this file (replacing it
    /// atomically); removed again on a clean exit.
    #[arg(long, value_name = "FILE")]
    pub address_file: Option<PathBuf>,
    /// A finished sweep's results.json: its witnesses and counterexamples
    /// are listed in the page's menu (and printed, one `CODE START CAPTION` a line).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// A game-graph file (docs/gamegraph-format.md, text or JSON; at most
    /// 1 MiB) shown solved in the page's game-graph panel, where others can
    /// be pasted or opened too.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Open the page in the desktop's browser (`xdg-open` / `open`).
    #[arg(long)]
    pub open: bool,
    /// Memory one search past the page's budget may hold, in MiB (searches
    /// run one at a time, and only for callers on loopback).
    #[arg(long, value_name = "MIB", default_value_t = SEARCH_MEMORY_DEFAULT >> 20, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub search_memory: u64,
}

impl From<&ExploreArgs> for ExploreRequest {
    fn from(a: &ExploreArgs) -> Self {
        ExploreRequest {
            listen: a.listen,
            address_file: a.address_file.clone(),
            results: a.results.clone(),
            file: a.file.clone(),
            open: a.open,
            search_memory_mib: a.search_memory,
        }
    }
}

/// Run `explore`.
pub fn exec(a: ExploreArgs) -> anyhow::Result<()> {
    let ex = explore::open(ExploreRequest::from(&a))?;
    crate::output::print(ex.listing())?;
    ex.serve(gamesweep_serve::server::shutdown_signal(), &|line| {
        eprintln!("{line}")
    })?;
    Ok(())
}
