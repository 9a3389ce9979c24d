"""What every ruleset's scoring shares: one result shape, one way to pass options, batches
(lists and columns), strict input on every path, and the defects of the earlier scorers."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import haidi

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import situations  # noqa: E402

REGIONAL = ("changsha", "hainan", "tangshan", "beijing", "longgang")
COMMON = ("win", "total", "fans", "reason", "form", "arrangement", "groups")
#: A winning situation of each ruleset.
WINNING = {
    "mcr": dict(hand="123m456p789s1122z", win="1z"),
    "changsha": dict(hand="123m456p789s2255m", win="5m", self_drawn=True),
    "hainan": dict(hand="123m456p789s2255m", win="5m", self_drawn=True),
    "tangshan": dict(hand="123m456p789s2255m", win="5m", self_drawn=True),
    "beijing": dict(hand="123m456p789s2255m", win="5m", self_drawn=True),
    "longgang": dict(hand="123m456p789s111z2255m", win="5m", self_drawn=True),
}


def random_situations(rules: str, n: int, seed: int = 5) -> list[dict]:
    """``n`` random situations the ruleset scores."""
    return situations.scored(random.Random(seed), rules, n, haidi.ruleset(rules).evaluate, haidi.HandError)


# --- one result shape ------------------------------------------------------------------


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_every_result_has_the_common_keys(rules: str) -> None:
    r = haidi.ruleset(rules).evaluate(**WINNING[rules])
    assert all(k in r for k in COMMON), sorted(r)
    assert r["win"] is True and isinstance(r["total"], int) and r["reason"] is None
    for f in r["fans"]:
        assert {"id", "name", "name_en", "value", "count"} <= set(f)
    for g in r["groups"]:
        assert set(g) == {"kind", "tiles", "wilds", "meld"}
    kinds = [t for g in r["groups"] for t in g["tiles"]]
    assert len(kinds) == 14 + (3 if rules == "longgang" else 0)
    json.dumps(r.to_dict(), ensure_ascii=False)


#: Winning situations of each ruleset whose entries are of every kind it has: fans,
#: groups of sets, of a form without sets (十三幺, a knitted straight), of declared melds.
EVERY_ENTRY = {
    "mcr": [WINNING["mcr"], dict(hand="19m19p19s1234567z", win="1m"), dict(hand="147m258p369s[123m]5z", win="5z")],
    "changsha": [
        WINNING["changsha"],
        dict(hand="[123m]456p789s2255m", win="5m"),
        dict(hand="22558m22558p225s", win="8s", self_drawn=True),
    ],
    "hainan": [
        WINNING["hainan"],
        dict(hand="[123m]456p789s2255m", win="5m", self_drawn=True),
        dict(hand="19m19p19s1234567z", win="1m", self_drawn=True),
    ],
    "tangshan": [WINNING["tangshan"], dict(hand="[123m]456p789s2255m", win="5m", self_drawn=True)],
    "beijing": [WINNING["beijing"], dict(hand="[123m]456p789s2255m", win="5m", self_drawn=True)],
    "longgang": [WINNING["longgang"], dict(hand="[123m]456p789s111z2255m", win="5m", self_drawn=True)],
}


def entries(result: haidi.Result) -> list:
    """Every fan, group and other entry of a result."""
    keys = ("fans", "groups", "patterns", "face_items")
    return [e for k in keys for e in result.get(k, ())]


#: Ways of changing a result or an entry, each refused.
CHANGES = {
    "setattr": lambda o, k: setattr(o, k, 0),
    "delattr": lambda o, k: delattr(o, k),
    "setitem": lambda o, k: o.__setitem__(k, 0),
    "delitem": lambda o, k: o.__delitem__(k),
    "object.__setattr__": lambda o, k: object.__setattr__(o, k, 0),
    "new attribute": lambda o, k: setattr(o, k + "_new", 0),
}


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
@pytest.mark.parametrize("call", ("evaluate", "evaluate_many"))
def test_results_and_their_entries_cannot_be_changed(rules: str, call: str) -> None:
    """No attribute or item of a result, of its fans, groups or other entries can be set
    or deleted (as for a frozen dataclass); what a result holds is tuples, not lists."""
    import copy

    rs = haidi.ruleset(rules)
    sits = EVERY_ENTRY[rules]

    def score() -> list:
        return [rs.evaluate(**s) for s in sits] if call == "evaluate" else rs.evaluate_many(sits)

    earlier = score()
    as_made = copy.deepcopy([r.to_dict() for r in earlier])
    assert all(r.win for r in earlier)
    if rules == "mcr":
        assert [r.form for r in earlier] == ["standard", "thirteen_orphans", "knitted_straight"]
    tried = 0
    for r in earlier:
        for obj in [r, *entries(r)]:
            for key in obj.keys():
                for change in CHANGES.values():
                    with pytest.raises((TypeError, AttributeError)):
                        change(obj, key)
                    tried += 1
                value = obj[key]
                assert not isinstance(value, (list, dict, set)), (rules, key, type(value))
                if isinstance(value, tuple):
                    assert all(not isinstance(v, (list, dict, set)) for v in value), (rules, key)
    assert tried > 100
    assert [r.to_dict() for r in earlier] == as_made == [r.to_dict() for r in score()]
    # A plain dict of a result is the caller's own: changing it changes no result.
    d = earlier[0].to_dict()
    d["fans"][0]["count"] = 99
    d["total"] = -1
    assert earlier[0].to_dict() == as_made[0] and score()[0].to_dict() == as_made[0]


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_win_total_and_fans_read_first_are_the_values_written_later(rules: str) -> None:
    """A result reads ``win``, ``total`` and ``fans`` from the score itself, and writes
    its other values only when one is first read: the three read first are the same as
    read again once every value is written, and as in its dict."""
    from mcr_peer import random_situation

    ev = haidi.ruleset(rules).evaluate
    rng = random.Random(11)
    sits = [random_situation(rng) for _ in range(300)] if rules == "mcr" else random_situations(rules, 300, seed=11)
    if rules in ("tangshan", "beijing", "longgang"):
        sits += situations.scored(random.Random(13), rules, 300, ev, haidi.HandError, wilds=True)
    wins = 0
    for s in sits:
        r = ev(**s)
        first = (r.win, r.total, r.fans)
        d = r.to_dict()
        assert first == (r.win, r.total, r.fans), s
        assert (first[0], first[1]) == (d["win"], d["total"]) == (r["win"], r["total"]), s
        assert [f.to_dict() for f in first[2]] == list(d["fans"]), s
        # The other order: a value written first, then the three.
        again = ev(**s)
        assert again["arrangement"] == d["arrangement"] and (again.win, again.total, again.fans) == first, s
        wins += first[0]
    assert wins > 100


def test_every_key_is_an_attribute_and_a_key_of_another_ruleset_is_not() -> None:
    """Each key of a result and of its fans and groups reads as an attribute, the same
    object as the item; a key only another ruleset writes (Longgang's ``tai`` on an MCR
    result or fan, MCR's ``points`` on a Longgang fan) is an ``AttributeError`` naming the
    ruleset, and ``hasattr`` is False. Results, fans and groups keep Python's own attribute
    lookup (no ``__getattr__``), so that their typed fields read as fast as ``__slots__``."""
    results = {rules: [haidi.ruleset(rules).evaluate(**s) for s in EVERY_ENTRY[rules]] for rules in ("mcr", *REGIONAL)}
    read = 0
    for rules, rs in results.items():
        for r in rs:
            for obj in [r, *r.fans, *r.groups]:
                for key in obj.keys():
                    assert getattr(obj, key) == obj[key], (rules, key)
                    read += 1
    assert read > 500
    mcr, longgang = results["mcr"][0], results["longgang"][0]
    assert "tai" in longgang and "tai" not in mcr and longgang.tai == longgang["tai"]
    assert not hasattr(mcr, "tai") and not hasattr(mcr.fans[0], "tai") and hasattr(longgang.fans[0], "tai")
    assert not hasattr(longgang.fans[0], "points") and mcr.fans[0].points == mcr.fans[0]["points"]
    with pytest.raises(AttributeError, match='mcr result has no attribute or key "tai"'):
        _ = mcr.tai
    with pytest.raises(AttributeError, match='Fan entry has no attribute or key "points"'):
        _ = longgang.fans[0].points
    with pytest.raises(AttributeError):
        _ = mcr.no_such_key
    for cls in (haidi.Result, haidi.Fan, haidi.Group):
        assert cls.__getattribute__ is object.__getattribute__ and "__getattr__" not in vars(cls), cls
    assert type(vars(haidi.Fan)["id"]).__name__ == "member_descriptor"
    # A key that is no str (a pickle's dict, made by hand) is an item, not an attribute.
    odd = haidi.Fan._restore({1: "one", "id": 7})
    assert odd[1] == "one" and odd.id == 7


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_entries_are_shared_and_the_collector_need_not_follow_them(rules: str) -> None:
    """The same fan with the same count, and the same group, is one object in every
    result; entries hold no container, so the collector does not track them. JSON takes a
    result's plain dict, pickle and ``==`` the result itself."""
    import gc
    import pickle

    rs = haidi.ruleset(rules)
    first = [rs.evaluate(**s) for s in EVERY_ENTRY[rules]]
    again = rs.evaluate_many(EVERY_ENTRY[rules])
    for a, b in zip(first, again, strict=True):
        assert a == b and a.to_dict() == b.to_dict()
        assert [id(f) for f in a.fans] == [id(f) for f in b.fans]
        loose = ("orphans", "knitted", "loose", "knitted_straight")
        assert all(x is y for x, y in zip(a.groups, b.groups, strict=True) if x.kind not in loose)
    for r in [*first, *again]:
        assert all(not gc.is_tracked(e) for e in entries(r)) and not gc.is_tracked(r)
        assert pickle.loads(pickle.dumps(r)) == r
        assert json.loads(json.dumps(r.to_dict()["groups"])) == [
            {k: list(v) if isinstance(v, tuple) else v for k, v in g.items()} for g in r.groups
        ]
        assert json.loads(r.to_json()) == json.loads(json.dumps(r.to_dict()))


@pytest.mark.parametrize(
    "rules, situation, name",
    [
        ("mcr", dict(hand="111m999p123s4455z", win="5z"), "幺九刻"),
        ("longgang", dict(hand="123m456p789s666z777z2m", win="2m", self_drawn=True), "字刻"),
    ],
)
def test_a_count_is_an_entry_of_its_own(rules: str, situation: dict, name: str) -> None:
    rs = haidi.ruleset(rules)
    twice = next(f for f in rs.evaluate(**situation)["fans"] if f["name"] == name)
    once = next(
        f
        for f in rs.evaluate(**dict(situation, hand=situation["hand"].replace("999p", "789p").replace("666z", "456s")))[
            "fans"
        ]
        if f["name"] == name
    )
    assert (twice["count"], once["count"]) == (2, 1) and dict(twice, count=1) == once


@pytest.mark.parametrize("rules", REGIONAL)
def test_an_incomplete_hand_has_the_same_keys(rules: str) -> None:
    rs = haidi.ruleset(rules)
    ok = rs.evaluate(**WINNING[rules])
    s = dict(WINNING[rules], hand=WINNING[rules]["hand"].replace("789s", "799s"))
    r = rs.evaluate(**s)
    assert r["win"] is False and r["reason"] and r["total"] == 0 and r["fans"] == () and r["groups"] == ()
    assert set(r) == set(ok)


@pytest.mark.parametrize("rules", REGIONAL)
def test_fan_ids_are_the_columns_of_the_fans(rules: str) -> None:
    rs = haidi.ruleset(rules)
    sits = random_situations(rules, 60)
    cols = rs.evaluate_many({k: [s.get(k) for s in sits] for k in {k for s in sits for k in s}})
    ids = rs.fan_ids
    assert cols["fans"].shape == (60, len(ids))
    for row, s in zip(cols["fans"], sits, strict=True):
        r = rs.evaluate(**s)
        assert {ids[j]: int(n) for j, n in enumerate(row) if n} == {f["id"]: f["count"] for f in r["fans"]}


def test_changsha_and_hainan_arrangements_keep_each_tiles_suit() -> None:
    # The earlier text gave every tile the first tile's suit: 22558822558258m.
    r = haidi.ruleset("changsha").evaluate(hand="22m55m88m22p55p88p2s", win="2s")
    assert r["form"] == "seven_pairs" and r["arrangement"] == "22m 55m 88m 22p 55p 88p 22s"
    r = haidi.ruleset("hainan").evaluate(hand="123m456p789s2z555m", win="2z", self_drawn=True)
    assert r["arrangement"] == "123m 555m 456p 789s 22z"


# --- one way to pass options -----------------------------------------------------------


def test_options_take_one_table_per_ruleset() -> None:
    for rules in REGIONAL:
        rs = haidi.ruleset(rules)
        defaults = rs.options()
        assert set(defaults) == {o.name for o in rs.module.OPTIONS}
        with pytest.raises(haidi.HandError, match=f"unknown {rules} option 'colour'"):
            rs.evaluate(**WINNING[rules], options={"colour": 1})
        with pytest.raises(haidi.HandError, match="options must be a dict"):
            rs.evaluate(**WINNING[rules], options=[1])


def test_an_option_reads_the_same_in_every_call() -> None:
    hn = haidi.ruleset("hainan")
    s = dict(hand="[555z]123m456p789s2z", win="2z")  # a pung of 白: a 番 only with white_dragon
    assert not hn.evaluate(**s)["win"]
    opt = {"white_dragon": True}
    assert hn.evaluate(**s, options=opt)["win"]
    assert hn.evaluate_many([s], options=opt)[0]["win"]
    assert hn.evaluate_many([{**s, "options": opt}])[0]["win"]
    assert hn.evaluate_many({k: [v] for k, v in s.items()}, options=opt)["win"].tolist() == [True]
    with pytest.raises(haidi.HandError, match="white_dragon must be True or False"):
        hn.evaluate(**s, options={"white_dragon": "yes"})
    # Settlement options come through the same table.
    assert hn.settle({"winner": 1, "options": {"self_drawn_each": 30}}) == [-30, 90, -30, -30]


def test_old_ways_of_passing_options_stay() -> None:
    lg = haidi.ruleset("longgang")
    s = dict(hand="[123m][456m][789m]123s55p99s", win="9s", self_drawn=True)
    with_key = lg.evaluate(**s, optional=["one_dragon"])
    assert with_key == lg.evaluate(**s, options={"optional": ["one_dragon"]})
    assert "one_dragon" in {p["id"] for p in with_key["patterns"]}
    bj = haidi.ruleset("beijing")
    h = dict(hand="123m456p789s2255m", win="5m", self_drawn=True)
    assert bj.evaluate(**h, variant="draft4") == bj.evaluate(**h, options={"variant": "draft4"})
    with pytest.raises(haidi.HandError, match="both as a key and in options"):
        bj.evaluate(**h, variant="draft4", options={"variant": "wanghu"})


# --- strict input ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", REGIONAL)
@pytest.mark.parametrize(
    "change, message",
    [
        ({"colour": "red"}, "unknown {} situation key"),
        ({"self_drawn": "yes"}, "self_drawn must be True or False, not 'yes'"),
        ({"self_drawn": 1}, "self_drawn must be True or False, not 1"),
        ({"self_drawn": float("nan")}, "self_drawn must be True or False"),
        ({"seat_wind": "X"}, "seat_wind must be a wind"),
        ({"seat_wind": True}, "seat_wind must be a wind"),
        ({"hand": 123}, "hand must be a hand"),
        ({"win": 5}, "win must be a tile"),
        ({"format": "xml"}, "format must be"),
    ],
)
def test_bad_values_name_the_key(rules: str, change: dict, message: str) -> None:
    rs = haidi.ruleset(rules)
    s = {**WINNING[rules], **change}
    with pytest.raises(haidi.HandError, match=message.format(rules).replace("(", r"\(")):
        rs.evaluate(**s)
    # The same value in a list and in columns gives the same error, naming the row.
    with pytest.raises(
        haidi.HandError, match="situation 0: " + message.format(rules).split(",")[0].replace("(", r"\(")
    ):
        rs.evaluate_many([s])
    if "colour" not in change and "format" not in change:
        cols = {k: [v] for k, v in s.items()}
        with pytest.raises(haidi.HandError, match="row 0: "):
            rs.evaluate_many(cols)


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
@pytest.mark.parametrize(
    "change, kind, key",
    [
        ({"colour": "red"}, "invalid", "colour"),
        ({"self_drawn": "yes"}, "invalid", "self_drawn"),
        ({"seat_wind": "X"}, "invalid", "seat_wind"),
        ({"hand": "123m456p789s12x"}, "unknown_char", "hand"),
        ({"hand": "11111m456p789s12m"}, "fifth_copy", "hand"),
        ({"hand": "123m456p789s"}, "wrong_size", "hand"),
        ({"win": "5x"}, "unknown_char", "win"),
    ],
)
def test_an_error_names_its_kind_key_and_row(rules: str, change: dict, kind: str, key: str) -> None:
    """``HandError.kind``, ``.key`` and ``.row`` say what the message says, the same on
    every path: a call (no row), the third situation of a list, the third row of columns."""
    rs = haidi.ruleset(rules)
    bad = {**WINNING[rules], **change}
    with pytest.raises(haidi.HandError) as call:
        rs.evaluate(**bad)
    assert (call.value.kind, call.value.key, call.value.row) == (kind, key, None)
    with pytest.raises(haidi.HandError) as listed:
        rs.evaluate_many([WINNING[rules], WINNING[rules], bad])
    assert (listed.value.kind, listed.value.key, listed.value.row) == (kind, key, 2)
    assert str(listed.value) == f"situation 2: {call.value}"
    if "colour" not in change:
        rows = [WINNING[rules], WINNING[rules], bad]
        with pytest.raises(haidi.HandError) as cols:
            rs.evaluate_many({k: [r.get(k) for r in rows] for k in bad})
        assert (cols.value.kind, cols.value.key, cols.value.row) == (kind, key, 2)
        assert str(cols.value).startswith("row 2: ")


@pytest.mark.parametrize(
    "rules, change, key",
    [
        ("changsha", {"win": ""}, "win"),
        ("changsha", {"win": "1z"}, "win"),
        ("changsha", {"win": "5m5m"}, "win"),
        ("changsha", {"flowers": "1z"}, "flowers"),
        ("changsha", {"flowers": "1f"}, "flowers"),
        ("changsha", {"hand": "123m456p789s2255m1f"}, "hand"),
        ("changsha", {"dealt": True}, "dealt"),
        ("hainan", {"win": "1f"}, "win"),
        ("hainan", {"seat": 1, "seat_wind": "W"}, "seat_wind"),
        ("longgang", {"wilds": "5z"}, "wilds"),
        ("longgang", {"hand": "123m456p789s111z2255m5f"}, "hand"),
        ("longgang", {"kong_replacement": True, "self_drawn": False}, "self_drawn"),
        ("longgang", {"bulldozer_wilds": ["x"]}, "bulldozer_wilds"),
        ("longgang", {"options": {"bulldozer_wilds": []}}, "options"),
        ("tangshan", {"wilds": "1f"}, "wilds"),
        ("tangshan", {"wilds": "1m2m3m"}, "wilds"),
        ("tangshan", {"wilds": "1m", "indicator": "1m"}, "indicator"),
        ("beijing", {"discarder_wind": "E", "self_drawn": False}, "discarder_wind"),
    ],
)
def test_a_regional_refusal_names_the_key_at_fault(rules: str, change: dict, key: str) -> None:
    """Where the message speaks of one key's value, ``HandError.key`` names it, on a call
    and in a list (an option given as a situation key is named by that key)."""
    bad = {**WINNING[rules], **change}
    with pytest.raises(haidi.HandError) as call:
        haidi.ruleset(rules).evaluate(**bad)
    assert call.value.key == key, str(call.value)
    with pytest.raises(haidi.HandError) as listed:
        haidi.ruleset(rules).evaluate_many([WINNING[rules], bad])
    assert (listed.value.key, listed.value.row) == (key, 1)


def test_errors_raised_in_python_have_the_same_attributes() -> None:
    e = haidi.HandError("a message")
    assert (e.kind, e.key, e.row, e.position, e.text, e.text_start) == ("invalid", None, None, None, None, 0)
    with pytest.raises(haidi.HandError) as settle:
        haidi.ruleset("changsha").settle({"wins": [{"seat": 1, "small": 1}], "discardr": 2})
    assert settle.value.key == "discardr"
    for options in ({"birds": "x"}, {"nope": 1}, 5):
        with pytest.raises(haidi.HandError) as option:
            haidi.ruleset("changsha").evaluate(**WINNING["changsha"], options=options)
        assert option.value.key == "options"
    with pytest.raises(haidi.HandError) as batch:
        haidi.ruleset("mcr").win_batch(np.zeros((3, 34), dtype=np.int64) + np.array([[0]] * 2 + [[5]]))
    assert batch.value.row == 2 and str(batch.value).startswith("row 2: ")


def test_errors_can_be_collected() -> None:
    rs = haidi.ruleset("tangshan")
    good, bad = WINNING["tangshan"], {**WINNING["tangshan"], "self_drawn": "no"}
    out = rs.evaluate_many([good, bad, good], errors="collect")
    assert out[0]["win"] and "self_drawn must be" in out[1]["error"] and out[2]["win"]
    cols = rs.evaluate_many({k: [good[k], bad[k], good[k]] for k in good}, errors="collect")
    assert cols["win"].tolist() == [True, False, True]
    assert cols["error"][0] is None and "self_drawn" in cols["error"][1]
    with pytest.raises(haidi.HandError, match="errors must be"):
        rs.evaluate_many([good], errors="ignore")


@pytest.mark.parametrize("rules", haidi.RULESETS)
@pytest.mark.parametrize("threads", ["0", "1"])
def test_collect_answers_a_bad_situation_with_the_error_raise_gives(monkeypatch, rules: str, threads: str) -> None:
    """One batch path for every ruleset: with errors="collect", a bad situation of a list
    (one that cannot be read, one that cannot be scored, one that is not a dict) and a bad
    row of columns get the message that errors="raise" raises for them, less its place;
    as JSON, the bytes of {"error": message}."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    rs = haidi.ruleset(rules)
    good = WINNING[rules]
    bad = [{**good, "hand": "12x"}, {**good, "self_drawn": "no"}, {**good, "hand": "123m"}]
    sits = [good, bad[0], *[good] * 600, bad[1], 5, bad[2], good]
    out = rs.evaluate_many(sits, errors="collect")
    as_json = rs.evaluate_many(sits, errors="collect", output="json")
    for i, s in enumerate(sits):
        if s is good:
            assert out[i]["win"] and json.loads(as_json[i])["win"]
            continue
        with pytest.raises(haidi.HandError) as raised:
            rs.evaluate_many([good, s])
        assert raised.value.row == 1 and str(raised.value) == f"situation 1: {out[i]['error']}"
        assert json.loads(as_json[i]) == {"error": out[i]["error"]}
    rows = [s for s in sits if isinstance(s, dict)]
    keys = sorted({k for s in rows for k in s})
    cols = rs.evaluate_many({k: [s.get(k) for s in rows] for k in keys}, errors="collect")
    for i, s in enumerate(rows):
        if s is good:
            assert cols["win"][i] and cols["error"][i] is None
            continue
        with pytest.raises(haidi.HandError) as raised:
            rs.evaluate_many({k: [good.get(k), s.get(k)] for k in keys})
        assert raised.value.row == 1 and str(raised.value) == f"row 1: {cols['error'][i]}"


@pytest.mark.parametrize("threads", ["0", "1"])
def test_columns_longer_than_a_chunk_keep_their_rows(monkeypatch, threads: str) -> None:
    # Columns are read and scored a run of rows at a time (128), the next runs read
    # while some are scored: rows keep their places, and the first bad row is named.
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    rs = haidi.ruleset("changsha")
    sits = random_situations("changsha", 97)
    n = 5000
    rows = [sits[i % len(sits)] for i in range(n)]
    keys = sorted({k for s in sits for k in s})
    expected = [rs.evaluate(**s)["total"] for s in sits]
    cols = {k: [s.get(k) for s in rows] for k in keys}
    assert rs.evaluate_many(cols)["total"].tolist() == [expected[i % len(sits)] for i in range(n)]
    for bad in (2047, 2048, 4999):
        broken = {k: list(v) for k, v in cols.items()}
        broken["self_drawn"][bad] = "yes"
        with pytest.raises(haidi.HandError, match=f"row {bad}: self_drawn must be"):
            rs.evaluate_many(broken)
        out = rs.evaluate_many(broken, errors="collect")
        errors = [i for i, e in enumerate(out["error"]) if e is not None]
        assert errors == [bad] and out["total"][bad] == 0
        assert out["total"][bad - 1] == expected[(bad - 1) % len(sits)]


def test_contradictory_flags_are_refused() -> None:
    with pytest.raises(haidi.HandError, match="not self-drawn"):
        haidi.ruleset("changsha").evaluate(hand="123m456p789s2255m", win="5m", self_drawn=True, robbing_kong=True)
    with pytest.raises(haidi.HandError, match="杠上开花 is self-drawn"):
        haidi.ruleset("beijing").evaluate(hand="123m456p55m[1111z]", win="5m", kong_replacement=True, self_drawn=False)
    with pytest.raises(haidi.HandError, match="discarder_wind"):
        haidi.ruleset("beijing").evaluate(hand="123m456p789s2255m", win="5m", self_drawn=True, discarder_wind="S")
    with pytest.raises(haidi.HandError, match="another player"):
        haidi.ruleset("beijing").evaluate(hand="123m456p789s2255m", win="5m", seat_wind="S", discarder_wind="S")


def test_settle_refuses_what_it_does_not_know() -> None:
    cs = haidi.ruleset("changsha")
    # A misspelt key used to pay a discard win as self-drawn.
    with pytest.raises(haidi.HandError, match="unknown key.*discardr"):
        cs.settle({"wins": [{"seat": 1, "small": 1}], "discardr": 2})
    with pytest.raises(haidi.HandError, match="passed_win must be a list of seats"):
        cs.settle({"wins": [{"seat": 1, "small": 1}], "discarder": 2, "passed_win": 1})
    # An evaluate result as a win keeps its self_drawn.
    r = cs.evaluate(hand="123m456p789s2255m", win="5m", self_drawn=True)
    with pytest.raises(haidi.HandError, match="self-drawn, yet the outcome names a discarder"):
        cs.settle({"wins": [{**r, "seat": 1}], "discarder": 2})
    assert cs.settle({"wins": [{**r, "seat": 1}]}) == [-2, 6, -2, -2]
    for rules in ("hainan", "tangshan", "beijing", "longgang"):
        with pytest.raises(haidi.HandError, match="unknown key"):
            haidi.ruleset(rules).settle({"winner": 1, "colour": 2})


def test_counts_that_grow_are_bounded() -> None:
    hn = haidi.ruleset("hainan")
    with pytest.raises(haidi.HandError, match="dealer_streak must be an int from 0 to 100"):
        hn.settle({"winner": 0, "dealer_streak": 10**11})
    ts = haidi.ruleset("tangshan")
    with pytest.raises(haidi.HandError, match="melds"):
        ts.settle({"winner": 0, "total": 1, "melds": [5, 0, 0, 0]})


@pytest.mark.parametrize(
    ("rules", "outcome", "message"),
    [
        # False, 0 and "" read by their truth would pass for an empty list.
        ("changsha", {"wins": [{"seat": 1, "small": 1}], "birds": False}, "birds must be a list of tiles, not False"),
        ("changsha", {"wins": [{"seat": 1, "small": 1}], "birds": 0}, "birds must be a list of tiles, not 0"),
        ("changsha", {"wins": ({"seat": 1, "small": 1},), "birds": ""}, "birds must be a list of tiles"),
        ("hainan", {"winner": 1, "kongs": False}, "kongs must be a list"),
        ("hainan", {"winner": 1, "claims": 0}, "claims must be a list"),
        ("beijing", {"winner": 1, "total": 2, "mutual": 0}, "mutual must be a list of pairs of seats, not 0"),
        ("tangshan", {"winner": 1, "total": 2, "melds": np.array(0)}, "melds must be a list"),
        ("longgang", {"winner": 1, "total": 20, "tai": 0, "losers": "0000"}, "losers must be a list"),
        ("longgang", {"winner": 1, "total": 20, "wilds": "9p"}, "wilds is read with hands"),
        # options: a dict or absent, never read by its truth nor as pairs.
        ("beijing", {"winner": 1, "total": 2, "options": ""}, "options must be a dict, not str"),
        ("beijing", {"winner": 1, "total": 2, "options": [("variant", "draft4")]}, "options must be a dict"),
        ("beijing", {"winner": 1, "total": 2, "options": "x"}, "options must be a dict"),
        # A key only the other variant reads would be ignored.
        ("beijing", {"winner": 1, "total": 2, "floor": 1}, "floor is read under variant='draft4' only"),
        ("beijing", {"winner": 1, "total": 2, "exposed_kongs_from": [2]}, "exposed_kongs_from is read under"),
        ("beijing", {"winner": 1, "total": 2, "variant": "draft4", "burn_rounds": 1}, "burn_rounds is read under"),
        ("beijing", {"winner": 1, "total": 2, "variant": "draft4", "options": {"base": 5}}, "base is read under"),
        ("beijing", {"winner": 1, "variant": "draft4", "options": {"variant": "wanghu"}}, "variant is given both"),
        ("tangshan", {"winner": 1, "total": 2, "base": 2, "options": {"base": 3}}, "base is given both as a key"),
        ("hainan", {"winner": 1, "wall_last": "yes"}, "wall_last must be True or False"),
        ("hainan", {"winner": 1, "claims": [{"by": 1, "from": 1, "meld": "pung"}]}, "claims another's discard"),
    ],
)
def test_settle_reads_lists_and_options_strictly(rules: str, outcome: dict, message: str) -> None:
    with pytest.raises(haidi.HandError, match=message) as e:
        haidi.ruleset(rules).settle(outcome)
    # The key at fault, for a program to read (an option's name where it is one).
    assert e.value.key in outcome or e.value.key in outcome.get("options", {})


@pytest.mark.parametrize(
    ("rules", "outcome", "message", "key"),
    [
        # A win's total (and Longgang's 台) left out would be paid as nothing: refused.
        ("beijing", {"winner": 1, "discarder": 2}, "a win needs its total", "total"),
        ("tangshan", {"winner": 1}, "a win needs its total", "total"),
        ("longgang", {"winner": 1, "total": 300}, "a win needs its tai", "tai"),
        # No win scores less than these.
        ("beijing", {"winner": 1, "total": 0}, "total must be an int from 1 to 200", "total"),
        ("mcr", {"winner": 0, "total": 3}, "total must be an int from 8", "total"),
        ("longgang", {"winner": 1, "total": 10, "tai": 3}, "with 3 台 has at least 160 胡, not 10", "total"),
        # Records that cannot happen.
        ("longgang", {"winner": 1, "liable": 2, "total": 100, "tai": 1}, "liable seat", "liable"),
        ("longgang", {"winner": 1, "discarder": 3, "liable": 2, "total": 100, "tai": 1}, "liable seat", "liable"),
        ("hainan", {"winner": 1, "claims": [{"by": 1, "from": 0, "meld": "chow"}] * 5}, "fifth meld", "claims"),
        ("hainan", {"winner": 1, "kongs": [{"seat": 2, "kind": "exposed"}] * 5}, "fifth kong", "kongs"),
        (
            "beijing",
            {"winner": 1, "total": 1, "variant": "draft4", "concealed_kongs": 3, "exposed_kongs_from": [0, 2]},
            "at most four kongs",
            "exposed_kongs_from",
        ),
        (
            "changsha",
            {"wins": [{"seat": 1, "small": 1}], "discarder": 2, "haidi_taker": 2},
            "give wall_last=True",
            "haidi_taker",
        ),
        (
            "changsha",
            {"wins": [{"seat": 1, "small": 1}], "wall_last": True, "haidi_taker": 3},
            "海底捞月: the winner is the player who took",
            "haidi_taker",
        ),
        # Arrays where a word or a pair belongs.
        (
            "hainan",
            {"winner": 1, "kongs": [{"seat": 2, "kind": np.array(["exposed", "added"])}]},
            "kongs\\[0\\].kind must be exposed, added or concealed",
            "kongs[0].kind",
        ),
        (
            "hainan",
            {"winner": 1, "claims": [{"by": 1, "from": 0, "meld": np.array(["chow", "pung"])}]},
            "claims\\[0\\].meld must be chow, pung or kong",
            "claims[0].meld",
        ),
        ("beijing", {"winner": 1, "total": 1, "mutual": [np.array(2)]}, "mutual lists pairs of seats", "mutual"),
        # MCR names the key as the others do.
        ("mcr", {"total": 8}, "outcome needs a winner", "winner"),
        ("mcr", {"winner": 1, "discarder": 1, "total": 8}, "the winner cannot be the discarder", "discarder"),
        ("mcr", [1, 8], "settle takes an outcome record \\(a dict\\), not list", "outcome"),
        ("hainan", "winner", "settle takes an outcome record", "outcome"),
    ],
)
def test_settle_refuses_records_no_hand_makes(rules: str, outcome: object, message: str, key: str) -> None:
    with pytest.raises(haidi.HandError, match=message) as e:
        haidi.ruleset(rules).settle(outcome)
    assert e.value.key == key


def test_settle_takes_lists_as_lists_tuples_or_numpy() -> None:
    cs, ts = haidi.ruleset("changsha"), haidi.ruleset("tangshan")
    win = {"wins": [{"seat": 1, "small": 1}]}
    listed = cs.settle({**win, "birds": ["2m"]})
    assert listed != cs.settle(win)  # the bird hits
    assert cs.settle({**win, "birds": ("2m",)}) == cs.settle({**win, "birds": np.array(["2m"])}) == listed
    melds = ts.settle({"winner": 1, "total": 2, "melds": [0, 1, 0, 0]})
    assert ts.settle({"winner": 1, "total": 2, "melds": np.array([0, 1, 0, 0])}) == melds
    # None is a key left out.
    assert cs.settle({**win, "birds": None}) == cs.settle(win)


def test_a_longgang_hand_may_not_restate_what_the_outcome_gives() -> None:
    lg = haidi.ruleset("longgang")
    hands = [{"hand": "123456789m123p11s77z", "seat_wind": w} for w in "ESWN"]
    hands[1] = {"hand": "123m456p789s111z2255m", "win": "5m", "seat_wind": "S"}
    base = {"winner": 1, "discarder": 2, "hands": hands}
    paid = lg.settle(base)
    assert sum(paid) == 0 and paid[1] > 0
    with pytest.raises(haidi.HandError, match=r"hands\[0\] gives wilds, which the outcome gives"):
        lg.settle({**base, "wilds": "9p", "hands": [{**hands[0], "wilds": "8p"}, *hands[1:]]})
    with pytest.raises(haidi.HandError, match="give hands .scored here. or total, tai and losers, not both: tai"):
        lg.settle({**base, "tai": 2})
    with pytest.raises(haidi.HandError, match=r"hands\[2\].seat_wind is not seat 2's wind W"):
        lg.settle({**base, "hands": [*hands[:2], {**hands[2], "seat_wind": "E"}, hands[3]]})


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_none_is_an_option_left_out(rules: str) -> None:
    rs = haidi.ruleset(rules)
    plain = rs.evaluate(**WINNING[rules])
    for name in rs.options():
        assert rs.evaluate(**WINNING[rules], options={name: None}) == plain
    for name in getattr(rs.module, "OPTION_KEYS", ()):
        assert rs.evaluate(**WINNING[rules], **{name: None}) == plain
        assert rs.evaluate_many([{**WINNING[rules], name: None}]) == [plain]


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_options_may_be_any_mapping(rules: str) -> None:
    import types

    rs = haidi.ruleset(rules)
    name, default = next(iter(rs.options().items()))
    given = types.MappingProxyType({name: default})
    plain = rs.evaluate(**WINNING[rules])
    assert rs.evaluate(**WINNING[rules], options=given) == plain
    assert rs.evaluate_many([{**WINNING[rules], "options": given}]) == [plain]
    assert rs.evaluate_many([WINNING[rules]], options=given) == [plain]


class _NoRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_a_value_whose_repr_fails_is_named_by_its_type(rules: str) -> None:
    rs = haidi.ruleset(rules)
    name = next(iter(rs.options()))
    for given in ({"self_drawn": _NoRepr()}, {"options": {name: _NoRepr()}}):
        with pytest.raises(haidi.HandError, match="not a _NoRepr"):
            rs.evaluate(**{**WINNING[rules], **given})


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_evaluate_many_refuses_keywords_it_does_not_take(rules: str) -> None:
    rs = haidi.ruleset(rules)
    for kw in ("explain", "self_drawn", "json"):
        with pytest.raises(haidi.HandError, match=f"evaluate_many takes format, errors, options.*not {kw}"):
            rs.evaluate_many([WINNING[rules]], **{kw: True})


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_an_integer_is_an_int_or_a_numpy_integer(rules: str) -> None:
    rs = haidi.ruleset(rules)
    south = rs.evaluate(**WINNING[rules], seat_wind=1)
    assert rs.evaluate(**WINNING[rules], seat_wind=np.int64(1)) == south
    for bad in (np.array(1), 1.0, True):
        with pytest.raises(haidi.HandError, match="seat_wind must be a wind"):
            rs.evaluate(**WINNING[rules], seat_wind=bad)


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_an_option_is_not_a_column(rules: str) -> None:
    rs = haidi.ruleset(rules)
    cols = {k: [v] for k, v in WINNING[rules].items()}
    for k in ("options", *getattr(rs.module, "OPTION_KEYS", ())):
        with pytest.raises(haidi.HandError, match=f'"{k}" is not a column: every row takes the call\'s options'):
            rs.evaluate_many({**cols, k: [None]})


@pytest.mark.parametrize("rules", ("mcr", *REGIONAL))
def test_format_none_is_the_format_left_out(rules: str) -> None:
    rs = haidi.ruleset(rules)
    plain = rs.evaluate(**WINNING[rules])
    assert rs.evaluate(**WINNING[rules], format=None) == plain
    assert rs.evaluate_many([{**WINNING[rules], "format": None}]) == [plain]
    cols = {k: [v] for k, v in WINNING[rules].items()}
    assert rs.evaluate_many({**cols, "format": [None]})["total"].tolist() == [plain["total"]]


def test_columns_from_a_dataframe_and_numpy() -> None:
    pd = pytest.importorskip("pandas")
    rs = haidi.ruleset("longgang")
    sits = random_situations("longgang", 40, seed=9)
    keys = sorted({k for s in sits for k in s})
    df = pd.DataFrame([{k: s.get(k) for k in keys} for s in sits], dtype=object)
    a = rs.evaluate_many(df)
    b = [rs.evaluate(**s) for s in sits]
    assert a["total"].tolist() == [r["total"] for r in b]
    arrays = {k: np.asarray([s.get(k) for s in sits], dtype=object) for k in keys}
    assert rs.evaluate_many(arrays)["total"].tolist() == a["total"].tolist()
    # A flag column read from a CSV with empty cells is float with NaN: refused, by row.
    df2 = pd.DataFrame({"hand": [sits[0]["hand"]], "win": [sits[0].get("win")], "self_drawn": [float("nan")]})
    with pytest.raises(haidi.HandError, match="row 0: self_drawn must be True or False"):
        rs.evaluate_many(df2)


@pytest.mark.parametrize("rules", REGIONAL)
@pytest.mark.parametrize("threads", ["0", "1"])
def test_batches_score_as_single_calls(monkeypatch, rules: str, threads: str) -> None:
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    rs = haidi.ruleset(rules)
    sits = random_situations(rules, 300)
    single = [rs.evaluate(**s) for s in sits]
    assert rs.evaluate_many(sits) == single
    keys = sorted({k for s in sits for k in s})
    cols = rs.evaluate_many({k: [s.get(k) for s in sits] for k in keys})
    assert cols["total"].tolist() == [r["total"] for r in single]
    assert cols["win"].tolist() == [r["win"] for r in single]


# --- the defects of the earlier scorers, one of each kind -------------------------------


def test_tangshan_and_beijing_take_kongs() -> None:
    r = haidi.ruleset("tangshan").evaluate(hand="123m456p789s2z{1111z}", win="2z", self_drawn=True)
    assert r["win"] and r["groups"][-1]["meld"] == "concealed_kong"
    r = haidi.ruleset("beijing").evaluate(hand="123m456p789s2z[1111z]", win="2z", self_drawn=True)
    assert r["win"]


def test_catch_five_wan_needs_the_only_wait() -> None:
    bj = haidi.ruleset("beijing")
    # 4666m also waits on 4m: no 捉五魁.
    r = bj.evaluate(hand="4666m123p456p789s", win="5m", seat_wind="S")
    assert "catch_five_wan" not in {f["id"] for f in r["fans"]}
    r = bj.evaluate(hand="46m111p456p789s11z", win="5m", seat_wind="S")
    assert "catch_five_wan" in {f["id"] for f in r["fans"]}


def test_a_dragon_set_is_not_completed_by_a_discard() -> None:
    ts = haidi.ruleset("tangshan")
    r = ts.evaluate(hand="67z123m456p789s99s", win="5z")
    assert not r["win"] and "中发白" in r["reason"]
    assert ts.evaluate(hand="67z123m456p789s99s", win="5z", self_drawn=True)["win"]


def test_tangshan_search_is_not_cut_by_a_listing_limit() -> None:
    r = haidi.ruleset("tangshan").evaluate(hand="1112223334445m", win="5m", wilds="1m2m", self_drawn=True)
    assert r["total"] == 3


def test_a_search_stops_once_no_arrangement_can_score_more() -> None:
    # Four 惠牌 make about 180 arrangements of this hand. The best, 12 番 (一条龙 3, 四惠牌 8,
    # 庄 1), is the most a hand with a chow could score, and one without a chow scores
    # less (对对和 2 in place of 一条龙 3): bounded apart, the two show the search can stop.
    bj = haidi.ruleset("beijing")
    s = dict(wilds="3z", hand="23467789s33344z", win="3z", self_drawn=True)
    r = bj.evaluate(**s)
    assert r["total"] == 12 and sorted(f["id"] for f in r["fans"]) == ["dealer", "four_wilds", "straight"]
    assert bj.scheme.search_size(**s) < 60
    # Where the best has no chow, it is the other bound that is reached: 对对和 2, 四惠牌 8,
    # 庄 1 (the declared pung rules out seven pairs).
    r = bj.evaluate(wilds="3z", hand="[222s]444s777m9p3z3z3z", win="3z", self_drawn=True)
    assert r["total"] == 11 and sorted(f["id"] for f in r["fans"]) == ["all_pungs", "dealer", "four_wilds"]


@pytest.mark.parametrize(
    ("rules", "situation", "total", "most"),
    [
        # Seven kinds held besides the four 惠牌: too many for four pungs and a pair (no
        # 对对和), and no suit holds enough kinds for the wilds to make a straight.
        ("beijing", dict(hand="222777m6778p789s", win="2m", wilds="2m", discarder_wind="S"), 9, 8),
        # The declared 123s leaves a straight two chows short, and one meld is left.
        ("beijing", dict(hand="9m4p11z[678s][567s][123s]", win="1z", wilds="1z", robbing_kong=True), 2, 4),
        # 推倒和 counts only where no 加番 pattern does: never with 对对和.
        ("beijing", dict(hand="555m88p33z[555z][111z]", win="8p", wilds="8p", self_drawn=True), 3, 8),
        # 1-9m of 3455667m and four wilds leaves 5m 6m, no pair: no straight (was 297).
        ("beijing", dict(hand="3455667999m[555z]", win="9m", wilds="9m"), 9, 8),
        # Tangshan's 本混龙 of 3445567788s: 4 5 7 8 and a wild left; the best is seven pairs (509).
        ("tangshan", dict(hand="3445567788999s", win="9s", wilds="9s", self_drawn=True, xiaosa="ming"), 3, 16),
        # A 9 is never the middle of a chow (砍).
        ("tangshan", dict(hand="2278m667888p777z", win="9m", wilds="2m"), 0, 3),
        ("tangshan", dict(hand="333m3334677899p", win="9p", wilds="3m", self_drawn=True, open_ready=True), 1, 3),
        # Eight 混 of two kinds beside 456s and a kong of 1s: no copy of 1s is left for the
        # 123s of a 本混龙 in bamboo, and eight wilds are a chow short of one in characters
        # (was 20,079: every way of giving the free groups kinds, each place of the tile).
        # The best, 砍 and 捉5 on a wild 5, is found after a few arrangements of 砍 alone.
        ("tangshan", dict(hand="4444m456777s[1111s+]", win="7s", wilds="4m7s", self_drawn=True), 2, 40),
        # Eight wilds of two kinds (draft4) beside 456 and a declared chow of one suit. The
        # best, 一条龙 3 and 清一色 5, is the most: 混一色 would need an honour, which rules
        # 清一色 out (was about 8,100 placements: the bound added both).
        ("beijing", dict(hand="9999p456999s[123s]", win="9s", wilds="9p9s", variant="draft4", seat_wind="W"), 8, 200),
        (
            "beijing",
            dict(hand="444m9999p456s[789s]", win="4m", wilds="4m9p", variant="draft4", self_drawn=True),
            8,
            200,
        ),
    ],
)
def test_bounds_see_what_the_tiles_rule_out(rules: str, situation: dict, total: int, most: int) -> None:
    # Each of these met 14 to 20,079 arrangements and placements while its bound counted
    # a pattern the tiles rule out; with the bound as tight as the best, the search stops
    # soon after the first, and the result is the full search's.
    rs = haidi.ruleset(rules)
    r = rs.evaluate(**situation)
    assert r["total"] == total and r == rs.scheme.evaluate_unbounded(**situation)
    assert rs.scheme.search_size(**situation) <= most


@pytest.mark.parametrize(
    ("situation", "most"),
    [
        (dict(wilds="6s4m", hand="444m6669s[123s][678m]", win="6s", self_drawn=True), 300),
        (dict(wilds="5s9m", hand="999m55566s66z[123s]", win="5s", self_drawn=True), 300),
    ],
)
def test_free_groups_are_bounded_as_their_kinds_are_given(situation: dict, most: int) -> None:
    # Seven 混 of two kinds beside a declared 123s: one arrangement, two free melds. Only
    # 456s and 789s of wilds make the 本混龙 of the best (砍 1, 捉5 1, 本混龙 2); once a first free
    # meld of another kind is given, one free meld cannot make the straight, and the
    # kinds of the second are not tried (was about 2,500 placements, each scored).
    ts = haidi.ruleset("tangshan")
    r = ts.evaluate(**situation)
    assert r["total"] == 4 and sorted(f["id"] for f in r["fans"]) == ["catch_five", "closed_wait", "wild_suit_straight"]
    assert r == ts.scheme.evaluate_unbounded(**situation)
    assert ts.scheme.search_size(**situation) <= most


def test_an_arrangements_bound_reads_its_pungs_runs_and_chows() -> None:
    # Four wilds (three 7m, the seat flower) among 345m and 3344556678p, with every
    # optional pattern and 推土机 at four: about 1,100 arrangements, each bounded. Their
    # bounds count four and five concealed pungs, four identical chows and runs of pungs
    # only where the groups known and the free melds to come can make them (was 7,468
    # arrangements and placements, 2 ms).
    from haidi.rulesets.longgang import PATTERNS

    lg = haidi.ruleset("longgang")
    s = dict(hand="34577m3344556678p124f", win="7m", wilds="7m", seat_wind="N", self_drawn=True)
    s |= dict(bulldozer_wilds=4, optional=[p.id for p in PATTERNS.values() if p.optional])
    r = lg.evaluate(**s)
    assert r["total"] == 260 and r == lg.scheme.evaluate_unbounded(**s)
    assert lg.scheme.search_size(**s) < 2000


@pytest.mark.parametrize(
    "situation",
    [
        dict(hand="1166m9999s22233z", win="2z", self_drawn=True, seat_wind="N", wilds="2z9s"),
        dict(hand="3333m118p333388s", win="8p", seat_wind="E", wilds="3m3s"),
        dict(hand="6699m22p22266s11z", win="2s", seat_wind="E", wilds="2s6m"),
    ],
)
def test_seven_pairs_are_bounded_by_their_best(situation: dict) -> None:
    # Eight 混 of two kinds and three real pairs: four free pairs, about 700 ways to give
    # them kinds. 超豪华7对子 (3) is the most seven pairs can score: it replaces 豪华7对子,
    # and the winning tile of a hand of pairs is a single wait (no 砍, no 捉5). Once it is
    # found the search stops (was 1,229 to 2,338 placements, each scored).
    ts = haidi.ruleset("tangshan")
    r = ts.evaluate(**situation)
    assert r["total"] == 3 and [f["id"] for f in r["fans"]] == ["super_luxury_seven_pairs"]
    assert r == ts.scheme.evaluate_unbounded(**situation)
    assert ts.scheme.search_size(**situation) <= 10


@pytest.mark.parametrize(
    ("situation", "total"),
    [
        # Two 财神 left as the pair beside five declared melds: its kind changes no 台
        # (the melds rule out 小四喜) and no 胡 (a pair of wilds scores none; the wild
        # winning tile sits in it, a single wait: no 自摸 胡), so one kind is scored.
        (dict(hand="[678p][999p][888s][123m][3333p]4f", win="9s", wilds="9s", self_drawn=True, seat_wind="N"), 70),
        (dict(hand="2z[567p][333z][234s][345p][666p]", win="2z", wilds="2z", self_drawn=True, seat_wind="W"), 110),
        (dict(hand="3m[111z][888m][123s][4444p+][444m]", win="3m", wilds="3m", self_drawn=True), 150),
    ],
)
def test_an_arrangement_is_bounded_by_its_face_points(situation: dict, total: int) -> None:
    # Longgang ranks by 胡数 too: an arrangement's bound counts its groups' points and the
    # extra points its places allow (was: no bound, and each kind of the pair scored, 11
    # or 12 of them).
    lg = haidi.ruleset("longgang")
    r = lg.evaluate(**situation)
    assert r["total"] == total and r == lg.scheme.evaluate_unbounded(**situation)
    assert lg.scheme.search_size(**situation) <= 2


#: Long searches without wilds: bounded once 64 placements are scored.
LONG_SEARCHES = [
    ("changsha", dict(hand="6667777888899m", win="9m")),
    ("changsha", dict(hand="1112223334445m", win="5m", self_drawn=True)),
    ("hainan", dict(hand="1112223334445m", win="5m")),
    ("hainan", dict(hand="1112223334445m", win="5m", self_drawn=True)),
    ("tangshan", dict(hand="1112223334445m", win="5m", wilds="1m2m", self_drawn=True)),
]


@pytest.mark.parametrize("rules", ["tangshan", "beijing", "longgang", "changsha", "hainan"])
def test_bounds_change_no_result(rules: str) -> None:
    # The bounds leave out only arrangements that could at most tie the best, and ties
    # keep the first found (as do Longgang's 陪家 hands scored only where no group can be
    # added): each of 10,000 random situations, and the known long searches, gives the
    # result of the search that scores every arrangement.
    rs = haidi.ruleset(rules)
    rng = random.Random(f"bounds-{rules}")
    sits = [s for r, s in LONG_SEARCHES if r == rules]
    long = 0
    for _ in range(10_000):
        s = situations.situation(rng, rules)
        try:
            long += rs.scheme.search_size(**s) >= 4
        except haidi.HandError:
            continue
        sits.append(s)
    if rules in ("tangshan", "beijing", "longgang"):
        assert long > 400  # searches a bound acts on (asked once a second arrangement is met)
    if rules == "longgang":
        assert sum("win" not in s for s in sits) > 300  # 陪家 hands
    for s in sits:
        assert rs.evaluate(**s) == rs.scheme.evaluate_unbounded(**s), s


def wait_situations(rules: str, tiles: list[str], wild: str) -> list[dict]:
    """Every wait of every discard that leaves ``tiles`` ready, each as a situation."""
    out = []
    for e in haidi.ruleset(rules).analyze("".join(tiles), wilds=wild):
        left = list(tiles)
        left.remove(e["discard"])
        out += [dict(hand="".join(left), win=w["tile"], wilds=wild) for w in e["waits"]]
    return out


def ready_with_wilds(rng: random.Random, rules: str, wild: str) -> list[dict]:
    """The waits of a random hand of one or two suits holding two to four of ``wild``
    (see `wait_situations`)."""
    size = haidi.ruleset(rules).hand_size + 1
    suits = rng.sample("mps", rng.choice((1, 2)))
    wall = [f"{n}{s}" for s in suits for n in range(1, 10) for _ in range(4) if f"{n}{s}" != wild]
    tiles = [wild] * rng.randint(2, 4) + rng.sample(wall, size)
    return wait_situations(rules, tiles[:size], wild)


@pytest.mark.parametrize(
    ("rules", "hand", "wild", "most"),
    [
        # The slowest analyses found (docs/analysis.md): 298, 340 and 289 waits. Beijing's
        # one pattern on the wait is rare, and Longgang ranks by 胡数: theirs stay as
        # they were.
        ("tangshan", "2222p2334456789s", "2p", 3_400),
        ("beijing", "77m123455667789p", "7m", 1_654),
        ("longgang", "22m222234455667789p", "2m", 1_164),
    ],
)
def test_a_winning_tiles_places_bound_the_arrangements_below_them(rules: str, hand: str, wild: str, most: int) -> None:
    # A real winning tile's places are known once the groups holding its real tiles
    # are: where those places cannot make the wait the best still lacks (a 1 or a 9 is
    # never a 砍), the arrangements of the rest below them are left out, once a search
    # has listed eight. Tangshan's 8m among four 混 met 107 arrangements and placements
    # a wait, its hand 9,379 for its 298 waits (now 3,357); the result is the full
    # search's for every wait, and for 3,000 waits of random hands with two to four
    # wilds.
    rs = haidi.ruleset(rules)
    rng = random.Random(f"placed-{rules}")
    tiles = [f"{n}{s}" for run, s in re.findall(r"(\d+)([mpsz])", hand) for n in run]
    sits = wait_situations(rules, tiles, wild)
    assert sum(rs.scheme.search_size(**s) for s in sits) <= most
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    while len(sits) < 3_000:
        sits += ready_with_wilds(rng, rules, rng.choice(kinds))
    for s in sits:
        assert rs.evaluate(**s) == rs.scheme.evaluate_unbounded(**s), s


@pytest.mark.parametrize(
    ("rules", "hand", "wilds", "most"),
    [
        # The slowest analyses found before straights were listed first (docs/analysis.md):
        # seven 混 of two kinds, and five 惠牌. Every wait met 558 arrangements and
        # placements or more: the straight's (本混龙, 一条龙) came after every arrangement
        # of the lower kinds, and the bound of the others (a straight and a 砍 together,
        # which no arrangement holds) ended nothing.
        ("tangshan", "3567999m9999p345s", ["9m", "9p"], 2_100),
        ("tangshan", "12345999m9999p45s", ["9m", "9p"], 3_000),
        ("beijing", "22345678m56p2222z", ["2z", "2m"], 2_100),
    ],
)
def test_straights_are_listed_first_where_wilds_are_many(rules: str, hand: str, wilds: list, most: int) -> None:
    # Listed first, in the same order whether bounds cut the search or not: the result
    # is the full search's for every wait of these hands and of random hands of two
    # wild kinds with three to seven wilds.
    rs = haidi.ruleset(rules)
    tiles = [f"{n}{s}" for run, s in re.findall(r"(\d+)([mpsz])", hand) for n in run]
    sits = []
    for e in rs.analyze(hand, wilds=wilds):
        left = list(tiles)
        left.remove(e["discard"])
        sits += [dict(hand="".join(left), win=w["tile"], wilds=wilds) for w in e["waits"]]
    assert sum(rs.scheme.search_size(**s) for s in sits) <= most
    rng = random.Random(f"straights-{rules}")
    suited = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    while len(sits) < 2_000:
        kinds = rng.sample(suited + ["1z", "2z", "5z"], 2)
        wall = [k for k in suited for _ in range(4) if k not in kinds]
        held = [kinds[0]] * rng.randint(1, 4) + [kinds[1]] * rng.randint(2, 3)
        tiles = held + rng.sample(wall, 14 - len(held))
        e = rs.analyze("".join(tiles), wilds=kinds)[0]
        if e["shanten"] != 0:
            continue
        left = list(tiles)
        left.remove(e["discard"])
        sits += [dict(hand="".join(left), win=w["tile"], wilds=kinds) for w in e["waits"]]
    for s in sits:
        assert rs.evaluate(**s) == rs.scheme.evaluate_unbounded(**s), s


def test_a_losers_partial_hands_are_scored_where_no_group_can_be_added() -> None:
    # 3444m 11p 22288s 2222z (2z wild) and the 坐花: of the 269 partial hands and
    # placements, those a pung or pair can still be added to score no more, and are
    # left out; the best is the same.
    lg = haidi.ruleset("longgang")
    s = dict(wilds="2z", hand="3444m11p22288s2222z1f")
    r = lg.evaluate(**s)
    assert r["role"] == "loser" and r == lg.scheme.evaluate_unbounded(**s)
    assert lg.scheme.search_size(**s) < 60


def test_a_losers_wild_joins_two_tiles_of_a_natural_triplet() -> None:
    lg = haidi.ruleset("longgang")
    a = lg.evaluate(hand="[123p][456p][789p][123s]77z3m1f")["total"]
    b = lg.evaluate(hand="[123p][456p][789p][123s]777z1f")["total"]
    assert a == b == 40


def _random_situations(name: str, n: int, rng: random.Random) -> list[dict]:
    """Random situations of a ruleset, one in ten spoilt (an unknown key, a flag that is
    text, a hand too short); the regional rulesets' with ``explain`` now and then (MCR's
    is an option of its batch call, tried below)."""
    from mcr_peer import random_situation

    spoils = situations.SPOILT if name == "mcr" else [*situations.SPOILT, (0.03, "explain", True)]
    return [
        situations.spoil(rng, random_situation(rng) if name == "mcr" else situations.situation(rng, name), spoils)
        for _ in range(n)
    ]


@pytest.mark.parametrize("name", haidi.RULESETS)
def test_json_output_is_orjsons_text_of_each_result(name):
    """``output="json"`` writes each result's JSON itself; it is byte for byte what orjson
    writes of the result dict, errors included."""
    import orjson

    rs = haidi.ruleset(name)
    sits = _random_situations(name, 2000, random.Random(23))
    got = rs.evaluate_many(sits, errors="collect")
    want = [orjson.dumps(r.to_dict() if isinstance(r, haidi.Result) else r) for r in got]
    assert rs.evaluate_many(sits, errors="collect", output="json") == want
    assert sum(w.startswith(b'{"error":') for w in want) > 100
    # Each situation asks for its explanation (the fans not counted) as it likes.
    good = [s for s in sits[:300] if "error" not in rs.evaluate_many([s], errors="collect")[0]]
    explained = [dict(s, explain=bool(i % 2)) for i, s in enumerate(good)]
    results = rs.evaluate_many(explained)
    assert rs.evaluate_many(explained, output="json") == [orjson.dumps(r.to_dict()) for r in results]
    assert sum("excluded" in r for r in results) == len(good) // 2
    with pytest.raises(haidi.HandError, match="for a list"):
        rs.evaluate_many({"hand": ["123m"], "win": ["1m"]}, output="json")


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_a_column_is_a_sequence_of_rows(rules: str) -> None:
    """A column is read as its rows in order: a list, a tuple, a deque or a numpy array
    give the same results. A set or a dict holds no order of rows and an iterator is read
    once: each is refused by the column's name, never read in some order."""
    import collections

    from mcr_peer import random_situation

    rng = random.Random(31)
    rs = haidi.ruleset(rules)
    if rules == "mcr":
        sits = [random_situation(rng) for _ in range(40)]
    else:
        sits = situations.scored(rng, rules, 40, rs.evaluate, haidi.HandError)
    cols = {k: [s.get(k) for s in sits] for k in sorted({k for s in sits for k in s})}
    totals = rs.evaluate_many(cols)["total"].tolist()
    assert totals == [rs.evaluate(**s).total for s in sits]
    for kind in (tuple, collections.deque, np.asarray):
        assert rs.evaluate_many({**cols, "hand": kind(cols["hand"])})["total"].tolist() == totals
    for bad in (set(cols["hand"]), dict.fromkeys(cols["hand"]), iter(cols["hand"]), (h for h in cols["hand"])):
        refused = f'column "hand" must be a sequence of values .* not a {type(bad).__name__}'
        with pytest.raises(haidi.HandError, match=refused):
            rs.evaluate_many({**cols, "hand": bad})
    with pytest.raises(haidi.HandError, match='column "self_drawn" must be a sequence of values .* not a set'):
        rs.evaluate_many({**cols, "self_drawn": {True, False}})


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_a_bad_value_is_refused_in_the_same_words_on_every_path(rules: str) -> None:
    """A value refused by keyword is refused with the same message in a list (after its
    situation's number) and in columns (after its row's); a hand may be a ``Hand`` on
    each path."""
    rs = haidi.ruleset(rules)
    base = WINNING[rules]
    bad = [("hand", 5), ("hand", ["123m"]), ("win", 5), ("win", ["5p"]), ("format", "x"), ("format", 1)]
    bad += [("self_drawn", "yes"), ("self_drawn", 1), ("flowers", "13x"), ("flowers", "1m"), ("flowers", 9)]
    for key, value in bad:
        s = {**base, key: value}
        with pytest.raises(haidi.HandError) as by_keyword:
            rs.evaluate(**s)
        message = str(by_keyword.value)
        if message.startswith(f"unknown {rules} situation key"):
            continue  # a key the ruleset does not take (flowers)
        with pytest.raises(haidi.HandError) as in_list:
            rs.evaluate_many([s])
        assert str(in_list.value) == f"situation 0: {message}", (key, value)
        with pytest.raises(haidi.HandError) as in_columns:
            rs.evaluate_many({k: [v] for k, v in s.items()})
        assert str(in_columns.value) == f"row 0: {message}", (key, value)
    hand = haidi.Hand(base["hand"])
    expected = rs.evaluate(**base).to_dict()
    assert rs.evaluate(**{**base, "hand": hand}).to_dict() == expected
    assert rs.evaluate_many([{**base, "hand": hand}])[0].to_dict() == expected
    cols = rs.evaluate_many({k: [hand if k == "hand" else v] for k, v in base.items()})
    assert cols["total"].tolist() == [expected["total"]]


