"""The journal of changes on the command line's client.

Every request the command line sends goes through the one client of its connection, and only
inside :func:`recorded` (``session.connect`` opens it right after signing in): the evidence
journal's recorder is attached to that client as the desktop program attaches it to its own
(``evidence.recorder.attach``, the profile's name and base URL), so every change made from the
command line is one record of the same journal. Imported when a command connects, not before.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from portal_admin.client import PortalClient


@contextlib.asynccontextmanager
async def recorded(client: PortalClient, *, profile: str, server: str) -> AsyncIterator[None]:
    """Journal every change ``client`` sends while the block runs; on leaving, stop, write
    what is queued (the journal flushes at the end of a turn of the loop) and, when the
    command journaled anything, a signed checkpoint of the journal's head (a clean stop)."""
    from portal_admin.evidence.recorder import attach, journal_at

    stop = attach(client, profile=profile, server=server)
    try:
        yield
    finally:
        stop()
        journal_at().close()
