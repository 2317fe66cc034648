"""The sandbox's outgoing mail: stored, never sent, read back by ``GET /sandbox/mailbox``."""

from __future__ import annotations

from .clock import to_ms
from .db import Database
from .text import email_key


def send_mail(
    db: Database,
    now: float,
    to: str,
    subject: str,
    body: str,
    *,
    code: str | None = None,
    token: str | None = None,
    session_id: str | None = None,
) -> int:
    """Store one message; returns its id."""
    cur = db.execute(
        "INSERT INTO mailbox (to_key, to_addr, subject, body, code, token, session_id, sent_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (email_key(to), to, subject, body, code, token, session_id, to_ms(now)),
    )
    return int(cur.lastrowid or 0)
