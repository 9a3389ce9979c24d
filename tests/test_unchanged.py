"""Shanten, waits and analyses of 20,000 seeded random hands of every ruleset are the
ones the engine gave before its distance tables were made at build time (digests in
tests/data/unchanged.json, recorded by that engine; ``python scripts/unchanged.py
--check --hands 1000000`` checks a million hands a ruleset)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import unchanged  # noqa: E402

RECORDED = json.loads(unchanged.DATA.read_text())
CHUNKS = 20000 // unchanged.CHUNK


@pytest.mark.parametrize("rules", unchanged.RULES)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_answers_are_the_recorded_ones(rules: str, chunk: int) -> None:
    assert unchanged.digest(rules, chunk) == RECORDED[rules][chunk]


def test_every_chunk_is_its_own() -> None:
    # Digests of different hands differ (they are not of something the hands leave alone).
    for rules in unchanged.RULES:
        assert len(set(RECORDED[rules])) == len(RECORDED[rules]) >= CHUNKS
