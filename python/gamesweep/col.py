"""Col on a graph: ``gamesweep solve col``.

Left colours a vertex blue, Right red; no two adjacent vertices of the same
colour; who cannot move loses. Values in CGSuite notation.
"""

from __future__ import annotations

import json
from typing import Optional

from . import _native
from ._display import Picture, Solution
from ._errors import check_count, translated
from ._graph import GraphLike, graph_text

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "value"]

#: Default ``budget`` (solver work), as ``solve col``.
DEFAULT_BUDGET: int = _native.DEFAULT_COL_BUDGET


@translated()
def solve(
    g: GraphLike, colouring: Optional[str] = None, *, budget: int = DEFAULT_BUDGET
) -> Solution:
    """What ``gamesweep solve col G6 [--colouring C] --json`` prints, as a
    dict (``value``, ``outcome``, options, ...). ``colouring``: one character
    per vertex, ``.`` uncoloured, ``L``/``B`` blue, ``R`` red (default: all
    uncoloured). Raises :class:`~gamesweep.BudgetExceededError` after
    ``budget`` units of work (0: unlimited), :class:`~gamesweep.InvalidInputError`
    (a ``ValueError``) for a bad board, colouring or budget; it pickles."""
    check_count("budget", budget)
    code = graph_text(g)
    text, svg = _native.col_solve(code, colouring, False, budget)
    return Solution(json.loads(text), svg)


def value(g: GraphLike, colouring: Optional[str] = None, *, budget: int = DEFAULT_BUDGET) -> str:
    """The canonical value of Col on ``g`` with ``colouring`` (CGSuite
    notation, e.g. ``"*"``, ``"1/2"``, ``"-3/4*"``): ``solve(...)["value"]``.
    ``gamesweep.Value(value(...))`` is the value as an object that adds
    (boards side by side), negates and compares."""
    return str(solve(g, colouring, budget=budget)["value"])


@translated()
def draw(g: GraphLike, colouring: Optional[str] = None, *, budget: int = DEFAULT_BUDGET) -> Picture:
    """The picture of ``gamesweep solve col G6 --svg``."""
    check_count("budget", budget)
    return Picture(_native.col_svg(graph_text(g), colouring, False, budget))
