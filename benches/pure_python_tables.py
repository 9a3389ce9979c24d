"""Plain pure-Python enumeration of the published wait tables (issue 3).

The Longgang rules text (appendices 附二 to 附五) publishes counts of one-suit
(清一色) and honours-only (字一色) hands: how many 13- and 16-tile hands are
ready (听牌), with how many waiting kinds, split into standard, pairs-form
(七对 / 八对半) and composite (复合) hands; how many 14- and 17-tile hands are
complete; the "every remaining tile wins" (张张可胡) hands; and honours-only
counts with and without kongs.

This module recomputes them by brute force, one hand at a time, in plain
Python (no numpy, no Rust).  It is meant to be read: it is the reference the
Rust enumeration is checked against, and the benchmark peer for
"a plain pure-Python enumeration of the 13-tile table" (`table13()`).

Hands are count vectors: a tuple `c` of length `kinds` (9 for one suit,
7 for honours), `c[i]` = how many tiles of kind i (0..4) the hand holds.
Kind i of a suit is the tile "i+1" of the text's notation (`1112345678999`).

Conventions (see docs/reproduce.md for which reproduce which figures):

* standard complete hand: one pair plus melds; a meld is a pung (three of a
  kind) or, in a suit only, a chow (three consecutive kinds).
* pairs-form complete hand: 14 tiles = seven pairs (七对); 17 tiles = seven
  pairs plus one triplet (八对半).  Generally: an even-sized hand is all
  pairs, an odd-sized hand is pairs plus exactly one triplet.
  `quad_as_two_pairs`: whether four of a kind may serve as two pairs.
* waits of an N-tile hand: kinds t such that hand + t is complete.
  `wait_on_held_four`: whether a kind the hand already holds four of counts
  as a wait (it would need a fifth, non-existent tile).
* a hand is ready (听牌) when it has at least one wait.

Default convention (the one that reproduces the published figures where
any does): quad_as_two_pairs=True, wait_on_held_four=False, ready = standard
or pairs form.  The 16-tile 附四 counts waits of both forms, the 13-tile 附四
standard-form waits only; 复合 = both forms.  `figures()` applies these
per-family choices and returns every figure keyed by the ids of
tests/data/published_tables.json.

    python3 benches/pure_python_tables.py          # every figure (~20 s)
    python3 benches/pure_python_tables.py --list   # plus the listed hands
    python3 benches/pure_python_tables.py --json   # as JSON (add --list)
    python3 benches/pure_python_tables.py --sweep  # all binary conventions
    python3 benches/pure_python_tables.py --bench  # time table13() only
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, replace
from functools import cache
from math import comb

SUIT_KINDS = 9
HONOUR_KINDS = 7  # 东南西北中发白; the published 字一色 counts need 7 kinds
MAX_COPIES = 4


# --------------------------------------------------------------------------
# hands


def hands(n: int, kinds: int = SUIT_KINDS, max_count: int = MAX_COPIES):
    """Every multiset of n tiles over `kinds` kinds, at most max_count each,
    as count tuples, in lexicographic order."""

    def rec(i: int, left: int):
        if i == kinds - 1:
            if left <= max_count:
                yield (left,)
            return
        room_after = max_count * (kinds - 1 - i)
        for c in range(min(left, max_count) + 1):
            if left - c <= room_after:
                for rest in rec(i + 1, left - c):
                    yield (c,) + rest

    yield from rec(0, n)


def count_hands(n: int, kinds: int = SUIT_KINDS, max_count: int = MAX_COPIES) -> int:
    """Number of hands (count vectors) without listing them."""
    ways = [1] + [0] * n
    for _ in range(kinds):
        new = [0] * (n + 1)
        for total, w in enumerate(ways):
            if w:
                for c in range(min(max_count, n - total) + 1):
                    new[total + c] += w
        ways = new
    return ways[n]


def notation(counts) -> str:
    """The text's notation: kinds written out in order, e.g. '1112345678999'."""
    return "".join(str(i + 1) * c for i, c in enumerate(counts))


