"""The `haidi` command: output, JSON, stdin, errors and exit status."""

import fcntl
import io
import json
import os
import random
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import haidi
from haidi import _stream
from haidi._errors import json_spelling
from haidi.cli import main


def test_waits_json_matches_the_documented_shape(haidi_cli):
    code, out, _ = haidi_cli("waits", "1112345678999m", "--json")
    assert code == 0
    assert json.loads(out) == {"hand": "1112345678999m", "waits": [f"{i}m" for i in range(1, 10)]}
    assert out == '{"hand":"1112345678999m","waits":["1m","2m","3m","4m","5m","6m","7m","8m","9m"]}\n'


def test_shanten_json(haidi_cli):
    code, out, _ = haidi_cli("shanten", "123m456p789s1234z", "--json")
    assert (code, json.loads(out)) == (0, {"hand": "123m456p789s1234z", "shanten": 2})


def test_readable_output(haidi_cli):
    code, out, _ = haidi_cli("waits", "1112345678999m")
    assert code == 0 and "9 kinds" in out and "🀇" in out
    code, out, _ = haidi_cli("decompose", "111222333m456p77z")
    assert "2 arrangements" in out and "pung" not in out  # groups are written as tiles
    assert "111m" in out and "123m" in out


def test_rules_and_wilds(haidi_cli):
    code, out, _ = haidi_cli("waits", "123456789m11p2z7z", "--wild", "7z", "--json")
    assert json.loads(out)["waits"] == ["1p", "2z", "7z"]
    code, out, _ = haidi_cli("shanten", "--rules", "longgang", "123456789m123p11s77z", "--json")
    assert json.loads(out)["shanten"] == 0


def test_stdin_one_hand_a_line(haidi_cli):
    code, out, _ = haidi_cli("shanten", "--json", stdin="1112345678999m\n\n# comment\n11123455678999m\n")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"hand": "1112345678999m", "shanten": 0},
        {"line": 2, "skipped": "blank"},
        {"line": 3, "skipped": "comment"},
        {"hand": "11123455678999m", "shanten": -1},
    ]
    code, out, _ = haidi_cli("shanten", stdin="1112345678999m\n\n# comment\n11123455678999m\n")
    assert out.splitlines() == ["1112345678999m: 0 (ready)", "11123455678999m: -1 (complete)"]


@pytest.mark.parametrize("command", ["waits", "shanten", "decompose", "analyze"])
@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_hand_argument_is_bad_usage_not_a_skipped_line(haidi_cli, command, blank):
    # An argument is typed by the user (or an empty shell variable): nothing is answered.
    for argv in ([command, blank], [command, "--json", blank], [command, "123m456p789s1234z", blank]):
        code, out, err = haidi_cli(*argv)
        assert (code, out) == (2, ""), argv
        assert "HAND 1 is empty" in err or "HAND 2 is empty" in err
    # A blank line of standard input is still a line passed over.
    code, out, _ = haidi_cli(command, "--json", stdin=f"{blank}\n")
    assert (code, json.loads(out)) == (0, {"line": 1, "skipped": "blank"})


def test_a_hash_argument_is_a_hand_not_a_comment(haidi_cli):
    code, out, err = haidi_cli("shanten", "--json", "# 123m")
    assert code == 2 and "skipped" not in out and "unknown character '#'" in json.loads(out)["error"]


def test_eval_refuses_a_blank_hand(haidi_cli):
    assert haidi_cli("eval", "", "--win", "5m")[0::2] == (
        2,
        "haidi: error: HAND is empty: give the hand without its winning tile\n",
    )
    code, _, err = haidi_cli("eval", "--jsonl", "", stdin="")
    assert code == 2 and "give no HAND" in err


def test_comh_format(haidi_cli):
    code, out, _ = haidi_cli("waits", "--format", "comh", "19m19s19pESWNCFP", "--json")
    assert len(json.loads(out)["waits"]) == 13


@pytest.mark.parametrize("hand", ["12x3m", "11111m", "123m"])
def test_bad_input_exits_2_with_a_message(haidi_cli, hand):
    code, out, err = haidi_cli("waits", hand)
    assert code == 2 and out == ""
    assert err.startswith("haidi: error: ")


def test_bad_line_does_not_stop_the_stream(haidi_cli):
    code, out, err = haidi_cli("shanten", "--json", stdin="12x\n1112345678999m\n")
    bad, good = (json.loads(x) for x in out.splitlines())
    assert code == 2 and good == {"hand": "1112345678999m", "shanten": 0}
    assert bad == {"error": "unknown character 'x' at position 2 in \"12x\"", "line": 1, "input": "12x"}
    assert err == "haidi: 1 of 2 lines answered with an error\n"
    code, out, err = haidi_cli("shanten", stdin="12x\n1112345678999m\n")
    assert code == 2 and out == "1112345678999m: 0 (ready)\n"
    assert err.startswith("haidi: error: line 1: unknown character")


def test_installed_entry_point():
    r = subprocess.run(["haidi", "waits", "1112345678999m", "--json"], capture_output=True, text=True)
    if r.returncode == 127:  # pragma: no cover - not installed as a script
        pytest.skip("haidi script not on PATH")
    assert r.returncode == 0 and json.loads(r.stdout)["waits"][0] == "1m"
    r = subprocess.run(["haidi", "waits", "11111m"], capture_output=True, text=True)
    assert r.returncode == 2 and "fifth copy" in r.stderr and "Traceback" not in r.stderr


def test_decompose_limit(haidi_cli):
    code, out, _ = haidi_cli("decompose", "123m456p55556666z", "--wild", "5z", "--wild", "6z", "--limit", "3", "--json")
    obj = json.loads(out)
    assert len(obj["arrangements"]) == 3 and obj["complete_list"] is False
    code, out, _ = haidi_cli("decompose", "111222333m456p77z", "--json")
    assert json.loads(out)["complete_list"] is True and json.loads(out)["hand"] == "111222333m456p77z"


def test_limit_must_be_positive(capsys):
    with pytest.raises(SystemExit) as info:
        main(["decompose", "11123455678999m", "--limit", "0"])
    assert info.value.code == 2


def test_winning_waits(haidi_cli):
    # Beijing: a hand with declared melds wins only self-drawn.
    code, out, _ = haidi_cli("waits", "--winning", "--rules", "beijing", "1m456m789p[123p][111z]", "--json")
    assert json.loads(out)["waits"] == []
    code, out, _ = haidi_cli("waits", "--winning", "--self-drawn", "-r", "beijing", "1m456m789p[123p][111z]", "--json")
    assert json.loads(out)["waits"] == ["1m"]
    code, out, _ = haidi_cli("waits", "--winning", "--rules", "beijing", "1m456m789p[123p][111z]")
    assert "completed by 1m" in out


def test_winning_waits_mcr_needs_eight_points():
    mcr = haidi.ruleset("mcr")
    # 6p and 9p complete it; 6p makes 三色三步高 (456m 567s 678p) and scores 9, 9p only 3.
    assert mcr.waits("123m456m78p11s[567s]") == ["6p", "9p"]
    assert mcr.winning_waits("123m456m78p11s[567s]") == ["6p"]


