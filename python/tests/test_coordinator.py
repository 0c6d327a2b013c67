"""Coordinator against a real `gamesweep serve` on loopback, with a real
worker, compared with the CLI's `status --json` and `report`."""

import json
import os
import subprocess
import time

import pytest

import gamesweep as gs


@pytest.fixture
def served(cli, tmp_path):
    token = tmp_path / "token"
    token.write_text("py-test-token-0123456789abcdef0123456789\n")
    addr = tmp_path / "address"
    procs = []
    with open(tmp_path / "serve.log", "w") as log:
        procs.append(
            subprocess.Popen(
                [cli.path, "serve", "--listen", "127.0.0.1:0", "--store", str(tmp_path / "store"),
                 "--token-file", str(token), "--lease-secs", "5", "--address-file", str(addr)],
                stdout=subprocess.DEVNULL, stderr=log,
            )
        )
    try:
        deadline = time.monotonic() + 30
        while not (addr.exists() and addr.read_text().strip()):
            assert procs[0].poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "serve did not write its address in 30 s"
            time.sleep(0.05)
        url = addr.read_text().split()[0]

        def worker():
            with open(tmp_path / "worker.log", "w") as wlog:
                procs.append(
                    subprocess.Popen(
                        [cli.path, "worker", "--coordinator", url, "--token-file", str(token),
                         "--threads", "1"],
                        stdout=subprocess.DEVNULL, stderr=wlog,
                    )
                )

        yield url, token, worker
    finally:
        for p in procs:  # only the processes started here, by their handles
            p.kill()
            p.wait(timeout=10)


def test_launch_watch_report_against_serve(cli, served, tmp_path, monkeypatch):
    url, token, worker = served
    auth = ["--coordinator", url, "--token-file", str(token)]
    c = gs.Coordinator(url, token_file=str(token))
    assert c.status()["sweeps"] == []
    sid = c.launch("uvg", max_n=6, name="py-uvg", shards=4)
    assert sid == "py-uvg"
    mine, theirs = c.status(sid), cli.json("status", sid, "--json", *auth)
    # What moves between two calls: the coordinator's memory, rates.
    for st in (mine, theirs):
        st.pop("coordinator_rss_bytes", None), st.pop("coordinator_peak_rss_bytes", None)
        for s in st["sweeps"]:
            s.pop("rate", None), s.pop("eta_seconds", None)
    assert mine == theirs
    assert c.sweep(sid)["shards_total"] >= 1
    worker()
    final = c.watch(sid, interval=0.2, timeout=120)
    assert final["state"] == "done"
    r = c.report(sid, out=str(tmp_path / "py-report"))
    assert r.kind == "uvg" and not r.witnesses.empty
    cli.run("report", sid, "--out", str(tmp_path / "cli-report"), *auth)
    for f in ("results.json", "report.md"):
        assert (tmp_path / "py-report" / f).read_bytes() == (tmp_path / "cli-report" / f).read_bytes(), f
    # The CLI's environment variables.
    monkeypatch.setenv("GAMESWEEP_COORDINATOR", url)
    monkeypatch.setenv("GAMESWEEP_TOKEN_FILE", str(token))
    assert gs.Coordinator().sweep(sid)["state"] == "done"


def test_errors_are_the_cli_messages(cli, served, tmp_path):
    url, token, _ = served
    bad = tmp_path / "bad-token"
    bad.write_text("not-the-token-0123456789abcdef0123456789\n")
    with pytest.raises(gs.GamesweepError) as e:
        gs.Coordinator(url, token_file=str(bad)).status()
    r = cli.run("status", "--json", "--coordinator", url, "--token-file", str(bad), check=False)
    assert r.returncode != 0 and str(e.value) in r.stderr
    with pytest.raises(gs.GamesweepError, match="no-such-kind"):
        gs.Coordinator(url, token_file=str(token)).launch("no-such-kind")
    with pytest.raises(gs.InvalidInputError, match=r"`max_n=1000` is out of range"):
        gs.Coordinator(url, token_file=str(token)).launch("uvg", max_n=1000)
    # A misspelt keyword: named as a keyword, without clap's usage lines
    # (it printed `Usage: gamesweep launch uvg [OPTIONS]`).
    with pytest.raises(gs.InvalidInputError, match="unexpected keyword max_nn=") as e:
        gs.Coordinator(url, token_file=str(token)).launch("uvg", max_nn=9)
    assert "Usage" not in str(e.value) and "--" not in str(e.value), str(e.value)


def _state(cli, sid, auth):
    return cli.json("status", sid, "--json", *auth)["sweeps"][0]["state"]


