//! The load harness shared by `examples/load.rs` and `tests/slow/load.rs`:
//! simulated workers (tokio tasks over a few HTTP/2 connections, each with
//! its own worker id and lease tokens) lease shards from a running
//! coordinator, compute each result with the kind's own `run_shard` (a
//! `noop` shard costs microseconds), optionally sleep a simulated shard
//! time, and submit it; each loops until the coordinator answers that no
//! unfinished sweep exists. Latencies of every lease and submit are kept.
#![allow(dead_code)] // each user takes what it needs

use gamesweep::sweep::{Params, ShardCtx, ShardSpec};
use gamesweep_proto::pb;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Coordinator URL.
    pub url: String,
    /// Simulated workers.
    pub workers: usize,
    /// HTTP/2 connections they share.
    pub connections: usize,
    /// Simulated time per shard.
    pub shard_ms: u64,
    /// Shards asked for per lease.
    pub max_per_lease: u32,
    /// Give up (an error) after this long.
    pub time_limit: Duration,
}

/// What happened.
#[derive(Debug, Default)]
pub struct LoadReport {
    /// Lease calls made (including those that granted nothing).
    pub lease_calls: u64,
    /// Shards granted.
    pub leased: u64,
    /// Submits answered `accepted`.
    pub accepted: u64,
    /// Submits answered "already done" (duplicates or late).
    pub duplicates: u64,
    /// Wall seconds from the first call to the last task's end.
    pub secs: f64,
    /// Latency (µs) of every lease call, sorted.
    pub lease_us: Vec<u64>,
    /// Latency (µs) of every submit call, sorted.
    pub submit_us: Vec<u64>,
}

