"""Writes the reference page of each ruleset, docs/reference/<ruleset>.md, from the
ruleset's data: its situation keys (``KEYS`` and ``KEY_DOCS`` of its module), its options
(``OPTIONS``), its result keys (its type in ``haidi.results``, with the docstring of each
key), its patterns, and links to the readings of its rules in docs/.

    python scripts/reference_pages.py          # rewrite the pages
    python scripts/reference_pages.py --check  # exit 1 if a page is out of date

The test suite runs the check, so a page cannot fall behind the code: the pages are
written by this script alone.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path
from typing import Any

import haidi
from haidi.rulesets._scheme import REQUIRED, key_rows

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "reference"
RESULTS = ROOT / "python" / "haidi" / "results.py"

#: The readings of each ruleset's rules in docs/, with what each holds.
READINGS = {
    "mcr": [
        ("mcr-fans.md", "the 81 fans, their exclusions and the rulings where the list is silent"),
        ("mcr-differences.md", "haidi against PyMahjongGB, and the 明暗杠 ruling"),
        ("mcr-speed.md", "where a situation's time goes"),
    ],
    "changsha": [("changsha.md", "the readings of the seed, the payment table and the birds")],
    "hainan": [("hainan.md", "the 11 番, seats and flowers, payments, 连庄, 截胡 and 包牌")],
    "longgang": [("longgang.md", "胡数, 台 and the 300 cap, and every reading of the text's lines")],
    "tangshan": [("tangshan.md", "混, the 番 table, 中发白 sets and the settlement")],
    "beijing": [("beijing.md", "the jumbled text reconstructed, the 番 and the settlement")],
}
#: Readings every ruleset shares.
SHARED = [
    ("../scoring.md", "one result shape, how options travel, batches, strict input"),
    ("../engine.md", "what counts as a wait, shanten and wilds"),
    ("../rulesets.md", "the readings of the seed texts, ruleset by ruleset"),
]

HEADER = "<!-- Written by scripts/reference_pages.py from the ruleset's data; do not edit by hand. -->"


def _code(v: Any) -> str:
    if v is REQUIRED:
        return "required"
    if isinstance(v, tuple):
        return "`()`" if not v else " ".join(f"`{x!r}`" for x in v)
    return f"`{v!r}`"


def _md(text: str) -> str:
    """Docstring text as markdown on one line: ``code`` and :class:`X` as `code`."""
    text = re.sub(r":\w+:`([^`]+)`", r"`\1`", text)
    text = " ".join(text.replace("``", "`").split())
    if "|" in text:
        # A pipe splits a table cell on GitHub, even inside a code span.
        raise ValueError(f"a table cell cannot hold '|': {text!r}")
    return text


def _type(annotation: str) -> str:
    """A type as a table cell: no ``|``, which would split the cell."""
    return f"`{annotation.replace(' | ', ' or ')}`".replace("` or `", " or ")


def _classes() -> dict[str, tuple[list[str], list[tuple[str, str, str]], str]]:
    """The classes of results.py: bases, fields ``(name, type, docstring)``, docstring."""
    tree = ast.parse(RESULTS.read_text(encoding="utf-8"))
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields = []
        body = node.body
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                nxt = body[i + 1] if i + 1 < len(body) else None
                doc = ""
                if (
                    isinstance(nxt, ast.Expr)
                    and isinstance(nxt.value, ast.Constant)
                    and isinstance(nxt.value.value, str)
                ):
                    doc = nxt.value.value
                fields.append((stmt.target.id, ast.unparse(stmt.annotation), doc))
        out[node.name] = ([ast.unparse(b) for b in node.bases], fields, ast.get_docstring(node) or "")
    return out


def fields(name: str, classes: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """Every key of a result class, its bases' first, with its type and docstring."""
    classes = classes or _classes()
    bases, own, _ = classes[name]
    out: list[tuple[str, str, str]] = []
    for b in bases:
        if b in classes and not b.startswith("_"):
            out += fields(b, classes)
    out += own
    # A private base holds the keys a result has only at times (``excluded``): listed last.
    for b in bases:
        if b in classes and b.startswith("_"):
            out += fields(b, classes)
    return out


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *("| " + " | ".join(r) + " |" for r in rows)]


def options_table(rs: haidi.Ruleset[Any]) -> list[str]:
    keys = set(getattr(rs.module, "OPTION_KEYS", ()))
    rows = []
    for o in rs.module.OPTIONS:
        if o.choices is not None:
            values = ("any of " if isinstance(o.default, tuple) else "") + ", ".join(_code(c) for c in o.choices)
        elif isinstance(o.default, bool):
            values = "`True`, `False`"
        elif isinstance(o.default, int):
            values = f"{o.low if o.low is not None else 0} to {o.high if o.high is not None else 10**6}"
        else:
            values = type(o.default).__name__
        acts = {"evaluate": "`evaluate`", "settle": "`settle`", "both": "both"}[o.acts]
        also = " Also a situation key." if o.name in keys else ""
        rows.append([f"`{o.name}`", _code(o.default), values, acts, f"{_md(o.doc)}.{also}"])
    return _table(["option", "default", "values", "acts on", "what it does"], rows)


def _forms(spec: Any) -> str:
    names = {
        "seven_pairs": "seven pairs (七对)",
        "eight_pairs_and_a_half": "eight pairs and a half (八对半)",
        "thirteen_orphans": "thirteen orphans (十三幺)",
        "honours_and_knitted": "honours and knitted tiles (全不靠)",
        "knitted_straight": "knitted straight (组合龙)",
        "all_pungs_any_pair": "all pungs with any pair (碰碰胡)",
        "one_suit_any_pair": "one suit with any pair (清一色)",
        "all_258": "every tile 2, 5 or 8 (将将胡)",
    }
    pair = f", the pair one of `{spec.forms['pair_kinds']}`" if "pair_kinds" in spec.forms else ""
    out = [f"standard (melds and a pair{pair})"]
    out += [v for k, v in names.items() if spec.forms.get(k)]
    return ", ".join(out)


