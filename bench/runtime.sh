#!/usr/bin/env bash
# Runtime overhead benchmark (figures go to runs/bench-runtime.md):
#  1. `gamesweep run uvg --max-n N` through the embedded coordinator with its
#     worker over gRPC (dashboard off) vs `--in-process` (the same core and
#     sled store, driven by threads calling it directly): the cost of the
#     network layer. Same machine, alternating, REPS times each, every run
#     from an empty folder; prints wall-clock medians and the ratio.
#     The machine is shared, so wall times are noisy: the CPU seconds (user +
#     sys of the whole process) are the robust measure of the runtime's cost.
#  2. lease+submit round trips per second on loopback against `gamesweep serve`
#     (each submit is flushed to disk before it is acknowledged).
# Usage: bench/runtime.sh [N=9] [REPS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-9}
REPS=${2:-3}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator --bin gamesweep --example rpc_bench
G=$PWD/target/release/gamesweep
B=$PWD/target/release/examples/rpc_bench
T=$(mktemp -d)
trap 'kill $SERVE 2>/dev/null || true; rm -rf "$T"' EXIT
SERVE=

# "wall cpu" seconds of one command (cpu = user + sys, all its threads)
secs() { /usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >/dev/null 2>&1; awk '{printf "%s %.3f\n", $1, $2 + $3}' "$T/time"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for THREADS in 1 $(nproc); do
  echo "== uvg --max-n $N --threads $THREADS: embedded coordinator vs in-process ($REPS reps each, alternating)"
  : > "$T/emb"; : > "$T/inp"
  for i in $(seq "$REPS"); do
    rm -rf "$T/emb-out" "$T/inp-out"
    ( secs "$G" run uvg --max-n "$N" -q --threads "$THREADS" --in-process --out "$T/inp-out" ) >> "$T/inp"
    ( secs "$G" run uvg --max-n "$N" -q --threads "$THREADS" --no-http --out "$T/emb-out" ) >> "$T/emb"
  done
  cmp "$T/inp-out/results.json" "$T/emb-out/results.json" && echo "results.json identical"
  IW=$(cut -d' ' -f1 "$T/inp" | median); EW=$(cut -d' ' -f1 "$T/emb" | median)
  IC=$(cut -d' ' -f2 "$T/inp" | median); EC=$(cut -d' ' -f2 "$T/emb" | median)
  echo "in-process wall: $(cut -d' ' -f1 "$T/inp" | xargs printf '%.2f ')s  cpu: $(cut -d' ' -f2 "$T/inp" | xargs printf '%.2f ')s"
  echo "embedded   wall: $(cut -d' ' -f1 "$T/emb" | xargs printf '%.2f ')s  cpu: $(cut -d' ' -f2 "$T/emb" | xargs printf '%.2f ')s"
  echo "overhead (medians): wall $(echo "($EW / $IW - 1) * 100" | bc -l | xargs printf '%+.1f') %, cpu $(echo "($EC / $IC - 1) * 100" | bc -l | xargs printf '%+.1f') %"
done

echo "== lease+submit round trips on loopback"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$G" serve --listen 127.0.0.1:$PORT --store "$T/store" 2>"$T/serve.log" &
SERVE=$!
for _ in $(seq 100); do (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
for C in 1 8; do
  "$G" launch uvg --max-n 10 --shards 2000 --replicate-fraction 0 --name rt$C --coordinator http://127.0.0.1:$PORT >/dev/null
  "$B" http://127.0.0.1:$PORT rt$C $C
done