def test_version_and_module_entry():
    r = subprocess.run([sys.executable, "-m", "haidi", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("haidi ")
    r = subprocess.run(
        [sys.executable, "-m", "haidi", "waits", "1112345678999m", "--json"], capture_output=True, text=True
    )
    assert json.loads(r.stdout)["waits"][0] == "1m"


def test_jsonl_answers_deep_and_long_lines_and_goes_on(haidi_cli):
    # A line nested 1,000 deep raised RecursionError and ended the run; a long line was
    # read whole.
    from haidi.cli import MAX_DEPTH, MAX_LINE

    good = '{"hand": "123m456p789s1122z", "win": "2z"}'
    lines = [
        good,
        '{"hand": "123m", "x": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"hand": "123m", "x": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}",
        '{"hand": "' + "1" * MAX_LINE + 'm"}',
        good,
    ]
    code, out, _ = haidi_cli("eval", "--rules", "mcr", "--jsonl", stdin="\n".join(lines) + "\n")
    results = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(results) == 5
    assert results[0]["win"] and results[4] == results[0]
    assert [r.get("error") for r in results[1:4]] == [
        f"a line is nested more than {MAX_DEPTH} deep",
        f"a line is nested more than {MAX_DEPTH} deep",
        f"a line is longer than {MAX_LINE:,} bytes",
    ]
    # The lines are echoed, but for the one too long to keep.
    assert [r.get("line") for r in results[1:4]] == [2, 3, 4]
    assert results[1]["input"] == lines[1] and "input" not in results[3]


def test_set_values_nested_too_deep_exit_2(haidi_cli):
    code, _, err = haidi_cli("eval", "123m456p789s1122z", "--win", "2z", "--set", "x=" + "[" * 5000 + "]" * 5000)
    assert code == 2 and "nested more than" in err and "Traceback" not in err


def test_analyze_table_json_and_errors(haidi_cli):
    code, out, _ = haidi_cli("analyze", "123m456m78p11s5z[567s]", "--visible", "9p9p")
    assert code == 0 and out.splitlines()[2].split()[:3] == ["5z", "0", "6"] and "6p(4, 9)" in out
    code, out, _ = haidi_cli("analyze", "--json", "1112345678999m")
    (entry,) = json.loads(out)["entries"]
    assert entry["discard"] is None and entry["useful_count"] == 23
    code, out, _ = haidi_cli("analyze", "--json", stdin="1112345678999m\n123m456p789s1234z5z\n")
    assert [len(json.loads(line)["entries"]) for line in out.splitlines()] == [1, 14]
    assert json.loads(out.splitlines()[1])["hand"] == "123m456p789s1234z5z"
    code, out, _ = haidi_cli("analyze", "--rules", "longgang", "123456789m12p11s77z5m5m", "--wild", "5m", "--scoring")
    assert code == 0 and "draws" in out
    for bad in (["1112345678999m", "--visible", "9m9m"], ["123m"], ["1112345678999m", "--set", "self_drawm=true"]):
        code, out, err = haidi_cli("analyze", *bad)
        assert code == 2 and out == "" and err.startswith("haidi: error: ")


# -- one answer a line, in order, with the input ------------------------------------------

#: A subprocess runs the haidi of this test run, not one installed elsewhere.
ENV = {**os.environ, "PYTHONPATH": str(Path(haidi.__file__).resolve().parent.parent)}
#: Seconds a subprocess may take to answer (the machine may be loaded).
WAIT = 60


def spawn(*argv: str, env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "haidi", *argv], env={**ENV, **(env or {})}, **kw)


def read_line(fd: int, timeout: float = WAIT) -> bytes:
    """One line from a pipe, failing if it has not come within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    got = b""
    while not got.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        assert ready, f"no answer within {timeout} s (so far {got!r})"
        chunk = os.read(fd, 1 << 16)
        assert chunk, f"the pipe closed (so far {got!r})"
        got += chunk
    return got


@pytest.mark.parametrize("command", ["waits", "shanten", "decompose", "analyze"])
def test_json_answers_every_line_in_order_with_its_hand(haidi_cli, command):
    a, b = (
        ("11123455678999m", "111222333m456p77z") if command == "decompose" else ("1112345678999m", "123m456p789s1234z")
    )
    code, out, err = haidi_cli(command, "--json", stdin=f"{a}\n\n12x\n# a comment\n{b}\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 5
    assert rows[0]["hand"] == a and rows[4]["hand"] == b and len(rows[0]) == len(rows[4]) > 1
    assert rows[1] == {"line": 2, "skipped": "blank"} and rows[3] == {"line": 4, "skipped": "comment"}
    assert rows[2]["line"] == 3 and rows[2]["input"] == "12x" and "unknown character" in rows[2]["error"]
    assert err == "haidi: 1 of 5 lines answered with an error\n"


def test_arguments_are_numbered_as_lines(haidi_cli):
    code, out, _ = haidi_cli("shanten", "--json", "1112345678999m", "11111m")
    good, bad = (json.loads(x) for x in out.splitlines())
    assert code == 2 and good == {"hand": "1112345678999m", "shanten": 0}
    assert bad["line"] == 2 and bad["input"] == "11111m" and "fifth copy" in bad["error"]


def test_jsonl_exit_status_says_whether_lines_failed(haidi_cli):
    good = '{"hand": "123m456p789s1122z", "win": "2z"}\n'
    code, out, err = haidi_cli("eval", "--jsonl", stdin=good + "\n# a note\n" + good)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and err == "" and rows[1:3] == [{"line": 2, "skipped": "blank"}, {"line": 3, "skipped": "comment"}]
    assert rows[0]["win"] and rows[3] == rows[0]
    code, out, err = haidi_cli("eval", "--jsonl", stdin=good + '{"hand": "123m", "win": "1m"}\n' + good)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and err == "haidi: 1 of 3 lines answered with an error\n"
    assert rows[1] == {"error": rows[1]["error"], "line": 2, "input": '{"hand": "123m", "win": "1m"}'}
    assert "3 tiles" in rows[1]["error"]


@pytest.mark.parametrize("rules", ["mcr", "hainan"])
def test_jsonl_quotes_an_integer_past_64_bits_as_written(haidi_cli, rules):
    # orjson reads one as a float: the line is read exactly, as Python's evaluate reads it.
    win = "2z" if rules == "mcr" else "1z"
    lines = [f'{{"hand": "123m456p789s1122z", "win": "{win}", "flowers": {v}}}' for v in (2**64, -(2**63) - 1)]
    code, out, _ = haidi_cli("eval", "--rules", rules, "--jsonl", stdin="\n".join(lines) + "\n")
    errors = [json.loads(x)["error"] for x in out.splitlines()]
    assert code == 2 and errors[0].endswith(f"not {2**64}") and errors[1].endswith(f"not {-(2**63) - 1}")
    for line, error in zip(lines, errors, strict=True):
        with pytest.raises(haidi.HandError) as single:
            haidi.ruleset(rules).evaluate(**json.loads(line))
        # (The command line quotes texts as JSON writes them; the number is the same.)
        assert str(single.value).rsplit(" not ", 1)[1] == error.rsplit(" not ", 1)[1]


def test_jsonl_batches_answer_as_evaluate_does(haidi_cli, monkeypatch):
    """Scored in batches (small reads here, so that lines straddle them) or one at a time,
    a line gets the same answer."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import situations
    from mcr_peer import random_situation

    rng = random.Random(5)
    monkeypatch.setattr(_stream, "CHUNK", 997)
    for name in haidi.RULESETS:
        rs = haidi.ruleset(name)
        sits = [random_situation(rng) if name == "mcr" else situations.situation(rng, name) for _ in range(150)]
        for s in sits[::7]:
            s["explain"] = True
        for s in sits[3::11]:
            s["self_drawn"] = "yes"  # refused: a flag is True or False
        lines = [json.dumps(s) for s in sits] + ["", "[1]", "{", "# end"]
        code, out, _ = haidi_cli("eval", "--rules", name, "--jsonl", stdin="\n".join(lines))
        rows = [json.loads(x) for x in out.splitlines()]
        assert len(rows) == len(lines)
        for s, row in zip(sits, rows, strict=False):
            try:
                want = json.loads(json.dumps(rs.evaluate(**s).to_dict()))
            except haidi.HandError as e:
                want = {"error": str(e)}
            if "error" in want:
                assert "error" in row, (name, s)
            else:
                assert row == want, (name, s)
        skip, error = {"line", "skipped"}, {"error", "line", "input"}
        assert [set(r) for r in rows[-4:]] == [skip, error, error, skip]
        assert code == 2


@pytest.mark.parametrize("name", haidi.RULESETS)
def test_jsonl_answers_are_byte_for_byte_those_of_the_result_dicts(haidi_cli, monkeypatch, name):
    """The command reads plain lines and writes the results' JSON in Rust (a regional
    ruleset answering there the lines it refuses too): each answer is still,
    byte for byte, orjson's text of what ``evaluate_many`` gives for the line's dict, or
    of the error answer, and the errors are counted once. The white space around a line
    is what str.strip() takes off, on either path."""
    import orjson

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import situations
    from mcr_peer import random_situation

    rng = random.Random(17)
    monkeypatch.setattr(_stream, "CHUNK", 4099)
    rs = haidi.ruleset(name)
    # Besides the spoilt: explain, a win that is not text, a format given in the line.
    spoils = [*situations.SPOILT, (0.02, "explain", True), (0.02, "win", 5), (0.02, "format", "compact")]
    lines = []
    for _ in range(1500):
        s = random_situation(rng) if name == "mcr" else situations.situation(rng, name)
        situations.spoil(rng, s, spoils)
        # Escapes (ensure_ascii), spaces and a list of wilds read as orjson reads them.
        line = json.dumps(s, ensure_ascii=rng.random() < 0.2, separators=rng.choice([(",", ":"), (", ", ": ")]))
        # White space around a line, as str.strip() takes it off (not only JSON's).
        pad = [" ", "\t", "\u00a0", "\u3000", "\x0b", "\x1c"]
        lines.append(line if rng.random() < 0.9 else f"{rng.choice(pad)}{line}{rng.choice(pad)}")
    code, out, err = haidi_cli("eval", "--rules", name, "--jsonl", stdin="\n".join(lines))
    got = out.encode("utf-8").splitlines()
    assert len(got) == len(lines)
    errors = 0
    for n, (line, answer) in enumerate(zip(lines, got, strict=True), 1):
        s = orjson.loads(line.strip())
        # The command's messages quote values as JSON writes them.
        with json_spelling():
            if name == "mcr" and "explain" in s:
                try:
                    r = rs.evaluate(**s)
                except haidi.HandError as e:
                    r = {"error": str(e)}
            else:
                r = rs.evaluate_many([s], errors="collect")[0]
        if "error" in r:
            r = {"error": r["error"], "line": n, "input": line.strip()}
            errors += 1
        else:
            r = r.to_dict()
        assert answer == orjson.dumps(r), (n, line)
    assert errors > 50 and code == 2
    assert err == f"haidi: {errors:,} of {len(lines):,} lines answered with an error\n"


@pytest.mark.parametrize("name", haidi.RULESETS)
def test_lines_given_as_one_block_are_answered_as_one_block_or_line_by_line(name):
    """``evaluate_lines`` answers a block of plain lines with one bytes object, each answer
    ended by a line break, as the command writes them; a block with a line it leaves to
    the caller (here a comment) with a list, the same answers apart and None for that
    line. Anything but bytes is a ``HandError``."""
    import orjson

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import situations
    from mcr_peer import random_situation

    rng = random.Random(5)
    rs = haidi.ruleset(name)
    sits = [random_situation(rng) if name == "mcr" else situations.situation(rng, name) for _ in range(300)]
    lines = [json.dumps(s) for s in sits]
    whole, failed = rs.evaluate_lines("\n".join(lines).encode(), first_line=11)
    assert isinstance(whole, bytes) and whole.endswith(b"\n")
    answers = whole.split(b"\n")[:-1]
    errors = 0
    for n, (s, line, answer) in enumerate(zip(sits, lines, answers, strict=True), 11):
        with json_spelling():
            r = rs.evaluate_many([s], errors="collect")[0]
        if "error" in r:
            errors += 1
            assert orjson.loads(answer) == {"error": r["error"], "line": n, "input": line}
        else:
            assert answer == orjson.dumps(r.to_dict())
    assert failed == errors
    apart, failed_apart = rs.evaluate_lines("\n".join([*lines, "# a comment"]).encode(), first_line=11)
    assert apart == [*answers, None] and failed_apart == failed
    for bad in ("a str", ["a list"], None, 5):
        with pytest.raises(haidi.HandError, match="lines: expected bytes"):
            rs.evaluate_lines(bad)  # type: ignore[arg-type]
    for bad in (-1, 2**64, 1.5, "1", True):
        with pytest.raises(haidi.HandError, match="first_line must be an int from 0"):
            rs.evaluate_lines(b"", first_line=bad)  # type: ignore[arg-type]
    # An unknown key is refused whatever its value, null too, and a known key given null
    # is as if not given, as evaluate_many reads the dict; or the line is left to it.
    scored = next(s for s in sits if "error" not in rs.evaluate_many([s], errors="collect")[0])
    for extra in ({"bogus": None}, {"hand ": None}, {"bogus": 1}, {"self_drawn": None}):
        s = {**scored, **extra}
        with json_spelling():
            r = rs.evaluate_many([s], errors="collect")[0]
        assert ("error" in r) == ("self_drawn" not in extra)
        answers, _ = rs.evaluate_lines(json.dumps(s).encode())
        if answers != [None] and "error" in r:
            assert orjson.loads(answers) == {"error": r["error"], "line": 1, "input": json.dumps(s)}
        elif answers != [None]:
            assert answers == orjson.dumps(r.to_dict()) + b"\n"


def test_jsonl_mcr_lines_read_in_rust_are_answered_as_their_dicts(haidi_cli, monkeypatch):
    """MCR's plain lines are read, scored and written in Rust; a line it leaves to the dict
    reader (a value of another type, out of range, options, explain) is answered there.
    Either way the answer is, byte for byte, what ``evaluate_many`` gives for the dict."""
    import orjson

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from mcr_peer import random_situation

    rng = random.Random(23)
    monkeypatch.setattr(_stream, "CHUNK", 8191)
    variants = {
        "seat_wind": ["E", "s", "3z", " N ", 0, 3, 4, -1, True, "X", None],
        "round_wind": ["W", 2, 1.0, None],
        "flowers": [0, 8, 9, -1, "13f", "", True, None],
        "self_drawn": [True, False, 1, "true", None],
        "explain": [False, True, None],
        "concealed_and_melded_kong": [True, False, 0],
        "format": ["compact", "COMPACT", 1],
        "win": [None, 5],
        "options": [{"concealed_and_melded_kong": True}, {}],
        "wall_lst": [True, None, 0],
    }
    lines = []
    for i in range(3000):
        s = random_situation(rng)
        if i % 3:
            key = rng.choice(list(variants))
            s[key] = rng.choice(variants[key])
        line = json.dumps(s, ensure_ascii=rng.random() < 0.3)
        if i % 17 == 0:
            # An escape in a value: the text is the reader's own copy.
            line = line.replace('"round_wind": "', '"round_wind": "\\u0020', 1)
        lines.append(line)
    code, out, _ = haidi_cli("eval", "--rules", "mcr", "--jsonl", stdin="\n".join(lines))
    got = out.encode("utf-8").splitlines()
    assert len(got) == len(lines)
    rs = haidi.ruleset("mcr")
    kinds = set()
    for n, (line, answer) in enumerate(zip(lines, got, strict=True), 1):
        s = orjson.loads(line.strip())
        with json_spelling():
            try:
                r = rs.evaluate(**s)
            except haidi.HandError as e:
                r = {"error": str(e)}
        if "error" in r:
            r = {"error": r["error"], "line": n, "input": line.strip()}
        else:
            r = r.to_dict()
        kinds.add("error" in r)
        assert answer == orjson.dumps(r), (n, line)
    assert kinds == {True, False}


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_jsonl_messages_quote_values_as_json_and_python_callers_keep_python(haidi_cli, rules):
    """A JSON line is answered in JSON's words (true, null, "yes"), whichever reader reads
    it: Rust's for a plain regional line, the dict reader for a line with an escape or
    options (and MCR's every line), Python's option reader; a Python caller who gave the
    same values keeps Python's (True, None, 'yes')."""
    rs = haidi.ruleset(rules)
    option = next(iter(rs.options()))
    hand = {"mcr": "123m456p789s1122z", "longgang": "123m456p789s111z22z3s"}.get(rules, "123m456p789s1122m")
    win = {"mcr": "2z", "longgang": "3s"}.get(rules, "2m")
    base = f'"hand": "{hand}", "win": "{win}"'
    lines = [
        f'{{{base}, "self_drawn": "yes"}}',
        f'{{{base}, "self_drawn": "y\\u0065s"}}',
        f'{{{base}, "options": {{}}, "self_drawn": "yes"}}',
        f'{{{base}, "explain": "yes"}}',
        f'{{{base}, "options": {{"{option}": "yes"}}}}',
        f'{{{base}, "format": "yes"}}',
    ]
    code, out, _ = haidi_cli("eval", "--rules", rules, "--jsonl", stdin="\n".join(lines) + "\n")
    errors = [json.loads(a)["error"] for a in out.splitlines()]
    assert code == 2 and len(errors) == len(lines)
    assert errors[0] == errors[1] == errors[2] == 'self_drawn must be true or false, not "yes"'
    assert errors[3] == 'explain must be true or false, not "yes"'
    assert all('"yes"' in e and "'" not in e and "True" not in e for e in errors), errors
    for line, error in zip(lines, errors, strict=True):
        with pytest.raises(haidi.HandError) as python:
            rs.evaluate(**json.loads(line))
        with json_spelling(), pytest.raises(haidi.HandError) as spelled:
            rs.evaluate(**json.loads(line))
        assert str(spelled.value) == error
        if "format" not in line:  # MCR's unknown format is "yes" in both
            assert "'yes'" in str(python.value) and '"yes"' not in str(python.value)
            assert "true or" not in str(python.value)
    # --set values are JSON too.
    code, _, err = haidi_cli("eval", "--rules", rules, hand, "--win", win, "--set", "self_drawn=yes")
    assert code == 2 and err == 'haidi: error: self_drawn must be true or false, not "yes"\n'
    assert haidi._core.spelling() == "python"


def test_jsonl_answers_a_line_that_is_not_utf8_and_goes_on(haidi_cli):
    good = b'{"hand": "123m456p789s1122z", "win": "2z"}\n'
    code, out, _ = haidi_cli("eval", "--jsonl", stdin=good + b'{"hand": "\xff\xfe"}\n' + good)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(rows) == 3 and rows[0] == rows[2] and rows[0]["win"]
    assert rows[1]["error"] == "a line is not UTF-8 text (byte 0xff at byte 10)"
    assert rows[1]["input"] == '{"hand": "\\xff\\xfe"}'
    code, out, _ = haidi_cli("shanten", "--json", stdin=b"\xe4\xb8\n1112345678999m\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert "not UTF-8" in rows[0]["error"] and rows[1]["shanten"] == 0


def test_not_utf8_under_a_strict_utf8_locale():
    good = b'{"hand": "123m456p789s1122z", "win": "2z"}\n'
    r = subprocess.run(
        [sys.executable, "-m", "haidi", "eval", "--jsonl"],
        input=good + b"\xff\n" + good,
        capture_output=True,
        env={**ENV, "PYTHONUTF8": "1", "LC_ALL": "C.UTF-8"},
        timeout=WAIT,
    )
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 2 and len(rows) == 3 and "not UTF-8" in rows[1]["error"] and rows[2]["win"]
    assert b"Traceback" not in r.stderr


# -- a co-process: one line in, one answer out, stdin kept open --------------------------


@pytest.mark.parametrize(
    "argv, first, second",
    [
        (
            ["eval", "--jsonl"],
            b'{"hand": "123m456p789s1122z", "win": "2z"}\n',
            b'{"hand": "[111z][2222z]55p33344z", "win": "4z", "self_drawn": true}\n',
        ),
        (["shanten", "--json"], b"1112345678999m\n", b"123m456p789s1234z\n"),
    ],
)
def test_co_process_answers_each_line_at_once(argv, first, second):
    with spawn(*argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as p:
        try:
            fd = p.stdout.fileno()
            p.stdin.write(first)
            p.stdin.flush()
            one = json.loads(read_line(fd))
            p.stdin.write(second)
            p.stdin.flush()
            two = json.loads(read_line(fd))
            p.stdin.write(b"12x\n")
            p.stdin.flush()
            three = json.loads(read_line(fd))
            p.stdin.close()
            assert p.wait(timeout=WAIT) == 2 and p.stdout.read() == b""
        finally:
            p.kill()
    if argv[0] == "eval":
        assert one["total"] == 11 and two["total"] == 98
    else:
        assert one == {"hand": "1112345678999m", "shanten": 0} and two["shanten"] == 2
    assert three["line"] == 3 and "error" in three


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("argv", [["eval", "--jsonl"], ["shanten", "--json"], ["waits"]])
def test_ctrl_c_ends_quietly_with_130(argv):
    line = b'{"hand": "123m456p789s1122z", "win": "2z"}\n' if argv[0] == "eval" else b"1112345678999m\n"
    # As started from a terminal: a runner started as a background job ignores SIGINT, and
    # its children would inherit that (Python then leaves SIGINT ignored, as it should).
    default = subprocess.PIPE
    with spawn(*argv, stdin=default, stdout=default, stderr=default, preexec_fn=_sigint_default) as p:
        try:
            p.stdin.write(line)
            p.stdin.flush()
            read_line(p.stdout.fileno())  # it is waiting for the next line
            p.send_signal(signal.SIGINT)
            assert p.wait(timeout=WAIT) == 130
            assert p.stderr.read() == b""
        finally:
            p.kill()


def test_output_closed_by_its_reader_exits_1(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("1112345678999m\n" * 50_000)
    with (
        hands.open("rb") as stdin,
        spawn("shanten", "--json", stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as p,
    ):
        try:
            read_line(p.stdout.fileno())
            p.stdout.close()
            assert p.wait(timeout=WAIT) == 1
            assert p.stderr.read() == b""
        finally:
            p.kill()


# -- standard output that is not UTF-8 ------------------------------------------------


def run_haidi(*argv: str, encoding: str) -> subprocess.CompletedProcess:
    r = subprocess.run(
        [sys.executable, "-m", "haidi", *argv],
        capture_output=True,
        env={**ENV, "PYTHONIOENCODING": encoding},
        timeout=WAIT,
    )
    assert b"Traceback" not in r.stderr, r.stderr.decode(errors="replace")
    return r


@pytest.mark.parametrize("encoding", ["gbk", "ascii"])
def test_waits_without_glyphs_where_stdout_cannot_write_them(encoding):
    r = run_haidi("waits", "1112345678999m", encoding=encoding)
    assert r.returncode == 0
    assert r.stdout.decode(encoding) == "1112345678999m: 1m 2m 3m 4m 5m 6m 7m 8m 9m  (9 kinds)\n"


def test_ascii_stdout_escapes_what_it_cannot_write():
    r = run_haidi("eval", "[111z][2222z]55p33344z", "--win", "4z", "--self-drawn", encoding="ascii")
    text = r.stdout.decode("ascii")
    assert r.returncode == 0 and "98 points" in text and "\\u5927\\u56db\\u559c" in text  # 大四喜
    utf8 = run_haidi("eval", "[111z][2222z]55p33344z", "--win", "4z", "--json", encoding="utf-8")
    ascii_ = run_haidi("eval", "[111z][2222z]55p33344z", "--win", "4z", "--json", encoding="ascii")
    assert ascii_.stdout.isascii() and json.loads(ascii_.stdout) == json.loads(utf8.stdout)
    assert "大四喜" in utf8.stdout.decode("utf-8")
    r = run_haidi("--help", encoding="ascii")
    assert r.returncode == 0 and b"score" in r.stdout


# -- reproduce --plot ---------------------------------------------------------------


def test_plot_into_a_missing_folder_is_bad_usage(haidi_cli, tmp_path):
    target = tmp_path / "no" / "such" / "waits.png"
    code, out, err = haidi_cli("reproduce", "--plot", str(target))
    assert (
        code == 2
        and out == ""
        and err == f"haidi: error: --plot: no folder {str(target.parent)!r} to write 'waits.png' in\n"
    )
    code, _, err = haidi_cli("reproduce", "--plot", str(tmp_path / "waits.xyz"))
    assert code == 2 and "writes no .xyz files" in err and "png" in err and not (tmp_path / "waits.xyz").exists()


# -- progress bars --------------------------------------------------------------------


def test_progress_bar_on_a_terminal_only(haidi_cli, monkeypatch, tmp_path):
    big = tmp_path / "hands.txt"
    big.write_text("1112345678999m\n" * 2000)
    monkeypatch.setattr(_stream, "PROGRESS_DELAY", 0)
    with big.open("rb") as f:
        code, out, err = haidi_cli("shanten", "--json", stdin=f)
    assert code == 0 and len(out.splitlines()) == 2000 and err == ""  # standard error is not a terminal
    monkeypatch.setattr(_stream, "stderr_is_terminal", lambda: True)
    for argv in (["shanten", "--json"], ["eval", "--jsonl"]):
        with big.open("rb") as f:
            code, out, err = haidi_cli(*argv, stdin=f)
        # The bar, over the file's size (tqdm draws it at once with no delay).
        assert len(out.splitlines()) == 2000 and f"/{big.stat().st_size / 1024:.1f}k" in err and "B/s" in err
    with big.open("rb") as f:
        code, out, err = haidi_cli("shanten", "--json", "--quiet", stdin=f)
    assert code == 0 and err == ""
    # A pipe (perhaps a co-process) has no size to show: no bar.
    code, out, err = haidi_cli("shanten", "--json", stdin=big.read_bytes())
    assert code == 0 and err == ""


def test_reproduce_draws_its_bar_on_a_terminal_and_nowhere_else():
    master, slave = os.openpty()
    # A terminal 100 columns wide (a new one has none, and tqdm then draws nothing).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with spawn("reproduce", "--tiles", "7", "--json", stdout=subprocess.PIPE, stderr=slave) as p:
        os.close(slave)
        drawn = b""
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                try:
                    chunk = os.read(master, 1 << 16)
                except OSError:  # the terminal closed: the process ended
                    break
                if not chunk:
                    break
                drawn += chunk
            elif p.poll() is not None:
                break
        out, _ = p.communicate(timeout=WAIT)
    os.close(master)
    assert p.returncode == 0 and json.loads(out)["figures"]
    assert b"7-tile one-suit hands" in drawn and b"table" in drawn
    r = subprocess.run(
        [sys.executable, "-m", "haidi", "reproduce", "--tiles", "7", "--json"],
        capture_output=True,
        env=ENV,
        timeout=WAIT,
    )
    assert r.returncode == 0 and r.stderr == b""


# -- --help ---------------------------------------------------------------------------


def test_help_has_examples_that_run(capsys, monkeypatch, tmp_path):
    from haidi.cli import EXAMPLES, build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    top = capsys.readouterr().out
    assert "score a win" in top and "exit status" in top and "130" in top
    (tmp_path / "hands.txt").write_text("1112345678999m\n123m456p789s1234z\n")
    (tmp_path / "situations.jsonl").write_text('{"hand": "123m456p789s1122z", "win": "2z"}\n')
    # The bots of the play examples: examples/bot.py; Botzone's 摸切 (play the tile drawn).
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "bot.py").write_text((Path(__file__).parent.parent / "examples" / "bot.py").read_text())
    zone = "import json\nr = json.loads(input())['requests'][-1].split()\n"
    (tmp_path / "zone.py").write_text(
        zone + "print(json.dumps({'response': 'PLAY ' + r[1] if r[0] == '2' else 'PASS'}))\n"
    )
    monkeypatch.chdir(tmp_path)
    for command, examples in EXAMPLES.items():
        with pytest.raises(SystemExit):
            build_parser().parse_args([command, "--help"])
        text = capsys.readouterr().out
        assert "examples:" in text and all(e in text for e in examples)
        for example in examples:
            argv = shlex.split(example, comments=True)
            assert argv[0] == "haidi"
            stdin = None
            if "<" in argv:
                stdin = (tmp_path / argv[argv.index("<") + 1]).read_bytes()
                argv = argv[: argv.index("<")]
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin or b"")))
            assert main(argv[1:]) == 0, example
            capsys.readouterr()
    assert (tmp_path / "waits.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "concealed_and_melded_kong=true", "--mingangang"], "by --mingangang and by --set"),
        (["--set", "self_drawn=false", "--self-drawn"], "self_drawn is given twice, by --self-drawn and by --set"),
        (["--set", "explain=false", "--explain"], "explain is given twice"),
        (["--set", "flowers=3", "--flowers", "2"], "flowers is given twice"),
        (["--set", "seat_wind=S", "--seat", "W"], "seat_wind is given twice, by --seat and by --set"),
        (["--set", "round_wind=S", "--set", "round_wind=W"], "round_wind is given twice, by --set"),
        (["--set", "format=comh", "--format", "compact"], "format is given twice"),
        (["--set", "win=4m"], "win is given twice, by --win and by --set"),
    ],
)
def test_a_key_given_twice_on_the_command_line_is_refused(haidi_cli, argv, message):
    """One of the two would be dropped without a word (or, for 明暗杠, raise a TypeError)."""
    code, out, err = haidi_cli("eval", "1112345678999m", "--win", "5m", *argv)
    assert code == 2 and out == "" and message in err


