"""The replay page (haidi.viewer, ``haidi.html(log)``, ``haidi replay --html``): self-contained,
its data what the log says, and, in a real browser where Chromium is installed, the DOM at
chosen steps what the game held then."""

from __future__ import annotations

import html
import json
import os
import random
import re
import shutil
import subprocess
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from test_game import ONE_DISCARD_TWO_WINS, decline_dealt_wins, stacked_wall

import haidi
from haidi import viewer
from haidi.cli import main


def played(rules: str, seed: int) -> haidi.Game:
    """A hand played by a simple agent: wins when it may, makes every kong, pungs half
    the time, else a random action (no chow); most hands end in a win."""
    g = haidi.Game(rules, seed)
    rng = random.Random(seed)
    while not g.done:
        s = g.to_act[0]
        acts = g.legal_actions(s)
        wins = [a for a in acts if a["type"] == "win"]
        kongs = [a for a in acts if "kong" in a["type"]]
        if wins:
            a = wins[0]
        elif kongs:
            a = kongs[0]
        elif {"type": "pung"} in acts and rng.random() < 0.5:
            a = {"type": "pung"}
        else:
            a = rng.choice([a for a in acts if a["type"] != "chow"] or acts)
        g.step(s, a)
    return g


def two_winners() -> haidi.Game:
    """Changsha's 通炮: seats 1 and 2 win on the dealer's discard."""
    g = haidi.Game("changsha", wall=stacked_wall("changsha", ONE_DISCARD_TWO_WINS, draws="7p"))
    decline_dealt_wins(g)
    g.step(0, {"type": "discard", "tile": "4s"})
    g.step(1, {"type": "win"})
    g.step(2, {"type": "win"})
    return g


#: A won hand of each ruleset with what it shows: (rules, seed) found by playing `played`.
HANDS = {
    "mcr kong, flowers": ("mcr", 22),
    "changsha kong": ("changsha", 24),
    "hainan kong, flowers": ("hainan", 22),
    "longgang kong, flowers, wilds": ("longgang", 27),
    "tangshan kong, wilds": ("tangshan", 12),
    "beijing kong, wilds": ("beijing", 44),
}