def test_options_are_read_alike_whatever_gives_them() -> None:
    """An option read only under another's value is refused up front (Beijing's base is
    the 网狐 settlement's), not at the end of a game; a misspelt option is refused
    whatever its value; None in options is an option left out, so the same option given
    as a situation key beside it is no clash; numpy's scalars are read as their values."""
    bj, mcr, lg = haidi.ruleset("beijing"), haidi.ruleset("mcr"), haidi.ruleset("longgang")
    both = {"variant": "draft4", "base": 5}
    for call in (
        bj.options,
        lambda o: haidi.Game("beijing", 5, o),
        lambda o: haidi.simulate("beijing", 2, 0, "greedy", o),
    ):
        with pytest.raises(haidi.HandError, match="option base is read under variant='wanghu' only"):
            call(both)
    assert bj.options({"variant": "draft4", "base": None})["variant"] == "draft4"
    kong = dict(hand="{1111m}[2222p]123s456s9s", win="9s")
    for call in (
        lambda s: mcr.evaluate(**s),
        lambda s: mcr.evaluate_many([s]),
        lambda s: mcr.analyze(s["hand"], options=s["options"]),
    ):
        with pytest.raises(haidi.HandError, match="unknown mcr option 'concealed_and_meld_kong'"):
            call({**kong, "options": {"concealed_and_meld_kong": None}})
    given = mcr.evaluate(**kong, concealed_and_melded_kong=True)
    assert mcr.evaluate(**kong, concealed_and_melded_kong=True, options={"concealed_and_melded_kong": None}) == given
    win = dict(hand="123m456p789s1122z", win="1z")
    assert bj.evaluate(**win, variant="draft4", options={"variant": None}) == bj.evaluate(**win, variant="draft4")
    with pytest.raises(haidi.HandError, match="given both as a key and in options"):
        bj.evaluate(**win, variant="draft4", options={"variant": "draft4"})
    opts = lg.options({"bulldozer_wilds": np.int64(4), "eight_pairs": np.False_})
    assert opts == lg.options({"bulldozer_wilds": 4, "eight_pairs": False})
    assert type(opts["bulldozer_wilds"]) is int and opts["eight_pairs"] is False


