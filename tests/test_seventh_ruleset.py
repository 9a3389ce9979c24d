"""A seventh ruleset is one file and a registry line: tests/chows_ruleset.py, registered by
``haidi.rulesets.register`` here, plays through every door a built-in ruleset plays
through (evaluate, evaluate_many on a list and on columns, settle, the command line,
Game and simulate) with nothing else in haidi naming it."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator

import chows_ruleset
import numpy as np
import pytest

import haidi
from haidi import HandError
from haidi.rulesets import REGISTRY, register, unregister


@pytest.fixture(autouse=True)
def chows() -> Iterator[haidi.Ruleset]:
    """The test ruleset, registered for one test and removed after it, so that no other
    test sees a seventh ruleset."""
    register(chows_ruleset)  # the registry line
    try:
        yield haidi.ruleset("chows")
    finally:
        unregister("chows")


# (hand, win, self_drawn, total, fans): each total added up by hand from the table of
# tests/chows_ruleset.py.
WINS = [
    # 胡 1 + 门清 1 + 平和 1 (pair 5s, 67s waiting on 5s/8s) + 断幺 1 (2 to 8 only) = 4.
    ("234m567m345p55s67s", "8s", False, 4, ["hu", "concealed", "pinghu", "all_simples"]),
    # 胡 1 + 自摸 1 + 门清 1 + 平和 1 (pair 5m, 23m waiting on 1m/4m) + 清一色 4 = 8.
    ("123m456m789m23m55m", "4m", True, 8, ["hu", "self_drawn", "concealed", "pinghu", "full_flush"]),
    # A declared chow: 胡 1 + 平和 1 = 2 (not 门清; 1p and 9m are not simples).
    ("[123p]456m789m23s55s", "4s", False, 2, ["hu", "pinghu"]),
    # An honour pair and a single wait: 胡 1 + 门清 1 = 2.
    ("234m567m345p678s1z", "1z", False, 2, ["hu", "concealed"]),
]
# A complete hand with a pung does not win; neither does an incomplete one.
PUNG = ("111m456m789m234p5s", "5s", False)
INCOMPLETE = ("123m456m789m234p5s", "6s", False)


@pytest.mark.parametrize(("hand", "win", "self_drawn", "total", "fans"), WINS)
def test_evaluate_scores_the_table(chows, hand, win, self_drawn, total, fans) -> None:
    r = chows.evaluate(hand=hand, win=win, self_drawn=self_drawn)
    assert r.win is True
    assert r.total == total
    assert [f.id for f in r.fans] == fans
    assert sum(f.value * f.count for f in r.fans) == total
    assert {g.kind for g in r.groups} == {"chow", "pair"}
    # The result is the ruleset's own: it pickles and reads back equal while registered.
    assert pickle.loads(pickle.dumps(r)) == r


def test_a_hand_with_a_pung_does_not_win(chows) -> None:
    hand, win, self_drawn = PUNG
    assert chows.is_win(hand + win)  # the tiles are a standard hand ...
    r = chows.evaluate(hand=hand, win=win, self_drawn=self_drawn)
    assert (r.win, r.total, r.reason) == (False, 0, "every meld is a chow")  # ... but not all chows
    hand, win, self_drawn = INCOMPLETE
    r = chows.evaluate(hand=hand, win=win, self_drawn=self_drawn)
    assert (r.win, r.reason) == (False, "not a complete hand")


def test_situations_are_read_strictly(chows) -> None:
    with pytest.raises(HandError, match="seat_wind"):
        chows.evaluate(hand=WINS[0][0], win="8s", seat_wind="E")  # not a key of this ruleset
    with pytest.raises(HandError, match="self_drawn"):
        chows.evaluate(hand=WINS[0][0], win="8s", self_drawn="yes")


def _situations() -> list[dict]:
    rows = [(h, w, s) for h, w, s, _, _ in WINS] + [PUNG, INCOMPLETE]
    return [{"hand": h, "win": w, "self_drawn": s} for h, w, s in rows]


def test_evaluate_many_on_a_list_and_on_columns(chows) -> None:
    situations = _situations()
    totals = [t for *_, t, _ in WINS] + [0, 0]
    wins = [True] * len(WINS) + [False, False]
    listed = chows.evaluate_many(situations)
    assert [r.total for r in listed] == totals
    assert [r.win for r in listed] == wins
    assert listed == [chows.evaluate(**s) for s in situations]
    assert [json.loads(t) for t in chows.evaluate_many(situations, output="json")] == [
        json.loads(json.dumps(r.to_dict())) for r in listed
    ]

    columns = {k: [s[k] for s in situations] for k in situations[0]}
    got = chows.evaluate_many(columns)
    assert got["win"].tolist() == wins
    assert got["total"].tolist() == totals
    ids = list(chows.fan_ids)
    assert ids == ["hu", "self_drawn", "concealed", "pinghu", "all_simples", "full_flush"]
    for row, (*_, fans) in enumerate(WINS):
        assert [ids[k] for k in np.flatnonzero(got["fans"][row])] == fans
    assert not got["fans"][len(WINS) :].any()

    bad = [*situations, {"hand": "123m", "win": "5s"}]
    collected = chows.evaluate_many(bad, errors="collect")
    assert "error" in collected[-1] and collected[0] == listed[0]


@pytest.mark.parametrize(
    ("outcome", "payments"),
    [
        # On a discard by seat 3: seats 0 and 2 pay 4, the discarder twice 4.
        ({"winner": 1, "discarder": 3, "total": 4}, [-4, 16, -4, -8]),
        # Self-drawn, base 2: each loser pays 2 x 8.
        ({"winner": 0, "total": 8, "options": {"base": 2}}, [48, -16, -16, -16]),
    ],
)
def test_settle_follows_the_formula(chows, outcome, payments) -> None:
    assert chows.settle(outcome) == payments
    assert sum(payments) == 0


def test_settle_is_strict(chows) -> None:
    with pytest.raises(HandError, match="discarder"):
        chows.settle({"winner": 1, "discarder": 1, "total": 2})
    with pytest.raises(HandError, match="tai"):
        chows.settle({"winner": 1, "tai": 2})
    with pytest.raises(HandError, match="base"):
        chows.settle({"winner": 1, "total": 2, "options": {"base": 0}})


def test_the_command_line_scores_it(haidi_cli) -> None:
    hand, win, _, total, _ = WINS[0]
    code, out, err = haidi_cli("eval", "--rules", "chows", hand, "--win", win)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"{hand} + {win}: win, total {total}"
    assert "  平和  pinghu  1" in out
    lines = "".join(json.dumps(s) + "\n" for s in _situations())
    code, out, _ = haidi_cli("eval", "--rules", "chows", "--jsonl", stdin=lines)
    assert code == 0
    assert [json.loads(line)["total"] for line in out.splitlines()] == [t for *_, t, _ in WINS] + [0, 0]


def test_simulate_and_game_play_it(chows) -> None:
    out = haidi.simulate("chows", 40, seed=1, agents="greedy")
    payments = out["payments"]
    assert not payments.sum(axis=1).any()
    won = np.flatnonzero(out["winner"] >= 0)
    assert len(won) > 10
    for i in won:
        total, winner, discarder = int(out["total"][i]), int(out["winner"][i]), int(out["discarder"][i])
        outcome = {"winner": winner, "total": total, **({"discarder": discarder} if discarder >= 0 else {})}
        assert payments[i].tolist() == chows.settle(outcome)
        assert out["fans"][i, 0] == 1  # 胡 counts in every win
    # haidi.Game deals the same wall from a hand's seed and, played the same way, ends the same.
    i = int(won[0])
    g = haidi.Game("chows", seed=int(out["seeds"][i]))
    while not g.done:
        seat = g.to_act[0]
        g.step(seat, g._greedy(seat) or {"type": "pass"})
    result = g.result
    assert result["payments"] == payments[i].tolist()
    assert sum(result["payments"]) == 0
    score = result["wins"][0]["score"]
    assert score.win and score.total == out["total"][i]
    assert all(g.kind in ("chow", "pair") for g in score.groups)


def test_registering_is_checked_and_undone() -> None:
    assert "chows" in haidi.RULESETS
    with pytest.raises(HandError, match="registered already"):
        register(chows_ruleset)
    unregister("chows")
    try:
        assert "chows" not in REGISTRY and "chows" not in haidi.RULESETS
        with pytest.raises(HandError, match="unknown ruleset 'chows'"):
            haidi.ruleset("chows")
        with pytest.raises(HandError, match="SPEC"):
            register(json)
    finally:
        register(chows_ruleset)
