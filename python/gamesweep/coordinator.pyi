import os
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Union

from .results import Results

__all__ = ["Coordinator", "SETTLED"]

_Path = Union[str, "os.PathLike[str]"]

SETTLED: FrozenSet[str]

class Coordinator:
    """A coordinator (``gamesweep serve``) and the CLI's client commands."""

    url: Optional[str]
    def __init__(
        self,
        url: Optional[str] = None,
        token_file: Optional[str] = None,
        *,
        tls_ca: Optional[str] = None,
        tls_cert: Optional[str] = None,
        tls_key: Optional[str] = None,
    ) -> None: ...
    def launch(
        self,
        kind: str,
        *,
        name: Optional[str] = None,
        shards: Optional[int] = None,
        resume: bool = False,
        priority: Optional[int] = None,
        **params: Union[int, str],
    ) -> str:
        """Plan a sweep (``gamesweep launch``); its id."""
    def status(self, id: Optional[str] = None) -> Dict[str, Any]:
        """``gamesweep status [ID] --json``."""
    def sweep(self, id: str) -> Dict[str, Any]:
        """The status of sweep ``id``."""
    def watch(
        self, id: str, *, interval: float = 2.0, timeout: Optional[float] = None
    ) -> Dict[str, Any]:
        """Follow sweep ``id`` until it settles; its last status."""
    def report(self, id: str, out: Optional[str] = None, *, partial: bool = False) -> Results:
        """``gamesweep report ID --out DIR [--partial]``; the run (or its done shards) as :class:`Results`."""
    def cancel(self, id: str) -> None:
        """``gamesweep cancel ID``."""
    def pause(self, id: str) -> None:
        """``gamesweep pause ID``."""
    def resume(self, id: str) -> None:
        """``gamesweep resume ID``."""
    def project(
        self, id: str, *, cores: Optional[Iterable[int]] = None, out: Optional[str] = None
    ) -> Dict[str, Any]:
        """``gamesweep project ID --json``, as a dict."""
    def audit(self, last: int = 50) -> List[Dict[str, Any]]:
        """``gamesweep audit --last N --json``."""
    def token_issue(
        self, name: str, *, role: str = "worker", out: Optional[_Path] = None
    ) -> Dict[str, Any]:
        """``gamesweep token issue``: ``name``, ``role``, ``fingerprint``, ``secret``."""
    def token_list(self) -> List[Dict[str, Any]]:
        """``gamesweep token list --json``."""
    def token_revoke(self, name: str) -> None:
        """``gamesweep token revoke NAME``."""
    def export(
        self,
        id: str,
        file: _Path,
        *,
        store: Optional[_Path] = None,
        since: Iterable[_Path] = (),
    ) -> Dict[str, Any]:
        """``gamesweep export ID FILE``; what the file holds."""
    def import_(
        self,
        file: _Path,
        *,
        store: Optional[_Path] = None,
        name: Optional[str] = None,
        trust_key: Iterable[_Path] = (),
        require_signature: bool = False,
        accept_solver_change: bool = False,
        replicate_fraction: Optional[Union[float, str]] = None,
        verify_fraction: Optional[Union[float, str]] = None,
    ) -> Dict[str, Any]:
        """``gamesweep import FILE``; what the import did."""
    @staticmethod
    def key(store: _Path, *, out: Optional[_Path] = None) -> Dict[str, str]:
        """``gamesweep key show --store DIR`` (and ``key export`` with ``out``)."""
