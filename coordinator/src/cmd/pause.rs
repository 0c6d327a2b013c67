//! `gamesweep pause ID` / `gamesweep resume ID`: stop handing out a sweep's
//! shards for now (leases held may finish), and hand them out again
//! (`ops::remote::act`).

use crate::connect::Conn;
use crate::ops::remote::act::{act, ActRequest, Action};
use crate::ops::remote::Session;

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
    let mut s = Session::connect(&a.conn)?;
    let action = if paused {
        Action::Pause
    } else {
        Action::Resume
    };
    let said = act(&mut s, &ActRequest { action, id: a.id })?;
    eprintln!("{said}");
    Ok(())
}
