"""Checking sweeps' files on this machine, no coordinator: the CLI's
``gamesweep verify FILE ...`` (:func:`verify`: re-run a sample of an
export file's shards) and ``gamesweep store check DIR`` (:func:`store_check`:
a stopped coordinator's store, or a ``run`` folder's), by the CLI's own
code. What they find (mismatches, damage) is in the dict they answer
(``ok`` False), as the CLI prints it and exits non-zero; a file or store
that cannot be checked at all raises :class:`InvalidInputError`."""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, Iterable, Optional, Union

from . import _native
from ._errors import GamesweepError, InvalidInputError, convert, count

__all__ = ["store_check", "verify"]

#: A file or folder: text or a path object (``pathlib.Path``).
_Path = Union[str, "os.PathLike[str]"]

# The CLI's option names in `verify`'s messages, as this function's keywords.
_VERIFY_WORDS = (
    (re.compile(r"--require-signature\b"), "require_signature=True"),
    (re.compile(r"no --trust-key names it"), "no trust_key= names it"),
    (re.compile(r"--trust-key\b"), "trust_key="),
    (re.compile(r"--record\b"), "record="),
)


def _verify_text(message: str) -> str:
    for pattern, keyword in _VERIFY_WORDS:
        message = pattern.sub(keyword, message)
    return message


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
    """``gamesweep verify FILE --sample F [--seed S] [--threads T]
    [--trust-key KEY ...] [--require-signature] [--record DIR]``: say who signed the
    export file ``file``, re-derive its plan from its kind and parameters
    (a file whose plan is not this build's is refused), re-run a seeded
    sample of its finished shards here and compare each with the exported
    result.

    - ``sample``: the share of the finished shards re-run: ``0.05``,
      ``"5%"`` or ``1`` (all).
    - ``seed``: the seed of the (deterministic) choice of shards.
    - ``threads``: threads for the re-runs (default: every core).
    - ``trust_key``: key files (:meth:`Coordinator.key` with ``out``, or
      ``gamesweep key export``) whose signature makes the file trusted.
    - ``require_signature``: refuse a file no trusted key signed.
    - ``record``: a report folder: what was found is added to its
      ``verified.json``, which the report written there states in its
      Verification section (its ``results.json``, if any, must be of the
      same sweep).

    What was found, as a dict: ``ok`` (every re-run shard matched),
    ``mismatches`` (each ``{"shard", "why"}``), ``rerun`` (the shards
    re-run, in order), ``finished`` (finished shards in the file),
    ``sweep_id``, ``kind``, ``signature`` (the CLI's sentence), ``signer``
    (the key's fingerprint, ``""`` unsigned), ``trusted``, ``sample``,
    ``seed``, ``threads``, ``seconds`` and ``summary`` (the CLI's last
    line). A file that cannot be checked (unreadable, another solver
    version, a plan this build does not make, untrusted under
    ``require_signature``) raises :class:`InvalidInputError`; Ctrl-C stops
    the re-runs and raises ``KeyboardInterrupt``."""
    if isinstance(sample, bool) or not isinstance(sample, (int, float, str)):
        raise InvalidInputError(
            f"sample={sample!r}: expected a share (0.05), a percentage ('5%') or 1 (all)"
        )
    if not isinstance(require_signature, bool):
        raise InvalidInputError(f"require_signature={require_signature!r}: expected True or False")
    share = repr(sample) if isinstance(sample, float) else f"{sample}"
    n_seed = count("seed", seed)
    n_threads = None
    if threads is not None:
        n_threads = count("threads", threads)
        if n_threads is None or not 1 <= n_threads <= 1024:
            raise InvalidInputError(f"threads={threads!r}: expected a thread count in 1..=1024")
    keys = [trust_key] if isinstance(trust_key, (str, os.PathLike)) else list(trust_key)
    try:
        text = _native.verify(
            os.fspath(file),
            sample=share,
            seed=n_seed or 0,
            threads=n_threads,
            trust_key=[os.fspath(k) for k in keys],
            require_signature=require_signature,
            record=None if record is None else os.fspath(record),
        )
    except _native.GamesweepError as e:
        raise convert(GamesweepError(_verify_text(str(e)))) from None
    data: Dict[str, Any] = json.loads(text)
    data["signature"] = _verify_text(data["signature"])
    return data


def store_check(dir: _Path) -> Dict[str, Any]:
    """``gamesweep store check DIR``: check a stopped coordinator's store
    (``serve --store DIR``), or a ``run`` folder's ``store/``, deeply:
    every stored value's checksum and decoding, every shard result decoded
    with its sweep's kind, and the journal of acknowledged work against the
    store (every acknowledged result present, with the SHA-256 it was
    acknowledged with). Stop the coordinator first.

    What was found, as a dict: ``ok`` (nothing acknowledged is missing or
    damaged), ``problems`` (one line each, as the CLI lists them: the
    damaged tree, sweep and shards), ``store`` (the directory checked),
    ``damaged_values``, ``journal_records``, ``journal_sweeps``,
    ``acknowledged``, ``torn_bytes``, ``sweeps`` (each ``sweep_id``,
    ``kind``, ``launch``, ``shards``, ``stored``, ``acknowledged`` (None:
    not journaled yet), ``missing``, ``differing``, ``unjournaled``,
    ``undecodable``) and ``text`` (what the CLI prints). No store there, or
    one sled cannot open, raises :class:`InvalidInputError`."""
    if not isinstance(dir, (str, os.PathLike)):
        raise InvalidInputError(f"dir={dir!r}: expected a folder (text or a path)")
    try:
        text = _native.store_check(os.fspath(dir))
    except _native.GamesweepError as e:
        raise convert(e) from None
    data: Dict[str, Any] = json.loads(text)
    return data
