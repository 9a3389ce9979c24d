"""Hands and results as HTML, for notebooks.

A ``Hand`` shows itself in tile glyphs (``Hand._repr_html_``), and a result as its
arrangement in glyphs over a table of its fans (``Result._repr_html_``); ``haidi.html(x)``
gives the same HTML, which a notebook renders when it is a cell's value (and which is the
HTML text as a ``str`` anywhere else)::

    r = haidi.ruleset("mcr").evaluate(hand="123m456p789s11z55z", win="5z")
    haidi.html(r)
"""

from __future__ import annotations

import html as _html
from collections.abc import Iterable, Mapping
from typing import Any

from ._core import Hand, HandError, tile_glyph

__all__ = ["HTML", "html"]

#: Glyphs are small in most fonts.
_TILES_STYLE = "font-size:1.8em;line-height:1.3"
#: A declared meld: underlined, apart from the concealed tiles.
_MELD_STYLE = "margin-left:0.3em;border-bottom:2px solid currentColor"
#: A wild tile: shown as the kind it stands for, dotted underneath.
_WILD_STYLE = "border-bottom:2px dotted currentColor"


class HTML(str):
    """HTML text that a notebook shows rendered (it is a ``str`` otherwise)."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


class Page(HTML):
    """A whole HTML page (``str``); a notebook shows it in a frame of its own, so that its
    script and ids meet nothing else in the notebook."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        frame = _html.escape(str(self), quote=True)
        return f'<iframe srcdoc="{frame}" style="width:100%;height:760px;border:0" title="haidi replay"></iframe>'


def html(obj: Any) -> HTML:
    """``obj`` as HTML: a ``Hand`` (or its compact text) in tile glyphs, or a result of
    ``evaluate`` as its arrangement in glyphs, its fans in a table with the total, why it
    does not win where it does not, and the ruleset's other figures. Every text is
    escaped. A ``haidi.Game``, a ``Game.log`` or a list of them (a match) is a whole page
    stepping through each hand (``haidi.viewer``, docs/viewer.md), which a notebook shows
    in a frame."""
    from .game import Game

    if isinstance(obj, Game) or (isinstance(obj, list) and obj and isinstance(obj[0], (Mapping, list, Game))):
        from .viewer import page

        return Page(page(obj))
    if isinstance(obj, str):
        obj = Hand(obj)
    if isinstance(obj, Hand):
        return HTML(_hand(obj))
    if isinstance(obj, Mapping) and "win" in obj and "fans" in obj:
        # A result, or a dict of its shape (to_dict(), JSON read back): read as one, and
        # refused where it is not one rather than failing half-way.
        try:
            return HTML(_result(obj))
        except (AttributeError, KeyError, TypeError) as e:
            raise HandError(f"haidi.html: this dict is not a result of evaluate ({type(e).__name__}: {e})") from None
    raise HandError(
        f"haidi.html takes a Hand, its text, a result of evaluate, a Game or a log, not {type(obj).__name__}"
    )


def _e(value: Any) -> str:
    return _html.escape(str(value), quote=True)


def _glyphs(tiles: Iterable[str], wilds: Iterable[str] = ()) -> str:
    """Tile glyphs, each titled with its name; one tile of each kind in ``wilds`` is
    marked as a wild standing for it."""
    wild = list(wilds)
    out = []
    for t in tiles:
        if t in wild:
            wild.remove(t)
            out.append(f'<span title="{_e(t)} (wild)" style="{_WILD_STYLE}">{_e(tile_glyph(t))}</span>')
        else:
            out.append(f'<span title="{_e(t)}">{_e(tile_glyph(t))}</span>')
    return "".join(out)


def _tiles_of(text: str) -> list[str]:
    """The tiles of compact notation without brackets (``"123m55z"``), in order."""
    tiles, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            tiles += [d + ch for d in digits]
            digits = ""
    return tiles


def _hand(h: Hand) -> str:
    parts = [_glyphs(_tiles_of(h.concealed))]
    for m in h.melds:
        title = f"{m.kind} {m}"
        parts.append(f'<span class="haidi-meld" title="{_e(title)}" style="{_MELD_STYLE}">{_glyphs(m.tiles)}</span>')
    if h.flowers:
        parts.append(f'<span class="haidi-flowers" style="margin-left:0.3em">{_glyphs(h.flowers)}</span>')
    return f'<span class="haidi-hand" title="{_e(h)}" style="{_TILES_STYLE}">{"".join(parts)}</span>'


def _groups(groups: Iterable[Mapping[str, Any]]) -> str:
    parts = []
    for g in groups:
        meld = g.get("meld")
        title = g.get("kind", "") + (f" ({meld})" if meld else "")
        style = _MELD_STYLE if meld else "margin-left:0.3em"
        glyphs = _glyphs(g.get("tiles", ()), g.get("wilds", ()))
        parts.append(f'<span class="haidi-group" title="{_e(title)}" style="{style}">{glyphs}</span>')
    return "".join(parts)


#: Keys shown apart from the others.
_SHOWN = {"win", "total", "fans", "reason", "form", "arrangement", "groups", "excluded"}


def _result(r: Mapping[str, Any]) -> str:
    out = ['<div class="haidi-result">']
    if r.get("groups"):
        title = r.get("arrangement") or ""
        out.append(f'<div class="haidi-tiles" title="{_e(title)}" style="{_TILES_STYLE}">{_groups(r["groups"])}</div>')
    head = "win" if r["win"] else "no win"
    if r.get("form"):
        head += f", {r['form']}"
    out.append(f"<p><strong>{_e(head)}</strong></p>")
    if r.get("reason"):
        out.append(f'<p class="haidi-reason">{_e(r["reason"])}</p>')
    out.append('<table class="haidi-fans">')
    out.append("<thead><tr><th>fan</th><th></th><th>value</th><th>count</th></tr></thead><tbody>")
    for f in r["fans"]:
        names = f.get("name", "")
        out.append(
            f"<tr><td>{_e(names)}</td><td>{_e(f.get('name_en', ''))}</td>"
            f"<td>{_e(f.get('value', ''))}</td><td>{_e(f.get('count', ''))}</td></tr>"
        )
    out.append(f'</tbody><tfoot><tr><th colspan="2">total</th><td colspan="2">{_e(r["total"])}</td></tr></tfoot>')
    out.append("</table>")
    others = [(k, v) for k, v in r.items() if k not in _SHOWN and isinstance(v, (bool, int, float, str))]
    if others:
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in others)
        out.append(f'<table class="haidi-figures"><tbody>{rows}</tbody></table>')
    out.append("</div>")
    return "".join(out)
