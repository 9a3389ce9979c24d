"""The registry of rulesets. Adding one: a module with a ``SPEC`` and a line here."""

from __future__ import annotations

from types import ModuleType

from . import beijing, changsha, hainan, longgang, mcr, tangshan
from ._spec import GameRules, RulesetSpec

#: Ruleset modules by name.
REGISTRY: dict[str, ModuleType] = {
    "mcr": mcr,
    "changsha": changsha,
    "hainan": hainan,
    "longgang": longgang,
    "tangshan": tangshan,
    "beijing": beijing,
}

__all__ = ["REGISTRY", "GameRules", "RulesetSpec"]
