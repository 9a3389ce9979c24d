#!/usr/bin/env python3
"""PyMahjongGB as a peer scorer for haidi's MCR (Chinese Official, 国标) ruleset.

This module converts hands between three notations, generates random winning
situations and scores them with PyMahjongGB (``pip install PyMahjongGB``, the
Python wrapper of ChineseOfficialMahjongHelper, "COMH"), so that haidi's own
scorer can be checked against it.

    python scripts/mcr_peer.py cases [FILE]         # the public fan/ting cases
    python scripts/mcr_peer.py random N [--seed S]  # JSONL: situation + peer fans
    python scripts/mcr_peer.py selftest             # generator + converters
    python scripts/mcr_peer.py exclusions [--n N]   # data.rs exclusions vs peer

PyMahjongGB API (version 1.4.0, read from its installed module and sdist)
==========================================================================
Module ``MahjongGB`` (a C extension; ``import MahjongGB``), seven functions:

``MahjongFanCalculator(pack, hand, winTile, flowerCount, isSelfDrawn,
is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind, verbose=False)``
    Positional or keyword, in exactly this order; all but ``verbose`` are
    required.
    * ``pack``: a *tuple* (a list raises TypeError "Param `pack` must be a
      tuple!") of ``(kind, tile, offer)`` tuples, kind ``"CHI"``, ``"PENG"`` or
      ``"GANG"``. For CHI the tile is the *middle* tile of the chow. ``offer``
      must be 0..3 (else TypeError ERROE_WRONG_OFFER_CODE, sic). The engine
      only asks whether offer != 0: 0 means concealed, 1..3 melded (for PENG
      and GANG the seat that gave the tile, for CHI which of the three tiles
      was taken; neither changes the score). So a concealed kong is
      ``("GANG", t, 0)`` and an exposed kong ``("GANG", t, 1..3)``. Beware:
      ``("PENG", t, 0)`` is silently taken as a *concealed* pung (it scores
      门前清), so always give PENG/CHI an offer of 1..3. There is no notion of an
      added (promoted) kong: COMH strings write it with offer 5..7; pass
      offer & 3.
    * ``hand``: a tuple of tile codes, the concealed tiles *without* the
      winning tile. len(hand) + 3 * len(pack) must be 13 (kongs count 3),
      else TypeError ERROR_WRONG_TILES_COUNT.
    * ``winTile``: one tile code, the 14th tile.
    * Tile codes: ``W1``..``W9`` characters (m), ``B1``..``B9`` dots (p),
      ``T1``..``T9`` bamboo (s), ``F1``..``F4`` East South West North,
      ``J1`` red 中, ``J2`` green 发, ``J3`` white 白. Anything else:
      TypeError ERROE_WRONG_TILE_CODE. (The README also lists H1..H8 for
      flowers, but they are not accepted as tiles: flowers are only a count.)
    * ``flowerCount``: int, added as 花牌 1 point each. Not range checked: it is
      stored in a uint8 (300 becomes 44), 9 flowers are accepted.
    * ``isSelfDrawn``, ``is4thTile`` (和绝张), ``isAboutKong`` (杠上开花 when
      self-drawn, 抢杠和 on a discard), ``isWallLast`` (妙手回春 when self-drawn,
      海底捞月 on a discard): Python truth values ("p" format).
    * ``seatWind``, ``prevalentWind``: 0..3 = E S W N. Not range checked.
    * Returns a tuple in fan-id order. verbose=False: ``(points * count,
      name_zh)``, e.g. two 一般高 give ``(2, "一般高")`` and three flowers
      ``(3, "花牌")``. verbose=True: ``(points, count, name_zh, name_en)``. The
      sum of the first (non-verbose) elements is the total, flowers included.
    * Errors are all ``TypeError`` with a message: ERROR_NOT_WIN (not a
      complete hand), ERROR_WRONG_TILES_COUNT, ERROE_WRONG_TILE_CODE,
      ERROE_WRONG_OFFER_CODE, ERROE_WRONG_PACK_CODE, plus argument-parsing
      TypeErrors. ERROR_TILE_COUNT_GREATER_THAN_4 is declared but never
      raised: a hand with five 1m is scored. Check tile counts yourself.
    * No 8-fan minimum: any complete hand is scored (a 1-point hand returns
      its fans); the caller must apply ``total - flowers >= 8``.
    * Flags are silently corrected, not rejected: is4thTile is dropped when
      the concealed hand already holds the winning tile, and forced on when
      the player's own melds show 3 copies of it; isAboutKong is dropped when
      self-drawn with no kong among the packs, or on a discard when the
      winning tile appears anywhere else in the hand; 抢杠和 removes 和绝张.
      Contradictions are accepted: robbing + wall-last gives both 抢杠和 and
      海底捞月; replacement + wall-last gives 杠上开花 and 妙手回春.
    * Names (Chinese) are COMH's: identical to haidi's list except
      ``独听・边张`` / ``独听・嵌张`` / ``独听・单钓`` for 边张 / 坎张 / 单钓将, and
      the extra ``明暗杠`` (5 points, one concealed and one exposed kong, which
      replaces 明杠 + 暗杠 and is not in the 2006 list; haidi id None here).
      English (verbose) names are COMH's, e.g. "All Five", "Two Dragons Pungs",
      "Robbing The Kong", "Concealed Kong and Melded Kong".
    * COMH's choices that matter for a differential test: flowers never stop
      无番和 (it is set when no other fan scored); the winning tile on a
      discard makes the pung it completes exposed (for 暗刻 counts) unless it
      can be read as part of a concealed chow; 七对 is also tried as a regular
      hand and the higher total wins; equal totals prefer 一色三同顺, 三同刻
      and the seven-pairs reading; 九莲宝灯 adds a fixed set of fans per
      winning rank (1/9: 清龙 + 四归一; 2/8: 双暗刻 + 连六 + 幺九刻; 5: 双暗刻 +
      幺九刻; 3/4/6/7: 连六) and 自摸, never 不求人/门前清; 七对, 十三幺, 全不靠 and
      七星不靠 give 自摸 (not 不求人) and no 门前清/单钓将; 组合龙 may add
      边张/坎张/单钓将 for a wait inside the dragon (MIL reading).

``MahjongShanten(pack, hand)`` -> int: the least shanten over all forms for
a waiting hand (13 - 3 * len(pack) concealed tiles; 0 = ready). A 14-tile
(complete) hand is refused: TypeError ERROR_INVALID_HAND_OR_PACK. The five
form-specific functions take only ``hand`` (a tuple) and return
``(shanten, useful_tiles_tuple)``: ``RegularShanten`` (1, 4, 7, 10 or 13
tiles), ``SevenPairsShanten``, ``ThirteenOrphansShanten``,
``HonorsAndKnittedTilesShanten`` (13 tiles), ``KnittedStraightShanten`` (10
or 13). Another size raises TypeError ERROR_INVALID_HAND. There is no
"waits" function: test each of the 34 tiles with MahjongFanCalculator,
skipping tiles already held four times (see ``peer_waits``).

Notations
=========
* COMH/GB-Mahjong case strings (``../shared/testdata``): melds in brackets
  ``[EEE,2]`` ``[123p,1]`` (no offset on 3 tiles = offset 1; no offset on 4
  tiles = concealed kong; offsets 5..7 = added kong), then the concealed tiles
  with the winning tile written last; ``|`` prevalent wind, seat wind and four
  0/1 flags: self-drawn, last of its kind, last tile of the wall, kong
  involved; optional ``|`` flowers as a digit or letters a-h. Honours: E S W N,
  C = red 中, F = green 发, P = white 白.
* haidi notation: ``1m``..``9m``, ``1p``.., ``1s``.., ``1z``..``7z`` = E S W N
  white green red; runs like ``123m55p``; exposed melds ``[123m]`` ``[555p]``
  ``[5555p]``; concealed kong ``{1111z}``; ``hand`` holds everything but the
  winning tile, which is ``win``.
* A situation (neutral dict): {"hand", "win", "self_drawn", "seat_wind",
  "round_wind" ("E"/"S"/"W"/"N"), "flowers", "last_of_kind", "wall_last",
  "kong_replacement", "robbing_kong"}.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections import Counter

# --------------------------------------------------------------------------
# Fan names: haidi ids 1..81, as in src/mcr/data.rs (checked by `selftest`).

FAN_NAMES = [
    None,
    "大四喜",
    "大三元",
    "绿一色",
    "九莲宝灯",
    "四杠",
    "连七对",
    "十三幺",
    "清幺九",
    "小四喜",
    "小三元",
    "字一色",
    "四暗刻",
    "一色双龙会",
    "一色四同顺",
    "一色四节高",
    "一色四步高",
    "三杠",
    "混幺九",
    "七对",
    "七星不靠",
    "全双刻",
    "清一色",
    "一色三同顺",
    "一色三节高",
    "全大",
    "全中",
    "全小",
    "清龙",
    "三色双龙会",
    "一色三步高",
    "全带五",
    "三同刻",
    "三暗刻",
    "全不靠",
    "组合龙",
    "大于五",
    "小于五",
    "三风刻",
    "花龙",
    "推不倒",
    "三色三同顺",
    "三色三节高",
    "无番和",
    "妙手回春",
    "海底捞月",
    "杠上开花",
    "抢杠和",
    "碰碰和",
    "混一色",
    "三色三步高",
    "五门齐",
    "全求人",
    "双暗杠",
    "双箭刻",
    "全带幺",
    "不求人",
    "双明杠",
    "和绝张",
    "箭刻",
    "圈风刻",
    "门风刻",
    "门前清",
    "平和",
    "四归一",
    "双同刻",
    "双暗刻",
    "暗杠",
    "断幺",
    "一般高",
    "喜相逢",
    "连六",
    "老少副",
    "幺九刻",
    "明杠",
    "缺一门",
    "无字",
    "边张",
    "坎张",
    "单钓将",
    "自摸",
    "花牌",
]
assert len(FAN_NAMES) == 82
FAN_ID = {name: i for i, name in enumerate(FAN_NAMES) if name}
MINGANGANG = "明暗杠"  # COMH-only ruling, no haidi id

# COMH names that differ from haidi's
PEER_NAME_ALIASES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}

# --------------------------------------------------------------------------
# Tiles. Internally a tile is a haidi string such as "5p" or "7z".

SUIT_ORDER = "mpsz"
ALL_TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
WINDS = "ESWN"

_PEER_CODE = {}
for _r in range(1, 10):
    _PEER_CODE[f"{_r}m"] = f"W{_r}"
    _PEER_CODE[f"{_r}p"] = f"B{_r}"
    _PEER_CODE[f"{_r}s"] = f"T{_r}"
for _r in range(1, 5):
    _PEER_CODE[f"{_r}z"] = f"F{_r}"
_PEER_CODE.update({"5z": "J3", "6z": "J2", "7z": "J1"})  # white, green, red
_FROM_PEER_CODE = {v: k for k, v in _PEER_CODE.items()}

_COMH_HONOR = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}
_COMH_FROM_HAIDI = {v: k for k, v in _COMH_HONOR.items()}


def tile_key(t: str) -> tuple:
    return (SUIT_ORDER.index(t[1]), int(t[0]))


def peer_code(t: str) -> str:
    return _PEER_CODE[t]


def testdata_tile(name: str) -> str:
    """``TILE_1m`` / ``TILE_E`` (testdata ting answers) -> haidi tile."""
    body = name[len("TILE_") :]
    return _COMH_HONOR.get(body, body)


class NotationError(ValueError):
    pass


class PeerError(ValueError):
    """PyMahjongGB refused the situation (its TypeError message is kept)."""


# --------------------------------------------------------------------------
# Melds: dict(kind="chow"|"pung"|"kong", tiles=[...], exposed=bool, offer=int)


def _meld_from_tiles(tiles: list, exposed: bool, offer: int) -> dict:
    if len(tiles) == 4:
        if len(set(tiles)) != 1:
            raise NotationError(f"not a kong: {tiles}")
        return {"kind": "kong", "tiles": tiles, "exposed": exposed, "offer": offer}
    if len(tiles) != 3:
        raise NotationError(f"a meld has 3 or 4 tiles: {tiles}")
    if not exposed:
        raise NotationError("only a kong can be written as a concealed meld")
    if len(set(tiles)) == 1:
        return {"kind": "pung", "tiles": tiles, "exposed": True, "offer": offer}
    st = sorted(tiles, key=tile_key)
    if (
        st[0][1] != "z"
        and len({t[1] for t in st}) == 1
        and [int(t[0]) for t in st] == list(range(int(st[0][0]), int(st[0][0]) + 3))
    ):
        return {"kind": "chow", "tiles": st, "exposed": True, "offer": offer}
    raise NotationError(f"not a chow or pung: {tiles}")


def _peer_pack(m: dict) -> tuple:
    kind = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}[m["kind"]]
    tile = sorted(m["tiles"], key=tile_key)[1]
    if not m["exposed"]:
        offer = 0
    else:
        offer = m.get("offer", 1) & 3 or 1
    return (kind, peer_code(tile), offer)


# --------------------------------------------------------------------------
# haidi notation


_HAIDI_TOKEN = re.compile(r"\[([0-9]+[mpsz])\]|\{([0-9]+[mpsz])\}|([0-9]+[mpsz])|(\s+)")


def _expand(run: str) -> list:
    suit = run[-1]
    out = []
    for d in run[:-1]:
        r = int(d)
        if r < 1 or r > 9 or (suit == "z" and r > 7):
            raise NotationError(f"no tile {d}{suit}")
        out.append(f"{d}{suit}")
    return out


def parse_haidi_hand(hand: str) -> tuple:
    """haidi hand string -> (melds, concealed tiles)."""
    melds, concealed = [], []
    pos = 0
    while pos < len(hand):
        m = _HAIDI_TOKEN.match(hand, pos)
        if not m:
            raise NotationError(f"bad hand notation at {pos}: {hand!r}")
        pos = m.end()
        if m.group(1):
            melds.append(_meld_from_tiles(_expand(m.group(1)), True, 1))
        elif m.group(2):
            tiles = _expand(m.group(2))
            if len(tiles) != 4 or len(set(tiles)) != 1:
                raise NotationError(f"braces hold a concealed kong only: {m.group(0)}")
            melds.append({"kind": "kong", "tiles": tiles, "exposed": False, "offer": 0})
        elif m.group(3):
            concealed.extend(_expand(m.group(3)))
    return melds, concealed


def parse_haidi_tile(tile: str) -> str:
    t = _expand(tile.strip())
    if len(t) != 1:
        raise NotationError(f"one tile expected: {tile!r}")
    return t[0]


def compact(tiles: list) -> str:
    """Sorted tiles -> '123m55p7z'."""
    out, cur, digits = [], None, ""
    for t in sorted(tiles, key=tile_key):
        if t[1] != cur and cur is not None:
            out.append(digits + cur)
            digits = ""
        cur = t[1]
        digits += t[0]
    if cur is not None:
        out.append(digits + cur)
    return "".join(out)


def format_haidi_hand(melds: list, concealed: list) -> str:
    parts = []
    for m in melds:
        body = compact(m["tiles"])
        parts.append(f"[{body}]" if m["exposed"] else "{" + body + "}")
    return "".join(parts) + compact(concealed)


# --------------------------------------------------------------------------
# COMH / GB-Mahjong case strings

_COMH_RE = re.compile(
    r"^(?:\[(?:[1-9]{3,4}[msp]|[ESWNCFP]{3,4})(?:,[0-7])?\]|[ESWNCFP]|[1-9]+[msp])+"
    r"(?:\|[ESWN]{2}[01]{4}(?:\|(?:[a-h]{0,8}|[0-8]))?)?$"
)


def parse_comh(text: str) -> dict:
    """Parse one case string. Returns melds, concealed (in written order), the
    flag fields and flower count. With 14 tiles the last concealed one is the
    winning tile; a 13-tile string (ting cases) has none."""
    s = text.replace(" ", "")
    if not _COMH_RE.match(s):
        raise NotationError(f"not a COMH case string: {text!r}")
    parts = s.split("|")
    body = parts[0]
    melds, concealed = [], []
    for m in re.finditer(r"\[([^\]]+)\]|([1-9]+[msp])|([ESWNCFP])", body):
        if m.group(1):
            inner = m.group(1)
            offer = None
            if "," in inner:
                inner, o = inner.split(",")
                offer = int(o)
            if inner[-1] in "msp":
                tiles = _expand(inner)
            else:
                tiles = [_COMH_HONOR[c] for c in inner]
            if len(tiles) == 3:
                offer = 1 if offer is None else offer
                if offer == 0 or offer > 3:
                    raise NotationError(f"bad offer for a 3-tile meld: {m.group(0)}")
                melds.append(_meld_from_tiles(tiles, True, offer))
            else:
                offer = 0 if offer is None else offer
                if offer == 4:
                    raise NotationError(f"bad kong offer: {m.group(0)}")
                meld = _meld_from_tiles(tiles, offer != 0, offer)
                meld["added"] = offer > 4
                melds.append(meld)
        elif m.group(2):
            concealed.extend(_expand(m.group(2)))
        else:
            concealed.append(_COMH_HONOR[m.group(3)])
    out = {
        "melds": melds,
        "concealed": concealed,
        "round_wind": "E",
        "seat_wind": "E",
        "self_drawn": False,
        "last_of_kind": False,
        "wall_last": False,
        "kong_involved": False,
        "flowers": 0,
    }
    if len(parts) > 1:
        f = parts[1]
        out["round_wind"], out["seat_wind"] = f[0], f[1]
        out["self_drawn"], out["last_of_kind"], out["wall_last"], out["kong_involved"] = (c == "1" for c in f[2:6])
    if len(parts) > 2 and parts[2]:
        fl = parts[2]
        out["flowers"] = int(fl) if fl.isdigit() else len(fl)
    n = len(concealed) + 3 * len(melds)
    if n not in (13, 14):
        raise NotationError(f"{n} tiles (13 or 14 expected): {text!r}")
    counts = Counter(concealed)
    for m in melds:
        counts.update(m["tiles"])
    if max(counts.values()) > 4:
        raise NotationError(f"more than 4 of a tile: {text!r}")
    return out


def comh_to_situation(text: str) -> dict:
    """Case string (14 tiles) -> neutral situation in haidi notation."""
    p = parse_comh(text)
    if len(p["concealed"]) + 3 * len(p["melds"]) != 14:
        raise NotationError("a fan case needs 14 tiles")
    win = p["concealed"][-1]
    return {
        "hand": format_haidi_hand(p["melds"], p["concealed"][:-1]),
        "win": win,
        "self_drawn": p["self_drawn"],
        "seat_wind": p["seat_wind"],
        "round_wind": p["round_wind"],
        "flowers": p["flowers"],
        "last_of_kind": p["last_of_kind"],
        "wall_last": p["wall_last"],
        "kong_replacement": p["kong_involved"] and p["self_drawn"],
        "robbing_kong": p["kong_involved"] and not p["self_drawn"],
    }


def comh_to_pymahjonggb(text: str) -> dict:
    """Case string -> keyword arguments of MahjongGB.MahjongFanCalculator."""
    p = parse_comh(text)
    if len(p["concealed"]) + 3 * len(p["melds"]) != 14:
        raise NotationError("a fan case needs 14 tiles")
    return {
        "pack": tuple(_peer_pack(m) for m in p["melds"]),
        "hand": tuple(peer_code(t) for t in p["concealed"][:-1]),
        "winTile": peer_code(p["concealed"][-1]),
        "flowerCount": p["flowers"],
        "isSelfDrawn": p["self_drawn"],
        "is4thTile": p["last_of_kind"],
        "isAboutKong": p["kong_involved"],
        "isWallLast": p["wall_last"],
        "seatWind": WINDS.index(p["seat_wind"]),
        "prevalentWind": WINDS.index(p["round_wind"]),
    }


def situation_to_pymahjonggb(sit: dict) -> dict:
    melds, concealed = parse_haidi_hand(sit["hand"])
    win = parse_haidi_tile(sit["win"])
    if len(concealed) + 3 * len(melds) != 13:
        raise NotationError(f"hand must hold 13 tiles (kongs count 3): {sit['hand']!r}")
    self_drawn = bool(sit.get("self_drawn", False))
    return {
        "pack": tuple(_peer_pack(m) for m in melds),
        "hand": tuple(peer_code(t) for t in concealed),
        "winTile": peer_code(win),
        "flowerCount": int(sit.get("flowers", 0)),
        "isSelfDrawn": self_drawn,
        "is4thTile": bool(sit.get("last_of_kind", False)),
        "isAboutKong": bool(sit.get("kong_replacement", False) or sit.get("robbing_kong", False)),
        "isWallLast": bool(sit.get("wall_last", False)),
        "seatWind": WINDS.index(sit.get("seat_wind", "E")),
        "prevalentWind": WINDS.index(sit.get("round_wind", "E")),
    }


def situation_to_comh(sit: dict) -> str:
    """Neutral situation -> case string (handy for the COMH web tools)."""
    melds, concealed = parse_haidi_hand(sit["hand"])

    def comh_tiles(tiles):
        out, honors = compact([t for t in tiles if t[1] != "z"]), ""
        honors = "".join(_COMH_FROM_HAIDI[t] for t in sorted((t for t in tiles if t[1] == "z"), key=tile_key))
        return out + honors

    s = ""
    for m in melds:
        t = m["tiles"]
        body = "".join(_COMH_FROM_HAIDI[x] for x in t) if t[0][1] == "z" else compact(t)
        s += f"[{body},1]" if m["exposed"] else f"[{body}]"
    s += comh_tiles(concealed)
    win = parse_haidi_tile(sit["win"])
    s += _COMH_FROM_HAIDI[win] if win[1] == "z" else win
    kong = sit.get("kong_replacement", False) or sit.get("robbing_kong", False)
    flags = "".join("1" if sit.get(k, False) else "0" for k in ("self_drawn", "last_of_kind", "wall_last")) + (
        "1" if kong else "0"
    )
    s += f"|{sit.get('round_wind', 'E')}{sit.get('seat_wind', 'E')}{flags}"
    if sit.get("flowers", 0):
        s += f"|{sit['flowers']}"
    return s


# --------------------------------------------------------------------------
# Peer calls


def _calculator():
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError as e:  # pragma: no cover
        raise SystemExit("PyMahjongGB is not installed: pip install PyMahjongGB") from e
    return MahjongFanCalculator


def peer_call(kwargs: dict) -> list:
    """MahjongFanCalculator(**kwargs, verbose=True) -> [(name, count, points)],
    names normalised to haidi's (明暗杠 kept). Raises PeerError."""
    calc = _calculator()
    try:
        raw = calc(**kwargs, verbose=True)
    except TypeError as e:
        raise PeerError(str(e)) from None
    return [(PEER_NAME_ALIASES.get(name, name), cnt, pts) for pts, cnt, name, _en in raw]


