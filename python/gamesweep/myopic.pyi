from typing import Optional

from ._display import Picture, Solution
from ._graph import GraphLike

__all__ = ["DEFAULT_BUDGET", "draw", "solve", "value"]

DEFAULT_BUDGET: int

def solve(d: GraphLike, colouring: Optional[str] = None, *, budget: int = ...) -> Solution:
    """What ``gamesweep solve myopic BOARD --json`` prints."""
def value(d: GraphLike, colouring: Optional[str] = None, *, budget: int = ...) -> str:
    """The canonical value (CGSuite notation)."""
def draw(d: GraphLike, colouring: Optional[str] = None, *, budget: int = ...) -> Picture:
    """The picture of ``gamesweep solve myopic BOARD --svg``."""
