//! Usage errors and the process exit code.
//!
//! Exit code 2: the user's input was wrong (a [`UsageError`], a kind's
//! parameter error, or a coordinator refusing the request: unknown or
//! existing sweep, bad parameters). Exit code 1: a failure while running.

/// An error in what the user typed (exit code 2), as opposed to a failure while running (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Map an error to the process exit code: 2 for bad input, 1 otherwise.
pub fn exit_code(err: &anyhow::Error) -> i32 {
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
    }
}
