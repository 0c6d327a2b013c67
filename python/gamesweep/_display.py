"""Rich display in Jupyter: pictures as SVG, solutions as dicts that draw."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple, Union

from . import _native


class Picture:
    """An SVG picture (the reports' drawing of a position). Jupyter shows it;
    ``str(p)`` / ``p.svg`` is the SVG text."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<gamesweep.Picture, {len(self.svg)} bytes of SVG>"

    def save(self, path: str) -> None:
        """Write the SVG to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


class Draw:
    """How to draw a solution: a function of the Rust half and its
    arguments (picklable, unlike a closure)."""

    def __init__(self, function: str, args: Tuple[Any, ...]) -> None:
        self.function = function
        self.args = args

    def __call__(self) -> str:
        svg: str = getattr(_native, self.function)(*self.args)
        return svg

    def __repr__(self) -> str:
        return f"Draw({self.function!r}, {self.args!r})"


class Solution(Dict[str, Any]):
    """A solve's answer: the dict the CLI prints with ``--json`` (compare it,
    index it, ``json.dumps`` it, pickle it), drawn in Jupyter as the
    reports draw the position."""

    def __init__(self, data: Dict[str, Any], draw: Union[Draw, Callable[[], str]]) -> None:
        super().__init__(data)
        self._draw = draw

    def picture(self) -> Picture:
        """The position's picture (SVG)."""
        return Picture(self._draw())

    def _repr_svg_(self) -> Optional[str]:
        try:
            return self._draw()
        except Exception:  # a picture is a nicety: fall back to the text
            return None


def frame_html(df: Any) -> str:
    """HTML of a pandas DataFrame (as Jupyter shows it)."""
    return str(df.to_html())
