"""Sessions: the account's active sessions (the current one marked) and its session settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from .common import SecurityPanel
from .formatting import shorten_user_agent, time_with_relative, yes_no

AnyIndex = QModelIndex | QPersistentModelIndex
Clock = Callable[[], datetime]

_CONTEXT = "SessionsPanel"
HEADERS = (
    QT_TRANSLATE_NOOP("SessionsPanel", "Device"),
    QT_TRANSLATE_NOOP("SessionsPanel", "Client IP"),
    QT_TRANSLATE_NOOP("SessionsPanel", "User agent"),
    QT_TRANSLATE_NOOP("SessionsPanel", "Signed in"),
    QT_TRANSLATE_NOOP("SessionsPanel", "Last activity"),
)
DEVICE, IP, AGENT, LOGIN, ACTIVITY = range(5)


def _tr(text: str) -> str:
    return QCoreApplication.translate(_CONTEXT, text)


def utc_now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


class SessionsModel(QAbstractTableModel):
    """Active sessions; the current one in bold, marked "This device"."""

    def __init__(self, clock: Clock = utc_now, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []
        self._clock = clock

    @property
    def rows(self) -> tuple[Any, ...]:
        """The sessions shown."""
        return tuple(self._rows)

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show ``rows`` (SessionInfo records)."""
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
            return self._text(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == AGENT:
                return plain_tooltip(row.user_agent or "")
            if column in (LOGIN, ACTIVITY):
                moment = row.login_time if column == LOGIN else row.last_activity_time
                return plain_tooltip(format_datetime(moment))
            return plain_tooltip(self._text(row, column))
        if role == Qt.ItemDataRole.FontRole and row.is_current:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.UserRole:
            return row
        return None

    def _text(self, row: Any, column: int) -> str:
        if column == DEVICE:
            return (
                QCoreApplication.translate("SessionsPanel", "This device") if row.is_current else ""
            )
        if column == IP:
            return str(row.client_ip or "")
        if column == AGENT:
            return shorten_user_agent(row.user_agent)
        moment = row.login_time if column == LOGIN else row.last_activity_time
        return time_with_relative(moment, self._clock())

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


class SessionsPanel(SecurityPanel):
    """Active sessions beside the session settings."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("sessionsPanel")
        clock = context.extras.get("clock", utc_now)
        self.model = SessionsModel(clock, self)
        self.table = QTableView(self)
        self.table.setObjectName("sessionsTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # The server has no way to end a session: the menu copies (several rows at once).
        self.table_actions = TableActions(
            self.table,
            row_of=lambda r: self.model.index(r, 0).data(Qt.ItemDataRole.UserRole),
        )
        self.table_actions.set_multi_select()
        self.sessions_label = PlainLabel(self)
        self.sessions_label.setBuddy(self.table)
        self.refresh_button = QToolButton(self)
        self.refresh_button.setObjectName("refreshSessions")
        self.refresh_button.clicked.connect(self._on_refresh)

        self.config_box = QGroupBox(self)
        self.config_box.setObjectName("sessionConfig")
        form = QFormLayout(self.config_box)
        self.config_labels: dict[str, QLabel] = {}
        self.config_values: dict[str, QLabel] = {}
        for key in ("sso", "max", "last_login", "last_ip", "password"):
            label, value = PlainLabel(self.config_box), PlainLabel(self.config_box)
            value.setObjectName(f"config_{key}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setWordWrap(True)
            label.setBuddy(value)
            form.addRow(label, value)
            self.config_labels[key], self.config_values[key] = label, value
        self._config: Any = None

        top = QHBoxLayout()
        top.addWidget(self.sessions_label, 1)
        top.addWidget(self.refresh_button)
        left = QVBoxLayout()
        left.addLayout(top)
        left.addWidget(self.table, 1)
        right = QVBoxLayout()
        right.addWidget(self.config_box)
        right.addStretch(1)
        row = QHBoxLayout()
        row.addLayout(left, 1)
        row.addLayout(right, 0)
        layout = QVBoxLayout(self)
        layout.addWidget(self.error_line)
        layout.addLayout(row, 1)
        self.retranslateUi()

    async def load(self) -> None:
        """Fetch the sessions and the session settings."""
        sessions = await self.client.security.sessions()
        config = await self.client.security.sessions_config()
        self.model.set_rows(sessions)
        self._config = config
        self._show_config()
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)

    @property
    def current_session(self) -> Any:
        """The session this program uses, if listed."""
        return next((s for s in self.model.rows if s.is_current), None)

    def _show_config(self) -> None:
        config = self._config
        values = self.config_values
        if config is None:
            for value in values.values():
                value.setText("")
            return
        values["sso"].setText(yes_no(config.sso_enabled))
        values["max"].setText(
            self.locale().toString(config.max_sessions) if config.max_sessions is not None else ""
        )
        clock = self.context.extras.get("clock", utc_now)
        values["last_login"].setText(time_with_relative(config.last_login_at, clock()))
        values["last_ip"].setText(config.last_login_ip or "")
        values["password"].setText(time_with_relative(config.password_changed_at, clock()))

    @async_slot()
    async def _on_refresh(self) -> None:
        await self.reload()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.sessions_label.setText(QCoreApplication.translate("SessionsPanel", "&Active sessions"))
        self.table.setAccessibleName(QCoreApplication.translate("SessionsPanel", "Active sessions"))
        self.refresh_button.setText(QCoreApplication.translate("SessionsPanel", "Refresh"))
        self.refresh_button.setAccessibleName(
            QCoreApplication.translate("SessionsPanel", "Refresh the sessions")
        )
        self.config_box.setTitle(QCoreApplication.translate("SessionsPanel", "Session settings"))
        self.config_box.setAccessibleName(
            QCoreApplication.translate("SessionsPanel", "Session settings")
        )
        names = {
            "sso": QCoreApplication.translate("SessionsPanel", "Single sign-on:"),
            "max": QCoreApplication.translate("SessionsPanel", "Maximum sessions:"),
            "last_login": QCoreApplication.translate("SessionsPanel", "Last sign-in:"),
            "last_ip": QCoreApplication.translate("SessionsPanel", "Last sign-in IP:"),
            "password": QCoreApplication.translate("SessionsPanel", "Password changed:"),
        }
        for key, text in names.items():
            self.config_labels[key].setText(text)
            self.config_values[key].setAccessibleName(text.rstrip(":"))
        self.model.retranslate()
        self._show_config()
