"""The running program: QApplication on a qasync loop, its services, and a clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Sequence
from pathlib import Path

import qasync
from PySide6.QtWidgets import QApplication, QWidget

from portal_admin import __version__

from .i18n import LanguageManager
from .log_setup import setup_logging
from .main_window import MainWindow
from .operations import OperationRunner
from .options import StartOptions
from .panels import PANELS, PanelContext, PanelRegistry
from .paths import APP_NAME
from .profiles import Profile, ProfileStore, sandbox_profile
from .screenshots import TourStep, run_tour
from .shutdown import ShutdownHooks
from .theme import ThemeManager

log = logging.getLogger(__name__)


class Application:
    """Holds the program's services; :meth:`main` runs it until the person quits."""

    def __init__(
        self,
        qapp: QApplication,
        options: StartOptions,
        *,
        store: ProfileStore | None = None,
        registry: PanelRegistry = PANELS,
    ) -> None:
        self.qapp = qapp
        self.options = options
        self.store = store or ProfileStore()
        self.registry = registry
        self.shutdown = ShutdownHooks()
        self.languages = LanguageManager(parent=qapp)
        self.theme = ThemeManager(qapp)
        self.runner = OperationRunner(parent=qapp)
        self.window: MainWindow | None = None
        self.profile: Profile = sandbox_profile()
        self._quit = asyncio.Event()

    def choose_profile(self) -> Profile:
        """--sandbox, else --profile NAME, else the last used, else the sandbox."""
        if self.options.sandbox:
            return sandbox_profile()
        profiles = self.store.load()
        wanted = self.options.profile or self.store.last_used
        for profile in profiles:
            if wanted and profile.name.casefold() == wanted.casefold():
                return profile
        if self.options.profile:
            log.warning("no profile called %r; using the sandbox", self.options.profile)
        return profiles[0]

    def start(self) -> MainWindow:
        """Pick the profile and language, and show the main window."""
        self.profile = self.choose_profile()
        if self.options.kiosk:
            self.profile = self.profile.replace(kiosk=True)
        self.languages.set_language(self.options.lang or self.profile.language)
        context = PanelContext(runner=self.runner, profile=self.profile)
        window = MainWindow(self.profile, self.runner, self.registry, context=context)
        window.closed.connect(self.request_quit)
        self.window = window
        window.show()
        return window

    def request_quit(self) -> None:
        """Ask the program to end (runs the shutdown hooks first)."""
        self._quit.set()

    async def main(self) -> int:
        """Run until quit; returns the exit status."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.request_quit)
        self.start()
        if self.options.tour is not None:
            await self.tour(self.options.tour)
            self.request_quit()
        await self._quit.wait()
        await self.close()
        return 0

    def tour_steps(self) -> list[TourStep]:
        """The stops of ``--tour``: the main window, each panel, the dialogs."""
        window = self.window
        assert window is not None

        async def main_window() -> QWidget:
            return window

        steps = [TourStep("main-window", main_window)]
        for spec in self.registry:

            async def panel(panel_id: str = spec.id) -> QWidget:
                window.show_panel(panel_id)
                return window

            steps.append(TourStep(spec.id, panel))

        async def editor() -> QWidget:
            from .profile_editor import ProfileEditor

            dialog = ProfileEditor(self.profile, parent=window)
            dialog.open()
            return dialog

        async def close_dialog(widget: QWidget) -> None:
            widget.close()
            widget.deleteLater()

        async def locked() -> QWidget:
            window.lock()
            return window

        async def unlock(_widget: QWidget) -> None:
            window.unlock()

        steps += [
            TourStep("profile-editor", editor, close_dialog),
            TourStep("locked", locked, unlock),
        ]
        return steps

    async def tour(self, directory: Path) -> list[Path]:
        """Save a screenshot of every tour step into ``directory``."""
        return await run_tour(self.tour_steps(), directory)

    async def close(self) -> None:
        """Cancel operations, run the shutdown hooks, close the windows."""
        await self.runner.cancel_all()
        await self.shutdown.run()
        if self.window is not None:
            self.window.closed.disconnect(self.request_quit)
            self.window.close()
            self.window.deleteLater()
            self.window = None


def create_qapp(argv: Sequence[str]) -> QApplication:
    """The QApplication, named so that settings and folders are found."""
    QApplication.setApplicationName(APP_NAME)
    QApplication.setApplicationDisplayName("System Portal Admin")
    QApplication.setApplicationVersion(__version__)
    QApplication.setOrganizationName("SystemPortal")
    existing = QApplication.instance()
    qapp = existing if isinstance(existing, QApplication) else QApplication(list(argv))
    qapp.setQuitOnLastWindowClosed(False)
    return qapp


def run(options: StartOptions, argv: Sequence[str]) -> int:
    """Start the program and block until it ends; returns the exit status."""
    setup_logging()
    log.info("portal-admin %s starting", __version__)
    qapp = create_qapp(argv)
    application = Application(qapp, options)
    try:
        status: int = qasync.run(application.main())
    except RuntimeError as exc:  # the Qt loop ended before main() did (session end)
        log.warning("event loop stopped early: %s", exc)
        status = 0
    log.info("portal-admin stopped (%d)", status)
    return status
