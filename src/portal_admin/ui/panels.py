"""The panel registry: the panel modules register what the main window's navigation shows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from .operations import OperationRunner
from .profiles import Profile


@dataclass(slots=True)
class PanelContext:
    """What a panel is built with (its collaborators come from outside)."""

    runner: OperationRunner
    profile: Profile
    #: The API client, once signed in (typed as Any: ui/ does not import the client here).
    client: Any = None
    #: Anything else later code hands to panels (clock, sandbox mailbox, ...).
    extras: dict[str, Any] = field(default_factory=dict)


PanelFactory = Callable[[PanelContext], QWidget]


@dataclass(frozen=True, slots=True)
class PanelSpec:
    """One entry of the navigation list."""

    id: str
    #: Source text marked with QT_TRANSLATE_NOOP("Panels", ...).
    title: str
    #: Builds the panel on first selection (import the panel's module inside it: lazy).
    factory: PanelFactory
    #: A QStyle.StandardPixmap name (e.g. "SP_DirIcon") or a file path; None for no icon.
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
