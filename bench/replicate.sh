#!/usr/bin/env bash
# Cost of replication with identities (issue "exact even when a participant
# lies"): `gamesweep serve` + 3 worker processes (1 thread each), each with
# its own issued credential (`gamesweep token issue`), on `uvg --max-n N`,
# in three configurations, interleaved, REPS times each:
#   none     --replicate-fraction 0 (no replication)
#   default  launch's default policy: adaptive replication (every result of
#            an identity verified until it agreed 5 times) + a 1 % sample
#   warm     the default policy once the identities have earned trust: the
#            same coordinator first runs a small warm-up sweep (uvg n <= 8,
#            64 shards, not measured), as on a coordinator that has served
#            these identities before (trust is per identity, kept in the store)
#   all      --replicate all (every shard confirmed by two identities)
# SAMPLE (e.g. 1%) launches the measured sweep with --sample (an n = 11
# sample, say); its results are then not compared (a sample has no report).
# Reports wall time from launch until the workers (--exit-when-idle) exit,
# the workers' CPU seconds (user + sys), the coordinator's, and the
# coordinator's CPU per accepted submit; checks every results.json is
# identical.
# CONFIGS (e.g. "none default warm") picks configurations; RECOUNT (e.g. 0)
# is passed to `serve --recount-budget` (default: serve's, 5 % of one core).
# Usage: bench/replicate.sh [N=10] [REPS=2] [SAMPLE]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
REPS=${2:-2}
SAMPLE=${3:+--sample $3}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p gamesweep-coordinator --bins
G=$PWD/target/release/gamesweep
W=$PWD/target/release/gamesweep-worker
T=$(mktemp -d)
SERVE=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; rm -rf "$T"' EXIT
echo admin-token-for-bench >"$T/admin"

one() { # one run of configuration $1 (label $2): "wall cpu_workers cpu_coord submits"
  local cfg=$1 label=$2 policy=()
  case $cfg in
    none) policy=(--replicate-fraction 0) ;;
    default | warm) policy=() ;;
    all) policy=(--replicate all) ;;
  esac
  rm -rf "$T/store" "$T/url" "$T"/id-*
  "$G" serve --listen 127.0.0.1:0 --store "$T/store" --address-file "$T/url" \
    --token-file "$T/admin" ${RECOUNT:+--recount-budget "$RECOUNT"} 2>"$T/serve.log" &
  SERVE=$!
  for _ in $(seq 200); do [ -s "$T/url" ] && break; sleep 0.05; done
  local url; url=$(cat "$T/url")
  for k in 1 2 3; do
    "$G" token issue --name "id-$k" --out "$T/id-$k" --coordinator "$url" --token-file "$T/admin" 2>/dev/null
  done
  if [ "$cfg" = warm ]; then
    "$G" launch uvg --max-n 8 --shards 64 --name warmup --coordinator "$url" --token-file "$T/admin" >/dev/null 2>&1
    local wp=()
    for k in 1 2 3; do
      "$W" --coordinator "$url" --token-file "$T/id-$k" --id "w$k" --threads 1 --exit-when-idle 2>/dev/null &
      wp+=($!)
    done
    wait "${wp[@]}"
  fi
  local t0; t0=$(date +%s.%N)
  "$G" launch uvg --max-n "$N" $SAMPLE "${policy[@]}" --name b --coordinator "$url" --token-file "$T/admin" >/dev/null 2>&1
  local pids=()
  for k in 1 2 3; do
    /usr/bin/time -f "%U %S" -o "$T/w$k.time" "$W" --coordinator "$url" --token-file "$T/id-$k" \
      --id "w$k" --threads 1 --exit-when-idle 2>"$T/w$k.log" &
    pids+=($!)
  done
  wait "${pids[@]}"
  local t1; t1=$(date +%s.%N)
  [ -n "$SAMPLE" ] || "$G" report b --coordinator "$url" --token-file "$T/admin" --out "$T/out-$label" 2>"$T/report.log"
  local submits
  submits=$("$G" status b --json --coordinator "$url" --token-file "$T/admin" |
    python3 -c 'import json,sys; s=json.load(sys.stdin)["sweeps"][0]; v=s.get("verification") or {}; print(s["shards_done"] + v.get("verified",0) + v.get("mismatched",0))')
  local cc cw
  cc=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' /proc/$SERVE/stat)
  kill -TERM $SERVE; wait $SERVE || true; SERVE=
  cw=$(cat "$T"/w?.time | awk '{s += $1 + $2} END {printf "%.3f", s}')
  echo "$(echo "$t1 - $t0" | bc -l | xargs printf '%.3f') $cw $cc $submits"
  if [ -z "$SAMPLE" ]; then
    grep -h "verif" "$T/report.log" | head -2 >&2 || true
    [ -f "$T/ref.json" ] || cp "$T/out-$label/results.json" "$T/ref.json"
    cmp -s "$T/ref.json" "$T/out-$label/results.json" || { echo "results.json differs" >&2; exit 1; }
  fi
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
read -r -a CFGS <<<"${CONFIGS:-none default warm all}"
for c in "${CFGS[@]}"; do : >"$T/$c"; done
for i in $(seq "$REPS"); do
  for c in "${CFGS[@]}"; do one "$c" "$c-$i" >>"$T/$c"; done
done
echo "== uvg --max-n $N ${SAMPLE}, serve + 3 identities x 1 thread, $REPS runs each (interleaved)${SAMPLE:+; }${SAMPLE:-; results.json identical in every run}"
for c in "${CFGS[@]}"; do
  echo "$c: wall $(cut -d' ' -f1 "$T/$c" | xargs) | worker cpu $(cut -d' ' -f2 "$T/$c" | xargs) | coordinator cpu $(cut -d' ' -f3 "$T/$c" | xargs) | shard runs $(cut -d' ' -f4 "$T/$c" | xargs)"
  echo "$c: coordinator cpu per shard run (ms): $(awk '{printf "%.3f ", 1000 * $3 / $4}' "$T/$c")"
done
for c in "${CFGS[@]}"; do
  [ "$c" != none ] && [ -s "$T/none" ] || continue
  for k in 1 2; do
    a=$(cut -d' ' -f$k "$T/none" | median); b=$(cut -d' ' -f$k "$T/$c" | median)
    echo "$c vs none, $(echo "wall worker-cpu" | cut -d' ' -f$k) medians: $a -> $b ($(echo "($b / $a - 1) * 100" | bc -l | xargs printf '%+.1f') %)"
  done
done
