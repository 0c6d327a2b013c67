#!/usr/bin/env bash
# UVG solver speed, before vs after, in the same run (issue 14): builds a
# base revision of this repository (default 9a892b1, the last commit before
# the incremental subset table) next to the current tree, then runs the same
# seeded shard sample of `uvg --max-n N` with each binary on one thread,
# through the embedded coordinator, and prints positions/s/core (thread CPU
# time of the shards, from projection.md) and the ratio.
#
# Usage: bench/uvg-speed.sh [BASE_REV] [N:SHARE ...]
#   default pairs: 10:10% 11:0.05% 12:0.0005%  (a few seconds to ~2 min each)
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-9a892b1}
shift || true
PAIRS=("$@")
[ ${#PAIRS[@]} -gt 0 ] || PAIRS=(10:10% 11:0.05% 12:0.0005%)
T=$(mktemp -d)
trap 'git worktree remove --force "$T/base" 2>/dev/null || true; rm -rf "$T"' EXIT
cargo build --release -q -p gamesweep-coordinator --bin gamesweep
NEW=$PWD/target/release/gamesweep
git worktree add -q --detach "$T/base" "$BASE"
(cd "$T/base" && CARGO_TARGET_DIR=$PWD/../base-target cargo build --release -q -p gamesweep-coordinator --bin gamesweep)
OLD=$T/base-target/release/gamesweep
rate() { sed -n 's/^| positions \/ s \/ core | \([0-9,]*\) |$/\1/p' "$1/projection.md" | tr -d ,; }
spread() { sed -n 's/^| shard time min \/ median \/ max | \(.*\) |$/\1/p' "$1/projection.md"; }
echo "== uvg solver speed: base $BASE vs $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, 1 worker thread, sample seed 5"
for pair in "${PAIRS[@]}"; do
  N=${pair%%:*}; SHARE=${pair#*:}
  for which in base new; do
    bin=$OLD; [ $which = new ] && bin=$NEW
    "$bin" run uvg --max-n "$N" --sample "$SHARE" --sample-seed 5 --threads 1 --quiet --fresh --out "$T/$which-$N" 2>/dev/null
  done
  b=$(rate "$T/base-$N"); a=$(rate "$T/new-$N")
  echo "n = $N, sample $SHARE: base $b, new $a positions/s/core, ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}'); shard times base $(spread "$T/base-$N"), new $(spread "$T/new-$N")"
done
