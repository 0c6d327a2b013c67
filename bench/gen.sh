#!/usr/bin/env bash
# Benchmark gamesweep's graph generator against nauty's geng (connected graphs, count only).
#
#   bench/gen.sh [N...]        default: 9 10
#
# For each N it runs, in this order and in the same session: `nauty-geng -cu N`,
# our generator single-threaded, and our generator on all cores (prefixes at
# depth 6 shared out over threads; the library itself is single-threaded).
# Each is timed with /usr/bin/time (user CPU and wall seconds); REPEAT (default 3)
# runs each. Then, per N (unless QUICK=1): the count, the shard check (each
# depth-5 prefix's subtree timed alone; the sum should be about one full run)
# and the plan's Knuth-probe size estimate.
#   REPEAT=1 QUICK=1 bench/gen.sh 11     the n = 11 comparison (about 10 minutes)
# Output is plain text, pasted into runs/bench-gen.md.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(9 10)
repeat=${REPEAT:-3}
threads=${THREADS:-$(nproc)}
cargo build --release -q -p gamesweep --example gen_bench
bin=target/release/examples/gen_bench
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(nproc) cores  load: $(cut -d' ' -f1-3 /proc/loadavg)"
# t LABEL CMD...: run CMD, print its one-line output (the count), then LABEL with user/wall seconds.
t() { { /usr/bin/time -f "  $1: user %U s, wall %e s" "${@:2}" | sed 's/^/    /'; } 2>&1; }
for n in "${sizes[@]}"; do
  echo "== n = $n (connected)"
  for _ in $(seq "$repeat"); do
    if command -v nauty-geng >/dev/null; then
      t "nauty-geng -cu $n   " nauty-geng -cu "$n"
    else
      echo "  nauty-geng not installed"
    fi
    t "gamesweep 1 thread  " "$bin" "$n"
    t "gamesweep $threads threads " "$bin" "$n" --threads "$threads"
  done
  [ -n "${QUICK:-}" ] && continue
  "$bin" "$n"
  "$bin" "$n" --per-prefix --depth 5
  "$bin" "$n" --levels --depth 5
done
