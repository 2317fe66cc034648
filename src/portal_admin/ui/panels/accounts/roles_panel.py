"""The roles panel: the roles in a table, the chosen role's detail with its permission codes,
and delete (disabled, with the reason, for OWNER and for roles in use).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.lists.paged_model import RowRole
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import PanelBase, async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from .common import enum_code, enum_text
from .roles_controller import RolesController
from .roles_model import member_count


class RoleDetail(QWidget):
    """One role: fields, permission codes, copy id, delete."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("roleDetail")
        self.role: Any = None
        self.placeholder = PlainLabel(self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.heading = PlainLabel(self)
        self.heading.setObjectName("roleHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setStyleSheet("font-size: 12pt; font-weight: bold;")
        self.id_field = QLineEdit(self)
        self.id_field.setObjectName("roleId")
        self.id_field.setReadOnly(True)
        self.copy_button = QToolButton(self)
        self.copy_button.setObjectName("roleCopyId")
        self.copy_button.clicked.connect(self.copy_id)
        id_row = QHBoxLayout()
        id_row.addWidget(self.id_field, 1)
        id_row.addWidget(self.copy_button)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.id_label = PlainLabel(self)
        self.form.addRow(self.id_label, id_row)
        self.labels: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        for key in ("type", "description", "members", "created", "updated"):
            label, value = PlainLabel(self), PlainLabel(self)
            value.setObjectName(f"role-{key}")
            value.setWordWrap(True)
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setBuddy(value)
            self.labels[key], self.values[key] = label, value
            self.form.addRow(label, value)
        self.codes_label = PlainLabel(self)
        self.codes = QListWidget(self)
        self.codes.setObjectName("rolePermissionCodes")
        self.codes_label.setBuddy(self.codes)
        self.codes_actions = TableActions(self.codes)
        self.codes_actions.set_multi_select()
        self.delete_button = QPushButton(self)
        self.delete_button.setObjectName("roleDelete")
        self.reason = PlainLabel(self)
        self.reason.setObjectName("roleDeleteReason")
        self.reason.setWordWrap(True)
        self.reason.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.reason, "muted")
        self.body = QWidget(self)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.heading)
        body.addLayout(self.form)
        body.addWidget(self.codes_label)
        body.addWidget(self.codes, 1)
        row = QHBoxLayout()
        row.addWidget(self.delete_button)
        row.addStretch(1)
        body.addLayout(row)
        body.addWidget(self.reason)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.addWidget(self.placeholder, 1)
        layout.addWidget(self.body, 1)
        self._reason: str | None = None
        self.setMinimumWidth(320)
        self.retranslateUi()
        self.set_role(None, None)

    def set_role(self, role: Any, delete_reason: str | None) -> None:
        """Show ``role`` (None: nothing chosen); delete disabled with ``delete_reason``."""
        self.role = role
        self._reason = delete_reason
        self.placeholder.setVisible(role is None)
        self.body.setVisible(role is not None)
        if role is None:
            self.id_field.clear()
            return
        self.heading.setText(role.role_name or role.biz_id)
        self.id_field.setText(role.biz_id)
        code = enum_code(role.role_type)
        kind = enum_text(role.role_type)
        count = member_count(role)
        values = {
            "type": f"{kind} ({code})" if code and code != kind else kind,
            "description": role.description or "",
            "members": "" if count is None else str(count),
            "created": format_datetime(role.created_at),
            "updated": format_datetime(role.updated_at),
        }
        for key, value in values.items():
            self.values[key].setText(value)
        self.codes.clear()
        self.codes.addItems(list(role.permission_codes))
        self.delete_button.setEnabled(delete_reason is None)
        self.delete_button.setToolTip(plain_tooltip(delete_reason or ""))
        self.reason.setText(delete_reason or "")
        self.reason.setVisible(bool(delete_reason))

    def copy_id(self) -> None:
        """Copy the role's id."""
        if self.id_field.text():
            QGuiApplication.clipboard().setText(self.id_field.text())

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.placeholder.setText(
            QCoreApplication.translate("RolesPanel", "Choose a role to see its permissions.")
        )
        self.id_label.setText(QCoreApplication.translate("RolesPanel", "Id:"))
        self.copy_button.setText(QCoreApplication.translate("RolesPanel", "Copy id"))
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("RolesPanel", "Copy the role id")
        )
        self.id_field.setAccessibleName(QCoreApplication.translate("RolesPanel", "Role id"))
        titles = {
            "type": QCoreApplication.translate("RolesPanel", "Type:"),
            "description": QCoreApplication.translate("RolesPanel", "Description:"),
            "members": QCoreApplication.translate("RolesPanel", "Members:"),
            "created": QCoreApplication.translate("RolesPanel", "Created:"),
            "updated": QCoreApplication.translate("RolesPanel", "Updated:"),
        }
        for key, text in titles.items():
            self.labels[key].setText(text)
            self.values[key].setAccessibleName(text.rstrip(":"))
        self.codes_label.setText(QCoreApplication.translate("RolesPanel", "&Permission codes:"))
        self.codes.setAccessibleName(QCoreApplication.translate("RolesPanel", "Permission codes"))
        self.delete_button.setText(QCoreApplication.translate("RolesPanel", "Delete role\u2026"))
        self.delete_button.setAccessibleName(
            QCoreApplication.translate("RolesPanel", "Delete the role")
        )
        self.reason.setAccessibleName(
            QCoreApplication.translate("RolesPanel", "Why the role cannot be deleted")
        )
        self.heading.setAccessibleName(QCoreApplication.translate("RolesPanel", "Role"))
        self.setAccessibleName(QCoreApplication.translate("RolesPanel", "Role details"))
        if self.role is not None:
            self.set_role(self.role, self._reason)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


