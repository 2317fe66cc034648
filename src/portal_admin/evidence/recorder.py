"""Recording a client's changes in the journal: one record per mutating operation sent."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.events import ChangeFinished

from .journal import Journal

log = logging.getLogger("portal_admin.evidence.recorder")

#: One journal per file, shared by every client of the process.
_JOURNALS: dict[Path, Journal] = {}


def journal_at(path: Path | None = None) -> Journal:
    """The process's journal for ``path`` (default: the user data folder's)."""
    journal = Journal(path)
    return _JOURNALS.setdefault(journal.path, journal)


def record_of(event: ChangeFinished, *, profile: str, server: str) -> dict[str, Any]:
    """The journal record of one finished change."""
    return {
        "server_time": event.server_time_ms,
        "profile": profile,
        "server": server,
        "account": event.account,
        "operation": event.operation_id,
        "targets": list(event.targets),
        "fields": event.fields,
        "before": event.before,
        "after": event.after,
        "outcome": event.outcome,
        "code": event.code,
        "request_id": event.request_id,
        "http_status": event.http_status,
    }


def attach(
    client: PortalClient, *, profile: str, server: str, journal: Journal | None = None
) -> Callable[[], None]:
    """Journal every change ``client`` sends; returns the function that stops it."""
    target = journal or journal_at()

    def on_change(event: object) -> None:
        if not isinstance(event, ChangeFinished):
            return
        try:
            target.append(record_of(event, profile=profile, server=server))
        except OSError as exc:  # a journal that cannot be written must not stop the work
            log.error("the journal could not be written: %s", exc)

    return client.events.subscribe(on_change, ChangeFinished)
