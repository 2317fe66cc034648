"""--tour never writes into the person's folders: it sets PORTAL_ADMIN_HOME itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.files import paths
from portal_admin.ui.main import isolate_tour
from portal_admin.ui.startup.options import parse_args


def test_a_tour_gets_a_home_of_its_own(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(paths.HOME_ENV, "")  # none set (and the tour's undone after the test)
    isolate_tour(parse_args(["--sandbox", "--tour", str(tmp_path / "shots")]))
    home = paths.home_override()
    assert home is not None and home.is_dir() and home.name.startswith("portal-admin-tour-")
    assert paths.data_dir().parent == home


def test_a_set_home_is_kept_and_no_tour_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "mine"))
    isolate_tour(parse_args(["--tour", str(tmp_path / "shots")]))
    assert paths.home_override() == tmp_path / "mine"
    monkeypatch.setenv(paths.HOME_ENV, "")
    isolate_tour(parse_args(["--sandbox"]))
    assert paths.home_override() is None


def test_the_tour_home_is_removed_with_its_open_log(tmp_path: Path) -> None:
    """The log file is still open when the program exits: closed first, then removed (on
    Windows an open file cannot be deleted)."""
    import logging

    from portal_admin.ui.main import _remove_tour_home

    home = tmp_path.resolve() / "portal-admin-tour-x"
    (home / "log").mkdir(parents=True)
    handler = logging.FileHandler(home / "log" / "portal-admin.log")
    logging.getLogger("portal_admin.test_tour_home").addHandler(handler)
    try:
        _remove_tour_home(str(home))
        assert not home.exists()
        assert handler.stream is None  # closed first
    finally:
        logging.getLogger("portal_admin.test_tour_home").removeHandler(handler)
        handler.close()


def test_a_log_elsewhere_is_kept_open(tmp_path: Path) -> None:
    """A log on the null device (on Windows ``\\\\.\\nul``, which ``os.path.commonpath`` will not
    compare with a folder on C:) is someone else's: left open, and the tour's folder removed."""
    import logging
    import os

    from portal_admin.ui.main import _remove_tour_home

    home = tmp_path.resolve() / "portal-admin-tour-y"
    home.mkdir()
    elsewhere = logging.FileHandler(os.devnull)
    logging.getLogger("portal_admin.test_tour_home").addHandler(elsewhere)
    try:
        _remove_tour_home(str(home))
        assert not home.exists()
        assert elsewhere.stream is not None and not elsewhere.stream.closed
    finally:
        logging.getLogger("portal_admin.test_tour_home").removeHandler(elsewhere)
        elsewhere.close()
