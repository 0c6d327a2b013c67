"""Myopic Col on a digraph: ``gamesweep solve myopic``.

As Col, but a vertex may not take the colour of an out-neighbour only (the
player sees along arcs). Boards are digraph6 (``&...``).
"""

from __future__ import annotations

import json
from typing import Optional

from . import _native
from ._display import Picture, Solution
from ._errors import check_count, translated
from ._graph import GraphLike, to_digraph6

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "value"]

#: Default ``budget`` (solver work), as ``solve myopic``.
DEFAULT_BUDGET: int = _native.DEFAULT_COL_BUDGET


@translated()
def solve(
    d: GraphLike, colouring: Optional[str] = None, *, budget: int = DEFAULT_BUDGET
) -> Solution:
    """What ``gamesweep solve myopic D6 [--colouring C] --json`` prints, as
    a dict. ``d``: digraph6 text, ``(n, arcs)``, a list of arcs or a
    ``networkx.DiGraph``."""
    check_count("budget", budget)
    code = to_digraph6(d)
    text, svg = _native.col_solve(code, colouring, True, budget)
    return Solution(json.loads(text), svg)


def value(d: GraphLike, colouring: Optional[str] = None, *, budget: int = DEFAULT_BUDGET) -> str:
    """The canonical value of Myopic Col on ``d`` with ``colouring``."""
    return str(solve(d, colouring, budget=budget)["value"])


@translated()
def draw(d: GraphLike, colouring: Optional[str] = None, *, budget: int = DEFAULT_BUDGET) -> Picture:
    """The picture of ``gamesweep solve myopic D6 --svg``."""
    check_count("budget", budget)
    return Picture(_native.col_svg(to_digraph6(d), colouring, True, budget))
