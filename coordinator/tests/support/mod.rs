//! Helpers shared by the coordinator's two test binaries (`tests/it`,
//! `tests/slow`): a child process killed on drop and the failure of a test
//! whose system component is missing (`proc`), the CLI driven as a process
//! (`cli`), headless Chromium (`browser`), the Grafana dashboard and a plain
//! HTTP GET (`grafana`), the load harness (`load`, also
//! included by `examples/load.rs`), and the userspace TUN link (`tun_link`).
#![allow(dead_code)] // each binary uses what it needs

pub mod browser;
pub mod cli;
pub mod grafana;
pub mod load;
pub mod proc;
pub mod tun_link;
