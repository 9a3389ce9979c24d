"""Fuzzing haidi for longer than CI does: every cargo-fuzz target for some minutes, then
the hypothesis suite with a big budget. ``--schemes`` writes the regional rulesets'
scoring data for the Rust fuzz targets instead (fuzz/schemes/*.json). docs/fuzzing.md
says what each part covers.

    python scripts/fuzz.py --minutes 10          # each cargo-fuzz target 10 minutes, then hypothesis
    python scripts/fuzz.py --targets engine mcr  # some targets only
    python scripts/fuzz.py --examples 20000 --minutes 0   # hypothesis only
    python scripts/fuzz.py --schemes             # after a ruleset's scoring data changes
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "fuzz"
SCHEMES = FUZZ / "schemes"


def scheme_variants(name: str) -> list[dict[str, Any]]:
    """The scoring data of a ruleset with its default options, and with each option that
    acts on scoring set in turn to each of its other values."""
    import haidi
    from haidi.rulesets._scheme import options_key

    rs = haidi.ruleset(name)
    table = [o for o in rs._option_table if o.acts in ("evaluate", "both")]
    given: list[dict[str, Any]] = [{}]
    for o in table:
        if isinstance(o.default, tuple):
            # A set of optional patterns: all of them at once.
            given.append({o.name: tuple(o.choices or ())})
            continue
        values = o.choices if o.choices is not None else ((not o.default,) if isinstance(o.default, bool) else ())
        # An option read under another's value only is given with that value.
        needs = {} if o.only_with is None else {o.only_with[0]: o.only_with[1]}
        given += [{**needs, o.name: v} for v in values if v != o.default]
    out, seen = [], set()
    for g in given:
        opts = rs.options(g)
        key = options_key(opts, rs._option_table)
        if key in seen:
            continue
        seen.add(key)
        data = dict(rs.module.scheme(opts))
        # What only the Python results read (entries, result keys, the options compiler).
        for k in ("compile", "results"):
            data.pop(k, None)
        data["patterns"] = [{k: v for k, v in p.items() if k not in ("entry", "loser_entry")} for p in data["patterns"]]
        data["fuzz_options"] = g
        out.append(data)
    return out


def schemes_json(name: str) -> str:
    return json.dumps(scheme_variants(name), ensure_ascii=False, default=repr) + "\n"


def write_schemes() -> None:
    """fuzz/schemes/<ruleset>.json: a list of scheme data, one per set of options."""
    import haidi

    SCHEMES.mkdir(exist_ok=True)
    for name in haidi.RULESETS:
        if getattr(haidi.ruleset(name).module, "scheme", None) is None:
            continue
        (SCHEMES / f"{name}.json").write_text(schemes_json(name), encoding="utf-8")
        print(f"wrote {SCHEMES / f'{name}.json'}")


def targets() -> list[str]:
    return sorted(p.stem for p in (FUZZ / "fuzz_targets").glob("*.rs"))


def fuzz_command() -> list[str] | None:
    """How to run cargo-fuzz here: with the nightly toolchain where it is installed (and
    AddressSanitizer, cargo-fuzz's default), else with the stable one and no sanitizer
    (a sanitizer is the one thing cargo-fuzz needs nightly for; the coverage is the
    same). None without cargo-fuzz."""
    if shutil.which("cargo-fuzz") is None:
        return None
    if subprocess.run(["cargo", "+nightly", "--version"], capture_output=True).returncode == 0:
        return ["cargo", "+nightly", "fuzz"]
    return ["cargo", "fuzz"]


def cargo_fuzz(names: list[str], seconds: int, jobs: int) -> bool:
    """Each target for `seconds`, `jobs` at a time; the inputs that fail are left in
    fuzz/artifacts/<target>/. Returns whether none failed."""
    cargo = fuzz_command()
    if cargo is None:
        print("cargo-fuzz is missing: cargo install cargo-fuzz")
        return False
    flags = ["-O"] if cargo[1] == "+nightly" else ["-O", "--sanitizer", "none"]
    subprocess.run([*cargo, "build", *flags], cwd=ROOT, check=True)
    ok = True
    pending = list(names)
    running: list[tuple[str, subprocess.Popen[bytes]]] = []
    while pending or running:
        while pending and len(running) < jobs:
            t = pending.pop(0)
            dirs = [f"fuzz/corpus/{t}", f"fuzz/seeds/{t}"]
            if (FUZZ / "regressions" / t).is_dir():
                dirs.append(f"fuzz/regressions/{t}")
            (FUZZ / "corpus" / t).mkdir(parents=True, exist_ok=True)
            args = [f"-max_total_time={seconds}", "-timeout=2", "-rss_limit_mb=2048", "-print_final_stats=1"]
            log = open(FUZZ / f"{t}.log", "wb")
            cmd = [*cargo, "run", *flags, t, *dirs, "--", *args]
            running.append((t, subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)))
            print(f"{t}: {seconds} s, log in fuzz/{t}.log")
        t, p = running.pop(0)
        if p.wait() != 0:
            ok = False
            print(f"{t}: FAILED (see fuzz/{t}.log and fuzz/artifacts/{t}/)")
        else:
            print(f"{t}: done")
    return ok


def hypothesis(examples: int) -> bool:
    env = {**os.environ, "HAIDI_FUZZ_EXAMPLES": str(examples)}
    # The statistics give each test's examples run, the figure a run reports.
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--hypothesis-show-statistics",
        "tests/test_fuzz.py",
    ]
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10, help="minutes for each cargo-fuzz target (0: none)")
    ap.add_argument("--targets", nargs="*", default=None, help="cargo-fuzz targets (default: all)")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 1), help="targets run at once")
    ap.add_argument("--examples", type=int, default=5000, help="hypothesis examples per test (0: none)")
    ap.add_argument("--schemes", action="store_true", help="write fuzz/schemes/*.json and stop")
    args = ap.parse_args()
    if args.schemes:
        write_schemes()
        return 0
    ok = True
    if args.minutes > 0:
        ok &= cargo_fuzz(args.targets or targets(), int(args.minutes * 60), args.jobs)
    if args.examples > 0:
        ok &= hypothesis(args.examples)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
