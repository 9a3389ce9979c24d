"""Hands and results as HTML for notebooks (haidi.display): well-formed, every tile in
it as its glyph, every text escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

import haidi

from test_pickle import HANDS, SITUATIONS


def tiles_shown(markup: str) -> Counter[str]:
    """The tiles of the markup (which must parse as XML): each span of one glyph, by the
    tile its title names."""
    shown: Counter[str] = Counter()
    for span in ET.fromstring(markup).iter("span"):
        if span.text and len(span.text) == 1 and not list(span):
            tile = span.get("title", "").split(" ")[0]
            assert haidi.tile_glyph(tile) == span.text
            shown[tile] += 1
    return shown


@pytest.mark.parametrize("hand", HANDS, ids=str)
def test_a_hand_shows_each_of_its_tiles(hand: haidi.Hand) -> None:
    markup = hand._repr_html_()
    assert markup == haidi.html(hand) == haidi.html(str(hand))
    held = Counter({t: n for t, n in zip(haidi.tile_names(), hand.held(), strict=True) if n})
    assert tiles_shown(markup) == held + Counter(hand.flowers)
    root = ET.fromstring(markup)
    assert root.get("title") == str(hand)
    assert len([s for s in root.iter("span") if s.get("class") == "haidi-meld"]) == len(hand.melds)


@pytest.mark.parametrize("name", haidi.RULESETS)
def test_a_result_shows_its_arrangement_fans_and_total(name: str) -> None:
    result = haidi.ruleset(name).evaluate(**SITUATIONS[name])
    markup = haidi.html(result)
    assert markup._repr_html_() == str(markup)
    in_groups = Counter(t for g in result["groups"] for t in g["tiles"])
    assert tiles_shown(markup) == in_groups
    root = ET.fromstring(markup)
    cells = [c.text for c in root.iter("td")]
    for fan in result["fans"]:
        assert fan["name"] in cells and str(fan["count"]) in cells
    assert str(result["total"]) == root.find(".//tfoot/tr/td").text  # type: ignore[union-attr]
    wild = [s for s in root.iter("span") if "(wild)" in s.get("title", "")]
    assert len(wild) == sum(len(g["wilds"]) for g in result["groups"])


def test_a_result_that_does_not_win_says_why() -> None:
    result = haidi.ruleset("mcr").evaluate(hand="123m456p789s11z56z", win="7z")
    assert not result["win"]
    root = ET.fromstring(haidi.html(result))
    assert [p.text for p in root.iter("p") if p.get("class") == "haidi-reason"] == [result["reason"]]


def test_every_text_is_escaped() -> None:
    evil = "<script>alert(\"x\")</script> & 'q'"
    result: dict[str, Any] = {
        "win": True,
        "total": evil,
        "fans": ({"name": evil, "name_en": evil, "value": evil, "count": 1},),
        "reason": evil,
        "form": evil,
        "arrangement": evil,
        "groups": ({"kind": evil, "tiles": ("1m",), "wilds": (), "meld": evil},),
        "note": evil,
    }
    markup = haidi.html(result)
    assert "<script>" not in markup
    root = ET.fromstring(markup)
    texts = [e.text for e in root.iter() if e.text]
    # Reason, the fan's two names and value, total, the other key: each as it was.
    assert texts.count(evil) == 6
    assert [g.get("title") for g in root.iter("span") if g.get("class") == "haidi-group"] == [f"{evil} ({evil})"]


@pytest.mark.parametrize("bad", [42, None, {"win": True}, ["123m"]])
def test_what_is_not_a_hand_or_result_is_a_hand_error(bad: Any) -> None:
    with pytest.raises(haidi.HandError, match="haidi.html takes"):
        haidi.html(bad)
    with pytest.raises(haidi.HandError):
        haidi.html("12x")