def page(rules: str) -> str:
    """The reference page of ``rules``, in markdown."""
    rs = haidi.ruleset(rules)
    spec = rs.spec
    classes = _classes()
    result, fan = haidi.results.RESULT_TYPES[rules]
    tiles = haidi.Hand(spec.tiles).concealed
    flowers = f"`{spec.flowers}`" if spec.flowers else "none"
    lines = [
        HEADER,
        "",
        f"# {spec.title}",
        "",
        f'`haidi.ruleset("{rules}")`. A hand waiting for its last tile holds {spec.hand_size} tiles',
        f"({spec.melds} melds and a pair when complete). Tiles: `{tiles}`. Flowers: {flowers}.",
        f"Wild tiles: {'yes' if spec.has_wilds else 'none'}. Forms that complete a hand: {_forms(spec)}.",
        "",
        "Readings of the rules, each with the source lines it rests on:",
        "",
        *(f"- [{p}](../{p}): {what}" for p, what in READINGS[rules]),
        *(f"- [{p.removeprefix('../')}]({p}): {what}" for p, what in SHARED),
        "",
        "## Situation keys",
        "",
        "The keywords of `evaluate`, the keys of a situation dict or column of `evaluate_many`, of a",
        f"JSON line of `haidi eval --rules {rules} --jsonl` and of `analyze`'s situation (`hand` and `win`",
        "aside). Every value is read strictly: a flag is `True` or `False`, never text or a number;",
        "an unknown key raises `HandError` naming it.",
        "",
    ]
    rows = [[f"`{r.name}`", _md(r.takes), _code(r.default), _md(r.meaning) + "."] for r in key_rows(rs.module)]
    lines += _table(["key", "takes", "default", "meaning"], rows)
    lines += [
        "",
        "## Options",
        "",
        "One table, taken by `evaluate`, `evaluate_many` and `settle` alike as `options={...}`;",
        "`ruleset.options()` returns the defaults, `ruleset.options(given)` the defaults with `given`",
        "applied. An unknown name, a wrong type or a value outside the choices raises `HandError`.",
        "",
        *options_table(rs),
        "",
        "## Result keys",
        "",
        f"`evaluate` returns an immutable `haidi.Result` (read by attribute or key; `to_dict()` gives plain"
        f" dicts), typed as `haidi.results.{result.__name__}`. {_md(classes[result.__name__][2])}",
        "",
    ]
    lines += _table(
        ["key", "type", "meaning"], [[f"`{n}`", _type(t), _md(d)] for n, t, d in fields(result.__name__, classes)]
    )
    lines += [
        "",
        f"Each entry of `fans` (a `haidi.Fan`, immutable and shared, typed as `haidi.results.{fan.__name__}`):",
        "",
        *_table(
            ["key", "type", "meaning"], [[f"`{n}`", _type(t), _md(d)] for n, t, d in fields(fan.__name__, classes)]
        ),
        "",
        "Each entry of `groups` (a `haidi.Group`, immutable, typed as `haidi.results.Group`):",
        "",
        *_table(["key", "type", "meaning"], [[f"`{n}`", _type(t), _md(d)] for n, t, d in fields("Group", classes)]),
        "",
        "## Patterns",
        "",
    ]
    if rs.scheme is None:
        lines += [
            "The 81 fans, numbered as in the list, with their points and exclusions:",
            "[mcr-fans.md](../mcr-fans.md). `fans` columns of `evaluate_many` on columns are indexed by fan",
            "id, column 0 the optional 明暗杠.",
        ]
    else:
        data = rs.module.scheme(rs.options())
        lines += [
            "The ids name the columns of `fans` in `evaluate_many` on columns (`ruleset.fan_ids`), in this",
            "order. `value` is what a pattern is worth each time it counts.",
            "",
        ]
        rows = [
            [f"`{p['id']}`", p["entry"]["name"], _md(p["entry"]["name_en"]), str(p["value"])] for p in data["patterns"]
        ]
        lines += _table(["id", "name", "English", "value"], rows)
        if any(o.name == "optional" for o in rs.module.OPTIONS):
            lines += ["", "The optional patterns are scored only when the option `optional` names them."]
    lines += [
        "",
        "## Module",
        "",
        f"`haidi.rulesets.{rules}`: the outcome record of `settle` and the ruleset's own functions.",
        "",
        f"::: haidi.rulesets.{rules}",
        "    options:",
        "      show_root_heading: false",
        "      members: [settle]",
        "",
    ]
    return "\n".join(lines)


def stale() -> list[str]:
    """The pages that differ from what the code writes (or are missing)."""
    out = []
    for rules in haidi.RULESETS:
        path = PAGES / f"{rules}.md"
        if not path.exists() or path.read_text(encoding="utf-8") != page(rules):
            out.append(f"reference/{rules}.md")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="only check; exit 1 if a page is out of date")
    a = p.parse_args(argv)
    if a.check:
        pages = stale()
        for name in pages:
            print(f"docs/{name} is out of date: python scripts/reference_pages.py")
        return int(bool(pages))
    PAGES.mkdir(exist_ok=True)
    for rules in haidi.RULESETS:
        (PAGES / f"{rules}.md").write_text(page(rules), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
