"""The demo mailbox (sandbox only): the emails the sandbox sent to one address."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel

from ..operations import Op, OperationRunner
from ..session.client_service import ClientService
from ..session.sandbox_tools import MailItem
from . import validation
from .controller import FormController
from .forms import BusyBar, NoticeLabel, button, heading, line_edit, paragraph


class MailboxController(FormController):
    """Loads the sandbox mailbox of one address."""

    #: list[MailItem], newest first.
    mailChanged = Signal(object)

    def __init__(self, service: ClientService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.mail: list[MailItem] = []
        self.address = ""

    async def refresh(self, address: str) -> bool:
        """Load the emails sent to ``address``."""
        address = address.strip()
        problem = validation.check_email(address)
        if problem:
            return self.fail(problem)
        tools = self.service.sandbox_tools()
        if tools is None:
            return self.fail(
                QCoreApplication.translate(
                    "DemoMailbox", "The demo mailbox exists only in the built-in sandbox."
                )
            )
        outcome = await self.attempt(lambda: tools.mailbox(address))
        if not outcome.ok or outcome.value is None:
            return False
        self.address = address
        self.mail = outcome.value
        self.mailChanged.emit(self.mail)
        if not self.mail:
            self.set_notice(
                fill(
                    QCoreApplication.translate("DemoMailbox", "No email has been sent to %1 yet."),
                    address,
                )
            )
        return True


def _when(item: MailItem) -> str:
    return format_datetime(item.sent_at)


class SecretField(QWidget):
    """A read-only value (code, token, setup id) with a Copy button."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value = QLineEdit(self)
        self.value.setObjectName(f"{name}Value")
        self.value.setReadOnly(True)
        self.copy_button = button(self, f"{name}CopyButton")
        self.copy_button.clicked.connect(self.copy)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.value, 1)
        row.addWidget(self.copy_button)

    def set_value(self, value: str | None) -> None:
        """Show ``value`` (None: an empty, disabled field)."""
        self.value.setText(value or "")
        self.copy_button.setEnabled(bool(value))

    def copy(self) -> None:
        """Copy the value to the clipboard."""
        QGuiApplication.clipboard().setText(self.value.text())