def peer_fans(situation: dict) -> list:
    """Score a neutral situation with PyMahjongGB: [(fan name, count)].
    Raises PeerError when PyMahjongGB refuses it (e.g. ERROR_NOT_WIN) and
    NotationError for a malformed situation. No 8-fan check is applied."""
    return [(n, c) for n, c, _p in peer_call(situation_to_pymahjonggb(situation))]


def peer_result(situation: dict) -> dict:
    """Peer score in the shape of haidi's result: total, fans by haidi id
    (明暗杠 under the key "明暗杠"), and win per the 8-fan rule."""
    fans = peer_call(situation_to_pymahjonggb(situation))
    total = sum(c * p for _n, c, p in fans)
    flowers = sum(c for n, c, _p in fans if n == "花牌")
    by_id = {}
    for n, c, _p in fans:
        by_id[FAN_ID.get(n, n)] = c
    return {"total": total, "win": total - flowers >= 8, "fans": by_id}


def peer_waits(hand: str) -> list:
    """Tiles completing a 13-tile haidi hand, by brute force over the peer
    (skipping tiles the hand already holds four of)."""
    melds, concealed = parse_haidi_hand(hand)
    counts = Counter(concealed)
    for m in melds:
        counts.update(m["tiles"])
    waits = []
    for t in ALL_TILES:
        if counts[t] >= 4:
            continue
        try:
            peer_fans({"hand": hand, "win": t})
            waits.append(t)
        except PeerError:
            pass
    return waits


