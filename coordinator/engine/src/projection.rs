//! Projecting a whole sweep's cost from a seeded random sample of its shards
//! (`launch`/`run --sample`), so a sweep too big to try (UVG at n = 11) can be
//! priced before it is run.
//!
//! Only sampled shards that are done **and** carry a worker timing are used:
//! they give the rate (positions per CPU second). The whole sweep's positions
//! are the plan's total estimate (a sum of probes over every prefix: 0.06 %
//! off at uvg n = 11, 0.25 % at n = 12, where single shards' estimates were
//! off by up to 12×), and its CPU is those positions at the measured rate.
//! The sample's positions scaled by their shards' estimates are reported as
//! a check. Wall time on `c` cores is simulated by handing the shards out in
//! the coordinator's lease order (largest estimate first) to whichever core
//! is free first, each taking its estimate at the measured rate; the plain
//! lower bound `cpu / c` is given beside it.
//!
//! CPU time alone is what the shards cost on an idle core. On a busy machine
//! a shard's thread gets less than a core, and the wall clock is what a
//! researcher waits for: the same schedule is also given at the measured
//! *wall* rate (positions per second of each shard's wall time), and the
//! share of a core the shards' threads got (CPU ÷ wall) says how busy the
//! machine was; below [`BUSY_CPU_SHARE`] the projection says so. `run
//! --sample` adds the machine's load average over the run against its
//! cores ([`MachineLoad`]).
//!
//! JSON (`gamesweep project ID --json`, keys as below, stable):
//! `{"sweep_id", "kind", "params", "shards_total", "estimate_total",
//!   "sample": {"seed", "ppm", "shards": [index...], "done",
//!              "estimate_share"},
//!   "measured": {"shards", "shard_ids": [index...], "positions", "estimate",
//!                "cpu_seconds", "wall_seconds", "cpu_share", "busy",
//!                "positions_per_core_second", "positions_per_wall_second",
//!                "shard_seconds": {"min", "median", "max", "max_shard"},
//!                "work_over_estimate": {"min", "median", "max"}},
//!   "projected": {"positions", "positions_sample_scaled", "cpu_seconds", "share_run",
//!                 "wall": [{"cores", "seconds", "lower_bound_seconds",
//!                           "seconds_at_wall_rate"}...]},
//!   "machine" (only from `run --sample`): {"cores", "load_average", "busy"}}`

use crate::store::{SampleRecord, ShardTiming};
use gamesweep::sweep::{thousands, Params, ShardSpec};
use serde::Serialize;
use std::collections::BTreeMap;

/// What [`project`] computes.
#[derive(Clone, Debug, Serialize)]
pub struct Projection {
    /// The sweep.
    pub sweep_id: String,
    /// Its kind.
    pub kind: String,
    /// Its parameters.
    pub params: Params,
    /// Shards in the whole plan.
    pub shards_total: u32,
    /// Sum of the plan's estimates.
    pub estimate_total: u64,
    /// The sample as launched.
    pub sample: SampleInfo,
    /// What the sampled shards measured.
    pub measured: Measured,
    /// The whole sweep, projected.
    pub projected: Projected,
    /// The machine's load over the run that measured the sample (`run
    /// --sample`, which runs on it; `None` from a coordinator, whose workers
    /// are elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineLoad>,
}

/// Below this share of a core per shard thread (CPU ÷ wall), the machine
/// was busy with other work while the sample ran: its wall times are
/// longer than an idle machine's.
pub const BUSY_CPU_SHARE: f64 = 0.85;

/// The load of the machine a sample ran on, over the run.
#[derive(Clone, Debug, Serialize)]
pub struct MachineLoad {
    /// Its cores.
    pub cores: u32,
    /// The 1-minute load average, averaged over the run.
    pub load_average: f64,
    /// Busy: the load average exceeded the cores (more runnable threads
    /// than cores: each got less than a core).
    pub busy: bool,
}

impl MachineLoad {
    /// `load_average` on `cores` cores (busy above the cores).
    pub fn new(cores: u32, load_average: f64) -> Self {
        MachineLoad {
            cores,
            load_average,
            busy: load_average > cores as f64 + 0.5,
        }
    }
}

