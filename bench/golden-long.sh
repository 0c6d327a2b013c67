#!/usr/bin/env bash
# Recompute the committed runs too long for the test suite (runs/uvg-n10,
# runs/col-9, runs/myopic-tree-12: minutes each on 2 cores) and compare every
# file byte for byte with the committed one. The quick runs are recomputed by
# `cargo test` (shared/tests/golden.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
time cargo test --release -p gamesweep --test golden -- --ignored --nocapture long_runs_recompute_byte_identical
