"""When a run is confirmed by typing the number of its targets (one rule for the command line
and the desktop program; no Qt)."""

from __future__ import annotations

from .store import JobFile

#: Targets above which a revert is confirmed by typing their number on any server.
THRESHOLD = 100


def confirmation_needed(job: JobFile, production: bool, threshold: int = THRESHOLD) -> int | None:
    """The number the person must type before ``job`` runs, or None when no typing is needed.

    On production every run that changes something is typed (a revert among them, and any job
    over ``threshold``); elsewhere a revert over ``threshold`` targets is typed too. Other jobs
    off production are not (a test server's large jobs stay scriptable).
    """
    count = job.counts()["planned"]
    if count == 0:
        return None
    if production:
        return count
    if job.meta().get("kind") == "revert" and count > threshold:
        return count
    return None