class RolesPanel(PanelBase):
    """Roles of the workspace."""

    #: Shown, the controller starts loading (``controller.start()``).
    LOAD_ON_SHOW = False

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("rolesPanel")
        self.controller = RolesController(context, self)
        self.controller.dialog_parent = self
        self.message = MessageBar(self)
        self.count = PlainLabel(self)
        self.count.setObjectName("rolesCount")
        self.refresh_button = QToolButton(self)
        self.refresh_button.clicked.connect(self.refresh)
        top = QHBoxLayout()
        top.addWidget(self.count, 1)
        top.addWidget(self.refresh_button)
        self.table = QTableView(self)
        self.table.setObjectName("rolesTable")
        self.table.setModel(self.controller.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for number, width in enumerate((120, 100, 75, 90, 300)):
            header.resizeSection(number, width)
        for number, column in enumerate(self.controller.model.columns):
            self.table.setColumnHidden(number, column.hidden)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.detail = RoleDetail(self)
        # One role at a time (its detail beside); Delete deletes it, asking first; Enter goes
        # to its permission codes. Roles have no edit.
        self.table_actions = TableActions(
            self.table,
            id_column="id",
            row_of=lambda r: self.controller.model.index(r, 0).data(RowRole),
        )
        self.table_actions.add_row_buttons(self.detail.delete_button)
        self.table_actions.deleteRequested.connect(lambda _rows: self.detail.delete_button.click())
        self.table_actions.rowActivated.connect(lambda _row: self.detail.codes.setFocus())
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([620, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(self.splitter, 1)

        c = self.controller
        c.detailChanged.connect(self._show_detail)
        c.errorShown.connect(self.message.show_error)
        c.noticeShown.connect(self.message.show_notice)
        c.stateChanged.connect(self._state_changed)
        self.detail.delete_button.clicked.connect(self._on_delete)
        self.retranslateUi()

    @async_slot()
    async def _on_delete(self) -> None:
        await self.controller.delete(self.detail.role)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.controller.show_role(current.data(RowRole) if current.isValid() else None)

    def _show_detail(self, role: Any) -> None:
        self.detail.set_role(role, self.controller.delete_reason(role) if role else None)

    def apply_permissions(self) -> None:
        """Delete enabled (or disabled with the reason) as the account may."""
        self._show_detail(self.detail.role)

    def _state_changed(self, _state: str) -> None:
        self._update_count()

    def _update_count(self) -> None:
        state = self.controller.state
        if state == "loading":
            self.count.setText(QCoreApplication.translate("RolesPanel", "Loading\u2026"))
        elif state == "empty":
            self.count.setText(
                QCoreApplication.translate("RolesPanel", "The workspace has no roles.")
            )
        elif state == "error":
            self.count.setText(
                QCoreApplication.translate("RolesPanel", "The roles could not be loaded.")
            )
        elif state == "ready":
            n = self.controller.model.rowCount()
            self.count.setText(QCoreApplication.translate("RolesPanel", "%n role(s)", None, n))
        else:
            self.count.setText("")

    def refresh(self) -> None:
        """Reload the roles (F5)."""
        self.controller.refresh()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.controller.start()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.refresh_button.setText(QCoreApplication.translate("RolesPanel", "Refresh"))
        self.refresh_button.setToolTip(
            QCoreApplication.translate("RolesPanel", "Reload the roles (F5)")
        )
        self.refresh_button.setAccessibleName(
            QCoreApplication.translate("RolesPanel", "Refresh the roles")
        )
        self.table.setAccessibleName(QCoreApplication.translate("RolesPanel", "Roles"))
        self.count.setAccessibleName(QCoreApplication.translate("RolesPanel", "Number of roles"))
        self.setAccessibleName(QCoreApplication.translate("RolesPanel", "Roles"))
        self.controller.model.retranslate()
        self._update_count()
