#!/usr/bin/env bash
# Restart after SIGKILL, repeated: on a copy of the store STORE (as
# `KEEP=DIR bench/load.sh` left it), start `gamesweep serve`, time it until
# `gamesweep status` answers, kill it with SIGKILL; RUNS times, each on a
# fresh copy of STORE (so each restart recovers the same crash). Prints each
# time, the load average before each, and the median.
# Usage: bench/restart.sh STORE [RUNS=3] [SWEEP=load]
#   env: GAMESWEEP=path/to/gamesweep (another build)
set -euo pipefail
cd "$(dirname "$0")/.."
STORE=$1
RUNS=${2:-3}
SWEEP=${3:-load}
G=${GAMESWEEP:-$PWD/target/release/gamesweep}
T=$(mktemp -d)
SERVE=
trap '[ -n "$SERVE" ] && kill -KILL $SERVE 2>/dev/null; rm -rf "$T"' EXIT
times=()
for run in $(seq "$RUNS"); do
  rm -rf "$T/store" "$T/url"
  cp -a "$STORE" "$T/store"
  sync
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  r0=$(date +%s.%N)
  "$G" serve --listen 127.0.0.1:0 --store "$T/store" --address-file "$T/url" 2>>"$T/serve.log" &
  SERVE=$!
  ok=
  for _ in $(seq 6000); do
    if [ -s "$T/url" ] && "$G" status "$SWEEP" --coordinator "$(cat "$T/url")" >/dev/null 2>&1; then
      ok=1
      break
    fi
    sleep 0.01
  done
  r1=$(date +%s.%N)
  [ -n "$ok" ] || { echo "serve did not answer: $(tail -3 "$T/serve.log")" >&2; exit 1; }
  kill -KILL $SERVE; wait $SERVE 2>/dev/null || true; SERVE=
  t=$(echo "$r1 - $r0" | bc -l | xargs printf '%.2f')
  times+=("$t")
  echo "restart $run: $t s to status answering (load average before: $load)"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median of " NR ": " a[int((NR+1)/2)] " s"}'
