"""``--tour DIR``: sign in to the in-memory sandbox through the real sign-in window, visit the
main window, every registered panel and the dialogs, and save a PNG of each.

Panels join in through the conventions documented in :mod:`portal_admin.ui.panels.registry`
(``tour_ready`` and ``tour_steps``). A panel that fails is logged and the tour goes on.

In kiosk mode (``--sandbox --kiosk --tour DIR``) the demo auditor signs in, the steps kiosk
mode forbids (change password, profile editor, the panels' own ``tour_steps``) are left out,
and kiosk pictures are added: ``kiosk-banner.png``, ``kiosk-file-menu.png`` and
``kiosk-signed-out.png`` (the kiosk sign-in after the idle time signed the auditor out).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtWidgets import QMenu, QWidget

from portal_admin.ui.panels.registry import panel_ready, panel_tour_steps, wait_idle

from .screenshots import TourStep, save_screenshot, settle

if TYPE_CHECKING:
    from portal_admin.ui.mainwindow.workspace import Workspace
    from portal_admin.ui.operations import OperationRunner


class Application(Protocol):
    """What the tour uses of the running program (``ui.app.Application``)."""

    kiosk: Any
    runner: OperationRunner
    service: Any
    sign_in_window: Any
    workspace: Workspace | None


log = logging.getLogger(__name__)

#: An account id the sandbox does not know: its 404 is the tour's real error.
UNKNOWN_ACCOUNT = "ACC0000000000000000"
#: The sandbox's demo auditor (read permissions only), who signs in for the kiosk tour.
DEMO_AUDITOR = ("auditor@sandbox.test", "Sandbox-Audit-2026!")


#: Set to a folder, the tour pauses at each stop for an outside checker (the AT-SPI walk of
#: ``tests/accessibility``): it writes ``stop-N.json`` (``{"n": N, "name": ...}``) there, keeps
#: the event loop turning (so the checker's questions are answered) until ``done-N`` appears,
#: and writes ``end.json`` (``{"stops": N, "problems": [...]}``) when the tour is over.
PAUSE_ENV = "PORTAL_ADMIN_TOUR_PAUSE"
#: How long one stop waits for the checker before the tour goes on (noted as a problem).
PAUSE_TIMEOUT = 120.0


class TourError(RuntimeError):
    """A step the tour cannot do without (sign-in, the main window)."""


class Tour:
    """Saves ``<name>.png`` files into one folder and remembers what went wrong."""

    def __init__(self, directory: Path, pause: Path | None = None) -> None:
        self.directory = directory
        self.saved: list[Path] = []
        self.problems: list[str] = []
        #: The folder of the stop-by-stop handshake (see :data:`PAUSE_ENV`); None: no pauses.
        self.pause = pause
        self.stops = 0

    async def shot(
        self,
        widget: QWidget,
        name: str,
        delay: float = 0.1,
        area: QRect | None = None,
        popups: tuple[QWidget, ...] = (),
    ) -> Path:
        """Let ``widget`` settle and save it (or its ``area``, with open ``popups`` over it) as
        ``<name>.png``."""
        await settle(delay)
        path = save_screenshot(widget, self.directory / f"{name}.png", area, popups)
        self.saved.append(path)
        log.info("tour: saved %s", path.name)
        await self.checkpoint(name)
        return path

    async def checkpoint(self, name: str) -> None:
        """With :attr:`pause` set, let the outside checker look at this stop (see
        :data:`PAUSE_ENV`); the loop keeps turning while it does."""
        if self.pause is None:
            return
        self.stops += 1
        write_atomically(self.pause / f"stop-{self.stops}.json", {"n": self.stops, "name": name})
        done = self.pause / f"done-{self.stops}"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PAUSE_TIMEOUT
        while not done.exists():
            if loop.time() > deadline:
                self.problem(f"stop {name}: the checker did not answer in time")
                return
            await asyncio.sleep(0.02)

    def finish(self) -> None:
        """Tell the outside checker, if any, that the tour is over."""
        if self.pause is not None:
            write_atomically(
                self.pause / "end.json", {"stops": self.stops, "problems": self.problems}
            )

    def problem(self, text: str) -> None:
        """Note a problem (logged; the tour goes on)."""
        self.problems.append(text)
        log.warning("tour: %s", text)

    async def step(self, step: TourStep) -> None:
        """One generic step: prepare, photograph, clean up; failures are noted."""
        try:
            widget = await step.prepare()
            await self.shot(widget, step.name, 0.2)
            if step.cleanup is not None:
                await step.cleanup(widget)
        except Exception as exc:
            log.exception("tour step %s failed", step.name)
            self.problem(f"step {step.name} failed: {type(exc).__name__}: {exc}")


def write_atomically(path: Path, data: object) -> None:
    """Write ``data`` as JSON so that a reader never sees half of it."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(data), encoding="utf-8")
    partial.replace(path)


