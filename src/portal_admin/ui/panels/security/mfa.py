"""MFA: the account's methods, revoking the authenticator, and the backup codes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from portal_admin.client.records import BackupCodeSummary
from portal_admin.protocol.labels import item_label
from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets.confirm import confirm
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...operations import Op
from .backup_codes import BackupCodesDialog
from .common import SecurityPanel
from .formatting import yes_no

log = logging.getLogger(__name__)

AnyIndex = QModelIndex | QPersistentModelIndex
_CONTEXT = "MfaPanel"
HEADERS = (
    QT_TRANSLATE_NOOP("MfaPanel", "Method"),
    QT_TRANSLATE_NOOP("MfaPanel", "Enabled"),
    QT_TRANSLATE_NOOP("MfaPanel", "Primary"),
    QT_TRANSLATE_NOOP("MfaPanel", "Verified"),
)
METHOD, ENABLED, PRIMARY, VERIFIED = range(4)
TOPICS = frozenset({"security.mfa"})


def _tr(text: str) -> str:
    return QCoreApplication.translate(_CONTEXT, text)


def method_label(setting: Any) -> str:
    """The server's (localized) label of an MFA method, or its code in words."""
    return item_label(setting.mfa_method)


class MfaModel(QAbstractTableModel):
    """MFA settings: method, enabled, primary, verified at."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []

    @property
    def rows(self) -> tuple[Any, ...]:
        """The settings shown."""
        return tuple(self._rows)

    def setting(self, code: str) -> Any:
        """The setting of the method ``code`` (EMAIL, OTP), if listed."""
        return next((r for r in self._rows if r.mfa_method.is_(code)), None)

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show ``rows`` (MfaSetting records)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == METHOD:
                return method_label(row)
            if column == ENABLED:
                return yes_no(row.is_enabled)
            if column == PRIMARY:
                return yes_no(row.is_primary)
            return (
                format_datetime(row.verified_at)
                if row.verified_at
                else QCoreApplication.translate("MfaPanel", "Not verified")
            )
        if role == Qt.ItemDataRole.ToolTipRole and column == METHOD:
            return plain_tooltip(str(row.mfa_method.description or ""))
        if role == Qt.ItemDataRole.UserRole:
            return row
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(HEADERS)
        ):
            return _tr(HEADERS[section])
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def retranslate(self) -> None:
        """Headers and cells in the current language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._rows) - 1, len(HEADERS) - 1)
            )


