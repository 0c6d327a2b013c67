from typing import Any, Dict, Optional

class Picture:
    """An SVG picture; Jupyter shows it, ``str(p)`` / ``p.svg`` is the SVG text."""

    svg: str
    def __init__(self, svg: str) -> None: ...
    def _repr_svg_(self) -> str: ...
    def save(self, path: str) -> None:
        """Write the SVG to ``path``."""

class Solution(Dict[str, Any]):
    """A solve's answer: the dict of the CLI's ``--json``, drawn in Jupyter
    with the picture the same solve drew; it pickles."""

    def __init__(self, data: Dict[str, Any], svg: Optional[str]) -> None: ...
    def picture(self) -> Picture:
        """The position's picture (SVG)."""
    def _repr_svg_(self) -> Optional[str]: ...

def frame_html(df: Any) -> str: ...
