from typing import Any, Dict, List, Optional, Union

from ._display import Picture, Solution
from ._graph import GraphLike

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "values"]

DEFAULT_BUDGET: int

def values(g: GraphLike, *, budget: int = ...) -> Union[List[int], Dict[Any, int]]:
    """The Grundy value of every start vertex of ``g`` (a networkx graph: ``{node: value}``)."""
def solve(g: GraphLike, start: Optional[Any] = None, *, budget: int = ...) -> Solution:
    """What ``gamesweep solve uvg G6 [--start S] --json`` prints."""
def draw(g: GraphLike, start: Optional[Any] = None, *, budget: int = ...) -> Picture:
    """The picture of ``gamesweep solve uvg G6 --svg``."""