def test_pause_resume_cancel_project_audit_are_the_clis(cli, served, tmp_path):
    """Every command the CLI sends a coordinator about a sweep has its
    method: each changes the sweep as the CLI's does (read back with the
    CLI's `status`), and `project` and `audit` answer the CLI's JSON."""
    url, token, worker = served
    auth = ["--coordinator", url, "--token-file", str(token)]
    c = gs.Coordinator(url, token_file=str(token))
    sid = c.launch("uvg", max_n=7, name="py-ctl", shards=8)
    c.pause(sid)
    assert _state(cli, sid, auth) == "paused" == c.sweep(sid)["state"]
    c.resume(sid)
    assert _state(cli, sid, auth) not in ("paused", "cancelled")
    c.cancel(sid)
    assert _state(cli, sid, auth) == "cancelled"
    # A sampled sweep, worked to its end: the projection is the CLI's.
    sampled = c.launch("uvg", max_n=7, name="py-sample", shards=16, sample="25%")
    worker()
    assert c.watch(sampled, interval=0.2, timeout=120)["state"] == "sampled"
    mine = c.project(sampled, cores=[1, 8], out=str(tmp_path / "proj"))
    theirs = cli.json("project", sampled, "--cores", "1,8", "--json", *auth)
    assert mine == theirs
    assert json.loads((tmp_path / "proj" / "projection.json").read_text()) == mine
    assert (tmp_path / "proj" / "projection.md").read_text().strip()
    # The audit log: what was done here, as `audit --json` lists it.
    log = c.audit()
    assert log == cli.json("audit", "--json", *auth)
    print([(e["action"], e["sweep_id"]) for e in log])
    assert [e["action"] for e in log if e["sweep_id"] == sid] == ["launch", "pause", "resume", "cancel"]


def test_control_errors_are_coordinator_errors(cli, served):
    url, token, _ = served
    c = gs.Coordinator(url, token_file=str(token))
    for op in (c.cancel, c.pause, c.resume):
        with pytest.raises(gs.CoordinatorError, match="no-such-sweep"):
            op("no-such-sweep")
    with pytest.raises(gs.InvalidInputError):
        c.pause(7)
    with pytest.raises(gs.InvalidInputError, match="cores"):
        c.project("x", cores=[0])


def test_tokens_are_the_clis(cli, served, tmp_path):
    """`token issue|list|revoke`: what each method does is what the CLI
    reads back with `token list --json`, and an issued secret is a
    credential the coordinator takes."""
    url, token, _ = served
    auth = ["--coordinator", url, "--token-file", str(token)]
    c = gs.Coordinator(url, token_file=str(token))
    assert c.token_list() == cli.json("token", "list", "--json", *auth) == []
    alice = c.token_issue("alice")
    assert alice["name"] == "alice" and alice["role"] == "worker"
    assert alice["secret"] and alice["fingerprint"].startswith("sha256:")
    reader = tmp_path / "reader.token"
    r = c.token_issue("reader", role="read", out=reader)
    assert r["secret"] is None and r["role"] == "read"
    assert os.stat(reader).st_mode & 0o777 == 0o600
    # The secret written is a credential: the CLI reads status with it.
    assert cli.json("status", "--json", "--coordinator", url, "--token-file", str(reader))["sweeps"] == []
    cli.run("token", "issue", "--name", "bob", *auth)
    listed = c.token_list()
    assert listed == cli.json("token", "list", "--json", *auth)
    assert [(t["name"], t["role"], t["fingerprint"]) for t in listed] == [
        ("alice", "worker", alice["fingerprint"]),
        ("bob", "worker", listed[1]["fingerprint"]),
        ("reader", "read", r["fingerprint"]),
    ]
    assert all(t["revoked_unix_ms"] is None for t in listed)
    c.token_revoke("reader")
    listed = c.token_list()
    assert listed == cli.json("token", "list", "--json", *auth)
    assert [t["name"] for t in listed if t["revoked_unix_ms"] is not None] == ["reader"]
    # Refused from its next request on, as the CLI finds.
    bad = cli.run("status", "--json", "--coordinator", url, "--token-file", str(reader), check=False)
    assert bad.returncode != 0
    # Errors: the CLI's, as CoordinatorError; a bad role or an existing
    # secret file named by keyword.
    with pytest.raises(gs.CoordinatorError, match="refusing to overwrite"):
        c.token_issue("carol", out=reader)
    with pytest.raises(gs.InvalidInputError, match="role='admin'"):
        c.token_issue("carol", role="admin")
    with pytest.raises(gs.CoordinatorError) as e:
        c.token_issue("alice")
    r2 = cli.run("token", "issue", "--name", "alice", *auth, check=False)
    assert r2.returncode != 0 and str(e.value) in r2.stderr


