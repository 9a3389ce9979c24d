"""A plain brute force for hand analysis, written apart from the engine: complete hands by
recursive splitting of each suit into melds, wild tiles tried as every kind they could
stand for, and shanten by search (a hand is ready when some tile completes it, one away
when some draw and discard make it ready).

Only the rules' declarations are shared with haidi (the forms a ruleset's ``SPEC`` lists);
nothing of the engine's distances or tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, permutations, product

KINDS = 34
ORPHANS = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
NAMES = [f"{i % 9 + 1}{'mpsz'[i // 9]}" for i in range(KINDS)]
KNITTED = [frozenset(s * 9 + perm[s] + r for s in range(3) for r in (0, 3, 6)) for perm in permutations(range(3))]
HONOURS = frozenset(range(27, 34))


def kinds(text: str) -> set[int]:
    """Kinds of a plain compact string such as '258m258p'."""
    out, digits = set(), []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            out |= {"mpsz".index(ch) * 9 + d - 1 for d in digits}
            digits = []
    return out


@dataclass(frozen=True)
class Rules:
    """What completes a hand, read from a ruleset's declaration (``SPEC``)."""

    melds: int
    tiles: frozenset[int]
    pair_kinds: frozenset[int]
    seven_pairs: bool = False
    four_as_two: bool = False
    eight_pairs: bool = False
    orphans: bool = False
    knitted: bool = False
    all_pungs_any_pair: bool = False
    one_suit_any_pair: bool = False
    all_258: bool = False
    beyond_copies: bool = False

    @staticmethod
    def of(spec) -> Rules:
        f = spec.forms
        return Rules(
            melds=spec.melds,
            tiles=frozenset(kinds(spec.tiles)),
            pair_kinds=frozenset(kinds(f["pair_kinds"]) if "pair_kinds" in f else range(KINDS)),
            seven_pairs=f.get("seven_pairs", False),
            four_as_two=f.get("four_as_two_pairs", False),
            eight_pairs=f.get("eight_pairs_and_a_half", False),
            orphans=f.get("thirteen_orphans", False),
            knitted=f.get("honours_and_knitted", False) or f.get("knitted_straight", False),
            all_pungs_any_pair=f.get("all_pungs_any_pair", False),
            one_suit_any_pair=f.get("one_suit_any_pair", False),
            all_258=f.get("all_258", False),
            beyond_copies=f.get("wilds_beyond_copies", False),
        )


@dataclass(frozen=True)
class Melds:
    """The declared melds: copies of each kind in them, and their shapes."""

    counts: tuple[int, ...] = (0,) * KINDS
    n: int = 0
    chows: bool = False
    suits: frozenset[int] = frozenset()
    all_258_pungs: bool = True


@cache
def _splits(group: tuple[int, ...], chows: bool) -> bool:
    """Can one suit's (or the honours') counts be split into chows and pungs?"""
    i = next((k for k, c in enumerate(group) if c), None)
    if i is None:
        return True
    c = list(group)
    if c[i] >= 3:
        c[i] -= 3
        if _splits(tuple(c), chows):
            return True
        c[i] += 3
    if chows and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _splits(tuple(c), chows):
            return True
    return False


def _all_melds(c: list[int]) -> bool:
    return all(_splits(tuple(c[lo : lo + 9]), True) for lo in (0, 9, 18)) and _splits(tuple(c[27:]), False)


def _standard(c: list[int], need: int, pair_ok) -> bool:
    if sum(c) != 3 * need + 2:
        return False
    for p in range(KINDS):
        if c[p] >= 2 and pair_ok(p):
            c[p] -= 2
            ok = _all_melds(c)
            c[p] += 2
            if ok:
                return True
    return False


