//! The coordinator's integration tests, one binary (one module per former
//! test file; each used to link the whole crate on its own): the real
//! binaries started on loopback and driven end to end, the store, the
//! export format, the dashboard and the boards. The slow or timing-sensitive
//! tests (load, chaos, Slurm, network namespaces) are the second binary,
//! `tests/slow`: cargo runs test binaries one after another, and the tests
//! of one binary in parallel threads, so they never share the two cores
//! with these. Both start and drive the binaries through one harness,
//! `support/harness.rs` (`one_harness` checks that no module grows its own).

#[path = "../support/mod.rs"]
mod support;

mod cli_conventions;
mod cli_limits;
mod dashboard;
mod disk_full;
mod explore;
mod explore_analysis;
mod explore_layered;
mod explore_modules;
mod explore_search;
mod export;
mod extend;
mod faces;
mod figures;
mod fuzz;
mod geng;
mod grafana;
mod health;
mod import_crash;
mod limits;
mod memcap;
mod one_harness;
mod ops_explore;
mod ops_remote;
mod ops_run;
mod ops_serve;
mod parts;
mod patient_liar;
mod pipeline;
mod readme_commands;
mod replay;
mod replicate;
mod retro_recheck;
mod runtime;
mod screens;
mod solve_board;
mod solve_sum;
mod solver_change;
mod store_damage;
mod tls;
mod trust;
mod verify_wait;