def test_a_key_given_once_by_set_or_by_its_flag_is_taken(haidi_cli):
    _, by_flag, _ = haidi_cli("eval", "1112345678999m", "--win", "5m", "--self-drawn", "--json")
    _, by_set, _ = haidi_cli("eval", "1112345678999m", "--win", "5m", "--set", "self_drawn=true", "--json")
    assert json.loads(by_flag) == json.loads(by_set) and json.loads(by_flag)["total"] > 0
    code, _, _ = haidi_cli("eval", "1112345678999m", "--win", "5m", "--set", "format=compact")
    assert code == 0


@pytest.mark.parametrize("rules", ["mcr", "longgang"])
def test_jsonl_refuses_a_key_given_twice_in_a_line(haidi_cli, rules):
    """orjson keeps the last of two equal keys; a line giving one twice is answered with
    an error, as is a --set value."""
    hand = {"mcr": "1112345678999m", "longgang": "123m456p789s111z2255m"}[rules]
    lines = [
        f'{{"hand": "{hand}", "win": "5m", "win": "4m"}}',
        f'{{"hand": "{hand}", "win": "5m", "options": {{}}, "self_drawn": true}}',
        f'{{"hand": "{hand}", "win": "5m", "self_drawn": true, "self_drawn": false}}',
        f'{{"hand": "{hand}:", "win": "5m"}}',
    ]
    code, out, _ = haidi_cli("eval", "--rules", rules, "--jsonl", stdin="\n".join(lines) + "\n")
    answers = [json.loads(a) for a in out.splitlines()]
    assert code == 2 and len(answers) == 4
    assert 'key "win" is given twice' in answers[0]["error"]
    assert answers[1]["win"] is True
    assert 'key "self_drawn" is given twice' in answers[2]["error"]
    assert "twice" not in answers[3]["error"]  # a colon in a value is no key
    twice = 'options={"eight_pairs": "lazi", "eight_pairs": false}'
    code, _, err = haidi_cli("eval", "--rules", "longgang", hand, "--win", "5m", "--set", twice)
    assert code == 2 and 'key "eight_pairs" is given twice' in err