/// The sample as launched.
#[derive(Clone, Debug, Serialize)]
pub struct SampleInfo {
    /// Shuffle seed.
    pub seed: u64,
    /// Target share of the plan's estimate, millionths.
    pub ppm: u32,
    /// Sampled shard indices, in the order picked.
    pub shards: Vec<u32>,
    /// How many of them are done.
    pub done: u32,
    /// Their share of the plan's total estimate.
    pub estimate_share: f64,
}

/// Smallest, median and largest of a list.
#[derive(Clone, Debug, Serialize)]
pub struct Spread {
    /// Smallest.
    pub min: f64,
    /// Median (mean of the middle two for an even count).
    pub median: f64,
    /// Largest.
    pub max: f64,
}

/// Shard times, with the slowest shard's index.
#[derive(Clone, Debug, Serialize)]
pub struct ShardSeconds {
    /// Smallest.
    pub min: f64,
    /// Median.
    pub median: f64,
    /// Largest.
    pub max: f64,
    /// Index of the slowest shard.
    pub max_shard: u32,
}

/// Measurements over the done, timed sampled shards.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// Shards used.
    pub shards: u32,
    /// Their indices.
    pub shard_ids: Vec<u32>,
    /// Positions they covered.
    pub positions: u64,
    /// Their estimates' sum.
    pub estimate: u64,
    /// CPU seconds (wall seconds where a worker gave no CPU time).
    pub cpu_seconds: f64,
    /// Wall seconds, summed over shards.
    pub wall_seconds: f64,
    /// CPU ÷ wall: the share of a core each shard's thread got (about 1 on
    /// an idle machine).
    pub cpu_share: f64,
    /// The machine was busy: `cpu_share` below [`BUSY_CPU_SHARE`].
    pub busy: bool,
    /// Positions per CPU second.
    pub positions_per_core_second: f64,
    /// Positions per second of shard wall time (per worker thread).
    pub positions_per_wall_second: f64,
    /// Per-shard CPU seconds.
    pub shard_seconds: ShardSeconds,
    /// Per-shard positions divided by estimate (how good the estimates are).
    pub work_over_estimate: Spread,
}

/// Wall time on some number of cores.
#[derive(Clone, Debug, Serialize)]
pub struct Wall {
    /// Cores (one worker thread each).
    pub cores: u32,
    /// Simulated largest-estimate-first schedule.
    pub seconds: f64,
    /// CPU seconds divided by cores.
    pub lower_bound_seconds: f64,
    /// The same schedule at the measured wall rate: what it takes if the
    /// machines are as busy as the one that ran the sample.
    pub seconds_at_wall_rate: f64,
}

/// The whole sweep, projected from the sample.
#[derive(Clone, Debug, Serialize)]
pub struct Projected {
    /// Positions in the whole sweep (the plan's total estimate).
    pub positions: u64,
    /// Check: the sample's positions scaled by the plan's estimate over theirs.
    pub positions_sample_scaled: u64,
    /// CPU seconds for the whole sweep.
    pub cpu_seconds: f64,
    /// Share of the projected positions the measured shards covered.
    pub share_run: f64,
    /// Wall time per core count.
    pub wall: Vec<Wall>,
}

/// Inputs of [`project`] that come from the coordinator's state.
pub struct SweepFacts<'a> {
    /// Sweep id.
    pub sweep_id: &'a str,
    /// Kind name.
    pub kind: &'a str,
    /// Parameters.
    pub params: &'a Params,
    /// The plan.
    pub plan: &'a [ShardSpec],
    /// The sample.
    pub sample: &'a SampleRecord,
    /// Positions of each done shard.
    pub work: &'a BTreeMap<u32, u64>,
    /// Timings of the accepted results.
    pub timings: &'a BTreeMap<u32, ShardTiming>,
}

fn spread(mut v: Vec<f64>) -> Spread {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Spread {
        min: v[0],
        median,
        max: v[n - 1],
    }
}

/// Why there is nothing to project yet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("none of the {sampled} sampled shards of `{sweep_id}` is done with a timing yet ({done} done); wait for the workers (see `gamesweep status {sweep_id}`)")]
pub struct NothingToProject {
    /// Shards in the sample.
    pub sampled: usize,
    /// The sweep.
    pub sweep_id: String,
    /// Sampled shards done (without a timing).
    pub done: u32,
}

