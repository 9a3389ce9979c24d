"""The published wait tables of the Longgang text (附二 to 附五), recomputed.

Every hand of one suit (清一色) or of the honours (字一色) is enumerated in Rust with the
core engine; this module puts haidi's values next to the figures the text publishes.

>>> from haidi import reproduce
>>> rows = reproduce.figures()
>>> next(r for r in rows if r["id"] == "zz13_total")["haidi"]
9

The counting conventions, and where no convention reproduces the text, are in
``docs/reproduce.md``. The published figures ship in ``haidi/data/published_tables.json``;
the ``haidi`` column is always computed, never read from there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from . import _core
from ._core import HandError
from ._errors import flag, shown

__all__ = [
    "OMITTED",
    "Reproduction",
    "every_tile_wins",
    "figures",
    "published",
    "run",
]

#: Why 附六 is not in the table.
OMITTED = (
    "附六 (16张麻将概率表, a probability table) is left out: it is garbled in the source "
    "(four columns announced, one number a row, leading digits lost)."
)

Progress = Callable[[str], None] | None


@lru_cache(maxsize=1)
def _published() -> tuple[dict[str, Any], ...]:
    text = resources.files("haidi").joinpath("data/published_tables.json").read_text(encoding="utf-8")
    return tuple(json.loads(text)["figures"])


def published() -> list[dict[str, Any]]:
    """The published figures of 附二 to 附五 (without 附六), in the text's order.

    Returns:
        dicts with ``id``, ``section``, ``description_en``, ``quote``, ``published`` and,
        for lower bounds, ``bound: "at_least"``.
    """
    return [dict(f) for f in _published() if f["family"] != "omitted"]


def _match(value: int, fig: dict[str, Any] | None) -> bool | None:
    if fig is None or fig.get("published") is None:
        return None
    if fig.get("bound") == "at_least":
        return value >= fig["published"]
    return value == fig["published"]


_DESCRIPTIONS = [
    (r"ready(\d+)_hands", "{0}-tile hands"),
    (r"ready(\d+)_any", "{0}-tile hands ready in either form (全听)"),
    (r"ready(\d+)_none", "{0}-tile hands not ready (无听)"),
    (r"ready(\d+)_standard", "{0}-tile hands ready in the standard form (标准听)"),
    (r"ready(\d+)_pairs", "{0}-tile hands ready in the pairs form (七对 / 八对半)"),
    (r"ready(\d+)_pairs_distinct", "{0}-tile pairs-form ready hands, every kind used once (相异)"),
    (r"ready(\d+)_composite", "{0}-tile hands ready in both forms (复合)"),
    (r"ready(\d+)_composite_same_wait", "{0}-tile hands with a wait that completes both forms"),
    (r"ready(\d+)_every_tile_wins", "{0}-tile 张张可胡 hands"),
    (r"waits(\d+)_any_(\d+)", "{0}-tile hands with {1} waiting kinds (both forms)"),
    (r"waits(\d+)_standard_(\d+)", "{0}-tile hands with {1} standard-form waiting kinds"),
    (r"zz(\d+)_waits(\d+)", "{0}-tile 张张可胡 hands with {1} waits"),
    (r"zz(\d+)_waits(\d+)_physical", "their physical tile sets (牌姿组合式)"),
    (r"zz(\d+)_total", "{0}-tile 张张可胡 hands"),
    (r"zz(\d+)_physical_total", "their physical tile sets (牌姿组合式)"),
    (r"zz(\d+)_with_kongs", "{0}-tile 张张可胡 hands with declared kongs"),
    (r"kongs(\d+)_ready", "{0}-tile hands with declared kongs, ready (含杠听)"),
    (r"kongs(\d+)_complete", "{0}-tile hands with declared kongs, complete (含杠胡)"),
    (r"complete(\d+)_hands", "{0}-tile hands"),
    (r"complete(\d+)_any", "{0}-tile hands complete in either form (全胡)"),
    (r"complete(\d+)_none", "{0}-tile hands not complete (无胡)"),
    (r"complete(\d+)_standard", "{0}-tile hands complete in the standard form (标准胡)"),
    (r"complete(\d+)_pairs", "{0}-tile hands complete in the pairs form"),
    (r"complete(\d+)_pairs_distinct", "{0}-tile pairs-form complete hands, every kind used once (相异)"),
    (r"complete(\d+)_composite", "{0}-tile hands complete in both forms (复合)"),
    (r"honours(\d+)_ready_hands", "{0}-tile honours hands"),
    (r"honours(\d+)_ready_no_kong", "{0}-tile honours hands ready, no kong (无杠全听)"),
    (r"honours(\d+)_ready_none", "{0}-tile honours hands not ready"),
    (r"honours(\d+)_ready_standard", "{0}-tile honours hands ready in the standard form"),
    (r"honours(\d+)_ready_pairs", "{0}-tile honours hands ready in the pairs form"),
    (r"honours(\d+)_ready_composite", "{0}-tile honours hands ready in both forms"),
    (r"honours(\d+)_ready_with_kongs", "{0}-tile honours hands with declared kongs, ready (含杠听)"),
    (r"honours(\d+)_ready_total", "{0}-tile honours ready hands, with and without kongs"),
    (r"honours(\d+)_waits_any_(\d+)", "{0}-tile honours hands with {1} waiting kinds"),
    (r"honours(\d+)_complete_hands", "{0}-tile honours hands"),
    (r"honours(\d+)_complete_no_kong", "{0}-tile honours hands complete, no kong"),
    (r"honours(\d+)_complete_standard", "{0}-tile honours hands complete in the standard form"),
    (r"honours(\d+)_complete_pairs", "{0}-tile honours hands complete in the pairs form"),
    (r"honours(\d+)_complete_composite", "{0}-tile honours hands complete in both forms"),
    (r"honours(\d+)_complete_with_kongs", "{0}-tile honours hands with declared kongs, complete (含杠胡)"),
    (r"honours(\d+)_complete_total", "{0}-tile honours complete hands, with and without kongs"),
]


def _describe(fid: str) -> str:
    for pattern, text in _DESCRIPTIONS:
        m = re.fullmatch(pattern, fid)
        if m:
            return text.format(*m.groups())
    return fid


def _row(fid: str, value: int, fig: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": fid,
        "section": fig["section"] if fig else None,
        "description": fig["description_en"] if fig else _describe(fid),
        "quote": fig["quote"] if fig else None,
        "published": fig["published"] if fig else None,
        "bound": fig.get("bound") if fig else None,
        "haidi": value,
        "match": _match(value, fig),
        "closest_reading": fig.get("closest_reading") if fig else None,
    }


@dataclass
class Reproduction:
    """One run of the enumeration.

    Attributes:
        rows: one dict a figure (see :func:`figures`).
        lists: the listed hands (张张可胡 and others) by name, each a list of dicts with
            ``hand`` in the text's notation and ``waits``.
        distributions: hands by number of waiting kinds, by hand size: ``waits_any``
            (both forms) and ``waits_standard`` (standard form), indexed by the count.
    """

    rows: list[dict[str, Any]]
    lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    distributions: dict[int, dict[str, list[int]]] = field(default_factory=dict)


def run(tiles: int | None = None, honours: bool = False, progress: Progress = None) -> Reproduction:
    """Enumerates the hands and compares with the published figures.

    Args:
        tiles: a hand size; None reproduces every published figure of 附二 to 附五.
        honours: with ``tiles``, enumerate honours-only hands instead of one suit.
        progress: called with a short message before each stage.

    Raises:
        haidi.HandError: for a hand size the engine cannot count (0, 15, above 16).
    """
    honours = flag(honours, "honours")
    if progress is not None and not callable(progress):
        raise HandError(f"progress is a function called with each stage's message, not {shown(progress)}")
    by_id = {f["id"]: f for f in published()}
    if tiles is None and not honours:
        out = _core.reproduce_published(progress)
        values = out["values"]
        rows = [_row(f["id"], values[f["id"]], f) for f in published()]
        s16, s13 = out["tables"][0], out["tables"][1]
        lists = {
            "13-tile 张张可胡": s13["every_tile_wins"],
            "16-tile 张张可胡": s16["every_tile_wins"],
            "13-tile 张张可胡 with kongs": s13["every_tile_wins_with_kongs"],
            "16-tile 张张可胡 with kongs": s16["every_tile_wins_with_kongs"],
            "16-tile 清四杠刻 (ready, only four-of-a-kinds)": s16["quads_only"],
        }
        tables = [s13, s16]
    else:
        n = 13 if tiles is None else tiles
        if progress:
            progress(f"{n}-tile {'honours' if honours else 'one-suit'} hands")
        t = _core.reproduce_table(n, honours)
        rows = [_row(fid, v, by_id.get(fid)) for fid, v in t["values"].items()]
        lists = {
            f"{n}-tile 张张可胡": t["every_tile_wins"],
            f"{n}-tile 张张可胡 with kongs": t["every_tile_wins_with_kongs"],
        }
        tables = [t]
    # The text lists hands by number of waits.
    lists = {name: sorted(hands, key=lambda h: (len(h["waits"]), h["hand"])) for name, hands in lists.items()}
    dists = {t["tiles"]: {"waits_any": t["waits_any"], "waits_standard": t["waits_standard"]} for t in tables}
    return Reproduction(rows, lists, dists)


def figures(tiles: int | None = None, honours: bool = False, progress: Progress = None) -> list[dict[str, Any]]:
    """haidi's value of every figure next to the published one.

    Args:
        tiles: a hand size; None gives the 105 published figures of 附二 to 附五.
        honours: with ``tiles``, honours-only hands.
        progress: called with a short message before each stage.

    Returns:
        one dict a figure: ``id``, ``section``, ``description``, ``quote``,
        ``published`` (None where the text has no such figure), ``bound``
        (``"at_least"`` for the text's "至少" figures), ``haidi`` (computed),
        ``match`` (True/False, None without a published value) and
        ``closest_reading`` (for mismatches: the reading that comes closest, see
        docs/reproduce.md).
    """
    return run(tiles, honours, progress).rows


def every_tile_wins(tiles: int | None = None, honours: bool = False) -> dict[str, list[dict[str, Any]]]:
    """The 张张可胡 hands (every remaining tile wins), in the text's notation, with waits.

    Returns:
        lists by name, e.g. ``"13-tile 张张可胡"``: dicts with ``hand``
        (``"1112345678999"``, kongs as ``[1111]``), ``waits``, ``standard_waits``,
        ``pairs_waits``.
    """
    return run(tiles, honours).lists
