//! `gamesweep pause ID` / `gamesweep resume ID`: stop handing out a sweep's
//! shards for now (leases held may finish), and hand them out again.

use crate::connect::{self, Conn};
use anyhow::Context as _;

/// `pause` and `resume` options.
#[derive(clap::Args, Debug)]
pub struct PauseArgs {
    /// Sweep id.
    pub id: String,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `pause` (`paused`) or `resume`.
pub fn exec(a: PauseArgs, paused: bool) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    if paused {
        rt.block_on(c.pause(&a.id))
            .with_context(|| format!("pausing {}", a.id))?;
        eprintln!(
            "paused {} (leases held may finish; `gamesweep resume {}` hands its shards out again)",
            a.id, a.id
        );
    } else {
        rt.block_on(c.resume(&a.id))
            .with_context(|| format!("resuming {}", a.id))?;
        eprintln!("resumed {}", a.id);
    }
    Ok(())
}