def plain_complete(c: list[int], rules: Rules, melds: Melds) -> bool:
    """Is the concealed part `c` (every tile a kind) complete beside `melds`?"""
    need = rules.melds - melds.n
    if _standard(c, need, lambda p: p in rules.pair_kinds):
        return True
    narrow = len(rules.pair_kinds) < KINDS
    if narrow and rules.all_pungs_any_pair and not melds.chows:
        if sum(c) == 3 * need + 2 and any(
            c[p] >= 2 and all(x % 3 == 0 for x in c[:p] + [c[p] - 2] + c[p + 1 :]) for p in range(KINDS)
        ):
            return True
    if narrow and rules.one_suit_any_pair:
        for s in range(3):
            in_suit = all(c[t] == 0 for t in range(KINDS) if t // 9 != s) and melds.suits <= {s}
            if in_suit and _standard(c, need, lambda p: True):
                return True
    if rules.all_258 and melds.all_258_pungs and sum(c) == 3 * need + 2:
        if all(x == 0 or (t < 27 and t % 9 in (1, 4, 7)) for t, x in enumerate(c)):
            return True
    concealed = melds.n == 0
    if rules.melds == 4 and concealed and sum(c) == 14:
        if rules.seven_pairs and all(x in ((0, 2, 4) if rules.four_as_two else (0, 2)) for x in c):
            return True
        if (
            rules.orphans
            and all(c[t] >= 1 for t in ORPHANS)
            and all(c[t] == 0 for t in range(KINDS) if t not in ORPHANS)
        ):
            return True
        if rules.knitted and max(c) == 1:
            held = {t for t in range(KINDS) if c[t]}
            if any(held <= k | HONOURS for k in KNITTED):
                return True
    if rules.melds == 4 and rules.knitted and melds.n <= 1:
        for k in KNITTED:
            if all(c[t] >= 1 for t in k):
                rest = [x - (t in k) for t, x in enumerate(c)]
                if _standard(rest, need - 3, lambda p: True):
                    return True
    if rules.melds == 5 and rules.eight_pairs and concealed and sum(c) == 17:
        pairs = (0, 2, 4) if rules.four_as_two else (0, 2)
        if sorted(x for x in c if x not in pairs) == [3]:
            return True
    return False


def _cap(t: int, rules: Rules, melds: Melds) -> int:
    """Most tiles (real or wild) that may stand for kind t in the concealed part."""
    if t not in rules.tiles:
        return 0
    return 99 if rules.beyond_copies else 4 - melds.counts[t]


@cache
def _fill_standard(
    c: tuple[int, ...], w: int, need: int, pair: int, used: tuple[int, ...], rules: Rules, melds: Melds
) -> bool:
    """Can the real tiles `c`, with exactly `w` wilds, make `need` melds and `pair` pairs?
    The group of the lowest real tile is chosen in every way (its other places real or
    wild); `used` counts what stands for each kind so far."""
    i = next((k for k, x in enumerate(c) if x), None)
    if i is None:
        return w == 3 * need + 2 * pair
    cl, ul = list(c), list(used)

    def take(places: list[int], real: list[bool], melds_left: int, pairs_left: int) -> bool:
        wild_n = real.count(False)
        if wild_n > w:
            return False
        c2, u2 = list(cl), list(ul)
        for t, r in zip(places, real, strict=True):
            if r:
                if c2[t] == 0:
                    return False
                c2[t] -= 1
            u2[t] += 1
            if u2[t] > _cap(t, rules, melds):
                return False
        return _fill_standard(tuple(c2), w - wild_n, melds_left, pairs_left, tuple(u2), rules, melds)

    if need:
        for real_n in (1, 2, 3):
            if take([i] * 3, [True] * real_n + [False] * (3 - real_n), need - 1, pair):
                return True
        # Chows holding a real i: places below i are wild (i is the lowest real tile),
        # places above it real or wild.
        for lo in (i - 2, i - 1, i) if i < 27 else ():
            if lo < i - i % 9 or lo % 9 > 6:
                continue
            places = [lo, lo + 1, lo + 2]
            above = [p for p in places if p > i]
            for flags in product((True, False), repeat=len(above)):
                real = dict(zip(above, flags, strict=True))
                if take(places, [p == i or real.get(p, False) for p in places], need - 1, pair):
                    return True
    if pair and i in rules.pair_kinds:
        for real_n in (1, 2):
            if take([i, i], [True] * real_n + [False] * (2 - real_n), need, pair - 1):
                return True
    return False


def _fill_seven_pairs(c: list[int], w: int, four_as_two: bool) -> bool:
    allowed = (0, 2, 4) if four_as_two else (0, 2)
    fill = 0
    for x in c:
        up = next((a for a in allowed if a >= x), None)
        if up is None:
            return False
        fill += up - x
    return fill <= w and (w - fill) % 2 == 0


def _fill_orphans(c: list[int], w: int) -> bool:
    if any(c[t] for t in range(KINDS) if t not in ORPHANS) or any(c[t] > 2 for t in ORPHANS):
        return False
    pairs = sum(c[t] == 2 for t in ORPHANS)
    missing = sum(c[t] == 0 for t in ORPHANS)
    return pairs <= 1 and missing + (1 - pairs) == w


def _fill_eight_pairs(c: list[int], w: int, four_as_two: bool, rules: Rules) -> bool:
    for t in rules.tiles:
        if c[t] > 3:
            continue
        rest = c[:t] + [0] + c[t + 1 :]
        if _fill_seven_pairs(rest, w - (3 - c[t]), four_as_two) if w >= 3 - c[t] else False:
            return True
    return False


@cache
def complete(c: tuple[int, ...], wilds: int, rules: Rules, melds: Melds) -> bool:
    """Is the concealed part complete, `wilds` tiles standing for any kind? A kind takes
    at most its copies not in melds (any number with ``beyond_copies``)."""
    if wilds == 0:
        return plain_complete(list(c), rules, melds)
    # The rulesets with wilds play the standard form with any pair, seven pairs (四归一 as
    # two), thirteen orphans and eight pairs and a half.
    assert not (rules.knitted or rules.all_258 or rules.one_suit_any_pair or rules.all_pungs_any_pair)
    need = rules.melds - melds.n
    if sum(c) + wilds != 3 * need + 2:
        return False
    if _fill_standard(c, wilds, need, 1, (0,) * KINDS, rules, melds):
        return True
    concealed = melds.n == 0
    cl = list(c)
    if rules.melds == 4 and concealed and rules.seven_pairs and _fill_seven_pairs(cl, wilds, rules.four_as_two):
        return True
    if rules.melds == 4 and concealed and rules.orphans and _fill_orphans(cl, wilds):
        return True
    if rules.melds == 5 and concealed and rules.eight_pairs and _fill_eight_pairs(cl, wilds, rules.four_as_two, rules):
        return True
    return False


def complete_by_assignment(c: tuple[int, ...], wilds: int, rules: Rules, melds: Melds) -> bool:
    """The same question by trying every kind for every wild (slow: a check of the above)."""
    playable = sorted(rules.tiles)
    for extra in combinations_with_replacement(playable, wilds):
        full = list(c)
        for t in extra:
            full[t] += 1
        if not rules.beyond_copies and any(full[t] + melds.counts[t] > 4 for t in extra):
            continue
        if plain_complete(full, rules, melds):
            return True
    return False


@dataclass(frozen=True)
class Position:
    """A hand for the search: concealed tiles by kind (wild copies included), the wild
    kinds, extra wilds, the declared melds."""

    counts: tuple[int, ...]
    wild_kinds: frozenset[int]
    rules: Rules
    melds: Melds
    extra: int = 0

    def held(self, t: int) -> int:
        return self.counts[t] + self.melds.counts[t]

    def is_complete(self) -> bool:
        real = tuple(0 if t in self.wild_kinds else x for t, x in enumerate(self.counts))
        w = self.extra + sum(self.counts[t] for t in self.wild_kinds)
        return complete(real, w, self.rules, self.melds)

    def plus(self, t: int) -> Position:
        c = list(self.counts)
        c[t] += 1
        return Position(tuple(c), self.wild_kinds, self.rules, self.melds, self.extra)

    def minus(self, t: int) -> Position:
        c = list(self.counts)
        c[t] -= 1
        return Position(tuple(c), self.wild_kinds, self.rules, self.melds, self.extra)

    def draws(self) -> list[int]:
        """Kinds the player could draw: played, and not all four held."""
        return [t for t in sorted(self.rules.tiles) if self.held(t) < 4]


@cache
def waits(p: Position) -> frozenset[int]:
    """Kinds that complete a hand one tile short."""
    return frozenset(t for t in p.draws() if p.plus(t).is_complete())


@cache
def within_one(p: Position) -> frozenset[int]:
    """For a hand one tile short and not ready: the draws after which some discard
    leaves a ready hand (empty when there are none: the hand is two or more away)."""
    out = set()
    for t in p.draws():
        q = p.plus(t)
        if any(q.counts[e] and e != t and waits(q.minus(e)) for e in range(KINDS)):
            out.add(t)
    return frozenset(out)


def shanten_and_useful(p: Position) -> tuple[int, frozenset[int]]:
    """Shanten (0 or 1; 2 standing for "two or more") and the draws that lower it (not
    filtered by the copies seen; empty at 2)."""
    w = waits(p)
    if w:
        return 0, w
    one = within_one(p)
    if one:
        return 1, one
    return 2, frozenset()
