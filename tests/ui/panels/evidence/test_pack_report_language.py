"""The evidence pack's report.html is written in the language of the person who makes it:
labels with their codes beside them, yes or no for a flag, every text from the data escaped
(#3). Made through the Journal panel's Evidence pack… button, in Japanese."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog
from pytestqt.qtbot import QtBot

from portal_admin.client import PortalClient
from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys, pack
from portal_admin.evidence.recorder import attach, journal_at
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel

from ..panel_support import run, wait_for

pytestmark = pytest.mark.usefixtures("own_data_folder")


@pytest.fixture
def japanese() -> Iterator[None]:
    languages = LanguageManager()
    languages.set_language("ja")
    yield
    languages.set_language("en")


def save_through_the_dialog(path: Path) -> None:
    dialog = next(
        w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible()
    )
    dialog.fileSelected.emit(str(path))
    dialog.close()


def test_the_journal_pack_report_is_in_the_readers_language(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    admin: PortalClient,
    panel_context: object,
    tmp_path: Path,
    japanese: None,
) -> None:
    stop = attach(admin, profile="Sandbox", server=str(admin.base_url))
    try:
        account = run(loop, admin.accounts.query(status="ACTIVE", size=5)).items[-1]
        run(loop, admin.accounts.change_status(account.biz_id, "SUSPEND", reason="<b>left</b>"))
        journal_at().flush()
    finally:
        stop()
    store = keys.MemoryStore()
    panel = JournalPanel(panel_context(admin), path=jr.default_journal_path(), key_store=store)  # type: ignore[operator]
    qtbot.addWidget(panel)
    panel.show()
    run(loop, wait_for(lambda: panel.loaded and not panel.loading))
    out = tmp_path / "journal.zip"
    qtbot.mouseClick(panel.export_pack, Qt.MouseButton.LeftButton)
    save_through_the_dialog(out)
    run(loop, wait_for(out.exists, timeout=20))
    run(loop, panel.wait_idle())
    report = zipfile.ZipFile(out).read("report.html").decode()
    assert "<html lang='ja'>" in report
    assert "証跡パック" in report  # the title, in Japanese
    assert "アカウントのステータス変更 (accounts.status)" in report  # label, code beside it
    assert "成功 (ok)" in report
    assert "ジャーナルが無傷 (journal intact)" in report
    assert "はい" in report and "True" not in report and "False" not in report
    assert "<b>left</b>" not in report and "&lt;b&gt;left&lt;/b&gt;" in report  # escaped


def test_the_command_line_report_stays_english_and_escaped(tmp_path: Path) -> None:
    """Without words (the command line): English, yes/no, codes in words, escaped."""
    out = tmp_path / "p.zip"
    pack.write_pack(
        out,
        "snapshot",
        {"mfa": (("method", "enabled", "is_primary"), [("EMAIL", 1, 0), ("<i>x</i>", True, None)])},
        {"journal intact": False, "taken by": "<script>alert(1)</script>"},
        keys.signing_key(keys.MemoryStore()),
    )
    report = zipfile.ZipFile(out).read("report.html").decode()
    assert "<html lang='en'>" in report and "Evidence pack: snapshot" in report
    assert "<td>no</td>" in report and "<td>yes</td>" in report
    assert "False" not in report and "True" not in report
    assert "Is primary (is_primary)" in report
    assert "<script>" not in report and "&lt;script&gt;" in report
    assert "<i>x</i>" not in report
