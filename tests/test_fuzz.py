"""Every ruleset's evaluate and the engine take any input without crashing: a result or a
HandError, never another exception and never a Rust panic."""

import contextlib
import importlib.util
import io
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import haidi
from haidi import HandError, _core, cli

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
    assert isinstance(r, haidi.Result) and "win" in r


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


# --- Every public entry point, with values of any type -------------------------------

#: One call's time bound: every call takes milliseconds; a call near this is a hang.
CALL_BOUND = 2.0
#: Examples per entry point; scripts/fuzz.py raises it for a long run.
EXAMPLES = int(os.environ.get("HAIDI_FUZZ_EXAMPLES", "60"))
fuzz_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 200,
    database=None,
    suppress_health_check=list(HealthCheck),
)

_texts = st.one_of(
    hand_text,
    st.text(max_size=12),
    st.sampled_from(["", "compact", "comh", "E", "S", "1z", "5f", "15f", "\ud800", "1m\udfff", "NaN", "[", "🀄"]),
    st.text(alphabet="123456789mpsz[]{}+,|fESWNCFP", max_size=24),
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-2, max_value=20),
    st.binary(max_size=6),
    _texts,
)
#: Any value: scalars, and lists, tuples, dicts and numpy arrays of them.
anything = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(
            st.one_of(st.text(max_size=6), st.sampled_from(["hand", "win", "seat", "wilds"])), inner, max_size=3
        ),
    ),
    max_leaves=6,
) | st.sampled_from(
    [np.zeros((1, 34), np.uint8), np.ones((2, 34), np.int64), np.array([256]), np.array(["1m"]), np.full(3, np.nan)]
)


def _call(fn, *args, **kwargs):
    """Calls `fn`: a result or HandError, within the time bound."""
    start = time.perf_counter()
    try:
        fn(*args, **kwargs)
    except HandError:
        pass
    took = time.perf_counter() - start
    assert took < CALL_BOUND, f"{getattr(fn, '__name__', fn)} took {took:.2f} s"


def _entry_points():
    """(name, function, keyword names it takes, number of positional arguments)."""
    out = [
        ("Hand", haidi.Hand, ["format"], 1),
        ("tile_glyph", haidi.tile_glyph, [], 1),
        ("ruleset", haidi.ruleset, [], 1),
        ("wild_from_indicator", _core.wild_from_indicator, [], 1),
        ("reproduce_table", _core.reproduce_table, ["honours"], 1),
        ("McrScorer.evaluate_list", _core.McrScorer().evaluate_list, ["format", "errors", "options"], 1),
        ("McrScorer.evaluate_columns", _core.McrScorer().evaluate_columns, ["format", "errors", "options"], 1),
        ("Engine", _core.Engine, ["tiles", "standard", "pair_kinds", "seven_pairs", "all_258"], 2),
        ("Hand.add", lambda t: haidi.Hand("123m").add(t), [], 1),
    ]
    engine = ["wilds", "format", "extra_wilds"]
    for name in haidi.RULESETS:
        rs = haidi.ruleset(name)
        keys = list(getattr(rs.scheme, "keys", None) or ["hand", "win", "self_drawn", "seat_wind", "flowers"])
        out += [
            (f"{name}.evaluate", rs.evaluate, keys + ["explain", "options", "nonsense"], 0),
            (f"{name}.evaluate_many", rs.evaluate_many, ["format", "errors", "options"], 1),
            (f"{name}.settle", rs.settle, [], 1),
            (f"{name}.options", rs.options, [], 1),
            (f"{name}.shanten", rs.shanten, engine, 1),
            (f"{name}.waits", rs.waits, engine, 1),
            (f"{name}.winning_waits", rs.winning_waits, engine, 1),
            (f"{name}.is_win", rs.is_win, engine, 1),
            (f"{name}.decompose", rs.decompose, [*engine, "limit"], 1),
            (f"{name}.win_batch", rs.win_batch, ["wilds", "melds"], 1),
            (f"{name}.shanten_batch", rs.shanten_batch, ["wilds", "melds"], 1),
            (f"{name}.waits_batch", rs.waits_batch, ["wilds", "melds"], 1),
            (f"{name}.parse", rs.parse, ["format"], 1),
        ]
    return out


