"""About reads the signing key in a worker thread that touches no Qt object: a dialog closed
and deleted while the keyring is slow is never reached from that thread (emitting on a dying
dialog from the worker crashed the test run once)."""

from __future__ import annotations

import gc
import threading
import time

import shiboken6
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.evidence import keys
from portal_admin.ui.mainwindow.about import AboutDialog


class SlowStore(keys.MemoryStore):
    """A keyring that answers only when told to."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = threading.Event()
        self.answer = threading.Event()

    def get(self) -> str | None:
        self.asked.set()
        self.answer.wait(5)
        return super().get()


def test_a_dialog_deleted_before_the_keyring_answers(qtbot: QtBot) -> None:
    store = SlowStore()
    about = AboutDialog(key_store=store)
    assert store.asked.wait(5)
    shiboken6.delete(about)  # closed and gone while the worker waits
    del about
    gc.collect()
    store.answer.set()
    for _ in range(20):  # the worker finishes; nothing of Qt is touched from it
        QApplication.processEvents()
        time.sleep(0.01)
    assert not any(
        t.name == "portal-admin-about-key" and t.is_alive() for t in threading.enumerate()
    )


def test_the_fingerprint_arrives_on_the_window_thread(qtbot: QtBot) -> None:
    store = SlowStore()
    about = AboutDialog(key_store=store)
    qtbot.addWidget(about)
    assert about.fingerprint == ""  # still reading
    store.answer.set()
    qtbot.waitUntil(lambda: about.fingerprint != "", timeout=5000)
    assert about.fingerprint and about.fingerprint in about.key.text()
