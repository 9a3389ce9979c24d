"""Checks a built wheel the way a user of an older Linux meets it.

    python scripts/check_wheel.py [--tested] dist/haidi-*.whl

- its tags: abi3, and manylinux2014 (manylinux_2_17) for x86_64;
- its extension: the newest glibc symbol version it needs is at most 2.17, and it carries
  no symbol table (stripped);
- ``auditwheel show`` finds it consistent with manylinux_2_17;
- it installs and runs (an import, an evaluate, the ``haidi`` command) in a fresh venv of
  each CPython 3.10 to 3.13 found on this machine, on PATH or under pyenv. ``--tested`` says
  that the interpreter running this script is the one the test suite ran the wheel under:
  its version is not installed again.

Exits 1 with the reasons when a check fails. Finding a single Python is not a failure: the
versions used are printed.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection

MANYLINUX2014 = (2, 17)
MINORS = (10, 11, 12, 13)
ACCEPTED_PLATFORMS = {"manylinux2014_x86_64", "manylinux_2_17_x86_64"}

# Run in each fresh venv, from a directory without the sources. The command's output is
# compared with the result of the API in the same venv.
SMOKE = """
import json, subprocess, sysconfig
from pathlib import Path
import haidi
r = haidi.ruleset("mcr").evaluate(hand="1112345678999m", win="5m", self_drawn=True)
cli = Path(sysconfig.get_path("scripts")) / "haidi"
out = subprocess.run([str(cli), "eval", "1112345678999m", "--win", "5m", "--self-drawn", "--json"],
                     capture_output=True, text=True, check=True).stdout
print(json.dumps({"file": haidi.__file__, "version": haidi.__version__, "total": r["total"],
                  "fans": [f["id"] for f in r["fans"]], "cli": json.loads(out)}))
"""


def glibc_versions(so: bytes) -> tuple[list[tuple[int, ...]], bool]:
    """The GLIBC_x.y versions the library's undefined symbols need, and whether it has a
    symbol table (.symtab, which strip removes)."""
    elf = ELFFile(io.BytesIO(so))
    versions: set[tuple[int, ...]] = set()
    for section in elf.iter_sections():
        if isinstance(section, GNUVerNeedSection):
            for _, auxiliaries in section.iter_versions():
                for aux in auxiliaries:
                    m = re.fullmatch(r"GLIBC_(\d+(?:\.\d+)*)", aux.name)
                    if m:
                        versions.add(tuple(int(x) for x in m.group(1).split(".")))
    return sorted(versions), elf.get_section_by_name(".symtab") is not None


def check_contents(wheel: Path) -> list[str]:
    """Tags, glibc versions and stripping of the wheel's extension."""
    problems = []
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        tags = [line.split(": ", 1)[1] for line in z.read(meta).decode().splitlines() if line.startswith("Tag: ")]
        sos = [n for n in names if n.endswith(".so")]
        print(f"tags: {', '.join(tags)}")
        for tag in tags:
            _, abi, platform = tag.split("-")
            if abi != "abi3":
                problems.append(f"tag {tag}: not abi3")
            if platform not in ACCEPTED_PLATFORMS:
                problems.append(f"tag {tag}: not manylinux2014 x86_64")
        if not sos:
            problems.append("no extension module in the wheel")
        for name in sos:
            data = z.read(name)
            versions, symtab = glibc_versions(data)
            newest = ".".join(map(str, versions[-1])) if versions else "none"
            print(f"{name}: {len(data):,} bytes, newest glibc symbol version {newest}, stripped: {not symtab}")
            if versions and versions[-1] > MANYLINUX2014:
                problems.append(f"{name} needs GLIBC_{newest}, newer than manylinux2014's 2.17")
            if symtab:
                problems.append(f"{name} is not stripped (it has a .symtab)")
    return problems


def check_auditwheel(wheel: Path) -> list[str]:
    """auditwheel's own reading of the wheel."""
    exe = shutil.which("auditwheel")
    if exe is None:
        return ["auditwheel is not installed (pip install auditwheel)"]
    shown = subprocess.run([exe, "show", str(wheel)], capture_output=True, text=True)
    print(shown.stdout.strip() or shown.stderr.strip())
    text = " ".join(shown.stdout.split())
    m = re.search(r'consistent with the following platform tag: "([^"]+)"', text)
    if shown.returncode != 0 or m is None:
        return [f"auditwheel show gave no verdict (exit {shown.returncode}): {shown.stderr.strip()}"]
    if m.group(1) not in ACCEPTED_PLATFORMS:
        return [f"auditwheel: consistent with {m.group(1)}, not manylinux_2_17"]
    return []