def test_jsonl_refuses_a_line_key_the_call_gives(haidi_cli):
    line = '{"hand": "{1111m}[2222p]123s456s9s", "win": "9s", "concealed_and_melded_kong": false}\n'
    code, out, _ = haidi_cli("eval", "--jsonl", "--mingangang", stdin=line)
    assert code == 2 and "given both as a key and in the call's options" in json.loads(out)["error"]


@pytest.mark.parametrize(
    "arg",
    [
        ["--win", "2z"],
        ["--self-drawn"],
        ["--seat", "S"],
        ["--round", "W"],
        ["--flowers", "2"],
        ["--wild", "5m"],
        ["--explain"],
        ["--wall-last"],
        ["--set", "self_drawn=true"],
    ],
)
def test_jsonl_refuses_the_situation_arguments_each_line_gives(haidi_cli, arg):
    """A situation argument would apply to no line: refused, with nothing read or written."""
    line = '{"hand": "123m456p789s1122z", "win": "2z"}\n'
    code, out, err = haidi_cli("eval", "--jsonl", *arg, stdin=line)
    assert code == 2 and out == "" and f"{arg[0]} is a key of each line with --jsonl" in err
    code, out, _ = haidi_cli("eval", "--jsonl", "--mingangang", "--format", "compact", stdin=line)
    assert code == 0 and json.loads(out)["win"]


