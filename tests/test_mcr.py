"""The MCR scorer: public fan cases, a differential run against PyMahjongGB, batches,
settlement, errors and the `haidi eval` command."""

from __future__ import annotations

import collections
import gc
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import haidi

ROOT = Path(__file__).resolve().parent.parent
CASES = json.loads((ROOT / "tests" / "data" / "mcr_cases.json").read_text(encoding="utf-8"))
sys.path.insert(0, str(ROOT / "scripts"))

RS = haidi.ruleset("mcr")


def ids(result: dict) -> list:
    return sorted((f["id"] if f["id"] is not None else 0) for f in result["fans"] for _ in range(f["count"]))


def expected_ids(fans: list) -> list:
    return sorted((f["id"] if f["id"] is not None else 0) for f in fans)


@pytest.mark.parametrize("case", CASES["fan_cases"], ids=[c["input"] for c in CASES["fan_cases"]])
def test_public_fan_case(case: dict) -> None:
    has_mingangang = any(f["id"] is None for f in case["expected"])
    # The 2006 list (default): 明杠 + 暗杠 where COMH has 明暗杠.
    r = RS.evaluate(**case["situation"])
    if has_mingangang:
        assert ids(r) == sorted(case["seed_expected_ids"])
        assert r["total"] == case["seed_total"]
    else:
        answers = [expected_ids(case["expected"])]
        if case.get("alt_expected"):
            answers.append(expected_ids(case["alt_expected"]))
        assert ids(r) in answers
        assert r["total"] in (case["total"], case.get("alt_total"))
    # With COMH's ruling, its own answer.
    r = RS.evaluate(**case["situation"], concealed_and_melded_kong=True)
    answers = [expected_ids(case["expected"])]
    if case.get("alt_expected"):
        answers.append(expected_ids(case["alt_expected"]))
    assert ids(r) in answers


@pytest.mark.parametrize("case", CASES["fan_cases"][:20], ids=[c["input"] for c in CASES["fan_cases"][:20]])
def test_comh_strings_score_like_the_situation(case: dict) -> None:
    a = RS.evaluate(hand=case["input"], format="comh")
    b = RS.evaluate(**case["situation"])
    assert a["total"] == b["total"] and a["fans"] == b["fans"]


@pytest.mark.parametrize("case", CASES["ting_cases"], ids=[c["input"] for c in CASES["ting_cases"]])
def test_public_ting_case(case: dict) -> None:
    assert sorted(RS.waits(case["hand"])) == sorted(case["waits"])


def test_result_shape_and_minimum() -> None:
    r = RS.evaluate(hand="[123m][345m]678p56s11z", win="7s", self_drawn=True, explain=True)
    assert r["win"] is False and r["total"] == 1 and "8" in r["reason"]
    assert r["fans"] == ({"id": 80, "name": "自摸", "name_en": "Self-Drawn", "value": 1, "points": 1, "count": 1},)
    assert [g["kind"] for g in r["groups"]] == ["chow", "chow", "pair", "chow", "chow"]
    assert r["form"] == "standard" and r["arrangement"] == "678p 567s 11z [123m] [345m]"
    # Flowers never lift a hand over the minimum.
    r = RS.evaluate(hand="[123m][345m]678p56s11z", win="7s", self_drawn=True, flowers=8)
    assert r["win"] is False and r["total"] == 9
    r = RS.evaluate(hand="123m456p789s1234z", win="5z")
    assert r["win"] is False and "not a complete hand" in r["reason"]


def test_explain_names_the_excluding_fan() -> None:
    r = RS.evaluate(hand="[111m]222333444m5m", win="5m", explain=True)
    by = {(e["id"], e["by"]) for e in r["excluded"]}
    assert (48, 15) in by  # 一色四节高 不计碰碰和


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(self_drawn=True, robbing_kong=True), "robbing_kong"),
        (dict(kong_replacement=True), "self_drawn"),
        (dict(self_drawn=True, kong_replacement=True), "kong"),
        (dict(flowers=9), "flowers"),
        (dict(seat_wind="X"), "wind"),
        (dict(last_of_kind=True, win="2z"), "last_of_kind"),
    ],
)
def test_contradictions_raise(kwargs: dict, message: str) -> None:
    sit = {"hand": "123m456p789s1122z", "win": "1z", **kwargs}
    with pytest.raises(haidi.HandError, match=message):
        RS.evaluate(**sit)