def test_export_import_key_are_the_clis(cli, served, tmp_path):
    """`export`, `import` (into the coordinator and into a stopped store)
    and `key show|export`: the files written are byte for byte the CLI's,
    and what an import did is what the CLI's `status --json` then shows."""
    url, token, worker = served
    auth = ["--coordinator", url, "--token-file", str(token)]
    c = gs.Coordinator(url, token_file=str(token))
    sid = c.launch("uvg", max_n=6, name="py-x", shards=4)
    worker()
    assert c.watch(sid, interval=0.2, timeout=120)["state"] == "done"
    shards = c.sweep(sid)["shards_total"]
    # Export from the running coordinator: the CLI's file, byte for byte.
    mine, theirs = tmp_path / "py.gsx", tmp_path / "cli.gsx"
    held = c.export(sid, mine)
    cli.run("export", sid, str(theirs), *auth)
    assert mine.read_bytes() == theirs.read_bytes()
    assert held["sweep_id"] == sid and held["kind"] == "uvg"
    assert held["shards"] == held["done"] == shards
    assert held["bytes"] == mine.stat().st_size and held["file"] == str(mine)
    assert held["signer"].startswith("sha256:")
    # Import into the coordinator under new names, by each: the same sweep.
    got = c.import_(mine, name="py-imp")
    cli.run("import", str(theirs), "--name", "cli-imp", *auth)
    status = {s["sweep_id"]: s for s in cli.json("status", "--json", *auth)["sweeps"]}
    a, b = dict(status["py-imp"]), dict(status["cli-imp"])
    for s in (a, b):
        for k in ("sweep_id", "rate", "eta_seconds", "created_unix_ms", "updated_unix_ms"):
            s.pop(k, None)
    assert a == b
    assert got == {
        "sweep_id": "py-imp", "shards": shards, "done": shards, "signer": held["signer"],
        "trusted": True, "merged": False, "added": shards, "confirmed": 0,
        "conflicts": 0,
    }
    assert status["py-imp"]["shards_done"] == shards
    # Into a stopped store (a new one), by each; then that store's key and
    # its own export, each the CLI's.
    st_py, st_cli = tmp_path / "store-py", tmp_path / "store-cli"
    got = c.import_(mine, store=st_py, replicate_fraction="0%")
    cli.run("import", str(theirs), "--store", str(st_cli), "--replicate-fraction", "0%")
    assert got["sweep_id"] == sid and got["done"] == shards
    # Another store's key did not sign it: imported as untrusted.
    assert got["trusted"] is False and got["signer"] == held["signer"]
    key = gs.Coordinator.key(st_py)
    shown = cli.run("key", "show", "--store", str(st_py)).stdout.splitlines()
    assert shown == [f"export signing key of {st_py}: {key['fingerprint']}", key["key"]]
    assert key["store"] == str(st_py)
    k_py, k_cli = tmp_path / "py.key", tmp_path / "cli.key"
    assert c.key(st_py, out=k_py) == key
    cli.run("key", "export", "--store", str(st_py), "--out", str(k_cli))
    assert k_py.read_bytes() == k_cli.read_bytes()
    from_store, from_cli = tmp_path / "store-py.gsx", tmp_path / "store-cli.gsx"
    held2 = c.export(sid, from_store, store=st_py)
    cli.run("export", sid, str(from_cli), "--store", str(st_py))
    assert from_store.read_bytes() == from_cli.read_bytes()
    assert held2["signer"] == key["fingerprint"] != held["signer"]
    # trust_key=: the store's key file makes its export trusted elsewhere;
    # require_signature= refuses it without.
    trusted = c.import_(from_store, store=tmp_path / "store-3", trust_key=[k_py])
    assert trusted["trusted"] is True and trusted["signer"] == key["fingerprint"]
    with pytest.raises(gs.CoordinatorError, match="signed") as e:
        c.import_(from_store, store=tmp_path / "store-4", require_signature=True)
    r = cli.run("import", str(from_cli), "--store", str(tmp_path / "store-5"),
                "--require-signature", check=False)
    assert r.returncode != 0 and str(e.value).replace(str(from_store), str(from_cli)) in r.stderr
    # A merge: importing the same file again changes nothing.
    again = c.import_(mine, store=st_py)
    assert again["merged"] is True and again["added"] == 0 and again["confirmed"] == shards
    assert again["conflicts"] == 0


