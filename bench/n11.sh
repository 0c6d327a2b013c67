#!/usr/bin/env bash
# n = 11 (or N) projection from measurement: a real coordinator
# plans the whole `uvg --max-n N` sweep, serves a seeded random sample of its
# shards to a worker, and projects the whole sweep from the shards actually run.
#
#  1. `gamesweep serve` on a fresh store; `gamesweep launch uvg --max-n N
#     --sample SHARE --sample-seed SEED` (timed: planning every shard).
#  2. Coordinator memory (VmRSS / VmHWM) and store size at the full plan,
#     before any work, from `gamesweep status --json`; status latency.
#  3. One worker with THREADS threads runs the sample and exits when idle;
#     status is polled (and timed) while it works.
#  4. `gamesweep project` writes projection.md / projection.json into OUT:
#     positions/s per core, shard-time min/median/max, projected wall time
#     on this machine and on 4 machines x 16 cores, with the shard ids and seed.
#
# Usage: [N=11] bench/n11.sh [SHARE=1%] [SEED=2026] [OUT=runs/uvg-nN-sample] [THREADS=nproc]
# (N=12 prices the n = 12 sweep the same way: `N=12 bench/n11.sh 0.02% 2026`.)
# KEEP_STORE=DIR keeps the coordinator's store there (it must not exist yet),
# so `gamesweep serve --store DIR` + `gamesweep project uvg-nN` can redo the
# projection later without rerunning the sample.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-11}
SHARE=${1:-1%}
SEED=${2:-2026}
OUT=${3:-runs/uvg-n$N-sample}
THREADS=${4:-$(nproc)}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator --bin gamesweep
G=$PWD/target/release/gamesweep
T=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
URL=http://127.0.0.1:$PORT
STORE=${KEEP_STORE:-$T/store}
[ -z "${KEEP_STORE:-}" ] || [ ! -e "$KEEP_STORE" ] || { echo "KEEP_STORE=$KEEP_STORE exists already" >&2; exit 2; }
trap 'kill $SERVE 2>/dev/null || true; wait $SERVE 2>/dev/null || true; rm -rf "$T"' EXIT
export GAMESWEEP_COORDINATOR=$URL

"$G" serve --store "$STORE" --listen "127.0.0.1:$PORT" 2> "$T/serve.log" &
SERVE=$!
for _ in $(seq 100); do "$G" status >/dev/null 2>&1 && break; sleep 0.1; done

ms() { echo $(( $(date +%s%N) / 1000000 )); }
mib() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1048576}'; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

echo "== uvg --max-n $N: $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); sample $SHARE seed $SEED, worker threads $THREADS"
t0=$(ms)
ID=$("$G" launch uvg --max-n "$N" --sample "$SHARE" --sample-seed "$SEED" --name "uvg-n$N" 2> "$T/launch.log")
t1=$(ms)
cat "$T/launch.log"
echo "launch (plan + store every shard): $((t1 - t0)) ms"
t0=$(ms); "$G" status "$ID" --json > "$T/st0.json"; t1=$(ms)
echo "status at the full plan: $((t1 - t0)) ms per call"
echo "coordinator at the full plan: shards $(field 'd["sweeps"][0]["shards_total"]' < "$T/st0.json"), sampled $(field 'd["sweeps"][0]["sample"]["shards"]' < "$T/st0.json"), \
estimate $(field 'd["sweeps"][0]["positions_estimate"]' < "$T/st0.json") positions; \
memory $(mib "$(field 'd["coordinator_rss_bytes"]' < "$T/st0.json")") MiB (peak $(mib "$(field 'd["coordinator_peak_rss_bytes"]' < "$T/st0.json")") MiB), \
store $(mib "$(field 'd["store_bytes"]' < "$T/st0.json")") MiB (du: $(du -sh "$STORE" | cut -f1))"

w0=$(ms)
"$G" worker --threads "$THREADS" --exit-when-idle --id bench-worker 2> "$T/worker.log" &
WORKER=$!
maxlat=0
while kill -0 "$WORKER" 2>/dev/null; do
  sleep 10
  a=$(ms); "$G" status "$ID" --json > "$T/st.json" 2>/dev/null || true; b=$(ms)
  [ $((b - a)) -gt "$maxlat" ] && maxlat=$((b - a))
  printf '  %s: sample %s/%s shards, %s positions\n' "$(date -u +%T)" \
    "$(field 'd["sweeps"][0]["sample"]["done"]' < "$T/st.json" 2>/dev/null || echo '?')" \
    "$(field 'd["sweeps"][0]["sample"]["shards"]' < "$T/st.json" 2>/dev/null || echo '?')" \
    "$(field 'd["sweeps"][0]["positions_done"]' < "$T/st.json" 2>/dev/null || echo '?')"
done
wait "$WORKER"
w1=$(ms)
"$G" status "$ID" --json > "$T/st1.json"
echo "sample run: $(( (w1 - w0) / 1000 )) s wall; state $(field 'd["sweeps"][0]["state"]' < "$T/st1.json"); slowest status call while working: $maxlat ms"
echo "coordinator after the sample: memory $(mib "$(field 'd["coordinator_rss_bytes"]' < "$T/st1.json")") MiB (peak $(mib "$(field 'd["coordinator_peak_rss_bytes"]' < "$T/st1.json")") MiB), \
store $(mib "$(field 'd["store_bytes"]' < "$T/st1.json")") MiB (du: $(du -sh "$STORE" | cut -f1))"
"$G" project "$ID" --out "$OUT"
