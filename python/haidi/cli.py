"""The ``haidi`` command (docs/cli.md).

    haidi waits 1112345678999m            # what a ready hand waits on
    haidi shanten 123m456p789s1z2z3z4z    # tiles from ready
    haidi decompose 11123455678999m       # every arrangement of a complete hand
    haidi analyze '123m456m78p11s5z[567s]'  # each discard: shanten, useful tiles, winning waits
    haidi eval 123m456p789s1122z --win 1z --self-drawn   # MCR fans of a win
    haidi eval --rules mcr --jsonl < situations.jsonl     # one JSON result a line
    haidi reproduce                       # the Longgang text's published wait tables, recomputed
    haidi play --bots random,random,greedy,"python examples/bot.py" --games 8 --log games.jsonl
    haidi replay games.jsonl              # each logged hand played again and compared

Hands come as arguments, or one a line on standard input when none are given (or
``-``). ``--json`` (and ``eval --jsonl``) answer every input line with one JSON line, in
order: a result, ``{"error": ..., "line": N, "input": ...}``, or ``{"line": N, "skipped":
...}`` for a blank or comment line. Standard input is read in batches and each batch
answered and flushed before the next read, so that a program can keep one process open
and write it a line at a time.
"""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import orjson

from . import _stream
from ._core import _MAX_ARRANGEMENTS as MAX_ARRANGEMENTS
from ._core import HandError, __version__, tile_glyph
from ._errors import json_spelling, shown
from ._stream import MAX_LINE, TOO_LONG, Output
from .ruleset import Ruleset, ruleset
from .rulesets import REGISTRY

#: Exit statuses (docs/cli.md): every input answered; standard output closed by its
#: reader; bad usage, or an input answered with an error; interrupted (Ctrl-C).
EXIT_OK = 0
EXIT_OUTPUT_CLOSED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
#: Standard output, or a file haidi writes (``play --log``), could not be written (a
#: full disk, a closed descriptor).
EXIT_WRITE_FAILED = 4
#: ``haidi play``: the match was played, but a bot faulted (its seat played a default move
#: for it at least once; a bot that stopped played none from then on).
EXIT_BOT_FAULTED = 3

#: The deepest nesting of a JSON value read (a situation is two levels deep at most: a
#: list of wilds in an object).
MAX_DEPTH = 16


def _stdin() -> Any:
    """Standard input as bytes (``sys.stdin.buffer``), or None where there is none."""
    stdin = sys.stdin
    if stdin is None:
        return None
    return getattr(stdin, "buffer", stdin)


