#!/usr/bin/env bash
# The start-up cost of the journal check at 1,000,000 done shards (noop
# results of 64 padding bytes, as the load harness sends): builds the store
# (about a minute), then prints the whole start and the check's parts
# (journal replay, SHA-256 of every result, seal CRCs).
# A measurement, not a test: it needs the core's internals, so it lives in
# the engine's unit tests (gamesweep-engine) behind the `measurements` feature, which
# `cargo test` (CI included) never enables.
set -euo pipefail
cd "$(dirname "$0")/.."
time cargo test --release -p gamesweep-engine --features measurements --lib -- \
  --ignored --nocapture --exact core::recovery::tests::startup_check_cost_at_a_million_done_shards