# --------------------------------------------------------------------------
# Random winning situations

_NUM = [t for t in ALL_TILES if t[1] != "z"]
_HONORS = [f"{r}z" for r in range(1, 8)]
_TERM = [t for t in _NUM if t[0] in "19"]
_GREEN = ["2s", "3s", "4s", "6s", "8s", "6z"]
_REVERSIBLE = [f"{r}p" for r in "1234589"] + [f"{r}s" for r in "245689"] + ["5z"]
_KNITTED = ("147", "258", "369")


def _pool(rng, style):
    if style == "flush":
        s = rng.choice("mps")
        pool = [t for t in _NUM if t[1] == s]
        if rng.random() < 0.5:
            pool += _HONORS
        return pool
    if style == "terminals":
        return _TERM + (_HONORS if rng.random() < 0.6 else [])
    if style == "honors":
        return _HONORS + rng.sample(_NUM, 12)
    if style == "simples":
        return [t for t in _NUM if t[0] not in "19"]
    if style == "green":
        return _GREEN
    if style == "reversible":
        return _REVERSIBLE
    if style == "range":
        lo, hi = rng.choice([(1, 3), (1, 4), (4, 6), (6, 9), (7, 9), (2, 8)])
        pool = [t for t in _NUM if lo <= int(t[0]) <= hi]
        return pool
    if style == "even":
        return [t for t in _NUM if t[0] in "2468"]
    if style == "fives":
        return [t for t in _NUM if t[0] in "3456 7"]
    return list(ALL_TILES)


