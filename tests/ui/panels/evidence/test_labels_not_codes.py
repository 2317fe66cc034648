"""Values a person reads in their language (#31): the snapshot diff shows fields and values as
labels (the snapshots' server labels, else the program's own), the journal shows operations by
title and changes as sentences, the codes in tooltips and the exports; every mutating
operation has a title, translated."""

from __future__ import annotations

import csv
import io
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys
from portal_admin.evidence.diff import Change
from portal_admin.protocol.operations import OPERATIONS
from portal_admin.ui.enum_labels import field_label, value_label
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.operation_titles import TITLES, change_sentence, operation_title
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.evidence.diff_view import DiffView
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel, cell
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile

from ..panel_support import run

LANGUAGES = ("zh_CN", "zh_TW", "ja", "vi")


@pytest.fixture
def languages(qapp: QApplication) -> Iterator[LanguageManager]:
    manager = LanguageManager()
    try:
        yield manager
    finally:
        manager.set_language("en")


@dataclass
class FakeSnapshot:
    path: Path
    meta: dict[str, object]

    def connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path)


@dataclass
class FakeDiff:
    old: FakeSnapshot
    new: FakeSnapshot
    changes: list[Change]

    def counts(self) -> dict[tuple[str, str], int]:
        return {("account", "changed"): len(self.changes)}

    def filtered(self, kind: str | None = None, text: str | None = None) -> Iterator[Change]:
        return iter(self.changes)


def snapshot(path: Path, labels: list[tuple[str, str, str]]) -> FakeSnapshot:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE constants (list TEXT, code TEXT, value INTEGER, label TEXT)")
    conn.executemany("INSERT INTO constants VALUES (?, ?, 0, ?)", labels)
    conn.commit()
    conn.close()
    return FakeSnapshot(path, {"finished": "2026-11-26T10:00:00+00:00"})


def test_every_mutating_operation_has_a_translated_title(languages: LanguageManager) -> None:
    mutating = sorted(op.id for op in OPERATIONS.values() if op.mutating)
    assert len(mutating) >= 28
    assert [op for op in mutating if op not in TITLES] == []
    english = {op: operation_title(op) for op in mutating}
    assert english["accounts.status"] == "Change account status"
    assert english["security.backup_codes_generate"] == "Generate backup codes"
    for lang in LANGUAGES:
        languages.set_language(lang)
        untranslated = [op for op in mutating if operation_title(op) == english[op]]
        assert untranslated == [], lang


