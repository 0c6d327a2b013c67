from typing import Any, Callable, Dict, Optional, Tuple, Union

class Picture:
    """An SVG picture; Jupyter shows it, ``str(p)`` / ``p.svg`` is the SVG text."""

    svg: str
    def __init__(self, svg: str) -> None: ...
    def _repr_svg_(self) -> str: ...
    def save(self, path: str) -> None:
        """Write the SVG to ``path``."""

class Draw:
    """How to draw a solution (picklable)."""

    function: str
    args: Tuple[Any, ...]
    def __init__(self, function: str, args: Tuple[Any, ...]) -> None: ...
    def __call__(self) -> str: ...

class Solution(Dict[str, Any]):
    """A solve's answer: the dict of the CLI's ``--json``, drawn in Jupyter; it pickles."""

    def __init__(self, data: Dict[str, Any], draw: Union[Draw, Callable[[], str]]) -> None: ...
    def picture(self) -> Picture:
        """The position's picture (SVG)."""
    def _repr_svg_(self) -> Optional[str]: ...

def frame_html(df: Any) -> str: ...
