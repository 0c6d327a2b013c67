"""The GIL is released during solves, and Ctrl-C stops a long one."""

import os
import random
import signal
import threading
import time

import pytest

import gamesweep as gs
from conftest import random_graph


def _slow_graph():
    # A sparse graph above the table's 16 vertices: the exact search runs
    # until its budget (about 2 us a node) is spent.
    return gs.to_graph6(random_graph(random.Random(7), 60, 0.06))


def test_the_gil_is_released_during_a_solve():
    g = _slow_graph()
    done = threading.Event()
    spins = 0

    def solve():
        try:
            gs.uvg.values(g, budget=5_000_000)
        except gs.GamesweepError:
            pass
        done.set()

    t = threading.Thread(target=solve)
    t0 = time.monotonic()
    t.start()
    while not done.is_set():
        spins += 1
    t.join()
    took = time.monotonic() - t0
    assert took > 0.05, f"the solve took {took:.3f} s: too short to tell"
    # Held GIL: this thread would barely run while the solve does.
    assert spins > 10_000, f"{spins} spins in {took:.3f} s"


def test_ctrl_c_interrupts_a_long_solve():
    g = _slow_graph()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        gs.uvg.values(g, budget=30_000_000)
    took = time.monotonic() - t0
    timer.cancel()
    assert took < 2.0, f"KeyboardInterrupt after {took:.2f} s"


def _solver_threads():
    # The solver runs on a thread named by the module (Linux shows it).
    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as f:
                names.append(f.read().strip())
        except FileNotFoundError:
            pass
    return [n for n in names if n == "gamesweep-solve"]


def _solver_threads_after(seconds):
    t0 = time.monotonic()
    while _solver_threads() and time.monotonic() - t0 < seconds:
        time.sleep(0.05)
    return _solver_threads()


def test_ctrl_c_stops_the_abandoned_search_too():
    # Unlimited budget: without a stop the search would keep its thread
    # (and a core) busy for hours after the KeyboardInterrupt.
    g = _slow_graph()
    # (An earlier test's search may still be winding down.)
    assert _solver_threads_after(5.0) == []
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        gs.uvg.values(g, budget=0)
    timer.cancel()
    left = _solver_threads_after(5.0)
    assert left == [], f"{len(left)} solver thread(s) still running 5 s after Ctrl-C"
