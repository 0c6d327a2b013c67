#!/usr/bin/env bash
# Cost of watching a sweep: `gamesweep serve` + 2 worker processes (1 thread
# each) on `uvg --max-n N`, interleaved, REPS times each way:
#   off    serve without --http
#   open   serve --http 127.0.0.1:0 and a poller (one python3 process at
#          nice 19, one kept-alive connection) doing what an open
#          dashboard page does, every second (twice the page's 2 s):
#          /api/status, /api/history, /api/sweep/b/witnesses, plus /metrics
# Reports the wall time from launch until both workers (--exit-when-idle)
# have exited and the coordinator's CPU seconds; checks every run's
# results.json is identical.
# Usage: bench/dashboard.sh [N=10] [REPS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
REPS=${2:-3}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator --bins
G=$PWD/target/release/gamesweep
W=$PWD/target/release/gamesweep-worker
T=$(mktemp -d)
SERVE=
POLL=
trap '[ -n "$POLL" ] && kill $POLL 2>/dev/null; [ -n "$SERVE" ] && kill $SERVE 2>/dev/null; rm -rf "$T"' EXIT

one() { # one run of mode $1 (label $2): prints "wall cpu_coord polls"
  local mode=$1 label=$2 http=()
  [ "$mode" = open ] && http=(--http 127.0.0.1:0 --http-address-file "$T/http")
  rm -rf "$T/store" "$T/url" "$T/http" "$T/polls"
  "$G" serve --listen 127.0.0.1:0 --store "$T/store" --address-file "$T/url" "${http[@]}" 2>"$T/serve.log" &
  SERVE=$!
  for _ in $(seq 200); do [ -s "$T/url" ] && break; sleep 0.05; done
  local url; url=$(cat "$T/url")
  if [ "$mode" = open ]; then
    for _ in $(seq 200); do [ -s "$T/http" ] && break; sleep 0.05; done
    local base; base=$(cat "$T/http"); base=${base%/}
    # One long-lived client at nice 19 with a kept-alive connection (not
    # four curl processes a second, whose start-up CPU would be charged to
    # the workers on a 2-core machine); its own CPU is reported.
    nice -n 19 python3 - "$base" "$T/polls" <<'PY' &
import http.client, sys, time, urllib.parse
base, out = sys.argv[1], sys.argv[2]
u = urllib.parse.urlsplit(base)
conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
for n in range(1, 3601):
    for p in ("/api/status", "/api/history", "/api/sweep/b/witnesses", "/metrics"):
        try:
            conn.request("GET", p)
            conn.getresponse().read()
        except Exception:
            conn.close()
            conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    with open(out, "w") as f:
        f.write(f"{n} {time.process_time():.3f}\n")
    time.sleep(1)
PY
    POLL=$!
  fi
  local t0; t0=$(date +%s.%N)
  "$G" launch uvg --max-n "$N" --replicate-fraction 0 --name b --coordinator "$url" >/dev/null
  "$W" --coordinator "$url" --id w1 --threads 1 --exit-when-idle 2>"$T/w1.log" &
  local p1=$!
  "$W" --coordinator "$url" --id w2 --threads 1 --exit-when-idle 2>"$T/w2.log" &
  local p2=$!
  wait $p1 $p2
  local t1; t1=$(date +%s.%N)
  local polls=0 pcpu=0
  if [ -n "$POLL" ]; then kill $POLL 2>/dev/null || true; wait $POLL 2>/dev/null || true; POLL=; polls=$(cut -d' ' -f1 "$T/polls" 2>/dev/null || echo 0); pcpu=$(cut -d' ' -f2 "$T/polls" 2>/dev/null || echo 0); fi
  "$G" report b --coordinator "$url" --out "$T/out-$label" 2>/dev/null
  local cc
  cc=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' /proc/$SERVE/stat)
  kill -TERM $SERVE; wait $SERVE || true; SERVE=
  echo "$(echo "$t1 - $t0" | bc -l | xargs printf '%.3f') $cc $polls $pcpu"
  [ -f "$T/ref.json" ] || cp "$T/out-$label/results.json" "$T/ref.json"
  cmp -s "$T/ref.json" "$T/out-$label/results.json" || { echo "results.json differs" >&2; exit 1; }
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for m in off open; do : >"$T/$m"; done
for i in $(seq "$REPS"); do
  for m in off open; do one "$m" "$m-$i" >>"$T/$m"; done
done
echo "== uvg --max-n $N, serve + 2 workers x 1 thread, $REPS runs each (interleaved); results.json identical in every run"
for m in off open; do
  echo "$m: wall $(cut -d' ' -f1 "$T/$m" | xargs) | coordinator cpu $(cut -d' ' -f2 "$T/$m" | xargs) | poll rounds $(cut -d' ' -f3 "$T/$m" | xargs) | poller cpu $(cut -d' ' -f4 "$T/$m" | xargs)"
done
for k in 1 2; do
  a=$(cut -d' ' -f$k "$T/off" | median); b=$(cut -d' ' -f$k "$T/open" | median)
  echo "open vs off, $(echo "wall coordinator-cpu" | cut -d' ' -f$k) medians: $a -> $b ($(echo "($b / $a - 1) * 100" | bc -l | xargs printf '%+.1f') %)"
done
