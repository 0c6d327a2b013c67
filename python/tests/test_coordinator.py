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
