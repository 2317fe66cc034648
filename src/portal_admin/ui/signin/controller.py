"""A form controller: busy state, one inline error and one notice, and guarded calls."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal

from ..error_info import ErrorInfo, describe_error

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Clearer summaries for the error codes the sign-in forms meet.
_CODE_TEXT: dict[str, object] = {
    "AUTH.INVALID_CREDENTIALS": QT_TRANSLATE_NOOP(
        "SignInErrors", "The email address or the password is wrong."
    ),
    "AUTH.MFA_CODE_INVALID": QT_TRANSLATE_NOOP(
        "SignInErrors", "The code is wrong or has expired. Check it and try again."
    ),
    "AUTH.MFA_SEND_COOLDOWN": QT_TRANSLATE_NOOP(
        "SignInErrors", "A code was sent a moment ago. Wait until the countdown ends."
    ),
    "AUTH.SESSION_NOT_FOUND": QT_TRANSLATE_NOOP(
        "SignInErrors", "The sign-in session has expired. Sign in again."
    ),
    "AUTH.PASSWORD_RESET_TOKEN_INVALID": QT_TRANSLATE_NOOP(
        "SignInErrors", "The reset token is wrong, has expired or was already used."
    ),
    "AUTH.CURRENT_PASSWORD_INCORRECT": QT_TRANSLATE_NOOP(
        "SignInErrors", "The current password is wrong."
    ),
    "REQUEST.RATE_LIMITED": QT_TRANSLATE_NOOP(
        "SignInErrors", "Too many attempts. Wait a while, then try again."
    ),
}


def explain(exc: BaseException) -> ErrorInfo:
    """``describe_error`` with clearer summaries for sign-in codes."""
    info = describe_error(exc)
    text = _CODE_TEXT.get(info.code or "")
    if text:
        info = dataclasses.replace(
            info, summary=QCoreApplication.translate("SignInErrors", str(text))
        )
    return info


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What a guarded call gave: ``ok`` with its ``value``, or the exception."""

    ok: bool
    value: T | None = None
    error: BaseException | None = None


class FormController(QObject):
    """Busy flag, inline error and notice of one form; ``attempt`` runs one network call."""

    busyChanged = Signal(bool)
    #: ErrorInfo, or None when the error is cleared.
    errorChanged = Signal(object)
    noticeChanged = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._busy = False
        self._error: ErrorInfo | None = None
        self._notice = ""

    @property
    def busy(self) -> bool:
        """True while a call is on its way."""
        return self._busy

    @property
    def error(self) -> ErrorInfo | None:
        """The error shown, if any."""
        return self._error

    @property
    def notice(self) -> str:
        """The informative message shown (empty: none)."""
        return self._notice

    def set_error(self, info: ErrorInfo | None) -> None:
        """Show ``info`` (None clears it)."""
        self._error = info
        self.errorChanged.emit(info)

    def fail(self, message: str) -> bool:
        """Show a local problem (nothing was sent); returns False for the caller to return."""
        self.set_error(ErrorInfo(summary=message, message=""))
        return False

    def set_notice(self, text: str) -> None:
        """Show an informative message (empty clears it)."""
        self._notice = text
        self.noticeChanged.emit(text)

    def clear_messages(self) -> None:
        """Clear the error and the notice."""
        if self._error is not None:
            self.set_error(None)
        if self._notice:
            self.set_notice("")

    async def attempt(
        self,
        call: Callable[[], Awaitable[T]],
        *,
        handle: Callable[[BaseException], bool] | None = None,
    ) -> Outcome[T]:
        """Run ``call`` with the busy state on; a failure is shown unless ``handle`` takes it."""
        if self._busy:
            return Outcome(False)
        self.clear_messages()
        self._set_busy(True)
        try:
            value = await call()
        except Exception as exc:  # not a cancellation: CancelledError is a BaseException
            info = explain(exc)
            if info.unexpected:
                log.error("%s failed unexpectedly", type(self).__name__, exc_info=exc)
            else:
                log.info(
                    "%s failed: code=%s status=%s request_id=%s",
                    type(self).__name__,
                    info.code,
                    info.http_status,
                    info.request_id,
                )
            if handle is None or not handle(exc):
                self.set_error(info)
            return Outcome(False, error=exc)
        finally:
            self._set_busy(False)
        return Outcome(True, value)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busyChanged.emit(busy)
