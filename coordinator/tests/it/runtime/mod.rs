//! Distributed runtime checks with real processes on 127.0.0.1: a coordinator
//! (`gamesweep serve`), worker processes (`gamesweep worker`), the user
//! commands, and raw gRPC clients for the protocol edge cases. Every test
//! works in a fresh temporary directory, takes ports by binding :0, and
//! bounds every wait.

use gamesweep::sweep::{self, Params};
use gamesweep_api::domain::{Overview, SweepState};
use gamesweep_proto::{convert, pb};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::harness;
use crate::support::proc;
use harness::{gs, isolated, ok, port_of, Client, Serve, Worker, BIN, WORKER_BIN};
use proc::{free_port, Proc};

mod cli;
mod processes;
mod protocol;
mod run;
mod sample;

/// results.json of uvg with `max_n`, computed in-process by the core alone.
fn reference(max_n: u64) -> String {
    reference_rendered(&[("max_n", max_n)]).results_json
}

/// Everything uvg renders with these parameters, computed in-process by the
/// core alone.
fn reference_rendered(params: &[(&str, u64)]) -> sweep::Rendered {
    let kind = gamesweep::kinds::find("uvg").unwrap();
    let given = params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
    let params = kind.resolve_params(&given).unwrap();
    let plan = kind.plan(&params, 0).unwrap();
    let merged = sweep::run_all_sequential(kind, &params, &plan).unwrap();
    kind.render(&params, &merged).unwrap()
}

fn report(url: &str, id: &str, out: &Path) -> String {
    ok(&[
        "report",
        id,
        "--coordinator",
        url,
        "--out",
        out.to_str().unwrap(),
    ]);
    std::fs::read_to_string(out.join("results.json")).unwrap()
}

fn url(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn lease(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Client,
    worker: &str,
    version: &gamesweep_api::SolverVersions,
    max: u32,
) -> Result<Vec<pb::Lease>, tonic::Status> {
    rt.block_on(c.lease(pb::LeaseRequest {
        protocol: gamesweep_proto::LEASE_PROTOCOL,
        worker_id: worker.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(version),
        max_shards: max,
    }))
    .map(|r| r.into_inner().leases)
}

fn run_lease(l: &pb::Lease) -> sweep::Output {
    let kind = gamesweep::kinds::find(&l.kind).unwrap();
    let params: Params = convert::params_from_proto(&l.params).unwrap();
    let shard = convert::opt_shard_from_proto(l.shard.clone()).unwrap();
    kind.run_shard(&params, &shard, &sweep::ShardCtx::detached())
        .unwrap()
}

fn submit(
    rt: &tokio::runtime::Runtime,
    c: &mut gamesweep_proto::Client,
    worker: &str,
    version: &gamesweep_api::SolverVersions,
    l: &pb::Lease,
    r: &sweep::Output,
) -> Result<bool, tonic::Status> {
    rt.block_on(c.submit(pb::SubmitRequest {
        worker_id: worker.into(),
        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(version),
        sweep_id: l.sweep_id.clone(),
        index: l.shard.as_ref().unwrap().index,
        attempt: l.attempt,
        lease_token: l.lease_token.clone(),
        result: r.encode(),
        timing: None,
        positions: None,
    }))
    .map(|r| r.into_inner().accepted)
}