@pytest.mark.parametrize("hand", ["", "123m", "1111m" * 4, "12x", "[1234m]", "123m456p789s1122z" + "1z"])
def test_bad_hands_raise_hand_error(hand: str) -> None:
    with pytest.raises(haidi.HandError):
        RS.evaluate(hand=hand, win="1z")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hand=123), r"hand must be a hand \(text or a Hand\), not 123"),
        (dict(win=5), "win must be a tile"),
        (dict(self_drawn="yes"), "self_drawn must be True or False, not 'yes'"),
        (dict(self_drawn=1), "self_drawn must be True or False, not 1"),
        (dict(seat_wind=4), "seat_wind must be a wind"),
        (dict(seat_wind=True), "seat_wind must be a wind"),
        (dict(flowers=-1), "flowers"),
        (dict(flowers=True), "flowers"),
        (dict(colour="red"), 'unknown mcr situation key "colour"'),
        (dict(options={"colour": 1}), "unknown mcr option 'colour'"),
        (dict(options={"concealed_and_melded_kong": "yes"}), "concealed_and_melded_kong must be True or False"),
        (dict(format="xml"), "format"),
    ],
)
def test_bad_keys_and_values_name_what_is_wrong(kwargs: dict, message: str) -> None:
    sit = {"hand": "123m456p789s1122z", "win": "1z", **kwargs}
    with pytest.raises(haidi.HandError, match=message):
        RS.evaluate(**sit)
    # The same situation as a dict in a batch names its index too.
    with pytest.raises(haidi.HandError, match=f"situation 1: .*{message}"):
        RS.evaluate_many([{"hand": "123m456p789s1122z", "win": "1z"}, sit])


def test_an_unknown_key_is_told_every_key_evaluate_takes() -> None:
    """The known keys the message lists are the keyword parameters of ``evaluate``."""
    import inspect

    with pytest.raises(haidi.HandError) as e:
        RS.evaluate(hand="123m456p789s1122z", win="1z", colour="red")
    listed = set(str(e.value).split("known: ")[1].split(", "))
    params = inspect.signature(haidi._core.mcr_evaluate).parameters.values()
    assert listed == {p.name for p in params if p.kind is p.KEYWORD_ONLY}


def test_results_are_left_to_the_collector() -> None:
    """Results and their entries hold nothing through which a cycle could come back to
    them, so the garbage collector does not track them; nothing can be put in them."""
    import gc

    r = RS.evaluate(hand="123m456p789s1122z", win="1z")
    assert not gc.is_tracked(r) and not any(gc.is_tracked(f) for f in r.fans)
    with pytest.raises(TypeError):
        r["mine"] = [r]  # type: ignore[index]
    assert all(not gc.is_tracked(x) for x in RS.evaluate_many([dict(hand="123m456p789s1122z", win="1z")] * 3))


def test_keys_given_as_built_strings_are_read() -> None:
    """Keys that Python did not intern (built at run time) are read like literal ones."""
    key = "".join(["self", "_", "drawn"])
    a = RS.evaluate(**{"hand": "123m456p789s1122z", "win": "1z", key: True})
    assert a == RS.evaluate(hand="123m456p789s1122z", win="1z", self_drawn=True)
    assert a["total"] == RS.evaluate_many([{"hand": "123m456p789s1122z", "win": "1z", key: True}])[0]["total"]


def test_fifth_copy_is_an_error() -> None:
    with pytest.raises(haidi.HandError, match="fifth"):
        RS.evaluate(hand="1111m456p789s122z", win="1m")


def _situations(n: int, seed: int) -> list:
    from mcr_peer import random_situation

    rng = random.Random(seed)
    return [random_situation(rng) for _ in range(n)]


def test_evaluate_many_list_and_columns_agree() -> None:
    sits = _situations(600, 11)
    one = [RS.evaluate(**s) for s in sits[:50]]
    many = RS.evaluate_many(sits)
    assert many[:50] == one
    cols = {k: [s[k] for s in sits] for k in sits[0]}
    out = RS.evaluate_many(cols)
    assert out["fans"].shape == (600, 82)
    assert out["total"].tolist() == [r["total"] for r in many]
    assert out["win"].tolist() == [r["win"] for r in many]
    for row, r in zip(out["fans"], many, strict=False):
        assert {i: int(c) for i, c in enumerate(row) if c} == {f["id"]: f["count"] for f in r["fans"]}
    arrays = {k: np.asarray(v) for k, v in cols.items()}
    assert RS.evaluate_many(arrays)["total"].tolist() == out["total"].tolist()
    # Strided views and winds as numbers 0-3 are read too.
    strided = {k: np.repeat(np.asarray(v), 2)[::2] for k, v in cols.items()}
    strided["seat_wind"] = np.asarray(["ESWN".index(w) for w in cols["seat_wind"]], dtype=np.int64)
    assert RS.evaluate_many(strided)["total"].tolist() == out["total"].tolist()


