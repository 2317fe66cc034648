"""Unlocking the idle lock: the same account signs in again through the real sign-in window."""

from __future__ import annotations

import asyncio
import logging

from PySide6.QtCore import QObject, Signal

from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.session.client_service import ClientService
from portal_admin.ui.signin.flow import SignInFlow
from portal_admin.ui.signin.window import SignInWindow

log = logging.getLogger(__name__)


class Reauthenticator(QObject):
    """Opens a sign-in window pinned to one account; :meth:`sign_in_again` awaits its end."""

    #: The sign-in window opened (tests and the tour drive it).
    windowOpened = Signal(object)

    def __init__(
        self,
        service: ClientService,
        runner: OperationRunner | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.runner = runner
        self.window: SignInWindow | None = None

    async def sign_in_again(self, email: str) -> bool:
        """True once ``email`` has signed in again; False when the window was closed."""
        if self.window is not None:  # already asking: bring it forward
            self.window.raise_()
            self.window.activateWindow()
            return False
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        flow = SignInFlow(self.service)
        window = SignInWindow(flow, [self.service.profile], runner=self.runner)
        window.pin_email(email)

        def finish(ok: bool) -> None:
            if not done.done():
                done.set_result(ok)

        window.signedIn.connect(lambda who: finish(who.casefold() == email.casefold()))
        window.closed.connect(lambda: finish(False))
        self.window = window
        window.show()
        window.raise_()
        window.activateWindow()
        self.windowOpened.emit(window)
        try:
            ok = await done
        finally:
            self.window = None
            window.closed.disconnect()
            window.close()
            window.deleteLater()
            flow.deleteLater()
        log.info("unlock: %s", "signed in again" if ok else "abandoned")
        return ok

    def cancel(self) -> None:
        """Close an open sign-in window (logout or quit while it asks)."""
        if self.window is not None:
            self.window.close()
