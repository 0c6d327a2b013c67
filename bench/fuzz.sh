#!/usr/bin/env bash
# Long fuzz run (coordinator/tests/it/fuzz/): ITERS inputs per target
# (default 1,000,000; first argument or GAMESWEEP_FUZZ_ITERS), seed SEED
# (second argument or GAMESWEEP_FUZZ_SEED; default: the test's fixed seed).
# Prints one line per target: inputs, seconds, inputs/s, crashes, slow
# inputs (> 2 s); fails if any target crashed or hung, listing the inputs.
# Results are recorded in runs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export GAMESWEEP_FUZZ_ITERS="${1:-${GAMESWEEP_FUZZ_ITERS:-1000000}}"
if [ -n "${2:-}" ]; then export GAMESWEEP_FUZZ_SEED="$2"; fi
cargo test --release -p gamesweep-coordinator --test it --no-run
start=$(date +%s)
cargo test --release -p gamesweep-coordinator --test it -- \
    fuzz::fuzz_every_parser_and_decoder --exact --nocapture 2>&1 |
    grep -E '^fuzz |panicked|^(graph6|digraph6|colouring|gamegraph|proto|store|kind)|test result'
echo "total wall: $(($(date +%s) - start)) s; load: $(uptime)"