@pytest.mark.parametrize("threads", ["0", "1"])
def test_columns_read_values_of_any_kind(monkeypatch, threads: str) -> None:
    """Values Python keeps one object of (True, small ints, one-letter strings) are read by
    identity; any other value that means the same is read to the same result."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    sits = _situations(1500, 13)
    cols = {k: [s[k] for s in sits] for k in sits[0]}
    expected = RS.evaluate_many(cols)["total"].tolist()
    assert expected == [r["total"] for r in RS.evaluate_many(sits)]
    other = {
        "hand": tuple("".join(list(h)) for h in cols["hand"]),  # equal strings, not the same objects
        "win": cols["win"],
        "self_drawn": [np.bool_(x) for x in cols["self_drawn"]],
        "seat_wind": [w.lower() for w in cols["seat_wind"]],
        "round_wind": [np.int64("ESWN".index(w)) for w in cols["round_wind"]],
        "flowers": [np.uint8(f) for f in cols["flowers"]],
        "last_of_kind": [bool(x) for x in cols["last_of_kind"]],
        "wall_last": np.asarray(cols["wall_last"], dtype=np.bool_),
        "kong_replacement": collections.deque(cols["kong_replacement"]),
        "robbing_kong": np.asarray(cols["robbing_kong"], dtype=object),
    }
    assert RS.evaluate_many(other)["total"].tolist() == expected
    # A column without an order of rows, or read once, is refused by name.
    for bad in (set(cols["hand"]), dict.fromkeys(cols["hand"]), iter(cols["hand"]), (h for h in cols["hand"])):
        refused = f'column "hand" must be a sequence of values .* not a {type(bad).__name__}'
        with pytest.raises(haidi.HandError, match=refused):
            RS.evaluate_many({**cols, "hand": bad})
    # Flags are True or False on every path: numbers, strings and NaN are refused, by row.
    for bad in (
        [int(x) for x in cols["wall_last"]],
        np.asarray(cols["wall_last"], dtype=np.int8),
        ["False"] * len(sits),
    ):
        with pytest.raises(haidi.HandError, match="row 0: wall_last must be"):
            RS.evaluate_many({**cols, "wall_last": bad})
    with pytest.raises(haidi.HandError, match="wall_last must be"):
        RS.evaluate_many({**cols, "wall_last": [float("nan")] * len(sits)})
    # Fixed-width text arrays are read in place, in either byte order, strided or not.
    width = max(map(len, cols["hand"]))
    for order in ("<", ">"):
        texts = {k: np.asarray(cols[k], dtype=f"{order}U{width}") for k in ("hand", "win")}
        assert RS.evaluate_many({**cols, **texts})["total"].tolist() == expected
        strided = {k: np.repeat(v, 3)[::3] for k, v in texts.items()}
        assert RS.evaluate_many({**cols, **strided})["total"].tolist() == expected
    bad = np.asarray(cols["hand"], dtype=f"U{width}")
    bad[7] = "123m456p789s1122\u4e00"
    with pytest.raises(haidi.HandError, match="row 7:"):
        RS.evaluate_many({**cols, "hand": bad})


@pytest.mark.parametrize("threads", ["0", "1"])
def test_columns_of_comh_strings_need_no_win(monkeypatch, threads: str) -> None:
    """A COMH string names its winning tile (the last) and its situation; the win
    column may hold None for it, as a text array or a list."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    hand = "[EEE,2][SSSS,1]WWWNN55pN|EE1000"
    expected = RS.evaluate(hand=hand, format="comh")["total"]
    for hands in ([hand] * 600, np.asarray([hand] * 600)):
        out = RS.evaluate_many({"hand": hands, "win": [None] * 600}, format="comh")
        assert out["total"].tolist() == [expected] * 600
    with pytest.raises(haidi.HandError, match="row 0: the winning tile"):
        RS.evaluate_many({"hand": ["123m456p789s1122z"] * 3, "win": [None] * 3})


@pytest.mark.parametrize("threads", ["0", "1"])
def test_long_columns_score_as_short_ones(monkeypatch, threads: str) -> None:
    """More rows than may wait to be scored at once (64 runs of 128): the reader waits for
    the scorers, and every row still lands in its place."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    sits = _situations(400, 14) * 30
    cols = {k: [s[k] for s in sits] for k in sits[0]}
    out = RS.evaluate_many(cols)
    short = RS.evaluate_many({k: v[:400] for k, v in cols.items()})
    assert out["total"].tolist() == short["total"].tolist() * 30
    assert (out["fans"] == np.tile(short["fans"], (30, 1))).all()


@pytest.mark.parametrize("threads", ["0", "1"])
def test_columns_name_the_bad_row(monkeypatch, threads: str) -> None:
    """A value that cannot be read is named before a hand that cannot be scored; else
    the first bad row is."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    n = 3000
    cols = {"hand": ["123m456p789s1122z"] * n, "win": ["1z"] * n, "seat_wind": ["E"] * n, "flowers": [0] * n}
    cols["hand"][2500] = "12x"
    cols["hand"][700] = "123m"
    with pytest.raises(haidi.HandError, match="row 700:"):
        RS.evaluate_many(cols)
    cols["seat_wind"][2900] = "X"
    with pytest.raises(haidi.HandError, match=r"row 2900: seat_wind must be a wind E, S, W or N \(or 0-3\), not .X."):
        RS.evaluate_many(cols)
    cols["seat_wind"][2900] = 4
    with pytest.raises(haidi.HandError, match="row 2900: seat_wind"):
        RS.evaluate_many(cols)
    cols["seat_wind"][2900] = "W"
    cols["flowers"][10] = 9
    with pytest.raises(haidi.HandError, match="row 10: flowers must be a number 0 to 8"):
        RS.evaluate_many(cols)
    cols["flowers"][10] = 0
    cols["hand"][5] = 12
    with pytest.raises(haidi.HandError, match=r"row 5: hand must be a hand \(text or a Hand\)"):
        RS.evaluate_many(cols)
    cols["hand"][5] = "123m456p789s1122z"
    cols["win"] = cols["win"][:-1]
    with pytest.raises(haidi.HandError, match="same length"):
        RS.evaluate_many(cols)


