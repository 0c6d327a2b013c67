from typing import Any, Dict, List, Optional

from ._display import Picture

__all__ = ["HISTOGRAM_COLUMNS", "PARTIAL_RESULTS", "Results", "WITNESS_COLUMNS"]

WITNESS_COLUMNS: List[str]
HISTOGRAM_COLUMNS: List[str]
PARTIAL_RESULTS: str

class Results:
    """A finished run's ``results.json`` as pandas DataFrames."""

    doc: Dict[str, Any]
    kind: str
    provenance: Optional[Dict[str, Any]]
    path: Optional[str]
    partial: bool
    params: Any
    witnesses: Any
    histograms: Any
    def __init__(
        self,
        doc: Dict[str, Any],
        presentation: Dict[str, Any],
        provenance: Optional[Dict[str, Any]],
        path: Optional[str],
        partial: bool = False,
    ) -> None: ...
    @classmethod
    def load(cls, path: str) -> Results:
        """Read ``path/results.json`` (and ``provenance.json``), or a partial report's ``results.partial.json``."""
    @classmethod
    def from_json(
        cls,
        text: str,
        provenance: Optional[Dict[str, Any]] = None,
        path: Optional[str] = None,
        partial: bool = False,
    ) -> Results:
        """A :class:`Results` from the text of a ``results.json``."""
    def histogram(self, chart: str, *, star: bool = False) -> Any:
        """One chart of :attr:`histograms`, wide (nimber series as Grundy values 0, 1, 2, ...)."""
    @property
    def by_n(self) -> Any:
        """The run's counts per number of vertices (index ``n``)."""
    def picture(self, i: int) -> Picture:
        """The picture of witness ``i``."""
    def _repr_html_(self) -> str: ...