ENTRY_POINTS = _entry_points()


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=[e[0] for e in ENTRY_POINTS])
@fuzz_settings
@given(data=st.data())
def test_every_entry_point_returns_or_raises_hand_error(entry, data):
    """Any values for the arguments an entry point names: a result or HandError."""
    _, fn, keywords, positional = entry
    args = [data.draw(anything) for _ in range(positional)]
    names = data.draw(st.lists(st.sampled_from(keywords), unique=True, max_size=len(keywords))) if keywords else []
    kwargs = {k: data.draw(anything) for k in names}
    _call(fn, *args, **kwargs)


situation_value = st.one_of(anything, hand_text, st.sampled_from(TILES))


@pytest.mark.parametrize("name", haidi.RULESETS)
@fuzz_settings
@given(data=st.data())
def test_evaluate_many_takes_any_rows_and_columns(name, data):
    """Lists of dicts and columns (dicts of lists or numpy arrays) of any values."""
    rs = haidi.ruleset(name)
    keys = st.sampled_from(["hand", "win", "self_drawn", "seat_wind", "format", "flowers", "wilds", "x"])
    rows = data.draw(st.lists(st.dictionaries(keys, situation_value, max_size=5), max_size=4))
    errors = data.draw(st.sampled_from(["raise", "collect"]))
    _call(rs.evaluate_many, rows, errors=errors)
    n = data.draw(st.integers(0, 3))
    columns = {}
    for k in data.draw(st.lists(keys, unique=True, max_size=4)):
        values = data.draw(st.lists(situation_value, min_size=n, max_size=n))
        if data.draw(st.booleans()):
            column = np.empty(n, dtype=object)
            column[:] = [None] * n
            for i, v in enumerate(values):
                column[i] = v
            values = column
        columns[k] = values
    _call(rs.evaluate_many, columns, errors=errors)


