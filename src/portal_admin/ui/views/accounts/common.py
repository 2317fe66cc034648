"""Helpers shared by the accounts, roles and portals panels: dates, enum labels, errors,
the constants source, the signed-in account's permissions and task keeping.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Coroutine, Mapping
from datetime import datetime
from typing import Any, TypeVar, cast

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale
from qasync import asyncSlot

from ...error_info import ErrorInfo, describe_error
from ...panels import PanelContext
from ...permissions import Permissions
from ...text import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def async_slot(*types: type) -> Callable[[F], F]:
    """qasync's ``asyncSlot``, typed (keep such handlers one line long)."""
    return cast(Callable[[F], F], asyncSlot(*types))


ERRORS_CONTEXT = "AdminErrors"

#: Clearer summaries for the codes these panels meet (per-panel overrides win).
ERROR_TEXT: dict[str, str] = {
    "ACCESS.PERMISSION_DENIED": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The server refused: your role does not allow this action. Ask a workspace owner "
        "for the permission.",
    ),
    "RESOURCE.NOT_FOUND": QT_TRANSLATE_NOOP(
        "AdminErrors", "Not found: the item does not exist (any more), or the id is wrong."
    ),
    "VALIDATION.INVALID_PARAMETER": QT_TRANSLATE_NOOP(
        "AdminErrors", "The server did not accept the input. Check the fields and try again."
    ),
    "4000": QT_TRANSLATE_NOOP(
        "AdminErrors", "The server did not accept the input. Check the fields and try again."
    ),
    "4010": QT_TRANSLATE_NOOP(
        "AdminErrors", "Your sign-in is no longer valid (code 4010). Sign in again."
    ),
    "ACCESS.TOKEN_MISSING": QT_TRANSLATE_NOOP(
        "AdminErrors", "You are not signed in. Sign in again."
    ),
    "4040": QT_TRANSLATE_NOOP("AdminErrors", "Not found (code 4040)."),
}


def tr_error(text: str) -> str:
    """Translate a text of the AdminErrors context."""
    return QCoreApplication.translate(ERRORS_CONTEXT, text)


def explain(exc: BaseException, overrides: Mapping[str, str] | None = None) -> ErrorInfo:
    """``describe_error`` with a clearer summary for the codes these panels know."""
    info = describe_error(exc)
    code = info.code or ""
    text = (overrides or {}).get(code) or ERROR_TEXT.get(code)
    if text:
        info = dataclasses.replace(info, summary=tr_error(text))
    return info


def format_datetime(value: object) -> str:
    """A timestamp in the UI language's short format (QLocale), in local time."""
    if value is None:
        return ""
    if not isinstance(value, datetime):
        return str(value)
    stamp = QDateTime.fromMSecsSinceEpoch(int(value.timestamp() * 1000)).toLocalTime()
    return QLocale().toString(stamp, QLocale.FormatType.ShortFormat)


def enum_text(item: object) -> str:
    """An enum item's label (its code when it has none); empty for None."""
    if item is None:
        return ""
    label = getattr(item, "label", None)
    return str(label or getattr(item, "code", "") or item)


def enum_code(item: object) -> str | None:
    """An enum item's code, or None."""
    code = getattr(item, "code", None)
    return str(code) if code else None


class ConstantsSource:
    """The constants lists: the shared cache from ``extras["constants"]``, else the client."""

    def __init__(self, context: PanelContext) -> None:
        self._context = context

    @property
    def cache(self) -> Any:
        """The program's ConstantsCache, if there is one."""
        return self._context.extras.get("constants")

    async def items(self, list_name: str) -> list[Any]:
        """The items of ``list_name`` (e.g. "user-portal-types")."""
        cache = self.cache
        if cache is not None:
            return list(await cache.items(list_name))
        method = getattr(self._context.client.constants, list_name.replace("-", "_"))
        return list(await method())

    def on_cleared(self, callback: Callable[..., object]) -> None:
        """Call ``callback`` when the cache is emptied (language switch), if it says so."""
        signal = getattr(self.cache, "cleared", None)
        if signal is not None:
            signal.connect(callback)


@dataclasses.dataclass(frozen=True, slots=True)
class Who:
    """The signed-in account: its permissions and business id."""

    permissions: Permissions
    biz_id: str | None = None


async def load_who(client: Any) -> Who:
    """Permissions and id of the signed-in account (from the live profile; tolerant)."""
    if client is None:
        return Who(Permissions.of(None, None))
    try:
        profile = await client.auth.profile()
    except Exception as exc:
        log.info("profile not available, permissions unknown: %r", exc)
        return Who(Permissions.of(client, None))
    return Who(Permissions.of(client, profile), getattr(profile, "biz_id", None))


class TaskKeeper:
    """Starts coroutines as tasks, keeps strong references and logs their failures."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coro`` on the current loop."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("panel task failed", exc_info=task.exception())

    def cancel(self) -> None:
        """Cancel every task still running."""
        for task in list(self._tasks):
            task.cancel()

    async def drain(self) -> None:
        """Wait until no task runs (tests, and before closing)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        """The tasks still running."""
        return frozenset(self._tasks)
