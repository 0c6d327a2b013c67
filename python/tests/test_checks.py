"""`verify` and `store_check` against the CLI's `gamesweep verify` and
`gamesweep store check`, on a real local run's store and its export file;
the store's journal read and damaged here by its documented layout
(coordinator/engine/src/store/journal.rs)."""

import json
import re
import shutil
import struct
import zlib

import pytest

import gamesweep as gs

#: The journal's magic and the tag of a "shard result acknowledged" record.
MAGIC, TAG_DONE = b"gsjrnl01", 2


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """A finished local run of uvg up to 6 vertices, in 8 shards."""
    out = tmp_path_factory.mktemp("checks") / "run"
    r = gs.run("uvg", max_n=6, out=str(out), shards=8, threads=1)
    assert r.kind == "uvg"
    return out


def journal(path):
    """The records of a journal file: (offset, crc32, payload) each, in order."""
    data = path.read_bytes()
    assert data[:8] == MAGIC
    out, at = [], 8
    while at < len(data):
        length, crc = struct.unpack_from("<II", data, at)
        out.append((at, crc, data[at + 8 : at + 8 + length]))
        at += 8 + length
    return out


def test_store_check_says_ok_as_the_cli(cli, local_run):
    c = gs.store_check(local_run)
    assert c["ok"] is True and c["problems"] == []
    # A run folder: its store/ is checked; what the CLI prints, word for word.
    assert c["store"] == str(local_run / "store")
    assert c["text"] == cli.run("store", "check", str(local_run)).stdout
    assert c["text"].endswith("OK: nothing acknowledged is missing or damaged\n")
    (s,) = c["sweeps"]
    assert (s["sweep_id"], s["kind"]) == ("run", "uvg")
    assert s["stored"] == s["shards"] == s["acknowledged"] >= 1
    assert s["missing"] == s["differing"] == s["undecodable"] == [] and s["unjournaled"] == 0
    # The journal as read here: every record counted, one acknowledgement
    # per shard.
    records = journal(local_run / "store" / "journal")
    assert c["journal_records"] == len(records)
    done = [p for _, _, p in records if p[0] == TAG_DONE]
    assert c["acknowledged"] == len(done) == s["shards"]
    assert c["damaged_values"] == 0 and c["torn_bytes"] == 0


def test_store_check_names_the_damage(cli, local_run, tmp_path):
    records = journal(local_run / "store" / "journal")
    # 1. An acknowledgement's digest changed (its checksum made right): the
    # stored result of that shard no longer matches what was acknowledged.
    at, _, payload = next(r for r in records if r[2][0] == TAG_DONE)
    (index,) = struct.unpack_from("<I", payload, 9)
    forged = payload[:13] + bytes([payload[13] ^ 0xFF]) + payload[14:]
    bad = tmp_path / "forged"
    shutil.copytree(local_run / "store", bad)
    data = bytearray((bad / "journal").read_bytes())
    data[at + 4 : at + 8] = struct.pack("<I", zlib.crc32(forged))
    data[at + 8 : at + 8 + len(forged)] = forged
    (bad / "journal").write_bytes(bytes(data))
    d = gs.store_check(bad)
    assert d["ok"] is False
    assert d["problems"] == [f"1 stored result(s) of `run` differ from what was acknowledged (shards {index})"]
    assert d["sweeps"][0]["differing"] == [index]
    r = cli.run("store", "check", str(bad), check=False)
    assert r.returncode != 0 and r.stdout == d["text"] and "DAMAGED: 1 problem(s)" in d["text"]
    # 2. A record's checksum broken with records after it: the journal is
    # damaged there (not a torn last record).
    at, crc, _ = records[1]
    assert len(records) > 2
    torn = tmp_path / "crc"
    shutil.copytree(local_run / "store", torn)
    data = bytearray((torn / "journal").read_bytes())
    data[at + 4 : at + 8] = struct.pack("<I", crc ^ 1)
    (torn / "journal").write_bytes(bytes(data))
    d = gs.store_check(torn)
    assert d["ok"] is False
    assert f"the journal is damaged at byte {at}: checksum mismatch" in d["problems"], d["problems"]
    assert d["text"] == cli.run("store", "check", str(torn), check=False).stdout
    # No store there: an error, not a finding.
    with pytest.raises(gs.InvalidInputError, match="nowhere is not a directory"):
        gs.store_check(tmp_path / "nowhere")
    with pytest.raises(gs.InvalidInputError, match="dir=7"):
        gs.store_check(7)


