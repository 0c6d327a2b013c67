//! The coordinator's slow or timing-sensitive integration tests, the second
//! test binary (the rest are `tests/it`): the load harness at CI size, the
//! chaos runs, the seeded kill/restart schedules, Slurm, network namespaces
//! and the container image (podman).
//! Cargo runs this binary after (never beside) the other, and its heavy
//! tests take [`serial`] first, so each has the machine to itself and its
//! timings mean something.

#[path = "../support/mod.rs"]
mod support;

mod chaos;
mod chaos_trust;
mod container;
mod fairness;
mod load;
mod netns;
mod prometheus;
mod schedules;
mod slurm;

use std::sync::{Mutex, MutexGuard};

/// One heavy test at a time (the libtest harness runs the tests of a binary
/// in parallel threads).
static SERIAL: Mutex<()> = Mutex::new(());

/// Hold this for the whole of a heavy test; a failed test's poisoned lock
/// still serves the next.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}
