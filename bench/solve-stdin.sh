#!/usr/bin/env bash
# Throughput of the pipeline `gamesweep solve uvg - --summary` (graph6 lines
# from a prepared file, not a live generator) against the same graphs solved
# inside a sweep (`gamesweep run uvg --in-process`), both on one thread.
#
# The file holds every connected graph on 1..=N vertices (default N = 9), in
# the order `gamesweep graphs N -c` prints them: the graphs the sweep
# `run uvg --max-n N` visits. Both commands print the same histogram
# (checked below). Each is run RUNS times (default 3), alternating; the
# median CPU seconds (user + sys, which a loaded machine disturbs less than
# wall time) gives positions per CPU second; the ratio is pipeline CPU over
# sweep CPU (below 1: the pipeline is faster). The pipeline's time does not
# include generating the graphs; the sweep's does (and its other checks:
# matching theorem, degree-3 algorithm, witnesses).
#
#   bench/solve-stdin.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-9}
RUNS=${2:-3}
cargo build --release -p gamesweep-coordinator --bin gamesweep
B=target/release/gamesweep
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for n in $(seq 1 "$N"); do "$B" graphs "$n" -cq; done > "$OUT/graphs.g6"
echo "== $(wc -l < "$OUT/graphs.g6") connected graphs on 1..=$N vertices ($(du -h "$OUT/graphs.g6" | cut -f1))"
cpu() { awk '{print $2 + $3}' "$1"; }
for r in $(seq 1 "$RUNS"); do
  /usr/bin/time -o "$OUT/pipe.$r" -f "%e %U %S" "$B" solve uvg - --summary --json --threads 1 < "$OUT/graphs.g6" > "$OUT/summary.json"
  /usr/bin/time -o "$OUT/sweep.$r" -f "%e %U %S" "$B" run uvg --max-n "$N" --in-process --threads 1 --quiet --fresh --out "$OUT/sweep" 2>/dev/null
  echo "run $r: pipeline $(cpu "$OUT/pipe.$r") s CPU ($(cut -d' ' -f1 "$OUT/pipe.$r") s wall), sweep $(cpu "$OUT/sweep.$r") s CPU ($(cut -d' ' -f1 "$OUT/sweep.$r") s wall)"
done
python3 - "$OUT" "$RUNS" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
summary = json.load(open(f"{out}/summary.json"))
sweep = json.load(open(f"{out}/sweep/results.json"))
rows = {r["n"]: r for r in sweep["by_n"]}
for r in summary["by_n"]:
    for k in ("graphs", "positions", "first_player_wins", "grundy"):
        assert r[k] == rows[r["n"]][k], (r["n"], k)
positions = summary["total"]["positions"]
cpu = lambda name: statistics.median(
    sum(map(float, open(f"{out}/{name}.{i}").read().split()[1:])) for i in range(1, runs + 1))
p, s = cpu("pipe"), cpu("sweep")
print(f"same histogram; {positions:,} positions")
print(f"pipeline: {p:.2f} s CPU, {positions / p:,.0f} positions/s")
print(f"sweep:    {s:.2f} s CPU, {positions / s:,.0f} positions/s")
print(f"ratio pipeline/sweep CPU: {p / s:.2f} (target <= 1.2)")
PY
echo "== load during the run"
uptime
