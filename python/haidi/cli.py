"""The ``haidi`` command.

    haidi waits 1112345678999m            # what a ready hand waits on
    haidi shanten 123m456p789s1z2z3z4z    # tiles from ready
    haidi decompose 11123455678999m       # every arrangement of a complete hand
    haidi analyze 123m456m78p11s5z[567s]  # each discard: shanten, useful tiles, winning waits
    haidi eval 123m456p789s1122z --win 1z --self-drawn   # MCR fans of a win
    haidi eval --rules mcr --jsonl < situations.jsonl     # one JSON result a line
    haidi reproduce                       # the Longgang text's published wait tables, recomputed

Hands come as arguments, or one a line on standard input when none are given (or
``-``). ``--json`` prints one JSON object a hand. Bad input goes to standard error and
the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ._core import HandError, __version__, tile_glyph
from .ruleset import Ruleset, ruleset
from .rulesets import REGISTRY

EXIT_BAD_INPUT = 2


def _hands(args: argparse.Namespace) -> Iterator[str]:
    hands = args.hands or ["-"]
    for h in hands:
        if h == "-":
            for line in sys.stdin:
                line = line.strip()
                if line and not line.startswith("#"):
                    yield line
        else:
            yield h


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
        text = f"{hand}: {' '.join(waits)}  {_glyphs(waits)}  ({kinds})"
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
    arrs = rs.decompose(hand, args.wild, format=args.format, limit=args.limit + 1)
    more = len(arrs) > args.limit
    arrs = arrs[: args.limit]
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


def _analyze(rs: Ruleset, hand: str, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    situation: dict[str, Any] = {"self_drawn": True} if args.self_drawn else {}
    situation.update(dict(_key_value(kv) for kv in args.set or []))
    entries = rs.analyze(hand, args.visible, args.wild, format=args.format, scoring=args.scoring, **situation)
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


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
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
    except HandError as e:
        print(f"haidi: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    # Only what was asked for is passed on: each ruleset has its own situation keys.
    options: dict[str, Any] = {"concealed_and_melded_kong": True} if args.mingangang else {}
    if args.jsonl:
        if args.hand:
            print("haidi: error: --jsonl reads situations from stdin; give no HAND", file=sys.stderr)
            return EXIT_BAD_INPUT
        for line in _lines(sys.stdin):
            if line is not None:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
            try:
                if line is None:
                    raise HandError(f"a line is longer than {MAX_LINE:,} characters")
                sit = _json(line, "a line")
                if not isinstance(sit, dict):
                    raise ValueError("a situation must be a JSON object")
                sit.setdefault("format", args.format)
                out: dict[str, Any] = rs.evaluate(**sit, **options)
            except (HandError, ValueError, TypeError, NotImplementedError) as e:
                out = {"error": str(e)}
            print(json.dumps(out, ensure_ascii=False), flush=False)
        sys.stdout.flush()
        return 0
    if not args.hand:
        print("haidi: error: give a HAND (or --jsonl)", file=sys.stderr)
        return EXIT_BAD_INPUT
    situation: dict[str, Any] = {"hand": args.hand, "win": args.win, "format": args.format}
    given = {"seat_wind": args.seat, "round_wind": args.round, "flowers": args.flowers, "wilds": args.wild}
    situation.update({k: v for k, v in given.items() if v is not None})
    situation.update({k: True for k in (*_FLAGS, "explain") if getattr(args, k)})
    try:
        situation.update(dict(_key_value(kv) for kv in args.set or []))
        r = rs.evaluate(**situation, **options)
    except (HandError, NotImplementedError, TypeError) as e:
        print(f"haidi: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    describe = getattr(rs.module, "describe", None)
    if args.json:
        print(json.dumps(r, ensure_ascii=False))
    elif describe is not None:
        print(describe(r, situation))
    else:
        print(_fan_table(args.hand, args.win or "", r))
    return 0


#: The longest line ``--jsonl`` reads (characters), and the deepest nesting of a JSON
#: value it takes (a situation is two levels deep at most: a list of wilds in an object).
MAX_LINE = 1 << 20
MAX_DEPTH = 16


def _lines(stream: Any) -> Iterator[str | None]:
    """The lines of ``stream``, each read to at most ``MAX_LINE`` characters: a longer line
    is skipped to its end and given as None, so that no line can fill the memory."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while True:
                rest = stream.readline(MAX_LINE)
                if not rest or rest.endswith("\n"):
                    break
            yield None
            continue
        yield line


def _depth(v: Any) -> int:
    if isinstance(v, dict):
        return 1 + max(map(_depth, v.values()), default=0)
    if isinstance(v, list):
        return 1 + max(map(_depth, v), default=0)
    return 0


def _json(text: str, what: str) -> Any:
    """``text`` read as JSON, nested at most ``MAX_DEPTH`` deep."""
    try:
        v = json.loads(text)
        deep = _depth(v) > MAX_DEPTH
    except RecursionError:
        deep = True
    if deep:
        raise HandError(f"{what} is nested more than {MAX_DEPTH} deep")
    return v