async def sign_in(app: Application, tour: Tour) -> Workspace:
    """The demo administrator (the auditor in kiosk mode) signs in with an email code, through
    the real window."""
    window = app.sign_in_window
    if window is None:
        raise TourError("no sign-in window")
    if app.kiosk is not None:
        window.credentials.email.setText(DEMO_AUDITOR[0])
        window.credentials.password.setText(DEMO_AUDITOR[1])
        window.credentials.sign_in_button.setFocus()
    else:
        window.fill_demo_admin()
    await tour.shot(window, "sign-in")
    if not await window.submit_credentials():
        raise TourError(f"{window.credentials.email.text()} could not sign in")
    if not await window.send_code():
        raise TourError("the sandbox did not send a code")
    await tour.shot(window, "sign-in-mfa")
    mailbox = await window.open_mailbox()
    item = mailbox.selected() if mailbox is not None else None
    if mailbox is None or item is None or not item.code:
        raise TourError("no code in the demo mailbox")
    await tour.shot(mailbox, "demo-mailbox")
    mailbox.close()
    window.mfa.code.setText(item.code)
    if not await window.submit_code() or app.workspace is None:
        raise TourError("the code was not accepted")
    return app.workspace


async def quiet(app: Application, timeout: float = 20.0, calm: float = 0.3) -> None:
    """Wait until no operation runs and no request is in flight for ``calm`` seconds."""
    service = app.service
    async with asyncio.timeout(timeout):
        still = 0.0
        while still < calm:
            await wait_idle(app.runner, timeout)
            await asyncio.sleep(0.05)
            busy = app.runner.busy or bool(app.runner.tasks) or (service and service.busy)
            still = 0.0 if busy else still + 0.05


async def visit_panels(app: Application, workspace: Workspace, tour: Tour) -> None:
    """Every registered panel, once its data is shown; then the panel's own dialogs."""
    main = workspace.window
    for spec in main.specs:
        panel = main.show_panel(spec.id)
        if panel is None:
            tour.problem(f"panel {spec.id} could not be built")
        else:
            try:
                await panel_ready(panel, app.runner)
                await quiet(app)  # panels that fetch outside the runner
            except TimeoutError:
                tour.problem(f"panel {spec.id} was not ready in time")
            except Exception as exc:
                tour.problem(f"panel {spec.id}: tour_ready failed: {type(exc).__name__}: {exc}")
        await tour.shot(main, spec.id, 0.3)
        if panel is not None:
            try:
                steps = await panel_tour_steps(panel, kiosk=app.kiosk is not None)
            except Exception as exc:
                tour.problem(f"panel {spec.id}: tour_steps failed: {type(exc).__name__}: {exc}")
                steps = []
            for step in steps:
                await tour.step(step)
                await wait_idle(app.runner)


