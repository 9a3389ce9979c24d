"""The flow rules are declared once, in Rust (``Rules`` in src/game/rules.rs): the fields of
``haidi.rulesets.GameRules`` are exactly the rules the Rust reader of ``_core.Game`` takes,
with the same defaults, and a rule it does not know, or a value not of its kind, is refused
by name on both sides."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from haidi import HandError, _core
from haidi.rulesets import REGISTRY, GameRules

#: GameRules' own fields, which the Python side reads (the game never sees them).
PYTHON_SIDE = ["flowers", "carry", "not_modelled", "sources", "variants"]
#: The tile set and the wind, which `haidi.game` adds to a ruleset's flow rules.
TILE_SET = dict(name="mcr", melds=4, tiles="123456789m123456789p123456789s1234567z", flowers="", round_wind=0)
DECLARED = _core.game_rule_fields()


def _other(type_: str, default: Any) -> list[Any]:
    """Values of a rule's type other than its default, as GameRules takes them."""
    if type_ == "bool":
        return [not default]
    if type_ == "int":
        return [default + 1]
    if type_.startswith("Literal["):
        return [c for c in type_[len("Literal[") : -1].replace("'", "").split(", ") if c != default]
    assert type_ == "str", type_
    return ["x"]


def test_game_rules_fields_are_the_rust_declaration() -> None:
    names = [f.name for f in dataclasses.fields(GameRules)]
    assert names == [name for name, *_ in DECLARED] + PYTHON_SIDE
    rules = GameRules()
    for f, (name, type_, default, doc) in zip(dataclasses.fields(GameRules)[: len(DECLARED)], DECLARED, strict=True):
        assert f.type == type_ and f.default == default == getattr(rules, name)
        assert f.metadata["doc"] == doc and doc and doc in (GameRules.__doc__ or "")
    assert rules.flow() == _core.game_rules({}) == {name: default for name, _, default, _ in DECLARED}


@pytest.mark.parametrize("row", DECLARED, ids=[row[0] for row in DECLARED])
def test_the_game_reads_every_declared_rule(row: tuple[str, str, Any, str]) -> None:
    name, type_, default, _ = row
    for value in _other(type_, default):
        if name == "rob_concealed_kong":
            value = "一条龙"  # a pattern of the scorer (Beijing's)
        rules = GameRules(**{name: value})
        assert getattr(rules, name) == value and rules.flow()[name] == value
        flow = {**TILE_SET, **rules.flow()}
        if name == "rob_concealed_kong":
            with pytest.raises(HandError, match="rob_concealed_kong names .一条龙., which is no pattern"):
                _core.Game(flow, _core.McrScorer(), 0)  # read, then checked against MCR's scorer
        else:
            _core.Game(flow, _core.McrScorer(), 0)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"chw": True}, "game rules: no rule is named 'chw'"),
        ({"name": "mcr"}, "game rules: no rule is named 'name'"),
        ({"chow": 1}, "game rules: chow must be True or False, not 1"),
        ({"chow": None}, "game rules: chow must be True or False, not None"),
        ({"kept": 33}, "game rules: kept must be an int from 0 to 32, not 33"),
        ({"kept": True}, "game rules: kept must be an int from 0 to 32, not True"),
        ({"winners": "every"}, "game rules: winners must be one of 'all', 'first', not 'every'"),
        ({"wild": 0}, "game rules: wild must be a str, not 0"),
        ({"flowers": "yes"}, "game rules: flowers must be True or False, not 'yes'"),
    ],
)
def test_a_rule_not_declared_or_not_of_its_type_is_refused_by_name(given: dict[str, Any], message: str) -> None:
    with pytest.raises(HandError) as e:
        GameRules(**given)
    assert str(e.value) == message
    if "flowers" not in given and "name" not in given:
        # The game's own reader says the same of a flow dict.
        with pytest.raises(HandError) as e:
            _core.Game({**TILE_SET, **given}, _core.McrScorer(), 0)
        assert str(e.value) == message


def test_game_rules_stay_a_frozen_dataclass() -> None:
    rules = REGISTRY["longgang"].GAME
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.chow = False  # type: ignore[misc]
    again = dataclasses.replace(rules, chow=False)
    assert again.chow is False and again.split == rules.split == 4 and again.sources == rules.sources
    assert dataclasses.replace(again, chow=True) == rules