def test_export_import_key_errors(cli, served, tmp_path):
    url, token, _ = served
    c = gs.Coordinator(url, token_file=str(token))
    with pytest.raises(gs.CoordinatorError, match="no-such-sweep"):
        c.export("no-such-sweep", tmp_path / "x.gsx")
    with pytest.raises(gs.InvalidInputError, match="since= needs store="):
        c.export("x", tmp_path / "x.gsx", since=[tmp_path])
    with pytest.raises(gs.InvalidInputError, match="trust_key= needs store="):
        c.import_(tmp_path / "x.gsx", trust_key=[tmp_path / "k"])
    with pytest.raises(gs.InvalidInputError, match="accept_solver_change=True needs store="):
        c.import_(tmp_path / "x.gsx", accept_solver_change=True)
    with pytest.raises(gs.CoordinatorError, match="reading .*x.gsx"):
        c.import_(tmp_path / "x.gsx")
    with pytest.raises(gs.InvalidInputError, match="replicate_fraction"):
        c.import_(tmp_path / "x.gsx", replicate_fraction="lots")
    # The older keyword still sets it, and warns.
    with pytest.warns(DeprecationWarning, match="replicate_fraction="):
        with pytest.raises(gs.InvalidInputError, match="invalid value 'lots'"):
            c.import_(tmp_path / "x.gsx", verify_fraction="lots")
    with pytest.raises(gs.InvalidInputError, match="both given"):
        c.import_(tmp_path / "x.gsx", verify_fraction="1%", replicate_fraction="1%")
    with pytest.raises(gs.CoordinatorError, match="no such store"):
        gs.Coordinator.key(tmp_path / "nowhere")


#: Connected graphs on n vertices, n = 1..7 (MISSION.md's table).
CONNECTED = {1: 1, 2: 1, 3: 2, 4: 6, 5: 21, 6: 112, 7: 853}


def test_report_partial_is_the_clis(cli, served, tmp_path, monkeypatch):
    """`report(id, partial=True)` is `report ID --partial`: a sweep not
    finished gets the CLI's partial report (its files byte for byte), its
    counts those of the shards done; without `partial=True` the error says
    how to ask for one, by keyword. On a sweep whose shards are all done,
    the partial results are the final results.json."""
    url, token, worker = served
    auth = ["--coordinator", url, "--token-file", str(token)]
    c = gs.Coordinator(url, token_file=str(token))
    sid = c.launch("uvg", max_n=7, name="py-part", shards=16, sample="25%")
    whole = c.launch("uvg", max_n=6, name="py-whole", shards=4)
    worker()
    s = c.watch(sid, interval=0.2, timeout=120)
    assert s["state"] == "sampled" and 0 < s["shards_done"] < s["shards_total"], s
    with pytest.raises(gs.CoordinatorError, match=r"`report\('py-part', partial=True\)` writes a partial") as e:
        c.report(sid, out=str(tmp_path / "none"))
    # The advice in methods and keywords, not the CLI's commands.
    assert "`project('py-part')`" in str(e.value) and "name='py-part', resume=True" in str(e.value)
    assert "gamesweep " not in str(e.value) and "--" not in str(e.value), str(e.value)
    assert not (tmp_path / "none").exists()
    r = c.report(sid, out=str(tmp_path / "py"), partial=True)
    cli.run("report", sid, "--partial", "--out", str(tmp_path / "cli"), *auth)
    for f in ("results.partial.json", "report.md", "report.html"):
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes(), f
    assert not (tmp_path / "py" / "results.json").exists()
    md = (tmp_path / "py" / "report.md").read_text()
    done, total = s["shards_done"], s["shards_total"]
    assert f"**Partial report, not final.** Sweep `py-part` is sampled: {done}/{total} shards done." in md, md
    assert r.partial is True and r.kind == "uvg" and r.path == str(tmp_path / "py")
    # The done shards' counts: their positions are what the coordinator
    # counted for them, and no n has more graphs than there are (some
    # shards are not done, so fewer in all).
    assert int(r.by_n["positions"].sum()) == s["positions_done"]
    assert all(0 <= r.by_n.loc[n, "graphs"] <= CONNECTED[n] for n in r.by_n.index)
    assert int(r.by_n["graphs"].sum()) < sum(CONNECTED.values())
    # Loaded again from its folder: still partial.
    assert gs.Results.load(str(tmp_path / "py")).partial is True
    # The default folder: runs/ID-partial (the CLI's is sweeps/ID-partial).
    monkeypatch.chdir(tmp_path)
    c.report(sid, partial=True)
    assert (tmp_path / "runs" / "py-part-partial" / "results.partial.json").read_bytes() == (
        tmp_path / "py" / "results.partial.json"
    ).read_bytes()
    # Every shard done: the partial results are the final ones.
    assert c.watch(whole, interval=0.2, timeout=120)["state"] == "done"
    final = c.report(whole, out=str(tmp_path / "final"))
    assert final.partial is False
    c.report(whole, out=str(tmp_path / "all-done"), partial=True)
    assert (tmp_path / "all-done" / "results.partial.json").read_bytes() == (
        tmp_path / "final" / "results.json"
    ).read_bytes()
    # A final report is never written over; errors name keywords.
    with pytest.raises(gs.CoordinatorError, match="pick another out=$"):
        c.report(whole, out=str(tmp_path / "final"), partial=True)
    with pytest.raises(gs.InvalidInputError, match="partial='yes'"):
        c.report(whole, partial="yes")
