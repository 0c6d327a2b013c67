"""gamesweep from Python: exact values of combinatorial games on graphs.

The same Rust code as the ``gamesweep`` command line, without a process per
call::

    import gamesweep as gs
    gs.uvg.values("Dhc")                      # Grundy value of every start
    gs.uvg.solve("Dhc", start=0)["starts"][0]  # what `solve uvg --json` says
    sum(1 for _ in gs.graphs(8))               # connected graphs on 8 vertices
    gs.col.value("Bg", "L..")                  # Col on a 3-vertex path, an end blue: -1/2

Modules: :mod:`uvg`, :mod:`col`, :mod:`myopic`, :mod:`gamegraph`,
:mod:`values` (:class:`Value`: CGSuite values that add and compare);
functions :func:`graphs`, :func:`subtraction`; :class:`Results` (a committed
run as pandas DataFrames); the exceptions :class:`GamesweepError` (the
CLI's messages) and its subclasses :class:`InvalidInputError` (a
``ValueError``), :class:`BudgetExceededError`, :class:`CoordinatorError`,
all picklable.
Graphs are given as graph6 or sparse6 text, an edge list, ``(n, edges)``,
a ``networkx.Graph`` or anything with ``graph6_string()`` (Sage).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from . import _native, col, gamegraph, myopic, uvg, values
from ._display import Picture, Solution
from ._graph import GraphLike, edges, to_digraph6, to_graph6, to_networkx, to_sparse6
from ._errors import (
    BudgetExceededError,
    CoordinatorError,
    GamesweepError,
    InvalidInputError,
    translated,
)
from .coordinator import Coordinator
from .results import Results
from .values import Value

__all__ = [
    "BudgetExceededError",
    "Coordinator",
    "CoordinatorError",
    "GamesweepError",
    "InvalidInputError",
    "GraphLike",
    "Picture",
    "Results",
    "Solution",
    "Value",
    "col",
    "edges",
    "gamegraph",
    "graphs",
    "myopic",
    "subtraction",
    "to_digraph6",
    "to_graph6",
    "to_networkx",
    "to_sparse6",
    "uvg",
    "values",
]

__version__ = "0.1.0"


@translated()
def graphs(
    n: int,
    connected: bool = True,
    part: Optional[str] = None,
    min_degree: Optional[int] = None,
    max_degree: Optional[int] = None,
    edges: Union[int, Tuple[int, Optional[int]], str, None] = None,
    sparse6: bool = False,
) -> Iterator[str]:
    """The graphs on ``n`` vertices (1..16) up to isomorphism, lazily, one
    graph6 string each, in the order of ``gamesweep graphs n [MINE:MAXE]
    [RES/MOD] [-c] [-d D] [-D D] [-s]`` (nauty geng's options and meaning).

    - ``connected``: only connected graphs (``-c``; the default here).
    - ``part``: ``"res/mod"``, part ``res`` of a partition into ``mod``
      about equally large parts (``RES/MOD``).
    - ``min_degree``, ``max_degree``: every degree within these (``-d``,
      ``-D``).
    - ``edges``: the number of edges: a number, a ``(min, max)`` pair
      (``max`` None: no upper bound) or geng's text ``"MINE:MAXE"``
      (``"E:0"``: E or more).
    - ``sparse6``: sparse6 strings (``:...``) instead of graph6 (``-s``).

    A thread generates ahead in batches; dropping the iterator stops it.
    Nothing is printed (the CLI's geng-style ``>A`` and ``>Z`` lines on
    standard error, silenced by ``-q``, have no counterpart here). Bad
    arguments raise :class:`InvalidInputError` with the CLI's message::

        >>> sum(1 for _ in graphs(6))
        112
        >>> len(list(graphs(10, edges=9)))      # the trees on 10 vertices
        106
        >>> list(graphs(3, sparse6=True))
        [':Bc', ':BcN']
    """
    _check_edges(edges)
    return _native.graphs(n, connected, part, min_degree, max_degree, edges, sparse6)


def _check_edges(edges: object) -> None:
    """A clear error for an ``edges`` of the wrong form (the native side
    reads the right forms)."""

    def count(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**32

    ok = (
        edges is None
        or isinstance(edges, str)
        or count(edges)
        or (
            isinstance(edges, tuple)
            and len(edges) == 2
            and count(edges[0])
            and (edges[1] is None or count(edges[1]))
        )
    )
    if not ok:
        raise InvalidInputError(
            f"edges {edges!r}: give a number of edges, a (min, max) pair (max None: no bound) "
            "or geng's text MINE:MAXE"
        )


@translated()
def subtraction(set: List[int], upto: int = 40) -> Dict[str, Any]:
    """What ``gamesweep solve subtraction --set S --upto N --json`` prints:
    the ``losing`` heaps and ``grundy`` values of heaps ``0..upto`` of the
    subtraction game with ``set`` (distinct numbers in 1..64), and the
    proven ``grundy_periodicity`` and ``outcome_periodicity``."""
    import json

    data: Dict[str, Any] = json.loads(_native.subtraction(list(set), upto))
    return data
