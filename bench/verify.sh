#!/usr/bin/env bash
# Overhead of replicated validation: `gamesweep serve` + 2 worker processes
# (1 thread each) on `uvg --max-n N`, launched with --verify-fraction 0 and
# with launch's default (0.01), alternating, REPS times each. Reports the
# wall time from launch until both workers (--exit-when-idle) have exited,
# and the CPU seconds of the workers and the coordinator; checks that every
# run's results.json is identical.
# Usage: bench/verify.sh [N=9] [REPS=3] [SHARDS (default: the kind's own plan)]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-9}
REPS=${2:-3}
SHARDS=${3:+--shards $3}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator --bins
G=$PWD/target/release/gamesweep
W=$PWD/target/release/gamesweep-worker
T=$(mktemp -d)
SERVE=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; rm -rf "$T"' EXIT

one() { # one run with verification fraction $1 (label $2): prints "wall cpu_workers cpu_coord"
  local f=$1 label=$2
  rm -rf "$T/store" "$T/url"
  "$G" serve --listen 127.0.0.1:0 --store "$T/store" --address-file "$T/url" 2>"$T/serve.log" &
  SERVE=$!
  for _ in $(seq 200); do [ -s "$T/url" ] && break; sleep 0.05; done
  local url; url=$(cat "$T/url")
  local t0; t0=$(date +%s.%N)
  "$G" launch uvg --max-n "$N" $SHARDS --verify-fraction "$f" --name b --coordinator "$url" >/dev/null 2>&1
  /usr/bin/time -f "%U %S" -o "$T/w1.time" "$W" --coordinator "$url" --id w1 --threads 1 --exit-when-idle 2>"$T/w1.log" &
  local p1=$!
  /usr/bin/time -f "%U %S" -o "$T/w2.time" "$W" --coordinator "$url" --id w2 --threads 1 --exit-when-idle 2>"$T/w2.log" &
  local p2=$!
  wait $p1 $p2
  local t1; t1=$(date +%s.%N)
  "$G" report b --coordinator "$url" --out "$T/out-$label" 2>"$T/report.log"
  grep -h "verification" "$T/report.log" >&2 || true
  local cw cc
  # the coordinator's user + system CPU so far (fields 14, 15 of its stat, in clock ticks)
  cc=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' /proc/$SERVE/stat)
  kill -TERM $SERVE; wait $SERVE || true; SERVE=
  cw=$(cat "$T/w1.time" "$T/w2.time" | awk '{s += $1 + $2} END {printf "%.3f", s}')
  echo "$(echo "$t1 - $t0" | bc -l | xargs printf '%.3f') $cw $cc"
  [ -f "$T/ref.json" ] || cp "$T/out-$label/results.json" "$T/ref.json"
  cmp -s "$T/ref.json" "$T/out-$label/results.json" || { echo "results.json differs" >&2; exit 1; }
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
: > "$T/f0"; : > "$T/f1"
for i in $(seq "$REPS"); do
  one 0 "f0-$i" >> "$T/f0"
  one 0.01 "f1-$i" >> "$T/f1"
done
echo "== uvg --max-n $N, serve + 2 workers x 1 thread, $REPS runs each (alternating); results.json identical in every run"
echo "F=0     wall: $(cut -d' ' -f1 "$T/f0" | xargs)  worker cpu: $(cut -d' ' -f2 "$T/f0" | xargs)  coordinator cpu: $(cut -d' ' -f3 "$T/f0" | xargs)"
echo "F=0.01  wall: $(cut -d' ' -f1 "$T/f1" | xargs)  worker cpu: $(cut -d' ' -f2 "$T/f1" | xargs)  coordinator cpu: $(cut -d' ' -f3 "$T/f1" | xargs)"
for k in 1 2 3; do # wall, worker CPU, coordinator CPU
  a=$(cut -d' ' -f$k "$T/f0" | median); b=$(cut -d' ' -f$k "$T/f1" | median)
  echo "column $k medians: $a -> $b ($(echo "($b / $a - 1) * 100" | bc -l | xargs printf '%+.1f') %)"
done