/// Project the whole sweep from its done, timed sampled shards; `Err` says
/// why there is nothing to project yet.
pub fn project(f: &SweepFacts<'_>, cores: &[u32]) -> Result<Projection, NothingToProject> {
    let est = |i: u32| f.plan[i as usize].estimate;
    let estimate_total: u64 = f.plan.iter().map(|s| s.estimate).sum();
    let sample_est: u64 = f.sample.shards.iter().map(|&i| est(i)).sum();
    let used: Vec<(u32, u64, &ShardTiming)> = f
        .sample
        .shards
        .iter()
        .filter_map(|&i| Some((i, *f.work.get(&i)?, f.timings.get(&i)?)))
        .collect();
    let done = f
        .sample
        .shards
        .iter()
        .filter(|i| f.work.contains_key(i))
        .count() as u32;
    if used.is_empty() {
        return Err(NothingToProject {
            sampled: f.sample.shards.len(),
            sweep_id: f.sweep_id.to_string(),
            done,
        });
    }
    let measured = measured(f, &used);
    let (positions, estimate) = (measured.positions, measured.estimate);
    let (cpu, wall) = (measured.cpu_seconds, measured.wall_seconds);
    // Positions: the plan's total estimate, which sums probes over every
    // prefix and so is far steadier than any one shard's estimate; CPU: those
    // positions at the sample's measured rate. Without estimates, every shard
    // counts the same. The ratio estimator (sample positions scaled by
    // estimate) is kept as a check: it is only as good as the few sampled
    // shards' own estimates.
    let rate = positions as f64 / cpu.max(1e-9);
    let (proj_positions, scaled_positions, secs_per_est) = if estimate > 0 && estimate_total > 0 {
        let scaled = positions as f64 * estimate_total as f64 / estimate as f64;
        (estimate_total, scaled.round() as u64, 1.0 / rate)
    } else {
        let scaled = positions as f64 * f.plan.len() as f64 / used.len() as f64;
        let scaled = scaled.round() as u64;
        (scaled, scaled, 0.0)
    };
    let proj_cpu = proj_positions as f64 / rate;
    let mean_secs = cpu / used.len() as f64;
    let shard_secs = shard_seconds(f.plan, secs_per_est, mean_secs);
    let wall_per_cpu = if cpu > 0.0 { wall / cpu } else { 1.0 };
    Ok(Projection {
        sweep_id: f.sweep_id.to_string(),
        kind: f.kind.to_string(),
        params: f.params.clone(),
        shards_total: f.plan.len() as u32,
        estimate_total,
        sample: SampleInfo {
            seed: f.sample.seed,
            ppm: f.sample.ppm,
            shards: f.sample.shards.clone(),
            done,
            estimate_share: if estimate_total > 0 {
                sample_est as f64 / estimate_total as f64
            } else {
                f.sample.shards.len() as f64 / f.plan.len() as f64
            },
        },
        measured,
        projected: Projected {
            positions: proj_positions,
            positions_sample_scaled: scaled_positions,
            cpu_seconds: proj_cpu,
            share_run: if proj_positions > 0 {
                positions as f64 / proj_positions as f64
            } else {
                0.0
            },
            wall: cores
                .iter()
                .map(|&c| wall_on(&shard_secs, c, proj_cpu, wall_per_cpu))
                .collect(),
        },
        machine: None,
    })
}

/// A shard's measured time: its CPU time, or its wall time when the worker
/// gave none.
fn secs(t: &ShardTiming) -> f64 {
    if t.cpu_us > 0 {
        t.cpu_us as f64 / 1e6
    } else {
        t.wall_us as f64 / 1e6
    }
}

