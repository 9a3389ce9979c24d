"""The installed distribution says what a package index shows: its metadata, its licence and
typing files, and a description (the README) whose links work away from the repository.

These read the metadata of the haidi that is imported. Run from the source tree
(``PYTHONPATH=python``) there is none, and they are skipped; CI installs the wheel it built
and sets HAIDI_REQUIRE_INSTALLED=1, which turns the skip into a failure.
"""

from __future__ import annotations

import email
import os
import re
from importlib import metadata
from pathlib import Path

import pytest

import haidi

ROOT = Path(__file__).parent.parent
REPO = "https://github.com/haidi-mahjong/haidi"


@pytest.fixture(scope="module")
def dist() -> metadata.Distribution:
    try:
        d = metadata.distribution("haidi")
    except metadata.PackageNotFoundError:
        d = None
    imported = Path(haidi.__file__).resolve()
    if d is None or Path(str(d.locate_file("haidi/__init__.py"))).resolve() != imported:
        reason = f"haidi is imported from {imported}, not from an installed distribution"
        if os.environ.get("HAIDI_REQUIRE_INSTALLED") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return d


def shipped(dist: metadata.Distribution) -> set[str]:
    return {str(f) for f in dist.files or ()}


def test_requires_python_is_what_the_readme_and_classifiers_say(dist) -> None:
    requires = dist.metadata["Requires-Python"]
    m = re.fullmatch(r">=3\.(\d+)", requires)
    assert m, requires
    lowest = int(m.group(1))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"Python 3\.(\d+)\+", readme) == [str(lowest)]
    versions = sorted(
        int(c.rsplit(".", 1)[1])
        for c in dist.metadata.get_all("Classifier")
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert versions and versions[0] == lowest
    assert versions == list(range(lowest, versions[-1] + 1))


def test_licence_is_an_spdx_expression_and_its_file_ships(dist) -> None:
    assert dist.metadata["License-Expression"] == "MIT"
    # PEP 639: no older licence fields beside the expression; PyPI refuses a
    # "License ::" classifier with it.
    assert "License" not in dist.metadata
    assert not [c for c in dist.metadata.get_all("Classifier") if c.startswith("License ::")]
    assert dist.metadata.get_all("License-File") == ["LICENSE"]
    licences = [f for f in dist.files or () if f.name == "LICENSE"]
    assert len(licences) == 1
    text = licences[0].read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "the haidi authors" in text
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_typing_files_ship(dist) -> None:
    files = shipped(dist)
    assert {"haidi/py.typed", "haidi/_core.pyi"} <= files
    assert "Typing :: Typed" in dist.metadata.get_all("Classifier")


def test_project_urls_are_the_repository(dist) -> None:
    urls = dict(u.split(", ", 1) for u in dist.metadata.get_all("Project-URL"))
    assert set(urls) >= {"Homepage", "Documentation", "Changelog", "Issues"}
    for url in urls.values():
        assert url == REPO or url.startswith(REPO + "/"), url
    assert urls["Changelog"].endswith("/CHANGELOG.md") and (ROOT / "CHANGELOG.md").is_file()
    assert (ROOT / urls["Documentation"].rsplit("/main/", 1)[1]).is_file()


def links(markdown: str) -> list[str]:
    """The targets of the inline links and images outside fenced code."""
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M)
    return re.findall(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)", prose)


def test_description_is_the_readme_and_its_links_work_on_an_index_page(dist) -> None:
    # The METADATA file read as the email message it is: the importlib_metadata backport,
    # when installed, gives its own Message without the body.
    description = email.message_from_string(dist.read_text("METADATA")).get_payload()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert description.strip() == readme.strip()
    assert dist.metadata["Description-Content-Type"].startswith("text/markdown")
    found = links(description)
    assert found
    for target in found:
        # A relative target resolves against the index page, not the repository.
        assert re.match(r"https?://|#", target), f"relative link {target!r}"
        if target.startswith(REPO + "/"):
            path = re.fullmatch(re.escape(REPO) + r"/(?:blob|tree)/main/([^#]+)(?:#.*)?", target)
            assert path and (ROOT / path.group(1)).exists(), f"{target!r} names no file of the repository"


def test_docs_named_in_the_readme_are_links() -> None:
    prose = re.sub(r"^```.*?^```", "", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S | re.M)
    bare = re.findall(r"(?<!\[)`(docs/[^`]*)`(?!\]\()", prose)
    assert bare == [], "link them to https://github.com/haidi-mahjong/haidi/blob/main/docs/..."
