#!/usr/bin/env python3
"""The plain reference open of a Tin capsule (envelope version 1), read as formats/tcap.md reads:
check the tag, decrypt with one HMAC-SHA256 call per 32-byte keystream block, then walk the body
and every effect record. The benchmark (bench/tcap-inspect.bench.ts) times it beside
`frozen-run inspect` on the same file. Usage: TIN_REPLAY_KEY=HEX tcap_plain_open.py FILE"""
import hashlib
import hmac
import os
import struct
import sys


def main(path: str) -> None:
    key = bytes.fromhex(os.environ["TIN_REPLAY_KEY"])
    data = open(path, "rb").read()
    if data[:8] != b"TINCAP\x01\x00":
        sys.exit(f"{path}: not a version 1 capsule")
    ke = hmac.new(key, b"tin replay enc", hashlib.sha256).digest()
    km = hmac.new(key, b"tin replay mac", hashlib.sha256).digest()
    if not hmac.compare_digest(hmac.new(km, data[:-32], hashlib.sha256).digest(), data[-32:]):
        sys.exit(f"{path}: capsule: wrong key or damaged")
    nonce, enc = data[8:24], data[24:-32]
    parts = []
    for i in range((len(enc) + 31) // 32):
        block = hmac.new(ke, nonce + struct.pack("<q", i), hashlib.sha256).digest()
        chunk = enc[i * 32 : i * 32 + 32]
        n = len(chunk)
        parts.append((int.from_bytes(chunk, "little") ^ int.from_bytes(block[:n], "little")).to_bytes(n, "little"))
    body = b"".join(parts)

    pos = 0

    def word() -> int:
        nonlocal pos
        (v,) = struct.unpack_from("<q", body, pos)
        pos += 8
        return v

    def string() -> bytes:
        nonlocal pos
        n = word()
        s = body[pos : pos + n]
        pos += n
        return s

    schema = word()
    tin, program = string(), string()
    wall, core, status, flags = word(), word(), word(), word()
    request, panic = string(), string()
    if schema >= 2:
        string()  # peer
    count = word()
    by_kind: dict = {}
    by_task: dict = {}
    task = 0
    for i in range(count):
        seq, kind, _key, outcome, _ident, result = word(), string(), string(), word(), word(), string()
        if seq != i:
            sys.exit(f"{path}: effect {i} has seq {seq}")
        if kind == b"sched.resume@1" and outcome == 0:
            (task,) = struct.unpack("<q", result)
        by_kind[kind] = by_kind.get(kind, 0) + 1
        by_task[task] = by_task.get(task, 0) + 1
    if pos != len(body):
        sys.exit(f"{path}: {len(body) - pos} bytes after the last effect")
    print(f"{path}: {tin.decode(errors='replace')} {program.decode(errors='replace')} status {status}, {count} effects on {len(by_task)} tasks")
    for k, n in sorted(by_kind.items(), key=lambda x: -x[1]):
        print(f"  {n:8}  {k.decode(errors='replace')}")


if __name__ == "__main__":
    main(sys.argv[1])