def _set_options(pool, counts):
    """Possible sets from a pool: ('pung', t) and ('chow', first tile)."""
    ps = set(pool)
    opts = []
    for t in pool:
        if counts[t] <= 1:
            opts.append(("pung", t))
        if t[1] != "z" and int(t[0]) <= 7:
            a, b = f"{int(t[0]) + 1}{t[1]}", f"{int(t[0]) + 2}{t[1]}"
            if a in ps and b in ps and counts[t] < 4 and counts[a] < 4 and counts[b] < 4:
                opts.append(("chow", t))
    return opts


def _shift(t, d):
    return f"{int(t[0]) + d}{t[1]}"


def _pattern_sets(rng):
    """3 or 4 sets forming a named pattern (so rare fans show up)."""
    suits = list("mps")
    rng.shuffle(suits)
    s = suits[0]
    kind = rng.choice(
        [
            "same_chow3",
            "same_chow4",
            "mixed_chow3",
            "shift_chow3",
            "shift_chow4",
            "mixed_shift_chow",
            "straight",
            "mixed_straight",
            "terminal_chows",
            "pure_terminal",
            "three_suited_terminal",
            "shift_pung3",
            "shift_pung4",
            "mixed_shift_pung",
            "triple_pung",
            "winds3",
            "winds4",
            "dragons2",
            "dragons3",
            "double_pung",
            "little_winds",
            "little_dragons",
            "outside",
            "fives",
        ]
    )
    sets, pair = [], None
    if kind in ("same_chow3", "same_chow4"):
        r = rng.randint(1, 7)
        sets = [("chow", f"{r}{s}")] * (3 if kind == "same_chow3" else 4)
    elif kind == "mixed_chow3":
        r = rng.randint(1, 7)
        sets = [("chow", f"{r}{x}") for x in suits]
    elif kind in ("shift_chow3", "shift_chow4"):
        n = 3 if kind == "shift_chow3" else 4
        d = rng.choice([1, 2])
        r = rng.randint(1, 7 - d * (n - 1))
        sets = [("chow", f"{r + d * i}{s}") for i in range(n)]
    elif kind == "mixed_shift_chow":
        r = rng.randint(1, 5)
        sets = [("chow", f"{r + i}{x}") for i, x in enumerate(suits)]
    elif kind == "straight":
        sets = [("chow", f"{r}{s}") for r in (1, 4, 7)]
    elif kind == "mixed_straight":
        sets = [("chow", f"{r}{x}") for r, x in zip((1, 4, 7), suits, strict=False)]
    elif kind == "terminal_chows":
        sets = [("chow", f"1{s}"), ("chow", f"7{s}")]
    elif kind == "pure_terminal":
        sets = [("chow", f"1{s}"), ("chow", f"1{s}"), ("chow", f"7{s}"), ("chow", f"7{s}")]
        pair = f"5{s}"
    elif kind == "three_suited_terminal":
        sets = [
            ("chow", f"1{suits[0]}"),
            ("chow", f"7{suits[0]}"),
            ("chow", f"1{suits[1]}"),
            ("chow", f"7{suits[1]}"),
        ]
        pair = f"5{suits[2]}"
    elif kind in ("shift_pung3", "shift_pung4"):
        n = 3 if kind == "shift_pung3" else 4
        r = rng.randint(1, 10 - n)
        sets = [("pung", f"{r + i}{s}") for i in range(n)]
    elif kind == "mixed_shift_pung":
        r = rng.randint(1, 7)
        sets = [("pung", f"{r + i}{x}") for i, x in enumerate(suits)]
    elif kind == "triple_pung":
        r = rng.randint(1, 9)
        sets = [("pung", f"{r}{x}") for x in suits]
    elif kind == "double_pung":
        r = rng.randint(1, 9)
        sets = [("pung", f"{r}{x}") for x in suits[:2]]
    elif kind == "winds3":
        sets = [("pung", f"{r}z") for r in rng.sample(range(1, 5), 3)]
    elif kind == "winds4":
        sets = [("pung", f"{r}z") for r in range(1, 5)]
    elif kind == "dragons2":
        sets = [("pung", f"{r}z") for r in rng.sample(range(5, 8), 2)]
    elif kind == "dragons3":
        sets = [("pung", f"{r}z") for r in range(5, 8)]
    elif kind == "little_winds":
        winds = rng.sample(range(1, 5), 4)
        sets = [("pung", f"{r}z") for r in winds[:3]]
        pair = f"{winds[3]}z"
    elif kind == "little_dragons":
        dragons = rng.sample(range(5, 8), 3)
        sets = [("pung", f"{r}z") for r in dragons[:2]]
        pair = f"{dragons[2]}z"
    elif kind == "outside":
        opts = [("chow", f"{r}{x}") for r in (1, 7) for x in "mps"] + [("pung", t) for t in _TERM + _HONORS]
        sets = [rng.choice(opts) for _ in range(4)]
        pair = rng.choice(_TERM + _HONORS)
    elif kind == "fives":
        opts = [("chow", f"{r}{x}") for r in (3, 4, 5) for x in "mps"] + [("pung", f"5{x}") for x in "mps"]
        sets = [rng.choice(opts) for _ in range(4)]
        pair = f"5{rng.choice('mps')}"
    return sets, pair