def page_data(page: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="haidi-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def final_states(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step's state, the differences applied in order (as the page's script does)."""
    cur: dict[str, Any] = {}
    out = []
    for step in hand["steps"]:
        cur = dict(cur)
        for k, v in step[0].items():
            if k.startswith("+"):
                cur[k[1:]] = cur[k[1:]] + v
            else:
                cur[k] = v
        out.append(cur)
    return out


def logged_discards(log: list[dict[str, Any]], actions: int | None = None) -> list[list[str]]:
    """Each seat's discards, from the log's actions alone (the first ``actions`` of them)."""
    out: list[list[str]] = [[], [], [], []]
    done = 0
    for e in log:
        if e["event"] != "action":
            continue
        if actions is not None and done == actions:
            break
        done += 1
        if e["action"]["type"] in ("discard", "open_ready"):
            out[e["seat"]].append(e["action"]["tile"])
    return out


def test_the_page_is_self_contained() -> None:
    page = haidi.html(played("mcr", 22))
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert not re.search(r"https?://", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    # Every tile's glyph and its text are in the file.
    glyphs = page_data(page)["glyphs"]
    assert glyphs["5m"] == haidi.tile_glyph("5m") and glyphs["1f"] == haidi.tile_glyph("1f")


def test_a_notebook_shows_the_page_in_a_frame() -> None:
    page = haidi.html(played("mcr", 22))
    frame = page._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and html.unescape(frame.split('"')[1]) == str(page)


@pytest.mark.parametrize("name", HANDS)
def test_the_data_is_what_the_log_says(name: str) -> None:
    g = played(*HANDS[name])
    log = g.log
    data = page_data(haidi.html(log))
    (hand,) = data["hands"]
    actions = sum(e["event"] == "action" for e in log)
    assert len(hand["steps"]) == actions + 1
    # Every event of the log is in exactly one step, in order: each step's first the action.
    assert sum(len(s[1]) for s in hand["steps"]) == len(log) - 1
    texts = [t for s in hand["steps"][1:] for t in s[1][:1]]
    acts = [e for e in log if e["event"] == "action"]
    assert [t.split(" ")[1] for t in texts] == [e["action"]["type"] for e in acts]
    states = final_states(hand)
    for k in (0, actions // 2, actions):
        assert [states[k][f"d{s}"] for s in range(4)] == logged_discards(log, k)
    assert hand["payments"] == haidi.Game.replay(log).result["payments"]
    assert [w["seat"] for w in hand["wins"]] == [w["seat"] for w in g.result["wins"]]
    assert [w["total"] for w in hand["wins"]] == [w["score"]["total"] for w in g.result["wins"]]


def test_the_features_of_the_chosen_hands() -> None:
    # The hands above show what their names say (a guard against the rules changing under them).
    for name, (rules, seed) in HANDS.items():
        log = played(rules, seed).log
        kinds = {e["event"] for e in log} | {e["action"]["type"] for e in log if e["event"] == "action"}
        if "kong" in name:
            assert kinds & {"kong", "concealed_kong", "added_kong"}, name
        if "flowers" in name:
            assert "flower" in kinds, name
        if "wilds" in name:
            assert "indicator" in kinds, name
        assert "win" in kinds, name


def match_log(tmp_path: Path, rules: str, hands: int) -> tuple[dict[str, Any], list[str]]:
    """The header and hand lines of a match ``haidi play --log`` wrote."""
    path = tmp_path / "match.jsonl"
    argv = ["play", "--rules", rules, "--bots", "greedy,greedy,greedy,greedy", "--games", str(hands)]
    assert main([*argv, "--seed", "3", "--quiet", "--log", str(path)]) == 0
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(header), lines


def test_a_match_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header, lines = match_log(tmp_path, "changsha", 2)
    capsys.readouterr()
    data = page_data(viewer.page("\n".join([json.dumps(header), *lines])))
    assert data["match"] == {k: header[k] for k in ("rules", "hands", "players", "payments", "seed")}
    # The same as Python objects: the header first in a list of logs.
    assert page_data(viewer.page([header, *map(json.loads, lines)]))["match"] == data["match"]
    assert len(data["hands"]) == 2
    assert [h["payments"] for h in data["hands"]] == [
        haidi.Game.replay(json.loads(x)).result["payments"] for x in lines
    ]


def test_two_winners() -> None:
    games = [played("changsha", 1), two_winners()]
    data = page_data(viewer.page([g.log for g in games]))
    assert data["match"] is None and len(data["hands"]) == 2
    assert [w["seat"] for w in data["hands"][1]["wins"]] == [1, 2]
    assert data["hands"][1]["payments"] == games[1].result["payments"]
    # The record settled on, with Changsha's birds.
    assert data["hands"][1]["outcome"]["birds"] == games[1].result["outcome"]["birds"]


def test_no_text_of_a_log_reaches_the_page_as_markup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header, lines = match_log(tmp_path, "mcr", 1)
    capsys.readouterr()
    evil = "</script><script>alert(1)</script><!--"
    # The players' names are the header's alone: no hand names them.
    page = viewer.page("\n".join([json.dumps({**header, "players": [evil] * 4}), *lines]))
    assert "alert" in page and "<script>alert" not in page and "<!--" not in page
    assert page_data(page)["match"]["players"] == [evil] * 4


def test_the_analysis_page_refuses_what_analyze_did_not_answer() -> None:
    rs = haidi.ruleset("mcr")
    hand = "123m456m789m1122z"
    assert "<table>" in viewer.analysis_page("mcr", [(hand, rs.analyze(hand))])
    for rules, analyses, said in [
        ("mcr", [(hand, [{}])], "entry 1 is not an entry of Ruleset.analyze"),
        ("mcr", [(hand, ["x"])], "entry 1 is not an entry of Ruleset.analyze"),
        ("mcr", [1], "pairs"),
        (5, [], "rules is a ruleset name"),
    ]:
        with pytest.raises(haidi.HandError, match=said):
            viewer.analysis_page(rules, analyses)  # type: ignore[arg-type]


def test_bad_logs_are_refused() -> None:
    log = played("mcr", 22).log
    wrong = [dict(e, tile="1m") if e["event"] == "draw" else e for e in log]
    with pytest.raises(haidi.HandError, match="hand 1: log event"):
        viewer.page([wrong])
    with pytest.raises(haidi.HandError, match="not JSON"):
        viewer.page("{")
    with pytest.raises(haidi.HandError, match="no hand"):
        viewer.page('{"event": "match"}')
    with pytest.raises(haidi.HandError, match="line 1 is nested more than 16 deep"):
        viewer.page("[" * 100_000 + "]" * 100_000)
    with pytest.raises(haidi.HandError, match="entry 2: not a log"):
        viewer.page([log, [1]])
    with pytest.raises(haidi.HandError):
        viewer.page(5)


def test_a_log_that_ends_before_its_hand_is_shown_to_its_end() -> None:
    log = played("mcr", 22).log
    cut = len(log) - 1 - [e["event"] for e in reversed(log)].index("action")
    (hand,) = page_data(haidi.html(log[:cut]))["hands"]
    assert hand["payments"] is None and hand["wins"] == []
    assert sum(len(s[1]) for s in hand["steps"]) == cut - 1


def test_replay_html_writes_the_page(haidi_cli: Any, tmp_path: Path) -> None:
    logs = tmp_path / "games.jsonl"
    logs.write_text(json.dumps(played("mcr", 22).log) + "\n", encoding="utf-8")
    out = tmp_path / "games.html"
    code, _, err = haidi_cli("replay", "--html", str(out), str(logs))
    assert code == 0, err
    assert page_data(out.read_text(encoding="utf-8"))["hands"][0]["payments"] == played("mcr", 22).result["payments"]
    code, _, err = haidi_cli("replay", "--html", str(out), stdin="[1]\n")
    assert code == 2 and "not a log" in err
    code, _, err = haidi_cli("replay", "--html", str(out), "--key-file", str(logs), str(logs))
    assert code == 2 and "HMAC" in err


# ---- in a real browser

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
browser = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (apt-get install chromium) to load the page in"
)


class Tiles(HTMLParser):
    """The tiles of a DOM, each with the ids and classes of the elements around it; and
    the text of elements by id."""

    VOID = {"meta", "input", "br", "img", "hr", "link", "col", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str, str]] = []
        self.tiles: list[tuple[str | None, set[str]]] = []
        self.cells: dict[str, str] = {}
        self.text: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag == "span" and "tile" in cls.split():
            around = {x for _, i, c in self.stack for x in [i, *c.split()] if x} | set(cls.split())
            self.tiles.append((a.get("data-t"), around))
        if tag in self.VOID:
            return
        self.stack.append((tag, a.get("id") or "", cls))
        if tag == "td" and a.get("data-seat") is not None:
            self.stack[-1] = (tag, f"pay-{a['data-seat']}", cls)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, i, _ in self.stack:
            if i:
                self.text[i] = self.text.get(i, "") + data

    def of(self, *where: str) -> list[str | None]:
        return [t for t, around in self.tiles if set(where) <= around]


def dom(path: Path, fragment: str) -> Tiles:
    assert CHROMIUM is not None
    out = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", f"{path.as_uri()}#{fragment}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    p = Tiles()
    p.feed(out)
    return p


def stepped(log: list[dict[str, Any]], actions: int) -> haidi.Game:
    """A new game of the log's start, with its first ``actions`` actions played."""
    start = log[0]
    g = haidi.Game(start["rules"], 0, start["options"] or None, wall=start["wall"], carry=start["carry"])
    for e in [e for e in log if e["event"] == "action"][:actions]:
        g.step(e["seat"], e["action"])
    return g


@browser
def test_the_browser_shows_the_hands_discards_and_payments(tmp_path: Path) -> None:
    games = [played("longgang", 27), played("beijing", 44), two_winners()]
    path = tmp_path / "match.html"
    path.write_text(haidi.html(games), encoding="utf-8")
    for h, g in enumerate(games, 1):
        log = g.log
        actions = sum(e["event"] == "action" for e in log)
        k = actions // 2 if h < 3 else actions
        d = dom(path, f"hand={h}&step={k}&view=all")
        assert f"hand {h} of 3" in d.text["where"] and f"step {k} of {actions}" in d.text["where"]
        then = stepped(log, k)
        for s in range(4):
            obs = then.observation(s)
            assert Counter(d.of(f"seat-{s}", "hand")) == Counter(viewer._tiles(obs["hand"])), (h, s)
            assert d.of(f"seat-{s}", "discards") == logged_discards(log, k)[s]
            claimed = [t for t, around in d.tiles if {f"seat-{s}", "discards", "claimed"} <= around]
            assert claimed == [obs["discards"][s][i] for i in obs["claimed"][s]]
        assert d.text["wall"].strip() == f"wall: {then.observation(0)['wall']}"
        end = dom(path, f"hand={h}&step={actions}")
        assert [int(end.text[f"pay-{s}"]) for s in range(4)] == g.result["payments"]
    # The two winners of the 通炮, each with its fans, and the birds settled on.
    assert end.text["result"].count("wins on 4s") == 2
    assert end.of("outcome")[:3] == g.result["outcome"]["birds"][:3]


@browser
def test_the_browser_hides_the_other_hands_in_a_seats_view(tmp_path: Path) -> None:
    g = played("mcr", 22)
    path = tmp_path / "hand.html"
    path.write_text(haidi.html(g), encoding="utf-8")
    d = dom(path, "hand=1&step=10&view=1")
    then = stepped(g.log, 10)
    assert Counter(d.of("seat-1", "hand")) == Counter(viewer._tiles(then.observation(1)["hand"]))
    for s in (0, 2, 3):
        assert d.of(f"seat-{s}", "hand") == [None] * then.observation(1)["concealed_counts"][s]


@browser
def test_a_seats_view_shows_only_what_that_seat_saw(tmp_path: Path) -> None:
    # Another seat's draw without its tile, its passes not at all, a concealed kong
    # from no seat, and only the viewed seat's analysis whatever seat is followed.
    g = played("mcr", 22)
    log = g.log
    path = tmp_path / "hand.html"
    text = viewer.page([log], analysis=True)
    path.write_text(text, encoding="utf-8")
    (hand,) = page_data(text)["hands"]
    k = next(k for k, step in enumerate(hand["steps"]) if any(e.startswith("S draws ") for e in step[1]))
    d = dom(path, f"hand=1&step={k}&view=0&follow=1")
    assert "S draws" in d.text["events"] and not re.search(r"S draws \d", d.text["events"])
    assert re.search(r"S draws \d", dom(path, f"hand=1&step={k}&view=1").text["events"])
    j = next(j for j, step in enumerate(hand["steps"]) if "S pass" in step[1])
    assert "S pass" not in dom(path, f"hand=1&step={j}&view=0").text.get("events", "")
    assert "S pass" in dom(path, f"hand=1&step={j}&view=1").text["events"]
    asked = next(j for j, step in enumerate(hand["steps"]) if len(step) > 2 and "1" in step[2])
    assert dom(path, f"hand=1&step={asked}&view=0&follow=1").text.get("analysis", "").strip() == ""
    assert "S's discards" in dom(path, f"hand=1&step={asked}&view=1").text["analysis"]
    # A concealed kong, made whenever one may be: no seat supplied it.
    for seed in range(200):
        g = haidi.Game("mcr", seed=seed)
        rng = random.Random(seed)
        while not g.done and not any(e.get("action", {}).get("type") == "concealed_kong" for e in g.log):
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            kong = [a for a in legal if a["type"] == "concealed_kong"]
            g.step(seat, kong[0] if kong else rng.choice(legal))
        if not g.done:
            break
    (made,) = [e for e in g.log if e.get("action", {}).get("type") == "concealed_kong"]
    path.write_text(viewer.page([g.log]), encoding="utf-8")
    steps = sum(e["event"] == "action" for e in g.log)
    d = dom(path, f"hand=1&step={steps}&view=all")
    assert "undefined" not in d.text[f"seat-{made['seat']}"]


def _pipe_ends(read: int, write: int) -> None:
    # Chromium's --remote-debugging-pipe reads commands from fd 3 and answers on fd 4.
    a, b = os.dup(read), os.dup(write)
    os.dup2(a, 3)
    os.dup2(b, 4)


class Browser:
    """Headless Chromium driven over its DevTools pipe: ``call(method, **params)``."""

    def __init__(self, url: str) -> None:
        assert CHROMIUM is not None
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", url],
            close_fds=False,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=lambda: _pipe_ends(to_r, from_w),
        )
        os.close(to_r)
        os.close(from_w)
        self.to, self.back = to_w, from_r
        self.n, self.buf, self.session = 0, b"", None
        page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for _ in range(200):
            if self.js("document.getElementById('where') && document.getElementById('where').textContent"):
                break
            time.sleep(0.05)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.n += 1
        msg: dict[str, Any] = {"id": self.n, "method": method, "params": params}
        if self.session is not None and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.to, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                chunk = os.read(self.back, 1 << 16)
                assert chunk, "Chromium closed its DevTools pipe"
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self.n:
                assert "error" not in answer, answer
                return answer["result"]

    def js(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def key(self, key: str) -> None:
        code = {"ArrowLeft": 37, "ArrowRight": 39, "PageUp": 33, "PageDown": 34, "Home": 36, "End": 35}[key]
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def dom(self) -> Tiles:
        p = Tiles()
        p.feed(self.js("document.documentElement.outerHTML"))
        return p

    def close(self) -> None:
        try:
            self.call("Browser.close")
            self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.to)
            os.close(self.back)