def _key_value(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it is JSON (numbers, true, lists ...)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise HandError(f"--set takes KEY=VALUE, not {text[:40]!r}")
    try:
        return key, _json(value, f"--set {key[:40]}")
    except json.JSONDecodeError:
        return key, value


def _flowers(text: str) -> int | str:
    """A number of flowers (MCR) or the flower tiles held (``13f``)."""
    return int(text) if text.isdigit() else text


def _add_format(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--format",
        "-f",
        default="compact",
        choices=["compact", "comh"],
        help="hand notation (comh: ChineseOfficialMahjongHelper strings)",
    )


def _add_eval(sub: Any) -> None:
    help_text = "score a win under a ruleset; --jsonl scores one JSON situation a line from stdin"
    sp = sub.add_parser("eval", help=help_text, description=help_text)
    sp.add_argument("hand", nargs="?", metavar="HAND", help="the hand without the winning tile")
    sp.add_argument("--win", metavar="TILE", help="the winning tile, e.g. 5p")
    sp.add_argument("--self-drawn", dest="self_drawn", action="store_true", help="自摸")
    sp.add_argument("--seat", choices=list("ESWN"), help="seat wind (门风; default E, the dealer)")
    sp.add_argument("--round", choices=list("ESWN"), help="prevalent wind (圈风; default E)")
    sp.add_argument("--flowers", type=_flowers, help="flowers held: a number (MCR) or tiles such as 13f")
    sp.add_argument("--wild", "-w", action="append", metavar="TILE", help="a wild tile kind (repeatable)")
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
    sp.add_argument("--rules", "-r", default="mcr", choices=list(REGISTRY), help="ruleset (default: mcr)")
    _add_format(sp)
    sp.add_argument("--json", action="store_true", help="print the result as JSON")
    sp.add_argument(
        "--jsonl",
        action="store_true",
        help=f"read JSON situations from stdin, one a line (at most {MAX_LINE:,} characters, "
        f"nested at most {MAX_DEPTH} deep)",
    )
    sp.add_argument("--explain", action="store_true", help="list the fans not counted and why")
    sp.add_argument(
        "--mingangang",
        action="store_true",
        help="score 明暗杠 (5) for a concealed and a melded kong, as ChineseOfficialMahjongHelper",
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="haidi", description="Chinese mahjong hands: waits, shanten, arrangements.")
    p.add_argument("--version", action="version", version=f"haidi {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.add_argument(
            "hands",
            nargs="*",
            metavar="HAND",
            help="e.g. 123m456p11z[789s]{1111z}; none or '-' reads one a line from stdin",
        )
        sp.add_argument(
            "--rules",
            "-r",
            default="mcr",
            choices=list(REGISTRY),
            help="ruleset: hand size and hand forms (default: mcr)",
        )
        sp.add_argument("--wild", "-w", action="append", metavar="TILE", help="a wild tile kind, e.g. 5z (repeatable)")
        _add_format(sp)
        sp.add_argument("--json", action="store_true", help="print one JSON object a hand")
        if name == "waits":
            sp.add_argument(
                "--winning",
                action="store_true",
                help="only waits that score a win under the ruleset's scoring (on a discard unless --self-drawn)",
            )
            sp.add_argument("--self-drawn", dest="self_drawn", action="store_true", help="with --winning: 自摸")
        if name == "analyze":
            sp.add_argument(
                "--visible", "-v", metavar="TILES", help="tiles seen elsewhere (discards, melds), e.g. 19m5z"
            )
            sp.add_argument(
                "--self-drawn", dest="self_drawn", action="store_true", help="score the waits as self-drawn (自摸)"
            )
            sp.add_argument("--scoring", action="store_true", help="add the draws to a ready hand with a winning wait")
            sp.add_argument(
                "--set",
                action="append",
                metavar="KEY=VALUE",
                help="any other situation key of the ruleset (VALUE read as JSON when it parses)",
            )
        if name == "decompose":
            sp.add_argument("--limit", type=_positive, default=100, help="at most this many arrangements (default 100)")
    _add_eval(sub)
    rp = sub.add_parser(
        "reproduce",
        help="recompute the published wait tables (附二-附五) by enumerating every hand",
        description="Enumerate every one-suit (清一色) and honours (字一色) hand and compare with the "
        "figures published in the Longgang text's 附二 to 附五 (附六 is garbled and left out).",
    )
    rp.add_argument("--json", action="store_true", help="print one JSON document")
    rp.add_argument("--list", action="store_true", help="also print the 张张可胡 hands with their waits")
    rp.add_argument("--tiles", type=int, default=None, metavar="N", help="every figure for N-tile hands instead")
    rp.add_argument("--honours", action="store_true", help="with --tiles: honours-only hands (default 13 tiles)")
    rp.add_argument("--plot", metavar="FILE.png", help="draw the 13- and 16-tile distributions of waiting kinds")
    rp.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    return p


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


def reproduce_main(args: argparse.Namespace) -> int:
    from . import reproduce

    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _error("--plot needs matplotlib: pip install 'haidi[plot]'")
    progress = None
    if not args.quiet and sys.stderr.isatty():

        def progress(message: str) -> None:
            print(f"... {message}", file=sys.stderr, flush=True)

    try:
        result = reproduce.run(args.tiles, args.honours, progress)
    except HandError as e:
        return _error(e)
    if args.plot:
        full = result if 13 in result.distributions and 16 in result.distributions else reproduce.run()
        pub = {r["id"]: r["published"] for r in full.rows if r["published"] is not None}
        _plot(args.plot, full.distributions, pub)
    if args.json:
        doc: dict[str, Any] = {"figures": result.rows, "omitted": reproduce.OMITTED}
        if args.list:
            doc["lists"] = result.lists
        print(json.dumps(doc, ensure_ascii=False, indent=1))
        return 0
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


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`haidi ... | head`): stop quietly, as shell tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "eval":
        return _eval(args)
    if args.command == "reproduce":
        return reproduce_main(args)
    run, _ = COMMANDS[args.command]
    status = 0
    try:
        rs = ruleset(args.rules)
    except HandError as e:
        print(f"haidi: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for hand in _hands(args):
        try:
            obj, text = run(rs, hand, args)
        except HandError as e:
            print(f"haidi: error: {e}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        print(json.dumps(obj, ensure_ascii=False) if args.json else text)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