def _text_line(raw: bytes | None) -> str:
    """A line of standard input as text: UTF-8, whatever the locale."""
    if raw is TOO_LONG:
        raise HandError(f"a line is longer than {MAX_LINE:,} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise HandError(f"a line is not UTF-8 text (byte {raw[e.start]:#04x} at byte {e.start})") from None


def _echo(raw: bytes | None) -> dict[str, str]:
    """The ``input`` key of an error answer: the line as read (undecodable bytes written
    as ``\\xff``); none for a line too long to keep."""
    if raw is TOO_LONG:
        return {}
    return {"input": raw.decode("utf-8", "backslashreplace").strip()}


def _skipped(line: str | bytes) -> str | None:
    """``"blank"`` or ``"comment"`` for a line (stripped) that holds no input, else None."""
    if not line:
        return "blank"
    if line[:1] in ("#", b"#"):
        return "comment"
    return None


def _glyphs(tiles: Sequence[str]) -> str:
    return "".join(tile_glyph(t) for t in tiles)


def _waits(rs: Ruleset, hand: str, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    if args.winning:
        situation = {"self_drawn": True} if args.self_drawn else {}
        waits = rs.winning_waits(hand, args.wild, format=args.format, **situation)
    else:
        waits = rs.waits(hand, args.wild, format=args.format)
    if waits:
        kinds = f"{len(waits)} kind{'s' if len(waits) != 1 else ''}"
        glyphs = f"  {_glyphs(waits)}" if args.glyphs else ""
        text = f"{hand}: {' '.join(waits)}{glyphs}  ({kinds})"
    elif args.winning and rs.waits(hand, args.wild, format=args.format):
        completing = " ".join(rs.waits(hand, args.wild, format=args.format))
        text = f"{hand}: no winning waits (completed by {completing}, which would not score a win)"
    else:
        text = f"{hand}: no waits (not ready; shanten {rs.shanten(hand, args.wild, format=args.format)})"
    return {"waits": waits}, text


def _shanten(rs: Ruleset, hand: str, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    s = rs.shanten(hand, args.wild, format=args.format)
    word = {-1: "complete", 0: "ready"}.get(s, f"{s} from ready")
    return {"shanten": s}, f"{hand}: {s} ({word})"


def _decompose(rs: Ruleset, hand: str, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    if args.limit < MAX_ARRANGEMENTS:
        # One arrangement more than the limit tells whether the listing was cut.
        arrs = rs.decompose(hand, args.wild, format=args.format, limit=args.limit + 1)
        more = len(arrs) > args.limit
        arrs = arrs[: args.limit]
    else:
        # At the engine's cap: all of them, or (refused as too many) the first ones.
        try:
            arrs, more = rs.decompose(hand, args.wild, format=args.format, limit=None), False
        except HandError:
            arrs, more = rs.decompose(hand, args.wild, format=args.format, limit=MAX_ARRANGEMENTS), True
    shown = f"the first {len(arrs)} arrangements (--limit)" if more else f"{len(arrs)} arrangement"
    lines = [f"{hand}: {shown}{'s' if len(arrs) != 1 and not more else ''}"]
    for a in arrs:
        parts = []
        for g in a["groups"]:
            body = "".join(t[0] for t in g["tiles"]) + g["tiles"][0][1]
            if g["meld"] is not None:
                body = f"[{body}]" if g["meld"] != "concealed_kong" else f"{{{body}}}"
            if g["wilds"]:
                body += "(wild " + " ".join(g["wilds"]) + ")"
            parts.append(body)
        lines.append(f"  {a['form']}: {' '.join(parts)}")
    return {"arrangements": arrs, "complete_list": not more}, "\n".join(lines)


#: analyze's arguments the command gives by their own flags, which --set may not give too.
_ANALYZE_ARGS = {
    "hand": "HAND",
    "visible": "--visible",
    "wilds": "--wild",
    "format": "--format",
    "scoring": "--scoring",
}


def _analysis_situation(args: argparse.Namespace) -> dict[str, Any]:
    """analyze's situation, as its arguments give it (the same for every hand)."""
    situation = _given([("self_drawn", "--self-drawn", True if args.self_drawn else None)], args.set)
    for k in situation:
        if k in _ANALYZE_ARGS:
            raise HandError(f"--set {k}: {k} is given as {_ANALYZE_ARGS[k]}, not as a situation key")
    return situation


def _analyze(rs: Ruleset, hand: str, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    situation = args.situation
    entries = rs.analyze(hand, args.visible, args.wild, format=args.format, scoring=args.scoring, **situation)
    if args.html:
        args.analyses.append((hand, entries))
    lines = [f"{hand}:"]
    head = f"  {'discard':<8}{'shanten':>7}  {'copies':>6}  {'useful':<28}"
    lines.append(head + ("  draws" if args.scoring else "") + "  winning waits (copies, total)")
    for e in entries:
        useful = " ".join(e["useful"]) or "-"
        winning = " ".join(f"{w['tile']}({w['left']}, {w['total']})" for w in e["winning_waits"])
        if e["shanten"] == 0 and not winning:
            winning = "none (completed by " + " ".join(w["tile"] for w in e["waits"]) + ")"
        draws = f"  {e['draws']:>4}{'' if e['draws_exact'] else '+'}" if args.scoring else ""
        row = f"  {e['discard'] or '-':<8}{e['shanten']:>7}  {e['useful_count']:>6}  {useful:<28}{draws}  {winning}"
        lines.append(row.rstrip())
    return {"entries": entries}, "\n".join(lines)


COMMANDS: dict[str, tuple[Callable[[Ruleset, str, argparse.Namespace], tuple[dict[str, Any], str]], str]] = {
    "waits": (_waits, "the tile kinds that complete a hand one tile short"),
    "shanten": (_shanten, "how many tiles a hand is from ready (-1 complete, 0 ready)"),
    "decompose": (_decompose, "every arrangement of a complete hand"),
    "analyze": (_analyze, "each discard's shanten, useful tiles and winning waits (牌效)"),
}


#: Numbers on the command line are written in ASCII digits: ``int()`` and ``float()``
#: would also read ``１２``, ``1_2`` and `` 12 `` (as the JSON of ``--set`` does not).
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def _whole(text: str) -> int | None:
    """``text`` as a whole number of ASCII digits, else None."""
    return int(text) if _WHOLE.fullmatch(text) else None


def _seconds(text: str) -> float:
    t = float(text) if _DECIMAL.fullmatch(text) else -1.0
    if not 0 < t < 1e6:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {text!r}")
    return t


def _bytes(text: str) -> int:
    n = _whole(text) or 0
    if not 0 < n <= 1 << 40:
        raise argparse.ArgumentTypeError(f"expected a number of bytes above 0, not {text!r}")
    return n


def _match_seed(text: str) -> int:
    from .play import read_match_seed

    n = read_match_seed(text)
    if n is None:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 2**256 - 1, not {text[:80]!r}")
    return n


def _out_path(text: str) -> str:
    """A file to write or a key to read: an empty name (an unset variable) would be read as
    none given, and nothing written or checked."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must name a file, not an empty string")
    return text


def _arrangements_limit(text: str) -> int:
    """A --limit up to the engine's cap on a listing."""
    n = _positive(text)
    if n > MAX_ARRANGEMENTS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_ARRANGEMENTS:,}, not {n}")
    return n


def _positive(text: str) -> int:
    n = _whole(text)
    if n is None or n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text[:40]!r}")
    return n


_FLAGS = ("self_drawn", "last_of_kind", "wall_last", "kong_replacement", "robbing_kong")


def _fan_table(hand: str, win: str, r: dict[str, Any]) -> str:
    """The readable result of any ruleset: the head line, then a fan a line."""
    lines = [f"{hand} + {win}: {'win' if r['win'] else 'no win'}, total {r['total']}"]
    if r.get("reason"):
        lines.append(f"  ({r['reason']})")
    if r.get("arrangement"):
        lines.append(f"  {r['form']}: {r['arrangement']}")
    for f in r["fans"]:
        fid = "--" if f["id"] is None else str(f["id"])
        count = f" x{f['count']}" if f["count"] > 1 else ""
        lines.append(f"  {fid:>2}  {f['name']}  {f['name_en']}{count}  {f['value'] * f['count']}")
    for e in r.get("excluded", []):
        by = e.get("by_name") or e.get("by")
        by = f" by {by}" if by else ""
        lines.append(f"  not counted: {e['name']} x{e['count']}{by} ({e['rule']})")
    return "\n".join(lines)


def _eval(args: argparse.Namespace) -> int:
    try:
        rs = ruleset(args.rules)
        # Only what was asked for is passed on: each ruleset has its own situation keys.
        options: dict[str, Any] | None = {"concealed_and_melded_kong": True} if args.mingangang else None
        if options is not None:
            rs.options(options)
    except HandError as e:
        return _error(e)
    # --format given, or the default: only a given one may clash with --set format=...
    format_given, args.format = args.format, args.format or "compact"
    out = Output(sys.stdout)
    # The situation's own arguments: with --jsonl, each line gives its situation.
    situation_args = [
        ("win", "--win", args.win),
        ("seat_wind", "--seat", args.seat),
        ("round_wind", "--round", args.round),
        ("flowers", "--flowers", args.flowers),
        ("wilds", "--wild", args.wild),
        *((k, "--" + k.replace("_", "-"), True if getattr(args, k) else None) for k in (*_FLAGS, "explain")),
    ]
    if args.jsonl:
        if args.hand is not None:
            return _error("--jsonl reads situations from stdin; give no HAND")
        given = [arg for _, arg, v in situation_args if v is not None] + ["--set"] * bool(args.set)
        if given:
            return _error(f"{given[0]} is a key of each line with --jsonl: give it in the line's JSON")
        return _eval_lines(rs, args, options, out)
    if args.hand is None:
        return _error("give a HAND (or --jsonl)")
    if not args.hand.strip():
        return _error("HAND is empty: give the hand without its winning tile")
    named = [
        ("hand", "HAND", args.hand),
        situation_args[0],
        ("format", "--format", format_given),
        *situation_args[1:],
        ("concealed_and_melded_kong", "--mingangang", True if args.mingangang else None),
    ]
    try:
        situation = {"format": args.format, **_given(named, args.set)}
        r = rs.evaluate(**situation)
    except (HandError, NotImplementedError) as e:
        if args.json:
            # With --json every input is answered by one line of JSON, an error too.
            out.json_lines([out.json({"error": str(e), "line": 1, "input": args.hand})])
            return _stream_status(1, 1)
        return _error(e)
    describe = getattr(rs.module, "describe", None)
    if args.json:
        out.json_lines([out.json(r)])
    elif describe is not None:
        out.text([describe(r, situation)])
    else:
        out.text([_fan_table(args.hand, args.win or "", r)])
    return EXIT_OK


def _eval_lines(rs: Ruleset, args: argparse.Namespace, options: dict[str, Any] | None, out: Output) -> int:
    """``eval --jsonl``: each batch of lines read is scored with one ``evaluate_many``,
    which writes the results' JSON itself where standard output takes UTF-8 (orjson's
    text of the result dicts, which are then never made). The ruleset reads and answers
    the plain lines itself, on every core, from the batch's bytes as read and into one
    bytes object of answers (``Ruleset.evaluate_lines``); the rest are read here."""
    stdin = _stdin()
    loads = orjson.loads
    dumps = out.json
    as_json = out.utf8
    # The ruleset reads the plain lines itself (the others are read below).
    fast = rs.evaluate_lines if as_json and options is None else None
    n = failed = 0
    for batch in _stream.batches(stdin, progress=not args.quiet, joined=fast is not None) if stdin is not None else ():
        if isinstance(batch, bytes):
            assert fast is not None
            read, refused = fast(batch, format=args.format, first_line=n + 1)
            failed += refused
            if type(read) is bytes:
                n += batch.count(b"\n") + 1
                out.json_block(read)
                continue
            lines: list[bytes | None] = cast("list[bytes | None]", batch.split(b"\n"))
            answers: list[Any] = cast("list[Any]", read)
        else:
            lines = batch
            answers = [None] * len(lines)
        situations: list[dict[str, Any]] = []
        where: list[int] = []
        for i, raw in enumerate(lines):
            if answers[i] is not None:
                continue
            # The usual line, a JSON object with few brackets, is read here; any other
            # by _situation, which says what is wrong with it.
            try:
                sit = loads(raw)  # type: ignore[arg-type]
            except (orjson.JSONDecodeError, TypeError):
                sit = None
            if sit is not None and _long_ints(raw):  # type: ignore[arg-type]
                sit = None  # (read by _situation, exactly)
            if (
                type(sit) is not dict
                or raw.count(b"[") + raw.count(b"{") > MAX_DEPTH  # type: ignore[union-attr]
                or raw.count(b":") > len(sit)  # type: ignore[union-attr]
            ):
                try:
                    sit = _situation(raw)
                except (HandError, ValueError) as e:
                    answers[i] = {"error": str(e), "line": n + i + 1, **_echo(raw)}
                    failed += 1
                    continue
                if isinstance(sit, str):
                    answers[i] = {"line": n + i + 1, "skipped": sit}
                    continue
            situations.append(sit)
            where.append(i)
        for i, r in zip(where, _score(rs, situations, args.format, options, as_json), strict=True):
            if as_json:
                if not r.startswith(_ERROR):
                    answers[i] = r
                    continue
                r = loads(r)
            elif "error" not in r:
                answers[i] = dumps(r)
                continue
            answers[i] = {"error": r["error"], "line": n + i + 1, **_echo(lines[i])}
            failed += 1
        n += len(lines)
        out.json_lines([a if type(a) is bytes else dumps(a) for a in answers])
    return _stream_status(failed, n)


#: How the JSON text of ``{"error": ...}`` starts (a result's starts ``{"win":``).
_ERROR = b'{"error":'


def _situation(raw: bytes | None) -> dict[str, Any] | str:
    """A line of ``--jsonl`` read as a situation, or ``"blank"`` / ``"comment"``."""
    # The white space around the text is that of every command's lines (str.strip()),
    # and that the answer to a refused line leaves around the line it echoes.
    body = _text_line(raw).strip()
    skipped = _skipped(body)
    if skipped is not None:
        return skipped
    sit = _json(body, "a line")
    if not isinstance(sit, dict):
        raise HandError("a situation must be a JSON object")
    return sit


def _score(
    rs: Ruleset, situations: list[dict[str, Any]], fmt: str, options: dict[str, Any] | None, as_json: bool
) -> list[Any]:
    """Each situation's result, or ``{"error": message}``, as ``evaluate`` gives them; with
    ``as_json``, their JSON text."""
    if not situations:
        return []

    def one(rs: Ruleset, s: dict[str, Any], fmt: str, options: dict[str, Any] | None) -> Any:
        r = _one(rs, s, fmt, options)
        return _stream.dumps(r) if as_json else r

    try:
        results: list[Any] = rs.evaluate_many(
            situations, format=fmt, errors="collect", options=options, output="json" if as_json else None
        )
    except (HandError, ValueError, TypeError):
        # A batch refused whole rather than a situation of it: each is answered alone.
        return [one(rs, s, fmt, options) for s in situations]
    return results


def _one(rs: Ruleset, sit: dict[str, Any], fmt: str, options: dict[str, Any] | None) -> Any:
    try:
        return rs.evaluate(**{"format": fmt, **sit, **(options or {})})
    except (HandError, ValueError, TypeError, NotImplementedError) as e:
        return {"error": str(e)}


def _stream_status(failed: int, total: int) -> int:
    """The exit status of a run that answered ``total`` inputs, ``failed`` with an error;
    a count of the errors goes to standard error."""
    if not failed:
        return EXIT_OK
    print(f"haidi: {failed:,} of {total:,} lines answered with an error", file=sys.stderr)
    return EXIT_BAD_INPUT


def _depth(v: Any) -> int:
    if isinstance(v, dict):
        return 1 + max(map(_depth, v.values()), default=0)
    if isinstance(v, list):
        return 1 + max(map(_depth, v), default=0)
    return 0


#: An integer of 19 digits or more, which may be past 64 bits: orjson reads one as a
#: float, so a line holding one is read by Python's json, whose ints are exact (an error
#: then quotes the number as written).
_LONG_INT = re.compile(rb"(?<![\d.eE+-])-?\d{19,}(?![\d.eE])")


def _long_ints(text: str | bytes) -> bool:
    return _LONG_INT.search(text.encode() if isinstance(text, str) else text) is not None


def _json(text: str | bytes, what: str) -> Any:
    """``text`` read as JSON (orjson: one reader for ``--jsonl`` and ``--set``; Python's
    json where an integer may be past 64 bits), nested at most ``MAX_DEPTH`` deep."""
    try:
        v = orjson.loads(text)
        if _long_ints(text):
            v = json.loads(text)
    except orjson.JSONDecodeError as e:
        # orjson refuses what is nested past 1,024 levels ("depth limit exceeded").
        if "depth" in str(e):
            raise HandError(f"{what} is nested more than {MAX_DEPTH} deep") from None
        raise
    # Each level opens a bracket: a text with few brackets needs no walk.
    if isinstance(text, bytes):
        brackets = text.count(b"[") + text.count(b"{")
    else:
        brackets = text.count("[") + text.count("{")
    if brackets > MAX_DEPTH:
        try:
            deep = _depth(v) > MAX_DEPTH
        except RecursionError:
            deep = True
        if deep:
            raise HandError(f"{what} is nested more than {MAX_DEPTH} deep")
    # After the depth is known to be small: ``_keys`` walks the value.
    _unique_keys(text, v)
    return v


def _keys(v: Any) -> int:
    """The keys of the JSON objects in ``v``, nested ones included."""
    if isinstance(v, dict):
        return len(v) + sum(map(_keys, v.values()))
    if isinstance(v, list):
        return sum(map(_keys, v))
    return 0


def _unique_keys(text: str | bytes, value: Any) -> None:
    """Refuses JSON that gives a key of an object twice, as orjson keeps the last without
    a word. Each key is followed by a colon, so a text with no more colons than ``value``
    has keys gives none twice; another (a colon in a string, a key twice) is read again
    to tell."""
    if (text.count(b":") if isinstance(text, bytes) else text.count(":")) <= _keys(value):
        return

    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise HandError(f"key {shown(k)} is given twice in one object")
            seen.add(k)
        return dict(pairs)

    json.loads(text, object_pairs_hook=once)


def _given(named: Sequence[tuple[str, str, Any]], sets: Sequence[str] | None) -> dict[str, Any]:
    """Situation keys from the command line: ``named`` as (key, the argument that gives
    it, value or None where not given), then each ``--set KEY=VALUE``. A key given twice
    (by its own argument and by --set, or by --set twice) is refused: one of the two
    would be dropped without a word."""
    out: dict[str, Any] = {}
    by: dict[str, str] = {}
    pairs = [(k, arg, v) for k, arg, v in named if v is not None]
    pairs += [(k, "--set", v) for k, v in map(_key_value, sets or [])]
    for key, arg, value in pairs:
        if key in out:
            how = "by --set" if by[key] == arg == "--set" else f"by {by[key]} and by {arg}"
            raise HandError(f"{key} is given twice, {how}")
        out[key], by[key] = value, arg
    return out


def _key_value(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it is JSON (numbers, true, lists ...)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise HandError(f"--set takes KEY=VALUE, not {shown(text)}")
    try:
        return key, _json(value, f"--set {key[:40]}")
    except json.JSONDecodeError:
        return key, value


def _tiles_text(text: str) -> str:
    """Tiles named on the command line: an empty value (an unset variable) is a mistake,
    not tiles left out."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty: give the tiles, or leave the option out")
    return text


def _flowers(text: str) -> int | str:
    """A number of flowers (MCR) or the flower tiles held (``13f``)."""
    _tiles_text(text)
    n = _whole(text)
    return text if n is None else n


def _add_rules(sp: argparse.ArgumentParser, text: str = "ruleset (default: mcr)") -> None:
    # A ruleset name in any case, as haidi.ruleset reads it.
    sp.add_argument("--rules", "-r", default="mcr", type=str.lower, choices=list(REGISTRY), help=text)


def _add_format(sp: argparse.ArgumentParser, default: str | None = "compact") -> None:
    # eval's default is None, compact once read: only a --format given clashes with --set.
    sp.add_argument(
        "--format",
        "-f",
        default=default,
        choices=["compact", "comh"],
        help="hand notation (default compact; comh: ChineseOfficialMahjongHelper strings)",
    )


#: Examples shown by each command's ``--help`` (tests run those without a pipe).
EXAMPLES = {
    "waits": [
        "haidi waits 1112345678999m                   # nine gates: every tile of the suit",
        "haidi waits --wild 7z 123456789m11p2z7z      # 7z is wild",
        "haidi waits --winning '123m456m78p11s[567s]' # only the waits that score 8 points (MCR)",
        "haidi waits --json < hands.txt               # one JSON line a line of hands.txt",
    ],
    "shanten": [
        "haidi shanten 123m456p789s1234z",
        "haidi shanten --rules longgang 123456789m123p11s77z",
        "haidi shanten --json < hands.txt",
    ],
    "decompose": [
        "haidi decompose 11123455678999m",
        "haidi decompose --wild 5z --wild 6z 123m456p55556666z --limit 3",
    ],
    "analyze": [
        "haidi analyze '123m456m78p11s5z[567s]' --visible 9p9p",
        "haidi analyze --rules longgang 123456789m12p11s77z5m5m --wild 5m --scoring",
    ],
    "eval": [
        "haidi eval 1112345678999m --win 5m --self-drawn",
        "haidi eval --rules changsha 111m333p444s666s1s --win 1s --json",
        "haidi eval --rules tangshan 123m456p789s1112z --win 2z --set indicator=3z",
        "haidi eval --rules mcr --jsonl < situations.jsonl   # one JSON situation a line",
    ],
    "play": [
        "haidi play --bots random,random,random,greedy --games 20 --seed 1",
        "haidi play --bots 'python examples/bot.py',random,random,greedy --games 4 --log games.jsonl",
        "haidi play --bots greedy,random,random,random --games 8 --duplicate --json",
        "haidi play --protocol botzone --bots 'python zone.py',greedy,greedy,greedy --timeout 2",
    ],
    "replay": [
        "haidi replay games.jsonl",
        "haidi replay --json < games.jsonl            # one JSON line a hand",
        "haidi replay --html games.html games.jsonl   # a page to step through the hands",
    ],
    "reproduce": [
        "haidi reproduce",
        "haidi reproduce --tiles 7 --json",
        "haidi reproduce --plot waits.png",
    ],
}

EXIT_TEXT = """exit status:
  0    every input answered
  1    standard output closed by its reader (haidi ... | head)
  2    bad usage, or an input (a hand, a line) answered with an error
  3    play: the match was played, but a bot faulted (a seat played a default move)
  4    standard output or a file could not be written (a full disk, a closed descriptor)
  129  hung up (SIGHUP); 143 terminated (SIGTERM): play ends its bots first
  130  interrupted (Ctrl-C)

Reference: docs/cli.md."""


def _subparser(sub: Any, name: str, help_text: str, description: str | None = None) -> argparse.ArgumentParser:
    epilog = "examples:\n" + "\n".join(f"  {e}" for e in EXAMPLES[name])
    return sub.add_parser(  # type: ignore[no-any-return]
        name,
        help=help_text,
        description=description or help_text,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _add_quiet(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--quiet", "-q", action="store_true", help="no progress bar on standard error (drawn only on a terminal)"
    )


def _add_eval(sub: Any) -> None:
    help_text = "score a win under a ruleset; --jsonl scores one JSON situation a line from stdin"
    sp = _subparser(sub, "eval", help_text)
    sp.add_argument("hand", nargs="?", metavar="HAND", help="the hand without the winning tile")
    sp.add_argument("--win", metavar="TILE", type=_tiles_text, help="the winning tile, e.g. 5p")
    sp.add_argument("--self-drawn", dest="self_drawn", action="store_true", help="自摸")
    sp.add_argument("--seat", choices=list("ESWN"), help="seat wind (门风; default E, the dealer)")
    sp.add_argument("--round", choices=list("ESWN"), help="prevalent wind (圈风; default E)")
    sp.add_argument("--flowers", type=_flowers, help="flowers held: a number (MCR) or tiles such as 13f")
    sp.add_argument(
        "--wild", "-w", action="append", metavar="TILE", type=_tiles_text, help="a wild tile kind (repeatable)"
    )
    sp.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="any other situation key of the ruleset (VALUE read as JSON when it parses)",
    )
    sp.add_argument("--last-of-kind", dest="last_of_kind", action="store_true", help="和绝张")
    sp.add_argument("--wall-last", dest="wall_last", action="store_true", help="妙手回春 / 海底捞月")
    sp.add_argument("--kong-replacement", dest="kong_replacement", action="store_true", help="杠上开花")
    sp.add_argument("--robbing-kong", dest="robbing_kong", action="store_true", help="抢杠和")
    _add_rules(sp)
    _add_format(sp, None)
    sp.add_argument("--json", action="store_true", help="print the result as JSON")
    sp.add_argument(
        "--jsonl",
        action="store_true",
        help=f"read JSON situations from stdin, one a line (at most {MAX_LINE:,} bytes, "
        f"nested at most {MAX_DEPTH} deep); answer each line with one JSON line",
    )
    _add_quiet(sp)
    sp.add_argument("--explain", action="store_true", help="list the fans not counted and why")
    sp.add_argument(
        "--mingangang",
        action="store_true",
        help="score 明暗杠 (5) for a concealed and a melded kong, as ChineseOfficialMahjongHelper",
    )


class _Once(argparse.Action):
    """An option of one value given once: given twice, one of the two would be dropped
    (argparse keeps the last), as a key given twice would."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option: Any = None) -> None:
        if self.dest in getattr(namespace, "_given_once", set()):
            parser.error(f"argument {'/'.join(self.option_strings)}: given twice")
        namespace._given_once = getattr(namespace, "_given_once", set()) | {self.dest}
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """The command's parsers: an option that stores one value takes it once."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if args and str(args[0]).startswith("-") and kwargs.get("action", "store") == "store":
            kwargs["action"] = _Once
        return super().add_argument(*args, **kwargs)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="haidi",
        description="Chinese mahjong rules: score a win under six rulesets (MCR, Changsha, Hainan, Longgang, "
        "Tangshan, Beijing), and read a hand's waits, shanten, arrangements and best discards.",
        epilog=EXIT_TEXT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"haidi {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sp = _subparser(sub, name, help_text)
        sp.add_argument(
            "hands",
            nargs="*",
            metavar="HAND",
            help="e.g. '123m456p11z[789s]{1111z}' (quoted for the shell); none or '-' reads one a line from stdin",
        )
        _add_rules(sp, "ruleset: hand size and hand forms (default: mcr)")
        sp.add_argument(
            "--wild",
            "-w",
            action="append",
            metavar="TILE",
            type=_tiles_text,
            help="a wild tile kind, e.g. 5z (repeatable)",
        )
        _add_format(sp)
        sp.add_argument(
            "--json", action="store_true", help="one JSON line a hand (or line of stdin), with the hand or the error"
        )
        _add_quiet(sp)
        if name == "waits":
            sp.add_argument(
                "--winning",
                action="store_true",
                help="only waits that score a win under the ruleset's scoring (on a discard unless --self-drawn)",
            )
            sp.add_argument("--self-drawn", dest="self_drawn", action="store_true", help="with --winning: 自摸")
        if name == "analyze":
            sp.add_argument(
                "--visible",
                "-v",
                metavar="TILES",
                type=_tiles_text,
                help="tiles seen elsewhere (discards, melds), e.g. 19m5z",
            )
            sp.add_argument(
                "--self-drawn", dest="self_drawn", action="store_true", help="score the waits as self-drawn (自摸)"
            )
            sp.add_argument("--scoring", action="store_true", help="add the draws to a ready hand with a winning wait")
            sp.add_argument(
                "--html", metavar="OUT", type=_out_path, help="also write the hands' tables as a page to OUT"
            )
            sp.add_argument(
                "--set",
                action="append",
                metavar="KEY=VALUE",
                help="any other situation key of the ruleset (VALUE read as JSON when it parses)",
            )
        if name == "decompose":
            sp.add_argument(
                "--limit",
                type=_arrangements_limit,
                default=100,
                help=f"at most this many arrangements (default 100, at most {MAX_ARRANGEMENTS:,})",
            )
    _add_eval(sub)
    rp = _subparser(
        sub,
        "reproduce",
        "recompute the published wait tables (附二-附五) by enumerating every hand",
        "Enumerate every one-suit (清一色) and honours (字一色) hand and compare with the "
        "figures published in the Longgang text's 附二 to 附五 (附六 is garbled and left out).",
    )
    rp.add_argument("--json", action="store_true", help="print one JSON document")
    rp.add_argument("--list", action="store_true", help="also print the 张张可胡 hands with their waits")
    rp.add_argument("--tiles", type=_positive, default=None, metavar="N", help="every figure for N-tile hands instead")
    rp.add_argument("--honours", action="store_true", help="with --tiles: honours-only hands (default 13 tiles)")
    rp.add_argument(
        "--plot", metavar="FILE.png", type=_out_path, help="draw the 13- and 16-tile distributions of waiting kinds"
    )
    _add_quiet(rp)
    _add_play(sub)
    _add_replay(sub)
    from . import botzone

    botzone.add_parser(sub)
    return p


def _add_play(sub: Any) -> None:
    sp = _subparser(
        sub,
        "play",
        "play a match between four bots (programs or built-in agents) and log it",
        "Play hands between four players: built-in agents (random, greedy) or bot programs, "
        "shell commands spoken to over their standard input and output (docs/game.md, "
        "'Matches between bots'). Prints the payments of each player and seat.",
    )
    sp.add_argument(
        "--bots",
        required=True,
        metavar="BOT,BOT,BOT,BOT",
        help="players 0 to 3 (seat 0 the dealer): random, greedy, or a shell command",
    )
    _add_rules(sp)
    sp.add_argument("--games", "-n", type=_positive, default=1, metavar="N", help="hands to play (default 1)")
    sp.add_argument(
        "--seed",
        type=_match_seed,
        default=None,
        metavar="S",
        help="the match's seed, to play a match again (default: a secret one drawn at random)",
    )
    sp.add_argument(
        "--log", metavar="FILE", type=_out_path, help="write the match's header and each hand's Game.log, at its end"
    )
    sp.add_argument(
        "--key-file", metavar="FILE", type=_out_path, help="sign the log's header with an HMAC-SHA256 under this key"
    )
    sp.add_argument(
        "--protocol",
        default="json",
        choices=["json", "botzone"],
        help="json: haidi's JSON lines; botzone: Botzone's Chinese Standard Mahjong (MCR only)",
    )
    sp.add_argument(
        "--botzone-io",
        dest="botzone_io",
        choices=["json", "simple"],
        help="with --protocol botzone: Botzone's JSON or simple interaction (default json)",
    )
    sp.add_argument(
        "--timeout",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="the longest wait for an answer (default 5); a bot that takes longer is stopped",
    )
    sp.add_argument(
        "--restart",
        choices=["match", "hand"],
        default=None,
        help="start bot programs once a match or afresh each hand (default: hand with --duplicate, else match)",
    )
    sp.add_argument(
        "--bot-stderr",
        default="show",
        metavar="WHERE",
        help="bots' standard error: show (labelled, on haidi's), discard, or a directory for player-N.stderr",
    )
    sp.add_argument(
        "--bot-stderr-bytes", type=_bytes, default=65536, metavar="N", help="kept of each player's (default 65536)"
    )
    sp.add_argument(
        "--max-answer", type=_bytes, default=1 << 20, metavar="N", help="longest answer line (default 1 MiB)"
    )
    sp.add_argument(
        "--max-data", type=_bytes, default=256 << 10, metavar="N", help="longest Botzone data (default 256 KiB)"
    )
    sp.add_argument(
        "--max-history", type=_bytes, default=4 << 20, metavar="N", help="longest Botzone history (default 4 MiB)"
    )
    sp.add_argument(
        "--duplicate",
        action="store_true",
        help="play each wall four times, the players rotated a seat each time (games a multiple of 4)",
    )
    sp.add_argument("--set", action="append", metavar="KEY=VALUE", help="a ruleset option (VALUE read as JSON)")
    sp.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    _add_quiet(sp)


def _add_replay(sub: Any) -> None:
    sp = _subparser(
        sub,
        "replay",
        "check logged hands: each played again by Game.replay and compared",
        "Play each logged hand (a JSON line holding a Game.log, as haidi play --log writes) "
        "again with Game.replay; one line a hand says whether it agrees.",
    )
    sp.add_argument("logs", nargs="*", metavar="FILE", help="JSON-lines logs; none or '-' reads standard input")
    sp.add_argument("--json", action="store_true", help="one JSON line a hand")
    sp.add_argument("--key-file", metavar="FILE", type=_out_path, help="check the match header's HMAC with this key")
    sp.add_argument(
        "--html", metavar="OUT", type=_out_path, help="write a page stepping through every hand to OUT (docs/viewer.md)"
    )
    sp.add_argument("--analysis", action="store_true", help="with --html: analyze each discard decision on the page")


def _error(message: object) -> int:
    print(f"haidi: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _match_text(row: dict[str, Any]) -> str:
    if row["match"] is None:
        return ""
    if row["bound"] == "at_least":
        return "yes (>=)" if row["match"] else "no (<)"
    return "yes" if row["match"] else f"no ({row['haidi'] - row['published']:+d})"


def _table_text(rows: list[dict[str, Any]]) -> str:
    head = ("figure", "published", "haidi", "match")
    body = [
        (
            r["id"],
            "" if r["published"] is None else (">= " if r["bound"] == "at_least" else "") + str(r["published"]),
            str(r["haidi"]),
            _match_text(r),
            r["quote"] or r["description"],
        )
        for r in rows
    ]
    w = [max(len(x[i]) for x in [head, *body]) for i in range(4)]
    lines = [f"{head[0]:{w[0]}}  {head[1]:>{w[1]}}  {head[2]:>{w[2]}}  {head[3]:{w[3]}}"]
    for fid, pub, val, match, note in body:
        lines.append(f"{fid:{w[0]}}  {pub:>{w[1]}}  {val:>{w[2]}}  {match:{w[3]}}  {note}")
    return "\n".join(line.rstrip() for line in lines)


def _plot(path: str, dists: dict[int, dict[str, list[int]]], published: dict[str, int]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    # The text counts 13-tile waits in the standard form only, 16-tile waits in both.
    for ax, (n, key, label) in zip(
        axes, [(13, "waits_standard", "standard-form waits"), (16, "waits_any", "waits of both forms")], strict=False
    ):
        counts = dists[n][key][1:]
        xs = list(range(1, len(counts) + 1))
        ax.bar(xs, counts, color="#4878a8", label="haidi")
        pub = [published.get(f"multiwait{n}_{k}") for k in xs]
        ax.plot(
            [x for x, p in zip(xs, pub, strict=False) if p is not None],
            [p for p in pub if p is not None],
            "x",
            color="#c03030",
            markersize=9,
            label="published (appendix 4)",
        )
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xlabel(f"waiting kinds ({label})")
        ax.set_title(f"{n}-tile one-suit ready hands")
        ax.legend()
    axes[0].set_ylabel("hands")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


#: The tables ``reproduce.run()`` enumerates for 附二 to 附五 (16 and 13 tiles, one suit and
#: honours): the stages of the progress bar.
PUBLISHED_TABLES = 4


def _unwritable(flag: str, path: str, example: str) -> str | None:
    """Why ``flag path`` names no file that can be written (no folder to write it in, or a
    folder), checked before any work is done; or None."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"{flag}: no folder {folder!r} to write {os.path.basename(path)!r} in"
    if os.path.isdir(path):
        return f"{flag}: {path!r} is a folder: name the file to write, such as {example}"
    return None


def _plot_path(path: str) -> str | None:
    """Why ``--plot path`` cannot be written, checked before the enumeration, or None."""
    from matplotlib.backend_bases import FigureCanvasBase

    why = _unwritable("--plot", path, "waits.png")
    if why is not None:
        return why
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    kinds = FigureCanvasBase.get_supported_filetypes()
    if not ext:
        # matplotlib would write path + ".png", not the file named.
        return f"--plot: {path!r} has no extension to say the file's type, such as waits.png"
    if ext not in kinds:
        return f"--plot: matplotlib writes no .{ext} files; it writes {', '.join(sorted(kinds))}"
    return None


def reproduce_main(args: argparse.Namespace) -> int:
    from . import reproduce

    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _error("--plot needs matplotlib: pip install 'haidi[plot]'")
        bad = _plot_path(args.plot)
        if bad:
            return _error(bad)
    partial = args.tiles is not None or args.honours
    stages = (1 if partial else PUBLISHED_TABLES) + (PUBLISHED_TABLES if args.plot and partial else 0)
    bar = None
    if not args.quiet and _stream.stderr_is_terminal():
        bar = _stream.progress_bar(total=stages, unit="table", desc="reproduce")
    begun = 0

    def progress(message: str) -> None:
        nonlocal begun
        if bar is not None:
            if begun:
                bar.update(1)  # the stage before this one is done
            bar.set_description(message)
        begun += 1

    try:
        result = reproduce.run(args.tiles, args.honours, progress)
        full = result
        if args.plot and partial:
            full = reproduce.run(progress=progress)
    except HandError as e:
        return _error(e)
    finally:
        if bar is not None:
            bar.close()
    if args.plot:
        pub = {r["id"]: r["published"] for r in full.rows if r["published"] is not None}
        try:
            _plot(args.plot, full.distributions, pub)
        except OSError as e:
            return _error(f"--plot: cannot write {args.plot!r}: {e.strerror or e}")
    if args.json:
        doc: dict[str, Any] = {"figures": result.rows, "omitted": reproduce.OMITTED}
        if args.list:
            doc["lists"] = result.lists
        print(json.dumps(doc, ensure_ascii=not _stream.is_utf8(sys.stdout), indent=1, default=_stream.plain))
        return EXIT_OK
    print(_table_text(result.rows))
    compared = [r for r in result.rows if r["match"] is not None]
    if compared:
        bounds = sum(r["bound"] == "at_least" for r in compared)
        print(
            f"\n{sum(bool(r['match']) for r in compared)} of {len(compared)} published figures match "
            f"({bounds} of them are 'at least' bounds). Conventions: docs/reproduce.md."
        )
    if args.tiles is None and not args.honours:
        print(reproduce.OMITTED)
    if args.list:
        for name, hands in result.lists.items():
            print(f"\n{name}: {len(hands)} hands")
            for h in hands:
                label = f"  {h['label']}" if h.get("label") else ""
                print(f"  {h['hand']:<22} 听{h['waits']}{label}")
    if args.plot:
        print(f"\nplot written to {args.plot}")
    return 0


#: What a write that cannot be done raises (besides a closed pipe): a full disk or
#: quota, a file too large, a device error, a closed descriptor.
_WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF)


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stderr is None:
        # Started with its standard error closed (`2>&-`): messages go nowhere, never to
        # standard output (where print sends them when its file is None), which may be
        # a stream of JSON answers.
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the process's life)
    if sys.stdout is None:  # started with its standard output closed (`>&-`)
        print("haidi: error: cannot write standard output: it is closed", file=sys.stderr)
        return EXIT_WRITE_FAILED
    _stream.tolerate(sys.stdout)
    _stream.tolerate(sys.stderr)
    try:
        # The command reads JSON (lines, --set values, bots' answers): its messages quote
        # values as JSON writes them (self_drawn must be true or false, not "yes").
        with json_spelling():
            return _main(argv)
    except KeyboardInterrupt:
        # Ctrl-C: what was answered stays answered; no traceback.
        _quiet_stdout()
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`haidi ... | head`): stop quietly, as shell tools do.
        _quiet_stdout()
        return EXIT_OUTPUT_CLOSED
    except OSError as e:
        if e.errno not in _WRITE_ERRORS:
            raise
        # Standard output cannot take what is written (`> /dev/full`): one line, no traceback.
        _quiet_stdout()
        print(f"haidi: error: cannot write standard output: {e.strerror or e}", file=sys.stderr)
        return EXIT_WRITE_FAILED


def _quiet_stdout() -> None:
    """Points standard output at the null device, so that the interpreter's last flush
    of what is left in it cannot fail on a closed pipe."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "eval":
        return _eval(args)
    if args.command == "reproduce":
        return reproduce_main(args)
    if args.command == "play":
        return play_main(args)
    if args.command == "replay":
        return replay_main(args)
    if args.command == "botzone":
        from . import botzone

        return botzone.main(args)
    try:
        rs = ruleset(args.rules)
    except HandError as e:
        return _error(e)
    return _hands_main(rs, args)


def _inputs(args: argparse.Namespace) -> Iterator[tuple[bool, Sequence[bytes | str | None]]]:
    """The hands in batches: ``(from_stdin, lines)``, an argument a batch of its own."""
    for h in args.hands or ["-"]:
        if h != "-":
            yield False, [h]
            continue
        stdin = _stdin()
        if stdin is not None:
            for lines in _stream.batches(stdin, progress=not args.quiet):
                yield True, lines


def _hands_main(rs: Ruleset, args: argparse.Namespace) -> int:
    """waits, shanten, decompose, analyze: each input answered in turn, a batch of
    answers written and flushed at a time."""
    run, _ = COMMANDS[args.command]
    # An argument is a hand the user typed, not a line of a stream: a blank one is a
    # mistake (an unset shell variable), not a line to pass over.
    for i, h in enumerate(args.hands or [], 1):
        if not h.strip():
            return _error(f"HAND {i} is empty: give a hand, or '-' to read hands from standard input")
    if args.command == "waits" and args.self_drawn and not args.winning:
        return _error("--self-drawn scores the waits: it goes with --winning")
    # analyze's --set is read once, before any hand: a bad one is bad usage, not a hand's
    # error; so is a key of it the ruleset refuses, once a hand is read (below).
    args.situation = {}
    if args.command == "analyze":
        try:
            args.situation = _analysis_situation(args)
        except HandError as e:
            return _error(e)
    out = Output(sys.stdout)
    args.glyphs = out.glyphs
    args.analyses = []
    args.html = getattr(args, "html", None)
    if args.html:
        why = _unwritable("--html", args.html, "hands.html")
        if why is not None:
            return _error(why)
    n = failed = 0
    for from_stdin, lines in _inputs(args):
        answers: list[Any] = []
        for raw in lines:
            n += 1
            hand = ""
            try:
                hand = (raw if isinstance(raw, str) else _text_line(raw)).strip()
                skipped = _skipped(hand) if from_stdin else None
                if skipped is not None:
                    if args.json:
                        answers.append(out.json({"line": n, "skipped": skipped}))
                    continue
                obj, text = run(rs, hand, args)
            except HandError as e:
                if getattr(e, "key", None) in args.situation:
                    # A situation key of the arguments, refused: bad usage, whatever the hand.
                    if args.json:
                        out.json_lines(answers)
                    else:
                        out.text(answers)
                    return _error(e)
                failed += 1
                if args.json:
                    echo = {"input": raw} if isinstance(raw, str) else _echo(raw)
                    answers.append(out.json({"error": str(e), "line": n, **echo}))
                else:
                    # What was answered before the error goes out before it.
                    out.text(answers)
                    answers = []
                    where = f"line {n}: " if from_stdin else ""
                    print(f"haidi: error: {where}{e}", file=sys.stderr, flush=True)
                continue
            answers.append(out.json({"hand": hand, **obj}) if args.json else text)
        if args.json:
            out.json_lines(answers)
        else:
            out.text(answers)
    if args.html:
        from .viewer import analysis_page

        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(analysis_page(rs.name, args.analyses, args.scoring))
        except OSError as e:
            print(f"haidi: error: cannot write {args.html!r}: {e.strerror or e}", file=sys.stderr)
            return EXIT_WRITE_FAILED
    if args.json:
        return _stream_status(failed, n)
    return EXIT_BAD_INPUT if failed else EXIT_OK


#: ``haidi replay``'s exit status when a logged hand does not replay to the same events.
EXIT_DIFFERS = 1


def play_main(args: argparse.Namespace) -> int:
    """``haidi play``: the match, its log, and a summary of payments by player and seat."""
    from . import _procs, play

    if args.protocol == "botzone" and args.rules != "mcr":
        return _error("--protocol botzone is Botzone's Chinese Standard Mahjong: --rules mcr only")
    if args.duplicate and args.games % 4:
        return _error(f"--duplicate plays each wall four times: --games must be a multiple of 4, not {args.games}")
    if args.key_file and not args.log:
        return _error("--key-file signs the log: give --log as well")
    if args.botzone_io is not None and args.protocol != "botzone":
        return _error("--botzone-io is how Botzone's protocol talks: give --protocol botzone as well")
    seed = play.match_seed() if args.seed is None else args.seed
    restart = (args.restart or ("hand" if args.duplicate else "match")) == "hand"
    log = None
    try:
        key = play.read_key(args.key_file) if args.key_file else None
        options = _given([], args.set) or None
        ruleset(args.rules).options(options)
        if args.log and os.path.exists(args.log) and not os.path.isfile(args.log):
            # (The log is written beside it and renamed over it: never over a device.)
            raise HandError(f"--log: {args.log!r} is there and is not a regular file")
        if args.bot_stderr not in ("show", "discard") and not os.path.isdir(args.bot_stderr):
            raise HandError(f"--bot-stderr: {args.bot_stderr!r} is not show, discard or a directory")
        players = play.make_players(
            args.bots.split(","),
            seed=seed,
            timeout=args.timeout,
            protocol=args.protocol,
            io=args.botzone_io or "json",
            restart=restart,
            stderr=args.bot_stderr,
            stderr_bytes=args.bot_stderr_bytes,
            max_answer=args.max_answer,
            max_data=args.max_data,
            max_history=args.max_history,
        )
        log = play.MatchLog(args.log, key) if args.log else None
    except HandError as e:
        return _error(e)
    except OSError as e:
        return _error(f"--log: cannot write beside {args.log!r}: {e.strerror or e}")
    utf8 = _stream.is_utf8(sys.stdout)

    def on_fault(f: dict[str, Any]) -> None:
        then = "; the bot is stopped" if f["stopped"] else ""
        played = "no decision" if f["played"] is None else f"played {json.dumps(f['played'])}"
        _procs.report(f"haidi play: hand {f['hand']}, seat {f['seat']} ({f['bot']}): {f['fault']}; {played}{then}")

    match = play.Match(args.rules, players, seed, options, args.duplicate, args.protocol, on_fault)
    bar = None
    if not args.quiet and _stream.stderr_is_terminal():
        bar = _stream.progress_bar(total=args.games, unit="hand", desc="play")
    signum = 0
    write_failed = None
    try:
        # Every bot, and every process a bot left, is ended before the guard is left,
        # whatever ends the match; only then is the log written.
        with _procs.Guard():
            try:
                for game in match.hands(args.games):
                    if log is not None:
                        try:
                            log.add(game)
                        except OSError as e:
                            # The match is played to its end all the same, for its summary.
                            write_failed = f"--log: cannot write {args.log!r}: {e.strerror or e}"
                            log.close()
                            log = None
                    if bar is not None:
                        bar.update(1)
            except KeyboardInterrupt:
                signum = 2
            except _procs.Terminated as t:
                signum = t.signum
    except HandError as e:
        if log is not None:
            log.close()
        return _error(e)
    finally:
        if bar is not None:
            bar.close()
    for note in play.stderr_notes(players):
        _procs.report(f"haidi play: {note}")
    if log is not None:
        try:
            log.finish(match.header(args.games))
        except OSError as e:
            write_failed = f"--log: cannot write {args.log!r}: {e.strerror or e}"
    summary = {
        "rules": args.rules,
        "hands": match.played,
        "seed": seed,
        "duplicate": args.duplicate,
        "players": [
            {
                "player": p.number,
                "bot": p.name,
                "payments": p.payments,
                "wins": p.wins,
                "faults": p.faults,
                "stops": p.stops,
            }
            for p in players
        ],
        "seat_payments": match.seat_payments,
    }
    status = EXIT_BOT_FAULTED if any(p.faults for p in players) else EXIT_OK
    if signum:
        _procs.report(f"haidi play: stopped by signal {signum} after {match.played} hands; the bots are ended")
    elif status != EXIT_OK:
        faulted = sum(p.faults > 0 for p in players)
        _procs.report(f"haidi play: {faulted} of 4 players faulted (exit status {status})")
    if write_failed is not None:
        args.log = None  # (not written: the summary names no log)
    if args.json:
        print(json.dumps(summary, ensure_ascii=not utf8, default=_stream.plain))
    else:
        _play_text(args, match, players, seed, restart)
    sys.stdout.flush()
    if write_failed is not None:
        print(f"haidi: error: {write_failed}", file=sys.stderr)
        return EXIT_WRITE_FAILED
    return 128 + signum if signum else status


def _play_text(args: argparse.Namespace, match: Any, players: list[Any], seed: int, restart: bool) -> None:
    kind = ("duplicate " if args.duplicate else "") + ("hand" if match.played == 1 else "hands")
    print(f"{args.rules}: {match.played} {kind}, seed {seed}" + (f"; log {args.log}" if args.log else ""))
    width = max(len("bot"), *(len(p.name) for p in players))
    print(f"{'player':<7} {'bot':<{width}}  {'payments':>9}  {'wins':>5}  {'faults':>6}")
    for p in players:
        print(f"{p.number:<7} {p.name:<{width}}  {p.payments:>+9}  {p.wins:>5}  {p.faults:>6}")
    print("seats (0 the dealer): " + "  ".join(f"{paid:+d}" for paid in match.seat_payments))
    until = "the end of that hand" if args.protocol == "botzone" or restart else "the end of the match"
    for p in players:
        if p.stops:
            first = p.stops[0]
            times = f" in {len(p.stops)} hands, first" if len(p.stops) > 1 else ""
            print(
                f"player {p.number} ({p.name}) STOPPED{times} in hand {first['hand']} at seat {first['seat']}: "
                f"{first['fault']}; its seat played the default moves to {until}"
            )


def _log_lines(args: argparse.Namespace) -> Iterator[tuple[str | None, int, bytes | None]]:
    """The lines of ``replay``'s files, or of standard input, as they are read (a line
    longer than ``MAX_LINE`` as ``TOO_LONG``), each with its file (where there are
    several, else None) and its number in the file."""
    names = args.logs or ["-"]
    for name in names:
        f = _stdin() if name == "-" else open(name, "rb")  # noqa: SIM115 (closed below)
        if f is None:
            continue
        try:
            lines = (line for batch in _stream.batches(f, progress=False) for line in batch)
            for n, raw in enumerate(lines, 1):
                yield (name if len(names) > 1 else None), n, raw
        finally:
            if name != "-":
                f.close()


def _line_place(file: str | None, n: int) -> tuple[str, dict[str, Any]]:
    """Where a line of ``replay`` stands, as text (``FILE: line N``, or ``line N`` for one
    file) and as the keys of its JSON row."""
    if file is None:
        return f"line {n}", {"line": n}
    return f"{file}: line {n}", {"file": file, "line": n}


def replay_main(args: argparse.Namespace) -> int:
    """``haidi replay``: each logged hand played again; status 0 when all agree, 1 when
    one does not, 2 for input that is no log. Each line is answered as it is read."""
    from . import play

    if args.analysis and not args.html:
        return _error("--analysis adds to the page: it goes with --html")
    if args.html:
        if args.json:
            return _error("--html writes a page and prints nothing: it does not go with --json")
        why = _unwritable("--html", args.html, "games.html")
        if why is not None:
            return _error(why)
        return _replay_html(args)
    try:
        key = play.read_key(args.key_file) if args.key_file else None
    except HandError as e:
        return _error(e)
    out = Output(sys.stdout)
    differs = bad = hands = bad_headers = 0
    match: play.MatchCheck | None = None
    seen_header = False

    def answer(row: dict[str, Any], text_row: str) -> None:
        if args.json:
            out.json_lines([out.json(row)])
        else:
            out.text([text_row])

    try:
        for file, n, raw in _log_lines(args):
            at, place = _line_place(file, n)
            error: str | None = None
            text = ""
            if raw is TOO_LONG:
                error = f"longer than {MAX_LINE:,} bytes"
            else:
                try:
                    text = _text_line(raw).strip()
                except HandError as e:
                    error = str(e)
            skipped = _skipped(text) if error is None else None
            if skipped is not None:
                # A worker writing a blank line still gets its line of JSON.
                if args.json:
                    out.json_lines([out.json({**place, "skipped": skipped})])
                continue
            log = None
            if error is None:
                try:
                    log = _json(text, "a log line")
                except HandError as e:
                    error = str(e)
                except orjson.JSONDecodeError as e:
                    error = f"not JSON ({e})"
            header = error is None and isinstance(log, dict) and log.get("event") == "match"
            if header:
                assert isinstance(log, dict)
                if seen_header:
                    error = "a second match header"
                else:
                    seen_header = True
                    try:
                        match = play.MatchCheck(log, key)
                    except HandError as e:
                        error = f"match header: {e}"
                if error is None:
                    answer(
                        {**place, "match": True, "rules": log.get("rules"), "hands": log.get("hands")},
                        f"{at}: match header ({log.get('rules')}, {log.get('hands')} hands)",
                    )
                    continue
            # A header refused is a line that is no log, not a hand.
            hands += not header
            bad_headers += header
            if error is None and not (isinstance(log, list) and log and all(isinstance(e, dict) for e in log)):
                error = "not a log: a JSON list of event objects, the first the start"
            if error is not None:
                bad += 1
                answer({**place, "agrees": False, "error": f"{at}: {error}"}, f"{at}: bad input: {error}")
                continue
            assert isinstance(log, list) and raw is not None
            game, why = _replayed(log)
            if match is not None:
                belongs = match.hand(raw, log, game)
                why = why or belongs
            start = log[0]
            row = {**place, "rules": start.get("rules"), "seed": start.get("seed"), "agrees": why is None}
            if why is None:
                assert game is not None
                # A log may stop before its hand ends (a game saved as it was played).
                row["payments"] = None if game.result is None else list(game.result["payments"])
                played = "stops before its end" if game.result is None else f"payments {row['payments']}"
                text_row = f"{at}: agrees ({row['rules']}, seed {row['seed']}, {played})"
            else:
                differs += 1
                row["error"] = why
                text_row = f"{at}: DIFFERS: {why}"
            answer(row, text_row)
    except OSError as e:
        if e.filename is None:
            raise  # a write to standard output failed (the reader gone, a full disk): main says so
        return _error(f"cannot read {e.filename!r}: {e.strerror or e}")
    wrong_match = 0
    if key is not None and not seen_header:
        wrong_match += 1
        answer({"match": False, "error": "no match header to check the key with"}, "no match header: NOT AUTHENTICATED")
    if match is not None:
        wrong = match.finish()
        wrong_match += len(wrong)
        proved = "; authenticated with the key" if key is not None and not wrong else ""
        for w in wrong:
            answer({"match": False, "error": w}, f"DIFFERS: {w}")
        if not wrong:
            answer({"match": True, "agrees": True, "authenticated": key is not None}, f"match agrees{proved}")
    if not args.json:
        agree = hands - differs - (bad - bad_headers)
        print(f"{agree} of {hands} hands agree" + (f"; {bad} lines are no log" if bad else ""))
    if bad:
        return EXIT_BAD_INPUT
    return EXIT_DIFFERS if differs or wrong_match else EXIT_OK


def _replay_html(args: argparse.Namespace) -> int:
    """``haidi replay --html OUT``: the logs as one page (``haidi.viewer``)."""
    from . import viewer

    if args.key_file:
        return _error("--html does not check the header's HMAC: run haidi replay --key-file on the log first")
    # The files' text as one (its size in memory, not an object a line), and the line
    # of the whole before each file's first.
    text = io.StringIO()
    starts: list[tuple[int, str | None]] = []
    count = 0
    try:
        for file, n, raw in _log_lines(args):
            if n == 1:
                starts.append((count, file))
            try:
                text.write(_text_line(raw) + "\n")
            except HandError as e:
                # Named by its line, as the page's reader names the others.
                raise HandError(f"{_line_place(file, n)[0]}: {e}") from None
            count += 1
        try:
            page = viewer.page(text.getvalue(), analysis=args.analysis)
        except HandError as e:
            # The reader numbers the lines of all the files together: named by its file.
            m = re.match(r"line (\d+): (.*)", str(e), re.S)
            if m is None or not starts:
                raise
            line = int(m[1])
            before, file = next((s for s in reversed(starts) if s[0] < line), starts[0])
            raise HandError(f"{_line_place(file, line - before)[0]}: {m[2]}") from None
        for name in args.logs or ():
            if name != "-" and os.path.exists(args.html) and os.path.samefile(name, args.html):
                raise HandError(f"--html: {args.html!r} is a log read: the page would replace it")
    except OSError as e:
        return _error(f"cannot read {e.filename!r}: {e.strerror or e}")
    except HandError as e:
        return _error(e)
    try:
        # Readable by haidi's user alone, as the log is (the page holds every hand and
        # seed); a link put in the page's place is not followed.
        fd = os.open(args.html, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        os.fchmod(fd, 0o600)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        # A file haidi writes that cannot be written: 4, as for analyze --html.
        print(f"haidi: error: cannot write {args.html!r}: {e.strerror or e}", file=sys.stderr)
        return EXIT_WRITE_FAILED
    return EXIT_OK


def _replayed(log: list[Any]) -> tuple[Any, str | None]:
    """``Game.replay(log)``, or why it is refused."""
    from .game import Game

    try:
        return Game.replay(log), None
    except HandError as e:
        return None, str(e)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
