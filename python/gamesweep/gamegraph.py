"""Explicit game graphs: ``gamesweep solve gamegraph`` (docs/gamegraph-format.md)."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from . import _native
from ._errors import check_count, translated

__all__ = ["solve"]


@translated()
def solve(text: str, *, format: str = "auto", budget: Optional[int] = None) -> Dict[str, Any]:
    """What ``gamesweep solve gamegraph FILE --json`` prints for a game file
    whose text is ``text`` (the text format or JSON; ``format``: ``"auto"``,
    ``"text"`` or ``"json"``): outcome labels, Grundy numbers, a kernel,
    minimax values and, for a declared sum, the pair table. ``budget``: the
    kernel search's branching decisions per cyclic game (default: by size;
    0: unlimited); a search that runs out reports the kernel as given up."""
    check_count("budget", budget, optional=True)
    data: Dict[str, Any] = json.loads(_native.gamegraph_solve(text, format, budget))
    return data
