"""A deliberately plain brute-force reference for complete hands, written independently of
the Rust engine's method (no tables, no distances): recursive search over tile counts.

Wild tiles are tried as every kind they could stand for, so keep their number small.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

KINDS = 34
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
NAMES = [f"{i % 9 + 1}{'mpsz'[i // 9]}" for i in range(KINDS)]


def counts_of(text: str) -> list[int]:
    """Counts of a plain compact string such as '123m55z' (no melds)."""
    counts = [0] * KINDS
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = "mpsz".index(ch) * 9
            for d in digits:
                counts[base + d - 1] += 1
            digits = []
    return counts


def to_text(counts: list[int] | tuple[int, ...]) -> str:
    out = []
    for s, letter in enumerate("mpsz"):
        lo, hi = s * 9, min(s * 9 + 9, KINDS)
        digits = "".join(str(t - lo + 1) * counts[t] for t in range(lo, hi))
        if digits:
            out.append(digits + letter)
    return "".join(out)


@cache
def _melds(counts: tuple[int, ...], need: int) -> bool:
    """Can `counts` be split into exactly `need` chows/pungs?"""
    if need == 0:
        return not any(counts)
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return False
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _melds(tuple(c), need - 1):
            return True
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _melds(tuple(c), need - 1):
            return True
    return False


def standard(counts: list[int], melds: int, pair_ok=lambda k: True) -> bool:
    for p in range(KINDS):
        if counts[p] >= 2 and pair_ok(p):
            c = list(counts)
            c[p] -= 2
            if _melds(tuple(c), melds):
                return True
    return False


def seven_pairs(counts: list[int], four_as_two: bool) -> bool:
    if sum(counts) != 14:
        return False
    if four_as_two:
        return all(c % 2 == 0 for c in counts)
    return all(c in (0, 2) for c in counts)


def eight_pairs_and_a_half(counts: list[int]) -> bool:
    """八对半: seven pairs (four of a kind as two) and one triplet, 17 tiles."""
    return (
        sum(counts) == 17 and sorted(c % 2 for c in counts).count(1) == 1 and counts.count(3) == 1 and 1 not in counts
    )


def thirteen_orphans(counts: list[int]) -> bool:
    return (
        sum(counts) == 14
        and all(counts[t] >= 1 for t in ORPHANS)
        and all(counts[t] == 0 for t in range(KINDS) if t not in ORPHANS)
    )


def _knitted_sets():
    from itertools import permutations

    for perm in permutations(range(3)):
        yield {s * 9 + perm[s] + r for s in range(3) for r in (0, 3, 6)}


def honours_and_knitted(counts: list[int]) -> bool:
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return False
    held = {t for t in range(KINDS) if counts[t]}
    return any(held <= (k | set(range(27, 34))) for k in _knitted_sets())


def knitted_straight(counts: list[int], melds: int) -> bool:
    for k in _knitted_sets():
        if all(counts[t] >= 1 for t in k):
            c = list(counts)
            for t in k:
                c[t] -= 1
            if standard(c, melds - 3):
                return True
    return False


def complete(
    counts: list[int], melds: int = 4, *, seven=False, four_as_two=True, orphans=False, knitted=False, wilds: int = 0
) -> bool:
    """Is a concealed hand complete? `wilds` more tiles may stand for any kind (at most 4
    tiles standing for a kind)."""
    if wilds:
        for extra in combinations_with_replacement(range(KINDS), wilds):
            c = list(counts)
            for t in extra:
                c[t] += 1
            if max(c) <= 4 and complete(
                c, melds, seven=seven, four_as_two=four_as_two, orphans=orphans, knitted=knitted
            ):
                return True
        return False
    if standard(counts, melds):
        return True
    if melds == 4 and seven and seven_pairs(counts, four_as_two):
        return True
    if melds == 4 and orphans and thirteen_orphans(counts):
        return True
    if melds == 4 and knitted and (honours_and_knitted(counts) or knitted_straight(counts, 4)):
        return True
    return False


MCR_FORMS = dict(seven=True, four_as_two=True, orphans=True, knitted=True)
