"""The thread that writes decisions: its own connection to the campaign file, so the fsync of
each transaction never holds the event loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from portal_admin.reviews import Campaign
from portal_admin.reviews.decisions import decide


class DecisionWriter:
    """The writer thread's own connection to the campaign file. No Qt and no reference to the
    panel: a panel whose last reference the writer thread dropped would be deleted there,
    off the GUI thread (a crash)."""

    def __init__(self) -> None:
        self.campaign: Campaign | None = None

    def write(self, path: Path, *args: Any) -> int:
        """``decide`` on this thread's connection to the campaign at ``path``."""
        if self.campaign is None or self.campaign.path != path:
            self.close()
            self.campaign = Campaign.open(path)
        self.campaign.reload_meta()  # closed meanwhile?
        return decide(self.campaign, *args, source="desktop")

    def close(self) -> None:
        """Close the connection (on the writer thread)."""
        if self.campaign is not None:
            self.campaign.close()
            self.campaign = None
