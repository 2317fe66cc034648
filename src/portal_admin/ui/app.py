"""The running program: QApplication on a qasync loop, sign-in, the main window, shutdown.

Start-up shows the sign-in window for the chosen profile, on Qt's own loop while asyncio and
qasync are imported in a worker thread (``ui/startup/loop_bridge.py``), then qasync takes the
loop over; on sign-in a :class:`Workspace` (the session, which builds and drives the main
window) takes over; logout goes back to the sign-in window. The API client is built on the
first sign-in attempt, so the first window needs neither httpx nor the sandbox. Once the loop
runs after the first paint, the log file is opened, the panels are registered and a worker
thread imports the client's modules (and the sandbox's, for the sandbox profile), so
that signing in does not wait for them (:meth:`Application.after_first_window`).

Kiosk mode (``--kiosk``, or forced by the machine's policy, ``kiosk/policy.py``): the profile
is pinned and built read-only, the sign-in window is full screen and cannot be closed, a
kiosk guard hides every mutating control of every window, and signing out (or the idle time
running out) goes back to the kiosk sign-in. See docs/kiosk.md.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from portal_admin import __version__
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.profiles.store import Profile, ProfileStore, sandbox_profile
from portal_admin.ui.startup.collector import keep_out_of_full_collections
from portal_admin.ui.startup.log_setup import EarlyLog, buffer_logging
from portal_admin.ui.startup.options import StartOptions
from portal_admin.ui.startup.qapp import create_qapp
from portal_admin.ui.startup.shutdown import ShutdownHooks
from portal_admin.ui.theme.tones import ThemeManager

from .operations import OperationRunner
from .session.client_service import ClientService
from .signin.flow import SignInFlow
from .signin.window import SignInWindow

if TYPE_CHECKING:
    import asyncio

    from portal_admin.ui.mainwindow.workspace import Workspace
    from portal_admin.ui.panels.registry import PanelRegistry
    from portal_admin.ui.profiles.actions import ProfileEditing

    from .kiosk.guard import CloseRefusal, KioskGuard
    from .kiosk.policy import KioskPolicy, KioskSettings

log = logging.getLogger(__name__)

#: Builds the ClientService for a profile and a UI language code.
ServiceFactory = Callable[[Profile, str | None], ClientService]
#: Accounts the tour's in-memory sandbox generates (small: the tour starts fast).
TOUR_SEED_ACCOUNTS = 40
#: What signing in imports (httpx, pydantic, the client); imported in a worker thread once
#: the first window is painted. The sandbox profile adds :data:`WARM_SANDBOX_MODULES`.
WARM_MODULES = ("portal_admin.client",)
#: The built-in sandbox (FastAPI, SQLite), for the sandbox profile.
WARM_SANDBOX_MODULES = ("portal_admin.sandbox",)
#: :meth:`Application.after_first_window` runs by then even if the window was not painted.
AFTER_FIRST_WINDOW_LATEST_MS = 3000


def warm_imports(modules: Sequence[str]) -> threading.Thread:
    """Import ``modules`` in a daemon worker thread and return it (started).

    Importing runs Python code, which gives the GIL up every few milliseconds, so the event
    loop keeps turning meanwhile; a module the UI thread imports at the same time is
    imported once (the import lock). Failures are logged, never raised: the module is then
    imported (and the error shown) where it is used.
    """

    def work() -> None:
        start = time.perf_counter()
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:
                log.warning("warming up %s failed", name, exc_info=True)
        log.info("modules for sign-in imported in %.0f ms", (time.perf_counter() - start) * 1000)

    thread = threading.Thread(target=work, name="portal-admin-warm-imports", daemon=True)
    thread.start()
    return thread


def default_service(profile: Profile, language: str | None) -> ClientService:
    """The program's service: the network, or the sandbox kept in the user's data folder."""
    return ClientService(profile, language=language)


def tour_service(profile: Profile, language: str | None) -> ClientService:
    """A fresh in-memory sandbox with a small seed and tokens kept in memory only."""
    from portal_admin.client import MemoryTokenStore
    from portal_admin.connection import builtin

    app = builtin.create_sandbox_app(builtin.MEMORY, seed_accounts=TOUR_SEED_ACCOUNTS)
    service = ClientService(
        profile,
        language=language,
        transport_factory=lambda _p: builtin.transport_for_app(app),
        token_store=MemoryTokenStore(),
    )
    # The kiosk tour's snapshot diff shows a change "another administrator" made meanwhile.
    service.tour_change = lambda: builtin.colleague_change(app)
    # Its journal's checkpoints and its packs are signed by a key of its own, in memory:
    # nothing the tour does reaches the person's keyring.
    from portal_admin.evidence import keys, recorder

    store = keys.MemoryStore()
    recorder.SIGNER = lambda: keys.signing_key(store)
    service.tour_key_store = store
    return service


def tour_folder() -> Path:
    """A new temporary folder standing in for the person's config and data folders (the
    tour's snapshots, journal and jobs go there, not into the person's own lists)."""
    import tempfile

    from portal_admin.files import paths

    folder = Path(tempfile.mkdtemp(prefix="portal-admin-tour-"))
    paths.use_stand_in(folder)
    return folder


class Application:
    """Holds the program's services; :meth:`main` runs it until the person quits."""

    def __init__(
        self,
        qapp: QApplication,
        options: StartOptions,
        *,
        store: ProfileStore | None = None,
        registry: PanelRegistry | None = None,
        service_factory: ServiceFactory | None = None,
        early_log: EarlyLog | None = None,
    ) -> None:
        self.qapp = qapp
        self.options = options
        #: ``--tour``: the folder standing in for the person's config and data folders while
        #: the tour runs (its journal, snapshots, jobs...), removed when the program ends.
        self.tour_folder = tour_folder() if options.tour is not None else None
        self.store = store or ProfileStore()
        self._registry = registry
        #: The start-up's log records, handed to the log file after the first window shows.
        self.early_log = early_log
        #: The worker thread importing what sign-in needs (see :meth:`after_first_window`).
        self.warm_thread: threading.Thread | None = None
        self.shutdown = ShutdownHooks()
        self.languages = LanguageManager(parent=qapp)
        self.theme = ThemeManager(qapp)
        self.runner = OperationRunner(parent=qapp)
        default = tour_service if options.tour is not None else default_service
        self._service_factory = service_factory or default
        self.service: ClientService | None = None
        self.sign_in_window: SignInWindow | None = None
        #: Campaign files opened from the sign-in window, without a session.
        self.offline_reviews: list[Any] = []
        self.workspace: Workspace | None = None
        self.resume_offer: Any = None
        self.profile: Profile = sandbox_profile()
        #: Kiosk mode's settings and guards (None outside kiosk mode), set by :meth:`start`.
        self.kiosk: KioskSettings | None = None
        self.guard: KioskGuard | None = None
        self.close_refusal: CloseRefusal | None = None
        #: Set by :meth:`request_quit`; the event :meth:`main` waits on is made by main().
        self.quit_requested = False
        self._quit: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def registry(self) -> PanelRegistry:
        """The main window's panels: the one given, else the program's (every area's panels,
        registered on first use)."""
        if self._registry is None:
            from portal_admin.ui.panels import register_all
            from portal_admin.ui.panels.registry import PANELS

            self._registry = register_all(PANELS)
        return self._registry

    # -- start-up ------------------------------------------------------------------------------

    def choose_profile(self) -> Profile:
        """The policy's pinned profile; else --sandbox or --tour, else --profile NAME, else the
        last used, else the sandbox."""
        if self.options.policy is not None:
            return self.pinned_profile(self.options.policy)
        if self.options.sandbox or self.options.tour is not None:
            return sandbox_profile()
        profiles = self.store.load()
        wanted = self.options.profile or self.store.last_used
        for profile in profiles:
            if wanted and profile.name.casefold() == wanted.casefold():
                return profile
        if self.options.profile:
            log.warning("no profile called %r; using the sandbox", self.options.profile)
        return profiles[0]

    def pinned_profile(self, policy: KioskPolicy) -> Profile:
        """The profile the policy pins (inline, the sandbox, or a stored one by name)."""
        from .kiosk.policy import PolicyError

        if policy.profile_inline is not None:
            try:
                return Profile.from_json(dict(policy.profile_inline))
            except (TypeError, ValueError) as exc:
                raise PolicyError(f"{policy.source}: the inline profile: {exc}") from exc
        if policy.pins_sandbox:
            return sandbox_profile()
        found = self.store.find(policy.profile_name or "")
        if found is None:
            raise PolicyError(f"{policy.source}: no profile called {policy.profile_name!r}")
        return found

    def start(self) -> SignInWindow:
        """Pick the profile and language, build the service, show the sign-in window."""
        profile = self.choose_profile()
        if self.options.kiosk:
            from .kiosk.guard import CloseRefusal, KioskGuard
            from .kiosk.startup import kiosk_settings

            profile = profile.replace(kiosk=True)
            self.kiosk = kiosk_settings(self.options, profile.idle_lock_minutes)
            assert self.kiosk is not None
            self.guard = KioskGuard(csv_export=self.kiosk.csv_export, parent=self.qapp)
            self.guard.install()
            self.close_refusal = CloseRefusal(parent=self.qapp)
            from .kiosk.marking import ReadOnlyMarking, set_current

            set_current(ReadOnlyMarking("", csv_export=self.kiosk.csv_export))
            log.info("kiosk mode: profile %r pinned, read-only", profile.name)
        self.profile = profile
        language = self.languages.set_language(self.options.lang or profile.language)
        if self.kiosk is not None and not self.kiosk.allows_language(language.code):
            language = self.languages.set_language(self.kiosk.languages[0])
        self.service = self._service_factory(profile, language.code)
        self.shutdown.register(self.service.close, "close the API client")
        return self.show_sign_in()

    def start_or_refuse(self) -> SignInWindow | None:
        """:meth:`start`, or None (logged) when the kiosk policy's pinned profile cannot be
        used: the program then fails closed."""
        from .kiosk.policy import PolicyError

        try:
            return self.start()
        except PolicyError as exc:
            log.error("kiosk policy unusable, not starting: %s", exc)
            return None

    def _sign_in_profiles(self) -> list[Profile]:
        if self.options.kiosk or self.options.tour is not None:
            return [self.profile]
        profiles = self.store.load()
        if self.profile not in profiles:
            profiles.insert(0, self.profile)
        return profiles

    def edit_profile(self, window: SignInWindow, profile: Profile | None) -> ProfileEditing:
        """Open the profile editor over the sign-in window (``profile`` None: a new one); a
        saved profile or an import is written to the profile file and offered at once."""
        from portal_admin.ui.profiles.actions import ProfileEditing

        def chosen(current: Profile) -> None:
            self.profile = current

        editing = ProfileEditing(self.store, window, profile, chosen)
        editing.open()
        return editing

    def show_sign_in(self, email: str = "") -> SignInWindow:
        """Show a fresh sign-in window (at start and after logout)."""
        assert self.service is not None
        flow = SignInFlow(self.service)
        window = SignInWindow(flow, self._sign_in_profiles(), runner=self.runner)
        flow.setParent(window)
        if email:
            window.credentials.email.setText(email)
        window.signedIn.connect(self._signed_in)
        window.closed.connect(self.request_quit)
        # The kiosk offers its pinned profile only, without an editor.
        window.allow_profile_editing(self.kiosk is None)
        window.profileEditRequested.connect(lambda p: self.edit_profile(window, p))
        window.campaignReviewRequested.connect(self.review_offline)
        self.sign_in_window = window
        if self.close_refusal is not None:  # kiosk: full screen, no way to close it
            self.close_refusal.watch(window)
            window.credentials.use_admin_button.hide()
            if self.options.tour is None:
                window.showFullScreen()
            else:  # comparable pictures: a fixed size
                window.resize(1280, 800)
                window.show()
        else:
            window.show()
        window.raise_()
        return window

    def review_offline(self) -> Any:
        """Open a campaign file in a window of its own, without signing in (the kiosk's
        panel in the kiosk: no remediation)."""
        from .panels.reviews.offline import OfflineReviewWindow

        assert self.service is not None
        window = OfflineReviewWindow(
            self.runner, self.service.profile, kiosk=self.kiosk is not None
        )
        self.offline_reviews.append(window)
        window.ask_for_file()
        return window

    def _close_sign_in(self, window: SignInWindow) -> None:
        if self.close_refusal is not None:
            self.close_refusal.release(window)
        window.closed.disconnect(self.request_quit)
        window.close()
        window.deleteLater()

    def _signed_in(self, email: str) -> None:
        window, self.sign_in_window = self.sign_in_window, None
        if window is not None:
            self._close_sign_in(window)
        log.info("signed in; opening the main window")
        self._remember_profile()
        self.open_workspace()

    def _remember_profile(self) -> None:
        if self.service is None or self.options.tour is not None or self.kiosk is not None:
            return
        self.profile = self.service.profile
        try:
            self.store.save(self.store.load(), last_used=self.profile.name)
        except OSError as exc:
            log.warning("could not remember the last profile: %s", exc)

    def open_workspace(self) -> Workspace:
        """The session for the signed-in service: its :class:`Workspace`, which shows the main
        window."""
        from portal_admin.ui.mainwindow.workspace import (
            Workspace,  # the main window's modules: not needed before
        )

        assert self.service is not None
        workspace = Workspace(
            self.service,
            self.runner,
            self.registry,
            tour=self.options.tour is not None,
            kiosk=self.kiosk,
            guard=self.guard,
        )
        workspace.logoutRequested.connect(lambda: self.spawn(self.logout()))
        workspace.languageRequested.connect(self.set_language)
        workspace.closed.connect(self.request_quit)
        workspace.window.set_language_checked(self.languages.language.code)
        self.workspace = workspace
        workspace.show()
        if self.options.tour is None:
            self.spawn(workspace.tell_key_place())
        if self.options.tour is None and self.kiosk is None:
            from .bulk.resume_offer import offer_resume

            self.resume_offer = offer_resume(workspace.window, str(self.service.client.base_url))
        # Everything alive now (modules, Qt wrappers, this window) lives as long as the
        # program: keep it out of the collector's full passes (ui/startup/collector.py).
        keep_out_of_full_collections()
        return workspace

    # -- while running -------------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, object]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task, keeping a strong reference; failures are logged."""
        import asyncio

        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a background task failed", exc_info=task.exception())

    async def logout(self) -> SignInWindow | None:
        """End the server session and go back to the sign-in window."""
        workspace, self.workspace = self.workspace, None
        if workspace is None or self.service is None:
            return None
        email = workspace.email
        await self.runner.cancel_all()
        try:
            await self.service.logout()
        except Exception as exc:  # the server may be gone: drop the client (and its tokens)
            log.warning("logout failed (%s); closing the client", type(exc).__name__)
            await self.service.close()
        workspace.close()
        workspace.deleteLater()
        log.info("logged out")
        # kiosk: the next person at the workstation does not see who was signed in
        return self.show_sign_in("" if self.kiosk is not None else email)

    def set_language(self, code: str | None) -> None:
        """Switch the UI language at run time; the server is asked in it from now on too."""
        if self.kiosk is not None and not self.kiosk.allows_language(code or ""):
            log.warning("kiosk policy: language %s is not offered; ignored", code)
            return
        language = self.languages.set_language(code)
        if self.service is not None:
            self.service.set_language(language.code)
        if self.workspace is not None:
            self.workspace.language_changed(language.code)
        log.info("language switched to %s", language.code)

    def request_quit(self) -> None:
        """Ask the program to end (runs the shutdown hooks first)."""
        self.quit_requested = True
        if self._quit is not None:
            self._quit.set()

    async def main(self) -> int:
        """Run until quit; returns the exit status. Shows the sign-in window unless
        :meth:`start` already did (the program shows it before the asyncio loop runs)."""
        import asyncio

        from portal_admin.ui.startup import loop_bridge

        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.request_quit)
        self._quit = asyncio.Event()
        if self.quit_requested:  # the window was closed before the loop ran
            self._quit.set()
        window = self.sign_in_window
        if window is None and self.workspace is None:
            window = self.start_or_refuse()
            if window is None:
                await self.close()
                return 2
        loop_bridge.loop_started()  # what was clicked before the loop ran, runs now
        if window is not None and window.painted:
            QTimer.singleShot(0, self.after_first_window)
        elif window is not None:
            window.firstPainted.connect(lambda: QTimer.singleShot(0, self.after_first_window))
        # A window that is not painted soon (started minimised, say) does not hold it back.
        QTimer.singleShot(AFTER_FIRST_WINDOW_LATEST_MS, self.after_first_window)
        status = 0
        if self.options.tour is not None:
            from portal_admin.ui.tour.runner import run_program_tour

            try:
                await run_program_tour(self, self.options.tour)
            except Exception:
                log.exception("the tour failed")
                status = 1
            self.request_quit()
        await self._quit.wait()
        await self.close()
        if self.tour_folder is not None:  # the tour leaves nothing behind
            import shutil

            from portal_admin.files import paths

            paths.use_stand_in(None)
            shutil.rmtree(self.tour_folder, ignore_errors=True)
            self.tour_folder = None
        return status

    def after_first_window(self) -> None:
        """Start-up work the first window does not wait for, run on the loop turn after it is
        painted: open the log file (with the records kept so far), register the panels, and
        import what signing in needs in a worker thread. Runs once."""
        if self.warm_thread is not None:
            return
        if self.early_log is not None:
            self.early_log.hand_over()
        _ = self.registry
        modules = WARM_MODULES + (WARM_SANDBOX_MODULES if self.profile.is_sandbox else ())
        self.warm_thread = warm_imports(modules)

    async def close(self) -> None:
        """Cancel operations, close the windows, run the shutdown hooks (closing the client)."""
        await self.runner.cancel_all()
        for task in list(self._tasks):
            task.cancel()
        if self.workspace is not None:
            self.workspace.close()
            self.workspace = None
        if self.sign_in_window is not None:
            self._close_sign_in(self.sign_in_window)
            self.sign_in_window = None
        if self.guard is not None:
            from .kiosk.marking import set_current

            self.guard.remove()
            set_current(None)
        await self.shutdown.run()