_QUOTED = [
    1.0, -0.0, 0.1, 1e-4, 2.5e-5, 1e-7, 123456.789, 1e15, 9.999e15, 1e16, 1e20, 1.5e300, float("inf"),
    "x\x7f", "'", '"', "a'b\"c", "\\", "\t\n", "\xa0", "\xad", "\x80", "\u200b", "\u2028", "\u3000",
    "\ufeff", "\ue000", "é", "中", "\U0001f600",
]  # fmt: skip


@pytest.mark.parametrize("rules", ["mcr", "hainan", "longgang"])
def test_a_refused_value_is_quoted_as_python_writes_it(rules: str) -> None:
    # A seat given as a float or odd text: the message quotes the value as repr does, on
    # every ruleset's reader (a float 1.0 is not shown as the valid 1).
    rs = haidi.ruleset(rules)
    s = {"hand": "123m456p789s1122z", "win": "1z"}
    if rules == "longgang":
        s = {"hand": "123m456m789m123p456p9s", "win": "9s"}
    rng = random.Random(3)
    values = _QUOTED + [rng.uniform(-1e6, 1e6) for _ in range(50)] + [10 ** rng.uniform(-20, 20) for _ in range(50)]
    for v in values:
        with pytest.raises(haidi.HandError) as e:
            rs.evaluate(**s, seat_wind=v)
        assert str(e.value).endswith("not " + repr(v)), (v, str(e.value))


