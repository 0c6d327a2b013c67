"""Undirected vertex geography (UVG): ``gamesweep solve uvg``.

A token sits on a start vertex; players alternately move it to a neighbour
and delete the vertex it left; who cannot move loses.
"""

from __future__ import annotations

import json
from typing import List, Optional

from . import _native
from ._display import Picture, Solution
from ._graph import GraphLike, graph_text

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "values"]

#: Default ``budget`` (search nodes of all starts together), as ``solve uvg``.
DEFAULT_BUDGET: int = _native.DEFAULT_UVG_BUDGET


def values(g: GraphLike, *, budget: int = DEFAULT_BUDGET) -> List[int]:
    """The Grundy value of every start vertex of ``g``, in vertex order: a
    line of ``gamesweep solve uvg -`` (``{"grundy": [...]}`` of ``--json``).

    Graphs of at most 16 vertices are solved exactly by the subset table in
    microseconds (``budget`` does not apply); larger ones by the exact
    search, raising :class:`GamesweepError` after ``budget`` search nodes
    (0: unlimited). Consecutive calls on graphs of :func:`gamesweep.graphs`
    share table rows, as in the CLI's pipe.
    """
    return _native.uvg_values(graph_text(g), budget)


def solve(
    g: GraphLike, start: Optional[int] = None, *, budget: int = DEFAULT_BUDGET
) -> Solution:
    """What ``gamesweep solve uvg G6 [--start S] --json`` prints, as a dict:
    ``n``, ``graph6``, ``edges``, ``max_degree``, ``nu`` (matching number),
    ``matching``, ``unmatched``, and ``starts``: per start its ``grundy``,
    ``first_player_wins``, ``winning_move``, the value of every ``moves``,
    ``nu_without`` and ``degree3``. Shown in Jupyter as the reports draw
    it (the start filled, a maximum matching gold, unmatched vertices red).

    ``g``: a graph (graph6 or sparse6 text, an edge list, ``(n, edges)``, a
    ``networkx.Graph``, ...); ``start``: one start vertex (default: every
    vertex); ``budget``: search nodes of all starts together (0:
    unlimited), as ``--budget``.

    Raises :class:`GamesweepError` with the CLI's message for a bad graph,
    a start out of range or a budget run out; Ctrl-C (an interrupted
    Jupyter cell) stops a long solve with ``KeyboardInterrupt``::

        >>> s = solve("Dhc", start=0)          # the 5-cycle
        >>> s["nu"], s["starts"][0]["grundy"], s["starts"][0]["first_player_wins"]
        (2, 0, False)
    """
    code = graph_text(g)
    data = json.loads(_native.uvg_solve(code, start, budget))
    return Solution(data, lambda: _native.uvg_svg(code, start, budget))


def draw(g: GraphLike, start: Optional[int] = None, *, budget: int = DEFAULT_BUDGET) -> Picture:
    """The picture of ``gamesweep solve uvg G6 [--start S] --svg``."""
    return Picture(_native.uvg_svg(graph_text(g), start, budget))
