"""Driving a coordinator (``gamesweep serve``) from Python: the CLI's
``launch``, ``status``, ``status --watch``, ``report``, ``cancel``,
``pause``, ``resume``, ``project`` and ``audit``, over the same client, TLS options and environment variables (``GAMESWEEP_COORDINATOR``,
``GAMESWEEP_TOKEN_FILE``, ``GAMESWEEP_TLS_CA``, ...)."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Dict, Iterable, List, Optional, Union

from . import _native
from ._errors import CoordinatorError, InvalidInputError, count, translated

__all__ = ["Coordinator", "SETTLED"]

#: Sweep states after which nothing happens without a new command.
SETTLED = frozenset({"done", "cancelled", "failed", "sampled", "paused"})


class Coordinator:
    """A coordinator at ``url`` (default: ``$GAMESWEEP_COORDINATOR``, else
    ``http://127.0.0.1:7461``), with the bearer token in ``token_file``
    (default: ``$GAMESWEEP_TOKEN_FILE``, else ``~/.gamesweep/token`` if it
    exists) and, for ``https://``, ``tls_ca``, ``tls_cert``, ``tls_key``
    (PEM files) as the CLI's ``--tls-*`` options."""

    def __init__(
        self,
        url: Optional[str] = None,
        token_file: Optional[str] = None,
        *,
        tls_ca: Optional[str] = None,
        tls_cert: Optional[str] = None,
        tls_key: Optional[str] = None,
    ) -> None:
        self.url = url
        self._conn = dict(
            url=url,
            token_file=None if token_file is None else str(token_file),
            tls_ca=tls_ca,
            tls_cert=tls_cert,
            tls_key=tls_key,
        )

    @translated(CoordinatorError)
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
        """Plan a sweep of ``kind`` with its parameters as keywords
        (``max_n=9`` is ``--max-n 9``); the sweep id. As ``gamesweep launch
        KIND ... [--name ID] [--shards K] [--resume] [--priority N]``."""
        words = [kind]
        for k, v in params.items():
            words += [f"--{k.replace('_', '-')}", str(v)]
        if name is not None:
            words += ["--name", name]
        if shards is not None:
            words += ["--shards", str(shards)]
        if resume:
            words.append("--resume")
        if priority is not None:
            words += ["--priority", str(priority)]
        reply = json.loads(_native.coordinator_launch(words, **self._conn))
        return str(reply["sweep_id"])

    @translated(CoordinatorError)
    def status(self, id: Optional[str] = None) -> Dict[str, Any]:
        """``gamesweep status [ID] --json`` as a dict: ``coordinator_version``
        and ``sweeps`` (each with ``state``, ``shards_done``,
        ``shards_total``, ``positions_done``, ...)."""
        data: Dict[str, Any] = json.loads(_native.coordinator_status(id, **self._conn))
        return data

    @translated(CoordinatorError)
    def sweep(self, id: str) -> Dict[str, Any]:
        """The status of sweep ``id``."""
        for s in self.status(id)["sweeps"]:
            if s["sweep_id"] == id:
                found: Dict[str, Any] = s
                return found
        raise CoordinatorError(f"no sweep `{id}`")

    def watch(self, id: str, *, interval: float = 2.0, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Follow sweep ``id`` until it is no longer running, with a progress
        bar (``tqdm``'s, in a notebook its widget, where tqdm is installed;
        else a line of text); its last status. ``timeout``: seconds to give
        up after (``TimeoutError``)."""
        t0 = time.monotonic()
        bar = _bar(id)
        try:
            while True:
                s = self.sweep(id)
                bar.update(s["shards_done"], s["shards_total"], s["state"])
                if s["state"] in SETTLED:
                    return s
                if timeout is not None and time.monotonic() - t0 > timeout:
                    raise TimeoutError(f"sweep {id} still {s['state']} after {timeout} s")
                time.sleep(interval)
        finally:
            bar.close()

    @translated(CoordinatorError)
    def report(self, id: str, out: Optional[str] = None) -> Any:
        """``gamesweep report ID --out DIR``: fetch the finished sweep's
        results and write them (default ``runs/ID``); the run as
        :class:`gamesweep.Results`."""
        from .results import Results

        out = out if out is not None else f"runs/{id}"
        _native.coordinator_report(id, str(out), **self._conn)
        return Results.load(str(out))

    @translated(CoordinatorError)
    def cancel(self, id: str) -> None:
        """``gamesweep cancel ID``: stop handing out the sweep's shards (for
        good; its state becomes ``cancelled``)."""
        _native.coordinator_act("cancel", _id(id), **self._conn)

    @translated(CoordinatorError)
    def pause(self, id: str) -> None:
        """``gamesweep pause ID``: stop handing out the sweep's shards for
        now (leases held may finish); :meth:`resume` continues it."""
        _native.coordinator_act("pause", _id(id), **self._conn)

    @translated(CoordinatorError)
    def resume(self, id: str) -> None:
        """``gamesweep resume ID``: hand out a paused sweep's shards again."""
        _native.coordinator_act("resume", _id(id), **self._conn)

    @translated(CoordinatorError)
    def project(
        self, id: str, *, cores: Optional[Iterable[int]] = None, out: Optional[str] = None
    ) -> Dict[str, Any]:
        """``gamesweep project ID [--cores C,...] [--out DIR] --json``: the
        whole cost of a sweep launched with ``sample=...``, projected from
        the sampled shards done so far, as a dict (the CLI's JSON).
        ``cores``: core counts to project wall time for (default: this
        machine's and 64); ``out``: also write ``projection.json`` and
        ``projection.md`` there."""
        cs: List[int] = []
        for c in cores if cores is not None else []:
            n = count("cores", c)
            if n is None or not 1 <= n <= 1_000_000:
                raise InvalidInputError(f"cores: {c!r} is not a core count in 1..=1000000")
            cs.append(n)
        data: Dict[str, Any] = json.loads(
            _native.coordinator_project(
                _id(id), cs, None if out is None else str(out), **self._conn
            )
        )
        return data

    @translated(CoordinatorError)
    def audit(self, last: int = 50) -> List[Dict[str, Any]]:
        """``gamesweep audit --last N --json``: the coordinator's log of
        admin actions (``launch``, ``cancel``, ...), oldest first, each a
        dict (``unix_ms``, ``action``, ``sweep_id``, ``role``, ...)."""
        n = count("last", last)
        assert n is not None
        data: List[Dict[str, Any]] = json.loads(
            _native.coordinator_audit(min(n, 2**32 - 1), **self._conn)
        )
        return data

    def __repr__(self) -> str:
        return f"Coordinator({self.url or '$GAMESWEEP_COORDINATOR'!r})"


def _id(id: object) -> str:
    """A sweep id given to a method: text."""
    if not isinstance(id, str) or not id:
        raise InvalidInputError(f"id={id!r}: expected a sweep id (text)")
    return id


class _bar:
    """tqdm's bar if tqdm is installed, else one line of text rewritten."""

    def __init__(self, id: str) -> None:
        self.id = id
        self.done = 0
        try:
            from tqdm.auto import tqdm

            self.tqdm = tqdm(desc=id, unit="shard")
        except ImportError:
            self.tqdm = None

    def update(self, done: int, total: int, state: str) -> None:
        if self.tqdm is not None:
            self.tqdm.total = total
            self.tqdm.update(done - self.done)
            self.tqdm.set_postfix_str(state)
        else:
            sys.stderr.write(f"\r{self.id}: {done}/{total} shards, {state}   ")
            sys.stderr.flush()
        self.done = done

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        else:
            sys.stderr.write("\n")