def _set_tiles(kind, t):
    if kind == "chow":
        return [t, _shift(t, 1), _shift(t, 2)]
    return [t] * 3


def _regular(rng):
    style = rng.choice(
        [
            "any",
            "any",
            "any",
            "flush",
            "flush",
            "terminals",
            "honors",
            "simples",
            "green",
            "reversible",
            "range",
            "range",
            "even",
            "fives",
            "pattern",
            "pattern",
            "pattern",
            "pattern",
        ]
    )
    pung_bias = rng.choice([0.15, 0.35, 0.5, 0.8, 1.0])
    for _attempt in range(50):
        counts = Counter()
        sets, pair = [], None
        pool = _pool(rng, "any" if style == "pattern" else style)
        if style == "pattern":
            sets, pair = _pattern_sets(rng)
            for k, t in sets:
                counts.update(_set_tiles(k, t))
            if max(counts.values(), default=0) > 4:
                continue
            if rng.random() < 0.5:
                pool = [t for t in _NUM if t[1] == sets[0][1][1]] + (_HONORS if rng.random() < 0.5 else [])
        ok = True
        while len(sets) < 4:
            opts = _set_options(pool, counts)
            if not opts:
                ok = False
                break
            pungs = [o for o in opts if o[0] == "pung"]
            chows = [o for o in opts if o[0] == "chow"]
            if pungs and (not chows or rng.random() < pung_bias):
                k, t = rng.choice(pungs)
            else:
                k, t = rng.choice(chows)
            sets.append((k, t))
            counts.update(_set_tiles(k, t))
        if not ok:
            continue
        if pair is None:
            cands = [t for t in pool if counts[t] <= 2]
            if not cands:
                continue
            pair = rng.choice(cands)
        if counts[pair] > 2:
            continue
        counts.update([pair, pair])
        if max(counts.values()) > 4:
            continue
        rng.shuffle(sets)
        # exposure and kongs
        expose_p = rng.choice([0.0, 0.0, 0.25, 0.5, 0.75, 1.0])
        kong_p = rng.choice([0.0, 0.0, 0.15, 0.4, 0.9])
        melds, concealed_sets = [], []
        for k, t in sets:
            exposed = rng.random() < expose_p
            if k == "pung" and counts[t] == 3 and rng.random() < kong_p:
                counts[t] += 1
                melds.append(
                    {
                        "kind": "kong",
                        "tiles": [t] * 4,
                        "exposed": exposed,
                        "offer": 1 if exposed else 0,
                    }
                )
            elif exposed:
                melds.append({"kind": k, "tiles": _set_tiles(k, t), "exposed": True, "offer": 1})
            else:
                concealed_sets.append(_set_tiles(k, t))
        concealed = [x for st in concealed_sets for x in st] + [pair, pair]
        win = rng.choice(concealed)
        concealed.remove(win)
        return melds, concealed, win
    raise RuntimeError("could not build a regular hand")


