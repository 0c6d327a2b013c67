"""Shared fixtures: the CLI to check against, the repository's files.

The CLI is the release binary named by GAMESWEEP_BIN (`.ci/run` sets it to
target/release/gamesweep); without it every test that needs it fails,
never skips.
"""

import json
import os
import random
import subprocess

import pytest

REPO = os.environ.get(
    "GAMESWEEP_REPO", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
)


def _bin() -> str:
    b = os.environ.get("GAMESWEEP_BIN")
    if not b:
        raise RuntimeError(
            "GAMESWEEP_BIN is not set: point it at the gamesweep binary "
            "(cargo build --release; GAMESWEEP_BIN=target/release/gamesweep)"
        )
    if not os.access(b, os.X_OK):
        raise RuntimeError(f"GAMESWEEP_BIN={b} is not an executable file")
    return b


class Cli:
    """The `gamesweep` binary."""

    def __init__(self, path: str) -> None:
        self.path = path

    def run(self, *args: str, input: str = None, check: bool = True) -> subprocess.CompletedProcess:
        r = subprocess.run(
            [self.path, *args], input=input, capture_output=True, text=True, timeout=300
        )
        if check and r.returncode != 0:
            raise AssertionError(f"gamesweep {' '.join(args)} failed ({r.returncode}): {r.stderr}")
        return r

    def json(self, *args: str, input: str = None):
        return json.loads(self.run(*args, input=input).stdout)

    def json_lines(self, *args: str, input: str = None, check: bool = True):
        r = self.run(*args, input=input, check=check)
        return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_bin())


@pytest.fixture(scope="session")
def repo() -> str:
    return REPO


def random_graph(rng: random.Random, n: int, p: float):
    """(n, edges) of a G(n, p) graph."""
    return n, [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p]


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261202)