/// What the `used` sampled shards (index, positions, timing) of `f`
/// measured.
fn measured(f: &SweepFacts<'_>, used: &[(u32, u64, &ShardTiming)]) -> Measured {
    let est = |i: u32| f.plan[i as usize].estimate;
    let positions: u64 = used.iter().map(|u| u.1).sum();
    let estimate: u64 = used.iter().map(|u| est(u.0)).sum();
    let cpu: f64 = used.iter().map(|u| secs(u.2)).sum();
    let wall: f64 = used.iter().map(|u| u.2.wall_us as f64 / 1e6).sum();
    let max_shard = used
        .iter()
        .max_by(|a, b| secs(a.2).total_cmp(&secs(b.2)))
        .map_or(0, |u| u.0);
    let times = spread(used.iter().map(|u| secs(u.2)).collect());
    let ratios = spread(
        used.iter()
            .map(|u| u.1 as f64 / est(u.0).max(1) as f64)
            .collect(),
    );
    // Wall time per CPU time of the sampled shards (1 when no worker gave
    // a CPU time: then both are the wall time).
    let cpu_share = if wall > 0.0 {
        (cpu / wall).min(1.0)
    } else {
        1.0
    };
    Measured {
        shards: used.len() as u32,
        shard_ids: used.iter().map(|u| u.0).collect(),
        positions,
        estimate,
        cpu_seconds: cpu,
        wall_seconds: wall,
        cpu_share,
        busy: cpu_share < BUSY_CPU_SHARE,
        positions_per_core_second: if cpu > 0.0 {
            positions as f64 / cpu
        } else {
            0.0
        },
        positions_per_wall_second: if wall > 0.0 {
            positions as f64 / wall
        } else {
            0.0
        },
        shard_seconds: ShardSeconds {
            min: times.min,
            median: times.median,
            max: times.max,
            max_shard,
        },
        work_over_estimate: ratios,
    }
}

/// Every shard's projected seconds, largest estimate first: by its estimate
/// at `secs_per_est` seconds each, or `mean_secs` without estimates.
fn shard_seconds(plan: &[ShardSpec], secs_per_est: f64, mean_secs: f64) -> Vec<f64> {
    let mut order: Vec<&ShardSpec> = plan.iter().collect();
    order.sort_by_key(|s| std::cmp::Reverse(s.estimate));
    order
        .iter()
        .map(|s| {
            if secs_per_est > 0.0 {
                s.estimate as f64 * secs_per_est
            } else {
                mean_secs
            }
        })
        .collect()
}

/// The wall time of shards of `shard_secs` seconds on `c` cores (of a run
/// of `proj_cpu` CPU seconds, whose sample took `wall_per_cpu` wall seconds
/// per CPU second).
fn wall_on(shard_secs: &[f64], c: u32, proj_cpu: f64, wall_per_cpu: f64) -> Wall {
    let c = c.max(1);
    // Greedy list schedule: each shard goes to the core free first.
    let mut free: std::collections::BinaryHeap<std::cmp::Reverse<u64>> =
        (0..c).map(|_| std::cmp::Reverse(0u64)).collect();
    for &t in shard_secs {
        let std::cmp::Reverse(at) = free.pop().expect("c >= 1");
        free.push(std::cmp::Reverse(at + (t * 1e6).round() as u64));
    }
    let end = free.into_iter().map(|r| r.0).max().unwrap_or(0);
    Wall {
        cores: c,
        seconds: end as f64 / 1e6,
        lower_bound_seconds: proj_cpu / c as f64,
        seconds_at_wall_rate: end as f64 / 1e6 * wall_per_cpu,
    }
}

fn dur(secs: f64) -> String {
    if secs < 120.0 {
        format!("{secs:.1} s")
    } else if secs < 2.0 * 3600.0 {
        format!("{:.1} min", secs / 60.0)
    } else if secs < 3.0 * 86400.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.1} days", secs / 86400.0)
    }
}

