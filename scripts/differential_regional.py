"""Scores random situations of a regional ruleset with haidi and with an earlier haidi
(the Python scorers the Rust engine replaced), and sorts the differences by kind.

    python scripts/differential_regional.py --legacy DIR --rules longgang -n 100000

``DIR`` holds a package ``haidi_legacy``: the ``python/haidi`` folder of haidi 0.1.0
before the regional scorers moved to Rust (commit 7797d74), with its built extension,
copied under that name. What is compared: win, total, the patterns with their counts, and
the ruleset's own keys (big, small, points, tai, face, lazi ...). Errors count as equal
when both raise ``HandError``. docs/regional-differences.md lists the kinds found.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import random
import sys
import time
from typing import Any

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import situations  # noqa: E402

_EXTRA = {
    "changsha": ("big", "small", "self_drawn"),
    "hainan": ("complete", "discard_win", "self_drawn"),
    "tangshan": ("points",),
    "beijing": (),
    "longgang": ("face", "tai", "lazi", "follow", "instant", "role"),
}


def _fans(rules: str, r: dict[str, Any]) -> dict[str, int]:
    entries = r.get("patterns") if rules in ("changsha", "longgang") else r.get("fans")
    return {str(e["id"]): int(e.get("count", 1)) for e in entries or ()}


def normal(rules: str, r: dict[str, Any], legacy: bool) -> dict[str, Any]:
    """What is compared of a result."""
    total = r.get("total")
    if legacy and rules == "changsha":
        total = 6 * r["big"] if r["big"] else 2 * r["small"]
        if not r["win"]:
            total = 0
    if legacy and rules == "hainan":
        total = 20 if r["complete"] else 0
    out = {"win": r["win"], "total": total, "fans": _fans(rules, r)}
    if not legacy:
        out["_beyond"] = _beyond_copies(r)
    for k in _EXTRA[rules]:
        # Keys the earlier results of a player who did not win lacked are not compared.
        if not (rules == "longgang" and r.get("role") == "loser" and k in ("follow", "instant")):
            out[k] = r.get(k)
    return out


def _beyond_copies(r: dict[str, Any]) -> bool:
    """Whether some kind stands for more tiles than its four copies in the arrangement."""
    stood: collections.Counter[str] = collections.Counter()
    for g in r.get("groups") or ():
        stood.update(g["tiles"])
    return any(n > 4 for n in stood.values())


def _rank(r: dict[str, Any]) -> tuple[Any, ...]:
    return (r["total"], r.get("tai", 0), r.get("face", 0))


def _init(legacy_dir: str) -> None:
    sys.path.insert(0, legacy_dir)


def _run(args: tuple[str, int, int]) -> tuple[collections.Counter[str], dict[str, list[Any]], float, float]:
    import haidi_legacy

    import haidi

    rules, seed, n = args
    rng = random.Random(seed)
    new, old = haidi.ruleset(rules), haidi_legacy.ruleset(rules)
    kinds: collections.Counter[str] = collections.Counter()
    samples: dict[str, list[Any]] = {}
    t_new = t_old = 0.0
    for _ in range(n):
        s = situations.situation(rng, rules)
        t0 = time.perf_counter()
        try:
            a: Any = normal(rules, new.evaluate(**s), False)
        except haidi.HandError as e:
            a = ("error", str(e))
        t1 = time.perf_counter()
        try:
            b: Any = normal(rules, old.evaluate(**s), True)
        except (haidi_legacy.HandError, ValueError) as e:
            b = ("error", str(e))
        except Exception as e:  # the old scorers had defects of their own
            b = ("crash", f"{type(e).__name__}: {e}")
        t2 = time.perf_counter()
        t_new += t1 - t0
        t_old += t2 - t1
        kind = compare(a, b)
        kinds[kind] += 1
        if kind != "same" and len(samples.setdefault(kind, [])) < 5:
            samples[kind].append({"situation": s, "haidi": a, "legacy": b})
    return kinds, samples, t_new, t_old


def compare(a: Any, b: Any) -> str:
    """The kind of a difference: which parts differ, and why where it can be told."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        if isinstance(a, tuple) and isinstance(b, tuple):
            return "same" if a[0] == b[0] == "error" else f"{a[0]} / {b[0]}"
        if isinstance(b, tuple):
            return f"haidi scores, legacy {b[0]}: {b[1][:50]}"
        return f"haidi error, legacy scores: {a[1][:60]}"
    beyond = a.pop("_beyond", False)
    parts = [k for k in a if a[k] != b.get(k)]
    if not parts:
        return "same"
    if a["win"] and not b["win"] and beyond:
        return "haidi completes the hand with a wild past the four copies"
    if not a["win"] and not b["win"] and not b["fans"] and a["fans"] and a.get("role") != "loser":
        return "no win: haidi reports the fans and total of the hand, the old scorer none"
    if a["win"] == b["win"] and a.get("role", "winner") == b.get("role", "winner"):
        ra, rb = _rank(a), _rank(b)
        # Longgang's search stops at the first arrangement worth what can be paid (300 胡,
        # and 3 台 for a winner's 跟胡数): another of the same worth may be shown.
        capped = a["total"] == b["total"] == 300 and (a.get("role") == "loser" or a.get("follow") == b.get("follow"))
        if capped and set(parts) <= {"fans", "face", "tai", "lazi"}:
            return "at the cap: another arrangement of the same worth shown"
        if ra > rb:
            why = "a wild stands past the four copies" if beyond else "the old search missed it"
            return f"haidi finds a better arrangement ({why})"
        if ra == rb and set(parts) <= {"fans", "face", "tai", "lazi"}:
            return "a tie: another arrangement of the same rank shown"
    if "fans" in parts:
        only_a = sorted(set(a["fans"]) - set(b["fans"]))
        only_b = sorted(set(b["fans"]) - set(a["fans"]))
        counts = sorted(k for k in set(a["fans"]) & set(b["fans"]) if a["fans"][k] != b["fans"][k])
        detail = f"+{only_a} -{only_b}" + (f" count{counts}" if counts else "")
        return " ".join(p for p in parts if p != "fans") + f" fans {detail}"
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--legacy", required=True, help="folder holding the package haidi_legacy")
    p.add_argument("--rules", required=True, choices=sorted(situations.TILES))
    p.add_argument("-n", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", help="write the kinds and samples here")
    a = p.parse_args(argv)
    chunk = max(1, a.n // (a.workers * 8))
    jobs = [(a.rules, a.seed * 1_000_003 + i, min(chunk, a.n - i * chunk)) for i in range((a.n + chunk - 1) // chunk)]
    kinds: collections.Counter[str] = collections.Counter()
    samples: dict[str, list[Any]] = {}
    t_new = t_old = 0.0
    with multiprocessing.Pool(a.workers, initializer=_init, initargs=(a.legacy,)) as pool:
        for k, s, tn, to in pool.imap_unordered(_run, jobs):
            kinds.update(k)
            t_new += tn
            t_old += to
            for kind, items in s.items():
                samples.setdefault(kind, []).extend(items[: 5 - len(samples.get(kind, []))])
    print(
        f"{a.rules}: {a.n} situations, seed {a.seed}; "
        f"haidi {t_new / a.n * 1e6:.1f} us, legacy {t_old / a.n * 1e6:.1f} us a call"
    )
    for kind, n in kinds.most_common():
        print(f"{n:8d}  {kind}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"kinds": kinds, "samples": samples}, f, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
