"""The campaign's signed evidence pack: where to save it asked, written in a worker thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from portal_admin.evidence import keys
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.panels.evidence import packing
from portal_admin.ui.widgets import file_dialogs

from . import work
from .host import CampaignsHost


def ask_pack(panel: CampaignsHost) -> None:
    """Ask where to save the pack; write it."""
    if panel.campaign is not None:
        name = panel.campaign.path.with_suffix(".zip").name
        file_dialogs.ask_save(
            panel.as_panel(), name, "zip", lambda p: panel.spawn(panel.write_pack(p))
        )


async def write_pack(panel: CampaignsHost, out: Path) -> dict[str, Any] | None:
    """The campaign's signed evidence pack (a worker thread)."""
    if panel.campaign is None:
        return None
    try:
        manifest = await in_worker(work.write_pack, panel.campaign.path, out, panel.key_store)
    except (keys.KeyUnavailable, OSError) as exc:
        panel.message.show_error(packing.failure(exc))
        return None
    panel.message.show_notice(packing.written(out, manifest))
    return manifest
