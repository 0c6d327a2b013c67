"""Driving a coordinator (``gamesweep serve``) from Python: the CLI's
``launch``, ``status``, ``status --watch``, ``report`` (and ``report
--partial``), ``cancel``,
``pause``, ``resume``, ``project``, ``audit``, ``token issue|list|revoke``,
``export`` and ``import`` (also on a stopped store, ``--store``) and ``key
show|export``, over the same client, TLS options and environment variables
(``GAMESWEEP_COORDINATOR``, ``GAMESWEEP_TOKEN_FILE``, ``GAMESWEEP_TLS_CA``,
...). The CLI's ``verify`` and ``store check``, which need no coordinator,
are :func:`gamesweep.verify` and :func:`gamesweep.store_check`."""

from __future__ import annotations

import json
import sys
import time
import os
import warnings
from typing import Any, Dict, Iterable, List, Optional, Union

from . import _native
from ._errors import CoordinatorError, InvalidInputError, convert, count, translated

__all__ = ["Coordinator", "SETTLED"]

#: A file or folder: text or a path object (``pathlib.Path``).
_Path = Union[str, "os.PathLike[str]"]

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
    def report(self, id: str, out: Optional[str] = None, *, partial: bool = False) -> Any:
        """``gamesweep report ID --out DIR``: fetch the finished sweep's
        results and write them (default ``runs/ID``); the run as
        :class:`gamesweep.Results`.

        ``partial=True`` (``report ID --partial``): for a sweep not finished
        (running, paused, cancelled, sampled), a report of the shards done
        so far, marked "Partial report, not final" at the top of report.md
        and report.html, its results in ``results.partial.json`` (never
        ``results.json``, a final result), default folder ``runs/ID-partial``;
        the :class:`gamesweep.Results` of those shards, with ``partial``
        True. A sweep not finished without ``partial=True`` raises
        :class:`CoordinatorError` saying why there is no report."""
        from .results import Results

        if not isinstance(partial, bool):
            raise InvalidInputError(f"partial={partial!r}: expected True or False")
        if out is None:
            out = f"runs/{_id(id)}-partial" if partial else f"runs/{id}"
        try:
            _native.coordinator_report(_id(id), os.fspath(out), partial, **self._conn)
        except _native.GamesweepError as e:
            raise convert(Exception(_report_advice(str(e), id)), CoordinatorError) from None
        return Results.load(os.fspath(out))

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

    @translated(CoordinatorError)
    def token_issue(
        self, name: str, *, role: str = "worker", out: Optional[_Path] = None
    ) -> Dict[str, Any]:
        """``gamesweep token issue --name NAME [--role ROLE] [--out FILE]``
        (admin token): a credential for one worker or reader, as a dict
        ``name``, ``role``, ``fingerprint`` and ``secret`` (shown once; None
        when written to the new file ``out``, mode 0600). ``role``:
        ``"worker"`` (lease, submit) or ``"read"`` (status, results,
        export)."""
        if role not in ("worker", "read"):
            raise InvalidInputError(f"role={role!r}: expected 'worker' or 'read'")
        data: Dict[str, Any] = json.loads(
            _native.coordinator_token(
                "issue",
                name=_text("name", name),
                role=role,
                out=None if out is None else os.fspath(out),
                **self._conn,
            )
        )
        return data

    @translated(CoordinatorError)
    def token_list(self) -> List[Dict[str, Any]]:
        """``gamesweep token list --json`` (admin token): every credential
        issued, revoked ones too, each a dict ``name``, ``role``,
        ``issued_unix_ms``, ``revoked_unix_ms`` (None: in force) and
        ``fingerprint``."""
        data: List[Dict[str, Any]] = json.loads(_native.coordinator_token("list", **self._conn))
        return data

    @translated(CoordinatorError)
    def token_revoke(self, name: str) -> None:
        """``gamesweep token revoke NAME`` (admin token): the credential is
        refused from its next request on; its name is never reused."""
        _native.coordinator_token("revoke", name=_text("name", name), **self._conn)

    @translated(CoordinatorError)
    def export(
        self,
        id: str,
        file: _Path,
        *,
        store: Optional[_Path] = None,
        since: Iterable[_Path] = (),
    ) -> Dict[str, Any]:
        """``gamesweep export ID FILE [--store DIR] [--since PATH ...]``:
        write sweep ``id`` (definition, plan, solver version, finished
        results) to the export file ``file``, signed with the coordinator's
        key; from this coordinator, or with ``store`` from a stopped
        coordinator's store (or a ``run`` folder's ``OUT/store``).
        ``since`` (export files or folders of them; needs ``store``): only
        the shards none of them holds. What the file holds, as a dict:
        ``sweep_id``, ``kind``, ``file``, ``bytes``, ``shards``, ``done``
        (shards with results) and ``signer`` (the key's fingerprint, ``""``
        unsigned)."""
        since = [since] if isinstance(since, (str, os.PathLike)) else list(since)
        if since and store is None:
            raise InvalidInputError("since= needs store= (a stopped coordinator's store)")
        data: Dict[str, Any] = json.loads(
            _native.coordinator_export(
                _id(id),
                os.fspath(file),
                store=None if store is None else os.fspath(store),
                since=[os.fspath(p) for p in since],
                **self._conn,
            )
        )
        return data

    @translated(CoordinatorError)
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
        """``gamesweep import FILE [--store DIR] [--name ID] ...`` (``import``
        is a Python keyword): load an export file into this coordinator
        (admin token) or, with ``store``, into a stopped coordinator's
        store; its unfinished shards then run there. ``name``: import under
        this sweep id; ``trust_key`` (key files, needs ``store``): signers
        trusted besides the store's own key; ``require_signature``: refuse
        a file no trusted key signed; ``accept_solver_change`` (needs
        ``store``): take in results of another build of the kind's solver;
        ``replicate_fraction`` (``0.01`` or ``"1%"``): the share re-run by
        a second identity from now on (``--replicate-fraction``;
        ``verify_fraction``, its older name, still works and warns). What
        the import did, as a dict:
        ``sweep_id``, ``shards``, ``done``, ``signer``, ``trusted``,
        ``merged`` (into a sweep the store held), ``added``, ``confirmed``,
        ``conflicts`` (held shards whose results differ: each recorded as a
        mismatch and run again to decide)."""
        if name is not None:
            name = _id(name)
        keys = [trust_key] if isinstance(trust_key, (str, os.PathLike)) else list(trust_key)
        for what, given in (("trust_key=", bool(keys)), ("accept_solver_change=True", accept_solver_change)):
            if given and store is None:
                raise InvalidInputError(
                    f"{what} needs store= (a running coordinator trusts its own key "
                    "and those of `serve --trust-key` only, and refuses another solver build)"
                )
        share, keyword = replicate_fraction, "replicate_fraction"
        if verify_fraction is not None:
            if replicate_fraction is not None:
                raise InvalidInputError(
                    "replicate_fraction= and verify_fraction= (its older name) both given: give one"
                )
            warnings.warn(
                "verify_fraction= is now replicate_fraction= (the share replicated; "
                "verify is gamesweep.verify)",
                DeprecationWarning,
                stacklevel=3,
            )
            share, keyword = verify_fraction, "verify_fraction"
        fraction = None
        if share is not None:
            if isinstance(share, bool) or not isinstance(share, (int, float, str)):
                raise InvalidInputError(
                    f"{keyword}={share!r}: expected a share (0.01) or a percentage ('1%')"
                )
            fraction = f"{share}"
        data: Dict[str, Any] = json.loads(
            _native.coordinator_import(
                os.fspath(file),
                store=None if store is None else os.fspath(store),
                name=name,
                trust_key=[os.fspath(k) for k in keys],
                require_signature=bool(require_signature),
                accept_solver_change=bool(accept_solver_change),
                replicate_fraction=fraction,
                **self._conn,
            )
        )
        return data

    @staticmethod
    @translated(CoordinatorError)
    def key(
        store: _Path, *, out: Optional[_Path] = None
    ) -> Dict[str, str]:
        """``gamesweep key show --store DIR``: the key a stopped
        coordinator's store (or a ``run`` folder's ``OUT/store``) signs its
        export files with, as a dict ``store``, ``fingerprint`` and ``key``
        (the key line of a key file); with ``out``, also ``gamesweep key
        export --store DIR --out FILE``: the key file to pass as
        ``trust_key=`` (or ``--trust-key``) elsewhere."""
        data: Dict[str, str] = json.loads(
            _native.key(os.fspath(store), None if out is None else os.fspath(out))
        )
        return data

    def __repr__(self) -> str:
        return f"Coordinator({self.url or '$GAMESWEEP_COORDINATOR'!r})"


def _report_advice(message: str, id: str) -> str:
    """``report``'s message with the methods and keywords for the CLI's
    commands and options it advises."""
    for cli, py in (
        (f"`gamesweep report {id} --partial`", f"`report({id!r}, partial=True)`"),
        (f"`gamesweep resume {id}`", f"`resume({id!r})`"),
        (f"`gamesweep project {id}`", f"`project({id!r})`"),
        (
            f"`gamesweep launch KIND ... --name {id} --resume` (without --sample)",
            f"`launch(KIND, ..., name={id!r}, resume=True)` (without sample=)",
        ),
        (f"`gamesweep export {id} FILE`", f"`export({id!r}, FILE)`"),
        ("`gamesweep import FILE --name NEW`", "`import_(FILE, name=NEW)`"),
        ("pick another --out", "pick another out="),
    ):
        message = message.replace(cli, py)
    return message


def _text(what: str, value: object) -> str:
    """A name given to a method: text."""
    if not isinstance(value, str) or not value:
        raise InvalidInputError(f"{what}={value!r}: expected text")
    return value


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