def _knitted_tiles(rng):
    suits = list("mps")
    rng.shuffle(suits)
    return [f"{d}{s}" for grp, s in zip(_KNITTED, suits, strict=False) for d in grp]


def _special(rng, form):
    if form == "seven_pairs":
        style = rng.choice(
            [
                "any",
                "any",
                "flush",
                "terminals",
                "honors",
                "simples",
                "green",
                "reversible",
                "range",
                "even",
            ]
        )
        pool = _pool(rng, style)
        pairs = []
        c = Counter()
        for _ in range(200):
            if len(pairs) == 7:
                break
            t = rng.choice(pool)
            if c[t] <= 2 and (c[t] == 0 or rng.random() < 0.3):
                pairs.append(t)
                c[t] += 2
        if len(pairs) < 7:
            return _special(rng, "seven_pairs")
        tiles = [t for p in pairs for t in (p, p)]
        return [], tiles
    if form == "seven_shifted_pairs":
        s, r = rng.choice("mps"), rng.randint(1, 3)
        return [], [f"{r + i}{s}" for i in range(7) for _ in (0, 1)]
    if form == "thirteen_orphans":
        tiles = _TERM + _HONORS
        return [], tiles + [rng.choice(tiles)]
    if form == "knitted_honors":
        knit = _knitted_tiles(rng)
        n_num = rng.choice([7, 8, 9])
        tiles = rng.sample(knit, n_num) + rng.sample(_HONORS, 14 - n_num)
        return [], tiles
    if form == "knitted_straight":
        knit = _knitted_tiles(rng)
        counts = Counter(knit)
        for _ in range(100):
            k, t = rng.choice(_set_options(ALL_TILES, counts))
            st = _set_tiles(k, t)
            c2 = counts + Counter(st)
            if max(c2.values()) > 4:
                continue
            pair = rng.choice([x for x in ALL_TILES if c2[x] <= 2])
            c2.update([pair, pair])
            melds = []
            concealed = knit + [pair, pair]
            if rng.random() < 0.3:
                exposed = k == "pung" and rng.random() < 0.5
                if k == "pung" and c2[t] == 3 and rng.random() < 0.4:
                    melds.append(
                        {
                            "kind": "kong",
                            "tiles": [t] * 4,
                            "exposed": exposed,
                            "offer": 1 if exposed else 0,
                        }
                    )
                else:
                    melds.append({"kind": k, "tiles": st, "exposed": True, "offer": 1})
            else:
                concealed += st
            return melds, concealed
    if form == "nine_gates":
        s = rng.choice("mps")
        base = [f"{r}{s}" for r in "1112345678999"]
        return [], base + [f"{rng.randint(1, 9)}{s}"]
    raise ValueError(form)


