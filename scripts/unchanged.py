#!/usr/bin/env python3
"""Digests of shanten, waits and analyses of seeded random hands of every ruleset, to
show that a change to the engine's method left every answer as it was.

    python scripts/unchanged.py --check [--hands N]    # against tests/data/unchanged.json
    python scripts/unchanged.py --write [--hands N]    # record the engine's answers

For each ruleset, hands are dealt from its tile set by a seeded generator, in chunks of
``CHUNK`` hands (where the ruleset has wilds, each chunk names one of three wild kinds
in turn, and its hands hold what copies of it the deal gives); a chunk's digest is the
SHA-256 of ``shanten_batch`` and ``waits_batch`` of its ready-size hands and of
``analyze_batch`` (shanten and useful draws after each discard) of its complete-size
hands. The recorded digests were made by the engine
before the tables were made at build time; ``tests/test_unchanged.py`` checks the
first chunks, and ``--check --hands 1000000`` all of a million hands a ruleset.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import haidi

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "unchanged.json"
RULES = ("mcr", "changsha", "hainan", "longgang", "tangshan", "beijing")
CHUNK = 5000
# The wild kinds a chunk's wild hands use, by ruleset (none where it has no wilds).
WILDS = {"longgang": (9, 27, 33), "tangshan": (4, 31, 20), "beijing": (17, 0, 30)}


def deal(rules: str, chunk: int) -> tuple[np.ndarray, np.ndarray, int | None]:
    """Ready-size and complete-size hands of chunk `chunk` of `rules`, and the wild kind."""
    rs = haidi.ruleset(rules)
    names = rs.engine.tiles
    index = {f"{i % 9 + 1}{'mpsz'[i // 9]}": i for i in range(34)}
    played = np.array([index[n] for n in names])
    wall = np.repeat(played, 4)
    rng = np.random.default_rng([RULES.index(rules), chunk])
    size = rs.hand_size
    wild = None
    if rules in WILDS:
        wild = WILDS[rules][chunk % len(WILDS[rules])]
    # Each row the first tiles of its own shuffle of the wall.
    tiles = wall[rng.random((CHUNK, len(wall))).argsort(axis=1)[:, : size + 1]]
    rows = np.repeat(np.arange(CHUNK), size)
    ready = np.zeros((CHUNK, 34), np.uint8)
    np.add.at(ready, (rows, tiles[:, :size].ravel()), 1)
    full = ready.copy()
    np.add.at(full, (np.arange(CHUNK), tiles[:, size]), 1)
    return ready, full, wild


def digest(rules: str, chunk: int) -> str:
    rs = haidi.ruleset(rules)
    ready, full, wild = deal(rules, chunk)
    w: dict[str, Any] = {} if wild is None else {"wilds": f"{wild % 9 + 1}{'mpsz'[wild // 9]}"}
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(rs.shanten_batch(ready, **w)).tobytes())
    h.update(np.ascontiguousarray(rs.waits_batch(ready, **w)).tobytes())
    shanten, useful = rs.analyze_batch(full, **w)
    h.update(np.ascontiguousarray(shanten).tobytes())
    h.update(np.ascontiguousarray(useful).tobytes())
    return h.hexdigest()[:16]


def digests(rules: str, hands: int) -> list[str]:
    return [digest(rules, c) for c in range(-(-hands // CHUNK))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    ap.add_argument("--hands", type=int, default=20000, help="hands a ruleset (a multiple of 5000)")
    ap.add_argument("--rules", nargs="*", default=list(RULES))
    args = ap.parse_args()
    recorded: dict[str, list[str]] = json.loads(DATA.read_text()) if DATA.exists() else {}
    bad = 0
    for rules in args.rules:
        start = time.perf_counter()
        got = digests(rules, args.hands)
        seconds = time.perf_counter() - start
        if args.write:
            recorded[rules] = got
            print(f"{rules}: {len(got)} chunks recorded ({seconds:.0f} s)", flush=True)
            continue
        want = recorded.get(rules, [])
        if len(want) < len(got):
            sys.exit(f"{rules}: {len(want)} chunks recorded, {len(got)} asked for")
        differ = [c for c, (a, b) in enumerate(zip(got, want[: len(got)], strict=True)) if a != b]
        bad += len(differ)
        hands = len(got) * CHUNK
        print(f"{rules}: {hands} hands, {len(differ)} chunks differ {differ[:10]} ({seconds:.0f} s)", flush=True)
    if args.write:
        DATA.write_text(json.dumps(recorded, indent=1) + "\n")
    elif bad:
        sys.exit(f"{bad} chunks differ")


if __name__ == "__main__":
    main()
