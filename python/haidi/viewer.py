"""A played match as one self-contained HTML page that steps through it.

``page(logs)`` replays each hand of a haidi log (``Game.log`` lists, after an optional
match header, as ``haidi play --log`` writes them) and returns the HTML of a page holding
the state of every seat after each action, the events between actions, and each hand's
result; the page's script only shows that data (no rule of the game is in it).
``haidi.html(log)`` and ``haidi replay --html OUT LOG`` give it. docs/viewer.md has the
page's controls.

The states are stored as differences: each step holds only the keys that changed since
the step before, and the page rebuilds a hand's steps when the hand is shown.
"""

from __future__ import annotations

import html as _html
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

from ._core import HandError, tile_glyph, tile_names
from ._errors import shown
from .display import _tiles_of as _tiles

__all__ = ["analysis_page", "hand_data", "page", "read_logs"]

#: Seat winds by seat, seat 0 the dealer.
_WINDS = "ESWN"
#: The flowers' names (1f-8f), which ``tile_names`` leaves out.
_FLOWERS = tuple(f"{i}f" for i in range(1, 9))


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready data (tuples as lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _state(game: Any, obs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The flat state of ``game`` shown by the page (``obs`` its four observations): each
    seat's own view of its hand, melds and flowers, what the others see of them, and the
    table's shared facts."""
    table = obs[0]
    wilds = list(table["wilds"])
    if (table["indicator"] or "").endswith("f"):
        # A flower turned up: the ruleset's other flowers are the wilds.
        wilds = [f for f in _tiles(game._ruleset.spec.flowers) if f != table["indicator"]]
    st: dict[str, Any] = {
        "wall": table["wall"],
        "ind": table["indicator"],
        "wilds": wilds,
        "offer": None if table["offer"] is None else [table["offer"][k] for k in ("tile", "from", "chance")],
        "ta": list(game.to_act),
        "fol": _plain(table["followed"]),
        "ht": table["haidi_taker"],
        "done": bool(game.done),
    }
    for s in range(4):
        o, other = obs[s], obs[(s + 1) % 4]
        drawn = o["drawn"]
        melds = []
        for m, seen in zip(o["meld_info"][s], other["meld_info"][s], strict=True):
            meld = {"type": m["type"], "tile": m["tile"], "from": m["from"], "claimed": m["claimed"]}
            if seen["tile"] is None:
                meld["hidden"] = True
            melds.append(meld)
        # Compact notation (the drawn tile in it too): the page splits it.
        st[f"h{s}"] = o["hand"]
        st[f"dr{s}"] = drawn
        st[f"m{s}"] = melds
        st[f"d{s}"] = list(table["discards"][s])
        st[f"c{s}"] = list(table["claimed"][s])
        st[f"f{s}"] = list(o["flowers"][s])
        st[f"fp{s}"] = list(other["flowers"][s])
        # Tiles held concealed: None when they are the hand's tiles (kept wild flowers add).
        count = o["concealed_counts"][s]
        st[f"n{s}"] = None if count == len(_tiles(o["hand"])) else count
        st[f"oh{s}"] = o["open_hands"][s]
        st[f"dec{s}"] = o["decision"]
        st[f"pw{s}"] = o["passed_win"]
    return st


def _delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of ``after`` that differ from ``before``; a list that only grew (the
    discards) as ``"+key"``, the tiles added."""
    out = {}
    for k, v in after.items():
        was = before.get(k, _MISSING)
        if was == v:
            continue
        if isinstance(v, list) and isinstance(was, list) and was and v[: len(was)] == was:
            out["+" + k] = v[len(was) :]
        else:
            out[k] = v
    return out


_MISSING = object()


def _win(win: Mapping[str, Any]) -> dict[str, Any]:
    score, situation = win["score"], win["situation"]
    return {
        "seat": win["seat"],
        "win": situation.get("win"),
        "self_drawn": bool(situation.get("self_drawn")),
        "hand": situation.get("hand"),
        "total": score["total"],
        "form": score["form"],
        "arrangement": score["arrangement"],
        "groups": [
            {"kind": g.kind, "tiles": list(g.tiles), "wilds": list(g.wilds), "meld": g.meld} for g in score["groups"]
        ],
        "fans": [{"name": f.name, "name_en": f.name_en, "value": f.value, "count": f.count} for f in score["fans"]],
    }


def _start_game(start: Mapping[str, Any]) -> Any:
    """A new ``Game`` dealt as the log's start says (``Game.replay`` checks the rest)."""
    from .game import Game

    rules, seed, options = start.get("rules"), start.get("seed"), start.get("options") or None
    carry, kept = start.get("carry"), start.get("kept")
    if seed is None:
        return Game(rules, 0, options, wall=start.get("wall"), carry=carry, kept=kept)  # type: ignore[arg-type]
    return Game(rules, seed, options, carry=carry, kept=kept)  # type: ignore[arg-type]


def _event_text(e: Mapping[str, Any]) -> str:
    """One event of the log, shortly: ``"S discard 5m"``, ``"W draws 3p"``."""
    kind = e.get("event")
    seat = e.get("seat")
    who = f"{_WINDS[seat]} " if isinstance(seat, int) and 0 <= seat < 4 else ""
    if kind == "deal":
        return f"{who}dealt {len(e.get('tiles') or ())}"
    if kind == "draw":
        return f"{who}draws {e.get('tile')}" + (" (replacement)" if e.get("replacement") else "")
    if kind == "action":
        a = e.get("action") or {}
        return f"{who}{a.get('type')}" + (f" {a['tile']}" if a.get("tile") else "")
    rest = ", ".join(f"{k} {_compact(v)}" for k, v in e.items() if k not in ("event", "seat"))
    return f"{who}{kind}" + (f": {rest}" if rest else "")


def _compact(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"))


def _events_text(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The log's events of a step, each as a short text."""
    return [_event_text(e) for e in events]


def _meld_tiles(m: Mapping[str, Any]) -> list[str]:
    t = m["tile"]
    if m["type"] == "chow":
        return [f"{int(t[0]) + k}{t[1]}" for k in range(3)]
    return [t] * (3 if m["type"] == "pung" else 4)


def _analysis(rs: Any, seat: int, o: Mapping[str, Any]) -> dict[str, Any]:
    """What ``analyze`` says of the seat's discards (its observation ``o``): each
    discard, best first, as ``[tile, shanten, useful copies, [[wait, copies, total] ...]]``;
    the tiles it has seen elsewhere (discards not claimed, the others' melds it sees, the
    indicator) are taken off the copies; flowers kept as wilds count as wilds held."""
    seen: list[str] = []
    for t in range(4):
        claimed = set(o["claimed"][t])
        seen += [d for i, d in enumerate(o["discards"][t]) if i not in claimed]
        if t != seat:
            seen += [x for m in o["meld_info"][t] if m["tile"] is not None for x in _meld_tiles(m)]
            # A hand laid open (Tangshan's 明听) is seen by every seat.
            if o["open_hands"][t]:
                seen += _tiles(o["open_hands"][t])
    if o["indicator"]:
        seen.append(o["indicator"])
    hand = o["hand"] + "".join(o["melds"][seat])
    own = "".join(o["flowers"][seat])
    if (o["indicator"] or "").endswith("f"):
        # A flower turned up (Longgang): the other flowers are the wilds, held in the
        # hand ("如是花财神"; docs/analysis.md).
        wilds, kept, flowers = o["indicator"], 0, {}
        hand = own + hand
    else:
        # Flowers kept as wilds (Longgang's 坐花) are held concealed but are not in the
        # hand's text; the seat's flowers are given to the scorer too, which counts them
        # as evaluate does. A ruleset without flowers takes no such key.
        wilds = o["wilds"] or None
        kept = o["concealed_counts"][seat] - len(_tiles(o["hand"]))
        flowers = {"flowers": own} if own else {}
    try:
        entries = rs.analyze(
            hand,
            seen or None,
            wilds,
            extra_wilds=kept,
            seat_wind=_WINDS[seat],
            round_wind=o["round_wind"],
            **flowers,
        )
    except HandError as e:
        return {"error": str(e)}
    rows = [
        [
            x["discard"],
            x["shanten"],
            x["useful_count"],
            [[w["tile"], w["left"], w["total"]] for w in x["winning_waits"]],
        ]
        for x in entries
    ]
    return {"rows": rows}


def hand_data(log: Sequence[Mapping[str, Any]], analysis: bool = False) -> dict[str, Any]:
    """One hand's page data: the steps of ``log`` (the first the state after the deal,
    then one after each action) as differences, each with its events, and the result
    (``payments`` None for a log that ends before its hand does). ``analysis``: each
    step asking a seat to discard carries ``analyze``'s answer for it, as a third item
    (by seat: ``rows`` and ``chose``, the tile discarded or the action taken instead).
    The log is checked by ``Game.replay`` first (``HandError`` when it does not replay)."""
    return _hand_data(log, analysis)[0]


def _hand_data(log: Sequence[Mapping[str, Any]], analysis: bool) -> tuple[dict[str, Any], Any]:
    """``hand_data``, and the ``Game`` its log replays to."""
    from .game import Game

    checked = Game.replay(log)
    start = log[0]
    game = _start_game(start)
    # Each step: [the state's differences from the step before, its events as texts].
    steps: list[list[Any]] = []
    events: list[Mapping[str, Any]] = []
    prev: dict[str, Any] = {}

    def snap() -> None:
        nonlocal prev
        obs = [game.observation(s) for s in range(4)]
        st = _state(game, obs)
        step = [_delta(prev, st), _events_text(events)]
        if analysis:
            asked = {
                str(s): _analysis(game.ruleset, s, obs[s])
                for s in game.to_act
                if any(a["type"] == "discard" for a in obs[s]["legal_actions"])
            }
            if asked:
                step.append(asked)
        steps.append(step)
        prev = st
        events.clear()

    for e in log[1:]:
        if e.get("event") == "action":
            snap()
            asked = steps[-1][2] if len(steps[-1]) > 2 else {}
            if str(e["seat"]) in asked:
                # What the seat did: the tile it discarded, else the action's type.
                action = e["action"]
                chose = action.get("tile") if action.get("type") in ("discard", "open_ready") else action.get("type")
                asked[str(e["seat"])]["chose"] = chose
            game.step(e["seat"], e["action"])
        events.append(e)
    snap()
    # A log may end before its hand does (a match stopped): no result then.
    result = checked.result or {"payments": None, "exhausted": False, "wins": None, "outcome": None}
    data = {
        "rules": start.get("rules"),
        "seed": None if start.get("seed") is None else str(start.get("seed")),
        "carry": _plain(start.get("carry")),
        "steps": steps,
        "payments": None if result["payments"] is None else list(result["payments"]),
        "exhausted": bool(result["exhausted"]),
        "wins": [_win(w) for w in result["wins"] or []],
        # The record the ruleset's settle read (birds, kongs, 烧庄 rounds ...).
        "outcome": _plain(result["outcome"]),
    }
    return data, checked


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, split at ``"\\n"`` only, one at a time."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def read_logs(obj: Any) -> tuple[dict[str, Any] | None, list[list[dict[str, Any]]]]:
    """The match header (or None) and the hands' logs of ``obj``: a ``Game``, a
    ``Game.log``, a list of them, or the text of a JSON-lines log."""
    from .game import Game

    if isinstance(obj, Game):
        return None, [obj.log]
    from .cli import _json  # the one JSON reader of the command's lines

    header: dict[str, Any] | None = None
    logs: list[list[dict[str, Any]]] = []

    def take(row: Any) -> None:
        """The next entry: the header (first, once) or a hand's log; checked as it is
        read, so that a file of junk is refused at its first line, not after all."""
        nonlocal header
        i = len(logs) + (header is not None)
        if isinstance(row, Mapping) and row.get("event") == "match":
            if header is not None or i:
                raise HandError("the match header must be the log's first line, once")
            header = dict(row)
        elif isinstance(row, list) and row and all(isinstance(e, Mapping) for e in row):
            logs.append(row)
        else:
            raise HandError(f"entry {i + 1}: not a log (a list of event objects, the first the start)")

    if isinstance(obj, bytes):
        try:
            obj = obj.decode("utf-8")
        except UnicodeDecodeError as e:
            raise HandError(f"a log is UTF-8 text: {e}") from None
    if isinstance(obj, str):
        # Lines end at "\n" only, as a JSON-lines file's do: str.splitlines would also
        # split inside a string holding U+2028 or U+0085, which JSON allows. Taken one at
        # a time: a str a line of a large text would be its size many times over.
        for n, line in enumerate(_lines(obj), 1):
            if line.strip() and not line.lstrip().startswith("#"):
                try:
                    row = _json(line, f"line {n}")
                except HandError as e:
                    # Named by its line, as `haidi replay` names it (a key given twice).
                    raise HandError(str(e) if str(e).startswith(f"line {n} ") else f"line {n}: {e}") from None
                except ValueError as e:
                    raise HandError(f"line {n}: not JSON ({e})") from None
                take(row)
    elif isinstance(obj, Sequence) and obj and isinstance(obj[0], Mapping) and obj[0].get("event") != "match":
        take(list(obj))
    elif isinstance(obj, Sequence):
        for x in obj:
            take(x.log if isinstance(x, Game) else x)
    else:
        raise HandError(f"a log is a Game, a Game.log, a list of them or JSON lines, not {type(obj).__name__}")
    if not logs:
        raise HandError("the log holds no hand")
    return header, logs


def _glyphs() -> dict[str, str]:
    return {t: tile_glyph(t) for t in (*tile_names(), *_FLOWERS)}


def page(obj: Any, title: str | None = None, analysis: bool = False) -> str:
    """The HTML page of ``obj`` (what ``read_logs`` reads): every hand, stepped.
    ``analysis``: at each discard asked of a seat, what ``analyze`` says of each discard
    (the page shows it for the seat followed)."""
    if title is not None and not isinstance(title, str):
        raise HandError(f"title is text, not {type(title).__name__}")
    if not isinstance(analysis, bool):
        raise HandError(f"analysis must be True or False, not {shown(analysis)}")
    from .play import MatchCheck

    header, logs = read_logs(obj)
    # The page shows the header's players and payments: they are checked against the
    # hands as `haidi replay` checks them (play.MatchCheck), not shown as given.
    match = MatchCheck(header) if header is not None else None
    hands = []
    for i, log in enumerate(logs):
        try:
            data, game = _hand_data(log, analysis)
        except HandError as e:
            raise HandError(f"hand {i + 1}: {e}") from None
        if match is not None and (why := match.hand(b"", log, game)) is not None:
            raise HandError(why)  # names the hand, counted from 1
        hands.append(data)
    if match is not None and (wrong := match.finish()):
        raise HandError("; ".join(wrong))
    rules = hands[0]["rules"]
    if title is None:
        title = f"haidi: {rules}, {len(hands)} hand{'s' if len(hands) != 1 else ''}"
    summary = {k: header.get(k) for k in ("rules", "hands", "players", "payments", "seed")} if header else None
    data = {"hands": hands, "match": summary, "glyphs": _glyphs(), "winds": _WINDS}
    # Every "<" escaped (JSON's \u003c): no text in the data can end the script element.
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    asset = resources.files("haidi").joinpath("data/viewer")
    css = asset.joinpath("viewer.css").read_text("utf-8")
    js = asset.joinpath("viewer.js").read_text("utf-8")
    body = asset.joinpath("viewer.html").read_text("utf-8")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{_html.escape(title)}</title><style>{css}</style></head><body>{body}"
        f'<script type="application/json" id="haidi-data">{blob}</script>'
        f"<script>{js}</script></body></html>\n"
    )


#: The analysis page's script: tiles as text where no font draws the mahjong glyphs (two
#: different tiles drawn alike), or when the box is ticked.
_ANALYSIS_JS = """(function () {
  const box = document.getElementById("text");
  const show = () => document.querySelectorAll(".tile").forEach((t) => {
    t.textContent = box.checked ? t.dataset.t : t.dataset.g;
    document.body.classList.toggle("text", box.checked);
  });
  try {
    const cv = document.createElement("canvas"), cx = cv.getContext("2d");
    cv.width = cv.height = 40;
    const ink = (ch) => { cx.clearRect(0, 0, 40, 40); cx.font = "32px sans-serif"; cx.fillText(ch, 2, 34);
      return cx.getImageData(0, 0, 40, 40).data.join(); };
    if (ink("\\u{1F007}") === ink("\\u{1F01D}")) box.checked = true;
  } catch (e) { /* keep the glyphs */ }
  box.onchange = show;
  show();
})();"""


def _tile_span(t: str, note: str = "") -> str:
    g = tile_glyph(t)
    e = _html.escape
    return f'<span class="tile" title="{e(t + note)}" data-t="{e(t)}" data-g="{e(g)}">{e(g)}</span>'


def _analysis_row(x: Mapping[str, Any], scoring: bool) -> str:
    """One row of ``analysis_page``: an entry of ``Ruleset.analyze``."""
    useful = "".join(_tile_span(t) for t in x["useful"]) or "-"
    winning = " ".join(
        f'<span class="wait">{_tile_span(w["tile"])} ({w["left"]}, {w["total"]})</span>' for w in x["winning_waits"]
    )
    if x["shanten"] == 0 and not winning:
        winning = "none (completed by " + "".join(_tile_span(w["tile"]) for w in x["waits"]) + ")"
    discard = _tile_span(x["discard"]) if x["discard"] else "-"
    draws = ""
    if scoring:
        draws = f"<td class=num>{x['draws']}{'' if x['draws_exact'] else '+'}</td>"
    return (
        f"<tr><td>{discard}</td><td class=num>{x['shanten']}</td><td class=num>{x['useful_count']}</td>"
        f"<td>{useful}</td>{draws}<td>{winning}</td></tr>"
    )


def analysis_page(
    rules: str, analyses: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], scoring: bool = False
) -> str:
    """A page of ``Ruleset.analyze``'s answers (``haidi analyze --html``): for each hand,
    its tiles and a row a discard with its shanten, useful copies, useful tiles, the draws
    to a win (``scoring``) and the winning waits (copies left, total)."""
    from .display import html as hand_html

    e = _html.escape
    if not isinstance(rules, str):
        raise HandError(f"rules is a ruleset name, not {type(rules).__name__}")
    out = [f"<h1>haidi analyze: {e(rules)}</h1>"]
    for item in analyses:
        if not (isinstance(item, Sequence) and len(item) == 2 and isinstance(item[0], str)):
            raise HandError("analyses is a list of (hand, Ruleset.analyze(hand)) pairs")
        hand, entries = item
        out.append(f'<section class="analysis"><h2>{e(hand)}</h2>')
        try:
            tiles = re.findall(r'<span title="([^"]+)">', str(hand_html(hand)))
            out.append('<p class="tiles hand">' + "".join(_tile_span(t) for t in tiles) + "</p>")
        except HandError:
            pass
        head = "<th>discard</th><th class=num>shanten</th><th class=num>copies</th><th>useful</th>"
        head += "<th class=num>draws</th>" if scoring else ""
        out.append(f"<table><thead><tr>{head}<th>winning waits (copies, total)</th></tr></thead><tbody>")
        for i, x in enumerate(entries):
            try:
                out.append(_analysis_row(x, scoring))
            except (KeyError, TypeError, AttributeError, HandError) as err:
                raise HandError(
                    f"{hand}: entry {i + 1} is not an entry of Ruleset.analyze ({shown(err, 80)})"
                ) from None
        out.append("</tbody></table></section>")
    css = resources.files("haidi").joinpath("data/viewer/viewer.css").read_text("utf-8")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>haidi analyze: {e(rules)}</title><style>{css}"
        "h1{font-size:1.2em}h2{font-size:1em;font-family:ui-monospace,monospace}.wait{margin-right:.6em}"
        "</style></head><body><header><label><input type=checkbox id=text> tiles as text</label></header><main>"
        + "".join(out)
        + f"</main><script>{_ANALYSIS_JS}</script></body></html>\n"
    )
