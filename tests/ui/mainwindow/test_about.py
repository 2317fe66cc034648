"""Help > About: the licence and the third-party notices beside the versions."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from portal_admin import licensing
from portal_admin.evidence import keys
from portal_admin.ui.mainwindow.about import AboutDialog, NoticesDialog

ROOT = Path(__file__).resolve().parents[3]


def _about(qtbot: QtBot) -> AboutDialog:
    about = AboutDialog(key_store=keys.MemoryStore())
    qtbot.addWidget(about)
    qtbot.waitUntil(lambda: about.fingerprint != "", timeout=5000)  # the worker is done
    return about


def test_the_licence_is_the_one_the_project_declares(qtbot: QtBot) -> None:
    about = _about(qtbot)
    assert "Apache License 2.0 (Apache-2.0)" in about.licence.text()
    assert 'license = "Apache-2.0"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "Apache License" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_the_notices_open_beside_about_without_a_nested_loop(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(licensing, "notices_text", lambda: "PySide6_Essentials 6.10.2 LGPL")
    about = _about(qtbot)
    about.show()
    about.notices_button.click()  # open(), not exec(): returns at once
    notices = about.notices_dialog
    assert isinstance(notices, NoticesDialog) and notices.isVisible()
    assert notices.text.isReadOnly() and "LGPL" in notices.text.toPlainText()
    assert about.show_notices() is notices  # one dialog, raised again
    notices.close()


def test_a_copy_without_notices_says_how_they_are_made(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(licensing, "notices_text", lambda: None)
    notices = NoticesDialog()
    qtbot.addWidget(notices)
    assert "packaging/build.py" in notices.text.toPlainText()
