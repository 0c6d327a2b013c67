#!/usr/bin/env bash
# UVG solver speed, before vs after, in the same sitting: builds a base
# revision of this repository (default eb45930, the last commit before the
# leaf shortcut of docs/uvg-shortcuts.md) next to the current tree, then runs the same
# seeded shard sample of `uvg --max-n N` with each binary on one thread,
# through the embedded coordinator, REPS times interleaved (base, new, base,
# new, ...), and prints positions/s/core (thread CPU time of the shards, from
# projection.md) per run, the medians and the ratio of the medians.
#
# Usage: [REPS=3] [BASE_BIN=path] bench/uvg-speed.sh [BASE_REV] [N:SHARE ...]
#   default pairs: 9:50% 10:10% 11:0.05% 12:0.0005%
#   BASE_BIN: a gamesweep binary already built from BASE_REV (skips its build).
# The base is built from `git archive BASE_REV` in a temporary folder (no
# worktree), with its own target folder: a cold build takes a while.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-eb45930}
shift || true
PAIRS=("$@")
[ ${#PAIRS[@]} -gt 0 ] || PAIRS=(9:50% 10:10% 11:0.05% 12:0.0005%)
REPS=${REPS:-3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cargo build --release -q -p gamesweep-coordinator --bin gamesweep
NEW=${CARGO_TARGET_DIR:-$PWD/target}/release/gamesweep
if [ -n "${BASE_BIN:-}" ]; then
  OLD=$BASE_BIN
else
  mkdir "$T/base"
  git archive "$BASE" | tar -x -C "$T/base"
  (cd "$T/base" && CARGO_TARGET_DIR=$T/base-target cargo build --release -q -p gamesweep-coordinator --bin gamesweep)
  OLD=$T/base-target/release/gamesweep
fi
rate() { sed -n 's/^| positions \/ s \/ core | \([0-9,]*\) |$/\1/p' "$1/projection.md" | tr -d ,; }
spread() { sed -n 's/^| shard time min \/ median \/ max | \(.*\) |$/\1/p' "$1/projection.md"; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "== uvg solver speed: base $BASE vs $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), 1 worker thread, sample seed 5, $REPS interleaved runs each"
for pair in "${PAIRS[@]}"; do
  N=${pair%%:*}; SHARE=${pair#*:}
  : > "$T/base.rates"; : > "$T/new.rates"
  for rep in $(seq "$REPS"); do
    for which in base new; do
      bin=$OLD; [ $which = new ] && bin=$NEW
      "$bin" run uvg --max-n "$N" --sample "$SHARE" --sample-seed 5 --threads 1 --quiet --fresh --out "$T/$which-$N" 2>/dev/null
      rate "$T/$which-$N" >> "$T/$which.rates"
      echo "  n = $N run $rep $which: $(rate "$T/$which-$N") positions/s/core, shard times $(spread "$T/$which-$N")"
    done
  done
  b=$(median < "$T/base.rates"); a=$(median < "$T/new.rates")
  echo "n = $N, sample $SHARE: median base $b, new $a positions/s/core, ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
done
