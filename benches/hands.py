"""Seeded hands shared by the benchmarks, in every form the libraries take, and the
switch that lets a batch use every core."""

import os
import random
from contextlib import contextmanager

import numpy as np

PYMAHJONGGB_CODES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
WALL = [t for t in range(34) for _ in range(4)]


@contextmanager
def all_cores():
    """Lets the batch calls use every core (the benchmarks otherwise run on one)."""
    before = os.environ.get("HAIDI_PARALLELISM")
    os.environ["HAIDI_PARALLELISM"] = "1"
    try:
        yield
    finally:
        os.environ["HAIDI_PARALLELISM"] = before if before is not None else "0"


def random_hands(n: int, size: int, seed: int = 0) -> list[list[int]]:
    """Hands dealt from a shuffled wall, as lists of kinds."""
    rnd = random.Random(seed)
    return [rnd.sample(WALL, size) for _ in range(n)]


def complete_hands(n: int, seed: int = 1) -> list[list[int]]:
    """Complete 14-tile hands (four melds and a pair), each with one tile swapped at
    random half of the time, so the win check sees both answers."""
    rnd = random.Random(seed)
    shapes = [(t, "pung") for t in range(34)] + [(t, "chow") for t in range(27) if t % 9 <= 6]
    out = []
    while len(out) < n:
        counts = [0] * 34
        for _ in range(4):
            t, kind = rnd.choice(shapes)
            for x in [t] * 3 if kind == "pung" else [t, t + 1, t + 2]:
                counts[x] += 1
        counts[rnd.randrange(34)] += 2
        if rnd.random() < 0.5:
            counts[rnd.choice([t for t in range(34) if counts[t]])] -= 1
            counts[rnd.randrange(34)] += 1
        if max(counts) <= 4:
            out.append([t for t in range(34) for _ in range(counts[t])])
    return out


def counts_array(hands: list[list[int]]) -> np.ndarray:
    a = np.zeros((len(hands), 34), dtype=np.uint8)
    for i, h in enumerate(hands):
        for t in h:
            a[i, t] += 1
    return a


def compact(hand: list[int]) -> str:
    out = []
    for s, letter in enumerate("mpsz"):
        digits = "".join(str(t - 9 * s + 1) for t in sorted(hand) if t // 9 == s)
        if digits:
            out.append(digits + letter)
    return "".join(out)


def pymahjonggb(hand: list[int]) -> tuple[str, ...]:
    return tuple(PYMAHJONGGB_CODES[t] for t in hand)


def tiles34(hand: list[int]) -> list[int]:
    c = [0] * 34
    for t in hand:
        c[t] += 1
    return c