def test_a_deep_object_is_refused_for_its_depth_before_its_keys_are_counted(haidi_cli):
    """A line of objects nested 1,000 deep (each key a colon) is answered with the depth
    error, not a RecursionError from walking it for keys given twice."""
    deep = '{"b":' * 1000 + "1" + "}" * 1000
    code, out, _ = haidi_cli("eval", "--jsonl", stdin=f'{{"hand": "1:", "a": {deep}}}\n')
    assert code == 2 and "nested more than 16 deep" in json.loads(out)["error"]
    code, _, err = haidi_cli("eval", "123m456p789s1122z", "--win", "2z", "--set", f"x={deep}")
    assert code == 2 and "nested more than 16 deep" in err and "Traceback" not in err


@pytest.mark.parametrize("key", ["hand=123m", "format=compact", "scoring=true", "visible=1m", "wilds=5m"])
def test_analyze_refuses_a_set_key_its_own_flag_gives(haidi_cli, key):
    code, out, err = haidi_cli("analyze", "123m456p789s1122z", "--set", key)
    name = key.partition("=")[0]
    assert code == 2 and out == "" and f"--set {name}: {name} is given as" in err and "Traceback" not in err


def test_a_ruleset_name_is_read_in_any_case_as_haidi_ruleset_reads_it(haidi_cli):
    assert haidi.ruleset("MCR") is haidi.ruleset("mcr")
    upper = haidi_cli("eval", "--rules", "MCR", "123m456p789s1122z", "--win", "2z", "--json")
    assert upper == haidi_cli("eval", "--rules", "mcr", "123m456p789s1122z", "--win", "2z", "--json")
    assert haidi_cli("waits", "--rules", "Changsha", "123m456p789s2255m")[0] == 0
    with pytest.raises(SystemExit) as exited:
        haidi_cli("eval", "--rules", "riichi", "x")
    assert exited.value.code == 2