def _summary(line):
    """A `verify` summary line without its timing."""
    return re.sub(r", in [0-9.]+ s on .*$", "", line)


def test_verify_reproduces_an_export_as_the_cli(cli, local_run, tmp_path):
    f = tmp_path / "run.gsx"
    cli.run("export", "run", str(f), "--store", str(local_run / "store"))
    shards = gs.store_check(local_run)["sweeps"][0]["shards"]
    # Every shard re-run here: each recomputed result is the exported one.
    v = gs.verify(f, sample=1, threads=1)
    assert v["ok"] is True and v["mismatches"] == []
    assert (v["sweep_id"], v["kind"], v["finished"]) == ("run", "uvg", shards)
    assert v["rerun"] == list(range(shards)) and v["sample"] == 1.0 and v["threads"] == 1
    assert _summary(v["summary"]) == _summary(
        cli.run("verify", str(f), "--sample", "1", "--threads", "1").stdout.splitlines()[-1]
    )
    assert v["summary"].startswith(f"verify {f}: {shards} of {shards} finished shards re-run")
    # Signed by the run store's key: trusted only with its key file, and
    # said with the keyword's name.
    key = gs.Coordinator.key(local_run / "store", out=tmp_path / "run.key")
    assert v["signer"] == key["fingerprint"] and v["trusted"] is False
    assert "no trust_key= names it" in v["signature"] and "--" not in v["signature"]
    t = gs.verify(f, sample="50%", seed=3, trust_key=[tmp_path / "run.key"], require_signature=True)
    assert t["trusted"] is True and t["ok"] is True and t["signature"].startswith("signed by trusted key")
    # The seeded choice is the CLI's: the same count re-run for the same seed.
    theirs = cli.run(
        "verify", str(f), "--sample", "50%", "--seed", "3", "--trust-key", str(tmp_path / "run.key")
    ).stdout.splitlines()
    assert _summary(t["summary"]) == _summary(theirs[-1])
    assert 0 < len(t["rerun"]) < shards and t["rerun"] == sorted(t["rerun"])


def test_verify_records_beside_its_report(cli, local_run, tmp_path):
    f = tmp_path / "run.gsx"
    cli.run("export", "run", str(f), "--store", str(local_run / "store"))
    shards = gs.store_check(local_run)["sweeps"][0]["shards"]
    # The run's report, apart from the store the other tests share.
    run = tmp_path / "run"
    shutil.copytree(local_run, run, ignore=shutil.ignore_patterns("store"))
    v = gs.verify(f, sample=1, seed=4, threads=1, record=run)
    assert v["ok"] is True
    records = json.loads((run / "verified.json").read_text())
    assert [(r["rerun"], r["finished"], r["seed"], r["mismatched"]) for r in records] == [
        (shards, shards, 4, [])
    ]
    cli.run("report", "--from", str(run))
    md = (run / "report.md").read_text()
    assert f"re-ran {shards} of the {shards} finished shards" in md
    # Beside another sweep's report: refused, said with the keyword's name.
    other = tmp_path / "other"
    cli.run("run", "uvg", "--max-n", "4", "-q", "--out", str(other))
    with pytest.raises(gs.InvalidInputError, match="record=") as e:
        gs.verify(f, sample=1, record=other)
    assert "--" not in str(e.value)
    assert not (other / "verified.json").exists()


def test_verify_errors_name_keywords(cli, local_run, tmp_path):
    f = tmp_path / "run.gsx"
    cli.run("export", "run", str(f), "--store", str(local_run / "store"))
    with pytest.raises(gs.InvalidInputError, match=r"not signed by a trusted key \(require_signature=True\)") as e:
        gs.verify(f, sample=1, require_signature=True)
    assert "--" not in str(e.value)
    with pytest.raises(gs.InvalidInputError, match="sample=") as e:
        gs.verify(f, sample="lots")
    assert "--" not in str(e.value) and "Usage" not in str(e.value)
    with pytest.raises(gs.InvalidInputError, match="sample=True"):
        gs.verify(f, sample=True)
    with pytest.raises(gs.InvalidInputError, match="threads=0"):
        gs.verify(f, sample=1, threads=0)
    with pytest.raises(gs.InvalidInputError, match="seed=-1"):
        gs.verify(f, sample=1, seed=-1)
    with pytest.raises(gs.InvalidInputError, match="nowhere.gsx"):
        gs.verify(tmp_path / "nowhere.gsx", sample=1)
