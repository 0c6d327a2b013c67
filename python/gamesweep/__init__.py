"""gamesweep from Python: exact values of combinatorial games on graphs.

The same Rust code as the ``gamesweep`` command line, without a process per
call::

    import gamesweep as gs
    gs.uvg.values("Dhc")                      # Grundy value of every start
    gs.uvg.solve("Dhc", start=0)["starts"][0]  # what `solve uvg --json` says
    sum(1 for _ in gs.graphs(8))               # connected graphs on 8 vertices
    gs.col.value("Bg", "L..")                  # Col on a 3-vertex path, an end blue: -1/2
    gs.isomorphic("Bg", [(0, 2), (2, 1)])      # the same path: True

Modules: :mod:`uvg`, :mod:`col`, :mod:`myopic`, :mod:`gamegraph`,
:mod:`graph_games` (the games of the graph-game layer: :func:`game`,
:func:`games`), :mod:`values` (:class:`Value`: CGSuite values that add and
compare);
functions :func:`graphs`, :func:`subtraction`, :func:`canonical`,
:func:`isomorphic`, :func:`kinds`, :func:`run`, :func:`verify` (an export
file's shards re-run), :func:`store_check` (a stopped store checked);
:class:`Results` (a committed run as pandas DataFrames); :class:`Coordinator`
(a coordinator's client); the exceptions :class:`GamesweepError` (the
CLI's messages) and its subclasses :class:`InvalidInputError` (a
``ValueError``), :class:`BudgetExceededError`, :class:`CoordinatorError`,
all picklable.
Graphs are given as graph6 or sparse6 text, an edge list, ``(n, edges)``,
a ``networkx.Graph`` or anything with ``graph6_string()`` (Sage).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Literal, Optional, Tuple, Union, overload

from . import _native, col, gamegraph, graph_games, myopic, uvg, values
from ._display import Picture, Solution
from ._graph import GraphLike, edges, graph_text, node_labels, to_digraph6, to_graph6, to_networkx, to_sparse6
from ._errors import (
    BudgetExceededError,
    CoordinatorError,
    GamesweepError,
    InvalidInputError,
    translated,
)
from ._errors import count as _count
from ._checks import store_check, verify
from .coordinator import Coordinator
from .graph_games import Game, game, games
from .results import Results
from .values import Value

__all__ = [
    "BudgetExceededError",
    "Coordinator",
    "CoordinatorError",
    "Game",
    "GamesweepError",
    "InvalidInputError",
    "GraphLike",
    "Picture",
    "Results",
    "Solution",
    "Value",
    "canonical",
    "col",
    "edges",
    "game",
    "gamegraph",
    "games",
    "graph_games",
    "graphs",
    "isomorphic",
    "kinds",
    "myopic",
    "run",
    "store_check",
    "subtraction",
    "to_digraph6",
    "to_graph6",
    "to_networkx",
    "to_sparse6",
    "uvg",
    "values",
    "verify",
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
    data: Dict[str, Any] = json.loads(_native.subtraction(list(set), upto))
    return data


@overload
def canonical(g: GraphLike, *, labelling: Literal[False] = False) -> str: ...


@overload
def canonical(g: GraphLike, *, labelling: Literal[True]) -> Tuple[str, Dict[Any, int]]: ...


@translated()
def canonical(g: GraphLike, *, labelling: bool = False) -> Union[str, Tuple[str, Dict[Any, int]]]:
    """The canonical form of ``g`` (at most 32 vertices) as graph6 text: ``g``
    relabelled by the canonical labelling ``gamesweep graphs`` generates
    with, so that two graphs are isomorphic exactly when their canonical
    forms are equal (nauty's ``labelg``, pynauty's ``certificate``). ``g``
    as every function takes it (graph6, sparse6, an edge list, a
    ``networkx.Graph``, ...; node labels do not matter)::

        >>> canonical("Bg") == canonical([(1, 0), (0, 2)])   # two paths
        True

    With ``labelling=True``, also the labelling (pynauty's
    ``canon_label``, as a dict): ``(graph6, {node: index})``, the index
    each vertex has in the canonical form; the keys are a networkx
    graph's node labels, else the vertex numbers ``0..n-1``. Relabelling
    ``g`` by it gives the canonical form (for a graph with automorphisms
    it is one of several labellings that do)::

        >>> canonical([(1, 0), (0, 2)], labelling=True)  # the middle, 0, is 2 in BW
        ('BW', {0: 2, 1: 0, 2: 1})
    """
    if not isinstance(labelling, bool):
        raise InvalidInputError(f"labelling={labelling!r}: expected True or False")
    if not labelling:
        return _native.canonical(graph_text(g))
    text, perm = _native.canonical_labelling(graph_text(g))
    labels = node_labels(g)
    keys: List[Any] = labels if labels is not None else list(range(len(perm)))
    return text, {v: perm[i] for i, v in enumerate(keys)}


@translated()
def isomorphic(g: GraphLike, h: GraphLike) -> bool:
    """Whether ``g`` and ``h`` are isomorphic (as networkx's
    ``is_isomorphic``), by comparing their :func:`canonical` forms::

        >>> isomorphic("Dhc", [(0, 2), (2, 4), (4, 1), (1, 3), (3, 0)])  # C5
        True
    """
    return canonical(g) == canonical(h)


def kinds() -> List[Dict[str, Any]]:
    """The sweep kinds (``gamesweep kinds``): for each a dict with ``name``,
    ``about`` and ``params``, each parameter a dict with ``name`` (the
    keyword of :func:`run` and :meth:`Coordinator.launch`), ``help``,
    ``min``, ``max`` and ``default`` (None: required)."""
    data: List[Dict[str, Any]] = json.loads(_native.kinds())
    return data


@translated()
def run(
    kind: str,
    *,
    out: Optional[str] = None,
    threads: Optional[int] = None,
    shards: Optional[int] = None,
    http: bool = False,
    **options: Union[int, str, bool],
) -> Union["Results", str]:
    """Run a sweep on this machine, as ``gamesweep run KIND ...`` does
    (resuming a run interrupted in the same ``out`` folder), and read its
    results: a :class:`Results` (the folder holds results.json, report.md,
    report.html, figures/). A run with ``sample=`` or ``part=`` writes no
    results.json: then the folder's path.

    - ``kind``: a name of :func:`kinds`; its parameters as keywords
      (``max_n=9`` is ``--max-n 9``).
    - ``out``: the folder (default: the CLI's, ``sweeps/KIND...``);
      ``threads``, ``shards``: as ``--threads``, ``--shards``.
    - ``http``: serve the run's dashboard (off here; the CLI's default is
      on).
    - any other option of ``gamesweep run KIND`` as a keyword:
      ``replicate_fraction="1%"``, ``sample=0.01``, ``fresh=True`` (a flag).

    What the CLI prints goes to standard error; Ctrl-C raises
    ``KeyboardInterrupt`` and stops the run as it stops the CLI's (its
    progress saved in ``out``: the same call again resumes it). Bad arguments raise
    :class:`InvalidInputError` with the CLI's message (options named as
    keywords)::

        >>> r = run("uvg", max_n=5, out="/tmp/uvg-5")   # doctest: +SKIP
        >>> r.histogram("values-by-n")                  # doctest: +SKIP
    """
    if not isinstance(kind, str) or not kind or kind.startswith("-"):
        raise InvalidInputError(f"kind={kind!r}: expected a sweep kind's name (see kinds())")
    words = [kind]

    def option(key: str, value: object) -> None:
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            if value:
                words.append(flag)
            return
        if isinstance(value, str):
            if value.startswith("-") or not value:
                raise InvalidInputError(f"{key}={value!r}: not a value")
            words.extend([flag, value])
            return
        if isinstance(value, float):
            words.extend([flag, repr(value)])
            return
        words.extend([flag, str(_count(key, value))])

    if out is not None:
        option("out", os.fspath(out))
    if threads is not None:
        option("threads", threads)
    if shards is not None:
        option("shards", shards)
    if not http:
        words.append("--no-http")
    for k, v in options.items():
        option(k, v)
    folder = _native.run(words)
    if options.get("sample") or options.get("part"):
        return folder
    return Results.load(folder)
