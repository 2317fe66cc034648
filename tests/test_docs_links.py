"""README.md and docs/: every page is in the manual's index (docs/README.md), every link leads
to a file of the repository, no path points outside it, the built-in sandbox's mailbox is named
by the buttons the sign-in window really shows, and the shell examples say where the commands
come from (the virtual environment)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SIGN_IN = ROOT / "src" / "portal_admin" / "ui" / "signin"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_stay_in_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        found = (page.parent / target).resolve()
        assert found.is_relative_to(ROOT), (page.name, target)
        assert found.exists(), (page.name, target)
    # a path written in code that leaves the repository (``../shared/...``) is a dead link too
    assert not re.findall(r"`(?:\.\./)+[^`]*\.md`|`shared/[^`]*`", text), page.name


def test_the_readme_names_the_built_in_sandboxs_buttons() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sources = " ".join(p.read_text(encoding="utf-8") for p in SIGN_IN.glob("*.py"))
    for written, shown in (
        ("Demo mailbox\\u2026", "Demo mailbox…"),
        ("Fill in the demo code",) * 2,
    ):
        assert f'"{written}"' in sources, written  # the window's own words
        assert f"**{shown}**" in readme, shown


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_shell_examples_say_where_the_commands_are(page: Path) -> None:
    """A page whose shell examples run the commands bare says to activate the venv."""
    text = page.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    bare = [
        b for b in blocks if re.search(r"^(portal-admin-cli|portal-sandbox|portal-admin) ", b, re.M)
    ]
    if bare:
        assert ". .venv/bin/activate" in text, page.name


def test_every_page_is_in_the_index() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#\s]+)", index))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")} - {"README.md"}
    assert pages - linked == set(), "pages docs/README.md does not link"
