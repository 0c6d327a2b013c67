//! The load harness: simulated workers against a running coordinator.
//!
//! `cargo run --release --example load -- --coordinator URL [--workers N]
//! [--connections C] [--shard-ms D] [--max-per-lease L] [--time-limit SECS]`
//!
//! N tokio tasks share C HTTP/2 connections; each, with its own worker id,
//! loops lease (up to L shards) → compute the results (`run_shard`, cheap
//! for the `noop` kind) → sleep D ms → submit each, until the coordinator
//! says no unfinished sweep exists. Prints the figures as text on stderr
//! and one JSON object on stdout: leases/s, durable submits/s, p50/p99/p999
//! of lease and submit. `bench/load.sh` launches the sweep and adds the
//! coordinator's CPU, memory, store size and restart time.

#[path = "../tests/support/load.rs"]
mod load;

use std::time::Duration;

fn usage(msg: &str) -> ! {
    eprintln!("error: {msg} (usage: load --coordinator URL [--workers N] [--connections C] [--shard-ms D] [--max-per-lease L] [--time-limit SECS])");
    std::process::exit(2);
}

fn main() {
    let mut cfg = load::LoadConfig {
        url: String::new(),
        workers: 200,
        connections: 4,
        shard_ms: 0,
        max_per_lease: 1,
        time_limit: Duration::from_secs(3600),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(v) = it.next() else {
            usage(&format!("{a} needs a value"));
        };
        let num = |v: &str| -> u64 {
            v.parse()
                .unwrap_or_else(|_| usage(&format!("{a}: {v:?} is not a whole number")))
        };
        match a.as_str() {
            "--coordinator" => cfg.url = v.clone(),
            "--workers" => cfg.workers = num(v) as usize,
            "--connections" => cfg.connections = num(v) as usize,
            "--shard-ms" => cfg.shard_ms = num(v),
            "--max-per-lease" => {
                cfg.max_per_lease =
                    u32::try_from(num(v)).unwrap_or_else(|_| usage("--max-per-lease is too large"))
            }
            "--time-limit" => cfg.time_limit = Duration::from_secs(num(v)),
            _ => usage(&format!("unknown option {a}")),
        }
    }
    if cfg.url.is_empty() {
        usage("--coordinator is required");
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| usage(&format!("tokio runtime: {e}")));
    match rt.block_on(load::run_load(cfg)) {
        Ok(r) => {
            eprint!("{}", r.text());
            println!("{}", r.json());
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
