import os
from typing import Any, Dict, Iterable, Optional, Union

__all__ = ["store_check", "verify"]

_Path = Union[str, "os.PathLike[str]"]

def verify(
    file: _Path,
    *,
    sample: Union[float, str],
    seed: int = 0,
    threads: Optional[int] = None,
    trust_key: Iterable[_Path] = (),
    require_signature: bool = False,
    record: Optional[_Path] = None,
) -> Dict[str, Any]:
    """``gamesweep verify FILE --sample F``: re-run a sample of an export file's shards; what was found (``ok``, ``mismatches``, ...)."""
def store_check(dir: _Path) -> Dict[str, Any]:
    """``gamesweep store check DIR``: a stopped store checked; what was found (``ok``, ``problems``, ...)."""
