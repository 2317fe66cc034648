"""Recording a client's changes in the journal: an intent before each mutating request leaves
(written and fsynced at once), and its outcome once it ends.

The intent makes every change the server may have applied a record even when the process is
killed between the request and the outcome's write: its outcome record names it
(``intent_seq``); an intent that none names is a change sent whose outcome was not recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.events import ChangeFinished, ChangeStarted

from . import keys
from .checkpoints import Signer
from .journal import Journal, Waiter

log = logging.getLogger("portal_admin.evidence.recorder")

#: One journal per file, shared by every client of the process.
_JOURNALS: dict[Path, Journal] = {}


def installation_signer() -> Any:
    """The installation's key, from the keyring or the key file (made on first use); raises
    ``keys.KeyUnavailable`` when it can be neither read nor made."""
    return keys.signing_key()


#: What signs the checkpoints of the journals :func:`journal_at` makes (tests replace it).
SIGNER: Signer | None = installation_signer


def journal_at(path: Path | None = None) -> Journal:
    """The process's journal for ``path`` (default: the user data folder's), its checkpoints
    signed by :data:`SIGNER`."""
    journal = Journal(path, signer=SIGNER)
    return _JOURNALS.setdefault(journal.path, journal)


def close_journals() -> None:
    """Write what is queued and a closing checkpoint of each journal this process wrote to
    (a clean stop); never raises."""
    for journal in list(_JOURNALS.values()):
        try:
            journal.close()
        except Exception:
            log.exception("closing the journal %s failed", journal.path)


def intent_of(event: ChangeStarted, *, profile: str, server: str) -> dict[str, Any]:
    """The journal record of a change about to be sent."""
    return {
        "kind": "intent",
        "profile": profile,
        "server": server,
        "account": event.account,
        "operation": event.operation_id,
        "targets": list(event.targets),
        "fields": event.fields,
        "before": event.before,
        "after": event.after,
    }


def record_of(
    event: ChangeFinished, *, profile: str, server: str, intent_seq: int | None = None
) -> dict[str, Any]:
    """The journal record of one finished change (naming its intent's seq when known)."""
    record = {
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
    if intent_seq is not None:
        record["intent_seq"] = intent_seq
    return record


def attach(
    client: PortalClient, *, profile: str, server: str, journal: Journal | None = None
) -> Callable[[], None]:
    """Journal every change ``client`` sends; returns the function that stops it."""
    target = journal or journal_at()
    intents: dict[str, Waiter] = {}  # change_id -> its intent's seq, once on disk

    def on_change(event: object) -> None:
        if isinstance(event, ChangeStarted):
            # The request leaves once the intent is on disk (the client awaits ``hold``).
            waiter = target.append_durable(intent_of(event, profile=profile, server=server))
            intents[event.change_id] = waiter
            event.hold.append(waiter)
        elif isinstance(event, ChangeFinished):
            intent = intents.pop(event.change_id, None) if event.change_id else None
            known = intent is not None and intent.done() and not intent.cancelled()
            intent_seq = intent.result() if intent is not None and known else None
            target.append(record_of(event, profile=profile, server=server, intent_seq=intent_seq))

    return client.events.subscribe(on_change, ChangeStarted, ChangeFinished)
