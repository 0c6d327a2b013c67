//! Lease + submit round trips per second against a running coordinator.
//!
//! `cargo run --release --example rpc_bench -- URL SWEEP_ID CLIENTS`
//!
//! Each of CLIENTS concurrent clients loops: lease one shard, submit an empty
//! result for it (the coordinator stores and flushes it before answering),
//! until the sweep has no pending shard. Prints round trips per second. The
//! sweep's results are meaningless afterwards: use a throwaway store.

use gamesweep_proto::pb;
use std::time::Instant;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (url, sweep, clients) = match args.as_slice() {
        [_, u, s, c] => (u.clone(), s.clone(), c.parse::<usize>().expect("CLIENTS")),
        _ => {
            eprintln!("usage: rpc_bench URL SWEEP_ID CLIENTS");
            std::process::exit(2);
        }
    };
    let version = gamesweep_api::solver_version();
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..clients {
        let mut c = gamesweep_proto::connect_lazy(&url, &Default::default()).expect("client");
        let version = version.clone();
        let sweep = sweep.clone();
        tasks.push(tokio::spawn(async move {
            let mut n = 0u64;
            let mut empty = None;
            loop {
                let leases = c
                    .lease(pb::LeaseRequest {
                        protocol: gamesweep_proto::LEASE_PROTOCOL,
                        worker_id: format!("bench-{i}"),
                        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
                            &version,
                        ),
                        max_shards: 1,
                    })
                    .await
                    .expect("lease")
                    .into_inner()
                    .leases;
                let Some(l) = leases.into_iter().next() else {
                    break;
                };
                assert_eq!(l.sweep_id, sweep);
                let empty = empty
                    .get_or_insert_with(|| {
                        let kind = gamesweep::kinds::find(&l.kind).expect("known kind");
                        kind.empty().encode()
                    })
                    .clone();
                let accepted = c
                    .submit(pb::SubmitRequest {
                        worker_id: format!("bench-{i}"),
                        solver_versions: gamesweep_proto::convert::solver_versions_to_proto(
                            &version,
                        ),
                        sweep_id: l.sweep_id,
                        index: l.shard.expect("shard").index,
                        attempt: l.attempt,
                        lease_token: l.lease_token,
                        result: empty,
                        timing: None,
                        positions: None,
                    })
                    .await
                    .expect("submit")
                    .into_inner()
                    .accepted;
                assert!(accepted);
                n += 1;
            }
            n
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.expect("client task");
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{clients} client(s): {total} lease+submit round trips in {secs:.2} s = {:.0}/s",
        total as f64 / secs
    );
}
