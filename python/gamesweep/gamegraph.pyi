from typing import Any, Dict, Optional

__all__ = ["solve"]

def solve(text: str, *, format: str = "auto", budget: Optional[int] = None) -> Dict[str, Any]:
    """What ``gamesweep solve gamegraph FILE --json`` prints."""
