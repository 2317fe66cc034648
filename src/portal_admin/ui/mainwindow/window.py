"""The main window, the one window of a signed-in session: banner and account header, panel
navigation, status bar, shortcuts, idle lock. Panels come from a :class:`PanelRegistry`;
sign-in plugs in through hooks.

In kiosk mode (``kiosk`` settings given) the window is read-only and cannot be left: a
permanent read-only banner beside the environment banner, no Quit and no change of password
(File holds Lock and Sign out), a close is refused, the panels that only change things are
left out, every mutating control is hidden by the kiosk guard, and the idle time signs out
(``idleSignOut``) instead of locking.

The panels' tasks end with the session: closing the window, logging out and the kiosk's idle
sign-out call every built panel's ``close_tasks()`` (see ``ui/panels/registry.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.i18n.translators import LANGUAGES
from portal_admin.ui.mainwindow.command_palette import CommandPalette, Entry, find_accounts
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec
from portal_admin.ui.permissions import tag_operation
from portal_admin.ui.profiles.store import Profile
from portal_admin.ui.theme.icons import IconLabel, icon, is_icon_name
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.banner import EnvironmentBanner

from .idle import IdleMonitor

if TYPE_CHECKING:
    from portal_admin.ui.kiosk.guard import KioskGuard
    from portal_admin.ui.kiosk.policy import KioskSettings

log = logging.getLogger(__name__)

UnlockHook = Callable[[], Awaitable[bool]]


class ConnectionState(StrEnum):
    """The connection to the server, as the status bar shows it."""

    DISCONNECTED = QT_TRANSLATE_NOOP("ConnectionState", "Not connected")
    CONNECTING = QT_TRANSLATE_NOOP("ConnectionState", "Connecting\u2026")
    CONNECTED = QT_TRANSLATE_NOOP("ConnectionState", "Connected")
    OFFLINE = QT_TRANSLATE_NOOP("ConnectionState", "Server unreachable")

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("ConnectionState", self.value)


class ChannelState(StrEnum):
    """The Secure Channel session, as the status bar shows it."""

    NONE = QT_TRANSLATE_NOOP("ChannelState", "Secure Channel: none")
    ESTABLISHED = QT_TRANSLATE_NOOP("ChannelState", "Secure Channel: established")
    FAILED = QT_TRANSLATE_NOOP("ChannelState", "Secure Channel: failed")

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("ChannelState", self.value)


class LockOverlay(QWidget):
    """Covers the work area while locked; the work underneath is kept as it was."""

    unlockRequested = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("lockOverlay")
        self.setAutoFillBackground(True)
        self.icon = IconLabel(self, size=48)
        self.icon.set_icon("state.locked")
        self.title = QLabel(self)
        self.title.setStyleSheet("font-size: 16pt; font-weight: bold;")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.button = QPushButton(self)
        self.button.setIcon(icon("action.unlock"))
        self.button.clicked.connect(self.unlockRequested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 12, 60, 12)
        layout.addStretch(1)
        layout.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.title, 0, Qt.AlignmentFlag.AlignHCenter)
        # No alignment flag: the layout then sizes the wrapped message by its height for the
        # width, so a translation that needs two lines gets them (the label centres its text).
        layout.addWidget(self.message)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.title.setText(QCoreApplication.translate("MainWindow", "Locked"))
        self.message.setText(
            QCoreApplication.translate(
                "MainWindow", "The window was locked. Sign in again to continue; your work is kept."
            )
        )
        self.button.setText(QCoreApplication.translate("MainWindow", "Sign in again\u2026"))
        self.button.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Sign in again to unlock")
        )
        self.title.setAccessibleName(QCoreApplication.translate("MainWindow", "Locked"))


# The window's commands the palette offers (the action's attribute, its palette title).
PALETTE_COMMANDS = (
    ("refresh_action", QT_TRANSLATE_NOOP("Palette", "Refresh the current panel")),
    ("lock_action", QT_TRANSLATE_NOOP("Palette", "Lock the window")),
    ("change_password_action", QT_TRANSLATE_NOOP("Palette", "Change my password")),
    ("logout_action", QT_TRANSLATE_NOOP("Palette", "Sign out")),
    ("about_action", QT_TRANSLATE_NOOP("Palette", "About this program")),
    ("quit_action", QT_TRANSLATE_NOOP("Palette", "Quit")),
)
# Accounts the palette remembers having opened.
RECENT_ACCOUNTS = 8


class MainWindow(QMainWindow):
    """The program's main window."""

    logoutRequested = Signal()
    changePasswordRequested = Signal()
    aboutRequested = Signal()
    #: A language code from the View > Language menu.
    languageRequested = Signal(str)
    #: Emitted when the window closes (the application then quits).
    closed = Signal()
    lockedChanged = Signal(bool)
    #: Kiosk mode: the idle time ran out; the session is to be signed out.
    idleSignOut = Signal()

    def __init__(
        self,
        profile: Profile,
        runner: OperationRunner,
        registry: PanelRegistry,
        *,
        context: PanelContext | None = None,
        kiosk: KioskSettings | None = None,
        guard: KioskGuard | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.profile = profile
        self.runner = runner
        self.registry = registry
        self.context = context or PanelContext(runner=runner, profile=profile)
        self.unlock_hook: UnlockHook | None = None
        #: The kiosk settings (None outside kiosk mode).
        self.kiosk = kiosk
        self.guard = guard
        self._own_guard = False
        if kiosk is not None and guard is None:
            from portal_admin.ui.kiosk.guard import KioskGuard

            self.guard = KioskGuard(csv_export=kiosk.csv_export, parent=self)
            self.guard.install()
            self._own_guard = True
        self._close_allowed = kiosk is None
        self._panels: dict[str, QWidget] = {}
        self._specs: list[PanelSpec] = list(registry)
        self.recent_accounts: list[Any] = []
        self.command_palette: CommandPalette | None = None
        if kiosk is not None:
            from portal_admin.ui.kiosk.guard import WRITE_ONLY_PANELS

            self._specs = [s for s in self._specs if s.id not in WRITE_ONLY_PANELS]
        self._locked = False
        self._account: tuple[str, str, str] | None = None
        self._busy_sources: set[str] = set()
        self._connection = ConnectionState.DISCONNECTED
        self._channel = ChannelState.NONE
        self._tasks: set[asyncio.Task[Any]] = set()

        self._build_header()
        self._build_body()
        self._build_status_bar()
        self._build_actions()

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        banners = QHBoxLayout()
        banners.setSpacing(0)
        banners.addWidget(self.banner, 1)
        banners.addWidget(self.kiosk_banner)
        layout.addLayout(banners)
        layout.addWidget(self.header)
        layout.addWidget(self.body, 1)
        layout.addStretch(0)
        self.setCentralWidget(central)
        self.lock_overlay = LockOverlay(central)
        self.lock_overlay.hide()
        self.lock_overlay.unlockRequested.connect(self.start_unlock)

        self.idle = IdleMonitor(self)
        if kiosk is None:
            self.idle.expired.connect(self.lock)
            self.idle.set_minutes(profile.idle_lock_minutes)
        else:
            self.idle.expired.connect(self.idleSignOut)
            self.idle.set_minutes(kiosk.idle_sign_out_minutes)

        # First, before the program's own slots: nothing a panel runs outlives the session.
        self.logoutRequested.connect(self.close_panels)
        self.idleSignOut.connect(self.close_panels)

        # A bound method, not a lambda: Qt drops the connection when this window is deleted
        # (the runner outlives it: logout and sign-in again build a new window).
        runner.busyChanged.connect(self._operations_busy)
        runner.requestIdChanged.connect(self.set_request_id)
        self.banner.set_profile(profile, read_only=profile.kiosk)
        self.resize(1100, 700)
        self.retranslateUi()
        if self.guard is not None:
            self.guard.walk(self)
        if self._specs:
            self.show_panel(self._specs[0].id)

    def _fit_navigation(self) -> None:
        """Wide enough for the longest panel title in the current language, never truncated."""
        titles = self.nav.sizeHintForColumn(0) if self.nav.count() else 0
        self.nav.setMinimumWidth(max(160, titles + 2 * self.nav.frameWidth() + 12))

    def _operations_busy(self, busy: bool) -> None:
        self.set_busy("operations", busy)

    # -- building ------------------------------------------------------------------------------

    def _build_header(self) -> None:
        self.banner = EnvironmentBanner(self)
        self.kiosk_banner = QLabel(self)
        self.kiosk_banner.setObjectName("kioskBanner")
        self.kiosk_banner.setTextFormat(Qt.TextFormat.PlainText)
        self.kiosk_banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.kiosk_banner.setMinimumHeight(28)
        self.kiosk_banner.setStyleSheet(
            "QLabel#kioskBanner { background: #263238; color: white; font-weight: bold;"
            " padding: 4px 14px; }"
        )
        self.kiosk_banner.setVisible(self.kiosk is not None)
        self.header = QWidget(self)
        self.header.setObjectName("header")
        self.title_label = QLabel(self.header)
        self.title_label.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.account_label = QLabel(self.header)
        self.account_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.account_label.setTextFormat(Qt.TextFormat.PlainText)
        self.logout_button = QToolButton(self.header)
        self.logout_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        row = QHBoxLayout(self.header)
        row.setContentsMargins(10, 6, 10, 6)
        row.addWidget(self.title_label)
        row.addStretch(1)
        row.addWidget(self.account_label)
        row.addWidget(self.logout_button)

    def _build_body(self) -> None:
        self.body = QSplitter(Qt.Orientation.Horizontal, self)
        self.nav = QListWidget(self.body)
        self.nav.setObjectName("navigation")
        self.nav.setMaximumWidth(320)
        # Fusion's 24 px outweigh the titles beside them; 20 px sit with a 9-10 pt text.
        self.nav.setIconSize(QSize(20, 20))
        self.stack = QStackedWidget(self.body)
        self.placeholder = QLabel(self.stack)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.placeholder)
        for spec in self._specs:
            item = QListWidgetItem(self._icon(spec), spec.display_title(), self.nav)
            item.setData(Qt.ItemDataRole.UserRole, spec.id)
        self.nav.currentRowChanged.connect(self._nav_changed)
        self.body.addWidget(self.nav)
        self.body.addWidget(self.stack)
        self.body.setStretchFactor(1, 1)
        self.body.setChildrenCollapsible(False)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.busy = QProgressBar(bar)
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(110)
        self.busy.setMaximumHeight(14)
        self.busy.setVisible(False)
        self.connection_label = QLabel(bar)
        self.channel_label = QLabel(bar)
        self.request_label = QLabel(bar)
        #: Shown when no keyring can keep the sign-in: it lasts only while the program runs.
        self.keyring_notice = QLabel(bar)
        self.keyring_notice.setObjectName("keyringNotice")
        set_tone(self.keyring_notice, "warning")
        self.keyring_notice.setVisible(False)
        self.request_id = QLineEdit(bar)
        self.request_id.setReadOnly(True)
        self.request_id.setFrame(False)
        self.request_id.setMinimumWidth(280)
        self.request_id.setMaximumWidth(320)
        bar.addWidget(self.busy)
        bar.addWidget(self.connection_label)
        bar.addWidget(self.channel_label)
        bar.addWidget(self.keyring_notice)
        bar.addPermanentWidget(self.request_label)
        bar.addPermanentWidget(self.request_id)

    def _build_actions(self) -> None:
        self.refresh_action = QAction(self)
        self.refresh_action.setShortcut(QKeySequence(Qt.Key.Key_F5))
        self.refresh_action.triggered.connect(self.refresh_current)
        self.lock_action = QAction(self)
        self.lock_action.setShortcut(QKeySequence("Ctrl+L"))
        self.lock_action.triggered.connect(self.lock)
        self.quit_action = QAction(self)
        self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self.close)
        self.logout_action = QAction(self)
        self.logout_action.triggered.connect(self.logoutRequested)
        self.change_password_action = QAction(self)
        self.change_password_action.triggered.connect(self.changePasswordRequested)
        tag_operation(self.change_password_action, "auth.password_change")
        self.about_action = QAction(self)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(self.aboutRequested)
        self.palette_action = QAction(self)
        self.palette_action.setObjectName("paletteAction")
        self.palette_action.setShortcut(QKeySequence("Ctrl+K"))
        self.palette_action.triggered.connect(self.open_palette)
        self.language_group = QActionGroup(self)
        self.language_group.setExclusive(True)
        self.language_actions: dict[str, QAction] = {}
        for language in LANGUAGES.values():
            if self.kiosk is not None and not self.kiosk.allows_language(language.code):
                continue
            action = QAction(language.native_name, self.language_group)
            action.setCheckable(True)
            action.triggered.connect(
                lambda _=False, code=language.code: self.languageRequested.emit(code)
            )
            self.language_actions[language.code] = action
        for action, name in (
            (self.refresh_action, "action.refresh"),
            (self.lock_action, "action.lock"),
            (self.quit_action, "action.quit"),
            (self.logout_action, "action.logout"),
            (self.change_password_action, "action.change-password"),
            (self.about_action, "action.about"),
            (self.palette_action, "action.palette"),
        ):
            action.setIcon(icon(name))
        self.logout_button.setDefaultAction(self.logout_action)
        self.panel_actions: list[QAction] = []
        for number, spec in enumerate(self._specs[:9], start=1):
            action = QAction(self._icon(spec), "", self)
            action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _=False, pid=spec.id: self.show_panel(pid))
            self.panel_actions.append(action)
        self.file_menu = self.menuBar().addMenu("")
        if self.kiosk is None:
            self.file_menu.addAction(self.change_password_action)
            self.file_menu.addAction(self.logout_action)
            self.file_menu.addAction(self.lock_action)
            self.file_menu.addSeparator()
            self.file_menu.addAction(self.quit_action)
        else:  # no way out of the kiosk: Lock, and Sign out back to the kiosk sign-in
            self.file_menu.addAction(self.lock_action)
            self.file_menu.addAction(self.logout_action)
            self.quit_action.setShortcut(QKeySequence())
            self.quit_action.setEnabled(False)
            self.quit_action.setVisible(False)
            self.change_password_action.setEnabled(False)
            self.change_password_action.setVisible(False)
        self.view_menu = self.menuBar().addMenu("")
        self.view_menu.addAction(self.palette_action)
        self.view_menu.addAction(self.refresh_action)
        self.view_menu.addSeparator()
        for action in self.panel_actions:
            self.view_menu.addAction(action)
        self.view_menu.addSeparator()
        self.language_menu = self.view_menu.addMenu("")
        self.language_menu.setIcon(icon("action.language"))
        for action in self.language_actions.values():
            self.language_menu.addAction(action)
        self.help_menu = self.menuBar().addMenu("")
        self.help_menu.addAction(self.about_action)

    # -- the command palette ----------------------------------------------------------------

    def palette_entries(self) -> list[Entry]:
        """What the palette offers: the panels, the window's commands that are available now,
        the languages, and the accounts opened from it before."""
        entries = [
            Entry("panel", spec.display_title(), spec.title, partial(self.show_panel, spec.id))
            for spec in self._specs
        ]
        for name, source in PALETTE_COMMANDS:
            action: QAction = getattr(self, name)
            if action.isEnabled() and action.isVisible():
                title = QCoreApplication.translate("Palette", source)
                entries.append(Entry("command", title, source, action.trigger))
        for language in LANGUAGES.values():
            action = self.language_actions[language.code]
            english = QLocale.languageToString(language.locale.language())
            title = fill(QCoreApplication.translate("Palette", "Language: %1"), action.text())
            english_title = f"Language: {english} ({language.code})"
            entries.append(Entry("command", title, english_title, action.trigger))
        entries.extend(self._view_entries())
        for account in self.recent_accounts:
            entries.append(self._account_entry(account))
        return entries

    def _view_entries(self) -> list[Entry]:
        """The saved views of every list, each opening its panel and showing the view."""
        store = self.context.extras.get("saved_views")
        if store is None:
            return []
        titles = {spec.id: spec.display_title() for spec in self._specs}
        entries = []
        for key, name in store.all_views():
            panel_id = key.split("/", 1)[0]
            if panel_id in titles:
                title = fill(QCoreApplication.translate("Palette", "View: %1"), name)
                run = partial(self.show_saved_view, key, name)
                entries.append(Entry("view", title, f"View: {name}", run, titles[panel_id]))
        return entries

    def show_saved_view(self, key: str, name: str) -> None:
        """Open the panel of the list ``key`` and show its saved view ``name``."""
        from portal_admin.ui.lists.paged_list import PagedList

        panel = self.show_panel(key.split("/", 1)[0])
        for view in panel.findChildren(PagedList) if panel is not None else []:
            if view.views is not None and view.views.key == key:
                view.views.show_view(name)
                view.table.setFocus()

    def _account_entry(self, account: Any) -> Entry:
        name = account.account_name or account.biz_id
        detail = " · ".join(t for t in (account.account_email, account.biz_id) if t)
        return Entry("account", name, name, partial(self.open_account, account), detail)

    def open_palette(self) -> CommandPalette:
        """Show the command palette over the window."""
        lookup = None
        if self.context.client is not None and any(s.id == "accounts" for s in self._specs):
            lookup = self._lookup_accounts
        palette = CommandPalette(self.palette_entries(), lookup, self)
        palette.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        width = min(640, max(420, self.width() // 2))
        palette.resize(width, palette.height())
        top = self.mapToGlobal(self.rect().topLeft())
        palette.move(top.x() + (self.width() - width) // 2, top.y() + 80)
        self.command_palette = palette
        palette.show()
        palette.search.setFocus()
        return palette

    async def _lookup_accounts(self, text: str) -> list[Entry]:
        accounts = await find_accounts(self.context.client, text)
        return [self._account_entry(a) for a in accounts]

    def open_account(self, account: Any) -> None:
        """Show ``account`` in the accounts panel, and keep it among the recent ones."""
        self.recent_accounts = [
            account,
            *(a for a in self.recent_accounts if a.biz_id != account.biz_id),
        ][:RECENT_ACCOUNTS]
        panel = self.show_panel("accounts")
        controller = getattr(panel, "controller", None)
        if controller is not None:
            controller.show_account(account)

    def _icon(self, spec: PanelSpec) -> QIcon:
        if spec.icon is None:
            return QIcon()
        if is_icon_name(spec.icon):
            return icon(spec.icon)
        pixmap = getattr(QStyle.StandardPixmap, spec.icon, None)
        if pixmap is not None:
            return self.style().standardIcon(pixmap)
        return QIcon(spec.icon)

    # -- panels --------------------------------------------------------------------------------

    @property
    def specs(self) -> list[PanelSpec]:
        """The panels the navigation offers (kiosk mode leaves out the write-only ones)."""
        return list(self._specs)

    def show_panel(self, panel_id: str) -> QWidget | None:
        """Select the panel ``panel_id``, building it on first use."""
        for row, spec in enumerate(self._specs):
            if spec.id == panel_id:
                if self.nav.currentRow() != row:
                    self.nav.setCurrentRow(row)  # calls back into _nav_changed
                return self._panels.get(panel_id)
        return None

    def current_panel(self) -> QWidget | None:
        """The panel shown, if any."""
        widget = self.stack.currentWidget()
        return None if widget is self.placeholder else widget

    def _nav_changed(self, row: int) -> None:
        if not 0 <= row < len(self._specs):
            self.stack.setCurrentWidget(self.placeholder)
            return
        spec = self._specs[row]
        panel = self._panels.get(spec.id)
        if panel is None:
            try:
                panel = spec.factory(self.context)
            except Exception:
                log.exception("building panel %s failed", spec.id)
                self.placeholder.setText(
                    fill(
                        QCoreApplication.translate(
                            "MainWindow", "The panel \u201c%1\u201d could not be opened."
                        ),
                        spec.display_title(),
                    )
                )
                self.stack.setCurrentWidget(self.placeholder)
                return
            panel.setObjectName(f"panel-{spec.id}")
            if not panel.accessibleName():
                panel.setAccessibleName(spec.display_title())
            self._panels[spec.id] = panel
            self._attach_views(spec.id, panel)
            self.stack.addWidget(panel)
            if self.guard is not None:
                self.guard.walk(panel)
        self.stack.setCurrentWidget(panel)

    def _attach_views(self, panel_id: str, panel: QWidget) -> None:
        """Join the panel's lists to the saved views (``extras["saved_views"]``), each under
        ``panel id/list name``."""
        store = self.context.extras.get("saved_views")
        if store is None:
            return
        from portal_admin.ui.lists.paged_list import PagedList

        for view in panel.findChildren(PagedList):
            try:
                view.attach_views(store, f"{panel_id}/{view.view_name}")
            except Exception:  # a damaged state must not cost the panel
                log.exception("restoring the views of %s failed", panel_id)

    def close_panels(self) -> None:
        """Cancel what every built panel runs (its ``close_tasks()``): the window closes or the
        session ends. The panels stay (the window closes with them)."""
        for panel_id, panel in self._panels.items():
            close_tasks = getattr(panel, "close_tasks", None)
            if not callable(close_tasks):
                continue
            try:
                close_tasks()
            except Exception:
                log.exception("stopping the tasks of panel %s failed", panel_id)

    def refresh_current(self) -> None:
        """Refresh the panel shown (F5), if it can."""
        panel = self.current_panel()
        refresh = getattr(panel, "refresh", None)
        if callable(refresh):
            refresh()

    # -- header and status ---------------------------------------------------------------------

    def set_account(self, name: str | None, email: str | None, detail: str = "") -> None:
        """Show the signed-in account (from the live profile); None when signed out.

        ``detail`` is a server label shown after it (the account's portal, in the server's
        language).
        """
        self._account = (name or "", email or "", detail) if (name or email) else None
        self._update_account()

    def set_busy(self, source: str, busy: bool) -> None:
        """Show the busy indicator while any ``source`` (operations, network) is busy."""
        if busy:
            self._busy_sources.add(source)
        else:
            self._busy_sources.discard(source)
        self.busy.setVisible(bool(self._busy_sources))

    def set_language_checked(self, code: str) -> None:
        """Tick ``code`` in the View > Language menu."""
        action = self.language_actions.get(code)
        if action is not None:
            action.setChecked(True)

    def set_connection_state(self, state: ConnectionState) -> None:
        """Show the connection state."""
        self._connection = state
        self.connection_label.setText(state.label())

    def set_channel_state(self, state: ChannelState) -> None:
        """Show the Secure Channel state."""
        self._channel = state
        self.channel_label.setText(state.label())

    def show_keyring_notice(self, reason: str = "") -> None:
        """Say that the sign-in is kept in memory only (no keyring on this computer)."""
        self.keyring_notice.setToolTip(reason)
        self.keyring_notice.setVisible(True)
        self._keyring_text()

    def _keyring_text(self) -> None:
        self.keyring_notice.setText(
            QCoreApplication.translate(
                "MainWindow", "No keyring: the sign-in is kept in memory only"
            )
        )
        self.keyring_notice.setAccessibleName(self.keyring_notice.text())

    def set_request_id(self, request_id: str) -> None:
        """Show the latest request id (selectable, copyable)."""
        self.request_id.setText(request_id)
        self.request_id.setCursorPosition(0)

    def _update_account(self) -> None:
        if self._account is None:
            self.account_label.setText(QCoreApplication.translate("MainWindow", "Not signed in"))
        else:
            name, email, detail = self._account
            text = f"{name} <{email}>" if name and email else name or email
            self.account_label.setText(f"{text}  \u00b7  {detail}" if detail else text)
        self.account_label.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Signed-in account")
        )

    # -- locking -------------------------------------------------------------------------------

    @property
    def locked(self) -> bool:
        """True while the lock overlay covers the window."""
        return self._locked

    def lock(self) -> None:
        """Cover the work area and ask for sign-in again (Ctrl+L, or idle time ran out)."""
        if self._locked:
            return
        self._locked = True
        self.idle.pause()
        palette = self.command_palette
        if palette is not None and shiboken6.isValid(palette) and palette.isVisible():
            palette.reject()  # it lists panels and accounts: not over the lock
        self._focus_before_lock = self.focusWidget()
        self.body.hide()
        self.header.hide()
        self._place_lock_overlay()
        self.lock_overlay.show()
        self.lock_overlay.raise_()
        self.lock_overlay.button.setFocus()
        for action in self._work_actions():
            action.setEnabled(False)
        self.lockedChanged.emit(True)

    def unlock(self) -> None:
        """Uncover the work area as it was."""
        if not self._locked:
            return
        self._locked = False
        self.lock_overlay.hide()
        self.header.show()
        self.body.show()
        for action in self._work_actions():
            action.setEnabled(True)
        focus = getattr(self, "_focus_before_lock", None)
        if focus is not None:
            focus.setFocus()
        self.idle.resume()
        self.lockedChanged.emit(False)

    def _work_actions(self) -> list[QAction]:
        return [
            self.palette_action,  # it would show panels and accounts over the lock
            self.refresh_action,
            self.lock_action,
            self.change_password_action,
            *self.panel_actions,
        ]

    def start_unlock(self) -> None:
        """The unlock button: runs :meth:`try_unlock` as a task."""
        task = asyncio.ensure_future(self.try_unlock())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def try_unlock(self) -> bool:
        """Ask the unlock hook (sign-in again); unlock when it says yes.

        Without a hook (before sign-in is wired in) the window simply unlocks.
        """
        hook = self.unlock_hook
        try:
            ok = True if hook is None else await hook()
        except Exception:
            log.exception("unlock hook failed")
            ok = False
        if ok:
            self.unlock()
        return ok

    def _place_lock_overlay(self) -> None:
        central = self.centralWidget()
        top = self.banner.height() if self.banner.isVisible() else 0
        self.lock_overlay.setGeometry(0, top, central.width(), central.height() - top)

    # -- Qt events -----------------------------------------------------------------------------

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self._locked:
            self._place_lock_overlay()

    def allow_close(self) -> None:
        """Let the next close through (kiosk mode refuses closes until the program ends it)."""
        self._close_allowed = True

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._close_allowed:
            log.info("kiosk mode: closing the main window refused")
            event.ignore()
            return
        self.idle.stop()
        self.close_panels()
        if self._own_guard and self.guard is not None:
            self.guard.remove()
        super().closeEvent(event)
        self.closed.emit()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:
        """Every text in the current language."""
        self.setWindowTitle(
            fill(
                QCoreApplication.translate("MainWindow", "System Portal Admin \u2014 %1"),
                self.profile.name,
            )
        )
        self.title_label.setText(QCoreApplication.translate("MainWindow", "System Portal Admin"))
        self._update_account()
        if self.kiosk is None:
            self.logout_action.setText(QCoreApplication.translate("MainWindow", "Log &out"))
            self.logout_button.setAccessibleName(
                QCoreApplication.translate("MainWindow", "Log out")
            )
        else:
            self.logout_action.setText(QCoreApplication.translate("MainWindow", "Sign &out"))
            self.logout_button.setAccessibleName(
                QCoreApplication.translate("MainWindow", "Sign out")
            )
        self.kiosk_banner.setText(
            QCoreApplication.translate(
                "MainWindow", "READ-ONLY SESSION \u2014 nothing can be changed here"
            )
        )
        self.kiosk_banner.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Read-only session")
        )
        self.lock_action.setText(QCoreApplication.translate("MainWindow", "&Lock"))
        self.quit_action.setText(QCoreApplication.translate("MainWindow", "&Quit"))
        self.refresh_action.setText(QCoreApplication.translate("MainWindow", "&Refresh"))
        self.palette_action.setText(
            QCoreApplication.translate("MainWindow", "Command &palette\u2026")
        )
        self.file_menu.setTitle(QCoreApplication.translate("MainWindow", "&File"))
        self.change_password_action.setText(
            QCoreApplication.translate("MainWindow", "Change &password\u2026")
        )
        self.about_action.setText(QCoreApplication.translate("MainWindow", "&About\u2026"))
        self.help_menu.setTitle(QCoreApplication.translate("MainWindow", "&Help"))
        self.language_menu.setTitle(QCoreApplication.translate("MainWindow", "&Language"))
        self.view_menu.setTitle(QCoreApplication.translate("MainWindow", "&View"))
        for i, spec in enumerate(self._specs):
            self.nav.item(i).setText(spec.display_title())
            if i < len(self.panel_actions):
                self.panel_actions[i].setText(spec.display_title())
        self.nav.setAccessibleName(QCoreApplication.translate("MainWindow", "Panels"))
        self._fit_navigation()
        self.stack.setAccessibleName(QCoreApplication.translate("MainWindow", "Panel"))
        self.placeholder.setText(
            QCoreApplication.translate("MainWindow", "Choose a panel on the left.")
        )
        self.connection_label.setText(self._connection.label())
        self.connection_label.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Connection state")
        )
        self.channel_label.setText(self._channel.label())
        self.channel_label.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Secure Channel state")
        )
        self.request_label.setText(QCoreApplication.translate("MainWindow", "Last request id:"))
        if self.keyring_notice.isVisible():
            self._keyring_text()
        self.request_id.setAccessibleName(
            QCoreApplication.translate("MainWindow", "Last request id")
        )
        self.request_id.setPlaceholderText(QCoreApplication.translate("MainWindow", "none yet"))
        self.busy.setAccessibleName(QCoreApplication.translate("MainWindow", "Working"))
        self.lock_overlay.retranslateUi()
        self.banner.retranslateUi()