/// The q-quantile (0..1) of sorted `v`, nearest rank; 0 if empty.
pub fn quantile(v: &[u64], q: f64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

impl LoadReport {
    /// Leases granted per second.
    pub fn leases_per_sec(&self) -> f64 {
        self.leased as f64 / self.secs.max(1e-9)
    }
    /// Accepted (stored and flushed) submits per second.
    pub fn submits_per_sec(&self) -> f64 {
        self.accepted as f64 / self.secs.max(1e-9)
    }
    /// The figures as one JSON object.
    pub fn json(&self) -> String {
        let lat = |v: &[u64]| {
            format!(
                "{{\"calls\": {}, \"p50_us\": {}, \"p99_us\": {}, \"p999_us\": {}, \"max_us\": {}}}",
                v.len(),
                quantile(v, 0.5),
                quantile(v, 0.99),
                quantile(v, 0.999),
                v.last().copied().unwrap_or(0)
            )
        };
        format!(
            "{{\"secs\": {:.3}, \"lease_calls\": {}, \"leased\": {}, \"accepted\": {}, \"duplicates\": {}, \"leases_per_sec\": {:.1}, \"submits_per_sec\": {:.1}, \"lease\": {}, \"submit\": {}}}",
            self.secs,
            self.lease_calls,
            self.leased,
            self.accepted,
            self.duplicates,
            self.leases_per_sec(),
            self.submits_per_sec(),
            lat(&self.lease_us),
            lat(&self.submit_us)
        )
    }
    /// The figures as a few lines of text.
    pub fn text(&self) -> String {
        let lat = |name: &str, v: &[u64]| {
            format!(
                "{name}: {} calls, p50 {:.2} ms, p99 {:.2} ms, p999 {:.2} ms, max {:.2} ms\n",
                v.len(),
                quantile(v, 0.5) as f64 / 1e3,
                quantile(v, 0.99) as f64 / 1e3,
                quantile(v, 0.999) as f64 / 1e3,
                v.last().copied().unwrap_or(0) as f64 / 1e3
            )
        };
        format!(
            "{} shards leased, {} submits accepted ({} duplicates) in {:.2} s: {:.0} leases/s, {:.0} durable submits/s\n{}{}",
            self.leased,
            self.accepted,
            self.duplicates,
            self.secs,
            self.leases_per_sec(),
            self.submits_per_sec(),
            lat("lease", &self.lease_us),
            lat("submit", &self.submit_us)
        )
    }
}

/// One simulated worker's loop; its counters and latencies.
async fn simulated_worker(
    mut c: gamesweep_proto::Client,
    id: String,
    cfg: LoadConfig,
    deadline: Instant,
) -> Result<LoadReport, String> {
    let version = gamesweep_api::solver_version();
    let mut r = LoadReport::default();
    loop {
        if Instant::now() > deadline {
            return Err(format!("{id}: still leasing after {:?}", cfg.time_limit));
        }
        let t = Instant::now();
        let reply = c
            .lease(pb::LeaseRequest {
                protocol: gamesweep_proto::LEASE_PROTOCOL,
                worker_id: id.clone(),
                solver_versions: gamesweep_proto::convert::solver_versions_to_proto(&version),
                max_shards: cfg.max_per_lease,
            })
            .await
            .map_err(|e| format!("{id}: lease: {}", e.message()))?
            .into_inner();
        r.lease_us.push(t.elapsed().as_micros() as u64);
        r.lease_calls += 1;
        if reply.leases.is_empty() {
            if reply.idle {
                return Ok(r);
            }
            // Everything left is leased to others (or awaits verification).
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        r.leased += reply.leases.len() as u64;
        if cfg.shard_ms > 0 {
            tokio::time::sleep(Duration::from_millis(cfg.shard_ms)).await;
        }
        for l in reply.leases {
            let kind = gamesweep::kinds::find(&l.kind).map_err(|e| format!("{id}: {e}"))?;
            let params: Params = l.params.iter().map(|p| (p.name.clone(), p.value)).collect();
            let s = l
                .shard
                .ok_or_else(|| format!("{id}: a lease without a shard"))?;
            let spec = ShardSpec {
                index: s.index,
                payload: s.payload,
                estimate: s.estimate,
            };
            let out = kind
                .run_shard(&params, &spec, &ShardCtx::detached())
                .map_err(|e| format!("{id}: shard {}: {e}", spec.index))?;
            let t = Instant::now();
            let accepted = c
                .submit(pb::SubmitRequest {
                    worker_id: id.clone(),
                    solver_versions: gamesweep_proto::convert::solver_versions_to_proto(&version),
                    sweep_id: l.sweep_id,
                    index: spec.index,
                    attempt: l.attempt,
                    lease_token: l.lease_token,
                    result: out.encode(),
                    timing: None,
                    positions: None,
                })
                .await
                .map_err(|e| format!("{id}: submit of shard {}: {}", spec.index, e.message()))?
                .into_inner()
                .accepted;
            r.submit_us.push(t.elapsed().as_micros() as u64);
            if accepted {
                r.accepted += 1;
            } else {
                r.duplicates += 1;
            }
        }
    }
}

/// Run `cfg.workers` simulated workers until the coordinator has no
/// unfinished sweep; an error (one line) if a call fails or time runs out.
pub async fn run_load(cfg: LoadConfig) -> Result<LoadReport, String> {
    if cfg.workers == 0 || cfg.connections == 0 || cfg.max_per_lease == 0 {
        return Err("workers, connections and max-per-lease must be at least 1".into());
    }
    let clients = (0..cfg.connections)
        .map(|_| {
            gamesweep_proto::connect_lazy(&cfg.url, &Default::default())
                .map_err(|e| format!("{}: {e}", cfg.url))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let start = Instant::now();
    let deadline = start + cfg.time_limit;
    let tasks: Vec<_> = (0..cfg.workers)
        .map(|i| {
            let c = clients[i % clients.len()].clone();
            tokio::spawn(simulated_worker(
                c,
                format!("load-{i}"),
                cfg.clone(),
                deadline,
            ))
        })
        .collect();
    let mut total = LoadReport::default();
    let mut first_err = None;
    for t in tasks {
        match t.await {
            Ok(Ok(r)) => {
                total.lease_calls += r.lease_calls;
                total.leased += r.leased;
                total.accepted += r.accepted;
                total.duplicates += r.duplicates;
                total.lease_us.extend(r.lease_us);
                total.submit_us.extend(r.submit_us);
            }
            Ok(Err(e)) => {
                first_err.get_or_insert(e);
            }
            Err(e) => {
                first_err.get_or_insert(format!("a simulated worker panicked: {e}"));
            }
        }
    }
    total.secs = start.elapsed().as_secs_f64();
    if let Some(e) = first_err {
        return Err(e);
    }
    total.lease_us.sort_unstable();
    total.submit_us.sort_unstable();
    Ok(total)
}
