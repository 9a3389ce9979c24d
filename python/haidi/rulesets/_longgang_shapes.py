"""Longgang's tiles and arrangements: the kinds it plays, and every way to split a hand
into groups with the 财神 that stand alone kept abstract. Part of ``longgang``."""

from __future__ import annotations

from dataclasses import dataclass

from .. import _core

HandError = _core.HandError

EAST, GREEN, RED, WHITE = 27, 32, 33, 31
_WINDS = "ESWN"
_SUITS = "mps"


def tile_name(k: int) -> str:
    return f"{k % 9 + 1}{_SUITS[k // 9]}" if k < 27 else f"{k - 26}z"


def _kind(text: str) -> int:
    t = str(text).strip()
    if len(t) != 2 or not t[0].isdigit() or t[1] not in "mpsz":
        raise HandError(f"not a tile: {text!r}")
    n, s = int(t[0]), t[1]
    if s == "z":
        if not 1 <= n <= 7:
            raise HandError(f"not a tile: {text!r}")
        k = 26 + n
    else:
        if not 1 <= n <= 9:
            raise HandError(f"not a tile: {text!r}")
        k = "mps".index(s) * 9 + n - 1
    if k == WHITE:
        raise HandError("Longgang plays without the white dragon (5z): 龙港麻将无白板")
    return k


def is_big(k: int) -> bool:
    """大子 (么九): a terminal or an honour."""
    return k >= 27 or k % 9 in (0, 8)


def _suit(k: int) -> int:
    return k // 9 if k < 27 else 3


# ---------------------------------------------------------------------------------------
# Arrangements. The engine says whether a hand is complete; the arrangements are listed
# here because scoring needs wild-only groups kept abstract (a pair or meld of 财神 that
# may be anything) and losers' partial hands, which the engine does not decompose.


@dataclass(frozen=True)
class Group:
    """One group of an arrangement.

    ``shape``: pung, chow, pair, kong, wild_meld (three wilds), wild_pair (two wilds).
    ``base``: the kind (a chow's lowest), None for wild-only groups. ``wild_for``: kinds
    the wilds in it stand for. ``meld``: None if concealed, else the declared meld's kind.
    """

    shape: str
    base: int | None
    wild_for: tuple[int, ...] = ()
    meld: str | None = None

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.base is None:
            return ()
        if self.shape == "chow":
            return (self.base, self.base + 1, self.base + 2)
        return (self.base,)

    @property
    def wilds(self) -> int:
        return {"wild_meld": 3, "wild_pair": 2}.get(self.shape, len(self.wild_for))

    @property
    def is_triplet(self) -> bool:
        return self.shape in ("pung", "kong", "wild_meld")

    def text(self) -> str:
        if self.base is None:
            return "(wild x3)" if self.shape == "wild_meld" else "(wild x2)"
        size = {"chow": 3, "pung": 3, "kong": 4, "pair": 2}[self.shape]
        tiles = list(self.kinds) if self.shape == "chow" else [self.base] * size
        body = "".join(tile_name(k)[0] for k in tiles) + tile_name(self.base)[1]
        if self.meld == "concealed_kong":
            body = "{" + body + "}"
        elif self.meld is not None:
            body = "[" + body + "]"
        if self.wild_for:
            body += "(wild " + " ".join(tile_name(k) for k in self.wild_for) + ")"
        return body


def _standard(counts: list[int], wilds: int, melds: int, caps: list[int]) -> list[list[Group]]:
    """Every arrangement of concealed ``counts`` plus ``wilds`` into ``melds`` melds and a pair."""
    out: dict[tuple, list[Group]] = {}
    c = list(counts)
    used = [0] * 34

    def take(kinds: list[tuple[int, bool]]) -> bool:
        for k, real in kinds:
            if real and c[k] == 0:
                return False
            if used[k] + 1 > caps[k]:
                return False
        return True

    def rec(i: int, w: int, m: int, p: int, groups: list[Group]) -> None:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            if w == 3 * m + 2 * p:
                gs = groups + [Group("wild_meld", None)] * m + [Group("wild_pair", None)] * p
                out.setdefault(tuple(sorted((g.shape, g.base or -1, g.wild_for) for g in gs)), gs)
            return
        options: list[tuple[Group, list[tuple[int, bool]], int, int]] = []
        if m:
            for r in (3, 2, 1):
                if c[i] >= r and 3 - r <= w:
                    tiles = [(i, True)] * r + [(i, False)] * (3 - r)
                    options.append((Group("pung", i, (i,) * (3 - r)), tiles, 1, 0))
            if i < 27:
                for pos in (0, 1, 2):
                    start = i - pos
                    if start < 0 or start // 9 != i // 9 or start % 9 > 6:
                        continue
                    # Lower positions hold no real tile (i is the lowest left), so they are wild;
                    # a higher one may be real or wild.
                    choices: list[list[tuple[int, bool]]] = [[]]
                    for k in range(start, start + 3):
                        if k < i:
                            alts = [(k, False)]
                        elif k == i:
                            alts = [(k, True)]
                        else:
                            alts = ([(k, True)] if c[k] else []) + [(k, False)]
                        choices = [ch + [a] for ch in choices for a in alts]
                    for ch in choices:
                        nw = sum(not real for _, real in ch)
                        if nw <= w:
                            g = Group("chow", start, tuple(k for k, real in ch if not real))
                            options.append((g, ch, 1, 0))
        if p:
            for r in (2, 1):
                if c[i] >= r and 2 - r <= w:
                    options.append((Group("pair", i, (i,) * (2 - r)), [(i, True)] * r + [(i, False)] * (2 - r), 0, 1))
        for g, tiles, dm, dp in options:
            if not _fits(tiles, c, used, caps):
                continue
            for k, real in tiles:
                used[k] += 1
                if real:
                    c[k] -= 1
            rec(i, w - g.wilds, m - dm, p - dp, groups + [g])
            for k, real in tiles:
                used[k] -= 1
                if real:
                    c[k] += 1

    rec(0, wilds, melds, 1, [])
    return list(out.values())


def _fits(tiles: list[tuple[int, bool]], c: list[int], used: list[int], caps: list[int]) -> bool:
    need_real: dict[int, int] = {}
    need_all: dict[int, int] = {}
    for k, real in tiles:
        need_all[k] = need_all.get(k, 0) + 1
        if real:
            need_real[k] = need_real.get(k, 0) + 1
    return all(c[k] >= n for k, n in need_real.items()) and all(used[k] + n <= caps[k] for k, n in need_all.items())


def _eight_pairs(counts: list[int], wilds: int, caps: list[int]) -> list[list[Group]]:
    """八对半: seven pairs and a triplet, concealed; four of a kind may be two pairs."""
    out = []
    triplets = [(k, counts[k]) for k in range(34) if 1 <= counts[k] <= 3 and 3 - counts[k] <= wilds and caps[k] >= 3]
    for t, r in [*triplets, (None, 0)]:
        w = wilds - (3 - r)
        if w < 0:
            continue
        groups = [Group("pung", t, (t,) * (3 - r)) if t is not None else Group("wild_meld", None)]
        ok = True
        for k in range(34):
            n = counts[k] if k != t else 0
            if n == 0:
                continue
            groups += [Group("pair", k)] * (n // 2)
            if n % 2:
                if w == 0 or n + 1 > caps[k]:
                    ok = False
                    break
                w -= 1
                groups.append(Group("pair", k, (k,)))
        if ok and w % 2 == 0:
            out.append(groups + [Group("wild_pair", None)] * (w // 2))
    return out
