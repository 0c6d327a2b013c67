#!/usr/bin/env bash
# Runtime overhead benchmark (figures go to runs/bench-runtime.md):
#  1. `gamesweep run uvg --max-n N` through the embedded coordinator (gRPC +
#     sled + worker) vs `--in-process` (the plain shard executor), same
#     machine, alternating, REPS times each; prints wall-clock medians and the ratio.
#  2. lease+submit round trips per second on loopback against `gamesweep serve`
#     (each submit is flushed to disk before it is acknowledged).
# Usage: bench/runtime.sh [N=9] [REPS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-9}
REPS=${2:-3}
cargo build --release -q --bin gamesweep --example rpc_bench
G=$PWD/target/release/gamesweep
B=$PWD/target/release/examples/rpc_bench
T=$(mktemp -d)
trap 'kill $SERVE 2>/dev/null || true; rm -rf "$T"' EXIT
SERVE=

secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== uvg --max-n $N: embedded coordinator vs in-process ($REPS reps each, $(nproc) cores)"
: > "$T/emb"; : > "$T/inp"
for i in $(seq "$REPS"); do
  secs "$G" run uvg --max-n "$N" -q --in-process --out "$T/inp-out" >> "$T/inp"
  rm -rf "$T/emb-out"
  secs "$G" run uvg --max-n "$N" -q --out "$T/emb-out" >> "$T/emb"
done
cmp "$T/inp-out/results.json" "$T/emb-out/results.json" && echo "results.json identical"
I=$(median < "$T/inp"); E=$(median < "$T/emb")
echo "in-process: $(paste -sd' ' "$T/inp") s  median $I s"
echo "embedded:   $(paste -sd' ' "$T/emb") s  median $E s"
echo "overhead: $(echo "($E / $I - 1) * 100" | bc -l | xargs printf '%.1f') %"

echo "== lease+submit round trips on loopback"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$G" serve --listen 127.0.0.1:$PORT --store "$T/store" 2>"$T/serve.log" &
SERVE=$!
for _ in $(seq 100); do (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
for C in 1 8; do
  "$G" launch uvg --max-n 10 --shards 2000 --name rt$C --coordinator http://127.0.0.1:$PORT >/dev/null
  "$B" http://127.0.0.1:$PORT rt$C $C
done
