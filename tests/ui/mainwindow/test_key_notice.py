"""No usable keyring: the desktop keeps the evidence-signing key in an owner-only file, says
where once (a strip in the main window), and About shows the place and the fingerprint; with a
keyring, neither strip nor file. Screenshots in English and Japanese."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import pytest
import qasync
from keyring.backends import fail
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.evidence import keys
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.app import Application
from portal_admin.ui.mainwindow.about import AboutDialog
from portal_admin.ui.panels.registry import PanelRegistry
from support.program import build_program, sign_in_otp


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """``PYTHON_KEYRING_BACKEND=keyring.backends.fail.Keyring``, as on a kiosk image."""
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(previous)


async def _until(condition: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def _signed_in(qapp: QApplication, loop: qasync.QEventLoop, folder: Path) -> Application:
    sandbox = create_app(SandboxConfig(seed_accounts=2, test_clock=True))
    program = build_program(qapp, folder, sandbox, PanelRegistry())
    loop.run_until_complete(asyncio.wait_for(sign_in_otp(program), 60))
    return program


def test_told_once_where_the_key_file_is(
    no_keyring: None, qapp: QApplication, loop: qasync.QEventLoop, tmp_path: Path, shots: Path
) -> None:
    program = _signed_in(qapp, loop, tmp_path / "first")
    assert program.workspace is not None
    window = program.workspace.window
    loop.run_until_complete(_until(window.key_notice.isVisible))
    path = keys.key_file_path()
    assert path.is_file()
    text = window.key_notice.text.text()
    assert str(path) in text and "only you can read" in text
    window.resize(1100, 640)
    window.grab().save(str(shots / "key-notice-en.png"))
    about = program.workspace.open_about()
    loop.run_until_complete(_until(lambda: about.fingerprint != ""))
    made = keys.fingerprint(keys.signing_key().public_key())
    assert about.fingerprint == made
    assert made in about.key.text() and str(path) in about.key.text()
    loop.run_until_complete(asyncio.sleep(0.2))  # laid out again for the longer text
    about.grab().save(str(shots / "about-key-file-en.png"))
    about.close()
    window.key_notice.dismiss.click()
    assert not window.key_notice.isVisible()
    loop.run_until_complete(program.close())

    again = _signed_in(qapp, loop, tmp_path / "second")  # the same data folder: told already
    assert again.workspace is not None
    loop.run_until_complete(asyncio.sleep(1.0))
    assert not again.workspace.window.key_notice.isVisible()
    assert keys.fingerprint(keys.signing_key().public_key()) == made  # the same key
    loop.run_until_complete(again.close())


def test_japanese(
    no_keyring: None, qapp: QApplication, loop: qasync.QEventLoop, tmp_path: Path, shots: Path
) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language("ja")
    try:
        program = _signed_in(qapp, loop, tmp_path)
        assert program.workspace is not None
        window = program.workspace.window
        loop.run_until_complete(_until(window.key_notice.isVisible))
        text = window.key_notice.text.text()
        assert str(keys.key_file_path()) in text and "keyring" not in text.lower()
        window.resize(1100, 640)
        window.grab().save(str(shots / "key-notice-ja.png"))
        about = program.workspace.open_about()
        loop.run_until_complete(_until(lambda: about.fingerprint not in ("", None)))
        assert str(keys.key_file_path()) in about.key.text()
        assert "Kept in" not in about.key.text()
        loop.run_until_complete(asyncio.sleep(0.2))
        about.grab().save(str(shots / "about-key-file-ja.png"))
        about.close()
        loop.run_until_complete(program.close())
    finally:
        languages.set_language("en")


class _Ring(keys.MemoryStore):
    place = keys.KeyPlace("keyring")


def test_about_with_a_keyring(qtbot: QtBot, tmp_path: Path) -> None:
    store = keys.InstallationStore(_Ring(), keys.FileStore(tmp_path / "k.pem"))
    about = AboutDialog(key_store=store)
    qtbot.addWidget(about)
    qtbot.waitUntil(lambda: about.fingerprint != "", timeout=5000)
    assert about.fingerprint and about.fingerprint in about.key.text()
    assert "Kept in the system keyring." in about.key.text()
    assert not (tmp_path / "k.pem").exists()
