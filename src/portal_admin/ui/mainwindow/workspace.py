"""The signed-in session: the main window (:mod:`.window`) wired to the ClientService.

A :class:`Workspace` lives from sign-in to logout: it builds the panels' context, connects the
status bar to the service, shows the live profile in the header, opens the change-password and
About dialogs, asks for confirmation on production, and unlocks the idle lock by signing in
again (the window and its panels are kept).

In kiosk mode (``kiosk`` settings) the window is full screen, offers no password change, signs
out when idle, and marks what leaves the program (``kiosk.marking``) with the account.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QWidget

from portal_admin.evidence import keys
from portal_admin.files.paths import config_dir, stand_in
from portal_admin.files.saved_views import KIOSK_SCOPE, VIEWS_FILE, ViewStore, profile_scope
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.mainwindow.status_bar import ChannelState, ConnectionState
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.operations import Op, OperationRunner
from portal_admin.ui.panels.registry import (
    RENAMED_PANELS,
    LiveProfile,
    PanelContext,
    PanelExtras,
    PanelRegistry,
)
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.signin.change_password import ChangePasswordDialog, PasswordChangeFlow
from portal_admin.ui.widgets.confirm import confirm_production_change

from . import key_notice
from .about import AboutDialog
from .unlock import Reauthenticator

if TYPE_CHECKING:
    from portal_admin.ui.kiosk.guard import KioskGuard
    from portal_admin.ui.kiosk.policy import KioskSettings
    from portal_admin.ui.panels.constants_cache import ConstantsCache

log = logging.getLogger(__name__)

#: Sign-outs the person asked for (anything else, such as a refused refresh, locks the window).
_VOLUNTARY = frozenset({"logout", "closed"})
#: Error codes of the client meaning the server could not be reached.
_NETWORK_CODES = frozenset({"CLIENT.CONNECTION", "CLIENT.TIMEOUT"})


def make_constants_cache(service: ClientService) -> ConstantsCache:
    """The session's constants cache (imported when a session starts: it reads the client's
    records)."""
    from portal_admin.ui.panels.constants_cache import ConstantsCache

    return ConstantsCache(lambda: service.client, service.accept_language)


class Workspace(QObject):
    """One signed-in session: it builds the main window and wires everything to it."""

    logoutRequested = Signal()
    languageRequested = Signal(str)
    #: The main window was closed (the program quits).
    closed = Signal()

    def __init__(
        self,
        service: ClientService,
        runner: OperationRunner,
        registry: PanelRegistry,
        *,
        tour: bool = False,
        kiosk: KioskSettings | None = None,
        guard: KioskGuard | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.runner = runner
        self.kiosk = kiosk
        self.tour = tour
        self.email = service.email or ""
        self.constants = make_constants_cache(service)
        #: The live profile, fetched once for the header and the panels' permissions.
        self.live_profile = LiveProfile(lambda: service.client.auth.profile())
        extras: PanelExtras = {
            "service": service,
            "live_profile": self.live_profile,
            "confirm_change": self.confirm_change,
            "tour": tour,
            "kiosk": kiosk is not None,
            "constants": self.constants,
        }
        if tour and service.tour_change is not None:
            extras["tour_change"] = service.tour_change
        if tour and service.tour_key_store is not None:  # never the person's keyring
            extras["evidence_key_store"] = service.tour_key_store
        if kiosk is None:  # a kiosk session changes nothing, its password neither
            extras["change_password"] = self.open_change_password
        extras["saved_views"] = saved_views_store(
            service.profile.name, kiosk=kiosk is not None, tour=tour
        )
        self.context = PanelContext(
            runner=runner, profile=service.profile, client=service.client, extras=extras
        )
        self.window = MainWindow(
            service.profile, runner, registry, context=self.context, kiosk=kiosk, guard=guard
        )
        if tour:
            self.window.idle.set_minutes(0)
        if kiosk is not None:
            from portal_admin.ui.kiosk.marking import ReadOnlyMarking, set_current

            set_current(ReadOnlyMarking(self.email, csv_export=kiosk.csv_export))
        self.window.unlock_hook = self.unlock
        self.reauth = Reauthenticator(service, runner, self)
        #: The dialog opened last (change password, About), for tests and the tour.
        self.last_dialog: QDialog | None = None
        self._connections: list[tuple[Any, Callable[..., Any]]] = []
        #: True once :meth:`close` ran (a worker's answer then finds no window to tell).
        self.workspace_closed = False
        self._connect()

    # -- wiring --------------------------------------------------------------------------------

    def _link(self, signal: Any, slot: Callable[..., Any]) -> None:
        signal.connect(slot)
        self._connections.append((signal, slot))

    def _connect(self) -> None:
        s, w = self.service, self.window
        self._link(s.secureChannelChanged, self._channel_changed)
        self._link(s.lastRequestId, self.runner.note_request_id)
        self._link(s.busyChanged, self._network_busy)
        self._link(s.requestFinished, self._request_finished)
        self._link(s.signedInChanged, self._signed_in_changed)
        self._link(s.keyringUnavailable, w.show_keyring_notice)
        if not s.client.auth.tokens_persistent:  # already known when this window is built
            w.show_keyring_notice()
        self._link(self.runner.failed, self._operation_failed)
        w.logoutRequested.connect(self.logoutRequested)
        w.languageRequested.connect(self.languageRequested)
        if self.kiosk is None:
            w.changePasswordRequested.connect(self.open_change_password)
        else:
            w.idleSignOut.connect(self._idle_sign_out)
        w.aboutRequested.connect(self.open_about)
        w.closed.connect(self.closed)
        self._channel_changed(s.secure_channel_state)
        w.set_connection_state(ConnectionState.CONNECTED)
        w.set_account(None, self.email)
        if s.last_request_id:
            self.runner.note_request_id(s.last_request_id)

    def _idle_sign_out(self) -> None:
        log.info("kiosk mode: idle time ran out; signing out")
        self.logoutRequested.emit()

    def _channel_changed(self, state: str) -> None:
        self.window.set_channel_state(
            ChannelState.ESTABLISHED if state == "open" else ChannelState.NONE
        )

    def _network_busy(self, busy: bool) -> None:
        self.window.set_busy("network", busy)

    def _request_finished(self, _op: str, _request_id: str, status: int, _code: str) -> None:
        # status 0 is a network failure or a cancelled request: only failures say which
        if status:
            self.window.set_connection_state(ConnectionState.CONNECTED)

    def _operation_failed(self, info: Any) -> None:
        if getattr(info, "code", None) in _NETWORK_CODES:
            self.window.set_connection_state(ConnectionState.OFFLINE)

    def _signed_in_changed(self, signed_in: bool, reason: str) -> None:
        if not signed_in and reason not in _VOLUNTARY:
            log.info("signed out by the client (%s): locking", reason)
            self.window.set_connection_state(ConnectionState.DISCONNECTED)
            self.window.lock()

    # -- actions -------------------------------------------------------------------------------

    def show(self) -> MainWindow:
        """Show the main window (full screen in kiosk mode) and load the live profile."""
        if self.kiosk is not None and self.tour:  # comparable pictures: a fixed size
            self.window.resize(1280, 800)
            self.window.show()
        elif self.kiosk is not None:
            self.window.showFullScreen()
        else:
            self.window.show()
        self.refresh_account()
        return self.window

    def refresh_account(self) -> None:
        """Fetch the live profile (in the server's current language) for the header; the
        panels share that fetch (``extras["live_profile"]``)."""
        self.runner.run_soon(
            Op(
                self.live_profile.reload,
                on_success=self._show_account,
                on_failure=self._account_failed,
                progress=True,
            )
        )

    def _show_account(self, profile: Any) -> None:
        portal = getattr(profile, "account_portal", None)
        label = str(getattr(portal, "label", None) or getattr(portal, "code", None) or "")
        email = getattr(profile, "account_email", None) or self.email
        self.window.set_account(getattr(profile, "account_name", None), email, label)

    def _account_failed(self, exc: BaseException) -> bool:
        log.warning("the live profile could not be loaded: %s", type(exc).__name__)
        return True  # the header keeps the email; no error window for this

    def language_changed(self, code: str) -> None:
        """The UI language changed: refetch what the server labels (header, constants)."""
        self.window.set_language_checked(code)
        self.constants.set_language(self.service.accept_language)
        self.refresh_account()

    def _keep(self, dialog: QDialog) -> QDialog:
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda *_: self._forget(dialog))
        self.last_dialog = dialog
        dialog.open()
        return dialog

    def _forget(self, dialog: QDialog) -> None:
        if self.last_dialog is dialog:
            self.last_dialog = None

    def open_change_password(self) -> ChangePasswordDialog:
        """File > Change password…: the dialog, opened without a nested event loop."""
        flow = PasswordChangeFlow(self.service)
        dialog = ChangePasswordDialog(flow, runner=self.runner, parent=self.window)
        flow.setParent(dialog)
        self._keep(dialog)
        return dialog

    async def tell_key_place(self) -> keys.KeyPlace | None:
        """Once per key file: the strip saying where the evidence-signing key is kept (the key
        is made here when there is none yet; file work in worker threads)."""
        place = await in_worker(key_notice.place_to_tell)
        if place is None or self.workspace_closed:
            return None
        self.window.key_notice.show_place(place)
        await in_worker(key_notice.remember_told, place)
        return place

    def open_about(self) -> AboutDialog:
        """Help > About."""
        dialog = AboutDialog(self.window)
        self._keep(dialog)
        return dialog

    async def confirm_change(self, action: str, parent: QWidget | None = None) -> bool:
        """Panels await this before a change: asks on production, True at once elsewhere."""
        return await confirm_production_change(parent or self.window, self.service.profile, action)

    async def unlock(self) -> bool:
        """The lock's unlock hook: the same account signs in again."""
        ok = await self.reauth.sign_in_again(self.email)
        if ok:
            self.window.set_connection_state(ConnectionState.CONNECTED)
        return ok

    def close(self) -> None:
        """Close the window and its dialogs, and let go of the service's signals."""
        self.workspace_closed = True
        self.reauth.cancel()
        self.live_profile.close()
        for signal, slot in self._connections:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)
        self._connections.clear()
        self.window.closed.disconnect(self.closed)
        if self.kiosk is not None:  # still kiosk, no account: back at the kiosk sign-in
            from portal_admin.ui.kiosk.marking import ReadOnlyMarking, set_current

            set_current(ReadOnlyMarking("", csv_export=self.kiosk.csv_export))
        self.window.allow_close()
        self.window.close()
        self.window.deleteLater()
        self.constants.deleteLater()


def saved_views_store(profile_name: str, *, kiosk: bool, tour: bool) -> ViewStore:
    """Where the lists keep their views: per connection profile in the user's config; the
    kiosk's per machine (whatever profile is pinned); the tour's in a fresh temporary file, so
    its pictures show the lists as they come."""
    if tour:  # in the tour's own folder when it has one (removed as the program ends)
        folder = Path(tempfile.mkdtemp(prefix="portal-admin-tour-views-", dir=stand_in()))
        return ViewStore(folder / VIEWS_FILE, profile_scope(profile_name), RENAMED_PANELS)
    scope = KIOSK_SCOPE if kiosk else profile_scope(profile_name)
    # Views saved under a panel's former id are read under its id now.
    return ViewStore(config_dir() / VIEWS_FILE, scope, RENAMED_PANELS)