def test_none_in_a_column_is_a_key_left_out() -> None:
    """As in a situation dict (and as the regional rulesets read it)."""
    sits = _situations(200, 15)
    keys = ("seat_wind", "round_wind", "flowers", "wall_last", "last_of_kind")
    rng = random.Random(2)
    for s in sits:
        for k in rng.sample(keys, 2):
            s[k] = None
    cols = {k: [s[k] for s in sits] for k in sits[0]}
    expected = [RS.evaluate(**{k: v for k, v in s.items() if v is not None})["total"] for s in sits]
    assert RS.evaluate_many(cols)["total"].tolist() == expected


def test_columns_collect_the_bad_rows() -> None:
    sits = _situations(300, 16)
    cols = {k: [s[k] for s in sits] for k in sits[0]}
    good = RS.evaluate_many(cols)
    assert RS.evaluate_many(cols, errors="collect")["error"].tolist() == [None] * 300
    cols["hand"][4] = "12x"
    cols["self_drawn"][250] = "yes"
    out = RS.evaluate_many(cols, errors="collect")
    errors = out["error"].tolist()
    assert "'x'" in errors[4] and "self_drawn" in errors[250]
    assert [i for i, e in enumerate(errors) if e] == [4, 250]
    rest = np.ones(300, bool)
    rest[[4, 250]] = False
    for k in good:
        assert np.array_equal(out[k][rest], good[k][rest]), k
    assert not out["win"][4] and out["total"][4] == 0 and not out["fans"][4].any()


def test_collected_columns_are_read_as_raised_ones() -> None:
    """errors="collect" reads each value as the call that raises does: flowers as tiles
    are taken by both, a column that is a str refused by both."""
    n = 40
    cols = {"hand": ["123m456p789s1122z"] * n, "win": ["1z"] * n, "flowers": ["13f"] * n}
    raised = RS.evaluate_many(cols)
    assert raised["total"].tolist() == [RS.evaluate(hand="123m456p789s1122z", win="1z", flowers=2)["total"]] * n
    cols["hand"] = [*cols["hand"][:-3], "x", "123m", "123m456p789s1122z"]
    collected = RS.evaluate_many(cols, errors="collect")
    assert [i for i, e in enumerate(collected["error"]) if e] == [n - 3, n - 2]
    assert collected["total"][: n - 3].tolist() == raised["total"][: n - 3].tolist()
    assert collected["total"][-1] == raised["total"][-1]
    for errors in ("raise", "collect"):
        with pytest.raises(haidi.HandError, match="not a str"):
            RS.evaluate_many({"hand": "abc", "win": "xyz"}, errors=errors)


def test_collected_columns_with_many_bad_rows() -> None:
    """Rows refused for their values and for their hands, in runs and alone, each keep
    their error and the rows between them their results."""
    sits = _situations(500, 17)
    cols = {k: [s[k] for s in sits] for k in sits[0]}
    good = RS.evaluate_many(cols)
    rng = random.Random(4)
    bad_hand = set(rng.sample(range(500), 40)) | set(range(100, 130))
    bad_value = set(rng.sample(range(500), 20)) | {499}
    for i in bad_hand:
        cols["hand"][i] = "12x"
    for i in bad_value:
        cols["seat_wind"][i] = "X"
    out = RS.evaluate_many(cols, errors="collect")
    assert {i for i, e in enumerate(out["error"]) if e} == bad_hand | bad_value
    keep = np.array([i not in bad_hand | bad_value for i in range(500)])
    assert np.array_equal(out["total"][keep], good["total"][keep])
    assert np.array_equal(out["fans"][keep], good["fans"][keep])


KONG = dict(hand="{1111m}[2222p]123s456s9s", win="9s")