DIFF = [
    Change("account", "changed", "ACC1", "ann@example.com", "status", "ACTIVE", "SUSPENDED"),
    Change("account", "changed", "ACC1", "ann@example.com", "portal", "SYSTEM", "TENANT"),
    Change("channel", "changed", "CH1", "Mail", "active", "1", "0"),
]
#: What the diff shows for DIFF's first two rows: field, before, after.
SHOWN = {
    "en": [["Status", "Active", "Suspended"], ["Portal", "System portal", "Tenant portal"]],
    "ja": [
        ["ステータス", "有効", "一時停止"],
        ["ポータル", "システムポータル", "テナントポータル"],
    ],
    "vi": [
        ["Trạng thái", "Đang hoạt động", "Bị tạm ngưng"],
        ["Cổng", "Cổng hệ thống", "Cổng khách thuê"],
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja", "vi"])
def test_the_diff_shows_labels_with_the_codes_in_tooltips(
    qtbot: QtBot, tmp_path: Path, languages: LanguageManager, lang: str
) -> None:
    languages.set_language(lang)
    # keys are never shown: a snapshot whose server labels are untranslated keys
    old = snapshot(tmp_path / "o", [("user_account_statuses", "ACTIVE", "enum.A.ACTIVE")])
    new = snapshot(tmp_path / "n", [])
    view = DiffView()
    qtbot.addWidget(view)
    view.show_diff(FakeDiff(old, new, DIFF))  # type: ignore[arg-type]
    rows = [[view.table.item(r, c).text() for c in (4, 5, 6)] for r in range(2)]
    assert rows == SHOWN[lang]
    assert "SUSPENDED" in view.table.item(0, 6).toolTip()
    assert view.table.item(0, 4).toolTip().endswith("status")
    assert view.table.item(2, 6).text() == value_label("active", "0") != "0"


def test_the_diff_shows_the_snapshots_server_labels(qtbot: QtBot, tmp_path: Path) -> None:
    old = snapshot(tmp_path / "o", [("user_account_statuses", "ACTIVE", "Actif (serveur)")])
    new = snapshot(tmp_path / "n", [("user_account_statuses", "SUSPENDED", "Suspendu")])
    view = DiffView()
    qtbot.addWidget(view)
    view.show_diff(FakeDiff(old, new, DIFF[:1]))  # type: ignore[arg-type]
    assert [view.table.item(0, c).text() for c in (5, 6)] == ["Actif (serveur)", "Suspendu"]


STATUS = {
    "seq": 1,
    "kind": "change",
    "time": "2026-11-26T10:00:00.000+00:00",
    "account": "admin@sandbox.test",
    "operation": "accounts.status",
    "targets": ["ACC1"],
    "fields": {"action": "SUSPEND", "reason": "left the company"},
    "before": {"status": "ACTIVE"},
    "after": {"status": "SUSPENDED"},
    "outcome": "ok",
}
UPDATE = {
    **STATUS,
    "seq": 2,
    "operation": "accounts.update",
    "fields": {"defaultLanguage": "fr"},
    "before": {"defaultLanguage": "en"},
    "after": {"defaultLanguage": "fr"},
}
CODES = {**STATUS, "seq": 3, "operation": "security.backup_codes_generate", "fields": {}}
SENTENCES = {
    "en": (
        "Change account status",
        "Suspended (was Active), reason: left the company",
        "Language: en → fr",
        "Generate backup codes",
    ),
    "ja": (
        "アカウントのステータス変更",
        "一時停止 (変更前: 有効)、理由: left the company",
        "言語: en → fr",
        "バックアップコードの生成",
    ),
}


BULK = {
    "en": "Suspended (was Active), bulk job J1, reason: audit",
    "ja": "一時停止 (変更前: 有効)、一括ジョブ J1、理由: audit",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_journal_reads_as_sentences(languages: LanguageManager, lang: str) -> None:
    languages.set_language(lang)
    assert (
        cell(STATUS, "operation"),
        cell(STATUS, "fields"),
        cell(UPDATE, "fields"),
        cell(CODES, "operation"),
    ) == SENTENCES[lang]
    assert change_sentence({"operation": "accounts.status", "fields": {"action": "ACTIVATE"}})
    bulk = {
        "operation": "accounts.status",
        "fields": {"action": "SUSPEND", "reason": "audit"},
        "before": {"value": "ACTIVE"},
        "after": {"value": "SUSPENDED", "job": "J1"},
    }
    assert change_sentence(bulk) == BULK[lang]  # a bulk job's record: no "value", no "job:"
    assert field_label("accountRemark") == field_label("remark")


def test_the_journal_panel_shows_titles_and_exports_codes_and_labels(
    loop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path, languages: LanguageManager
) -> None:
    languages.set_language("ja")
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    for record in (STATUS, UPDATE):
        journal.append({k: v for k, v in record.items() if k not in ("seq", "time")})
    journal.flush()
    context = PanelContext(runner=OperationRunner(), profile=sandbox_profile(), client=None)
    panel = JournalPanel(context, path=path, key_store=keys.MemoryStore())
    qtbot.addWidget(panel)
    run(loop, panel.reload())
    operation = panel.table.item(1, 3)  # newest first: the status change is second
    assert operation.text() == "アカウントのステータス変更"
    assert "accounts.status" in operation.toolTip()
    assert panel.table.item(1, 5).text().startswith("一時停止")
    assert "SUSPEND" in panel.table.item(1, 5).toolTip()
    panel.text.setText("一時停止")  # the words shown are searched too
    assert panel.table.rowCount() == 1
    panel.text.setText("")
    out = tmp_path / "j.csv"
    assert run(loop, panel.export(out, "csv")) == 2
    rows = list(csv.DictReader(io.StringIO(out.read_text("utf-8-sig"))))
    assert rows[0]["operation"] == "accounts.status"
    assert rows[0]["operation_label"] == "アカウントのステータス変更"
    assert rows[0]["change_label"].startswith("一時停止")
    panel.close_tasks()
