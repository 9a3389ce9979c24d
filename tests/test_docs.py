"""The docs say what the code does: each ruleset's options table is the table of its code."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import options_tables  # noqa: E402


def test_options_tables_are_current() -> None:
    assert options_tables.stale() == [], "run python scripts/options_tables.py"


def test_readme_analysis_example_is_what_the_command_prints(haidi_cli) -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split('$ haidi analyze "123m456m78p11s5z[567s]" --visible 9p9p\n', 1)[1].split("$ ", 1)[0]
    code, out, _ = haidi_cli("analyze", "123m456m78p11s5z[567s]", "--visible", "9p9p")
    assert code == 0 and out == block


def test_readme_analysis_entry_is_what_analyze_returns() -> None:
    import haidi

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
