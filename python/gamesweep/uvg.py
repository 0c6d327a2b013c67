"""Undirected vertex geography (UVG): ``gamesweep solve uvg``.

A token sits on a start vertex; players alternately move it to a neighbour
and delete the vertex it left; who cannot move loses.

Vertices are the numbers ``0..n-1`` of the graph6 (or edge list) given;
for a ``networkx`` graph they are its node labels: ``start`` is a node,
:func:`values` answers ``{node: value}`` and :func:`solve`'s dict names
nodes (``graph6`` and ``n`` stay the numbered graph's).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Union

from . import _native
from ._display import Picture, Solution
from ._errors import check_count, translated
from ._graph import GraphLike, graph_text, node_labels, start_index

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "values"]

#: Default ``budget`` (search nodes of all starts together), as ``solve uvg``.
DEFAULT_BUDGET: int = _native.DEFAULT_UVG_BUDGET


@translated()
def values(g: GraphLike, *, budget: int = DEFAULT_BUDGET) -> Union[List[int], Dict[Any, int]]:
    """The Grundy value of every start vertex of ``g``, in vertex order: a
    line of ``gamesweep solve uvg -`` (``{"grundy": [...]}`` of ``--json``).
    For a ``networkx`` graph, a dict ``{node: value}`` (in ``G.nodes``
    order).

    Graphs of at most 16 vertices are solved exactly by the subset table in
    microseconds (``budget`` does not apply); larger ones by the exact
    search, raising :class:`~gamesweep.BudgetExceededError` after
    ``budget`` search nodes (0: unlimited). Consecutive calls on graphs of
    :func:`gamesweep.graphs` share table rows, as in the CLI's pipe. A bad
    graph or ``budget`` raises :class:`~gamesweep.InvalidInputError` (a
    ``ValueError``)::

        >>> values("Dhc")                      # the 5-cycle
        [0, 0, 0, 0, 0]
    """
    check_count("budget", budget)
    labels = node_labels(g)
    got = _native.uvg_values(graph_text(g), budget)
    if labels is None:
        return got
    return dict(zip(labels, got))


def _relabel(data: Dict[str, Any], labels: List[Any]) -> Dict[str, Any]:
    """``solve uvg --json``'s answer with node labels for vertex numbers."""

    def pair(e: List[int]) -> List[Any]:
        return [labels[e[0]], labels[e[1]]]

    out = dict(data)
    out["edges"] = [pair(e) for e in data["edges"]]
    out["matching"] = [pair(e) for e in data["matching"]]
    out["unmatched"] = [labels[v] for v in data["unmatched"]]
    starts = []
    for s in data["starts"]:
        s = dict(s)
        s["start"] = labels[s["start"]]
        if isinstance(s.get("winning_move"), int):
            s["winning_move"] = labels[s["winning_move"]]
        s["moves"] = [dict(m, vertex=labels[m["vertex"]]) for m in s["moves"]]
        starts.append(s)
    out["starts"] = starts
    return out


@translated()
def solve(g: GraphLike, start: Optional[Any] = None, *, budget: int = DEFAULT_BUDGET) -> Solution:
    """What ``gamesweep solve uvg G6 [--start S] --json`` prints, as a dict:
    ``n``, ``graph6``, ``edges``, ``max_degree``, ``nu`` (matching number),
    ``matching``, ``unmatched``, and ``starts``: per start its ``grundy``,
    ``first_player_wins``, ``winning_move``, the value of every ``moves``,
    ``nu_without`` and ``degree3``. Shown in Jupyter as the reports draw
    it (the start filled, a maximum matching gold, unmatched vertices red);
    it pickles.

    ``g``: a graph (graph6 or sparse6 text, an edge list, ``(n, edges)``, a
    ``networkx.Graph``, ...); ``start``: one start vertex (default: every
    vertex): a vertex number, or for a networkx graph a node label (and
    the answer names nodes); ``budget``: search nodes of all starts
    together (0: unlimited), as ``--budget``.

    Raises a :class:`~gamesweep.GamesweepError` with the CLI's message:
    :class:`~gamesweep.InvalidInputError` (a ``ValueError``) for a bad
    graph, a start that is not a vertex or a negative budget,
    :class:`~gamesweep.BudgetExceededError` for a budget run out; Ctrl-C
    (an interrupted Jupyter cell) stops a long solve with
    ``KeyboardInterrupt``::

        >>> s = solve("Dhc", start=0)          # the 5-cycle
        >>> s["nu"], s["starts"][0]["grundy"], s["starts"][0]["first_player_wins"]
        (2, 0, False)
    """
    check_count("budget", budget)
    labels = node_labels(g)
    index = start_index(labels, start)
    code = graph_text(g)
    text, svg = _native.uvg_solve(code, index, budget)
    data = json.loads(text)
    if labels is not None:
        data = _relabel(data, labels)
    return Solution(data, svg)


@translated()
def draw(g: GraphLike, start: Optional[Any] = None, *, budget: int = DEFAULT_BUDGET) -> Picture:
    """The picture of ``gamesweep solve uvg G6 [--start S] --svg``
    (``start`` as in :func:`solve`)."""
    check_count("budget", budget)
    index = start_index(node_labels(g), start)
    return Picture(_native.uvg_svg(graph_text(g), index, budget))
