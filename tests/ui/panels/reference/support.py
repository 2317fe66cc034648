"""Helpers of the constants and profile panel tests (no tests here); the shared ones are in
``panel_support``."""

from __future__ import annotations

from typing import Any

import qasync

from portal_admin.ui.panels.reference.constants_panel import ConstantsPanel
from portal_admin.ui.panels.registry import PanelContext

from ..panel_support import place_panel


def build_constants(qtbot: Any, loop: qasync.QEventLoop, context: PanelContext) -> ConstantsPanel:
    """The constants panel, shown and loaded."""
    panel = ConstantsPanel(context)
    place_panel(qtbot, panel, 1200, 560)
    loop.run_until_complete(panel.reload())
    loop.run_until_complete(panel.wait_idle())
    return panel