def _chicken(rng):
    """Try for 无番和: an honour pair, three suits, unrelated middle sets, at
    least one exposed meld (the peer decides whether it really scores 0)."""
    for _ in range(1000):
        suits = list("mps") + [rng.choice("mps")]
        rng.shuffle(suits)
        sets = []
        for x in suits:
            if rng.random() < 0.7:
                sets.append(("chow", f"{rng.randint(2, 6)}{x}"))
            else:
                sets.append(("pung", f"{rng.randint(2, 8)}{x}"))
        ok = True
        for i in range(4):
            for j in range(i + 1, 4):
                (k1, a), (k2, b) = sets[i], sets[j]
                if k1 == k2 and a[0] == b[0]:
                    ok = False  # 一般高 / 喜相逢 / 双同刻
                if k1 == k2 == "chow" and a[1] == b[1] and abs(int(a[0]) - int(b[0])) in (0, 3):
                    ok = False  # 连六
        counts = Counter(x for k, t in sets for x in _set_tiles(k, t))
        if not ok or max(counts.values()) > 3:
            continue
        pair = f"{rng.randint(1, 7)}z"
        n_exp = rng.randint(1, 3)
        melds = [{"kind": k, "tiles": _set_tiles(k, t), "exposed": True, "offer": 1} for k, t in sets[:n_exp]]
        concealed = [x for k, t in sets[n_exp:] for x in _set_tiles(k, t)] + [pair, pair]
        win = rng.choice([x for x in concealed if x != pair])
        concealed.remove(win)
        return melds, concealed, win
    raise RuntimeError("could not build a chicken hand")


def random_situation(rng: random.Random) -> dict:
    """A random valid MCR winning situation (complete hand, consistent flags),
    as a neutral dict in haidi notation. The 8-fan minimum is *not* enforced:
    some hands are complete but below it (haidi must say win=false there)."""
    form = rng.choices(
        [
            "regular",
            "seven_pairs",
            "seven_shifted_pairs",
            "thirteen_orphans",
            "knitted_honors",
            "knitted_straight",
            "nine_gates",
            "chicken",
        ],
        weights=[80, 7, 1.5, 2.5, 3, 4, 2, 2],
    )[0]
    if form == "regular":
        melds, concealed, win = _regular(rng)
    elif form == "chicken":
        melds, concealed, win = _chicken(rng)
    else:
        melds, concealed = _special(rng, form)
        if form == "nine_gates" and rng.random() < 0.7:
            win = concealed[-1]
        else:
            win = rng.choice(concealed)
        concealed = list(concealed)
        concealed.remove(win)

    counts = Counter(concealed)
    for m in melds:
        counts.update(m["tiles"])
    assert counts[win] <= 3 and max(counts.values()) <= 4, (melds, concealed, win)

    has_kong = any(m["kind"] == "kong" for m in melds)
    self_drawn = rng.random() < (0.1 if form == "chicken" else 0.5)
    kong_replacement = self_drawn and has_kong and rng.random() < 0.35
    held_elsewhere = counts[win]  # copies of the winning tile besides itself
    robbing_kong = (not self_drawn) and held_elsewhere == 0 and rng.random() < 0.2
    wall_last = (not kong_replacement) and (not robbing_kong) and rng.random() < 0.12
    concealed_copies = Counter(concealed)[win]
    melded_copies = sum(m["tiles"].count(win) for m in melds if m["kind"] in ("pung", "kong"))
    if robbing_kong or concealed_copies > 0:
        last_of_kind = False
    elif melded_copies == 3:
        last_of_kind = True  # the other three are on the player's own pung
    else:
        last_of_kind = rng.random() < 0.2

    winds_held = [int(m["tiles"][0][0]) - 1 for m in melds if m["tiles"][0][1] == "z" and int(m["tiles"][0][0]) <= 4]
    winds_held += [
        int(t[0]) - 1 for t, c in Counter(concealed + [win]).items() if t[1] == "z" and int(t[0]) <= 4 and c >= 3
    ]

    def wind():
        if winds_held and rng.random() < 0.5:
            return WINDS[rng.choice(winds_held)]
        return rng.choice(WINDS)

    flowers = 0 if rng.random() < 0.6 else rng.randint(1, 8)
    return {
        "hand": format_haidi_hand(melds, concealed),
        "win": win,
        "self_drawn": self_drawn,
        "seat_wind": wind(),
        "round_wind": wind(),
        "flowers": flowers,
        "last_of_kind": last_of_kind,
        "wall_last": wall_last,
        "kong_replacement": kong_replacement,
        "robbing_kong": robbing_kong,
    }


# --------------------------------------------------------------------------
# Checks against the public cases


def _load_names(path_hint=None):
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (
        path_hint,
        os.path.join(here, "..", "..", "shared", "testdata", "mcr-gb-mahjong-fan-names.json"),
    ):
        if p and os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                return json.load(f)
    return None


def _load_cases(path):
    """Either the project's tests/data/mcr_cases.json or the shared file.
    Returns [(input, [alternatives: Counter of haidi name -> count])]."""
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    out = []
    if "fan_cases" in d:  # project format
        for c in d["fan_cases"]:
            alts = [Counter(e["zh"] for e in c["expected"])]
            if c.get("alt_expected"):
                alts.append(Counter(e["zh"] for e in c["alt_expected"]))
            out.append((c["input"], alts))
        ting = [(c["input"], c["waits"]) for c in d["ting_cases"]]
    else:
        names = _load_names(os.path.join(os.path.dirname(path), "mcr-gb-mahjong-fan-names.json"))
        for c in d["fanCases"]:
            alts = [Counter(names[n] for n in c["expectedNames"])]
            if c.get("altExpectedNames"):
                alts.append(Counter(names[n] for n in c["altExpectedNames"]))
            out.append((c["input"], alts))
        ting = [(c["input"], [testdata_tile(n) for n in c["expectedNames"]]) for c in d["tingCases"]]
    return out, ting