def runs(python: str, minor: int) -> bool:
    """Whether ``python`` starts and is CPython 3.<minor> with the GIL, which abi3 needs
    (pyenv shims exist for versions that are installed but not selected, and fail when run)."""
    probe = (
        "import sys, sysconfig; "
        "print(sys.implementation.name, *sys.version_info[:2], sysconfig.get_config_var('Py_GIL_DISABLED') or 0)"
    )
    try:
        out = subprocess.run(
            [python, "-c", probe],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.split()
    except OSError:
        return False
    return out == ["cpython", "3", str(minor), "0"]


def pythons() -> dict[int, str]:
    """One interpreter per minor version 3.10-3.13: on PATH first, then pyenv's newest."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = {}
    for minor in MINORS:
        installed = sorted(
            pyenv.glob(f"3.{minor}.*/bin/python3.{minor}"),
            key=lambda p: [int(x) if x.isdigit() else -1 for x in p.parent.parent.name.split(".")],
            reverse=True,
        )
        candidates = [shutil.which(f"python3.{minor}"), *map(str, installed)]
        for c in candidates:
            if c and runs(c, minor):
                found[minor] = c
                break
    return found


def smoke(python: str, wheel: Path, expected: dict) -> list[str]:
    """Installs the wheel in a fresh venv of ``python`` and runs SMOKE there."""
    with tempfile.TemporaryDirectory(prefix="haidi-smoke-") as tmp:
        venv = Path(tmp) / "venv"
        # Without a pip of its own (ensurepip is most of a venv's making, and Debian ships it
        # apart): this interpreter's pip (22.3 or newer, for --python) installs into it.
        made = subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True)
        if made.returncode != 0:
            return [f"{python}: cannot make a venv: {made.stderr.strip()[-2000:]}"]
        py = str(venv / "bin" / "python")
        install = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                py,
                "install",
                "--quiet",
                "--no-compile",
                "--disable-pip-version-check",
                str(wheel),
            ],
            capture_output=True,
            text=True,
        )
        if install.returncode != 0:
            return [f"{python}: pip install failed: {install.stderr.strip()[-2000:]}"]
        run = subprocess.run([py, "-c", SMOKE], capture_output=True, text=True, cwd=tmp)
        if run.returncode != 0:
            return [f"{python}: the smoke run failed: {run.stderr.strip()[-2000:]}"]
        got = json.loads(run.stdout)
        problems = []
        if not Path(got["file"]).is_relative_to(venv):
            problems.append(f"{python}: imported haidi from {got['file']}, not the venv")
        for key in ("version", "total", "fans"):
            if got[key] != expected[key]:
                problems.append(f"{python}: {key} {got[key]!r}, the tested install gives {expected[key]!r}")
        if got["cli"]["total"] != got["total"]:
            problems.append(f"{python}: the haidi command's total {got['cli']['total']}, evaluate's {got['total']}")
        return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel", type=Path)
    ap.add_argument("--tested", action="store_true", help="this interpreter runs the test suite on the wheel")
    args = ap.parse_args(argv)

    problems = check_contents(args.wheel) + check_auditwheel(args.wheel)

    # What the smoke runs must agree with: the tested install, in this interpreter.
    import haidi

    r = haidi.ruleset("mcr").evaluate(hand="1112345678999m", win="5m", self_drawn=True)
    expected = {"version": haidi.__version__, "total": r["total"], "fans": [f["id"] for f in r["fans"]]}

    found = pythons()
    tested = sys.version_info.minor if args.tested else None
    others = {minor: python for minor, python in found.items() if minor != tested}
    for minor, python in others.items():
        print(f"smoke run: 3.{minor} {python}")
    # The venvs are made and filled at once: most of their time is pip fetching numpy.
    with ThreadPoolExecutor(max_workers=max(1, len(others))) as pool:
        for found_problems in pool.map(lambda python: smoke(python, args.wheel, expected), others.values()):
            problems += found_problems
    covered = ", ".join(f"3.{m}" for m in others) or "none (no other CPython 3.10-3.13 found)"
    summary = f"the wheel installed and ran in a fresh venv of: {covered}"
    if tested:
        summary += f"; the test suite runs it under 3.{tested} ({sys.executable})"
    print(summary)
    missing = [f"3.{m}" for m in MINORS if m not in found]
    if missing:
        print(f"not found on this machine: {', '.join(missing)}")
    for p in problems:
        print(f"FAIL: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
