"""Botzone's MCR match logs: ten hands of real play (tests/data/botzone_matches.txt), scored
by Botzone's judge with ChineseOfficialMahjongHelper, replayed through haidi's game;
haidi's own hands (with every kind of kong and claim) written in the format, read back and
replayed; training examples exported."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import orjson
import pytest

import haidi
from haidi import botzone as bz
from haidi.play import to_botzone

from conftest import DATA

TEN = DATA / "botzone_matches.txt"
TEN_TEXT = TEN.read_text(encoding="utf-8")


def _blocks(text: str) -> list[str]:
    return [b for b in text.strip().split("\n\n")]


def _log_end(block: str) -> tuple[int | None, int | None, list[int]]:
    """The winner, fan total and payments written at the end of a hand's text, read with
    plain string operations (independent of the reader under test)."""
    lines = block.strip().splitlines()
    scores = [int(x) for x in lines[-1].split()[1:]]
    if lines[-2] == "Huang":
        return None, None, scores
    fan = int(lines[-2].split()[1])
    winner = int(lines[-3].split()[1])
    return winner, fan, scores


@pytest.mark.parametrize("block", _blocks(TEN_TEXT), ids=lambda b: b.split()[1][-6:])
def test_the_ten_hands_replay_to_their_recorded_fans_and_scores(block: str) -> None:
    (m,) = bz.parse(block)
    g = bz.replay(m)
    winner, fan, scores = _log_end(block)
    result = g.result
    assert result is not None
    assert result["payments"] == scores
    if winner is None:
        assert result["exhausted"] and not result["wins"]
    else:
        (w,) = result["wins"]
        assert w["seat"] == winner
        assert w["score"]["total"] == fan
        # The fans themselves, as the log lists them (嵌张 is haidi's 坎张).
        listed = dict(re.findall(r"([^+*]+)\*(\d+)", block.strip().splitlines()[-2].split()[2]))
        mine = {bz._TO_FAN_NAMES.get(f["name"], f["name"]): str(f["count"]) for f in w["score"]["fans"]}
        assert mine == listed
    assert bz.differences(m, g) == []


def _written(seeds: range) -> list[bz.Match]:
    """haidi's hands of these seeds, written in Botzone's format and read back."""
    return [m for seed in seeds for m in bz.parse(bz.write(_play(seed)))]


def test_every_event_kind_of_the_logs_is_read() -> None:
    matches = list(bz.read(TEN)) + _written(range(90))
    kinds = {e.kind for m in matches for e in m.events}
    assert kinds == {"Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu"}
    ignored = {k for m in matches for e in m.events for _, k, _ in e.ignored}
    assert ignored == {"Chi", "Peng", "Gang"}
    assert any(m.huang for m in matches)
    # A win overriding another win: the first seat after the discarder takes it (截和).
    # (The first real hand's last discard taken by two: read, not replayed.)
    block = _blocks(TEN_TEXT)[0].replace("Player 1 Hu B7", "Player 1 Hu B7 Ignore Player 3 Hu B7")
    (m,) = bz.parse(block)
    assert m.events[-1].kind == "Hu" and m.events[-1].ignored == ((3, "Hu", "7p"),)


def test_a_kong_is_replayed_as_haidis_kong_and_its_replacement_comes_from_the_end() -> None:
    for m in _written(range(90)):
        kongs = [e for e in m.events if e.kind in ("Gang", "AnGang", "BuGang")]
        if not kongs:
            continue
        g = bz.replay(m)
        assert bz.differences(m, g) == []
        replacements = [e["tile"] for e in g.log if e["event"] == "draw" and e["replacement"]]
        # A replacement after each kong (and each flower), the wall's last tiles taken
        # from its end.
        assert len(replacements) >= len(kongs)
        tiles = bz.wall(m).tiles
        assert tiles[len(tiles) - len(replacements) :][::-1] == replacements


def test_a_drawn_hand_ends_where_the_log_says_because_of_kept_tiles() -> None:
    m = next(m for m in bz.read(TEN) if m.huang)
    w = bz.wall(m)
    # Botzone's judge deals each player from its own quarter of the wall and ends the
    # hand when the player to draw finds its quarter empty: four tiles were never drawn,
    # and the eight flowers of haidi's wall, which the hand was played without.
    assert len(w.unseen) == 12 and sum(t.endswith("f") for t in w.unseen) == 8
    assert w.kept == 12
    g = haidi.Game("mcr", wall=w.tiles, carry={"round_wind": "S"}, kept=w.kept)
    assert g.log[0]["kept"] == 12
    assert haidi.Game.replay(bz.replay(m).log).result["exhausted"]
    # Without them haidi's hand goes on past the log's end.
    original = bz.wall
    try:
        bz.wall = lambda match: bz.Wall(w.tiles, w.unseen, None)  # type: ignore[assignment]
        with pytest.raises(haidi.HandError, match="haidi's hand goes on"):
            bz.replay(m)
    finally:
        bz.wall = original  # type: ignore[assignment]


def test_the_rebuilt_wall_deals_the_logged_hands_and_draws() -> None:
    for m in bz.read(TEN):
        g = bz.replay(m)
        deals = [e for e in g.log if e["event"] == "deal"]
        for s, e in enumerate(deals):
            dealt = e["tiles"][:13]
            assert sorted(dealt) == sorted(m.deals[s])
        assert deals[0]["tiles"][13] == m.events[0].tile
        drawn = [(e["seat"], e["tile"]) for e in g.log if e["event"] == "draw"]
        logged = [(e.player, e.tile) for e in m.events if e.kind == "Draw"][1:]
        assert drawn == logged
        assert sorted(bz.wall(m).tiles) == sorted(haidi.Game("mcr").wall)


@pytest.mark.parametrize(
    ("wall", "message"),
    [
        (lambda w: w[:-1], "143 tiles|holds its tile set once"),
        (lambda w: [*w[:-1], "1m"], "holds its tile set once"),
        (lambda w: [*w[:-1], "W1"], "W1"),
    ],
)
def test_a_wrong_wall_is_a_hand_error(wall, message) -> None:
    w = haidi.Game("mcr").wall
    with pytest.raises(haidi.HandError, match=message):
        haidi.Game("mcr", wall=wall(w))


@pytest.mark.parametrize("kept", [-1, 33, "3", 1.5])
def test_a_wrong_kept_is_a_hand_error(kept) -> None:
    with pytest.raises(haidi.HandError, match="kept"):
        haidi.Game("mcr", kept=kept)


FIRST = _blocks(TEN_TEXT)[0]


def _broken(old: str, new: str, count: int = 1) -> str:
    assert old in FIRST
    return FIRST.replace(old, new, count)


@pytest.mark.parametrize(
    ("text", "line", "field"),
    [
        (_broken("Wind 1", "Wind 5"), 2, "Wind"),
        (_broken("Wind 1", "Wand 1"), 2, "Wind"),
        (_broken("Player 0 Deal T8 B7", "Player 0 Deal X8 B7"), 3, "Deal"),
        (_broken("Player 1 Deal B5 W5 F3 ", "Player 1 Deal B5 W5 "), 4, "Deal"),
        (_broken("Player 0 Draw J3", "Player 7 Draw J3"), 7, "player"),
        (_broken("Player 0 Play T6", "Player 0 Toss T6"), 8, "event"),
        (_broken("Player 0 Play T6", "Player 0 Play"), 8, "Play"),
        (_broken("Player 0 Play T6", "Player 0 Play H1"), 8, "Play"),
        (_broken("Ignore Player 3 Chi W8", "Ignore Player 3 Chi"), 45, "Ignore"),
        (_broken("Ignore Player 3 Chi W8", "Ignore Player 3 Eat W8"), 45, "Ignore"),
        (_broken("Ignore Player 3 Chi W8", "Ignore Player 0 Chi W8"), 45, "Ignore"),
        (_broken("Fan 9 混一色*1", "Fan 9 混一色"), 104, "Fan"),
        (_broken("Fan 9 混一色*1", "Fan nine 混一色*1"), 104, "Fan"),
        (_broken("Score -8 33 -17 -8", "Score -8 33 -17 -9"), 105, "Score"),
        (_broken("Score -8 33 -17 -8", "Score -8 33 -17"), 105, "Score"),
        (_broken("\nScore -8 33 -17 -8", ""), 104, "Score"),
        (_broken("Fan 9", "Huang\nFan 9"), 104, "Huang"),
        (_broken("Player 1 Hu B7", "Player 1 Hu B7\nPlayer 1 Play B7"), 104, "Player"),
        (_broken("Player 1 Hu B7", "Player 1 Play B7"), 104, "Fan"),
        (_broken("Match 61602cb45ddc087351c04358", "Game 61602cb45ddc087351c04358"), 1, "Match"),
        # Numbers are ASCII digits: int() would read '１' and '٩'.
        (_broken("Wind 1", "Wind \uff11"), 2, "Wind"),
        (_broken("Score -8 33 -17 -8", "Score -8 33 -17 -\uff18"), 105, "Score"),
    ],
)
def test_malformed_input_is_a_hand_error_naming_the_line_and_the_field(text: str, line: int, field: str) -> None:
    with pytest.raises(haidi.HandError) as err:
        bz.parse(text)
    assert str(err.value).startswith(f"line {line}: {field}:"), str(err.value)


def test_a_deal_with_a_tile_too_many_is_named_by_its_own_line() -> None:
    # Player 0's Deal is line 3 (the Match line is 1), below three blank lines 6.
    lines = FIRST.split("\n")
    at = next(i for i, t in enumerate(lines) if t.startswith("Player 0 Deal"))
    lines[at] += " W1"
    for text, line in (("\n".join(lines), at + 1), ("\n\n\n" + "\n".join(lines), at + 4)):
        with pytest.raises(haidi.HandError, match=f"^line {line}: Deal: player 0 lists more tiles"):
            bz.wall(bz.parse(text)[0])


@pytest.mark.parametrize(
    ("old", "new", "line", "says"),
    [
        # A pung of a tile that was not played.
        ("Player 1 Peng J1", "Player 1 Peng J2", 47, "does not claim the tile just played"),
        # A discard of a tile the player does not hold.
        ("Player 0 Play T6", "Player 0 Play T7", 8, "haidi does not allow it"),
        # A chow from a player who is not the discarder's next.
        ("Player 2 Chi T5", "Player 3 Chi T5", 19, "may not claim"),
        # A win on a hand that is no win.
        ("Player 1 Hu B7", "Player 3 Hu B7", 103, "haidi does not allow it"),
        # A fifth tile of a kind.
        ("Player 0 Draw J3", "Player 0 Draw J1", 0, "more of J1 than the wall holds"),
    ],
)
def test_a_log_haidi_cannot_play_is_a_hand_error_naming_the_line(old: str, new: str, line: int, says: str) -> None:
    (m,) = bz.parse(_broken(old, new))
    with pytest.raises(haidi.HandError, match=says) as err:
        bz.replay(m)
    if line:
        assert str(err.value).startswith(f"line {line}:"), str(err.value)


def test_a_changed_score_is_reported_as_a_difference() -> None:
    (m,) = bz.parse(_broken("Score -8 33 -17 -8", "Score -17 33 -8 -8"))
    assert bz.differences(m, bz.replay(m)) == ["payments: log [-17, 33, -8, -8], haidi [-8, 33, -17, -8]"]
    (m,) = bz.parse(_broken("Fan 9 混一色*1", "Fan 10 混一色*1"))
    assert bz.differences(m, bz.replay(m)) == ["fan total: log 10, haidi 9"]


def _play(seed: int) -> haidi.Game:
    """A hand of haidi's played by an agent that claims and kongs often (so that every
    event kind is met), greedy in half the hands so that they are won."""
    g = haidi.Game("mcr", seed=seed)
    rng = random.Random(seed)
    while not g.done:
        s = g.to_act[0]
        acts = g.legal_actions(s)
        turn = all(a["type"] in ("discard", "concealed_kong", "added_kong", "win") for a in acts)
        if seed % 2 == 0 and turn and len(acts) > 1 and not any(a["type"] != "discard" for a in acts):
            a = g._greedy(s)
        else:
            keen = [a for a in acts if a["type"] in ("win", "kong", "added_kong", "concealed_kong", "pung", "chow")]
            a = rng.choice(keen) if keen and rng.random() < 0.7 else rng.choice(acts)
        g.step(s, a)
    return g


def test_haidis_hands_round_trip_through_botzones_format() -> None:
    seen: set[str] = set()
    for seed in range(300):
        g = _play(seed)
        text = bz.write(g)
        (m,) = bz.parse(text)
        again = bz.replay(m)
        assert again.log[1:] == g.log[1:], seed
        assert again.result["payments"] == g.result["payments"]
        assert bz.differences(m, again) == []
        assert bz.write(again, match_id=f"haidi-{seed}") == text
        seen |= {e.kind for e in m.events} | {k for e in m.events for _, k, _ in e.ignored}
        seen |= {"Huang"} if m.huang else set()
        seen |= {"flower"} if any(t.endswith("f") for d in m.deals for t in d) else set()
        seen |= {"Draw H"} if any(e.kind == "Draw" and e.tile.endswith("f") for e in m.events) else set()
    assert seen >= {"Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "Huang", "flower", "Draw H"}


def test_written_flowers_are_spelt_as_botzones_tiles() -> None:
    g = next(g for g in map(_play, range(50)) if any(e["event"] == "flower" for e in g.log))
    text = bz.write(g)
    assert re.search(r"Player \d Deal .*H[1-8]", text) or re.search(r"Draw H[1-8]", text)
    flowers = [to_botzone(e["tile"]) for e in g.log if e["event"] == "flower"]
    assert sorted(re.findall(r"H[1-8]", text)) == sorted(flowers)


def test_write_refuses_what_is_not_a_finished_mcr_hand() -> None:
    with pytest.raises(haidi.HandError, match="MCR"):
        bz.write(haidi.Game("changsha", seed=1).log)
    with pytest.raises(haidi.HandError, match="finished"):
        bz.write(haidi.Game("mcr", seed=1))
    with pytest.raises(haidi.HandError):
        bz.write("Match 1")  # type: ignore[arg-type]


def _played_log() -> list[dict]:
    g = haidi.Game("mcr", seed=4)
    while not g.done:
        s = g.to_act[0]
        g.step(s, g.legal_actions(s)[0])
    return g.log


def test_a_changed_log_is_refused_by_its_replay_before_it_is_written_or_exported(tmp_path) -> None:
    # Each of these once reached the writer's or the recorder's own indexing first: a
    # KeyError, IndexError, ValueError, TypeError or AttributeError.
    log = _played_log()
    act = next(i for i, e in enumerate(log) if e["event"] == "action")
    deal = next(i for i, e in enumerate(log) if e["event"] == "deal")

    def edited(i: int, event: object) -> list:
        return [*log[:i], event, *log[i + 1 :]]

    bad = [
        [1],
        [log[0], {"x": 1}, log[-1]],
        [{**log[0], "carry": {**log[0]["carry"], "round_wind": "X"}}, *log[1:]],
        edited(deal, {**log[deal], "seat": 9}),
        edited(deal, {k: v for k, v in log[deal].items() if k != "tiles"}),
        edited(act, {**log[act], "action": 5000}),
        edited(act, {**log[act], "action": "x"}),
        edited(act, {k: v for k, v in log[act].items() if k != "seat"}),
        edited(act, 5),
        log[: act + 1],
    ]
    for i, changed in enumerate(bad):
        with pytest.raises(haidi.HandError):
            bz.write(changed)
        path = tmp_path / f"bad{i}.jsonl"
        path.write_text(json.dumps(changed) + "\n")
        with pytest.raises(haidi.HandError):
            list(bz.examples([str(path)]))
    assert bz.write(log).startswith("Match haidi-4\n")
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(log) + "\n")
    assert len(list(bz.examples([str(good)]))) == sum(e["event"] == "action" for e in log)


def test_text_that_is_not_utf8_or_no_text_is_a_hand_error(tmp_path) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes(FIRST.encode() + b"\nMatch caf\xe9\n")
    with pytest.raises(haidi.HandError, match="not UTF-8 text"):
        list(bz.read(str(path)))
    with pytest.raises(haidi.HandError, match="parse takes the log's text"):
        bz.parse(FIRST.encode())  # type: ignore[arg-type]
    (m,) = bz.parse(FIRST)
    with pytest.raises(haidi.HandError, match="not over"):
        bz.differences(m, haidi.Game("mcr"))


ACTION_TYPES = {"discard", "chow", "pung", "kong", "concealed_kong", "added_kong", "win", "pass"}


def test_examples_are_one_a_decision_with_the_final_payment() -> None:
    matches = list(bz.read(TEN))
    rows = list(bz.examples(matches))
    steps = 0
    for m in matches:
        g = bz.replay(m)
        steps += sum(1 for e in g.log if e["event"] == "action")
    assert len(rows) == steps
    by_hand = {m.id: m for m in matches}
    for r in rows:
        assert r["payment"] == by_hand[r["hand"]].scores[r["seat"]]
        assert r["observation"].shape == (11, 34)
        assert json.loads(r["action"])["type"] in ACTION_TYPES
    # The observation is the seat's before its decision: a discarded tile is in its hand.
    r = next(r for r in rows if json.loads(r["action"])["type"] == "discard")
    kind = haidi.tile_names().index(json.loads(r["action"])["tile"])
    assert r["observation"][0, kind] >= 1


def test_examples_take_other_encoders() -> None:
    (m,) = bz.parse(FIRST)
    ids = {"discard": 1, "chow": 2, "pung": 3, "pass": 0, "win": 4}
    rows = list(
        bz.examples(
            m,
            observe=lambda g, s: np.array([s, len(g.legal_actions(s))]),
            encode_action=lambda a, g, s: ids[a["type"]],
            mask=lambda g, s: np.ones(3, dtype=bool),
        )
    )
    assert {r["action"] for r in rows} <= set(ids.values())
    assert all(r["observation"][0] == r["seat"] for r in rows)
    assert all(r["mask"].shape == (3,) for r in rows)


def test_export_streams_npz_shards_and_parquet(tmp_path) -> None:
    g = _play(0)
    logs = tmp_path / "games.jsonl"
    logs.write_bytes(orjson.dumps(g.log) + b"\n")
    sources = [str(TEN), str(logs)]
    counts = bz.export(sources, tmp_path / "npz", shard=100, progress=False)
    assert counts["hands"] == 11
    parts = sorted((tmp_path / "npz").glob("part-*.npz"))
    assert len(parts) == counts["files"] == -(-counts["examples"] // 100)
    loaded = [np.load(p) for p in parts]
    assert sum(len(d["seat"]) for d in loaded) == counts["examples"]
    obs = np.concatenate([d["observation"] for d in loaded])
    assert obs.shape == (counts["examples"], 11, 34) and obs.dtype == np.uint8
    expected = list(bz.examples(sources))
    assert [int(x) for d in loaded for x in d["payment"]] == [r["payment"] for r in expected]
    assert [str(x) for d in loaded for x in d["action"]] == [r["action"] for r in expected]

    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "examples.parquet"
    counts = bz.export(sources, out, format="parquet", shard=150, progress=False)
    table = pq.read_table(out)
    assert table.num_rows == counts["examples"]
    assert json.loads(table.schema.metadata[b"observation_shape"]) == [11, 34]
    flat = np.array(table.column("observation").to_pylist(), dtype=np.uint8)
    assert np.array_equal(flat.reshape(-1, 11, 34), obs)
    with pytest.raises(haidi.HandError, match="format"):
        bz.export(sources, tmp_path / "x", format="csv")


def test_the_command_replays_writes_and_exports(haidi_cli, tmp_path) -> None:
    code, out, _ = haidi_cli("botzone", "replay", str(TEN))
    assert code == 0 and out.endswith("10 of 10 hands agree\n")
    code, out, _ = haidi_cli("botzone", "replay", "--json", str(TEN))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 10 and all(r["agrees"] for r in rows)

    bad = tmp_path / "bad.txt"
    bad.write_text(FIRST.replace("Score -8 33 -17 -8", "Score -17 33 -8 -8"), encoding="utf-8")
    code, out, _ = haidi_cli("botzone", "replay", str(bad))
    assert code == 1 and "DIFFERS: payments" in out
    bad.write_text(FIRST.replace("Wind 1", "Wind 9"), encoding="utf-8")
    code, _, err = haidi_cli("botzone", "replay", str(bad))
    assert code == 2 and "line 2: Wind:" in err

    logs = tmp_path / "games.jsonl"
    games = [_play(s) for s in range(4)]
    logs.write_bytes(b"".join(orjson.dumps(g.log) + b"\n" for g in games))
    code, out, _ = haidi_cli("botzone", "write", str(logs))
    assert code == 0 and out == "".join(bz.write(g) for g in games)

    code, out, _ = haidi_cli("botzone", "export", str(TEN), "-o", str(tmp_path / "ex"), "-q")
    assert code == 0 and out.startswith(f"{len(list(bz.examples(str(TEN))))} examples of 10 hands")

    # The log `haidi play --log` writes: its match header first, then the hands.
    played = tmp_path / "played.jsonl"
    code, _, _ = haidi_cli(
        "play", "--bots", "random,random,random,random", "--games", "2", "--seed", "3", "--log", str(played)
    )
    assert code == 0 and orjson.loads(played.read_bytes().splitlines()[0])["event"] == "match"
    code, out, _ = haidi_cli("botzone", "write", str(played))
    assert code == 0 and out.count("Match ") == 2
    code, out, _ = haidi_cli("botzone", "export", str(played), "-o", str(tmp_path / "ex2"), "-q")
    assert code == 0 and " examples of 2 hands" in out
    twice = tmp_path / "twice.jsonl"
    lines = played.read_bytes().splitlines(keepends=True)
    twice.write_bytes(b"".join([lines[0], lines[1], lines[0]]))
    code, _, err = haidi_cli("botzone", "write", str(twice))
    assert code == 2 and "line 3: the match header must be the log's first line, once" in err


def test_a_replayed_hand_is_written_back_to_the_logs_own_text() -> None:
    """The wall rebuilt, the replay and the writer together: each real hand, replayed and
    written, is its own text again, line for line (deal order, claims, fans, payments)."""
    for block in _blocks(TEN_TEXT):
        (m,) = bz.parse(block)
        assert bz.write(bz.replay(m), match_id=m.id) == block.strip() + "\n\n"


def test_a_replay_with_kept_tiles_pickles_and_replays_from_its_log() -> None:
    import pickle

    m = next(m for m in bz.read(TEN) if m.huang)
    g = bz.replay(m)
    assert g.log[0]["kept"] == bz.wall(m).kept == 12
    again = pickle.loads(pickle.dumps(g))
    assert again.log == g.log and again.result["exhausted"]
    assert haidi.Game.replay(g.log).log == g.log


def test_a_robbed_kong_is_written_and_replayed_with_its_maker_paying() -> None:
    # A hand of haidi's in which seat 1 robs seat 0's added kong (抢杠和): the agent wins
    # whenever it may, adds kongs and pungs, else discards as the greedy agent does.
    g = haidi.Game("mcr", seed=38)
    rng = random.Random(38)
    while not g.done:
        s = g.to_act[0]
        acts = g.legal_actions(s)
        keen = [a for a in acts if a["type"] in ("added_kong", "pung")]
        if {"type": "win"} in acts:
            a = {"type": "win"}
        elif keen:
            a = keen[0]
        elif len(acts) > 1 and all(a["type"] in ("discard", "concealed_kong", "added_kong") for a in acts):
            a = g._greedy(s)
        else:
            a = rng.choice(acts)
        g.step(s, a)
    text = bz.write(g)
    assert "Player 0 BuGang B9\nPlayer 1 Hu B9\nFan 12 抢杠和*1" in text
    (m,) = bz.parse(text)
    again = bz.replay(m)
    assert again.log[1:] == g.log[1:] and bz.differences(m, again) == []
    # Botzone's judge and haidi's settle alike: the kong's maker pays as a discarder.
    assert m.scores == (-20, 36, -8, -8)


def test_write_and_export_name_the_file_and_line_of_a_log_that_does_not_replay(tmp_path, haidi_cli) -> None:
    g = haidi.Game("mcr", seed=3)
    while not g.done:
        seat = g.to_act[0]
        g.step(seat, g.legal_actions(seat)[0])
    log = json.loads(json.dumps(g.log))
    ended = next(e for e in log if e["event"] == "end")
    ended["exhausted"] = not ended["exhausted"]
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n" + json.dumps(log) + "\n")
    code, _, err = haidi_cli("botzone", "write", str(path))
    assert code == 2 and f"{path}: line 2:" in err
    code, _, err = haidi_cli("botzone", "export", str(path), "-o", str(tmp_path / "out"), "--quiet")
    assert code == 2 and f"{path}:2:" in err


def test_export_to_an_output_that_cannot_be_written_is_status_4(tmp_path, haidi_cli) -> None:
    taken = tmp_path / "taken"
    taken.write_text("a file where the npz folder goes")
    code, _, err = haidi_cli("botzone", "export", str(TEN), "-o", str(taken), "--quiet")
    assert code == 4 and f"cannot write {str(taken)!r}" in err
    code, _, err = haidi_cli("botzone", "export", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "out"), "--quiet")
    assert code == 2 and "cannot read" in err


def test_a_log_is_read_as_haidi_replay_reads_it(tmp_path, haidi_cli) -> None:
    # A key given twice is refused (JSON readers differ on which they keep); a header
    # after a blank line is still the first line.
    header, hand = _match_lines(haidi_cli, tmp_path)
    twice = tmp_path / "twice.jsonl"
    twice.write_text(hand.replace('"event":"start"', '"event":"start","event":"start"', 1) + "\n")
    for argv in (["write", str(twice)], ["export", str(twice), "-o", str(tmp_path / "o"), "-q"]):
        code, _, err = haidi_cli("botzone", *argv)
        assert code == 2 and "given twice" in err and str(twice) in err, err
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n# a comment\n" + header + "\n" + hand + "\n")
    code, out, err = haidi_cli("botzone", "write", str(blank))
    assert code == 0 and out.startswith("Match "), err


def test_text_that_is_not_utf8_is_named_by_its_file_and_line(tmp_path, haidi_cli) -> None:
    lines = TEN_TEXT.encode().split(b"\n")
    lines[4] += b"\xff"
    path = tmp_path / "u.txt"
    path.write_bytes(b"\n".join(lines))
    code, _, err = haidi_cli("botzone", "replay", str(TEN), str(path))
    assert code == 2 and f"{path}: line 5: not UTF-8 text" in err


def _match_lines(haidi_cli, tmp_path) -> tuple[str, str]:
    """The header and first hand of a match ``haidi play --log`` wrote."""
    log = tmp_path / "m.jsonl"
    code, _, err = haidi_cli("play", "--bots", "greedy,greedy,greedy,greedy", "--seed", "5", "--log", str(log))
    assert code == 0, err
    header, hand, *_ = log.read_text().splitlines()
    return header, hand
