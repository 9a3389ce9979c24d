"""Reading and writing hands: compact notation, COMH strings, glyphs, errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import haidi
from haidi import Hand, HandError


def test_compact_hand_with_melds_and_flowers():
    h = Hand("123m456p11z[789s]{2222z}[9999p+][777m,2]13f")
    assert h.concealed == "123m456p11z"
    assert [m.kind for m in h.melds] == ["chow", "concealed_kong", "added_kong", "pung"]
    assert h.melds[3].from_seat == 2
    assert h.flowers == ["1f", "3f"]
    assert h.size == 8 + 12
    assert str(h) == "123m456p11z[789s]{2222z}[9999p+][777m,2]13f"
    assert Hand(str(h)) == h


def test_glyphs_read_and_write():
    h = Hand("🀇🀈🀉🀄🀄")
    assert str(h) == "123m77z"
    assert h.glyphs() == "🀇🀈🀉🀄🀄"
    assert haidi.tile_glyph("5z") == "🀆"
    assert haidi.tile_glyph("1f") == "🀦"


def test_comh_format_is_explicit():
    h = Hand("[EEE,2][SSSS,1][CCCC]WN55pN", format="comh")
    assert [m.kind for m in h.melds] == ["pung", "kong", "concealed_kong"]
    assert str(h) == "55p344z[111z,2][2222z,1]{7777z}"
    assert h.last == "4z"
    # The same brackets mean an exposed kong in compact notation.
    assert Hand("[1111m]").melds[0].kind == "kong"
    assert Hand("[1111m]", format="comh").melds[0].kind == "concealed_kong"
    with pytest.raises(HandError):
        Hand("EEE", format="compact")


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("12x3m", 2, "unknown character 'x'"),
        ("11111m", 4, "fifth copy of 1m"),
        ("8z", 0, "no such tile"),
        ("123", 0, "without a suit"),
        ("[123m", 0, "unbalanced bracket"),
        ("123m[124m]", 4, "neither a chow nor a pung"),
        ("{111m}", 0, "concealed kong"),
        ("1m[111m,4]", 8, "seat offset 4"),
        ("1m[111m,]", 8, "no seat offset after it"),
        ("11f", 1, "each flower exists once"),
    ],
)
def test_errors_name_the_problem_and_where(text, position, words):
    with pytest.raises(HandError) as info:
        Hand(text)
    assert words in str(info.value)
    assert info.value.position == position
    assert info.value.text == text
    assert isinstance(info.value, ValueError)


def test_unknown_format():
    with pytest.raises(HandError, match="unknown format"):
        Hand("123m", format="tenhou")


kinds = st.integers(0, 33)


@st.composite
def hands(draw):
    counts = [0] * 34
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["chow", "pung", "kong", "concealed", "added"]))
        t = draw(kinds)
        if kind == "chow":
            if t >= 27 or t % 9 > 6:
                continue
            need = [t, t + 1, t + 2]
        else:
            need = [t] * (3 if kind == "pung" else 4)
        if any(counts[x] + need.count(x) > 4 for x in set(need)):
            continue
        for x in need:
            counts[x] += 1
        melds.append((kind, t))
    concealed = [0] * 34
    for _ in range(draw(st.integers(0, 14))):
        t = draw(kinds)
        if counts[t] < 4:
            counts[t] += 1
            concealed[t] += 1
    flowers = draw(st.sets(st.integers(1, 8)))
    return concealed, melds, flowers


def _text(concealed, melds, flowers):
    from reference import to_text

    out = to_text(concealed)
    for kind, t in melds:
        body = (
            to_text([1 if x in (t, t + 1, t + 2) else 0 for x in range(34)])
            if kind == "chow"
            else to_text([{"pung": 3}.get(kind, 4) if x == t else 0 for x in range(34)])
        )
        out += {"concealed": "{" + body + "}", "added": "[" + body + "+]"}.get(kind, "[" + body + "]")
    if flowers:
        out += "".join(str(f) for f in sorted(flowers)) + "f"
    return out


@given(hands())
def test_notation_round_trips(h):
    text = _text(*h)
    hand = Hand(text)
    assert Hand(str(hand)) == hand
    assert hand.counts == h[0]
    assert len(hand.melds) == len(h[1])
    # Glyphs of the concealed part read back to the same tiles.
    if not h[1] and not h[2]:
        assert Hand(hand.glyphs()) == hand


@given(st.text(alphabet="0123456789mpszf[]{},+| EWSNCFP🀇🀄x", max_size=40), st.sampled_from(["compact", "comh"]))
def test_any_text_parses_or_raises_hand_error(text, fmt):
    """No text crashes the parser or escapes as anything but HandError."""
    try:
        hand = Hand(text, format=fmt)
    except HandError:
        return
    assert Hand(str(hand)) == hand
    mcr = haidi.ruleset("mcr")
    for call in (mcr.shanten, mcr.waits, mcr.is_win, mcr.decompose):
        try:
            call(hand)
        except HandError:
            pass


def test_errors_on_huge_texts_quote_a_window():
    # The message and .text held the whole input: a 100 MB hand made a 100 MB message.
    big = "1m" * 500_000 + "x"
    with pytest.raises(haidi.HandError) as e:
        haidi.Hand(big)
    err = e.value
    assert len(str(err)) < 300 and len(err.text) == 80
    assert big[err.text_start : err.text_start + 80] == err.text
    assert err.text_start <= err.position < err.text_start + 80
    assert "of 1000001)" in str(err)
    with pytest.raises(haidi.HandError) as e:
        haidi.Hand("123m4x")
    assert (e.value.text, e.value.text_start, e.value.position) == ("123m4x", 0, 5)