def test_paths_and_limits_are_read_strictly(haidi_cli, tmp_path):
    """An empty file name would read as none given and write nothing; a --plot name
    without an extension would be written with .png added; --limit goes up to the
    engine's cap, as `decompose(limit=)` does."""
    for argv in (
        ["reproduce", "--plot", ""],
        ["replay", "--html", "", "x.jsonl"],
        ["analyze", "--html", "", "123m456p789s1122z"],
        ["decompose", "--limit", "20001", "11122233344455m"],
    ):
        with pytest.raises(SystemExit) as exited:
            haidi_cli(*argv)
        assert exited.value.code == 2, argv
    for limit in ("19999", "20000"):
        code, out, _ = haidi_cli("decompose", "--limit", limit, "11122233344455m")
        assert code == 0 and out.startswith("11122233344455m: 4 arrangements"), (limit, out)
    # At the cap, a hand with more arrangements is listed cut, and says so.
    wilds = ["--wild", "1z", "--wild", "2z", "--wild", "3z"]
    code, out, _ = haidi_cli("decompose", "--limit", "20000", *wilds, "11112222333344z")
    assert code == 0 and out.splitlines()[0] == "11112222333344z: the first 20000 arrangements (--limit)"
    assert len(out.splitlines()) == 20_001
    for plot, named in [("x", "has no extension"), (str(tmp_path), "is a folder")]:
        code, _, err = haidi_cli("reproduce", "--plot", plot, "--tiles", "5", "-q")
        assert code == 2 and named in err
    assert not (tmp_path / "x.png").exists()
    # A page into a folder that is not there is refused before anything is answered.
    for argv in (
        ["analyze", "--html", str(tmp_path / "no" / "x.html"), "123m456m78p11s5z[567s]"],
        ["analyze", "--html", str(tmp_path), "123m456m78p11s5z[567s]"],
        ["replay", "--html", str(tmp_path / "no" / "x.html"), str(tmp_path / "g.jsonl")],
    ):
        code, out, err = haidi_cli(*argv)
        assert (code, out) == (2, ""), argv
        assert err.startswith("haidi: error: --html: "), err


