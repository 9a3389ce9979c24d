"""A seventh ruleset, written as a user would write one (docs/rulesets.md): 13-tile hands
whose four melds are all chows, one pattern table, one settle formula, and a ``GAME``.

It is registered by tests/test_seventh_ruleset.py (``haidi.rulesets.register``) and
nothing else in haidi names it.

Patterns (each adds its value to the total):

- 胡 (win, 1): every win;
- 自摸 (self-drawn, 1);
- 门清 (concealed, 1): no meld declared;
- 平和 (pinghu, 1): a pair that is not an honour, won on a two-sided wait;
- 断幺 (all simples, 1): no terminal or honour;
- 清一色 (full flush, 4): one suit, no honour.

A hand with a pung or a kong does not win: "every meld is a chow".

Settle: each loser pays ``base * total``; on a win on a discard the discarder pays
twice that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from haidi import HandError
from haidi.rulesets import GameRules, RulesetSpec
from haidi.rulesets import _outcome as oc
from haidi.rulesets._scheme import (
    EXPLAIN,
    FORMAT,
    HAND,
    HONOURS,
    WIN,
    Option,
    Pattern,
    Q,
    all_tiles,
    always,
    build,
    flag,
    flag_key,
    kinds,
    pairs,
    win,
)
from haidi.rulesets._spec import ALL_TILES

SPEC = RulesetSpec(name="chows", title="All chows (平和麻将, a test ruleset)", melds=4, tiles=ALL_TILES)

OPTIONS = (Option("base", 1, "the unit every payment is counted in", low=1, high=1000),)

PATTERNS = (
    Pattern("hu", "胡", "win", 1, always()),
    Pattern("self_drawn", "自摸", "self-drawn", 1, flag("self_drawn")),
    Pattern("concealed", "门清", "concealed hand", 1, Q.declared == 0),
    Pattern("pinghu", "平和", "pinghu", 1, (pairs(HONOURS) == 0) & win("open")),
    Pattern("all_simples", "断幺", "all simples", 1, all_tiles(kinds("2345678m2345678p2345678s"))),
    Pattern("full_flush", "清一色", "full flush", 4, (Q.suits == 1) & (Q.honours == 0)),
)

KEYS = (HAND, WIN, FORMAT, EXPLAIN, flag_key("self_drawn"))


def scheme(options: Mapping[str, Any]) -> dict[str, Any]:
    return build(
        SPEC,
        keys=KEYS,
        patterns=PATTERNS,
        valid=[(Q.triplets == 0, "every meld is a chow")],
    )


def settle(ruleset: Any, outcome: Mapping[str, Any]) -> list[int]:
    """``outcome``: ``winner``, ``discarder`` (None: self-drawn), ``total``, ``options``."""
    outcome = oc.mapping(outcome, "outcome")
    oc.known_keys(outcome, {"winner", "discarder", "total", "options"}, "outcome")
    base = ruleset.options(oc.options(outcome, ("base",)))["base"]
    winner = oc.optional_seat(outcome, "winner")
    discarder = oc.optional_seat(outcome, "discarder")
    if winner is None:
        raise HandError("settle needs the winner")
    if discarder == winner:
        raise HandError("the winner cannot be the discarder")
    total = oc.count(oc.get(outcome, "total", 0), "total", 0, 100)
    pay = [0, 0, 0, 0]
    for s in range(4):
        if s != winner:
            share = base * total * (2 if s == discarder else 1)
            pay[s] -= share
            pay[winner] += share
    return pay


GAME = GameRules()


def game_outcome(record: Mapping[str, Any], wins: list[dict[str, Any]], options: Any) -> dict[str, Any] | None:
    if not wins:
        return None
    return {
        "winner": wins[0]["seat"],
        "discarder": record["wins"][0]["discarder"],
        "total": wins[0]["score"]["total"],
        **({"options": options} if options else {}),
    }
