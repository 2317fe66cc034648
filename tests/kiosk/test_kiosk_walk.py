"""Acceptance: every panel and every control of kiosk mode, driven as the demo auditor against
the in-process sandbox that records every request: none is a mutating operation, and no
mutating control can be seen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import qasync
import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from portal_admin.client.errors import ReadOnlyError
from portal_admin.protocol.operations import OPERATIONS
from portal_admin.ui.app import Application
from portal_admin.ui.kiosk.guard import is_mutating, operation_of
from portal_admin.ui.lists.export_dialog import ExportOptionsDialog
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.panels.registry import wait_idle
from portal_admin.ui.tour.runner import quiet

from .support import RecordingApp, run, sign_in_auditor

#: Sign-in pages that change a password: never reachable in kiosk mode.
PASSWORD_LINKS = ("forgotPasswordLink", "haveResetTokenLink", "firstTimeSetupLink")


class Walk:
    """Drives every control it finds and remembers what it did."""

    def __init__(self, app: Application, main: MainWindow, exports: Path) -> None:
        self.app = app
        self.main = main
        self.exports = exports
        self.clicked: list[str] = []
        self.combos = 0
        self.tabs = 0
        self.dialogs: list[str] = []
        self.exported: list[Path] = []
        self._done: set[int] = set()

    async def settle(self) -> None:
        await asyncio.sleep(0.03)
        await self.dismiss()
        await quiet(self.app, timeout=30, calm=0.1)
        await self.dismiss()

    async def dismiss(self) -> None:
        """Answer every window a control opened: exports are saved, the rest cancelled."""
        for _ in range(10):
            windows = [
                w
                for w in QApplication.topLevelWidgets()
                if w.isVisible() and w is not self.main and w is not self.app.sign_in_window
            ]
            if not windows:
                return
            for window in windows:
                self.dialogs.append(type(window).__name__)
                if isinstance(window, ExportOptionsDialog):
                    path = self.exports / f"export-{len(self.exported)}.csv"
                    window.path_edit.setText(str(path))
                    window.accept()
                    self.exported.append(path)
                elif isinstance(window, QMenu):
                    window.hide()
                elif isinstance(window, QMessageBox | QDialog):
                    window.reject()
                else:
                    window.close()
            await asyncio.sleep(0.05)
            await wait_idle(self.app.runner, 30)

    def _new(self, obj: QObject) -> bool:
        key = id(obj)
        if key in self._done or not shiboken6.isValid(obj):
            return False
        self._done.add(key)
        return True

    async def panel(self, panel: QWidget) -> None:
        """Rows selected, combos changed, tabs visited, texts typed, buttons and actions
        pressed, until nothing new shows (details appear after a selection)."""
        for _ in range(3):
            before = len(self._done)
            for view in panel.findChildren(QAbstractItemView):
                model = view.model()
                if view.isVisible() and model is not None and model.rowCount() > 0:
                    view.setCurrentIndex(model.index(0, 0))
                    await self.settle()
            for tabs in panel.findChildren(QTabWidget):
                for i in range(tabs.count()):
                    tabs.setCurrentIndex(i)
                    self.tabs += 1
                    await self.settle()
            for combo in panel.findChildren(QComboBox):
                if not (combo.isVisible() and combo.isEnabled()) or not self._new(combo):
                    continue
                for i in [*range(1, combo.count()), 0]:
                    combo.setCurrentIndex(i)
                    combo.activated.emit(i)
                    await self.settle()
                self.combos += 1
            for edit in panel.findChildren(QLineEdit):
                if not shiboken6.isValid(edit) or not edit.isVisible() or edit.isReadOnly():
                    continue
                if not edit.isEnabled() or isinstance(edit.parent(), QComboBox):
                    continue
                if not self._new(edit):
                    continue
                edit.setText("a")
                edit.editingFinished.emit()
                edit.returnPressed.emit()
                await self.settle()
                edit.clear()
                edit.editingFinished.emit()
                await self.settle()
            for button in panel.findChildren(QAbstractButton):
                if not shiboken6.isValid(button) or not button.isVisible():
                    continue
                if not button.isEnabled() or not self._new(button):
                    continue
                operation = operation_of(button)
                assert operation is None or not is_mutating(operation), button.objectName()
                self.clicked.append(button.objectName() or button.text())
                button.click()
                await self.settle()
            for action in panel.findChildren(QAction):
                if action.isVisible() and action.isEnabled() and self._new(action):
                    operation = operation_of(action)
                    assert operation is None or not is_mutating(operation), action.text()
                    action.trigger()
                    self.clicked.append(action.text())
                    await self.settle()
            if len(self._done) == before:
                return


def mutating_controls(root: QWidget) -> list[QObject]:
    """Every control under ``root`` tagged with a mutating operation."""
    found: list[QObject] = []
    for control in [*root.findChildren(QWidget), *root.findChildren(QAction)]:
        operation = operation_of(control)
        if operation is not None and is_mutating(operation):
            found.append(control)
    return found


def visible(control: QObject) -> bool:
    if isinstance(control, QAction):
        return control.isVisible()
    return isinstance(control, QWidget) and control.isVisible()


def test_every_panel_and_control_of_kiosk_mode_sends_no_mutating_request(
    kiosk_program: Application,
    loop: qasync.QEventLoop,
    recorder: RecordingApp,
    tmp_path: Path,
) -> None:
    app = kiosk_program
    sign_in = app.sign_in_window
    assert sign_in is not None
    for name in PASSWORD_LINKS:  # password recovery and setup change a password: hidden
        link = sign_in.findChild(QAbstractButton, name)
        assert link is not None and not link.isVisible()
    assert not sign_in.close() and sign_in.isVisible()  # the kiosk sign-in cannot be closed
    workspace = run(loop, sign_in_auditor(app))
    main = workspace.window
    assert main.kiosk_banner.isVisible() and "READ-ONLY" in main.kiosk_banner.text()
    assert main.isFullScreen()
    walk = Walk(app, main, tmp_path)
    hidden: list[QObject] = []
    visited: list[str] = []

    async def every_panel() -> None:
        for spec in main.specs:
            panel = main.show_panel(spec.id)
            assert panel is not None, spec.id
            await asyncio.sleep(0.1)
            await quiet(app, timeout=30)
            await walk.panel(panel)
            visited.append(spec.id)
            hidden.extend(mutating_controls(panel))
            shown = [c.objectName() for c in mutating_controls(panel) if visible(c)]
            assert not shown, f"{spec.id}: mutating controls visible: {shown}"

    async def window_actions() -> None:
        skip = {main.logout_action, main.lock_action, main.quit_action}
        skip |= set(main.language_actions.values())
        for action in main.findChildren(QAction):
            if action in skip or not (action.isVisible() and action.isEnabled()):
                continue
            operation = operation_of(action)
            assert operation is None or not is_mutating(operation), action.text()
            action.trigger()
            walk.clicked.append(action.text())
            await walk.settle()
        for code, action in main.language_actions.items():  # every language, then English
            action.trigger()
            await walk.settle()
            walk.clicked.append(code)
        main.language_actions["en"].trigger()
        await walk.settle()

    async def lock_and_unlock_window() -> None:
        main.lock_action.trigger()
        assert main.locked
        main.lock_overlay.button.click()
        for _ in range(100):
            if workspace.reauth.window is not None:
                break
            await asyncio.sleep(0.01)
        again = workspace.reauth.window
        assert again is not None and again.isVisible()
        for name in PASSWORD_LINKS:
            link = again.findChild(QAbstractButton, name)
            assert link is not None and not link.isVisible()
        workspace.reauth.cancel()
        await asyncio.sleep(0.05)
        main.unlock()

    run(loop, every_panel(), timeout=600)
    run(loop, window_actions(), timeout=300)
    run(loop, lock_and_unlock_window())
    # no way out: Quit is gone, a close is refused, File holds Lock and Sign out only
    assert main.quit_action not in main.file_menu.actions()
    assert not main.quit_action.isVisible() and not main.quit_action.isEnabled()
    assert main.file_menu.actions() == [main.lock_action, main.logout_action]
    assert not main.close() and main.isVisible() and not app.quit_requested

    # the walk went everywhere and pressed a good number of controls
    assert set(visited) == {s.id for s in main.specs} and "portals" not in visited
    assert len(walk.clicked) > 40 and walk.combos >= 5, (walk.clicked, walk.combos)
    assert "ExportOptionsDialog" in walk.dialogs and walk.exported
    # the mutating controls exist, all hidden
    names = {c.objectName() for c in hidden}
    assert {"createInvitation", "cancelInvitation", "saveWhitelist", "generateCodes"} <= names

    # whatever the UI does, the read-only client refuses a mutating operation before sending
    client = workspace.service.client
    sent = len(recorder.requests)
    try:
        run(loop, client.invitations.create("someone@example.com"))
    except ReadOnlyError:
        pass
    else:
        raise AssertionError("the kiosk client sent a mutating operation")
    assert len(recorder.requests) == sent

    # an auditor keeps views of their own: on this machine, the server is not asked
    accounts = main.show_panel("accounts")
    views = accounts.view.views  # type: ignore[union-attr]
    assert views is not None and views.store.scope == "kiosk"
    assert accounts.view.views_button.isVisible()  # type: ignore[union-attr]
    assert views.save_as("Audit sample")
    assert "Audit sample" in views.names()
    assert len(recorder.requests) == sent

    # sign out: back to the kiosk sign-in, nobody's email shown
    main.logout_action.trigger()
    loop.run_until_complete(asyncio.gather(*app._tasks))
    assert app.workspace is None and app.sign_in_window is not None
    assert app.sign_in_window.credentials.email.text() == ""

    operations = recorder.operations()
    mutating = [(m, p) for m, p, op in operations if op is not None and op.mutating]
    assert not mutating, mutating
    unknown = [(m, p) for m, p, op in operations if op is None and not p.startswith("/sandbox/")]
    assert not unknown, unknown
    seen = {op.id for _m, _p, op in operations if op is not None}
    # every area the auditor may read was read, the chart's history included
    for expected in (
        "accounts.query",
        "accounts.get",
        "roles.list",
        "roles.get",
        "security.sessions",
        "security.login_history",
        "security.mfa_list",
        "security.ip_whitelist_get",
        "invitations.list",
        "invitations.own",
        "notifications.channels_query",
        "notifications.channel_types_query",
        "auth.profile",
        "auth.logout",
    ):
        assert expected in seen, (expected, sorted(seen))
    assert all(op_id in OPERATIONS for op_id in seen)
    # the exports carry the read-only marking in their last row, after an empty row
    written = [p for p in walk.exported if p.exists()]
    assert written
    for path in written:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
        assert lines[-2] == ""
        assert lines[-1].startswith('"READ-ONLY EXPORT \u2014 ')
        assert lines[-1].endswith(' \u2014 auditor@sandbox.test"')