class MfaPanel(SecurityPanel):
    """MFA methods with the authenticator's revocation; backup codes."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("mfaPanel")
        self.model = MfaModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("mfaTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setMaximumHeight(140)
        self.methods_box = QGroupBox(self)
        self.methods_box.setObjectName("mfaMethods")
        self.revoke_button = QPushButton(self.methods_box)
        self.revoke_button.setObjectName("revokeOtp")
        self.revoke_button.setEnabled(False)
        self.revoke_button.clicked.connect(self._on_revoke)
        # The one removal there is: revoking the authenticator (the menu, and Delete on it).
        self.table_actions = TableActions(
            self.table,
            row_of=lambda r: self.model.index(r, 0).data(Qt.ItemDataRole.UserRole),
        )
        self.table_actions.add_row_buttons(self.revoke_button)
        self.table_actions.deleteRequested.connect(self._delete_requested)
        methods = QVBoxLayout(self.methods_box)
        methods.addWidget(self.table)
        buttons = QHBoxLayout()
        buttons.addWidget(self.revoke_button)
        buttons.addStretch(1)
        methods.addLayout(buttons)

        self.codes_box = QGroupBox(self)
        self.codes_box.setObjectName("backupCodes")
        self.summary_label = PlainLabel(self.codes_box)
        self.summary_label.setObjectName("backupSummary")
        self.generate_button = QPushButton(self.codes_box)
        self.generate_button.setObjectName("generateCodes")
        self.generate_button.setEnabled(False)
        self.generate_button.clicked.connect(self._on_generate)
        codes = QHBoxLayout(self.codes_box)
        codes.addWidget(self.summary_label, 1)
        codes.addWidget(self.generate_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.error_line)
        layout.addWidget(self.methods_box)
        layout.addWidget(self.codes_box)
        layout.addStretch(1)
        self.summary: Any = None
        self.codes_dialog: BackupCodesDialog | None = None
        self.retranslateUi()

    @property
    def tour(self) -> bool:
        """True while the tour takes screenshots (codes are masked)."""
        return bool(self.context.extras.get("tour"))

    async def load(self) -> None:
        """Fetch the MFA settings and the backup-code summary."""
        settings = await self.client.security.mfa_settings()
        summary = await self.client.security.backup_codes()
        self.model.set_rows(settings)
        self.summary = summary
        self._refresh_controls()
        self.table.resizeColumnsToContents()

    def apply_permissions(self) -> None:
        """Revoke and generate need account:security:write."""
        self._refresh_controls()

    def _refresh_controls(self) -> None:
        otp = self.model.setting("OTP")
        self.allow(self.revoke_button, "security.otp_revoke", enabled=bool(otp and otp.is_enabled))
        if otp is not None and not otp.is_enabled and self.revoke_button.toolTip() == "":
            self.revoke_button.setToolTip(
                QCoreApplication.translate("MfaPanel", "The authenticator is not set up.")
            )
        self.allow(
            self.generate_button, "security.backup_codes_generate", enabled=self.loaded_summary
        )
        self._show_summary()

    @property
    def loaded_summary(self) -> bool:
        """True once the backup-code summary has arrived."""
        return self.summary is not None

    def _show_summary(self) -> None:
        summary = self.summary
        if summary is None:
            self.summary_label.setText("")
        elif summary.total_generated == 0:
            self.summary_label.setText(
                QCoreApplication.translate("MfaPanel", "No backup codes have been generated.")
            )
        else:
            self.summary_label.setText(
                fill(
                    QCoreApplication.translate("MfaPanel", "%1 of %2 backup codes remaining"),
                    self.locale().toString(summary.remaining_count),
                    self.locale().toString(summary.total_generated),
                )
            )

    # -- revoke the authenticator --------------------------------------------------------------

    def _delete_requested(self, rows: list[Any]) -> None:
        """Delete on the authenticator's row revokes it (asking first, as the button does)."""
        if any(row.mfa_method.is_("OTP") for row in rows):
            self.revoke_button.click()

    @async_slot()
    async def _on_revoke(self) -> None:
        await self.revoke_otp()

    async def revoke_otp(self) -> bool:
        """Ask, then revoke the authenticator; True when it was revoked."""
        if not await confirm(
            self,
            title=QCoreApplication.translate("MfaPanel", "Revoke the authenticator"),
            text=QCoreApplication.translate(
                "MfaPanel",
                "Sign-in codes from your authenticator app will stop working. You will sign in"
                " with email codes until you set up an authenticator again.",
            ),
            confirm_text=QCoreApplication.translate("MfaPanel", "Revoke"),
            profile=self.context.profile,
            destructive=True,
        ):
            return False
        result = await self.execute(
            Op(
                self.client.security.revoke_otp,
                on_success=self._revoked,
                changes=TOPICS,
                title=QCoreApplication.translate("MfaPanel", "Could not revoke the authenticator"),
            )
        )
        return result is not None

    def _revoked(self, settings: Sequence[Any]) -> None:
        self.model.set_rows(settings)
        self._refresh_controls()

    # -- backup codes --------------------------------------------------------------------------

    @async_slot()
    async def _on_generate(self) -> None:
        await self.generate_codes()

    async def generate_codes(self) -> BackupCodesDialog | None:
        """Warn, generate a new set and show it once; the dialog (open) or None."""
        if not await confirm(
            self,
            title=QCoreApplication.translate("MfaPanel", "Generate new backup codes"),
            text=QCoreApplication.translate(
                "MfaPanel",
                "A new set of backup codes replaces the current one: your old codes stop"
                " working at once. The new codes are shown only once.",
            ),
            confirm_text=QCoreApplication.translate("MfaPanel", "Generate new codes"),
            profile=self.context.profile,
            destructive=True,
        ):
            return None
        dialog: list[BackupCodesDialog] = []
        await self.execute(
            Op(
                self.client.security.generate_backup_codes,
                on_success=lambda result: dialog.append(self._show_codes(result)),
                changes=TOPICS,
                title=QCoreApplication.translate("MfaPanel", "Could not generate backup codes"),
            )
        )
        return dialog[0] if dialog else None

    def _show_codes(self, result: Any) -> BackupCodesDialog:
        # Keep the counts only: the record also holds the codes.
        self.summary = BackupCodeSummary(
            remaining_count=result.remaining_count, total_generated=result.total_generated
        )
        self._refresh_controls()
        codes_dialog = BackupCodesDialog(result.codes, masked=self.tour, parent=self)
        codes_dialog.finished.connect(self._codes_closed)
        self.codes_dialog = codes_dialog
        codes_dialog.open()
        return codes_dialog

    async def tour_steps(self) -> list[TourStep]:
        """The new-codes dialog (codes masked in the tour), for ``--tour``."""
        return [TourStep("mfa-backup-codes-generated", self._tour_codes, self._tour_close)]

    async def _tour_codes(self) -> QWidget:
        task = self.spawn(self.generate_codes())
        if task is None:  # pragma: no cover - awaited, so a loop runs
            raise RuntimeError("no event loop")
        for _ in range(200):
            box = self.findChild(QMessageBox)
            if box is not None and box.isVisible():
                for button in box.buttons():
                    if box.buttonRole(button) == QMessageBox.ButtonRole.AcceptRole:
                        button.click()
                break
            await asyncio.sleep(0.01)
        dialog: BackupCodesDialog | None = await task
        if dialog is None:
            raise RuntimeError("no backup codes were generated")
        return dialog

    async def _tour_close(self, widget: QWidget) -> None:
        widget.close()

    def _codes_closed(self, _result: int) -> None:
        dialog = self.codes_dialog
        self.codes_dialog = None
        if dialog is not None:
            dialog.wipe()
            dialog.deleteLater()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.methods_box.setTitle(QCoreApplication.translate("MfaPanel", "Sign-in methods"))
        self.methods_box.setAccessibleName(
            QCoreApplication.translate("MfaPanel", "Sign-in methods")
        )
        self.table.setAccessibleName(QCoreApplication.translate("MfaPanel", "Sign-in methods"))
        self.revoke_button.setText(
            QCoreApplication.translate("MfaPanel", "Revoke authenticator\u2026")
        )
        self.revoke_button.setAccessibleName(
            QCoreApplication.translate("MfaPanel", "Revoke the authenticator")
        )
        self.codes_box.setTitle(QCoreApplication.translate("MfaPanel", "Backup codes"))
        self.codes_box.setAccessibleName(QCoreApplication.translate("MfaPanel", "Backup codes"))
        self.generate_button.setText(
            QCoreApplication.translate("MfaPanel", "Generate new codes\u2026")
        )
        self.generate_button.setAccessibleName(
            QCoreApplication.translate("MfaPanel", "Generate new backup codes")
        )
        self.summary_label.setAccessibleName(
            QCoreApplication.translate("MfaPanel", "Backup codes remaining")
        )
        self.model.retranslate()
        self._show_summary()
