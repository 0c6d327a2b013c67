#!/usr/bin/env bash
# Benchmark: the whole n <= 9 UVG sweep (generation included, all starts), and n = 10.
# Usage: bench/uvg.sh [max_n]   (default 9). Prints wall times; record them in runs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-9}
cargo build --release -q
BIN=target/release/gamesweep
OUT=$(mktemp -d)
for t in 1 2; do
  /usr/bin/time -f "uvg --max-n $N, threads $t: %e s wall, %M KiB max RSS" \
    "$BIN" run uvg --max-n "$N" --threads "$t" --quiet --out "$OUT/t$t"
done
cmp "$OUT/t1/results.json" "$OUT/t2/results.json" && echo "results.json identical across thread counts"
