"""The panel registry: the panel modules register what the main window's navigation shows.

Conventions for panels (all optional, looked up by name on the panel widget):

- ``refresh()``: F5 calls it.
- ``close_tasks()``: the main window calls it when it closes, on logout and on the kiosk's
  idle sign-out: cancel what the panel runs (``ui/panels/base.py``: its tasks, those of the
  panels inside it, and its lists' page fetches).
- ``async def tour_ready(self) -> None``: ``--tour`` awaits it before the panel's screenshot;
  return when the panel's data is shown. Without it the tour waits until the operation
  runner (``context.runner``) is idle, then a moment more.
- ``async def tour_steps(self) -> list[TourStep]``: the panel's own dialogs for ``--tour``;
  each :class:`~portal_admin.ui.tour.screenshots.TourStep` opens one (``prepare`` returns the widget
  to photograph, ``cleanup`` closes it). Name them ``<panel id>-<what>`` (for example
  ``accounts-detail``); the PNG is saved as ``<name>.png``. Kiosk mode (read-only) skips
  them: steps that change nothing go in ``async def kiosk_tour_steps(self)`` as well.
- Mutating controls: bind them with ``Permissions.bind(control, operation_id)`` (enabled or
  disabled with the reason; hidden in kiosk mode), or at least tag them with the dynamic
  property ``operationId``: the kiosk guard hides every tagged control whose operation is
  mutating (``ui/kiosk/guard.py``).

``PanelContext.extras`` is a :class:`PanelExtras`: every key it may carry is typed and
described there (a context built by hand, as in tests, carries only some).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypedDict

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.profiles.store import Profile

if TYPE_CHECKING:
    from portal_admin.evidence.keys import SecretStore
    from portal_admin.evidence.trust import TrustStore
    from portal_admin.files.saved_views import ViewStore
    from portal_admin.jobs import JobContext
    from portal_admin.ui.panels.constants_cache import ConstantsCache
    from portal_admin.ui.tour.screenshots import TourStep

#: The signature of ``extras["confirm_change"]``.
ConfirmChange = Callable[..., Awaitable[bool]]
#: The signature of ``extras["clock"]``: the current time, timezone-aware.
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time, timezone-aware (the clock panels use without ``extras["clock"]``)."""
    return datetime.now(UTC)


class PanelExtras(TypedDict, total=False):
    """The collaborators a panel may be given besides the runner, profile and client (the
    session's ``Workspace`` sets them once signed in; every key may be absent)."""

    #: The session's ``ClientService`` (``ui/session/client_service.py``; typed as Any: the
    #: panels do not import the session), the only bridge to the client and the sandbox.
    service: Any
    #: The session's cache of the server's lists. Read them through it
    #: (``panels.base.ConstantsSource``): it is emptied and emits ``cleared`` on a language
    #: switch, when the panels load their lists again (keep no copies). A panel built without
    #: it makes one of its own (``task_panel.constants_of``).
    constants: ConstantsCache
    #: ``client.auth.profile()`` of the signed-in account, fetched once per sign-in and shared
    #: (the header's fetch included). Panels await ``PanelContext.live_profile()``, which
    #: fetches when the key is absent; ``panels/base.py`` builds the ``Permissions`` from it.
    live_profile: LiveProfile
    #: Opens the change-password dialog (absent in kiosk mode: nothing changes there).
    change_password: Callable[[], object]
    #: ``async def confirm_change(action: str, parent: QWidget | None = None) -> bool``. Await
    #: it (``PanelContext.confirm_change``) before every change and stop on False: on a
    #: production profile it asks (``action`` is the translated sentence describing the
    #: change, e.g. "Suspend the account ann@example.com."); elsewhere it returns True at once.
    #: It never runs a nested event loop.
    confirm_change: ConfirmChange
    #: True while ``--tour`` runs (panels may skip animations or pick a stable row).
    tour: bool
    #: True in kiosk mode (read-only).
    kiosk: bool
    #: The tour only: makes a change on the sandbox as a colleague would (the Snapshots panel's
    #: tour takes a snapshot after it, so that the diff has something to show); returns what
    #: it changed.
    tour_change: Callable[[], str]
    #: Where this installation's signing key is kept (``evidence/keys.py``), for the panels
    #: that sign (packs, checkpoints, sign-offs); the tour's is in memory, never the keyring.
    #: Absent: the panels use the default store.
    evidence_key_store: SecretStore
    #: The keys this computer trusts (``evidence/trust.py``); absent: the user's trust file.
    evidence_trust_store: TrustStore
    #: The lists' saved views and last states of this profile (or of the kiosk, or the
    #: tour's own), kept under ``<panel id>/<list name>`` (``files/saved_views.py``).
    saved_views: ViewStore
    #: The current time, timezone-aware (tests set it; absent: :func:`utc_now`).
    clock: Clock