async def visit_dialogs(app: Application, workspace: Workspace, tour: Tour) -> None:
    """The dialogs every session has: password, profile, About, an error, the panels' form
    dialogs (``tour/dialogs.py``), the lock."""
    main = workspace.window

    async def change_password() -> QWidget:
        return workspace.open_change_password()

    async def profile_editor() -> QWidget:
        from portal_admin.ui.profiles.editor import ProfileEditor

        editor = ProfileEditor(workspace.service.profile, parent=main)
        editor.open()
        return editor

    async def test_connection() -> QWidget:
        from portal_admin.ui.doctor.dialog import DoctorDialog

        dialog = DoctorDialog(workspace.service.profile, main)
        dialog.open()
        await dialog.service.wait()
        return dialog

    async def about() -> QWidget:
        return workspace.open_about()

    async def error_dialog() -> QWidget:
        from portal_admin.ui.error_info import describe_error
        from portal_admin.ui.widgets.error_dialog import show_error

        try:
            await workspace.service.client.accounts.get(UNKNOWN_ACCOUNT)
        except Exception as exc:
            app.runner.note_request_id(getattr(exc, "request_id", None))
            return show_error(describe_error(exc), "", main)
        raise TourError(f"the sandbox found account {UNKNOWN_ACCOUNT}")

    async def locked() -> QWidget:
        main.lock()
        return main

    async def close(widget: QWidget) -> None:
        widget.close()
        widget.deleteLater()

    async def unlock(_widget: QWidget) -> None:
        main.unlock()

    steps = [
        TourStep("change-password", change_password, close),
        TourStep("profile-editor", profile_editor, close),
        TourStep("test-connection", test_connection, close),
        TourStep("about", about, close),
        TourStep("error-dialog", error_dialog, close),
        TourStep("locked", locked, unlock),
    ]
    if app.kiosk is not None:  # kiosk mode offers none of these
        hidden = {"change-password", "profile-editor", "test-connection"}
        steps = [s for s in steps if s.name not in hidden]
    from portal_admin.ui.tour.dialogs import dialog_steps

    steps[-1:-1] = dialog_steps(workspace, kiosk=app.kiosk is not None)  # before the lock
    for step in steps:
        await tour.step(step)
    await unlock_window(workspace, tour)


#: The window sizes the workspace is pictured at.
SIZES = ((1024, 700), (1366, 768), (1920, 1080))


async def visit_workspace_tools(app: Application, workspace: Workspace, tour: Tour) -> None:
    """At each of ``SIZES``: the accounts panel with an account chosen (the detail beside or
    below the list), the list's context menu, and the command palette finding an account."""
    main = workspace.window
    panel = main.show_panel("accounts")
    view = getattr(panel, "view", None)
    if panel is None or view is None:
        tour.problem("no accounts panel to picture the workspace with")
        return
    size = main.size()
    for width, height in SIZES:
        main.resize(width, height)
        await quiet(app)
        view.table.selectRow(0)
        await quiet(app)
        await tour.shot(main, f"layout-{width}x{height}", 0.3)
        await picture_saved_view(app, panel, view, tour, f"{width}x{height}")

        shown: QMenu = view.context_menu()
        shown.popup(
            view.table.viewport().mapToGlobal(
                view.table.visualRect(view.model.index(0, 0)).center()
            )
        )
        await tour.shot(main, f"list-menu-{width}x{height}", 0.2, popups=(shown,))
        shown.hide()

        opened = main.open_palette()
        opened.search.setText("admin@")
        for _ in range(100):
            if any(e.kind == "account" for e in opened.shown):
                break
            await asyncio.sleep(0.02)
        try:
            await tour.shot(main, f"palette-{width}x{height}", 0.2, popups=(opened,))
        finally:
            opened.reject()
    main.resize(size)
    await quiet(app)


async def picture_saved_view(
    app: Application, panel: Any, view: Any, tour: Tour, size: str
) -> None:
    """The accounts list filtered to suspended accounts, kept as a saved view, with the Views
    menu open; then the list's default view again."""
    keeper = view.views
    if keeper is None:
        tour.problem("the accounts list keeps no views")
        return
    panel.filters.status.set_code("SUSPENDED")
    keeper.save_as(QCoreApplication.translate("Tour", "Suspended accounts"))
    await quiet(app)
    shown: QMenu = view.show_views_menu()
    try:
        await tour.shot(panel.window(), f"saved-view-{size}", 0.3, popups=(shown,))
    finally:
        shown.hide()
        keeper.reset()
        await quiet(app)