@fuzz_settings
@given(
    argv=st.lists(
        st.one_of(
            st.sampled_from(["waits", "shanten", "decompose", "eval", "reproduce", "--json", "--jsonl", "--rules"]),
            st.sampled_from(["--win", "--wild", "--format", "--set", "--limit", "--tiles", "-", "mcr", "longgang"]),
            _texts,
        ),
        max_size=6,
    ),
    stdin=st.text(max_size=60),
)
def test_command_line_exits_cleanly(argv, stdin, monkeypatch_session):
    """The command line on any arguments and input: an exit status, no traceback."""
    monkeypatch_session.setattr(sys, "stdin", io.StringIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as e:  # argparse on bad usage
            code = e.code
    assert time.perf_counter() - start < CALL_BOUND * 5
    assert code in (0, 1, 2, None), code
    assert "Traceback" not in err.getvalue()


# --- The reader of a ruleset's scoring data (haidi._core.Scheme) ---------------------

SCHEMES = [n for n in haidi.RULESETS if getattr(haidi.ruleset(n).module, "scheme", None) is not None]


def _scheme_data(name):
    """What a ruleset gives ``_core.Scheme``: its scoring data with the default options."""
    rs = haidi.ruleset(name)
    return rs.module.scheme(rs.options({}))


def _parts(node):
    """The items of a list, tuple or dict's values, as (key, value) pairs."""
    if isinstance(node, dict):
        return list(node.items())
    if isinstance(node, list | tuple):
        return list(enumerate(node))
    return []


def _rebuilt(node, items):
    """`node` (a list, tuple or dict) with these (key, value) items."""
    if isinstance(node, dict):
        return dict(items)
    values = [v for _, v in items]
    return tuple(values) if isinstance(node, tuple) else values


def _words(node, out):
    for k, v in _parts(node):
        if isinstance(k, str):
            out.add(k)
        _words(v, out)
    if isinstance(node, str):
        out.add(node)
    return out


#: Ints a mutation moves a value to: the edges of bytes, masks and counts, of the points
#: the reader takes and of an i32.
EDGES = [0, 1, -1, 3, 4, 5, 16, 17, 63, 64, 65, 255, 256, 10_001, 2**31 - 1, 2**31, 2**63, -(2**64)]


def _mutated(draw, node, donor, words, root=False):
    """`node` with one part below it changed: replaced by any value or by a part of
    `donor`, an item dropped or doubled, an int moved to an edge, a string made another
    of the scheme's words, a value wrapped in a list, a tuple made a list."""
    parts = _parts(node)
    if parts and (root or draw(st.integers(0, 3)) > 0):
        i = draw(st.sampled_from(range(len(parts))))
        parts[i] = (parts[i][0], _mutated(draw, parts[i][1], donor, words))
        return _rebuilt(node, parts)
    op = draw(st.integers(0, 6))
    if op == 0:
        return draw(anything)
    if op == 1:
        part = donor
        while _parts(part) and draw(st.integers(0, 3)) > 0:
            part = draw(st.sampled_from(_parts(part)))[1]
        return part
    if op in (2, 3) and parts:
        i = draw(st.integers(0, len(parts) - 1))
        if op == 2:
            del parts[i]
        elif isinstance(node, dict):
            parts.append((draw(st.sampled_from(words)), parts[i][1]))
        else:
            parts.insert(i, parts[i])
        return _rebuilt(node, parts)
    if op == 4:
        if isinstance(node, bool):
            return not node
        if isinstance(node, str):
            return draw(st.sampled_from(words))
        return draw(st.sampled_from(EDGES))
    if op == 5:
        return [node]
    return list(node) if isinstance(node, tuple) else None


@st.composite
def scheme_data(draw):
    """A ruleset's scoring data with up to four parts changed, or any value at all."""
    if draw(st.integers(0, 15)) == 0:
        return None, draw(anything)
    name = draw(st.sampled_from(SCHEMES))
    data = donor = _scheme_data(name)
    words = sorted(_words(donor, set()))
    for _ in range(draw(st.integers(0, 4))):
        data = _mutated(draw, data, donor, words, root=True)
    return name, data


@fuzz_settings
@given(data=st.data())
def test_scheme_reads_any_data(data):
    """``_core.Scheme`` on any data: a scheme or HandError; a scheme read scores a
    situation (a result or HandError)."""
    name, given = data.draw(scheme_data())
    start = time.perf_counter()
    try:
        scheme = _core.Scheme(given)
    except HandError:
        return
    assert time.perf_counter() - start < CALL_BOUND
    if name is not None:
        hand = data.draw(sized_hand(name))
        _call(scheme.evaluate, hand=hand, win=data.draw(st.sampled_from(TILES)), self_drawn=data.draw(st.booleans()))


def _changed(name="longgang", pattern=None, **keys):
    """A ruleset's scheme data with some keys, or some keys of its first pattern, set."""
    d = _scheme_data(name)
    d.update(keys)
    if pattern is not None:
        d["patterns"] = [{**d["patterns"][0], **pattern}, *d["patterns"][1:]]
    return d


#: Scheme data that once raised TypeError, OverflowError or a Rust panic, or was read
#: wrongly, found by the test above and by the reading of the reader that fixed them.
SCHEME_FOUND = {
    "not a dict": lambda: None,
    "a result of no items": lambda: _changed(results=[()]),
    "a result key not a str": lambda: _changed(results=[(1, "role")]),
    "an entry not a dict": lambda: _changed(pattern={"entry": 5}),
    "option keys not a list": lambda: _changed(option_keys=5),
    "exclusion text not a str": lambda: _changed(exclusion_text=5),
    # 1 << 40 in a 32-bit mask: counted the patterns of class 8.
    "a result class past 31": lambda: _changed(results=[("n", "classes", [40])]),
    "a result class past 255": lambda: _changed(results=[("n", "classes", [300])]),
    "a pattern class past 31": lambda: _changed(pattern={"class": 40}),
    "a face plus past i32": lambda: _changed(results=[("b", "face_plus", 2**31)]),
    # Read as a byte: -1 allowed 255 wild kinds.
    "max wild kinds -1": lambda: _changed(max_wild_kinds=-1),
    # A complete win panicked (clamp to an empty table's last index).
    "an empty follow table": lambda: _changed(results=[("follow", "follow", ([], 3))]),
    # Points an i32 cannot sum: two such patterns wrapped to a negative total.
    "a pattern value past the points bound": lambda: _changed(pattern={"value": 2**31 - 1}),
    "a loser value past the points bound": lambda: _changed(pattern={"loser_value": -(2**31)}),
    "group points past the bound": lambda: _changed(
        group_points=[("暗杠", "concealed_kong", 0, 16, 10_001, True, True)]
    ),
    "extra points past the bound": lambda: _changed(
        extra_points=[("自摸", ("flag", "self_drawn"), 2**30, True, False)]
    ),
    # A run's length became a shift: 64 ranks overflowed it.
    "a run past nine ranks": lambda: _changed(pattern={"rule": ("run", "triplets", 64)}),
}


@pytest.mark.parametrize("data", SCHEME_FOUND.values(), ids=SCHEME_FOUND.keys())
def test_scheme_data_found_by_fuzzing_raises_hand_error(data):
    with pytest.raises(HandError, match="ruleset data"):
        _core.Scheme(data())


#: Mistakes in the part of the scheme data the binding reads (entries, result keys,
#: options), and the field each message names.
SCHEME_FIELDS = {
    "no entry": (lambda: _changed(pattern={"entry": None}), "Entries.entry"),
    "a loser entry not a dict": (lambda: _changed(pattern={"loser_entry": 5}), "Entries.loser_entry"),
    "a result key not a str": (lambda: _changed(results=[(1, "role")]), "ResultKey.key"),
    "a result kind not a str": (
        lambda: _changed(results=[("n", 5)]),
        "results[0]: failed to extract field ResultKey.kind",
    ),
    "a result of four items": (lambda: _changed(results=[("n", "const", 1, 2)]), "results[0]: a result is"),
    "option keys a str": (lambda: _changed(option_keys="abc"), "Written.option_keys"),
    "no patterns": (lambda: {k: v for k, v in _changed().items() if k != "patterns"}, "missing key 'patterns'"),
    # The scoring's part: the item of a list, then the part of it.
    "a pattern value a str": (lambda: _changed(pattern={"value": "3"}), '", value: expected an int'),
    "a rule of a valid row short": (
        lambda: _changed(valid=[(("win",), "no")]),
        "valid[0], rule: win needs an argument",
    ),
    "a key of no kind": (lambda: _changed(keys=[("hand",)]), "keys[0], key: no kind"),
}


@pytest.mark.parametrize(("data", "field"), SCHEME_FIELDS.values(), ids=SCHEME_FIELDS.keys())
def test_scheme_data_mistakes_name_the_field(data, field):
    with pytest.raises(HandError, match="ruleset data") as e:
        _core.Scheme(data())
    assert field in str(e.value)


def test_points_at_their_bound_sum_exactly():
    # Every pattern worth the most the reader takes: the total is still the exact sum of
    # the fans counted, for the arrangement with the most of them.
    d = _scheme_data("changsha")
    d["patterns"] = [{**p, "value": 10_000} for p in d["patterns"]]
    r = _core.Scheme(d).evaluate(hand="1112223334445m", win="5m", self_drawn=True)
    assert len(r["fans"]) >= 2
    assert r["total"] == 10_000 * sum(f["count"] for f in r["fans"])


@pytest.fixture(scope="module")
def monkeypatch_session():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def test_memory_stays_bounded():
    """After the fuzz tests above, the process has not grown past a bound (the biggest
    tables and a batch are tens of MB)."""
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert peak_mb < 2048, f"peak RSS {peak_mb:.0f} MB"


RISKY = """
import haidi, resource
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
m = haidi.ruleset("longgang")
cases = [
    lambda: m.decompose("", extra_wilds=17, limit=None),
    lambda: m.decompose("7z", extra_wilds=16, limit=20_000),
    lambda: haidi.Hand("1m" * 50_000_000),
    lambda: m.evaluate(hand="[" * 1_000_000),
    lambda: m.evaluate_many([{"hand": "1m"}] * 200_000, errors="collect"),
    lambda: haidi.ruleset("mcr").evaluate_many({"hand": ["1m" * 10_000] * 10_000}),
]
for case in cases:
    try:
        case()
    except haidi.HandError:
        pass
print("ok")
"""


def test_big_inputs_stay_within_a_memory_limit():
    """Inputs that once grew without bound, under a 3 GB address-space limit: a result
    or HandError, never a MemoryError or an abort."""
    env = {**os.environ, "HAIDI_PARALLELISM": "0"}
    r = subprocess.run([sys.executable, "-c", RISKY], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


#: Calls that once raised another exception than HandError (TypeError, ValueError from
#: numpy, UnicodeEncodeError), found by the tests above.
FOUND = {
    "explain='yes'": lambda: _core.McrScorer().evaluate_list([{"hand": "123m", "win": "1m", "explain": "yes"}]),
    "format=5": lambda: _core.McrScorer().evaluate_list([], format=5),
    "not a list": lambda: _core.McrScorer().evaluate_list(5),
    "columns a list": lambda: _core.McrScorer().evaluate_columns([]),
    "columns cmk": lambda: _core.McrScorer().evaluate_columns({}, options={"concealed_and_melded_kong": 1}),
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


def test_fuzz_schemes_are_current():
    """The Rust fuzz targets read the rulesets' scoring data from fuzz/schemes; it must be
    what the rulesets write now."""
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("fuzz_script", root / "scripts" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for path in sorted((root / "fuzz" / "schemes").glob("*.json")):
        written = path.read_text(encoding="utf-8")
        assert written == script.schemes_json(path.stem), "run python scripts/fuzz.py --schemes"


def _deep(depth: int) -> list:
    """A list nested ``depth`` times: walked recursively, it overflows a thread's stack."""
    d: list = []
    for _ in range(depth):
        d = [d]
    return d


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_a_list_nested_past_any_stack_is_refused_not_walked(rules: str) -> None:
    """A value nested 200,000 deep, as a situation value and as a column, on every path:
    a HandError naming the key, never a walk of the nesting (which crashed the process)."""
    from test_scoring import WINNING

    rs, deep = haidi.ruleset(rules), _deep(200_000)
    base = {k: v for k, v in WINNING[rules].items() if k != "self_drawn"}
    for call in (
        lambda: rs.evaluate(**base, self_drawn=deep),
        lambda: rs.evaluate_many([{**base, "self_drawn": deep}]),
        lambda: rs.evaluate_many({**{k: [v] for k, v in base.items()}, "self_drawn": [deep]}),
    ):
        with pytest.raises(HandError, match="self_drawn must be True or False, not a list"):
            call()
    with pytest.raises(HandError, match="hand must be"):
        rs.evaluate_many({**{k: [v] for k, v in base.items()}, "hand": deep})
    with pytest.raises(HandError):
        rs.analyze(base["hand"], self_drawn=deep)


class _BadRepr:
    """A value whose repr raises: a message must still name it."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_arguments_refused_by_python_are_named_by_a_short_safe_spelling() -> None:
    """Python-side checks quote a refused value cut short, and name a value whose repr
    raises or recurses by its type, never raising that repr's error; a surrogate, a 0-d
    array, a huge int and numpy's bool_ read as the core reads them."""
    deep = _deep(100_000)
    for call in (
        lambda v: haidi.simulate("mcr", 4, 1, duplicate=v),
        lambda v: haidi.VectorEnv("mcr", 2, copy=v),
        lambda v: haidi.VectorEnv("mcr", 2, opponents=v),
        lambda v: haidi.reproduce.figures(4, honours=v),
    ):
        for value in (_BadRepr(), deep, "x" * 100_000):
            with pytest.raises(HandError) as e:
                call(value)
            assert len(str(e.value)) < 200
        assert "a _BadRepr" in str(pytest.raises(HandError, call, _BadRepr()).value)
    # numpy's bool_ is a flag and a numpy integer a number, as for every situation value.
    haidi.simulate("mcr", 1, 1, duplicate=np.bool_(False))
    haidi.VectorEnv("mcr", 1, copy=np.bool_(True))
    assert haidi.reproduce.figures(np.int64(4)) == haidi.reproduce.figures(4)
    # An int past a float's range is no finite number; a large one within it is.
    with pytest.raises(HandError, match="shaping must be a finite number"):
        haidi.VectorEnv("mcr", 1, shaping=10**400)
    haidi.VectorEnv("mcr", 1, shaping=2**70)
    # A lone surrogate is refused as text, naming the argument or the column.
    mcr = haidi.ruleset("mcr")
    for call in (
        lambda: mcr.waits("1112345678999m", format="\ud800"),
        lambda: mcr.shanten("1112345678999m", format="\ud800"),
        lambda: haidi.VectorEnv("mcr", 2, version="\ud800"),
    ):
        with pytest.raises(HandError, match="is not valid text"):
            call()
    for rules in ("mcr", "hainan"):
        columns = {"hand": ["1112345678999m"], "win": ["1m"], "\ud800": [True]}
        with pytest.raises(HandError, match="a column name is not valid text"):
            haidi.ruleset(rules).evaluate_many(columns)
    # A 0-d array has __iter__ but is one value, not a list; as a seed it is no int.
    with pytest.raises(HandError, match="evaluate_many takes a list of situation dicts, or columns"):
        mcr.evaluate_many(np.array(1))
    with pytest.raises(HandError, match="seed must be an int"):
        haidi.Game("mcr", np.array(1))
    actions = mcr.actions
    assert actions.action(np.int64(3)) == actions.action(3)
    for call in (actions.action, actions.claimed):
        with pytest.raises(HandError, match="an action id of mcr is an int"):
            call(np.array(3))
    # A format 1 MB long is quoted by its first characters.
    with pytest.raises(HandError, match=r"unknown format \"x+\"\.\.\. \(1000000 characters\)"):
        mcr.waits("1112345678999m", format="x" * 1_000_000)


def test_a_text_that_does_not_parse_is_named_by_its_key() -> None:
    """The reader's error for a text names the key or argument the text was given as."""
    with pytest.raises(HandError, match='at position 0 in win "True"'):
        haidi.ruleset("beijing").evaluate(hand="123m456p789s11z22z", win="True")
    with pytest.raises(HandError, match='at position 1 in wilds "1x"'):
        haidi.ruleset("tangshan").waits("1112345678999m", "1x")
    got = haidi.ruleset("mcr").evaluate_many(
        [{"hand": "1112345678999m", "win": "1m", "flowers": "13x"}], errors="collect"
    )
    assert got[0]["error"] == "unknown character 'x' at position 2 in flowers \"13x\""
    # A wall is a list of names: a dict is refused, and a bad name is named by its place.
    with pytest.raises(HandError, match="a wall is a list of tile names"):
        haidi.Game("mcr", wall={"1m": 1})
    with pytest.raises(HandError, match='wall tile 1 is "zz", not a tile name'):
        haidi.Game("mcr", wall=["1m", "zz"])
