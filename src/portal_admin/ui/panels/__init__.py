"""The program's panels, one sub-package per area, registered lazily into the navigation.

Each area package defines ``register(registry: PanelRegistry) -> None``, registering its
``PanelSpec`` entries whose factories import the panel's widgets only when first shown.
"""

from __future__ import annotations

import importlib

from portal_admin.ui.panels.registry import PANELS, PanelRegistry

#: Area packages under ui/panels, in navigation order.
AREAS = (
    "accounts",
    "security",
    "invitations",
    "jobs",
    "evidence",
    "reviews",
    "notifications",
    "reference",
)


def register_all(registry: PanelRegistry = PANELS) -> PanelRegistry:
    """Register every area's panels (an area not written yet is skipped)."""
    for area in AREAS:
        try:
            module = importlib.import_module(f"{__name__}.{area}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{area}":
                raise
            continue
        module.register(registry)
    return registry