@browser
def test_the_keys_and_buttons_step_through_the_match(tmp_path: Path) -> None:
    games = [played("mcr", 22), played("hainan", 2)]
    path = tmp_path / "match.html"
    path.write_text(haidi.html(games), encoding="utf-8")
    b = Browser(path.as_uri())
    try:
        log = games[0].log
        for k in range(1, 13):
            b.key("ArrowRight")
            d = b.dom()
            assert f"step {k} of" in d.text["where"]
            assert [d.of(f"seat-{s}", "discards") for s in range(4)] == logged_discards(log, k)
        b.key("ArrowLeft")
        assert "step 11 of" in b.js("document.getElementById('where').textContent")
        b.key("End")
        d = b.dom()
        assert [int(d.text[f"pay-{s}"]) for s in range(4)] == games[0].result["payments"]
        b.key("PageDown")
        assert "hand 2 of 2" in b.js("document.getElementById('where').textContent")
        # The next decision of seat 3: the first step at which it is asked to act.
        asked = [
            k for k, st in enumerate(final_states(page_data(path.read_text("utf-8"))["hands"][1])) if 3 in st["ta"]
        ]
        b.js("const f = document.getElementById('follow'); f.value = '3'; f.dispatchEvent(new Event('change'))")
        b.js("document.getElementById('decnext').click()")
        assert f"step {asked[0]} of" in b.js("document.getElementById('where').textContent")
        b.js("document.getElementById('decnext').click()")
        assert f"step {asked[1]} of" in b.js("document.getElementById('where').textContent")
        b.key("Home")
        b.key("PageUp")
        assert "hand 1 of 2 (mcr" in b.js("document.getElementById('where').textContent")
        assert b.js("location.hash").startswith("#hand=1&step=0")
    finally:
        b.close()


