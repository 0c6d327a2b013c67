//! Usage errors and the process exit code.
//!
//! Exit code 2: the user's input was wrong (a [`UsageError`], a kind's
//! parameter error, or a coordinator refusing the request: unknown or
//! existing sweep, bad parameters). Exit code 1: a failure while running.
//! 128 + the signal's number for a command stopped by a signal it caught
//! ([`Interrupted`]: 130 for SIGINT, 143 for SIGTERM), as a shell reports
//! a process the signal killed.

/// An error in what the user typed (exit code 2), as opposed to a failure while running (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// A command stopped by a signal it caught (SIGINT, SIGTERM), having saved
/// what it could; the message says what was kept and how to go on.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Interrupted {
    /// The signal's number (2: SIGINT, 15: SIGTERM).
    pub signal: i32,
    /// What was kept, and how to go on.
    pub message: String,
}

/// SIGINT's number (Ctrl-C).
pub const SIGINT: i32 = 2;

/// SIGTERM's number (`kill`, Slurm's and systemd's stop).
pub const SIGTERM: i32 = 15;

/// Map an error to the process exit code: 128 + the signal for an
/// [`Interrupted`] command, 2 for bad input, 1 otherwise.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if let Some(i) = err.chain().find_map(|e| e.downcast_ref::<Interrupted>()) {
        return 128 + i.signal;
    }
    let bad_input = err.chain().any(|e| {
        e.is::<UsageError>()
            || e.is::<gamesweep::sweep::SweepError>()
            || e.downcast_ref::<gamesweep_proto::RpcError>()
                .is_some_and(gamesweep_proto::RpcError::is_rejection)
    });
    if bad_input {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesweep_proto::RpcError;

    #[test]
    fn bad_input_exits_2_and_failures_exit_1() {
        assert_eq!(exit_code(&UsageError("x".into()).into()), 2);
        assert_eq!(
            exit_code(&anyhow::Error::new(UsageError("x".into())).context("while y")),
            2
        );
        assert_eq!(exit_code(&RpcError::NotFound("no sweep".into()).into()), 2);
        assert_eq!(
            exit_code(
                &RpcError::Unreachable {
                    url: "http://x".into(),
                    message: "refused".into()
                }
                .into()
            ),
            1
        );
        assert_eq!(exit_code(&anyhow::anyhow!("disk full")), 1);
        let stopped = |signal| {
            exit_code(
                &Interrupted {
                    signal,
                    message: "interrupted".into(),
                }
                .into(),
            )
        };
        assert_eq!((stopped(SIGINT), stopped(SIGTERM)), (130, 143));
    }
}