def test_the_kong_option_given_twice_is_refused() -> None:
    """concealed_and_melded_kong as a key and in options (of the situation or of the call)
    would have one of the two dropped, by a different rule on each path."""
    both = dict(**KONG, concealed_and_melded_kong=False, options={"concealed_and_melded_kong": True})
    with pytest.raises(haidi.HandError, match="given both as a key and in options"):
        RS.evaluate(**both)
    with pytest.raises(haidi.HandError, match="situation 0: concealed_and_melded_kong is given both"):
        RS.evaluate_many([both])
    key = dict(**KONG, concealed_and_melded_kong=False)
    for call in ({"options": {"concealed_and_melded_kong": True}}, {"concealed_and_melded_kong": True}):
        with pytest.raises(haidi.HandError, match="given both as a key and in the call's options"):
            RS.evaluate_many([key], **call)
    with pytest.raises(haidi.HandError, match="given both as a keyword and in options"):
        RS.evaluate_many([KONG], concealed_and_melded_kong=False, options={"concealed_and_melded_kong": True})
    # One way at a time: 明暗杠 (5) rather than 明杠 + 暗杠 (3).
    plain = RS.evaluate(**KONG)["total"]
    assert RS.evaluate(**KONG, concealed_and_melded_kong=True)["total"] == plain + 2
    assert RS.evaluate_many([KONG], concealed_and_melded_kong=True)[0]["total"] == plain + 2
    # A situation's own options replace the call's, as in every ruleset.
    own = {**KONG, "options": {"concealed_and_melded_kong": False}}
    assert RS.evaluate_many([own], concealed_and_melded_kong=True)[0]["total"] == plain


