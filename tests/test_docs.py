"""The docs say what the code does: each ruleset's reference page is written from its code
and lists every key the code takes or returns; the stubs of ``haidi._core`` carry the
module's own docstrings; the docs read as a reference, not a diary."""

from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path

import pytest

import haidi
from haidi import _core
from haidi.rulesets._scheme import key_rows

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import reference_pages  # noqa: E402

#: A winning situation of each ruleset, and one that is not a win.
SITUATIONS = {
    "mcr": [dict(hand="1112345678999m", win="5m", self_drawn=True), dict(hand="123m456p789s1234z", win="5z")],
    "changsha": [dict(hand="111m333p444s666s1s", win="1s"), dict(hand="1122334455667m", win="7m", self_drawn=True)],
    "hainan": [dict(hand="123m456m789m234p5s", win="5s"), dict(hand="[111m][444p][999s]345s1z", win="1z")],
    "longgang": [
        dict(hand="123m456p789s111z22z33s", win="3s", self_drawn=True, wilds="9m"),
        dict(hand="123m456p789s111z22z33s"),
    ],
    "tangshan": [dict(hand="123m456p789s1112z", win="2z", indicator="3z"), dict(hand="123m456p46m11z789s", win="5m")],
    "beijing": [dict(hand="123m456p234s11z5z7s", win="8s", seat_wind="S", indicator="6z")],
}


def _section(page: str, title: str) -> str:
    """The text of a ``## title`` section of a page."""
    return page.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _listed(section: str) -> set[str]:
    """The names a section's tables list in their first column (`` `name` ``)."""
    return set(re.findall(r"^\| `([^`]+)` \|", section, re.M))


def test_reference_pages_are_current() -> None:
    assert reference_pages.stale() == [], "run python scripts/reference_pages.py"


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_reference_page_lists_every_key_the_code_takes_and_returns(rules: str) -> None:
    """Every situation key the ruleset's reader takes, every option and every key of a real
    result (and of its fan and group entries) is a row of the ruleset's page."""
    rs = haidi.ruleset(rules)
    page = (ROOT / "docs" / "reference" / f"{rules}.md").read_text(encoding="utf-8")
    if rs.scheme is not None:
        taken = set(rs.scheme.keys)
    else:
        params = inspect.signature(_core.mcr_evaluate).parameters.values()
        taken = {p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert taken - {"options"} and taken - _listed(_section(page, "Situation keys")) == set()
    assert "options" in _listed(_section(page, "Situation keys"))
    assert {o.name for o in rs.module.OPTIONS} <= _listed(_section(page, "Options"))
    results = [rs.evaluate(**s, explain=True) for s in SITUATIONS[rules]]
    results += [rs.evaluate(**s) for s in SITUATIONS[rules]]
    assert any(r["win"] for r in results)
    returned = {k for r in results for k in r}
    entries = {k for r in results for f in (*r["fans"], *r["groups"]) for k in f}
    listed = _listed(_section(page, "Result keys"))
    assert returned - listed == set() and entries - listed == set()


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_result_types_declare_exactly_the_keys_returned(rules: str) -> None:
    result, _ = haidi.results.RESULT_TYPES[rules]
    always, at_times = haidi.results.result_keys(result)
    rs = haidi.ruleset(rules)
    for s in SITUATIONS[rules]:
        assert set(rs.evaluate(**s)) == always
        assert set(rs.evaluate(**s, explain=True)) == always | at_times


def test_mcr_keys_are_the_keywords_of_its_reader() -> None:
    params = inspect.signature(_core.mcr_evaluate).parameters.values()
    keywords = {p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
    mcr = haidi.ruleset("mcr").module
    assert {name for name, _, _ in mcr.KEYS} | set(mcr.OPTION_KEYS) | {"options"} == keywords
    # The reader takes each (None is a key left out) and refuses any other.
    rs = haidi.ruleset("mcr")
    for k in keywords - {"hand", "win"}:
        assert rs.evaluate(hand="123m456p789s1122z", win="1z", **{k: None})["win"]
    with pytest.raises(haidi.HandError, match='unknown mcr situation key "rest"'):
        rs.evaluate(hand="123m456p789s1122z", win="1z", rest=None)


@pytest.mark.parametrize("rules", haidi.RULESETS)
def test_evaluate_documents_its_ruleset(rules: str) -> None:
    """``help(ruleset.evaluate)`` shows the ruleset's keys, not ``functools.partial``'s
    docstring, and ``inspect.signature`` its keywords."""
    rs = haidi.ruleset(rules)
    doc = inspect.getdoc(rs.evaluate) or ""
    assert doc.startswith(f"Scores one {rs.spec.title} situation.")
    for row in key_rows(rs.module):
        assert f"\n    {row.name} (" in doc
    assert list(inspect.signature(rs.evaluate).parameters) == [r.name for r in key_rows(rs.module)]


def _stub_docs() -> dict[str, str | None]:
    """The docstring of every public class, function, method and property of the stub."""
    tree = ast.parse((ROOT / "python" / "haidi" / "_core.pyi").read_text(encoding="utf-8"))
    out: dict[str, str | None] = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and not node.name.startswith("_"):
            out[node.name] = ast.get_docstring(node)
            if isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, ast.FunctionDef) and not m.name.startswith("_"):
                        out[f"{node.name}.{m.name}"] = ast.get_docstring(m)
    return out


def _words(text: str | None) -> str:
    return " ".join((text or "").split())


def test_stub_has_the_modules_docstrings() -> None:
    """Each public class and function of ``haidi._core`` has a docstring, the same in the
    stub (which the reference site reads) as at run time (which ``help()`` shows)."""
    stub = _stub_docs()
    assert {n for n in _core.__all__ if not n.startswith("_")} <= set(stub)
    for name, doc in stub.items():
        obj = _core
        for part in name.split("."):
            obj = getattr(obj, part)
        assert doc, f"{name} has no docstring in _core.pyi"
        assert _words(inspect.getdoc(obj)) == _words(doc), name


#: Words of a diary or of who did what, which a reference has no use for.
DIARY = re.compile(
    r"\b(issue \d+|issues? asks?|the issue|sessions?|(first|second|third|next|this|last) round|"
    r"the review|before this (change|session|work|commit)|we|our|us|was asked|were asked|asked for|"
    r"the lead|helpers?|so far|comes later|today's|for now|at the start of|this version)\b",
    re.I,
)


def _doc_texts() -> dict[str, str]:
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md")}
    texts["README.md"] = (ROOT / "README.md").read_text(encoding="utf-8")
    for p in (ROOT / "python" / "haidi").rglob("*.py*"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    texts[f"{p.relative_to(ROOT)}:{getattr(node, 'name', '')}"] = doc
    return texts


def test_docs_read_as_a_reference() -> None:
    found = [f"{where}: {m.group(0)!r}" for where, text in _doc_texts().items() for m in DIARY.finditer(text)]
    assert found == []


def test_diary_words_are_found() -> None:
    assert DIARY.search("Issue 4 asks for it") and DIARY.search("in the second round we tried")


def test_readme_analysis_example_is_what_the_command_prints(haidi_cli) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split('$ haidi analyze "123m456m78p11s5z[567s]" --visible 9p9p\n', 1)[1].split("$ ", 1)[0]
    code, out, _ = haidi_cli("analyze", "123m456m78p11s5z[567s]", "--visible", "9p9p")
    assert code == 0 and out == block


def test_readme_analysis_entry_is_what_analyze_returns() -> None:
    entry = haidi.ruleset("mcr").analyze("123m456m78p11s5z[567s]", visible="9p9p")[0]
    assert entry == {
        "discard": "5z",
        "shanten": 0,
        "useful": ["6p", "9p"],
        "useful_count": 6,
        "useful_wilds": [],
        "waits": [{"tile": "6p", "left": 4}, {"tile": "9p", "left": 2}],
        "winning_waits": [{"tile": "6p", "left": 4, "total": 9}],
        "winning_count": 4,
    }
    assert haidi.ruleset("mcr").analyze("123m456m78p11s5z[567s]", scoring=True)[1]["draws"] == 1


def _unquoted_shell_patterns(command: str) -> list[str]:
    """The characters of a shell command that bash would expand as a glob or a brace
    pattern (and zsh refuse when nothing matches), outside quotes and before a comment."""
    found, quote = [], None
    for i, c in enumerate(command):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1].isspace()):
            break
        elif c in "[]*?{}":
            found.append(c)
    return found


