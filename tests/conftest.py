import json
import pathlib
import sys

import pytest

DATA = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(pathlib.Path(__file__).parent))


@pytest.fixture(scope="session")
def mcr_cases():
    return json.loads((DATA / "mcr_cases.json").read_text(encoding="utf-8"))
