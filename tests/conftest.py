import io
import json
import pathlib
import sys

import pytest

from haidi.cli import main

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(pathlib.Path(__file__).parent))


@pytest.fixture(scope="session")
def mcr_cases():
    return json.loads((DATA / "mcr_cases.json").read_text(encoding="utf-8"))


@pytest.fixture
def haidi_cli(capsys, monkeypatch):
    """Runs the ``haidi`` command in this process: ``haidi_cli(*argv, stdin=None)`` returns
    (exit status, standard output, standard error)."""

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin or ""))
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run
