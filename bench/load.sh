#!/usr/bin/env bash
# Load harness: `gamesweep serve` on a temporary store, a `noop`
# sweep of SHARDS shards (results of RESULT_BYTES padding, no verification),
# and `examples/load.rs`: WORKERS simulated workers over CONNECTIONS HTTP/2
# connections, each shard "running" SHARD_MS ms, LEASE shards per lease.
# Prints the harness figures (leases/s, durable submits/s, p50/p99/p999 of
# lease and submit), the coordinator's CPU seconds and peak RSS (VmHWM),
# the store's size on disk, then restarts `serve` on the same store and
# times it until `gamesweep status load` answers (restart and recovery of
# the whole plan). Checks that the report counts SHARDS shards with index
# sum SHARDS·(SHARDS−1)/2: every shard merged exactly once.
# With MIDKILL=SECS, the coordinator is killed (SIGKILL) SECS seconds into
# the run, restarted on the same store and timed until `status` answers
# (restart to serving mid-sweep), and a second harness run finishes the
# sweep. Also prints the coordinator's RSS before and after the launch
# (memory per pending shard) and the load average (the machine is shared).
# Usage: bench/load.sh [SHARDS=20000] [WORKERS=200] [SHARD_MS=0]
# With STOP=KILL, the coordinator is stopped with SIGKILL after the report
# instead of SIGTERM (restart after a crash: no shutdown snapshot).
# With KEEP=DIR, the store as the stop left it is copied to DIR, and the
# coordinator's log to DIR.serve.log (for
# bench/restart.sh: repeated restarts after SIGKILL on the same store).
#   env: CONNECTIONS=4 LEASE=1 RESULT_BYTES=64 SKIP_BUILD=1 MIDKILL=SECS STOP=KILL KEEP=DIR
#        GAMESWEEP=path/to/gamesweep LOAD=path/to/load (other builds)
set -euo pipefail
cd "$(dirname "$0")/.."
SHARDS=${1:-20000}
WORKERS=${2:-200}
SHARD_MS=${3:-0}
CONNECTIONS=${CONNECTIONS:-4}
LEASE=${LEASE:-1}
RESULT_BYTES=${RESULT_BYTES:-64}
if [ -z "${SKIP_BUILD:-}" ]; then
  cargo build --release -q -p gamesweep-coordinator --bins
  cargo build --release -q -p gamesweep-coordinator --example load
fi
G=${GAMESWEEP:-$PWD/target/release/gamesweep}
L=${LOAD:-$PWD/target/release/examples/load}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
T=$(mktemp -d)
SERVE=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; rm -rf "$T"' EXIT

start_serve() { # starts serve on $T/store; sets SERVE and URL
  rm -f "$T/url"
  "$G" serve --listen 127.0.0.1:0 --store "$T/store" --address-file "$T/url" 2>>"$T/serve.log" &
  SERVE=$!
  for _ in $(seq 2000); do [ -s "$T/url" ] && break; sleep 0.01; done
  [ -s "$T/url" ] || { echo "serve did not come up: $(tail -3 "$T/serve.log")" >&2; exit 1; }
  URL=$(cat "$T/url")
}

rss() { awk '/VmRSS/ {print $2}' /proc/$SERVE/status; } # KiB

start_serve
"$G" status --coordinator "$URL" >/dev/null 2>&1 || true
RSS0=$(rss)
t0=$(date +%s.%N)
"$G" launch noop --shards "$SHARDS" --result-bytes "$RESULT_BYTES" --replicate-fraction 0 \
  --name load --coordinator "$URL" >/dev/null 2>&1
t1=$(date +%s.%N)
echo "launch (plan of $SHARDS shards stored): $(echo "$t1 - $t0" | bc -l | xargs printf '%.2f') s"
RSS1=$(rss)
echo "coordinator RSS: ${RSS0} KiB before the launch, ${RSS1} KiB with $SHARDS pending shards: $(echo "($RSS1 - $RSS0) * 1024 / $SHARDS" | bc) bytes per pending shard"
harness() {
  "$L" --coordinator "$URL" --workers "$WORKERS" --connections "$CONNECTIONS" \
    --shard-ms "$SHARD_MS" --max-per-lease "$LEASE"
}
if [ -n "${MIDKILL:-}" ]; then
  harness >"$T/load0.json" 2>"$T/load0.err" &
  H=$!
  sleep "$MIDKILL"
  kill -KILL $SERVE; wait $SERVE 2>/dev/null || true
  wait $H 2>/dev/null || true # its calls fail once the coordinator is gone
  k0=$(date +%s.%N)
  start_serve
  for _ in $(seq 6000); do
    "$G" status load --coordinator "$URL" >/dev/null 2>&1 && break
    sleep 0.01
  done
  k1=$(date +%s.%N)
  "$G" status load --coordinator "$URL" >"$T/status-after-kill.txt"
  head -3 "$T/status-after-kill.txt"
  echo "killed ${MIDKILL} s into the run; restart to status answering: $(echo "$k1 - $k0" | bc -l | xargs printf '%.2f') s (the rest below is the second run to the end)"
fi
harness >"$T/load.json"
cat "$T/load.json"
HZ=$(getconf CLK_TCK)
CPU=$(awk -v hz="$HZ" '{printf "%.2f", ($14 + $15) / hz}' /proc/$SERVE/stat)
HWM=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' /proc/$SERVE/status)
"$G" report load --coordinator "$URL" --out "$T/out" >/dev/null 2>&1
kill -"${STOP:-TERM}" $SERVE; wait $SERVE || true; SERVE=
if [ -n "${KEEP:-}" ]; then rm -rf "$KEEP"; cp -a "$T/store" "$KEEP"; cp "$T/serve.log" "$KEEP.serve.log"; fi
STORE=$(du -sb "$T/store" | cut -f1)
echo "coordinator: ${CPU} s CPU (launch + run, since its last start), peak RSS ${HWM} MiB; store $(echo "$STORE / 1048576" | bc -l | xargs printf '%.1f') MiB on disk"

r0=$(date +%s.%N)
start_serve
for _ in $(seq 6000); do
  "$G" status load --coordinator "$URL" >/dev/null 2>&1 && break
  sleep 0.01
done
r1=$(date +%s.%N)
"$G" status load --coordinator "$URL" >/dev/null
echo "restart to status answering (whole plan recovered, stopped with SIG${STOP:-TERM}): $(echo "$r1 - $r0" | bc -l | xargs printf '%.2f') s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

want=$(echo "$SHARDS * ($SHARDS - 1) / 2" | bc)
python3 - "$T/out/results.json" "$SHARDS" "$want" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
k, want = int(sys.argv[2]), int(sys.argv[3])
assert d["shards"] == k, f"{d['shards']} shards merged, not {k}"
assert d["index_sum"] == want, f"index sum {d['index_sum']}, not {want}"
print(f"every shard merged exactly once: {k} shards, index sum {want}")
PY
