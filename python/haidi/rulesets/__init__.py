"""The registry of rulesets. Adding one: a module with a ``SPEC`` and a line here, or
``register(module)`` at run time (docs/rulesets.md)."""

from __future__ import annotations

from types import ModuleType

from .._core import HandError
from .._errors import shown
from . import beijing, changsha, hainan, longgang, mcr, tangshan
from ._spec import GameRules, RulesetSpec

#: Ruleset modules by name. Read it, but add or remove one with ``register`` and
#: ``unregister``.
REGISTRY: dict[str, ModuleType] = {
    "mcr": mcr,
    "changsha": changsha,
    "hainan": hainan,
    "longgang": longgang,
    "tangshan": tangshan,
    "beijing": beijing,
}


def register(module: ModuleType) -> str:
    """Adds a ruleset module to the registry under ``module.SPEC.name`` and returns that
    name: ``haidi.ruleset(name)``, ``haidi.Game``, ``simulate`` and ``haidi eval --rules``
    then play it as they play the six built in.

    The module declares what a built-in ruleset's does (docs/rulesets.md): ``SPEC`` (a
    ``RulesetSpec``) and ``scheme(options)`` for scoring, and as it needs them ``OPTIONS``,
    ``KEY_DOCS``, ``settle``, ``GAME`` with ``game_outcome``, ``describe``. A name already
    registered is a ``HandError`` (``unregister`` it first).
    """
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, RulesetSpec):
        raise HandError(f"a ruleset module defines SPEC, a RulesetSpec; {shown(module)} does not")
    name = spec.name
    if not name or name != name.lower():
        raise HandError(f"a ruleset's name is lower-case text, not {shown(name)}")
    if name in REGISTRY:
        raise HandError(f"a ruleset named {shown(name)} is registered already")
    if not callable(getattr(module, "scheme", None)):
        raise HandError(f"ruleset {shown(name)} defines no scheme(options) to score with")
    REGISTRY[name] = module
    return name


def unregister(name: str) -> None:
    """Removes the ruleset ``name`` from the registry (``haidi.ruleset(name)`` is then a
    ``HandError``)."""
    if REGISTRY.pop(name, None) is None:
        raise HandError(f"no ruleset named {shown(name)} is registered")


__all__ = ["REGISTRY", "GameRules", "RulesetSpec", "register", "unregister"]