def kinds_notation(kind_list) -> str:
    return "".join(str(k + 1) for k in kind_list)


def physical_combinations(counts) -> int:
    """How many sets of physical tiles have these counts: prod C(4, c_i).
    (This is what the text's 牌姿组合式 figures add up.)"""
    p = 1
    for c in counts:
        p *= comb(MAX_COPIES, c)
    return p


# --------------------------------------------------------------------------
# complete hands


@cache
def melds_only(counts: tuple, chows: bool) -> bool:
    """Can the tiles be split exactly into melds (pungs, and chows if allowed)?
    The lowest kind still present must start a pung or a chow."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return True
    c = counts[i]
    if c >= 3:
        if melds_only(counts[:i] + (c - 3,) + counts[i + 1 :], chows):
            return True
    if chows and i + 2 < len(counts) and counts[i + 1] and counts[i + 2]:
        rest = counts[:i] + (c - 1, counts[i + 1] - 1, counts[i + 2] - 1) + counts[i + 3 :]
        if melds_only(rest, chows):
            return True
    return False


def is_standard_complete(counts: tuple, chows: bool = True) -> bool:
    """One pair plus melds."""
    if sum(counts) % 3 != 2:
        return False
    for i, c in enumerate(counts):
        if c >= 2 and melds_only(counts[:i] + (c - 2,) + counts[i + 1 :], chows):
            return True
    return False


def is_pairs_complete(counts: tuple, quad_as_two_pairs: bool = True) -> bool:
    """七对 (14 tiles: seven pairs) / 八对半 (17 tiles: seven pairs + one triplet).
    Even size: all pairs.  Odd size: pairs plus exactly one triplet.
    Without quad_as_two_pairs every kind is used 0, 2 (or 3 for the triplet)
    times, i.e. the pairs are all of different kinds (the text's 相异)."""
    size = sum(counts)
    if size < 2:
        return False
    triplets = 0
    for c in counts:
        if c % 2:
            triplets += 1
            c -= 3
            if c < 0:
                return False
        if c >= 4 and not quad_as_two_pairs:
            return False
    return triplets == size % 2


@cache
def complete_forms(counts: tuple, chows: bool, quad_as_two_pairs: bool):
    """(standard complete?, pairs-form complete?)"""
    return (is_standard_complete(counts, chows), is_pairs_complete(counts, quad_as_two_pairs))


# --------------------------------------------------------------------------
# conventions and waits


@dataclass(frozen=True)
class Convention:
    kinds: int = SUIT_KINDS  # 9 for one suit, 7 for honours
    chows: bool = True  # one suit (True) or honours only (False)
    quad_as_two_pairs: bool = True  # 4 of a kind may be two of the seven pairs
    wait_on_held_four: bool = False  # a kind already held 4 times can be a wait
    pairs_form: bool = True  # 七对 / 八对半 count at all

    def but(self, **changes) -> Convention:
        """A copy with some fields changed."""
        return replace(self, **changes)


DEFAULT = Convention()
HONOURS = Convention(kinds=HONOUR_KINDS, chows=False)


def waits_by_form(counts: tuple, conv: Convention = DEFAULT):
    """Waits of a hand, separately for the two forms:
    (standard waits, pairs-form waits), each a tuple of kind indices."""
    std, prs = [], []
    for t, c in enumerate(counts):
        if c >= MAX_COPIES and not conv.wait_on_held_four:
            continue
        s, p = complete_forms(counts[:t] + (c + 1,) + counts[t + 1 :], conv.chows, conv.quad_as_two_pairs)
        if s:
            std.append(t)
        if p and conv.pairs_form:
            prs.append(t)
    return tuple(std), tuple(prs)


def waits(counts: tuple, conv: Convention = DEFAULT):
    """Waits over both forms (what the tables count as 'n门听')."""
    std, prs = waits_by_form(counts, conv)
    return tuple(sorted(set(std) | set(prs)))


def every_tile_wins(counts: tuple, wait_kinds) -> bool:
    """张张可胡: every kind of which tiles remain (held fewer than 4) is a wait."""
    live = {t for t, c in enumerate(counts) if c < MAX_COPIES}
    return bool(live) and live <= set(wait_kinds)


# --------------------------------------------------------------------------
# families of figures


def ready_figures(n: int, conv: Convention = DEFAULT, with_lists: bool = False) -> dict:
    """All ready-hand figures for N-tile hands (附四, 附五 (一)/(三), 附二/附三).

    ready_any            全听型       ready in either form
    not_ready            无听型
    ready_standard       标准听型     ready in the standard form
    ready_pairs          七对/八对半听型 ready in the pairs form
    ready_pairs_distinct (相异)       ready in the pairs form with all pairs
                                      (and the triplet) of different kinds
    composite            复合, reading A: ready in both forms (intersection)
    composite_same_wait  复合, reading B: one waiting kind completes the hand
                                      in both forms at once
    waits_any[k]         hands with exactly k waiting kinds, both forms
    waits_standard[k]    hands with exactly k standard-form waiting kinds
    every_tile_wins[k]   张张可胡 hands with k waiting kinds (both forms)
    every_tile_wins_physical[k]  their sum of prod C(4, c_i) (牌姿组合式)
    """
    distinct = conv.but(quad_as_two_pairs=False)
    f = {
        "tiles": n,
        "hands": 0,
        "ready_any": 0,
        "not_ready": 0,
        "ready_standard": 0,
        "ready_pairs": 0,
        "ready_pairs_distinct": 0,
        "composite": 0,
        "composite_same_wait": 0,
        "waits_any": [0] * (conv.kinds + 1),
        "waits_standard": [0] * (conv.kinds + 1),
        "every_tile_wins": [0] * (conv.kinds + 1),
        "every_tile_wins_physical": [0] * (conv.kinds + 1),
    }
    listed = []
    for h in hands(n, conv.kinds):
        f["hands"] += 1
        std, prs = waits_by_form(h, conv)
        both = sorted(set(std) | set(prs))
        if not both:
            f["not_ready"] += 1
            continue
        f["ready_any"] += 1
        f["waits_any"][len(both)] += 1
        if std:
            f["ready_standard"] += 1
            f["waits_standard"][len(std)] += 1
        if prs:
            f["ready_pairs"] += 1
            if waits_by_form(h, distinct)[1]:
                f["ready_pairs_distinct"] += 1
        if std and prs:
            f["composite"] += 1
            if set(std) & set(prs):
                f["composite_same_wait"] += 1
        if every_tile_wins(h, both):
            f["every_tile_wins"][len(both)] += 1
            f["every_tile_wins_physical"][len(both)] += physical_combinations(h)
            if with_lists:
                listed.append(
                    {
                        "hand": notation(h),
                        "waits": kinds_notation(both),
                        "standard_waits": kinds_notation(std),
                        "pairs_waits": kinds_notation(prs),
                    }
                )
    if with_lists:
        f["every_tile_wins_hands"] = listed
    return f


def complete_figures(m: int, conv: Convention = DEFAULT) -> dict:
    """All complete-hand figures for M-tile hands (附五 (二)/(四)).

    complete_any 全胡型, not_complete 无胡型, complete_standard 标准胡型,
    complete_pairs 七对/八对半胡型 (complete_pairs_distinct: 相异),
    composite 复合 (complete in both forms)."""
    f = {
        "tiles": m,
        "hands": 0,
        "complete_any": 0,
        "not_complete": 0,
        "complete_standard": 0,
        "complete_pairs": 0,
        "complete_pairs_distinct": 0,
        "composite": 0,
    }
    for h in hands(m, conv.kinds):
        f["hands"] += 1
        s, p = complete_forms(h, conv.chows, conv.quad_as_two_pairs)
        p = p and conv.pairs_form
        if s or p:
            f["complete_any"] += 1
        else:
            f["not_complete"] += 1
        f["complete_standard"] += s
        f["complete_pairs"] += p
        f["composite"] += s and p
        if conv.pairs_form and is_pairs_complete(h, quad_as_two_pairs=False):
            f["complete_pairs_distinct"] += 1
    return f


def exact_wait_set_counts(n: int, wanted, conv: Convention = DEFAULT) -> dict:
    """附四 '仅听「123456」六门之...': how many N-tile hands wait on exactly the
    given kinds.  `wanted` is a list of kind strings like '123456'; returns
    {kinds: (count by standard-form waits, count by waits over both forms)}."""
    targets = {s: tuple(int(ch) - 1 for ch in s) for s in wanted}
    out = {s: [0, 0] for s in wanted}
    for h in hands(n, conv.kinds):
        std, prs = waits_by_form(h, conv)
        both = tuple(sorted(set(std) | set(prs)))
        for s, t in targets.items():
            out[s][0] += std == t
            out[s][1] += both == t
    return {s: tuple(v) for s, v in out.items()}


def four_quads_ready(n: int = 16, conv: Convention = DEFAULT) -> list:
    """附四 清四杠刻: ready N-tile hands made only of concealed four-of-a-kinds
    (four of them for N=16); returns [(hand, waits)]."""
    out = []
    for h in hands(n, conv.kinds):
        if all(c in (0, MAX_COPIES) for c in h):
            w = waits(h, conv)
            if w:
                out.append((notation(h), kinds_notation(w)))
    return out


def is_run(kind_list) -> bool:
    return all(b == a + 1 for a, b in zip(kind_list, kind_list[1:], strict=False))


NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # 1112345678999


def holds(counts, sub) -> bool:
    return all(c >= s for c, s in zip(counts, sub, strict=False))


def nine_wait_label(counts, conv: Convention = DEFAULT) -> str:
    """The text's labels for the fifteen 16-tile nine-wait hands (附二 9门听):
    八对半型 when the pairs form supplies waits, 九莲宝灯 when the hand holds
    1112345678999, 四暗刻型 when four kinds are held exactly three times,
    九龙飞天 otherwise.  (These rules reproduce the text's 4/5/4/2 split and
    the legible last digits; they are not rule-book definitions.)"""
    std, prs = waits_by_form(counts, conv)
    if prs:
        return "八对半型"
    if holds(counts, NINE_GATES):
        return "九莲宝灯"
    if sum(1 for c in counts if c == 3) >= 4:
        return "四暗刻型"
    return "九龙飞天"


def hands_with_kongs(n: int, kinds: int):
    """Hands of nominal size n holding k >= 1 declared kongs (each kong counts
    as a meld of 3 toward n but takes all 4 tiles of its kind): yields
    (kong kinds, concealed counts), the concealed part having n - 3k tiles
    of the other kinds."""

    def choose(start, k):
        if k == 0:
            yield ()
            return
        for i in range(start, kinds):
            for rest in choose(i + 1, k - 1):
                yield (i,) + rest

    for k in range(1, n // 3 + 1):
        for kong in choose(0, k):
            for h in hands(n - 3 * k, kinds):
                if all(h[i] == 0 for i in kong):
                    yield kong, h


def kong_figures(n: int, conv: Convention = HONOURS, with_lists: bool = False) -> dict:
    """含杠 figures: hands with at least one declared kong (k = 1, 2, ...
    kongs, concealed part n - 3k tiles of the other kinds).  A kong is a
    meld, so only the standard form counts (七对/八对半 need a fully
    concealed hand); a kong's kind is exhausted and can never be a wait.

    ready_with_kongs      含杠听: the concealed part is standard-ready
    complete_with_kongs   含杠胡: n+1 nominal tiles, concealed part complete
    every_tile_wins_with_kongs  张张可胡 (含开杠): every kind with tiles left
                          (not a kong kind, held < 4) is a wait
    also_pairs_ready / also_pairs_complete: what would be *added* if the
                          concealed part could also be in pairs form (a
                          rejected reading, reported for the record)."""
    f = {
        "tiles": n,
        "ready_with_kongs": 0,
        "complete_with_kongs": 0,
        "also_pairs_ready": 0,
        "also_pairs_complete": 0,
        "every_tile_wins_with_kongs": 0,
    }
    listed = []
    for kong, h in hands_with_kongs(n, conv.kinds):
        std, prs = [], []
        for t, c in enumerate(h):
            if t in kong or (c >= MAX_COPIES and not conv.wait_on_held_four):
                continue
            s, p = complete_forms(h[:t] + (c + 1,) + h[t + 1 :], conv.chows, conv.quad_as_two_pairs)
            if s:
                std.append(t)
            if p:
                prs.append(t)
        if std:
            f["ready_with_kongs"] += 1
            live = {t for t, c in enumerate(h) if c < MAX_COPIES and t not in kong}
            if live and live <= set(std):
                f["every_tile_wins_with_kongs"] += 1
                if with_lists:
                    listed.append(
                        {
                            "hand": notation(h) + "".join("[" + str(i + 1) * 4 + "]" for i in kong),
                            "waits": kinds_notation(std),
                        }
                    )
        elif prs:
            f["also_pairs_ready"] += 1
    for _kong, h in hands_with_kongs(n + 1, conv.kinds):
        s, p = complete_forms(h, conv.chows, conv.quad_as_two_pairs)
        f["complete_with_kongs"] += s
        f["also_pairs_complete"] += p and not s
    if with_lists:
        f["every_tile_wins_with_kongs_hands"] = listed
    return f


# --------------------------------------------------------------------------
# the published tables


def clear_caches() -> None:
    melds_only.cache_clear()
    complete_forms.cache_clear()


def table13(conv: Convention = DEFAULT, fresh: bool = True) -> dict:
    """The 13-tile one-suit table (附四 十三张, 附五 (三)/(四), 附三): every
    13-tile hand's waits and every 14-tile hand's completeness.  This is the
    benchmark peer of `haidi reproduce`; by default it starts from empty
    caches so that repeated timings measure the whole computation."""
    if fresh:
        clear_caches()
    return {"ready": ready_figures(13, conv), "complete": complete_figures(14, conv)}


def table16(conv: Convention = DEFAULT) -> dict:
    return {"ready": ready_figures(16, conv), "complete": complete_figures(17, conv)}


def figures(conv: Convention = DEFAULT, honours: Convention = HONOURS, with_lists: bool = False, progress=None) -> dict:
    """Every figure of 附二 to 附五 under the recommended conventions, keyed
    by the ids of tests/data/published_tables.json.  Per-family choices
    (see docs/reproduce.md):

    * 16 tiles: waits counted over both forms (附四 十六张 says 包含八对半形式);
    * 13 tiles: 附四 counts standard-form waits only (扣除七对子形式);
    * 复合 = ready (complete) in both forms;
    * 标准听型/标准胡型 = ready (complete) in the standard form;
    * honours: 7 kinds, no chows; 含杠 = at least one declared kong.
    """

    def say(msg):
        if progress:
            progress(msg)

    v = {}
    lists = {}
    say("16-tile hands")
    r16 = ready_figures(16, conv, with_lists=True)
    say("17-tile hands")
    c17 = complete_figures(17, conv)
    say("13-tile hands")
    r13 = ready_figures(13, conv, with_lists=True)
    say("14-tile hands")
    c14 = complete_figures(14, conv)

    # 附二: 16-tile 张张可胡
    zz = r16["every_tile_wins"]
    v["zz16_total"] = sum(zz)
    for k in (6, 7, 8, 9):
        v[f"zz16_waits{k}"] = zz[k]
        v[f"zz16_waits{k}_physical"] = r16["every_tile_wins_physical"][k]
    v["zz16_physical_total"] = sum(r16["every_tile_wins_physical"])
    nine = [x for x in r16["every_tile_wins_hands"] if len(x["waits"]) == 9]
    labels = [nine_wait_label(tuple(x["hand"].count(str(i)) for i in range(1, 10)), conv) for x in nine]
    v["zz16_waits9_pairs_form"] = labels.count("八对半型")
    v["zz16_waits9_four_pungs"] = labels.count("四暗刻型")
    v["zz16_waits9_nine_dragons"] = labels.count("九龙飞天")
    v["zz16_waits9_nine_gates"] = labels.count("九莲宝灯")
    eight = [x for x in r16["every_tile_wins_hands"] if len(x["waits"]) == 8]
    v["zz16_waits8_nine_gates_based"] = sum(
        holds(tuple(x["hand"].count(str(i)) for i in range(1, 10)), NINE_GATES) for x in eight
    )
    v["zz16_waits8_other"] = len(eight) - v["zz16_waits8_nine_gates_based"]
    say("16-tile hands with kongs")
    k16 = kong_figures(16, conv, with_lists=True)
    v["zz16_with_kongs"] = k16["every_tile_wins_with_kongs"]
    lists["zz16"] = [
        dict(
            x,
            label=nine_wait_label(tuple(x["hand"].count(str(i)) for i in range(1, 10)), conv)
            if len(x["waits"]) == 9
            else "",
        )
        for x in r16["every_tile_wins_hands"]
    ]
    lists["zz16_with_kongs"] = k16["every_tile_wins_with_kongs_hands"]

    # 附三: 13-tile 张张可胡
    zz = r13["every_tile_wins"]
    v["zz13_total"] = sum(zz)
    for k in (7, 8, 9):
        v[f"zz13_waits{k}"] = zz[k]
    say("13-tile hands with kongs")
    k13 = kong_figures(13, conv, with_lists=True)
    v["zz13_with_kongs"] = k13["every_tile_wins_with_kongs"]
    lists["zz13"] = r13["every_tile_wins_hands"]
    lists["zz13_with_kongs"] = k13["every_tile_wins_with_kongs_hands"]

    # 附四: number of waits
    for k in range(1, 10):
        v[f"multiwait16_{k}"] = r16["waits_any"][k]
        v[f"multiwait13_{k}"] = r13["waits_standard"][k]
    for k in (6, 7, 8, 9):
        v[f"multiwait16_{k}_zz"] = r16["every_tile_wins"][k]
    for k in (7, 8, 9):
        v[f"multiwait13_{k}_zz"] = r13["every_tile_wins"][k]
    v["multiwait16_total"] = r16["ready_any"]
    v["multiwait16_complete"] = c17["complete_any"]
    v["multiwait13_total"] = r13["ready_standard"]
    v["multiwait13_complete"] = c14["complete_standard"]
    say("four-quad hands")
    quads = four_quads_ready(16, conv)
    v["four_quads16"] = len(quads)
    v["four_quads16_consecutive"] = sum(1 for hand, _ in quads if is_run(sorted({int(ch) for ch in hand})))
    lists["four_quads16"] = [{"hand": h, "waits": w} for h, w in quads]
    say("exact wait sets")
    for n in (13, 16):
        ex = exact_wait_set_counts(n, ["123456", "1234567", "12345678"], conv)
        # index 1: waits over both forms (for 13 tiles both readings agree)
        v[f"exact_waits{n}_123456"] = ex["123456"][1]
        v[f"exact_waits{n}_1234567"] = ex["1234567"][1]
        v[f"exact_waits{n}_12345678"] = ex["12345678"][1]

    # 附五
    for n, r, m, c in ((16, r16, 17, c17), (13, r13, 14, c14)):
        v[f"ready{n}_any"] = r["ready_any"]
        v[f"ready{n}_none"] = r["not_ready"]
        v[f"ready{n}_standard"] = r["ready_standard"]
        v[f"ready{n}_pairs"] = r["ready_pairs"]
        v[f"ready{n}_pairs_distinct"] = r["ready_pairs_distinct"]
        v[f"ready{n}_composite"] = r["composite"]
        v[f"ready{n}_every_tile_wins"] = sum(r["every_tile_wins"])
        v[f"complete{m}_any"] = c["complete_any"]
        v[f"complete{m}_none"] = c["not_complete"]
        v[f"complete{m}_standard"] = c["complete_standard"]
        v[f"complete{m}_pairs"] = c["complete_pairs"]
        v[f"complete{m}_pairs_distinct"] = c["complete_pairs_distinct"]
        v[f"complete{m}_composite"] = c["composite"]
    for n in (13, 16):
        say(f"honours {n}")
        r = ready_figures(n, honours)
        c = complete_figures(n + 1, honours)
        k = kong_figures(n, honours)
        v[f"honours{n}_ready_no_kong"] = r["ready_any"]
        v[f"honours{n}_ready_standard"] = r["ready_standard"]
        v[f"honours{n}_ready_pairs"] = r["ready_pairs"]
        v[f"honours{n}_ready_with_kongs"] = k["ready_with_kongs"]
        v[f"honours{n}_ready_total"] = r["ready_any"] + k["ready_with_kongs"]
        v[f"honours{n + 1}_complete_no_kong"] = c["complete_any"]
        v[f"honours{n + 1}_complete_standard"] = c["complete_standard"]
        v[f"honours{n + 1}_complete_pairs"] = c["complete_pairs"]
        v[f"honours{n + 1}_complete_with_kongs"] = k["complete_with_kongs"]
        v[f"honours{n + 1}_complete_total"] = c["complete_any"] + k["complete_with_kongs"]
    if with_lists:
        return {"values": v, "lists": lists}
    return v


def sweep(sizes=(13, 16)) -> list:
    """The main families under every combination of the two binary
    conventions (quad_as_two_pairs, wait_on_held_four), for docs/reproduce.md."""
    rows = []
    for quad in (True, False):
        for held in (False, True):
            conv = DEFAULT.but(quad_as_two_pairs=quad, wait_on_held_four=held)
            for n in sizes:
                r = ready_figures(n, conv)
                c = complete_figures(n + 1, conv)
                rows.append(
                    {"quad_as_two_pairs": quad, "wait_on_held_four": held, "tiles": n, "ready": r, "complete": c}
                )
    return rows


def main(argv) -> None:
    if "--bench" in argv:
        t0 = time.perf_counter()
        table13()
        print(f"table13 (pure Python): {time.perf_counter() - t0:.3f} s")
        return
    if "--sweep" in argv:
        for row in sweep():
            r, c = row["ready"], row["complete"]
            print(json.dumps({k: row[k] for k in ("quad_as_two_pairs", "wait_on_held_four", "tiles")}))
            print("  ", {k: r[k] for k in r if k not in ("every_tile_wins_physical",)})
            print("  ", c)
        return
    t0 = time.perf_counter()
    out = figures(with_lists="--list" in argv, progress=lambda m: print("...", m, file=sys.stderr))
    if "--json" in argv:
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        values = out["values"] if "--list" in argv else out
        for k, val in values.items():
            print(f"{k:36} {val}")
        if "--list" in argv:
            for name, lst in out["lists"].items():
                print(f"== {name}")
                for x in lst:
                    print("  ", x["hand"], "听", x["waits"], x.get("label", ""))
    print(f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
