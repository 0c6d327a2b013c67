#!/usr/bin/env bash
# The n = 12 solver on the 27 shards of runs/uvg-n12-sample (seed 2026),
# each alone in its process (`uvg_shard_bench`: the worker's Kind::run,
# thread CPU time), for one or two builds interleaved shard by shard:
#
#   bench/uvg-n12-sample.sh NEW_BENCH [BASE_BENCH]
#
# where each argument is a built `uvg_shard_bench` example
# (`cargo build --release -p gamesweep --example uvg_shard_bench`, then
# target/release/examples/uvg_shard_bench). Prints per build the total
# positions, the total thread CPU, positions per CPU-second, and the
# min / median / max shard CPU; with two builds, the ratio. With GEN=1 in
# the environment, each shard's part of the generation tree is also walked
# alone (the first build's `GEN=1` mode, no solver), and each build's
# solve ÷ generation is its CPU over that walk's.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 && $# -le 2 ]] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
for b in "$@"; do [[ -x $b ]] || { echo "uvg-n12-sample.sh: $b is not an executable" >&2; exit 2; }; done
ids=$(python3 -c 'import json; print(" ".join(map(str, json.load(open("runs/uvg-n12-sample/projection.json"))["measured"]["shard_ids"])))')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for id in $ids; do
  i=0
  for b in "$@"; do
    env -u GEN "$b" 12 "$id" >>"$tmp/$i.log"
    i=$((i + 1))
  done
  [[ -z ${GEN:-} ]] || GEN=1 "$1" 12 "$id" >>"$tmp/gen.log"
done
python3 - "$tmp" "$#" <<'PY'
import re, statistics, sys
d, k = sys.argv[1], int(sys.argv[2])
rates, cpus = [], []
for i in range(k):
    pos, cpu = [], []
    for line in open(f"{d}/{i}.log"):
        m = re.match(r"n = 12 shard \d+: (\d+) positions, ([0-9.]+) s CPU", line)
        if m:
            pos.append(int(m[1])); cpu.append(float(m[2]))
    rate = sum(pos) / sum(cpu)
    rates.append(rate)
    cpus.append(sum(cpu))
    name = "new" if i == 0 else "base"
    print(f"{name}: {len(pos)} shards, {sum(pos):,} positions, {sum(cpu):.2f} s CPU, "
          f"{rate:,.0f} positions/CPU-s, shard CPU min/median/max "
          f"{min(cpu):.3f} / {statistics.median(cpu):.3f} / {max(cpu):.3f} s")
if k == 2:
    print(f"new / base: {rates[0] / rates[1]:.3f}")
try:
    gen = [float(m[1]) for line in open(f"{d}/gen.log")
           if (m := re.match(r"n = 12 shard \d+: \d+ positions, ([0-9.]+) s CPU, generation only", line))]
except FileNotFoundError:
    gen = []
if gen:
    print(f"generation alone: {sum(gen):.2f} s CPU; solve / generation: "
          + ", ".join(f"{'new' if i == 0 else 'base'} {cpus[i] / sum(gen):.2f}" for i in range(k)))
PY