@pytest.mark.parametrize("threads", ["0", "1"])
def test_a_situation_in_a_list_may_ask_for_explain(monkeypatch, threads: str) -> None:
    """As in the regional rulesets: explain is a situation's key, in a list too (on every
    core, and as JSON), not a keyword of the call."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    nine = dict(hand="1112345678999m", win="5m")
    alone = RS.evaluate(**nine, explain=True)
    assert alone["excluded"]
    sits = [{**nine, "explain": i % 3 == 0} for i in range(1500)]
    got = RS.evaluate_many(sits)
    assert all(r == alone if i % 3 == 0 else "excluded" not in r for i, r in enumerate(got))
    assert json.loads(RS.evaluate_many(sits[:1], output="json")[0]) == json.loads(json.dumps(alone.to_dict()))


def test_columns_take_a_format_and_an_explain_column() -> None:
    comh = "[EEE,2][SSSS,1]WWWNN55pN|EE1000"
    cols = {"hand": ["1112345678999m", comh], "win": ["5m", None], "format": [None, "comh"], "explain": [True, None]}
    expected = [RS.evaluate(hand="1112345678999m", win="5m")["total"], RS.evaluate(hand=comh, format="comh")["total"]]
    assert RS.evaluate_many(cols)["total"].tolist() == expected
    with pytest.raises(haidi.HandError, match="row 0: format must be 'compact' or 'comh'"):
        RS.evaluate_many({**cols, "format": ["x", None]})
    with pytest.raises(haidi.HandError, match="row 0: explain must be True or False, not .yes."):
        RS.evaluate_many({**cols, "explain": ["yes", None]})


def test_fan_ids_are_the_columns_of_the_fans() -> None:
    sits = _situations(300, 14)
    sits[0] = {**sits[0], "hand": "[1111m]{2222p}345s678s9s", "win": "9s", "seat_wind": "E", "round_wind": "E"}
    ids = RS.fan_ids
    assert len(ids) == 82 and ids[0] is None and ids[1:] == tuple(range(1, 82))
    for options in ({}, {"concealed_and_melded_kong": True}):
        out = RS.evaluate_many({k: [s[k] for s in sits] for k in sits[0]}, options=options)
        assert out["fans"].shape == (300, len(ids))
        for row, s in zip(out["fans"], sits, strict=True):
            r = RS.evaluate(**s, **options)
            assert {ids[j]: int(n) for j, n in enumerate(row) if n} == {f["id"]: f["count"] for f in r["fans"]}
    assert out["fans"][0, 0] == 1  # 明暗杠, id None in results


def test_evaluate_many_takes_a_dataframe() -> None:
    pd = pytest.importorskip("pandas")
    sits = _situations(50, 12)
    df = pd.DataFrame(sits)
    out = RS.evaluate_many(df)
    assert out["total"].tolist() == [RS.evaluate(**s)["total"] for s in sits]


@pytest.mark.parametrize("threads", ["0", "1"])
@pytest.mark.parametrize("n", [10, 3000])
def test_evaluate_many_reports_the_first_bad_situation(monkeypatch, threads: str, n: int) -> None:
    """Whether a situation cannot be read or cannot be scored, the first bad one is named,
    with threads or without, in a short list or a long one."""
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    good = {"hand": "123m456p789s1122z", "win": "1z"}
    sits = [dict(good) for _ in range(n)]
    sits[n - 5] = {"hand": "12x", "win": "1m"}  # cannot be scored
    sits[n - 2] = "not a dict"  # cannot be read
    with pytest.raises(haidi.HandError, match=f"situation {n - 5}:"):
        RS.evaluate_many(sits)
    sits[n - 5] = dict(good)
    with pytest.raises(haidi.HandError, match=f"situation {n - 2}: must be a dict"):
        RS.evaluate_many(sits)
    assert len(RS.evaluate_many(sits[: n - 2])) == n - 2


@pytest.mark.parametrize("threads", ["0", "1"])
def test_evaluate_many_leaves_the_collector_as_it_found_it(monkeypatch, threads: str) -> None:
    # The collector is paused while a chunk's results are built, and after a bad
    # situation too.
    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    good = {"hand": "123m456p789s1122z", "win": "1z"}
    bad = [good] * 3000 + [{"hand": "12x", "win": "1m"}]
    assert gc.isenabled()
    assert len(RS.evaluate_many([good] * 3000)) == 3000
    assert gc.isenabled()
    with pytest.raises(haidi.HandError, match="situation 3000"):
        RS.evaluate_many(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        RS.evaluate_many([good] * 3000)
        with pytest.raises(haidi.HandError):
            RS.evaluate_many(bad)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_evaluate_many_reports_the_bad_item() -> None:
    with pytest.raises(haidi.HandError, match="situation 1"):
        RS.evaluate_many([{"hand": "123m456p789s1122z", "win": "1z"}, {"hand": "12x", "win": "1m"}])
    with pytest.raises(haidi.HandError, match="row 1"):
        RS.evaluate_many({"hand": ["123m456p789s1122z", "123m"], "win": ["1z", "1m"]})


def test_differential_against_pymahjonggb() -> None:
    """A few thousand random situations score exactly as PyMahjongGB scores them, with
    its 明暗杠 ruling switched on (the full run is scripts/differential_mcr.py)."""
    pytest.importorskip("MahjongGB")
    from differential_mcr import haidi_counts, peer_counts

    sits = _situations(3000, 2025)
    ours = RS.evaluate_many(sits, concealed_and_melded_kong=True)
    for sit, r in zip(sits, ours, strict=False):
        theirs, total = peer_counts(sit)
        assert (haidi_counts(r), r["total"]) == (theirs, total), sit


@given(
    winner=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    total=st.integers(8, 400),
)
def test_settlement_sums_to_zero(winner: int, discarder, total: int) -> None:
    if discarder == winner:
        with pytest.raises(haidi.HandError):
            RS.settle({"winner": winner, "discarder": discarder, "total": total})
        return
    pay = RS.settle({"winner": winner, "discarder": discarder, "total": total})
    assert sum(pay) == 0 and len(pay) == 4
    if discarder is None:
        assert pay[winner] == 3 * (8 + total)
        assert all(pay[s] == -(8 + total) for s in range(4) if s != winner)
    else:
        assert pay[discarder] == -(8 + total)
        assert pay[winner] == 8 + total + 16


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        # A misspelt discarder would otherwise pay a discard win as self-drawn.
        ({"winner": 1, "discardr": 2, "total": 8}, "unknown key(s) in outcome: discardr"),
        ({"winner": 1, "total": 8, "self_drawn": False}, "unknown key(s) in outcome: self_drawn"),
        ({"winner": 1, "total": 8, "options": "junk"}, "options must be a dict"),
        ({"winner": 1, "total": 8, "options": {"nope": 1}}, "unknown mcr option 'nope'"),
        ({"winner": 1, "total": 10**30}, "total must be an int from 8 to 100000"),
        ({"winner": 1, "total": "8"}, "total must be an int"),
        ({"total": 8}, "outcome needs a winner"),
    ],
)
def test_settle_refuses_what_it_does_not_read(outcome: dict, message: str) -> None:
    with pytest.raises(haidi.HandError) as e:
        RS.settle(outcome)
    assert message in str(e.value)


def test_settle_reads_seats_as_the_other_rulesets_do() -> None:
    # A wind letter is a seat, and options that change nothing are taken.
    assert RS.settle({"winner": "S", "total": 8}) == RS.settle({"winner": 1, "total": 8}) == [-16, 48, -16, -16]
    assert RS.settle({"winner": 1, "total": 8, "options": {"concealed_and_melded_kong": True}}) == [-16, 48, -16, -16]


def test_cli_eval_table_and_json(haidi_cli) -> None:
    code, out, _ = haidi_cli("eval", "[111z][2222z]55p33344z", "--win", "4z", "--self-drawn")
    assert code == 0 and "大四喜" in out and "98 points" in out
    code, out, _ = haidi_cli("eval", "[111z][2222z]55p33344z", "--win", "4z", "--json")
    assert json.loads(out)["fans"][0]["id"] == 1
    code, _, err = haidi_cli("eval", "12x", "--win", "1m")
    assert code == 2 and err.startswith("haidi: error:")


def test_cli_jsonl_keeps_going(haidi_cli) -> None:
    lines = "\n".join(
        [
            json.dumps({"hand": "[111z][2222z]55p33344z", "win": "4z", "self_drawn": True}),
            "not json",
            json.dumps({"hand": "123m", "win": "1m"}),
            json.dumps({"hand": "123m456p789s1122z", "win": "1z"}),
        ]
    )
    code, out, _ = haidi_cli("eval", "--rules", "mcr", "--jsonl", stdin=lines)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 4  # 2: some lines were answered with an error
    assert rows[0]["total"] == 98 and "error" in rows[1] and "error" in rows[2] and "total" in rows[3]


def test_nine_gates_is_explained_and_arranged() -> None:
    # The fixed reading still shows what 九莲宝灯 leaves out, and how the hand reads.
    r = RS.evaluate(hand="1112345678999m", win="5m", explain=True)
    assert r["total"] == RS.evaluate(hand="1112345678999m", win="5m")["total"]
    assert {(e["id"], e["by"]) for e in r["excluded"]} >= {(22, 4), (62, 4)}
    assert r["arrangement"] == "111m 234m 55m 678m 999m"
    assert len(r["groups"]) == 5
    drawn = RS.evaluate(hand="1112345678999m", win="5m", self_drawn=True, explain=True)
    assert (56, 4) in {(e["id"], e["by"]) for e in drawn["excluded"]} and 80 in {f["id"] for f in drawn["fans"]}


def test_nine_gates_lists_the_frame_pung_it_voids() -> None:
    # 111m and 999m are both pungs, yet one 幺九刻 counts: the other is part of the 九莲宝灯
    # frame ("九莲宝灯&由一种花色序数牌子按[1112345678]9组成的特定牌型"; 不重复), so it is listed
    # as not counted, with the fan and the rule that void it.
    r = RS.evaluate(hand="1112345678999m", win="5m", explain=True)
    assert [f["count"] for f in r["fans"] if f["id"] == 73] == [1]
    voided = [e for e in r["excluded"] if e["id"] == 73]
    assert [(e["count"], e["by"], e["by_name"]) for e in voided] == [(1, 4, "九莲宝灯")]
    assert voided[0]["rule"] == "不重复 (implied by the fan)"


def test_special_forms_have_their_tiles_as_a_group() -> None:
    r = RS.evaluate(hand="19m19p19s1234567z", win="1m")
    assert r["form"] == "thirteen_orphans" and r["arrangement"] == "119m19p19s1234567z"
    assert [g["kind"] for g in r["groups"]] == ["orphans"] and len(r["groups"][0]["tiles"]) == 14
    r = RS.evaluate(hand="147m258p369s1234z", win="5z")
    assert r["groups"][0]["kind"] == "knitted"


def test_each_situation_keeps_its_format_in_long_lists(monkeypatch) -> None:
    # 8 points in COMH notation ([1111m] is a concealed kong there), 5 in compact.
    comh = {"hand": "[1111m]123p456p789s5p", "win": "5p", "format": "comh"}
    alone = RS.evaluate(**comh)["total"]
    for threads in ("0", "1"):
        monkeypatch.setenv("HAIDI_PARALLELISM", threads)
        for n in (511, 512, 3000):
            many = RS.evaluate_many([comh] * n)
            assert {r["total"] for r in many} == {alone}, (threads, n)


def test_options_in_every_way() -> None:
    hand = dict(hand="[2222m]{3333p}456s789s1s", win="1s")
    mingangang = RS.evaluate(**hand, concealed_and_melded_kong=True)["total"]
    assert mingangang != RS.evaluate(**hand)["total"]
    assert RS.evaluate(**hand, options={"concealed_and_melded_kong": True})["total"] == mingangang
    assert RS.evaluate_many([hand], options={"concealed_and_melded_kong": True})[0]["total"] == mingangang
    assert RS.evaluate_many([{**hand, "options": {"concealed_and_melded_kong": True}}])[0]["total"] == mingangang
    cols = {k: [v] for k, v in hand.items()}
    assert RS.evaluate_many(cols, options={"concealed_and_melded_kong": True})["total"].tolist() == [mingangang]


@pytest.mark.parametrize(
    "flowers, message", [("aa", "the flower a is given twice"), ("a" * 264, "given twice"), ("9", "at most 8")]
)
def test_comh_flowers_are_each_once(flowers, message):
    # 264 letters counted 8 in a byte, and eight copies of one letter made eight flowers.
    with pytest.raises(haidi.HandError, match=message):
        haidi.ruleset("mcr").evaluate(hand=f"[EEE,2][SSSS,1]WWWNN55pN|EE1000|{flowers}", format="comh")
    r = haidi.ruleset("mcr").evaluate(hand="[EEE,2][SSSS,1]WWWNN55pN|EE1000|adh", format="comh")
    assert next(f["count"] for f in r["fans"] if f["name"] == "花牌") == 3


@pytest.mark.parametrize("threads", ["0", "1"])
def test_collected_errors_keep_every_situation_in_its_place(monkeypatch, threads: str) -> None:
    # errors="collect" scores the list in slices and starts again after each bad
    # situation: each answer is still the one of scoring that situation alone.
    from mcr_peer import random_situation

    monkeypatch.setenv("HAIDI_PARALLELISM", threads)
    rng = random.Random(4)
    sits = [random_situation(rng) for _ in range(700)]
    for s in sits[::37]:
        s["hand"] = "123m"  # 3 tiles: refused when scored
    for s in sits[5::53]:
        s["self_drawn"] = "no"  # refused when read
    sits[699] = {"bogus": 1}
    runs = [sits, sits[:1], [sits[0]] * 3, [{"hand": "1m"}] * 40, [], sits[:3] + [{"hand": "1m"}] * 5 + sits[3:9]]
    for batch in runs:
        alone = []
        for s in batch:
            try:
                alone.append(RS.evaluate(**s))
            except haidi.HandError as e:
                alone.append({"error": str(e)})
        got = RS.evaluate_many(batch, errors="collect")
        assert len(got) == len(batch)
        for g, a in zip(got, alone, strict=True):
            assert ("error" in g) == ("error" in a) and (g == a or "error" in a)
    assert [i for i, g in enumerate(RS.evaluate_many(sits, errors="collect")) if "error" in g] == sorted(
        {*range(0, 700, 37), *range(5, 700, 53), 699}
    )


@pytest.mark.parametrize(
    "flags, key",
    [
        (dict(robbing_kong=True, self_drawn=True), "robbing_kong"),
        (dict(kong_replacement=True), "kong_replacement"),
        (dict(last_of_kind=True, win="1z"), "last_of_kind"),
        (dict(flowers=9), "flowers"),
    ],
)
def test_contradictory_flags_name_their_key(flags, key) -> None:
    # As the regional rulesets name theirs: the key the message speaks of.
    situation = {"hand": "123m456p789s1122z", "win": "2z", **flags}
    with pytest.raises(haidi.HandError) as e:
        haidi.ruleset("mcr").evaluate(**situation)
    assert e.value.key == key


@pytest.mark.parametrize("key, value", [("seat_wind", "E"), ("self_drawn", False), ("flowers", 0), ("wall_last", True)])
def test_a_key_a_comh_case_string_gives_is_refused_beside_it_on_every_path(haidi_cli, key, value) -> None:
    # The case string "|EE1000" gives the winds, the four flags and the flowers: one given
    # as a key too would be dropped, whatever its value.
    case = "[EEE,2][SSSS,1]WWWNN55pN|EE1000"
    alone = RS.evaluate(hand=case, format="comh")
    match = f"{key} is given twice"
    with pytest.raises(haidi.HandError, match=match) as e:
        RS.evaluate(hand=case, format="comh", **{key: value})
    assert e.value.key == key
    with pytest.raises(haidi.HandError, match=f"0: {match}"):
        RS.evaluate_many([{"hand": case, "format": "comh", key: value}])
    with pytest.raises(haidi.HandError, match=f"row 0: {match}"):
        RS.evaluate_many({"hand": [case], "win": [None], "format": ["comh"], key: [value]})
    # A None is a key left out, on every path.
    assert RS.evaluate(hand=case, format="comh", **{key: None}) == alone
    cols = RS.evaluate_many({"hand": [case, "1112345678999m"], "win": [None, "5m"], "format": ["comh", None],
                             key: [None, value]})  # fmt: skip
    assert cols["total"][0] == alone.total
    code, out, _ = haidi_cli("eval", "--jsonl", stdin=json.dumps({"hand": case, "format": "comh", key: value}) + "\n")
    assert code == 2 and match in json.loads(out)["error"]
    with pytest.raises(haidi.HandError, match="win is given twice"):
        RS.evaluate(hand=case.replace("|", "N|", 1).replace("NN55pN", "NN55p"), format="comh", win="N")


def test_a_format_column_of_numbers_is_refused_as_a_format_key_of_one_is() -> None:
    # The column was read as the codes it is kept in (0 and 1 compact, 2 comh) when it was
    # an array of uint8: a silent guess where every other path refuses the number.
    h, w = "123m456p789s11z55z", "5z"
    for column in (np.array([0], np.uint8), np.array([2], np.uint8), [1]):
        with pytest.raises(haidi.HandError, match="row 0: format must be 'compact' or 'comh'"):
            RS.evaluate_many({"hand": [h], "win": [w], "format": column})
    assert RS.evaluate_many({"hand": [h], "win": [w], "format": np.array(["compact"])})["total"][0] > 0
