#!/usr/bin/env bash
# Status latency of an in-memory core at 65,536 and 1,048,576 shards (32,768
# done, 2,048 leased to 8 workers, 136 workers known; 200 calls each): the
# `status` call, the dashboard's positions per worker and the /metrics text
# (runs/BENCHMARKS.md, "Status at 65,536 and 1,048,576 shards").
# A measurement, not a test: it needs the core's internals, so it lives in
# the crate's unit tests behind the `measurements` feature, which
# `cargo test` (CI included) never enables.
set -euo pipefail
cd "$(dirname "$0")/.."
time cargo test --release -p gamesweep-coordinator --features measurements --lib -- \
  --ignored --nocapture --exact core::tally_test::latency::status_latency
