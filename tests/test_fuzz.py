"""Every ruleset's evaluate and the engine take any input without crashing: a result or a
HandError, never another exception and never a Rust panic."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import haidi
from haidi import HandError, _core

TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
hand_text = st.lists(st.sampled_from(TILES), min_size=0, max_size=17).map("".join)
melded = st.lists(st.sampled_from(["[123m]", "[555p]", "[7777s]", "{1111z}", "[2222p+]", "[789s,2]"]), max_size=5)


@st.composite
def sized_hand(draw, name):
    """Concealed tiles and melds that make a waiting hand of the ruleset's size, most of
    the time (a fifth copy or a wrong size now and then is part of the test)."""
    ms = draw(melded)
    size = haidi.ruleset(name).hand_size - 3 * len(ms) + draw(st.sampled_from([0, 0, 0, 0, 1, -1]))
    tiles = draw(st.lists(st.sampled_from(TILES), min_size=max(size, 0), max_size=max(size, 0)))
    return "".join(tiles) + "".join(ms)


@pytest.mark.parametrize("name", haidi.RULESETS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    win=st.one_of(st.none(), st.sampled_from(TILES + ["0m", "x", ""])),
    self_drawn=st.booleans(),
    seat=st.sampled_from(["E", "S", "W", "N"]),
    extra=st.dictionaries(
        st.sampled_from(["robbing_kong", "kong_replacement", "wall_last", "last_of_kind"]), st.booleans()
    ),
)
def test_evaluate_returns_or_raises_hand_error(name, data, win, self_drawn, seat, extra):
    rs = haidi.ruleset(name)
    hand = data.draw(sized_hand(name))
    try:
        r = rs.evaluate(hand=hand, win=win, self_drawn=self_drawn, seat_wind=seat, **extra)
    except (HandError, NotImplementedError):
        return
    assert isinstance(r, dict) and "win" in r


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet="123456789mpsz[]{}+,0 |f🀇ESWNCFP", max_size=30), win=st.text(max_size=3))
def test_mcr_reads_any_text(text, win):
    """Any text, in either notation, scores or raises HandError; the plain reader and the
    general one must never disagree in a way that crashes."""
    for fmt in ("compact", "comh"):
        try:
            r = haidi.ruleset("mcr").evaluate(hand=text, win=win or None, format=fmt)
        except HandError:
            continue
        assert isinstance(r["total"], int) and isinstance(r["fans"], tuple)


@pytest.mark.parametrize("name", haidi.RULESETS)
@settings(max_examples=100, deadline=None)
@given(hand=hand_text, melds=melded, wild=st.one_of(st.none(), st.sampled_from(TILES)))
def test_engine_calls_return_or_raise_hand_error(name, hand, melds, wild):
    rs = haidi.ruleset(name)
    text = hand + "".join(melds)
    for call in (rs.shanten, rs.waits, rs.is_win):
        try:
            call(text, wilds=wild)
        except HandError:
            pass
    try:
        rs.decompose(text, wilds=wild, limit=50)
    except HandError:
        pass


#: Calls that once raised another exception than HandError (TypeError, ValueError from
#: numpy, UnicodeEncodeError), found by the tests above.
FOUND = {
    "explain='yes'": lambda: _core.mcr_evaluate_many([], explain="yes"),
    "format=5": lambda: _core.mcr_evaluate_many([], format=5),
    "not a list": lambda: _core.mcr_evaluate_many(5),
    "columns a list": lambda: _core.mcr_evaluate_columns([]),
    "columns cmk": lambda: _core.mcr_evaluate_columns({}, concealed_and_melded_kong=1),
    "tile_glyph array": lambda: haidi.tile_glyph(np.zeros((1, 34), np.uint8)),
    "indicator None": lambda: _core.wild_from_indicator(None),
    "honours='yes'": lambda: _core.reproduce_table(4, honours="yes"),
    "melds 300": lambda: _core.Engine("x", 300),
    "name None": lambda: _core.Engine(None, 4),
    "standard='yes'": lambda: _core.Engine("x", 4, standard="yes"),
    "add 5": lambda: haidi.Hand("123m").add(5),
    "ragged rows": lambda: haidi.ruleset("mcr").win_batch([[0] * 34, [0]]),
    "int64 rows to the engine": lambda: haidi.ruleset("mcr").engine.win_batch(np.zeros((1, 34), np.int64)),
    "surrogate errors": lambda: haidi.ruleset("longgang").evaluate_many([], errors="\ud800"),
    "surrogate win": lambda: haidi.ruleset("mcr").evaluate(hand="1112345678999m", win="5m\udfff"),
    "scheme errors": lambda: haidi.ruleset("hainan").scheme.evaluate_list([], errors=1),
    "scheme columns": lambda: haidi.ruleset("hainan").scheme.evaluate_columns([]),
}


@pytest.mark.parametrize("call", FOUND.values(), ids=FOUND.keys())
def test_inputs_found_by_fuzzing_raise_hand_error(call):
    with pytest.raises(HandError):
        call()
