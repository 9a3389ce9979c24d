"""haidi.reproduce and `haidi reproduce`: the published wait tables (附二-附五), recomputed.

The pinned numbers are haidi's own values (equal to the pure-Python enumeration of
benches/pure_python_tables.py), not the published ones; docs/reproduce.md says which
published figures they reproduce.
"""

import json
import pathlib
import sys

import pytest

from haidi import HandError, reproduce

ROOT = pathlib.Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benches"))
import pure_python_tables as oracle  # noqa: E402

HAIDI = {
    "zz16_total": 133,
    "zz16_waits6": 10,
    "zz16_waits6_physical": 2560,
    "zz16_waits7": 55,
    "zz16_waits7_physical": 288640,
    "zz16_waits8": 53,
    "zz16_waits8_physical": 2244608,
    "zz16_waits9": 15,
    "zz16_waits9_physical": 5969920,
    "zz16_physical_total": 8505728,
    "zz16_waits9_nine_dragons": 2,
    "zz16_waits9_nine_gates": 5,
    "zz16_waits9_pairs_form": 4,
    "zz16_waits9_four_pungs": 4,
    "zz16_waits8_nine_gates_based": 9,
    "zz16_waits8_other": 44,
    "zz16_with_kongs": 76,
    "zz13_total": 9,
    "zz13_waits7": 2,
    "zz13_waits8": 6,
    "zz13_waits9": 1,
    "zz13_with_kongs": 2,
    "multiwait16_1": 38980,
    "multiwait16_2": 30104,
    "multiwait16_3": 17946,
    "multiwait16_4": 10382,
    "multiwait16_5": 5041,
    "multiwait16_6": 2136,
    "multiwait16_7": 606,
    "multiwait16_8": 119,
    "multiwait16_9": 15,
    "multiwait16_6_zz": 10,
    "multiwait16_7_zz": 55,
    "multiwait16_8_zz": 53,
    "multiwait16_9_zz": 15,
    "multiwait16_total": 105329,
    "multiwait16_complete": 34498,
    "multiwait13_1": 14067,
    "multiwait13_2": 14493,
    "multiwait13_3": 6739,
    "multiwait13_4": 2948,
    "multiwait13_5": 1335,
    "multiwait13_6": 392,
    "multiwait13_7": 79,
    "multiwait13_8": 16,
    "multiwait13_9": 1,
    "multiwait13_7_zz": 2,
    "multiwait13_8_zz": 6,
    "multiwait13_9_zz": 1,
    "multiwait13_total": 40070,
    "multiwait13_complete": 13259,
    "four_quads16": 16,
    "four_quads16_consecutive": 6,
    "exact_waits13_123456": 8,
    "exact_waits16_123456": 44,
    "exact_waits13_1234567": 12,
    "exact_waits16_1234567": 43,
    "exact_waits13_12345678": 5,
    "exact_waits16_12345678": 21,
    "ready16_any": 105329,
    "ready16_none": 57256,
    "ready16_standard": 81885,
    "ready16_pairs": 38061,
    "ready16_pairs_distinct": 513,
    "ready16_composite": 14617,
    "ready16_every_tile_wins": 133,
    "complete17_any": 34498,
    "complete17_none": 141227,
    "complete17_standard": 26414,
    "complete17_pairs": 9144,
    "complete17_pairs_distinct": 72,
    "complete17_composite": 1060,
    "ready13_any": 47933,
    "ready13_none": 45667,
    "ready13_standard": 40070,
    "ready13_pairs": 11592,
    "ready13_pairs_distinct": 252,
    "ready13_composite": 3729,
    "ready13_every_tile_wins": 9,
    "complete14_any": 15349,
    "complete14_none": 103451,
    "complete14_standard": 13259,
    "complete14_pairs": 2304,
    "complete14_pairs_distinct": 36,
    "complete14_composite": 214,
    "honours13_ready_no_kong": 2184,
    "honours13_ready_standard": 315,
    "honours13_ready_pairs": 1869,
    "honours13_ready_with_kongs": 3045,
    "honours13_ready_total": 5229,
    "honours14_complete_no_kong": 498,
    "honours14_complete_standard": 105,
    "honours14_complete_pairs": 393,
    "honours14_complete_with_kongs": 1575,
    "honours14_complete_total": 2073,
    "honours16_ready_no_kong": 3430,
    "honours16_ready_standard": 147,
    "honours16_ready_pairs": 3283,
    "honours16_ready_with_kongs": 2877,
    "honours16_ready_total": 6307,
    "honours17_complete_no_kong": 924,
    "honours17_complete_standard": 42,
    "honours17_complete_pairs": 882,
    "honours17_complete_with_kongs": 1302,
    "honours17_complete_total": 2226,
}


