//! `cancel ID`, `pause ID`, `resume ID`: change what the coordinator hands
//! out of a sweep ([`act`]): cancel stops handing out its shards for good,
//! pause for now (leases held may finish), resume hands them out again.

use super::Session;
use anyhow::Context as _;

/// What to do to a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Stop handing out its shards for good (`cancel`).
    Cancel,
    /// Stop handing out its shards for now (`pause`).
    Pause,
    /// Hand out a paused sweep's shards again (`resume`).
    Resume,
}

impl std::str::FromStr for Action {
    type Err = crate::error::UsageError;

    /// `cancel`, `pause` or `resume`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "cancel" => Ok(Action::Cancel),
            "pause" => Ok(Action::Pause),
            "resume" => Ok(Action::Resume),
            other => Err(crate::error::UsageError(format!(
                "no coordinator action `{other}`"
            ))),
        }
    }
}

/// An action on one sweep.
#[derive(Clone, Debug)]
pub struct ActRequest {
    /// What to do.
    pub action: Action,
    /// The sweep's id.
    pub id: String,
}

/// Do `r`; what the CLI says on stderr once done (`cancelled ID`, ...).
pub fn act(s: &mut Session, r: &ActRequest) -> anyhow::Result<String> {
    let id = &r.id;
    Ok(match r.action {
        Action::Cancel => {
            s.call(|c| c.cancel(id))
                .with_context(|| format!("cancelling {id}"))?;
            format!("cancelled {id}")
        }
        Action::Pause => {
            s.call(|c| c.pause(id))
                .with_context(|| format!("pausing {id}"))?;
            format!(
                "paused {id} (leases held may finish; `gamesweep resume {id}` hands its shards out again)"
            )
        }
        Action::Resume => {
            s.call(|c| c.resume(id))
                .with_context(|| format!("resuming {id}"))?;
            format!("resumed {id}")
        }
    })
}
