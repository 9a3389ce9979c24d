"""The ``haidi`` command.

    haidi waits 1112345678999m            # what a ready hand waits on
    haidi shanten 123m456p789s1z2z3z4z    # tiles from ready
    haidi decompose 11123455678999m       # every arrangement of a complete hand

Hands come as arguments, or one a line on standard input when none are given (or
``-``). ``--json`` prints one JSON object a hand. Bad input goes to standard error and
the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Callable

from ._core import HandError, tile_glyph
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
    waits = rs.waits(hand, args.wild, format=args.format)
    if not waits:
        text = f"{hand}: no waits (not ready; shanten {rs.shanten(hand, args.wild, format=args.format)})"
    else:
        text = f"{hand}: {' '.join(waits)}  {_glyphs(waits)}  ({len(waits)} kinds)"
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


COMMANDS: dict[str, tuple[Callable[[Ruleset, str, argparse.Namespace], tuple[dict[str, Any], str]], str]] = {
    "waits": (_waits, "the tile kinds that complete a hand one tile short"),
    "shanten": (_shanten, "how many tiles a hand is from ready (-1 complete, 0 ready)"),
    "decompose": (_decompose, "every arrangement of a complete hand"),
}


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="haidi", description="Chinese mahjong hands: waits, shanten, arrangements.")
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
        sp.add_argument(
            "--format",
            "-f",
            default="compact",
            choices=["compact", "comh"],
            help="hand notation (comh: ChineseOfficialMahjongHelper strings)",
        )
        sp.add_argument("--json", action="store_true", help="print one JSON object a hand")
        if name == "decompose":
            sp.add_argument("--limit", type=_positive, default=100, help="at most this many arrangements (default 100)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
