"""Red-team attacks on campaign files opened "as data" (branch h/campaign-desktop, with the
engine of h/campaign-engine): ``reviews/opening.py``, ``reviews/campaign.py``,
``reviews/remediation.py``. Each test is one attack that the current code lets through; the
docstring says the attack, what it achieves and the class of fix.
"""

from __future__ import annotations

from pathlib import Path

from .campaign_support import raw


def _smuggle(path: Path, item: str, decision: str, reviewer: str, fingerprint: str) -> None:
    """A decision row written with plain SQLite, as a reviewer can into their own file."""
    raw(
        path,
        "INSERT INTO decisions (item, decision, justification, reviewer, fingerprint,"
        f" decided_at, source, account_id, account_email) VALUES ('{item}', '{decision}',"
        f" 'x', '{reviewer}', '{fingerprint}', '2026-11-27T10:00:00.000+00:00', '', '',"
        f" '{reviewer}')",
    )