def run(options: StartOptions, argv: Sequence[str]) -> int:
    """Start the program and block until it ends; returns the exit status."""
    early_log = buffer_logging()  # the log file is opened once the first window shows
    try:
        return _run(options, argv, early_log)
    finally:
        early_log.hand_over()  # the window never showed: the records still reach the file


def _run(options: StartOptions, argv: Sequence[str], early_log: EarlyLog) -> int:
    log.info("portal-admin %s starting", __version__)
    from .kiosk.policy import PolicyError, load_policy
    from .kiosk.startup import apply_policy

    try:
        options = apply_policy(options, load_policy())
    except PolicyError as exc:  # fail closed: a damaged policy never means "no policy"
        log.error("kiosk policy unusable, not starting: %s", exc)
        print(f"portal-admin: kiosk policy unusable, not starting: {exc}", file=sys.stderr)
        return 2
    qapp = create_qapp(argv)
    application = Application(qapp, options, early_log=early_log)
    # SIGTERM or Ctrl+C before the asyncio loop takes over (main() installs its own handlers)
    # ends the program through its shutdown hooks, not with the default exit 143.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda _sig, _frame: application.request_quit())
    window = application.start_or_refuse()
    if window is None:
        return 2
    # The window is up on Qt's own loop while asyncio and qasync are imported (ui/loop_bridge).
    from portal_admin.ui.startup.loop_bridge import show_first

    took = show_first(window)
    log.info("event-loop modules imported in %.0f ms", took * 1000)
    import qasync

    try:
        status: int = qasync.run(application.main())
    except RuntimeError as exc:  # the Qt loop ended before main() did (session end)
        log.warning("event loop stopped early: %s", exc)
        status = 0
    log.info("portal-admin stopped (%d)", status)
    return status
