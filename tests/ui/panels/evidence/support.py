"""Helpers of the Snapshots and Journal panel tests (no tests here); the shared ones are in
``panel_support``."""

from __future__ import annotations

from pathlib import Path

from portal_admin.evidence import journal as jr


def write_journal(path: Path, n: int) -> None:
    """A journal of ``n`` records at ``path`` (the fourth one failed)."""
    journal = jr.Journal(path)
    for i in range(n):
        journal.append(
            {
                "account": "admin@sandbox.test",
                "operation": "accounts.status" if i % 2 else "accounts.update",
                "targets": [f"ACC{i:04d}"],
                "fields": {"action": "SUSPEND"} if i % 2 else {"accountRemark": "checked"},
                "outcome": "failed" if i == 3 else "ok",
                "code": "NOT_FOUND" if i == 3 else "",
                "request_id": f"req-{i}",
            }
        )
    journal.flush()
