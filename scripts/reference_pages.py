"""Writes each ruleset's options table into its page of docs/, from the ruleset's
``OPTIONS``, between the markers ``<!-- options -->`` and ``<!-- /options -->``.

    python scripts/options_tables.py          # rewrite the tables
    python scripts/options_tables.py --check  # exit 1 if a table is out of date

The test suite runs the check, so a table cannot fall behind the code.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import haidi

ROOT = Path(__file__).resolve().parent.parent
#: The page of docs/ that holds each ruleset's table.
PAGES = {
    "mcr": "mcr-fans.md",
    "changsha": "changsha.md",
    "hainan": "hainan.md",
    "longgang": "longgang.md",
    "tangshan": "tangshan.md",
    "beijing": "beijing.md",
}
BEGIN, END = "<!-- options -->", "<!-- /options -->"


def _value(v: object) -> str:
    if isinstance(v, tuple):
        return "`()`" if not v else " ".join(f"`{x}`" for x in v)
    return f"`{v!r}`" if isinstance(v, str) else f"`{v}`"


def table(rules: str) -> str:
    """The options table of ``rules``, in markdown."""
    rs = haidi.ruleset(rules)
    keys = set(getattr(rs.module, "OPTION_KEYS", ()))
    if rules == "mcr":
        keys.add("concealed_and_melded_kong")
    lines = [
        "| option | default | values | acts on | what it does |",
        "|---|---|---|---|---|",
    ]
    for o in rs.module.OPTIONS:
        if o.choices is not None:
            values = ("any of " if isinstance(o.default, tuple) else "") + ", ".join(_value(c) for c in o.choices)
        elif isinstance(o.default, bool):
            values = "`True`, `False`"
        elif isinstance(o.default, int):
            values = f"{o.low if o.low is not None else 0} to {o.high if o.high is not None else 10**6}"
        else:
            values = type(o.default).__name__
        acts = {"evaluate": "`evaluate`", "settle": "`settle`", "both": "both"}[o.acts]
        also = " Also a situation key." if o.name in keys else ""
        lines.append(f"| `{o.name}` | {_value(o.default)} | {values} | {acts} | {o.doc}.{also} |")
    return "\n".join(lines)


def rewrite(text: str, rules: str) -> str:
    block = f"{BEGIN}\n{table(rules)}\n{END}"
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"docs/{PAGES[rules]} has no {BEGIN} ... {END} markers")
    return pattern.sub(lambda _: block, text)


def stale() -> list[str]:
    """The pages whose table differs from the code."""
    out = []
    for rules, page in PAGES.items():
        path = ROOT / "docs" / page
        text = path.read_text(encoding="utf-8")
        if rewrite(text, rules) != text:
            out.append(page)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="only check; exit 1 if a table is out of date")
    a = p.parse_args(argv)
    if a.check:
        pages = stale()
        for page in pages:
            print(f"docs/{page}: the options table is out of date (python scripts/options_tables.py)")
        return int(bool(pages))
    for rules, page in PAGES.items():
        path = ROOT / "docs" / page
        path.write_text(rewrite(path.read_text(encoding="utf-8"), rules), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