@pytest.fixture(scope="module")
def result():
    return reproduce.run()


@pytest.fixture(scope="module")
def research():
    data = json.loads((ROOT / "tests" / "data" / "published_tables.json").read_text(encoding="utf-8"))
    return {f["id"]: f for f in data if f["family"] != "omitted"}


def test_every_published_figure_is_computed(result, research):
    assert [r["id"] for r in result.rows] == list(research)
    assert {r["id"]: r["haidi"] for r in result.rows} == HAIDI


def test_matches_are_the_documented_ones(result, research):
    for r in result.rows:
        assert r["match"] is research[r["id"]]["match"], r["id"]
    assert sum(r["match"] for r in result.rows) == 90
    bounds = [r for r in result.rows if r["bound"] == "at_least"]
    assert len(bounds) == 8 and all(r["match"] and r["haidi"] >= r["published"] for r in bounds)


def test_the_computed_column_is_never_the_published_one(result, research):
    # Where the text is wrong the row shows haidi's value, not the text's.
    row = next(r for r in result.rows if r["id"] == "multiwait13_1")
    assert (row["published"], row["haidi"], row["match"]) == (14157, 14067, False)
    assert row["closest_reading"]


def test_every_tile_wins_lists(result):
    zz13 = result.lists["13-tile 张张可胡"]
    assert [h["hand"] for h in zz13 if h["hand"] == "1112345678999"] == ["1112345678999"]
    assert {h["hand"]: h["waits"] for h in zz13}["2333345677778"] == "1245689"
    assert len(zz13) == 9 and len(result.lists["16-tile 张张可胡"]) == 133
    nine = [h for h in result.lists["16-tile 张张可胡"] if len(h["waits"]) == 9]
    assert sorted(h["label"] for h in nine).count("八对半型") == 4
    kongs = {h["hand"] for h in result.lists["13-tile 张张可胡 with kongs"]}
    assert kongs == {"3334567888[1111]", "2223456777[9999]"}


def test_distributions(result):
    assert result.distributions[16]["waits_any"][1:] == [HAIDI[f"multiwait16_{k}"] for k in range(1, 10)]
    assert result.distributions[13]["waits_standard"][1:] == [HAIDI[f"multiwait13_{k}"] for k in range(1, 10)]


def _oracle_values(n, honours):
    conv = oracle.HONOURS if honours else oracle.DEFAULT
    oracle.clear_caches()
    r = oracle.ready_figures(n, conv)
    c = oracle.complete_figures(n + 1, conv)
    k = oracle.kong_figures(n, conv)
    return r, c, k


@pytest.mark.parametrize("n", [4, 7, 10])
def test_one_suit_agrees_with_the_pure_python_enumeration(n):
    r, c, k = _oracle_values(n, False)
    v = {row["id"]: row["haidi"] for row in reproduce.figures(tiles=n)}
    m = n + 1
    assert v[f"ready{n}_hands"] == r["hands"]
    ready_keys = {
        "any": "ready_any",
        "none": "not_ready",
        "standard": "ready_standard",
        "pairs": "ready_pairs",
        "pairs_distinct": "ready_pairs_distinct",
        "composite": "composite",
        "composite_same_wait": "composite_same_wait",
    }
    for ours, theirs in ready_keys.items():
        assert v[f"ready{n}_{ours}"] == r[theirs], ours
    for w in range(1, 10):
        assert v[f"waits{n}_any_{w}"] == r["waits_any"][w]
        assert v[f"waits{n}_standard_{w}"] == r["waits_standard"][w]
        assert v[f"zz{n}_waits{w}"] == r["every_tile_wins"][w]
        assert v[f"zz{n}_waits{w}_physical"] == r["every_tile_wins_physical"][w]
    complete_keys = {
        "any": "complete_any",
        "none": "not_complete",
        "standard": "complete_standard",
        "pairs": "complete_pairs",
        "pairs_distinct": "complete_pairs_distinct",
        "composite": "composite",
    }
    for ours, theirs in complete_keys.items():
        assert v[f"complete{m}_{ours}"] == c[theirs], ours
    assert v[f"kongs{n}_ready"] == k["ready_with_kongs"]
    assert v[f"kongs{m}_complete"] == k["complete_with_kongs"]
    assert v[f"zz{n}_with_kongs"] == k["every_tile_wins_with_kongs"]


