#!/usr/bin/env bash
# Load harness (issue 17): `gamesweep serve` on a temporary store, a `noop`
# sweep of SHARDS shards (results of RESULT_BYTES padding, no verification),
# and `examples/load.rs`: WORKERS simulated workers over CONNECTIONS HTTP/2
# connections, each shard "running" SHARD_MS ms, LEASE shards per lease.
# Prints the harness figures (leases/s, durable submits/s, p50/p99/p999 of
# lease and submit), the coordinator's CPU seconds and peak RSS (VmHWM),
# the store's size on disk, then restarts `serve` on the same store and
# times it until `gamesweep status load` answers (restart and recovery of
# the whole plan). Checks that the report counts SHARDS shards with index
# sum SHARDS·(SHARDS−1)/2: every shard merged exactly once.
# Usage: bench/load.sh [SHARDS=20000] [WORKERS=200] [SHARD_MS=0]
#   env: CONNECTIONS=4 LEASE=1 RESULT_BYTES=64 SKIP_BUILD=1
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
G=$PWD/target/release/gamesweep
L=$PWD/target/release/examples/load
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

start_serve
t0=$(date +%s.%N)
"$G" launch noop --shards "$SHARDS" --result-bytes "$RESULT_BYTES" --verify-fraction 0 \
  --name load --coordinator "$URL" >/dev/null 2>&1
t1=$(date +%s.%N)
echo "launch (plan of $SHARDS shards stored): $(echo "$t1 - $t0" | bc -l | xargs printf '%.2f') s"
"$L" --coordinator "$URL" --workers "$WORKERS" --connections "$CONNECTIONS" \
  --shard-ms "$SHARD_MS" --max-per-lease "$LEASE" >"$T/load.json"
cat "$T/load.json"
HZ=$(getconf CLK_TCK)
CPU=$(awk -v hz="$HZ" '{printf "%.2f", ($14 + $15) / hz}' /proc/$SERVE/stat)
HWM=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' /proc/$SERVE/status)
"$G" report load --coordinator "$URL" --out "$T/out" >/dev/null 2>&1
kill -TERM $SERVE; wait $SERVE || true; SERVE=
STORE=$(du -sb "$T/store" | cut -f1)
echo "coordinator: ${CPU} s CPU (launch + run), peak RSS ${HWM} MiB; store $(echo "$STORE / 1048576" | bc -l | xargs printf '%.1f') MiB on disk"

r0=$(date +%s.%N)
start_serve
for _ in $(seq 6000); do
  "$G" status load --coordinator "$URL" >/dev/null 2>&1 && break
  sleep 0.01
done
r1=$(date +%s.%N)
"$G" status load --coordinator "$URL" >/dev/null
echo "restart to status answering (whole plan recovered): $(echo "$r1 - $r0" | bc -l | xargs printf '%.2f') s"

want=$(echo "$SHARDS * ($SHARDS - 1) / 2" | bc)
python3 - "$T/out/results.json" "$SHARDS" "$want" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
k, want = int(sys.argv[2]), int(sys.argv[3])
assert d["shards"] == k, f"{d['shards']} shards merged, not {k}"
assert d["index_sum"] == want, f"index sum {d['index_sum']}, not {want}"
print(f"every shard merged exactly once: {k} shards, index sum {want}")
PY
