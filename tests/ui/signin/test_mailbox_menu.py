"""The demo mailbox's list: the same context menu as every list, with the email's copies."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView
from pytestqt.qtbot import QtBot

from portal_admin.ui.signin.window import SignInWindow

from .conftest import Runner


def test_the_mailbox_menu_copies_the_code_and_the_rows(
    qtbot: QtBot, window: SignInWindow, run: Runner
) -> None:
    async def scenario() -> None:
        window.fill_demo_admin()
        assert await window.submit_credentials()
        assert await window.send_code()
        mailbox = await window.open_mailbox()
        assert mailbox is not None
        qtbot.addWidget(mailbox)
        table = mailbox.table
        assert table.selectionMode() == QAbstractItemView.SelectionMode.ExtendedSelection
        table.selectRow(0)
        item = mailbox.selected()
        assert item is not None and item.code and not item.token
        menu = mailbox.table_actions.context_menu()
        entries = [a for a in menu.actions() if not a.isSeparator()]
        assert [a.text() for a in entries] == [
            "Copy the verification code",
            "Copy the reset token",
            "Copy the setup session id",
            "Copy cell",
            "Copy row as text",
            "Copy row as CSV",
        ]
        assert [a.isEnabled() for a in entries[:3]] == [
            True,
            False,
            bool(item.session_id),
        ]
        entries[0].trigger()
        assert QGuiApplication.clipboard().text() == item.code
        mailbox.table_actions.copy_rows_text()
        lines = QGuiApplication.clipboard().text().splitlines()
        assert lines[0] == "Sent\tSubject" and lines[1].endswith("\t" + item.subject)

    run(scenario())