async def visit_menus(workspace: Workspace, tour: Tour) -> None:
    """The menu bar's menus, each opened below its title (``menu-file``, ``menu-view``,
    ``menu-help``)."""
    main = workspace.window
    bar = main.menuBar()
    for name, menu in (
        ("file", main.file_menu),
        ("view", main.view_menu),
        ("help", main.help_menu),
    ):

        async def opened(menu: QMenu = menu) -> QWidget:
            where = bar.actionGeometry(menu.menuAction()).bottomLeft()
            menu.popup(bar.mapToGlobal(where))
            return menu

        async def hide(widget: QWidget) -> None:
            widget.hide()

        await tour.step(TourStep(f"menu-{name}", opened, hide))


async def unlock_window(workspace: Workspace, tour: Tour) -> None:
    """The sign-in window the lock opens (then abandoned: the tour unlocks directly)."""
    main = workspace.window
    main.lock()
    task = asyncio.ensure_future(main.try_unlock())
    try:
        for _ in range(50):
            if workspace.reauth.window is not None:
                break
            await asyncio.sleep(0.02)
        if workspace.reauth.window is None:
            tour.problem("the unlock sign-in window did not open")
        else:
            await tour.shot(workspace.reauth.window, "unlock-sign-in")
    finally:
        workspace.reauth.cancel()
        await task
        main.unlock()


async def visit_kiosk(app: Application, workspace: Workspace, tour: Tour) -> None:
    """Kiosk pictures: the read-only banner, the reduced File menu."""
    main = workspace.window
    main.show_panel(main.specs[0].id)
    await quiet(app)
    top = main.header.geometry().bottom() + 1
    await tour.shot(main, "kiosk-banner", 0.2, QRect(0, 0, main.width(), top + 40))

    async def file_menu() -> QWidget:
        menu = main.file_menu
        menu.popup(main.mapToGlobal(main.menuBar().geometry().bottomLeft()))
        return menu

    async def close_menu(widget: QWidget) -> None:
        widget.hide()

    await tour.step(TourStep("kiosk-file-menu", file_menu, close_menu))


async def kiosk_idle_sign_out(app: Application, workspace: Workspace, tour: Tour) -> None:
    """The idle time runs out: the auditor is signed out, the kiosk sign-in is back."""
    workspace.window.idle.set_interval_ms(200)
    for _ in range(250):
        if app.sign_in_window is not None and app.workspace is None:
            break
        await asyncio.sleep(0.02)
    window = app.sign_in_window
    if window is None:
        tour.problem("the idle time did not sign the auditor out")
        return
    await quiet(app)
    await tour.shot(window, "kiosk-signed-out", 0.3)


async def run_program_tour(app: Application, directory: Path) -> list[Path]:
    """The whole tour; returns the PNGs saved. Raises TourError when sign-in fails."""
    directory.mkdir(parents=True, exist_ok=True)
    pause = os.environ.get(PAUSE_ENV)
    tour = Tour(directory, Path(pause) if pause else None)
    try:
        return await tour_all(app, tour)
    finally:
        tour.finish()


async def tour_all(app: Application, tour: Tour) -> list[Path]:
    """The stops of :func:`run_program_tour`, in order."""
    await settle(0.2)
    workspace = await sign_in(app, tour)
    await quiet(app)
    await tour.shot(workspace.window, "main-window", 0.3)
    if app.kiosk is not None:
        await visit_kiosk(app, workspace, tour)
    await visit_panels(app, workspace, tour)
    await visit_workspace_tools(app, workspace, tour)
    await visit_menus(workspace, tour)
    await visit_dialogs(app, workspace, tour)
    if app.kiosk is None:  # the kiosk offers no revert
        from .revert_stop import visit_revert

        await visit_revert(workspace, tour, lambda: quiet(app))
    if app.kiosk is not None:
        await kiosk_idle_sign_out(app, workspace, tour)
    log.info("tour: %d pictures, %d problems", len(tour.saved), len(tour.problems))
    for problem in tour.problems:
        log.warning("tour problem: %s", problem)
    return tour.saved
