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

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.i18n.translators import LANGUAGES
from portal_admin.ui.mainwindow.command_palette import CommandPalette, Entry
from portal_admin.ui.mainwindow.idle import IdleMonitor
from portal_admin.ui.mainwindow.key_notice import KeyNotice
from portal_admin.ui.mainwindow.lock import UnlockHook, WindowLock
from portal_admin.ui.mainwindow.palette_entries import (
    RECENT_ACCOUNTS,
    lookup_accounts,
    palette_entries,
)
from portal_admin.ui.mainwindow.status_bar import ChannelState, ConnectionState, StatusBar
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import (
    PanelContext,
    PanelRegistry,
    PanelSpec,
    current_panel_id,
)
from portal_admin.ui.permissions import tag_operation
from portal_admin.ui.profiles.store import Profile
from portal_admin.ui.theme.icons import icon, is_icon_name
from portal_admin.ui.widgets.banner import EnvironmentBanner
from portal_admin.ui.widgets.plain import PlainLabel

if TYPE_CHECKING:
    from portal_admin.ui.kiosk.guard import KioskGuard
    from portal_admin.ui.kiosk.policy import KioskSettings

log = logging.getLogger(__name__)


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
        self._account: tuple[str, str, str] | None = None

        self._build_header()
        self._build_body()
        self.status = StatusBar(self.statusBar())
        # The status bar's widgets, by the names the window has always given them.
        self.busy = self.status.busy
        self.connection_label = self.status.connection_label
        self.channel_label = self.status.channel_label
        self.request_label = self.status.request_label
        self.keyring_notice = self.status.keyring_notice
        self.request_id = self.status.request_id
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
        #: Once per key file: where the evidence-signing key is kept (no keyring).
        self.key_notice = KeyNotice(central)
        layout.addWidget(self.key_notice)
        layout.addWidget(self.body, 1)
        layout.addStretch(0)
        self.setCentralWidget(central)
        self.idle = IdleMonitor(self)
        self.window_lock = WindowLock(
            central,
            [self.header, self.body],
            self.banner,
            self.idle,
            self._work_actions,
            lambda: self.command_palette,
        )
        self.window_lock.changed.connect(self.lockedChanged)
        self.lock_overlay = self.window_lock.overlay
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
        # No panel is built here: the first is built when the window is first shown (or its
        # panel first asked for), each other one when first selected.

    def _fit_navigation(self) -> None:
        """Wide enough for the longest panel title in the current language, never truncated."""
        titles = self.nav.sizeHintForColumn(0) if self.nav.count() else 0
        self.nav.setMinimumWidth(max(160, titles + 2 * self.nav.frameWidth() + 12))

    def _operations_busy(self, busy: bool) -> None:
        self.set_busy("operations", busy)

    # -- building ------------------------------------------------------------------------------

    def _build_header(self) -> None:
        self.banner = EnvironmentBanner(self)
        self.kiosk_banner = PlainLabel(self)
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
        self.title_label = PlainLabel(self.header)
        self.title_label.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.account_label = PlainLabel(self.header)
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
        self.placeholder = PlainLabel(self.stack)
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
        """What the palette offers (:func:`.palette_entries.palette_entries`)."""
        return palette_entries(self)

    def show_saved_view(self, key: str, name: str) -> None:
        """Open the panel of the list ``key`` and show its saved view ``name``."""
        from portal_admin.ui.lists.paged_list import PagedList

        panel = self.show_panel(key.split("/", 1)[0])
        for view in panel.findChildren(PagedList) if panel is not None else []:
            if view.views is not None and view.views.key == key:
                view.views.show_view(name)
                view.table.setFocus()

    def open_palette(self) -> CommandPalette:
        """Show the command palette over the window."""
        lookup = None
        if self.context.client is not None and any(s.id == "accounts" for s in self._specs):
            lookup = partial(lookup_accounts, self)
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
        """Select the panel ``panel_id`` (or a former id of it), building it on first use."""
        panel_id = current_panel_id(panel_id)
        for row, spec in enumerate(self._specs):
            if spec.id == panel_id:
                if self.nav.currentRow() != row:
                    self.nav.setCurrentRow(row)  # calls back into _nav_changed
                return self._panels.get(panel_id)
        return None

    def current_panel(self) -> QWidget | None:
        """The panel shown, if any (the first panel is built now if it was not yet)."""
        self._show_first_panel()
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
        self.status.set_busy(source, busy)

    def set_language_checked(self, code: str) -> None:
        """Tick ``code`` in the View > Language menu."""
        action = self.language_actions.get(code)
        if action is not None:
            action.setChecked(True)

    def set_connection_state(self, state: ConnectionState) -> None:
        """Show the connection state."""
        self.status.set_connection_state(state)

    def set_channel_state(self, state: ChannelState) -> None:
        """Show the Secure Channel state."""
        self.status.set_channel_state(state)

    def show_keyring_notice(self, reason: str = "") -> None:
        """Say that the sign-in is kept in memory only (no keyring on this computer)."""
        self.status.show_keyring_notice(reason)

    def set_request_id(self, request_id: str) -> None:
        """Show the latest request id (selectable, copyable)."""
        self.status.set_request_id(request_id)

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
        return self.window_lock.locked

    @property
    def unlock_hook(self) -> UnlockHook | None:
        """Asked to unlock (sign-in again); None: the window simply unlocks."""
        return self.window_lock.unlock_hook

    @unlock_hook.setter
    def unlock_hook(self, hook: UnlockHook | None) -> None:
        self.window_lock.unlock_hook = hook

    def lock(self) -> None:
        """Cover the work area and ask for sign-in again (Ctrl+L, or idle time ran out)."""
        self.window_lock.lock()

    def unlock(self) -> None:
        """Uncover the work area as it was."""
        self.window_lock.unlock()

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
        self.window_lock.start_unlock()

    async def try_unlock(self) -> bool:
        """Ask the unlock hook (sign-in again); unlock when it says yes."""
        return await self.window_lock.try_unlock()

    # -- Qt events -----------------------------------------------------------------------------

    def _show_first_panel(self) -> None:
        """Select (and so build) the first panel, unless a panel is selected already."""
        if self.nav.currentRow() < 0 and self._specs:
            self.show_panel(self._specs[0].id)

    def setVisible(self, visible: bool) -> None:
        # Before the window becomes visible (show() comes here): built into a hidden window,
        # the panel's widgets are not shown and laid out one by one, and the first paint
        # has the panel.
        if visible:
            self._show_first_panel()
        super().setVisible(visible)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self.window_lock.locked:
            self.window_lock.place()

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
        self.status.retranslateUi()
        self.lock_overlay.retranslateUi()
        self.banner.retranslateUi()