def test_analyze_html_is_the_table_of_analyze(haidi_cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "analysis.html"
    hand = "123m456m78p11s5z[567s]"
    code, text, err = haidi_cli("analyze", hand, "--visible", "9p9p", "--scoring", "--html", str(out))
    assert code == 0, err
    assert text.startswith(hand)
    page = out.read_text(encoding="utf-8")
    assert not re.search(r"https?://", page)
    entries = haidi.ruleset("mcr").analyze(hand, visible="9p9p", scoring=True)
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", page)
    assert len(rows) == len(entries)
    for row, e in zip(rows, entries, strict=True):
        cells = row.split("</td><td")
        assert re.findall(r'data-t="([^"]+)"', cells[0]) == [e["discard"]]
        assert cells[1].endswith(f">{e['shanten']}") and cells[2].endswith(f">{e['useful_count']}")
        assert re.findall(r'data-t="([^"]+)"', cells[3]) == e["useful"]
        assert re.findall(r'data-t="([^"]+)"', cells[5]) == [w["tile"] for w in e["winning_waits"]]


@pytest.mark.parametrize("name", list(HANDS))
def test_the_analysis_at_each_discard_decision(name: str) -> None:
    rules, seed = HANDS[name]
    g = played(rules, seed)
    log = g.log
    rs = haidi.ruleset(rules)
    (hand,) = page_data(viewer.page([log], analysis=True))["hands"]
    actions = [e for e in log if e["event"] == "action"]
    checked = 0
    for k, step in enumerate(hand["steps"][:-1]):
        then = stepped(log, k)
        asked = step[2] if len(step) > 2 else {}
        # Every analysis asked is one, not an error (a key the ruleset does not take).
        assert all("rows" in a for a in asked.values()), [a.get("error") for a in asked.values()]
        # Exactly the seats asked to discard have an analysis.
        assert set(asked) == {str(s) for s in then.to_act if any(a["type"] == "discard" for a in then.legal_actions(s))}
        seat = actions[k]["seat"]
        if str(seat) not in asked or actions[k]["action"]["type"] != "discard":
            continue
        a = asked[str(seat)]
        assert a["chose"] == actions[k]["action"]["tile"]
        row = next(r for r in a["rows"] if r[0] == a["chose"])
        # The shanten of the hand the discard left, by the engine's shanten.
        after = stepped(log, k + 1).observation(seat)
        kept = after["concealed_counts"][seat] - len(viewer._tiles(after["hand"]))  # flowers kept as wilds
        text = after["hand"] + "".join(after["melds"][seat])
        assert row[1] == rs.shanten(text, after["wilds"] or None, extra_wilds=kept)
        assert [r[1] for r in a["rows"]] == sorted(r[1] for r in a["rows"])
        checked += 1
    assert checked > 10


def test_junk_is_refused_at_its_first_line_not_after_reading_all(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lines that are no log: refused as entry 1, each line checked as it is read (they
    # were all read into objects first, gigabytes for a large file).
    from haidi import cli

    read: list[str] = []
    json_line = cli._json

    def counted(line: str, where: str) -> Any:
        read.append(where)
        return json_line(line, where)

    monkeypatch.setattr(cli, "_json", counted)
    with pytest.raises(haidi.HandError, match=r"^entry 1: not a log"):
        viewer.page("[]\n" * 100_000)
    assert read == ["line 1"]


def test_a_flower_turned_up_shows_the_other_flowers_as_the_wilds_and_is_analysed() -> None:
    # "如是花财神": with a flower turned up the other three are the wilds, held in the hand;
    # the analysis gives them so (docs/analysis.md), not as extra wilds.
    g = haidi.Game("longgang", 44)
    rng = random.Random(44)
    while not g.done:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        g.step(seat, next((a for a in legal if a["type"] == "win"), None) or rng.choice(legal))
    assert g.log[0]["wall"][-1] == "2f" and g.observation(0)["indicator"] == "2f"
    hand = viewer.hand_data(g.log, analysis=True)
    assert hand["steps"][0][0]["wilds"] == ["1f", "3f", "4f"]
    asked = [a for step in hand["steps"] if len(step) > 2 for a in step[2].values()]
    assert len(asked) > 20 and all("rows" in a for a in asked), [a.get("error") for a in asked if "error" in a][:1]


@browser
def test_the_browser_shows_the_analysis_of_the_followed_seat(tmp_path: Path) -> None:
    log = played("mcr", 22).log
    path = tmp_path / "hand.html"
    text = viewer.page([log], analysis=True)
    path.write_text(text, encoding="utf-8")
    (hand,) = page_data(text)["hands"]
    # The first discard that left a worse hand than the best one analyze names.
    k, seat, a = next(
        (k, int(s), a)
        for k, step in enumerate(hand["steps"])
        for s, a in (step[2].items() if len(step) > 2 else ())
        if a.get("chose") in [r[0] for r in a["rows"][1:]]
        and a["rows"][0][1:3] != next(r for r in a["rows"] if r[0] == a["chose"])[1:3]
    )
    d = dom(path, f"hand=1&step={k}&follow={seat}")
    assert d.of("analysis") == [r[0] for r in a["rows"]] + [w[0] for r in a["rows"] for w in r[3]]
    assert d.of("analysis", "chose")[:1] == [a["chose"]]
    assert "discarded " + a["chose"] in d.text["analysis"] and "the best: " + a["rows"][0][0] in d.text["analysis"]
    # Another seat followed: no analysis of this one shown.
    other = dom(path, f"hand=1&step={k}&follow={(seat + 1) % 4}")
    assert other.text.get("analysis", "").strip() == ""


@browser
def test_the_browser_shows_a_hand_laid_open_to_the_other_seats(tmp_path: Path) -> None:
    # Tangshan's 明听: the hand laid open is shown to all, its later draws as backs.
    log = played("tangshan", 1).log
    actions = [e for e in log if e["event"] == "action"]
    k = next(i for i, e in enumerate(actions) if e["action"]["type"] == "open_ready")
    seat = actions[k]["seat"]
    path = tmp_path / "hand.html"
    path.write_text(haidi.html(log), encoding="utf-8")
    for after in (k + 1, k + 2):
        seen = stepped(log, after).observation((seat + 1) % 4)
        d = dom(path, f"hand=1&step={after}&view={(seat + 1) % 4}")
        laid = viewer._tiles(seen["open_hands"][seat])
        assert d.of(f"seat-{seat}", "hand") == laid + [None] * (seen["concealed_counts"][seat] - len(laid))
        assert "明听" in d.text[f"seat-{seat}"]


@browser
def test_the_browser_shows_a_won_hand_of_every_ruleset(tmp_path: Path) -> None:
    games = [played(*HANDS[name]) for name in HANDS] + [two_winners()]
    path = tmp_path / "rulesets.html"
    path.write_text(haidi.html(games), encoding="utf-8")
    b = Browser(path.as_uri())
    try:
        for h, g in enumerate(games):
            if h:
                b.key("PageDown")
            b.key("End")
            d = b.dom()
            assert f"hand {h + 1} of {len(games)} ({g.ruleset.name}" in d.text["where"]
            assert [int(d.text[f"pay-{s}"]) for s in range(4)] == g.result["payments"]
            wins = g.result["wins"]
            assert d.text["result"].count(" wins on ") == len(wins)
            for w in wins:
                assert f"seat {w['seat']} {'ESWN'[w['seat']]}" in d.text["result"]
                assert f": {w['score']['total']}" in d.text["result"]
            # Every kind of meld of the hand is drawn, with its supplier.
            final = g.observation(0)
            assert len(d.of("melds")) == sum(
                3 if m["type"] in ("chow", "pung") else 4 for s in range(4) for m in final["meld_info"][s]
            )
    finally:
        b.close()


def test_the_page_reads_log_lines_as_replay_reads_them() -> None:
    """One JSON reader: NaN, a key given twice and bytes that are not UTF-8 are refused as
    `haidi replay` refuses them; a line ends at a line feed only, so a string holding
    U+2028 (which JSON allows) stays in its line."""
    from haidi import viewer

    for text, named in [
        (b"\xff\n", "a log is UTF-8 text"),
        ('{"event": "match", "hands": NaN}\n', "not JSON"),
        ('[{"event": "start", "rules": "mcr", "rules": "x"}]\n', "given twice"),
    ]:
        with pytest.raises(haidi.HandError, match=named):
            viewer.page(text)
    g = haidi.Game("mcr", 3)
    while not g.done:
        seat = g.to_act[0]
        g.step(seat, g.legal_actions(seat)[0])
    log = g.log
    log[0] = {**log[0], "note": "a\u2028b\u0085c"}
    text = json.dumps(log, ensure_ascii=False) + "\n"
    header, logs = viewer.read_logs(text)
    assert header is None and logs[0][0]["note"] == "a\u2028b\u0085c"


def test_page_and_reproduce_read_their_arguments() -> None:
    from haidi import reproduce, viewer

    with pytest.raises(haidi.HandError, match="title is text"):
        viewer.page(haidi.Game("mcr", 1), title=5)  # type: ignore[arg-type]
    with pytest.raises(haidi.HandError, match="progress is a function"):
        reproduce.run(5, progress=5)  # type: ignore[arg-type]


@browser
def test_the_browser_shows_the_match_headers_players_and_payments(tmp_path: Path, capsys) -> None:
    header, lines = match_log(tmp_path, "mcr", 2)
    capsys.readouterr()
    path = tmp_path / "match.html"
    path.write_text(viewer.page("\n".join([json.dumps(header), *lines])), encoding="utf-8")
    shown = dom(path, "hand=1").text["players"]
    for p, (name, paid) in enumerate(zip(header["players"], header["payments"], strict=True)):
        assert f"player {p} {name} {'+' if paid > 0 else ''}{paid}" in shown
