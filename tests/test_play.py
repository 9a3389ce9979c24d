"""``haidi play`` (bot matches over JSON lines and Botzone's protocol), ``haidi replay``,
and ``simulate``'s duplicate play and pattern counts."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import haidi
from haidi import cli, play

PY = f"{sys.executable} -S"

#: A JSON-lines bot: the first legal action, and a note of each answer in its file.
FIRST_LEGAL = """
import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    req = json.loads(line)
    action = req["observation"]["legal_actions"][0]
    out.write(json.dumps([req["hand"], req["seat"], action]) + "\\n")
    out.flush()
    print(json.dumps(action), flush=True)
"""

#: Bots that misbehave: garbage, silence, an early end, a move that is not legal.
GARBAGE = "import sys\nfor line in sys.stdin:\n    print('discard 5m', flush=True)\n"
SILENT = "import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n"
QUITTER = """
import json, sys
for n, line in enumerate(sys.stdin):
    if n == 3:
        sys.exit(3)
    print(json.dumps(json.loads(line)["observation"]["legal_actions"][0]), flush=True)
"""
ILLEGAL = 'import sys\nfor line in sys.stdin:\n    print(\'{"type": "pung"}\', flush=True)\n'

#: A Botzone Chinese Standard Mahjong bot (simple interaction, long-running): it keeps
#: its hand from the requests alone, claims a pung whenever it holds two of a discard,
#: and discards its lowest tile. Any tile it plays that it does not hold is a fault.
BOTZONE = """
import sys
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
order = [s + str(r) for s in "WBT" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
hand, me, last, want = [], None, None, None
def lowest():
    return min(hand, key=order.index)
def answer(req):
    global hand, me, last, want
    w = req.split()
    if w[0] == "0":
        me = int(w[1]); return "PASS"
    if w[0] == "1":
        hand = w[5:18]; return "PASS"
    if w[0] == "2":
        hand.append(w[1]); t = lowest(); return "PLAY " + t
    who, what = int(w[1]), w[2]
    if who == me and what == "PLAY":
        hand.remove(w[3]); return "PASS"
    if who == me and what == "PENG":
        hand.remove(last); hand.remove(last); hand.remove(w[3]); return "PASS"
    if what in ("PLAY", "PENG", "CHI"):
        last = w[-1]
        if who != me and hand.count(last) >= 2:
            rest = list(hand); rest.remove(last); rest.remove(last)
            return "PENG " + min(rest, key=order.index)
    return "PASS"
mode = sys.argv[1] if len(sys.argv) > 1 else "keep"
if mode == "keep":
    sys.stdin.readline()
    for line in sys.stdin:
        print(answer(line.strip())); print(KEEP, flush=True)
elif mode == "keepjson":
    import json
    for req in json.loads(sys.stdin.readline())["requests"]:
        resp = answer(req)
    while True:
        print(json.dumps({"response": resp})); print(KEEP, flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        resp = answer(json.loads(line))
else:
    import json
    data = json.loads(sys.stdin.readline())
    for i, req in enumerate(data["requests"]):
        resp = answer(req)
    print(json.dumps({"response": resp, "debug": "one turn"}))
"""


def _script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return f"{PY} {path}"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _logs(path: Path) -> list[list[dict]]:
    """The hands of a match's log (its first line, the match header, left out)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["event"] == "match"
    return lines[1:]


def test_a_match_of_bot_programs_and_agents_logs_hands_that_replay(tmp_path, capsys):
    notes = tmp_path / "answers.jsonl"
    bot = _script(tmp_path, "first.py", FIRST_LEGAL) + f" {notes}"
    log = tmp_path / "games.jsonl"
    status, out, err = _run(
        capsys,
        "play",
        "--bots",
        f"random,greedy,{bot},{bot}",
        "--games",
        "3",
        "--seed",
        "5",
        "--log",
        str(log),
        "--json",
    )
    assert status == 0, err
    summary = json.loads(out)
    assert summary["hands"] == 3 and sum(summary["seat_payments"]) == 0
    assert [p["faults"] for p in summary["players"]] == [0, 0, 0, 0]
    hands = _logs(log)
    assert len(hands) == 3
    totals, by_player = [0, 0, 0, 0], [0, 0, 0, 0]
    answered = [json.loads(line) for line in notes.read_text().splitlines()]
    asked = 0
    for h, events in enumerate(hands):
        assert events[0]["seed"] == play.wall_seed(5, h, False)
        # MCR's deal passes on every hand: players 0 to 3 deal hands 0 to 2 in turn.
        assert events[0]["carry"] == {"dealer": h, "round_wind": "E", "streak": 0}
        g = haidi.Game.replay(events)
        assert sum(g.result["payments"]) == 0
        totals = [a + b for a, b in zip(totals, g.result["payments"], strict=True)]
        seats = [play.seating(p, h, False, h) for p in range(4)]
        by_player = [a + g.result["payments"][s] for a, s in zip(by_player, seats, strict=True)]
        # The logged actions of the bot seats are the answers the bots gave, in order.
        bots = {seats[2], seats[3]}
        mine = [[h, e["seat"], e["action"]] for e in events if e["event"] == "action" and e["seat"] in bots]
        assert mine == answered[asked : asked + len(mine)]
        asked += len(mine)
    assert asked == len(answered) > 0
    assert totals == summary["seat_payments"]
    assert by_player == [p["payments"] for p in summary["players"]]


def test_bad_answers_timeouts_and_dead_bots_are_replaced_by_the_default(tmp_path, capsys):
    bots = [_script(tmp_path, f"{n}.py", t) for n, t in [("g", GARBAGE), ("s", SILENT), ("q", QUITTER), ("i", ILLEGAL)]]
    log = tmp_path / "games.jsonl"
    argv = ["play", "--bots", ",".join(bots), "--games", "2", "--timeout", "0.5", "--log", str(log), "--json"]
    status, out, err = _run(capsys, *argv)
    assert status == cli.EXIT_BOT_FAULTED == 3
    summary = json.loads(out)
    faults = [p["faults"] for p in summary["players"]]
    # Garbage and illegal moves: a fault an answer; silence and an end: one, then stopped.
    assert faults[0] > 10 and faults[3] > 10 and faults[1] == 1 and faults[2] == 1
    assert "no answer in 0.5 s" in err and "exited with status 3" in err and "not JSON" in err
    assert "the bot is stopped" in err and err.endswith("haidi play: 4 of 4 players faulted (exit status 3)\n")
    stops = [p["stops"] for p in summary["players"]]
    assert stops[0] == stops[3] == [] and stops[1][0]["hand"] == 0 and stops[2][0]["fault"] == "exited with status 3"
    # The bots speak JSON: the fault lines quote their answers and actions as JSON only.
    assert 'answered "discard 5m", which is not JSON' in err and '{"type": "pung"} is not legal for seat' in err
    assert "'" not in err
    for events in _logs(log):
        g = haidi.Game.replay(events)
        assert sum(g.result["payments"]) == 0
        # The seat of the silent bot played the default: pass where it may, else 摸切.
        assert g.done


def test_a_bot_that_never_answers_is_named_with_the_hand_and_seat_it_stopped_at(tmp_path, capsys):
    """A silent bot is stopped at its first decision and its seat plays the default moves
    to the end: one fault, yet none of its moves its own. The summary says so plainly and
    the exit status tells a script."""
    silent = _script(tmp_path, "s.py", SILENT)
    argv = ["play", "--bots", f"random,{silent},greedy,random", "--games", "3", "--seed", "4", "--timeout", "0.5"]
    status, out, err = _run(capsys, *argv)
    assert status == 3
    seat = play.seating(1, 0, False, 0)
    stopped = [line for line in out.splitlines() if "STOPPED" in line]
    assert stopped == [
        f"player 1 ({silent}) STOPPED in hand 0 at seat {seat}: no answer in 0.5 s; "
        "its seat played the default moves to the end of the match"
    ]
    assert "1 of 4 players faulted (exit status 3)" in err
    status, out, _ = _run(capsys, *argv, "--json")
    assert status == 3
    assert json.loads(out)["players"][1]["stops"] == [{"hand": 0, "seat": seat, "fault": "no answer in 0.5 s"}]
    # A match without a fault says nothing of stops, and exits 0.
    status, out, err = _run(capsys, "play", "--bots", "random,greedy,random,greedy", "--games", "2")
    assert status == 0 and "STOPPED" not in out and err == ""


def test_the_readme_play_command_runs_as_written_with_the_example_bot(tmp_path, capsys, monkeypatch):
    """The README's ``haidi play`` command, run from the repository's root, plays its
    bot, examples/bot.py, without a fault (two hands instead of a hundred)."""
    import shlex

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    command = next(line[2:] for line in readme.splitlines() if line.startswith("$ haidi play --bots"))
    argv = shlex.split(command)
    assert argv[0] == "haidi" and "python examples/bot.py" in argv[argv.index("--bots") + 1].split(",")
    argv[argv.index("--games") + 1] = "2"
    argv[argv.index("--log") + 1] = str(tmp_path / "games.jsonl")
    monkeypatch.chdir(root)
    # "python" is this interpreter, as in the environment the README's reader works in.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    status, out, err = _run(capsys, *argv[1:], "--json")
    assert status == 0, err
    summary = json.loads(out)
    assert summary["hands"] == 2 and [p["faults"] for p in summary["players"]] == [0, 0, 0, 0]
    # The bot played: its seats' actions are in the logs, and they replay.
    for events in _logs(tmp_path / "games.jsonl"):
        assert haidi.Game.replay(events).done


def test_default_action_passes_else_discards_the_tile_drawn():
    g = haidi.Game("mcr", seed=3)
    seat = g.to_act[0]
    mine = [e for e in g.log if e["event"] in ("deal", "draw") and e["seat"] == seat]
    drawn = [e["tile"] for e in mine if e["event"] == "draw" and not e["tile"].endswith("f")]
    action = play.default_action(g, seat)
    # The dealer's first move: the tile dealt to it last, or the last replacement it drew.
    assert action == {"type": "discard", "tile": drawn[-1] if drawn else mine[0]["tiles"][-1]}
    assert action in g.legal_actions(seat)
    while not g.done and {"type": "pass"} not in g.legal_actions(g.to_act[0]):
        g.step(g.to_act[0], g.legal_actions(g.to_act[0])[0])
    if not g.done:
        assert play.default_action(g, g.to_act[0]) == {"type": "pass"}


def test_duplicate_play_rotates_the_players_over_each_wall(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    argv = ["play", "--bots", "greedy,random,random,random", "--games", "8", "--seed", "2", "--duplicate"]
    status, out, _ = _run(capsys, *argv, "--log", str(log), "--json")
    assert status == 0
    summary = json.loads(out)
    hands = _logs(log)
    payments = [0, 0, 0, 0]
    for w in range(2):
        walls = {tuple(hands[4 * w + r][0]["wall"]) for r in range(4)}
        assert len(walls) == 1  # one wall for the four hands
        dealt = []
        for r in range(4):
            events = hands[4 * w + r]
            g = haidi.Game.replay(events)
            # Each rotation a match of its own: MCR's deal passes on once a wall.
            dealer = events[0]["carry"]["dealer"]
            assert dealer == w
            seat = play.seating(0, r, True, dealer)  # the greedy player's seat
            dealt.append(next(e["tiles"] for e in events if e["event"] == "deal" and e["seat"] == seat))
            for p in range(4):
                payments[p] += g.result["payments"][play.seating(p, r, True, dealer)]
        # The greedy player held each seat's tiles of the wall once.
        first = hands[4 * w]
        assert sorted(map(tuple, dealt)) == sorted(tuple(e["tiles"]) for e in first if e["event"] == "deal")
    assert payments == [p["payments"] for p in summary["players"]]
    assert _run(capsys, "play", "--bots", "random,random,random,random", "--games", "6", "--duplicate")[0] == 2


def test_replay_agrees_with_a_log_and_refuses_a_changed_one(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    assert _run(capsys, "play", "--bots", "random,random,greedy,greedy", "--games", "3", "--log", str(log))[0] == 0
    status, out, _ = _run(capsys, "replay", str(log), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0] == {"line": 1, "match": True, "rules": "mcr", "hands": 3}
    assert rows[-1] == {"match": True, "agrees": True, "authenticated": False}
    rows = rows[1:-1]
    assert status == 0 and [r["agrees"] for r in rows] == [True] * 3
    assert all(sum(r["payments"]) == 0 for r in rows)
    # A draw changed to another tile: the replay differs from the log. (Not a discard
    # changed to another legal one: then the rest of the log may well be a game too.)
    hands = _logs(log)
    events = hands[1]
    i = next(k for k, e in enumerate(events) if e["event"] == "draw")
    other = "1m" if events[i]["tile"] != "1m" else "2m"
    events[i] = {**events[i], "tile": other}
    changed = tmp_path / "changed.jsonl"
    header = log.read_text().splitlines()[0]
    changed.write_text(header + "\n" + "\n".join(json.dumps(h) for h in hands) + "\n")
    status, out, _ = _run(capsys, "replay", str(changed), "--json")
    rows = [json.loads(line) for line in out.splitlines() if "match" not in line]
    assert status == 1 and [r["agrees"] for r in rows] == [True, False, True]
    assert rows[1]["error"].startswith("log event")
    status, out, _ = _run(capsys, "replay", str(changed))
    assert status == 1 and "2 of 3 hands agree" in out
    # A line that is no log at all is bad input.
    (tmp_path / "bad.jsonl").write_text(json.dumps(hands[0]) + "\n{not json\n[1, 2]\n")
    status, out, _ = _run(capsys, "replay", str(tmp_path / "bad.jsonl"), "--json")
    assert status == 2 and [json.loads(line)["agrees"] for line in out.splitlines()] == [True, False, False]


def test_botzone_tiles_name_the_dragons_as_pymahjonggb_reads_them():
    mahjonggb = pytest.importorskip("MahjongGB")
    # 绿一色 (All Green) holds 發 only: J2 must be 6z, haidi's 發.
    hand = [play.to_botzone(t) for t in ["2s", "2s", "2s", "3s", "3s", "3s", "4s", "4s", "4s", "6s", "6z", "6z", "6z"]]
    fans = mahjonggb.MahjongFanCalculator(
        pack=(), hand=tuple(hand), winTile="T6", flowerCount=0, isSelfDrawn=False, is4thTile=False,
        isAboutKong=False, isWallLast=False, seatWind=0, prevalentWind=0,
    )  # fmt: skip
    assert "绿一色" in [name for _, name in fans]
    assert [play.from_botzone(play.to_botzone(t)) for t in haidi.tile_names()] == list(haidi.tile_names())
    with pytest.raises(haidi.HandError, match="no Botzone tile"):
        play.from_botzone("Z9")


def test_botzone_responses_read_as_actions():
    assert play.botzone_actions("PENG T6") == [{"type": "pung"}, {"type": "discard", "tile": "6s"}]
    assert play.botzone_actions("CHI W3 J1") == [{"type": "chow", "tile": "2m"}, {"type": "discard", "tile": "7z"}]
    assert play.botzone_actions("GANG") == [{"type": "kong"}]
    assert play.botzone_actions("GANG B1") == [{"type": "concealed_kong", "tile": "1p"}]
    assert play.botzone_actions("BUGANG F2") == [{"type": "added_kong", "tile": "2z"}]
    for bad in ["", "PLAY", "CHI W1 W2", "HU now", "PLAY Q1"]:
        with pytest.raises(haidi.HandError):
            play.botzone_actions(bad)


def test_botzone_requests_follow_the_judge_format():
    g = haidi.Game("mcr", seed=11)
    turns = play.BotzoneTurns()
    first = turns.next(g._events())
    assert [t[0] for t in first[:1]] == ["0 0 0"] and first[0][3] == "0 3 0"
    deal = first[1][2].split()
    flowers = [int(x) for x in deal[1:5]]
    assert deal[0] == "1" and len(deal) == 5 + 13 + sum(flowers)
    assert all(t[0] == "H" for t in deal[18:]) and not any(t[0] == "H" for t in deal[5:18])
    assert first[2][0].startswith("2 ") and first[2][1:] == ["3 0 DRAW"] * 3
    # Seat 0's 13 tiles and its draw are its hand.
    mine = Counter(play.from_botzone(t) for t in first[1][0].split()[5:18] + [first[2][0].split()[1]])
    assert mine == Counter(_tiles(g.observation(0)["hand"]))


def test_botzone_quan_is_the_prevailing_wind_of_the_carry(monkeypatch):
    # The judge's first request is "0 playerID quan", quan the prevailing wind (initdata's
    # quan on Botzone): a match's fifth MCR hand is in the South round, every player having dealt.
    seen = []
    real = play.BotzoneTurns
    monkeypatch.setattr(play, "BotzoneTurns", lambda quan=0: seen.append(quan) or real(quan))
    match = play.Match("mcr", play.make_players(["greedy"] * 4, protocol="botzone"), seed=3, protocol="botzone")
    games = list(match.hands(5))
    assert [g.carry["round_wind"] for g in games] == list("EEEES") and seen == [0, 0, 0, 0, 1]
    assert real(1).next(games[4]._events())[0] == ["0 0 1", "0 1 1", "0 2 1", "0 3 1"]


def _tiles(compact: str) -> list[str]:
    out, digits = [], ""
    for c in compact:
        if c.isdigit():
            digits += c
        else:
            out += [d + c for d in digits]
            digits = ""
    return out


@pytest.mark.parametrize("io", ["simple", "json", "keepjson"])
def test_a_botzone_bot_plays_unchanged(tmp_path, capsys, io):
    # Long-running bots in simple interaction (and in JSON) at three seats; in JSON, one
    # bot started afresh each turn with the whole history.
    keep = _script(tmp_path, "bz.py", BOTZONE)
    bots = [keep + " once", "greedy", "greedy", "greedy"]
    if io != "json":
        bots = [f"{keep} {'keep' if io == 'simple' else 'keepjson'}"] * 3 + ["greedy"]
    log = tmp_path / "games.jsonl"
    # (seed 2's hand is short: 63 turns, each a start of the JSON bot.)
    games, seed = ("1", "2") if io == "json" else ("3", "4")
    kept = io != "json"
    io = "json" if io == "keepjson" else io
    argv = ["play", "--protocol", "botzone", "--botzone-io", io, "--bots", ",".join(bots), "--games", games]
    status, out, err = _run(capsys, *argv, "--seed", seed, "--log", str(log), "--json", "--timeout", "20")
    assert status == 0, err
    summary = json.loads(out)
    assert [p["faults"] for p in summary["players"]] == [0, 0, 0, 0], err
    pungs = 0
    for events in _logs(log):
        g = haidi.Game.replay(events)
        assert sum(g.result["payments"]) == 0
        pungs += sum(e["event"] == "claim" and e["seat"] in (0, 1, 2) for e in events)
    assert pungs > 0 or not kept  # the bots' PENG answers were played


def test_a_botzone_bot_that_answers_nonsense_is_played_by_the_default(tmp_path, capsys):
    nonsense = "import sys\nsys.stdin.readline()\nfor line in sys.stdin:\n    print('PLAY Z9')\n"
    nonsense += "    print('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"
    bot = _script(tmp_path, "nonsense.py", nonsense)
    log = tmp_path / "games.jsonl"
    argv = ["play", "--protocol", "botzone", "--botzone-io", "simple", "--bots", f"{bot},greedy,greedy,greedy"]
    status, out, err = _run(capsys, *argv, "--seed", "2", "--log", str(log), "--json")
    assert status == 3
    # Each move of seat 0 is a fault (its other answers are asked for no decision).
    moves = sum(e["event"] == "action" and e["seat"] == 0 for e in _logs(log)[0])
    assert json.loads(out)["players"][0]["faults"] == moves > 0
    assert '"Z9" is no Botzone tile' in err
    assert sum(haidi.Game.replay(_logs(log)[0]).result["payments"]) == 0


@pytest.mark.parametrize("kept", [False, True])
def test_a_botzone_bot_that_answers_no_json_keeps_its_history(tmp_path, capsys, kept):
    # A program a turn and a long-running one, each answering a line that is not JSON.
    bot = "echo nope"
    if kept:
        (tmp_path / "nope.sh").write_text(f"while read -r line; do echo nope; echo '{play.KEEP_RUNNING}'; done\n")
        bot = f"sh {tmp_path / 'nope.sh'}"
    log = tmp_path / "games.jsonl"
    argv = ["play", "--protocol", "botzone", "--bots", f"{bot},greedy,greedy,greedy", "--seed", "2"]
    status, out, err = _run(capsys, *argv, "--log", str(log), "--json")
    assert status == 3
    # Every turn's answer is a fault: more than the three turns of the deal.
    faults = json.loads(out)["players"][0]["faults"]
    assert faults > 50 and "which is not JSON" in err and "stopped" not in err
    assert sum(haidi.Game.replay(_logs(log)[0]).result["payments"]) == 0


def test_play_refuses_bad_usage(capsys):
    assert _run(capsys, "play", "--bots", "random,random,random")[0] == 2
    assert _run(capsys, "play", "--bots", "random,,random,random")[0] == 2
    assert _run(capsys, "play", "--rules", "hainan", "--protocol", "botzone", "--bots", "a,b,c,d")[0] == 2
    with pytest.raises(SystemExit):
        cli.main(["play", "--bots", "random,random,random,random", "--timeout", "0"])


def test_simulate_duplicate_seats_each_player_on_each_hand_of_a_wall():
    r = haidi.simulate("mcr", 16, seed=3, agents=["greedy", "random", "random", "random"], duplicate=True)
    seeds = r["seeds"]
    assert all(len(set(seeds[4 * w : 4 * w + 4])) == 1 for w in range(4)) and len(set(seeds)) == 4
    for w in range(4):
        # Player p's seat over the four hands of a wall: every seat once.
        for p in range(4):
            assert sorted(int(np.flatnonzero(r["players"][4 * w + k] == p)[0]) for k in range(4)) == [0, 1, 2, 3]
    rows = np.arange(16)[:, None]
    assert (r["player_payments"][rows, r["players"]] == r["payments"]).all()
    assert (r["payments"].sum(axis=1) == 0).all()
    assert haidi.Game("mcr", seed=int(seeds[5])).wall == haidi.Game("mcr", seed=int(seeds[4])).wall
    # One agent at every seat: the four rotations are the same hand, seat for seat.
    same = haidi.simulate("mcr", 40, seed=1, agents="random", duplicate=True)
    for w in range(10):
        block = same["payments"][4 * w : 4 * w + 4]
        assert (block == block[0]).all() and (same["turns"][4 * w : 4 * w + 4] == same["turns"][4 * w]).all()
    plain = haidi.simulate("mcr", 10, seed=1)
    assert (plain["seeds"] == same["seeds"][::4]).all() and (plain["turns"] == same["turns"][::4]).all()
    with pytest.raises(haidi.HandError, match="multiple of 4"):
        haidi.simulate("mcr", 6, duplicate=True)
    with pytest.raises(haidi.HandError, match="agents must be"):
        haidi.simulate("mcr", 4, agents=["greedy", "random", "random", "clever"])


@pytest.mark.parametrize("rules", ["mcr", "changsha", "hainan"])
def test_simulate_counts_the_first_wins_patterns_as_evaluate_scores_them(rules):
    # Greedy agents take no random choice, so each hand plays again through Game._greedy.
    r = haidi.simulate(rules, 12, seed=7, agents="greedy")
    rs = haidi.ruleset(rules)
    assert r["fans"].shape == (12, len(r["fan_ids"])) and tuple(r["fan_ids"]) == tuple(rs.fan_ids)
    won = 0
    for i, seed in enumerate(r["seeds"]):
        g = haidi.Game(rules, seed=int(seed))
        while not g.done:
            s = g.to_act[0]
            g.step(s, g._greedy(s))
        assert list(g.result["payments"]) == list(r["payments"][i])
        counts = np.zeros(len(r["fan_ids"]), dtype=np.uint8)
        if g.result["wins"]:
            won += 1
            for fan in g.result["wins"][0]["score"]["fans"]:
                counts[list(r["fan_ids"]).index(fan["id"])] = fan["count"]
            assert r["winner"][i] == g.result["wins"][0]["seat"]
        assert (r["fans"][i] == counts).all()
    assert won > 6 and r["fans"].sum() > 0
