"""Runs the connection doctor for a profile as a task: steps as they end, cancellable.

:class:`DoctorRun` is the service a :class:`~.dialog.DoctorDialog` drives; tests await
:meth:`DoctorRun.run` directly. No credentials are involved: the doctor never signs in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from portal_admin.connection.doctor import Report, Step, diagnose
from portal_admin.ui.error_info import CONFIG_CODES, describe_error
from portal_admin.ui.profiles.store import Profile, ProxyMode

log = logging.getLogger("portal_admin.ui.doctor")

#: Makes the in-process transport the built-in sandbox profile is tested over.
TransportFactory = Callable[[], Any]


def builtin_sandbox_transport() -> Any:
    """A fresh in-memory built-in sandbox, served in process (no network, no user data)."""
    from portal_admin.ui.session.sandbox_factory import MEMORY, sandbox_transport

    return sandbox_transport(MEMORY, seed_accounts=0)


@dataclass(frozen=True, slots=True)
class DoctorRequest:
    """What to test: the URL and the connection settings of a profile (no password)."""

    url: str
    access_code: str | None = None
    ca_bundle: str | None = None
    #: A proxy URL, False for none, None to follow the system (environment).
    proxy: str | bool | None = None
    allow_legacy_padding: bool = False
    #: SHA-256 fingerprints the server's certificate must match (the profile's pins).
    pins: tuple[str, ...] = ()
    #: For the built-in sandbox: makes the in-process transport (no network steps).
    transport: TransportFactory | None = None

    @classmethod
    def for_profile(
        cls, profile: Profile, sandbox: TransportFactory = builtin_sandbox_transport
    ) -> DoctorRequest:
        """The request testing ``profile`` as it is (unsaved values included)."""
        if profile.is_sandbox:
            from portal_admin.ui.session.sandbox_factory import (
                SANDBOX_ACCESS_CODE,
                SANDBOX_BASE_URL,
            )

            return cls(
                SANDBOX_BASE_URL,
                access_code=profile.portal_access_code or SANDBOX_ACCESS_CODE,
                allow_legacy_padding=profile.allow_legacy_padding,
                transport=sandbox,
            )
        return cls(
            profile.base_url.strip(),
            access_code=profile.portal_access_code or None,
            ca_bundle=profile.ca_bundle or None,
            proxy=profile_proxy(profile),
            allow_legacy_padding=profile.allow_legacy_padding,
            pins=tuple(profile.pinned_certificates),
        )


def profile_proxy(profile: Profile) -> str | bool | None:
    """The doctor's ``proxy`` for a profile: a URL, False for none, None for the system's."""
    if profile.proxy_mode is ProxyMode.NONE:
        return False
    if profile.proxy_mode is ProxyMode.MANUAL:
        return profile.proxy_url.strip() or None
    return None


def unusable_reason(exc: BaseException) -> str:
    """Why a profile cannot be tested, in the interface's language where the setting is known
    (the English detail follows in brackets), else the doctor's English reason."""
    detail = str(getattr(exc, "message", "") or exc) or type(exc).__name__
    if getattr(exc, "code", None) not in CONFIG_CODES:
        return detail
    return f"{describe_error(exc).summary} ({detail})"


class DoctorRun(QObject):
    """One run of the doctor at a time; signals each step and the outcome."""

    #: A step ended (a :class:`Step`).
    stepDone = Signal(object)
    #: Every step ran (a :class:`Report`).
    finished = Signal(object)
    #: The profile cannot be tested: why (:func:`unusable_reason`).
    failed = Signal(str)
    #: The run was stopped before it ended.
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._task: asyncio.Task[Report | None] | None = None
        self.report: Report | None = None

    @property
    def running(self) -> bool:
        """True while a run is under way."""
        return self._task is not None and not self._task.done()

    def start(self, request: DoctorRequest) -> None:
        """Start a run (stopping one still under way)."""
        self.cancel()
        self._task = asyncio.get_running_loop().create_task(self.run(request))

    def cancel(self) -> None:
        """Stop the run under way, if any."""
        if self.running:
            assert self._task is not None
            self._task.cancel()

    async def wait(self) -> None:
        """Until the run under way (if any) has ended."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    async def run(self, request: DoctorRequest) -> Report | None:
        """Run the doctor; the report, or None when it could not run or was stopped."""
        self.report = None
        try:
            transport = request.transport() if request.transport is not None else None
            report = await diagnose(
                request.url,
                access_code=request.access_code,
                ca_bundle=request.ca_bundle,
                proxy=request.proxy,
                transport=transport,
                allow_legacy_padding=request.allow_legacy_padding,
                pins=request.pins,
                progress=self.stepDone.emit,
            )
        except asyncio.CancelledError:
            self.cancelled.emit()
            raise
        except Exception as exc:  # ConfigurationError, or what the doctor could not guard
            log.info("connection test could not run: %s", exc)
            self.failed.emit(unusable_reason(exc))
            return None
        self.report = report
        self.finished.emit(report)
        return report


__all__ = ["DoctorRequest", "DoctorRun", "Step", "builtin_sandbox_transport", "profile_proxy"]
