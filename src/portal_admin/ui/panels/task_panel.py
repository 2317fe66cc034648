"""A panel with the constants cache and the clock (the invitation and reference panels build
on it): the panel base, plus requerying a model from a plain slot.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from portal_admin.ui.lists.paged_model import PagedTableModel
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.constants_cache import ConstantsCache
from portal_admin.ui.panels.registry import Clock, PanelContext, utc_now


def constants_of(context: PanelContext) -> ConstantsCache:
    """The program's constants cache (a private one when the main window provides none)."""
    cache = context.extras.get("constants")
    if isinstance(cache, ConstantsCache):
        return cache
    cache = ConstantsCache(lambda: context.client)
    context.extras["constants"] = cache
    return cache


def clock_of(context: PanelContext) -> Clock:
    """``extras["clock"]`` (a callable returning an aware datetime), else the system clock."""
    clock = context.extras.get("clock")
    return clock if callable(clock) else utc_now


async def _requery(model: PagedTableModel[Any]) -> None:
    model.refresh()
    await model.wait_idle()


class TaskPanel(PanelBase):
    """A :class:`~portal_admin.ui.panels.base.PanelBase` with the constants cache and the clock."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.constants = constants_of(context)
        self.clock = clock_of(context)

    def requery(self, model: PagedTableModel[Any]) -> None:
        """Refresh ``model`` on the loop (from a plain slot); ``wait_idle`` waits for it."""
        self.spawn(_requery(model))