def test_a_replay_page_is_private_replaces_no_log_and_follows_no_link(tmp_path, haidi_cli):
    """The page holds what the log holds: written 0600 as the log is, never over a log
    it reads, never through a link put in its place; a line that never ends (a stream
    of zeros) is refused at once."""
    log = tmp_path / "g.jsonl"
    assert haidi_cli("play", "--bots", "greedy,greedy,greedy,greedy", "--games", "1", "--log", str(log))[0] == 0
    kept = log.read_bytes()
    code, _, err = haidi_cli("replay", "--html", str(log), str(log))
    assert code == 2 and "is a log read" in err and log.read_bytes() == kept
    target, link = tmp_path / "target.txt", tmp_path / "link.html"
    target.write_text("kept")
    link.symlink_to(target)
    assert haidi_cli("replay", "--html", str(link), str(log))[0] == 4 and target.read_text() == "kept"
    page = tmp_path / "page.html"
    assert haidi_cli("replay", "--html", str(page), str(log))[0] == 0
    assert page.stat().st_mode & 0o777 == 0o600
    # With several files, a line at fault is named by its file, as plain replay names it.
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    code, _, err = haidi_cli("replay", "--html", str(page), str(log), str(bad))
    assert code == 2 and f"{bad}: line 1: not JSON" in err
    if os.path.exists("/dev/zero"):
        out = subprocess.run(
            [sys.executable, "-m", "haidi", "replay", "--html", str(tmp_path / "z.html"), "/dev/zero"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert out.returncode == 2 and "longer than" in out.stderr


def test_replay_says_a_closed_or_full_output_as_every_command_does(tmp_path):
    """Exit 1 when the reader goes away, 4 when the output cannot take the text: not the
    'cannot read' of an input file."""
    log = tmp_path / "g.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "haidi",
            "play",
            "--bots",
            "random,random,random,random",
            "--games",
            "40",
            "--log",
            str(log),
        ],
        check=True,
        capture_output=True,
    )
    p = subprocess.Popen(
        [sys.executable, "-m", "haidi", "replay", "--json", str(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()
    assert p.wait(timeout=60) == 1
    with p.stderr:
        assert b"cannot read" not in p.stderr.read()
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "haidi", "replay", str(log)], stdout=full, stderr=subprocess.PIPE
            )
        assert done.returncode == 4 and b"cannot write standard output" in done.stderr


def test_numbers_on_the_command_line_are_ascii_digits(haidi_cli):
    # int() and float() would read these as 12, 12 and 12: the command refuses them, as
    # the JSON of --set does.
    for text in ["１２", "1_2", " 12", "٣", "+12"]:
        for argv in [
            ("reproduce", "--tiles", text),
            ("play", "--bots", "greedy,greedy,greedy,greedy", "--games", text),
            ("play", "--bots", "greedy,greedy,greedy,greedy", "--seed", text),
            ("play", "--bots", "greedy,greedy,greedy,greedy", "--timeout", text),
            ("play", "--bots", "greedy,greedy,greedy,greedy", "--max-answer", text),
        ]:
            with pytest.raises(SystemExit) as info:
                haidi_cli(*argv)
            assert info.value.code == 2, argv
    # MCR's --flowers is a number of flowers only in ASCII digits; other text is tiles.
    code, out, _ = haidi_cli("eval", "1112345678999m", "--win", "5m", "--flowers", "3", "--json")
    assert code == 0 and json.loads(out)["total"] > 0
    code, _, err = haidi_cli("eval", "1112345678999m", "--win", "5m", "--flowers", "٣")
    assert code == 2 and "٣" in err
    code, _, err = haidi_cli("play", "--bots", "greedy,greedy,greedy,greedy", "--timeout", ".5", "--seed", "7")
    assert code == 0, err


def _match_log(haidi_cli, path) -> list[str]:
    code, _, err = haidi_cli("play", "--bots", "greedy,greedy,greedy,greedy", "--seed", "5", "--games", "2",
                             "--log", str(path))  # fmt: skip
    assert code == 0, err
    return path.read_text().splitlines()


@pytest.mark.parametrize(
    "change, key",
    [
        # Left out, each would turn its check off: a hand under other options replayed.
        (lambda h: h.pop("options"), "options"),
        (lambda h: h.update(options=None), "options"),
        (lambda h: h.update(hands="2"), "hands"),
        (lambda h: h.update(hands=True), "hands"),
        (lambda h: h.update(payments=[float(x) for x in h["payments"]]), "payments"),
        (lambda h: h.update(players={"0": "greedy"}), "players"),
        (lambda h: h.update(duplicate="yes"), "duplicate"),
    ],
)
def test_a_match_header_is_read_strictly(haidi_cli, tmp_path, change, key) -> None:
    lines = _match_log(haidi_cli, tmp_path / "m.jsonl")
    header = json.loads(lines[0])
    change(header)
    (tmp_path / "bad.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, out, _ = haidi_cli("replay", str(tmp_path / "bad.jsonl"))
    assert code == 2 and "match header" in out and key in out


def test_replay_html_names_the_line_and_a_page_it_cannot_write_is_status_4(haidi_cli, tmp_path) -> None:
    lines = _match_log(haidi_cli, tmp_path / "m.jsonl")
    twice = lines[1].replace('"event":"start"', '"event":"start","event":"start"', 1)
    (tmp_path / "dup.jsonl").write_text("\n".join([lines[0], twice, *lines[2:]]) + "\n")
    code, _, err = haidi_cli("replay", "--html", str(tmp_path / "x.html"), str(tmp_path / "dup.jsonl"))
    assert code == 2 and "line 2: key" in err
    if Path("/dev/full").exists():
        code, _, err = haidi_cli("replay", "--html", "/dev/full", str(tmp_path / "m.jsonl"))
        assert code == 4 and "cannot write" in err


# -- shell habits: a closed standard error, empty names, messages in their place ----------


def _shell(command: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``command`` run by sh with this test run's haidi first on the path."""
    bin_dir = Path(sys.executable).parent
    env = {**ENV, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["sh", "-c", command], input=stdin, capture_output=True, env=env, timeout=WAIT)


def test_with_standard_error_closed_messages_never_reach_standard_output() -> None:
    # print() writes to standard output when its file is None: a JSON stream would carry
    # haidi's messages.
    r = _shell("haidi eval --jsonl 2>&-", b"bad\n")
    lines = r.stdout.decode().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and json.loads(lines[0])["line"] == 1
    r = _shell("haidi waits --json 1m 2>&-")
    assert r.returncode == 2 and all(json.loads(x) for x in r.stdout.decode().splitlines())
    r = _shell("haidi waits 1m 2>&-")
    assert r.returncode == 2 and r.stdout == b""


def test_a_match_with_standard_error_closed_still_ends_and_writes_its_log(tmp_path) -> None:
    log = tmp_path / "c.jsonl"
    r = _shell(f"haidi play --bots 'sh -c \"exit 3\"',random,random,random --seed 2 --log {log} 2>&-")
    assert r.returncode == 3 and b"STOPPED" in r.stdout and log.stat().st_size > 0


@pytest.mark.parametrize(
    "argv, argument",
    [
        (["replay", "--key-file", "", "x.jsonl"], "--key-file"),
        (["play", "--log", "", "--bots", "random,random,random,random"], "--log"),
        (["play", "--log", "x.jsonl", "--key-file", "", "--bots", "random,random,random,random"], "--key-file"),
        (["botzone", "export", "x.txt", "-o", "", "-q"], "--out"),
    ],
)
def test_an_empty_file_name_is_refused_not_read_as_none_given(haidi_cli, argv, argument) -> None:
    # An unset variable ($KEY) would turn the HMAC check off, or write the log nowhere.
    with pytest.raises(SystemExit) as e:
        haidi_cli(*argv)
    assert e.value.code == 2


def test_export_draws_no_progress_bar_off_a_terminal_and_reads_its_shard_in_ascii(tmp_path) -> None:
    from conftest import DATA

    out = tmp_path / "out"
    r = _shell(f"haidi botzone export {DATA / 'botzone_matches.txt'} -o {out}")
    assert r.returncode == 0 and r.stderr == b"" and b"examples" in r.stdout
    r = _shell(f"haidi botzone export {DATA / 'botzone_matches.txt'} -o {out} --shard １２")
    assert r.returncode == 2 and "--shard" in r.stderr.decode()


def test_analyze_reads_its_set_before_any_hand(haidi_cli) -> None:
    # Bad usage is status 2 whether or not a hand comes, and is not blamed on a line.
    code, _, err = haidi_cli("analyze", "--set", "x", stdin="")
    assert code == 2 and "--set takes KEY=VALUE" in err
    code, out, err = haidi_cli("analyze", "--set", "bogus=1", "--json", stdin="123m456p789s1122z\n")
    assert code == 2 and out == "" and 'situation key "bogus"' in err and "line 1" not in err
    code, _, err = haidi_cli("analyze", "--set", "self_drawn=1", stdin="123m456p789s1122z\n")
    assert code == 2 and "self_drawn must be true or false" in err


def test_replay_of_several_files_names_each_line_by_its_file(haidi_cli, tmp_path) -> None:
    lines = _match_log(haidi_cli, tmp_path / "m.jsonl")
    (tmp_path / "bad.jsonl").write_text("not json\n")
    code, out, _ = haidi_cli("replay", str(tmp_path / "m.jsonl"), str(tmp_path / "bad.jsonl"))
    assert code == 2 and f"{tmp_path / 'bad.jsonl'}: line 1: bad input" in out
    code, out, _ = haidi_cli("replay", "--json", str(tmp_path / "m.jsonl"), str(tmp_path / "bad.jsonl"))
    rows = [json.loads(x) for x in out.splitlines()]
    assert {"file": str(tmp_path / "bad.jsonl"), "line": 1} == {k: rows[-2][k] for k in ("file", "line")}
    assert len(lines) > 1 and all(r.get("file") == str(tmp_path / "m.jsonl") for r in rows[: len(lines)])


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "123m456p789s1122z", "--win", "1z", "--win", "2z"],
        ["eval", "123m456p789s1122z", "--win", "1z", "--seat", "E", "--seat", "S"],
        ["analyze", "123m456p789s1122z", "--visible", "1z", "-v", "2z"],
        ["play", "--games", "1", "--games", "2"],
    ],
)
def test_an_option_of_one_value_given_twice_is_refused(haidi_cli, argv) -> None:
    # argparse keeps the last: the first would be dropped without a word.
    with pytest.raises(SystemExit) as e:
        haidi_cli(*argv)
    assert e.value.code == 2