def _shell_commands(text: str) -> list[str]:
    """The ``haidi`` commands of a text: from each line of a code block that is not
    Python (after ``$ `` or ``&&``), each inline code span, and each line of a docstring or
    a ``--help`` example."""
    commands, block = [], None
    for line in text.splitlines():
        fence = re.match(r"\s*```(\w*)", line)
        if fence:
            block = None if block is not None else fence.group(1)
            continue
        if block is None:
            commands += [span for span in re.findall(r"`([^`]+)`", line) if span.startswith("haidi ")]
        if block != "python":
            commands += [m.group(1) for m in re.finditer(r"(?:^\s*(?:\$ )?|&& )(haidi [^`]*)", line)]
    return commands


def test_shell_examples_quote_their_brackets() -> None:
    """A hand with a meld (``[567s]``) is a glob to bash and an error to zsh ("no matches
    found") unless it is quoted: every ``haidi`` command of the docs, the README, the
    docstrings and the ``--help`` examples quotes it."""
    from haidi import cli

    texts = _doc_texts()
    texts["--help"] = "\n".join(e for examples in cli.EXAMPLES.values() for e in examples)
    commands = {(where, c) for where, text in texts.items() for c in _shell_commands(text)}
    assert len(commands) > 50 and ("--help", "haidi replay games.jsonl") in commands
    assert _unquoted_shell_patterns("haidi waits 123m[567s]  # x") == ["[", "]"]
    assert _unquoted_shell_patterns("haidi waits '123m[567s]' --set 'options={\"a\": 1}'  # [x]") == []
    assert [(where, c) for where, c in sorted(commands) if _unquoted_shell_patterns(c)] == []


def test_readme_beijing_example_names_the_wild_it_scores_with() -> None:
    """ "惠牌" is the kind after the indicator (發 6z turns up 白 5z): the README's comment
    names the 惠牌 the result reports and the tile it stands for in the arrangement."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    r = haidi.ruleset("beijing").evaluate(hand="123m456p234s11z5z7s", win="8s", seat_wind="S", indicator="6z")
    assert r["wilds"] == ("5z",) and "678s(wild 6s)" in r["arrangement"]
    comment = readme.split('indicator="6z")\n', 1)[1].split("\n\n", 1)[0]
    assert f"'{r['arrangement']}'" in comment and "the 惠牌 5z stands for 6s" in comment
    assert "7s stands" not in comment
