"""Demonstrations only (``--tour``): a change made "by another administrator" while the
program watches, so that the kiosk tour's snapshot diff has something to show.

It writes straight to the sandbox's database, as a colleague's session on the server would;
it is not reachable over HTTP.
"""

from __future__ import annotations

from typing import Any

from .clock import to_ms


def colleague_change(app: Any) -> str:
    """Suspend the first active account that is not one of the demo staff; its email."""
    state = app.state.sandbox
    with state.db.transaction() as db:
        row = db.one(
            "SELECT biz_id, email FROM accounts WHERE status = 'ACTIVE'"
            " AND email NOT LIKE '%@sandbox.test' ORDER BY biz_id LIMIT 1"
        )
        if row is None:
            return ""
        db.execute(
            "UPDATE accounts SET status = 'SUSPENDED', updated_at = ? WHERE biz_id = ?",
            (to_ms(state.clock.now()), row["biz_id"]),
        )
    return str(row["email"])