@pytest.mark.parametrize("n", [4, 7, 10, 13])
def test_honours_agree_with_the_pure_python_enumeration(n):
    r, c, k = _oracle_values(n, True)
    v = {row["id"]: row["haidi"] for row in reproduce.figures(tiles=n, honours=True)}
    m = n + 1
    assert v[f"honours{n}_ready_no_kong"] == r["ready_any"]
    assert v[f"honours{n}_ready_standard"] == r["ready_standard"]
    assert v[f"honours{n}_ready_pairs"] == r["ready_pairs"]
    assert v[f"honours{n}_ready_composite"] == r["composite"]
    assert v[f"honours{n}_ready_with_kongs"] == k["ready_with_kongs"]
    for w in range(1, 8):
        assert v[f"honours{n}_waits_any_{w}"] == r["waits_any"][w]
    assert v[f"honours{m}_complete_no_kong"] == c["complete_any"]
    assert v[f"honours{m}_complete_standard"] == c["complete_standard"]
    assert v[f"honours{m}_complete_pairs"] == c["complete_pairs"]
    assert v[f"honours{m}_complete_with_kongs"] == k["complete_with_kongs"]


def test_every_tile_wins_hands_agree_with_the_pure_python_enumeration():
    oracle.clear_caches()
    want = oracle.ready_figures(10, with_lists=True)["every_tile_wins_hands"]
    got = reproduce.every_tile_wins(tiles=10)["10-tile 张张可胡"]
    assert sorted((h["hand"], h["waits"]) for h in got) == sorted((h["hand"], h["waits"]) for h in want)


def test_other_sizes_show_published_values_where_the_text_has_them():
    rows = {r["id"]: r for r in reproduce.figures(tiles=13)}
    assert rows["ready13_pairs"]["published"] == 11592 and rows["ready13_pairs"]["match"] is True
    assert rows["waits13_any_1"]["published"] is None and rows["waits13_any_1"]["match"] is None


@pytest.mark.parametrize("tiles", [0, -1, 15, 17, 40, 10**20, True, 7.0, "7"])
def test_bad_sizes_are_hand_errors(tiles):
    # 10**20 raised OverflowError, past the int the binding read.
    with pytest.raises(HandError, match="a hand size"):
        reproduce.figures(tiles=tiles)


def test_cli_table(haidi_cli):
    code, out, _ = haidi_cli("reproduce")
    assert code == 0
    assert "90 of 105 published figures match" in out and "附六" in out
    line = next(x for x in out.splitlines() if x.startswith("multiwait13_1 "))
    assert line.split()[1:4] == ["14157", "14067", "no"]


def test_cli_json_and_list(haidi_cli):
    code, out, _ = haidi_cli("reproduce", "--json", "--list")
    doc = json.loads(out)
    assert code == 0 and len(doc["figures"]) == 105 and "附六" in doc["omitted"]
    assert len(doc["lists"]["16-tile 张张可胡"]) == 133
    code, out, _ = haidi_cli("reproduce", "--list")
    assert "  1112345678999          听123456789" in out


def test_cli_other_sizes(haidi_cli):
    code, out, _ = haidi_cli("reproduce", "--tiles", "7", "--json")
    assert code == 0 and json.loads(out)["figures"][0]["id"] == "ready7_hands"
    code, out, _ = haidi_cli("reproduce", "--honours")
    assert code == 0 and "honours13_ready_standard" in out


def test_cli_bad_size_exits_2(haidi_cli):
    code, _, err = haidi_cli("reproduce", "--tiles", "15")
    assert code == 2 and "eight pairs" in err
    code, _, err = haidi_cli("reproduce", "--tiles", "99999999999999999999")
    assert code == 2 and "not 99999999999999999999" in err and "Traceback" not in err


def test_cli_plot(haidi_cli, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "waits.png"
    code, out, _ = haidi_cli("reproduce", "--plot", str(path))
    assert code == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_plot_without_matplotlib(haidi_cli, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = haidi_cli("reproduce", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and "matplotlib" in err
