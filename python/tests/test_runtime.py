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
