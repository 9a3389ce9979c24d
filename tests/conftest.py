import io
import json
import pathlib
import sys
from typing import IO

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
    (exit status, standard output, standard error). ``stdin`` is text (written as UTF-8),
    bytes, or a file opened to read bytes."""

    def run(*argv: str, stdin: str | bytes | IO[bytes] | None = None) -> tuple[int, str, str]:
        if hasattr(stdin, "read"):
            monkeypatch.setattr(sys, "stdin", stdin)
        else:
            data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin or b""
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run
