"""Per-call overhead of the module against the CLI's pipe (runs/BENCHMARKS.md,
"Python"). Usage: GAMESWEEP_BIN=target/release/gamesweep python python/bench/overhead.py [REPEATS]

1. A Python loop over graphs(9) calling uvg.values, against
   `gamesweep graphs 9 -c | gamesweep solve uvg - --threads 1 > /dev/null`.
2. Iterating graphs(10), against `gamesweep graphs 10 -c > /dev/null`.
Each the best of REPEATS (default 3) wall times.
"""

import os
import subprocess
import sys
import time

import gamesweep as gs

BIN = os.environ["GAMESWEEP_BIN"]
REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 3


def best(f):
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def shell(cmd):
    subprocess.run(cmd, shell=True, check=True)


def py_values():
    for g in gs.graphs(9):
        gs.uvg.values(g)


def py_graphs():
    for _ in gs.graphs(10):
        pass


cli9 = best(lambda: shell(f"{BIN} graphs 9 -c | {BIN} solve uvg - --threads 1 > /dev/null"))
py9 = best(py_values)
print(f"uvg.values over graphs(9): python {py9:.2f} s, cli pipe {cli9:.2f} s, ratio {py9 / cli9:.2f}")
cli10 = best(lambda: shell(f"{BIN} graphs 10 -c > /dev/null"))
py10 = best(py_graphs)
n10 = 11716571
print(
    f"graphs(10): python {py10:.2f} s ({n10 / py10 / 1e6:.2f} M graphs/s), "
    f"cli {cli10:.2f} s ({n10 / cli10 / 1e6:.2f} M/s), ratio {py10 / cli10:.2f}"
)