@pytest.mark.parametrize("option", ["--visible", "--wild"])
def test_an_empty_tiles_value_is_refused_not_read_as_none(haidi_cli, option) -> None:
    with pytest.raises(SystemExit) as e:
        haidi_cli("analyze", "--rules", "tangshan", "123m456p789s1122z", option, "")
    assert e.value.code == 2
    with pytest.raises(SystemExit):
        haidi_cli("eval", "123m456p789s1122z", "--win", "1z", "--flowers", "")


def test_eval_json_answers_a_bad_hand_with_a_line_of_json(haidi_cli) -> None:
    code, out, err = haidi_cli("eval", "--json", "123m", "--win", "1z")
    assert code == 2 and json.loads(out) == {"error": json.loads(out)["error"], "line": 1, "input": "123m"}
    assert "hand has 3 tiles" in json.loads(out)["error"] and "1 of 1" in err


def test_replay_json_answers_blank_lines_and_counts_no_header_as_a_hand(haidi_cli, tmp_path) -> None:
    code, out, _ = haidi_cli("replay", "--json", stdin="\n# a note\n")
    assert code == 0 and [json.loads(x) for x in out.splitlines()] == [
        {"line": 1, "skipped": "blank"},
        {"line": 2, "skipped": "comment"},
    ]
    lines = _match_log(haidi_cli, tmp_path / "m.jsonl")
    (tmp_path / "two.jsonl").write_text("\n".join([lines[0], *lines]) + "\n")
    code, out, _ = haidi_cli("replay", str(tmp_path / "two.jsonl"))
    hands = len(lines) - 1
    assert code == 2 and f"{hands} of {hands} hands agree; 1 lines are no log" in out


def test_botzone_io_goes_with_the_botzone_protocol(haidi_cli) -> None:
    code, _, err = haidi_cli("play", "--botzone-io", "simple", "--bots", "random,random,random,random")
    assert code == 2 and "--protocol botzone" in err


def test_a_control_character_is_quoted_as_python_and_json_write_it(haidi_cli) -> None:
    # Not as Rust writes it ('\u{feff}'): the messages are read by Python and JSON users.
    with pytest.raises(haidi.HandError) as e:
        haidi.Hand("\ufeff123m")
    assert str(e.value) == "unknown character '\\ufeff' at position 0 in \"\\ufeff123m\""
    with pytest.raises(haidi.HandError, match=r"'\\x07'"):
        haidi.Hand("12\x07m")
