#!/usr/bin/env bash
# Recompute the committed runs too long for the test suite (runs/uvg-n10,
# runs/col-9, runs/myopic-tree-12, runs/myopic-tree-14,
# runs/uvg-local-search-8: minutes each on 2 cores) and compare every file
# byte for byte with the committed one; fails on any difference. The quick
# runs are recomputed by `cargo test` (shared/tests/it/golden.rs). Arguments:
# the runs to recompute (default: all of them).
# Usage: bench/golden-long.sh [RUN...]
set -euo pipefail
cd "$(dirname "$0")/.."
time cargo run --release -p gamesweep --example golden_long -- "$@"
