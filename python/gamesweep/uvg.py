"""Undirected vertex geography (UVG): ``gamesweep solve uvg``.

A token sits on a start vertex; players alternately move it to a neighbour
and delete the vertex it left; who cannot move loses.
"""

from __future__ import annotations

import json
from typing import List, Optional

from . import _native
from ._display import Picture, Solution
from ._graph import GraphLike, to_graph6

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
    return _native.uvg_values(to_graph6(g), budget)


def solve(
    g: GraphLike, start: Optional[int] = None, *, budget: int = DEFAULT_BUDGET
) -> Solution:
    """What ``gamesweep solve uvg G6 [--start S] --json`` prints, as a dict:
    ``n``, ``graph6``, ``edges``, ``max_degree``, ``nu`` (matching number),
    ``matching``, ``unmatched``, and ``starts``: per start its ``grundy``,
    ``first_player_wins``, ``winning_move``, the value of every ``moves``,
    ``nu_without`` and ``degree3``. Shown in Jupyter as the reports draw
    it (the start filled, a maximum matching gold, unmatched vertices red).
    """
    code = to_graph6(g)
    data = json.loads(_native.uvg_solve(code, start, budget))
    return Solution(data, lambda: _native.uvg_svg(code, start, budget))


def draw(g: GraphLike, start: Optional[int] = None, *, budget: int = DEFAULT_BUDGET) -> Picture:
    """The picture of ``gamesweep solve uvg G6 [--start S] --svg``."""
    return Picture(_native.uvg_svg(to_graph6(g), start, budget))