/// The Markdown rendering.
pub fn render_md(p: &Projection) -> String {
    let params = gamesweep_api::text::flags(&p.params);
    let m = &p.measured;
    let mut s = format!(
        "# Projection: `{} {}` (sweep `{}`)\n\n",
        p.kind, params, p.sweep_id
    );
    s.push_str(&format!(
        "Sample: seed {}, target {:.4} % of the plan's estimated positions; {} of {} shards picked \
         ({:.4} % of the estimate), {} done.\n\n",
        p.sample.seed,
        p.sample.ppm as f64 / 1e4,
        p.sample.shards.len(),
        p.shards_total,
        100.0 * p.sample.estimate_share,
        p.sample.done
    ));
    s.push_str("## Measured on the sampled shards\n\n| quantity | value |\n|---|---|\n");
    let ids: Vec<String> = m.shard_ids.iter().map(|i| i.to_string()).collect();
    s.push_str(&format!(
        "| shards used | {} ({}) |\n",
        m.shards,
        ids.join(", ")
    ));
    s.push_str(&format!("| positions | {} |\n", thousands(m.positions)));
    s.push_str(&format!(
        "| CPU time | {:.1} s (wall, summed over shards: {:.1} s) |\n",
        m.cpu_seconds, m.wall_seconds
    ));
    s.push_str(&format!(
        "| CPU ÷ wall per shard thread | {:.0} %{} |\n",
        100.0 * m.cpu_share,
        if m.busy {
            " (**busy machine**: each shard's thread got well under a core)"
        } else {
            ""
        }
    ));
    s.push_str(&format!(
        "| positions / s / core | {} |\n",
        thousands(m.positions_per_core_second.round() as u64)
    ));
    s.push_str(&format!(
        "| shard time min / median / max | {:.2} / {:.2} / {:.2} s (slowest: shard {}) |\n",
        m.shard_seconds.min, m.shard_seconds.median, m.shard_seconds.max, m.shard_seconds.max_shard
    ));
    s.push_str(&format!(
        "| positions ÷ estimate, min / median / max | {:.3} / {:.3} / {:.3} |\n\n",
        m.work_over_estimate.min, m.work_over_estimate.median, m.work_over_estimate.max
    ));
    let pr = &p.projected;
    s.push_str("## Projected for the whole sweep\n\n");
    s.push_str(&format!(
        "Positions: {} (the plan's estimate; the sample's positions scaled by their shards' \
         estimates give {}); the measured shards are {:.3} % of them. CPU: {} at the measured \
         rate.\n\n",
        thousands(pr.positions),
        thousands(pr.positions_sample_scaled),
        100.0 * pr.share_run,
        dur(pr.cpu_seconds)
    ));
    s.push_str("| cores | projected wall, from CPU time (largest-first schedule) | lower bound (CPU ÷ cores) | projected wall at the measured wall rate |\n|---|---|---|---|\n");
    for w in &pr.wall {
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            w.cores,
            dur(w.seconds),
            dur(w.lower_bound_seconds),
            dur(w.seconds_at_wall_rate)
        ));
    }
    s.push_str(&format!(
        "\nFrom CPU time: idle cores, one worker thread each. At the wall rate: machines as busy \
         as the one that ran the sample (its shard threads got {:.0} % of a core).\n",
        100.0 * m.cpu_share
    ));
    if let Some(l) = &p.machine {
        s.push_str(&format!(
            "\nThe machine's load average over the run was {:.1} on {} cores{}.\n",
            l.load_average,
            l.cores,
            if l.busy {
                ": **busy** (more runnable threads than cores); the CPU-time figures assume idle cores, the wall-rate ones this load"
            } else {
                ""
            }
        ));
    }
    if m.busy {
        s.push_str(
            "\n**The machine was busy while the sample ran**: expect wall times nearer the wall-rate \
             column than the CPU-time one unless the sweep runs on idle cores.\n",
        );
    }
    s.push_str(
        "\nShard times in the schedule are each shard's estimate at the measured rate; coordinator \
         round trips are not included (one lease and one submit per shard).\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `run uvg --max-n 11 --sample 1%` took 121 s of wall time on
    /// a loaded machine and projected 57 min on 2 cores from CPU time only.
    /// Now the wall rate gives its own column, and a busy machine is said.
    #[test]
    fn a_busy_machine_gets_wall_clock_figures_and_is_named() {
        let plan: Vec<ShardSpec> = (0..100)
            .map(|i| ShardSpec {
                index: i,
                payload: String::new(),
                estimate: 1000,
            })
            .collect();
        let sample = SampleRecord {
            ppm: 10_000,
            seed: 1,
            shards: vec![0],
            limited: true,
        };
        let work: BTreeMap<u32, u64> = [(0, 1000)].into();
        // 0.68 s of CPU over 2.42 s of wall: the thread got 28 % of a core.
        let timings: BTreeMap<u32, ShardTiming> = [(
            0,
            ShardTiming {
                wall_us: 2_420_000,
                cpu_us: 680_000,
                worker: "w".into(),
            },
        )]
        .into();
        let params = Params::new();
        let f = SweepFacts {
            sweep_id: "s",
            kind: "uvg",
            params: &params,
            plan: &plan,
            sample: &sample,
            work: &work,
            timings: &timings,
        };
        let mut p = project(&f, &[2]).unwrap();
        assert!(p.measured.busy, "{:?}", p.measured);
        assert!((p.measured.cpu_share - 0.68 / 2.42).abs() < 1e-9);
        // From CPU: 100 shards of 0.68 s on 2 cores = 34 s; at the wall
        // rate, 121 s (what the sample's pace says).
        let w = &p.projected.wall[0];
        assert!((w.seconds - 34.0).abs() < 1e-3, "{w:?}");
        assert!((w.seconds_at_wall_rate - 121.0).abs() < 1e-3, "{w:?}");
        assert!((p.measured.positions_per_wall_second - 1000.0 / 2.42).abs() < 1e-9);
        p.machine = Some(MachineLoad::new(2, 3.9));
        let md = render_md(&p);
        assert!(md.contains("| 2 | 34.0 s | 34.0 s | 2.0 min |"), "{md}");
        assert!(
            md.contains("| CPU ÷ wall per shard thread | 28 % (**busy machine**"),
            "{md}"
        );
        assert!(
            md.contains("The machine's load average over the run was 3.9 on 2 cores: **busy**"),
            "{md}"
        );
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["machine"]["busy"], true);
        assert_eq!(json["measured"]["busy"], true);
        assert!(!MachineLoad::new(2, 1.2).busy);
    }

    #[test]
    fn projection_scales_the_sample_and_schedules_shards() {
        // 10 shards estimated 100 each; actual work 110 each, 1 s of CPU each.
        let plan: Vec<ShardSpec> = (0..10)
            .map(|i| ShardSpec {
                index: i,
                payload: String::new(),
                estimate: 100,
            })
            .collect();
        let sample = SampleRecord {
            ppm: 200_000,
            seed: 3,
            shards: vec![4, 7],
            limited: true,
        };
        let work: BTreeMap<u32, u64> = [(4, 110), (7, 110), (1, 999)].into();
        let t = |us| ShardTiming {
            wall_us: us + 5,
            cpu_us: us,
            worker: "w".into(),
        };
        let timings: BTreeMap<u32, ShardTiming> = [(4, t(1_000_000)), (7, t(1_000_000))].into();
        let params = Params::new();
        let f = SweepFacts {
            sweep_id: "s",
            kind: "k",
            params: &params,
            plan: &plan,
            sample: &sample,
            work: &work,
            timings: &timings,
        };
        let p = project(&f, &[1, 3, 64]).unwrap();
        assert_eq!(p.measured.shard_ids, vec![4, 7], "only sampled shards");
        assert_eq!(p.measured.positions, 220);
        // Positions: the plan's estimate (10 × 100); the sample-scaled check: 1100.
        assert_eq!(p.projected.positions, 1000);
        assert_eq!(p.projected.positions_sample_scaled, 1100);
        // 110 positions per CPU second: 1000 positions take 100/11 s.
        let secs = 1000.0 / 110.0;
        assert!((p.measured.positions_per_core_second - 110.0).abs() < 1e-9);
        assert!((p.projected.cpu_seconds - secs).abs() < 1e-9);
        assert!((p.projected.wall[0].seconds - secs).abs() < 1e-5);
        // 10 equal shards on 3 cores: 4 rounds.
        assert!((p.projected.wall[1].seconds - 0.4 * secs).abs() < 1e-5);
        assert!((p.projected.wall[2].seconds - 0.1 * secs).abs() < 1e-5);
        assert!((p.sample.estimate_share - 0.2).abs() < 1e-9);
        let md = render_md(&p);
        assert!(md.contains("| shards used | 2 (4, 7) |"), "{md}");
        // An idle machine: CPU ≈ wall, not busy, both columns about equal.
        assert!(!p.measured.busy && p.measured.cpu_share > 0.99);
        assert!(!md.contains("**busy") && !md.contains("was busy"), "{md}");
        // Nothing done yet: a clear error.
        let none = BTreeMap::new();
        let f = SweepFacts { work: &none, ..f };
        assert!(project(&f, &[2])
            .unwrap_err()
            .to_string()
            .contains("none of the 2 sampled shards"));
    }
}