def test_a_refused_value_in_a_json_line_is_quoted_as_json_writes_it(tmp_path: Path) -> None:
    import subprocess

    values = [1.0, 1e20, 1e-7, 0.1, "x\x7f", "'", "\u200b", "\t"]
    lines = [json.dumps({"hand": "123m456p789s1122z", "win": "1z", "seat": v}) for v in values]
    out = subprocess.run(
        [sys.executable, "-m", "haidi", "eval", "--rules", "hainan", "--jsonl"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, check=False,
    ).stdout.splitlines()  # fmt: skip
    assert len(out) == len(values)
    for v, line in zip(values, out, strict=True):
        assert json.loads(line)["error"].endswith("not " + json.dumps(v, ensure_ascii=False)), (v, line)


@pytest.mark.parametrize("rules", ["mcr", *REGIONAL])
def test_every_path_names_a_nan_a_none_hand_and_a_lone_surrogate_alike(rules: str) -> None:
    """One message on every path, with its key: a NaN (an empty cell, as pandas fills
    one), a hand given as None, and a str holding a lone surrogate."""
    rs = haidi.ruleset(rules)
    good = random_situations(rules, 1, seed=3)[0] if rules != "mcr" else {"hand": "123m456p789s1122z", "win": "2z"}
    cases = [
        ({**good, "self_drawn": float("nan")}, "self_drawn", "not NaN (an empty cell? give None for a key left out)"),
        ({**good, "self_drawn": np.float32("nan")}, "self_drawn", "not NaN (an empty cell?"),
        ({**good, "hand": None}, "hand", "hand must be a hand (text or a Hand), not None"),
        ({**good, "hand": good["hand"] + "\ud800"}, "hand", "not valid text"),
    ]
    for situation, key, message in cases:
        with pytest.raises(haidi.HandError) as single:
            rs.evaluate(**situation)
        assert message in str(single.value) and single.value.key == key, (situation, str(single.value))
        listed = rs.evaluate_many([situation], errors="collect")[0]
        assert message in listed["error"], listed
        columns = rs.evaluate_many({k: [v] for k, v in situation.items()}, errors="collect")["error"][0]
        assert message in columns, columns
