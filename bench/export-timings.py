#!/usr/bin/env python3
"""Shard-time spread of a sweep from its export file (`gamesweep export ID FILE`).

usage: bench/export-timings.py FILE.gsx

Prints how many shards carry a timing, total thread-CPU and wall seconds,
and min / median / p99 / max with max/median, for CPU and wall. Needs the
`zstd` command. The file layout is documented in coordinator/src/export_file.rs
(magic, u32 format version, u64 body length, zstd JSON body, SHA-256).
"""
import hashlib
import json
import statistics
import struct
import subprocess
import sys


def main(path):
    b = open(path, "rb").read()
    if b[:8] != b"GSWEEPX\n" or len(b) < 52:
        sys.exit(f"{path}: not a gamesweep export file")
    if hashlib.sha256(b[:-32]).digest() != b[-32:]:
        sys.exit(f"{path}: checksum mismatch")
    n = struct.unpack("<Q", b[12:20])[0]
    body = subprocess.run(["zstd", "-dc"], input=b[20:20 + n], capture_output=True, check=True).stdout
    e = json.loads(body)
    rs = e["results"]
    print(f"sweep {e['sweep_id']} ({e['kind']}): {len(rs)} finished shards")
    for field in ("cpu_us", "wall_us"):
        xs = sorted(r[field] / 1e6 for r in rs if r[field] > 0)
        if not xs:
            print(f"{field}: no timings")
            continue
        med = statistics.median(xs)
        p99 = xs[min(len(xs) - 1, len(xs) * 99 // 100)]
        print(f"{field[:-3]}: {len(xs)} shards, total {sum(xs):,.0f} s; "
              f"min {xs[0]:.2f} median {med:.2f} p99 {p99:.2f} max {xs[-1]:.2f} s; "
              f"max/median {xs[-1] / med:.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
