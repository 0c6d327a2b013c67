"""gamesweep from Python: exact values of combinatorial games on graphs.

The same Rust code as the ``gamesweep`` command line, without a process per
call::

    import gamesweep as gs
    gs.uvg.values("Dhc")                      # Grundy value of every start
    gs.uvg.solve("Dhc", start=0)["starts"][0]  # what `solve uvg --json` says
    sum(1 for _ in gs.graphs(8))               # connected graphs on 8 vertices
    gs.col.value("Bw", "L..")                  # Col's canonical value

Modules: :mod:`uvg`, :mod:`col`, :mod:`myopic`, :mod:`gamegraph`;
functions :func:`graphs`, :func:`subtraction`; :class:`Results` (a committed
run as pandas DataFrames); :class:`GamesweepError` (the CLI's messages).
Graphs are given as graph6 text, an edge list, ``(n, edges)``, a
``networkx.Graph`` or anything with ``graph6_string()`` (Sage).
"""

from __future__ import annotations

from typing import Iterator, List, Optional

from . import _native, col, gamegraph, myopic, uvg
from ._display import Picture, Solution
from ._graph import GraphLike, edges, to_digraph6, to_graph6, to_networkx
from ._native import GamesweepError
from .coordinator import Coordinator
from .results import Results

__all__ = [
    "Coordinator",
    "GamesweepError",
    "GraphLike",
    "Picture",
    "Results",
    "Solution",
    "col",
    "edges",
    "gamegraph",
    "graphs",
    "myopic",
    "subtraction",
    "to_digraph6",
    "to_graph6",
    "to_networkx",
    "uvg",
]

__version__ = "0.1.0"


def graphs(
    n: int,
    connected: bool = True,
    part: Optional[str] = None,
    min_degree: Optional[int] = None,
    max_degree: Optional[int] = None,
) -> Iterator[str]:
    """The graphs on ``n`` vertices (1..16) up to isomorphism, as graph6
    strings, lazily, in the order of ``gamesweep graphs n [-c] [RES/MOD]
    [-d D] [-D D]`` (nauty geng's options): ``connected`` only (``-c``),
    ``part`` ``"res/mod"`` of a partition into ``mod`` parts, degrees within
    ``min_degree``..``max_degree``. A thread generates ahead in batches;
    dropping the iterator stops it.
    """
    return _native.graphs(n, connected, part, min_degree, max_degree)


def subtraction(set: List[int], upto: int = 40) -> dict:
    """What ``gamesweep solve subtraction --set S --upto N --json`` prints:
    the ``losing`` heaps and ``grundy`` values of heaps ``0..upto`` of the
    subtraction game with ``set`` (distinct numbers in 1..64), and the
    proven ``grundy_periodicity`` and ``outcome_periodicity``."""
    import json

    return json.loads(_native.subtraction(list(set), upto))
