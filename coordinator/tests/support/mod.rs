//! Helpers shared by the coordinator's two test binaries (`tests/it`,
//! `tests/slow`): a child process killed on drop and the failure of a test
//! whose system component is missing (`proc`), the one harness that starts
//! and drives the binaries — one-shot commands, a coordinator, workers,
//! status (`harness`) — headless Chromium (`browser`), the Grafana dashboard and a plain
//! HTTP GET (`grafana`), the load harness (`load`, also
//! included by `examples/load.rs`), and the userspace TUN link (`tun_link`).
#![allow(dead_code)] // each binary uses what it needs

pub mod browser;
pub mod grafana;
pub mod harness;
pub mod load;
pub mod proc;
pub mod tun_link;