def check_cases(path: str) -> tuple:
    cases, ting = _load_cases(path)
    agree = 0
    for text, alts in cases:
        direct = Counter({n: c for n, c, _p in peer_call(comh_to_pymahjonggb(text))})
        via = Counter(dict(peer_fans(comh_to_situation(text))))
        if direct != via:
            print(f"CONVERSION MISMATCH {text}: {dict(direct)} vs {dict(via)}")
        if any(direct == a for a in alts):
            agree += 1
        else:
            print(f"DIFF {text}: peer {dict(direct)} expected {[dict(a) for a in alts]}")
    ting_agree = 0
    for text, waits in ting:
        p = parse_comh(text)
        hand = format_haidi_hand(p["melds"], p["concealed"])
        got = peer_waits(hand)
        if sorted(got, key=tile_key) == sorted(waits, key=tile_key):
            ting_agree += 1
        else:
            print(f"TING DIFF {text!r}: peer {got} expected {waits}")
    return agree, len(cases), ting_agree, len(ting)


def selftest(n: int = 2000, seed: int = 1) -> None:
    # names agree with src/mcr/data.rs
    here = os.path.dirname(os.path.abspath(__file__))
    data_rs = os.path.join(here, "..", "src", "mcr", "data.rs")
    if os.path.exists(data_rs):
        with open(data_rs, encoding="utf-8") as f:
            rows = re.findall(r'fan\(\s*(\d+),\s*"([^"]+)",\s*"([^"]+)",\s*(\d+)\)', f.read())
        assert [int(r[0]) for r in rows] == list(range(1, 82)), "src/mcr/data.rs: ids"
        assert [r[1] for r in rows] == FAN_NAMES[1:], "FAN_NAMES differs from src/mcr/data.rs"
    rng = random.Random(seed)
    forms = Counter()
    fans = Counter()
    for _ in range(n):
        sit = random_situation(rng)
        # round trips
        melds, concealed = parse_haidi_hand(sit["hand"])
        assert format_haidi_hand(melds, concealed) == sit["hand"], sit
        assert comh_to_situation(situation_to_comh(sit)) == sit, (sit, situation_to_comh(sit))
        try:
            res = peer_fans(sit)
        except PeerError as e:
            raise AssertionError(f"peer refused {sit}: {e}") from e
        for name, _ in res:
            fans[name] += 1
        forms["melded" if melds else "concealed"] += 1
    missing = [nm for nm in FAN_NAMES[1:] if fans[nm] == 0]
    print(f"selftest: {n} random situations all accepted by PyMahjongGB; {dict(forms)}")
    print(f"fans never produced: {missing or 'none'}")


def read_data_rs(path: str) -> dict:
    """Parse FANS, EXCLUDES and IMPLIED_EXCLUDES out of src/mcr/data.rs."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for table in ("EXCLUDES", "IMPLIED_EXCLUDES"):
        body = text.split(f"pub const {table}: [&[u8]; 82] = [", 1)[1].split("];", 1)[0]
        rows = re.findall(r"&\[([0-9, ]*)\]", body)
        assert len(rows) == 82, table
        out[table] = [[int(x) for x in r.split(",") if x.strip()] for r in rows]
    return out


def check_exclusions(n: int, seed: int = 11) -> int:
    """Score n random situations with the peer and report every pair (A, B)
    with B in EXCLUDES[A] or IMPLIED_EXCLUDES[A] that the peer counts
    together (expected: none)."""
    here = os.path.dirname(os.path.abspath(__file__))
    tables = read_data_rs(os.path.join(here, "..", "src", "mcr", "data.rs"))
    rng = random.Random(seed)
    both = Counter()
    for _ in range(n):
        fans = set(peer_result(random_situation(rng))["fans"])
        for a in fans:
            if isinstance(a, int):
                for table in ("EXCLUDES", "IMPLIED_EXCLUDES"):
                    for b in tables[table][a]:
                        if b in fans:
                            both[(table, a, b)] += 1
    for (table, a, b), c in sorted(both.items()):
        print(f"{table}[{a}] {FAN_NAMES[a]} excludes {b} {FAN_NAMES[b]}, peer counts both {c} times")
    print(f"{n} situations: {len(both)} exclusion pairs counted together by the peer")
    return len(both)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases", help="score the public MCR cases with PyMahjongGB")
    here = os.path.dirname(os.path.abspath(__file__))
    c.add_argument("file", nargs="?", default=os.path.join(here, "..", "tests", "data", "mcr_cases.json"))
    r = sub.add_parser("random", help="print N random situations with the peer's score (JSONL)")
    r.add_argument("n", type=int)
    r.add_argument("--seed", type=int, default=0)
    x = sub.add_parser("exclusions", help="check data.rs exclusions against the peer")
    x.add_argument("--n", type=int, default=100000)
    x.add_argument("--seed", type=int, default=11)
    s = sub.add_parser("selftest", help="check converters and generator")
    s.add_argument("--n", type=int, default=2000)
    args = ap.parse_args(argv)
    if args.cmd == "cases":
        agree, total, tagree, ttotal = check_cases(args.file)
        print(f"PyMahjongGB agrees with {agree}/{total} fan cases and {tagree}/{ttotal} ting cases")
        return 0 if agree == total and tagree == ttotal else 1
    if args.cmd == "random":
        rng = random.Random(args.seed)
        for _ in range(args.n):
            sit = random_situation(rng)
            try:
                peer = peer_result(sit)
                peer["fans"] = {str(k): v for k, v in peer["fans"].items()}
            except PeerError as e:
                peer = {"error": str(e)}
            print(json.dumps({"situation": sit, "peer": peer}, ensure_ascii=False))
        return 0
    if args.cmd == "exclusions":
        return 1 if check_exclusions(args.n, args.seed) else 0
    if args.cmd == "selftest":
        selftest(args.n)
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
