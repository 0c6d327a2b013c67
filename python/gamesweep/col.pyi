from typing import Optional

from ._display import Picture, Solution
from ._graph import GraphLike

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "value"]

DEFAULT_BUDGET: int

def solve(g: GraphLike, colouring: Optional[str] = None, *, budget: int = ...) -> Solution:
    """What ``gamesweep solve col BOARD --json`` prints."""
def value(g: GraphLike, colouring: Optional[str] = None, *, budget: int = ...) -> str:
    """The canonical value (CGSuite notation)."""
def draw(g: GraphLike, colouring: Optional[str] = None, *, budget: int = ...) -> Picture:
    """The picture of ``gamesweep solve col BOARD --svg``."""
