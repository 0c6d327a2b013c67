//! `gamesweep cancel ID`: stop handing out a sweep's shards
//! (`ops::remote::act`).

use crate::connect::Conn;
use crate::ops::remote::act::{act, ActRequest, Action};
use crate::ops::remote::Session;

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
    let mut s = Session::connect(&a.conn)?;
    let said = act(
        &mut s,
        &ActRequest {
            action: Action::Cancel,
            id: a.id,
        },
    )?;
    eprintln!("{said}");
    Ok(())
}
