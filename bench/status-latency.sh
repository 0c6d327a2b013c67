#!/usr/bin/env bash
# Status latency of an in-memory core at 65,536 and 1,048,576 shards (32,768
# done, 2,048 leased to 8 workers, 136 workers known; 200 calls each): the
# `status` call and the dashboard's positions per worker (the /metrics text
# is rendered by gamesweep-serve, above the engine, and no longer timed here)
# (runs/benchmarks/2026-12.md, "Status at 65,536 and 1,048,576 shards").
# A measurement, not a test: it needs the core's internals, so it lives in
# the engine's unit tests (gamesweep-engine) behind the `measurements` feature, which
# `cargo test` (CI included) never enables.
set -euo pipefail
cd "$(dirname "$0")/.."
time cargo test --release -p gamesweep-engine --features measurements --lib -- \
  --ignored --nocapture --exact core::tests::tally::latency::status_latency
