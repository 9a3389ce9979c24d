"""The `haidi` command: output, JSON, stdin, errors and exit status."""

import json
import subprocess
import sys

import pytest

import haidi
from haidi.cli import main


def test_waits_json_matches_the_documented_shape(haidi_cli):
    code, out, _ = haidi_cli("waits", "1112345678999m", "--json")
    assert code == 0
    assert json.loads(out) == {"waits": [f"{i}m" for i in range(1, 10)]}
    assert out.strip() == '{"waits": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]}'


def test_shanten_json(haidi_cli):
    code, out, _ = haidi_cli("shanten", "123m456p789s1234z", "--json")
    assert (code, json.loads(out)) == (0, {"shanten": 2})


def test_readable_output(haidi_cli):
    code, out, _ = haidi_cli("waits", "1112345678999m")
    assert code == 0 and "9 kinds" in out and "🀇" in out
    code, out, _ = haidi_cli("decompose", "111222333m456p77z")
    assert "2 arrangements" in out and "pung" not in out  # groups are written as tiles
    assert "111m" in out and "123m" in out


def test_rules_and_wilds(haidi_cli):
    code, out, _ = haidi_cli("waits", "123456789m11p2z7z", "--wild", "7z", "--json")
    assert json.loads(out) == {"waits": ["1p", "2z", "7z"]}
    code, out, _ = haidi_cli("shanten", "--rules", "longgang", "123456789m123p11s77z", "--json")
    assert json.loads(out) == {"shanten": 0}


def test_stdin_one_hand_a_line(haidi_cli):
    code, out, _ = haidi_cli("shanten", "--json", stdin="1112345678999m\n\n# comment\n11123455678999m\n")
    assert [json.loads(line) for line in out.splitlines()] == [{"shanten": 0}, {"shanten": -1}]


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
    assert code == 2 and json.loads(out) == {"shanten": 0} and "unknown character" in err


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
    assert json.loads(out)["complete_list"] is True


def test_limit_must_be_positive(capsys):
    with pytest.raises(SystemExit) as info:
        main(["decompose", "11123455678999m", "--limit", "0"])
    assert info.value.code == 2


def test_winning_waits(haidi_cli):
    # Beijing: a hand with declared melds wins only self-drawn.
    code, out, _ = haidi_cli("waits", "--winning", "--rules", "beijing", "1m456m789p[123p][111z]", "--json")
    assert json.loads(out) == {"waits": []}
    code, out, _ = haidi_cli("waits", "--winning", "--self-drawn", "-r", "beijing", "1m456m789p[123p][111z]", "--json")
    assert json.loads(out) == {"waits": ["1m"]}
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
    assert code == 0 and len(results) == 5
    assert results[0]["win"] and results[4] == results[0]
    assert [r.get("error") for r in results[1:4]] == [
        f"a line is nested more than {MAX_DEPTH} deep",
        f"a line is nested more than {MAX_DEPTH} deep",
        f"a line is longer than {MAX_LINE:,} characters",
    ]


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
    code, out, _ = haidi_cli("analyze", "--rules", "longgang", "123456789m12p11s77z5m5m", "--wild", "5m", "--scoring")
    assert code == 0 and "draws" in out
    for bad in (["1112345678999m", "--visible", "9m9m"], ["123m"], ["1112345678999m", "--set", "self_drawm=true"]):
        code, out, err = haidi_cli("analyze", *bad)
        assert code == 2 and out == "" and err.startswith("haidi: error: ")
