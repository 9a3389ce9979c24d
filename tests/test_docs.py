"""The docs say what the code does: each ruleset's options table is the table of its code."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import options_tables  # noqa: E402


def test_options_tables_are_current() -> None:
    assert options_tables.stale() == [], "run python scripts/options_tables.py"
