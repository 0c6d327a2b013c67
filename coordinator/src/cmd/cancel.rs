//! `gamesweep cancel ID`: stop handing out a sweep's shards.

use crate::connect::{self, Conn};
use anyhow::Context as _;

/// `cancel` options.
#[derive(clap::Args, Debug)]
pub struct CancelArgs {
    /// Sweep id.
    pub id: String,
    #[command(flatten)]
    pub conn: Conn,
}

/// Run `cancel`.
pub fn exec(a: CancelArgs) -> anyhow::Result<()> {
    let rt = connect::runtime()?;
    let mut c = connect::connect(&rt, &a.conn)?;
    rt.block_on(c.cancel(&a.id))
        .with_context(|| format!("cancelling {}", a.id))?;
    eprintln!("cancelled {}", a.id);
    Ok(())
}