@dataclass(slots=True)
class PanelContext:
    """What a panel is built with (its collaborators come from outside)."""

    runner: OperationRunner
    profile: Profile
    #: The API client, once signed in (typed as Any: ui/ does not import the client here).
    client: Any = None
    #: The other collaborators, each typed and described in :class:`PanelExtras`.
    extras: PanelExtras = field(default_factory=lambda: PanelExtras())

    async def confirm_change(self, action: str, parent: QWidget | None = None) -> bool:
        """Await ``extras["confirm_change"]`` if present; True when there is none."""
        hook = self.extras.get("confirm_change")
        return True if hook is None else bool(await hook(action, parent))

    async def live_profile(self) -> Any:
        """The signed-in account's live profile: ``extras["live_profile"]`` (fetched once,
        shared) when present, else ``client.auth.profile()``. Failures propagate."""
        shared = self.extras.get("live_profile")
        if isinstance(shared, LiveProfile):
            return await shared.get()
        return await self.client.auth.profile()

    async def job_context(self) -> JobContext:
        """What a job records of where and by whom it runs: the profile, the signed-in server
        and account (the live profile). One place for the bulk window, a revert and a
        remediation."""
        from portal_admin.jobs import JobContext

        me = await self.live_profile()
        return JobContext(
            self.profile.name,
            str(self.client.base_url),
            str(getattr(me, "account_email", "") or ""),
            getattr(me, "biz_id", None),
            str(self.profile.environment),
        )


class LiveProfile:
    """``client.auth.profile()`` fetched once and shared by everyone who awaits it.

    Callers arriving while the fetch runs wait for that same fetch; a failed or cancelled
    fetch is not kept (the next ``get`` tries again). Cancelling a caller does not cancel the
    fetch the others wait for.
    """

    def __init__(self, fetch: Callable[[], Awaitable[Any]]) -> None:
        self._fetch = fetch
        self._task: asyncio.Future[Any] | None = None

    async def get(self) -> Any:
        """The profile, fetched on the first call (and after a failure)."""
        task = self._task
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self._task = asyncio.ensure_future(self._fetch())
        return await asyncio.shield(task)

    async def reload(self) -> Any:
        """Fetch the profile again (server labels in a new language) and keep the answer."""
        task = self._task = asyncio.ensure_future(self._fetch())
        return await asyncio.shield(task)

    def close(self) -> None:
        """Cancel a fetch still running and forget the profile (signed out)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None


PanelFactory = Callable[[PanelContext], QWidget]

#: Panels whose id changed: old id -> new id. Settings saved under an old id (the saved views'
#: list keys ``<panel id>/<list>``) and callers naming one reach the panel by its new id.
RENAMED_PANELS: dict[str, str] = {
    "reviews": "snapshots",  # the snapshot panel, before "review" came to mean a campaign
}


def current_panel_id(panel_id: str) -> str:
    """The id a panel has now, given one it may have had before (:data:`RENAMED_PANELS`)."""
    return RENAMED_PANELS.get(panel_id, panel_id)


@dataclass(frozen=True, slots=True)
class PanelSpec:
    """One entry of the navigation list."""

    id: str
    #: Source text marked with QT_TRANSLATE_NOOP("Panels", ...).
    title: str
    #: Builds the panel on first selection (import the panel's module inside it: lazy).
    factory: PanelFactory
    #: An icon name of ``ui/theme/icons.py`` (``"nav.<id>"``, e.g. "nav.accounts": the panel's own
    #: picture, recoloured with the theme), a QStyle.StandardPixmap name (e.g. "SP_DirIcon") or
    #: a file path; None for no icon.
    icon: str | None = None
    order: int = 100
    context: str = "Panels"

    def display_title(self) -> str:
        """The translated title."""
        return QCoreApplication.translate(self.context, self.title)


class PanelRegistry:
    """Panels by id, in navigation order."""

    def __init__(self) -> None:
        self._specs: dict[str, PanelSpec] = {}

    def register(self, spec: PanelSpec) -> PanelSpec:
        """Add ``spec`` (an id registered twice is replaced)."""
        self._specs[spec.id] = spec
        return spec

    def get(self, panel_id: str) -> PanelSpec | None:
        """The panel with ``panel_id``, if registered."""
        return self._specs.get(panel_id)

    def __iter__(self) -> Iterator[PanelSpec]:
        return iter(sorted(self._specs.values(), key=lambda s: (s.order, s.id)))

    def __len__(self) -> int:
        return len(self._specs)


#: The program's registry; panel modules register into it.
PANELS = PanelRegistry()


async def wait_idle(runner: OperationRunner, timeout: float = 20.0) -> None:
    """Wait until ``runner`` has no operation running (new ones started meanwhile count)."""
    async with asyncio.timeout(timeout):
        while runner.tasks:
            await asyncio.gather(*runner.tasks, return_exceptions=True)
            await asyncio.sleep(0)


async def panel_ready(panel: QWidget, runner: OperationRunner, timeout: float = 20.0) -> None:
    """The tour's wait for a panel: its ``tour_ready()`` if it has one, else an idle runner."""
    ready = getattr(panel, "tour_ready", None)
    async with asyncio.timeout(timeout):
        if callable(ready):
            result = ready()
            if inspect.isawaitable(result):
                await result
        await wait_idle(runner, timeout)


async def panel_tour_steps(panel: QWidget, *, kiosk: bool = False) -> list[TourStep]:
    """The panel's own tour steps (``tour_steps()``; ``kiosk_tour_steps()`` in kiosk mode)."""
    steps = getattr(panel, "kiosk_tour_steps" if kiosk else "tour_steps", None)
    if not callable(steps):
        return []
    result = steps()
    found = await result if inspect.isawaitable(result) else result
    return list(found or [])
