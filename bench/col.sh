#!/usr/bin/env bash
# Col / Myopic Col benchmarks (results recorded in runs/bench-col.md).
#  1. the two headline sweeps end to end on 2 threads (`gamesweep run KIND
#     --in-process`: plan, all shards through the run's store, merge, render),
#     wall and CPU time from
#     /usr/bin/time;
#  2. which reductions pay: single-threaded CPU seconds of the solver alone
#     under each setting (col_bench example), on Col ≤ 8 and binary trees ≤ 11.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gamesweep-coordinator --bin gamesweep
cargo build --release -p gamesweep --example col_bench
B=target/release/examples
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "== end to end, 2 threads"
/usr/bin/time -f "myopic-tree 11: wall %e s, user %U s, sys %S s" target/release/gamesweep run myopic-tree --max-nodes 11 --threads 2 --in-process --quiet --out "$OUT/tree" >/dev/null
/usr/bin/time -f "col 8: wall %e s, user %U s, sys %S s" target/release/gamesweep run col --max-n 8 --threads 2 --in-process --quiet --out "$OUT/col" >/dev/null
echo "== reductions, 1 thread, solver only"
$B/col_bench col 8 tree-canonical full labelled no-drop no-components bare
$B/col_bench tree 11 tree-canonical full labelled no-drop no-components bare
$B/col_bench col 6 no-memo tree-canonical
$B/col_bench tree 8 no-memo tree-canonical
echo "== load during the run"
uptime