class DemoMailboxWindow(QWidget):
    """A non-modal window listing the sandbox's emails to an address, with copy buttons."""

    def __init__(
        self,
        controller: MailboxController,
        *,
        runner: OperationRunner | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.controller = controller
        self.runner = runner or OperationRunner(parent=self)
        self.setObjectName("demoMailboxWindow")
        self.title = heading(self, "mailboxHeading")
        self.intro = paragraph(self, "mailboxIntro")
        self.address_label = PlainLabel(self)
        self.address = line_edit(self, "mailboxAddressEdit")
        self.refresh_button = button(self, "mailboxRefreshButton", default=True)
        top = QHBoxLayout()
        top.addWidget(self.address_label)
        top.addWidget(self.address, 1)
        top.addWidget(self.refresh_button)
        self.table = QTableWidget(0, 2, self)
        self.table.setObjectName("mailTable")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.subject = paragraph(self, "mailSubject")
        self.subject.setStyleSheet("font-weight: 600;")
        self.body = QPlainTextEdit(self)
        self.body.setObjectName("mailBody")
        self.body.setReadOnly(True)
        self.code = SecretField("mailCode", self)
        self.token = SecretField("mailToken", self)
        self.session = SecretField("mailSessionId", self)
        self.code_label, self.token_label, self.session_label = (
            PlainLabel(self),
            PlainLabel(self),
            PlainLabel(self),
        )
        # Several emails may be selected to copy them; the detail shows the current one, and
        # the menu copies its code, token or setup id as the Copy buttons do.
        self.table_actions = TableActions(self.table)
        self.table_actions.set_multi_select()
        self.copy_actions: dict[SecretField, QAction] = {}
        for field in (self.code, self.token, self.session):
            action = QAction(self)
            action.triggered.connect(field.copy)
            self.copy_actions[field] = action
        self.table_actions.add_row_actions(*self.copy_actions.values())
        form = QFormLayout()
        form.addRow(self.code_label, self.code)
        form.addRow(self.token_label, self.token)
        form.addRow(self.session_label, self.session)
        detail = QWidget(self)
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.subject)
        detail_layout.addWidget(self.body, 1)
        detail_layout.addLayout(form)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(detail)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 2)
        self.error = ErrorLine(self)
        self.busy = BusyBar(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addWidget(self.busy)
        layout.addWidget(self.error)
        layout.addWidget(splitter, 1)
        self.notice = NoticeLabel(self)
        layout.insertWidget(5, self.notice)
        # A window of its own (not a dialog): Close and Escape close it, as a dialog's would.
        self.close_buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.close_buttons.setObjectName("mailboxCloseButtons")
        self.close_buttons.rejected.connect(self.close)
        layout.addWidget(self.close_buttons)
        self.refresh_button.clicked.connect(self._refresh_clicked)
        self.address.returnPressed.connect(self._refresh_clicked)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.currentCellChanged.connect(self._selection_changed)
        controller.mailChanged.connect(self._show_mail)
        controller.errorChanged.connect(self.error.show_error)
        controller.noticeChanged.connect(self.notice.show_notice)
        controller.busyChanged.connect(self._set_busy)
        self.resize(640, 560)
        self.retranslateUi()
        self._show_item(None)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self.close()
            return
        super().keyPressEvent(event)

    def _refresh_clicked(self) -> None:
        self.runner.run(Op(self.refresh, progress=False, parent=self))

    async def refresh(self) -> bool:
        """Reload the emails to the address in the field."""
        return await self.controller.refresh(self.address.text())

    async def show_address(self, address: str) -> bool:
        """Show the mailbox of ``address`` (put into the field) and load it."""
        if address.strip():
            self.address.setText(address.strip())
        return await self.refresh()

    def _set_busy(self, busy: bool) -> None:
        self.busy.set_busy(busy)
        self.refresh_button.setEnabled(not busy)

    def _show_mail(self, mail: list[MailItem]) -> None:
        self.table.clearSelection()
        self.table.setRowCount(len(mail))
        for row, item in enumerate(mail):
            self.table.setItem(row, 0, QTableWidgetItem(_when(item)))
            self.table.setItem(row, 1, QTableWidgetItem(item.subject))
        if mail:
            self.table.selectRow(0)
        self._selection_changed()

    def _selection_changed(self) -> None:
        self._show_item(self.selected())

    def _show_item(self, item: MailItem | None) -> None:
        self.subject.setText(item.subject if item else "")
        self.body.setPlainText(item.body if item else "")
        self.code.set_value(item.code if item else None)
        self.token.set_value(item.token if item else None)
        self.session.set_value(item.session_id if item else None)
        for field, action in self.copy_actions.items():
            action.setEnabled(field.copy_button.isEnabled())

    def selected(self) -> MailItem | None:
        """The email shown in the detail pane: the current row when selected, else the first
        selected one."""
        rows = self.table_actions.selected_numbers()
        current = self.table.currentIndex().row()
        row = current if current in rows else (rows[0] if rows else -1)
        return self.controller.mail[row] if 0 <= row < len(self.controller.mail) else None

    def retranslateUi(self) -> None:
        """Set every text in the current language."""
        self.setWindowTitle(
            QCoreApplication.translate("DemoMailbox", "Demo mailbox \u2014 sandbox")
        )
        self.title.setText(QCoreApplication.translate("DemoMailbox", "Demo mailbox"))
        self.intro.setText(
            QCoreApplication.translate(
                "DemoMailbox",
                "The built-in sandbox sends no real email. Every message it would send is kept "
                "here: codes, reset tokens and setup ids.",
            )
        )
        self.address_label.setText(QCoreApplication.translate("DemoMailbox", "&Address:"))
        self.address_label.setBuddy(self.address)
        self.refresh_button.setText(QCoreApplication.translate("DemoMailbox", "Refresh"))
        self.table.setHorizontalHeaderLabels(
            [
                QCoreApplication.translate("DemoMailbox", "Sent"),
                QCoreApplication.translate("DemoMailbox", "Subject"),
            ]
        )
        self.code_label.setText(QCoreApplication.translate("DemoMailbox", "Code:"))
        self.token_label.setText(QCoreApplication.translate("DemoMailbox", "Reset token:"))
        self.session_label.setText(QCoreApplication.translate("DemoMailbox", "Setup id:"))
        copy = QCoreApplication.translate("DemoMailbox", "Copy")
        pairs: list[tuple[SecretField, str, str]] = [
            (
                self.code,
                QCoreApplication.translate("DemoMailbox", "Verification code"),
                QCoreApplication.translate("DemoMailbox", "Copy the verification code"),
            ),
            (
                self.token,
                QCoreApplication.translate("DemoMailbox", "Reset token"),
                QCoreApplication.translate("DemoMailbox", "Copy the reset token"),
            ),
            (
                self.session,
                QCoreApplication.translate("DemoMailbox", "Setup session id"),
                QCoreApplication.translate("DemoMailbox", "Copy the setup session id"),
            ),
        ]
        for field, name, copy_name in pairs:
            self.copy_actions[field].setText(copy_name)
            field.copy_button.setText(copy)
            field.value.setAccessibleName(name)
            field.copy_button.setAccessibleName(copy_name)
        self.address.setAccessibleName(
            QCoreApplication.translate("DemoMailbox", "Email address of the mailbox")
        )
        self.refresh_button.setAccessibleName(
            QCoreApplication.translate("DemoMailbox", "Refresh the mailbox")
        )
        self.table.setAccessibleName(
            QCoreApplication.translate("DemoMailbox", "Emails, newest first")
        )
        self.body.setAccessibleName(QCoreApplication.translate("DemoMailbox", "Email text"))
        self.subject.setAccessibleName(QCoreApplication.translate("DemoMailbox", "Email subject"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
